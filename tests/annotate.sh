#!/bin/bash
# annotate.sh -- callgrind_annotate reads every converted fixture without a
# warning, and its program total is the file's summary: line.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$CALLGRIND_ANNOTATE" ] || skip "callgrind_annotate not found (install valgrind)"
for name in $(all_fixture_names); do
	out=$(out_name "$name")
	"$GMON2CG" -o "$out" "$FIXTURES/$name/prog" "$FIXTURES/$name/gmon.out" ||
		{ not_ok "$name: conversion failed"; continue; }
	summary=$(sed -n 's/^summary: //p' "$out")
	# Run from / so that no path prefix is stripped from file names.
	(cd / && "$CALLGRIND_ANNOTATE" --threshold=100 --auto=no "$out") \
		>"$tmp/ann" 2>&1 || { not_ok "$name: callgrind_annotate failed"; diag <"$tmp/ann"; continue; }
	if grep -qi 'warning' "$tmp/ann"; then
		not_ok "$name: callgrind_annotate warned"
		grep -i warning "$tmp/ann" | diag
	else
		ok "$name: callgrind_annotate reads it without a warning"
	fi
	total=$(sed -n 's/^\([0-9,]*\) *(100.0%) *PROGRAM TOTALS$/\1/p' "$tmp/ann" | tr -d ,)
	if [ "$total" = "$summary" ]; then
		ok "$name: PROGRAM TOTALS $total = summary"
	else
		not_ok "$name: PROGRAM TOTALS '$total' != summary '$summary'"
		grep 'PROGRAM TOTALS' "$tmp/ann" | diag
	fi
	# Its per-function self costs add up to the same total.
	self_sum=$(sed -n '/file:function/,$p' "$tmp/ann" |
		sed -n 's/^ *\([0-9,][0-9,]*\) .*:.*/\1/p' | tr -d , |
		awk '{ s += $1 } END { printf "%.0f", s }')
	[ "$self_sum" = "$summary" ]
	check "$name: the functions' self costs add up to the summary"
done
finish
