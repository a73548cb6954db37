/* fuzz-pipeline.c -- libFuzzer harness: the whole conversion (reader, call
 * graph, writer) on arbitrary gmon data against a fixture executable.
 * Every input must give either a profile or one error message; the
 * sanitizers catch everything else.  FUZZ_EXE names the executable. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "fuzz-convert.h"

static struct program_object po;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *exe = getenv("FUZZ_EXE");

	(void)argc;
	(void)argv;
	fuzz_open_object(&po, exe ? exe : FUZZ_EXE);
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct program_object *objs[1] = { &po };
	struct gmon_profile prof;
	struct g2c_error err;

	gmon_profile_init(&prof);
	if (gmon_profile_add_buffer(&prof, &po.obj.target, data, len, "fuzz", &err) == 0)
		fuzz_convert(objs, 1, &prof);
	gmon_profile_release(&prof);
	return 0;
}
