/* fuzz-pipeline.c -- libFuzzer harness: the whole conversion (reader, call
 * graph, writer) on arbitrary gmon data against a fixture executable.
 * Every input must give either a profile or one error message; the
 * sanitizers catch everything else.  FUZZ_EXE names the executable. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "callgraph.h"
#include "callgrind.h"
#include "diag.h"
#include "gmon.h"
#include "outstream.h"
#include "symtab.h"

static struct symtab st;
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct g2c_error err;
	const char *exe = getenv("FUZZ_EXE");

	(void)argc;
	(void)argv;
	if (!exe)
		exe = FUZZ_EXE;
	if (symtab_open(&st, exe, &(struct symtab_options){ true }, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		abort();
	}
	devnull = fopen("/dev/null", "w");
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct gmon_profile prof;
	struct callgraph cg;
	struct outstream os;
	struct g2c_error err;
	struct callgrind_info info = { "seconds" };

	gmon_profile_init(&prof);
	if (gmon_profile_add_buffer(&prof, &st.target, data, len, "fuzz", &err) == 0 &&
	    callgraph_build(&cg, &prof, &st, gmon_profile_rate(&prof, 100),
			    NULL, &err) == 0) {
		outstream_from_file(&os, devnull, "/dev/null");
		if (callgrind_write(&cg, &st, &info, &os, &err) == 0)
			outstream_close(&os, &err);
		callgraph_release(&cg);
	}
	gmon_profile_release(&prof);
	return 0;
}
