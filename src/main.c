/* main.c -- gmon2cg: convert gprof profiles to callgrind format.
 *
 * Parses the command line and wires the stages together: the objects
 * (object, symtab, code) and the profiles (gmon) -> call graph (callgraph)
 * -> source positions (srcmap) -> writer (callgrind) -> output (outstream).
 * The only place that prints diagnostics or decides the exit status.
 */
#include <config.h>

#include <inttypes.h>
#if HAVE_MALLOC_H
#include <malloc.h>
#endif
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attribute.h"
#include "callgraph.h"
#include "callgrind.h"
#include "code.h"
#include "diag.h"
#include "gmon.h"
#include "object.h"
#include "options.h"
#include "outstream.h"
#include "program.h"
#include "report.h"
#include "select.h"
#include "srcline.h"
#include "srcmap.h"
#include "symtab.h"
#include "util.h"

/* The --prefix-map options, OLD=NEW each.  Returns the maps (NULL when
 * there are none), or NULL with ERR set. */
static struct prefix_map *read_prefix_maps(const struct options *o,
					   struct g2c_error *err)
{
	struct prefix_map *maps;

	if (o->prefix_maps.n == 0)
		return NULL;
	maps = calloc(o->prefix_maps.n, sizeof *maps);
	if (!maps) {
		g2c_error_set(err, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < o->prefix_maps.n; i++) {
		const char *spec = o->prefix_maps.names[i];
		const char *eq = strchr(spec, '=');

		maps[i] = (struct prefix_map){ spec, eq + 1, (size_t)(eq - spec) };
	}
	return maps;
}

/* Warnings are printed only when the conversion succeeds: a failed run
 * says one line, its error.  (A warning that finds no memory is lost.) */
struct warnings {
	char **lines;
	size_t n;
};

__attribute__((format(printf, 2, 3)))
static void warn(struct warnings *w, const char *fmt, ...)
{
	char **lines = realloc(w->lines, (w->n + 1) * sizeof *lines);
	va_list ap;

	if (!lines)
		return;
	w->lines = lines;
	va_start(ap, fmt);
	if (vasprintf(&lines[w->n], fmt, ap) >= 0)
		w->n++;
	va_end(ap);
}

/* Prints the warnings when the run succeeded, and frees them. */
static void print_warnings(struct warnings *w, bool succeeded)
{
	fflush(stdout);
	for (size_t i = 0; i < w->n; i++) {
		/* (a file name cannot break the line) */
		copy_printable(w->lines[i], w->lines[i], strlen(w->lines[i]));
		if (succeeded)
			fprintf(stderr, "%s: warning: %s\n", PACKAGE_NAME, w->lines[i]);
		free(w->lines[i]);
	}
	free(w->lines);
}

static int report(const struct g2c_error *err)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", PACKAGE_NAME, err->msg);
	return EXIT_DATA;
}

/* What is converted at once: every object's profile (or, with --parts,
 * one gmon.out of the executable), and what the writer says of them. */
struct conversion {
	struct gmon_profile *profs;	/* per object */
	struct cg_object *cgo;		/* per object */
	char **desc;			/* desc: lines on the objects */
	size_t ndesc;
};

static void conversion_release(struct conversion *c, size_t nobjs)
{
	for (size_t o = 0; c->profs && o < nobjs; o++)
		gmon_profile_release(&c->profs[o]);
	for (size_t i = 0; i < c->ndesc; i++)
		free(c->desc[i]);
	free(c->desc);
	free(c->profs);
	free(c->cgo);
}

/* The samples in PROF's histograms. */
static uint64_t count_samples(const struct gmon_profile *prof)
{
	uint64_t samples = 0;

	for (size_t h = 0; h < prof->nhists; h++)
		for (size_t i = 0; i < prof->hists[h].ncounted; i++)
			samples += prof->hists[h].counted[i].count;
	return samples;
}

/* A desc: line saying what was profiled in object PO, from what, and
 * whether its static functions are missing. */
static int describe_object(struct conversion *c, const struct program_object *po,
			   const struct gmon_profile *prof, struct g2c_error *err)
{
	const char *symbols = po->obj.dynamic_symbols_only ?
		"; exported functions only (stripped, no debug file found)" : "";
	uint64_t samples = count_samples(prof);
	int n;

	if (po->nfiles == 0)
		n = asprintf(&c->desc[c->ndesc], "Object: %s: not profiled%s",
			     po->obj.path, symbols);
	else
		n = asprintf(&c->desc[c->ndesc], "Object: %s: %s from %s%s%s",
			     po->obj.path,
			     samples ? "samples and calls" : "calls only, no samples",
			     po->files[0], po->ld_profile ? " (LD_PROFILE)" : "",
			     symbols);
	if (n < 0)
		return g2c_error_set(err, "out of memory");
	c->ndesc++;
	return 0;
}

/* Positions without a decoder are histogram bins and call buckets: say
 * so, and how to get one, once per object (also as a --stats line). */
static void warn_no_decoder(struct warnings *w, const struct code *code,
			    bool stats)
{
	warn(w, "%s: this gmon2cg cannot decode its instructions (%s): costs"
	     " stay at histogram bins and calls at their hash buckets (build"
	     " gmon2cg with binutils-multiarch-dev for exact positions)",
	     code->obj->path, code_arch_name(code));
	fflush(stdout);
	if (stats)
		fprintf(stderr, "%s: stats: instructions of %s: not decoded (%s)\n",
			PACKAGE_NAME, code->obj->path, code_arch_name(code));
}

/* A library's LD_PROFILE profile with calls but no samples: the time
 * spent in it was seen by nobody, which the output alone does not say. */
static void warn_calls_only(struct warnings *w, const struct program_object *po,
			    const struct gmon_profile *prof)
{
	if (po->ld_profile && prof->narcs > 0 && count_samples(prof) == 0)
		warn(w, "%s: call counts but no samples: a program built with"
		     " -pg takes the profiling timer for its own gmon.out, so"
		     " no time in %s was sampled (gprof says \"no time"
		     " accumulated\"); profile a program built without -pg for"
		     " its time", po->files[0], base_name(po->obj.path));
}

/* Viewers show sources only where the file names lead: when none of them
 * exists here, say so (and how to map them) in one line; --stats counts
 * them.  Returns 0, or -1 with ERR set. */
static int check_sources(struct warnings *w, const struct source_map *map,
			 const struct callgraph *cg, bool stats,
			 struct g2c_error *err)
{
	size_t named, found;
	const char *example;

	if (source_map_count_files(map, cg, &named, &found, &example) < 0)
		return g2c_error_set(err, "out of memory");
	fflush(stdout);
	if (stats)
		fprintf(stderr, "%s: stats: source files: %zu named, %zu of them"
			" found here\n", PACKAGE_NAME, named, found);
	if (named > 0 && found == 0)
		warn(w, "none of the %zu source files the profile names is here"
		     " (such as %s); --prefix-map=OLD=NEW says where they are",
		     named, example);
	return 0;
}

/* Reads the profiles of PROG's objects (the executable's: FILES[0..N)
 * instead when PART is not 0), and prepares their call-graph inputs. */
static int read_profiles(struct conversion *c, const struct options *o,
			 struct program *prog, const char **files, size_t n,
			 unsigned part, struct g2c_error *err)
{
	memset(c, 0, sizeof *c);
	c->profs = calloc(prog->nobjs, sizeof *c->profs);
	c->cgo = calloc(prog->nobjs, sizeof *c->cgo);
	c->desc = calloc(prog->nobjs, sizeof *c->desc);
	if (!c->profs || !c->cgo || !c->desc)
		return g2c_error_set(err, "out of memory");
	for (size_t i = 0; i < prog->nobjs; i++) {
		struct program_object *po = prog->objs[i];
		const char **own = i == 0 && part ? files : po->files;
		size_t nown = i == 0 && part ? n : po->nfiles;

		if (program_read_profiles(prog, i, own, nown, &c->profs[i],
					  err) < 0)
			return -1;
		if (code_open(&po->code, &po->obj, &po->st, err) < 0)
			return -1;
		c->cgo[i] = (struct cg_object){
			.obj = &po->obj, .st = &po->st, .code = &po->code,
			.prof = nown ? &c->profs[i] : NULL,
			.hz = gmon_profile_rate(&c->profs[i],
						o->rate ? o->rate : DEFAULT_RATE) };
		if ((prog->nobjs > 1 || po->ld_profile) &&
		    describe_object(c, po, &c->profs[i], err) < 0)
			return -1;
	}
	return 0;
}

/* Every object's function names as people read them: demangled on a
 * thread of their own while the profiles, call graph and lines were read. */
static int names_in_place(struct program *prog, struct g2c_error *err)
{
	for (size_t i = 0; i < prog->nobjs; i++)
		if (symtab_names(&prog->objs[i]->st, err) < 0)
			return -1;
	return 0;
}

/* Converts the profiles of PROG's objects into the output OS, as PART
 * (0: the only part) made of the executable's FILES[0..N). */
static int convert(const struct options *o, struct program *prog,
		   const struct prefix_map *maps, const struct cg_selection *sel,
		   const char **files, size_t n, unsigned part,
		   struct outstream *os, struct warnings *w,
		   struct g2c_error *err)
{
	struct conversion c;
	struct callgraph cg;
	struct source_map map = { 0 };
	struct source_lines **lines = calloc(prog->nobjs, sizeof *lines);
	const struct gmon_profile *first;
	struct callgrind_info info = { .dimen = "seconds", .part = part,
				       .no_instr = o->no_instr };
	const char *misfit;
	char dimen[sizeof first->hists[0].dimen];
	int rc = -1;

	if (!lines)
		return g2c_error_set(err, "out of memory");
	for (size_t i = 0; i < prog->nobjs; i++)
		lines[i] = &prog->objs[i]->lines;
	if (read_profiles(&c, o, prog, files, n, part, err) < 0)
		goto out;
	for (size_t i = 0; i < prog->nobjs && part <= 1; i++)
		warn_calls_only(w, prog->objs[i], &c.profs[i]);
	/* The header speaks of the first object that was profiled. */
	for (size_t i = 0; i < prog->nobjs && !info.source; i++) {
		if (!c.cgo[i].prof)
			continue;
		first = c.cgo[i].prof;
		info.source = i == 0 && part ? files[0] : prog->objs[i]->files[0];
		if (first->nhists > 0)
			info.dimen = strcpy(dimen, first->hists[0].dimen);
		info.rate_assumed = first->nhists > 0 && first->hists[0].rate == 0;
	}
	for (size_t i = 0; i < prog->nobjs; i++)
		info.nsources += (unsigned)(i == 0 && part ? n : prog->objs[i]->nfiles);
	info.desc = (const char *const *)c.desc;
	info.ndesc = c.ndesc;
	rc = callgraph_build(&cg, c.cgo, prog->nobjs, sel, err);
	/* Neither the raw profiles nor decoded code are needed for writing:
	 * free them before the line lookups load the debug information. */
	for (size_t i = 0; i < prog->nobjs; i++) {
		if (rc == 0 && prog->objs[i]->code.no_decoder)
			warn_no_decoder(w, &prog->objs[i]->code, o->stats);
		code_close(&prog->objs[i]->code);
	}
	if (rc < 0)
		goto out;
	rc = -1;
	if (o->stats) {
		if (names_in_place(prog, err) < 0)
			goto release;
		fflush(stdout);
		report_stats(stderr, &cg, prog, c.profs, part ? files : NULL, n);
	}
	misfit = attribute_misfit(&cg);
	if (!misfit && cg.stats.arcs_not_after_call > 0)
		warn(w, "%" PRIu64 " of %" PRIu64 " call arcs of %s are not where"
		     " %s's calls return (was it rebuilt after profiling?)",
		     cg.stats.arcs_not_after_call, cg.stats.arcs_checked,
		     info.source, o->exe);
	if (misfit && !o->force) {
		g2c_error_set(err, "%s%s: does not belong to %s: %s (--force converts anyway)",
			      info.source, info.nsources > 1 ? " and the other profiles" : "",
			      o->exe, misfit);
	} else if (source_map_build(&map, &cg, lines, o->no_inline,
				    !o->parts, maps, o->prefix_maps.n, err) == 0 &&
		   check_sources(w, &map, &cg, o->stats, err) == 0 &&
		   names_in_place(prog, err) == 0) {
		rc = callgrind_write(&cg, &map, &info, os, err);
		if (rc == 0 && o->summary) {
			fflush(stdout);
			report_summary(stderr, &cg, o->summary);
		}
	}
release:
	source_map_release(&map);
	callgraph_release(&cg);
out:
	for (size_t i = 0; i < prog->nobjs; i++)
		code_close(&prog->objs[i]->code);
	conversion_release(&c, prog->nobjs);
	free(lines);
	return rc;
}

/* Refuses an output that is one of the inputs: an object, its debug file
 * or a profile. */
static int check_output(const struct options *o, const struct program *prog,
			struct g2c_error *err)
{
	const char **inputs;
	size_t n = 0, cap = 0;
	int rc;

	for (size_t i = 0; i < prog->nobjs; i++)
		cap += 2 + prog->objs[i]->nfiles;
	inputs = calloc(cap, sizeof *inputs);
	if (!inputs)
		return g2c_error_set(err, "out of memory");
	for (size_t i = 0; i < prog->nobjs; i++) {
		const struct program_object *po = prog->objs[i];

		inputs[n++] = po->obj.path;
		if (po->obj.debug_path)
			inputs[n++] = po->obj.debug_path;
		for (size_t k = 0; k < po->nfiles; k++)
			inputs[n++] = po->files[k];
	}
	rc = outstream_check_inputs(o->output, inputs, n, err);
	free(inputs);
	return rc;
}

/* The objects of the program, each with its profile files. */
static int open_program(struct program *prog, const struct options *o,
			struct g2c_error *err)
{
	struct program_options popts = {
		.debug_dir = o->debug_dir,
		.symbols = { o->demangle, o->no_statics },
		.libraries = o->libraries.names, .nlibraries = o->libraries.n,
		/* --parts reads them one at a time */
		.read_ahead = !o->parts,
	};

	if (program_open(prog, o->exe, o->gmon_files, (size_t)o->ngmon, &popts,
			 err) < 0)
		return -1;
	if (o->parts && prog->nobjs > 1)
		return g2c_error_set(err, "--parts keeps the gmon.out files of the executable apart; it cannot be combined with LD_PROFILE files");
	return 0;
}

/* The stages allocate and free tables of megabytes in turn.  From the
 * heap, and not handed back, one's pages serve the next; mapped afresh,
 * each is faulted in and zeroed again (a quarter of the system time of
 * a large conversion). */
static void reuse_freed_memory(void)
{
#if HAVE_MALLOPT && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

int main(int argc, char **argv)
{
	struct options o;
	struct program prog = { 0 };
	struct prefix_map *maps = NULL;
	struct select_object *sobjs = NULL;
	struct outstream os;
	struct selection sel = { 0 };
	struct warnings warnings = { 0 };
	struct g2c_error err;
	int rc = -1;

	reuse_freed_memory();
	options_parse(argc, argv, &o);
	if (open_program(&prog, &o, &err) < 0 ||
	    (!(maps = read_prefix_maps(&o, &err)) && o.prefix_maps.n))
		goto out;
	sobjs = calloc(prog.nobjs, sizeof *sobjs);
	if (!sobjs) {
		g2c_error_set(&err, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < prog.nobjs; i++)
		sobjs[i] = (struct select_object){ &prog.objs[i]->st, &prog.objs[i]->lines };
	if (selection_build(&sel, &o, sobjs, prog.nobjs, &err) < 0 ||
	    check_output(&o, &prog, &err) < 0 ||
	    outstream_open(&os, o.output, o.gzip, &err) < 0)
		goto out;
	rc = 0;
	if (o.parts) {
		for (size_t i = 0; i < prog.objs[0]->nfiles && rc == 0; i++)
			rc = convert(&o, &prog, maps, &sel.sel, &prog.objs[0]->files[i],
				     1, (unsigned)i + 1, &os, &warnings, &err);
	} else {
		rc = convert(&o, &prog, maps, &sel.sel, NULL, 0, 0, &os, &warnings,
			     &err);
	}
	if (rc < 0)
		outstream_discard(&os);
	else
		rc = outstream_close(&os, &err);
out:
	print_warnings(&warnings, rc == 0);
	selection_release(&sel);
	free(sobjs);
	free(maps);
	program_close(&prog);
	options_release(&o);
	return rc < 0 ? report(&err) : EXIT_SUCCESS;
}
