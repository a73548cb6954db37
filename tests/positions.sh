#!/bin/bash
# positions.sh -- every cost sits at an instruction start and every call at
# a call instruction, as objdump disassembles the executable, each with the
# file and line addr2line gives, for every fixture (Thumb code included);
# and the checker itself catches a shifted position and a wrong line.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$PYTHON3" ] || skip "python3 not found"
command -v objdump >/dev/null || skip "objdump not found (install binutils)"
check_positions="$PYTHON3 $srcdir/tests/lib/check_positions.py --lines"
for name in $(all_fixture_names); do
	out=$(out_name "$name")
	"$GMON2CG" -o "$out" "$FIXTURES/$name/prog" "$FIXTURES/$name/gmon.out" ||
		{ not_ok "$name: conversion failed"; continue; }
	if $check_positions "$out" "$FIXTURES/$name/prog" >"$tmp/log"; then
		ok "$name: $(tail -1 "$tmp/log")"
	else
		not_ok "$name: a cost or a call off its instruction, or a wrong line"
		diag <"$tmp/log"
	fi
done

# A cost moved off its instruction start is caught: shift the first
# relative address by one byte (and with it every later one).
out=$(out_name calltree)
awk '!done && /^\+[0-9]+ / { n = substr($1, 2) + 1; $1 = "+" n; done = 1 } { print }' \
	"$out" >"$tmp/moved.cg"
! cmp -s "$out" "$tmp/moved.cg"; check "the address mutation changes the profile"
! $check_positions "$tmp/moved.cg" "$FIXTURES/calltree/prog" >/dev/null; check "a cost off an instruction start is caught"
awk '!done && /^\+[0-9]+ \+[0-9]+ / { $2 = "+" (substr($2, 2) + 1); done = 1 } { print }' \
	"$out" >"$tmp/wrong-line.cg"
! cmp -s "$out" "$tmp/wrong-line.cg"; check "the line mutation changes the profile"
! $check_positions "$tmp/wrong-line.cg" "$FIXTURES/calltree/prog" >/dev/null; check "a wrong line is caught"
finish
