#!/usr/bin/env python3
"""bins_kept.py PROFILE BINARY (--gmon GMON | --oracle ORACLE): every
histogram bin's samples are on the instructions that start in it.

The bins come from a program's GMON (tests/lib/exact_hist.py reads it)
or from ORACLE, tests/lib/ldprofile.py's reading of an LD_PROFILE file;
the pcs a bin counts follow the exact profil(2) relation.  Each self-cost
line of PROFILE (not a call's cost line) is at an address; its cost goes
to the sampled bin that address is in.  Checks that every such address
is the start of an instruction of BINARY (`objdump -d`) in a sampled bin,
and that the costs in each bin add up to its count times the sample
period (to 1 ns per cost line), or to less where the bin overlaps the
mcount family or its PLT entries, whose samples may be left out of every
total.  A function too cheap for its calls has at its entry, wherever
that is, a marker of at most 1 ns per call line into it (into its cycle
from outside, for a cycle's member), plus 1 as a root.  That holds for
every function, wherever gmon2cg ends it: no function's self cost is
below the bins only its instructions are in or above the bins any of its
instructions are in.  Prints the offending bins and a summary line;
exits 1 if there is any.
"""
import bisect
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import callgrind_model  # noqa: E402
import check_positions as cp  # noqa: E402
import exact_hist  # noqa: E402


def gmon_bins(binary, gmon):
    psize, bo = exact_hist.elf_layout(binary)
    out, rate = [], None
    for r in exact_hist.read_gmon(gmon, psize, bo):
        rate = r["rate"]
        scale = exact_hist.profil_scale(r["nbins"], r["high_pc"] - r["low_pc"])
        for i, c in enumerate(r["bins"]):
            if c:
                lo, hi = exact_hist.bin_bounds(r["low_pc"], scale, i)
                out.append((lo, hi, c))
    return rate, out


def oracle_bins(oracle):
    rate, out = None, []
    for line in open(oracle):
        f = line.split()
        if f[0] == "hist":
            rate = int(f[4])
        elif f[0] == "bin":
            out.append((int(f[1], 16), int(f[2], 16), int(f[3])))
    return rate, out


def self_costs(profile):
    """[(address, cost of the first event)] of the self-cost lines, as the
    callgrind model reads them."""
    class SelfCosts(callgrind_model.Observer):
        def __init__(self):
            self.out = []

        def cost(self, _fn, addr, vals, is_call, _line):
            if not is_call and vals:
                self.out.append((addr, vals[0]))

    seen = SelfCosts()
    with open(profile, encoding="utf-8", errors="surrogateescape") as fh:
        callgrind_model.parse_text(fh.read(), profile, seen)
    return seen.out


def marker_bounds(profile):
    """{entry address: the most ns a marker there can be}: 1 per call
    line into the function, or into its cycle from outside for a cycle
    member (the cycle's marker goes to one member), plus 1 as a root."""
    model = callgrind_model.load(profile)
    group = {}
    for members in model.find_cycles():
        for key in members:
            group[key] = frozenset(members)
    lines_in = {}
    for (caller, callee), arc in model.arcs.items():
        g = group.get(callee, frozenset([callee]))
        if caller not in g:
            lines_in[g] = lines_in.get(g, 0) + arc.lines
    bounds = {}
    for key, f in model.functions.items():
        if f.addr is not None:
            n = lines_in.get(group.get(key, frozenset([key])), 0) + 1
            bounds[f.addr] = max(bounds.get(f.addr, 0), n)
    return bounds


def mcount_ranges(binary):
    """[start, end) of the mcount family's symbols and of their PLT
    entries (objdump's NAME@plt), each to the next symbol or label."""
    labels = set()
    for line in subprocess.run(["nm", "-n", "--defined-only", binary], capture_output=True,
                               text=True).stdout.splitlines():
        f = line.split(" ", 2)
        if len(f) == 3 and f[1] in "TtWw":
            labels.add((int(f[0], 16), f[2].split("@")[0]))
    for m in re.finditer(r"^([0-9a-f]+) <([^>]+)@plt>:$", subprocess.run(
            ["objdump", "-d", binary], capture_output=True, text=True).stdout, re.M):
        labels.add((int(m.group(1), 16), m.group(2)))
    syms = sorted(labels)
    return [(a, syms[k + 1][0] if k + 1 < len(syms) else a + 1)
            for k, (a, n) in enumerate(syms) if n in exact_hist.MCOUNT_FAMILY]


def main(argv):
    if len(argv) != 4 or argv[2] not in ("--gmon", "--oracle"):
        sys.exit(__doc__.strip().splitlines()[0])
    profile, binary, kind, hist = argv[0], argv[1], argv[2], argv[3]
    rate, bins = gmon_bins(binary, hist) if kind == "--gmon" else oracle_bins(hist)
    bins.sort()
    period = 1e9 / rate
    insns = cp.disassembly(binary)
    mcount = mcount_ranges(binary)
    starts = [lo for lo, _hi, _c in bins]
    got = [0] * len(bins)
    lines = [0] * len(bins)
    bad = []
    markers = [0] * len(bins)
    costs, bounds = self_costs(profile), marker_bounds(profile)
    for addr, cost in costs:
        if not cost:
            continue
        i = bisect.bisect_right(starts, addr) - 1
        marker = bounds.get(addr, 0)
        if i < 0 or addr >= bins[i][1]:
            if cost > marker:
                bad.append("0x%x: %d ns in no sampled bin" % (addr, cost))
            continue
        markers[i] += marker
        if addr not in insns:
            bad.append("0x%x: %d ns on no instruction start (bin [0x%x, 0x%x))"
                       % (addr, cost, bins[i][0], bins[i][1]))
        got[i] += cost
        lines[i] += 1
    for (lo, hi, count), ns, n, extra in zip(bins, got, lines, markers):
        want = count * period
        slack = n + 1
        short_ok = any(a < hi and lo < e for a, e in mcount)
        if ns > want + slack + extra or (ns < want - slack and not short_ok):
            bad.append("bin [0x%x, 0x%x): %d samples = %d ns, its instructions' costs %d ns"
                       % (lo, hi, count, want, ns))
    for b in bad[:40]:
        print(b)
    print("%d sampled bins, %d cost lines, %d bad" % (len(bins), len(costs), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
