/* propagate.c -- gprof's time propagation over a bare call graph:
 * cycles, selections inherited, inclusive cost, roots, call sites. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "propagate.h"
#include "util.h"

#define UNSET SIZE_MAX

/* Splits TOTAL into parts in proportion to weights so that the parts add
 * up to TOTAL exactly: each part is the difference of rounded running
 * sums, and the last part takes what is left. */
struct splitter {
	uint64_t total;		/* what is split */
	double sum;		/* the sum of all weights */
	double seen;		/* weights so far */
	uint64_t given;		/* rounded share of the weights so far */
};

static uint64_t split_next(struct splitter *s, double weight, bool last)
{
	uint64_t upto, part;

	s->seen += weight;
	if (last || s->seen >= s->sum)
		upto = s->total;
	else if (s->sum > 0)
		upto = (uint64_t)llround((double)s->total * (s->seen / s->sum));
	else
		upto = 0;
	if (upto < s->given)	/* rounding never goes back */
		upto = s->given;
	if (upto > s->total)
		upto = s->total;
	part = upto - s->given;
	s->given = upto;
	return part;
}

static uint64_t cost_pc(const void *x)
{
	return ((const struct cg_cost *)x)->pc;
}

static int by_cost_pcs(const void *x, const void *y)
{
	const struct cg_cost *a = x, *b = y;

	return a->pc < b->pc ? -1 : a->pc > b->pc;
}

/* Sorts each function's positions by address (they come sorted from one
 * histogram), merges equal ones, moves them down over the room merging
 * freed, and rounds their costs to ns, scaled by the share of each
 * function's time that gprof propagates (1 without selections), so that
 * the rounded costs add up to the rounded total. */
static void finish_costs(struct callgraph *cg)
{
	double running = 0;
	uint64_t given = 0;
	size_t n = 0;

	for (size_t fi = 0; fi < cg->nfuncs; fi++) {
		struct cg_func *f = &cg->funcs[fi];
		struct cg_cost *run = cg->costs + f->first_cost;
		size_t first = n;

		for (size_t i = 1; i < f->ncosts; i++)
			if (run[i].pc < run[i - 1].pc) {
				sort_by_key(run, f->ncosts, sizeof *run, cost_pc,
					    by_cost_pcs);
				break;
			}
		for (size_t i = 0; i < f->ncosts; i++) {
			if (n > first && cg->costs[n - 1].pc == run[i].pc) {
				struct cg_cost *last = &cg->costs[n - 1];

				cg_cost_set_ticks(cg, last,
						  cg_cost_ticks(cg, last) +
						  cg_cost_ticks(cg, &run[i]));
				last->executions = add_saturating(
					last->executions, run[i].executions);
			} else {
				cg->costs[n++] = run[i];
			}
		}
		f->first_cost = first;
		f->ncosts = n - first;
		for (size_t i = first; i < n; i++) {
			struct cg_cost *c = &cg->costs[i];
			double ticks = cg_cost_ticks(cg, c);
			uint64_t upto, ns;

			running += ticks * f->fract * f->ns_per_tick;
			upto = (uint64_t)llround(running);
			ns = upto > given ? upto - given : 0;
			cg_cost_round(cg, c, ns);
			given += ns;
			f->self_ticks += ticks;
			f->self_ns += ns;
			cg->total_executions = add_saturating(
				cg->total_executions, c->executions);
		}
	}
	cg->ncosts = n;
	cg->total_ns = given;
	cg->phase = CG_PROPAGATED;
}

/* Each function's arcs, and its calls from other functions apart from
 * direct recursion, as gprof counts them. */
static void link_arcs(struct callgraph *cg)
{
	for (size_t i = 0; i < cg->narcs; i++) {
		struct cg_arc *arc = &cg->arcs[i];
		struct cg_func *caller = &cg->funcs[arc->caller];
		struct cg_func *callee = &cg->funcs[arc->callee];

		if (i + PREFETCH_AHEAD < cg->narcs)
			prefetch(&cg->funcs[cg->arcs[i + PREFETCH_AHEAD].callee]);
		if (caller->narcs++ == 0)
			caller->first_arc = i;
		caller->used = callee->used = true;
		if (arc->caller == arc->callee)
			callee->self_calls = add_saturating(callee->self_calls,
							    arc->count);
		else
			callee->ncalls = add_saturating(callee->ncalls, arc->count);
	}
}

/* The call graph's strongly connected components (gprof's cycles, and
 * single functions), in the order Tarjan's algorithm finishes them: every
 * component after all the components it calls. */
struct components {
	size_t *members;	/* grouped by component, in finishing order */
	size_t *first;		/* component c: members[first[c] .. first[c+1]) */
	size_t count;
	/* per function: its component, and the share of its time
	 * propagated (its fract, once inherit_selection has set it), in
	 * one place for the passes that look both up per arc */
	struct fn_place *of;
	struct in_arc *in_arcs;	/* grouped by callee, from in_first[f] */
	size_t *in_first;
	/* The arcs entering each component from outside it, gathered once
	 * so that the passes over them read one array in order instead of
	 * the arcs and functions at random: component c's are
	 * entering[entering_first[c] .. entering_first[c+1]). */
	struct entering *entering;
	size_t *entering_first;
	uint64_t *ncalls;	/* per component: the entering arcs' counts */
	/* per component: gprof's time + child time of it, not scaled by
	 * the share propagated, in ns (for gprof's flat profile) */
	double *flat_incl;
};

/* An arc as its callee's list has it, with what gather_entering needs of
 * it, so that it reads the lists in order (function and arc numbers fit
 * in 32 bits: propagate_graph checks). */
struct in_arc {
	uint32_t arc, caller;
	uint64_t count;
};

/* Where a function stands in the components. */
struct fn_place {
	size_t comp;		/* UNSET: in no component (not used) */
	double fract;
};

/* An arc entering a component, with what the passes need of it. */
struct entering {
	uint32_t arc, caller, callee;
	bool caller_shown;	/* (set by inherit_selection) */
	uint64_t count;
	/* the share of the component's time it carries: its caller's share
	 * times its part of the calls (set by inherit_selection) */
	double weight;
};

/* Tarjan's algorithm without recursion, so depth is bounded by memory.
 * It reads the graph from arrays of its own, 32-bit and in arc order
 * (the callees of function v are callee[first[v] .. first[v + 1])), and
 * keeps what it knows of a function in eight bytes, so that the random
 * look-ups it makes per arc mostly hit the caches. */
#define TARJAN_UNSET UINT32_MAX
/* low of a function whose component is found: off the stack */
#define TARJAN_DONE UINT32_MAX

struct tarjan_node {
	uint32_t index;		/* visiting order; TARJAN_UNSET: not yet */
	uint32_t low;		/* the lowest index it reaches on the stack */
};

struct tarjan {
	uint32_t *first, *callee;
	struct tarjan_node *node;
	uint32_t *stack, *frame_func, *frame_arc;
	size_t nstack, nframes;
	uint32_t counter;
	size_t nmembers;
};

static inline void visit(struct tarjan *t, uint32_t v)
{
	t->node[v] = (struct tarjan_node){ t->counter, t->counter };
	t->counter++;
	t->stack[t->nstack++] = v;
	t->frame_func[t->nframes] = v;
	t->frame_arc[t->nframes] = t->first[v];
	t->nframes++;
}

static void find_components_from(struct tarjan *t, struct components *c,
				 uint32_t start)
{
	visit(t, start);
	while (t->nframes > 0) {
		uint32_t v = t->frame_func[t->nframes - 1];
		uint32_t *next = &t->frame_arc[t->nframes - 1];
		struct tarjan_node *nv = &t->node[v];

		if (*next < t->first[v + 1]) {
			uint32_t w = t->callee[(*next)++];
			const struct tarjan_node *nw = &t->node[w];

			if (nw->index == TARJAN_UNSET)
				visit(t, w);
			else if (nw->low != TARJAN_DONE && nw->index < nv->low)
				nv->low = nw->index;
			continue;
		}
		t->nframes--;
		if (nv->low == nv->index) {
			uint32_t w;

			c->first[c->count] = t->nmembers;
			do {
				w = t->stack[--t->nstack];
				t->node[w].low = TARJAN_DONE;
				c->of[w].comp = c->count;
				c->members[t->nmembers++] = w;
			} while (w != v);
			c->count++;
		} else if (t->nframes > 0) {
			/* (a component's root is done: its parent's low is
			 * at or below its index already) */
			struct tarjan_node *nu = &t->node[t->frame_func[t->nframes - 1]];

			if (nv->low < nu->low)
				nu->low = nv->low;
		}
	}
}

static void components_release(struct components *c)
{
	free(c->members);
	free(c->first);
	free(c->of);
	free(c->in_arcs);
	free(c->in_first);
	free(c->entering);
	free(c->entering_first);
	free(c->ncalls);
	free(c->flat_incl);
}

/* Whether OTHER, the far end of an arc of function F in component C of
 * K members, lies outside C (a lone function's component is itself). */
static bool outside_component(const struct components *comps, size_t c,
			      size_t k, size_t f, size_t other)
{
	return k > 1 ? comps->of[other].comp != c : other != f;
}

/* Gathers the arcs entering each component from outside, in component
 * order, and sums their counts.  Returns -1 when out of memory. */
static int gather_entering(const struct callgraph *cg, struct components *c)
{
	size_t n = 0, nmembers = c->first[c->count];

	c->entering = malloc((cg->narcs ? cg->narcs : 1) * sizeof *c->entering);
	c->entering_first = malloc((c->count + 1) * sizeof *c->entering_first);
	c->ncalls = calloc(c->count ? c->count : 1, sizeof *c->ncalls);
	c->flat_incl = calloc(c->count ? c->count : 1, sizeof *c->flat_incl);
	if (!c->entering || !c->entering_first || !c->ncalls || !c->flat_incl)
		return -1;
	for (size_t k = 0; k < c->count; k++) {
		size_t size = c->first[k + 1] - c->first[k];

		c->entering_first[k] = n;
		for (size_t m = c->first[k]; m < c->first[k + 1]; m++) {
			size_t callee = c->members[m];

			if (m + PREFETCH_AHEAD < nmembers)
				prefetch(&c->in_first[c->members[m + PREFETCH_AHEAD]]);
			for (size_t j = c->in_first[callee]; j < c->in_first[callee + 1]; j++) {
				const struct in_arc *in = &c->in_arcs[j];

				if (!outside_component(c, k, size, callee, in->caller))
					continue;
				c->entering[n++] = (struct entering){
					.arc = in->arc, .caller = in->caller,
					.callee = (uint32_t)callee, .count = in->count };
				c->ncalls[k] = add_saturating(c->ncalls[k], in->count);
			}
		}
	}
	c->entering_first[c->count] = n;
	return 0;
}

static void tarjan_release(struct tarjan *t)
{
	free(t->first);
	free(t->callee);
	free(t->node);
	free(t->stack);
	free(t->frame_func);
	free(t->frame_arc);
}

/* Finds the components (propagate_graph has checked that function and
 * arc numbers fit in 32 bits).  Returns -1 when out of memory. */
static int find_components(const struct callgraph *cg, struct components *c)
{
	size_t n = cg->nfuncs;
	struct tarjan t = { 0 };
	int rc = -1;

	c->members = malloc(n * sizeof *c->members);
	c->first = malloc((n + 1) * sizeof *c->first);
	c->of = malloc(n * sizeof *c->of);
	c->in_first = calloc(n + 1, sizeof *c->in_first);
	c->in_arcs = malloc((cg->narcs ? cg->narcs : 1) * sizeof *c->in_arcs);
	t.first = calloc(n + 1, sizeof *t.first);
	t.callee = malloc((cg->narcs ? cg->narcs : 1) * sizeof *t.callee);
	t.node = malloc(n * sizeof *t.node);
	t.stack = malloc(n * sizeof *t.stack);
	t.frame_func = malloc(n * sizeof *t.frame_func);
	t.frame_arc = malloc(n * sizeof *t.frame_arc);
	if (!c->members || !c->first || !c->of || !c->in_first || !c->in_arcs ||
	    !t.first || !t.callee || !t.node || !t.stack ||
	    !t.frame_func || !t.frame_arc)
		goto out;
	/* the arcs are sorted by caller */
	for (size_t i = 0; i < cg->narcs; i++) {
		t.first[cg->arcs[i].caller + 1]++;
		t.callee[i] = (uint32_t)cg->arcs[i].callee;
	}
	for (size_t f = 0; f < n; f++) {
		t.first[f + 1] += t.first[f];
		t.node[f].index = TARJAN_UNSET;
		c->of[f] = (struct fn_place){ UNSET, 0 };
	}
	for (size_t f = 0; f < n; f++)
		if (cg->funcs[f].used && t.node[f].index == TARJAN_UNSET)
			find_components_from(&t, c, (uint32_t)f);
	c->first[c->count] = t.nmembers;
	tarjan_release(&t);
	memset(&t, 0, sizeof t);
	/* Incoming arcs by callee, stable so that callers stay in order. */
	for (size_t i = 0; i < cg->narcs; i++)
		c->in_first[cg->arcs[i].callee + 1]++;
	for (size_t f = 0; f < n; f++)
		c->in_first[f + 1] += c->in_first[f];
	for (size_t i = cg->narcs; i-- > 0;) {
		const struct cg_arc *arc = &cg->arcs[i];

		c->in_arcs[--c->in_first[arc->callee + 1]] = (struct in_arc){
			(uint32_t)i, (uint32_t)arc->caller, arc->count };
	}
	/* each callee's count is now where its arcs start, one place on */
	memmove(c->in_first, c->in_first + 1, n * sizeof *c->in_first);
	c->in_first[n] = cg->narcs;
	rc = gather_entering(cg, c);
out:
	tarjan_release(&t);
	return rc;
}

/* Iterates over the arcs entering component C from outside it. */
#define for_each_entering_arc(comps, c, e)					\
	for (struct entering *e = &(comps)->entering[(comps)->entering_first[c]]; \
	     e < &(comps)->entering[(comps)->entering_first[(c) + 1]]; e++)

static bool in_set(const bool *set, size_t f)
{
	return set && set[f];
}

/* The share of component C's time that is propagated: its members' share
 * where it is not forced to 0 (forcing to 1 happens only where the
 * inherited share is 0, so the members' other shares are equal). */
static inline double component_fract(const struct callgraph *cg,
				     const struct components *comps, size_t c)
{
	double most = 0;

	for (size_t m = comps->first[c]; m < comps->first[c + 1]; m++)
		if (cg->funcs[comps->members[m]].fract > most)
			most = cg->funcs[comps->members[m]].fract;
	return most;
}

/* Asks for what the passes over components read of component C, when
 * there is one: its first member, and its entering arcs, or their
 * callers (CALLERS: for inherit_selection).  The passes take the
 * components in order, and what each reads is scattered over the
 * function and arc tables. */
static inline void prefetch_component(const struct callgraph *cg,
				      const struct components *comps, size_t c,
				      bool callers)
{
	if (c >= comps->count)
		return;
	prefetch(&cg->funcs[comps->members[comps->first[c]]]);
	for_each_entering_arc(comps, c, e)
		prefetch(callers ? (const void *)&cg->funcs[e->caller]
				 : (const void *)&cg->arcs[e->arc]);
}

/* gprof's propagate_flags: top-down, each function (or cycle) inherits
 * from its callers the share of its time that is propagated, and whether
 * it is shown; then the selections force either way, per function, so
 * that members of one cycle can differ.  A call into a member whose share
 * is forced to 0 carries nothing (gprof skips it), though it counts in
 * the cycle's share. */
static void inherit_selection(struct callgraph *cg, struct components *comps,
			      const struct cg_selection *sel)
{
	for (size_t c = comps->count; c-- > 0;) {
		double fract = 0;
		bool shown = false;

		if (c >= PREFETCH_AHEAD)
			prefetch_component(cg, comps, c - PREFETCH_AHEAD, true);

		for_each_entering_arc(comps, c, e) {
			const struct cg_func *caller = &cg->funcs[e->caller];

			e->weight = caller->fract *
				    ((double)e->count / (double)comps->ncalls[c]);
			e->caller_shown = caller->shown;
			fract += e->weight;
			shown = shown || caller->shown;
		}
		for (size_t m = comps->first[c]; m < comps->first[c + 1]; m++) {
			size_t f = comps->members[m];
			struct cg_func *fn = &cg->funcs[f];

			fn->fract = fract;
			if (fract == 0 && (sel->incl_time ? in_set(sel->incl_time, f)
							  : !in_set(sel->excl_time, f)))
				fn->fract = 1;
			else if (fract != 0 && in_set(sel->excl_time, f) &&
				 !in_set(sel->incl_time, f))
				fn->fract = 0;
			fn->shown = shown;
			if (!shown && (sel->incl_graph ? in_set(sel->incl_graph, f)
						       : !in_set(sel->excl_graph, f)))
				fn->shown = true;
			else if (shown && in_set(sel->excl_graph, f) &&
				 !in_set(sel->incl_graph, f))
				fn->shown = false;
			comps->of[f].fract = fn->fract;
		}
		if (component_fract(cg, comps, c) != 0)
			for_each_entering_arc(comps, c, e)
				if (cg->funcs[e->callee].fract == 0)
					e->weight = 0;
	}
}

/* Whether some but not all members of component C are shown. */
static inline bool partly_shown(const struct callgraph *cg,
				const struct components *comps, size_t c)
{
	size_t shown = 0, k = comps->first[c + 1] - comps->first[c];

	for (size_t m = comps->first[c]; m < comps->first[c + 1]; m++)
		shown += cg->funcs[comps->members[m]].shown;
	return shown > 0 && shown < k;
}

/* The calls between members of cycle C, which gprof leaves blank and
 * grouping viewers ignore, carry the callee's member figure (its self
 * cost plus its calls leaving the cycle, gprof's "self + children" of a
 * member) in proportion to their share of all its calls, and more where
 * that is not enough: a viewer that does not group the cycle
 * (callgrind_annotate, KCachegrind with Cycle Detection off) takes a
 * function's inclusive cost as the sum of its incoming calls, and the
 * calls from outside carry the member's share of the cycle's total,
 * which can be below its own figure when the member is called mostly
 * from outside.  So the calls from members add up to at least what the
 * calls from outside leave short of the figure.  Direct recursion stays
 * at 0: no viewer adds it to gprof's figures then.  Runs after the calls
 * entering the cycle have their costs. */
static void cost_calls_within_cycle(struct callgraph *cg,
				    const struct components *comps, size_t c)
{
	for (size_t m = comps->first[c]; m < comps->first[c + 1]; m++) {
		size_t callee = comps->members[m];
		const struct cg_func *f = &cg->funcs[callee];
		struct splitter split = { .total = f->incl_ns,
					  .sum = (double)f->ncalls };
		uint64_t from_outside = 0, proportional = 0, inside_calls = 0;
		size_t last_inside = SIZE_MAX;

		for (size_t j = comps->in_first[callee]; j < comps->in_first[callee + 1]; j++) {
			struct cg_arc *arc = &cg->arcs[comps->in_arcs[j].arc];

			if (arc->caller == callee)
				continue;
			/* every caller advances the running sum, so that
			 * the shares of all calls add up to the whole */
			uint64_t share = split_next(&split, (double)arc->count,
						    false);

			if (comps->of[arc->caller].comp == c) {
				arc->ns = share;
				proportional = add_saturating(proportional, share);
				inside_calls = add_saturating(inside_calls, arc->count);
				last_inside = j;
			} else if (cg->funcs[arc->caller].shown) {
				from_outside = add_saturating(from_outside, arc->ns);
			}
		}
		if (last_inside == SIZE_MAX || !f->shown ||
		    add_saturating(proportional, from_outside) >= f->incl_ns)
			continue;
		split = (struct splitter){ .total = f->incl_ns - from_outside,
					   .sum = (double)inside_calls };
		for (size_t j = comps->in_first[callee]; j <= last_inside; j++) {
			struct cg_arc *arc = &cg->arcs[comps->in_arcs[j].arc];

			if (arc->caller != callee && comps->of[arc->caller].comp == c)
				arc->ns = split_next(&split, (double)arc->count,
						     j == last_inside);
		}
	}
}

/* KCachegrind lists a call only when its cost is above zero, and most
 * calls get no time from gprof: calls into code that was never sampled,
 * and direct recursion.  Such a call site carries this much, far below
 * one sample, so that every call gprof counts is shown. */
#define MIN_CALL_NS 1

/* Splits NS over ARC's sites in proportion to their counts, a site
 * left with nothing getting FLOOR; the arc's cost is then the sum of its
 * sites'.  Returns how many sites got the floor (or nothing). */
static inline size_t split_over_sites(struct callgraph *cg,
				      struct cg_arc *arc, uint64_t floor,
				      uint64_t ns)
{
	struct splitter split = { .total = ns, .sum = (double)arc->count };
	size_t last = arc->first_site + arc->nsites, empty = 0;

	if (arc->nsites == 1) {	/* most calls: the site takes it all */
		cg->sites[arc->first_site].ns = ns ? ns : floor;
		arc->ns = cg->sites[arc->first_site].ns;
		return ns == 0;
	}
	arc->ns = 0;
	for (size_t s = arc->first_site; s < last; s++) {
		uint64_t share = split_next(&split, (double)cg->sites[s].count,
					    s + 1 == last);

		empty += share == 0;
		cg->sites[s].ns = share ? share : floor;
		arc->ns = add_saturating(arc->ns, cg->sites[s].ns);
	}
	return empty;
}

/* Takes EXCESS back from the sites of the calls entering component C,
 * from each what it carries above its floor (MIN_CALL_NS for a written
 * call with FLOORS, else 0), in order, until none is left. */
static void take_back(struct callgraph *cg, const struct components *comps,
		      size_t c, uint64_t excess, bool floors)
{
	for_each_entering_arc(comps, c, e) {
		struct cg_arc *arc = &cg->arcs[e->arc];
		uint64_t floor = floors && e->caller_shown ? MIN_CALL_NS : 0;

		for (size_t s = arc->first_site;
		     s < arc->first_site + arc->nsites && excess > 0; s++) {
			uint64_t *ns = &cg->sites[s].ns;
			uint64_t take = *ns > floor ? *ns - floor : 0;

			if (take > excess)
				take = excess;
			*ns -= take;
			arc->ns -= take;
			excess -= take;
		}
	}
}

/* Splits INCL, component C's inclusive cost, over the sites of the calls
 * entering it: each call's share is its weight (its caller's share of
 * the calls), the sum of weights SUM, each site's part of it its part of
 * the call's count.  With FLOORS (into a shown component), a site of a
 * shown caller (a call written) left with nothing gets MIN_CALL_NS, taken
 * from the others: the split is redone on INCL less those markers until
 * it leaves as many sites empty as were set aside.  That need not settle
 * (each pass on less can leave more sites empty); what the calls still
 * carry above INCL then is taken back from the sites above their floor,
 * so that they never carry more than INCL: what they leave of it goes to
 * the pseudo caller, a difference that must not go below 0, unless WHOLE
 * (they are all the callers): then the last site takes it.  INCL is at
 * least MIN_CALL_NS per written site, so there is enough to take back.
 * Returns what the calls carry. */
static uint64_t split_entering(struct callgraph *cg,
			       const struct components *comps, size_t c,
			       uint64_t incl, double sum, bool whole, bool floors)
{
	const struct entering *last =
		&comps->entering[comps->entering_first[c + 1]] - 1;
	uint64_t given = 0, reserve = 0;

	for (int pass = 0; pass < 8; pass++) {
		struct splitter split = { .total = incl - reserve, .sum = sum };
		uint64_t empty = 0;

		given = 0;
		for_each_entering_arc(comps, c, e) {
			struct cg_arc *arc = &cg->arcs[e->arc];
			uint64_t share = split_next(&split, sum == 0 ? 0 : e->weight,
						    e == last && whole);
			bool written = floors && e->caller_shown;
			size_t none = split_over_sites(cg, arc,
						       written ? MIN_CALL_NS : 0,
						       share);

			empty += written ? none * MIN_CALL_NS : 0;
			given = add_saturating(given, arc->ns);
		}
		if (empty == reserve || given <= incl)
			break;
		reserve = empty;
	}
	if (given > incl) {
		take_back(cg, comps, c, given - incl, floors);
		given = incl;
	}
	/* (entering calls that are all the component's callers carry all of
	 * it: what a split that did not settle left goes to the last site,
	 * not to the pseudo caller, whose call would count one call more) */
	if (whole && given < incl && last >= &comps->entering[comps->entering_first[c]] &&
	    cg->arcs[last->arc].nsites > 0) {
		struct cg_arc *arc = &cg->arcs[last->arc];

		cg->sites[arc->first_site + arc->nsites - 1].ns += incl - given;
		arc->ns += incl - given;
		given = incl;
	}
	return given;
}

/* gprof's child time of each member of component C, as its flat profile
 * counts it: not scaled by the member's share, but only where that share
 * and the callee's are not 0.  A call into a component carries its part
 * of the calls into it of the component's time and child time (of the
 * members whose share is not 0); calls within C carry nothing.  Sets
 * comps->flat_incl[c]; the components C calls have theirs. */
static void flat_child_time(struct callgraph *cg, struct components *comps,
			    size_t c)
{
	for (size_t m = comps->first[c]; m < comps->first[c + 1]; m++) {
		struct cg_func *f = &cg->funcs[comps->members[m]];

		f->flat_child_ns = 0;
		if (f->fract == 0)
			continue;
		for (size_t a = f->first_arc; a < f->first_arc + f->narcs; a++) {
			const struct cg_arc *arc = &cg->arcs[a];
			const struct fn_place *callee = &comps->of[arc->callee];
			size_t to = callee->comp;

			if (to == c || callee->fract == 0 || comps->ncalls[to] == 0)
				continue;
			f->flat_child_ns += comps->flat_incl[to] *
				((double)arc->count / (double)comps->ncalls[to]);
		}
		comps->flat_incl[c] += f->self_ticks * f->ns_per_tick +
				       f->flat_child_ns;
	}
}

/* gprof's propagate_time, bottom-up, in integer ns: a component's
 * inclusive cost (its self cost plus the calls leaving it) goes to the
 * calls entering it in proportion to their counts, each scaled by its
 * caller's share (gprof's time * count / ncalls, for a function or a
 * whole cycle).  What the entering calls do not carry (all of it for a
 * root, part of it where a selection forced a share to 1) is left in
 * UNCALLED[c] for a pseudo caller.  Rounded running sums keep every
 * sum exact. */
static void propagate_time(struct callgraph *cg, struct components *comps,
			   uint64_t *uncalled)
{
	for (size_t c = 0; c < comps->count; c++) {
		const size_t *mem = &comps->members[comps->first[c]];
		size_t k = comps->first[c + 1] - comps->first[c];
		unsigned cycle = k > 1 ? ++cg->ncycles : 0;
		double fract, carried = 0;
		uint64_t incl = 0, nsites = 0;
		size_t head = SIZE_MAX;

		prefetch_component(cg, comps, c + PREFETCH_AHEAD, false);
		fract = component_fract(cg, comps, c);

		for (size_t i = 0; i < k; i++) {
			struct cg_func *f = &cg->funcs[mem[i]];
			uint64_t own = f->self_ns;

			for (size_t a = f->first_arc; a < f->first_arc + f->narcs; a++) {
				struct cg_arc *out = &cg->arcs[a];

				if (outside_component(comps, c, k, mem[i], out->callee))
					own = add_saturating(own, out->ns);
			}
			f->incl_ns = own;
			f->cycle = cycle;
			incl = add_saturating(incl, own);
			if (f->shown && head == SIZE_MAX)
				head = mem[i];
		}
		if (k == 1)
			cg->funcs[mem[0]].incl_ns = incl;
		for_each_entering_arc(comps, c, e) {
			carried += e->weight;
			if (e->caller_shown)
				nsites += cg->arcs[e->arc].nsites;
		}
		/* Every call written carries at least MIN_CALL_NS, and what
		 * the calls into a function carry is what it costs: a shown
		 * function too cheap for its calls (never sampled) gets the
		 * difference as its own cost, at its entry.  A root's call
		 * from the pseudo caller counts as one (not for the functions
		 * only -z shows, which neither call nor are sampled). */
		if (head != SIZE_MAX && (nsites || cg->funcs[head].narcs ||
					 cg->funcs[head].ncosts) &&
		    incl < (nsites ? nsites : 1) * MIN_CALL_NS) {
			struct cg_func *fn = &cg->funcs[head];
			uint64_t marker = (nsites ? nsites : 1) * MIN_CALL_NS - incl;

			/* (a pseudo function has no entry to write it at: its
			 * first position takes it, as a cost of its own; -n
			 * and -N can leave <no symbol>'s samples at 0) */
			if (callgraph_is_pseudo(cg, head) && fn->ncosts) {
				struct cg_cost *first = &cg->costs[fn->first_cost];

				cg_cost_set_ns(cg, first, cg_cost_ns(cg, first) + marker);
				fn->self_ns += marker;
			} else {
				fn->marker_ns += marker;
			}
			fn->incl_ns += marker;
			cg->total_ns += marker;
			incl += marker;
		}
		/* Shares are relative to this component's own share. */
		uncalled[c] = incl - split_entering(cg, comps, c, incl,
						    carried < fract ? fract : carried,
						    carried >= fract, head != SIZE_MAX);
		/* (of a cycle partly shown, the calls between members carry
		 * only their markers: see find_member_roots) */
		if (k > 1 && !partly_shown(cg, comps, c))
			cost_calls_within_cycle(cg, comps, c);
	}
}

static uint64_t root_key(const void *x)
{
	return ((const struct cg_root *)x)->func;
}

static int by_roots(const void *x, const void *y)
{
	const struct cg_root *a = x, *b = y;

	return a->func < b->func ? -1 : a->func > b->func;
}

/* Adds a call from the pseudo caller to FUNC carrying NS, as many calls
 * as the profile recorded into FUNC from code in no function (a callback
 * of a library's), or one where it recorded none.  Returns -1 when out
 * of memory. */
static int add_root(struct callgraph *cg, size_t *cap, size_t func,
		    uint64_t ns)
{
	struct cg_root *roots = array_grow(cg->roots, cap, cg->nroots + 1,
					   sizeof *roots);

	if (!roots)
		return -1;
	cg->roots = roots;
	roots[cg->nroots++] = (struct cg_root){
		func, ns,
		cg->funcs[func].outside_calls ? cg->funcs[func].outside_calls : 1 };
	return 0;
}

/* The roots of cycle C of which a selection leaves some members out of
 * the graph: the members shown are no longer one cycle to the viewers,
 * which add up a function's calls in.  The calls between members carry
 * only their markers, as gprof leaves them blank, so each member's calls
 * out and self cost are its member figure (gprof's self + children of
 * it) plus the markers on its calls to other members shown; each gets
 * from the pseudo caller what its written calls in (markers included)
 * leave short of that, and one call at least if nothing written calls
 * it.  (Calls in from outside carry the cycle's share, gprof's parent
 * lines, which can be more.)  The calls within must have their markers
 * (split_calls_within).  Those markers are no part of the total, so in a
 * profile of almost no time (no samples: the total is its few markers)
 * the pseudo caller's call is held to the total, as every cost is.
 * Returns -1 when out of memory. */
static int find_member_roots(struct callgraph *cg, const struct components *comps,
			     size_t c, size_t *cap)
{
	for (size_t m = comps->first[c]; m < comps->first[c + 1]; m++) {
		size_t f = comps->members[m];
		const struct cg_func *fn = &cg->funcs[f];
		uint64_t in = 0, owed = fn->incl_ns;
		bool called = false;

		if (!fn->shown)
			continue;
		for (size_t j = comps->in_first[f]; j < comps->in_first[f + 1]; j++) {
			const struct cg_arc *arc = &cg->arcs[comps->in_arcs[j].arc];

			if (arc->caller != f && cg->funcs[arc->caller].shown) {
				called = true;
				in = add_saturating(in, arc->ns);
			}
		}
		for (size_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++) {
			const struct cg_arc *out = &cg->arcs[a];

			if (out->callee != f && comps->of[out->callee].comp == c &&
			    cg->funcs[out->callee].shown)
				owed = add_saturating(owed, out->ns);
		}
		if (in < owed && owed - in > cg->total_ns)
			owed = in + cg->total_ns;
		if ((!called || in < owed) &&
		    add_root(cg, cap, f, in < owed ? owed - in : 0) < 0)
			return -1;
	}
	return 0;
}

/* The pseudo caller's calls: for each component with a shown member, the
 * part of its inclusive cost that no shown caller carries.  Every shown
 * function without a shown caller gets one, even at cost 0, so that the
 * viewers see it as called. */
static int find_roots(struct callgraph *cg, const struct components *comps,
		      const uint64_t *uncalled)
{
	size_t cap = 0;

	for (size_t c = 0; c < comps->count; c++) {
		uint64_t ns = uncalled[c];
		size_t head = SIZE_MAX;
		bool called = false;

		prefetch_component(cg, comps, c + PREFETCH_AHEAD, false);
		if (partly_shown(cg, comps, c)) {
			if (find_member_roots(cg, comps, c, &cap) < 0)
				return -1;
			continue;
		}
		for (size_t m = comps->first[c]; m < comps->first[c + 1]; m++)
			if (cg->funcs[comps->members[m]].shown &&
			    comps->members[m] < head)
				head = comps->members[m];
		if (head == SIZE_MAX)
			continue;
		for_each_entering_arc(comps, c, e) {
			if (e->caller_shown && cg->funcs[e->callee].shown)
				called = true;
			else
				ns = add_saturating(ns, cg->arcs[e->arc].ns);
		}
		if ((!called || ns != 0) && add_root(cg, &cap, head, ns) < 0)
			return -1;
	}
	if (cg->nroots)
		sort_by_key(cg->roots, cg->nroots, sizeof *cg->roots, root_key,
			    by_roots);
	return 0;
}

/* The calls within a component (direct recursion, calls between members
 * of a cycle) over their sites, each site at least MIN_CALL_NS; the
 * calls entering a component were split by propagate_time. */
static void split_calls_within(struct callgraph *cg,
			       const struct components *comps)
{
	for (size_t i = 0; i < cg->narcs; i++) {
		struct cg_arc *arc = &cg->arcs[i];

		if (comps->of[arc->caller].comp != comps->of[arc->callee].comp)
			continue;
		split_over_sites(cg, arc, 0, arc->ns);
		for (size_t s = arc->first_site; s < arc->first_site + arc->nsites; s++) {
			if (cg->sites[s].ns < MIN_CALL_NS) {
				arc->ns += MIN_CALL_NS - cg->sites[s].ns;
				cg->sites[s].ns = MIN_CALL_NS;
			}
		}
	}
}

int propagate_graph(struct callgraph *cg, const struct cg_selection *sel,
		    enum propagate_extras extras, struct g2c_error *err)
{
	struct components comps = { 0 };
	uint64_t *uncalled = NULL;
	int rc = -1;

	link_arcs(cg);
	for (size_t f = 0; f < cg->nfuncs; f++)
		cg->funcs[f].used = cg->funcs[f].used || cg->funcs[f].ncosts > 0;
	if (cg->nfuncs >= UINT32_MAX || cg->narcs >= UINT32_MAX)
		return g2c_error_set(err, "too many functions or calls for one call graph");
	/* (set for each component by propagate_time) */
	uncalled = malloc(cg->nfuncs * sizeof *uncalled);
	if (!uncalled || find_components(cg, &comps) < 0) {
		g2c_error_set(err, "out of memory for the call graph");
		goto out;
	}
	inherit_selection(cg, &comps, sel);
	finish_costs(cg);
	propagate_time(cg, &comps, uncalled);
	if (extras == PROPAGATE_FLAT_PROFILE)
		for (size_t c = 0; c < comps.count; c++)
			flat_child_time(cg, &comps, c);
	split_calls_within(cg, &comps);
	if (find_roots(cg, &comps, uncalled) < 0) {
		g2c_error_set(err, "out of memory for the call graph");
		goto out;
	}
	rc = 0;
out:
	components_release(&comps);
	free(uncalled);
	return rc;
}

int propagate_find_cycles(struct callgraph *cg, struct g2c_error *err)
{
	struct components comps = { 0 };

	if (cg->nfuncs >= UINT32_MAX || cg->narcs >= UINT32_MAX)
		return g2c_error_set(err, "too many functions or calls for one call graph");
	if (find_components(cg, &comps) < 0) {
		components_release(&comps);
		return g2c_error_set(err, "out of memory for the call graph");
	}
	cg->ncycles = 0;
	for (size_t c = 0; c < comps.count; c++) {
		size_t k = comps.first[c + 1] - comps.first[c];
		unsigned cycle = k > 1 ? ++cg->ncycles : 0;

		for (size_t m = comps.first[c]; m < comps.first[c + 1]; m++)
			cg->funcs[comps.members[m]].cycle = cycle;
	}
	components_release(&comps);
	return 0;
}
