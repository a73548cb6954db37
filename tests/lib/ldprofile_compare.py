#!/usr/bin/env python3
"""Compare a gmon2cg conversion of an LD_PROFILE profile with the oracle.

usage: ldprofile_compare.py CALLGRIND_FILE ORACLE_OUTPUT

ORACLE_OUTPUT is tests/lib/ldprofile.py --symbols LIB PROFILE.  Every
"call CALLER CALLEE N" of the oracle must be an arc of the callgrind file
with exactly N calls ("<outside>" is gmon2cg's "<outside SONAME>"), and
every "samples NAME N" must be NAME's self cost in samples (the oracle,
like gprof, credits samples in PLT stubs to _init; gmon2cg to the stub,
NAME@plt: those are compared as a sum).  Exit 0 when all agree.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind_model  # noqa: E402


def main(argv):
    model = callgrind_model.load(argv[1])
    ns_per_sample = None
    for d in model.desc:
        if d.startswith("Sampling rate:"):
            ns_per_sample = float(d.split("= ")[1].split(" ns")[0])
    names = {k: f.name for k, f in model.functions.items()}
    calls = {}
    for (a, b), arc in model.arcs.items():
        calls[(names[a], names[b])] = calls.get((names[a], names[b]), 0) + arc.count
    self_ns = {}
    for f in model.functions.values():
        self_ns[f.name] = self_ns.get(f.name, 0) + f.self_cost[0]
    ok = True
    plt_oracle = plt_ours = 0
    for line in open(argv[2]):
        f = line.split()
        if f and f[0] == "call":
            caller = f[1]
            if caller == "<outside>":
                caller = [n for n in names.values() if n.startswith("<outside ")]
                caller = caller[0] if caller else "<outside ?>"
            got = calls.get((caller, f[2]), 0)
            if got != int(f[3]):
                print("calls %s -> %s: %d, oracle %s" % (caller, f[2], got, f[3]))
                ok = False
        elif f and f[0] == "samples":
            want = int(f[2])
            if f[1] == "_init":
                plt_oracle += want
                continue
            got = self_ns.get(f[1], 0) / ns_per_sample
            if abs(got - want) > 0.5:
                print("samples %s: %.2f, oracle %d" % (f[1], got, want))
                ok = False
    for name, ns in self_ns.items():
        if name.endswith("@plt") or name == "_init":
            plt_ours += ns / ns_per_sample
    if abs(plt_ours - plt_oracle) > 0.5:
        print("samples in the PLT: %.2f, oracle %d" % (plt_ours, plt_oracle))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
