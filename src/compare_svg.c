/* compare_svg.c -- gmon2cg --compare --svg: a differential flame graph. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"
#include "compare_report.h"
#include "compare_svg.h"
#include "diag.h"
#include "flame.h"
#include "propagate.h"
#include "svg.h"
#include "util.h"

enum verdict { V_SLOWER, V_FASTER, V_NOISE, V_INCONCLUSIVE, V_NEW, V_NONE };

static const struct {
	const char *fill, *word;
} verdicts[] = {
	[V_SLOWER] = { "#e8553f", "slower" },
	[V_FASTER] = { "#4f8fe0", "faster" },
	[V_NOISE] = { "#d9d6c8", "noise" },
	[V_INCONCLUSIVE] = { "#f2c53d", "inconclusive" },
	[V_NEW] = { "#b48ce6", "new" },
	[V_NONE] = { "#b8b8b8", "none" },
};

struct diff {
	const struct compare_result *r;
	const struct compare_options *o;
	const struct callgrind_read_profile *g;	/* the new side's graph */
	struct callgraph cg;	/* built from it */
	const struct compare_row **row_of;	/* per function; NULL: none */
	struct flame_frames frames;
	struct svg_picture picture;
	unsigned nruns;		/* the stacks' weights are divided by it, */
	double running;		/* rounded by running sums */
	uint64_t written;
};

/* -- The graph of the new side ------------------------------------------ */

static int by_ends(const void *a, const void *b)
{
	const struct cg_arc *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return (x->callee > y->callee) - (x->callee < y->callee);
}

/* Whether ARC stays within one cycle (or is direct recursion). */
static bool within(const struct callgraph *cg, const struct cg_arc *arc)
{
	unsigned c = cg->funcs[arc->caller].cycle;

	return arc->caller == arc->callee || (c && c == cg->funcs[arc->callee].cycle);
}

/* Each function's inclusive cost as flame.c takes it (self plus the calls
 * leaving its cycle), and the roots: what of a function's (or a cycle's)
 * inclusive cost its callers do not carry, so that the roots add up to
 * the total. */
static int find_roots(struct callgraph *cg)
{
	uint64_t *carried = calloc(cg->nfuncs + 1, sizeof *carried);
	uint64_t *cycle_incl = calloc(cg->ncycles + 1, sizeof *cycle_incl);
	uint64_t *cycle_carried = calloc(cg->ncycles + 1, sizeof *cycle_carried);
	bool *cycle_seen = calloc(cg->ncycles + 1, sizeof *cycle_seen);
	int rc = -1;

	cg->roots = malloc((cg->nfuncs + 1) * sizeof *cg->roots);
	if (!carried || !cycle_incl || !cycle_carried || !cycle_seen || !cg->roots)
		goto out;
	for (size_t a = 0; a < cg->narcs; a++) {
		const struct cg_arc *arc = &cg->arcs[a];

		if (within(cg, arc))
			continue;
		cg->funcs[arc->caller].incl_ns =
			add_saturating(cg->funcs[arc->caller].incl_ns, arc->ns);
		carried[arc->callee] = add_saturating(carried[arc->callee], arc->ns);
	}
	for (size_t f = 0; f < cg->nfuncs; f++) {
		struct cg_func *fn = &cg->funcs[f];

		fn->incl_ns = add_saturating(fn->incl_ns, fn->self_ns);
		cycle_incl[fn->cycle] = add_saturating(cycle_incl[fn->cycle], fn->incl_ns);
		cycle_carried[fn->cycle] = add_saturating(cycle_carried[fn->cycle], carried[f]);
	}
	for (size_t f = 0; f < cg->nfuncs; f++) {
		unsigned c = cg->funcs[f].cycle;
		uint64_t incl = c ? cycle_incl[c] : cg->funcs[f].incl_ns;
		uint64_t in = c ? cycle_carried[c] : carried[f];

		if ((c && cycle_seen[c]) || incl <= in)
			continue;
		cycle_seen[c] = c != 0;
		cg->roots[cg->nroots++] = (struct cg_root){ .func = f, .ns = incl - in, .count = 1 };
	}
	rc = 0;
out:
	free(carried);
	free(cycle_incl);
	free(cycle_carried);
	free(cycle_seen);
	return rc;
}

/* CG from the new side's functions and calls, cycles found again. */
static int build_graph(struct callgraph *cg, const struct callgrind_read_profile *g,
		       struct g2c_error *err)
{
	cg->nfuncs = g->nfns;
	cg->funcs = calloc(g->nfns + 1, sizeof *cg->funcs);
	cg->arcs = malloc((g->ncalls + 1) * sizeof *cg->arcs);
	if (!cg->funcs || !cg->arcs)
		return g2c_error_set(err, "out of memory");
	for (size_t f = 0; f < g->nfns; f++) {
		cg->funcs[f] = (struct cg_func){ .used = true, .shown = true,
						 .self_ns = g->fns[f].self_ns };
		cg->total_ns = add_saturating(cg->total_ns, g->fns[f].self_ns);
	}
	for (size_t c = 0; c < g->ncalls; c++)
		cg->arcs[cg->narcs++] = (struct cg_arc){
			.caller = g->calls[c].caller, .callee = g->calls[c].callee,
			.count = g->calls[c].count, .ns = g->calls[c].ns };
	if (cg->narcs > 1)
		qsort(cg->arcs, cg->narcs, sizeof *cg->arcs, by_ends);
	for (size_t a = 0; a < cg->narcs; a++) {
		struct cg_func *caller = &cg->funcs[cg->arcs[a].caller];

		if (caller->narcs++ == 0)
			caller->first_arc = a;
	}
	if (propagate_find_cycles(cg, err) < 0)
		return -1;
	return find_roots(cg) < 0 ? g2c_error_set(err, "out of memory") : 0;
}

static void graph_release(struct callgraph *cg)
{
	free(cg->funcs);
	free(cg->arcs);
	free(cg->roots);
}

/* -- Functions to the report's rows ------------------------------------- */

static int by_identity(const void *a, const void *b)
{
	const struct compare_row *x = *(const struct compare_row *const *)a;
	const struct compare_row *y = *(const struct compare_row *const *)b;
	int c = strcmp(x->name, y->name);

	if (!c)
		c = strcmp(x->file, y->file);
	return c ? c : strcmp(x->object, y->object);
}

/* Each function's row (the rows' files are the new side's, moved files
 * matched). */
static int find_rows(struct diff *d)
{
	const struct compare_row **sorted = malloc((d->r->nrows + 1) * sizeof *sorted);

	d->row_of = calloc(d->g->nfns + 1, sizeof *d->row_of);
	if (!sorted || !d->row_of) {
		free(sorted);
		return -1;
	}
	for (size_t i = 0; i < d->r->nrows; i++)
		sorted[i] = &d->r->rows[i];
	if (d->r->nrows > 1)
		qsort(sorted, d->r->nrows, sizeof *sorted, by_identity);
	for (size_t f = 0; f < d->g->nfns && d->r->nrows; f++) {
		const struct callgrind_read_fn *fn = &d->g->fns[f];
		struct compare_row key = { .object = fn->object, .file = fn->file,
					   .name = fn->name };
		const struct compare_row *k = &key, **found =
			bsearch(&k, sorted, d->r->nrows, sizeof *sorted, by_identity);

		d->row_of[f] = found ? *found : NULL;
	}
	free(sorted);
	return 0;
}

/* -- The picture -------------------------------------------------------- */

/* A stack, its weight a mean per run (a flame_stack_fn). */
static bool add_mean_stack(void *ctx, const size_t *path, size_t depth, uint64_t weight)
{
	struct diff *d = ctx;
	uint64_t upto;

	d->running += (double)weight / d->nruns;
	upto = (uint64_t)llround(d->running);
	if (upto <= d->written)
		return true;
	weight = upto - d->written;
	d->written = upto;
	return svg_add_stack(&d->picture, path, depth, weight);
}

static const struct compare_row *row_of_node(const struct diff *d,
					     const struct svg_node *n)
{
	const struct flame_frame *fr = &d->frames.frames[n->frame];

	return fr->is_cycle ? NULL : d->row_of[fr->what];
}

static enum verdict verdict_of(const struct compare_row *row)
{
	if (!row)
		return V_NONE;
	if (!row->present[0])
		return V_NEW;
	if (row->self_changed)
		return row->self[1] > row->self[0] ? V_SLOWER : V_FASTER;
	return row->inconclusive ? V_INCONCLUSIVE : V_NOISE;
}

static void diff_name(void *ctx, const struct svg_node *n, struct outstream *os,
		      void (*put)(struct outstream *, const char *))
{
	const struct diff *d = ctx;
	const struct flame_frame *fr = &d->frames.frames[n->frame];
	char cycle[48];

	if (fr->is_cycle) {
		snprintf(cycle, sizeof cycle, FLAME_CYCLE_NAME, fr->what);
		put(os, cycle);
	} else {
		put(os, d->g->fns[fr->what].name);
	}
}

/* BUF without the blanks at its end (the report's room for a mark). */
static const char *trimmed(char *buf)
{
	size_t n = strlen(buf);

	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
	return buf;
}

/* "\nWHAT OLD -> NEW (CHANGE)" as the report's columns have them. */
static void put_times(struct outstream *os, const char *what, const double v[2],
		      bool changed)
{
	char old[24], new[24], change[24];

	compare_format_time(old, sizeof old, v[0]);
	compare_format_time(new, sizeof new, v[1]);
	compare_format_change(change, sizeof change, v[0], v[1], changed);
	outstream_printf(os, "\n%s %s -> %s (%s)", what, old, new, trimmed(change));
}

static void diff_details(void *ctx, const struct svg_node *n, struct outstream *os)
{
	const struct diff *d = ctx;
	const struct compare_row *row = row_of_node(d, n);
	char old[24], new[24], change[24], what[512];

	if (!row) {
		outstream_puts(os, d->frames.frames[n->frame].is_cycle ?
			       "\nverdict: none (a cycle: see its members)" :
			       "\nverdict: none (not in the comparison)");
		return;
	}
	outstream_puts(os, "\n");
	outstream_puts_xml(os, row->file);
	if (row->line)
		outstream_printf(os, ":%u", row->line);
	if (*row->object) {
		outstream_puts(os, " in ");
		outstream_puts_xml(os, row->object);
	}
	put_times(os, "self", row->self, row->self_changed);
	put_times(os, "inclusive", row->incl, row->incl_changed);
	compare_format_count(old, sizeof old, row->calls[0]);
	compare_format_count(new, sizeof new, row->calls[1]);
	compare_format_count_change(change, sizeof change, row->calls[0], row->calls[1],
				    row->calls_changed ? "*" : row->calls_vary ? "~" : " ");
	outstream_printf(os, "\ncalls %s -> %s (%s)\nverdict: ", old, new, trimmed(change));
	switch (verdict_of(row)) {
	case V_SLOWER:
	case V_FASTER:
		outstream_printf(os, "%s beyond noise (p = %.2g)",
				 verdicts[verdict_of(row)].word, row->p_self);
		break;
	case V_INCONCLUSIVE:
		outstream_puts(os, "inconclusive: ");
		compare_describe_inconclusive(what, sizeof what, row, d->o);
		outstream_puts_xml(os, what);
		break;
	case V_NEW:
		outstream_puts(os, "new (not on the old side)");
		break;
	default:
		outstream_puts(os, "within noise");
	}
	if (row->failed) {
		compare_describe_failure(what, sizeof what, row, d->r);
		outstream_puts(os, "\n! FAILS: ");
		outstream_puts_xml(os, what);
	}
}

static const char *diff_fill(void *ctx, const struct svg_node *n)
{
	return verdicts[verdict_of(row_of_node(ctx, n))].fill;
}

static void diff_rect_attributes(void *ctx, const struct svg_node *n, struct outstream *os)
{
	const struct compare_row *row = row_of_node(ctx, n);

	outstream_printf(os, " data-verdict=\"%s\"", verdicts[verdict_of(row)].word);
	if (row && row->failed)
		outstream_puts(os, " data-gate=\"failed\" stroke=\"#000\" stroke-width=\"2.5\"");
}

int compare_write_svg(struct outstream *os, const struct compare_result *r,
		      const struct compare_options *o, struct g2c_error *err)
{
	static const struct flame_bounds bounds = { 0, 0 };
	struct diff d = { .r = r, .o = o, .g = &r->graph, .nruns = r->nprofiles[1] ? r->nprofiles[1] : 1 };
	char title[512], subtitle[512], total[3][24];
	uint64_t sum;
	int rc = build_graph(&d.cg, d.g, err);

	if (rc == 0 && find_rows(&d) < 0)
		rc = g2c_error_set(err, "out of memory");
	if (rc == 0)
		rc = flame_unroll(&d.cg, &bounds, add_mean_stack, &d, &d.frames, &sum, err);
	if (rc == 0) {
		compare_format_time(total[0], sizeof total[0], r->total.self[0]);
		compare_format_time(total[1], sizeof total[1], r->total.self[1]);
		compare_format_change(total[2], sizeof total[2], r->total.self[0],
				      r->total.self[1], r->total.self_changed);
		snprintf(title, sizeof title, "Differential flame graph: %s%s -> %s%s",
			 o->files[0][0], o->nfiles[0] > 1 ? " ..." : "", o->files[1][0],
			 o->nfiles[1] > 1 ? " ..." : "");
		snprintf(subtitle, sizeof subtitle,
			 "total %s -> %s (%s); width: new time, mean of %u runs; red slower, "
			 "blue faster, grey within noise, yellow inconclusive, violet new; "
			 "outlined: past a gate",
			 total[0], total[1], trimmed(total[2]), d.nruns);
		svg_write(&d.picture, &(struct svg_style){
				  .title = title, .subtitle = subtitle, .name = diff_name,
				  .details = diff_details, .fill = diff_fill,
				  .rect_attributes = diff_rect_attributes, .ctx = &d },
			  os);
	}
	svg_picture_release(&d.picture);
	flame_frames_release(&d.frames);
	graph_release(&d.cg);
	free(d.row_of);
	return rc;
}
