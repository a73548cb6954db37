/* fuzz-pipeline.c -- libFuzzer harness: the whole conversion (reader, call
 * graph, writer) on arbitrary gmon data against a fixture executable.
 * Every input must give either a profile or one error message; the
 * sanitizers catch everything else.  FUZZ_EXE names the executable. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "convert.h"

static struct object obj;
static struct symtab st;
static struct object_lines lines;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct g2c_error err;
	const char *exe = getenv("FUZZ_EXE");

	(void)argc;
	(void)argv;
	if (!exe)
		exe = FUZZ_EXE;
	if (object_open(&obj, exe, NULL, &err) < 0 ||
	    symtab_build(&st, &obj, &(struct symtab_options){ true }, &err) < 0 ||
	    symtab_names(&st, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		abort();
	}
	object_lines_init(&lines, &obj);
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct gmon_profile prof;
	struct g2c_error err;

	gmon_profile_init(&prof);
	if (gmon_profile_add_buffer(&prof, &obj.target, data, len, "fuzz", &err) == 0)
		fuzz_convert(&obj, &st, &lines, &prof, gmon_profile_rate(&prof, 100));
	gmon_profile_release(&prof);
	return 0;
}
