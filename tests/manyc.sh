#!/bin/bash
# manyc.sh -- a program of more functions than the callgrind writer writes
# on one thread (fixtures/manyc: 2 200 generated C functions; 2 048 is
# SPLIT_MIN_FUNCS in src/callgrind_write.c).  The functions after the split
# are written by a second thread that must go on with the function and
# file ids the first thread gave: the file converts, its numbers pass
# the self-check, and every function's times and calls are gprof's, as
# KCachegrind reads the file (compare_gprof.py) and as callgrind_annotate
# reads it.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$PYTHON3" ] || skip "python3 not found"
[ -n "$GPROF" ] || skip "gprof not found (install binutils)"
exe=$FIXTURES/manyc/prog gmon=$FIXTURES/manyc/gmon.out
export GPROF

# (its sources are not kept: the warning that they are not here is expected)
if ! "$GMON2CG" -o "$tmp/manyc.cg" "$exe" "$gmon" 2>"$tmp/err"; then
	not_ok "converts, the numbers passing the self-check"
	diag <"$tmp/err"
	finish
fi
ok "converts, the numbers passing the self-check"
n=$(grep -c '^fn=' "$tmp/manyc.cg")
[ "$n" -gt 2048 ]
check "more than 2 048 functions written ($n): two threads write them"
if $PYTHON3 "$srcdir/tests/lib/compare_gprof.py" --cg "$tmp/manyc.cg" "$exe" "$gmon" >"$tmp/log"; then
	ok "every function's self and inclusive time and calls are gprof's"
else
	not_ok "differs from gprof"
	diag <"$tmp/log"
fi
if [ -z "$CALLGRIND_ANNOTATE" ]; then
	skip_check "callgrind_annotate's inclusive costs are gprof's" "callgrind_annotate not found"
else
	(cd / && "$CALLGRIND_ANNOTATE" --inclusive=yes --threshold=100 --auto=no "$tmp/manyc.cg") \
		>"$tmp/ann" 2>&1
	if $PYTHON3 "$srcdir/tests/lib/annotate_gprof.py" "$tmp/ann" "$exe" "$gmon" >"$tmp/log"; then
		ok "callgrind_annotate's inclusive costs are gprof's"
	else
		not_ok "callgrind_annotate differs from gprof"
		diag <"$tmp/log"
	fi
fi
finish
