#!/bin/bash
# nodecoder.sh -- code gmon2cg cannot decode (here: the calltree fixture
# with an ELF machine number libbfd does not know, as a build without
# binutils-multiarch-dev sees foreign code) still converts, with one
# warning line that says positions fall back to histogram bins and call
# buckets and names the package that fixes it, and a --stats line.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$PYTHON3" ] || skip "python3 not found"
exe=$FIXTURES/calltree/prog gmon=$FIXTURES/calltree/gmon.out
cp "$exe" "$tmp/prog"
# e_machine (offset 18, 2 bytes) := 0x9999
$PYTHON3 -c 'import sys; f = open(sys.argv[1], "r+b"); f.seek(18); f.write(b"\x99\x99")' "$tmp/prog"
expect -w -n "undecodable code: converted with one warning" 0 \
	"^gmon2cg: warning: $tmp/prog: this gmon2cg cannot decode its instructions (.*): costs stay at histogram bins and calls at their hash buckets (build gmon2cg with binutils-multiarch-dev for exact positions)$" \
	"$GMON2CG" --prefix-map=.="$FIXTURES" -o "$tmp/u.cg" "$tmp/prog" "$gmon"
"$GMON2CG" --stats -o /dev/null "$tmp/prog" "$gmon" 2>&1 |
	grep -q "^gmon2cg: stats: instructions of $tmp/prog: not decoded" &&
	ok "--stats says so" || not_ok "--stats does not say the code was not decoded"
# A whole profile, with the same totals as the decodable original, and
# call sites at buckets (multiples of 16) instead of call instructions.
"$GMON2CG" -o "$tmp/c.cg" "$exe" "$gmon"
grep -q '^totals: [1-9]' "$tmp/u.cg" &&
	[ "$(grep '^totals:' "$tmp/u.cg")" = "$(grep '^totals:' "$tmp/c.cg")" ] &&
	ok "same totals" || not_ok "totals differ"
"$GMON2CG" --prefix-map=.="$FIXTURES" -o "$tmp/d.cg" "$exe" "$gmon" 2>"$tmp/err2"
[ ! -s "$tmp/err2" ] && ok "decodable code: no warning" || not_ok "warning for decodable code"
finish
