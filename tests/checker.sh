#!/bin/bash
# checker.sh -- the whole-output check (tests/lib/check_callgrind.py) finds
# each kind of violation planted, one at a time, in a small hand-written
# profile that keeps every promise (tests/checker/clean.cg), and every run
# of gmon2cg in the tests has its output checked (tests/test-lib.sh).
. "${srcdir:-.}/tests/test-lib.sh"
[ -n "$PYTHON3" ] || skip "python3 not found"
checker="$PYTHON3 $srcdir/tests/lib/check_callgrind.py"
clean=$srcdir/tests/checker/clean.cg

$checker "$clean" >"$tmp/out" 2>&1; check "the clean profile passes"
diag <"$tmp/out"

# plant NAME PATTERN SED-SCRIPT [CHECKER-OPTION]: clean.cg changed by
# SED-SCRIPT fails the check with the line "NAME.cg:LINE: ..." that
# PATTERN starts with (":LINE: ...").
plant() {
	local name=$1 pattern=$2 script=$3
	shift 3
	sed "$script" "$clean" >"$tmp/$name.cg"
	$checker "$@" "$tmp/$name.cg" >"$tmp/out" 2>&1
	if [ $? -eq 1 ] && grep -q -F -- "$tmp/$name.cg$pattern" "$tmp/out"; then
		ok "$name: found ($(grep -m 1 -F -- "$pattern" "$tmp/out" | sed "s|^$tmp/||"))"
	else
		not_ok "$name: not found ('$pattern')"
		diag <"$tmp/out"
	fi
}

# costs
plant cost-2-63 ':44: cost 9223372036854775808 is not below 2^63' '44s/ 5$/ 9223372036854775808/'
plant cost-u64-max ':15: cost 18446744073709551615 is not below 2^63' '15s/ 70$/ 18446744073709551615/'
plant above-summary ':42: cost 71 of ns above the summary: 70' '42s/ 1$/ 71/'
plant sum ':0: the self costs of ns add up to 70, summary: says 71' '7s/70/71/; 56s/70/71/'
plant totals ':0: summary: 70 but totals: 69' '56s/70/69/'
plant no-totals ':0: no totals: line' '56d'
# calls (<hidden>, exempt from the calls rule, makes up the total where
# a planted call would be above it)
hidden='54a\
fn=(7) <hidden>\
0x0 0 '
plant calls-in ":38: the calls into 'g' carry 31, not its self cost plus calls out, 30" '26s/ 10$/ 11/; 15s/70/71/; 7s/70/71/; 56s/70/71/; '"$hidden"1
plant calls-out ":18: the calls into 'main' carry 70, not its self cost plus calls out, 71" '26s/ 10$/ 11/'
plant cycle ":44: the calls entering the cycle of c1, c2 carry 12, not its self cost plus calls leaving it, 10" '30s/ 10$/ 12/; 15s/70/72/; 7s/70/72/; 56s/70/72/; '"$hidden"2
plant member ":50: the calls into 'c2' carry 4, below its self cost plus calls out of its cycle, 5" '48s/ 5$/ 4/'
plant selection ":38: the calls into 'g' carry 29, below its self cost plus calls out, 30" '26s/ 10$/ 9/; 15s/70/69/' --selection
sed '26s/ 10$/ 11/; 15s/70/71/; 7s/70/71/; 56s/70/71/; '"$hidden"1 "$clean" >"$tmp/looser.cg"
$checker --selection "$tmp/looser.cg" >"$tmp/out" 2>&1; check "--selection: calls in above self plus calls out pass"
diag <"$tmp/out"
# inclusive cost: a root that only calls itself, which no <spontaneous> calls
plant inclusive ":56: KCachegrind (Cycle Detection on): 'h' inclusive 0 below its self cost 5" \
	'7s/70/75/; 56s/70/75/; 54a\
fn=(7) h\
0x600 50 5\
cfi=(2)\
cfn=(7)\
calls=2 0x600 50\
0x608 51 1'
# names
plant index-twice ':37: function index (4) defined again' '37s/.*/fn=(4) g/'
plant index-renamed ':37: Redefinition of compressed function index 4' '37s/.*/fn=(4) h/'
plant index-undefined ':33: Undefined compressed file index 3' '33s/.*/cfi=(3)/'
plant file-two-ids ":33: file 'a.c' given index (3), already (2)" '33s/.*/cfi=(3) a.c/'
plant function-two-ids ":34: function 'g' (a.c, prog) given index (7), already (4)" '34s/.*/cfn=(7) g/'
# positions
plant entry ":35: calls of 'g' at 0x304, but at 0x300 on line 25" '35s/0x300/0x304/'
plant inside-other ":38: 'g' has a cost or call at 0x204, in the code of 'f' (0x200 to 0x20a)" '38s/0x300/0x204/'
plant past-entry ":36: 'f' has code at 0x310, past the entry of 'g' at 0x300" '36s/0x20a/0x310/'
# the file as a whole
plant not-callgrind ':1: does not start with' '1d'

gzip -c "$clean" >"$tmp/clean.cg.gz"
$checker "$tmp/clean.cg.gz" >"$tmp/out" 2>&1; check "a gzip-compressed profile is read"
sed '44s/ 5$/ 6/' "$clean" | gzip -c >"$tmp/bad.cg.gz"
$checker "$tmp/bad.cg.gz" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'bad.cg.gz:0: the self costs' "$tmp/out"; check "a gzip-compressed profile is checked"

# --parts: the second part is checked on its own, its lines counted in
# the file
{ cat "$clean"; printf '\npart: 2\n'; sed -n '5,$p' "$clean" | sed '40s/ 5$/ 9223372036854775808/'; } >"$tmp/parts.cg"
$checker "$tmp/parts.cg" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q 'parts.cg:98: cost 9223372036854775808 is not below 2^63' "$tmp/out" &&
	! grep -q 'parts.cg:[1-9]:\|parts.cg:[1-5][0-9]:' "$tmp/out"; check "each part of a --parts profile is checked, at its lines"
diag <"$tmp/out"

# The wiring: a test's gmon2cg keeps what it writes for finish to check,
# and a violation there is a failed check of that test.
exe=$FIXTURES/calltree/prog gmon=$FIXTURES/calltree/gmon.out
cat >"$tmp/planted.sh" <<'EOS'
. "$srcdir/tests/test-lib.sh"
"$GMON2CG" -o "$tmp/o.cg" "$EXE" "$GMON" 2>/dev/null; check "to a file"
"$GMON2CG" "$EXE" "$GMON" 2>/dev/null >"$tmp/s.cg"; check "to standard output"
"$GMON2CG" "$EXE" "$GMON" 2>/dev/null | cat >/dev/null; check "into a pipe"
"$GMON2CG" --outp "$tmp/p.cg" "$EXE" "$GMON" 2>/dev/null; check "--outp FILE"
"$GMON2CG" "$EXE" -zo"$tmp/z.cg" "$GMON" 2>/dev/null; check "-zoFILE"
"$GMON2CG" --format=speedscope -o "$tmp/o.json" "$EXE" "$GMON" 2>/dev/null; check "speedscope"
cut -f 3 "$tmp/outputs/manifest" | diag
finish
EOS
EXE=$exe GMON=$gmon bash "$tmp/planted.sh" >"$tmp/tap" 2>&1
# shellcheck disable=SC2016 # the literal $tmp of the report
grep -q '^ok .* 5 callgrind files keep the README' "$tmp/tap" &&
	[ "$(grep -c 'from: gmon2cg' "$tmp/tap")" = 5 ] &&
	grep -q '^# $tmp/p.cg from' "$tmp/tap" && grep -q '^# $tmp/z.cg from' "$tmp/tap"
check "a test's five callgrind outputs are checked (to a file, to stdout, into a pipe; -o abbreviated, in a cluster), not its speedscope one"
diag <"$tmp/tap"
# a gmon2cg whose output breaks a promise (a cost of 2^64 - 1)
# shellcheck disable=SC2016 # $@, $1, $2 are the wrapper's
printf '#!/bin/sh\n"%s" "$@" || exit\n[ "$1" != -o ] || sed -i "0,/^0x0 0 /s/^0x0 0 .*/0x0 0 18446744073709551615/" "$2"\n' "$G2C_BINARY" >"$tmp/broken"
chmod +x "$tmp/broken"
EXE=$exe GMON=$gmon GMON2CG=$tmp/broken G2C_BINARY='' bash "$tmp/planted.sh" >"$tmp/tap" 2>&1
# shellcheck disable=SC2016 # the literal $tmp of the report
grep -q '^not ok .* the whole-output check: [0-9]* violations in $tmp/o.cg from: gmon2cg -o $tmp/o.cg' "$tmp/tap" &&
	grep -q '^# .*o.cg from: .*:[0-9]*: cost 18446744073709551615 is not below 2^63' "$tmp/tap"
check "a violation in a test's output is a failed check of that test"
diag <"$tmp/tap"
finish
