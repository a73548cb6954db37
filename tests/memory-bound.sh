#!/bin/bash
# memory-bound.sh -- the worst case for memory that the user guide states: a
# histogram alone whose every bin has a sample, as many bins as gmon2cg
# takes (one per 2 bytes of the object's loaded span S), converts within
# the documented bound on address space (ulimit -v) and on peak RSS, and
# credits every sample.  The object is the libbfd gmon2cg is linked with:
# a real shared library of megabytes of code, on every machine that
# builds gmon2cg.
. "${srcdir:-.}/tests/test-lib.sh"

[ -z "${G2C_VALGRIND:-}" ] || skip "valgrind needs more memory than the bound"
ldd "$G2C_BINARY" 2>/dev/null | grep -q 'libasan\|libtsan' &&
	skip "the sanitizers reserve more address space than the bound"
lib=$(ldd "$G2C_BINARY" | awk '$1 ~ /^libbfd/ { print $3; exit }')
[ -f "$lib" ] || skip "no libbfd found in ldd's list"

# The bound of doc/guide/10-bad-input.md: beyond what the same object's
# conversion takes with a histogram of one bin, at most 30 bytes per byte
# of S of memory, and 32 MiB more of address space (threads' stacks).
PER_BYTE=30 ADDRESS_SLACK_KB=32768

rewrite() {
	"${PYTHON3:-python3}" "$srcdir/tests/lib/gmon_rewrite.py" "$1" "$lib" \
		"$FIXTURES/calltree/gmon.out" "$2"
}
rewrite all-bins "$tmp/all.out" && rewrite all-bins=1 "$tmp/one.out"
check "histograms written for $lib"
# the tagged header (20 bytes), the record's tag, range (two addresses),
# size, rate and dimension (25 bytes), then 2 bytes a bin
[ "$(od -An -tu1 -j4 -N1 "$lib" | tr -d ' ')" = 2 ] && addr=8 || addr=4
nbins=$((($(stat -c %s "$tmp/all.out") - 45 - 2 * addr) / 2))
span_kb=$((2 * nbins / 1024))
diag "$lib: S = $span_kb kB, $nbins bins"

# The least address space (kB, in steps of 4 MiB) with which FILE converts.
least_address_space() {
	local kb
	for kb in $(seq 8192 4096 1048576); do
		(ulimit -v "$kb" && exec "$GMON2CG" --force -o "$tmp/x.cg" "$lib" "$1") \
			>/dev/null 2>&1 && { echo "$kb"; return; }
	done
	echo 0
}
base_kb=$(least_address_space "$tmp/one.out")
limit_kb=$((base_kb + ADDRESS_SLACK_KB + PER_BYTE * span_kb))
diag "one bin: $base_kb kB of address space; limit for all bins: $limit_kb kB"
(ulimit -v "$limit_kb" && exec "$GMON2CG" --force --stats -o "$tmp/all.cg" "$lib" "$tmp/all.out") \
	>/dev/null 2>"$tmp/err"
check "every bin counted converts within $limit_kb kB of address space" || diag <"$tmp/err"
grep -q "stats: samples: $nbins at " "$tmp/err"
check "all $nbins samples are credited" || diag <"$tmp/err"

# peak RSS, where GNU time measures it
if [ -x /usr/bin/time ]; then
	rss() {
		/usr/bin/time -f %M -o "$tmp/rss" "$GMON2CG" --force -o "$tmp/x.cg" "$lib" "$1" 2>/dev/null &&
			cat "$tmp/rss"
	}
	one_rss=$(rss "$tmp/one.out") all_rss=$(rss "$tmp/all.out")
	diag "peak RSS: one bin $one_rss kB, every bin $all_rss kB"
	[ -n "$one_rss" ] && [ -n "$all_rss" ] &&
		[ "$all_rss" -le $((one_rss + PER_BYTE * span_kb)) ]
	check "every bin counted takes at most $PER_BYTE bytes of memory per byte of S more than one bin"
else
	skip_check "peak RSS" "no GNU time (Debian package time)"
fi
finish
