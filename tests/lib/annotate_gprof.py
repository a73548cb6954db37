#!/usr/bin/env python3
"""Check callgrind_annotate's inclusive costs against gprof's call graph.

    annotate_gprof.py ANNOTATED EXE GMON [GPROF OPTIONS...]

ANNOTATED is what `callgrind_annotate --inclusive=yes --threshold=100`
printed for gmon2cg's output with the same selection options.  For every
function gprof's call graph prints (gprof -b -q OPTIONS) that is in no
cycle, callgrind_annotate's inclusive cost must be gprof's self +
children; for a member of a cycle a selection leaves partly out of the
graph (no cycle to callgrind_annotate), gprof's member line (self +
children) when gprof shows no caller of it outside the cycle, and at
least that otherwise (those callers carry the cycle's share).  Within
max(1 %, one sample), plus the samples gprof's 2-byte bin model moved
between functions (measured without options, against the exact counts).

Prints one line per difference; exits 1 if there is any.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exact_hist  # noqa: E402
import gprof_model  # noqa: E402
from compare_gprof import moved_without_options  # noqa: E402

LINE = re.compile(r"^\s*(?P<ns>[\d,]+) \(\s*[\d.]+%\)\s+(?P<file>[^:]*):(?P<fn>.*) \[[^\]]*\]$")


def main(argv):
    annotated, exe, gmon, options = argv[1], argv[2], argv[3], argv[4:]
    gp = gprof_model.parse(gprof_model.run_gprof(exe, [gmon], extra=options,
                                                 gprof=os.environ.get("GPROF") or "gprof"))
    hz = gp["hz"]
    moved = moved_without_options(exe, [gmon], exact_hist.compute(exe, [gmon])["functions"])
    incl = {}
    for line in open(annotated).read().splitlines():
        m = LINE.match(line)
        if m:
            incl[m.group("fn")] = int(m.group("ns").replace(",", "")) / 1e9 * hz
    members = {}
    for c in gp["cycles"].values():
        for m in c["members"]:
            members[m] = set(c["members"])
    diffs, checked = [], 0
    for name, g in sorted(gp["functions"].items()):
        if g["self_s"] is None:
            continue
        want = (g["self_s"] + g["children_s"]) * hz
        tol = max(0.01 * want, 1.0) + 0.5 + moved
        have = incl.get(name, 0.0)
        if name not in members:
            bad = abs(have - want) > tol
        elif all(m in incl for m in members[name]):
            continue  # a whole cycle: callgrind_annotate does not group it
        elif any(a["callee"] == name and a["caller"] not in members[name]
                 for a in gp["arcs"]):
            bad = have < want - tol
        else:
            bad = abs(have - want) > tol
        checked += 1
        if bad:
            diffs.append("%s: inclusive %.2f samples in callgrind_annotate, gprof %.2f"
                         % (name, have, want))
    for line in diffs:
        print(line)
    print("%d functions checked, %d differ (tolerance includes %.1f samples moved)"
          % (checked, len(diffs), moved))
    return 1 if diffs or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
