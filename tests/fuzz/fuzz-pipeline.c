/* fuzz-pipeline.c -- libFuzzer harness: the whole conversion (reader, call
 * graph, writer) on arbitrary gmon data against a fixture executable.
 * Every input must give either a profile or one error message; the
 * sanitizers catch everything else.  FUZZ_EXE names the executable. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "callgraph.h"
#include "callgrind.h"
#include "code.h"
#include "diag.h"
#include "gmon.h"
#include "object.h"
#include "outstream.h"
#include "srcline.h"
#include "symtab.h"

static struct object obj;
static struct symtab st;
static struct source_lines lines;
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct g2c_error err;
	const char *exe = getenv("FUZZ_EXE");

	(void)argc;
	(void)argv;
	if (!exe)
		exe = FUZZ_EXE;
	if (object_open(&obj, exe, NULL, &err) < 0 ||
	    symtab_build(&st, &obj, &(struct symtab_options){ true }, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		abort();
	}
	source_lines_init(&lines, &obj);
	devnull = fopen("/dev/null", "w");
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct gmon_profile prof;
	struct callgraph cg;
	struct code code;
	struct cg_object cgo;
	struct source_map map = { 0 };
	struct outstream os;
	struct g2c_error err;
	struct callgrind_info info = { .dimen = "seconds", .source = "fuzz" };

	gmon_profile_init(&prof);
	if (gmon_profile_add_buffer(&prof, &obj.target, data, len, "fuzz", &err) == 0 &&
	    code_open(&code, &obj, &st, &err) == 0) {
		cgo = (struct cg_object){ .obj = &obj, .st = &st, .code = &code,
					  .prof = &prof,
					  .hz = gmon_profile_rate(&prof, 100) };
		if (callgraph_build(&cg, &cgo, 1, NULL, &err) == 0) {
			outstream_from_file(&os, devnull, "/dev/null");
			if (source_map_build(&map, &cg, &(struct source_lines *){ &lines }, false, NULL, 0, &err) == 0 &&
			    callgrind_write(&cg, &map, &info, &os, &err) == 0)
				outstream_close(&os, &err);
			source_map_release(&map);
			callgraph_release(&cg);
		}
		code_close(&code);
	}
	gmon_profile_release(&prof);
	return 0;
}
