/* fuzz-convert.h -- the fuzz harnesses' way into the conversion: objects
 * opened once and profiles made from each input, handed to the library's
 * convert_profiles(), the stages in the program's own order with the
 * "does this profile belong here" check and the self-check, into
 * /dev/null.  Failures are the expected end of most inputs; the
 * sanitizers watch the rest. */
#ifndef GMON2CG_FUZZ_CONVERT_H
#define GMON2CG_FUZZ_CONVERT_H

#include <stdio.h>
#include <stdlib.h>

#include "convert.h"
#include "diag.h"
#include "gmon_store.h"
#include "options.h"
#include "outstream.h"
#include "program.h"
#include "propagate.h"
#include "symtab.h"
#include "warnings.h"

/* Opens the object at PATH into PO as the program does (symbols with
 * their names, line reader); aborts the harness if it cannot. */
static inline void fuzz_open_object(struct program_object *po, const char *path)
{
	static const char *const files[] = { "fuzz" };
	struct g2c_error err;

	if (object_open(&po->obj, path, NULL, &err) < 0 ||
	    symtab_build(&po->st, &po->obj, &(struct symtab_options){ true }, &err) < 0 ||
	    symtab_names(&po->st, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		abort();
	}
	object_lines_init(&po->lines, &po->obj);
	po->files = (const char **)files;
	po->nfiles = 1;
}

/* Converts PROFS[i], the profile of OBJS[i] (i < N).  A gprof -s sum
 * folds an object's symbols as gprof did: they are put back after, so
 * that each input starts from the same objects. */
static inline void fuzz_convert(struct program_object **objs, size_t n,
				struct gmon_profile *profs)
{
	static FILE *devnull;
	static const struct cg_selection none;
	/* (--force: a made-up profile that does not fit goes on to the
	 * writer, past the check that says so) */
	const struct options o = { .exe = "fuzz", .demangle = true, .force = true };
	struct program prog = { .objs = objs, .nobjs = n };
	struct conversion_input in = { .o = &o, .prog = &prog, .profs = profs,
				       .sel = &none };
	size_t *owners[2] = { NULL, NULL };
	struct warnings w = { 0 };
	struct outstream os;
	struct g2c_error err;

	if (n > 2 || (!devnull && !(devnull = fopen("/dev/null", "w"))))
		return;
	for (size_t i = 0; i < n; i++) {
		if (!(owners[i] = calloc(objs[i]->st.nfuncs + 1, sizeof *owners[i])))
			goto out;
		for (size_t f = 0; f < objs[i]->st.nfuncs; f++)
			owners[i][f] = objs[i]->st.funcs[f].owner;
	}
	outstream_from_file(&os, devnull, "/dev/null");
	if (convert_profiles(&in, &os, &w, &err) == 0)
		outstream_close(&os, &err);
	for (size_t i = 0; i < n; i++)
		for (size_t f = 0; f < objs[i]->st.nfuncs; f++)
			objs[i]->st.funcs[f].owner = owners[i][f];
out:
	free(owners[0]);
	free(owners[1]);
	warnings_release(&w);
}

#endif
