/* convert.c -- the stages of a conversion in turn (see convert.h), and
 * what they are given: the objects' profiles read, the output described,
 * the --prefix-map values parsed. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "attribution.h"
#include "callgraph.h"
#include "callgrind_write.h"
#include "convert.h"
#include "diag.h"
#include "gmon_store.h"
#include "machine_code.h"
#include "object_lines.h"
#include "options.h"
#include "outcheck.h"
#include "outstream.h"
#include "program.h"
#include "propagate.h"
#include "report.h"
#include "selection.h"
#include "source_map.h"
#include "speedscope.h"
#include "svg.h"
#include "symtab.h"

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

/* What is converted at once: every object's profile (or, with --parts,
 * one gmon.out of the executable), and what the writer says of them. */
struct conversion {
	struct gmon_profile *profs;	/* per object */
	struct cg_object *cgo;		/* per object */
	struct attribution_input *inputs;	/* per object */
	char **desc;			/* desc: lines on the objects */
	size_t ndesc;
	char dimen[sizeof ((struct gmon_hist *)NULL)->dimen];	/* the header's */
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
	free(c->inputs);
}

/* Reads the profiles of PROG's objects (the executable's: FILES[0..N)
 * instead when PART is not 0), warns of those without samples, and
 * prepares their call-graph inputs. */
static int read_profiles(struct conversion *c, const struct options *o,
			 struct program *prog, const char **files, size_t n,
			 unsigned part, struct warnings *w,
			 struct g2c_error *err)
{
	double ns = 0;	/* that the profiles read so far stand for */

	memset(c, 0, sizeof *c);
	c->profs = calloc(prog->nobjs, sizeof *c->profs);
	c->cgo = calloc(prog->nobjs, sizeof *c->cgo);
	c->inputs = calloc(prog->nobjs, sizeof *c->inputs);
	c->desc = calloc(prog->nobjs, sizeof *c->desc);
	if (!c->profs || !c->cgo || !c->inputs || !c->desc)
		return g2c_error_set(err, "out of memory");
	for (size_t i = 0; i < prog->nobjs; i++) {
		struct program_object *po = prog->objs[i];
		const char **own = i == 0 && part ? files : po->files;
		size_t nown = i == 0 && part ? n : po->nfiles;

		if (program_read_profiles(prog, i, own, nown, &c->profs[i],
					  err) < 0)
			return -1;
		if (machine_code_open(&po->code, &po->obj, &po->st, err) < 0)
			return -1;
		c->cgo[i] = (struct cg_object){ .obj = &po->obj, .st = &po->st };
		c->inputs[i] = (struct attribution_input){
			.code = &po->code, .prof = nown ? &c->profs[i] : NULL,
			.hz = gmon_profile_rate(&c->profs[i],
						o->rate ? o->rate : DEFAULT_RATE) };
		if (nown && gmon_profile_add_ns(&c->profs[i], c->inputs[i].hz, &ns,
						own[0], err) < 0)
			return -1;
		if (nown) {
			report_no_samples(w, po, &c->profs[i], own[0], nown);
			report_calls_lost(w, &c->profs[i], own[0]);
		}
		if ((prog->nobjs > 1 || po->ld_profile) &&
		    report_describe_object(&c->desc[c->ndesc++], po,
					   &c->profs[i], err) < 0)
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

/* The writer's header: it speaks of the first object that was profiled,
 * and counts every profile read. */
static void describe_output(struct callgrind_write_info *info,
			    struct conversion *c, const struct program *prog, const char **files,
			    size_t n, unsigned part)
{
	info->dimen = "seconds";
	for (size_t i = 0; i < prog->nobjs && !info->source; i++) {
		const struct gmon_profile *first = c->inputs[i].prof;

		if (!first)
			continue;
		info->source = i == 0 && part ? files[0] : prog->objs[i]->files[0];
		if (first->nhists > 0)
			info->dimen = strcpy(c->dimen, first->hists[0].dimen);
		info->rate_assumed = first->nhists > 0 && first->hists[0].rate == 0;
	}
	for (size_t i = 0; i < prog->nobjs; i++)
		info->nsources += (unsigned)(i == 0 && part ? n : prog->objs[i]->nfiles);
	info->desc = (const char *const *)c->desc;
	info->ndesc = c->ndesc;
}

/* Writes CG in the format O asks for. */
static int write_profile(const struct options *o, const struct callgraph *cg,
			 const struct source_map *map,
			 const struct callgrind_write_info *info,
			 struct outstream *os,
			 struct g2c_error *err)
{
	struct speedscope_info ss = {
		.name = info->source,
		.in_seconds = strcmp(info->dimen, "seconds") == 0 };

	if (o->format == FORMAT_SPEEDSCOPE)
		return speedscope_write(cg, map, &ss, os, err);
	if (o->format == FORMAT_SVG)
		return svg_write_profile(cg, map, &(struct svg_info){ info->source }, os, err);
	return callgrind_write(cg, map, info, os, err);
}

/* Converts the profiles of PROG's objects into the output OS, as PART
 * (0: the only part) made of the executable's FILES[0..N). */
static int convert_part(const struct options *o, struct program *prog,
			const struct prefix_map *maps,
			const struct cg_selection *sel, const char **files,
			size_t n, unsigned part, struct outstream *os,
			struct warnings *w, struct g2c_error *err)
{
	struct conversion c;
	struct callgraph cg = { 0 };
	struct attribution_stats stats = { 0 };
	struct source_map map = { 0 };
	struct object_lines **lines = calloc(prog->nobjs, sizeof *lines);
	struct callgrind_write_info info = { .part = part,
					     .no_instr = o->no_instr };
	struct source_map_lines ahead;
	bool reading = false, read_ahead = false;
	int rc = -1;

	if (!lines)
		return g2c_error_set(err, "out of memory");
	for (size_t i = 0; i < prog->nobjs; i++)
		lines[i] = &prog->objs[i]->lines;
	if (read_profiles(&c, o, prog, files, n, part, w, err) < 0)
		goto out;
	for (size_t i = 0; i < prog->nobjs; i++) {
		size_t folded;
		const char *example;

		if (program_fold_summed(prog->objs[i], &c.profs[i], &folded,
					&example, err) < 0)
			goto out;
		if (folded)
			report_folded(w, prog->objs[i]->files[0], folded, example);
	}
	describe_output(&info, &c, prog, files, n, part);
	rc = callgraph_init(&cg, c.cgo, prog->nobjs, err);
	if (rc == 0)
		rc = attribute_profiles(&cg, c.inputs, sel, &stats, err);
	/* Once credited, neither the raw profiles nor decoded code are
	 * needed: free them before propagation sorts the positions and the
	 * line lookups load the debug information (a histogram with every
	 * bin counted is as large as those). */
	for (size_t i = 0; i < prog->nobjs; i++) {
		if (rc == 0)
			rc = machine_code_check_decoded(&prog->objs[i]->code, err);
		if (rc == 0 && prog->objs[i]->code.no_decoder)
			report_no_decoder(w, &prog->objs[i]->code, o->stats);
		machine_code_close(&prog->objs[i]->code);
		gmon_profile_drop_records(&c.profs[i]);
	}
	/* The line tables are read on a thread while the graph is
	 * propagated (a part of --parts reads them whole, for the next). */
	if (rc == 0 && !o->parts) {
		rc = source_map_read_lines(&ahead, &cg, lines, o->no_inline, err);
		reading = read_ahead = rc == 0;
	}
	if (rc < 0 || propagate_graph(&cg, sel, err) < 0) {
		rc = -1;
		goto out;
	}
	rc = -1;
	if (reading) {
		reading = false;
		if (source_map_lines_wait(&ahead, err) < 0)
			goto out;
	}
	/* how the test suite sees the self-check fail (tests/cli.sh): a
	 * total one more than the costs */
	if (getenv("GMON2CG_TEST_BREAK_TOTAL"))
		cg.total_ns++;
	if (o->stats) {
		if (names_in_place(prog, err) < 0)
			goto out;
		report_stats(warnings_stream(w), &cg, &stats, prog, c.profs,
			     part ? files : NULL, n);
	}
	/* The numbers are checked on every run before they are written: it
	 * costs a pass over the graph, and a profile that breaks the check
	 * would mislead every viewer. */
	if (report_check_belongs(w, &cg, &stats, info.source,
				 info.nsources > 1, o->exe, o->force, err) == 0 &&
	    source_map_build(&map, &cg, lines, o->no_inline, !o->parts,
			     read_ahead, maps, o->prefix_maps.n, err) == 0 &&
	    report_sources(w, &map, &cg, o->stats, err) == 0 &&
	    names_in_place(prog, err) == 0 &&
	    outcheck_graph(&cg, err) == 0) {
		rc = write_profile(o, &cg, &map, &info, os, err);
		if (rc == 0 && o->summary)
			report_summary(warnings_stream(w), &cg, o->summary);
	}
out:
	if (reading) {
		struct g2c_error ignored;	/* (ERR says what failed first) */

		source_map_lines_wait(&ahead, &ignored);
	}
	source_map_release(&map);
	callgraph_release(&cg);
	for (size_t i = 0; i < prog->nobjs; i++)
		machine_code_close(&prog->objs[i]->code);
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
		.force = o->force,
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

int convert_program(const struct options *o, struct warnings *w,
		    struct g2c_error *err)
{
	struct program prog = { 0 };
	struct prefix_map *maps = NULL;
	struct selection_object *sobjs = NULL;
	struct selection sel = { 0 };
	struct outstream os;
	int rc = -1;

	if (open_program(&prog, o, err) < 0 ||
	    (!(maps = read_prefix_maps(o, err)) && o->prefix_maps.n))
		goto out;
	sobjs = calloc(prog.nobjs, sizeof *sobjs);
	if (!sobjs) {
		g2c_error_set(err, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < prog.nobjs; i++)
		sobjs[i] = (struct selection_object){ &prog.objs[i]->st,
						      &prog.objs[i]->lines };
	if (selection_build(&sel, o, sobjs, prog.nobjs, err) < 0 ||
	    check_output(o, &prog, err) < 0 ||
	    outstream_open(&os, o->output, o->gzip, err) < 0)
		goto out;
	rc = 0;
	if (o->parts) {
		for (size_t i = 0; i < prog.objs[0]->nfiles && rc == 0; i++)
			rc = convert_part(o, &prog, maps, &sel.sel,
					  &prog.objs[0]->files[i], 1,
					  (unsigned)i + 1, &os, w, err);
	} else {
		rc = convert_part(o, &prog, maps, &sel.sel, NULL, 0, 0, &os, w,
				  err);
	}
	if (rc < 0)
		outstream_discard(&os);
	else
		rc = outstream_close(&os, err);
out:
	selection_release(&sel);
	free(sobjs);
	free(maps);
	program_close(&prog);
	return rc;
}
