#!/bin/bash
# cross.sh -- profiles of other architectures (fixtures/cross: thirteen
# architectures, both byte orders, 32 and 64 bits, static and dynamic
# builds) convert with gprof's numbers in the BSD layouts too (gprof.sh
# compares the tagged files); on every one a valid profile converts with
# nothing on stderr and every arc checked against the code, and a profile
# of another build of the program (stale-prog) is refused.  Needs a
# libbfd that reads foreign targets (Debian: binutils-multiarch-dev) and
# the matching gprof.
. "${srcdir:-.}/tests/test-lib.sh"

[ "$BFD_MULTIARCH" = yes ] || skip "this libbfd reads only the host's targets (install binutils-multiarch-dev)"
[ -n "$GPROF" ] && [ -n "$PYTHON3" ] || skip "gprof or python3 not found"
export GPROF
compare="$PYTHON3 $srcdir/tests/lib/compare_gprof.py"
for dir in "$FIXTURES"/cross/*/; do
	arch=$(basename "$dir") exe=$dir/prog gmon=$dir/gmon.out
	[ -f "$exe" ] || continue
	# (the memcheck and sanitizer passes: the BSD layouts' readers once
	# for each byte order and address size)
	case $arch in powerpc|s390x|armhf|arm64) ;; *) [ -z "$paths_only" ] || continue ;; esac
	for layout in bsd-old bsd44; do
		bsd=$tmp/$arch-$layout
		{ $PYTHON3 "$srcdir/tests/lib/gmon_rewrite.py" $layout "$exe" "$gmon" "$bsd.out" &&
			"$GMON2CG" -o "$bsd.cg" "$exe" "$bsd.out" &&
			$compare --cg "$bsd.cg" --exact-gmon "$gmon" "$exe" "$bsd.out"; } >"$tmp/log" 2>&1 &&
			ok "$arch $layout agrees with gprof" ||
			{ not_ok "$arch: $layout layout differs from gprof"; diag <"$tmp/log"; }
	done
done

# The stale check on every architecture: no false alarm on the valid
# profile, a refusal of the build with hot_leaf one loop longer.
for dir in "$FIXTURES"/cross/*/ "$FIXTURES"/cross/ppc64/static/; do
	[ -f "$dir/stale-prog" ] || continue
	name=${dir#"$FIXTURES"/} name=${name%/}
	case $name in cross/hppa-dynamic) ;;
	cross/*-dynamic) [ -z "$paths_only" ] || continue ;; esac
	"$GMON2CG" --stats --prefix-map=.="$FIXTURES" -o "$tmp/valid.cg" "$dir/prog" "$dir/gmon.out" 2>"$tmp/err"
	status=$? arcs=$(sed -n 's/^gmon2cg: stats: call arcs checked against the code: \([0-9]*\); not where calls return: 0$/\1/p' "$tmp/err")
	[ $status -eq 0 ] && [ -z "$(grep -v '^gmon2cg: stats: ' "$tmp/err")" ] && [ "${arcs:-0}" -ge 9 ] &&
		ok "$name: valid, every one of its $arcs arcs where a call returns" ||
		{ not_ok "$name: the valid profile (exit $status)"; diag <"$tmp/err"; }
	"$GMON2CG" -o "$tmp/stale.cg" "$dir/stale-prog" "$dir/gmon.out" 2>"$tmp/err"
	[ $? -eq 1 ] && [ ! -e "$tmp/stale.cg" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -q "does not belong to .*stale-prog" "$tmp/err" &&
		ok "$name: another build's profile refused" ||
		{ not_ok "$name: stale-prog not refused"; diag <"$tmp/err"; }
done

# A static 64-bit PowerPC (ELFv1) program: its code symbols come from the
# function descriptors.  gprof drops the local ones and credits the call of
# main from __libc_start_call_main to cyc_ping, the function before it,
# which puts main in <cycle 1> (doc/guide/03-deviations.md); gmon2cg
# keeps the caller, and every other number agrees.
ppc=$FIXTURES/cross/ppc64/static
if [ -f "$ppc/prog" ]; then
	"$GMON2CG" -o "$tmp/ppc.cg" "$ppc/prog" "$ppc/gmon.out"
	$PYTHON3 "$srcdir/tests/lib/callgrind_model.py" --json "$tmp/ppc.cg" >"$tmp/ppc.json"
	$PYTHON3 - "$tmp/ppc.json" <<'PY' >"$tmp/log" 2>&1 &&
import json, sys
d = json.load(open(sys.argv[1]))
arcs = {(a["caller"], a["callee"]): a["count"] for a in d["arcs"]}
want = {(".__libc_start_call_main", ".main"): 1, (".main", ".mid_alpha"): 1,
        (".mid_alpha", ".hot_leaf"): 120, (".mid_beta", ".hot_leaf"): 40,
        (".main", ".rec_descend"): 8, (".rec_descend", ".rec_descend"): 192,
        (".main", ".cyc_ping"): 6, (".cyc_ping", ".cyc_pong"): 60,
        (".cyc_pong", ".cyc_ping"): 54}
bad = {k: (arcs.get(k), v) for k, v in want.items() if arcs.get(k) != v}
cyc = sorted(n for n, f in d["functions"].items() if f["cycle"])
assert not bad, bad
assert cyc == [".cyc_ping", ".cyc_pong"], cyc
PY
		ok "static ppc64: main called by __libc_start_call_main, in no cycle" ||
		{ not_ok "static ppc64: arcs or cycle"; diag <"$tmp/log"; }
	"$GPROF" -b -q "$ppc/prog" "$ppc/gmon.out" | grep -q '\.main <cycle 1>' &&
		ok "static ppc64: gprof puts main in <cycle 1> (its deviation)" ||
		not_ok "static ppc64: gprof no longer puts main in <cycle 1>: update the guide"
fi
finish
