#!/bin/bash
# gprof.sh -- every fixture's profile has gprof's numbers: self time and
# inclusive time per function and per cycle within max(1 %, one sample),
# call counts per arc exactly (tests/lib/compare_gprof.py says how), and a
# profile with one wrong count or cost is caught.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$GPROF" ] || skip "gprof not found (install binutils)"
[ -n "$PYTHON3" ] || skip "python3 not found"
compare="$PYTHON3 $srcdir/tests/lib/compare_gprof.py"
export GPROF

for name in $(fixture_names); do
	exe=$FIXTURES/$name/prog gmon=$FIXTURES/$name/gmon.out out=$(out_name "$name")
	"$GMON2CG" -o "$out" "$exe" "$gmon" || { not_ok "$name: conversion failed"; continue; }
	if $compare --cg "$out" "$exe" "$gmon" >"$tmp/log"; then
		ok "$name agrees with gprof"
	else
		not_ok "$name differs from gprof"
		diag <"$tmp/log"
	fi
done

# The comparison itself must notice a wrong call count and a wrong cost,
# and a wrong address in the label gmon2cg gives a name several functions
# share, while it takes the right one for the plain name.
out=$tmp/calltree.cg exe=$FIXTURES/calltree/prog gmon=$FIXTURES/calltree/gmon.out
# (the first calls= line is <spontaneous> -> main; change the third)
awk '/^calls=/ && ++n == 3 { sub(/^calls=[0-9]+/, "calls=99999") } { print }' \
	"$out" >"$tmp/bad-count.cg"
awk '/^fn=.*hot_leaf/ { hot = 1; print; next } hot && /^[0-9+*-]/ { $NF = $NF + 50000000; hot = 0 } { print }' \
	"$out" >"$tmp/bad-cost.cg"
# label_main ADDRESS: main's name labelled "main [0xADDRESS]" (main has a
# cost line at its entry, where the name is checked).
label_main() {
	sed "s/^\(c\{0,1\}fn=([0-9]*) main\)$/\1 [0x$1]/" "$out"
}
main=$(nm "$exe" | sed -n 's/^0*\([0-9a-f]*\) T main$/\1/p')
label_main "$main" >"$tmp/labelled.cg"
if ! grep -q "main \[0x$main\]" "$tmp/labelled.cg"; then
	not_ok "labelled: main (at 0x$main) was not relabelled"
elif $compare --cg "$tmp/labelled.cg" "$exe" "$gmon" >"$tmp/labelled.log"; then
	ok "a name labelled with its own address is that function"
else
	not_ok "a name labelled with its own address is not taken for that function"
	diag <"$tmp/labelled.log"
fi
label_main "$(printf %x $((0x$main + 1)))" >"$tmp/bad-label.cg"
for bad in bad-count bad-cost bad-label; do
	if cmp -s "$out" "$tmp/$bad.cg"; then
		not_ok "$bad: the mutation changed nothing"
	elif $compare --cg "$tmp/$bad.cg" "$exe" "$gmon" >"$tmp/$bad.log"; then
		not_ok "$bad: a corrupted profile passed the comparison"
	else
		ok "$bad: caught ($(grep -c '^FAIL' "$tmp/$bad.log") failures)"
	fi
done
finish
