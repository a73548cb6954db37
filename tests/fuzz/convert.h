/* convert.h -- the fuzz harnesses' conversion of one object and one
 * profile, all stages from the call graph to the writer, into /dev/null.
 * Failures are the expected end of most inputs; the sanitizers watch
 * the rest. */
#ifndef GMON2CG_FUZZ_CONVERT_H
#define GMON2CG_FUZZ_CONVERT_H

#include <stdio.h>

#include "callgraph.h"
#include "callgrind.h"
#include "code.h"
#include "diag.h"
#include "gmon.h"
#include "object.h"
#include "outstream.h"
#include "srcline.h"
#include "srcmap.h"
#include "symtab.h"

static inline void fuzz_convert(struct object *obj, struct symtab *st,
				struct source_lines *lines,
				const struct gmon_profile *prof, uint32_t hz)
{
	static FILE *devnull;
	struct callgrind_info info = { .dimen = "seconds", .source = "fuzz" };
	struct source_map map = { 0 };
	struct cg_object cgo;
	struct callgraph cg;
	struct outstream os;
	struct code code;
	struct g2c_error err;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		return;
	if (code_open(&code, obj, st, &err) < 0)
		return;
	cgo = (struct cg_object){ .obj = obj, .st = st, .code = &code,
				  .prof = prof, .hz = hz };
	if (callgraph_build(&cg, &cgo, 1, NULL, &err) == 0) {
		code_close(&code);
		outstream_from_file(&os, devnull, "/dev/null");
		if (source_map_build(&map, &cg, &(struct source_lines *){ lines }, false, true, NULL, 0, &err) == 0 &&
		    callgrind_write(&cg, &map, &info, &os, &err) == 0)
			outstream_close(&os, &err);
		source_map_release(&map);
		callgraph_release(&cg);
	}
	code_close(&code);
}

#endif
