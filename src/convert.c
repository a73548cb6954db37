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

		/* (the command line refuses such a value; a caller of the
		 * library may not have) */
		if (!eq) {
			free(maps);
			g2c_error_set(err, "--prefix-map=%s: not OLD=NEW", spec);
			return NULL;
		}
		maps[i] = (struct prefix_map){ spec, eq + 1, (size_t)(eq - spec) };
	}
	return maps;
}

/* What the stages are given besides the input: each object's call-graph
 * input, and what the writer says of them. */
struct conversion {
	struct cg_object *cgo;		/* per object */
	struct attribution_input *inputs;	/* per object */
	char **desc;			/* desc: lines on the objects */
	size_t ndesc;
	char dimen[sizeof ((struct gmon_hist *)NULL)->dimen];	/* the header's */
};

static void conversion_release(struct conversion *c)
{
	for (size_t i = 0; i < c->ndesc; i++)
		free(c->desc[i]);
	free(c->desc);
	free(c->cgo);
	free(c->inputs);
}

/* The profile files of object I of IN. */
static const char **object_files(const struct conversion_input *in, size_t i,
				 size_t *n)
{
	const struct program_object *po = in->prog->objs[i];

	*n = i == 0 && in->part ? in->n : po->nfiles;
	return i == 0 && in->part ? in->files : po->files;
}

/* Opens the code of IN's objects and prepares their call-graph inputs;
 * warns of profiles without samples or with calls lost, and folds the
 * symbols of a gprof -s sum as gprof did. */
static int prepare_objects(struct conversion *c, const struct conversion_input *in,
			   struct warnings *w, struct g2c_error *err)
{
	struct program *prog = in->prog;
	uint32_t rate = in->o->rate ? in->o->rate : DEFAULT_RATE;
	double ns = 0;	/* that the profiles prepared so far stand for */

	memset(c, 0, sizeof *c);
	c->cgo = calloc(prog->nobjs, sizeof *c->cgo);
	c->inputs = calloc(prog->nobjs, sizeof *c->inputs);
	c->desc = calloc(prog->nobjs, sizeof *c->desc);
	if (!c->cgo || !c->inputs || !c->desc)
		return g2c_error_set(err, "out of memory");
	for (size_t i = 0; i < prog->nobjs; i++) {
		struct program_object *po = prog->objs[i];
		struct gmon_profile *prof = &in->profs[i];
		size_t nown, folded;
		const char **own = object_files(in, i, &nown), *example;

		if (machine_code_open(&po->code, &po->obj, &po->st, err) < 0)
			return -1;
		c->cgo[i] = (struct cg_object){ .obj = &po->obj, .st = &po->st };
		c->inputs[i] = (struct attribution_input){
			.code = &po->code, .prof = nown ? prof : NULL,
			.hz = gmon_profile_rate(prof, rate) };
		if (nown) {
			if (gmon_profile_add_ns(prof, c->inputs[i].hz, &ns, own[0], err) < 0)
				return -1;
			report_no_samples(w, po, prof, own[0], nown);
			report_calls_lost(w, prof, own[0]);
		}
		if ((prog->nobjs > 1 || po->ld_profile) &&
		    report_describe_object(&c->desc[c->ndesc++], po, prof, err) < 0)
			return -1;
		if (program_fold_summed(po, prof, &folded, &example, err) < 0)
			return -1;
		if (folded)
			report_folded(w, po->files[0], folded, example);
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
			    struct conversion *c, const struct conversion_input *in)
{
	info->dimen = "seconds";
	info->part = in->part;
	info->no_instr = in->o->no_instr;
	for (size_t i = 0; i < in->prog->nobjs; i++) {
		const struct gmon_profile *first = c->inputs[i].prof;
		size_t n;
		const char **files = object_files(in, i, &n);

		info->nsources += (unsigned)n;
		if (!first || info->source)
			continue;
		info->source = files[0];
		if (first->nhists > 0)
			info->dimen = strcpy(c->dimen, first->hists[0].dimen);
		info->rate_assumed = first->nhists > 0 && first->hists[0].rate == 0;
	}
	info->desc = (const char *const *)c->desc;
	info->ndesc = c->ndesc;
}

/* The call graph of C's objects, their samples and arcs credited.  Once
 * credited, neither the raw profiles nor decoded code are needed: they are
 * freed before propagation sorts the positions and the line lookups load
 * the debug information (a histogram with every bin counted is as large
 * as those). */
static int build_graph(struct callgraph *cg, struct conversion *c,
		       const struct conversion_input *in,
		       struct attribution_stats *stats, struct warnings *w,
		       struct g2c_error *err)
{
	int rc = callgraph_init(cg, c->cgo, in->prog->nobjs, err);

	if (rc == 0)
		rc = attribute_profiles(cg, c->inputs, in->sel, stats, err);
	for (size_t i = 0; i < in->prog->nobjs; i++) {
		struct machine_code *code = &in->prog->objs[i]->code;

		if (rc == 0)
			rc = machine_code_check_decoded(code, err);
		if (rc == 0 && code->no_decoder)
			report_no_decoder(w, code, in->o->stats);
		machine_code_close(code);
		gmon_profile_drop_records(&in->profs[i]);
	}
	return rc;
}

/* Propagates CG's time while the line tables of LINES are read on a
 * thread (unless --parts: a part reads them whole, for the next); sets
 * *READ_AHEAD when they were. */
static int propagate_reading_lines(struct callgraph *cg,
				   const struct conversion_input *in,
				   struct object_lines **lines, bool *read_ahead,
				   struct g2c_error *err)
{
	struct source_map_lines ahead;
	struct g2c_error ignored;	/* (ERR says what failed first) */
	int rc;

	*read_ahead = false;
	if (!in->o->parts) {
		if (source_map_read_lines(&ahead, cg, lines, in->o->no_inline, err) < 0)
			return -1;
		*read_ahead = true;
	}
	rc = propagate_graph(cg, in->sel,
			     in->o->summary ? PROPAGATE_FLAT_PROFILE :
					      PROPAGATE_GRAPH_ONLY, err);
	if (*read_ahead && source_map_lines_wait(&ahead, rc < 0 ? &ignored : err) < 0)
		rc = -1;
	return rc;
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

int convert_profiles(const struct conversion_input *in, struct outstream *os,
		     struct warnings *w, struct g2c_error *err)
{
	const struct options *o = in->o;
	struct program *prog = in->prog;
	struct conversion c;
	struct callgraph cg = { 0 };
	struct attribution_stats stats = { 0 };
	struct source_map map = { 0 };
	struct object_lines **lines = calloc(prog->nobjs, sizeof *lines);
	struct callgrind_write_info info = { 0 };
	bool read_ahead;
	int rc = -1;

	if (!lines)
		return g2c_error_set(err, "out of memory");
	for (size_t i = 0; i < prog->nobjs; i++)
		lines[i] = &prog->objs[i]->lines;
	if (prepare_objects(&c, in, w, err) < 0)
		goto out;
	describe_output(&info, &c, in);
	if (build_graph(&cg, &c, in, &stats, w, err) < 0 ||
	    propagate_reading_lines(&cg, in, lines, &read_ahead, err) < 0 ||
	    names_in_place(prog, err) < 0)
		goto out;
	if (o->stats)
		report_stats(warnings_stream(w), &cg, &stats, prog, in->profs,
			     in->part ? in->files : NULL, in->n);
	/* The numbers are checked on every run before they are written: it
	 * costs a pass over the graph, and a profile that breaks the check
	 * would mislead every viewer. */
	if (report_check_belongs(w, &cg, &stats, info.source, info.nsources > 1,
				 o->exe, o->force, err) < 0 ||
	    source_map_build(&map, &cg, lines, o->no_inline, !o->parts,
			     read_ahead, in->maps, o->prefix_maps.n, err) < 0 ||
	    report_sources(w, &map, &cg, o->stats, err) < 0 ||
	    outcheck_graph(&cg, err) < 0 ||
	    write_profile(o, &cg, &map, &info, os, err) < 0)
		goto out;
	if (o->summary)
		report_summary(warnings_stream(w), &cg, o->summary);
	rc = 0;
out:
	source_map_release(&map);
	callgraph_release(&cg);
	for (size_t i = 0; i < prog->nobjs; i++)
		machine_code_close(&prog->objs[i]->code);
	conversion_release(&c);
	free(lines);
	return rc;
}

/* Reads the profiles of PROG's objects as IN says (IN->profs, one per
 * object) and converts them into OS. */
static int read_and_convert(struct conversion_input *in, struct outstream *os,
			    struct warnings *w, struct g2c_error *err)
{
	struct program *prog = in->prog;
	int rc = -1;

	if (!(in->profs = calloc(prog->nobjs, sizeof *in->profs)))
		return g2c_error_set(err, "out of memory");
	for (size_t i = 0; i < prog->nobjs; i++) {
		size_t n;
		const char **files = object_files(in, i, &n);

		if (program_read_profiles(prog, i, files, n, &in->profs[i], err) < 0)
			goto out;
	}
	rc = convert_profiles(in, os, w, err);
out:
	for (size_t i = 0; i < prog->nobjs; i++)
		gmon_profile_release(&in->profs[i]);
	free(in->profs);
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
	struct conversion_input in = { .o = o, .prog = &prog };
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
	in.maps = maps;
	in.sel = &sel.sel;
	rc = 0;
	if (o->parts) {
		for (size_t i = 0; i < prog.objs[0]->nfiles && rc == 0; i++) {
			in.files = &prog.objs[0]->files[i];
			in.n = 1;
			in.part = (unsigned)i + 1;
			rc = read_and_convert(&in, &os, w, err);
		}
	} else {
		rc = read_and_convert(&in, &os, w, err);
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
