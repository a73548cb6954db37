#!/bin/bash
# hostile-input.sh -- inputs and outputs built to hurt: profiles that carry
# nothing, broken gzip, gzip bombs, endless devices, hostile sizes, an
# output that is an input, special and linked output targets, control
# characters in names.  Each is refused with one line and exit 1, or
# handled as the table of doc/guide/10-bad-input.md says, within a small memory and time.
. "${srcdir:-.}/tests/test-lib.sh"

exe=$FIXTURES/calltree/prog gmon=$FIXTURES/calltree/gmon.out
# That profile: 20-byte header, a histogram record at 20 whose bin count
# is at 37, nine 21-byte arc records from 2677 to its end, 2866.  The
# program's sections span 15664 bytes, 81200 with a page for the headers.
span=81200

# run_g2c ARGS...: runs gmon2cg; $status, $tmp/err and, with GNU time,
# $peak_kb (its peak resident memory; empty when unmeasured).
run_g2c() {
	peak_kb=
	if [ -x /usr/bin/time ] && [ -z "${G2C_VALGRIND:-}" ]; then
		timeout 20 /usr/bin/time -o "$tmp/peak" -f %M "$GMON2CG" "$@" >"$tmp/stdout" 2>"$tmp/err"
		status=$?
		peak_kb=$(tail -n 1 "$tmp/peak")
	else
		timeout 120 "$GMON2CG" "$@" >"$tmp/stdout" 2>"$tmp/err"
		status=$?
	fi
}

# refused NAME WANT ARGS...: gmon2cg ARGS must exit 1 with the one line
# "gmon2cg: WANT" and, with -o, leave no temporary file behind.
refused() {
	local name=$1 want=$2
	shift 2
	run_g2c "$@"
	if [ "$status" -ne 1 ]; then
		not_ok "$name: exit $status, expected 1 ($(head -c 300 "$tmp/err"))"
	elif [ "$(cat "$tmp/err")" != "gmon2cg: $want" ]; then
		not_ok "$name: got '$(cat "$tmp/err")', expected 'gmon2cg: $want'"
	elif [ -n "$(find "$tmp" -name '.*.cg.*')" ]; then
		not_ok "$name: temporary file left"
	else
		ok "$name"
	fi
}

# small NAME LIMIT_KB: the last run stayed below LIMIT_KB of memory.
small() {
	if [ -z "$peak_kb" ]; then
		ok "$1: memory not measured here"
	elif [ "$peak_kb" -lt "$2" ]; then
		ok "$1: $peak_kb KB"
	else
		not_ok "$1: took $peak_kb KB, more than $2 KB"
	fi
}

# patch_bytes FILE OFFSET HEXBYTES: overwrites bytes of FILE.
patch_bytes() {
	printf "$(echo "$3" | sed 's/../\\x&/g')" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# repeat FILE N: FILE concatenated with itself until it is N times as long
# (N a power of two).
repeat() {
	local n=$2
	while [ "$n" -gt 1 ]; do
		cat "$1" "$1" >"$1.2" && mv "$1.2" "$1"
		n=$((n / 2))
	done
}

out=$tmp/out.cg

# --- profiles that carry nothing ---
head -c 20 "$gmon" >"$tmp/header-only"
refused "header-only gmon.out" \
	"$tmp/header-only: empty profile: no histogram, no call arcs, no basic-block counts" \
	-o "$out" "$exe" "$tmp/header-only"

# --- gzip ---
gzip -9 -c "$gmon" >"$tmp/whole.gz"
"$GMON2CG" -o "$tmp/plain.cg" "$exe" "$gmon" 2>"$tmp/err" || not_ok "plain profile: $(cat "$tmp/err")"
size=$(wc -c <"$tmp/whole.gz")
head -c $((size - 20)) "$tmp/whole.gz" >"$tmp/cut.gz"
refused "gzip profile cut short" "$tmp/cut.gz: the gzip data is cut short (truncated file)" \
	-o "$out" "$exe" "$tmp/cut.gz"
{ cat "$tmp/whole.gz"; echo trailing garbage; } >"$tmp/trailing.gz"
refused "garbage after the gzip data" \
	"$tmp/trailing.gz: data that is not gzip follows the compressed profile" \
	-o "$out" "$exe" "$tmp/trailing.gz"
cp "$tmp/whole.gz" "$tmp/crc.gz"
# the CRC-32 is the trailer's first 4 bytes
patch_bytes "$tmp/crc.gz" $((size - 8)) 00000000
refused "gzip CRC error, the file named once" \
	"$tmp/crc.gz: corrupt gzip data: incorrect data check" \
	-o "$out" "$exe" "$tmp/crc.gz"
# Members are concatenated, as gzip -d does.
{ head -c 100 "$gmon" | gzip -c; tail -c +101 "$gmon" | gzip -c; } >"$tmp/members.gz"
if "$GMON2CG" -o "$tmp/members.cg" "$exe" "$tmp/members.gz" 2>"$tmp/err" &&
	diff <(grep -v '^desc: Trigger' "$tmp/plain.cg") <(grep -v '^desc: Trigger' "$tmp/members.cg") >/dev/null; then
	ok "gzip members are concatenated"
else
	not_ok "gzip members: $(cat "$tmp/err")"
fi

# --- bombs and endless input: refused at once, in little memory ---
# 16 GiB of zeros in 16 MB of gzip
head -c 1048576 /dev/zero | gzip -9 -c >"$tmp/zeros1.gz"
cp "$tmp/zeros1.gz" "$tmp/zeros.gz"
repeat "$tmp/zeros.gz" 16384
refused "gzip bomb of zeros" \
	"$tmp/zeros.gz: not a gmon.out file (no \"gmon\" cookie, and no valid BSD header)" \
	-o "$out" "$exe" "$tmp/zeros.gz"
small "gzip bomb of zeros" 65536
refused "/dev/zero" \
	"/dev/zero: not a gmon.out file (no \"gmon\" cookie, and no valid BSD header)" \
	-o "$out" "$exe" /dev/zero
small "/dev/zero" 65536
# a real profile, then 10 GiB of one arc record over and over
tail -c 21 "$gmon" >"$tmp/arcs"
repeat "$tmp/arcs" 8192
gzip -9 "$tmp/arcs"
repeat "$tmp/arcs.gz" 65536
{ gzip -c "$gmon"; cat "$tmp/arcs.gz"; } >"$tmp/arc-bomb.gz"
rm -f "$tmp/arcs.gz"
refused "gzip bomb of arc records" \
	"$tmp/arc-bomb.gz: more than 1068876 records, more than a profile of $span bytes of code can hold (corrupted or hostile file)" \
	-o "$out" "$exe" "$tmp/arc-bomb.gz"
small "gzip bomb of arc records" 65536
# a header, then 64 MiB of zeros: histogram records of no bins
repeat "$tmp/zeros1.gz" 64
{ head -c 20 "$gmon" | gzip -c; cat "$tmp/zeros1.gz"; } >"$tmp/empty-hists"
refused "endless empty histogram records" \
	"$tmp/empty-hists: more than 1068876 records, more than a profile of $span bytes of code can hold (corrupted or hostile file)" \
	-o "$out" "$exe" "$tmp/empty-hists"
rm -f "$tmp/zeros.gz" "$tmp/arc-bomb.gz" "$tmp/empty-hists"

# --- hostile sizes ---
# 2^30 bins, all there: 2 GiB of zeros in 2 MB of gzip
head -c 61 "$gmon" >"$tmp/bins30" && patch_bytes "$tmp/bins30" 37 00000040
gzip "$tmp/bins30"
cp "$tmp/zeros1.gz" "$tmp/zeros2g.gz"
repeat "$tmp/zeros2g.gz" 2048
cat "$tmp/zeros2g.gz" >>"$tmp/bins30.gz" && mv "$tmp/bins30.gz" "$tmp/bins30"
rm -f "$tmp/zeros2g.gz"
refused "2^30 bins declared" \
	"$tmp/bins30: histogram record at offset 20 has 1073741824 bins, more than $span bytes of code can use (corrupted or hostile file)" \
	-o "$out" "$exe" "$tmp/bins30"
small "2^30 bins declared" 65536
rm -f "$tmp/zeros1.gz"
# 40000 bins: within what the program's code could use, not in the file
cp "$gmon" "$tmp/bins-cut" && patch_bytes "$tmp/bins-cut" 37 409c0000
refused "more bins declared than present" \
	"$tmp/bins-cut: truncated histogram record at offset 20 (80041 bytes needed, 2846 present)" \
	-o "$out" "$exe" "$tmp/bins-cut"
# a basic-block record that claims 2^32-1 blocks
{ cat "$gmon"; printf '\002\377\377\377\377'; } >"$tmp/bb-count"
refused "basic-block record claims 2^32-1 blocks" \
	"$tmp/bb-count: truncated basic-block record at offset 2866 (68719476725 bytes needed, 5 present)" \
	-o "$out" "$exe" "$tmp/bb-count"
small "basic-block record claims 2^32-1 blocks" 65536

# a range profil(2) cannot map to the bins: the samples would be lost
cp "$gmon" "$tmp/high-max" && patch_bytes "$tmp/high-max" 29 ffffffffffffffff
refused "a histogram up to the top of the address space" \
	"$tmp/high-max: histogram record at offset 20 has 1308 bins for 0x0-0xffffffffffffffff: more than 128 KiB of code a bin, where profil(2) records nothing (corrupted or hostile file)" \
	-o "$out" "$exe" "$tmp/high-max"
cp "$tmp/high-max" "$tmp/top" && patch_bytes "$tmp/top" 21 00f8ffffffffffff
refused "histogram bins past the top of the address space" \
	"$tmp/top: histogram record at offset 20 has 1308 bins for 0xfffffffffffff800-0xffffffffffffffff: they reach past the end of the address space (corrupted or hostile file)" \
	-o "$out" "$exe" "$tmp/top"

# --- the output is an input ---
cp "$exe" "$tmp/prog" && cp "$gmon" "$tmp/gmon.out"
sum_before=$(cat "$tmp/prog" "$tmp/gmon.out" | cksum)
refused "output over the profile" \
	"$tmp/gmon.out: is the input $tmp/gmon.out; refusing to write the output over it" \
	-o "$tmp/gmon.out" "$tmp/prog" "$tmp/gmon.out"
refused "output over the executable" \
	"$tmp/prog: is the input $tmp/prog; refusing to write the output over it" \
	-o "$tmp/prog" "$tmp/prog" "$tmp/gmon.out"
ln -s gmon.out "$tmp/link-to-gmon"
refused "output through a link to the profile" \
	"$tmp/link-to-gmon: is the input $tmp/gmon.out; refusing to write the output over it" \
	-o "$tmp/link-to-gmon" "$tmp/prog" "$tmp/gmon.out"
"$GMON2CG" "$tmp/prog" "$tmp/gmon.out" >>"$tmp/gmon.out" 2>"$tmp/err"
status=$?
if [ "$status" -eq 1 ] &&
	[ "$(cat "$tmp/err")" = "gmon2cg: stdout: is the input $tmp/gmon.out; refusing to write the output over it" ]; then
	ok "stdout appended to the profile"
else
	not_ok "stdout appended to the profile: exit $status, $(cat "$tmp/err")"
fi
if [ "$(cat "$tmp/prog" "$tmp/gmon.out" | cksum)" = "$sum_before" ]; then
	ok "inputs untouched"
else
	not_ok "an input was changed"
fi

# --- special and linked targets ---
# a link to stdout's file, as /dev/stdout is: stdout, not a file renamed
# over the link
ln -s /proc/self/fd/1 "$tmp/stdout-link"
if [ -e /proc/self/fd/1 ]; then
	"$GMON2CG" -o "$tmp/stdout-link" "$exe" "$gmon" >"$tmp/redirected.cg" 2>"$tmp/err"
	if [ -L "$tmp/stdout-link" ] && cmp -s "$tmp/redirected.cg" "$tmp/plain.cg"; then
		ok "a link to stdout writes to stdout"
	else
		not_ok "a link to stdout: link replaced or output lost ($(cat "$tmp/err"))"
	fi
fi
# a link to a regular file: the file is replaced, the link stays
echo old >"$tmp/target.cg"
ln -s target.cg "$tmp/link.cg"
if "$GMON2CG" -o "$tmp/link.cg" "$exe" "$gmon" 2>"$tmp/err" && [ -L "$tmp/link.cg" ] &&
	cmp -s "$tmp/target.cg" "$tmp/plain.cg"; then
	ok "a link to a file has the file replaced"
else
	not_ok "a link to a file: $(cat "$tmp/err")"
fi
ln -s missing/none.cg "$tmp/dangling.cg"
refused "a link to nothing" \
	"$tmp/dangling.cg: a symbolic link to nothing (No such file or directory)" \
	-o "$tmp/dangling.cg" "$exe" "$gmon"
# a replaced file keeps its mode (and, for root, its owner)
echo old >"$tmp/kept.cg"
chmod 640 "$tmp/kept.cg"
owner=$(id -u)
if [ "$owner" -eq 0 ] && getent passwd nobody >/dev/null; then
	chown nobody "$tmp/kept.cg"
	owner=$(id -u nobody)
fi
if "$GMON2CG" -o "$tmp/kept.cg" "$exe" "$gmon" 2>"$tmp/err" &&
	[ "$(stat -c '%a %u' "$tmp/kept.cg")" = "640 $owner" ]; then
	ok "a replaced file keeps mode and owner"
else
	not_ok "replaced file: $(stat -c '%a %u' "$tmp/kept.cg"), expected 640 $owner ($(cat "$tmp/err"))"
fi
# no directory for the temporary file: refused, nothing leaked
refused "output in a missing directory" "$tmp/none/out.cg: No such file or directory" \
	-o "$tmp/none/out.cg" "$exe" "$gmon"
if [ -z "${G2C_VALGRIND:-}" ] && command -v valgrind >/dev/null; then
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--suppressions="$srcdir/tests/valgrind.supp" \
		"$GMON2CG" -o "$tmp/none/out.cg" "$exe" "$gmon" 2>"$tmp/err"
	status=$?
	if [ "$status" -eq 1 ]; then
		ok "output in a missing directory: no leak"
	else
		not_ok "output in a missing directory under valgrind: exit $status: $(cat "$tmp/err")"
	fi
fi

# --- control characters in names ---
nl=$tmp/$'two\nlines'
mkdir "$nl"
cp "$exe" "$nl/prog" && cp "$gmon" "$nl/gmon.out"
if "$GMON2CG" -o "$out" "$nl/prog" "$nl/gmon.out" 2>"$tmp/err" &&
	grep -qx "cmd: $tmp/two?lines/prog" "$out" &&
	grep -qx "desc: Trigger: profile $tmp/two?lines/gmon.out" "$out" &&
	grep -qx "ob=(1) $tmp/two?lines/prog" "$out" && ! grep -qx 'lines/.*' "$out"; then
	ok "a newline in names: cmd:, desc: and ob= stay one line"
else
	not_ok "a newline in names: $(grep -n 'lines' "$out" | head -5)"
fi
refused "a newline in a name in an error" "$tmp/two?lines/none: No such file or directory" \
	-o "$out" "$nl/prog" "$nl/none"
# a histogram whose dimension holds a newline
cp "$gmon" "$tmp/dimen" && patch_bytes "$tmp/dimen" 45 0a
if "$GMON2CG" -o "$out" "$exe" "$tmp/dimen" 2>"$tmp/err" && grep -qx 'event: ns : ?econds (billionths)' "$out"; then
	ok "a newline in the histogram's dimension"
else
	not_ok "a newline in the dimension: $(grep -n '^event' "$out") $(cat "$tmp/err")"
fi
finish
