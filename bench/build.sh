#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# build.sh -- generate, build (gcc -pg -g -O2) and run the benchmark programs.
#
#   bench/build.sh [--many-size N] [--many-runs N] [--no-many] [--cxx]
#                  [--dwarf V] [--O1] [--uncalled U] [--hubs] [SIZE...]
#
# For each SIZE (number of functions; default 5000 20000 50000 100000):
# bench/work/fSIZE/ gets the generated sources, prog and the gmon.out of one
# default run (a few seconds), plus BUILD-INFO with timings and sizes.
# With --cxx the programs are the C++ variant (long names, heavy inlining;
# see gen-program.py) in bench/work/cxxSIZE/, and there is no many-runs case.
# With --dwarf V (2 to 5) the C programs are compiled with -gdwarf-V, in
# bench/work/fSIZE-dwarfV/ (gcc 12 writes DWARF 5 by default).
# With --O1 they are compiled with -O1 instead of -O2, in bench/work/fSIZE-O1/
# (less inlining: more functions' prologues and call sites to decode).
# glibc's mcount keeps at most 2^20 arcs and writes no gmon.out past that:
# about 650 000 generated functions (1.57 call sites each) is the limit.
# With --uncalled U, U of each program's functions are never called (see
# gen-program.py), in bench/work/fSIZE-uU/: `--uncalled 400000 1000000`
# is a program of a million functions whose profile fits.
# With --hubs the program has another shape (gen-program.py --hubs 200
# --cycle-share 0.05): 200 hub functions that every other calls, thousands
# of callers each, and 5 % of the functions in cycles, in
# bench/work/fSIZE-hubs/ (with --O1: fSIZE-O1-hubs/).
# Then the many-runs case: bench/work/many-fM/ gets the gmon.out.PID files of
# --many-runs (default 1000) short runs (`prog 1`) of the M-function program
# (default 20000, about 3 MB of text), built first if needed.
# Environment: SEED (default 1), JOBS (make -j, default: number of cores).
# Work already done is kept: re-running only redoes what is out of date.
set -euo pipefail

bench=$(cd "$(dirname "$0")" && pwd)
work=$bench/work
seed=${SEED:-1}
jobs=${JOBS:-$(nproc)}
many_size=20000
many_runs=1000
cxx=
prefix=f
suffix=
cflags="-pg -g -O2"
uncalled=0
shape=()
sizes=()

while [ $# -gt 0 ]; do
	case $1 in
	--many-size) many_size=$2; shift 2 ;;
	--many-runs) many_runs=$2; shift 2 ;;
	--no-many) many_runs=0; shift ;;
	--cxx) cxx=--cxx; prefix=cxx; many_runs=0; shift ;;
	--dwarf) suffix=-dwarf$2; cflags="-pg -g -O2 -gdwarf-$2"; many_runs=0; shift 2 ;;
	--O1) suffix=$suffix-O1; cflags=${cflags/-O2/-O1}; many_runs=0; shift ;;
	--uncalled) uncalled=$2; suffix=$suffix-u$2; many_runs=0; shift 2 ;;
	--hubs) shape=(--hubs 200 --cycle-share 0.05); suffix=$suffix-hubs; many_runs=0; shift ;;
	-h|--help) sed -n '3,28p' "$0"; exit 0 ;;
	-*) echo "build.sh: unknown option $1" >&2; exit 2 ;;
	*) sizes+=("$1"); shift ;;
	esac
done
[ ${#sizes[@]} -gt 0 ] || sizes=(5000 20000 50000 100000)

for tool in gcc make python3 size; do
	command -v "$tool" >/dev/null || { echo "build.sh: $tool not found" >&2; exit 1; }
done

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
info() { sed -n "s/^$2=//p" "$1" | tail -n 1; }

mkdir -p "$work"

# build_one N: generate, make and run work/fN; prints one summary line.
build_one() {
	local n=$1 dir=$work/$prefix$1$suffix t gen_s make_s run_s
	mkdir -p "$dir"
	t=$(now)
	python3 "$bench/gen-program.py" --functions "$n" --seed "$seed" $cxx \
		--uncalled "$uncalled" "${shape[@]}" --out "$dir" >/dev/null
	gen_s=$(since "$t")
	if make -C "$dir" -q prog CFLAGS="$cflags" 2>/dev/null && [ -f "$dir/BUILD-INFO" ]; then
		make_s=$(info "$dir/BUILD-INFO" make_s)
	else
		echo "build.sh: $prefix$n$suffix: compiling ($(info "$dir/GEN-INFO" files) files, make -j$jobs)" >&2
		rm -f "$dir/gmon.out" "$dir/BUILD-INFO"
		t=$(now)
		make -C "$dir" -s -j"$jobs" prog CFLAGS="$cflags"
		make_s=$(since "$t")
	fi
	if [ ! -f "$dir/gmon.out" ] || [ "$dir/prog" -nt "$dir/gmon.out" ] || [ ! -f "$dir/BUILD-INFO" ]; then
		t=$(now)
		(cd "$dir" && rm -f gmon.out && ./prog >run.stdout 2>run.stderr)
		run_s=$(since "$t")
		if [ -s "$dir/run.stderr" ]; then
			echo "build.sh: $prefix$n$suffix: prog wrote to stderr:" >&2
			cat "$dir/run.stderr" >&2
			exit 1
		fi
		{
			cat "$dir/GEN-INFO"
			echo "gen_s=$gen_s"
			echo "make_s=$make_s"
			echo "run_s=$run_s"
			echo "text_bytes=$(size "$dir/prog" | awk 'NR == 2 { print $1 }')"
			echo "prog_bytes=$(stat -c %s "$dir/prog")"
			echo "gmon_bytes=$(stat -c %s "$dir/gmon.out")"
			python3 "$bench/gmon-info.py" "$dir/gmon.out" | tr ' ' '\n'
			echo "cc=$(sed -n 's/^CC = //p' "$dir/Makefile") ($(gcc --version | sed -n 1p))"
			echo "cflags=$cflags"
		} >"$dir/BUILD-INFO.tmp"
		mv "$dir/BUILD-INFO.tmp" "$dir/BUILD-INFO"
	fi
	local bi=$dir/BUILD-INFO
	# Every generated function that is called must appear as a callee,
	# and every call site as an arc (more when GCC unrolled a loop around
	# a call): otherwise glibc's arc table overflowed.
	if [ "$(info "$bi" callees)" != "$(($(info "$bi" functions) - ${uncalled}))" ] ||
	   [ "$(info "$bi" arcs)" -lt "$(info "$bi" call_sites)" ]; then
		echo "build.sh: $prefix$n$suffix: WARNING: gmon.out has $(info "$bi" callees) callees and $(info "$bi" arcs) arcs;" \
			"expected $(info "$bi" functions) and at least $(info "$bi" call_sites)" >&2
	fi
	printf '%s%-13s %4s files  make %6.1fs  run %4.1fs  text %5.1f MB  prog %5.1f MB  gmon.out %5.1f MB  %7d arcs  %4d samples\n' \
		"$prefix" "$n$suffix" "$(info "$bi" files)" "$(info "$bi" make_s)" "$(info "$bi" run_s)" \
		"$(awk -v b="$(info "$bi" text_bytes)" 'BEGIN { print b / 1e6 }')" \
		"$(awk -v b="$(info "$bi" prog_bytes)" 'BEGIN { print b / 1e6 }')" \
		"$(awk -v b="$(info "$bi" gmon_bytes)" 'BEGIN { print b / 1e6 }')" \
		"$(info "$bi" arcs)" "$(info "$bi" samples)"
}

for n in "${sizes[@]}"; do
	build_one "$n"
done

[ "$many_runs" -gt 0 ] || exit 0

# The many-runs case: many short runs of one program, one gmon.out.PID each.
prog_dir=$work/f$many_size
case " ${sizes[*]} " in
*" $many_size "*) ;;
*) build_one "$many_size" ;;
esac
dir=$work/many-f$many_size
count() { find "$dir" -maxdepth 1 -name 'gmon.out.*' 2>/dev/null | wc -l; }
if [ -f "$dir/MANY-INFO" ] && [ "$(count)" -eq "$many_runs" ] &&
   [ "$dir/MANY-INFO" -nt "$prog_dir/prog" ]; then
	:
else
	echo "build.sh: many-f$many_size: $many_runs runs of 'prog 1'" >&2
	rm -rf "$dir"
	mkdir -p "$dir"
	t=$(now)
	tries=0
	# A reused PID would overwrite a file: run until there are enough.
	while [ "$(count)" -lt "$many_runs" ] && [ $tries -lt $((many_runs * 2)) ]; do
		for ((i = $(count); i < many_runs; i++)); do
			GMON_OUT_PREFIX=$dir/gmon.out "$prog_dir/prog" 1 >/dev/null
			tries=$((tries + 1))
		done
	done
	run_s=$(since "$t")
	[ "$(count)" -eq "$many_runs" ] || { echo "build.sh: many-f$many_size: only $(count) files" >&2; exit 1; }
	{
		echo "size=$many_size"
		echo "files=$(count)"
		echo "run_s=$run_s"
		echo "total_bytes=$(du -sb "$dir" | cut -f1)"
		one=("$dir"/gmon.out.*)
		python3 "$bench/gmon-info.py" "${one[0]}" | tr ' ' '\n' | sed 's/^/one_/'
	} >"$dir/MANY-INFO"
fi
printf 'many-f%-5s %4d files of %4.1f MB, %6.1f MB in all, runs took %.1fs\n' "$many_size" \
	"$(info "$dir/MANY-INFO" files)" \
	"$(awk -v b="$(info "$dir/MANY-INFO" total_bytes)" -v n="$(info "$dir/MANY-INFO" files)" 'BEGIN { print b / n / 1e6 }')" \
	"$(awk -v b="$(info "$dir/MANY-INFO" total_bytes)" 'BEGIN { print b / 1e6 }')" \
	"$(info "$dir/MANY-INFO" run_s)"
