#!/bin/bash
# forge.sh -- gmon2cg --compare's reports for forges, on fixtures/compare
# converted as on a build server in another directory (/builds/ci/):
# GitHub's workflow commands (--annotations=github) after the report, on
# the function's line of the checkout's file, escaped as GitHub documents;
# the Markdown summary (--markdown) rendered by python3-markdown, its
# table's numbers the report's; GitLab's Code Quality report
# (--codequality) with the fields GitLab documents and fingerprints the
# same in other runs and another checkout (tests/lib/check_forge.py).
. "${srcdir:-.}/tests/test-lib.sh"

cmp=$FIXTURES/compare
[ -f "$cmp/base/gmon.01.out" ] || skip "fixtures/compare not generated (fixtures/regen-compare.sh)"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
lib=$(cd "${srcdir:-.}/tests/lib" && pwd)
check_forge=$lib/check_forge.py
xmllint=$(command -v xmllint || true)
# (the user documentation by absolute paths: the checks below run in the
# source tree's top)
docs=()
for d in "${user_docs[@]}"; do docs+=("$(cd "$(dirname "$d")" && pwd)/$(basename "$d")"); done
# (the Markdown library is Debian's python3-markdown: the system's python)
markdown_python=
for p in "$PYTHON3" /usr/bin/python3; do
	if "$p" -c 'import markdown' 2>/dev/null; then markdown_python=$p; break; fi
done

for v in base slower; do
	for n in 01 02; do
		"$GMON2CG" --prefix-map=.=/builds/ci/fixtures -o "$tmp/$v.$n.cg" \
			"$cmp/$v/prog" "$cmp/$v/gmon.$n.out" 2>/dev/null ||
			not_ok "$v run $n converts"
	done
done
# another checkout, in another directory
"$GMON2CG" --prefix-map=.=/home/runner/work/two/fixtures -o "$tmp/other.cg" \
	"$cmp/slower/prog" "$cmp/slower/gmon.01.out" 2>/dev/null
check "the profiles convert"

# The job runs in the checkout: the sources are found there by suffix.
cd "${srcdir:-.}" || exit 1

expect 3 '' "$GMON2CG" --compare --annotations=github --markdown="$tmp/summary.md" \
	--codequality="$tmp/cq.json" "$tmp/base.01.cg" "$tmp/slower.01.cg"
cp "$tmp/out" "$tmp/report"
"$PYTHON3" "$check_forge" github "$tmp/report" hot_a=error tick=error 2>&1 | diag
[ "${PIPESTATUS[0]}" -eq 0 ]
check "annotations: an ::error per function past a gate, on its file and line in the checkout"
grep -qx '::error file=fixtures/compare/src/main.c,line=54,title=hot_a fails --fail-on=self%3A+0%25::hot_a: self time 10.9s -> 14.5s (+32.3%25) crosses --fail-on=self:+0%25; beyond noise at p = [0-9.e-]*; these runs find +[0-9]*%25 or more' "$tmp/report" &&
	grep -qx '::error file=fixtures/compare/src/main.c,line=64,title=tick fails --fail-on=calls%3A1::tick: calls 1000 -> 1001 (+1) crosses --fail-on=calls:1' "$tmp/report"
check "annotations: ':' and ',' escaped in properties, '%' everywhere, as GitHub documents"
awk '/^::/ { commands = 1; next } commands { exit 1 }' "$tmp/report" &&
	grep -q '^2 of 9 functions changed; 2 past a gate\.$' "$tmp/report"
check "annotations: after the whole report"

# The summary's table has the report's numbers.
if [ -n "$markdown_python" ]; then
	"$markdown_python" "$check_forge" markdown "$tmp/summary.md" 'hot_a=fails self:+0%' \
		'tick=fails calls:1' >"$tmp/table" 2>"$tmp/md.err"
	check "summary: rendered by python3-markdown, its table a row per function past a gate"
	diag <"$tmp/md.err"
	ok_numbers=yes
	for f in '(total)' hot_a tick; do
		# the report's row: name line, then self old new change, incl..., calls old new change
		want=$(awk -v f="$f" '$2 == f { getline; gsub(/\*/, ""); print $1, $2, $3, $7, $8, $9; exit }' "$tmp/report")
		got=$(awk -F '\t' -v f="$f" '$2 == f { print $4, $5, $6, $7, $8, $9 }' "$tmp/table")
		[ -n "$want" ] && [ "$want" = "$got" ] || { ok_numbers=no; diag "$f: report '$want', summary '$got'"; }
	done
	[ "$ok_numbers" = yes ]
	check "summary: self times, changes and calls as the text report has them"
else
	skip_check "summary rendered by a Markdown library" "python3-markdown not installed"
fi
grep -q '^### gmon2cg --compare: failed$' "$tmp/summary.md" &&
	grep -q '| fixtures/compare/src/main.c:54 |' "$tmp/summary.md"
check "summary: the verdict, and the checkout's file and line"

# Code Quality: GitLab's fields; a finding's fingerprint the same in
# another pair of runs and from another checkout.
"$PYTHON3" "$check_forge" codequality "$tmp/cq.json" hot_a=major tick=major >"$tmp/fp1" 2>"$tmp/cq.err"
check "Code Quality: GitLab's documented fields, a major issue per function past a gate"
diag <"$tmp/cq.err"
expect 3 '' "$GMON2CG" --compare --codequality="$tmp/cq2.json" "$tmp/base.02.cg" "$tmp/slower.02.cg"
expect 3 '' "$GMON2CG" --compare --codequality="$tmp/cq3.json" "$tmp/base.01.cg" "$tmp/other.cg"
"$PYTHON3" "$check_forge" codequality "$tmp/cq2.json" hot_a=major tick=major >"$tmp/fp2" 2>&1 &&
	"$PYTHON3" "$check_forge" codequality "$tmp/cq3.json" hot_a=major tick=major >"$tmp/fp3" 2>&1 &&
	cmp -s "$tmp/fp1" "$tmp/fp2" && cmp -s "$tmp/fp1" "$tmp/fp3"
check "Code Quality: fingerprints the same in another pair of runs and another checkout"
expect 0 '' "$GMON2CG" --compare --annotations=github --codequality="$tmp/none.json" \
	--markdown="$tmp/none.md" "$tmp/base.01.cg" "$tmp/base.02.cg"
! grep -q '^::' "$tmp/out" && [ "$(cat "$tmp/none.json")" = '[]' ] &&
	grep -q '^### gmon2cg --compare: passed$' "$tmp/none.md" &&
	grep -q '^No function changed beyond noise\.$' "$tmp/none.md"
check "one build against itself: no command, an empty Code Quality report, a passed summary"

# Names with the characters GitHub escapes, a change within the gates
# and an inconclusive one (40 samples, 55 % slower), in a source file of
# the checkout.
gen() {	# gen SLOW STEADY MOVED: their samples; 18 more of 200
	synthetic_profile /builds/ci/fixtures/compare/src/util.c 'slow%25,:|*_<b>'="$1" \
		steady="$2" moved="$3" $(printf 'busy_%d=200 ' $(seq 4 21))
}
gen 40 200 400 >"$tmp/g-base.cg" && gen 62 200 300 >"$tmp/g-new.cg"
expect 0 '' "$GMON2CG" --compare --fail-on=self:+0% --annotations=github \
	--markdown="$tmp/g.md" --codequality="$tmp/g.json" "$tmp/g-base.cg" "$tmp/g-new.cg"
cp "$tmp/out" "$tmp/g-report"
"$PYTHON3" "$check_forge" github "$tmp/g-report" 'slow%25,:|*_<b>=notice' moved=warning 2>&1 | diag
[ "${PIPESTATUS[0]}" -eq 0 ] &&
	grep -q '^::notice file=fixtures/compare/src/util.c,title=slow%2525%2C%3A|\*_<b> inconclusive::slow%2525,:|\*_<b>: self time 400ms' "$tmp/g-report"
check "annotations: a ::warning for a change within the gates, a ::notice for an inconclusive one, names escaped"
"$PYTHON3" "$check_forge" codequality "$tmp/g.json" 'slow%25,:|*_<b>=info' moved=minor >/dev/null 2>"$tmp/g.err"
check "Code Quality: minor for a change within the gates, info for an inconclusive one"
diag <"$tmp/g.err"
if [ -n "$markdown_python" ]; then
	"$markdown_python" - "$tmp/g.md" <<'EOF' 2>&1 | diag
import sys, markdown, html.parser
page = markdown.markdown(open(sys.argv[1]).read(), extensions=["tables"])
class Text(html.parser.HTMLParser):
    text = ""
    def handle_data(self, d): self.text += d
t = Text(); t.feed(page)
assert "slow%25,:|*_<b> (fixtures/compare/src/util.c): self time 400ms -> 620ms" in t.text, t.text
assert "these runs find +95% or more" in t.text, t.text
assert "moved" in t.text and "<b>" not in page, page
EOF
	[ "${PIPESTATUS[0]}" -eq 0 ]
	check "summary: the inconclusive function with the change the runs could find; markup in names shown as text"
fi

# -- The guide's GitHub Actions and GitLab CI recipes, run as a pull or
# merge request's job would run them (their shell lines, in order, with
# the forge's variables set; tests/lib/ci_recipes.py reads them): the
# main branch's profile, made in another directory, is the baseline; the
# request's build calls step once more.
recipes_python=
for p in "$PYTHON3" /usr/bin/python3; do
	if "$p" -c 'import yaml' 2>/dev/null; then recipes_python=$p; break; fi
done
if [ -z "$recipes_python" ] || ! command -v cc >/dev/null; then
	skip_check "the guide's CI recipes run" "python3 with yaml, or cc, not found"
else
	ci=$tmp/ci
	mkdir -p "$ci/bin" "$ci/main"
	ln -s "$GMON2CG" "$ci/bin/gmon2cg"
	cp "$lib/perf-prog.c" "$ci/prog.c"
	# make: the project's build, CALLS calls of step
	printf '#!/bin/sh\nexec cc -pg -g -O1 -DCALLS=${CALLS:-3} -o prog prog.c\n' >"$ci/bin/make"
	# curl: the artifact download, the main branch's profile
	printf '#!/bin/sh\nwhile [ $# -gt 1 ]; do case $1 in -*o) out=$2; shift ;; esac; shift; done\nexec cp "%s" "$out"\n' \
		"$ci/main/prog.cg.gz" >"$ci/bin/curl"
	chmod +x "$ci/bin/make" "$ci/bin/curl"
	(cd "$ci/main" && cp ../prog.c . && PATH=$ci/bin:$PATH make && ./prog --bench &&
		PATH=$ci/bin:$PATH gmon2cg -o prog.cg.gz prog gmon.out) >/dev/null 2>&1
	check "the main branch's profile, made in another directory"
	"$recipes_python" "$lib/ci_recipes.py" "${docs[@]}" >"$tmp/recipes"
	check "the guide's CI recipes read"
	# run_recipe FORGE ENV...: its lines in a fresh checkout; the status
	# of the first that fails, or 0
	run_recipe() {
		local forge=$1 line st=0 f
		shift
		rm -rf "$ci/job" && mkdir "$ci/job" && cp "$ci/prog.c" "$ci/job/"
		: >"$ci/$forge.out"
		while IFS=$'\t' read -r f line; do
			[ "$f" = "$forge" ] || continue
			(cd "$ci/job" && env PATH="$ci/bin:$PATH" MAIN="$ci/main" CALLS=4 CI=true "$@" \
				bash -c "$line") >>"$ci/$forge.out" 2>>"$ci/$forge.err"
			st=$?
			[ "$st" -eq 0 ] || break
		done <"$tmp/recipes"
		return "$st"
	}
	run_recipe github GITHUB_ACTIONS=true GITHUB_WORKSPACE="$ci/job" \
		GITHUB_STEP_SUMMARY="$ci/job/step-summary.md" GITHUB_REF=refs/pull/1/merge \
		GITHUB_BASE_REF=main GITHUB_EVENT_NAME=pull_request
	st=$?
	[ "$st" -eq 3 ] && grep -q '^::error file=prog.c,line=[0-9]*,title=step fails --fail-on=calls%3A1::step: calls 3 -> 4 (+1)' "$ci/github.out"
	check "the guide's GitHub Actions recipe fails the pull request's run (status $st) with an annotation on step in prog.c"
	(cd "$ci/job" && "$PYTHON3" "$check_forge" github "$ci/github.out" step=error) >/dev/null 2>"$tmp/ci.err"
	check "... its workflow commands as GitHub documents them, on the checkout's file and line"
	diag <"$tmp/ci.err"
	grep -q '^| \*\*fails\*\* calls:1 | step | prog.c:[0-9]* |' "$ci/job/step-summary.md" &&
		[ -s "$ci/job/perf.xml" ] && grep -q '^<svg ' "$ci/job/prog.svg" &&
		{ [ -z "$xmllint" ] || "$xmllint" --noout "$ci/job/prog.svg"; }
	check "... the job summary in \$GITHUB_STEP_SUMMARY, perf.xml, and prog.svg for the artifact"
	# GitLab: the first run (no baseline to download yet) passes; a merge
	# request's job fails
	mv "$ci/bin/curl" "$ci/curl.main"
	printf '#!/bin/sh\nexit 22\n' >"$ci/bin/curl" && chmod +x "$ci/bin/curl"
	run_recipe gitlab GITLAB_CI=true CI_API_V4_URL=https://gitlab.example.com/api/v4 CI_PROJECT_ID=7
	check "the guide's GitLab CI recipe: the first run, with no baseline to download, passes"
	mv "$ci/curl.main" "$ci/bin/curl"
	run_recipe gitlab GITLAB_CI=true CI_API_V4_URL=https://gitlab.example.com/api/v4 CI_PROJECT_ID=7 \
		CI_MERGE_REQUEST_IID=1 CI_PIPELINE_SOURCE=merge_request_event
	st=$?
	quality=$(awk -F '\t' '$1 == "reports" { print $3 }' "$tmp/recipes")
	[ "$st" -eq 3 ] && [ -n "$quality" ] &&
		(cd "$ci/job" && "$PYTHON3" "$check_forge" codequality "$quality" step=major) >/dev/null 2>"$tmp/ci.err"
	check "the guide's GitLab CI recipe fails the merge request's job (status $st); its Code Quality report lists step"
	diag <"$tmp/ci.err"
fi

# Usage: one of --compare's files on standard output at most; none with
# the annotations, which GitHub reads there.
expect 2 '--annotations=github writes to standard output: --markdown cannot go there too' \
	"$GMON2CG" --compare --annotations=github --markdown=- "$tmp/base.01.cg" "$tmp/slower.01.cg"
expect 2 '--junit and --codequality both to standard output' \
	"$GMON2CG" --compare --junit=- --codequality=- "$tmp/base.01.cg" "$tmp/slower.01.cg"
expect 2 "unknown --annotations 'gitlab'" \
	"$GMON2CG" --compare --annotations=gitlab "$tmp/base.01.cg" "$tmp/slower.01.cg"
expect 2 '--markdown=x is an option of --compare' "$GMON2CG" --markdown=x prog
expect 3 '' "$GMON2CG" --compare --codequality=- "$tmp/base.01.cg" "$tmp/slower.01.cg"
head -c 1 "$tmp/out" | grep -q '\[' && grep -q '^2 of 9 functions changed' "$tmp/err"
check "--codequality=-: the JSON on standard output, the report on standard error"
# A report that cannot be written leaves nothing behind.
expect 1 'write error' "$GMON2CG" --compare --markdown=/dev/full "$tmp/base.01.cg" "$tmp/slower.01.cg"

finish
