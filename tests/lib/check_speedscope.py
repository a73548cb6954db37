#!/usr/bin/env python3
"""Compare speedscope's sandwich view with gprof's figures.

Usage: check_speedscope.py DOM EXE GMON [--cg CALLGRIND]

DOM is the page Chromium dumped with speedscope's sandwich view of
gmon2cg's speedscope file for EXE and GMON (its table rows: total, self,
name).  Against gprof -b on EXE and GMON (gprof_model): every function's
self time must be gprof's flat profile's, every function's total gprof's
self + children (for a cycle member, its line in the cycle's entry), and
a cycle's "<cycle N>" total the cycle's self + children, each within one sample or 1 %.  Where gprof's
2-byte bin model moved samples between neighbours (fixtures/interp, see
tests/deviations.sh), a self time may be the exact count from the
histogram instead (exact_hist), and totals may be off by the samples moved
in all, as tests/lib/compare_gprof.py allows the callgrind file.  With
--cg, each function's self and total must also be those of gmon2cg's
callgrind file CALLGRIND (callgrind_model; its self and inclusive cost)
within one sample.
Prints one line per disagreement and exits 1 if there is any.
"""

import argparse
import html
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind_model  # noqa: E402
import exact_hist  # noqa: E402
import gprof_model  # noqa: E402

# (a bare number: a profile without a unit, such as a callgrind file's ns)
UNITS = {"": 1e-9, "ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
ROW = re.compile(r"<tr[^>]*><td[^>]*>(?P<total>[^<(]*)\([^)]*\)(?:<div.*?</div></div>)?"
                 r"</td><td[^>]*>(?P<self>[^<(]*)\([^)]*\)(?:<div.*?</div></div>)?"
                 r"</td><td[^>]*>(?:<span[^>]*></span>)?(?P<name>[^<]*)</td></tr>")


def seconds(text):
    m = re.fullmatch(r"\s*([0-9.,]+)\s*(ns|µs|us|ms|s|)\s*", text)
    if not m:
        raise ValueError(f"not a time: {text!r}")
    return float(m.group(1).replace(",", "")) * UNITS[m.group(2)]


def sandwich(dom):
    rows = {}
    for m in ROW.finditer(dom):
        rows[html.unescape(m.group("name"))] = (seconds(m.group("total")),
                                                seconds(m.group("self")))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dom")
    ap.add_argument("exe")
    ap.add_argument("gmon")
    ap.add_argument("--cg")
    a = ap.parse_args()
    with open(a.dom, encoding="utf-8") as f:
        shown = sandwich(f.read())
    g = gprof_model.parse(gprof_model.run_gprof(a.exe, [a.gmon],
                                                gprof=os.environ.get("GPROF") or "gprof"))
    exact = exact_hist.compute(a.exe, [a.gmon])["functions"]
    sample = g["sample_s"]
    moved = sample * sum(abs(fn["self_s"] / sample - exact.get(name, 0.0))
                         for name, fn in g["functions"].items())
    bad = []

    def check(what, name, got, want, more=0.0):
        if abs(got - want) > max(sample, 0.01 * want) + more + 1e-9:
            bad.append(f"{name}: {what} {got:.6g} s in speedscope, {want:.6g} s expected")
            return False
        return True

    if not shown:
        bad.append("no sandwich rows in the page")
    for name, fn in g["functions"].items():
        total_s, self_s = shown.get(name, (0.0, 0.0))  # not shown: no time
        if abs(self_s - fn["self_s"]) > max(sample, 0.01 * fn["self_s"]) + 1e-9:
            check("self (the histogram's exact count; gprof's bins moved it)", name,
                  self_s, exact.get(name, 0.0) * sample)
        # (a cycle member's: its line in the cycle's entry)
        check("total", name, total_s, fn["self_s"] + fn["children_s"], moved)
    for num, cyc in g["cycles"].items():
        name = f"<cycle {num}>"
        if name not in shown:
            bad.append(f"{name}: not shown")
        else:
            check("total", name, shown[name][0], cyc["self_s"] + cyc["children_s"], moved)
    if a.cg:
        model = callgrind_model.load(a.cg).result(cycles=True)["functions"]
        for name, fn in model.items():
            total_s, self_s = shown.get(name, (0.0, 0.0))
            check("self (callgrind file)", name, self_s, fn["self"] * 1e-9)
            if name in g["functions"] and not g["functions"][name]["cycle"]:
                check("total (callgrind file)", name, total_s, fn["incl"] * 1e-9)
    for line in bad:
        print(line)
    print(f"{len(shown)} functions shown, {len(bad)} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
