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

# A gzip-compressed profile, and one with two parts (KCachegrind's Parts
# view): both load, and the parts keep their own totals.
exe=$FIXTURES/cycle/prog gmon=$FIXTURES/cycle/gmon.out
"$GMON2CG" -o "$tmp/z.cg.gz" "$exe" "$gmon" || not_ok "gzip output"
"$GMON2CG" --parts -o "$tmp/parts.cg" "$exe" "$gmon" "$gmon" || not_ok "--parts output"
for out in "$tmp/z.cg.gz" "$tmp/parts.cg"; do
	extra=()
	[ "${out%.gz}" = "$out" ] && extra=(--bottom parts)
	if "$KCG_SHOT" "${extra[@]}" "$out" "$out.png" >"$out.info" 2>&1 &&
		[ "$(grep -c '^Loading "' "${out}.stderr.txt")" -eq 0 ]; then
		ok "$(basename "$out") loaded with no loader messages"
	else
		not_ok "$(basename "$out") did not load cleanly"
		cat "$out.info"
	fi
done
finish
