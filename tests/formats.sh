#!/bin/bash
# formats.sh -- every gmon.out variant converts with gprof's numbers:
# gzip-compressed input, several runs summed, the old and 4.4BSD layouts,
# disjoint histogram records, a profile with arcs only or without
# samples (with a warning), --parts, --rate;
# overlapping records and a profile of another program are refused.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$GPROF" ] && [ -n "$PYTHON3" ] || skip "gprof or python3 not found"
export GPROF
compare="$PYTHON3 $srcdir/tests/lib/compare_gprof.py"
rewrite="$PYTHON3 $srcdir/tests/lib/gmon_rewrite.py"
model="$PYTHON3 $srcdir/tests/lib/callgrind_model.py"
exe=$FIXTURES/cycle/prog gmon=$FIXTURES/cycle/gmon.out

# check_gprof NAME CG [--exact-gmon G] GMON...: compare with gprof.
check_gprof() {
	local name=$1 cg=$2
	shift 2
	if $compare --cg "$cg" "$@" >"$tmp/log"; then
		ok "$name agrees with gprof"
	else
		not_ok "$name differs from gprof"
		diag <"$tmp/log"
	fi
}

# body FILE: the profile without its desc: lines (they name the input).
body() { grep -v '^desc: ' "$1"; }

"$GMON2CG" -o "$tmp/plain.cg" "$exe" "$gmon" || not_ok "plain conversion"

# gzip-compressed input, whatever its name.
gzip -c "$gmon" >"$tmp/compressed.out"
"$GMON2CG" -o "$tmp/gz.cg" "$exe" "$tmp/compressed.out" || not_ok "gzip input"
if cmp -s <(body "$tmp/plain.cg") <(body "$tmp/gz.cg"); then ok "gzip input"; else not_ok "gzip input converts differently"; fi

# Several runs are summed as gprof sums them.
"$GMON2CG" -o "$tmp/sum.cg" "$exe" "$gmon" "$tmp/compressed.out" || not_ok "two runs"
check_gprof "two runs" "$tmp/sum.cg" "$exe" "$gmon" "$gmon"
[ "$(sed -n 's/^summary: //p' "$tmp/sum.cg")" = "$(( 2 * $(sed -n 's/^summary: //p' "$tmp/plain.cg") ))" ] ||
	not_ok "two runs do not double the total"

# The BSD layouts, made from the same run: same numbers as the tagged file.
for layout in bsd-old bsd44; do
	$rewrite $layout "$exe" "$gmon" "$tmp/$layout.out" || { not_ok "$layout: rewrite"; continue; }
	"$GMON2CG" -o "$tmp/$layout.cg" "$exe" "$tmp/$layout.out" || { not_ok "$layout: conversion"; continue; }
	check_gprof "$layout" "$tmp/$layout.cg" --exact-gmon "$gmon" "$exe" "$tmp/$layout.out"
	cmp -s <(body "$tmp/plain.cg") <(body "$tmp/$layout.cg") || not_ok "$layout converts differently from the tagged file"
done
grep -q '^desc: Sampling rate: 100 Hz .*assumed' "$tmp/bsd-old.cg" || not_ok "old BSD: the assumed rate is not stated"
"$GMON2CG" --stats -o /dev/null "$exe" "$tmp/bsd44.out" 2>&1 | grep -qx "gmon2cg: stats: $tmp/bsd44.out (4.4BSD format)" ||
	not_ok "--stats does not name the 4.4BSD format"
grep -q 'assumed' "$tmp/bsd44.cg" && not_ok "4.4BSD: its rate is recorded, yet said to be assumed"
"$GMON2CG" --rate=1000 -o "$tmp/rate.cg" "$exe" "$tmp/bsd-old.out" || not_ok "--rate"
[ "$(sed -n 's/^summary: //p' "$tmp/rate.cg")" = "$(( $(sed -n 's/^summary: //p' "$tmp/plain.cg") / 10 ))" ] ||
	not_ok "--rate=1000 does not make samples 1 ms"
"$GMON2CG" --rate=1000 -o "$tmp/rate44.cg" "$exe" "$tmp/bsd44.out" &&
	cmp -s <(body "$tmp/plain.cg") <(body "$tmp/rate44.cg") || not_ok "--rate must not override a recorded rate"

# Disjoint histogram records are kept side by side.
$rewrite split-hist "$exe" "$gmon" "$tmp/split.out"
"$GMON2CG" -o "$tmp/split.cg" "$exe" "$tmp/split.out" || not_ok "disjoint histograms"
check_gprof "disjoint histograms" "$tmp/split.cg" "$exe" "$tmp/split.out"

# Overlapping records are refused, with the ranges named.
$rewrite overlap "$exe" "$gmon" "$tmp/overlap.out"
"$GMON2CG" -o "$tmp/overlap.cg" "$exe" "$tmp/overlap.out" 2>"$tmp/err" && not_ok "overlapping histograms accepted"
grep -q "^gmon2cg: $tmp/overlap.out: histogram for 0x[0-9a-f]*-0x[0-9a-f]* overlaps the one for 0x0-0x[0-9a-f]* without matching it\$" "$tmp/err" ||
	not_ok "overlap message: $(cat "$tmp/err")"
[ ! -e "$tmp/overlap.cg" ] || not_ok "overlap left an output file"

# Arcs only: call counts and no sampled time (only the 1 ns markers of
# the calls, see doc/guide/01-reading-the-output.md), never inf or nan;
# one warning says there is no time.
$rewrite arcs-only "$exe" "$gmon" "$tmp/arcs.out"
expect 0 "^gmon2cg: warning: $tmp/arcs.out: no histogram, so no time: only counts (gprof says \"no time propagated\")\$" \
	"$GMON2CG" -o "$tmp/arcs.cg" "$exe" "$tmp/arcs.out"
$model --json "$tmp/arcs.cg" >"$tmp/arcs.json" || not_ok "arcs-only output does not parse"
grep -qiE 'nan|inf' "$tmp/arcs.cg" && not_ok "arcs-only output has nan or inf"
[ "$(sed -n 's/^summary: //p' "$tmp/arcs.cg")" -lt 1000 ] || not_ok "arcs-only total is not below 1 us"
diff <(grep '^calls=' "$tmp/plain.cg" | cut -d' ' -f1) <(grep '^calls=' "$tmp/arcs.cg" | cut -d' ' -f1) >/dev/null ||
	not_ok "arcs-only call counts differ from the full profile's"

# A histogram without samples (a run shorter than one tick, or spent in
# shared libraries) converts with one warning that says so and why,
# naming the file, once for several files.
$rewrite no-samples "$exe" "$gmon" "$tmp/nosamples.out"
"$GMON2CG" -o "$tmp/nosamples.cg" "$exe" "$tmp/nosamples.out" "$tmp/nosamples.out" 2>"$tmp/err" &&
	[ "$(grep -c 'no samples' "$tmp/err")" = 1 ] &&
	grep -qx "gmon2cg: warning: $tmp/nosamples.out and the other profiles: no samples (gprof says \"no time accumulated\"): the run was shorter than one tick of the profiling timer, or its time was spent in shared libraries, which the histogram does not cover (LD_PROFILE=LIBRARY profiles one of them)" "$tmp/err"
check "no samples: converted with one warning naming the files and the causes"
$GPROF -b -p "$exe" "$tmp/nosamples.out" 2>&1 | grep -q "no time accumulated"
check "gprof says \"no time accumulated\" of it"
"$GMON2CG" -o "$tmp/plain2.cg" "$exe" "$gmon" 2>"$tmp/err" && ! grep -q 'no samples\|no histogram' "$tmp/err"
check "a profile with samples: no such warning"

# --parts: each file its own part, each with its whole header, totals = summary.
"$GMON2CG" --parts -o "$tmp/parts.cg" "$exe" "$gmon" "$tmp/bsd44.out" || not_ok "--parts"
awk '/^part: /{p=$2} /^events: /{e[p]++} /^summary: /{s[p]=$2} /^totals: /{t[p]=$2}
     END { for (q = 1; q <= 2; q++) if (e[q] != 1 || s[q] == "" || s[q] != t[q]) exit 1; if (p != 2) exit 1 }' \
	"$tmp/parts.cg" || not_ok "--parts structure"
grep -q "^desc: Trigger: profile $tmp/bsd44.out\$" "$tmp/parts.cg" || not_ok "--parts does not name each part's file"

# Basic-block counts: a second event, "bb", at each block's address; files
# without them have only "ns".
grep -qx 'events: ns' "$tmp/plain.cg" || not_ok "a profile without blocks has more than the ns event"
$rewrite add-bb "$exe" "$gmon" "$tmp/bb.out"
"$GMON2CG" -o "$tmp/bb.cg" "$exe" "$tmp/bb.out" || not_ok "basic-block profile"
grep -qx 'events: ns bb' "$tmp/bb.cg" || not_ok "no bb event"
calls=$(grep '^calls=' "$tmp/plain.cg" | sed 's/^calls=\([0-9]*\).*/\1/' | awk '{ s += $1 } END { print s - 1 }')
$model --json --event bb "$tmp/bb.cg" >"$tmp/bb.json" &&
	[ "$(sed -n 's/^ "self_sum": \([0-9]*\),$/\1/p' "$tmp/bb.json")" = "$calls" ] &&
	grep -qx "summary: $(sed -n 's/^summary: //p' "$tmp/plain.cg") $calls" "$tmp/bb.cg" ||
	not_ok "bb executions do not add up to the $calls calls they were made from"

# A profile of another program is refused unless --force.
other=$FIXTURES/calltree/gmon.out
"$GMON2CG" -o "$tmp/misfit.cg" "$FIXTURES/cxx/prog" "$other" 2>"$tmp/err" && not_ok "misfit accepted"
grep -q "^gmon2cg: $other: does not belong to $FIXTURES/cxx/prog: .* (--force converts anyway)\$" "$tmp/err" ||
	not_ok "misfit message: $(cat "$tmp/err")"
[ ! -e "$tmp/misfit.cg" ] || not_ok "misfit left an output file"
"$GMON2CG" --force -o "$tmp/forced.cg" "$FIXTURES/cxx/prog" "$other" || not_ok "--force"

# A profile read from a pipe (read once: it is not probed for LD_PROFILE).
"$GMON2CG" -o "$tmp/file.cg" "$exe" "$gmon" 2>/dev/null
"$GMON2CG" -o "$tmp/pipe.cg" "$exe" /dev/stdin <"$gmon" 2>/dev/null &&
cat "$gmon" | "$GMON2CG" -o "$tmp/pipe.cg" "$exe" /dev/stdin 2>/dev/null &&
	cmp -s <(grep -v '^desc: Trigger' "$tmp/file.cg") <(grep -v '^desc: Trigger' "$tmp/pipe.cg")
check "a profile from a pipe converts as from its file"
finish
