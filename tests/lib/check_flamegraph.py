#!/usr/bin/env python3
"""check_flamegraph.py SVG SPEEDSCOPE_JSON [PAGE_DOM]

Checks gmon2cg's --format=svg flame graph SVG against the speedscope file
of the same conversion: the frames are speedscope's stacks merged as its
flame chart merges them (a stack shares a frame with the one before it as
far as their paths agree), with the same names, depths, starts, totals
and self times (data-x, data-ns, data-self, in ns); every frame's
children and self time add up to its total, the roots to the picture's;
every <title> carries its frame's name and numbers.  With PAGE_DOM (the
SVG as headless Chromium left it, its checks' verdict in the root's
data-check attribute), that verdict is "ok".  Exit status 0 when all
holds, 1 with what does not on stderr.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
problems = []


def speedscope_frames(path):
    doc = json.load(open(path, encoding="utf-8"))
    names = [f["name"] for f in doc["shared"]["frames"]]
    prof = doc["profiles"][0]
    nodes, open_, x = [], [], 0
    for stack, weight in zip(prof["samples"], prof["weights"]):
        same = 0
        while same < len(stack) and same < len(open_) and nodes[open_[same]][0] == stack[same]:
            same += 1
        open_ = open_[:same]
        for d in range(same, len(stack)):
            nodes.append([stack[d], d, x, 0, 0])
            open_.append(len(nodes) - 1)
        for n in open_:
            nodes[n][3] += weight
        nodes[open_[-1]][4] += weight
        x += weight
    return [(names[f], d, x0, w, s) for f, d, x0, w, s in nodes], x


def adding_up(frames, total):
    """What is wrong with FRAMES (name, depth, x, width, self) as a flame
    graph of TOTAL: each frame's children and self add up to its width,
    the roots to the total."""
    problems = []
    for name, d, x, w, s in frames:
        inner = sum(c[3] for c in frames if c[1] == d + 1 and x <= c[2] < x + w)
        if inner + s != w:
            problems.append("%s at %d: children %d + self %d != %d" % (name, x, inner, s, w))
    if sum(n[3] for n in frames if n[1] == 0) != total:
        problems.append("the roots do not add up to the total")
    return problems


def browser_verdict(dom_path):
    """What the page's own checks (flamegraph-checks.js) found wrong, from
    the DOM Chromium dumped after they ran."""
    dom = open(dom_path, encoding="utf-8").read()
    m = re.search(r'data-check="([^"]*)"', dom)
    if not m or m.group(1) != "ok":
        return ["in the browser: %s" % (m.group(1) if m else "the checks did not run")]
    return []


def main():
    svg = ET.parse(sys.argv[1]).getroot()
    want, total = speedscope_frames(sys.argv[2])
    got = []
    for g in svg.iter(NS + "g"):
        title = g.find(NS + "title").text
        name = title.split("\n")[0]
        x, w, s, d = (int(g.get(k)) for k in ("data-x", "data-ns", "data-self", "data-depth"))
        got.append((name, d, x, w, s))
        if not re.search(r"\ntotal [^\n]* \(\d+\.\d\d%%\), %d ns\nself [^\n]*, %d ns$" % (w, s), title):
            problems.append("title of %s at %d does not carry its numbers: %r" % (name, x, title))
    if int(svg.get("data-total")) != total:
        problems.append("total %s, speedscope's %d" % (svg.get("data-total"), total))
    if got != want:
        problems.append("%d frames, speedscope's %d; first differences: %s" % (
            len(got), len(want), [(a, b) for a, b in zip(got, want) if a != b][:3]))
    problems.extend(adding_up(got, total))
    if len(sys.argv) > 3:
        problems.extend(browser_verdict(sys.argv[3]))
    for p in problems:
        print("%s: %s" % (sys.argv[1], p), file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
