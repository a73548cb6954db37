#!/bin/bash
# prefix-map.sh -- --prefix-map rewrites the source file names written
# (fl=, fi=, fe=, cfi=) as gcc's -ffile-prefix-map does: where several OLDs
# match a name, the longest wins, whatever the order they are given in.
. "${srcdir:-.}/tests/test-lib.sh"

exe=$FIXTURES/positions/inline/prog gmon=$FIXTURES/positions/inline/gmon.out
# The source file names a profile writes, one a line, sorted.
files() { sed -n 's/^c\{0,1\}f[lie]=([0-9]*) \(.*\)$/\1/p' "$1" | sort -u; }

"$GMON2CG" -o "$tmp/plain.cg" "$exe" "$gmon" 2>"$tmp/err"; check "converts without a map"
files "$tmp/plain.cg" >"$tmp/plain"
grep -qx '\./positions/src/inline/[a-z]*\.[ch]' "$tmp/plain"
check "the fixture names its sources ./positions/src/inline/*"
# What the longest of the three maps below makes of each name.
sed -e 's|^\./positions/src/inline/|/long/|' "$tmp/plain" | sort -u >"$tmp/want"

short=--prefix-map=./positions=/short
mid=--prefix-map=./positions/src=/mid
long=--prefix-map=./positions/src/inline=/long
for order in "$short $mid $long" "$long $mid $short" "$mid $long $short"; do
	# (the rewritten sources are not here: a warning on stderr)
	"$GMON2CG" $order -o "$tmp/mapped.cg" "$exe" "$gmon" 2>"$tmp/err"
	check "converts with ${order//--prefix-map=/}"
	files "$tmp/mapped.cg" >"$tmp/got"
	if cmp -s "$tmp/want" "$tmp/got"; then
		ok "the longest OLD wins: $(grep -v '^???$' "$tmp/got" | tr '\n' ' ')"
	else
		not_ok "not the longest OLD's names"
		diff "$tmp/want" "$tmp/got" | diag
	fi
done
# Apart from the file names, the profile is the same.
cmp -s <(grep -v '^c\{0,1\}f[lie]=' "$tmp/plain.cg") <(grep -v '^c\{0,1\}f[lie]=' "$tmp/mapped.cg")
check "only the file names change"
finish
