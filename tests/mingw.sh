#!/bin/bash
# mingw.sh -- Windows profiles (fixtures/mingw, MinGW-w64's 4.4BSD layout
# with PE executables): x86-64 call counts are 4-byte longs whatever the
# arcs' padding holds, i686 names lose their leading underscore, and
# names, calls and samples agree with gprof's on the global functions;
# gprof -s's sums of them convert.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$GPROF" ] && [ -n "$PYTHON3" ] || skip "gprof or python3 not found"
export GPROF
dir=$FIXTURES/mingw

# calls CG: "caller callee count" of every call in CG, sorted.
calls() {
	$PYTHON3 "$srcdir/tests/lib/callgrind_model.py" --json "$1" |
		$PYTHON3 -c 'import json, sys
for a in json.load(sys.stdin)["arcs"]:
    print(a["caller"], a["callee"], a["count"])' | sort
}

# The calls cross.c makes (fixtures/cross/README), printf's aside.
cat >"$tmp/expected" <<'EOF'
<spontaneous> main 1
cyc_ping cyc_pong 60
cyc_pong cyc_ping 54
main cyc_ping 6
main mid_alpha 1
main mid_beta 1
main rec_descend 8
mid_alpha hot_leaf 120
mid_beta hot_leaf 40
rec_descend rec_descend 192
EOF

# hist_samples GMON: the sum of the bins of a MinGW-w64 gmon.out, whose
# header is 40 bytes on x86-64 and 32 on i686 (ncnt, the header's and the
# bins' size, follows the two addresses).
hist_samples() {
	$PYTHON3 - "$1" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
addr = 8 if struct.unpack_from("<I", data, 20)[0] == 0x00051879 else 4
header = 2 * addr + 24
ncnt = struct.unpack_from("<I", data, 2 * addr)[0]
print(sum(struct.unpack_from("<%dH" % ((ncnt - header) // 2), data, header)))
EOF
}

# with_padding IN OUT WORD: IN with each x86-64 arc's 4 padding bytes
# (after the 4-byte count) set to the hex WORD.
with_padding() {
	$PYTHON3 - "$@" <<'EOF'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
ncnt = struct.unpack_from("<I", data, 16)[0]
for off in range(ncnt + 20, len(data), 24):
    struct.pack_into("<I", data, off, int(sys.argv[3], 16))
open(sys.argv[2], "wb").write(data)
EOF
}

# agree_with_gprof EXE GMON CG: gprof's flat profile and call graph, for
# the functions of cross.c (all global: gprof credits a call into a
# static function such as printf.constprop.0 to the global symbol before
# it), have CG's names, self times (in 10 ms samples) and call counts.
agree_with_gprof() {
	$PYTHON3 "$srcdir/tests/lib/gprof_model.py" "$1" "$2" --json >"$tmp/gprof.json" &&
	$PYTHON3 "$srcdir/tests/lib/callgrind_model.py" --json "$3" >"$tmp/cg.json" &&
	$PYTHON3 - "$tmp/gprof.json" "$tmp/cg.json" <<'EOF'
import json, sys
gp, cg = (json.load(open(p)) for p in sys.argv[1:])
ours = ("main", "hot_leaf", "mid_alpha", "mid_beta", "rec_descend", "cyc_ping", "cyc_pong")
bad = []
for name in ours:
    g, c = gp["functions"].get(name), cg["functions"].get(name)
    if not g or not c:
        bad.append("%s: gprof %s, gmon2cg %s" % (name, bool(g), bool(c)))
    elif round(g["flat_self_s"] * 100) != round(c["self"] / 1e7):
        bad.append("%s: %s s by gprof, %s ns by gmon2cg" % (name, g["flat_self_s"], c["self"]))
arcs = lambda m: {(a["caller"], a["callee"]): a["count"] for a in m["arcs"]
                  if a["caller"] in ours and a["callee"] in ours}
if arcs(gp) != arcs(cg):
    bad.append("calls: gprof %s, gmon2cg %s" % (sorted(arcs(gp).items()), sorted(arcs(cg).items())))
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
}

for arch in x86-64 i686; do
	exe=$dir/$arch/prog.exe gmon=$dir/$arch/gmon.out
	"$GMON2CG" -o "$tmp/$arch.cg" "$exe" "$gmon" 2>"$tmp/err"
	check "$arch converts" || diag <"$tmp/err"
	calls "$tmp/$arch.cg" | grep -v printf >"$tmp/$arch.calls"
	diff "$tmp/expected" "$tmp/$arch.calls" >"$tmp/diff"
	check "$arch: the exact call counts" || diag <"$tmp/diff"
	samples=$(hist_samples "$gmon")
	[ "$(( $(sed -n 's/^summary: //p' "$tmp/$arch.cg") / 10000000 ))" = "$samples" ]
	check "$arch: all of the $samples samples are credited"
	grep -q '^c\?fn=([0-9]*) _' "$tmp/$arch.cg"
	[ $? -eq 1 ]; check "$arch: no name keeps a leading underscore"
done

# The real run's padding is not zero (MinGW-w64 writes it from an
# uninitialised struct), and no padding changes the counts.
gmon=$dir/x86-64/gmon.out
ncnt=$(od -An -t u4 -j 16 -N 4 "$gmon" | tr -d ' ')
od -An -v -t x4 -w24 -j "$ncnt" "$gmon" | awk '$6 != "00000000" { found = 1 } END { exit !found }'
check "x86-64 fixture: some arc's padding is not zero"
with_padding "$gmon" "$tmp/zero.out" 0
with_padding "$gmon" "$tmp/ones.out" ffffffff
for variant in zero ones; do
	"$GMON2CG" -o "$tmp/$variant.cg" "$dir/x86-64/prog.exe" "$tmp/$variant.out" &&
		cmp -s <(grep -v '^desc: Trigger' "$tmp/x86-64.cg") <(grep -v '^desc: Trigger' "$tmp/$variant.cg")
	check "x86-64: padding $variant converts as the real file"
done

# gprof reads 8-byte counts: compare with it where the padding is zero.
agree_with_gprof "$dir/x86-64/prog.exe" "$tmp/zero.out" "$tmp/x86-64.cg" >"$tmp/log"
check "x86-64 agrees with gprof" || diag <"$tmp/log"
agree_with_gprof "$dir/i686/prog.exe" "$dir/i686/gmon.out" "$tmp/i686.cg" >"$tmp/log"
check "i686 agrees with gprof" || diag <"$tmp/log"

# A gmon.sum that gprof -s writes of it converts, with every call of
# cross.c (its calls placed at gprof's lines, through libbfd's COFF line
# lookup: under the sanitizers, with no leak of gmon2cg's).
for arch in x86-64 i686; do
	if (cd "$tmp" && rm -f gmon.sum && $GPROF -s "$dir/$arch/prog.exe" "$dir/$arch/gmon.out") &&
		"$GMON2CG" -o "$tmp/$arch-sum.cg" "$dir/$arch/prog.exe" "$tmp/gmon.sum" 2>"$tmp/err" &&
		calls "$tmp/$arch-sum.cg" >"$tmp/$arch-sum.calls" &&
		[ -z "$(comm -23 "$tmp/expected" "$tmp/$arch-sum.calls")" ]; then
		ok "$arch: a gmon.sum of it converts with the exact call counts"
	else
		not_ok "$arch: a gmon.sum of it does not convert with the exact call counts"
		diag <"$tmp/err"
		comm -23 "$tmp/expected" "$tmp/$arch-sum.calls" | diag
	fi
done

# As with gprof --no-demangle, the symbol table's names.
"$GMON2CG" --no-demangle -o "$tmp/raw.cg" "$dir/i686/prog.exe" "$dir/i686/gmon.out" &&
	grep -q '^fn=([0-9]*) _hot_leaf$' "$tmp/raw.cg"
check "i686 --no-demangle keeps _hot_leaf"
finish
