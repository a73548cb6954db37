#!/bin/bash
# cross.sh -- profiles of other architectures (fixtures/cross: powerpc,
# s390x, armhf, arm64, i386; both byte orders, 32 and 64 bits) convert with
# gprof's numbers in the BSD layouts too (gprof.sh compares the tagged
# files).  Needs a libbfd that reads foreign targets (Debian:
# binutils-multiarch-dev) and the matching gprof.
. "${srcdir:-.}/tests/test-lib.sh"

[ "$BFD_MULTIARCH" = yes ] || skip "this libbfd reads only the host's targets (install binutils-multiarch-dev)"
[ -n "$GPROF" ] && [ -n "$PYTHON3" ] || skip "gprof or python3 not found"
export GPROF
compare="$PYTHON3 $srcdir/tests/lib/compare_gprof.py"
for dir in "$FIXTURES"/cross/*/; do
	arch=$(basename "$dir") exe=$dir/prog gmon=$dir/gmon.out
	[ -f "$exe" ] || continue
	for layout in bsd-old bsd44; do
		bsd=$tmp/$arch-$layout
		{ $PYTHON3 "$srcdir/tests/lib/gmon_rewrite.py" $layout "$exe" "$gmon" "$bsd.out" &&
			"$GMON2CG" -o "$bsd.cg" "$exe" "$bsd.out" &&
			$compare --cg "$bsd.cg" --exact-gmon "$gmon" "$exe" "$bsd.out"; } >"$tmp/log" 2>&1 &&
			ok "$arch $layout agrees with gprof" ||
			{ not_ok "$arch: $layout layout differs from gprof"; diag <"$tmp/log"; }
	done
done
finish
