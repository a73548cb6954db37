/* test-convert.c -- the conversion as the library's one call, as the
 * program makes it: convert_program() on a fixture writes exactly the
 * golden bytes the command line writes (tests/golden/calltree.cg); a
 * profile of another program is refused when the graph is built, after
 * the output was opened, with no output file, and converted with
 * --force; --stats and --summary are held for the caller to print; a
 * --prefix-map value without '=' or a -k without '/' from a caller is
 * refused, and so is --compare with no profile on one side. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "compare_run.h"
#include "convert.h"
#include "diag.h"
#include "options.h"
#include "warnings.h"

/* The contents of PATH, NUL-terminated; NULL if it cannot be read. */
static char *read_whole(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *text = NULL;
	long len;

	if (fp && fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 &&
	    fseek(fp, 0, SEEK_SET) == 0 && (text = malloc((size_t)len + 1))) {
		if (fread(text, 1, (size_t)len, fp) != (size_t)len) {
			free(text);
			text = NULL;
		} else
			text[len] = '\0';
	}
	if (fp)
		fclose(fp);
	return text;
}

/* TEXT with every FROM replaced by TO. */
static char *replace_all(const char *text, const char *from, const char *to)
{
	size_t n = 0, lf = strlen(from), lt = strlen(to);
	char *out, *o;

	for (const char *p = strstr(text, from); p; p = strstr(p + lf, from))
		n++;
	out = o = malloc(strlen(text) + n * lt + 1);
	if (!out)
		return NULL;
	for (const char *p; (p = strstr(text, from)); text = p + lf) {
		memcpy(o, text, (size_t)(p - text));
		o += p - text;
		memcpy(o, to, lt);
		o += lt;
	}
	strcpy(o, text);
	return out;
}

static void test_golden(const char *out)
{
	char *gmon[] = { "fixtures/calltree/gmon.out" };
	struct options o = { .exe = "fixtures/calltree/prog", .gmon_files = gmon,
			     .ngmon = 1, .demangle = true, .output = out };
	struct warnings w = { 0 };
	struct g2c_error err = { "" };
	char *exe = realpath(o.exe, NULL), *golden = NULL, *with_exe = NULL,
	     *expected = NULL, *got = NULL;

	CHECK(exe != NULL);
	CHECK(convert_program(&o, &w, &err) == 0);
	/* (at most: the sources are not where the fixture was built) */
	CHECK(w.n == 0 || (w.n == 1 && strstr(w.lines[0], "source files the profile names")));
	warnings_release(&w);
	CHECK((golden = read_whole("tests/golden/calltree.cg")) != NULL);
	CHECK((got = read_whole(out)) != NULL);
	if (exe && golden && got &&
	    (with_exe = replace_all(golden, "@EXE@", exe)) &&
	    (expected = replace_all(with_exe, "@VERSION@", PACKAGE_VERSION)))
		CHECK_STR_EQ(got, expected);
	else
		CHECK(!"the golden file and the output compared");
	free(exe);
	free(golden);
	free(with_exe);
	free(expected);
	free(got);
	unlink(out);
}

static void test_refused_late(const char *out)
{
	char *gmon[] = { "fixtures/calltree/gmon.out" };
	struct options o = { .exe = "fixtures/cxx/prog", .gmon_files = gmon,
			     .ngmon = 1, .demangle = true, .output = out };
	struct warnings w = { 0 };
	struct g2c_error err = { "" };

	CHECK(convert_program(&o, &w, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "fixtures/calltree/gmon.out: does not belong to fixtures/cxx/prog: ");
	CHECK(access(out, F_OK) != 0);
	warnings_release(&w);
	o.force = true;
	CHECK(convert_program(&o, &w, &err) == 0);
	CHECK(access(out, F_OK) == 0);
	warnings_release(&w);
	unlink(out);
}

/* A library caller's options are checked as the command line's are. */
static void test_bad_values(const char *out)
{
	char *gmon[] = { "fixtures/calltree/gmon.out" };
	const char *maps[] = { "no-equals-sign" };
	struct options o = { .exe = "fixtures/calltree/prog", .gmon_files = gmon,
			     .ngmon = 1, .demangle = true, .output = out,
			     .prefix_maps = { maps, 1 } };
	struct warnings w = { 0 };
	struct g2c_error err = { "" };

	CHECK(convert_program(&o, &w, &err) < 0);
	CHECK_STR_EQ(err.msg, "--prefix-map=no-equals-sign: not OLD=NEW");
	CHECK(access(out, F_OK) != 0);
	warnings_release(&w);
	o.prefix_maps.n = 0;
	o.drop_arcs = (struct name_list){ maps, 1 };
	CHECK(convert_program(&o, &w, &err) < 0);
	CHECK_STR_EQ(err.msg, "-k no-equals-sign: not FROM/TO");
	CHECK(access(out, F_OK) != 0);
	warnings_release(&w);
}

static void test_reports_held(const char *out)
{
	char *gmon[] = { "fixtures/calltree/gmon.out" };
	struct options o = { .exe = "fixtures/calltree/prog", .gmon_files = gmon,
			     .ngmon = 1, .demangle = true, .output = out,
			     .stats = true, .summary = 3 };
	struct warnings w = { 0 };
	struct g2c_error err = { "" };

	CHECK(convert_program(&o, &w, &err) == 0);
	CHECK(w.held != NULL);
	if (w.held) {
		fflush(w.held);
		CHECK_STR_CONTAINS(w.held_text, "gmon2cg: stats: samples: 203 at 100 Hz");
		CHECK_STR_CONTAINS(w.held_text, "gmon2cg: flat profile, 3 of ");
	}
	warnings_release(&w);
	unlink(out);
}

/* --compare as a library call: a side without profiles is refused. */
static void test_compare_one_side(void)
{
	const char *old[] = { "tests/golden/calltree.cg" };
	struct options o = { .compare = true,
			     .compare_files = { { old, 1 }, { NULL, 0 } } };
	struct g2c_error err = { "" };
	bool gate_crossed = true;

	CHECK(compare_run(&o, &gate_crossed, &err) < 0);
	CHECK_STR_EQ(err.msg, "--compare needs a profile on each side");
}

int main(void)
{
	const char *srcdir = getenv("srcdir");
	char out[] = "/tmp/test-convert-XXXXXX";
	int fd = mkstemp(out);

	CHECK(fd >= 0);
	if (fd >= 0) {
		close(fd);
		unlink(out);
	}
	/* (the inputs relative to the source tree, as tests/golden.sh names them) */
	CHECK(chdir(srcdir ? srcdir : ".") == 0);
	test_golden(out);
	test_refused_late(out);
	test_reports_held(out);
	test_bad_values(out);
	test_compare_one_side();
	return check_report("test-convert");
}
