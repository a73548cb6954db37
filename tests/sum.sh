#!/bin/bash
# sum.sh -- what "gprof -s" writes (fixtures/sum, fixtures/regen-sum.sh):
# gmon.sum in the tagged, 4.4BSD and old BSD formats, a sum of a sum, and a sum
# named with raw profiles convert with gprof's numbers, saying once in
# --stats that the summed arcs' call sites are unknown and placing each at
# the line gprof recorded; a sum of a profile of another build is still
# refused; a sum's arcs tell which functions ran, as mcount's do.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$PYTHON3" ] || skip "python3 not found"
[ -n "$GPROF" ] || skip "gprof not found (install binutils)"
sum=$FIXTURES/sum
compare="$PYTHON3 $srcdir/tests/lib/compare_gprof.py"
export GPROF

# agrees NAME EXACT EXE GMON...: converted without a word on stderr (the
# sources in $srcs), with gprof's numbers (EXACT: a tagged twin for the
# exact samples, or "").
srcs=$FIXTURES
agrees() {
	local name=$1 exact=$2 exe=$3
	shift 3
	if ! "$GMON2CG" --prefix-map=.="$srcs" -o "$tmp/$name.cg" "$exe" "$@" 2>"$tmp/err"; then
		not_ok "$name: refused: $(cat "$tmp/err")"
	elif [ -s "$tmp/err" ]; then
		not_ok "$name: stderr: $(cat "$tmp/err")"
	elif $compare --cg "$tmp/$name.cg" ${exact:+--exact-gmon "$exact"} "$exe" "$@" >"$tmp/log"; then
		ok "$name converts with gprof's numbers"
	else
		not_ok "$name differs from gprof"
		diag <"$tmp/log"
	fi
}

agrees calltree.sum "" "$FIXTURES/calltree/prog" "$sum/calltree.sum"
agrees cycle.sum "" "$FIXTURES/cycle/prog" "$sum/cycle.sum"
agrees calltree.sum.sum "" "$FIXTURES/calltree/prog" "$sum/calltree.sum.sum"
for os in freebsd freebsd-i386; do
	srcs=$FIXTURES/bsd agrees $os.4.4bsd.sum "$sum/$os.sum" "$FIXTURES/bsd/$os/prog" "$sum/$os.4.4bsd.sum"
done
# the old BSD header (no rate: 100 Hz, as gprof's on Linux)
srcs=$FIXTURES/bsd agrees freebsd.bsd.sum "$sum/freebsd-100hz.sum" "$FIXTURES/bsd/freebsd/prog" "$sum/freebsd.bsd.sum"
# gprof itself sums a sum with raw profiles: so do we.
agrees calltree.sum+gmon.out "" "$FIXTURES/calltree/prog" "$sum/calltree.sum" "$FIXTURES/calltree/gmon.out"

# --stats says it once; the raw profile's arcs are still checked.
"$GMON2CG" --stats -o /dev/null "$FIXTURES/calltree/prog" "$sum/calltree.sum" "$FIXTURES/calltree/gmon.out" 2>"$tmp/stats"
[ "$(grep -c 'call sites are unknown' "$tmp/stats")" -eq 1 ] &&
	grep -q "^gmon2cg: stats: call arcs summed by gprof -s: 9; their call sites are unknown" "$tmp/stats" &&
	grep -q "^gmon2cg: stats: call arcs checked against the code: 9; not where calls return: 0$" "$tmp/stats"
check "--stats: 9 summed arcs said once, the raw profile's 9 checked" || diag <"$tmp/stats"
"$GMON2CG" --stats -o /dev/null "$FIXTURES/calltree/prog" "$FIXTURES/calltree/gmon.out" 2>&1 |
	grep -q "summed by gprof -s"
[ $? -ne 0 ]; check "--stats says nothing of sums for a raw profile"

# Each call of the sum is at the address gprof recorded as its caller's
# (the start of the calling line); the pseudo caller's at 0.
$PYTHON3 - "$srcdir/tests/lib" "$tmp/calltree.sum.cg" "$sum/calltree.sum" <<'PY' >"$tmp/log"
import struct, sys
sys.path.insert(0, sys.argv[1])
from check_positions import positions
sites = {a for a, is_call, _, _ in positions(sys.argv[2]) if is_call and a}
data = open(sys.argv[3], "rb").read()
froms, i = set(), 20
while i < len(data):            # 64-bit little-endian tagged records
    tag = data[i]; i += 1
    if tag == 0:
        nbins = struct.unpack_from("<I", data, i + 16)[0]
        i += 40 + 2 * nbins
    elif tag == 1:
        froms.add(struct.unpack_from("<Q", data, i)[0]); i += 20
    else:
        sys.exit("tag %d" % tag)
print(sorted(map(hex, sites)), sorted(map(hex, froms)))
sys.exit(0 if sites == froms and sites else 1)
PY
check "the calls are at the lines gprof recorded" || diag <"$tmp/log"

# A sum of a profile of the earlier build does not fit the rebuilt program.
"$GMON2CG" -o "$tmp/stale.cg" "$FIXTURES/stale/refused/prog" "$sum/stale-refused.sum" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -e "$tmp/stale.cg" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "does not belong to .*--force converts anyway" "$tmp/err"
check "a sum for a rebuilt program is refused" || diag <"$tmp/err"

# A sum's arcs point at the callees' entries, where mcount never returns:
# they still tell which functions ran, so that a function that never did
# takes none of a bin it shares (fixtures/positions/neverran: spin has
# all 214 samples, unused none, in the raw file, in its sum and in gprof).
N=$FIXTURES/positions/neverran
(cd "$tmp" && "$GPROF" -s "$N/prog" "$N/gmon.out" >/dev/null 2>&1) &&
	"$GMON2CG" -o "$tmp/neverran.cg" "$N/prog" "$tmp/gmon.sum" 2>/dev/null &&
	"$PYTHON3" "$srcdir/tests/lib/callgrind_model.py" --json "$tmp/neverran.cg" >"$tmp/neverran.json" &&
	"$PYTHON3" -c '
import json, sys
f = json.load(open(sys.argv[1]))["functions"]
sys.exit(not (f["spin"]["self"] == 214 * 10000000 and "unused" not in f))' "$tmp/neverran.json"
check "a sum: the function that never ran takes no samples"
# A sum of a program with clones: gprof drops lookup.part.0,
# scale.constprop.0 and weigh.isra.0 (fixtures/positions/clones) and
# writes the calls into them at the entry of frame_dummy, the function
# before them.  The conversion folds them into frame_dummy as gprof does,
# so that the call graph is whole (main's inclusive time is all of the
# profile's), and says so once.
C=$FIXTURES/positions/clones
mkdir "$tmp/clones"
(cd "$tmp/clones" && "$GPROF" -s "$C/prog" "$C/gmon.out" >/dev/null 2>&1) &&
	"$GMON2CG" --prefix-map=.="$FIXTURES" -o "$tmp/clones.cg" "$C/prog" "$tmp/clones/gmon.sum" 2>"$tmp/err" &&
	"$PYTHON3" "$srcdir/tests/lib/callgrind_model.py" --json "$tmp/clones.cg" >"$tmp/clones.json" &&
	"$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = d["functions"]
total = sum(g["self"] for g in f.values())
assert abs(f["main"]["incl"] - total) <= 2, (f["main"]["incl"], total)
assert f["frame_dummy"]["called"] == 1134, f["frame_dummy"]
assert not any(n.endswith((".part.0", ".isra.0", ".constprop.0")) for n in f), sorted(f)' "$tmp/clones.json" 2>"$tmp/log" &&
	[ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "gmon.sum: a sum gprof -s wrote has the calls of gprof's own functions: 3 functions it does not list (such as lookup.part.0) are part of the function before" "$tmp/err"
check "a sum with clones: folded as gprof folds them, main's inclusive time whole, said once" ||
	{ diag <"$tmp/err"; diag <"$tmp/log"; }
finish
