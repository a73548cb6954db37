#!/usr/bin/env python3
"""Check a gmon2cg profile's positions against objdump's disassembly.

    check_positions.py PROFILE EXE

Every address on a cost or call-cost line must be the start of an
instruction as `objdump -d EXE` lists it (the pseudo caller's address 0
aside), and every call site (the line after calls=) must be a call
instruction.  Prints the offending addresses and exits 1 if any.
"""
import re
import subprocess
import sys

CALLS = re.compile(r"^(?:notrack |bnd )?(call[qlw]?|bl|blx|blr|bla|bctrl|blrl|brasl|bras|basr|bas|jal|jalr|bal)\b")


def positions(path):
    """(address, is_call_site) of every position line."""
    out, last, after_calls = [], None, False
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("calls="):
            after_calls = True
            continue
        if not line or not (line[0].isdigit() or line[0] in "+-*"):
            continue
        tok = line.split()[0]
        if tok.startswith("0x"):
            addr = int(tok, 16)
        elif tok == "*":
            addr = last
        elif tok[0] in "+-":
            addr = last + int(tok)
        else:
            addr = int(tok)
        last = addr
        out.append((addr, after_calls))
        after_calls = False
    return out


def disassembly(exe):
    text = subprocess.run(["objdump", "-d", "-w", exe], capture_output=True,
                          text=True, check=True).stdout
    insns = {}
    for m in re.finditer(r"^\s*([0-9a-f]+):\t(?:[0-9a-f]{2,8} ?)+\s*\t(.*)$", text, re.M):
        insns[int(m.group(1), 16)] = m.group(2).strip()
    return insns


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    insns = disassembly(sys.argv[2])
    bad = []
    checked = 0
    for addr, is_site in positions(sys.argv[1]):
        if addr == 0 and is_site:
            continue
        checked += 1
        if addr not in insns:
            bad.append("0x%x is not an instruction start" % addr)
        elif is_site and not CALLS.match(insns[addr]):
            bad.append("0x%x is a call site but holds '%s'" % (addr, insns[addr]))
    for line in bad:
        print("FAIL: " + line)
    print("%d positions checked, %d bad" % (checked, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
