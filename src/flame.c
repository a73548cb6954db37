/* flame.c -- a call graph unrolled into a flame graph's stacks. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "flame.h"
#include "util.h"

#define NOT_IN_TREE SIZE_MAX
#define UNKNOWN SIZE_MAX

/* A node of the condensed graph: a function outside cycles, or a whole
 * cycle. */
struct component {
	unsigned cycle;		/* 0: a single function */
	size_t first, n;	/* its functions: members[first .. first + n) */
	uint64_t incl_ns;	/* its inclusive cost, as propagated */
	size_t frame;		/* a cycle's frame number + 1; 0: none yet */
	/* The self times its inclusive cost is made of, under the
	 * proportional assumption: shares[first_share .. + nshares), or
	 * first_share UNKNOWN until asked for. */
	size_t first_share, nshares;
};

/* A function's self time within a component's inclusive cost. */
struct share {
	size_t func;
	double ns;
};

/* A call out of a tree node, to a component, before it is expanded. */
struct child {
	size_t comp;
	double ns;
};

struct unroller {
	const struct callgraph *cg;
	flame_stack_fn *stack;
	void *ctx;
	bool failed;			/* out of memory, or stack said stop */

	struct component *comps;
	size_t ncomps;
	size_t *comp_of;		/* per function; NOT_IN_TREE */
	size_t *members;		/* functions, grouped by component */

	struct share *shares;
	size_t nshares, shares_cap;
	double *acc;			/* per function, while summing shares */
	size_t *touched;

	struct child *children;		/* a stack of every level's calls */
	size_t nchildren, children_cap;

	size_t *frame_of;		/* per function: frame number + 1 */
	struct flame_frames *frames;

	size_t path[FLAME_MAX_STACK];	/* frame numbers */
	size_t depth;

	double cut_ns;
	size_t max_depth;
	double running;			/* the weights so far, unrounded */
	uint64_t written;		/* and as handed on */
};

/* The frame number of function F, or of cycle number WHAT. */
static size_t frame_number(struct unroller *w, size_t *slot, size_t what,
			   bool is_cycle)
{
	struct flame_frames *fr = w->frames;
	struct flame_frame *frames;

	if (*slot)
		return *slot - 1;
	frames = array_grow(fr->frames, &fr->cap, fr->n + 1, sizeof *frames);
	if (!frames) {
		w->failed = true;
		return 0;
	}
	fr->frames = frames;
	frames[fr->n] = (struct flame_frame){ what, is_cycle };
	*slot = ++fr->n;
	return *slot - 1;
}

static void push_function(struct unroller *w, size_t f)
{
	w->path[w->depth++] = frame_number(w, &w->frame_of[f], f, false);
}

static void push_component(struct unroller *w, size_t c)
{
	struct component *comp = &w->comps[c];

	if (comp->cycle)
		w->path[w->depth++] = frame_number(w, &comp->frame, comp->cycle, true);
	else
		push_function(w, w->members[comp->first]);
}

/* A stack, the current path, of weight NS: rounded by running sums, so
 * that the weights add up to the rounded sum of all; one that rounds to
 * nothing is left out. */
static void emit_sample(struct unroller *w, double ns)
{
	uint64_t upto;

	if (ns <= 0)
		return;
	w->running += ns;
	upto = (uint64_t)llround(w->running);
	if (upto <= w->written)
		return;
	if (!w->stack(w->ctx, w->path, w->depth, upto - w->written))
		w->failed = true;
	w->written = upto;
}

/* Sorts the shown functions into components; a cycle's members in
 * function order. */
static int build_components(struct unroller *w)
{
	const struct callgraph *cg = w->cg;
	size_t *cycle_comp = malloc((cg->ncycles + 1) * sizeof *cycle_comp);

	w->comps = calloc(cg->nfuncs + 1, sizeof *w->comps);
	w->comp_of = malloc((cg->nfuncs + 1) * sizeof *w->comp_of);
	w->members = malloc((cg->nfuncs + 1) * sizeof *w->members);
	if (!cycle_comp || !w->comps || !w->comp_of || !w->members) {
		free(cycle_comp);
		return -1;
	}
	for (unsigned k = 0; k <= cg->ncycles; k++)
		cycle_comp[k] = NOT_IN_TREE;
	for (size_t f = 0; f < cg->nfuncs; f++) {
		const struct cg_func *fn = &cg->funcs[f];
		size_t c = fn->cycle ? cycle_comp[fn->cycle] : NOT_IN_TREE;

		w->comp_of[f] = NOT_IN_TREE;
		if (!fn->shown)
			continue;
		if (c == NOT_IN_TREE) {
			c = w->ncomps++;
			w->comps[c] = (struct component){ .cycle = fn->cycle,
							  .first_share = UNKNOWN };
			if (fn->cycle)
				cycle_comp[fn->cycle] = c;
		}
		w->comp_of[f] = c;
		w->comps[c].n++;
		w->comps[c].incl_ns += fn->incl_ns;
	}
	for (size_t c = 0, at = 0; c < w->ncomps; c++) {
		w->comps[c].first = at;
		at += w->comps[c].n;
		w->comps[c].n = 0;
	}
	for (size_t f = 0; f < cg->nfuncs; f++) {
		if (w->comp_of[f] != NOT_IN_TREE) {
			struct component *comp = &w->comps[w->comp_of[f]];

			w->members[comp->first + comp->n++] = f;
		}
	}
	free(cycle_comp);
	return 0;
}

/* The component ARC leads to from component C, or NOT_IN_TREE when it
 * stays within C or leads to a function not shown. */
static size_t callee_component(const struct unroller *w, size_t c,
			       const struct cg_arc *arc)
{
	size_t to = w->comp_of[arc->callee];

	return to == c ? NOT_IN_TREE : to;
}

/* Adds NS to function F's share in the sum under way, of *N functions
 * so far. */
static void add_share(struct unroller *w, size_t *n, size_t f, double ns)
{
	if (ns <= 0)
		return;
	if (w->acc[f] == 0)
		w->touched[(*n)++] = f;
	w->acc[f] += ns;
}

/* Component C's shares, once those of every component it calls are
 * known: its members' self times, and each call's part of its callee's
 * shares. */
static bool sum_shares(struct unroller *w, size_t c)
{
	const struct component *comp = &w->comps[c];
	size_t n = 0;
	struct share *shares;

	for (size_t m = comp->first; m < comp->first + comp->n; m++) {
		const struct cg_func *fn = &w->cg->funcs[w->members[m]];

		add_share(w, &n, w->members[m], (double)fn->self_ns);
		for (size_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++) {
			const struct cg_arc *arc = &w->cg->arcs[a];
			size_t to = callee_component(w, c, arc);
			const struct component *callee;

			if (to == NOT_IN_TREE || w->comps[to].incl_ns == 0)
				continue;
			callee = &w->comps[to];
			for (size_t s = callee->first_share;
			     s < callee->first_share + callee->nshares; s++)
				add_share(w, &n, w->shares[s].func, w->shares[s].ns *
					  ((double)arc->ns / (double)callee->incl_ns));
		}
	}
	/* (one more than needed: an array never grown is no error) */
	shares = array_grow(w->shares, &w->shares_cap, w->nshares + n + 1,
			    sizeof *shares);
	if (!shares)
		return false;
	w->shares = shares;
	for (size_t i = 0; i < n; i++) {
		size_t f = w->touched[i];

		shares[w->nshares + i] = (struct share){ f, w->acc[f] };
		w->acc[f] = 0;
	}
	w->comps[c].nshares = n;
	w->nshares += n;
	return true;
}

/* Makes sure component C's shares are known: depth first over the
 * components it calls (the condensed graph has no cycles), without
 * recursion, so that a long chain of calls needs no deep stack. */
static bool know_shares(struct unroller *w, size_t c)
{
	struct frame { size_t comp, member, arc; } *stack;
	size_t n = 0, cap = 0;
	bool ok = true;

	if (w->comps[c].first_share != UNKNOWN)
		return true;
	stack = array_grow(NULL, &cap, 16, sizeof *stack);
	if (!stack)
		return false;
	stack[n++] = (struct frame){ c, w->comps[c].first, 0 };
	while (n > 0 && ok) {
		struct frame *top = &stack[n - 1];
		const struct component *comp = &w->comps[top->comp];
		size_t next = NOT_IN_TREE;

		while (top->member < comp->first + comp->n && next == NOT_IN_TREE) {
			const struct cg_func *fn = &w->cg->funcs[w->members[top->member]];

			if (top->arc >= fn->narcs) {
				top->member++;
				top->arc = 0;
				continue;
			}
			next = callee_component(w, top->comp,
						&w->cg->arcs[fn->first_arc + top->arc++]);
			if (next != NOT_IN_TREE && w->comps[next].first_share != UNKNOWN)
				next = NOT_IN_TREE;
		}
		if (next != NOT_IN_TREE) {
			struct frame *grown = array_grow(stack, &cap, n + 1,
							 sizeof *stack);

			if (!grown) {
				ok = false;
				break;
			}
			stack = grown;
			stack[n++] = (struct frame){ next, w->comps[next].first, 0 };
			continue;
		}
		w->comps[top->comp].first_share = w->nshares;
		ok = sum_shares(w, top->comp);
		n--;
	}
	free(stack);
	return ok;
}

/* A node not expanded: component C's frame, its members' self time
 * (under their frames, for a cycle), and the self time of everything it
 * calls, at part NS of its inclusive cost, as leaves under it. */
static void unroll_cut(struct unroller *w, size_t c, double ns)
{
	const struct component *comp = &w->comps[c];
	double scale;

	if (ns <= 0 || comp->incl_ns == 0)
		return;
	if (!know_shares(w, c)) {
		w->failed = true;
		return;
	}
	scale = ns / (double)comp->incl_ns;
	push_component(w, c);
	for (size_t s = comp->first_share; s < comp->first_share + comp->nshares; s++) {
		const struct share *sh = &w->shares[s];
		bool own = w->comp_of[sh->func] == c;

		if (!own || comp->cycle)
			push_function(w, sh->func);
		emit_sample(w, sh->ns * scale);
		if (!own || comp->cycle)
			w->depth--;
	}
	w->depth--;
}

static void unroll_node(struct unroller *w, size_t c, double ns, size_t depth);

/* Function F's own time and calls, at SCALE of its cost, under the
 * current path: calls into one component merged, then each expanded or
 * cut. */
static void unroll_calls(struct unroller *w, size_t c, size_t f, double scale,
			size_t depth)
{
	const struct cg_func *fn = &w->cg->funcs[f];
	size_t first = w->nchildren;

	emit_sample(w, scale * (double)fn->self_ns);
	for (size_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++) {
		const struct cg_arc *arc = &w->cg->arcs[a];
		size_t to = callee_component(w, c, arc), i = first;
		struct child *children;

		if (to == NOT_IN_TREE)
			continue;
		/* arcs are in callee order: only a cycle's members come apart */
		while (w->comps[to].cycle && i < w->nchildren &&
		       w->children[i].comp != to)
			i++;
		if (i < w->nchildren && w->children[i].comp == to) {
			w->children[i].ns += scale * (double)arc->ns;
			continue;
		}
		children = array_grow(w->children, &w->children_cap,
				      w->nchildren + 1, sizeof *children);
		if (!children) {
			w->failed = true;
			return;
		}
		w->children = children;
		children[w->nchildren++] = (struct child){ to, scale * (double)arc->ns };
	}
	for (size_t i = first; i < w->nchildren && !w->failed; i++) {
		struct child ch = w->children[i];

		if (ch.ns >= w->cut_ns && depth + 1 < w->max_depth)
			unroll_node(w, ch.comp, ch.ns, depth + 1);
		else
			unroll_cut(w, ch.comp, ch.ns);
	}
	w->nchildren = first;
}

/* An expanded node: component C at part NS of its inclusive cost. */
static void unroll_node(struct unroller *w, size_t c, double ns, size_t depth)
{
	const struct component *comp = &w->comps[c];
	double scale;

	if (ns <= 0 || comp->incl_ns == 0)
		return;
	scale = ns / (double)comp->incl_ns;
	push_component(w, c);
	for (size_t m = comp->first; m < comp->first + comp->n; m++) {
		if (comp->cycle)
			push_function(w, w->members[m]);
		unroll_calls(w, c, w->members[m], scale, depth);
		if (comp->cycle)
			w->depth--;
	}
	w->depth--;
}

static void unroller_release(struct unroller *w)
{
	free(w->comps);
	free(w->comp_of);
	free(w->members);
	free(w->shares);
	free(w->acc);
	free(w->touched);
	free(w->children);
	free(w->frame_of);
}

int flame_unroll(const struct callgraph *cg, const struct flame_bounds *bounds,
		 flame_stack_fn *stack, void *ctx, struct flame_frames *frames,
		 uint64_t *total, struct g2c_error *err)
{
	double cut_share = bounds->cut_share > 0 ? bounds->cut_share : FLAME_CUT_SHARE;
	struct unroller w = { .cg = cg, .stack = stack, .ctx = ctx, .frames = frames,
			      .cut_ns = cut_share * (double)cg->total_ns,
			      .max_depth = FLAME_MAX_DEPTH };

	if (bounds->max_depth > 0 && bounds->max_depth < FLAME_MAX_DEPTH)
		w.max_depth = bounds->max_depth;
	w.acc = calloc(cg->nfuncs + 1, sizeof *w.acc);
	w.touched = malloc((cg->nfuncs + 1) * sizeof *w.touched);
	w.frame_of = calloc(cg->nfuncs + 1, sizeof *w.frame_of);
	if (!w.acc || !w.touched || !w.frame_of || build_components(&w) < 0) {
		unroller_release(&w);
		return g2c_error_set(err, "out of memory while writing the profile");
	}
	for (size_t r = 0; r < cg->nroots && !w.failed; r++) {
		size_t c = w.comp_of[cg->roots[r].func];
		double ns = (double)cg->roots[r].ns;

		if (c == NOT_IN_TREE)
			continue;
		if (ns >= w.cut_ns)
			unroll_node(&w, c, ns, 0);
		else
			unroll_cut(&w, c, ns);
	}
	unroller_release(&w);
	*total = w.written;
	if (w.failed)
		return g2c_error_set(err, "out of memory while writing the profile");
	return 0;
}

void flame_frames_release(struct flame_frames *frames)
{
	free(frames->frames);
}

void flame_put_name(const struct callgraph *cg, const struct flame_frame *frame,
		    struct outstream *os,
		    void (*put)(struct outstream *os, const char *s))
{
	char name[320];	/* (a base name, or a cycle's number) */

	if (frame->is_cycle) {
		snprintf(name, sizeof name, FLAME_CYCLE_NAME, frame->what);
		put(os, name);
	} else {
		put(os, callgraph_name(cg, frame->what, name, sizeof name));
	}
}
