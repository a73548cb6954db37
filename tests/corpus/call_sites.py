#!/usr/bin/env python3
"""call_sites.py PROFILE LIB: every call site (the position after calls=)
of a converted LD_PROFILE profile is a call instruction of LIB
(`objdump -d`), at the file and line `addr2line` gives for it where LIB
has line info (tests/lib/check_positions.py reads both).  Prints the
offenders and a summary line; exits 0 if there is none, 3 if every
offender is the return address of a call (a known defect), else 1."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import check_positions as cp  # noqa: E402

profile, lib = sys.argv[1:3]
insns = cp.disassembly(lib)
sites = [(a, f, n) for a, is_site, f, n in cp.positions(profile) if is_site and a]
where = cp.addr2line(lib, sorted({a for a, _f, _n in sites}))
order = sorted(insns)
after_call = {b for a, b in zip(order, order[1:]) if cp.CALLS.match(insns[a])}
bad, returns = [], 0
for addr, file, line in sites:
    w = where.get(addr, ("??", 0))
    if addr not in insns or not cp.CALLS.match(insns[addr]):
        bad.append("0x%x holds '%s', not a call" % (addr, insns.get(addr, "no instruction")))
        returns += addr in after_call
    elif w[1] > 0 and w != (file, line):
        bad.append("0x%x is at %s:%s, addr2line says %s:%s" % (addr, file, line, w[0], w[1]))
for b in bad:
    print(b)
print("%d call sites, %d bad (%d at a return address)" % (len(sites), len(bad), returns))
sys.exit(0 if not bad else 3 if returns == len(bad) else 1)
