#!/bin/bash
# walkthrough.sh -- the LD_PROFILE walk-through of the user guide
# (doc/guide/05-ld-profile.md, found in README and doc/guide/*.md wherever
# it is), run as a user would type it in a checkout: it must print what
# the guide says it prints (the "# prints:" lines; a warning for the -pg run), write nothing into
# the checkout (whose fixtures `make check` and `make dist` read), and give
# the call counts the guide states for the bundled library.
. "${srcdir:-.}/tests/test-lib.sh"
command -v python3 >/dev/null || skip "python3 not found"

# The block: from its first comment line to the blank line after its
# last gmon2cg command, without the four-space indent.
sed -n '/^    # your own library, used by your program/,/^$/p; /^    # a system library, here zlib/,/^$/p; /^    # the program.s own gmon.out and the library/,/^$/p' \
	"${user_docs[@]}" | sed 's/^    //' >"$tmp/block"
grep -q 'ldprofile/prog-pg' "$tmp/block"; check "the guide has the LD_PROFILE walk-through"

# A checkout of our own (its fixtures), gmon2cg on PATH, and the
# block's scratch directory moved into $tmp.
mkdir -p "$tmp/checkout" "$tmp/bin"
cp -pR "$FIXTURES" "$tmp/checkout/fixtures"
ln -s "$GMON2CG" "$tmp/bin/gmon2cg"
sed -i "s|/tmp/ldp|$tmp/ldp|g" "$tmp/block"
(cd "$tmp/checkout" && find fixtures -type f -exec md5sum {} + | sort) >"$tmp/before"

(cd "$tmp/checkout" && PATH=$tmp/bin:$PATH bash -e "$tmp/block") >"$tmp/out" 2>&1
check "the walk-through runs to its end"
# What the guide says each command prints ("# prints: LINE" after it),
# in order, stdout and stderr together; the -pg program's gmon.PID
# named so.  (Its time is in the library: a run whose own code took a
# sample, which happens rarely, has no "no samples" warning of it.)
sed -n 's/^# prints: //p' "$tmp/block" >"$tmp/expected"
sed -i -E "s|$tmp/ldp/gmon\.[0-9]+:|$tmp/ldp/gmon.PID:|" "$tmp/out"
if grep -q 'prog-pg: samples and calls' "$tmp/ldp/both.cg" 2>/dev/null; then
	sed -i '/gmon\.PID: no samples/d' "$tmp/expected"
fi
grep -q 'call counts but no samples' "$tmp/expected" &&
	cmp -s "$tmp/expected" "$tmp/out"
check "it prints exactly what the guide shows, the -pg run's warnings included"
diff "$tmp/expected" "$tmp/out" | diag

(cd "$tmp/checkout" && find fixtures -type f -exec md5sum {} + | sort) >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after"; check "it writes nothing into the checkout"
diff "$tmp/before" "$tmp/after" | diag

# calls= COUNT of the calls to the function named NAME in PROFILE, summed.
calls_to() {
	[ -f "$1" ] || return 0
	awk -v name="$2" '
		# fn= and cfn= share one name table: "(N) NAME" defines, "(N)" uses
		/^c?fn=/ { id = $0; sub(/^c?fn=/, "", id); n = id
			   sub(/\).*/, ")", id); sub(/^\([0-9]+\) ?/, "", n)
			   if (n != "") names[id] = n
			   if ($0 ~ /^cfn=/) callee = names[id] }
		/^calls=/ { split(substr($0, 7), f, " "); if (callee == name) sum += f[1] }
		END { print sum + 0 }' "$1"
}
for profile in mix both; do
	[ "$(calls_to "$tmp/ldp/$profile.cg" mix_round)" = 25600000 ]
	check "$profile.cg: mix_round called 25 600 000 times, as the guide says"
	[ "$(calls_to "$tmp/ldp/$profile.cg" mix_block)" = 1600000 ]
	check "$profile.cg: mix_block called 1 600 000 times"
done
[ -s "$tmp/ldp/zlib.cg" ]; check "the zlib profile converts"
finish
