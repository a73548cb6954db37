#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# real.sh -- make real programs bench cases: the test corpus's programs
# (Debian's sources built -pg -g by tests/corpus/*.recipe, cached in
# /var/cache/gmon2cg/corpus; about 9 minutes to build on 2 cores when
# nothing is cached, and apt-get source needs deb-src lines) run on
# their workloads by tests/corpus/run.sh, each kept as
# bench/work/real-NAME/ (prog, a link to the program, gmon.out and
# BUILD-INFO) for run.sh to time against gprof and nm -n.
#   bench/real.sh [--gmon2cg PATH] [RECIPE...]
# Default recipes: gawk sqlite3 lua re2 xz zopfli zstd.
set -euo pipefail

bench=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$bench/.." && pwd)
work=$bench/work
g2c=${GMON2CG:-$top/gmon2cg}
recipes=()
while [ $# -gt 0 ]; do
	case $1 in
	--gmon2cg) g2c=$2; shift 2 ;;
	-h|--help) sed -n '3,11p' "$0"; exit 0 ;;
	-*) echo "real.sh: unknown option $1" >&2; exit 2 ;;
	*) recipes+=("$1"); shift ;;
	esac
done
[ ${#recipes[@]} -gt 0 ] || recipes=(gawk sqlite3 lua re2 xz zopfli zstd)
g2c=$(cd "$(dirname "$g2c")" && pwd)/$(basename "$g2c")

keep=$work/corpus-keep
mkdir -p "$keep"
paths=()
for r in "${recipes[@]}"; do
	paths+=("$top/tests/corpus/$r.recipe")
done
echo "real.sh: running the corpus recipes ${recipes[*]} (log: $keep/run.log)" >&2
(cd "$top" && srcdir=. GMON2CG=$g2c G2C_CORPUS_KEEP=$keep \
	bash tests/corpus/run.sh "${paths[@]}") >"$keep/run.log" 2>&1 ||
	{ echo "real.sh: the corpus run failed (see $keep/run.log)" >&2; exit 1; }
for r in "${recipes[@]}"; do
	k=$keep/$r dir=$work/real-$r
	if [ ! -f "$k/program" ] || [ ! -f "$k/gmon.out" ]; then
		echo "real.sh: $r: no program and gmon.out (skipped or failed; see $keep/run.log)" >&2
		continue
	fi
	rm -rf "$dir" && mkdir -p "$dir"
	ln -s "$(cat "$k/program")" "$dir/prog"
	cp "$k/gmon.out" "$dir/gmon.out"
	{
		echo "functions=$(nm --defined-only "$dir/prog" | grep -c ' [Tt] ')"
		echo "files=$(readelf --debug-dump=info "$dir/prog" 2>/dev/null | grep -c DW_TAG_compile_unit)"
		echo "text_bytes=$(size "$dir/prog" | awk 'NR == 2 { print $1 }')"
		echo "prog_bytes=$(stat -L -c %s "$dir/prog")"
		echo "gmon_bytes=$(stat -c %s "$dir/gmon.out")"
		python3 "$bench/gmon-info.py" "$dir/gmon.out" | tr ' ' '\n'
	} >"$dir/BUILD-INFO"
	echo "real.sh: $r: bench/work/real-$r" >&2
done
