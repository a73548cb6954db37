#!/bin/bash
# call-sites.sh -- which call of a hash bucket made an arc, when none of
# the bucket's calls names the callee: a bucket holding "call abort@plt"
# then "call helper", and arcs from it into helper and into target (which
# neither calls).  The arc into target is placed at the call of helper,
# which the profile shows ran and which stays in the program, not at the
# call into the PLT (code outside the program, and abort does not
# return), which came first and was taken before.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$PYTHON3" ] || skip "python3 not found"
command -v gcc >/dev/null && command -v objdump >/dev/null || skip "gcc or objdump not found"
[ "$(uname -m)" = x86_64 ] || skip "the program is x86-64 assembly"

cat >"$tmp/pair.c" <<'C'
#include <stdlib.h>
__attribute__((noinline)) void helper(void) { __asm__ volatile(""); }
__attribute__((noinline)) void target(void) { __asm__ volatile(""); }
void pair(void);
/* one 16-byte bucket: the returns of both calls */
__asm__(".text\n\t.p2align 4\n\t.globl pair\n\t.type pair, @function\npair:\n\t"
        "call abort@PLT\n\tcall helper\n\tret\n\t.size pair, .-pair\n");
int main(void) { if (getenv("PAIR")) pair(); helper(); target(); return 0; }
C
gcc -pg -g -O2 -o "$tmp/prog" "$tmp/pair.c" || { not_ok "the program does not build"; finish; }
# gmon.out: one sample in main, and the two arcs from pair's bucket, at
# the return addresses of helper's and target's mcount calls
objdump -d "$tmp/prog" >"$tmp/dis"
$PYTHON3 - "$tmp/dis" "$tmp/gmon.out" <<'PY' >"$tmp/sites" || not_ok "gmon.out not written"
import re, struct, sys
text = open(sys.argv[1]).read()
def func(name):
    m = re.search(r"^([0-9a-f]+) <%s>:\n(.*?)\n\n" % name, text, re.M | re.S)
    return int(m.group(1), 16), m.group(2).splitlines()
def after_mcount(name):
    lines = func(name)[1]
    for i, l in enumerate(lines):
        if "call" in l and "mcount" in l:
            return int(lines[i + 1].split(":")[0], 16)
pair, lines = func("pair")
calls = [int(l.split(":")[0], 16) for l in lines if "\tcall" in l]
main = func("main")[0]
low, high = main & ~0xfff, (pair + 0x1000) & ~0xfff
bins = [0] * ((high - low) // 2)
bins[(main - low) // 2] = 1
out = b"gmon" + struct.pack("<I", 1) + bytes(12)
out += b"\0" + struct.pack("<QQII", low, high, len(bins), 100) + b"seconds\0\0\0\0\0\0\0\0s"
out += struct.pack("<%dH" % len(bins), *bins)
for callee in ("helper", "target"):
    out += b"\1" + struct.pack("<QQI", pair, after_mcount(callee), 1)
open(sys.argv[2], "wb").write(out)
print(" ".join("%x" % c for c in calls))
PY
read -r plt_call helper_call <"$tmp/sites"
"$GMON2CG" -o "$tmp/pair.cg" "$tmp/prog" "$tmp/gmon.out" 2>"$tmp/err" ||
	{ not_ok "conversion: $(cat "$tmp/err")"; finish; }
PYTHONPATH=$srcdir/tests/lib $PYTHON3 - "$tmp/pair.cg" "$plt_call" "$helper_call" <<'PY' >"$tmp/log" 2>&1
import sys
from check_positions import positions
sites = sorted({a for a, is_call, _f, _l in positions(sys.argv[1]) if is_call and a})
print("call sites:", [hex(a) for a in sites])
sys.exit(sites != [int(sys.argv[3], 16)])
PY
check "both arcs at the call of helper (0x$helper_call), none at abort@plt's (0x$plt_call)" || diag <"$tmp/log"
finish
