#!/bin/bash
# kcachegrind.sh -- the real KCachegrind loads every converted fixture, with
# Cycle Detection on and off, a gzip-compressed and a two-part profile,
# and a program with a shared library's LD_PROFILE profile,
# without one loader message (tests/lib/kcg-check runs it on a private
# Xvfb display).  The screenshots, with KCachegrind's stderr and the
# profiles, stay in tests/screenshots/ of the build tree for people to see.
. "${srcdir:-.}/tests/test-lib.sh"

missing=$(kcachegrind_missing)
[ -z "$missing" ] || skip "$missing not installed (Debian: kcachegrind xvfb xdotool imagemagick)"
shots=$builddir/tests/screenshots
rm -rf "$shots"
mkdir -p "$shots"

# shot NAME KCG-CHECK-ARGS...: one check that KCachegrind loads the
# profile(s) with no loader message; the screenshot is $shots/NAME.png.
shot() {
	kcg_loads "$1" "$shots/$1.png" "${@:2}"
}

for name in $(all_fixture_names); do
	base=$(echo "$name" | tr / -)
	"$GMON2CG" -o "$shots/$base.cg" "$FIXTURES/$name/prog" "$FIXTURES/$name/gmon.out" ||
		{ not_ok "$name: conversion failed"; continue; }
	for cycles in on off; do
		# (the memcheck and sanitizer passes need each conversion, not
		# each viewer load again: one load a fixture, none for the
		# other architectures' outputs, whose shape the plain pass
		# loaded)
		if [ -n "$paths_only" ] && { [ "$cycles" = off ] || [ "${name#cross/}" != "$name" ]; }; then
			continue
		fi
		shot "$base-cycles-$cycles" --cycles "$cycles" --absolute "$shots/$base.cg"
	done
done

# A gzip-compressed profile, and one with two parts (the Parts tab lists
# both).
exe=$FIXTURES/cycle/prog gmon=$FIXTURES/cycle/gmon.out
"$GMON2CG" -o "$shots/gzip.cg.gz" "$exe" "$gmon"; check "gzip output"
shot gzip "$shots/gzip.cg.gz"
"$GMON2CG" --parts -o "$shots/parts.cg" "$exe" "$gmon" "$gmon"; check "--parts output"
shot parts --bottom parts "$shots/parts.cg"

# A shared library's LD_PROFILE profile beside the program's gmon.out: two
# objects in one file, sources found through --prefix-map.
ld=$FIXTURES/ldprofile
"$GMON2CG" --prefix-map=.="$FIXTURES" -o "$shots/ldprofile.cg" "$ld/prog-pg" \
	"$ld/pg/gmon.out" "$ld/pg/libmix.so.1.profile"
check "program and library output"
shot ldprofile --function mix_block --top callers --bottom callgraph "$shots/ldprofile.cg"
finish
