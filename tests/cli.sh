#!/bin/bash
# cli.sh -- the command line: exit codes, one-line errors, safe -o output,
# write errors on stdout, and byte-identical output for identical input.
. "${srcdir:-.}/tests/test-lib.sh"

exe=$FIXTURES/calltree/prog
gmon=$FIXTURES/calltree/gmon.out

expect 0 "" "$GMON2CG" --help
grep -q '^Usage: gmon2cg \[OPTION\]... EXECUTABLE \[GMON_FILE\]...' "$tmp/out"
check "--help prints the usage line on stdout"
# Every long option in --help is in the man page and in the user
# documentation (README or a chapter of doc/guide).
for opt in $(grep -o -- '--[a-z][a-z-]*' "$tmp/out" | sort -u); do
	man_form=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	grep -q -- "$man_form" "$srcdir/doc/gmon2cg.1"; check "$opt is in the man page"
	grep -q -- "$opt" "${user_docs[@]}"; check "$opt is in README or doc/guide"
done
expect 0 "" "$GMON2CG" --version
grep -q "^gmon2cg $PACKAGE_VERSION\$" "$tmp/out"; check "--version prints the version"
[ "$(wc -L <"$tmp/out")" -le 80 ]; check "--version: no line over 80 columns"
expect 0 "" "$GMON2CG" --version --stats
grep -q "^Architectures read (libbfd, libopcodes): .*i386:x86-64" "$tmp/out"
check "--version --stats lists the architectures read"
expect 2 "missing EXECUTABLE" "$GMON2CG"
expect 2 "Try 'gmon2cg --help'" "$GMON2CG" --no-such-option "$exe"
# getopt's long-option errors, said as such (optopt holds an option's
# code there, not a letter)
expect 2 "^gmon2cg: option '--stats' takes no argument\$" "$GMON2CG" --stats=3 "$exe" "$gmon"
expect 2 "^gmon2cg: option '--help' takes no argument\$" "$GMON2CG" --help=x
expect 2 "^gmon2cg: option '--s' is ambiguous\$" "$GMON2CG" --s "$exe" "$gmon"
expect 2 "^gmon2cg: unknown option '--bogus'\$" "$GMON2CG" --bogus "$exe" "$gmon"
expect 1 "^gmon2cg: $tmp/nothing: No such file or directory\$" "$GMON2CG" "$tmp/nothing" "$gmon"
expect 1 "^gmon2cg: $tmp: is a directory, not an executable\$" "$GMON2CG" "$tmp" "$gmon"
expect 1 "^gmon2cg: $gmon: a profile, not an executable: the executable comes first" "$GMON2CG" "$gmon" "$exe"
expect 1 "^gmon2cg: $tmp/none.out: No such file or directory\$" "$GMON2CG" "$exe" "$tmp/none.out"

# gmon.out in the current directory is the default profile.
(cd "$FIXTURES/calltree" && "$GMON2CG" prog >"$tmp/default.cg"); check "default gmon.out"
"$GMON2CG" "$exe" "$gmon" >"$tmp/explicit.cg"; check "explicit gmon.out"
cmp -s <(grep -v '^desc: Trigger' "$tmp/default.cg") <(grep -v '^desc: Trigger' "$tmp/explicit.cg")
check "the default gmon.out converts as the explicit one"
grep -qx 'desc: Trigger: profile gmon.out' "$tmp/default.cg"; check "the default profile is named"

# Deterministic: two runs give the same bytes, and -o gives what stdout gives.
"$GMON2CG" "$exe" "$gmon" >"$tmp/again.cg" && cmp -s "$tmp/explicit.cg" "$tmp/again.cg"
check "two runs give the same bytes"
"$GMON2CG" -o "$tmp/o.cg" "$exe" "$gmon" && cmp -s "$tmp/explicit.cg" "$tmp/o.cg"
check "-o FILE writes what stdout gets"
"$GMON2CG" --output="$tmp/o2.cg" "$exe" "$gmon" && cmp -s "$tmp/o.cg" "$tmp/o2.cg"
check "--output=FILE"

# gzip output: --gzip, or a name ending in .gz; it decompresses to the plain file.
"$GMON2CG" --gzip -o "$tmp/z.cg" "$exe" "$gmon" && gzip -dc "$tmp/z.cg" | cmp -s - "$tmp/o.cg"
check "--gzip output decompresses to the plain output"
"$GMON2CG" -o "$tmp/o.cg.gz" "$exe" "$gmon" && gzip -dc "$tmp/o.cg.gz" | cmp -s - "$tmp/o.cg"
check ".gz output decompresses to the plain output"
"$GMON2CG" --gzip "$exe" "$gmon" | gzip -dc | cmp -s - "$tmp/o.cg"; check "--gzip on stdout"

# --stats: a summary on stderr, nothing else changed.
"$GMON2CG" --stats "$exe" "$gmon" >"$tmp/stats.cg" 2>"$tmp/stats" &&
	cmp -s "$tmp/stats.cg" "$tmp/explicit.cg"
check "--stats leaves the profile as it was"
grep -qx "gmon2cg: stats: $gmon (GNU tagged format)" "$tmp/stats" &&
	grep -q '^gmon2cg: stats: samples: [0-9]* at 100 Hz; in functions [0-9.]*, in no function [0-9.]*, in the mcount family (left out) [0-9.]*$' "$tmp/stats" &&
	grep -q '^gmon2cg: stats: call arcs: [0-9]* records; [0-9]* arcs at [0-9]* call sites; dropped: 0 with an end in no function, 0 into or out of the mcount family, 0 by -k$' "$tmp/stats" ||
	{ diag <"$tmp/stats"; false; }
check "--stats summarises the profile on stderr"

expect 2 "invalid rate 'abc'" "$GMON2CG" --rate=abc "$exe" "$gmon"
expect 2 "invalid rate '0'" "$GMON2CG" --rate=0 "$exe" "$gmon"

# A failed run leaves no file, and leaves an existing file alone.
printf 'precious\n' >"$tmp/keep.cg"
head -c 30 "$gmon" >"$tmp/cut.out"
expect 1 "cut.out: truncated" "$GMON2CG" -o "$tmp/keep.cg" "$exe" "$tmp/cut.out"
[ "$(cat "$tmp/keep.cg")" = precious ]; check "a failed run leaves an existing -o file alone"
expect 1 "cut.out: truncated" "$GMON2CG" -o "$tmp/new.cg" "$exe" "$tmp/cut.out"
[ ! -e "$tmp/new.cg" ]; check "a failed run leaves no output file"
[ -z "$(find "$tmp" -name '.*.cg.*')" ]; check "no temporary file is left behind"

# A conversion refused late, once its output is open (a profile of
# another program, found out when its calls are credited), makes no
# output file and leaves an existing one alone, in every format.  (The
# self-check of the numbers, the last refusal, is reached directly by
# tests/unit/test-outcheck and test-convert.)
for format in callgrind speedscope svg; do
	printf 'precious\n' >"$tmp/keep.out"
	"$GMON2CG" --format=$format -o "$tmp/late.out" "$FIXTURES/cxx/prog" "$gmon" 2>"$tmp/late.err"
	[ $? -eq 1 ] && [ ! -e "$tmp/late.out" ] && [ "$(wc -l <"$tmp/late.err")" -eq 1 ] &&
		grep -q "does not belong to" "$tmp/late.err" &&
		"$GMON2CG" --format=$format -o "$tmp/keep.out" "$FIXTURES/cxx/prog" "$gmon" 2>/dev/null
	[ $? -eq 1 ] && [ "$(cat "$tmp/keep.out")" = precious ] &&
		[ -z "$(find "$tmp" -name '.*.out.*')" ]
	check "$format: a conversion refused late: exit 1, one line, no output file, an existing one alone"
done

# A target that is not a regular file is written in place, never replaced.
mkfifo "$tmp/pipe"
cat "$tmp/pipe" >"$tmp/from-pipe" &
reader=$!
# (a run that fails before it opens the FIFO would leave the reader waiting)
"$GMON2CG" -o "$tmp/pipe" "$exe" "$gmon" || { kill "$reader"; false; }
check "-o FIFO"
wait
[ -p "$tmp/pipe" ]; check "-o keeps a FIFO a FIFO"
cmp -s "$tmp/from-pipe" "$tmp/explicit.cg"; check "-o FIFO: the FIFO carries the profile"
if [ -w /dev/full ]; then
	expect 1 "^gmon2cg: /dev/full: write error: No space left on device\$" "$GMON2CG" -o /dev/full "$exe" "$gmon"
	[ -c /dev/full ]; check "-o /dev/full keeps the device"
fi

# A write error on stdout is an error.
if [ -w /dev/full ]; then
	"$GMON2CG" "$exe" "$gmon" >/dev/full 2>"$tmp/err"
	st=$?
	[ "$st" -eq 1 ] && grep -q '^gmon2cg: stdout: write error: No space left on device$' "$tmp/err" ||
		{ diag "status $st"; diag <"$tmp/err"; false; }
	check "a write error on stdout is an error"
fi
# A newline in a file name does not break --stats or a warning.
nl_gmon="$tmp/a
b.out"
cp "$gmon" "$nl_gmon"
"$GMON2CG" --stats -o /dev/null "$exe" "$nl_gmon" 2>"$tmp/nl.err"
! grep -q '^b\.out' "$tmp/nl.err" && grep -q "^gmon2cg: stats: $tmp/a?b.out (GNU tagged format)$" "$tmp/nl.err"
check "a newline in a file name is written as '?' by --stats"
# A profile "-" is read from standard input.
"$GMON2CG" -o "$tmp/stdin.cg" "$exe" - <"$gmon" 2>/dev/null
check "a profile '-' is read from standard input"
"$GMON2CG" -o "$tmp/file.cg" "$exe" "$gmon" 2>/dev/null
cmp -s <(grep -v '^desc: Trigger' "$tmp/stdin.cg") <(grep -v '^desc: Trigger' "$tmp/file.cg")
check "and converts as the file does"

# Closed standard descriptors (prog 2>&-): the files gmon2cg opens must
# not take their places, so the output is the same and stats or warnings
# never land in it.
# (Not under valgrind: memcheck reports on the stderr these close.)
"$GMON2CG" -o "$tmp/std.cg" "$exe" "$gmon" 2>/dev/null
if [ -n "${G2C_VALGRIND:-}" ]; then
	skip_check "converts with stderr or all three closed" "valgrind reports on stderr"
else
	"$GMON2CG" -o "$tmp/no-stderr.cg" "$exe" "$gmon" 2>&-
	check "converts with stderr closed"
	cmp -s "$tmp/std.cg" "$tmp/no-stderr.cg"; check "and writes the same profile"
	"$GMON2CG" --stats -o "$tmp/no-std.cg" "$exe" "$gmon" <&- >&- 2>&-
	check "converts with --stats and stdin, stdout and stderr closed"
	cmp -s "$tmp/std.cg" "$tmp/no-std.cg"; check "and no stats line lands in the profile"
fi
"$GMON2CG" "$exe" "$gmon" <&- >"$tmp/no-stdin.cg" 2>/dev/null
cmp -s "$tmp/std.cg" "$tmp/no-stdin.cg"; check "stdin closed: the same profile on stdout"

# A run that fails says one line, even when it fails last, writing the
# output: no --stats or --summary report before it.
if [ -w /dev/full ]; then
	"$GMON2CG" --stats --summary=3 -o /dev/full "$exe" "$gmon" 2>"$tmp/full.err"
	[ $? -eq 1 ] && [ "$(wc -l <"$tmp/full.err")" -eq 1 ] &&
		grep -q '^gmon2cg: /dev/full: write error' "$tmp/full.err"
	check "--stats --summary to /dev/full: exit 1 and one line, the error"
	diag <"$tmp/full.err"
else
	skip_check "--stats --summary to /dev/full" "no /dev/full"
fi
# One warning per cause: --parts over three profiles whose sources are
# not here warns once, not once per part.
for i in 1 2 3; do cp "$gmon" "$tmp/part$i.out"; done
(cd "$tmp" && "$GMON2CG" --parts -o parts.cg "$exe" part1.out part2.out part3.out) 2>"$tmp/parts.err"
[ "$(grep -c 'warning: none of the' "$tmp/parts.err")" -eq 1 ]
check "--parts: the missing-sources warning once for three parts"

# A usage error is two lines, what is wrong and where help is, however
# the option's value is made: control characters print as '?'.
for opt in --summary=$'3\n' --rate=$'1\n2' --prefix-map=$'a\n' -k $'x\ny' $'--no-such\nthing' \
	--format=kcachegrind; do
	"$GMON2CG" "$opt" "$exe" "$gmon" >/dev/null 2>"$tmp/usage.err"
	[ $? -eq 2 ] && [ "$(wc -l <"$tmp/usage.err")" -eq 2 ] &&
		sed -n 2p "$tmp/usage.err" | grep -q "^Try 'gmon2cg --help' for more information.\$"
	check "usage error for $(printf '%q' "$opt"): exit 2, two lines"
done

# The missing-sources warning counts the program's own files only: a C++
# program names system headers (/usr/include/c++/...), which are here
# whether or not its own sources are.
cxx=$FIXTURES/cxx
(cd "$tmp" && "$GMON2CG" -o cxx.cg "$cxx/prog" "$cxx/gmon.out") 2>"$tmp/cxx.err"
grep -q '/usr/include/c++/' "$tmp/cxx.cg" &&
	grep -q "warning: none of the 1 source files the profile names is here (such as ./src/cxx.cc)" "$tmp/cxx.err"
check "C++: the missing-sources warning despite the system headers"
# MinGW's headers (/usr/share/mingw-w64/include/stdio.h) are system
# headers too, whether or not the MinGW packages are installed here.
(cd "$tmp" && "$GMON2CG" -o mingw.cg "$FIXTURES/mingw/x86-64/prog.exe" \
	"$FIXTURES/mingw/x86-64/gmon.out") 2>"$tmp/mingw.err"
grep -q '/usr/share/mingw-w64/include/stdio.h' "$tmp/mingw.cg" &&
	grep -q "warning: none of the 1 source files the profile names is here (such as ./cross/src/cross.c)" "$tmp/mingw.err"
check "MinGW: the missing-sources warning despite MinGW's headers"
(cd "$tmp" && "$GMON2CG" --prefix-map=.="$cxx/.." -o cxx.cg "$cxx/prog" "$cxx/gmon.out") 2>"$tmp/cxx.err"
[ ! -s "$tmp/cxx.err" ]; check "C++: no warning where the sources are"

# --format=speedscope writes one profile: --parts is refused; the file is
# JSON in speedscope's format (tests/speedscope.sh checks what speedscope
# shows of it).
"$GMON2CG" --format=speedscope --parts -o "$tmp/parts.json" "$exe" "$gmon" 2>"$tmp/usage.err"
[ $? -eq 2 ] && grep -q -- "--parts is for KCachegrind's Parts view" "$tmp/usage.err" &&
	[ ! -e "$tmp/parts.json" ]
check "--format=speedscope --parts: a usage error"
if [ -n "$PYTHON3" ]; then
	"$GMON2CG" --format=speedscope -o "$tmp/cycle.json" "$FIXTURES/cycle/prog" "$FIXTURES/cycle/gmon.out" 2>/dev/null &&
		$PYTHON3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
p = d["profiles"][0]
assert d["$schema"] == "https://www.speedscope.app/file-format-schema.json"
assert p["type"] == "sampled" and p["unit"] == "nanoseconds"
assert len(p["samples"]) == len(p["weights"]) and sum(p["weights"]) == p["endValue"]
assert all(0 <= i < len(d["shared"]["frames"]) for s in p["samples"] for i in s)' "$tmp/cycle.json"
	check "--format=speedscope: speedscope's JSON file format"
else
	skip_check "--format=speedscope: speedscope's JSON file format" "python3 not found"
fi
# a symbol whose name has a byte that is not UTF-8 (and an escape): the
# JSON stays JSON, the bytes written as \xHH
if [ -n "$PYTHON3" ] && command -v objcopy >/dev/null; then
	objcopy --redefine-sym hot_a=$'hot\xff_a\x1b' "$FIXTURES/compare/base/prog" "$tmp/ff-prog" &&
		"$GMON2CG" --format=speedscope -o "$tmp/ff.json" "$tmp/ff-prog" \
			"$FIXTURES/compare/base/gmon.01.out" 2>/dev/null &&
		$PYTHON3 -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8"))
names = [f["name"] for f in d["shared"]["frames"]]
assert "hot\\xff_a\x1b" in names, names' "$tmp/ff.json"
	check "--format=speedscope: a name with a byte not UTF-8 is valid JSON"
else
	skip_check "--format=speedscope: a name not UTF-8" "python3 or objcopy not found"
fi

finish
