#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# compare-real.sh -- the rates of gmon2cg --compare on a real program: Lua
# 5.4 from Debian's source (the test corpus's lua5.4, built here with
# gcc -O2 -pg -g), not on a fixture made for the test.
#
#   bench/compare-real.sh [-n RUNS] [--gmon2cg PATH] [--src DIR] [--no-runs]
#
# (--no-runs: compare the runs the last invocation left in the work
# directory again, e.g. with another gmon2cg.)
#
# Five builds of one source, in bench/work/compare-real/:
#   base       as Debian ships it (with Debian's patches)
#   slower     internshrstr (string interning) ~25 % slower: a busy loop
#              of SPIN_INTERN volatile steps on every call
#   dominant   luaV_execute (the interpreter's loop) ~25 % slower: an
#              lfence on SPIN_LOOP % of the OP_FORLOOPs (a busy loop there
#              would run beside the interpreter's work, out of order, and
#              cost nothing)
#   calls      lua_gc called once more (lua.c)
#   checkout   base's source copied to another directory and built there:
#              every file's path differs by its prefix
# and two workloads (work.lua below): "strings" (short strings made while
# 300 000 others live: internshrstr ~45 % of the samples, ~170 a run,
# 4.5 s) and "loop" (luaV_execute, all of the samples, ~240 a run, 2 s).  RUNS runs
# (default 20) of base and slower on strings, of base and dominant on
# loop, RUNS/2 of checkout (strings) and calls (loop), interleaved so that
# the machine's load falls on every build alike; each converted once.
# Then, as tests/compare.sh does, at the defaults:
#   - false alarms: every pair of base runs, one run a side;
#   - power one run a side: every base x slower pair;
#   - power summed: TRIALS (100) draws of K runs a side (K: the least
#     giving internshrstr 1 500 samples a side), base against slower, and
#     base against base for the false alarms of summed sides;
#   - the dominant function: base x dominant (one a side, and summed),
#     and base x base on loop, at --machine-noise 10 % to 40 %;
#   - calls: every base x calls pair (lua_gc, nothing else), and the
#     draws of K base runs against K calls runs (at most RUNS/2: all of
#     them), where the counts that vary between runs are to be told
#     from lua_gc's one call more;
#   - checkout: every base x checkout pair (nothing, matched by suffix),
#     and the draws of K base runs against K checkout runs.
# The report goes to bench/results/DATE_TIME-compare-real.txt, every
# comparison's outcome (the functions marked, the inconclusive ones) to
# ...-compare-real.tsv.gz and each run's samples of the slowed function
# to ...-compare-real.samples beside it.  About 13 minutes on 2 busy
# cores: 10 for the runs, 2 to 3 for the 6 000 comparisons.
set -euo pipefail

bench=$(cd "$(dirname "$0")" && pwd)
runs=20
trials=100
g2c=${GMON2CG:-$bench/../gmon2cg}
src=
new_runs=yes
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	--gmon2cg) g2c=$2; shift 2 ;;
	--src) src=$2; shift 2 ;;
	--no-runs) new_runs=no; shift ;;
	*) echo "compare-real.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ "$runs" -ge 10 ] || { echo "compare-real.sh: -n needs at least 10" >&2; exit 2; }
[ -x "$g2c" ] || { echo "compare-real.sh: no gmon2cg at $g2c" >&2; exit 1; }
g2c=$(cd "$(dirname "$g2c")" && pwd)/$(basename "$g2c")
if [ -z "$src" ]; then
	src=$(ls -d "${G2C_CORPUS_CACHE:-/var/cache/gmon2cg/corpus}"/src/lua5.4_*/ 2>/dev/null |
		sort -V | tail -n 1)
	[ -n "$src" ] || { echo "compare-real.sh: no lua5.4 source (run tests/corpus/run.sh lua.recipe, or --src DIR)" >&2; exit 1; }
fi
[ -f "$src/src/lvm.c" ] || { echo "compare-real.sh: $src: not a Lua 5.4 source" >&2; exit 1; }
for tool in gcc gprof python3; do
	command -v "$tool" >/dev/null || { echo "compare-real.sh: needs $tool" >&2; exit 1; }
done

# Calibrated on the build machine for ~+25 % of the function's own time
# (the report says what the runs measured).
SPIN_INTERN=${SPIN_INTERN:-220}
SPIN_LOOP=${SPIN_LOOP:-24}

work=$bench/work/compare-real
# gmon2cg's --machine-noise default (src/compare.h): the summary lines at
# the defaults read the loop comparisons made with it
default_noise=10
stamp=$(date +%Y-%m-%d_%H%M%S)
mkdir -p "$work" "$bench/results"
out=$bench/results/$stamp-compare-real
started=$SECONDS

cat >"$work/work.lua" <<'LUA'
-- strings: short strings made while 300 000 others live (string
-- interning and freeing dominate); loop: arithmetic on locals in the
-- interpreter's loop (luaV_execute holds all of the time).
local mode = arg[1] or "strings"
local acc = 0
if mode == "loop" then
  local a, b = 1, 2
  for r = 1, 140000 do
    for i = 1, 1000 do
      local x = i * r
      a = (a + x // 7 + x % 13 + b) % 1000003
    end
  end
  acc = a
else
  local ring, size = {}, 300000
  for i = 1, 3000000 do ring[i % size + 1] = "k" .. i end
  acc = #ring
end
print(mode, acc)
LUA

# build NAME [DIR]: the source, patched for NAME, built in DIR (default
# $work/NAME) as lua; kept while the patch and flags stay the same.
build() {
	local name=$1 dir=${2:-$work/$1} spin='{ volatile unsigned spin_; for (spin_ = 0; spin_ < N; spin_++) {} }'
	local key="$name $SPIN_INTERN $SPIN_LOOP $src"
	[ -x "$dir/lua" ] && [ "$(cat "$dir/BUILD-KEY" 2>/dev/null)" = "$key" ] && return 0
	rm -rf "$dir" && mkdir -p "$dir/include"
	cp -r "$src/src" "$dir/src"
	echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' >"$dir/include/lua5.4-deb-multiarch.h"
	case $name in
	slower) sed -i "/^static TString \*internshrstr/,/^}/s|^\(  unsigned int h = luaS_hash(str, l, g->seed);\)\$|\1 ${spin/N/$SPIN_INTERN}|" "$dir/src/lstring.c"
		grep -q spin_ "$dir/src/lstring.c" ;;
	dominant) sed -i "s|^\(      vmcase(OP_FORLOOP) {\)\$|\1 { static unsigned spin_; if (++spin_ % 100 < $SPIN_LOOP) __asm__ volatile(\"lfence\"); }|" "$dir/src/lvm.c"
		grep -q spin_ "$dir/src/lvm.c" ;;
	calls) sed -i 's|^\(  lua_gc(L, LUA_GCGEN, 0, 0);.*\)$|\1\n  lua_gc(L, LUA_GCCOUNT);  /* one call more */|' "$dir/src/lua.c"
		[ "$(grep -c 'lua_gc(L, LUA_GCCOUNT)' "$dir/src/lua.c")" = 1 ] ;;
	esac || { echo "compare-real.sh: the $name patch did not apply to $src" >&2; exit 1; }
	(cd "$dir" && gcc -Iinclude -pg -g -O2 -DLUA_USE_LINUX -o lua \
		$(ls src/*.c | grep -v '/luac\.c$') -lm -ldl)
	echo "$key" >"$dir/BUILD-KEY"
}
build base
build slower
build dominant
build calls
build checkout "$work/elsewhere/checkout"
dir_of() { case $1 in checkout) echo "$work/elsewhere/checkout" ;; *) echo "$work/$1" ;; esac; }

# run BUILD WORKLOAD I: run I of BUILD on WORKLOAD, converted to
# $work/cg/BUILD-WORKLOAD.I.cg; its samples of FUNCTION (gprof's self
# seconds x 100) appended to $work/cg/BUILD-WORKLOAD.samples.
run() {
	local dir cg=$work/cg/$1-$2.$3.cg fn=internshrstr
	dir=$(dir_of "$1")
	[ "$2" = loop ] && fn=luaV_execute
	(cd "$work/run" && rm -f gmon.out && "$dir/lua" "$work/work.lua" "$2" >/dev/null)
	"$g2c" -o "$cg" "$dir/lua" "$work/run/gmon.out"
	gprof -b -p "$dir/lua" "$work/run/gmon.out" |
		awk -v f="$fn" -v t="$1-$2.$3" '$NF == f { printf "%s %.0f\n", t, $3 * 100 }' >>"$work/cg/samples"
}
if [ "$new_runs" = no ]; then
	runs=$(ls "$work/cg" | sed -n 's/^base-loop\.\([0-9]*\)\.cg$/\1/p' | sort -n | tail -n 1)
	[ -n "$runs" ] || { echo "compare-real.sh: no runs in $work/cg" >&2; exit 1; }
	runs=$((10#$runs))
else
	rm -rf "$work/cg" "$work/run" && mkdir -p "$work/cg" "$work/run"
fi
for ((i = 1; i <= runs; i++)); do
	[ "$new_runs" = yes ] || break
	n=$(printf %02d "$i")
	run base strings "$n"; run slower strings "$n"
	run base loop "$n"; run dominant loop "$n"
	if [ $((i % 2)) = 0 ]; then
		run checkout strings "$n"; run calls loop "$n"
	fi
done
runs_took=$((SECONDS - started))

# compare KIND OLD NEW [OPTION...]: one comparison; appends
# "KIND <tab> OLD <tab> NEW <tab> TIMES <tab> CALLS <tab> INCONCLUSIVE <tab> SUFFIX
# <tab> VARYING" to the raw file: the functions marked for their self
# time, those marked for their calls, those inconclusive (comma-separated),
# whether the report matched functions by their file's path suffix, and
# the functions whose calls vary between the runs of a side, not changed
# (a side of several runs is its files comma-separated).
compare() {
	local kind=$1 old=$2 new=$3 status=0
	shift 3
	"$g2c" --compare "$@" "$old" "$new" >"$work/report" 2>&1 || status=$?
	case $status in 0|3) ;; *) echo "compare-real.sh: $kind: exit status $status" >&2; cat "$work/report" >&2; exit 1 ;; esac
	# (a marked function's line is followed by its figures: self old, new,
	# change, inclusive old, new, change, calls old, new, change; a change
	# beyond noise ends in *)
	awk -v kind="$kind" -v old="$(names "$old")" -v new="$(names "$new")" '
		function add(list, f) { return list == "" ? f : index("," list ",", "," f ",") ? list : list "," f }
		/^[*!] [^ ]+  / { fn = $2; next }
		fn != "" { if ($3 ~ /\*$/) t = add(t, fn); if ($9 ~ /\*$/) c = add(c, fn); fn = ""; next }
		/^\? [^ ]+  / { i = add(i, $2) }
		/^~ [^ ]+  / { v = add(v, $2) }
		/^Matched .* by file name suffix/ { m = 1 }
		END { printf "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", kind, old, new, t, c, i, m, v }' "$work/report" >>"$out.tsv"
}
names() { local s=${1//$work\/cg\//}; s=${s//.cg/}; echo "$s"; }
cg() { echo "$work/cg/$1.$2.cg"; }
list() { local b=$1 w=$2; shift 2; local f='' n; for n in "$@"; do f+=${f:+,}$(cg "$b-$w" "$n"); done; echo "$f"; }
all=$(seq -f %02g 1 "$runs")
half=$(seq -f %02g 2 2 "$runs")
: >"$out.tsv"

for w in strings loop; do
	for i in $all; do for j in $all; do
		if [[ $i < $j ]]; then compare "same-$w" "$(cg base-$w "$i")" "$(cg base-$w "$j")"; fi
	done; done
done
for i in $all; do for j in $all; do
	compare slower "$(cg base-strings "$i")" "$(cg slower-strings "$j")"
done; done
for i in $all; do for j in $half; do
	compare checkout "$(cg base-strings "$i")" "$(cg checkout-strings "$j")"
	compare calls "$(cg base-loop "$i")" "$(cg calls-loop "$j")"
done; done

# K runs a side: the least whose sum gives internshrstr 1 500 samples.
mean_hot=$(awk '$1 ~ /^base-strings/ { s += $2; n++ } END { printf "%.1f", s / n }' "$work/cg/samples")
k=$(awk -v m="$mean_hot" 'BEGIN { k = int(1500 / m); if (k * m < 1500) k++; print k }')
[ "$k" -le "$runs" ] || k=$runs
# Draws of K runs of each side (seeded: the same draws every time); the
# two sides of a base-against-base draw share no run; the last, of the
# calls build's runs (the even ones), from a generator of its own, so
# that the others are the draws of earlier invocations.
python3 - "$runs" "$k" "$trials" >"$work/draws" <<'PY'
import random, sys
runs, k, trials = map(int, sys.argv[1:])
rng = random.Random(2026)
rng_calls = random.Random(2027)
ids = ["%02d" % i for i in range(1, runs + 1)]
even = ids[1::2]
for _ in range(trials):
    a = rng.sample(ids, k)
    b = rng.sample(ids, k)
    rest = [i for i in ids if i not in a]
    c = rng.sample(rest, min(k, len(rest)))
    d = rng_calls.sample(even, min(k, len(even)))
    print(" ".join(a), "|", " ".join(b), "|", " ".join(c), "|", " ".join(d))
PY
while IFS='|' read -r a b c d; do
	compare summed-slower "$(list base strings $a)" "$(list slower strings $b)"
	compare summed-same "$(list base strings $a)" "$(list base strings $c)"
	compare summed-calls "$(list base loop $a)" "$(list calls loop $d)"
	compare summed-checkout "$(list base strings $a)" "$(list checkout strings $d)"
	for mn in 10 15 20 25 30 40; do
		compare "summed-dominant@$mn" "$(list base loop $a)" "$(list dominant loop $b)" --machine-noise=$mn
		compare "summed-same-loop@$mn" "$(list base loop $a)" "$(list base loop $c)" --machine-noise=$mn
	done
done <"$work/draws"
for mn in 10 15 20 25 30 40; do
	for i in $all; do for j in $all; do
		compare "dominant@$mn" "$(cg base-loop "$i")" "$(cg dominant-loop "$j")" --machine-noise=$mn
		if [[ $i < $j ]]; then compare "same-loop@$mn" "$(cg base-loop "$i")" "$(cg base-loop "$j")" --machine-noise=$mn; fi
	done; done
done
# An example of the inconclusive section: the first pair of runs, one a
# side, where internshrstr is inconclusive.
example=$(awk -F'\t' '$1 == "slower" && $6 ~ /(^|,)internshrstr(,|$)/ { print $2, $3; exit }' "$out.tsv")

# tally KIND FUNCTION: for the rows of KIND, "n found others inconclusive
# any_inconclusive alone suffix calls_found calls_others": FUNCTION marked
# for its time, another function marked for its time, FUNCTION
# inconclusive, any function inconclusive, FUNCTION alone marked (time or
# calls), matched by suffix, FUNCTION marked for its calls, another
# function marked for its calls.
tally() {
	awk -F'\t' -v kind="$1" -v fn="$2" '
		function has(list) { return index("," list ",", "," fn ",") > 0 }
		function other(list,  m) { m = "," list ","; gsub("," fn ",", ",", m); return list != "" && m != "," }
		$1 == kind { n++; found += has($4); others += other($4); inc += has($6); anyinc += ($6 != "")
			alone += (($4 == fn || $4 == "") && ($5 == fn || $5 == "") && ($4 $5 != ""))
			suffix += $7; cfound += has($5); cothers += other($5) }
		END { printf "%d %d %d %d %d %d %d %d %d\n", n, found, others, inc, anyinc, alone, suffix, cfound, cothers }' "$out.tsv"
}
# calls_varying COLUMN KIND...: the functions listed in COLUMN (5: marked
# for their calls, 8: calls that vary) in rows of these kinds, with how
# often; "none" if none.
calls_varying() {
	local column=$1
	shift
	awk -F'\t' -v col="$column" -v kinds=" $* " 'index(kinds, " " $1 " ") && $col != "" { n = split($col, fns, ","); for (i = 1; i <= n; i++) c[fns[i]]++ }
		END { for (fn in c) printf "%s %d\n", fn, c[fn] }' "$out.tsv" | sort -k2,2nr -k1,1 | head -n 8 |
		awk '{ printf "%s%s (%d)", (NR > 1 ? ", " : ""), $1, $2 } END { if (NR == 0) printf "none" }'
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%d of %d (%.1f %%)", a, b, b ? 100 * a / b : 0 }'; }
ratio() {	# ratio BUILD WORKLOAD: mean samples a run, and against base
	awk -v b="$1-$2" -v o="base-$2" '{ split($1, p, "."); s[p[1]] += $2; n[p[1]]++ }
		END { printf "%.0f a run (base %.0f: %+.1f %%)", s[b] / n[b], s[o] / n[o], 100 * (s[b] / n[b] / (s[o] / n[o]) - 1) }' "$work/cg/samples"
}
{
	echo "gmon2cg --compare on a real program, $(date '+%Y-%m-%d %H:%M:%S %z')"
	echo "gmon2cg: $g2c"
	echo "lua: $src, gcc $(gcc -dumpfullversion) -O2 -pg -g; $runs runs of base, slower, dominant, $((runs / 2)) of checkout and calls"
	runs_said="runs took ${runs_took}s wall"
	[ "$new_runs" = yes ] || runs_said="the runs of an earlier invocation (--no-runs)"
	echo "machine: $(nproc) CPUs, load average at the end $(cut -d' ' -f1-3 /proc/loadavg); $runs_said"
	echo "internshrstr on strings: base $(ratio base strings | sed 's/ (base.*//'), slower $(ratio slower strings)"
	echo "luaV_execute on loop: base $(ratio base loop | sed 's/ (base.*//'), dominant $(ratio dominant loop)"
	echo "summed sides: K = $k runs a side (internshrstr $mean_hot samples a base run), $trials draws"
	echo
	echo "At the defaults (--machine-noise $default_noise %); marked: for a self time (calls apart):"
	set -- $(tally same-strings -)
	echo "  same build (strings), every pair, 1 a side: a time marked in $(pct $3 $1); calls in $(($8 + $9)); inconclusive in $5"
	set -- $(tally same-loop -)
	echo "  same build (loop), every pair, 1 a side:    a time marked in $(pct $3 $1); calls in $(($8 + $9)); inconclusive in $5"
	set -- $(tally summed-same -)
	echo "  same build (strings), $k a side:             a time marked in $(pct $3 $1); calls in $(($8 + $9)); inconclusive in $5"
	set -- $(tally summed-same-loop@$default_noise -)
	echo "  same build (loop), $k a side:                a time marked in $(pct $3 $1); calls in $(($8 + $9)); inconclusive in $5"
	echo "  calls marked changed between runs of one build, 1 a side: $(calls_varying 5 same-strings same-loop)"
	echo "  ... $k a side: $(calls_varying 5 summed-same summed-same-loop@$default_noise); said to vary: $(calls_varying 8 summed-same summed-same-loop@$default_noise)"
	set -- $(tally slower internshrstr)
	echo "  internshrstr slower, every pair, 1 a side: found in $(pct $2 $1), inconclusive in $4, another time marked in $3"
	set -- $(tally summed-slower internshrstr)
	echo "  internshrstr slower, $k a side:             found in $(pct $2 $1), inconclusive in $4, another time marked in $3"
	set -- $(tally calls lua_gc)
	echo "  lua_gc called once more, every pair: found in $(pct $8 $1); another time marked in $3, other calls in $9"
	set -- $(tally summed-calls lua_gc)
	echo "  lua_gc called once more, $k a side (of $((runs / 2))):  found in $(pct $8 $1); another time marked in $3, other calls in $9"
	set -- $(tally checkout -)
	echo "  base against the other checkout, every pair: a time marked in $(pct $3 $1); calls in $9; matched by suffix in $7"
	set -- $(tally summed-checkout -)
	echo "  base against the other checkout, $k a side:  a time marked in $(pct $3 $1); calls in $9: $(calls_varying 5 summed-checkout)"
	echo
	echo "luaV_execute slower (it holds most of the samples), by --machine-noise:"
	printf '  %6s  %22s  %22s  %22s  %22s\n' "noise" "found, 1 a side" "false alarms, 1 a side" "found, $k a side" "false alarms, $k a side"
	for mn in 10 15 20 25 30 40; do
		printf '  %5s%%' "$mn"
		for kind in dominant@$mn same-loop@$mn summed-dominant@$mn summed-same-loop@$mn; do
			case $kind in
			*same*) set -- $(tally "$kind" -); v=$3 ;;	# any time marked
			*) set -- $(tally "$kind" luaV_execute); v=$2 ;;
			esac
			printf '  %22s' "$(awk -v a="$v" -v b="$1" 'BEGIN { printf "%d/%d %5.1f%%", a, b, 100 * a / b }')"
		done
		echo
	done
	echo
	if [ -n "$example" ]; then
		set -- $example
		echo "A pair of runs, one a side, where internshrstr is inconclusive ($1 against $2):"
		"$g2c" --compare "$(cg "${1%.*}" "${1##*.}")" "$(cg "${2%.*}" "${2##*.}")" | sed 's/^/    /' || :
	fi
	echo "took $((SECONDS - started))s"
} | tee "$out.txt"
cp "$work/cg/samples" "$out.samples"
gzip -9f "$out.tsv"
