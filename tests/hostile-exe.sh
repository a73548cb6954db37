#!/bin/bash
# hostile-exe.sh -- broken executables: truncated, section headers with
# absurd sizes and offsets, bytes flipped in the debug sections, and the
# executable fuzzer's findings (tests/fuzz/regressions/exe-*).  Each
# conversion exits 0 or 1 -- never a crash -- and says at most one line
# (libbfd's own warnings do not get through).
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$PYTHON3" ] || skip "python3 not found"
exe=$FIXTURES/calltree/prog gmon=$FIXTURES/calltree/gmon.out
mkdir "$tmp/bad"
$PYTHON3 - "$exe" "$tmp/bad" <<'PY'
import random, struct, sys
src, out = sys.argv[1], sys.argv[2]
data = open(src, "rb").read()
rnd = random.Random(4242)
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum = struct.unpack_from("<HH", data, 0x3a)
def save(name, d):
    open("%s/%s" % (out, name), "wb").write(bytes(d))
for cut in (64, 1024, len(data) // 2, len(data) - 100):
    save("cut-%d" % cut, data[:cut])
for i in range(shnum):
    sh = shoff + i * shentsize
    for field, off in (("size", 0x20), ("offset", 0x18), ("align", 0x30)):
        d = bytearray(data)
        struct.pack_into("<Q", d, sh + off, 0x7fffffffffff0000 + rnd.randrange(65536))
        save("sh%d-%s" % (i, field), d)
for n in range(20):
    d = bytearray(data)
    for _ in range(64):
        at = rnd.randrange(len(d) // 2, len(d))
        d[at] ^= 1 << rnd.randrange(8)
    save("flip-%d" % n, d)
PY
cp "$srcdir"/tests/fuzz/regressions/exe-* "$tmp/bad/"
bad=0 total=0
for f in "$tmp"/bad/*; do
	total=$((total + 1))
	timeout 60 "$GMON2CG" -o "$tmp/out.cg" "$f" "$gmon" >/dev/null 2>"$tmp/err"
	st=$?
	if [ "$st" -gt 1 ] || [ "$(wc -l <"$tmp/err")" -gt 1 ]; then
		bad=$((bad + 1))
		diag "$(basename "$f"): exit $st, $(wc -l <"$tmp/err") lines: $(head -3 "$tmp/err")"
	fi
	rm -f "$tmp/out.cg"
done
[ "$bad" -eq 0 ]; check "$total broken executables: exit 0 or 1, at most one line each"
finish
