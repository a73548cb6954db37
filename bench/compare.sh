#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# compare.sh -- is gmon2cg --compare of two profiles of a program no
# slower than converting one?
#
#   bench/compare.sh [-n RUNS] [--gmon2cg PATH] [SIZE]    (default 50000)
#
# Uses bench/work/fSIZE/ (build.sh SIZE makes it when it is missing), runs
# its prog a second time for another gmon.out, converts both, then times,
# alternately, RUNS times each (default 5):
#
#     gmon2cg prog gmon.out                    one conversion
#     gmon2cg --compare a.cg b.cg              the comparison of two
#
# and prints the medians and their ratio (target: <= 1).  The report also
# goes to bench/results/DATE_TIME-compare.txt.
set -euo pipefail

bench=$(cd "$(dirname "$0")" && pwd)
runs=5
size=50000
g2c=${GMON2CG:-$bench/../gmon2cg}
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	--gmon2cg) g2c=$2; shift 2 ;;
	-*) echo "compare.sh: unknown option $1" >&2; exit 2 ;;
	*) size=$1; shift ;;
	esac
done
[ -x "$g2c" ] || { echo "compare.sh: no gmon2cg at $g2c" >&2; exit 1; }
g2c=$(cd "$(dirname "$g2c")" && pwd)/$(basename "$g2c")
dir=$bench/work/f$size
[ -f "$dir/gmon.out" ] || "$bench/build.sh" --no-many "$size"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The second run, in a directory of its own (gmon.out is written there).
if [ ! -f "$dir/gmon-b.out" ]; then
	(cd "$tmp" && "$dir/prog" >/dev/null && mv gmon.out "$dir/gmon-b.out")
fi
"$g2c" -o "$dir/compare-a.cg" "$dir/prog" "$dir/gmon.out"
"$g2c" -o "$dir/compare-b.cg" "$dir/prog" "$dir/gmon-b.out"

measure() {	# measure KEY COMMAND...: appends "wall rss_kb" to $tmp/KEY
	local key=$1 res
	shift
	res=$(python3 "$bench/measure.py" --cwd "$dir" --stderr "$tmp/stderr" -- "$@")
	set -- $res
	case $3 in
	0|3) ;;
	*) echo "compare.sh: $key: exit status $3" >&2; cat "$tmp/stderr" >&2; exit 1 ;;
	esac
	echo "$1 $2" >>"$tmp/$key"
}
median() {	# median KEY COLUMN
	awk -v c="$2" '{ print $c }' "$tmp/$1" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for ((i = 0; i < runs; i++)); do
	measure convert "$g2c" prog gmon.out
	measure compare "$g2c" --compare compare-a.cg compare-b.cg
done
mkdir -p "$bench/results"
{
	echo "gmon2cg --compare benchmark, $(date '+%Y-%m-%d %H:%M:%S %z')"
	echo "gmon2cg: $g2c"
	echo "f$size: $(du -h "$dir/compare-a.cg" | cut -f1) callgrind file, $runs runs each (medians)"
	printf '  %-46s %8s %12s\n' command "wall s" "peak RSS MB"
	for key in convert compare; do
		label="gmon2cg prog gmon.out"
		[ "$key" = convert ] || label="gmon2cg --compare compare-a.cg compare-b.cg"
		printf '  %-46s %8.3f %12.1f\n' "$label" "$(median "$key" 1)" \
			"$(awk -v k="$(median "$key" 2)" 'BEGIN { print k / 1024 }')"
	done
	awk -v a="$(median compare 1)" -v b="$(median convert 1)" 'BEGIN {
		r = a / b; printf "  ratio compare / convert: %.3f (target <= 1: %s)\n", r, r <= 1 ? "met" : "MISSED" }'
} | tee "$bench/results/$(date +%Y-%m-%d_%H%M%S)-compare.txt"
