#!/bin/bash
# all-bins.sh -- the worst case for memory: a histogram alone with every
# bin counted, as many bins as gmon2cg takes (one per 2 bytes of the
# program's loaded span), glibc's own shape (its bins over the text,
# every one counted) and 2-byte bins over the text, converted by gmon2cg
# and read by gprof -b on one
# built bench case (default f50000, bench/build.sh).
#   bench/all-bins.sh [--case NAME] [GMON2CG]
# Each line: shape, tool, wall seconds, peak RSS kB (GNU time); then the
# ratios of gmon2cg's wall time and peak RSS to gprof's per shape, the
# two run one after the other.
set -euo pipefail
cd "$(dirname "$0")"
case_name=f50000
[ "${1:-}" = --case ] && { case_name=$2; shift 2; }
gmon2cg=$(realpath "${1:-../gmon2cg}")
dir=work/$case_name
[ -x "$dir/prog" ] && [ -f "$dir/gmon.out" ] || { echo "all-bins.sh: build $dir first (bench/build.sh)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 ../tests/lib/gmon_rewrite.py all-bins "$dir/prog" "$dir/gmon.out" "$work/most.out"
# glibc's histogram with every bin set to 1, and one of 2-byte bins over
# the same text, every one set to 1
python3 - "$dir/gmon.out" "$work/glibc.out" "$work/text.out" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
low, high, nbins, rate = struct.unpack_from("<QQII", data, 21)
open(sys.argv[2], "wb").write(data[:61] + struct.pack("<H", 1) * nbins)
text_bins = (high - low) // 2
open(sys.argv[3], "wb").write(data[:21] + struct.pack("<QQI", low, low + 2 * text_bins, text_bins)
                              + data[41:61] + struct.pack("<H", 1) * text_bins)
PY
# measure SHAPE TOOL CMD...: one line, and the peak RSS in $work/SHAPE.TOOL
measure() {
	local shape=$1 tool=$2
	shift 2
	/usr/bin/time -f "%e %M" -o "$work/t" "$@" >/dev/null 2>&1
	read -r secs kb <"$work/t"
	echo "$secs $kb" >"$work/$shape.$tool"
	printf '%-6s %-8s %7s s %8s kB\n' "$shape" "$tool" "$secs" "$kb"
}
for shape in glibc text most; do
	measure "$shape" gmon2cg "$gmon2cg" -o /dev/null "$dir/prog" "$work/$shape.out"
	measure "$shape" gprof gprof -b "$dir/prog" "$work/$shape.out"
done
for shape in glibc text most; do
	read -r a_secs a_kb <"$work/$shape.gmon2cg"
	read -r b_secs b_kb <"$work/$shape.gprof"
	awk -v s="$shape" -v at="$a_secs" -v bt="$b_secs" -v a="$a_kb" -v b="$b_kb" \
		'BEGIN { wall = bt > 0 ? sprintf("%.2f", at / bt) : "-"
			 printf "%-6s gmon2cg / gprof: wall %s, RSS %.2f\n", s, wall, a / b }'
done
