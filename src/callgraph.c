/* callgraph.c -- attribute samples and arcs to functions, and propagate
 * time along the arcs as gprof does. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"
#include "diag.h"

#define UNSET SIZE_MAX

/* mcount is called from the prologue, so the callee address of an arc
 * (mcount's return address) lies within a few instructions of the entry:
 * 5 to 30 bytes on the targets we have seen.  Far beyond that, the arc
 * was recorded for another executable. */
#define MCOUNT_MAX_OFFSET 64

static void *grow(void *array, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 64;
	void *p;

	if (need <= *cap)
		return array;
	while (n < need) {
		if (n > SIZE_MAX / 2 / elem)
			return NULL;
		n *= 2;
	}
	p = realloc(array, n * elem);
	if (p)
		*cap = n;
	return p;
}

static uint64_t add_saturating(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Splits TOTAL over N parts in proportion to WEIGHT[i] / SUM so that the
 * parts add up to TOTAL exactly: each part is the difference of rounded
 * running sums.  Called once per part, in order, with the running weight. */
struct splitter {
	uint64_t total, sum;	/* what is split, and the sum of all weights */
	uint64_t seen;		/* weights so far */
	uint64_t given;		/* rounded share of the weights so far */
};

static uint64_t split_next(struct splitter *s, uint64_t weight)
{
	uint64_t upto, part;

	s->seen = add_saturating(s->seen, weight);
	if (s->seen >= s->sum)
		upto = s->total;
	else
		upto = (uint64_t)llround((double)s->total * ((double)s->seen /
							      (double)s->sum));
	if (upto < s->given)	/* cannot happen with monotone rounding */
		upto = s->given;
	part = upto - s->given;
	s->given = upto;
	return part;
}

struct build {
	struct callgraph *cg;
	const struct symtab *st;
	size_t costs_cap;
	struct g2c_error *err;
};

static int add_cost(struct build *b, size_t func, uint64_t pc, double ticks)
{
	struct callgraph *cg = b->cg;
	struct cg_cost *costs = grow(cg->costs, &b->costs_cap, cg->ncosts + 1,
				     sizeof *costs);

	if (!costs)
		return g2c_error_set(b->err, "out of memory for sample positions");
	cg->costs = costs;
	costs[cg->ncosts++] = (struct cg_cost){ func, pc, ticks, 0, 0 };
	return 0;
}

/* Basic-block counts become a second cost at each block's address. */
static int add_executions(struct build *b, const struct gmon_profile *prof)
{
	struct callgraph *cg = b->cg;

	for (size_t i = 0; i < prof->nbbs; i++) {
		size_t f = symtab_lookup(b->st, prof->bbs[i].addr);

		if (prof->bbs[i].count == 0)
			continue;
		if (f == SYMTAB_NONE || b->st->funcs[f].excluded) {
			cg->stats.blocks_unresolved++;
			continue;
		}
		if (add_cost(b, f, prof->bbs[i].addr, 0) < 0)
			return -1;
		cg->costs[cg->ncosts - 1].executions = prof->bbs[i].count;
		cg->has_executions = true;
	}
	return 0;
}

/* The first function whose range ends after PC (ends ascend with addresses). */
static size_t first_func_ending_after(const struct symtab *st, uint64_t pc)
{
	size_t lo = 0, hi = st->nfuncs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->funcs[mid].end <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Credits COUNT samples taken in [LO, HI) to the functions overlapping it,
 * in proportion to the bytes of overlap; the bytes in no function go to the
 * pseudo function, the mcount family's share is dropped as gprof drops it. */
static int attribute_bin(struct build *b, uint64_t lo, uint64_t hi,
			 uint64_t count)
{
	const struct symtab *st = b->st;
	struct cg_stats *stats = &b->cg->stats;
	double width = (double)(hi - lo);
	uint64_t covered = 0;

	for (size_t f = first_func_ending_after(st, lo);
	     f < st->nfuncs && st->funcs[f].addr < hi; f++) {
		uint64_t a = st->funcs[f].addr > lo ? st->funcs[f].addr : lo;
		uint64_t e = st->funcs[f].end < hi ? st->funcs[f].end : hi;
		double credit;

		if (e <= a)
			continue;
		covered += e - a;
		credit = (double)count * ((double)(e - a) / width);
		if (st->funcs[f].excluded)
			stats->excluded_ticks += credit;
		else if (add_cost(b, f, a, credit) < 0)
			return -1;
	}
	if (covered < hi - lo) {
		double credit = (double)count * ((double)(hi - lo - covered) / width);

		stats->unattributed_ticks += credit;
		return add_cost(b, callgraph_no_symbol(b->cg), lo, credit);
	}
	return 0;
}

static int attribute_samples(struct build *b, const struct gmon_profile *prof)
{
	for (size_t h = 0; h < prof->nhists; h++) {
		const struct gmon_hist *hist = &prof->hists[h];
		uint32_t scale = gmon_hist_scale(hist);
		size_t f = first_func_ending_after(b->st, hist->low_pc);

		b->cg->stats.hists++;
		if (f >= b->st->nfuncs || b->st->funcs[f].addr >= hist->high_pc)
			b->cg->stats.hists_outside++;

		for (uint32_t i = 0; i < hist->nbins; i++) {
			uint64_t lo, hi;

			if (!hist->bins[i])
				continue;
			b->cg->stats.samples += hist->bins[i];
			gmon_hist_bin_to_pc(hist, scale, i, &lo, &hi);
			if (hi <= lo)	/* only at the very top of the address space */
				hi = lo == UINT64_MAX ? lo : lo + 1;
			if (hi > lo && attribute_bin(b, lo, hi, hist->bins[i]) < 0)
				return -1;
		}
	}
	return 0;
}

static int compare_costs(const void *x, const void *y)
{
	const struct cg_cost *a = x, *b = y;

	if (a->func != b->func)
		return a->func < b->func ? -1 : 1;
	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	return 0;
}

/* Sorts the positions by function and address, merges equal ones, and
 * rounds their costs to ns so that the rounded costs add up to the rounded
 * total. */
static void finish_costs(struct callgraph *cg)
{
	double ns_per_tick = cg->hz ? 1e9 / cg->hz : 0;
	double running = 0;
	uint64_t given = 0;
	size_t n = 0;

	if (cg->ncosts)
		qsort(cg->costs, cg->ncosts, sizeof *cg->costs, compare_costs);
	for (size_t i = 0; i < cg->ncosts; i++) {
		if (n > 0 && cg->costs[n - 1].func == cg->costs[i].func &&
		    cg->costs[n - 1].pc == cg->costs[i].pc) {
			cg->costs[n - 1].ticks += cg->costs[i].ticks;
			cg->costs[n - 1].executions = add_saturating(
				cg->costs[n - 1].executions, cg->costs[i].executions);
		} else {
			cg->costs[n++] = cg->costs[i];
		}
	}
	cg->ncosts = n;
	for (size_t i = 0; i < n; i++) {
		struct cg_cost *c = &cg->costs[i];
		struct cg_func *f = &cg->funcs[c->func];
		uint64_t upto;

		running += c->ticks * ns_per_tick;
		upto = (uint64_t)llround(running);
		c->ns = upto > given ? upto - given : 0;
		given += c->ns;
		if (f->ncosts++ == 0)
			f->first_cost = i;
		f->self_ticks += c->ticks;
		f->self_ns += c->ns;
		cg->total_executions = add_saturating(cg->total_executions,
						      c->executions);
		f->used = true;
	}
	cg->total_ns = given;
}

/* One resolved arc record before arcs are summed per (caller, callee). */
struct raw_call {
	size_t caller, callee;
	uint64_t pc, count;
};

static int compare_raw_calls(const void *x, const void *y)
{
	const struct raw_call *a = x, *b = y;

	if (a->caller != b->caller)
		return a->caller < b->caller ? -1 : 1;
	if (a->callee != b->callee)
		return a->callee < b->callee ? -1 : 1;
	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	return 0;
}

/* Resolves each arc as gprof does: the caller is the function containing
 * from_pc, the callee the one containing self_pc; records with an end in no
 * function, or in the mcount family, are dropped (and counted). */
static int resolve_calls(struct build *b, const struct gmon_profile *prof,
			 struct raw_call **out, size_t *nout)
{
	struct cg_stats *stats = &b->cg->stats;
	struct raw_call *calls = malloc((prof->narcs ? prof->narcs : 1) *
					sizeof *calls);
	size_t n = 0;

	if (!calls)
		return g2c_error_set(b->err, "out of memory for call arcs");
	for (size_t i = 0; i < prof->narcs; i++) {
		const struct gmon_arc *arc = &prof->arcs[i];
		size_t caller, callee;

		if (arc->count == 0)
			continue;
		stats->arcs_read++;
		caller = symtab_lookup(b->st, arc->from_pc);
		callee = symtab_lookup(b->st, arc->self_pc);
		if (caller == SYMTAB_NONE || callee == SYMTAB_NONE) {
			stats->arcs_unresolved++;
			continue;
		}
		if (b->st->funcs[caller].excluded || b->st->funcs[callee].excluded) {
			stats->arcs_excluded++;
			continue;
		}
		if (arc->self_pc - b->st->funcs[callee].addr > MCOUNT_MAX_OFFSET)
			stats->arcs_far_from_entry++;
		calls[n++] = (struct raw_call){ caller, callee, arc->from_pc,
						arc->count };
	}
	qsort(calls, n, sizeof *calls, compare_raw_calls);
	*out = calls;
	*nout = n;
	return 0;
}

static int collect_arcs(struct build *b, const struct gmon_profile *prof)
{
	struct callgraph *cg = b->cg;
	struct raw_call *calls = NULL;
	size_t n = 0;

	if (resolve_calls(b, prof, &calls, &n) < 0)
		return -1;
	cg->arcs = calloc(n ? n : 1, sizeof *cg->arcs);
	cg->sites = calloc(n ? n : 1, sizeof *cg->sites);
	if (!cg->arcs || !cg->sites) {
		free(calls);
		return g2c_error_set(b->err, "out of memory for call arcs");
	}
	for (size_t i = 0; i < n; i++) {
		const struct raw_call *c = &calls[i];
		struct cg_arc *arc = cg->narcs ? &cg->arcs[cg->narcs - 1] : NULL;

		if (!arc || arc->caller != c->caller || arc->callee != c->callee) {
			arc = &cg->arcs[cg->narcs++];
			*arc = (struct cg_arc){ .caller = c->caller,
						.callee = c->callee,
						.first_site = cg->nsites };
		}
		if (arc->nsites > 0 &&
		    cg->sites[cg->nsites - 1].pc == c->pc) {
			cg->sites[cg->nsites - 1].count =
				add_saturating(cg->sites[cg->nsites - 1].count,
					       c->count);
		} else {
			cg->sites[cg->nsites++] = (struct cg_site){ c->pc,
								    c->count, 0 };
			arc->nsites++;
		}
		arc->count = add_saturating(arc->count, c->count);
	}
	free(calls);
	for (size_t i = 0; i < cg->narcs; i++) {
		struct cg_arc *arc = &cg->arcs[i];
		struct cg_func *caller = &cg->funcs[arc->caller];
		struct cg_func *callee = &cg->funcs[arc->callee];

		if (caller->narcs++ == 0)
			caller->first_arc = i;
		caller->used = callee->used = true;
		if (arc->caller == arc->callee)
			callee->self_calls = add_saturating(callee->self_calls,
							    arc->count);
		else
			callee->ncalls = add_saturating(callee->ncalls, arc->count);
	}
	return 0;
}

/* State of the strongly-connected-component search and of propagation. */
struct propagation {
	struct callgraph *cg;
	size_t *index, *low, *scc;	/* per function */
	bool *on_stack;
	size_t *stack, nstack;		/* Tarjan's stack of functions */
	size_t *frame_func, *frame_arc, nframes;	/* the DFS, iteratively */
	size_t *in_arcs, *in_first;	/* arcs grouped by callee */
	size_t nsccs;
	size_t roots_cap;
};

/* Time flows from callees to callers: an SCC is finished only after every
 * SCC it calls, so its inclusive cost is known here, and it is handed to
 * the calls entering it in proportion to their counts (gprof's
 * time * count / ncalls for the function, or for the whole cycle). */
static int finish_scc(struct propagation *p, const size_t *members, size_t k)
{
	struct callgraph *cg = p->cg;
	size_t id = p->nsccs++;
	unsigned cycle = k > 1 ? ++cg->ncycles : 0;
	uint64_t incl = 0, entering = 0;
	size_t first = members[0];
	struct splitter split;

	for (size_t i = 0; i < k; i++)
		p->scc[members[i]] = id;
	for (size_t i = 0; i < k; i++) {
		struct cg_func *f = &cg->funcs[members[i]];
		uint64_t own = f->self_ns;

		if (members[i] < first)
			first = members[i];
		for (size_t a = f->first_arc; a < f->first_arc + f->narcs; a++) {
			struct cg_arc *arc = &cg->arcs[a];

			if (p->scc[arc->callee] == id)
				arc->ns = 0;	/* recursion carries no time */
			else
				own = add_saturating(own, arc->ns);
		}
		f->incl_ns = own;
		f->cycle = cycle;
		incl = add_saturating(incl, own);
	}
	for (size_t i = 0; i < k; i++) {
		size_t m = members[i];

		for (size_t j = p->in_first[m]; j < p->in_first[m + 1]; j++) {
			const struct cg_arc *arc = &cg->arcs[p->in_arcs[j]];

			if (p->scc[arc->caller] != id)
				entering = add_saturating(entering, arc->count);
		}
	}
	if (k == 1)
		cg->funcs[first].incl_ns = incl;
	if (entering == 0) {
		struct cg_root *roots = grow(cg->roots, &p->roots_cap,
					     cg->nroots + 1, sizeof *roots);

		if (!roots)
			return -1;
		cg->roots = roots;
		roots[cg->nroots++] = (struct cg_root){ first, incl };
		return 0;
	}
	split = (struct splitter){ .total = incl, .sum = entering };
	for (size_t i = 0; i < k; i++) {
		size_t m = members[i];

		for (size_t j = p->in_first[m]; j < p->in_first[m + 1]; j++) {
			struct cg_arc *arc = &cg->arcs[p->in_arcs[j]];

			if (p->scc[arc->caller] != id)
				arc->ns = split_next(&split, arc->count);
		}
	}
	return 0;
}

static void visit(struct propagation *p, size_t v, size_t *counter)
{
	p->index[v] = p->low[v] = (*counter)++;
	p->stack[p->nstack++] = v;
	p->on_stack[v] = true;
	p->frame_func[p->nframes] = v;
	p->frame_arc[p->nframes] = p->cg->funcs[v].first_arc;
	p->nframes++;
}

/* Tarjan's algorithm without recursion, so depth is bounded by memory. */
static int find_sccs(struct propagation *p, size_t start, size_t *counter)
{
	struct callgraph *cg = p->cg;

	visit(p, start, counter);
	while (p->nframes > 0) {
		size_t v = p->frame_func[p->nframes - 1];
		size_t *next = &p->frame_arc[p->nframes - 1];
		const struct cg_func *f = &cg->funcs[v];

		if (*next < f->first_arc + f->narcs) {
			size_t w = cg->arcs[(*next)++].callee;

			if (p->index[w] == UNSET)
				visit(p, w, counter);
			else if (p->on_stack[w] && p->index[w] < p->low[v])
				p->low[v] = p->index[w];
			continue;
		}
		p->nframes--;
		if (p->low[v] == p->index[v]) {
			size_t top = p->nstack;

			do
				p->on_stack[p->stack[--p->nstack]] = false;
			while (p->stack[p->nstack] != v);
			if (finish_scc(p, &p->stack[p->nstack], top - p->nstack) < 0)
				return -1;
		}
		if (p->nframes > 0) {
			size_t u = p->frame_func[p->nframes - 1];

			if (p->low[v] < p->low[u])
				p->low[u] = p->low[v];
		}
	}
	return 0;
}

/* Groups arc indexes by callee (stable, so callers stay in order).  Uses
 * low[] as the fill cursor; the SCC search sets it afresh. */
static void index_incoming(struct propagation *p)
{
	struct callgraph *cg = p->cg;

	for (size_t i = 0; i < cg->narcs; i++)
		p->in_first[cg->arcs[i].callee + 1]++;
	for (size_t f = 0; f < cg->nfuncs; f++)
		p->in_first[f + 1] += p->in_first[f];
	memcpy(p->low, p->in_first, cg->nfuncs * sizeof *p->low);
	for (size_t i = 0; i < cg->narcs; i++)
		p->in_arcs[p->low[cg->arcs[i].callee]++] = i;
}

static int compare_roots(const void *x, const void *y)
{
	const struct cg_root *a = x, *b = y;

	return a->func < b->func ? -1 : a->func > b->func;
}

static void split_arcs_over_sites(struct callgraph *cg)
{
	for (size_t i = 0; i < cg->narcs; i++) {
		struct cg_arc *arc = &cg->arcs[i];
		struct splitter split = { .total = arc->ns, .sum = arc->count };

		for (size_t s = arc->first_site; s < arc->first_site + arc->nsites; s++)
			cg->sites[s].ns = split_next(&split, cg->sites[s].count);
	}
}

static int propagate(struct build *b)
{
	struct callgraph *cg = b->cg;
	size_t n = cg->nfuncs, counter = 0;
	struct propagation p = { .cg = cg };
	int rc = 0;

	p.index = malloc(n * sizeof *p.index);
	p.low = calloc(n, sizeof *p.low);
	p.scc = malloc(n * sizeof *p.scc);
	p.on_stack = calloc(n, sizeof *p.on_stack);
	p.stack = malloc(n * sizeof *p.stack);
	p.frame_func = malloc(n * sizeof *p.frame_func);
	p.frame_arc = malloc(n * sizeof *p.frame_arc);
	p.in_first = calloc(n + 1, sizeof *p.in_first);
	p.in_arcs = malloc((cg->narcs ? cg->narcs : 1) * sizeof *p.in_arcs);
	if (!p.index || !p.low || !p.scc || !p.on_stack || !p.stack ||
	    !p.frame_func || !p.frame_arc || !p.in_first || !p.in_arcs) {
		rc = g2c_error_set(b->err, "out of memory for the call graph");
		goto out;
	}
	index_incoming(&p);
	for (size_t f = 0; f < n; f++) {
		p.index[f] = UNSET;
		p.scc[f] = UNSET;
	}
	for (size_t f = 0; f < n && rc == 0; f++)
		if (cg->funcs[f].used && p.index[f] == UNSET)
			rc = find_sccs(&p, f, &counter);
	if (rc < 0) {
		g2c_error_set(b->err, "out of memory for the call graph");
		goto out;
	}
	if (cg->nroots)
		qsort(cg->roots, cg->nroots, sizeof *cg->roots, compare_roots);
	split_arcs_over_sites(cg);
out:
	free(p.index);
	free(p.low);
	free(p.scc);
	free(p.on_stack);
	free(p.stack);
	free(p.frame_func);
	free(p.frame_arc);
	free(p.in_first);
	free(p.in_arcs);
	return rc;
}

int callgraph_build(struct callgraph *cg, const struct gmon_profile *prof,
		    const struct symtab *st, uint32_t hz,
		    struct g2c_error *err)
{
	struct build b = { .cg = cg, .st = st, .err = err };

	memset(cg, 0, sizeof *cg);
	cg->st = st;
	cg->nfuncs = st->nfuncs + 1;
	cg->hz = prof->nhists ? hz : 0;
	cg->funcs = calloc(cg->nfuncs, sizeof *cg->funcs);
	if (!cg->funcs)
		return g2c_error_set(err, "out of memory for the call graph");
	if (attribute_samples(&b, prof) < 0 || add_executions(&b, prof) < 0)
		goto fail;
	finish_costs(cg);
	if (collect_arcs(&b, prof) < 0 || propagate(&b) < 0)
		goto fail;
	return 0;
fail:
	callgraph_release(cg);
	return -1;
}

const char *callgraph_misfit(const struct callgraph *cg)
{
	const struct cg_stats *s = &cg->stats;
	uint64_t resolved = s->arcs_read - s->arcs_unresolved - s->arcs_excluded;

	if (s->hists > 0 && s->hists_outside == s->hists)
		return "its histogram covers none of the executable's functions";
	if (s->samples > 0 && s->unattributed_ticks > 0.5 * (double)s->samples)
		return "most samples fall outside every function";
	if (s->arcs_read > 0 && s->arcs_unresolved * 2 > s->arcs_read)
		return "most call arcs point outside every function";
	if (resolved > 0 && s->arcs_far_from_entry * 2 > resolved)
		return "most call arcs do not point at the start of a function";
	return NULL;
}

void callgraph_release(struct callgraph *cg)
{
	free(cg->funcs);
	free(cg->costs);
	free(cg->arcs);
	free(cg->sites);
	free(cg->roots);
	memset(cg, 0, sizeof *cg);
}
