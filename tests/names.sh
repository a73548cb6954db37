#!/bin/bash
# names.sh -- the names of a large C++ program (fixtures/manycxx: 1 213
# functions, more than gmon2cg demangles without a thread of its own) are
# demangled as c++filt demangles them, function by function, and the rest
# of the profile is that of --no-demangle; with a selection the names are
# in place before they are matched.
. "${srcdir:-.}/tests/test-lib.sh"

command -v c++filt >/dev/null || skip "c++filt not found (install binutils)"
exe=$FIXTURES/manycxx/prog gmon=$FIXTURES/manycxx/gmon.out

# (the sources are not kept: stderr has a warning about them)
"$GMON2CG" -o "$tmp/names.cg" "$exe" "$gmon" 2>"$tmp/err"; check "converts"
"$GMON2CG" --no-demangle -o "$tmp/raw.cg" "$exe" "$gmon" 2>"$tmp/err"; check "converts with --no-demangle"

# fn=/cfn= lines that name a function: "(ID) NAME", in order.
names() { sed -n 's/^c\{0,1\}fn=(\([0-9]*\)) \(.*\)$/\1 \2/p' "$1"; }
names "$tmp/names.cg" >"$tmp/names"
names "$tmp/raw.cg" >"$tmp/raw"
n=$(wc -l <"$tmp/names")
[ "$n" -ge 1200 ]; check "1 200 or more functions named ($n)"
[ "$(grep -c ' bench::ns[0-9]*::' "$tmp/names")" -ge 1200 ]; check "the names are demangled"
c++filt <"$tmp/raw" >"$tmp/filtered"
if cmp -s "$tmp/filtered" "$tmp/names"; then
	ok "every name is c++filt's"
else
	not_ok "names differ from c++filt's"
	diff "$tmp/filtered" "$tmp/names" | head -n 5 | diag
fi
# Apart from the names, the two profiles are the same.
cmp -s <(grep -v '^c\{0,1\}fn=' "$tmp/names.cg") <(grep -v '^c\{0,1\}fn=' "$tmp/raw.cg")
check "costs and calls do not depend on demangling"

# A selection by a demangled name finds it (names are in place first).
name=$(sed -n 's/^[0-9]* \(bench::ns[0-9]*::[a-z_]*_[0-9]*\)(.*/\1/p' "$tmp/names" | head -n 1)
"$GMON2CG" -F "$name" -o "$tmp/sel.cg" "$exe" "$gmon" 2>"$tmp/err"
check "-F $name selects it"
grep -q "^c\{0,1\}fn=([0-9]*) $name(" "$tmp/sel.cg"; check "and the profile names it"
[ "$(grep -c '^fn=' "$tmp/sel.cg")" -lt "$(grep -c '^fn=' "$tmp/names.cg")" ]
check "and leaves out what it does not reach"
finish
