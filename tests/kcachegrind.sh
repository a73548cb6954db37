#!/bin/bash
# kcachegrind.sh -- the real KCachegrind loads every converted fixture with
# no loader message, and its status bar total is the file's summary.
# Needs KCG_SHOT (the kcg-shot script) and KCachegrind with Xvfb.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "${KCG_SHOT:-}" ] && [ -x "$KCG_SHOT" ] || skip "KCG_SHOT does not name the kcg-shot script"
command -v kcachegrind >/dev/null && command -v Xvfb >/dev/null ||
	skip "kcachegrind or Xvfb not installed"
for name in $(all_fixture_names); do
	out=$(out_name "$name")
	"$GMON2CG" -o "$out" "$FIXTURES/$name/prog" "$FIXTURES/$name/gmon.out" ||
		{ not_ok "$name: conversion failed"; continue; }
	"$KCG_SHOT" --absolute "$out" "${out%.cg}.png" >"${out%.cg}.info" 2>&1
	st=$?
	if [ "$st" -ne 0 ]; then
		not_ok "$name: kcg-shot exit $st"
		cat "${out%.cg}.info"
		continue
	fi
	msgs=$(grep -c '^Loading "' "${out%.cg}.stderr.txt")
	if [ "$msgs" -ne 0 ]; then
		not_ok "$name: $msgs loader messages"
		grep '^Loading "' "${out%.cg}.stderr.txt" | head -5
	else
		ok "$name: loaded with no loader messages"
	fi
done
finish
