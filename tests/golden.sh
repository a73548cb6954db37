#!/bin/bash
# golden.sh -- every byte gmon2cg writes, pinned: each conversion listed in
# tests/golden/LIST must give tests/golden/NAME.cg (NAME.json with
# --format=speedscope) exactly, once the
# executable's absolute path (the only part that depends on where the
# checkout is) is replaced by @EXE@ and the version in the creator:
# line (or speedscope's exporter) by @VERSION@, so that a release does not
# rewrite them.  "make golden" rewrites the files
# (G2C_GOLDEN_UPDATE=1); the diff then shows what a change moved.
. "${srcdir:-.}/tests/test-lib.sh"

golden=$srcdir/tests/golden
fixtures_real=$(cd "$FIXTURES" && pwd -P)
# (make golden runs this script without the harness's PACKAGE_VERSION)
version=${PACKAGE_VERSION:-$("$GMON2CG" --version | sed -n '1s/^gmon2cg //p')}
version_re=$(printf '%s' "$version" | sed 's/[.]/[.]/g')
while read -r name fixture args; do
	case $name in '#'* | '') continue ;; esac
	if [ ! -f "$FIXTURES/$fixture/prog" ]; then
		not_ok "$name: no fixture $fixture"
		continue
	fi
	ext=cg
	case " $args " in *" --format=speedscope "*) ext=json ;; esac
	case $fixture in cross/*) [ "${BFD_MULTIARCH:-no}" = yes ] || {
		skip_check "$name" "this libbfd reads only the host's targets"; continue; } ;; esac
	# Relative input paths, so the desc: line is the same in every checkout.
	# shellcheck disable=SC2086 # ARGS is a list of words
	(cd "$FIXTURES/.." && "$GMON2CG" $args -o "$tmp/$name.raw" \
		"fixtures/$fixture/prog" "fixtures/$fixture/gmon.out") ||
		{ not_ok "$name: conversion failed"; continue; }
	sed -e "s|$fixtures_real/$fixture/prog|@EXE@|g" \
		-e "s/^creator: gmon2cg $version_re\$/creator: gmon2cg @VERSION@/" \
		-e "s/\"exporter\":\"gmon2cg $version_re\"/\"exporter\":\"gmon2cg @VERSION@\"/" \
		"$tmp/$name.raw" >"$tmp/$name.$ext"
	if [ -n "${G2C_GOLDEN_UPDATE:-}" ]; then
		cp "$tmp/$name.$ext" "$golden/$name.$ext"
		ok "$name: written"
	elif cmp -s "$golden/$name.$ext" "$tmp/$name.$ext"; then
		ok "$name: identical"
	else
		not_ok "$name: differs from tests/golden/$name.$ext"
		diff -u "$golden/$name.$ext" "$tmp/$name.$ext" | head -40 | diag
	fi
done <"$golden/LIST"
finish
