# tests/local.mk -- the test suite, run by "make check".
check_PROGRAMS = tests/unit/test-gmon tests/unit/test-callgraph \
	tests/unit/test-writer tests/unit/test-decode tests/unit/test-outstream \
	tests/unit/test-lines tests/unit/test-util tests/unit/test-propagate \
	tests/unit/test-srcmap tests/unit/test-hashindex tests/unit/test-speedscope \
	tests/unit/test-noise tests/unit/test-convert \
	tests/unit/test-outcheck
# A unit test is tests/unit/NAME.c, listed above: its source and the
# library (LDADD) are automake's defaults; its headers are distributed
# below.
LDADD = libgmon2cg.a
# allocation failure on demand, for the reader's out-of-memory paths
tests_unit_test_lines_LDFLAGS = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc


SHELL_TESTS = tests/checker.sh tests/oom.sh tests/hostile-exe.sh tests/dwarf.sh tests/gprof-options.sh tests/gprof-options-table.sh tests/stale.sh tests/call-sites.sh tests/nodecoder.sh tests/lazy-decoder.sh tests/cli.sh tests/gprof.sh tests/formats.sh tests/cross.sh tests/mingw.sh tests/selection.sh tests/errors.sh tests/positions.sh tests/debuginfo.sh tests/deviations.sh tests/annotate.sh tests/kcachegrind.sh tests/golden.sh tests/viewers.sh tests/speedscope.sh tests/forge.sh tests/flamegraph.sh tests/completion.sh tests/cortex-m.sh tests/riscv-baremetal.sh
TESTS = $(check_PROGRAMS) $(SHELL_TESTS)
TEST_EXTENSIONS = .sh
# Every test speaks TAP, so each check is a line of test-suite.log; the
# unit tests run as they are (or under LOG_COMPILER, e.g. valgrind).
TAP_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
LOG_DRIVER = $(TAP_DRIVER)
SH_LOG_DRIVER = $(TAP_DRIVER)
SH_LOG_COMPILER = $(BASH)
AM_TESTS_ENVIRONMENT = \
	srcdir='$(srcdir)'; export srcdir; \
	GMON2CG='$(abs_top_builddir)/gmon2cg'; export GMON2CG; \
	FIXTURES='$(abs_top_srcdir)/fixtures'; export FIXTURES; \
	PACKAGE_VERSION='$(PACKAGE_VERSION)'; export PACKAGE_VERSION; \
	GPROF='$(GPROF)'; export GPROF; \
	CALLGRIND_ANNOTATE='$(CALLGRIND_ANNOTATE)'; export CALLGRIND_ANNOTATE; \
	PYTHON3='$(PYTHON3)'; export PYTHON3; \
	BFD_MULTIARCH='$(BFD_MULTIARCH)'; export BFD_MULTIARCH; \
	OPCODES_SONAME='$(OPCODES_SONAME)'; export OPCODES_SONAME; CC='$(CC)'; export CC; \
	PYTHONDONTWRITEBYTECODE=1; export PYTHONDONTWRITEBYTECODE;

EXTRA_DIST += tests/test-lib.sh $(SHELL_TESTS) tests/unit/gmon-bytes.h \
	tests/unit/check.h tests/unit/fake.h tests/unit/worked.h \
	tests/valgrind.supp tests/lsan.supp
# tests/golden is copied here, not named in EXTRA_DIST: as a target, make's
# built-in rule would try to make it from tests/golden.sh.
# (bench/work, the benchmark's git-ignored builds of up to 7 GB, is no
# part of a release)
dist-hook:
	cp -pR $(srcdir)/tests/golden $(distdir)/tests/
	chmod -R u+w $(distdir)/tests/golden
	rm -rf $(distdir)/bench/work
EXTRA_DIST += tests/lib/callgrind_model.py tests/lib/gprof_model.py \
	tests/lib/exact_hist.py tests/lib/compare_gprof.py tests/lib/gmon_rewrite.py \
	tests/lib/check_positions.py tests/lib/check_viewers.py tests/lib/kcg-check \
	tests/lib/bare-metal.bash \
	tests/lib/compare_gprof_pct.py tests/lib/compare_flat.py tests/lib/annotate_gprof.py \
	tests/lib/check_callgrind.py tests/lib/checked-run.bash tests/checker/clean.cg

# tests/kcachegrind.sh keeps its screenshots here for people to look at.
clean-local: clean-screenshots
clean-screenshots:
	rm -rf tests/screenshots
.PHONY: clean-screenshots

# "make golden": rewrite the golden outputs from the current build.
golden: gmon2cg
	G2C_GOLDEN_UPDATE=1 srcdir='$(srcdir)' GMON2CG='$(abs_top_builddir)/gmon2cg' \
	FIXTURES='$(abs_top_srcdir)/fixtures' BFD_MULTIARCH='$(BFD_MULTIARCH)' \
	$(BASH) $(srcdir)/tests/golden.sh
.PHONY: golden

# dump-gmon prints what the gmon reader read; tests/ldprofile.sh compares
# that with tests/lib/ldprofile.py.  Built only for that test.
EXTRA_PROGRAMS = tests/unit/dump-gmon
tests/ldprofile.log: tests/unit/dump-gmon$(EXEEXT)
SHELL_TESTS += tests/ldprofile.sh tests/ldprofile-convert.sh tests/ldprofile-find.sh
SHELL_TESTS += tests/manyc.sh
SHELL_TESTS += tests/hostile-input.sh
SHELL_TESTS += tests/names.sh
SHELL_TESTS += tests/walkthrough.sh
SHELL_TESTS += tests/readme-examples.sh
SHELL_TESTS += tests/prefix-map.sh
SHELL_TESTS += tests/bsd.sh
SHELL_TESTS += tests/memory-bound.sh
SHELL_TESTS += tests/readme-forms.sh
SHELL_TESTS += tests/lambda.sh
SHELL_TESTS += tests/ldprofile-stripped.sh
SHELL_TESTS += tests/call-stubs.sh
SHELL_TESTS += tests/compare.sh
SHELL_TESTS += tests/compare-calls.sh
SHELL_TESTS += tests/sum.sh
SHELL_TESTS += tests/guide-links.sh
# (builds the Debian package from a copy of the sources: about a minute)
SHELL_TESTS += tests/debian-package.sh
EXTRA_DIST += tests/lib/ldprofile.py tests/lib/ldprofile_compare.py
# tests/speedscope.sh's comparison of speedscope's sandwich view with gprof
EXTRA_DIST += tests/lib/check_speedscope.py
# tests/forge.sh: the reports for GitHub and GitLab
EXTRA_DIST += tests/lib/check_forge.py tests/lib/ci_recipes.py tests/lib/perf-prog.c
# tests/flamegraph.sh: --format=svg against speedscope, and in Chromium
EXTRA_DIST += tests/lib/check_flamegraph.py tests/lib/check_flamegraph_diff.py \
	tests/lib/flamegraph-checks.js
MOSTLYCLEANFILES = tests/unit/dump-gmon$(EXEEXT) tests/flamegraph-*.png
EXTRA_DIST += tests/fuzz/seeds

# The corpus of Debian packages: run by .ci/run as a step of its own, or
# "make check TESTS=tests/corpus/run.sh"; not in the default TESTS (it
# fetches sources and builds for minutes).
EXTRA_DIST += tests/corpus/run.sh tests/corpus/gen-text tests/corpus/gen-json \
	tests/corpus/zero_calls.py tests/corpus/annotate_check.py \
	tests/corpus/samples_kept.py tests/corpus/call_sites.py \
	tests/corpus/tinyxml2-driver.cpp tests/corpus/bzip2.recipe \
	tests/corpus/jsoncpp.recipe tests/corpus/lua.recipe tests/corpus/lz4.recipe \
	tests/corpus/tinyxml2.recipe tests/corpus/xxhash.recipe \
	tests/corpus/libbz2.recipe tests/corpus/liblz4.recipe tests/corpus/libz.recipe \
	tests/corpus/bins_kept.py tests/corpus/re2-driver.cpp tests/corpus/gawk.recipe \
	tests/corpus/sqlite3.recipe tests/corpus/re2.recipe tests/corpus/xz.recipe \
	tests/corpus/zopfli.recipe tests/corpus/zstd.recipe tests/corpus/liblzma.recipe \
	tests/corpus/xz-sum.recipe tests/corpus/xz-nostatic.recipe \
	tests/corpus/minpack.recipe tests/corpus/minpack-driver.f90 \
	tests/corpus/yaml-cpp.recipe tests/corpus/yaml-cpp-driver.cpp \
	tests/corpus/gawk-sum.recipe tests/corpus/libdeflate.recipe \
	tests/corpus/lua-static-pie.recipe
