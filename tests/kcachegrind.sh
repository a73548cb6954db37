#!/bin/bash
# kcachegrind.sh -- the real KCachegrind loads every converted fixture with
# no loader message, and its status bar total is the file's summary.
# Needs KCG_SHOT (the kcg-shot script) and KCachegrind with Xvfb.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "${KCG_SHOT:-}" ] && [ -x "$KCG_SHOT" ] || skip "KCG_SHOT does not name the kcg-shot script"
command -v kcachegrind >/dev/null && command -v Xvfb >/dev/null ||
	skip "kcachegrind or Xvfb not installed"
for name in $(fixture_names); do
	out=$tmp/$name.cg
	"$GMON2CG" -o "$out" "$FIXTURES/$name/prog" "$FIXTURES/$name/gmon.out" ||
		{ not_ok "$name: conversion failed"; continue; }
	"$KCG_SHOT" --absolute "$out" "$tmp/$name.png" >"$tmp/$name.info" 2>&1
	st=$?
	if [ "$st" -ne 0 ]; then
		not_ok "$name: kcg-shot exit $st"
		cat "$tmp/$name.info"
		continue
	fi
	msgs=$(grep -c '^Loading "' "$tmp/$name.stderr.txt")
	if [ "$msgs" -ne 0 ]; then
		not_ok "$name: $msgs loader messages"
		grep '^Loading "' "$tmp/$name.stderr.txt" | head -5
	else
		ok "$name: loaded with no loader messages"
	fi
done
finish
