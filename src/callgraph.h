/* callgraph.h -- the call graph: per function its self cost at each
 * position, its calls, and the inclusive cost of every call, all in
 * integer nanoseconds that add up exactly (see src/convert.h) once
 * propagated; the graph's phase says how far it is.
 *
 * The data alone: the stage that fills it runs in two parts, each its own
 * module (src/convert.c runs them in turn): src/attribution.c credits the
 * objects' samples and arcs to their functions (it alone reads symbols,
 * code and profiles), then src/propagate.c finds the cycles and
 * propagates time over the bare graph as gprof does.  This file owns the
 * graph's arrays and the numbering of functions: they are numbered across the objects,
 * object 0's functions first, then object 1's, and so on, then the pseudo
 * functions: object 0's "<no symbol>" (its samples outside every
 * function), per object one for the callers outside it that an LD_PROFILE
 * profile records, then the other objects' "<no symbol>" (each valued at
 * its own profile's rate and written under its own object).
 */
#ifndef GMON2CG_CALLGRAPH_H
#define GMON2CG_CALLGRAPH_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct object;
struct symtab;
struct symtab_func;
struct g2c_error;

/* One object of the program: its functions are the graph's. */
struct cg_object {
	struct object *obj;
	const struct symtab *st;
	size_t first_func;	/* its first function's number (set by
				   callgraph_init) */
};


/* Self cost at one position of a function (cg_func.first_cost and
 * ncosts say whose).  A histogram with every bin counted has one per
 * instruction: ticks and ns share their place, and the graph's phase says
 * which it holds. */
struct cg_cost {
	uint64_t pc;
	/* Read and written only through cg_cost_ticks(), cg_cost_ns() and
	 * their setters below, which check the graph's phase. */
	union {
		double ticks;	/* samples credited, fractional */
		uint64_t ns;	/* the same, rounded (cumulatively) */
	} by_phase;
	uint64_t executions;	/* basic-block count starting here */
};

/* The calls of one arc that come from one call site. */
struct cg_site {
	uint64_t pc;		/* in the caller */
	uint64_t count;
	uint64_t ns;		/* inclusive cost of these calls */
};

/* All calls from one function to another. */
struct cg_arc {
	size_t caller, callee;
	uint64_t count;
	/* Inclusive cost carried: gprof's time + child time; between members
	 * of a cycle the callee's own share; at least 1 ns per site. */
	uint64_t ns;
	size_t first_site, nsites;	/* in callgraph.sites */
};

struct cg_func {
	bool used;		/* has samples or arcs */
	bool shown;		/* used and selected for the graph: written */
	double fract;		/* share of its time propagated (gprof's fract) */
	double ns_per_tick;	/* one sample of its object's profile; 0:
				   that profile has no histogram */
	double self_ticks;
	uint64_t self_ns;	/* its positions' costs */
	uint64_t marker_ns;	/* own cost written at its entry besides
				   self_ns (in incl_ns and the total), so
				   that its calls in carry what it costs, at
				   least 1 ns each: a function never sampled */
	/* Inclusive cost as gprof reports "self + children"; for a member of
	 * a cycle: its self cost plus its calls that leave the cycle. */
	uint64_t incl_ns;
	/* gprof's child time, in ns, not scaled by fract: what its flat
	 * profile adds to the self time for "total" per call */
	double flat_child_ns;
	uint64_t ncalls;	/* calls from other functions */
	/* calls recorded from code in no function, such as a library's
	 * qsort calling back: not in ncalls (gprof drops them too) */
	uint64_t outside_calls;
	uint64_t self_calls;	/* direct recursion */
	unsigned cycle;		/* 0, or the number of its cycle */
	size_t first_cost, ncosts;	/* in callgraph.costs, by pc */
	size_t first_arc, narcs;	/* outgoing, in callgraph.arcs */
};

/* A function (or cycle) that nothing in the profile calls; the writer gives
 * it a caller so that the viewers see its inclusive cost. */
struct cg_root {
	size_t func;		/* for a cycle: its first member */
	uint64_t ns;		/* inclusive cost of the function or cycle */
	uint64_t count;		/* the calls written: the function's
				   outside_calls, or 1 where none were
				   recorded (a call counts at least 1) */
};


/* How far the graph is filled, which says the unit of its positions'
 * costs (struct cg_cost). */
enum cg_phase {
	CG_EMPTY,		/* no positions yet (callgraph_init) */
	CG_ATTRIBUTED,		/* costs in ticks, as src/attribution.c
				   credits them */
	CG_PROPAGATED,		/* costs in ns, as src/propagate.c rounds
				   them */
};

struct callgraph {
	enum cg_phase phase;
	struct cg_object *objs;	/* the objects, as given */
	size_t nobjs;
	size_t nfuncs;		/* the objects' functions + the pseudo functions */
	size_t first_pseudo;	/* the number of the first pseudo function */
	struct cg_func *funcs;
	struct cg_cost *costs;
	size_t ncosts;
	struct cg_arc *arcs;	/* sorted by caller, then callee */
	size_t narcs;
	struct cg_site *sites;
	size_t nsites;
	struct cg_root *roots;	/* in function order */
	size_t nroots;
	unsigned ncycles;
	uint32_t hz;		/* samples per second; 0 when no histogram */
	uint64_t total_ns;	/* the sum of all self costs */
	bool has_executions;	/* the profile has basic-block counts */
	uint64_t total_executions;
	uint64_t samples;	/* in all profiles' histograms */
};

/* The self cost at position C of CG, in ticks: only while CG is
 * CG_ATTRIBUTED. */
static inline double cg_cost_ticks(const struct callgraph *cg,
				   const struct cg_cost *c)
{
	assert(cg->phase == CG_ATTRIBUTED);
	(void)cg;		/* (unused under NDEBUG) */
	return c->by_phase.ticks;
}

static inline void cg_cost_set_ticks(const struct callgraph *cg,
				     struct cg_cost *c, double ticks)
{
	assert(cg->phase == CG_ATTRIBUTED);
	(void)cg;
	c->by_phase.ticks = ticks;
}

/* The self cost at position C of CG, in ns: only once CG is
 * CG_PROPAGATED. */
static inline uint64_t cg_cost_ns(const struct callgraph *cg,
				  const struct cg_cost *c)
{
	assert(cg->phase == CG_PROPAGATED);
	(void)cg;
	return c->by_phase.ns;
}

static inline void cg_cost_set_ns(const struct callgraph *cg,
				  struct cg_cost *c, uint64_t ns)
{
	assert(cg->phase == CG_PROPAGATED);
	(void)cg;
	c->by_phase.ns = ns;
}

/* Propagation's one step from ticks to ns: replaces C's ticks by NS,
 * their rounding, position by position while CG is still CG_ATTRIBUTED
 * (src/propagate.c moves it on after the last). */
static inline void cg_cost_round(const struct callgraph *cg,
				 struct cg_cost *c, uint64_t ns)
{
	assert(cg->phase == CG_ATTRIBUTED);
	(void)cg;
	c->by_phase.ns = ns;
}

/* The pseudo function that holds object O's samples outside every
 * function. */
static inline size_t callgraph_no_symbol(const struct callgraph *cg, size_t o)
{
	return o == 0 ? cg->first_pseudo : cg->first_pseudo + cg->nobjs + o;
}

/* The pseudo function that stands for every caller outside object O. */
static inline size_t callgraph_outside(const struct callgraph *cg, size_t o)
{
	return cg->first_pseudo + 1 + o;
}

static inline bool callgraph_is_pseudo(const struct callgraph *cg, size_t f)
{
	return f >= cg->first_pseudo;
}

/* The call sites of every call F makes: cg->sites[*FIRST .. *END).  A
 * function's arcs are consecutive (sorted by caller), and so are their
 * sites (in arc order). */
static inline void callgraph_sites_of(const struct callgraph *cg, size_t f,
				      size_t *first, size_t *end)
{
	const struct cg_func *fn = &cg->funcs[f];
	const struct cg_arc *last;

	if (fn->narcs == 0) {
		*first = *end = 0;
		return;
	}
	last = &cg->arcs[fn->first_arc + fn->narcs - 1];
	*first = cg->arcs[fn->first_arc].first_site;
	*end = last->first_site + last->nsites;
}

/* Whether F is one of the objects' "<no symbol>". */
static inline bool callgraph_is_no_symbol(const struct callgraph *cg, size_t f)
{
	return f == cg->first_pseudo || f > cg->first_pseudo + cg->nobjs;
}

/* The numbering of functions: for N objects of NFUNCS[0..N) functions,
 * sets FIRST[o] to the number of object o's first function and FIRST[N]
 * to the first pseudo function's, and returns the number of all
 * functions, the pseudo functions included.  FIRST may be NFUNCS
 * itself. */
size_t callgraph_number_funcs(const size_t *nfuncs, size_t n, size_t *first);

/* The object function F is in (for a pseudo function: the object it
 * stands for), and its symbol (NULL for a pseudo function). */
size_t callgraph_object_of(const struct callgraph *cg, size_t f);

/* The name every output gives function F: its symbol's, or a pseudo
 * function's ("<no symbol>", "<outside SONAME>", this one written into
 * BUF of SIZE bytes).  The one place the pseudo functions are named. */
const char *callgraph_name(const struct callgraph *cg, size_t f, char *buf,
			   size_t size);
const struct symtab_func *callgraph_symbol(const struct callgraph *cg, size_t f);

/* Starts the graph of OBJS[0..NOBJS): CG empty but for its objects, its
 * functions numbered (setting each object's first_func) and cg->funcs
 * zeroed, for src/attribution.c to fill.  Returns 0, or -1 with ERR set;
 * CG can be released either way. */
int callgraph_init(struct callgraph *cg, struct cg_object *objs, size_t nobjs,
		   struct g2c_error *err);

void callgraph_release(struct callgraph *cg);

#endif
