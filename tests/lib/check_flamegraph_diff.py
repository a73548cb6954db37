#!/usr/bin/env python3
"""check_flamegraph_diff.py SVG REPORT JUNIT [PAGE_DOM]

Checks gmon2cg --compare --svg's differential flame graph against the text
report and the JUnit XML of the same comparison: every frame's children
and self time add up to its total, the roots to the picture's total, which
is the new side's total time of the JUnit report; each function's frame
has a title carrying the report's old, new and change of its self time,
inclusive time and calls, its verdict (data-verdict) and fill follow the
report (a change beyond noise slower or faster, "?" inconclusive, "(new)"
new, else within noise), and the functions past a gate ("!") and they
alone are outlined and say so in their titles.  With PAGE_DOM, the
browser's checks (tests/lib/flamegraph-checks.js) said "ok".  Exit status
0 when all holds, 1 with what does not on stderr.
"""
import re
import sys
import xml.etree.ElementTree as ET

from check_flamegraph import adding_up, browser_verdict

NS = "{http://www.w3.org/2000/svg}"
FILLS = {"slower": "#e8553f", "faster": "#4f8fe0", "noise": "#d9d6c8",
         "inconclusive": "#f2c53d", "new": "#b48ce6", "none": "#b8b8b8"}
problems = []


def report_rows(path):
    """(name, file) -> (mark, numbers[9], is_new) from the text report."""
    rows, lines = {}, open(path, encoding="utf-8").read().split("\n")
    for head, nums in zip(lines, lines[1:]):
        m = re.match(r"^([!*?~ ]) (\S+)  (\S+)(.*)$", head)
        if not m or m.group(2) == "(total)" or not re.match(r"^ +\d", nums):
            continue
        fields = nums.split()
        if len(fields) == 9:
            rows.setdefault((m.group(2), m.group(3)), (m.group(1), fields, "(new)" in m.group(4)))
    return rows


def verdict(mark, fields, is_new):
    if is_new:
        return "new"
    if fields[2].endswith("*"):
        return "faster" if fields[2].startswith("-") else "slower"
    return "inconclusive" if mark == "?" else "noise"


def main():
    svg = ET.parse(sys.argv[1]).getroot()
    rows = report_rows(sys.argv[2])
    junit = ET.parse(sys.argv[3]).getroot()
    total = int(svg.get("data-total"))
    new_total = [float(t.get("time")) for t in junit.iter("testcase") if t.get("name") == "(total)"][0]
    if abs(total / 1e9 - new_total) > 1.5e-6:
        problems.append("total %d ns, the new side's %.6f s" % (total, new_total))
    frames, seen = [], set()
    for g in svg.iter(NS + "g"):
        title, rect = g.find(NS + "title").text, g.find(NS + "rect")
        lines = title.split("\n")
        x, w, s, d = (int(g.get(k)) for k in ("data-x", "data-ns", "data-self", "data-depth"))
        frames.append((lines[0], d, x, w, s))
        if rect.get("fill") != FILLS.get(rect.get("data-verdict")):
            problems.append("%s: fill %s for verdict %s" % (lines[0], rect.get("fill"), rect.get("data-verdict")))
        key = (lines[0], re.sub(r":\d+( in .*)?$", "", lines[1]))
        if key not in rows:
            continue
        seen.add(key)
        mark, f, is_new = rows[key]
        for what, i in (("self", 0), ("inclusive", 3), ("calls", 6)):
            want = "\n%s %s -> %s (%s)\n" % (what, f[i], f[i + 1], f[i + 2])
            if want not in title:
                problems.append("%s: title lacks %r: %r" % (lines[0], want, title))
        want = verdict(mark, f, is_new)
        if rect.get("data-verdict") != want:
            problems.append("%s: verdict %s, the report's %s" % (lines[0], rect.get("data-verdict"), want))
        gated = rect.get("data-gate") == "failed" and rect.get("stroke") == "#000"
        if gated != (mark == "!") or (("\n! FAILS: " in title) != (mark == "!")):
            problems.append("%s: past a gate %s, but marked %s" % (lines[0], mark == "!", gated))
    problems.extend(adding_up(frames, total))
    if not seen:
        problems.append("no frame of a function in the report")
    if len(sys.argv) > 4:
        problems.extend(browser_verdict(sys.argv[4]))
    for p in problems:
        print("%s: %s" % (sys.argv[1], p), file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
