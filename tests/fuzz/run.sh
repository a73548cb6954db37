#!/bin/bash
# run.sh -- run the libFuzzer harnesses built by "make fuzz".
#   tests/fuzz/run.sh [SECONDS_PER_HARNESS] [BUILD_DIR]
# Seeds come from the fixtures' gmon.out files and tests/fuzz/regressions;
# the growing corpus stays in BUILD_DIR/tests/fuzz/corpus-*; any crash,
# leak or timeout is saved as BUILD_DIR/tests/fuzz/found-* and makes the
# script fail.  Each input that ever failed belongs in tests/fuzz/regressions.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
seconds=${1:-60}
build=$(cd "${2:-$top}" && pwd)
status=0

for harness in fuzz-gmon fuzz-pipeline; do
	bin=$build/tests/fuzz/$harness
	corpus=$build/tests/fuzz/corpus-$harness
	mkdir -p "$corpus"
	for gmon in "$top"/fixtures/*/gmon.out "$top"/tests/fuzz/regressions/*; do
		[ -f "$gmon" ] || continue
		if [ "$harness" = fuzz-gmon ]; then
			# first byte: target (0 = 64-bit little-endian)
			{ printf '\0'; cat "$gmon"; } >"$corpus/seed-$(basename "$(dirname "$gmon")")-$(basename "$gmon")"
		else
			cp "$gmon" "$corpus/seed-$(basename "$(dirname "$gmon")")-$(basename "$gmon")"
		fi
	done
	echo "== $harness: $seconds s"
	if ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$build/tests/fuzz/found-$harness-" "$corpus" \
		2>"$build/tests/fuzz/$harness.log"; then
		status=1
		tail -40 "$build/tests/fuzz/$harness.log"
	fi
	grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^Done' "$build/tests/fuzz/$harness.log" || true
done
exit "$status"
