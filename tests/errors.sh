#!/bin/bash
# errors.sh -- the table of broken inputs: each gives exactly the expected
# one-line error, exit status 1, and no output file (an existing one is
# kept as it was).  Inputs are cut or patched from a real profile.
. "${srcdir:-.}/tests/test-lib.sh"

exe=$FIXTURES/calltree/prog gmon=$FIXTURES/calltree/gmon.out
# That profile's layout: 20-byte header, histogram record at 20 (41 bytes of
# header, 1308 bins), nine 21-byte arc records from 2677 to its end, 2866.
# The program's sections span 15664 bytes; with a page for the headers
# before them, that bounds what one profile of it may hold.
span=81200

# expect_error NAME EXE INPUT MESSAGE: converts, requires MESSAGE exactly,
# and that the existing output file is kept and no temporary file is left.
expect_error() {
	local name=$1 x=$2 in=$3 want=$4
	printf 'keep\n' >"$tmp/out.cg"
	expect -x -n "$name" 1 "gmon2cg: $want" "$GMON2CG" -o "$tmp/out.cg" "$x" "$in"
	[ "$(cat "$tmp/out.cg")" = keep ] && [ -z "$(find "$tmp" -name '.out.cg.*')" ]
	check "$name: the output file is kept, no temporary file is left"
}

# patch FILE OFFSET HEXBYTES: overwrites bytes of FILE.
patch_bytes() {
	printf "$(echo "$3" | sed 's/../\\x&/g')" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

in=$tmp/in
: >"$in"
expect_error "empty file" "$exe" "$in" "$in: empty file"
head -c 10 "$gmon" >"$in"
expect_error "truncated in the header" "$exe" "$in" \
	"$in: truncated file header at offset 0 (20 bytes needed, 10 present)"
head -c 21 "$gmon" >"$in"
expect_error "truncated at a histogram record" "$exe" "$in" \
	"$in: truncated histogram record at offset 20 (41 bytes needed, 1 present)"
head -c 1000 "$gmon" >"$in"
expect_error "truncated inside the bins" "$exe" "$in" \
	"$in: truncated histogram record at offset 20 (2657 bytes needed, 980 present)"
head -c 2690 "$gmon" >"$in"
expect_error "truncated inside an arc record" "$exe" "$in" \
	"$in: truncated call-arc record at offset 2677 (21 bytes needed, 13 present)"
{ cat "$gmon"; printf '\002\005\000\000\000'; } >"$in"
expect_error "truncated inside a basic-block record" "$exe" "$in" \
	"$in: truncated basic-block record at offset 2866 (85 bytes needed, 5 present)"
cp "$gmon" "$in" && patch_bytes "$in" 4 02000000
expect_error "unsupported version" "$exe" "$in" "$in: unsupported gmon.out version 2 (only 1 is known)"
{ cat "$gmon"; printf '\007'; } >"$in"
expect_error "unknown tag" "$exe" "$in" "$in: unknown record tag 7 at offset 2866 (file corrupted?)"
cp "$gmon" "$in" && patch_bytes "$in" 37 00000080
expect_error "2^31 bins" "$exe" "$in" \
	"$in: histogram record at offset 20 has 2147483648 bins, more than $span bytes of code can use (corrupted or hostile file)"
cp "$gmon" "$in" && patch_bytes "$in" 0 47
expect_error "wrong magic" "$exe" "$in" \
	"$in: not a gmon.out file (no \"gmon\" cookie, and no valid BSD header)"
echo "this is not a profile at all" >"$in"
expect_error "text file" "$exe" "$in" \
	"$in: not a gmon.out file (no \"gmon\" cookie; as a BSD file its histogram would have 909423405 bins, more than $span bytes of code can use)"
# old BSD, 64-bit: [0x1000, 0x2000), size field 220 (100 bins), 10 bins present
{ printf '\000\020\000\000\000\000\000\000\000\040\000\000\000\000\000\000\334\000\000\000'; head -c 20 /dev/zero; } >"$in"
expect_error "BSD header size disagrees with the file" "$exe" "$in" \
	"$in: not a gmon.out file, or a truncated BSD one (no \"gmon\" cookie; as a BSD file it would need 220 bytes, it has 40)"
# arcs moved 256 MiB away: outside every function
cp "$gmon" "$in"
for i in 0 1 2 3 4 5 6 7 8; do
	off=$((2677 + 21 * i))
	patch_bytes "$in" $((off + 4)) 10
	patch_bytes "$in" $((off + 12)) 10
done
expect_error "arcs outside the executable" "$exe" "$in" \
	"$in: does not belong to $exe: most call arcs point outside every function (--force converts anyway)"
expect_error "profile of another program" "$FIXTURES/cxx/prog" "$gmon" \
	"$gmon: does not belong to $FIXTURES/cxx/prog: most call arcs do not point at the start of a function (--force converts anyway)"

# The executable: missing, a directory, not an object file, an archive,
# no symbols.
expect_error "missing executable" "$tmp/none" "$gmon" "$tmp/none: No such file or directory"
expect_error "executable is a directory" "$tmp" "$gmon" "$tmp: is a directory, not an executable"
printf 'not an object file\n' >"$tmp/text"
expect_error "executable is not an object file" "$tmp/text" "$gmon" \
	"$tmp/text: not an executable (file format not recognized)"
expect_error "the operands swapped" "$gmon" "$exe" \
	"$gmon: a profile, not an executable: the executable comes first (gmon2cg EXECUTABLE [GMON_FILE]...)"
if command -v ar >/dev/null; then
	(cd "$tmp" && cp "$exe" member.o && ar rc lib.a member.o)
	expect_error "executable is an archive" "$tmp/lib.a" "$gmon" "$tmp/lib.a: is an archive, not an executable"
fi
if command -v strip >/dev/null; then
	strip -o "$tmp/stripped" "$exe"
	expect_error "executable without symbols" "$tmp/stripped" "$gmon" \
		"$tmp/stripped: no symbols (and no separate debug file found)"
fi

# The executable's profiles are read while its symbols are: which error
# is reported must not depend on that.  The executable's comes first, then
# a profile that cannot be opened (all are opened before any is read),
# then the first that fails to read, in command-line order.
head -c 1000 "$gmon" >"$tmp/cut.out"
cut_msg="$tmp/cut.out: truncated histogram record at offset 20 (2657 bytes needed, 980 present)"
if [ -f "$tmp/stripped" ]; then
	expect -x -n "no symbols and a bad profile: the executable's error" 1 \
		"gmon2cg: $tmp/stripped: no symbols (and no separate debug file found)" \
		"$GMON2CG" -o "$tmp/out.cg" "$tmp/stripped" "$tmp/cut.out"
fi
# A pipe is read only when it is needed: a FIFO nobody writes to does not
# keep a refusal waiting (here: an output that would overwrite the input).
mkfifo "$tmp/fifo"
cp "$exe" "$tmp/prog"
expect -x -n "a FIFO nobody writes, and a refused output: refused at once" 1 \
	"gmon2cg: $tmp/prog: is the input $tmp/prog; refusing to write the output over it" \
	timeout 20 "$GMON2CG" -o "$tmp/prog" "$tmp/prog" "$tmp/fifo"
expect -x -n "a bad profile, and a refused output: the output's error" 1 \
	"gmon2cg: $tmp/prog: is the input $tmp/prog; refusing to write the output over it" \
	"$GMON2CG" -o "$tmp/prog" "$tmp/prog" "$tmp/cut.out"
expect -x -n "a good profile, then a bad one" 1 "gmon2cg: $cut_msg" \
	"$GMON2CG" -o "$tmp/out.cg" "$exe" "$gmon" "$tmp/cut.out"
expect -x -n "a bad profile, then a missing one" 1 \
	"gmon2cg: $tmp/none.out: No such file or directory" \
	"$GMON2CG" -o "$tmp/out.cg" "$exe" "$tmp/cut.out" "$tmp/none.out"
expect -x -n "a missing profile, then a bad one" 1 \
	"gmon2cg: $tmp/none.out: No such file or directory" \
	"$GMON2CG" -o "$tmp/out.cg" "$exe" "$tmp/none.out" "$tmp/cut.out"

# Inputs that once broke the fuzzers convert cleanly.
for f in "$srcdir"/tests/fuzz/regressions/*; do
	[ -f "$f" ] || continue
	"$GMON2CG" --force -o "$tmp/reg.cg" "$exe" "$f" 2>"$tmp/err" || [ "$(wc -l <"$tmp/err")" -eq 1 ] ||
		{ diag <"$tmp/err"; false; }
	check "regression $(basename "$f"): converted, or refused in one line"
done
finish
