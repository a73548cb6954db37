#!/bin/bash
# ldprofile-find.sh -- which library an LD_PROFILE file profiles: found
# from the file's content (its code range and callees against each
# candidate's code), the file name only a hint, so that renamed profiles
# convert.
. "${srcdir:-.}/tests/test-lib.sh"

fix=$FIXTURES/ldprofile

# calls_to NAME FILE: the calls to function NAME in callgrind file FILE.
calls_to() {
	awk -v want="$1" '
		/^c?fn=/ { id = $1; sub(/^c?fn=/, "", id); if (NF > 1) name[id] = $2
			   if ($0 ~ /^cfn=/) callee = name[id] }
		/^calls=/ { split($1, c, "="); if (callee == want) n += c[2] }
		END { print n + 0 }' "$2"
}

# --- Renamed profiles: the content says which library they are of.
cp "$fix/nopg/libmix.so.1.profile" "$tmp/nopg.profile"
cp "$fix/nopg/libmix.so.1.profile" "$tmp/libmix.so.1.run1.profile"
cp "$fix/pg/libmix.so.1.profile" "$tmp/libmix.so.1.run2.profile"
"$GMON2CG" -o "$tmp/plain.cg" "$fix/prog" "$fix/nopg/libmix.so.1.profile" 2>/dev/null
if "$GMON2CG" -o "$tmp/renamed.cg" "$fix/prog" "$tmp/nopg.profile" 2>"$tmp/err" &&
	[ "$(grep -v '^desc: Trigger\|^desc: Object' "$tmp/renamed.cg")" = \
	  "$(grep -v '^desc: Trigger\|^desc: Object' "$tmp/plain.cg")" ]; then
	ok "a renamed profile (nopg.profile) converts as the original"
else
	not_ok "nopg.profile: $(cat "$tmp/err")"
fi
if "$GMON2CG" -o "$tmp/runs.cg" "$fix/prog" "$tmp/libmix.so.1.run1.profile" \
	"$tmp/libmix.so.1.run2.profile" 2>"$tmp/err" &&
	[ "$(grep -c '^desc: Object: .*libmix.so.1: samples and calls' "$tmp/runs.cg")" -eq 1 ] &&
	[ "$(calls_to mix_round "$tmp/runs.cg")" -eq 51200000 ]; then
	ok "two renamed runs of one library are summed"
else
	not_ok "renamed runs: $(cat "$tmp/err")"
fi
"$GMON2CG" -o "$tmp/self.cg" "$fix/libmix.so.1" "$tmp/nopg.profile" 2>/dev/null &&
	[ "$(calls_to mix_round "$tmp/self.cg")" -eq 25600000 ]
check "a renamed profile of the executable, a library"
mkdir "$tmp/named" && cp "$fix/libmix.so.1" "$tmp/named/mix-copy.so" &&
	mkdir "$tmp/away" && cp "$fix/prog" "$tmp/away/" &&
	"$GMON2CG" -o "$tmp/named.cg" --library="$tmp/named/mix-copy.so" "$tmp/away/prog" \
		"$tmp/nopg.profile" 2>/dev/null &&
	grep -q "^ob=(.*) $tmp/named/mix-copy.so$\|^cob=(.*) $tmp/named/mix-copy.so$" "$tmp/named.cg"
check "--library is honoured whatever the library's file name"

finish
