#!/usr/bin/env python3
"""Compare a gmon2cg profile with GNU gprof on the same inputs.

    compare_gprof.py --cg PROFILE [--exact-gmon TAGGED]... EXE GMON...

Reads PROFILE as KCachegrind does (callgrind_model), runs gprof on EXE and
the GMON files (gprof_model), and computes the exact per-function sample
counts from the histogram independently (exact_hist).  Checks, for every
function gprof reports:

  * self time: equal to gprof's within max(1 %, one sample) plus gprof's
    print rounding.  Where gprof's 2-byte bin model moved samples between
    neighbours by more than that, the exact count from the histogram is
    used instead, and the line says so.  Self time must always equal the
    exact count (to a millionth of a sample), but for the marker of a
    function too cheap for its calls: at most 1 ns per call line into it
    (or one for a root), so that its calls in carry what it costs;
  * inclusive time (self + children, and a cycle as a whole): equal to
    gprof's within the same tolerance plus the samples gprof's bin model
    moved in total (propagation moves no more than that);
  * call counts: every arc gprof prints has the same count in PROFILE, and
    PROFILE has no arc gprof lacks (calls from the pseudo function
    <spontaneous> aside).

Prints one line per check that needed the fallback or failed; exits 1 if
any check failed.
"""
import argparse
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind_model  # noqa: E402
import exact_hist  # noqa: E402
import gprof_model  # noqa: E402

PSEUDO = ("<spontaneous>", "<no symbol>", "<hidden>")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cg", required=True, help="gmon2cg output")
    ap.add_argument("--exact-gmon", action="append",
                    help="tagged gmon.out(s) with the same samples, for the exact "
                         "counts when GMON is in a layout exact_hist does not read")
    ap.add_argument("--gprof-args", default="",
                    help="selection options for gprof, as given to gmon2cg "
                         "(e.g. '-E f'); then self times are gprof's call-graph "
                         "shares and only the functions gprof shows are compared")
    ap.add_argument("exe")
    ap.add_argument("gmon", nargs="+")
    args = ap.parse_args()

    cg = callgrind_model.load(args.cg).result(cycles=True)
    gprof_args = shlex.split(args.gprof_args)
    gp = gprof_model.parse(gprof_model.run_gprof(args.exe, args.gmon, extra=gprof_args,
                                                 gprof=os.environ.get("GPROF") or "gprof"))
    ex = exact_hist.compute(args.exe, args.exact_gmon or args.gmon)
    hz = gp["hz"]
    ns_per_sample = 1e9 / hz
    failures = []
    notes = []

    def samples(ns):
        return ns / ns_per_sample

    def tolerance(gprof_s):
        return max(0.01 * abs(gprof_s) * hz, 1.0) + 0.5  # in samples

    funcs = cg["functions"]
    # gprof's entries: with selections some functions are left out of its
    # graph (self_s None) and must not be in the profile either.
    shown = {name for name, g in gp["functions"].items() if g["self_s"] is not None}
    for name in sorted(set(funcs) - shown):
        if name not in PSEUDO:
            failures.append("%s: in the profile but not in gprof's call graph" % name)
    # Samples gprof's bin model moved, over all functions.
    moved = sum(abs(g["self_s"] * hz - ex["functions"].get(name, 0.0))
                for name, g in gp["functions"].items() if name in shown)
    if gprof_args:
        moved = 0
        # gprof -E/-F/-N/-n scale self times; the exact counts do not apply.
        ex = {"functions": {}}

    for name, g in sorted(gp["functions"].items()):
        if name not in shown:
            continue
        ours = funcs.get(name)
        g_self = g["self_s"] * hz
        g_incl = (g["self_s"] + g["children_s"]) * hz
        if ours is None:
            # Not written: no calls and no samples.  Time gprof gives it
            # must be time its bin model moved here (checked below).
            if g["ncalls"] or g["self_calls"]:
                failures.append("%s: called in gprof's call graph but not in the profile" % name)
                continue
            ours = {"self": 0, "incl": 0}
        o_self = samples(ours["self"])
        exact = ex["functions"].get(name)
        # (a call line per site, each with a count of at least 1)
        markers = samples(1 + sum(a["count"] for a in cg["arcs"] if a["callee"] == name))
        if exact is not None and not -1e-6 * max(1, exact) <= o_self - exact <= \
                1e-6 * max(1, exact) + markers:
            failures.append("%s: self %.6f samples, but the histogram gives exactly %.6f"
                            % (name, o_self, exact))
        if abs(o_self - g_self) > tolerance(g["self_s"]):
            if exact is not None and abs(o_self - exact) <= 1e-6 * max(1, exact) + markers:
                notes.append("%s: self %.3f samples vs gprof %.2f: gprof's 2-byte bin "
                             "model moved samples; the exact count is %.3f"
                             % (name, o_self, g_self, exact))
            else:
                failures.append("%s: self %.3f samples, gprof %.2f" % (name, o_self, g_self))
        o_incl = samples(ours["incl"])
        if abs(o_incl - g_incl) > tolerance(g_incl / hz) + moved:
            failures.append("%s: inclusive %.3f samples, gprof %.2f (tolerance %.2f)"
                            % (name, o_incl, g_incl, tolerance(g_incl / hz) + moved))

    # Cycles as a whole, matched by their member sets.
    our_cycles = {frozenset(c["members"]): c for c in cg.get("cycle_costs", [])}
    for num, c in sorted(gp["cycles"].items()):
        mine = our_cycles.get(frozenset(c["members"]))
        if mine is None:
            failures.append("cycle %s %s: not a cycle in the profile" % (num, sorted(c["members"])))
            continue
        g_incl = (c["self_s"] + c["children_s"]) * hz
        o_incl = samples(mine["incoming"])
        if abs(o_incl - g_incl) > tolerance(g_incl / hz) + moved:
            failures.append("cycle %s: inclusive %.3f samples, gprof %.2f" % (num, o_incl, g_incl))
        if not gprof_args and mine["called"] != c["ncalls"]:
            failures.append("cycle %s: called %d from outside, gprof %d"
                            % (num, mine["called"], c["ncalls"]))
    if len(our_cycles) != len(gp["cycles"]):
        failures.append("%d cycles in the profile, %d in gprof" % (len(our_cycles), len(gp["cycles"])))

    ours_arcs = {}
    for a in cg["arcs"]:
        if a["caller"] in PSEUDO:
            continue
        key = (a["caller"], a["callee"])
        ours_arcs[key] = ours_arcs.get(key, 0) + a["count"]
    gprof_arcs = {}
    for a in gp["arcs"]:
        if a["caller"] not in shown or a["callee"] not in shown:
            continue  # an arc of a function gprof leaves out of its graph
        key = (a["caller"], a["callee"])
        gprof_arcs[key] = gprof_arcs.get(key, 0) + a["count"]
    # gprof lists a self-recursive arc only in the "called" column.
    for name, g in gp["functions"].items():
        if name in shown and g["self_calls"]:
            gprof_arcs.setdefault((name, name), g["self_calls"])
    for key in sorted(set(ours_arcs) | set(gprof_arcs)):
        if ours_arcs.get(key) != gprof_arcs.get(key):
            failures.append("arc %s -> %s: %s calls, gprof %s"
                            % (key[0], key[1], ours_arcs.get(key), gprof_arcs.get(key)))

    for line in notes:
        print("note: " + line)
    for line in failures:
        print("FAIL: " + line)
    print("%s: %d functions, %d cycles, %d arcs compared with gprof; %d failed"
          % (os.path.basename(os.path.dirname(os.path.abspath(args.exe))) or args.exe,
             len(gp["functions"]), len(gp["cycles"]), len(gprof_arcs), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
