#!/usr/bin/env python3
"""Compare a gmon2cg profile with gprof's percentage columns.

    compare_gprof_pct.py --cg PROFILE EXE GMON...

At high sampling rates gprof's seconds (two decimals) are coarser than a
sample: at 10 kHz, 0.01 s is 100 samples, so compare_gprof.py's seconds
tolerate that much.  The percentages are finer: the flat profile's
"% time" (two decimals, of all counted samples: the profile's summary:)
and the call graph's "% time" (one decimal, of the time gprof propagates:
the sum of all self costs).  Checks, for every function gprof lists, self
and inclusive cost as those percentages, to gprof's print rounding.

Prints one line per failed check and a summary; exits 1 if any failed.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind_model  # noqa: E402
import compare_gprof  # noqa: E402
import gprof_model  # noqa: E402

# half the last printed digit, and a little for the float formatting
FLAT_TOLERANCE = 0.005 + 1e-6
GRAPH_TOLERANCE = 0.05 + 1e-6


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cg", required=True, help="gmon2cg output")
    ap.add_argument("exe")
    ap.add_argument("gmon", nargs="+")
    args = ap.parse_args()

    gp = gprof_model.parse(gprof_model.run_gprof(
        args.exe, args.gmon, gprof=os.environ.get("GPROF") or "gprof"))
    starts, names, aliases, _dropped = compare_gprof.gprof_names(args.exe, gp)
    cg = compare_gprof.gprof_view(callgrind_model.load(args.cg), gp,
                                  starts, names, aliases).result(cycles=True)
    funcs = cg["functions"]
    counted = cg["summary"]
    propagated = cg["self_sum"]
    failures = []
    compared = 0
    for name, g in sorted(gp["functions"].items()):
        ours = funcs.get(name, {"self": 0, "incl": 0})
        if g["flat_pct"] is not None:
            pct = 100.0 * ours["self"] / counted
            if abs(pct - g["flat_pct"]) > FLAT_TOLERANCE:
                failures.append("%s: self %.4f %% of the samples, gprof's flat profile %.2f %%"
                                % (name, pct, g["flat_pct"]))
        if g["pct"] is not None:
            pct = 100.0 * ours["incl"] / propagated
            if abs(pct - g["pct"]) > GRAPH_TOLERANCE:
                failures.append("%s: inclusive %.3f %%, gprof's call graph %.1f %%"
                                % (name, pct, g["pct"]))
        compared += 1
    for line in failures:
        print("FAIL: " + line)
    print("%d functions compared with gprof's percentages; %d failed"
          % (compared, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
