#!/bin/bash
# positions.sh -- every cost sits at an instruction start and every call at
# a call instruction, as objdump disassembles the executable, each with the
# file and line addr2line gives, for every fixture (Thumb code included);
# and the checker itself catches a shifted position and a wrong line.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$PYTHON3" ] || skip "python3 not found"
command -v objdump >/dev/null || skip "objdump not found (install binutils)"
check="$PYTHON3 $srcdir/tests/lib/check_positions.py --lines"
for name in $(all_fixture_names); do
	out=$(out_name "$name")
	"$GMON2CG" -o "$out" "$FIXTURES/$name/prog" "$FIXTURES/$name/gmon.out" ||
		{ not_ok "$name: conversion failed"; continue; }
	if $check "$out" "$FIXTURES/$name/prog" >"$tmp/log"; then
		ok "$name: $(tail -1 "$tmp/log")"
	else
		not_ok "$name"
		cat "$tmp/log"
	fi
done

# A cost moved off its instruction start is caught: shift the first
# relative address by one byte (and with it every later one).
out=$(out_name calltree)
awk '!done && /^\+[0-9]+ / { n = substr($1, 2) + 1; $1 = "+" n; done = 1 } { print }' \
	"$out" >"$tmp/moved.cg"
cmp -s "$out" "$tmp/moved.cg" && not_ok "the mutation changed nothing"
$check "$tmp/moved.cg" "$FIXTURES/calltree/prog" >/dev/null && not_ok "a cost off an instruction start passed"
awk '!done && /^\+[0-9]+ \+[0-9]+ / { $2 = "+" (substr($2, 2) + 1); done = 1 } { print }' \
	"$out" >"$tmp/wrong-line.cg"
cmp -s "$out" "$tmp/wrong-line.cg" && not_ok "the line mutation changed nothing"
$check "$tmp/wrong-line.cg" "$FIXTURES/calltree/prog" >/dev/null && not_ok "a wrong line passed"
finish
