#!/bin/bash
# bsd.sh -- FreeBSD and OpenBSD profiles (fixtures/bsd): every histogram
# counter type FreeBSD's header names converts with the samples and calls
# the fixture was written with, the files GNU gprof reads too agree with
# it, OpenBSD's arc length bounds the arcs, corrupt files (and samples or
# calls past 64 bits) are refused in one line, PROG.gmon is the profile when none is named, and --stats names
# the counter type.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$PYTHON3" ] || skip "python3 not found"
bsd=$FIXTURES/bsd
model="$PYTHON3 $srcdir/tests/lib/callgrind_model.py"

# check_expect CG EXPECT: the functions' self costs are the samples
# EXPECT lists (at 1 ms each), the calls its calls, and the desc: line
# counts all samples.
check_expect() {
	$model --json "$1" >"$tmp/model.json" || return 1
	$PYTHON3 - "$tmp/model.json" "$2" "$1" <<'EOF'
import json, re, sys
model = json.load(open(sys.argv[1]))
want = [line.split() for line in open(sys.argv[2])]
bad = []
total = 0
for kind, *rest in want:
    if kind == "samples":
        name, n = rest[0], int(rest[1])
        total += n
        got = model["functions"][name]["self"]
        if abs(got - n * 1e6) > 1e-9 * n * 1e6:
            bad.append("%s: self %s ns, want %d samples" % (name, got, n))
    else:
        caller, callee, n = rest[0], rest[1], int(rest[2])
        got = [a["count"] for a in model["arcs"]
               if a["caller"] == caller and a["callee"] == callee]
        if got != [n]:
            bad.append("%s -> %s: %s calls, want %d" % (caller, callee, got, n))
arcs = sum(1 for a in model["arcs"] if a["caller"] != "<spontaneous>")
if arcs != sum(1 for w in want if w[0] == "calls"):
    bad.append("%d arcs, want %d" % (arcs, sum(1 for w in want if w[0] == "calls")))
desc = [d for d in model["desc"] if d.startswith("Samples: ")]
if desc != ["Samples: %d" % total]:
    bad.append("desc %s, want Samples: %d" % (desc, total))
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
}

for expect in "$bsd"/*/*.expect; do
	gmon=${expect%.expect} dir=$(dirname "$expect")
	name=${gmon#"$bsd/"}
	if "$GMON2CG" -o "$tmp/out.cg" "$dir/prog" "$gmon" 2>"$tmp/err" &&
		check_expect "$tmp/out.cg" "$expect" >"$tmp/log" 2>&1; then
		ok "$name: samples and calls as written"
	else
		not_ok "$name: samples or calls differ"
		diag <"$tmp/err"
		diag <"$tmp/log"
	fi
done

# --stats names FreeBSD's counter type where it is not gprof's 16-bit one.
for type in s8:8-bit_signed u32:32-bit_unsigned s64:64-bit_signed u16:; do
	gmon=$bsd/freebsd/${type%%:*}.gmon want=${type#*:}
	"$GMON2CG" --stats -o "$tmp/s.cg" "$bsd/freebsd/prog" "$gmon" 2>"$tmp/err"
	if [ -n "$want" ]; then
		grep -q "stats: $gmon (4.4BSD format, ${want/_/ } counts)\$" "$tmp/err"
	else
		grep -q "stats: $gmon (4.4BSD format)\$" "$tmp/err"
	fi
	check "--stats: ${type%%:*}.gmon: ${want:-16-bit unsigned, not named}"
done

# to_tagged IN OUT: the 16-bit 4.4BSD file IN in the GNU tagged format,
# which compare_gprof.py's exact histogram reads.
to_tagged() {
	$PYTHON3 - "$@" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
p = 4 if struct.unpack_from("<I", data, 12)[0] == 0x00051879 else 8
a = "I" if p == 4 else "Q"
low, high, ncnt, _, rate = struct.unpack_from("<" + a + a + "iii", data)
nbins = (ncnt - (2 * p + 24)) // 2
out = b"gmon" + struct.pack("<I", 1) + bytes(12)
out += b"\0" + struct.pack("<" + a + a + "II", low, high, nbins, rate)
out += b"seconds".ljust(15, b"\0") + b"s" + data[2 * p + 24:ncnt]
for pos in range(ncnt, len(data), 3 * p):
    f, s, n = struct.unpack_from("<" + a * 3, data, pos)
    out += b"\1" + struct.pack("<" + a + a + "I", f, s, n)
open(sys.argv[2], "wb").write(out)
EOF
}

# GNU gprof reads 16-bit bins only, and ignores the spare words.
if [ -n "$GPROF" ]; then
	export GPROF
	for gmon in freebsd/prog.gmon freebsd-i386/prog.gmon freebsd/u16.gmon freebsd/s16.gmon \
		openbsd/gmon.prog.out openbsd-i386/gmon.prog.out; do
		exe=$bsd/$(dirname "$gmon")/prog
		if { to_tagged "$bsd/$gmon" "$tmp/tagged.out" &&
			"$GMON2CG" -o "$tmp/g.cg" "$exe" "$bsd/$gmon" &&
			$PYTHON3 "$srcdir/tests/lib/compare_gprof.py" --cg "$tmp/g.cg" \
				--exact-gmon "$tmp/tagged.out" "$exe" "$bsd/$gmon"; } >"$tmp/log" 2>&1; then
			ok "$gmon agrees with gprof"
		else
			not_ok "$gmon differs from gprof"
			diag <"$tmp/log"
		fi
	done
else
	skip_check "agreement with gprof" "gprof not found"
fi

# patch FILE OFFSET HEX: overwrites bytes of FILE at OFFSET.
patch() {
	printf "$(printf '%s' "$3" | sed 's/../\\x&/g')" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

fexe=$bsd/freebsd/prog oexe=$bsd/openbsd/prog
u64=$bsd/freebsd/u64.gmon opengmon=$bsd/openbsd/gmon.prog.out
# sizes: a 40-byte header, bins to ncnt (bytes 16-19), then 24-byte arcs
ncnt() { od -An -t u4 -j 16 -N 4 "$1" | tr -d ' '; }
unu=$(ncnt "$u64") onu=$(ncnt "$opengmon")
osize=$(wc -c <"$opengmon")

head -c $((unu - 5)) "$u64" >"$tmp/cut-bins.gmon"
expect -x 1 "gmon2cg: $tmp/cut-bins.gmon: not a gmon.out file, or a truncated BSD one (no \"gmon\" cookie; as a BSD file it would need $unu bytes, it has $((unu - 5)))" \
	"$GMON2CG" -o "$tmp/cut.cg" "$fexe" "$tmp/cut-bins.gmon"
head -c $((unu + 30)) "$u64" >"$tmp/cut-arc.gmon"
expect 1 "^gmon2cg: $tmp/cut-arc.gmon: truncated BSD call-arc record at offset $((unu + 24)) " \
	"$GMON2CG" -o "$tmp/cut.cg" "$fexe" "$tmp/cut-arc.gmon"
[ ! -e "$tmp/cut.cg" ]; check "no output file for a cut profile"

# OpenBSD's header says how many bytes of arcs follow: a file cut at an
# arc's end, or one with an arc too many, is found out.
head -c $((osize - 24)) "$opengmon" >"$tmp/open-short.out"
expect -x 1 "gmon2cg: $tmp/open-short.out: truncated call arcs at offset $onu (the OpenBSD header declares $((osize - onu)) bytes, $((osize - onu - 24)) present)" \
	"$GMON2CG" -o "$tmp/o.cg" "$oexe" "$tmp/open-short.out"
{ cat "$opengmon"; tail -c 24 "$opengmon"; } >"$tmp/open-long.out"
expect -x 1 "gmon2cg: $tmp/open-long.out: call arcs at offset $onu run past their end (the OpenBSD header declares $((osize - onu)) bytes, $((osize - onu + 24)) present; corrupted file?)" \
	"$GMON2CG" -o "$tmp/o.cg" "$oexe" "$tmp/open-long.out"

# A signed bin below zero counts nothing: refused.  s32.gmon's first bin
# with samples is made -2.
cp "$bsd/freebsd/s32.gmon" "$tmp/negative.gmon"
read -r first old < <(od -An -v -t d4 -j 40 -w4 "$tmp/negative.gmon" | awk '$1 != 0 { print NR - 1, $1; exit }')
patch "$tmp/negative.gmon" $((40 + 4 * first)) feffffff
expect -x 1 "gmon2cg: $tmp/negative.gmon: BSD histogram at offset 0: bin $first holds a negative count (-2; corrupted file?)" \
	"$GMON2CG" -o "$tmp/n.cg" "$fexe" "$tmp/negative.gmon"
# ... while the same bytes unsigned are a count
cp "$bsd/freebsd/u32.gmon" "$tmp/big.gmon"
patch "$tmp/big.gmon" $((40 + 4 * first)) feffffff
"$GMON2CG" -o "$tmp/big.cg" "$fexe" "$tmp/big.gmon" 2>"$tmp/err" &&
	grep -qx "desc: Samples: $((119 * 1000000 - old + 4294967294))" "$tmp/big.cg"
check "an unsigned 32-bit bin holds up to 2^32 - 1"

# 64-bit counts: every sample is kept (to a hundredth of one, 10^4 ns:
# costs are doubles until written) up to 2^63 ns, what a cost in 64-bit nanoseconds
# holds; a profile past that, or whose counts add up past 64 bits, is
# refused.  u64.gmon: leaf's 9e11 samples are bins 1 and 2, of 1.19e12
# at 1000 Hz.
# le64 N: the 8 little-endian bytes of N, in hex
le64() { printf '%016x' "$1" | sed 's/../& /g' | awk '{ for (i = 8; i > 0; i--) printf "%s", $i }'; }
# leaf_bins HEX...: u64.gmon with bins 1 and 2 made HEX, as $tmp/u64.gmon
leaf_bins() {
	cp "$u64" "$tmp/u64.gmon" && patch "$tmp/u64.gmon" 48 "$1" && patch "$tmp/u64.gmon" 56 "$1"
}
leaf_bins "$(le64 4000000000000)"
"$GMON2CG" -o "$tmp/u64.cg" "$fexe" "$tmp/u64.gmon" 2>/dev/null &&
	grep -qx "desc: Samples: 8290000000000" "$tmp/u64.cg" &&
	$model --json "$tmp/u64.cg" | $PYTHON3 -c '
import json, sys
m = json.load(sys.stdin)
sys.exit(abs(m["summary_values"][0] - 829 * 10**16) > 10**4 or
         abs(m["functions"]["leaf"]["self"] - 8 * 10**18) > 10**4)'
check "8.29e12 samples at 1000 Hz: 8.29e18 ns, every sample kept"
rm -f "$tmp/u64.cg"
leaf_bins "$(le64 5000000000000)"
expect -x 1 "gmon2cg: $tmp/u64.gmon: too many samples for 64-bit nanoseconds (10290000000000 at 1000 Hz)" \
	"$GMON2CG" -o "$tmp/u64.cg" "$fexe" "$tmp/u64.gmon"
leaf_bins 0000000000000080
expect -x 1 "gmon2cg: $tmp/u64.gmon: BSD histogram at offset 0: more samples than 64 bits count (corrupted or hostile file)" \
	"$GMON2CG" -o "$tmp/u64.cg" "$fexe" "$tmp/u64.gmon"
[ ! -e "$tmp/u64.cg" ]; check "no output file for too many samples"

# Calls alike: 64-bit arc counts (u64.gmon's arcs, from offset ncnt) that
# add up past 64 bits are refused, in one file or in files summed.
cp "$u64" "$tmp/calls.gmon"
patch "$tmp/calls.gmon" $((unu + 16)) 0000000000000080
"$GMON2CG" -o "$tmp/calls.cg" "$fexe" "$tmp/calls.gmon" 2>/dev/null &&
	grep -q "^calls=9223372036854775808 " "$tmp/calls.cg"
check "an arc of 2^63 calls converts"
expect -x 1 "gmon2cg: $tmp/calls.gmon: more calls than 64 bits count, summed with the 1 file before it (corrupted or hostile files)" \
	"$GMON2CG" -o "$tmp/calls2.cg" "$fexe" "$tmp/calls.gmon" "$tmp/calls.gmon"
[ ! -e "$tmp/calls2.cg" ]; check "no output file for too many calls"
patch "$tmp/calls.gmon" $((unu + 24 + 16)) 0000000000000080
expect -x 1 "gmon2cg: $tmp/calls.gmon: more calls than 64 bits count (corrupted or hostile file)" \
	"$GMON2CG" -o "$tmp/calls2.cg" "$fexe" "$tmp/calls.gmon"

# Spare words of other writers (MinGW leaves them uninitialised) are
# ignored as gprof ignores them: a counter type followed by words that
# are not zero is not taken for one.
cp "$bsd/freebsd/prog.gmon" "$tmp/garbage.gmon"
patch "$tmp/garbage.gmon" 28 400000000100000078563412
"$GMON2CG" -o "$tmp/garbage.cg" "$fexe" "$tmp/garbage.gmon" 2>/dev/null &&
	check_expect "$tmp/garbage.cg" "$bsd/freebsd/prog.gmon.expect" >"$tmp/log"
check "spare words that are not FreeBSD's or OpenBSD's are ignored"

# No profile named: gmon.out, else FreeBSD's PROG.gmon, in the working
# directory (the last checks: relative paths end here).
mkdir "$tmp/run" && cp "$fexe" "$tmp/run/prog" && cd "$tmp/run" || exit 1
expect -x 1 "gmon2cg: gmon.out: No such file or directory (nor prog.gmon, FreeBSD's name for it)" \
	"$GMON2CG" -o out.cg ./prog
cp "$bsd/freebsd/prog.gmon" .
"$GMON2CG" -o out.cg "$tmp/run/prog" 2>/dev/null &&
	grep -qx 'desc: Trigger: profile prog.gmon' out.cg
check "without a profile operand PROG.gmon is read"
cp "$bsd/freebsd/u8.gmon" gmon.out
"$GMON2CG" -o out.cg ./prog 2>/dev/null && grep -qx 'desc: Trigger: profile gmon.out' out.cg
check "gmon.out comes before PROG.gmon"
finish
