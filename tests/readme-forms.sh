#!/bin/bash
# readme-forms.sh -- every gmon2cg command line the README and the user
# guide (doc/guide/*.md) show, run on the fixtures as a user would type it
# (so the sanitizer and valgrind passes of "make check" run every form
# too): each must succeed and write a callgrind profile.  A command line
# the documentation gains without a run here fails the first check.
. "${srcdir:-.}/tests/test-lib.sh"

# The documentation's command lines: indented code lines (a Makefile's after its
# tab, a CMake COMMAND, a shell prompt's after "$ "), comments cut, and
# commands quoted inline on one line.
{
	grep -hE '^    (\$ )?gmon2cg |^    	gmon2cg|COMMAND gmon2cg|&& \./gmon2cg' "${user_docs[@]}" |
		sed -E 's/^ +//; s/^\t//; s/^\$ //; s/.*COMMAND //; s/.*&& \.\///; s/ +#.*//'
	grep -hoE '`gmon2cg [^`]*`' "${user_docs[@]}" | tr -d '`'
} | sort -u >"$tmp/readme-forms"

# A documented form, then how it runs here (in $work, a copy of a fixture:
# prog, gmon.out, and runs prof.1 prof.2 and gmon.out.1 gmon.out.2), or
# "walkthrough" for the LD_PROFILE walk-through that tests/walkthrough.sh
# runs as the guide has it, or "run by SCRIPT" for a form that needs
# what only that script sets up (a real LD_PROFILE run of a system
# program).
forms=$(cat <<'FORMS'
gmon2cg --prefix-map=.=$PWD/fixtures fixtures/calltree/prog fixtures/calltree/gmon.out > callgrind.out
	gmon2cg --prefix-map=.=$PWD/fixtures fixtures/calltree/prog fixtures/calltree/gmon.out > callgrind.out
gmon2cg prog gmon.out > callgrind.out
	gmon2cg prog gmon.out > callgrind.out
gmon2cg --summary=3 -o out.cg fixtures/cycle/prog fixtures/cycle/gmon.out
	gmon2cg --summary=3 -o out.cg fixtures/cycle/prog fixtures/cycle/gmon.out
gmon2cg -o $@ prog gmon.out
	gmon2cg -o out.cg prog gmon.out
gmon2cg -o prog.cg $<TARGET_FILE:prog> gmon.out
	gmon2cg -o prog.cg prog gmon.out
gmon2cg -o prog.cg prog gmon.out; kcachegrind prog.cg
	gmon2cg -o prog.cg prog gmon.out
gmon2cg -o tests.cg prog prof.*
	gmon2cg -o tests.cg prog prof.*
gmon2cg --parts -o tests.cg prog prof.*
	gmon2cg --parts -o tests.cg prog prof.*
gmon2cg prog gmon.out.*
	gmon2cg prog gmon.out.* > summed.cg
gmon2cg --prefix-map=/build=$HOME/src/proj -o prog.cg prog gmon.out
	gmon2cg --prefix-map=/build=$HOME/src/proj -o prog.cg prog gmon.out
gmon2cg --prefix-map=.=$HOME/src/firmware -o fw.cg fw.elf gmon.out
	gmon2cg --prefix-map=.=$HOME/src/firmware -o fw.cg fw.elf gmon.out
gmon2cg -o prog.cg prog.elf gmon.out
	cd fixtures/cortex-m && gmon2cg -o $work/cortex-m.cg prog.elf gmon.out
gmon2cg prog nopg/libmix.so.1.profile
	cd fixtures/ldprofile && gmon2cg prog nopg/libmix.so.1.profile > $work/nopg.cg
gmon2cg --version --stats
	gmon2cg --version --stats > version.txt
gmon2cg --format=speedscope -o interp.json fixtures/interp/prog fixtures/interp/gmon.out
	gmon2cg --format=speedscope -o interp.json fixtures/interp/prog fixtures/interp/gmon.out
gmon2cg --format=svg -o interp.svg fixtures/interp/prog fixtures/interp/gmon.out
	gmon2cg --format=svg -o interp.svg fixtures/interp/prog fixtures/interp/gmon.out
gmon2cg --format=svg -o prog.svg prog gmon.out
	gmon2cg --format=svg -o prog.svg prog gmon.out
gmon2cg --compare --annotations=github --markdown="$GITHUB_STEP_SUMMARY" base.cg new.cg
	gmon2cg -o base.cg prog gmon.out && gmon2cg -o new.cg prog prof.1 && GITHUB_STEP_SUMMARY=summary.txt && gmon2cg --compare --annotations=github --markdown="$GITHUB_STEP_SUMMARY" base.cg new.cg >cmp.txt && grep -q '^### gmon2cg --compare: passed$' summary.txt
gmon2cg --compare --codequality=perf-quality.json base.cg new.cg
	gmon2cg -o base.cg prog gmon.out && gmon2cg -o new.cg prog prof.1 && gmon2cg --compare --codequality=perf-quality.json base.cg new.cg >cmp.txt
gmon2cg --summary=2 --prefix-map=.=fixtures -o /dev/null fixtures/mingw/x86-64/prog.exe fixtures/mingw/x86-64/gmon.out
	gmon2cg --summary=2 --prefix-map=.=fixtures -o mingw.cg fixtures/mingw/x86-64/prog.exe fixtures/mingw/x86-64/gmon.out
gmon2cg -o prog.cg prog.exe gmon.out
	cd fixtures/mingw/x86-64 && gmon2cg -o $work/prog.cg prog.exe gmon.out
gmon2cg --prefix-map=.=fixtures -o base.cg fixtures/compare/base/prog fixtures/compare/base/gmon.01.out
	gmon2cg --prefix-map=.=fixtures -o base.cg fixtures/compare/base/prog fixtures/compare/base/gmon.01.out
gmon2cg --prefix-map=.=fixtures -o slower.cg fixtures/compare/slower/prog fixtures/compare/slower/gmon.01.out
	gmon2cg --prefix-map=.=fixtures -o slower.cg fixtures/compare/slower/prog fixtures/compare/slower/gmon.01.out
gmon2cg --compare base.cg slower.cg; echo "exit status $?"
	gmon2cg -o base.cg fixtures/compare/base/prog fixtures/compare/base/gmon.01.out && gmon2cg -o slower.cg fixtures/compare/slower/prog fixtures/compare/slower/gmon.01.out && { gmon2cg --compare base.cg slower.cg >cmp.txt; [ $? -eq 3 ]; }
gmon2cg --compare base.cg new.cg
	gmon2cg -o base.cg prog gmon.out && gmon2cg -o new.cg prog prof.1 && gmon2cg --compare base.cg new.cg >cmp.txt
gmon2cg --compare [OPTION]... OLD NEW
	gmon2cg -o old.cg prog gmon.out && gmon2cg -o new.cg prog prof.1 && gmon2cg --compare --fail-on=self:+50% old.cg new.cg >cmp.txt
gmon2cg --compare base1.cg,base2.cg new1.cg,new2.cg
	for f in base1 base2 new1 new2; do gmon2cg -o $f.cg prog gmon.out || exit; done && gmon2cg --compare base1.cg,base2.cg new1.cg,new2.cg >cmp.txt
gmon2cg --compare --junit=perf.xml -o diff.cg --fail-on=self:+10% \
	gmon2cg -o base.cg.gz prog gmon.out && gmon2cg -o new.cg.gz prog prof.1 && gmon2cg --compare --junit=perf.xml -o diff.cg --fail-on=self:+10% --fail-on=calls:1 base.cg.gz new.cg.gz >cmp.txt && grep -q '<testsuite name="gmon2cg --compare"' perf.xml
gmon2cg --compare --fail-on=self:+10%,calls:1 baseline/prog.cg prog.cg
	mkdir -p baseline && gmon2cg -o prog.cg prog gmon.out && cp prog.cg baseline/ && gmon2cg --compare --fail-on=self:+10%,calls:1 baseline/prog.cg prog.cg >cmp.txt
gmon2cg --compare --junit=perf.xml --fail-on=self:+10%,calls:1
	mkdir -p perf && gmon2cg -o perf/baseline.cg.gz prog gmon.out && gmon2cg -o prog.cg prog gmon.out && gmon2cg --compare --junit=perf.xml --fail-on=self:+10%,calls:1 perf/baseline.cg.gz prog.cg >cmp.txt
gmon2cg -o perf/baseline.cg.gz prog gmon.out
	mkdir -p perf && gmon2cg -o perf/baseline.cg.gz prog gmon.out && cp perf/baseline.cg.gz baseline.gz
gmon2cg -o prog.cg prog
	mkdir -p bsd && cp prog bsd/ && cp gmon.out bsd/prog.gmon && cd bsd && gmon2cg -o $work/prog.cg prog
gmon2cg -o /tmp/ldp/mix.cg ldprofile/libmix.so.1 /tmp/ldp/libmix.so.1.profile
	walkthrough
gmon2cg -o /tmp/ldp/zlib.cg /usr/bin/python3 /tmp/ldp/libz.so.1.profile
	walkthrough
gmon2cg -o /tmp/ldp/both.cg ldprofile/prog-pg /tmp/ldp/gmon.* /tmp/ldp/libmix.so.1.profile
	walkthrough
gmon2cg /usr/bin/xz liblzma.so.5.profile
	run by tests/ldprofile-stripped.sh
gmon2cg [OPTION]... EXECUTABLE [GMON_FILE]...
	gmon2cg -o callgrind.out prog
	gmon2cg --gzip -o out.gz.cg prog gmon.out
	gmon2cg -o out.cg.gz prog gmon.out
	gmon2cg prog - < gmon.out > stdin.cg
	gmon2cg --rate=1000 --force --stats -z --no-demangle --no-inline -o options.cg prog gmon.out
	gmon2cg --no-instr -E main -e main -F compute_row -f compute_row -N main -n main -k main/compute_row -a -o select.cg prog gmon.out
	gmon2cg --library=fixtures/ldprofile/libmix.so.1 --debug-dir=. -o lib.cg fixtures/ldprofile/prog fixtures/ldprofile/nopg/libmix.so.1.profile
	gmon2cg --help > help.txt
FORMS
)
missing=$(awk -F '\n' 'NR == FNR { if ($0 !~ /^\t/) known[$0] = 1; next }
	!($0 in known) { print }' <(printf '%s\n' "$forms") "$tmp/readme-forms")
[ -f "${user_docs[1]}" ] && [ -z "$missing" ]
check "every command line of README and doc/guide has a run here"
printf '%s\n' "$missing" | diag

# A scratch checkout: the calltree fixture as prog and its runs, all
# fixtures below fixtures/, gmon2cg on PATH.
work=$tmp/work
mkdir -p "$work/fixtures" "$tmp/bin" "$tmp/home/src/proj" "$tmp/home/src/firmware"
cp -pR "$FIXTURES"/calltree "$FIXTURES"/cycle "$FIXTURES"/interp "$FIXTURES"/ldprofile "$FIXTURES"/cortex-m "$FIXTURES"/mingw "$FIXTURES"/compare \
	"$work/fixtures/"
cp "$FIXTURES/calltree/prog" "$work/prog"
cp "$FIXTURES/calltree/prog" "$work/fw.elf"
for f in gmon.out prof.1 prof.2 gmon.out.1 gmon.out.2; do
	cp "$FIXTURES/calltree/gmon.out" "$work/$f"
done
ln -s "$GMON2CG" "$tmp/bin/gmon2cg"

# Each run: exit 0, and every file it wrote is a callgrind profile (gzip
# compressed where it ends in .gz or was asked for with --gzip), a
# speedscope profile (.json), a Code Quality report (*quality.json), a
# flame graph (.svg), or text (--version, --help, a report).
while IFS= read -r line; do
	case $line in
	$'\t'walkthrough | $'\t'"run by "* | '') continue ;;
	$'\t'*) cmd=${line#$'\t'} ;;
	*) continue ;;
	esac
	rm -f "$work"/*.cg "$work"/*.gz "$work"/*.txt "$work"/*.json "$work"/*.svg "$work/callgrind.out"
	(cd "$work" && HOME=$tmp/home PATH=$tmp/bin:$PATH work=$work bash -c "$cmd") \
		>"$tmp/out" 2>"$tmp/err"
	st=$? bad=
	written=$(cd "$work" && ls -- *.cg *.gz *.txt *.json *.svg callgrind.out 2>/dev/null)
	[ -n "$written" ] || bad="no output"
	for f in $written; do
		case $f in
		*.txt) [ -s "$work/$f" ] || bad="$f empty" ;;
		*quality.json) head -c 1 "$work/$f" | grep -q '\[' || bad="$f is not a Code Quality report" ;;
		*.svg) grep -q '^<svg ' "$work/$f" || bad="$f is not an SVG file" ;;
		*.json) grep -q '"\$schema": *"https://www.speedscope.app/file-format-schema.json"' "$work/$f" ||
			bad="$f is not a speedscope profile" ;;
		*.gz | out.gz.cg) gzip -dc "$work/$f" | head -n 1 | grep -qx '# callgrind format' ||
			bad="$f is not a gzip-compressed profile" ;;
		*) head -n 1 "$work/$f" | grep -qx '# callgrind format' || bad="$f is not a profile" ;;
		esac
	done
	[ "$st" -eq 0 ] && [ -z "$bad" ]
	check "$cmd" || diag "exit $st${bad:+, $bad}: $(head -n 3 "$tmp/err")"
done <<<"$forms"
finish
