#!/bin/bash
# cli.sh -- the command line: exit codes, one-line errors, safe -o output,
# write errors on stdout, and byte-identical output for identical input.
. "${srcdir:-.}/tests/test-lib.sh"

exe=$FIXTURES/calltree/prog
gmon=$FIXTURES/calltree/gmon.out

# expect STATUS PATTERN CMD...: exit status and the single stderr line.
expect() {
	local want=$1 pattern=$2 got lines
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$got" -ne "$want" ]; then
		not_ok "$* exited $got, expected $want"
	elif [ -n "$pattern" ] && ! grep -q -- "$pattern" "$tmp/err"; then
		not_ok "$*: stderr lacks '$pattern': $(cat "$tmp/err")"
	elif [ "$want" -eq 1 ] && [ "$lines" -ne 1 ]; then
		not_ok "$*: expected one error line, got $lines"
	else
		ok "$* -> $got"
	fi
}

expect 0 "" "$GMON2CG" --help
grep -q '^Usage: gmon2cg \[OPTION\]... EXECUTABLE \[GMON_FILE\]...' "$tmp/out" ||
	not_ok "--help does not print the usage line on stdout"
# Every long option in --help is in the man page and the README.
for opt in $(grep -o -- '--[a-z][a-z-]*' "$tmp/out" | sort -u); do
	man_form=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	grep -q -- "$man_form" "$srcdir/doc/gmon2cg.1" || not_ok "$opt is not in the man page"
	grep -q -- "$opt" "$srcdir/README" || not_ok "$opt is not in the README"
done
expect 0 "" "$GMON2CG" --version
grep -q "^gmon2cg $PACKAGE_VERSION\$" "$tmp/out" || not_ok "--version"
expect 2 "missing EXECUTABLE" "$GMON2CG"
expect 2 "Try 'gmon2cg --help'" "$GMON2CG" --no-such-option "$exe"
expect 1 "^gmon2cg: $tmp/nothing: No such file or directory\$" "$GMON2CG" "$tmp/nothing" "$gmon"
expect 1 "^gmon2cg: $tmp: is a directory, not an executable\$" "$GMON2CG" "$tmp" "$gmon"
expect 1 "^gmon2cg: $gmon: not an executable" "$GMON2CG" "$gmon" "$gmon"
expect 1 "^gmon2cg: $tmp/none.out: No such file or directory\$" "$GMON2CG" "$exe" "$tmp/none.out"

# gmon.out in the current directory is the default profile.
(cd "$FIXTURES/calltree" && "$GMON2CG" prog >"$tmp/default.cg") ||
	not_ok "default gmon.out"
"$GMON2CG" "$exe" "$gmon" >"$tmp/explicit.cg" || not_ok "explicit gmon.out"
cmp -s <(grep -v '^desc: Trigger' "$tmp/default.cg") <(grep -v '^desc: Trigger' "$tmp/explicit.cg") ||
	not_ok "default differs from explicit gmon.out"
grep -qx 'desc: Trigger: profile gmon.out' "$tmp/default.cg" || not_ok "default profile not named"

# Deterministic: two runs give the same bytes, and -o gives what stdout gives.
"$GMON2CG" "$exe" "$gmon" >"$tmp/again.cg"
cmp -s "$tmp/explicit.cg" "$tmp/again.cg" || not_ok "two runs differ"
"$GMON2CG" -o "$tmp/o.cg" "$exe" "$gmon" || not_ok "-o FILE failed"
cmp -s "$tmp/explicit.cg" "$tmp/o.cg" || not_ok "-o output differs from stdout"
"$GMON2CG" --output="$tmp/o2.cg" "$exe" "$gmon" && cmp -s "$tmp/o.cg" "$tmp/o2.cg" ||
	not_ok "--output=FILE"

# gzip output: --gzip, or a name ending in .gz; it decompresses to the plain file.
"$GMON2CG" --gzip -o "$tmp/z.cg" "$exe" "$gmon" && gzip -dc "$tmp/z.cg" | cmp -s - "$tmp/o.cg" ||
	not_ok "--gzip output does not decompress to the plain output"
"$GMON2CG" -o "$tmp/o.cg.gz" "$exe" "$gmon" && gzip -dc "$tmp/o.cg.gz" | cmp -s - "$tmp/o.cg" ||
	not_ok ".gz output does not decompress to the plain output"
"$GMON2CG" --gzip "$exe" "$gmon" | gzip -dc | cmp -s - "$tmp/o.cg" || not_ok "--gzip on stdout"

# --stats: a summary on stderr, nothing else changed.
"$GMON2CG" --stats "$exe" "$gmon" >"$tmp/stats.cg" 2>"$tmp/stats" || not_ok "--stats failed"
cmp -s "$tmp/stats.cg" "$tmp/explicit.cg" || not_ok "--stats changed the profile"
grep -qx "gmon2cg: stats: $gmon (GNU tagged format)" "$tmp/stats" &&
	grep -q '^gmon2cg: stats: samples: [0-9]* at 100 Hz; in functions [0-9.]*, in no function [0-9.]*, in the mcount family (left out) [0-9.]*$' "$tmp/stats" &&
	grep -q '^gmon2cg: stats: call arcs: [0-9]* records; [0-9]* arcs at [0-9]* call sites; dropped: 0 with an end in no function, 0 into or out of the mcount family, 0 by -k$' "$tmp/stats" ||
	not_ok "--stats output: $(cat "$tmp/stats")"

expect 2 "invalid rate 'abc'" "$GMON2CG" --rate=abc "$exe" "$gmon"
expect 2 "invalid rate '0'" "$GMON2CG" --rate=0 "$exe" "$gmon"

# A failed run leaves no file, and leaves an existing file alone.
printf 'precious\n' >"$tmp/keep.cg"
head -c 30 "$gmon" >"$tmp/cut.out"
expect 1 "cut.out: truncated" "$GMON2CG" -o "$tmp/keep.cg" "$exe" "$tmp/cut.out"
[ "$(cat "$tmp/keep.cg")" = precious ] || not_ok "existing -o file was changed by a failed run"
expect 1 "cut.out: truncated" "$GMON2CG" -o "$tmp/new.cg" "$exe" "$tmp/cut.out"
[ ! -e "$tmp/new.cg" ] || not_ok "a failed run left $tmp/new.cg"
leftovers=$(find "$tmp" -name '.*.cg.*' | wc -l)
[ "$leftovers" -eq 0 ] || not_ok "temporary files left behind"

# A target that is not a regular file is written in place, never replaced.
mkfifo "$tmp/pipe"
cat "$tmp/pipe" >"$tmp/from-pipe" &
"$GMON2CG" -o "$tmp/pipe" "$exe" "$gmon" || not_ok "-o FIFO failed"
wait
[ -p "$tmp/pipe" ] || not_ok "-o replaced a FIFO with a file"
cmp -s "$tmp/from-pipe" "$tmp/explicit.cg" || not_ok "-o FIFO: wrong content"
if [ -w /dev/full ]; then
	expect 1 "^gmon2cg: /dev/full: write error: No space left on device\$" "$GMON2CG" -o /dev/full "$exe" "$gmon"
	[ -c /dev/full ] || not_ok "-o /dev/full replaced the device"
fi

# A write error on stdout is an error.
if [ -w /dev/full ]; then
	"$GMON2CG" "$exe" "$gmon" >/dev/full 2>"$tmp/err"
	st=$?
	[ "$st" -eq 1 ] && grep -q '^gmon2cg: stdout: write error: No space left on device$' "$tmp/err" ||
		not_ok "/dev/full: status $st, $(cat "$tmp/err")"
fi
finish
