#!/bin/bash
# debian-package.sh -- the release's version is the same wherever it is
# written (configure.ac, gmon2cg --version, the man page, debian/changelog,
# NEWS), and debian/ builds a package whose gmon2cg, unpacked into a
# throwaway root, runs and converts as this build's does, installs the
# bash completion, and that lintian passes.  The package is built from a copy of the sources in $tmp: the
# tracked files as they are in the working tree in a git checkout, the
# whole source tree otherwise (a distribution tarball, as in distcheck).
. "${srcdir:-.}/tests/test-lib.sh"

# --- the version, everywhere it is written --------------------------------
version=$(sed -n 's/^AC_INIT(\[gmon2cg\], \[\([^]]*\)\].*/\1/p' "$srcdir/configure.ac")
[ -n "$version" ]; check "configure.ac's AC_INIT gives a version ($version)"
# agrees WHERE GOT: one check that GOT is configure.ac's version
agrees() {
	if [ "$2" = "$version" ]; then
		ok "$1 says $version, as configure.ac"
	else
		not_ok "$1 says '$2', configure.ac $version"
	fi
}
[ -z "${PACKAGE_VERSION:-}" ] || agrees "configure's PACKAGE_VERSION" "$PACKAGE_VERSION"
agrees "gmon2cg --version" "$("$GMON2CG" --version | sed -n '1s/^gmon2cg //p')"
agrees "doc/gmon2cg.1's .TH line" \
	"$(sed -n '1,/^\.TH/s/^\.TH .* "gmon2cg \([^"]*\)".*/\1/p' "$srcdir/doc/gmon2cg.1")"
agrees "debian/changelog's top entry" \
	"$(sed -n '1s/^gmon2cg (\([^)]*\)).*/\1/p' "$srcdir/debian/changelog")"
agrees "NEWS's top heading" \
	"$(sed -n 's/^\* Noteworthy changes in release \([^ ]*\) .*/\1/p' "$srcdir/NEWS" | head -n 1)"

# --- the package -----------------------------------------------------------
package_checks=("dpkg-buildpackage -us -uc -b builds the package"
	"the package's gmon2cg --version says $version"
	"the package's gmon2cg writes what this build's writes"
	"the package holds the man page, README, the user guide, NEWS, doc/internals.md and copyright"
	"the package installs the bash completion (dh_bash-completion)"
	"debian/tests/convert-fixture passes against the package's gmon2cg"
	"lintian: no error or warning on the .deb and the .changes")
# skip_package REASON: every check of the package is skipped
skip_package() {
	local c
	for c in "${package_checks[@]}"; do skip_check "$c" "$1"; done
	finish
}
command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null ||
	skip_package "dpkg-buildpackage or debhelper not installed"
# (the memcheck pass runs every gmon2cg of this build under valgrind; the
# package's own program is another build, and was checked in the plain run)
[ -z "${G2C_VALGRIND:-}" ] || skip_package "the package's gmon2cg does not run under memcheck"
[ -z "$paths_only" ] || skip_package "the package's gmon2cg is another build than this pass's; the plain pass checks it"
dpkg-checkbuilddeps "$srcdir/debian/control" 2>"$tmp/deps" ||
	skip_package "$(sed 's/^dpkg-checkbuilddeps: error: //' "$tmp/deps")"

mkdir "$tmp/src"
top=$(git -C "$srcdir" rev-parse --show-toplevel 2>/dev/null)
if [ -n "$top" ] && [ "$top" -ef "$srcdir" ]; then
	# (stash create: a commit of the working tree, none when it is clean)
	tree=$(git -C "$srcdir" stash create)
	git -C "$srcdir" archive "${tree:-HEAD}" | tar -x -C "$tmp/src"
else
	# (not distcheck's build and install directories inside it; its
	# sources are read-only)
	tar -C "$srcdir" --exclude=./_build --exclude=./_inst -cf - . | tar -C "$tmp/src" -xf -
	chmod -R u+w "$tmp/src"
fi
# Not in make check's environment: its MAKEFLAGS (the sanitizer pass's
# CFLAGS) and the variables the harness exports would reach the package's
# own configure and make.
if (cd "$tmp/src" && env -i PATH="$PATH" HOME="${HOME:-$tmp}" LC_ALL=C ${TMPDIR:+TMPDIR="$TMPDIR"} \
	dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1; then
	ok "${package_checks[0]}"
else
	not_ok "${package_checks[0]}"
	tail -n 30 "$tmp/build.log" | diag
	finish
fi

deb=$(echo "$tmp"/gmon2cg_"$version"_*.deb)
dpkg-deb -x "$deb" "$tmp/root"
packaged=$tmp/root/usr/bin/gmon2cg
[ "$("$packaged" --version | head -n 1)" = "gmon2cg $version" ]
check "${package_checks[1]}"
exe=$FIXTURES/calltree/prog gmon=$FIXTURES/calltree/gmon.out
"$packaged" -o "$tmp/packaged.cg" "$exe" "$gmon" 2>/dev/null &&
	"$GMON2CG" -o "$tmp/built.cg" "$exe" "$gmon" 2>/dev/null &&
	cmp -s "$tmp/packaged.cg" "$tmp/built.cg"
check "${package_checks[2]}"
doc=$tmp/root/usr/share/doc/gmon2cg
[ -f "$tmp/root/usr/share/man/man1/gmon2cg.1.gz" ] && [ -f "$doc/README.gz" ] &&
	[ -f "$doc/NEWS.gz" ] && [ -f "$doc/doc/internals.md.gz" ] && [ -f "$doc/copyright" ] &&
	(for chapter in "$srcdir"/doc/guide/*.md; do
		# (dh_compress leaves the small ones as they are)
		chapter=$doc/doc/guide/${chapter##*/}
		[ -f "$chapter" ] || [ -f "$chapter.gz" ] || exit 1
	done)
check "${package_checks[3]}"
cmp -s "$tmp/root/usr/share/bash-completion/completions/gmon2cg" "$srcdir/completion/gmon2cg"
check "${package_checks[4]}"
if [ -n "${CALLGRIND_ANNOTATE:-}" ]; then
	if (cd "$tmp/src" && GMON2CG=$packaged CALLGRIND_ANNOTATE=$CALLGRIND_ANNOTATE \
		sh debian/tests/convert-fixture) >"$tmp/autopkgtest.log" 2>&1; then
		ok "${package_checks[5]}"
	else
		not_ok "${package_checks[5]}"
		diag <"$tmp/autopkgtest.log"
	fi
else
	skip_check "${package_checks[5]}" "callgrind_annotate not found"
fi
if command -v lintian >/dev/null; then
	if lintian --fail-on error,warning "$tmp"/gmon2cg_"$version"_*.changes >"$tmp/lintian.log" 2>&1 &&
		! grep -q '^[EW]: ' "$tmp/lintian.log"; then
		ok "${package_checks[6]}"
	else
		not_ok "${package_checks[6]}"
		diag <"$tmp/lintian.log"
	fi
else
	skip_check "${package_checks[6]}" "lintian not installed"
fi
finish
