#!/bin/bash
# viewers.sh -- the viewers show gprof's whole call graph on the cycle and
# interp fixtures: every caller -> callee pair gprof counts is in
# callgrind_annotate's --tree=both with its count and has a cost above zero
# (KCachegrind lists no other calls) with cycle detection on and off; no
# inclusive cost is below self cost (tests/lib/check_viewers.py).  With
# gprof2dot installed, every pair is also an edge of its graph.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$GPROF" ] || skip "gprof not found (install binutils)"
[ -n "$PYTHON3" ] || skip "python3 not found"
[ -n "$CALLGRIND_ANNOTATE" ] || skip "callgrind_annotate not found (install valgrind)"
export GPROF CALLGRIND_ANNOTATE
check="$PYTHON3 $srcdir/tests/lib/check_viewers.py"
gprof2dot=$(command -v gprof2dot || true)

for name in cycle interp recursion; do
	exe=$FIXTURES/$name/prog gmon=$FIXTURES/$name/gmon.out out=$(out_name "$name")
	"$GMON2CG" -o "$out" "$exe" "$gmon" || { not_ok "$name: conversion failed"; continue; }
	if $check "$out" "$exe" "$gmon"; then
		ok "$name: every arc visible, inclusive never below self"
	else
		not_ok "$name: the viewers miss part of gprof's call graph"
	fi
	if [ -z "$gprof2dot" ]; then
		skip_check "$name: every arc is a gprof2dot edge" "gprof2dot not installed (not in Debian 12)"
	elif "$gprof2dot" -f callgrind -n 0 -e 0 -o "${out%.cg}.dot" "$out" &&
	     $check --dot "${out%.cg}.dot" "$out" "$exe" "$gmon"; then
		ok "$name: every arc is a gprof2dot edge"
	else
		not_ok "$name: gprof2dot misses arcs"
	fi
done

# The check notices a call that viewers would not list: give the call
# cyc_a -> cyc_b (840 calls, inside the cycle) cost 0 again.
out=$(out_name cycle)
awk '/^calls=840 / { c = 1; print; next } c { $NF = 0; c = 0 } { print }' \
	"$out" >"$tmp/zero.cg"
if cmp -s "$out" "$tmp/zero.cg"; then
	not_ok "mutation changed nothing"
elif $check "$tmp/zero.cg" "$FIXTURES/cycle/prog" "$FIXTURES/cycle/gmon.out" >"$tmp/zero.log"; then
	not_ok "a call of cost 0 passed the check"
else
	ok "a call of cost 0 is caught ($(grep -c '^FAIL' "$tmp/zero.log") failures)"
fi
finish
