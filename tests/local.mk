# tests/local.mk -- the test suite, run by "make check".
check_PROGRAMS = tests/unit/test-gmon tests/unit/test-callgraph
tests_unit_test_gmon_SOURCES = tests/unit/test-gmon.c tests/unit/check.h
tests_unit_test_gmon_LDADD = libgmon2cg.a
tests_unit_test_callgraph_SOURCES = tests/unit/test-callgraph.c tests/unit/check.h
tests_unit_test_callgraph_LDADD = libgmon2cg.a

TESTS = $(check_PROGRAMS)
