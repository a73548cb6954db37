#!/bin/bash
# dwarf.sh -- compressed debug sections (fixtures/dwarf: .zdebug_* of
# gcc -gz=zlib-gnu, SHF_COMPRESSED zlib and zstd) convert exactly as their
# uncompressed twins, DWARF 4 and 5, with inlined code at its own lines
# and with --no-inline; no file name is empty, no source file is lost.
# So does a build compiled inside src/ with -ffile-prefix-map=$PWD=.
# (subdir: DW_AT_comp_dir and DWARF 5's directory entry 0 both ./src),
# whose files are ./src/NAME, as the plain build's, not ./src/./src/NAME.
. "${srcdir:-.}/tests/test-lib.sh"

# body FILE: the profile without the lines that name the input files.
body() { grep -v '^cmd: \|^ob=\|^desc: Trigger: ' "$1"; }

# empty_names FILE: the file-name lines that name nothing: "cfi=(3) " at
# a first use, or an id used before any line gave it a name.
empty_names() {
	awk '/^c?f[ile]=\([0-9]+\)/ {
		id = $1; sub(/=.*/, "", id); n = $1; sub(/^[^(]*/, "", n)
		name = $0; sub(/^[^)]*\) ?/, "", name)
		if (name != "") named[n] = 1; else if (!(n in named)) print
	}' "$1"
}

checked=0
for version in 4 5; do
	plain=$FIXTURES/dwarf/plain-$version
	for variant in zlib-gnu zlib zstd subdir; do
		dir=$FIXTURES/dwarf/$variant-$version
		[ -f "$dir/prog" ] || continue
		for opt in "" --no-inline; do
			what="$variant-$version${opt:+ $opt}"
			"$GMON2CG" $opt --prefix-map=.="$FIXTURES" -o "$tmp/plain.cg" "$plain/prog" "$plain/gmon.out" 2>"$tmp/err" &&
				[ ! -s "$tmp/err" ] || { not_ok "$what: plain twin: $(cat "$tmp/err")"; continue; }
			"$GMON2CG" $opt --prefix-map=.="$FIXTURES" -o "$tmp/z.cg" "$dir/prog" "$dir/gmon.out" 2>"$tmp/err" &&
				[ ! -s "$tmp/err" ] || { not_ok "$what: $(head -1 "$tmp/err")"; continue; }
			grep -q "^c\?f[il]=([0-9]*) $FIXTURES/src/calltree\.c$" "$tmp/plain.cg" ||
				not_ok "$what: the plain twin names no $FIXTURES/src/calltree.c"
			# ("calls=N 0xADDR LINE": the callee's entry line)
			awk '/^calls=[0-9]+ 0x[0-9a-f]+ [1-9]/ { found = 1 } END { exit !found }' "$tmp/z.cg" ||
				not_ok "$what: no entry line"
			[ -z "$(empty_names "$tmp/z.cg")" ] || not_ok "$what: empty file names: $(empty_names "$tmp/z.cg" | head -3)"
			if cmp -s <(body "$tmp/plain.cg") <(body "$tmp/z.cg"); then
				ok "$what converts as plain DWARF $version"
			else
				not_ok "$what converts differently from plain DWARF $version:"
				diff <(body "$tmp/plain.cg") <(body "$tmp/z.cg") | head -10
			fi
			checked=$((checked + 1))
		done
	done
done
[ "$checked" = 16 ] || not_ok "only $checked of 16 conversions found"

# The fixtures are what they claim: compressed, each in its own way.
if command -v readelf >/dev/null; then
	for version in 4 5; do
		readelf -SW "$FIXTURES/dwarf/zlib-gnu-$version/prog" | grep -q ' \.zdebug_line ' ||
			not_ok "zlib-gnu-$version has no .zdebug_line"
		for kind in zlib zstd; do
			readelf -tW "$FIXTURES/dwarf/$kind-$version/prog" | grep -A3 ' \.debug_line$' | grep -qi "$kind" ||
				not_ok "$kind-$version: .debug_line is not $kind-compressed"
		done
	done
fi

# The empty-name check itself sees an empty name.
printf 'fl=(1) a.c\nfn=(1) f\ncfi=(2) \ncfn=(1)\n' >"$tmp/bad.cg"
[ -n "$(empty_names "$tmp/bad.cg")" ] || not_ok "empty_names misses cfi=(2) with no name"
finish
