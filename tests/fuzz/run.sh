#!/bin/bash
# run.sh -- run the libFuzzer harnesses built by "make fuzz".
#   [FUZZ_SEED=N] tests/fuzz/run.sh [SECONDS_PER_HARNESS] [BUILD_DIR]
# Seeds come from the fixtures' gmon.out and LD_PROFILE files (their
# executables' line tables for fuzz-lines), tests/fuzz/seeds (hand-made
# hostile inputs) and tests/fuzz/regressions;
# the growing corpus stays in BUILD_DIR/tests/fuzz/corpus-*; any crash,
# leak or timeout is saved as BUILD_DIR/tests/fuzz/found-* and makes the
# script fail.  Each input that ever failed belongs in tests/fuzz/regressions.
# With FUZZ_SEED, libFuzzer's random choices start from that seed, so that
# a run from a fresh corpus explores the same inputs each time (as far as
# the time allows): CI's smoke run does, to be a gate that passes or fails
# by the code alone.  Without it each run explores inputs of its own, as
# long runs that look for new findings should.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
seconds=${1:-60}
build=$(cd "${2:-$top}" && pwd)
status=0

# line_seeds DIR: the .debug_line section of every fixture executable,
# behind fuzz-lines' three bytes: address size and byte order from the
# ELF header, DWARF 5 units, a second unit at offset 0.
line_seeds() {
	local prog class data name
	for prog in "$top"/fixtures/*/prog "$top"/fixtures/*/*/prog; do
		name=$(echo "${prog#"$top"/fixtures/}" | tr / -)
		# (-O binary writes allocated sections only)
		objcopy --decompress-debug-sections -O binary \
			--set-section-flags .debug_line=alloc --only-section=.debug_line \
			--set-section-flags .zdebug_line=alloc --only-section=.zdebug_line \
			"$prog" "$1/line" 2>/dev/null && [ -s "$1/line" ] || continue
		class=$(od -An -tu1 -j4 -N1 "$prog" | tr -d ' ')
		data=$(od -An -tu1 -j5 -N1 "$prog" | tr -d ' ')
		{ printf "\\$(printf %03o $((24 | (class == 1) | 2 * (data == 2))))\0\0"
		  cat "$1/line"; } >"$1/seed-$name"
	done
	rm -f "$1/line"
	for seed in "$top"/tests/fuzz/regressions/lines-*; do
		[ -f "$seed" ] && cp "$seed" "$1/"
	done
	return 0
}

# The fuzz-gmon target byte for a seed (0 64-bit little-endian, 1 64-bit
# big-endian, 2 32-bit little-endian, 3 32-bit big-endian), from "le32"
# etc. in its seed name DIR-FILE, or DIR "i386" or "*-i386".
target_byte() {
	case $1 in
	*be64*) echo 1 ;;
	*le32* | i386-* | *-i386-*) echo 2 ;;
	*be32*) echo 3 ;;
	*) echo 0 ;;
	esac
}

# gmon_seeds HARNESS DIR: the fixtures' gmon.out, LD_PROFILE and BSD
# files, the hand-made seeds and the regressions.
gmon_seeds() {
	local gmon name
	for gmon in "$top"/fixtures/*/gmon.out "$top"/fixtures/ldprofile/*/*.profile \
		"$top"/fixtures/bsd/*/*.gmon "$top"/fixtures/bsd/*/gmon.*.out \
		"$top"/tests/fuzz/seeds/* "$top"/tests/fuzz/regressions/*; do
		[ -f "$gmon" ] || continue
		case $gmon in */regressions/lines-* | */regressions/exe-* | */regressions/callgrind-*) continue ;; esac
		name=$(basename "$(dirname "$gmon")")-$(basename "$gmon")
		if [ "$1" = fuzz-gmon ]; then
			# first byte: target
			{ printf "\\$(target_byte "$name")"; cat "$gmon"; } >"$2/seed-$name"
		else
			cp "$gmon" "$2/seed-$name"
		fi
	done
}

# ldprofile_seeds DIR: fixtures/ldprofile's LD_PROFILE files behind
# fuzz-ldprofile's form byte (0 x86-64, 1 i386), the hand-made
# little-endian ones and the regressions, and the combined form (2): the
# length of prog-pg's gmon.out, it, and libmix.so.1's profile.
ldprofile_seeds() {
	local dir=$top/fixtures/ldprofile seed len
	for seed in "$dir"/nopg/*.profile "$dir"/pg/*.profile "$dir"/i386/*.profile \
		"$top"/tests/fuzz/seeds/ldprofile-le* "$top"/tests/fuzz/regressions/ldprofile-*; do
		[ -f "$seed" ] || continue
		case $seed in
		*/i386/* | *le32*) printf '\1' ;;
		*) printf '\0' ;;
		esac >"$1/seed-$(basename "$(dirname "$seed")")-$(basename "$seed")"
		cat "$seed" >>"$1/seed-$(basename "$(dirname "$seed")")-$(basename "$seed")"
	done
	len=$(stat -c %s "$dir/pg/gmon.out")
	{ printf '\2'
	  printf "\\$(printf %03o $((len & 255)))\\$(printf %03o $((len >> 8 & 255)))"
	  printf "\\$(printf %03o $((len >> 16 & 255)))\\$(printf %03o $((len >> 24 & 255)))"
	  cat "$dir/pg/gmon.out" "$dir/pg/libmix.so.1.profile"; } >"$1/seed-combined"
}

# exe_seeds DIR: the fixtures' executables and debug files.
exe_seeds() {
	local prog
	for prog in "$top"/fixtures/*/prog "$top"/fixtures/*/*/prog \
		"$top"/fixtures/*/*/prog.debug "$top"/fixtures/ldprofile/libmix.so.1 \
		"$top"/tests/fuzz/regressions/exe-*; do
		[ -f "$prog" ] && cp "$prog" "$1/seed-$(echo "${prog#"$top"/}" | tr / -)"
	done
	return 0
}

# callgrind_seeds DIR: the golden outputs, plain and gzipped, and the
# regressions.
callgrind_seeds() {
	local cg
	for cg in "$top"/tests/golden/*.cg "$top"/tests/fuzz/regressions/callgrind-*; do
		[ -f "$cg" ] || continue
		cp "$cg" "$1/seed-$(basename "$cg")"
		gzip -c "$cg" >"$1/seed-$(basename "$cg").gz"
	done
	return 0
}

for harness in fuzz-gmon fuzz-pipeline fuzz-lines fuzz-exe fuzz-ldprofile fuzz-callgrind; do
	bin=$build/tests/fuzz/$harness
	corpus=$build/tests/fuzz/corpus-$harness
	mkdir -p "$corpus"
	max_len=65536
	case $harness in
	fuzz-lines) line_seeds "$corpus" ;;
	fuzz-exe) exe_seeds "$corpus"; max_len=262144 ;;
	fuzz-ldprofile) ldprofile_seeds "$corpus" ;;
	fuzz-callgrind) callgrind_seeds "$corpus" ;;
	*) gmon_seeds "$harness" "$corpus" ;;
	esac
	echo "== $harness: $seconds s"
	# libbfd 2.40's DWARF reader leaks (tests/lsan.supp); the slow
	# unwinder sees through libbfd for the suppression to match.
	if ! ASAN_OPTIONS=fast_unwind_on_malloc=0 \
		LSAN_OPTIONS=suppressions=$top/tests/lsan.supp:print_suppressions=0 \
		"$bin" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
		-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-max_len="$max_len" -print_final_stats=1 \
		-artifact_prefix="$build/tests/fuzz/found-$harness-" "$corpus" \
		2>"$build/tests/fuzz/$harness.log"; then
		status=1
		tail -40 "$build/tests/fuzz/$harness.log"
	fi
	grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^Done' "$build/tests/fuzz/$harness.log" || true
done
exit "$status"
