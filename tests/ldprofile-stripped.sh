#!/bin/bash
# ldprofile-stripped.sh -- the LD_PROFILE form with a stripped Debian
# program, which names no function (xz, profiling liblzma): the program is
# only where the library's callers are, so it converts; its own gmon.out
# form still needs its functions and is refused with the program's error.
. "${srcdir:-.}/tests/test-lib.sh"

[ -n "$PYTHON3" ] || skip "python3 not found"
xz=$(command -v xz) || skip "xz not found (apt-get install xz-utils)"
command -v readelf >/dev/null || skip "readelf not found"
readelf -S "$xz" | grep -q '\.symtab' && skip "$xz is not stripped"
readelf --dyn-syms -W "$xz" | awk '$4 == "FUNC" && $7 != "UND"' | grep -q . &&
	skip "$xz exports functions"
seq 1 300000 >"$tmp/data"
(cd "$tmp" && LD_PROFILE=liblzma.so.5 LD_PROFILE_OUTPUT="$tmp" "$xz" -6 -c data >/dev/null)
[ -s "$tmp/liblzma.so.5.profile" ] || skip "no LD_PROFILE output here"

expect -x -n "$xz with liblzma's LD_PROFILE profile converts without a word" 0 "" \
	"$GMON2CG" -o "$tmp/xz.cg" "$xz" "$tmp/liblzma.so.5.profile"
"$PYTHON3" "$srcdir/tests/lib/callgrind_model.py" --json "$tmp/xz.cg" >"$tmp/xz.json" 2>/dev/null
read -r calls samples < <("$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(a["count"] for a in d["arcs"] if a["callee"] == "lzma_code"),
      sum(f["self"] for f in d["functions"].values()))' "$tmp/xz.json" 2>/dev/null)
[ "${calls:-0}" -gt 0 ] && [ "${samples:-0}" -gt 0 ]
check "liblzma's samples and its calls of lzma_code (${calls:-no} calls)"
grep -q "^desc: Object: $xz: not profiled" "$tmp/xz.cg" 2>/dev/null
check "the program is an object of the profile, not profiled"

# A gmon.out needs the program's functions: the program's error, first.
printf 'gmon\0\0\0\1\0\0\0\0\0\0\0\0\0\0\0\0' >"$tmp/gmon.out"
expect -x -n "a stripped program's own gmon.out: no symbols" 1 \
	"gmon2cg: $xz: no symbols (and no separate debug file found)" \
	"$GMON2CG" -o "$tmp/gmon.cg" "$xz" "$tmp/gmon.out"
expect -x -n "a stripped program with its gmon.out and an LD_PROFILE file: no symbols" 1 \
	"gmon2cg: $xz: no symbols (and no separate debug file found)" \
	"$GMON2CG" -o "$tmp/both.cg" "$xz" "$tmp/liblzma.so.5.profile" "$tmp/gmon.out"
expect -x -n "a stripped program and a profile that is not there: no symbols" 1 \
	"gmon2cg: $xz: no symbols (and no separate debug file found)" \
	"$GMON2CG" -o "$tmp/none.cg" "$xz" "$tmp/none.profile"
finish
