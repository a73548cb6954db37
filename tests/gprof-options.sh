#!/bin/bash
# gprof-options.sh -- a gprof user's habits: every gprof option letter and
# long name either works with gprof's meaning or is refused with exit 2
# and a pointer; C++ names select without their parameter lists; gprof's
# FILE:NAME; near-name suggestions; -z; --summary against gprof's flat
# profile.
. "${srcdir:-.}/tests/test-lib.sh"

exe=$FIXTURES/cycle/prog gmon=$FIXTURES/cycle/gmon.out
map=--prefix-map=.=$FIXTURES	# the fixtures' sources, so stderr stays empty

# Refused: OPTION... -- each must exit 2 with one "gprof's ... has no
# meaning here: ..." or a pointer, and write nothing.
while read -r args; do
	case $args in '#'* | '') continue ;; esac
	# shellcheck disable=SC2086 # ARGS is a list of words
	"$GMON2CG" $args -o "$tmp/r.cg" "$exe" "$gmon" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -ne 2 ] || [ -e "$tmp/r.cg" ] || [ -s "$tmp/out" ] ||
		[ "$(grep -vc "^Try 'gmon2cg --help'" "$tmp/err")" -ne 1 ] ||
		! grep -q "^gmon2cg: .*\(has no meaning here: \|would leave out the whole call graph\|is not supported: \)" "$tmp/err"; then
		not_ok "gprof option '$args': exit $st, $(head -1 "$tmp/err")"
	else
		ok "gprof option '$args' refused: $(head -1 "$tmp/err" | cut -c1-60)..."
	fi
	rm -f "$tmp/r.cg"
done <<'LIST'
-b
--brief
-p
-pmain
--flat-profile
--flat-profile=main
-P
--no-flat-profile
-Q
--no-graph
-l
--line
-x
--all-lines
-A
--annotated-source
-J
--no-annotated-source
-L
--print-path
-y
--separate-files
--inline-file-names
-I /tmp
--directory-path=/tmp
-C
--exec-counts
-Z
--no-exec-counts
-s
--sum
-c
--static-call-graph
-D
--ignore-non-functions
-i
--file-info
-d
--debug
-r
--function-ordering
-R map
--file-ordering=map
-T
--traditional
-w 80
--width=80
-t 10
--table-length=10
-m 2
--min-count=2
-O bsd
--file-format=bsd
--external-symbol-table=x
--demangle=java
LIST

# Accepted with gprof's meaning: OPTIONS | EQUIVALENT OPTIONS (same output).
while IFS='|' read -r args same; do
	case $args in '#'* | '') continue ;; esac
	# shellcheck disable=SC2086 # lists of words
	if "$GMON2CG" $args $map -o "$tmp/a.cg" "$exe" "$gmon" 2>"$tmp/err" &&
		"$GMON2CG" $same $map -o "$tmp/b.cg" "$exe" "$gmon" 2>>"$tmp/err" &&
		cmp -s "$tmp/a.cg" "$tmp/b.cg" && [ ! -s "$tmp/err" ]; then
		ok "gprof option '$args' = '$same'"
	else
		not_ok "gprof option '$args' differs from '$same': $(head -2 "$tmp/err")"
	fi
done <<'LIST'
-q|
--graph|
-qentry_one|-f entry_one
--graph=entry_one|-f entry_one
-Qoutside|-e outside
--no-graph=outside|-e outside
--time=outside|-n outside
--no-time=outside|-N outside
--no-static|-a
--demangle|
--demangle=gnu-v3|
LIST
"$GMON2CG" -v | grep -q "^gmon2cg $PACKAGE_VERSION$" && ok "-v is --version, as in gprof" ||
	not_ok "-v is not --version"

# -z / --display-unused-functions: every function gprof -z lists.
if [ -n "$GPROF" ]; then
	"$GMON2CG" -z -o "$tmp/z.cg" "$exe" "$gmon" || not_ok "-z failed"
	"$GPROF" -b -p -z "$exe" "$gmon" | awk 'NR > 5 { print $NF }' | sort -u >"$tmp/gprof-z"
	sed -n 's/^c\?fn=([0-9]*) //p' "$tmp/z.cg" | sort -u >"$tmp/ours-z"
	# (data_start, a weak symbol outside the code, is no function here:
	# see doc/guide/03-deviations.md.)
	missing=$(comm -23 "$tmp/gprof-z" "$tmp/ours-z" | grep -vx data_start)
	[ -z "$missing" ] && ok "-z writes every function gprof -z lists ($(wc -l <"$tmp/gprof-z"))" ||
		not_ok "-z misses: $missing"
	"$GMON2CG" -o "$tmp/plain.cg" "$exe" "$gmon"
	[ "$(grep -c '^fn=' "$tmp/z.cg")" -gt "$(grep -c '^fn=' "$tmp/plain.cg")" ] ||
		not_ok "-z adds no function"
	[ "$(sed -n 's/^totals: //p' "$tmp/z.cg")" = "$(sed -n 's/^totals: //p' "$tmp/plain.cg")" ] ||
		not_ok "-z changed the total"
fi

# C++: a name without its parameter list selects every overload; the
# shown name, FILE:NAME, and a template without its arguments work too.
cxx=$FIXTURES/cxx/prog cxxgmon=$FIXTURES/cxx/gmon.out
names() { sed -n 's/^c\?fn=([0-9]*) //p' "$1" | sort -u | tr '\n' ';'; }
"$GMON2CG" -f 'util::digest(long, int)' -f 'util::digest(double, int)' -o "$tmp/full.cg" "$cxx" "$cxxgmon" &&
	"$GMON2CG" -f util::digest -o "$tmp/bare.cg" "$cxx" "$cxxgmon" &&
	cmp -s "$tmp/full.cg" "$tmp/bare.cg" && [ "$(names "$tmp/bare.cg")" = "<hidden>;<spontaneous>;util::digest(double, int);util::digest(long, int);" ] &&
	ok "-f util::digest selects both overloads" || not_ok "-f util::digest: $(names "$tmp/bare.cg")"
"$GMON2CG" -f util::poly_sum -o "$tmp/tmpl.cg" "$cxx" "$cxxgmon" &&
	[ "$(grep -c '^fn=.*poly_sum\|^cfn=([0-9]*) .*poly_sum' "$tmp/tmpl.cg")" -eq 2 ] &&
	ok "-f util::poly_sum selects both instantiations" || not_ok "-f util::poly_sum"
"$GMON2CG" -f cxx.cc:util::digest -o "$tmp/file.cg" "$cxx" "$cxxgmon" &&
	cmp -s "$tmp/bare.cg" "$tmp/file.cg" && ok "FILE:NAME" || not_ok "-f cxx.cc:util::digest"
"$GMON2CG" -f src/cxx.cc:util::digest -o "$tmp/file.cg" "$cxx" "$cxxgmon" &&
	cmp -s "$tmp/bare.cg" "$tmp/file.cg" && ok "DIR/FILE:NAME" || not_ok "-f src/cxx.cc:util::digest"
rm -f "$tmp/file.cg"
"$GMON2CG" -f other.cc:util::digest -o "$tmp/file.cg" "$cxx" "$cxxgmon" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -e "$tmp/file.cg" ] && ok "FILE:NAME in another file is refused" ||
	not_ok "-f other.cc:util::digest was accepted"

# A name that matches nothing: one line naming up to three nearest names.
"$GMON2CG" -f util::digst "$cxx" "$cxxgmon" 2>"$tmp/err" >/dev/null
[ $? -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "no function named 'util::digst'; nearest: 'util::digest', 'util::poly_sum'" "$tmp/err" &&
	ok "near names suggested, as they select" || not_ok "near names: $(cat "$tmp/err")"
# A bare C++ name is nearest to its qualified forms.
"$GMON2CG" -F digest "$cxx" "$cxxgmon" 2>"$tmp/err" >/dev/null
[ $? -eq 1 ] && grep -q "no function named 'digest'; nearest: 'util::digest'," "$tmp/err" &&
	ok "a bare C++ name suggests its qualified form" || not_ok "bare name: $(cat "$tmp/err")"
"$GMON2CG" -E mian "$exe" "$gmon" 2>"$tmp/err" >/dev/null
grep -q "nearest: 'main'" "$tmp/err" && ok "mian -> main" || not_ok "mian: $(cat "$tmp/err")"

# --summary: gprof's flat profile, same order and seconds, within one
# sample (gprof's bin model moves single samples), names whole.
# (Not fixtures/interp: its small -O2 functions share histogram bins,
# where gprof's 2-byte bin model moves several samples; tests/gprof.sh
# checks those against the exact histogram instead.)
if [ -n "$GPROF" ]; then
	for name in calltree recursion cycle cxx; do
		[ -f "$FIXTURES/$name/prog" ] || continue
		fx=$FIXTURES/$name/prog fg=$FIXTURES/$name/gmon.out
		"$GMON2CG" --summary=50 $map -o "$tmp/s.cg" "$fx" "$fg" 2>"$tmp/summary" ||
			{ not_ok "$name: --summary failed"; continue; }
		[ -s "$tmp/s.cg" ] || not_ok "$name: --summary wrote no profile"
		"$GPROF" -b -p "$fx" "$fg" >"$tmp/flat"
		if $PYTHON3 - "$tmp/summary" "$tmp/flat" <<'PY'
import sys
def rows(path, skip):
    out = []
    for line in open(path).read().splitlines()[skip:]:
        f = line.split()
        if len(f) < 4:
            continue
        try:
            pct, cum, self_s = float(f[0]), float(f[1]), float(f[2])
        except ValueError:
            continue
        calls = int(f[3]) if len(f) >= 7 and f[3].isdigit() else 0
        name = line[56:] if len(line) > 56 else ""
        out.append((self_s, calls, name.strip()))
    return out
ours, theirs = rows(sys.argv[1], 3), rows(sys.argv[2], 5)
ok = len(ours) == len([r for r in theirs if r[0] > 0 or r[1] > 0])
for (s1, c1, n1), (s2, c2, n2) in zip(ours, theirs):
    if abs(s1 - s2) > 0.0101 or c1 != c2 or n1 != n2:
        print("differs:", (s1, c1, n1), (s2, c2, n2))
        ok = False
sys.exit(0 if ok else 1)
PY
		then
			ok "$name: --summary agrees with gprof -b -p"
		else
			not_ok "$name: --summary differs from gprof's flat profile"
			cat "$tmp/summary"
		fi
	done
fi
finish
