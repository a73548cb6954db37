#!/bin/bash
# debuginfo.sh -- less debug information: a stripped executable is read
# through its separate debug file (.gnu_debuglink beside it, or
# --debug-dir), with the same numbers and lines as the unstripped one;
# without -g functions still resolve (line 0, the file unknown: "???").
. "${srcdir:-.}/tests/test-lib.sh"

command -v objcopy >/dev/null && command -v strip >/dev/null || skip "objcopy or strip not found (install binutils)"
exe=$FIXTURES/calltree/prog gmon=$FIXTURES/calltree/gmon.out
"$GMON2CG" -o "$tmp/full.cg" "$exe" "$gmon" || not_ok "unstripped conversion"

# body FILE: the profile without the lines that name the executable.
body() { grep -v '^cmd: \|^ob=\|^cfi=\|^fl=\|^fi=\|^fe=' "$1"; }

mkdir "$tmp/a" "$tmp/b"
objcopy --only-keep-debug "$exe" "$tmp/a/prog.debug"
strip --strip-all -o "$tmp/a/prog" "$exe"
objcopy --add-gnu-debuglink="$tmp/a/prog.debug" "$tmp/a/prog"
"$GMON2CG" -o "$tmp/linked.cg" "$tmp/a/prog" "$gmon" || not_ok "debuglink beside the executable"
if cmp -s <(body "$tmp/full.cg") <(body "$tmp/linked.cg"); then ok "debuglink"; else not_ok "debuglink converts differently"; fi
grep -q "^fl=([0-9]*) $(dirname "$(grep -m1 '^fl=([0-9]*) /' "$tmp/full.cg" | cut -d' ' -f2)")" "$tmp/linked.cg" ||
	not_ok "debuglink: source files lost"

# The debug file elsewhere: found with --debug-dir, refused without it.
cp "$tmp/a/prog" "$tmp/b/prog"
mkdir -p "$tmp/dbg$tmp/b"
mv "$tmp/a/prog.debug" "$tmp/dbg$tmp/b/prog.debug"
"$GMON2CG" --debug-dir="$tmp/dbg" -o "$tmp/dir.cg" "$tmp/b/prog" "$gmon" &&
	cmp -s <(body "$tmp/full.cg") <(body "$tmp/dir.cg") && ok "--debug-dir" || not_ok "--debug-dir"
"$GMON2CG" -o "$tmp/none.cg" "$tmp/b/prog" "$gmon" 2>"$tmp/err" && not_ok "no symbols anywhere, yet converted"
grep -qx "gmon2cg: $tmp/b/prog: no symbols (and no separate debug file found)" "$tmp/err" ||
	not_ok "no symbols: $(cat "$tmp/err")"

# Without -g: the same functions and numbers, line 0, the file "???" as
# callgrind writes it (never the object: callgrind_annotate would read the
# executable as source).
strip --strip-debug -o "$tmp/nodebug" "$exe"
"$GMON2CG" -o "$tmp/nodebug.cg" "$tmp/nodebug" "$gmon" || not_ok "no -g"
[ "$(grep -c '^fn=' "$tmp/nodebug.cg")" = "$(grep -c '^fn=' "$tmp/full.cg")" ] || not_ok "no -g: other functions"
grep -q "^fl=([0-9]*) ???\$" "$tmp/nodebug.cg" && ! grep -q "\.c\$" "$tmp/nodebug.cg" &&
	! grep -q "^c\?f[ilen]=([0-9]*) $tmp/nodebug\$" "$tmp/nodebug.cg" ||
	not_ok "no -g: the file is not ???"
awk '/^[0-9+*-]/ && $2 != "0" && $2 != "*" { bad = 1 } END { exit bad }' "$tmp/nodebug.cg" ||
	not_ok "no -g: a line other than 0"
finish
