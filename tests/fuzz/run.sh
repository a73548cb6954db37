#!/bin/bash
# run.sh -- run the libFuzzer harnesses built by "make fuzz".
#   tests/fuzz/run.sh [SECONDS_PER_HARNESS] [BUILD_DIR]
# Seeds come from the fixtures' gmon.out and LD_PROFILE files,
# tests/fuzz/seeds (hand-made hostile inputs) and tests/fuzz/regressions;
# the growing corpus stays in BUILD_DIR/tests/fuzz/corpus-*; any crash,
# leak or timeout is saved as BUILD_DIR/tests/fuzz/found-* and makes the
# script fail.  Each input that ever failed belongs in tests/fuzz/regressions.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
seconds=${1:-60}
build=$(cd "${2:-$top}" && pwd)
status=0

# The fuzz-gmon target byte for a seed (0 64-bit little-endian, 1 64-bit
# big-endian, 2 32-bit little-endian, 3 32-bit big-endian), from "le32"
# etc. in its seed name DIR-FILE, or DIR "i386".
target_byte() {
	case $1 in
	*be64*) echo 1 ;;
	*le32* | i386-*) echo 2 ;;
	*be32*) echo 3 ;;
	*) echo 0 ;;
	esac
}

for harness in fuzz-gmon fuzz-pipeline; do
	bin=$build/tests/fuzz/$harness
	corpus=$build/tests/fuzz/corpus-$harness
	mkdir -p "$corpus"
	for gmon in "$top"/fixtures/*/gmon.out "$top"/fixtures/ldprofile/*/*.profile \
		"$top"/tests/fuzz/seeds/* "$top"/tests/fuzz/regressions/*; do
		[ -f "$gmon" ] || continue
		name=$(basename "$(dirname "$gmon")")-$(basename "$gmon")
		if [ "$harness" = fuzz-gmon ]; then
			# first byte: target
			{ printf "\\$(target_byte "$name")"; cat "$gmon"; } >"$corpus/seed-$name"
		else
			cp "$gmon" "$corpus/seed-$name"
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
