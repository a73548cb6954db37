#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# run.sh -- time gmon2cg against gprof on the programs build.sh made.
#
#   bench/run.sh [-n RUNS] [--gmon2cg PATH] [--timeout SEC] [--long SEC]
#                [--no-lines] [--busy] [--no-many | --many M]... [CASE...]
#
# For each case (default: every bench/work/fSIZE..., cxxSIZE..., real-NAME
# and ...-bins-SHAPE directory with a gmon.out; a CASE is such a directory
# name, or a SIZE for fSIZE) runs, RUNS times (default 5, or $RUNS) and
# alternating the commands within each round:
#     gmon2cg prog gmon.out            gprof -b prog gmon.out
#     gprof -b -l -p prog gmon.out     nm -n prog (the floor: reading the
#                                      symbol table and printing it)
# (--no-lines leaves out gprof -b -l -p, which is quadratic; the all-bins
# shapes, all-bins.sh's ...-bins-SHAPE cases, time only gmon2cg and gprof)
# and for each bench/work/many-fM (those of --many, default all), in a
# scratch directory:
#     gmon2cg prog gmon.out.*          gprof -s prog gmon.out.*
# Standard output of every command goes to /dev/null.  A command whose first
# run takes over --long seconds (default 20, $LONG) is not repeated, and one
# is stopped after --timeout seconds (default 120, $TIMEOUT: gprof -l is
# quadratic), its time then a lower bound marked ">".  Prints, per case,
# the median wall time and peak RSS of each command and the ratios, then a
# table of every fSIZE case (how the costs grow) and the targets:
#   every size:                  wall <= 0.5 x gprof -b, peak RSS <= gprof -b's,
#                                wall <= 1.5 x nm -n
#   f50000, f50000-O1:           wall <= 1.0 x nm -n
#   real-*:                      wall <= 1.5 x nm -n (only that)
#   all-bins shapes:             wall <= 0.5 x gprof -b, peak RSS <= gprof -b's
# and writes the same report to bench/results/DATE_TIME.txt.  With --busy
# each case is timed a second time, gmon2cg against gprof -b and nm -n,
# while a busy loop takes one core (where build pipelines run: the machine
# is never idle), and those ratios are printed below the quiet ones.
# gmon2cg is --gmon2cg PATH, else $GMON2CG, else bench/../gmon2cg.
set -euo pipefail

bench=$(cd "$(dirname "$0")" && pwd)
work=$bench/work
runs=${RUNS:-5}
timeout=${TIMEOUT:-120}
long=${LONG:-20}
g2c=${GMON2CG:-$bench/../gmon2cg}
do_many=1
do_lines=1
busy=0
sizes=()
many=()

while [ $# -gt 0 ]; do
	case $1 in
	-n|--runs) runs=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--long) long=$2; shift 2 ;;
	--gmon2cg) g2c=$2; shift 2 ;;
	--no-many) do_many=0; shift ;;
	--no-lines) do_lines=0; shift ;;
	--busy) busy=1; shift ;;
	--many) many+=("$2"); shift 2 ;;
	-h|--help) sed -n '3,36p' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*[!0-9]*) sizes+=("$1"); shift ;;
	*) sizes+=("f$1"); shift ;;
	esac
done

[ -x "$g2c" ] && [ -f "$g2c" ] || { echo "run.sh: no gmon2cg at $g2c (build it, or set GMON2CG / --gmon2cg)" >&2; exit 1; }
g2c=$(cd "$(dirname "$g2c")" && pwd)/$(basename "$g2c")
command -v gprof >/dev/null || { echo "run.sh: gprof not found" >&2; exit 1; }
if [ ${#sizes[@]} -eq 0 ]; then
	mapfile -t sizes < <(for d in "$work"/f*/ "$work"/cxx*/ "$work"/real-*/; do
		[ -f "$d/gmon.out" ] && basename "$d"
	done | sort -k1.1,1.1 -k1.2n)
fi
if [ "$do_many" = 0 ]; then
	many=()
elif [ ${#many[@]} -eq 0 ]; then
	mapfile -t many < <(for d in "$work"/many-f*/; do
		[ -f "$d/MANY-INFO" ] && basename "$d" | sed 's/^many-f//'
	done | sort -n)
fi
[ ${#sizes[@]} -gt 0 ] || [ ${#many[@]} -gt 0 ] ||
	{ echo "run.sh: nothing to measure in $work: run bench/build.sh first" >&2; exit 1; }
for n in "${sizes[@]}"; do
	[ -f "$work/$n/gmon.out" ] || { echo "run.sh: no $work/$n/gmon.out: run bench/build.sh" >&2; exit 1; }
done
for m in "${many[@]}"; do
	[ -f "$work/many-f$m/MANY-INFO" ] || { echo "run.sh: no $work/many-f$m: run bench/build.sh --many-size $m" >&2; exit 1; }
done

tmp=$(mktemp -d)
hog=
trap '[ -z "$hog" ] || kill "$hog" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$bench/results"
report=$bench/results/$(date +%Y-%m-%d_%H%M%S).txt

info() { sed -n "s/^$2=//p" "$1" | tail -n 1; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }

# measure KEY CWD COMMAND...: one run, appends "wall rss_kb" to $tmp/KEY.
# Does nothing once KEY is marked to stop: its first run took over $long
# seconds, or a run was stopped after $timeout seconds.
measure() {
	local key=$1 cwd=$2 res
	shift 2
	[ ! -e "$tmp/$key.stop" ] || return 0
	res=$(python3 "$bench/measure.py" --cwd "$cwd" --stderr "$tmp/stderr" --timeout "$timeout" -- "$@")
	set -- $res
	case $3 in
	0) ;;
	timeout)
		echo "run.sh: $key: stopped after ${timeout}s" >&2
		touch "$tmp/$key.timeout" "$tmp/$key.stop" ;;
	*)
		echo "run.sh: $key: exit status $3:" >&2
		head -n 5 "$tmp/stderr" >&2
		touch "$tmp/$key.failed" ;;
	esac
	echo "$1 $2" >>"$tmp/$key"
	if awk -v w="$1" -v l="$long" 'BEGIN { exit !(w > l) }'; then
		touch "$tmp/$key.stop"
	fi
}

# median KEY COLUMN: median of column 1 (wall s) or 2 (RSS kB).
median() {
	awk -v c="$2" '{ print $c }' "$tmp/$1" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

row() {	# row LABEL KEY
	local flag="" bound="" n
	[ -f "$tmp/$2.failed" ] && flag="  FAILED"
	[ -f "$tmp/$2.timeout" ] && { bound=">"; flag="  stopped after ${timeout}s"; }
	n=$(wc -l <"$tmp/$2")
	printf '  %-34s %10s %12s %5d%s\n' "$1" "$bound$(printf %.3f "$(median "$2" 1)")" \
		"$bound$(awk -v k="$(median "$2" 2)" 'BEGIN { printf "%.1f", k / 1024 }')" "$n" "$flag"
}

header() {
	printf '  %-34s %10s %12s %5s\n' "command" "wall s" "peak RSS MB" "runs"
}

# ratio KEY_A KEY_B COLUMN: median A / median B, marked "<" when only B was
# stopped (B is a lower bound), ">" when only A was, "?" when both were.
ratio() {
	local mark=""
	if [ -f "$tmp/$1.timeout" ] && [ -f "$tmp/$2.timeout" ]; then mark="?"
	elif [ -f "$tmp/$2.timeout" ]; then mark="<"
	elif [ -f "$tmp/$1.timeout" ]; then mark=">"
	fi
	awk -v a="$(median "$1" "$3")" -v b="$(median "$2" "$3")" -v m="$mark" \
		'BEGIN { printf "%s%.3f", m, (b > 0 ? a / b : 0) }'
}

verdict() {	# verdict RATIO LIMIT
	awk -v r="$1" -v l="$2" 'BEGIN {
		m = substr(r, 1, 1); v = r
		if (m == "<" || m == ">" || m == "?") v = substr(r, 2); else m = ""
		if (m == "?" || (m == "<" && v > l) || (m == ">" && v <= l)) print "unknown"
		else print (v <= l ? "met" : "MISSED") }'
}

summary=()

# One line per fSIZE case measured: medians, the ratios, and gmon2cg's
# time and memory per function, to show how they grow with the program.
scale_table() {
	local n f lines=()

	for n in "${sizes[@]}"; do
		case $n in *-bins-*) ;; f[0-9]*) lines+=("$n") ;; esac
	done
	[ ${#lines[@]} -gt 1 ] || return 0
	echo "Growth (medians; wall s / peak RSS MB; us and kB per function are gmon2cg's)"
	printf '  %-17s %9s %15s %15s %15s %8s %8s %8s %8s %8s\n' case functions gmon2cg "gprof -b" "nm -n" "/nm" "/gprof" "RSS/gp" "us/fn" "kB/fn"
	for n in "${lines[@]}"; do
		f=$(info "$work/$n/BUILD-INFO" functions)
		printf '  %-17s %9s %8.3f/%6.1f %8.3f/%6.1f %8.3f/%6.1f %8s %8s %8s %8.2f %8.2f\n' "$n" "$f" \
			"$(median "$n.g2c" 1)" "$(awk -v k="$(median "$n.g2c" 2)" 'BEGIN { print k / 1024 }')" \
			"$(median "$n.gp" 1)" "$(awk -v k="$(median "$n.gp" 2)" 'BEGIN { print k / 1024 }')" \
			"$(median "$n.nm" 1)" "$(awk -v k="$(median "$n.nm" 2)" 'BEGIN { print k / 1024 }')" \
			"$(ratio "$n.g2c" "$n.nm" 1)" "$(ratio "$n.g2c" "$n.gp" 1)" "$(ratio "$n.g2c" "$n.gp" 2)" \
			"$(awk -v w="$(median "$n.g2c" 1)" -v f="$f" 'BEGIN { print w * 1e6 / f }')" \
			"$(awk -v k="$(median "$n.g2c" 2)" -v f="$f" 'BEGIN { print k / f }')"
	done
	echo
}

report() {
	echo "gmon2cg benchmark, $(date '+%Y-%m-%d %H:%M:%S %z')"
	echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
	local rev=""
	rev=$(git -C "$(dirname "$g2c")" rev-parse --short HEAD 2>/dev/null) && rev=" (commit $rev)" || rev=""
	echo "gmon2cg: $g2c$rev"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews the figures)"
	echo "gprof:   $(gprof --version | sed -n 1p); $(gcc --version | sed -n 1p); cflags -pg -g -O2 (-O1: fSIZE-O1)"
	echo "$runs runs of each command, alternating; medians; wall in seconds, peak RSS in MB (MiB);"
	echo "a command whose first run takes over ${long}s runs once; one over ${timeout}s is stopped ('>': at least)"
	echo

	local n dir bi kind
	for n in "${sizes[@]}"; do
		dir=$work/$n
		bi=$dir/BUILD-INFO
		# sizes: against gprof and the floor; the all-bins shapes: against
		# gprof alone; f50000, f50000-O1 and the real programs: the floor
		# is a target too
		case $n in
		*-bins-*) kind=bins ;;
		real-*) kind=real ;;
		f50000|f50000-O1) kind=floor ;;
		*) kind=size ;;
		esac
		echo "run.sh: $n ..." >&2
		cat "$dir/prog" "$dir/gmon.out" >/dev/null	# page cache
		for ((i = 1; i <= runs; i++)); do
			measure "$n.g2c" "$dir" "$g2c" prog gmon.out
			measure "$n.gp" "$dir" gprof -b prog gmon.out
			[ "$do_lines" = 0 ] || [ "$kind" = bins ] ||
				measure "$n.gpl" "$dir" gprof -b -l -p prog gmon.out
			[ "$kind" = bins ] || measure "$n.nm" "$dir" nm -n prog
		done
		if [ "$busy" = 1 ]; then
			# (one core taken by a loop of the shell's own)
			bash -c 'while :; do :; done' &
			hog=$!
			for ((i = 1; i <= runs; i++)); do
				measure "$n.g2c.busy" "$dir" "$g2c" prog gmon.out
				measure "$n.gp.busy" "$dir" gprof -b prog gmon.out
				[ "$kind" = bins ] || measure "$n.nm.busy" "$dir" nm -n prog
			done
			kill "$hog"
			wait "$hog" 2>/dev/null || true
			hog=
		fi
		echo "$n: $(info "$bi" functions) functions in $(info "$bi" files) files," \
			"text $(mb "$(info "$bi" text_bytes)") MB, prog $(mb "$(info "$bi" prog_bytes)") MB," \
			"gmon.out $(mb "$(info "$bi" gmon_bytes)") MB ($(info "$bi" arcs) arcs, $(info "$bi" samples) samples)"
		[ -z "$(info "$bi" shape)" ] || echo "  $(info "$bi" shape)"
		header
		row "gmon2cg prog gmon.out" "$n.g2c"
		row "gprof -b prog gmon.out" "$n.gp"
		[ -f "$tmp/$n.gpl" ] && row "gprof -b -l -p prog gmon.out" "$n.gpl"
		[ "$kind" = bins ] || row "nm -n prog (floor)" "$n.nm"
		local w1 r1 w2 r2 w3 r3 limit=0.5 floor=1.5
		[ "$kind" = floor ] && floor=1.0
		w1=$(ratio "$n.g2c" "$n.gp" 1); r1=$(ratio "$n.g2c" "$n.gp" 2)
		printf '  %-34s %10s %12s %s\n' "ratio gmon2cg / gprof -b" "$w1" "$r1" \
			"$([ "$kind" = real ] || echo "      (targets: wall <= $limit, RSS <= 1.0)")"
		if [ -f "$tmp/$n.gpl" ]; then
			w2=$(ratio "$n.g2c" "$n.gpl" 1); r2=$(ratio "$n.g2c" "$n.gpl" 2)
			printf '  %-34s %10s %12s\n' "ratio gmon2cg / gprof -b -l -p" "$w2" "$r2"
		fi
		if [ "$kind" != bins ]; then
			w3=$(ratio "$n.g2c" "$n.nm" 1); r3=$(ratio "$n.g2c" "$n.nm" 2)
			printf '  %-34s %10s %12s %s\n' "ratio gmon2cg / nm -n" "$w3" "$r3" \
				"      (target: wall <= $floor)"
		fi
		if [ -f "$tmp/$n.g2c.busy" ]; then
			printf '  %-34s %10s %12s\n' "one core busy: gmon2cg / gprof -b" \
				"$(ratio "$n.g2c.busy" "$n.gp.busy" 1)" "$(ratio "$n.g2c.busy" "$n.gp.busy" 2)"
			[ "$kind" = bins ] ||
				printf '  %-34s %10s %12s\n' "one core busy: gmon2cg / nm -n" \
					"$(ratio "$n.g2c.busy" "$n.nm.busy" 1)" "$(ratio "$n.g2c.busy" "$n.nm.busy" 2)"
		fi
		echo
		[ "$kind" = bins ] ||
			summary+=("$(printf '%-18s wall gmon2cg / nm -n    %6s <= %s  %s' "$n" "$w3" "$floor" "$(verdict "$w3" "$floor")")")
		[ "$kind" = real ] && continue
		summary+=("$(printf '%-18s wall gmon2cg / gprof -b %6s <= %s  %s' "$n" "$w1" "$limit" "$(verdict "$w1" "$limit")")")
		summary+=("$(printf '%-18s RSS  gmon2cg / gprof -b %6s <= 1.0  %s' "$n" "$r1" "$(verdict "$r1" 1.0)")")
	done

	local m mi prog files
	for m in "${many[@]}"; do
		dir=$work/many-f$m
		mi=$dir/MANY-INFO
		prog=$work/f$m/prog
		files=("$dir"/gmon.out.*)
		echo "run.sh: many-f$m ..." >&2
		cat "$prog" "${files[@]}" >/dev/null
		mkdir -p "$tmp/scratch"
		for ((i = 1; i <= runs; i++)); do
			measure "m$m.g2c" "$tmp/scratch" "$g2c" "$prog" "${files[@]}"
			measure "m$m.gps" "$tmp/scratch" gprof -s "$prog" "${files[@]}"
			rm -f "$tmp/scratch/gmon.sum"
		done
		echo "many-f$m: ${#files[@]} gmon.out files of the f$m program ('prog 1' runs)," \
			"$(mb "$(info "$mi" total_bytes)") MB in all ($(info "$mi" one_arcs) arcs each)"
		header
		row "gmon2cg prog gmon.out.*" "m$m.g2c"
		row "gprof -s prog gmon.out.*" "m$m.gps"
		local w r
		w=$(ratio "m$m.g2c" "m$m.gps" 1); r=$(ratio "m$m.g2c" "m$m.gps" 2)
		printf '  %-34s %10s %12s %s\n' "ratio gmon2cg / gprof -s" "$w" "$r" "      (target: wall <= 0.1)"
		echo
		summary+=("$(printf '%-18s wall gmon2cg / gprof -s %6s <= 0.1  %s' "many-f$m" "$w" "$(verdict "$w" 0.1)")")
	done

	scale_table

	if [ ${#summary[@]} -gt 0 ]; then
		echo "Targets"
		printf '  %s\n' "${summary[@]}"
	fi
}

report | tee "$report"
echo "run.sh: report written to $report" >&2
