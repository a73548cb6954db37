#!/bin/bash
# options.sh -- time and memory of option lists as scripts write them:
# thousands of -E, -F and -k names on one bench program (default f50000,
# built by bench/build.sh), against one gmon2cg or two side by side.
#   bench/options.sh [--case NAME] [--count N] GMON2CG [GMON2CG...]
# Each line: gmon2cg, option kind, count, wall seconds, peak RSS kB (GNU
# time).  The cost should grow with options + functions, never with their
# product.
set -euo pipefail
cd "$(dirname "$0")"
case_name=f50000 count=20000
while [ $# -gt 0 ]; do
	case $1 in
	--case) case_name=$2; shift 2 ;;
	--count) count=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: bench/options.sh [--case NAME] [--count N] GMON2CG..." >&2; exit 2; }
dir=work/$case_name
[ -x "$dir/prog" ] && [ -f "$dir/gmon.out" ] || { echo "options.sh: build $dir first (bench/build.sh)" >&2; exit 1; }
# Names of global functions that are not in a cycle would be needed for
# -E; -F and -k take any.  The names, in a fixed order.
mapfile -t names < <(nm "$dir/prog" | awk '$2 == "T" && $3 !~ /^_/ { print $3 }' | sort | head -n "$((2 * count))")
for tool in "$@"; do
	for kind in F k F+unknown; do
		args=()
		case $kind in
		F) for ((i = 0; i < count; i++)); do args+=(-F "${names[i]}"); done ;;
		F+unknown) for ((i = 0; i < count; i++)); do args+=(-F "${names[i]}"); done
			args+=(-F no_such_function) ;;
		k) for ((i = 0; i + 1 < 2 * count; i += 2)); do args+=(-k "${names[i]}/${names[i + 1]}"); done ;;
		esac
		/usr/bin/time -f "$tool $kind $count %e s %M kB" timeout 300 "$tool" "${args[@]}" \
			-o /dev/null "$dir/prog" "$dir/gmon.out" 2>&1 >/dev/null | tail -n 1 || true
	done
done
