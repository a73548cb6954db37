# test-lib.sh -- shared helpers for the shell tests (sourced).
#
# How a test script is written (tests/NAME.sh, listed in SHELL_TESTS in
# tests/local.mk, run by "make check" or alone from the top source
# directory as "srcdir=. GMON2CG=./gmon2cg FIXTURES=fixtures bash tests/NAME.sh"):
#
#   #!/bin/bash
#   # NAME.sh -- what the script shows, in a sentence or two.
#   . "${srcdir:-.}/tests/test-lib.sh"
#   [ -n "$GPROF" ] || skip "gprof not found"     # before any check
#   "$GMON2CG" -o "$tmp/a.cg" "$exe" "$gmon"; check "converts"
#   grep -q '^events: ns$' "$tmp/a.cg"; check "the event is ns"
#   expect 1 "truncated" "$GMON2CG" "$exe" "$tmp/cut.out"
#   finish
#
# The script speaks TAP on stdout (automake's tap-driver.sh reads it), so
# every check is one line of test-suite.log:
#   ok DESC          a check that passed: "ok N - DESC"
#   not_ok DESC      a check that failed: "not ok N - DESC"
#   check DESC       ok or not_ok by the exit status of the command just
#                    before it ("CMD; check DESC")
#   expect ...       runs a command and checks its status and stderr (below)
#   skip_check DESC REASON   a check that cannot run here: "ok N - DESC # SKIP"
#   skip REASON      the whole script cannot run here; only before any check
#   diag TEXT...     diagnostics (or "CMD | diag"): "# " lines, never TAP
#   finish           the last line: prints the plan "1..N" and exits 0; the
#                    harness learns of failures from the "not ok" lines,
#                    so any other exit status means the script broke off
# Nothing else may print on stdout: send a command's output to a file in
# $tmp, or through diag.  DESC says what holds when the check passes.
#
# The harness exports GMON2CG, FIXTURES, srcdir and the tools configure
# found (GPROF, CALLGRIND_ANNOTATE, PYTHON3: empty when missing;
# BFD_MULTIARCH: yes when libbfd reads foreign targets).  "$GMON2CG" runs
# gmon2cg through the whole-output check (below): every callgrind file it
# writes is checked at finish; $G2C_BINARY is the program itself, for
# tools that read it (ldd).  $tmp is a private
# directory, removed on exit; files for people to look at after the run
# (screenshots) go below "$builddir/tests/", which "make clean" cleans.
set -u
LC_ALL=C
export LC_ALL

checks=0 failures=0
builddir=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gmon2cg-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# With G2C_VALGRIND set, every run of gmon2cg goes through valgrind's
# memcheck; any error or leak makes it exit 99.
if [ -n "${G2C_VALGRIND:-}" ]; then
	printf '#!/bin/sh\nexec valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible --suppressions=%s/tests/valgrind.supp "%s" "$@"\n' \
		"$(cd "${srcdir:-.}" && pwd)" "$GMON2CG" >"$tmp/gmon2cg"
	chmod +x "$tmp/gmon2cg"
	GMON2CG=$tmp/gmon2cg
fi

# G2C_PATHS_ONLY is set by .ci/run for the memcheck and sanitizer
# passes, which need every code path once, not every repetition: a test
# that repeats one path many times to measure a rate (compare.sh's pairs
# of runs) runs a few of them and leaves the rate to the plain pass, and
# a test of another build than this one (the Debian package's) is left
# to the plain pass.
paths_only=${G2C_PATHS_ONLY:+yes}

# The whole-output check: every callgrind file a successful run of gmon2cg
# writes (-o FILE, or standard output into a file or a pipe) is kept,
# through tests/lib/checked-run.bash, and finish checks them all with
# tests/lib/check_callgrind.py (the promises of the user guide's
# doc/guide/01-reading-the-output.md: costs add up, calls carry what they
# should, names are defined once, positions lie in their functions);
# each file with a violation is a failed check.  G2C_BINARY stays the
# program itself (for ldd).
G2C_BINARY=${G2C_BINARY:-$GMON2CG}
check_callgrind=$(cd "${srcdir:-.}/tests/lib" && pwd)/check_callgrind.py
mkdir "$tmp/outputs"
{
	printf '#!/bin/bash\nreal=%q dir=%q\n' "$GMON2CG" "$tmp/outputs"
	cat "${srcdir:-.}/tests/lib/checked-run.bash"
} >"$tmp/gmon2cg-checked"
chmod +x "$tmp/gmon2cg-checked"
GMON2CG=$tmp/gmon2cg-checked

# TAP descriptions are one line, and a '#' would start a directive.
tap_text() {
	printf '%s' "$*" | tr '\n#' ' _'
}

ok() {
	checks=$((checks + 1))
	echo "ok $checks - $(tap_text "$@")"
}

not_ok() {
	checks=$((checks + 1)) failures=$((failures + 1))
	echo "not ok $checks - $(tap_text "$@")"
}

check() {
	# shellcheck disable=SC2181 # the status of the caller's last command
	if [ $? -eq 0 ]; then ok "$@"; else not_ok "$@"; fi
}

skip_check() {
	checks=$((checks + 1))
	echo "ok $checks - $(tap_text "$1") # SKIP $(tap_text "$2")"
}

skip() {
	[ "$checks" -eq 0 ] || { not_ok "skip after $checks checks: $*"; finish; }
	echo "1..0 # SKIP $(tap_text "$@")"
	exit 0
}

diag() {
	if [ $# -gt 0 ]; then
		printf '%s\n' "$*" | sed 's/^/# /'
	else
		sed 's/^/# /'
	fi
}

# expect [-x] [-w] [-n NAME] STATUS MESSAGE CMD...: one check that CMD
# exits with STATUS and that its stderr matches MESSAGE (a grep pattern;
# with -x, MESSAGE is the whole of stderr), and that a run that fails with
# status 1, or with -w one that warns, says so in exactly one line.  An
# empty MESSAGE accepts any stderr.  CMD's stdout and stderr stay in
# $tmp/out and $tmp/err.
expect() {
	local exact=no one_line=no name='' want pattern got lines
	while :; do
		case $1 in
		-x) exact=yes; shift ;;
		-w) one_line=yes; shift ;;
		-n) name=$2; shift 2 ;;
		*) break ;;
		esac
	done
	want=$1 pattern=$2
	shift 2
	if [ -z "$name" ]; then
		# (short: the paths are the same in every check)
		name="$* -> $want" name=${name//"$GMON2CG"/gmon2cg}
		name=${name//"$tmp"/\$tmp} name=${name//"$FIXTURES"/\$FIXTURES}
	fi
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$got" -ne "$want" ]; then
		not_ok "$name: exit status $got, expected $want"
	elif [ "$exact" = yes ] && [ "$(cat "$tmp/err")" != "$pattern" ]; then
		not_ok "$name: stderr is not '$pattern'"
	elif [ "$exact" = no ] && [ -n "$pattern" ] && ! grep -q -- "$pattern" "$tmp/err"; then
		not_ok "$name: stderr lacks '$pattern'"
	elif { [ "$want" -eq 1 ] || [ "$one_line" = yes ]; } && [ "$lines" -ne 1 ]; then
		not_ok "$name: $lines lines on stderr, expected one"
	else
		ok "$name"
		return 0
	fi
	diag <"$tmp/err"
	return 1
}

# The fixtures every end-to-end test runs over, as paths below $FIXTURES;
# those of other architectures only when libbfd can read them.
fixture_names() {
	local d
	for d in "$FIXTURES"/*/ "$FIXTURES"/cross/*/; do
		case $d in */cross/*/) [ "${BFD_MULTIARCH:-no}" = yes ] || continue ;; esac
		# (the memcheck and sanitizer passes need each code path once: a
		# dynamic build differs from the static one of its architecture
		# by its PLT, which the others share, and HP-PA's import stubs)
		case $d in */cross/hppa-dynamic/) ;;
		*/cross/*-dynamic/) [ -z "$paths_only" ] || continue ;; esac
		[ -f "$d/prog" ] && [ -f "$d/gmon.out" ] && echo "${d#"$FIXTURES"/}" | sed 's|/$||'
	done
}

# All fixtures, with those of fixtures/positions, where gprof is wrong
# (for tests that do not compare with gprof).
all_fixture_names() {
	local d
	fixture_names
	for d in "$FIXTURES"/positions/*/; do
		[ -f "$d/prog" ] && [ -f "$d/gmon.out" ] && echo "${d#"$FIXTURES"/}" | sed 's|/$||'
	done
}

# KCachegrind's tools, or the first of them that is not installed.
kcachegrind_missing() {
	local tool
	for tool in kcachegrind Xvfb dbus-daemon xdotool import; do
		command -v "$tool" >/dev/null || { echo "$tool"; return; }
	done
}

# kcg_loads NAME PNG KCG-CHECK-ARGS...: one check, named NAME, that the
# real KCachegrind (tests/lib/kcg-check) loads the profile(s) in
# KCG-CHECK-ARGS with no loader message; its screenshot is PNG, beside it
# PNG's .facts and .stderr.
kcg_loads() {
	local name=$1 png=$2 status messages facts=${2%.png}.facts
	shift 2
	"$BASH" "$srcdir/tests/lib/kcg-check" "$@" "$png" >/dev/null 2>"$tmp/kcg-check.err"
	status=$?
	messages=$(sed -n 's/^loader_messages=//p' "$facts" 2>/dev/null)
	if [ "$status" -eq 0 ] && [ "$messages" = 0 ]; then
		ok "$name: KCachegrind loads it, no loader messages"
	else
		not_ok "$name: KCachegrind: kcg-check status $status, ${messages:-no} loader messages"
		diag <"$tmp/kcg-check.err"
		[ ! -f "$facts" ] || diag <"$facts"
		[ ! -f "${png%.png}.stderr" ] || tail -n 5 "${png%.png}.stderr" | diag
	fi
}

# The user documentation, README and the user guide's chapters: the
# tests that run its commands (readme-forms.sh, readme-examples.sh,
# walkthrough.sh, compare.sh) read all of it, so a command moved from
# one file to another is still run, and one added anywhere must have a run.
user_docs=("${srcdir:-.}/README" "${srcdir:-.}"/doc/guide/*.md)

# synthetic_profile SOURCE NAME=SAMPLES...: on stdout, a callgrind file
# as gmon2cg writes one, sampled at 100 Hz, of the functions NAME of the
# program's SOURCE with SAMPLES samples each (0: the writer's 1 ns of a
# function never sampled), for --compare's tests.
synthetic_profile() {
	local source=$1
	shift
	printf '%s\n' "$@" | awk -v source="$source" 'BEGIN {
		print "# callgrind format"; print "version: 1"
		print "desc: Sampling rate: 100 Hz"; print "positions: line"; print "events: ns"
		print "ob=(1) prog"; print "fl=(1) " source; p = 10000000 }
		{ eq = match($0, /=[0-9]+$/); name = substr($0, 1, eq - 1)
		  ns = substr($0, eq + 1) * p; if (ns == 0) ns = 1
		  printf "fn=(%d) %s\n1 %.0f\n", NR, name, ns; total += ns }
		END { printf "totals: %.0f\n", total }'
}

# A file name for fixture NAME's output.
out_name() {
	echo "$tmp/$(echo "$1" | tr / -).cg"
}

# One check that every callgrind file kept so far keeps the guide's
# promises (see above); a failed check per file that does not.
check_outputs() {
	local manifest=$tmp/outputs/manifest n status
	local python=${PYTHON3:-$(command -v python3)}
	[ -s "$manifest" ] || return 0
	n=$(wc -l <"$manifest")
	if [ -z "$python" ]; then
		skip_check "the whole-output check of $n callgrind files" "no python3"
		return 0
	fi
	"$python" "$check_callgrind" --manifest "$manifest" \
		>"$tmp/outputs/violations" 2>&1
	status=$?
	if [ "$status" -eq 0 ]; then
		ok "the whole-output check: $n callgrind files keep the README's promises"
	elif [ "$status" -eq 1 ]; then
		while IFS= read -r what; do
			grep -F -- "$what:" "$tmp/outputs/violations" >"$tmp/outputs/these" || continue
			not_ok "the whole-output check: $(wc -l <"$tmp/outputs/these") violations in $what"
			head -n 20 "$tmp/outputs/these" | diag
		done < <(cut -f 3 "$manifest" | sort -u)
	else
		not_ok "the whole-output check could not run (status $status)"
		diag <"$tmp/outputs/violations"
	fi
	: >"$manifest"
}

finish() {
	check_outputs
	# (a plan of 0 would read as a skip)
	[ "$checks" -gt 0 ] || not_ok "the script made no check"
	echo "1..$checks"
	[ "$failures" -eq 0 ] || diag "$failures of $checks checks failed"
	exit 0
}
