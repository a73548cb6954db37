# test-lib.sh -- shared helpers for the shell tests (sourced).
# The harness exports GMON2CG, FIXTURES and the tools found by configure.
set -u
LC_ALL=C
export LC_ALL

fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gmon2cg-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# not_ok MESSAGE: records a failure and says why.
not_ok() {
	echo "FAIL: $*"
	fail=1
}

ok() {
	echo "ok: $*"
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# The fixtures every end-to-end test runs over.
fixture_names() {
	for d in "$FIXTURES"/*/; do
		[ -f "$d/prog" ] && [ -f "$d/gmon.out" ] && basename "$d"
	done
}

finish() {
	exit "$fail"
}
