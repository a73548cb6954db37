#!/usr/bin/env python3
"""Check a gmon2cg profile's positions against objdump's disassembly.

    check_positions.py [--lines] PROFILE EXE

Every address on a cost or call-cost line must be the start of an
instruction as `objdump -d EXE` lists it (the pseudo caller's address 0
aside), and every call site (the line after calls=) must be a call
instruction.  With --lines, each position's file (fl=/fi=/fe=) and line
must also be what `addr2line -e EXE` says for its address, where addr2line
knows a line.  Prints the offending addresses and exits 1 if any.
"""
import re
import subprocess
import sys

import callgrind_model

# The call instructions as objdump prints them: x86, ARM, PowerPC, s390x,
# MIPS, RISC-V, SPARC (call), m68k (bsr.l, jsr), Alpha (bsr, jsr), SuperH
# (jsr, bsr, bsrf), HP-PA (b,l and be,l; a call site is never "b,l X,r0").
CALLS = re.compile(r"^(?:notrack |bnd )?(call[qlw]?|bl|blx|blr|bla|bctrl|blrl|brasl|bras|basr|bas|"
                   r"jal|jalr|bal|bsr[swl]?|jsr|jbsr|bsrf|b,l(?:,n)?|be,l(?:,n)?|bve,l)(?=\s|$)")


def positions(path):
    """(address, is_call_site, file, line) of every position line, as the
    callgrind model (callgrind_model.py) reads them."""
    class Positions(callgrind_model.Observer):
        def __init__(self):
            self.out = []

        def position(self, addr, file, line, is_call):
            self.out.append((addr, is_call, file, line))

    seen = Positions()
    with open(path, encoding="utf-8", errors="surrogateescape") as fh:
        callgrind_model.parse_text(fh.read(), path, seen)
    return seen.out


def undouble(path):
    """addr2line joins a relative DWARF 5 directory entry 0 to
    DW_AT_comp_dir, which is the same directory: ./src/./src/x.c for
    ./src/x.c (and ././x.c for ./x.c).  gmon2cg names the file once."""
    m = re.match(r"^(\.(?:/[^/]+)*)/\1/([^/].*)$", path)
    return m.group(1) + "/" + m.group(2) if m else path


def addr2line(exe, addrs):
    text = subprocess.run(["addr2line", "-e", exe] + ["0x%x" % a for a in addrs],
                          capture_output=True, text=True, check=True).stdout
    res = {}
    for a, row in zip(addrs, text.splitlines()):
        row = re.sub(r" \(discriminator \d+\)$", "", row)
        f, _, n = row.rpartition(":")
        res[a] = (undouble(f), int(n) if n.isdigit() else 0)
    return res


def decoded_lines(exe):
    """(address, file base name, line) of every row of the line tables as
    objdump --dwarf=decodedline prints them, sorted: the tables as they
    are, for the rows where addr2line (libbfd's look-up) names another
    file at the same line (a DWARF 5 unit whose rows name a header of an
    instantiation, such as basic_string.tcc, taken for the unit's file)."""
    text = subprocess.run(["objdump", "--dwarf=decodedline", exe],
                          capture_output=True, text=True, check=True).stdout
    rows = []
    for m in re.finditer(r"^(\S+)\s+(\d+)\s+(0x[0-9a-f]+)\b", text, re.M):
        rows.append((int(m.group(3), 16), m.group(1), int(m.group(2))))
    rows.sort()
    return rows


def table_says(rows, addr, file, lineno):
    """Whether the last row of ROWS at or below ADDR is FILE:LINENO (by
    base name)."""
    import bisect
    i = bisect.bisect_right(rows, (addr, "\uffff", 1 << 62)) - 1
    return i >= 0 and rows[i][1] == file.rsplit("/", 1)[-1] and rows[i][2] == lineno


def disassembly(exe):
    text = subprocess.run(["objdump", "-d", "-w", exe], capture_output=True,
                          text=True, check=True).stdout
    insns = {}
    for m in re.finditer(r"^\s*([0-9a-f]+):\t(?:[0-9a-f]{2,8} ?)+\s*\t(.*)$", text, re.M):
        insns[int(m.group(1), 16)] = m.group(2).strip()
    return insns


def main():
    args = sys.argv[1:]
    lines = args[:1] == ["--lines"]
    if lines:
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    insns = disassembly(args[1])
    pos = positions(args[0])
    where = addr2line(args[1], sorted({p[0] for p in pos if p[0]})) if lines else {}
    bad = []
    checked = 0
    table = None
    for addr, is_site, file, lineno in pos:
        if addr == 0 and is_site:
            continue
        checked += 1
        if lines and where.get(addr, ("??", 0))[1] > 0 and \
                where[addr] != (file, lineno):
            if table is None:
                table = decoded_lines(args[1])
            if not (where[addr][1] == lineno and table_says(table, addr, file, lineno)):
                bad.append("0x%x is at %s:%s, addr2line says %s:%s"
                           % (addr, file, lineno, where[addr][0], where[addr][1]))
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
