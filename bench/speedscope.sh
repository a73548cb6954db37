#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# speedscope.sh -- gmon2cg --format=speedscope on a big program: the file's
# size, the time to write it, and how long speedscope takes in headless
# Chromium to show it (sandwich and flame graph views), next to the
# --no-instr callgrind file; then speedscope_check.py's comparison of the
# two files (self times exact, totals outside cycles).
#
#   bench/speedscope.sh [DIR]
#
# DIR holds prog and gmon.out (default bench/work/f50000).  Needs chromium
# and the npm package speedscope ("npm root -g", or SPEEDSCOPE_DIR).  The
# load time is measured in the page, from the call that hands speedscope
# the file to the first row (or the flame graph's canvas) on screen.
set -euo pipefail

bench=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$bench/work/f50000}
gmon2cg=${GMON2CG:-$bench/../gmon2cg}
browser=$(command -v chromium || command -v chromium-browser)
index=${SPEEDSCOPE_DIR:-$(npm root -g)/speedscope}/dist/release/index.html
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shown_after FILE VIEW: milliseconds from loading FILE to VIEW on screen.
shown_after() {
	local js=$tmp/load.js
	{
		echo 'var t0 = performance.now();'
		printf 'speedscope.loadFileFromBase64("%s", "%s");\n' "$(basename "$1")" "$(base64 -w0 "$1")"
		echo 'var poll = setInterval(function () {'
		echo '  if (document.querySelector("tr td, canvas")) {'
		echo '    document.body.setAttribute("data-shown-after-ms", String(Math.round(performance.now() - t0)));'
		echo '    clearInterval(poll); } }, 5);'
	} >"$js"
	timeout 300 "$browser" --headless --no-sandbox --disable-gpu \
		--allow-file-access-from-files --timeout=30000 --window-size=1280,1000 \
		--user-data-dir="$tmp/chromium" --dump-dom \
		"file://$index#localProfilePath=$js&view=$2" 2>/dev/null |
		sed -n 's/.*data-shown-after-ms="\([0-9]*\)".*/\1/p'
}

for format in speedscope callgrind; do
	case $format in
	speedscope) out=$tmp/profile.json args=--format=speedscope ;;
	callgrind) out=$tmp/profile.cg args=--no-instr ;;
	esac
	start=$(date +%s.%N)
	"$gmon2cg" "$args" -o "$out" "$dir/prog" "$dir/gmon.out" 2>/dev/null
	end=$(date +%s.%N)
	printf '%-10s %9d bytes, written in %.2f s; shown after: sandwich %s ms, flame graph %s ms\n' \
		"$format" "$(stat -c %s "$out")" "$(awk "BEGIN { print $end - $start }")" \
		"$(shown_after "$out" sandwich)" "$(shown_after "$out" flamegraph)"
done
python3 "$bench/speedscope_check.py" "$tmp/profile.json" "$tmp/profile.cg"
