/* main.c -- gmon2cg: convert gprof profiles to callgrind format.
 *
 * Parses the command line and wires the stages together: the objects
 * (object, symtab, code) and the profiles (gmon) -> call graph (callgraph)
 * -> source positions (srcline) -> writer (callgrind) -> output (outstream).
 * The only place that prints diagnostics or decides the exit status.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"
#include "callgrind.h"
#include "code.h"
#include "diag.h"
#include "gmon.h"
#include "object.h"
#include "options.h"
#include "outstream.h"
#include "report.h"
#include "select.h"
#include "srcline.h"
#include "symtab.h"

/* One object of the program being converted, and what is derived from it. */
struct loaded_object {
	struct object obj;
	struct symtab st;
	struct code code;
	struct source_lines lines;
};

/* The objects of the program being converted: the executable first. */
struct program {
	struct loaded_object *objs;
	size_t nobjs;
	struct prefix_map *maps;	/* from --prefix-map */
	size_t nmaps;
};

/* The --prefix-map options, OLD=NEW each, into PROG.  Returns 0, or -1
 * with ERR set. */
static int read_prefix_maps(struct program *prog, const struct options *o,
			    struct g2c_error *err)
{
	if (o->prefix_maps.n == 0)
		return 0;
	prog->maps = calloc(o->prefix_maps.n, sizeof *prog->maps);
	if (!prog->maps)
		return g2c_error_set(err, "out of memory");
	for (size_t i = 0; i < o->prefix_maps.n; i++) {
		const char *spec = o->prefix_maps.names[i];
		const char *eq = strchr(spec, '=');

		prog->maps[i] = (struct prefix_map){ spec, eq + 1,
						     (size_t)(eq - spec) };
	}
	prog->nmaps = o->prefix_maps.n;
	return 0;
}

static int report(const struct g2c_error *err)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", PACKAGE_NAME, err->msg);
	return EXIT_DATA;
}

/* Opens the object PATH and what is derived from it into LO.  Returns 0,
 * or -1 with ERR set. */
static int load_object(struct loaded_object *lo, const char *path,
		       const struct options *o, struct g2c_error *err)
{
	memset(lo, 0, sizeof *lo);
	if (object_open(&lo->obj, path, o->debug_dir, err) < 0)
		return -1;
	if (symtab_build(&lo->st, &lo->obj,
			 &(struct symtab_options){ o->demangle, o->no_statics },
			 err) < 0) {
		object_close(&lo->obj);
		return -1;
	}
	source_lines_init(&lo->lines, &lo->obj);
	return 0;
}

static void unload_object(struct loaded_object *lo)
{
	source_lines_close(&lo->lines);
	symtab_release(&lo->st);
	object_close(&lo->obj);
}

/* Reads FILES[0..N) into one profile, builds its call graph and writes it
 * as PART (0: the only part). */
static int convert(const struct options *o, struct program *prog,
		   const struct cg_selection *sel, char **files, int n,
		   unsigned part, struct outstream *os, struct g2c_error *err)
{
	struct loaded_object *exe = &prog->objs[0];
	struct gmon_profile prof;
	struct callgraph cg;
	struct source_map map = { 0 };
	struct cg_object objs[1];
	struct callgrind_info info = { .dimen = "seconds", .part = part,
				       .source = files[0],
				       .nsources = (unsigned)n,
				       .no_instr = o->no_instr };
	const char *misfit;
	char dimen[sizeof prof.hists[0].dimen];
	enum gmon_format format;
	int rc = -1;

	gmon_profile_init(&prof);
	for (int i = 0; i < n; i++)
		if (gmon_profile_add_file(&prof, &exe->obj.target, files[i], err) < 0)
			goto out;
	if (prof.nhists > 0)
		info.dimen = strcpy(dimen, prof.hists[0].dimen);
	format = prof.first_format;
	info.rate_assumed = prof.nhists > 0 && prof.hists[0].rate == 0;
	if (code_open(&exe->code, &exe->obj, &exe->st, err) < 0)
		goto out;
	objs[0] = (struct cg_object){
		.obj = &exe->obj, .st = &exe->st, .code = &exe->code,
		.prof = &prof,
		.hz = gmon_profile_rate(&prof, o->rate ? o->rate : DEFAULT_RATE) };
	rc = callgraph_build(&cg, objs, 1, sel, err);
	/* Neither the raw profile nor decoded code is needed for writing:
	 * free them before the line lookups load the debug information. */
	code_close(&exe->code);
	gmon_profile_release(&prof);
	if (rc < 0)
		goto out;
	rc = -1;
	if (o->stats) {
		fflush(stdout);
		report_stats(stderr, &cg, files, n, format);
	}
	misfit = callgraph_misfit(&cg);
	if (misfit && !o->force) {
		g2c_error_set(err, "%s%s: does not belong to %s: %s (--force converts anyway)",
			      files[0], n > 1 ? " and the other profiles" : "",
			      o->exe, misfit);
	} else if (source_map_build(&map, &cg, &exe->lines, o->no_inline,
				    prog->maps, prog->nmaps, err) == 0) {
		rc = callgrind_write(&cg, &map, &info, os, err);
		if (rc == 0 && o->summary) {
			fflush(stdout);
			report_summary(stderr, &cg, o->summary);
		}
	}
	source_map_release(&map);
	callgraph_release(&cg);
out:
	gmon_profile_release(&prof);
	return rc;
}

int main(int argc, char **argv)
{
	struct options o;
	struct loaded_object exe;
	struct program prog = { &exe, 1, NULL, 0 };
	struct outstream os;
	struct selection sel = { 0 };
	struct g2c_error err;
	int rc = 0;

	options_parse(argc, argv, &o);
	if (load_object(&exe, o.exe, &o, &err) < 0) {
		options_release(&o);
		return report(&err);
	}
	if (read_prefix_maps(&prog, &o, &err) < 0 ||
	    selection_build(&sel, &o, &(struct select_object){ &exe.st, &exe.lines },
			    1, &err) < 0 ||
	    outstream_open(&os, o.output, o.gzip, &err) < 0) {
		rc = -1;
		goto out;
	}
	if (o.parts) {
		for (int i = 0; i < o.ngmon && rc == 0; i++)
			rc = convert(&o, &prog, &sel.sel, &o.gmon_files[i], 1,
				     (unsigned)i + 1, &os, &err);
	} else {
		rc = convert(&o, &prog, &sel.sel, o.gmon_files, o.ngmon, 0, &os,
			     &err);
	}
	if (rc < 0)
		outstream_discard(&os);
	else
		rc = outstream_close(&os, &err);
out:
	selection_release(&sel);
	free(prog.maps);
	unload_object(&exe);
	options_release(&o);
	return rc < 0 ? report(&err) : EXIT_SUCCESS;
}
