#!/bin/bash
# selection.sh -- gprof's selection options (-E -e -F -f -N -n -k -a) give
# gprof's call-graph numbers with the same options; a NAME selects that
# function, not those whose names start with it; <hidden> has an id of its
# own; members of a cycle are selected as gprof selects them; unknown names
# are refused with one line.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$GPROF" ] && [ -n "$PYTHON3" ] || skip "gprof or python3 not found"
export GPROF
compare="$PYTHON3 $srcdir/tests/lib/compare_gprof.py"

# FIXTURE OPTIONS [| GPROF'S OPTIONS, where the spelling differs]
while read -r fixture opts; do
	gprof_opts=${opts#*|}
	opts=${opts%|*}
	exe=$FIXTURES/$fixture/prog gmon=$FIXTURES/$fixture/gmon.out
	out=$tmp/sel.cg
	# shellcheck disable=SC2086 # OPTS is a list of words
	if ! "$GMON2CG" $opts -o "$out" "$exe" "$gmon"; then
		not_ok "$fixture $opts: conversion failed"
	elif $compare --gprof-args="$gprof_opts" --cg "$out" "$exe" "$gmon" >"$tmp/log"; then
		ok "$fixture $opts"
	else
		not_ok "$fixture $opts differs from gprof $opts"
		diag <"$tmp/log"
	fi
done <<'LIST'
calltree -E compute_row
calltree -e compute_row
calltree -F compute
calltree -F compute -k compute/compute_row
calltree -f report
calltree -f compute_row
calltree -N hot_leaf
calltree -n compute
calltree -k compute_row/hot_leaf
calltree -E hot_leaf -E compute
calltree --exclude=warm_leaf --no-graph=parse_input --drop-arc=report/hot_leaf | -E warm_leaf -e parse_input -k report/hot_leaf
calltree -a
recursion -E mix_leaf
recursion -f walk_tree
recursion -k walk_tree/mix_leaf
cycle -E heavy_leaf
cycle -F entry_two
cycle -e entry_one
cycle -k cyc_a/cyc_b
cycle -a
cycle -f cyc_b
cycle -E cyc_b
cycle -e cyc_a -e cyc_c
cycle -F cyc_a -E cyc_c
cycle -N cyc_a
cycle -n cyc_b
cycle -f cyc_b -k cyc_a/cyc_b
cxx -e main
positions/statics -a
positions/clones -a
LIST

# The comparison notices when the options were not applied.
"$GMON2CG" -o "$tmp/plain.cg" "$FIXTURES/calltree/prog" "$FIXTURES/calltree/gmon.out"
! $compare --gprof-args="-E compute_row" --cg "$tmp/plain.cg" "$FIXTURES/calltree/prog" \
	"$FIXTURES/calltree/gmon.out" >/dev/null
check "an unselected profile does not pass as -E compute_row"

"$GMON2CG" -e no_such_function "$FIXTURES/cycle/prog" "$FIXTURES/cycle/gmon.out" 2>"$tmp/err" >/dev/null
[ $? -eq 1 ] && grep -qx "gmon2cg: $FIXTURES/cycle/prog: no function named 'no_such_function'; nearest: .*" "$tmp/err" ||
	{ diag <"$tmp/err"; false; }
check "an unknown function name is refused in one line"
"$GMON2CG" -k cyc_a "$FIXTURES/cycle/prog" 2>"$tmp/err" >/dev/null
[ $? -eq 2 ]; check "-k without a slash is a usage error"

# -F NAME is NAME, not every function whose name starts with NAME: once the
# call to compute_row is dropped, -F compute shows compute alone.
names() { sed -n 's/^c\{0,1\}fn=([0-9]*) //p' "$1" | sort -u | tr '\n' ';'; }
"$GMON2CG" -F compute -k compute/compute_row -o "$tmp/only.cg" \
	"$FIXTURES/calltree/prog" "$FIXTURES/calltree/gmon.out" 2>/dev/null &&
	[ "$(names "$tmp/only.cg")" = "<spontaneous>;compute;" ] ||
	{ echo "functions: $(names "$tmp/only.cg")" | diag; false; }
check "-F compute leaves compute_row out"
expect -n "-F with the start of names (comp) is refused" 1 \
	"^gmon2cg: $FIXTURES/calltree/prog: no function named 'comp'; nearest: " \
	"$GMON2CG" -F comp -o "$tmp/comp.cg" "$FIXTURES/calltree/prog" "$FIXTURES/calltree/gmon.out"

# The time of functions left out of the graph is written as <hidden>, whose
# compressed id is its own: each fn=(N) NAME names a function once.
for sel in "calltree -e compute_row" "cxx -f util::digest"; do
	fixture=${sel%% *}
	# shellcheck disable=SC2086 # SEL is a list of words
	"$GMON2CG" ${sel#* } -o "$tmp/hidden.cg" "$FIXTURES/$fixture/prog" \
		"$FIXTURES/$fixture/gmon.out" 2>/dev/null &&
		grep -q '^fn=([0-9]*) <hidden>$' "$tmp/hidden.cg" &&
		[ -z "$(sed -n 's/^c\{0,1\}fn=(\([0-9]*\)) .*/\1/p' "$tmp/hidden.cg" | sort | uniq -d)" ] ||
		{ grep '^c\{0,1\}fn=([0-9]*) ' "$tmp/hidden.cg" | diag; false; }
	check "$sel: <hidden> and every function have ids of their own"
done

# With -a a static function's code stays its own: the calls into and out
# of the clones (statics) are checked at their own call instructions and
# mcount calls, so none is taken for a call of another build.
"$GMON2CG" -a -o "$tmp/nostatic.cg" "$FIXTURES/positions/clones/prog" \
	"$FIXTURES/positions/clones/gmon.out" 2>"$tmp/err" &&
	! grep -q "not where" "$tmp/err" || { diag <"$tmp/err"; false; }
check "-a: the arcs into and out of static functions are where calls return"

# A static that starts its code section has no function before it there,
# and stays a function of its own under -a.  The PLT's header is one: 20
# samples added to it stay <.plt>'s, not _init's (in .init, before .plt).
P=$FIXTURES/positions/plt
plt0=$(objdump -h "$P/prog" | awk '$2 == ".plt" { print $4 }')
"$PYTHON3" "$srcdir/tests/lib/gmon_rewrite.py" "add-samples=$plt0:20" "$P/prog" \
	"$P/gmon.out" "$tmp/plt0.out" &&
	"$GMON2CG" -a -o "$tmp/plt0.cg" "$P/prog" "$tmp/plt0.out" 2>/dev/null &&
	[ "$("$PYTHON3" "$srcdir/tests/lib/callgrind_model.py" --json "$tmp/plt0.cg" |
		"$PYTHON3" -c 'import json, sys
f = json.load(sys.stdin)["functions"]
print(f["<.plt>"]["self"] if "<.plt>" in f else "none")')" = 200000000 ]
check "-a: a static that starts its section keeps its samples"
# -n (and -N) can leave <no symbol>'s samples at 0 ns: that pseudo
# function, which has no entry, takes the 1 ns its root call carries at
# its first position (calltree without warm_leaf's symbol, whose samples
# fall in no function: it was refused as an internal error).
objcopy --strip-symbol=warm_leaf "$FIXTURES/calltree/prog" "$tmp/no-warm"
expect -n "-n main with samples in no function converts" 0 "" \
	"$GMON2CG" -n main -o "$tmp/no-warm.cg" "$tmp/no-warm" "$FIXTURES/calltree/gmon.out"
finish
