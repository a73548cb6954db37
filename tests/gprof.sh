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
# A call from a cold part: gprof credits it to the kept symbol before the
# part (in fixtures/positions/throw Events::Events's cold part calls
# describe once, and gprof has _init call it), gmon2cg to the part's
# function.  The comparison takes that difference, and no other: it still
# catches a wrong count on that call.
exe=$FIXTURES/positions/throw/prog gmon=$FIXTURES/positions/throw/gmon.out
out=$tmp/throw.cg
describe=$(nm "$exe" | sed -n 's/^0*\([0-9a-f]*\) T _Z8describeB5cxx11RK4Node$/\1/p')
if ! "$GMON2CG" -o "$out" "$exe" "$gmon" 2>"$tmp/throw.err"; then
	not_ok "positions/throw: conversion failed"
	diag <"$tmp/throw.err"
elif $compare --cg "$out" "$exe" "$gmon" >"$tmp/throw.log" &&
	grep -q '^note: 1 calls on 1 call lines are gprof.s from other functions' "$tmp/throw.log"; then
	ok "positions/throw: the call from a cold part is compared as gprof credits it"
else
	not_ok "positions/throw differs from gprof, or its cold part's call was not moved"
	diag <"$tmp/throw.log"
fi
awk -v at="0x$describe" '$1 == "calls=1" && $2 == at { $1 = "calls=2" } { print }' \
	"$out" >"$tmp/bad-cold-count.cg"
if [ -z "$describe" ] || cmp -s "$out" "$tmp/bad-cold-count.cg"; then
	not_ok "bad-cold-count: the mutation changed nothing"
elif $compare --cg "$tmp/bad-cold-count.cg" "$exe" "$gmon" >"$tmp/bad-cold-count.log"; then
	not_ok "bad-cold-count: a wrong count on a cold part's call passed the comparison"
	diag <"$tmp/bad-cold-count.log"
else
	ok "bad-cold-count: caught ($(grep '^FAIL' "$tmp/bad-cold-count.log" | head -n 1))"
fi
finish
