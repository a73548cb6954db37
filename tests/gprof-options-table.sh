#!/bin/bash
# gprof-options-table.sh -- every selection option, alone and combined as
# gprof accepts them, on members of cycles too: --summary prints what
# `gprof -b -p` prints with the same options (rows, seconds, percentages,
# names whole); a cycle member selected with -f, -e, -F, -E, -n or -N gives
# gprof's call graph (`gprof -b -q`) in the callgrind file, as KCachegrind
# and callgrind_annotate read it.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$GPROF" ] && [ -n "$PYTHON3" ] || skip "gprof or python3 not found"
export GPROF
flat="$PYTHON3 $srcdir/tests/lib/compare_flat.py"
graph="$PYTHON3 $srcdir/tests/lib/compare_gprof.py"
annotate="$PYTHON3 $srcdir/tests/lib/annotate_gprof.py"
map=--prefix-map=.=$FIXTURES	# the fixtures' sources, so stderr stays empty

# FIXTURE summary: without options gmon2cg's flat profile and gprof's.
# Where gprof's bin model moves samples (interp's small functions share
# bins), the differences there are the allowance under the options.
summary() {	# FIXTURE OUT OPTIONS...
	local fx=$FIXTURES/$1/prog fg=$FIXTURES/$1/gmon.out out=$2
	shift 2
	"$GMON2CG" "$@" "$map" --summary=100000 -o "$tmp/s.cg" "$fx" "$fg" 2>"$out.ours" &&
		"$GPROF" -b -p "$@" "$fx" "$fg" >"$out.gprof"
}
for fixture in interp cycle cxx calltree recursion; do
	summary $fixture "$tmp/base-$fixture" || { not_ok "$fixture: --summary failed"; continue; }
	[ $fixture = interp ] && continue
	if $flat "$tmp/base-$fixture.ours" "$tmp/base-$fixture.gprof" >"$tmp/log"; then
		ok "$fixture: --summary is gprof -b -p"
	else
		not_ok "$fixture: --summary differs from gprof -b -p"
		diag <"$tmp/log"
	fi
done

# FIXTURE OPTIONS: --summary against gprof -b -p with the same options.
while read -r fixture opts; do
	case $fixture in '#'* | '') continue ;; esac
	base=$tmp/base-$fixture
	# shellcheck disable=SC2086 # OPTS is a list of words
	if ! summary "$fixture" "$tmp/sel" $opts; then
		not_ok "$fixture $opts: --summary failed"
	elif [ -s "$tmp/s.cg" ] && $flat "$tmp/sel.ours" "$tmp/sel.gprof" \
		"$base.ours" "$base.gprof" >"$tmp/log"; then
		ok "$fixture $opts: --summary is gprof -b -p $opts"
	else
		not_ok "$fixture $opts: --summary differs from gprof -b -p $opts"
		diag <"$tmp/log"
		diag <"$tmp/sel.ours"
	fi
done <<'LIST'
interp -f parse_factor
interp -F parse_factor
interp -e parse_factor
interp -E parse_factor
interp -n parse_term
interp -N parse_factor
interp -e lookup_variable
interp -E lookup_variable
interp -N lookup_variable
interp -n lookup_variable
interp -F evaluate
interp -f evaluate -e parse_expr
interp -F evaluate -N lookup_variable
interp -E parse_factor -E apply_op
interp -f parse_expr -F parse_term
interp -k parse_term/parse_factor
interp -k parse_factor/lookup_variable -E power_mod
cycle -f cyc_b
cycle -F cyc_b
cycle -e cyc_a
cycle -E cyc_b
cycle -n cyc_b
cycle -N cyc_a
cycle -F entry_two
cycle -E heavy_leaf
cycle -F entry_two -E cyc_c
cycle -e cyc_a -e cyc_c
cycle -f cyc_a -f cyc_b
cycle -k cyc_a/cyc_b
cycle -E cyc_b -k cyc_c/heavy_leaf
cxx -F _ZN4util6digestEli
cxx -E _ZN4util6digestEli
cxx -e main
cxx -f main -N _ZN4util6digestEdi
cxx -n main
calltree -F compute
calltree -E compute_row -e report
calltree -N hot_leaf
recursion -E mix_leaf
LIST

# A cycle member selected: the callgrind file has gprof's call graph, as
# KCachegrind reads it (compare_gprof.py) and as callgrind_annotate does.
while read -r fixture opts; do
	exe=$FIXTURES/$fixture/prog gmon=$FIXTURES/$fixture/gmon.out
	# shellcheck disable=SC2086 # OPTS is a list of words
	if ! "$GMON2CG" $opts $map -o "$tmp/g.cg" "$exe" "$gmon"; then
		not_ok "$fixture $opts: conversion failed"
		continue
	fi
	if $graph --gprof-args="$opts" --cg "$tmp/g.cg" "$exe" "$gmon" >"$tmp/log"; then
		ok "$fixture $opts: gprof -b -q $opts"
	else
		not_ok "$fixture $opts: differs from gprof -b -q $opts"
		diag <"$tmp/log"
	fi
	if [ -z "$CALLGRIND_ANNOTATE" ]; then
		skip_check "$fixture $opts: callgrind_annotate" "callgrind_annotate not found"
		continue
	fi
	(cd / && "$CALLGRIND_ANNOTATE" --inclusive=yes --threshold=100 --auto=no "$tmp/g.cg") \
		>"$tmp/ann" 2>&1
	# shellcheck disable=SC2086 # OPTS is a list of words
	if $annotate "$tmp/ann" "$exe" "$gmon" $opts >"$tmp/log"; then
		ok "$fixture $opts: callgrind_annotate's inclusive costs are gprof's"
	else
		not_ok "$fixture $opts: callgrind_annotate differs from gprof"
		diag <"$tmp/log"
	fi
done <<'LIST'
interp -f parse_factor
interp -E parse_factor
interp -e parse_expr
cycle -f cyc_b
cycle -E cyc_b
cycle -e cyc_a
cycle -F cyc_c
cycle -N cyc_a
cycle -n cyc_b
LIST
finish
