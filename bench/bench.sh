#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench.sh -- the whole benchmark: build.sh, all-bins.sh, real.sh, then
# run.sh, which times every case in one run and checks every target.
#
#   bench/bench.sh [--quick | --scale] [-n RUNS] [--gmon2cg PATH] [SIZE...]
#
# Default: sizes 1000 5000 20000 50000 100000, the 50000-function program
# also with -O1, the C++ variant of 50000 and 100000, the 50000-function
# program with DWARF 2, 3 and 4 (gcc's default is 5), the all-bins shapes
# of f50000 and f50000-O1, the program of another shape (build.sh --O1
# --hubs 50000: hubs with thousands of callers, 5 % of the functions in
# cycles) and its all-bins shapes, the real programs of the test corpus
# (real.sh) and 1000 runs of the 20000-function program, 5 timed runs of
# each command, each case timed again with one core kept busy (run.sh
# --busy; about 50 minutes on 2 cores, most of them compiling; a second
# bench.sh reuses what is built).
# --quick: sizes 1000 3000 and 100 runs of the 3000-function program, 3 timed
# runs (about a minute).
# --scale: this release's table: sizes 1000 to 500000, and 1000000 of which
# 400000 are never called, each at -O2 and -O1, the hubs program, the
# all-bins shapes and the real programs, 3 timed runs quiet and 3 busy,
# without gprof -b -l -p and the many-runs case (about 160 minutes, most
# of it compiling the largest programs; 8 GB of disk).  A program of this generator whose every function runs has
# more call arcs than glibc's mcount keeps (2^20) from about 650000
# functions on: it writes no gmon.out; hence the uncalled functions of the
# largest (build.sh --uncalled).
# A real program the corpus cannot build here (no cached build, no
# deb-src) is left out with a warning.
# gmon2cg: --gmon2cg PATH, $GMON2CG, or the one in the checkout above bench/
# (built with `make` if it is missing).
set -euo pipefail

bench=$(cd "$(dirname "$0")" && pwd)
sizes=()
build_opts=()
run_opts=()
quick=0
scale=0
g2c=${GMON2CG:-}

while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift ;;
	--scale) scale=1; shift ;;
	-n|--runs) run_opts+=(-n "$2"); shift 2 ;;
	--gmon2cg) g2c=$2; shift 2 ;;
	-h|--help) sed -n '3,32p' "$0"; exit 0 ;;
	-*) echo "bench.sh: unknown option $1" >&2; exit 2 ;;
	*) sizes+=("$1"); shift ;;
	esac
done

cxx_sizes=()
dwarf_versions=()
uncalled_cases=()
o1_sizes=()
extras=0	# the all-bins shapes and the real programs
if [ "$quick" = 1 ]; then
	[ ${#sizes[@]} -gt 0 ] || sizes=(1000 3000)
	build_opts+=(--many-size 3000 --many-runs 100)
	run_opts=(-n 3 "${run_opts[@]}")
elif [ "$scale" = 1 ]; then
	[ ${#sizes[@]} -gt 0 ] || { sizes=(1000 5000 20000 50000 100000 200000 500000);
				    uncalled_cases=(1000000:400000); o1_sizes=("${sizes[@]}"); extras=1; }
	build_opts+=(--no-many)
	run_opts=(-n 3 --no-lines --no-many --busy --timeout 300 "${run_opts[@]}")
else
	[ ${#sizes[@]} -gt 0 ] || { sizes=(1000 5000 20000 50000 100000); cxx_sizes=(50000 100000);
				    dwarf_versions=(2 3 4); o1_sizes=(50000); extras=1; }
	run_opts=(--busy "${run_opts[@]}")
fi

if [ -z "$g2c" ]; then
	g2c=$bench/../gmon2cg
	if [ ! -x "$g2c" ]; then
		echo "bench.sh: building gmon2cg in $(cd "$bench/.." && pwd) (log: bench/work/gmon2cg-build.log)" >&2
		mkdir -p "$bench/work"
		(cd "$bench/.." && { [ -f Makefile ] || { autoreconf -fi && ./configure -q; }; } &&
			make -j"$(nproc)" gmon2cg) >"$bench/work/gmon2cg-build.log" 2>&1 ||
			{ tail -n 20 "$bench/work/gmon2cg-build.log" >&2; exit 1; }
	fi
fi

start=$(date +%s)
bash "$bench/build.sh" "${build_opts[@]}" "${sizes[@]}"
[ ${#cxx_sizes[@]} -eq 0 ] || bash "$bench/build.sh" --cxx "${cxx_sizes[@]}"
for v in "${dwarf_versions[@]}"; do
	bash "$bench/build.sh" --dwarf "$v" 50000
done
for c in "${uncalled_cases[@]}"; do	# SIZE:UNCALLED
	bash "$bench/build.sh" --uncalled "${c#*:}" "${c%:*}"
	[ ${#o1_sizes[@]} -le 1 ] || bash "$bench/build.sh" --O1 --uncalled "${c#*:}" "${c%:*}"
done
[ ${#o1_sizes[@]} -eq 0 ] || bash "$bench/build.sh" --O1 "${o1_sizes[@]}"
o1_cases=()
for n in "${o1_sizes[@]}"; do
	o1_cases+=("f$n-O1")
done
real_cases=()
if [ "$extras" = 1 ]; then
	bash "$bench/build.sh" --O1 --hubs 50000
	o1_cases+=(f50000-O1-hubs)
	bash "$bench/all-bins.sh" --prepare f50000 "${o1_cases[@]}"
	if bash "$bench/real.sh" --gmon2cg "$g2c"; then
		mapfile -t real_cases < <(cd "$bench/work" && ls -d real-* 2>/dev/null)
	else
		echo "bench.sh: WARNING: no real programs (see bench/work/corpus-keep/run.log)" >&2
	fi
fi
echo "bench.sh: build.sh took $(( $(date +%s) - start ))s" >&2
# Measure only what this invocation built.
many_size=20000
[ "$quick" = 1 ] && many_size=3000
export GMON2CG=$g2c
cases=("${sizes[@]}")
for n in "${cxx_sizes[@]}"; do
	cases+=("cxx$n")
done
for v in "${dwarf_versions[@]}"; do
	cases+=("f50000-dwarf$v")
done
for c in "${uncalled_cases[@]}"; do
	cases+=("f${c%:*}-u${c#*:}")
	[ ${#o1_sizes[@]} -le 1 ] || cases+=("f${c%:*}-O1-u${c#*:}")
done
cases+=("${o1_cases[@]}")
if [ "$extras" = 1 ]; then
	for c in f50000 "${o1_cases[@]}"; do
		cases+=("$c-bins-glibc" "$c-bins-text" "$c-bins-most")
	done
	cases+=("${real_cases[@]}")
fi
if [ "$scale" = 1 ]; then
	bash "$bench/run.sh" "${run_opts[@]}" "${cases[@]}"
else
	bash "$bench/run.sh" "${run_opts[@]}" "${cases[@]}" --many "$many_size"
fi
echo "bench.sh: total $(( $(date +%s) - start ))s" >&2
