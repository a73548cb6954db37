# test-lib.sh -- shared helpers for the shell tests (sourced).
# The harness exports GMON2CG, FIXTURES and the tools found by configure.
set -u
LC_ALL=C
export LC_ALL

fail=0
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

# The fixtures every end-to-end test runs over, as paths below $FIXTURES;
# those of other architectures only when libbfd can read them.
fixture_names() {
	local d
	for d in "$FIXTURES"/*/ "$FIXTURES"/cross/*/; do
		case $d in */cross/*/) [ "${BFD_MULTIARCH:-no}" = yes ] || continue ;; esac
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

# A file name for fixture NAME's output.
out_name() {
	echo "$tmp/$(echo "$1" | tr / -).cg"
}

finish() {
	exit "$fail"
}
