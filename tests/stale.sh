#!/bin/bash
# stale.sh -- profiles that do not fit the executable: a program rebuilt
# after profiling (fixtures/stale, see fixtures/regen-stale.sh) is refused
# when its call arcs no longer match call instructions, converts with a
# one-line warning when only a few do not, and another program's profile
# is refused; --force converts anyway.
. "${srcdir:-.}/tests/test-lib.sh"

stale=$FIXTURES/stale
"$GMON2CG" -o "$tmp/r.cg" "$stale/refused/prog" "$stale/refused/gmon.out" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -e "$tmp/r.cg" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "does not belong to .*--force converts anyway" "$tmp/err" &&
	ok "a profile of an earlier build is refused: $(cut -c1-70 "$tmp/err")..." ||
	not_ok "stale profile: $(cat "$tmp/err")"
"$GMON2CG" --force -o "$tmp/r.cg" "$stale/refused/prog" "$stale/refused/gmon.out" 2>"$tmp/err" &&
	[ -s "$tmp/r.cg" ] && ok "--force converts it" || not_ok "--force: $(cat "$tmp/err")"

expect -w -n "a few arcs that do not fit: converted with one warning" 0 \
	"^gmon2cg: warning: 1 of 9 call arcs of .* are not where .*'s calls return (was it rebuilt after profiling?)$" \
	"$GMON2CG" --prefix-map=.="$FIXTURES" -o "$tmp/w.cg" "$stale/warned/prog" "$stale/warned/gmon.out"
grep -q '^totals: [1-9]' "$tmp/w.cg"
check "the warned profile is written whole"
"$GMON2CG" --stats -o /dev/null "$stale/warned/prog" "$stale/warned/gmon.out" 2>&1 |
	grep -q "^gmon2cg: stats: call arcs checked against the code: 9; not where calls return: 1$" &&
	ok "--stats counts them" || not_ok "--stats does not count the arcs that do not fit"

# The fixtures that fit say nothing on stderr.
"$GMON2CG" --prefix-map=.="$FIXTURES" -o "$tmp/c.cg" "$FIXTURES/calltree/prog" "$FIXTURES/calltree/gmon.out" 2>"$tmp/err" &&
	[ ! -s "$tmp/err" ] && ok "a fitting profile: stderr empty" || not_ok "stderr: $(cat "$tmp/err")"

# clang -O3 saves the arguments of a function of many arguments before it
# calls mcount, 71 bytes into blend12 (fixtures/regen-clang.sh): the arc
# fits all the same.
"$GMON2CG" --prefix-map=.="$FIXTURES" -o "$tmp/clang.cg" "$FIXTURES/clang/prog" "$FIXTURES/clang/gmon.out" 2>"$tmp/err" &&
	[ ! -s "$tmp/err" ] && ok "clang's late mcount calls: stderr empty" || not_ok "clang: $(cat "$tmp/err")"
"$GMON2CG" --stats -o /dev/null "$FIXTURES/clang/prog" "$FIXTURES/clang/gmon.out" 2>&1 |
	grep -q "^gmon2cg: stats: call arcs checked against the code: 104; not where calls return: 0$" &&
	ok "clang: every arc checked and where calls return" || not_ok "clang: --stats counts arcs that do not fit"

# Another x86-64 program's profile, whose addresses overlap.
for other in cycle recursion interp; do
	"$GMON2CG" -o "$tmp/o.cg" "$FIXTURES/calltree/prog" "$FIXTURES/$other/gmon.out" 2>"$tmp/err"
	[ $? -eq 1 ] && [ ! -e "$tmp/o.cg" ] && grep -q "does not belong to" "$tmp/err" &&
		ok "$other's profile refused for calltree" || not_ok "$other's profile: $(cat "$tmp/err")"
done
finish
