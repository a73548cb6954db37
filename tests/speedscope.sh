#!/bin/bash
# speedscope.sh -- speedscope's callgrind importer, run in headless
# Chromium, loads a --no-instr profile: its sandwich table lists the
# functions with self time and the program's total; the default
# "positions: instr line" file it cannot read (it takes the line column
# for the cost).  Needs chromium and the npm package speedscope (found
# with "npm root -g", or SPEEDSCOPE_DIR naming the package).
. "${srcdir:-.}/tests/test-lib.sh"

browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || skip "chromium not installed"
dir=${SPEEDSCOPE_DIR:-$(npm root -g 2>/dev/null)/speedscope}
index=$dir/dist/release/index.html
[ -f "$index" ] || skip "speedscope not installed (npm install -g speedscope)"

# sandwich PROFILE: the DOM of speedscope's sandwich view of PROFILE.
sandwich() {
	local js=$tmp/$(basename "$1").js
	printf 'speedscope.loadFileFromBase64("%s", "%s")\n' "$(basename "$1")" \
		"$(base64 -w0 "$1")" >"$js"
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
		--allow-file-access-from-files --virtual-time-budget=8000 \
		--user-data-dir="$tmp/chromium" --dump-dom \
		"file://$index#localProfilePath=$js&view=sandwich" 2>/dev/null
}

# self_costly PROFILE: the functions with self cost in PROFILE (names
# without spaces, as in these fixtures), beyond the few ns of markers
# that functions never sampled carry for their calls.
self_costly() {
	awk '/^c?fn=/ { id = $1; sub(/^c?fn=/, "", id)
			if (NF > 1) name[id] = $2 }
	     /^fn=/ { cur = name[id] }
	     /^calls=/ { call = 1; next }
	     /^[0-9+*-]/ { if (!call && $NF >= 1000) print cur; call = 0 }' "$1" | sort -u
}

for name in interp cycle; do
	exe=$FIXTURES/$name/prog gmon=$FIXTURES/$name/gmon.out out=$(out_name "$name")
	"$GMON2CG" --no-instr -o "$out" "$exe" "$gmon" || { not_ok "$name: conversion failed"; continue; }
	sandwich "$out" >"$tmp/$name.dom"
	total=$(sed -n 's/^summary: //p' "$out" | sed ':a; s/\B[0-9]\{3\}\b/,&/; ta')
	grep -qF "$total (100%)" "$tmp/$name.dom" || not_ok "$name: total $total not shown"
	missing=
	for fn in $(self_costly "$out"); do
		grep -qF ">$fn<" "$tmp/$name.dom" || missing="$missing $fn"
	done
	[ -z "$missing" ] && ok "$name: speedscope shows every function with self time" ||
		not_ok "$name: speedscope lacks$missing"
done

# What --no-instr is for: the default file shows no function at all.
"$GMON2CG" -o "$tmp/instr.cg" "$FIXTURES/interp/prog" "$FIXTURES/interp/gmon.out"
sandwich "$tmp/instr.cg" >"$tmp/instr.dom"
grep -qF ">lookup_variable<" "$tmp/instr.dom" && not_ok "speedscope read positions: instr line" ||
	ok "speedscope cannot read positions: instr line"
finish
