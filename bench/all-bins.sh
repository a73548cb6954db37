#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# all-bins.sh -- the worst case: a histogram alone with every bin counted,
# converted by gmon2cg and read by gprof -b, in three shapes made from a
# built bench case (bench/build.sh):
#   glibc  glibc's own histogram (its bins over the text), every bin 1;
#   text   2-byte bins over the same text, every bin 1;
#   most   as many bins as gmon2cg takes (one per 2 bytes of the
#          program's loaded span: tests/lib/gmon_rewrite.py all-bins).
# Each shape becomes a case bench/work/CASE-bins-SHAPE (prog a link to the
# case's, gmon.out, BUILD-INFO) that run.sh times: gmon2cg against gprof
# -b, wall and peak RSS, alternating.
#   bench/all-bins.sh [--prepare] [-n RUNS] [--gmon2cg PATH] [CASE...]
# CASE defaults to f50000 and, when built, f50000-O1; --prepare makes the
# cases without timing them (bench.sh times them with the rest).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
work=$bench/work
prepare_only=0
run_opts=()
cases=()
while [ $# -gt 0 ]; do
	case $1 in
	--prepare) prepare_only=1; shift ;;
	-n|--runs|--gmon2cg) run_opts+=("$1" "$2"); shift 2 ;;
	-h|--help) sed -n '3,16p' "$0"; exit 0 ;;
	-*) echo "all-bins.sh: unknown option $1" >&2; exit 2 ;;
	*) cases+=("$1"); shift ;;
	esac
done
if [ ${#cases[@]} -eq 0 ]; then
	cases=(f50000)
	[ ! -f "$work/f50000-O1/gmon.out" ] || cases+=(f50000-O1)
fi

made=()
for c in "${cases[@]}"; do
	dir=$work/$c
	[ -x "$dir/prog" ] && [ -f "$dir/gmon.out" ] ||
		{ echo "all-bins.sh: build $dir first (bench/build.sh)" >&2; exit 1; }
	for shape in glibc text most; do
		mkdir -p "$work/$c-bins-$shape"
		ln -sfn "../$c/prog" "$work/$c-bins-$shape/prog"
	done
	python3 "$bench/../tests/lib/gmon_rewrite.py" all-bins "$dir/prog" "$dir/gmon.out" \
		"$work/$c-bins-most/gmon.out"
	python3 - "$dir/gmon.out" "$work/$c-bins-glibc/gmon.out" "$work/$c-bins-text/gmon.out" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
low, high, nbins, rate = struct.unpack_from("<QQII", data, 21)
open(sys.argv[2], "wb").write(data[:61] + struct.pack("<H", 1) * nbins)
text_bins = (high - low) // 2
open(sys.argv[3], "wb").write(data[:21] + struct.pack("<QQI", low, low + 2 * text_bins, text_bins)
                              + data[41:61] + struct.pack("<H", 1) * text_bins)
PY
	for shape in glibc text most; do
		d=$work/$c-bins-$shape
		{
			grep -E '^(functions|files|text_bytes|prog_bytes)=' "$dir/BUILD-INFO"
			echo "gmon_bytes=$(stat -c %s "$d/gmon.out")"
			python3 "$bench/gmon-info.py" "$d/gmon.out" | tr ' ' '\n'
			case $shape in
			glibc) echo "shape=a histogram alone: $c's own bins, every one counted" ;;
			text) echo "shape=a histogram alone: 2-byte bins over $c's text, every one counted" ;;
			most) echo "shape=a histogram alone: as many bins as gmon2cg takes over $c, every one counted" ;;
			esac
		} >"$d/BUILD-INFO"
		made+=("$c-bins-$shape")
	done
done
[ "$prepare_only" = 1 ] && exit 0
exec bash "$bench/run.sh" --no-many "${run_opts[@]}" "${made[@]}"
