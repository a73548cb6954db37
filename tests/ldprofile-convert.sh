#!/bin/bash
# ldprofile-convert.sh -- LD_PROFILE profiles converted: a library alone
# (64- and 32-bit), and beside the program's own gmon.out with one ob= per
# object, the library found as the dynamic loader finds it (RUNPATH
# $ORIGIN), or named with --library; call counts exact and samples where
# the independent reader puts them; callgrind_annotate reads the results;
# a profile of another library is refused.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$PYTHON3" ] || skip "python3 not found"
fix=$FIXTURES/ldprofile
real=$(cd "$fix" && pwd -P)	# as ob= lines name the objects
oracle="$PYTHON3 $srcdir/tests/lib/ldprofile.py"
compare="$PYTHON3 $srcdir/tests/lib/ldprofile_compare.py"

# The library alone: gmon2cg LIB LIB.profile.
for run in nopg pg i386; do
	lib=$fix/libmix.so.1 size=8
	[ "$run" = i386 ] && lib=$fix/i386/libmix.so.1 size=4
	prof=$fix/$run/libmix.so.1.profile
	$oracle "$prof" --addr-size "$size" --symbols "$lib" >"$tmp/$run.oracle" ||
		{ not_ok "$run: oracle failed"; continue; }
	if "$GMON2CG" -o "$tmp/$run.cg" "$lib" "$prof" && $compare "$tmp/$run.cg" "$tmp/$run.oracle"; then
		ok "$run: the library alone, counts and samples as the oracle reads them"
	else
		not_ok "$run: the library alone differs from the oracle"
	fi
	grep -q "^desc: Object: .*libmix.so.1: .* (LD_PROFILE)$" "$tmp/$run.cg" ||
		not_ok "$run: no desc: line on the object"
done
# A profile with calls but no samples (the -pg run) says so, and why, in
# one warning; the conversion succeeds.
for run in pg nopg; do
	(cd "$tmp" && "$GMON2CG" -o "$run-w.cg" "$fix/libmix.so.1" "$fix/$run/libmix.so.1.profile" \
		--prefix-map=./ldprofile="$fix") 2>"$tmp/$run.err"
	echo $? >"$tmp/$run.rc"
done
[ "$(cat "$tmp/pg.rc")" = 0 ] && [ "$(wc -l <"$tmp/pg.err")" -eq 1 ] &&
	grep -q "^gmon2cg: warning: .*pg/libmix.so.1.profile: call counts but no samples: .*-pg" "$tmp/pg.err" &&
	[ "$(cat "$tmp/nopg.rc")" = 0 ] && [ ! -s "$tmp/nopg.err" ] &&
	ok "calls but no samples: one warning, exit 0" ||
	not_ok "calls but no samples: exit $(cat "$tmp/pg.rc"), $(cat "$tmp/pg.err")"

# Every call site is the call instruction (through the PLT) and its line,
# not the return address LD_PROFILE records.
for run in nopg i386; do
	lib=$fix/libmix.so.1
	[ "$run" = i386 ] && lib=$fix/i386/libmix.so.1
	if $PYTHON3 "$srcdir/tests/lib/check_positions.py" --lines "$tmp/$run.cg" "$lib" \
		>"$tmp/pos.log" 2>&1; then
		ok "$run: call sites on the calls through the PLT"
	else
		not_ok "$run: call sites: $(head -3 "$tmp/pos.log")"
	fi
done
grep -q "calls only, no samples" "$tmp/pg.cg" && grep -q "samples and calls" "$tmp/nopg.cg" &&
	ok "desc: says which profiles carry samples" || not_ok "desc: samples or counts only"

# Program and library in one profile: the library found through the
# program's RUNPATH ($ORIGIN), one ob= each, the calls from the program
# under <outside libmix.so.1>.
(cd "$tmp" && "$GMON2CG" -o both.cg "$fix/prog-pg" "$fix/pg/gmon.out" "$fix/pg/libmix.so.1.profile") &&
	$compare "$tmp/both.cg" "$tmp/pg.oracle" &&
	[ "$(grep -c '^ob=' "$tmp/both.cg")" -ge 2 ] &&
	grep -q "^ob=([0-9]*) $real/prog-pg$" "$tmp/both.cg" &&
	grep -q "^cob=([0-9]*) $real/libmix.so.1$\|^ob=([0-9]*) $real/libmix.so.1$" "$tmp/both.cg" &&
	grep -q "^fn=([0-9]*) main$\|^cfn=([0-9]*) main$" "$tmp/both.cg" &&
	ok "program and library in one profile, one ob= each" || not_ok "program + library"

# --library names the library when it is elsewhere.
mkdir "$tmp/elsewhere" && cp "$fix/prog-pg" "$tmp/elsewhere/" &&
	"$GMON2CG" -o "$tmp/lib.cg" --library="$fix/libmix.so.1" "$tmp/elsewhere/prog-pg" \
		"$fix/pg/gmon.out" "$fix/pg/libmix.so.1.profile" &&
	$compare "$tmp/lib.cg" "$tmp/pg.oracle" && ok "--library" || not_ok "--library"
# A --library the profile does not fit is refused, naming that library
# (--force converts anyway).
expect -x 1 "gmon2cg: $fix/pg/libmix.so.1.profile: does not belong to $FIXTURES/calltree/prog: the code it profiled is not that library's (--force converts anyway)" \
	"$GMON2CG" -o "$tmp/wrong.cg" --library="$FIXTURES/calltree/prog" "$tmp/elsewhere/prog-pg" \
	"$fix/pg/gmon.out" "$fix/pg/libmix.so.1.profile"
[ ! -e "$tmp/wrong.cg" ]; check "and no output file"
"$GMON2CG" -o "$tmp/none.cg" "$tmp/elsewhere/prog-pg" "$fix/pg/gmon.out" \
	"$fix/pg/libmix.so.1.profile" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -e "$tmp/none.cg" ] && grep -q -- "--library=PATH" "$tmp/err" &&
	ok "a library that cannot be found is an error that names --library" ||
	not_ok "library not found: $(cat "$tmp/err")"

# Samples in the library where no symbol is: kept under the library's
# ob=, at its profile's rate, when the program is the executable too.
mkdir "$tmp/nosym" && "$PYTHON3" - "$fix/nopg/libmix.so.1.profile" \
	"$tmp/nosym/libmix.so.1.profile" <<'PY'
import sys
# 100 samples at 0x1800, past the library's last function.
d = bytearray(open(sys.argv[1], "rb").read())
at = 64 + 2 * ((0x1800 - 0x1000) // 4)
d[at:at + 2] = (100).to_bytes(2, "little")
open(sys.argv[2], "wb").write(d)
PY
# the ob= each "<no symbol>" is written under
nosym_objects() {
	awk '/^c?ob=/ { id = $1; sub(/^c?ob=/, "", id); if (NF > 1) obname[id] = $2 }
	     /^ob=/ { ob = obname[id] }
	     /^c?fn=/ { id = $1; sub(/^c?fn=/, "", id); if (NF > 1) fnname[id] = $2 " " $3 }
	     /^fn=/ && fnname[id] == "<no symbol>" { print ob }' "$1"
}
"$GMON2CG" -o "$tmp/nosym-lib.cg" "$fix/libmix.so.1" "$tmp/nosym/libmix.so.1.profile" &&
	"$GMON2CG" -o "$tmp/nosym-prog.cg" "$fix/prog" "$tmp/nosym/libmix.so.1.profile" &&
	[ "$(grep '^summary:' "$tmp/nosym-prog.cg")" = "summary: $((394 * 10000000))" ] &&
	[ "$(grep '^summary:' "$tmp/nosym-lib.cg")" = "summary: $((394 * 10000000))" ] &&
	[ "$(nosym_objects "$tmp/nosym-prog.cg")" = "$real/libmix.so.1" ] &&
	ok "samples in no symbol of the library: kept under its ob=" ||
	not_ok "samples in no symbol of the library: $(grep '^summary:' "$tmp"/nosym-*.cg) under $(nosym_objects "$tmp/nosym-prog.cg")"

# callgrind_annotate reads them without a warning.
if [ -n "$CALLGRIND_ANNOTATE" ]; then
	for f in nopg i386 both; do
		(cd / && "$CALLGRIND_ANNOTATE" --inclusive=yes "$tmp/$f.cg") >"$tmp/ann" 2>&1 &&
			! grep -qi warning "$tmp/ann" && ok "$f: callgrind_annotate" ||
			not_ok "$f: callgrind_annotate: $(grep -i warning "$tmp/ann" | head -2)"
	done
fi

# A profile of another library does not belong to this one.
cp "$fix/nopg/libmix.so.1.profile" "$tmp/libother.so.1.profile"
cp "$fix/libmix.so.1" "$tmp/libother.so.1"
"$PYTHON3" - "$tmp/libother.so.1.profile" <<'PY'
import sys
# Move every arc's callee 4 bytes on, off its entry point.
p = sys.argv[1]
d = bytearray(open(p, "rb").read())
n = int.from_bytes(d[40:44], "little")
arcs = 48 + 16 + 2 * n
narcs = int.from_bytes(d[arcs + 4:arcs + 8], "little")
for i in range(narcs):
    at = arcs + 8 + 20 * i + 8
    v = int.from_bytes(d[at:at + 8], "little")
    d[at:at + 8] = (v + 0x4).to_bytes(8, "little")
open(p, "wb").write(d)
PY
"$GMON2CG" -o "$tmp/other.cg" "$tmp/libother.so.1" "$tmp/libother.so.1.profile" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -e "$tmp/other.cg" ] && grep -q "does not belong to" "$tmp/err" &&
	ok "a profile of another build is refused" || not_ok "mismatch: $(cat "$tmp/err")"
# A stripped library (dynamic symbols only) whose time is in a local
# function placed before its first exported one: that code is the
# function "<unknown code before NAME>", not code in no function (which
# made most samples fall outside every function and the profile refused).
# Built and run here: ld.so writes the profile.
mkdir "$tmp/strip" && cat >"$tmp/strip/lib.c" <<'C'
unsigned long s_api2(unsigned long x);
static unsigned long s_hot(unsigned long x)
{
	for (long i = 0; i < 300000000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}
unsigned long s_api(unsigned long x) { return s_api2(s_hot(x)) + 1; }
unsigned long s_api2(unsigned long x) { return x + 2; }
C
printf '%s\n' '#include <stdio.h>' 'unsigned long s_api(unsigned long);' \
	'int main(void) { printf("%lu\n", s_api(3)); return 0; }' >"$tmp/strip/prog.c"
if ! command -v gcc >/dev/null ||
	! (cd "$tmp/strip" && gcc -O1 -fno-inline -fPIC -shared -Wl,-soname,libs.so.1 -o libs.so.1 lib.c &&
	   strip libs.so.1 && gcc -o prog prog.c ./libs.so.1 -Wl,-rpath,'$ORIGIN'); then
	skip_check "a stripped library's local code before its first export" "cannot build it here"
elif ! (cd "$tmp/strip" && LD_PROFILE=libs.so.1 LD_PROFILE_OUTPUT="$tmp/strip" ./prog >/dev/null) ||
	[ ! -s "$tmp/strip/libs.so.1.profile" ]; then
	skip_check "a stripped library's local code before its first export" "no LD_PROFILE output here"
else
	"$GMON2CG" -o "$tmp/strip.cg" "$tmp/strip/prog" "$tmp/strip/libs.so.1.profile" 2>"$tmp/err"
	# (the head's share of all self time in percent, and the calls of s_api2)
	read -r share calls < <("$PYTHON3" "$srcdir/tests/lib/callgrind_model.py" --json \
		"$tmp/strip.cg" 2>/dev/null | "$PYTHON3" -c '
import json, sys
d = json.load(sys.stdin)
f = d["functions"]
head = f.get("<unknown code before s_api2>", {}).get("self", 0)
print(100 * head // max(sum(g["self"] for g in f.values()), 1),
      sum(a["count"] for a in d["arcs"] if a["callee"] == "s_api2"))')
	[ "${share:-0}" -ge 90 ] && [ "$calls" = 1 ] &&
		ok "a stripped library: its local code before its first export is <unknown code before s_api2> (${share} % of the time)" ||
		not_ok "a stripped library's local code: ${share:-no} % of the time, ${calls:-no} calls of s_api2; $(cat "$tmp/err")"
fi
finish
