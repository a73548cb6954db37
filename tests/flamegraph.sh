#!/bin/bash
# flamegraph.sh -- --format=svg: the flame graph of every fixture is XML
# that xmllint accepts, self-contained (nothing fetched), and has
# speedscope's numbers: the frames of --format=speedscope's stacks,
# totals and self times alike, adding up (tests/lib/check_flamegraph.py).
# Headless Chromium opens a few and checks from the page
# (tests/lib/flamegraph-checks.js) that the frames are drawn as wide as
# their times, the titles carry them, and hovering, searching and
# zooming work; its screenshots (tests/flamegraph-*.png) are the guide's.
# --compare --svg's differential flame graph of fixtures/compare (base
# against slower) is checked against the comparison's text report and
# JUnit XML (tests/lib/check_flamegraph_diff.py: titles with the report's
# numbers, fills by verdict, gated functions outlined, widths adding up to
# the new side's total), by xmllint, and in Chromium likewise
# (tests/flamegraph-diff.png).
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "${PYTHON3:-}" ] || skip "python3 not found"
check=$(cd "${srcdir:-.}/tests/lib" && pwd)/check_flamegraph.py
checks_js=$srcdir/tests/lib/flamegraph-checks.js
browser=$(command -v chromium || command -v chromium-browser || true)
xmllint=$(command -v xmllint || true)
[ -n "$xmllint" ] || skip_check "xmllint accepts the SVGs" "xmllint not installed (libxml2-utils)"

# in_browser SVG HOT PNG: the SVG with the page's checks (HOT a frame's
# name), its DOM once they ran, in $tmp/page.dom; a screenshot of SVG
# itself in PNG.
in_browser() {
	local page=$tmp/page.svg height
	{ sed '$d' "$1"; sed "s/HOT/'$2'/g" "$checks_js"; echo '</svg>'; } >"$page"
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/chromium" --dump-dom "file://$page" \
		2>/dev/null >"$tmp/page.dom"
	height=$(sed -n 's/.*<svg [^>]* height="\([0-9]*\)".*/\1/p' "$1" | head -n 1)
	height=${height:-400}
	# (headless Chromium's page is about 90 pixels shorter than the
	# window it is given: a taller window, then the SVG's part of it)
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/chromium" --hide-scrollbars \
		--window-size="1200,$((height + 200))" --screenshot="$tmp/window.png" \
		"file://$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" >/dev/null 2>&1
	if command -v convert >/dev/null && convert -version 2>/dev/null | grep -q ImageMagick; then
		convert "$tmp/window.png" -crop "1200x$height+0+0" +repage "$3"
	else
		mv "$tmp/window.png" "$3"
	fi
}

# well_formed_alone NAME SVG: xmllint accepts SVG, and it fetches nothing.
well_formed_alone() {
	if [ -n "$xmllint" ]; then
		"$xmllint" --noout "$2" 2>"$tmp/xmllint.err"
		check "$1: xmllint accepts the SVG"
		diag <"$tmp/xmllint.err"
	fi
	! grep -Eq '(href|src)=|url\(|@import' "$2"
	check "$1: the SVG fetches nothing (no href, src, url() or @import)"
}

# (the memcheck and sanitizer passes need the code paths once: three
# native fixtures, a cycle and C++ names among them)
names=$(fixture_names)
[ -z "$paths_only" ] || names="calltree cycle cxx"
for name in $names; do
	exe=$FIXTURES/$name/prog gmon=$FIXTURES/$name/gmon.out out=$(out_name "$name")
	svg=${out%.cg}.svg json=${out%.cg}.json
	"$GMON2CG" --format=svg -o "$svg" "$exe" "$gmon" 2>/dev/null &&
		"$GMON2CG" --format=speedscope -o "$json" "$exe" "$gmon" 2>/dev/null ||
		{ not_ok "$name: converts to svg and speedscope"; continue; }
	well_formed_alone "$name" "$svg"
	"$PYTHON3" "$check" "$svg" "$json" 2>"$tmp/check.err"
	check "$name: speedscope's frames and numbers, adding up, each title carrying them"
	head -n 5 "$tmp/check.err" | diag
done

# In a real browser: the fixture of fixtures/compare (hot_a), one with a
# cycle, and a C++ one (names with < and >).
cmp=$FIXTURES/compare
top=$(cd "$FIXTURES/.." && pwd)
if [ -z "$browser" ]; then
	skip_check "the flame graphs in Chromium" "chromium not installed"
else
	set -- compare/base hot_a cycle '<cycle 1>' cxx main
	while [ $# -ge 2 ]; do
		name=$1 hot=$2
		shift 2
		# (named from the source tree's top, as the guide's screenshots show them)
		exe=fixtures/$name/prog gmon=fixtures/$name/gmon.out
		[ "$name" = compare/base ] && gmon=fixtures/compare/base/gmon.01.out
		[ -f "$top/$gmon" ] || { skip_check "$name in Chromium" "no profile"; continue; }
		svg=$tmp/browser.svg json=$tmp/browser.json png=$builddir/tests/flamegraph-${name//\//-}.png
		(cd "$top" && "$GMON2CG" --format=svg --prefix-map=.=fixtures -o "$svg" "$exe" "$gmon" 2>/dev/null &&
			"$GMON2CG" --format=speedscope --prefix-map=.=fixtures -o "$json" "$exe" "$gmon" 2>/dev/null)
		in_browser "$svg" "$hot" "$png"
		"$PYTHON3" "$check" "$svg" "$json" "$tmp/page.dom" 2>"$tmp/check.err"
		check "$name in Chromium: frames drawn as wide as their times, titles with speedscope's numbers, hover, search and zoom work"
		head -n 5 "$tmp/check.err" | diag
		[ -s "$png" ]
		check "$name: a screenshot, $png"
	done
fi

# --compare --svg: the differential flame graph (5 runs a side)
diff_check=$(dirname "$check")/check_flamegraph_diff.py
runs=5
[ -z "$paths_only" ] || runs=2
for side in base slower; do
	list=
	for n in $(seq -w 1 $runs); do
		(cd "$top" && "$GMON2CG" --prefix-map=.=fixtures -o "$tmp/$side.$n.cg" \
			fixtures/compare/$side/prog fixtures/compare/$side/gmon.$(printf %02d "$n").out 2>/dev/null)
		list=${list:+$list,}$side.$n.cg
	done
	eval "${side}_cgs=\$list"
done
svg=$tmp/diff.svg
(cd "$tmp" && "$GMON2CG" --compare --svg="$svg" --junit=diff.xml "$base_cgs" "$slower_cgs" >diff.txt 2>&1)
[ $? = 3 ] && [ -s "$svg" ]
check "--compare --svg: a differential flame graph, the gate failing"
well_formed_alone differential "$svg"
"$PYTHON3" "$diff_check" "$svg" "$tmp/diff.txt" "$tmp/diff.xml" 2>"$tmp/check.err"
check "differential: titles with the report's numbers, fills by verdict, gates outlined, widths adding up"
head -n 5 "$tmp/check.err" | diag
if [ -z "$browser" ]; then
	skip_check "the differential flame graph in Chromium" "chromium not installed"
else
	png=$builddir/tests/flamegraph-diff.png
	in_browser "$svg" hot_a "$png"
	"$PYTHON3" "$diff_check" "$svg" "$tmp/diff.txt" "$tmp/diff.xml" "$tmp/page.dom" 2>"$tmp/check.err"
	check "differential in Chromium: frames as wide as their times, the report's numbers, hover, search and zoom work"
	head -n 5 "$tmp/check.err" | diag
	[ -s "$png" ]
	check "differential: a screenshot, $png"
fi
expect 2 "-o and --svg both to standard output" \
	"$GMON2CG" --compare --svg=- -o - "$tmp/base.1.cg" "$tmp/slower.1.cg"
expect 2 "is an option of --compare" \
	"$GMON2CG" --svg="$tmp/x.svg" "$cmp/base/prog" "$cmp/base/gmon.01.out"

expect 2 "--parts is for KCachegrind's Parts view; --format=svg writes one profile" \
	"$GMON2CG" --format=svg --parts "$cmp/base/prog" "$cmp/base/gmon.01.out"
expect 2 "unknown output format 'png': callgrind, speedscope or svg" \
	"$GMON2CG" --format=png "$cmp/base/prog" "$cmp/base/gmon.01.out"
expect 1 'write error' "$GMON2CG" --format=svg -o /dev/full "$cmp/base/prog" "$cmp/base/gmon.01.out"

finish
