/* callgraph.c -- attribute samples and arcs to functions, and propagate
 * time along the arcs as gprof does. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"
#include "diag.h"
#include "util.h"

#define UNSET SIZE_MAX

/* mcount is called from the prologue, so the callee address of an arc
 * (mcount's return address) lies within a few instructions of the entry:
 * 5 to 30 bytes on the targets we have seen.  Far beyond that, the arc
 * was recorded for another executable. */
#define MCOUNT_MAX_OFFSET 64

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

struct build {
	struct callgraph *cg;
	const struct cg_object *obj;	/* the object being read */
	const struct symtab *st;	/* its functions */
	size_t costs_cap;
	struct g2c_error *err;
};

/* The number of function F of the object being read. */
static size_t func_number(const struct build *b, size_t f)
{
	return b->obj->first_func + f;
}

static int add_cost(struct build *b, size_t func, uint64_t pc, double ticks)
{
	struct callgraph *cg = b->cg;
	struct cg_cost *costs = array_grow(cg->costs, &b->costs_cap, cg->ncosts + 1,
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
		if (add_cost(b, func_number(b, f), prof->bbs[i].addr, 0) < 0)
			return -1;
		cg->costs[cg->ncosts - 1].executions = prof->bbs[i].count;
		cg->has_executions = true;
	}
	return 0;
}

/* The first function whose range ends after PC (ends ascend with addresses). */
static size_t first_func_ending_after(const struct symtab *st, uint64_t pc)
{
	if (st->nfuncs == 0)
		return 0;
	return search_above(&st->funcs[0].end, st->nfuncs, sizeof *st->funcs,
			    pc, 0);
}

/* Credits TICKS taken in [LO, HI) of symbol range F to the instructions
 * there, in proportion to their bytes in the range, so that every cost
 * sits at an instruction start (at LO where F's code cannot be decoded);
 * the cost belongs to the function owning F. */
static int credit_instructions(struct build *b, size_t f, uint64_t lo,
			       uint64_t hi, double ticks)
{
	size_t n = 0, k = 0, first, last;
	size_t owner = func_number(b, b->st->funcs[f].owner);
	const struct insn *insns = NULL;

	if (b->obj->code &&
	    code_instructions(b->obj->code, f, &insns, &n, b->err) < 0)
		return -1;
	if (!insns)
		return add_cost(b, owner, lo, ticks);
	/* first instruction ending after LO */
	for (first = 0, last = n; first < last;) {
		size_t mid = first + (last - first) / 2;

		if (insns[mid].pc + insns[mid].len <= lo)
			first = mid + 1;
		else
			last = mid;
	}
	for (k = first; k < n && insns[k].pc < hi; k++) {
		uint64_t a = insns[k].pc > lo ? insns[k].pc : lo;
		uint64_t e = insns[k].pc + insns[k].len < hi ?
			     insns[k].pc + insns[k].len : hi;

		if (e > a && add_cost(b, owner, insns[k].pc,
				      ticks * ((double)(e - a) / (double)(hi - lo))) < 0)
			return -1;
	}
	return k == first ? add_cost(b, owner, lo, ticks) : 0;
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
		else if (credit_instructions(b, f, a, e, credit) < 0)
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

		for (size_t i = 0; i < hist->ncounted; i++) {
			const struct gmon_bin *bin = &hist->counted[i];
			uint64_t lo, hi;

			b->cg->stats.samples += bin->count;
			gmon_hist_bin_to_pc(hist, scale, bin->index, &lo, &hi);
			if (hi <= lo)	/* only at the very top of the address space */
				hi = lo == UINT64_MAX ? lo : lo + 1;
			if (hi > lo && attribute_bin(b, lo, hi, bin->count) < 0)
				return -1;
		}
	}
	return 0;
}

static uint64_t cost_key(const void *x)
{
	return ((const struct cg_cost *)x)->func;
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
 * rounds their costs to ns, scaled by the share of each function's time
 * that gprof propagates (1 without selections), so that the rounded costs
 * add up to the rounded total. */
static void finish_costs(struct callgraph *cg)
{
	double running = 0;
	uint64_t given = 0;
	size_t n = 0;

	if (cg->ncosts)
		sort_by_key(cg->costs, cg->ncosts, sizeof *cg->costs, cost_key,
			    compare_costs);
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
		const struct cg_object *obj = &cg->objs[callgraph_object_of(cg, c->func)];
		double ns_per_tick = obj->prof && obj->prof->nhists && obj->hz ?
				     1e9 / obj->hz : 0;
		uint64_t upto;

		running += c->ticks * f->fract * ns_per_tick;
		upto = (uint64_t)llround(running);
		c->ns = upto > given ? upto - given : 0;
		given += c->ns;
		if (f->ncosts++ == 0)
			f->first_cost = i;
		f->self_ticks += c->ticks;
		f->self_ns += c->ns;
		cg->total_executions = add_saturating(cg->total_executions,
						      c->executions);
	}
	cg->total_ns = given;
}

/* One resolved arc record before arcs are summed per (caller, callee). */
struct raw_call {
	size_t caller, callee;
	uint64_t pc, count;
};

static uint64_t raw_call_key(const void *x)
{
	return ((const struct raw_call *)x)->caller;
}

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

/* Finds the call site of ARC, whose callee is symbol range CALLEE, into
 * *SITE, and checks that the profile fits the code: self_pc must be the
 * return address of the mcount call in the callee's prologue, and a call
 * must return into from_pc's bucket.  A program rebuilt after profiling
 * fails both.  LD_PROFILE records a return address in from_pc (BUCKET
 * 1) and the callee's entry in self_pc.  Returns 0, or -1 with b->err
 * set. */
static int check_arc(struct build *b, const struct gmon_arc *arc,
		     size_t callee, uint64_t bucket, bool ld_profile,
		     uint64_t *site)
{
	struct cg_stats *stats = &b->cg->stats;
	enum code_check at_site, at_self = CODE_AFTER_CALL;

	if (code_call_site(b->obj->code, arc->from_pc, bucket,
			   b->st->funcs[callee].addr, site, &at_site, b->err) < 0)
		return -1;
	/* ld.so records the callee's entry, not a return address in it;
	 * mcount's return address is in the prologue, nowhere else (which
	 * also bounds the code decoded for the check). */
	if (!ld_profile && arc->self_pc - b->st->funcs[callee].addr > MCOUNT_MAX_OFFSET)
		at_self = CODE_NOT_AFTER_CALL;
	else if (!ld_profile &&
		 code_check_return(b->obj->code, callee, arc->self_pc, &at_self,
				   b->err) < 0)
		return -1;
	if (at_site == CODE_UNKNOWN || at_self == CODE_UNKNOWN)
		return 0;
	stats->arcs_checked++;
	if (at_site == CODE_NOT_AFTER_CALL || at_self == CODE_NOT_AFTER_CALL)
		stats->arcs_not_after_call++;
	return 0;
}

/* Whether -k drops the calls from FROM to TO. */
static bool deselected(const struct cg_selection *sel, size_t from, size_t to)
{
	for (size_t i = 0; i < sel->nexcl_arcs; i++)
		if (sel->excl_arcs[i].from[from] && sel->excl_arcs[i].to[to])
			return true;
	return false;
}

/* Resolves each arc of the object being read as gprof does, appending
 * them to CALLS[0..*N): the caller is the function containing from_pc,
 * the callee the one containing self_pc; records with an end in no
 * function, or in the mcount family, are dropped (and counted). */
static int resolve_calls(struct build *b, const struct gmon_profile *prof,
			 const struct cg_selection *sel, struct raw_call *calls,
			 size_t *nout)
{
	struct cg_stats *stats = &b->cg->stats;
	size_t n = *nout;
	/* glibc records a call by the hash bucket of its return address:
	 * HASHFRACTION (2) times the size of a long. */
	uint64_t bucket = 2 * (uint64_t)b->obj->obj->target.addr_size;
	/* ld.so records a callee by its entry point, mcount by a return
	 * address in the prologue. */
	bool ld_profile = prof->first_format == GMON_FORMAT_LD_PROFILE;
	uint64_t max_offset = ld_profile ? 0 : MCOUNT_MAX_OFFSET;

	for (size_t i = 0; i < prof->narcs; i++) {
		const struct gmon_arc *arc = &prof->arcs[i];
		size_t caller, callee;
		uint64_t site;

		if (i + PREFETCH_AHEAD < prof->narcs) {
			uint64_t ahead = prof->arcs[i + PREFETCH_AHEAD].self_pc;

			symtab_prefetch(b->st, ahead);
			if (b->obj->code)
				code_prefetch(b->obj->code, ahead);
		}
		if (arc->count == 0)
			continue;
		stats->arcs_read++;
		callee = symtab_lookup(b->st, arc->self_pc);
		if (ld_profile && arc->from_pc == GMON_FROM_OUTSIDE) {
			if (callee == SYMTAB_NONE || b->st->funcs[callee].excluded) {
				stats->arcs_unresolved += callee == SYMTAB_NONE;
				stats->arcs_excluded += callee != SYMTAB_NONE;
				continue;
			}
			if (arc->self_pc != b->st->funcs[callee].addr)
				stats->arcs_far_from_entry++;
			calls[n++] = (struct raw_call){
				callgraph_outside(b->cg, (size_t)(b->obj - b->cg->objs)),
				func_number(b, b->st->funcs[callee].owner), 0,
				arc->count };
			continue;
		}
		site = arc->from_pc;
		if (callee != SYMTAB_NONE && b->obj->code &&
		    check_arc(b, arc, callee, ld_profile ? 1 : bucket, ld_profile,
			      &site) < 0)
			return -1;
		caller = symtab_lookup(b->st, site);
		if (caller == SYMTAB_NONE || callee == SYMTAB_NONE) {
			stats->arcs_unresolved++;
			continue;
		}
		if (arc->self_pc - b->st->funcs[callee].addr > max_offset)
			stats->arcs_far_from_entry++;
		caller = b->st->funcs[caller].owner;
		callee = b->st->funcs[callee].owner;
		if (b->st->funcs[caller].excluded || b->st->funcs[callee].excluded) {
			stats->arcs_excluded++;
			continue;
		}
		if (deselected(sel, func_number(b, caller), func_number(b, callee))) {
			stats->arcs_deselected++;
			continue;
		}
		calls[n++] = (struct raw_call){ func_number(b, caller),
						func_number(b, callee), site,
						arc->count };
	}
	*nout = n;
	return 0;
}

/* The arcs of all objects, summed per (caller, callee) and call site. */
static int collect_arcs(struct build *b, const struct cg_selection *sel)
{
	struct callgraph *cg = b->cg;
	struct raw_call *calls;
	size_t n = 0, nrecords = 0;

	for (size_t o = 0; o < cg->nobjs; o++)
		if (cg->objs[o].prof)
			nrecords += cg->objs[o].prof->narcs;
	calls = malloc((nrecords ? nrecords : 1) * sizeof *calls);
	if (!calls)
		return g2c_error_set(b->err, "out of memory for call arcs");
	for (size_t o = 0; o < cg->nobjs; o++) {
		b->obj = &cg->objs[o];
		b->st = b->obj->st;
		if (b->obj->prof &&
		    resolve_calls(b, b->obj->prof, sel, calls, &n) < 0) {
			free(calls);
			return -1;
		}
	}
	sort_by_key(calls, n, sizeof *calls, raw_call_key, compare_raw_calls);
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

/* The call graph's strongly connected components (gprof's cycles, and
 * single functions), in the order Tarjan's algorithm finishes them: every
 * component after all the components it calls. */
struct components {
	size_t *members;	/* grouped by component, in finishing order */
	size_t *first;		/* component c: members[first[c] .. first[c+1]) */
	size_t count;
	size_t *of;		/* per function: its component */
	size_t *in_arcs, *in_first;	/* arc indexes grouped by callee */
	/* The arcs entering each component from outside it, gathered once
	 * so that the passes over them read one array in order instead of
	 * the arcs and functions at random: component c's are
	 * entering[entering_first[c] .. entering_first[c+1]). */
	struct entering *entering;
	size_t *entering_first;
	uint64_t *ncalls;	/* per component: the entering arcs' counts */
};

/* An arc entering a component, with what the passes need of it. */
struct entering {
	size_t arc, caller, callee;
	uint64_t count;
	/* the share of the component's time it carries: its caller's share
	 * times its part of the calls (set by inherit_selection) */
	double weight;
};

/* Tarjan's algorithm without recursion, so depth is bounded by memory.
 * It reads the graph from arrays of its own, 32-bit and in arc order
 * (the callees of function v are callee[first[v] .. first[v + 1])), so
 * that the random look-ups it makes per arc mostly hit the caches. */
#define TARJAN_UNSET UINT32_MAX

struct tarjan {
	uint32_t *first, *callee;
	uint32_t *index, *low, *stack, *frame_func, *frame_arc;
	size_t nstack, nframes;
	bool *on_stack;
	uint32_t counter;
	size_t nmembers;
};

static void visit(struct tarjan *t, uint32_t v)
{
	t->index[v] = t->low[v] = t->counter++;
	t->stack[t->nstack++] = v;
	t->on_stack[v] = true;
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

		if (*next < t->first[v + 1]) {
			uint32_t w = t->callee[(*next)++];

			if (t->index[w] == TARJAN_UNSET)
				visit(t, w);
			else if (t->on_stack[w] && t->index[w] < t->low[v])
				t->low[v] = t->index[w];
			continue;
		}
		t->nframes--;
		if (t->low[v] == t->index[v]) {
			uint32_t w;

			c->first[c->count] = t->nmembers;
			do {
				w = t->stack[--t->nstack];
				t->on_stack[w] = false;
				c->of[w] = c->count;
				c->members[t->nmembers++] = w;
			} while (w != v);
			c->count++;
		}
		if (t->nframes > 0) {
			uint32_t u = t->frame_func[t->nframes - 1];

			if (t->low[v] < t->low[u])
				t->low[u] = t->low[v];
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
}

/* Whether OTHER, the far end of an arc of function F in component C of
 * K members, lies outside C (a lone function's component is itself). */
static bool outside_component(const struct components *comps, size_t c,
			      size_t k, size_t f, size_t other)
{
	return k > 1 ? comps->of[other] != c : other != f;
}

/* Gathers the arcs entering each component from outside, in component
 * order, and sums their counts.  Returns -1 when out of memory. */
static int gather_entering(const struct callgraph *cg, struct components *c)
{
	size_t n = 0;

	c->entering = malloc((cg->narcs ? cg->narcs : 1) * sizeof *c->entering);
	c->entering_first = malloc((c->count + 1) * sizeof *c->entering_first);
	c->ncalls = calloc(c->count ? c->count : 1, sizeof *c->ncalls);
	if (!c->entering || !c->entering_first || !c->ncalls)
		return -1;
	for (size_t k = 0; k < c->count; k++) {
		size_t size = c->first[k + 1] - c->first[k];

		c->entering_first[k] = n;
		for (size_t m = c->first[k]; m < c->first[k + 1]; m++) {
			size_t callee = c->members[m];

			for (size_t j = c->in_first[callee]; j < c->in_first[callee + 1]; j++) {
				const struct cg_arc *arc = &cg->arcs[c->in_arcs[j]];

				if (!outside_component(c, k, size, callee, arc->caller))
					continue;
				c->entering[n++] = (struct entering){
					c->in_arcs[j], arc->caller, callee,
					arc->count, 0 };
				c->ncalls[k] = add_saturating(c->ncalls[k], arc->count);
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
	free(t->index);
	free(t->low);
	free(t->stack);
	free(t->frame_func);
	free(t->frame_arc);
	free(t->on_stack);
}

/* Finds the components (callgraph_build has checked that function and
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
	t.index = malloc(n * sizeof *t.index);
	t.low = malloc(n * sizeof *t.low);
	t.stack = malloc(n * sizeof *t.stack);
	t.frame_func = malloc(n * sizeof *t.frame_func);
	t.frame_arc = malloc(n * sizeof *t.frame_arc);
	t.on_stack = calloc(n, sizeof *t.on_stack);
	if (!c->members || !c->first || !c->of || !c->in_first || !c->in_arcs ||
	    !t.first || !t.callee || !t.index || !t.low || !t.stack ||
	    !t.frame_func || !t.frame_arc || !t.on_stack)
		goto out;
	/* the arcs are sorted by caller */
	for (size_t i = 0; i < cg->narcs; i++) {
		t.first[cg->arcs[i].caller + 1]++;
		t.callee[i] = (uint32_t)cg->arcs[i].callee;
	}
	for (size_t f = 0; f < n; f++) {
		t.first[f + 1] += t.first[f];
		t.index[f] = TARJAN_UNSET;
		c->of[f] = UNSET;
	}
	for (size_t f = 0; f < n; f++)
		if (cg->funcs[f].used && t.index[f] == TARJAN_UNSET)
			find_components_from(&t, c, (uint32_t)f);
	c->first[c->count] = t.nmembers;
	tarjan_release(&t);
	memset(&t, 0, sizeof t);
	/* Incoming arcs by callee, stable so that callers stay in order. */
	for (size_t i = 0; i < cg->narcs; i++)
		c->in_first[cg->arcs[i].callee + 1]++;
	for (size_t f = 0; f < n; f++)
		c->in_first[f + 1] += c->in_first[f];
	for (size_t i = cg->narcs; i-- > 0;)
		c->in_arcs[--c->in_first[cg->arcs[i].callee + 1]] = i;
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

/* gprof's propagate_flags: top-down, each function (or cycle) inherits
 * from its callers the share of its time that is propagated, and whether
 * it is shown; then the selections force either way.  Selecting a member
 * of a cycle would split the cycle between shown and hidden, or timed and
 * untimed, functions, which neither viewer can show as gprof does: it is
 * refused. */
static int inherit_selection(struct callgraph *cg, const struct components *comps,
			     const struct cg_selection *sel, struct g2c_error *err)
{
	for (size_t c = comps->count; c-- > 0;) {
		double fract = 0;
		bool shown = false;

		for_each_entering_arc(comps, c, e) {
			e->weight = cg->funcs[e->caller].fract *
				    ((double)e->count / (double)comps->ncalls[c]);
			fract += e->weight;
			shown = shown || cg->funcs[e->caller].shown;
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
			if (comps->first[c + 1] - comps->first[c] > 1 &&
			    (in_set(sel->excl_time, f) || in_set(sel->incl_time, f) ||
			     in_set(sel->excl_graph, f) || in_set(sel->incl_graph, f)))
				return g2c_error_set(err, "%s is part of a cycle; selecting a function inside a cycle is not supported",
						     callgraph_symbol(cg, f)->name);
		}
	}
	return 0;
}

/* The calls between members of cycle C carry what gprof's proportional
 * model gives them: the callee's own time (its self cost plus its calls
 * leaving the cycle, gprof's "self + children" of a member) in proportion
 * to their share of all its calls.  gprof leaves these arcs blank; with
 * these costs, a viewer that does not group the cycle shows every member
 * called with its own time, never below its self cost, while grouping
 * viewers ignore them.  Direct recursion stays at 0: no viewer adds it to
 * gprof's figures then. */
static void cost_calls_within_cycle(struct callgraph *cg,
				    const struct components *comps, size_t c)
{
	for (size_t m = comps->first[c]; m < comps->first[c + 1]; m++) {
		size_t callee = comps->members[m];
		const struct cg_func *f = &cg->funcs[callee];
		struct splitter split = { .total = f->incl_ns,
					  .sum = (double)f->ncalls };

		for (size_t j = comps->in_first[callee]; j < comps->in_first[callee + 1]; j++) {
			struct cg_arc *arc = &cg->arcs[comps->in_arcs[j]];

			if (arc->caller == callee)
				continue;
			/* every caller advances the running sum, so that
			 * the shares of all calls add up to the whole */
			uint64_t share = split_next(&split, (double)arc->count,
						    false);

			if (comps->of[arc->caller] == c)
				arc->ns = share;
		}
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
static void propagate_time(struct callgraph *cg, const struct components *comps,
			   uint64_t *uncalled)
{
	for (size_t c = 0; c < comps->count; c++) {
		const size_t *mem = &comps->members[comps->first[c]];
		size_t k = comps->first[c + 1] - comps->first[c];
		unsigned cycle = k > 1 ? ++cg->ncycles : 0;
		double fract = cg->funcs[mem[0]].fract, carried = 0;
		uint64_t incl = 0;
		struct splitter split;
		const struct entering *last =
			&comps->entering[comps->entering_first[c + 1]] - 1;

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
		}
		if (k == 1)
			cg->funcs[mem[0]].incl_ns = incl;
		else
			cost_calls_within_cycle(cg, comps, c);
		for_each_entering_arc(comps, c, e)
			carried += e->weight;
		/* Shares are relative to this component's own share. */
		split = (struct splitter){ .total = incl,
					   .sum = carried < fract ? fract : carried };
		for_each_entering_arc(comps, c, e)
			cg->arcs[e->arc].ns = split_next(&split, fract == 0 ? 0 : e->weight,
							 e == last && carried >= fract);
		uncalled[c] = incl - split.given;
	}
}

static uint64_t root_key(const void *x)
{
	return ((const struct cg_root *)x)->func;
}

static int compare_roots(const void *x, const void *y)
{
	const struct cg_root *a = x, *b = y;

	return a->func < b->func ? -1 : a->func > b->func;
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
		struct cg_root *roots;

		for (size_t m = comps->first[c]; m < comps->first[c + 1]; m++)
			if (cg->funcs[comps->members[m]].shown &&
			    comps->members[m] < head)
				head = comps->members[m];
		if (head == SIZE_MAX)
			continue;
		for_each_entering_arc(comps, c, e) {
			if (cg->funcs[e->caller].shown && cg->funcs[e->callee].shown)
				called = true;
			else
				ns = add_saturating(ns, cg->arcs[e->arc].ns);
		}
		if (called && ns == 0)
			continue;
		roots = array_grow(cg->roots, &cap, cg->nroots + 1, sizeof *roots);
		if (!roots)
			return -1;
		cg->roots = roots;
		roots[cg->nroots++] = (struct cg_root){ head, ns };
	}
	if (cg->nroots)
		sort_by_key(cg->roots, cg->nroots, sizeof *cg->roots, root_key,
			    compare_roots);
	return 0;
}

/* KCachegrind lists a call only when its cost is above zero, and most
 * calls get no time from gprof: calls into code that was never sampled,
 * and direct recursion.  Such a call site carries this much, far below
 * one sample, so that every call gprof counts is shown. */
#define MIN_CALL_NS 1

/* Splits each arc's cost over its call sites in proportion to their
 * counts; the arc's cost is then the sum of its sites'. */
static void split_arcs_over_sites(struct callgraph *cg)
{
	for (size_t i = 0; i < cg->narcs; i++) {
		struct cg_arc *arc = &cg->arcs[i];
		struct splitter split = { .total = arc->ns, .sum = (double)arc->count };
		uint64_t sum = 0;

		for (size_t s = arc->first_site; s < arc->first_site + arc->nsites; s++) {
			uint64_t ns = split_next(&split, (double)cg->sites[s].count,
						 s + 1 == arc->first_site + arc->nsites);

			cg->sites[s].ns = ns > MIN_CALL_NS ? ns : MIN_CALL_NS;
			sum = add_saturating(sum, cg->sites[s].ns);
		}
		arc->ns = sum;
	}
}

static const struct cg_selection no_selection;

size_t callgraph_count_funcs(const struct cg_object *objs, size_t n)
{
	size_t count = 1 + n;

	for (size_t o = 0; o < n; o++)
		count += objs[o].st->nfuncs;
	return count;
}

size_t callgraph_object_of(const struct callgraph *cg, size_t f)
{
	size_t o = cg->nobjs;

	if (f > callgraph_no_symbol(cg))
		return f - callgraph_outside(cg, 0);
	if (f == callgraph_no_symbol(cg))
		return 0;
	while (o > 1 && f < cg->objs[o - 1].first_func)
		o--;
	return o - 1;
}

const struct symtab_func *callgraph_symbol(const struct callgraph *cg, size_t f)
{
	const struct cg_object *obj = &cg->objs[callgraph_object_of(cg, f)];

	if (callgraph_is_pseudo(cg, f))
		return NULL;
	return &obj->st->funcs[f - obj->first_func];
}

/* gprof -z: every function is in the graph, sampled and called or not;
 * not the mcount family, and not cold parts, which are their parents'. */
static void use_every_function(struct callgraph *cg)
{
	for (size_t o = 0; o < cg->nobjs; o++) {
		const struct symtab *st = cg->objs[o].st;

		for (size_t f = 0; f < st->nfuncs; f++)
			if (st->funcs[f].owner == f && !st->funcs[f].excluded)
				cg->funcs[cg->objs[o].first_func + f].used = true;
	}
}

/* Credits every object's samples and basic-block counts. */
static int attribute_profiles(struct build *b)
{
	struct callgraph *cg = b->cg;

	for (size_t o = 0; o < cg->nobjs; o++) {
		b->obj = &cg->objs[o];
		b->st = b->obj->st;
		if (!b->obj->prof)
			continue;
		if (!cg->hz && b->obj->prof->nhists)
			cg->hz = b->obj->hz;
		if (attribute_samples(b, b->obj->prof) < 0 ||
		    add_executions(b, b->obj->prof) < 0)
			return -1;
	}
	return 0;
}

int callgraph_build(struct callgraph *cg, struct cg_object *objs, size_t nobjs,
		    const struct cg_selection *sel, struct g2c_error *err)
{
	struct build b = { .cg = cg, .err = err };
	struct components comps = { 0 };
	uint64_t *uncalled = NULL;

	memset(cg, 0, sizeof *cg);
	cg->objs = objs;
	cg->nobjs = nobjs;
	cg->nfuncs = callgraph_count_funcs(objs, nobjs);
	for (size_t o = 0, first = 0; o < nobjs; first += objs[o++].st->nfuncs)
		objs[o].first_func = first;
	cg->first_pseudo = cg->nfuncs - 1 - nobjs;
	cg->funcs = calloc(cg->nfuncs, sizeof *cg->funcs);
	if (!cg->funcs)
		return g2c_error_set(err, "out of memory for the call graph");
	if (attribute_profiles(&b) < 0 ||
	    collect_arcs(&b, sel ? sel : &no_selection) < 0)
		goto fail;
	for (size_t i = 0; i < cg->ncosts; i++)
		cg->funcs[cg->costs[i].func].used = true;
	if (sel && sel->show_unused)
		use_every_function(cg);
	if (cg->nfuncs >= UINT32_MAX || cg->narcs >= UINT32_MAX) {
		g2c_error_set(err, "too many functions or calls for one call graph");
		goto fail;
	}
	uncalled = calloc(cg->nfuncs, sizeof *uncalled);
	if (!uncalled || find_components(cg, &comps) < 0) {
		g2c_error_set(err, "out of memory for the call graph");
		goto fail;
	}
	if (inherit_selection(cg, &comps, sel ? sel : &no_selection, err) < 0)
		goto fail;
	finish_costs(cg);
	propagate_time(cg, &comps, uncalled);
	if (find_roots(cg, &comps, uncalled) < 0) {
		g2c_error_set(err, "out of memory for the call graph");
		goto fail;
	}
	split_arcs_over_sites(cg);
	components_release(&comps);
	free(uncalled);
	return 0;
fail:
	components_release(&comps);
	free(uncalled);
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
	if (s->arcs_checked > 0 && s->arcs_not_after_call * 2 > s->arcs_checked)
		return "most call arcs do not match its call instructions (was it rebuilt after profiling?)";
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
