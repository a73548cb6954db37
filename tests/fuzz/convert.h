/* convert.h -- the fuzz harnesses' conversion of objects and their
 * profiles, all stages from the call graph to the writer, into /dev/null,
 * in src/convert.c's order.
 * Failures are the expected end of most inputs; the sanitizers watch
 * the rest. */
#ifndef GMON2CG_FUZZ_CONVERT_H
#define GMON2CG_FUZZ_CONVERT_H

#include <stdio.h>

#include "attribution.h"
#include "callgraph.h"
#include "callgrind_write.h"
#include "diag.h"
#include "gmon_store.h"
#include "machine_code.h"
#include "object.h"
#include "object_lines.h"
#include "outstream.h"
#include "propagate.h"
#include "source_map.h"
#include "symtab.h"

#define FUZZ_MAX_OBJECTS 2

/* The objects OBJS[0..N) (each with .obj and .st set), IN[i] being
 * OBJS[i]'s profile (.prof and .hz set; .code is opened here) and
 * LINES[i] its lines. */
static inline void fuzz_convert_objects(struct cg_object *objs,
					struct attribution_input *in, size_t n,
					struct object_lines **lines)
{
	static FILE *devnull;
	static const struct cg_selection none;
	struct callgrind_write_info info = { .dimen = "seconds",
					     .source = "fuzz" };
	struct source_map map = { 0 };
	struct callgraph cg;
	struct attribution_stats stats = { 0 };
	struct outstream os;
	struct machine_code code[FUZZ_MAX_OBJECTS];
	struct g2c_error err;
	size_t opened = 0;

	if (n > FUZZ_MAX_OBJECTS ||
	    (!devnull && !(devnull = fopen("/dev/null", "w"))))
		return;
	for (; opened < n; opened++) {
		if (machine_code_open(&code[opened], objs[opened].obj,
				      objs[opened].st, &err) < 0)
			goto out;
		in[opened].code = &code[opened];
	}
	if (callgraph_init(&cg, objs, n, &err) == 0 &&
	    attribute_profiles(&cg, in, &none, &stats, &err) == 0 &&
	    propagate_graph(&cg, &none, &err) == 0) {
		for (size_t i = 0; i < n; i++)
			machine_code_close(&code[i]);
		outstream_from_file(&os, devnull, "/dev/null");
		if (source_map_build(&map, &cg, lines, false, true, false, NULL, 0, &err) == 0 &&
		    callgrind_write(&cg, &map, &info, &os, &err) == 0)
			outstream_close(&os, &err);
		source_map_release(&map);
	}
	callgraph_release(&cg);
out:
	for (size_t i = 0; i < opened; i++)
		machine_code_close(&code[i]);
}

static inline void fuzz_convert(struct object *obj, struct symtab *st,
				struct object_lines *lines,
				const struct gmon_profile *prof, uint32_t hz)
{
	struct cg_object cgo = { .obj = obj, .st = st };
	struct attribution_input in = { .prof = prof, .hz = hz };

	fuzz_convert_objects(&cgo, &in, 1, &lines);
}

#endif
