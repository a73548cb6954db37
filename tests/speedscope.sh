#!/bin/bash
# speedscope.sh -- speedscope, run in headless Chromium.  Its own file
# format (--format=speedscope): the sandwich view shows gprof's self time
# for every function, and gprof's self + children as the total of every
# function (of a cycle member: its line in the cycle's entry) and of each
# cycle (tests/lib/check_speedscope.py).
# Its callgrind importer loads a --no-instr profile: its sandwich table
# lists the functions with self time and the program's total; the default
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
	# (tall, so that the sandwich table, which renders only the rows in
	# view, has every row; again when a loaded machine left the page
	# without its table's rows: the first row is the 100 % one)
	for _ in 1 2 3 4 5; do
		timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
			--allow-file-access-from-files --virtual-time-budget=8000 \
			--window-size=1280,4000 \
			--user-data-dir="$tmp/chromium" --dump-dom \
			"file://$index#localProfilePath=$js&view=sandwich" \
			2>/dev/null >"$tmp/page.dom"
		grep -q "(100%)" "$tmp/page.dom" && break
	done
	cat "$tmp/page.dom"
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

# speedscope's own format: gprof's figures in the sandwich view, where its
# callgrind importer (above) gets every function in a cycle wrong.
for name in interp cycle; do
	exe=$FIXTURES/$name/prog gmon=$FIXTURES/$name/gmon.out
	if [ -z "$GPROF" ] || [ -z "$PYTHON3" ]; then
		skip_check "$name: --format=speedscope against gprof" "gprof or python3 not found"
		continue
	fi
	"$GMON2CG" --format=speedscope -o "$tmp/$name.json" "$exe" "$gmon" 2>/dev/null &&
		"$GMON2CG" -o "$tmp/$name-check.cg" "$exe" "$gmon" 2>/dev/null ||
		{ not_ok "$name: --format=speedscope failed"; continue; }
	sandwich "$tmp/$name.json" >"$tmp/$name-json.dom"
	GPROF=$GPROF $PYTHON3 "$srcdir/tests/lib/check_speedscope.py" \
		--cg "$tmp/$name-check.cg" "$tmp/$name-json.dom" "$exe" "$gmon" >"$tmp/log" &&
		ok "$name: speedscope's sandwich view of --format=speedscope is gprof's" ||
		{ not_ok "$name: speedscope's sandwich view differs from gprof"; diag <"$tmp/log"; }
done

# What --no-instr is for: the default file shows no function at all.
"$GMON2CG" -o "$tmp/instr.cg" "$FIXTURES/interp/prog" "$FIXTURES/interp/gmon.out"
sandwich "$tmp/instr.cg" >"$tmp/instr.dom"
grep -qF ">lookup_variable<" "$tmp/instr.dom" && not_ok "speedscope read positions: instr line" ||
	ok "speedscope cannot read positions: instr line"
finish
