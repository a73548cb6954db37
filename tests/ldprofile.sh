#!/bin/bash
# ldprofile.sh -- the gmon reader on glibc's LD_PROFILE files
# (fixtures/ldprofile, and one made now by this machine's ld.so when the
# fixture program runs here): what it reads (tests/unit/dump-gmon) is exactly
# what the independent reader tests/lib/ldprofile.py reads, bins, arcs and
# all; the call counts are the calls the fixture program makes; several
# runs are summed; the big-endian form, gzip input, recognition by header,
# and the refusals
# (truncated, wrong address size, summed with a program's gmon.out).
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$PYTHON3" ] || skip "python3 not found"
oracle="$PYTHON3 $srcdir/tests/lib/ldprofile.py"
dump=./tests/unit/dump-gmon
fix=$FIXTURES/ldprofile
[ -x "$dump" ] || { not_ok "$dump not built"; finish; }

expected_calls="call <outside> mix_hash 40000
call mix_hash mix_block 1600000
call mix_block mix_round 25600000"

# swap_bytes ADDR_SIZE: an LD_PROFILE file on stdin with every number in
# the other byte order, on stdout (the layout is in tests/lib/ldprofile.py).
swap_bytes() {
	$PYTHON3 -c '
import sys
a = int(sys.argv[1])
d = bytearray(sys.stdin.buffer.read())
def flip(at, n):
    d[at:at + n] = d[at:at + n][::-1]
flip(4, 4)                                  # version
flip(20, 4); flip(24, a); flip(24 + a, a)   # tag, low_pc, high_pc
nbins = int.from_bytes(d[24 + 2 * a:28 + 2 * a], "little")
flip(24 + 2 * a, 4); flip(28 + 2 * a, 4)    # nbins, rate
at = 48 + 2 * a
for _ in range(nbins):
    flip(at, 2); at += 2
flip(at, 4); flip(at + 4, 4); at += 8       # tag, narcs
while at + 2 * a + 4 <= len(d):
    flip(at, a); flip(at + a, a); flip(at + 2 * a, 4); at += 2 * a + 4
sys.stdout.buffer.write(d)' "$1"
}

# profile  address size  library
cases="nopg 8 libmix.so.1
pg 8 libmix.so.1
i386 4 i386/libmix.so.1"

while read -r run size lib; do
	prof=$fix/$run/libmix.so.1.profile
	# The oracle's own checks: exact counts, samples where they belong.
	if ! $oracle "$prof" --addr-size "$size" --symbols "$fix/$lib" >"$tmp/$run.sym"; then
		not_ok "$run: the oracle cannot read $prof"
		continue
	fi
	if [ "$(grep '^call ' "$tmp/$run.sym")" = "$expected_calls" ]; then
		ok "$run: the oracle counts exactly the calls made"
	else
		not_ok "$run: the oracle's call counts are not the calls made"
	fi
	top=$(awk '$1 == "samples" { print $2; exit }' "$tmp/$run.sym")
	case $run in
	pg) [ -z "$top" ] && ok "pg: no samples" || not_ok "pg: samples although the program is -pg" ;;
	*) [ "$top" = mix_round ] && ok "$run: mix_round has the most samples" ||
		not_ok "$run: the most samples are in '$top', not mix_round" ;;
	esac

	# The C reader reads the same, line for line.
	$oracle "$prof" --addr-size "$size" | grep -v '^narcs ' >"$tmp/$run.oracle"
	if ! "$dump" "$size" little "$prof" >"$tmp/$run.dump" 2>"$tmp/$run.err"; then
		not_ok "$run: the reader refuses $prof: $(cat "$tmp/$run.err")"
	elif cmp -s "$tmp/$run.oracle" "$tmp/$run.dump"; then
		ok "$run: the reader agrees with the oracle ($(grep -c '^bin ' "$tmp/$run.dump") bins, $(grep -c '^arc ' "$tmp/$run.dump") arcs)"
	else
		not_ok "$run: the reader differs from the oracle"
		diff "$tmp/$run.oracle" "$tmp/$run.dump" | head -20
	fi
	[ "$("$dump" --sniff "$prof")" = ld-profile ] || not_ok "$run: not recognised as LD_PROFILE by its header"

	# gzip-compressed, it reads the same.
	gzip -c "$prof" >"$tmp/$run.profile.gz"
	if "$dump" "$size" little "$tmp/$run.profile.gz" 2>&1 | cmp -s - "$tmp/$run.dump"; then
		ok "$run: gzip-compressed input"
	else
		not_ok "$run: gzip-compressed input reads differently"
	fi

	# The same file as a big-endian process writes it: read the same.
	swap_bytes "$size" <"$prof" >"$tmp/$run.be"
	# (the first line names the byte order)
	if "$dump" "$size" big "$tmp/$run.be" 2>&1 | sed '1s/ big$/ little/' |
		cmp -s - "$tmp/$run.dump"; then
		ok "$run: the big-endian form reads the same"
	else
		not_ok "$run: the big-endian form reads differently"
	fi
	$oracle "$tmp/$run.be" --addr-size "$size" | grep -v '^narcs ' | sed '1s/ big$/ little/' |
		cmp -s - "$tmp/$run.oracle" ||
		not_ok "$run: the oracle reads the big-endian form differently"

	# Read with the wrong address size: refused, not misread.
	if "$dump" $((12 - size)) little "$prof" >/dev/null 2>"$tmp/$run.err"; then
		not_ok "$run: read with $((12 - size))-byte addresses"
	else
		ok "$run: refused with the wrong address size: $(cat "$tmp/$run.err")"
	fi

	# Cut short within the arcs in use, or within a slot: refused.
	len=$(awk '$1 == "hist" { printf "%d", 20 + 4 + 2 * '"$size"' + 24 + 2 * $4 + 8 }' "$tmp/$run.dump")
	for cut in $((len - 1)) $((len + 2 * size + 4 + 1)) $((len + 2 * (2 * size + 4))); do
		head -c "$cut" "$prof" >"$tmp/cut"
		if $oracle "$tmp/cut" --addr-size "$size" >/dev/null 2>&1; then
			not_ok "$run: the oracle accepts a copy cut at byte $cut"
		fi
		if "$dump" "$size" little "$tmp/cut" >/dev/null 2>"$tmp/cut.err"; then
			not_ok "$run: a copy cut at byte $cut is accepted"
		elif grep -q 'truncated' "$tmp/cut.err"; then
			ok "$run: cut at byte $cut: $(cat "$tmp/cut.err")"
		else
			not_ok "$run: cut at byte $cut: unclear message: $(cat "$tmp/cut.err")"
		fi
	done
done <<<"$cases"

# A full table (more slots taken than ld.so could fill) is read whole,
# the calls it could not count reported; cut short anywhere, even past
# the slots in use, it is truncated.  ld.so writes 2 * A slots per arc it
# has room for: 16 * 122 for fixtures/ldprofile's 4 KiB of code.
# set_narcs N FILE: the fixture's profile claiming N slots taken.
set_narcs() {
	$PYTHON3 - "$fix/nopg/libmix.so.1.profile" "$2" "$1" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
at = 48 + 16 + 2 * int.from_bytes(d[40:44], "little") + 4
d[at:at + 4] = int(sys.argv[3]).to_bytes(4, "little")
open(sys.argv[2], "wb").write(d)
PY
}
set_narcs 5000 "$tmp/full"
if "$dump" 8 little "$tmp/full" >"$tmp/full.dump" 2>"$tmp/full.err" &&
	$oracle "$tmp/full" | grep -q "^calls_lost 4997$"; then
	ok "a full arc table is read whole"
else
	not_ok "a full arc table: $(cat "$tmp/full.err")"
fi
# Converted, the short call counts are said once, not only in --stats.
expect -w -n "a full arc table: the calls it could not count are said" 0 \
	"full: the dynamic loader's arc table was full: 4997 calls it counted are in no arc, so the call counts are short" \
	"$GMON2CG" --prefix-map=.="$FIXTURES" -o "$tmp/full.cg" "$fix/libmix.so.1" "$tmp/full"
"$GMON2CG" -o "$tmp/nopg.cg" "$fix/libmix.so.1" "$fix/nopg/libmix.so.1.profile" 2>"$tmp/err" &&
	! grep -q "arc table was full" "$tmp/err"
check "a table with room: no such word"
# (the same file cut at slot 1951, and one of a large library whose
# table of 70 000 slots in use is cut after 66 000)
head -c $(($(wc -c <"$tmp/full") - 20)) "$tmp/full" >"$tmp/full-cut"
$PYTHON3 - "$tmp/big-cut" <<'PY'
import struct, sys
low, high = 0x1000, 0x1000 + 0x240000     # 3% of it: room for 70 778 arcs
out = bytearray(b"gmon" + struct.pack("<I", 0x1ffff) + bytes(12))
out += struct.pack("<IQQII", 0, low, high, (high - low) // 4, 100)
out += b"seconds".ljust(15, b"\0") + b"s" + bytes(2 * ((high - low) // 4))
out += struct.pack("<II", 1, 70000)
for i in range(66000):
    out += struct.pack("<QQI", 0, 16 * i, 1)
open(sys.argv[1], "wb").write(out)
PY
for cut in full-cut big-cut; do
	if $oracle "$tmp/$cut" >/dev/null 2>&1; then
		not_ok "$cut: the oracle accepts it"
	elif "$dump" 8 little "$tmp/$cut" >/dev/null 2>"$tmp/cut.err"; then
		not_ok "$cut: accepted"
	elif [ "$(wc -l <"$tmp/cut.err")" -eq 1 ] && grep -q 'truncated' "$tmp/cut.err"; then
		ok "$cut: $(cat "$tmp/cut.err")"
	else
		not_ok "$cut: unclear message: $(cat "$tmp/cut.err")"
	fi
done

# A profile written now by this machine's ld.so, when the fixture runs
# here: the format has not changed.
if (cd "$tmp" && LD_PROFILE=libmix.so.1 LD_PROFILE_OUTPUT="$tmp" "$fix/prog" >/dev/null 2>&1) &&
	[ -s "$tmp/libmix.so.1.profile" ]; then
	$oracle "$tmp/libmix.so.1.profile" --addr-size 8 --symbols "$fix/libmix.so.1" >"$tmp/live.sym" ||
		not_ok "live: the oracle cannot read this machine's profile"
	[ "$(grep '^call ' "$tmp/live.sym")" = "$expected_calls" ] ||
		not_ok "live: the call counts are not the calls made"
	$oracle "$tmp/libmix.so.1.profile" --addr-size 8 | grep -v '^narcs ' >"$tmp/live.oracle"
	if "$dump" 8 little "$tmp/libmix.so.1.profile" | cmp -s - "$tmp/live.oracle"; then
		ok "live: the reader agrees with the oracle on this machine's profile"
	else
		not_ok "live: the reader differs from the oracle on this machine's profile"
	fi
else
	echo "note: the fixture program wrote no LD_PROFILE file here; live check skipped"
fi

# Two runs of the same library are summed: counts add up, and the run
# without samples adds none.
if "$dump" 8 little "$fix/nopg/libmix.so.1.profile" "$fix/pg/libmix.so.1.profile" >"$tmp/sum.dump"; then
	want=$(awk '$1 == "arc" { $4 *= 2 } { print }' "$tmp/nopg.dump")
	if [ "$(cat "$tmp/sum.dump")" = "$want" ]; then
		ok "two runs are summed"
	else
		not_ok "two runs are not summed as expected"
	fi
else
	not_ok "two runs of one library cannot be summed"
fi

# A library's profile and the program's gmon.out are never summed.
if "$dump" 8 little "$fix/pg/gmon.out" "$fix/pg/libmix.so.1.profile" >/dev/null 2>"$tmp/mix.err"; then
	not_ok "a program's and a library's profile are summed"
elif grep -q 'cannot be summed' "$tmp/mix.err"; then
	ok "a program's and a library's profile are not summed"
else
	not_ok "mixing refused with an unclear message: $(cat "$tmp/mix.err")"
fi
[ "$("$dump" --sniff "$fix/pg/gmon.out")" = other ] || not_ok "pg/gmon.out taken for an LD_PROFILE file"

finish
