/* test-propagate.c -- gprof's propagation driven directly on bare graphs
 * built by hand (functions with self ticks, arcs with counts; no objects,
 * symbols or code), against figures worked out from gprof's rules: the
 * worked example of doc/internals.md (a cycle, direct recursion), direct
 * recursion alone, roots without samples, a cycle that nothing calls,
 * a function whose time -E leaves out, the 1 ns markers of calls into
 * code never sampled, and positions given in any order; and properties
 * that every viewer relies on, over thousands of random graphs with
 * cycles. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "callgraph.h"
#include "check.h"
#include "diag.h"
#include "propagate.h"
#include "worked.h"

#define MIN_CALL_NS 1		/* the least a call carries (propagate.c) */

static int compare_arc_specs(const void *x, const void *y)
{
	const struct arc_spec *a = x, *b = y;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->to < b->to ? -1 : a->to > b->to;
}

/* A graph of N functions with TICKS[f] self samples each (at 100 Hz) and
 * the NARCS arcs of ARCS (any order), each made at one call site. */
static void bare_graph(struct callgraph *cg, size_t n, const unsigned *ticks,
		       const struct arc_spec *arcs, size_t narcs)
{
	struct arc_spec *sorted = malloc((narcs ? narcs : 1) * sizeof *sorted);

	memset(cg, 0, sizeof *cg);
	cg->phase = CG_ATTRIBUTED;
	cg->nfuncs = cg->first_pseudo = n;
	cg->funcs = calloc(n, sizeof *cg->funcs);
	cg->costs = calloc(n, sizeof *cg->costs);
	cg->arcs = calloc(narcs ? narcs : 1, sizeof *cg->arcs);
	cg->sites = calloc(narcs ? narcs : 1, sizeof *cg->sites);
	for (size_t f = 0; f < n; f++) {
		cg->funcs[f].ns_per_tick = 1e9 / 100;
		cg->funcs[f].first_cost = cg->ncosts;
		if (ticks[f]) {
			cg->funcs[f].ncosts = 1;
			cg->costs[cg->ncosts].pc = 0x1000 * (f + 1);
			cg_cost_set_ticks(cg, &cg->costs[cg->ncosts++], ticks[f]);
		}
	}
	memcpy(sorted, arcs, narcs * sizeof *arcs);
	qsort(sorted, narcs, sizeof *sorted, compare_arc_specs);
	for (size_t i = 0; i < narcs; i++) {
		cg->arcs[i] = (struct cg_arc){ .caller = sorted[i].from,
					       .callee = sorted[i].to,
					       .count = sorted[i].count,
					       .first_site = i, .nsites = 1 };
		cg->sites[i] = (struct cg_site){ 0x1000 * (sorted[i].from + 1) + 8,
						 sorted[i].count, 0 };
	}
	cg->narcs = cg->nsites = narcs;
	free(sorted);
}

static int propagate(struct callgraph *cg, const struct cg_selection *sel)
{
	static const struct cg_selection none;
	struct g2c_error err;

	return propagate_graph(cg, sel ? sel : &none, PROPAGATE_FLAT_PROFILE, &err);
}

static void test_worked_example(void)
{
	struct callgraph cg;

	bare_graph(&cg, NWORKED, worked_ticks, worked_arcs, NWORKED_ARCS);
	CHECK(propagate(&cg, NULL) == 0);
	check_worked_figures(&cg);
	/* each arc's one site carries the arc */
	CHECK_U64(cg.sites[cg.arcs[0].first_site].ns, cg.arcs[0].ns);
	callgraph_release(&cg);
}

/* Direct recursion only: T main 0, R 6, L 4; main->R 2, R->R 5, R->L 3,
 * main->L 1.  L's 4 go 3 to R, 1 to main; R is 6 + 3, all to main. */
static void test_direct_recursion(void)
{
	enum { M, R, L, N };
	static const unsigned ticks[N] = { 0, 6, 4 };
	static const struct arc_spec arcs[] = {
		{ M, R, 2 }, { R, R, 5 }, { R, L, 3 }, { M, L, 1 },
	};
	struct callgraph cg;

	bare_graph(&cg, N, ticks, arcs, sizeof arcs / sizeof *arcs);
	CHECK(propagate(&cg, NULL) == 0);
	CHECK_U64(cg.ncycles, 0);
	CHECK_U64(cg.funcs[R].cycle, 0);
	CHECK_U64(cg.funcs[R].ncalls, 2);
	CHECK_U64(cg.funcs[R].self_calls, 5);
	CHECK_U64(cg.funcs[L].ncalls, 4);
	CHECK_U64(cg.funcs[R].self_ns, 6 * TICK);
	CHECK_U64(cg.funcs[L].incl_ns, 4 * TICK);
	CHECK_U64(cg.funcs[R].incl_ns, 9 * TICK);
	CHECK_U64(cg.funcs[M].incl_ns, 10 * TICK);
	CHECK_U64(arc_ns(&cg, R, L), 3 * TICK);
	CHECK_U64(arc_ns(&cg, M, L), 1 * TICK);
	CHECK_U64(arc_ns(&cg, M, R), 9 * TICK);
	CHECK_U64(arc_ns(&cg, R, R), 1);
	CHECK_U64(cg.nroots, 1);
	CHECK_U64(cg.roots[0].func, M);
	CHECK_U64(cg.roots[0].ns, 10 * TICK);
	callgraph_release(&cg);
}

/* Positions as attribution leaves them: each function's together, in
 * any order within (several histograms, basic-block counts).  They end
 * sorted by address, equal ones merged, and moved down over the room
 * merging freed; each cost rounds to its ticks.  F: 0x30 1 tick, 0x10
 * 2, 0x30 4, 0x20 0 with 7 executions, 0x10 1; G: 0x40 3. */
static void test_positions(void)
{
	enum { F, G, N };
	static const unsigned no_ticks[N] = { 0 };
	static const struct arc_spec no_arcs[1];
	static const struct {
		uint64_t pc;
		double ticks;
		uint64_t executions;
	} given[] = {
		{ 0x30, 1, 0 }, { 0x10, 2, 0 }, { 0x30, 4, 0 },
		{ 0x20, 0, 7 }, { 0x10, 1, 0 }, { 0x40, 3, 0 },
	};
	enum { NGIVEN = sizeof given / sizeof *given };
	struct callgraph cg;
	const struct cg_cost *c;

	bare_graph(&cg, N, no_ticks, no_arcs, 0);
	free(cg.costs);
	cg.costs = malloc(NGIVEN * sizeof *cg.costs);
	for (size_t i = 0; i < NGIVEN; i++) {
		cg.costs[i] = (struct cg_cost){ .pc = given[i].pc,
						.executions = given[i].executions };
		cg_cost_set_ticks(&cg, &cg.costs[i], given[i].ticks);
	}
	cg.ncosts = NGIVEN;
	cg.funcs[F] = (struct cg_func){ .ns_per_tick = 1e9 / 100,
					.first_cost = 0, .ncosts = 5 };
	cg.funcs[G] = (struct cg_func){ .ns_per_tick = 1e9 / 100,
					.first_cost = 5, .ncosts = 1 };
	CHECK(propagate(&cg, NULL) == 0);
	CHECK_U64(cg.ncosts, 4);
	CHECK_U64(cg.funcs[F].first_cost, 0);
	CHECK_U64(cg.funcs[F].ncosts, 3);
	c = &cg.costs[cg.funcs[F].first_cost];
	CHECK_U64(c[0].pc, 0x10);
	CHECK_U64(cg_cost_ns(&cg, &c[0]), 3 * TICK);
	CHECK_U64(c[1].pc, 0x20);
	CHECK_U64(cg_cost_ns(&cg, &c[1]), 0);
	CHECK_U64(c[1].executions, 7);
	CHECK_U64(c[2].pc, 0x30);
	CHECK_U64(cg_cost_ns(&cg, &c[2]), 5 * TICK);
	CHECK_U64(cg.funcs[F].self_ns, 8 * TICK);
	CHECK_U64(cg.funcs[G].first_cost, 3);
	CHECK_U64(cg.funcs[G].ncosts, 1);
	CHECK_U64(cg.costs[3].pc, 0x40);
	CHECK_U64(cg_cost_ns(&cg, &cg.costs[3]), 3 * TICK);
	CHECK_U64(cg.total_ns, 11 * TICK);
	CHECK_U64(cg.total_executions, 7);
	callgraph_release(&cg);
}

/* Roots: X (no samples) calls Y once, Z (no samples) twice: Y's 6 go 2
 * to X, 4 to Z.  W is sampled and never called; V neither sampled nor
 * called, so not in the graph.  Roots in function order. */
static void test_roots(void)
{
	enum { V, W, X, Y, Z, N };
	static const unsigned ticks[N] = { 0, 3, 0, 6, 0 };
	static const struct arc_spec arcs[] = { { Z, Y, 2 }, { X, Y, 1 } };
	struct callgraph cg;

	bare_graph(&cg, N, ticks, arcs, sizeof arcs / sizeof *arcs);
	CHECK(propagate(&cg, NULL) == 0);
	CHECK(!cg.funcs[V].used);
	CHECK_U64(cg.total_ns, 9 * TICK);
	CHECK_U64(cg.funcs[X].self_ns, 0);
	CHECK_U64(cg.funcs[X].incl_ns, 2 * TICK);
	CHECK_U64(cg.funcs[Z].incl_ns, 4 * TICK);
	CHECK_U64(cg.funcs[W].incl_ns, 3 * TICK);
	CHECK_U64(arc_ns(&cg, X, Y), 2 * TICK);
	CHECK_U64(arc_ns(&cg, Z, Y), 4 * TICK);
	CHECK_U64(cg.nroots, 3);
	CHECK_U64(cg.roots[0].func, W);
	CHECK_U64(cg.roots[0].ns, 3 * TICK);
	CHECK_U64(cg.roots[1].func, X);
	CHECK_U64(cg.roots[1].ns, 2 * TICK);
	CHECK_U64(cg.roots[2].func, Z);
	CHECK_U64(cg.roots[2].ns, 4 * TICK);
	callgraph_release(&cg);
}

/* A cycle nothing calls: P (3) <-> Q (1).  Cycle 1 is 3 + 1, carried by
 * the pseudo caller to its first member; each member's own time rides on
 * the call from the other. */
static void test_uncalled_cycle(void)
{
	enum { P, Q, N };
	static const unsigned ticks[N] = { 3, 1 };
	static const struct arc_spec arcs[] = { { P, Q, 1 }, { Q, P, 1 } };
	struct callgraph cg;

	bare_graph(&cg, N, ticks, arcs, sizeof arcs / sizeof *arcs);
	CHECK(propagate(&cg, NULL) == 0);
	CHECK_U64(cg.ncycles, 1);
	CHECK_U64(cg.funcs[P].cycle, 1);
	CHECK_U64(cg.funcs[Q].cycle, 1);
	CHECK_U64(cg.funcs[P].incl_ns, 3 * TICK);
	CHECK_U64(cg.funcs[Q].incl_ns, 1 * TICK);
	CHECK_U64(arc_ns(&cg, P, Q), 1 * TICK);
	CHECK_U64(arc_ns(&cg, Q, P), 3 * TICK);
	CHECK_U64(cg.nroots, 1);
	CHECK_U64(cg.roots[0].func, P);
	CHECK_U64(cg.roots[0].ns, 4 * TICK);
	callgraph_release(&cg);
}

/* The worked example with -E D: fract(D) = 0, so D's 5 and its calls
 * count for nothing; fract(C) = 6/10 + 2/10 + 0 = 0.8, so C keeps 40 of
 * its 50 (gprof's prop.self), 30 to A and 10 to B. */
static void test_excluded_time(void)
{
	bool excl[NWORKED] = { [D] = true };
	struct cg_selection sel = { .excl_time = excl };
	struct callgraph cg;

	bare_graph(&cg, NWORKED, worked_ticks, worked_arcs, NWORKED_ARCS);
	CHECK(propagate(&cg, &sel) == 0);
	CHECK_NEAR(cg.funcs[D].fract, 0, 0);
	CHECK_NEAR(cg.funcs[C].fract, 0.8, 1e-12);
	CHECK_U64(cg.funcs[D].self_ns, 0);
	CHECK_U64(cg.funcs[C].self_ns, 40 * TICK);
	CHECK_U64(cg.total_ns, 70 * TICK);
	/* D's call is still shown: its 1 ns marker comes out of C's 40 */
	CHECK_U64(arc_ns(&cg, D, C), 1);
	CHECK_U64(arc_ns(&cg, A, C) + arc_ns(&cg, B, C) + 1, 40 * TICK);
	CHECK(arc_ns(&cg, A, C) >= 30 * TICK - 1 && arc_ns(&cg, B, C) >= 10 * TICK - 1);
	CHECK_U64(arc_ns(&cg, MAIN, A) + arc_ns(&cg, MAIN, D), cg.funcs[MAIN].incl_ns);
	CHECK_U64(cg.funcs[MAIN].incl_ns, 70 * TICK);
	callgraph_release(&cg);
}

/* Calls into code never sampled: R (a root, no samples) calls S twice
 * from one site and T once; S (no samples) calls T.  Every call carries
 * at least 1 ns, and what the calls into a function carry is its cost:
 * T, called from two sites, gets a marker of 2 ns; S's cost is its
 * call to T; R's call from the pseudo caller carries R's calls. */
static void test_markers(void)
{
	enum { R, S, T, N };
	static const unsigned ticks[N] = { 0, 0, 0 };
	static const struct arc_spec arcs[] = { { R, S, 2 }, { R, T, 1 }, { S, T, 1 } };
	struct callgraph cg;

	bare_graph(&cg, N, ticks, arcs, sizeof arcs / sizeof *arcs);
	CHECK(propagate(&cg, NULL) == 0);
	CHECK_U64(cg.funcs[T].marker_ns, 2);
	CHECK_U64(arc_ns(&cg, R, T), 1);
	CHECK_U64(arc_ns(&cg, S, T), 1);
	CHECK_U64(cg.funcs[S].marker_ns, 0);
	CHECK_U64(arc_ns(&cg, R, S), 1);
	CHECK_U64(cg.funcs[R].incl_ns, 2);
	CHECK_U64(cg.nroots, 1);
	CHECK_U64(cg.roots[0].ns, 2);
	CHECK_U64(cg.total_ns, 2);
	callgraph_release(&cg);
}

/* R calls T, never sampled, from 28 sites with uneven counts: T's cost
 * is its marker, 1 ns per site, split over the sites by count.  Each
 * split on less leaves more sites short of their 1 ns, so redoing it
 * does not settle; the calls into T must still carry exactly T's cost
 * (once they carried 1 ns more, and R's call from the pseudo caller the
 * difference, 2^64 - 1).  Every site carries at least 1 ns. */
static void test_markers_many_sites(void)
{
	enum { R, T, N, NSITES = 28 };
	static const uint64_t counts[NSITES] = {
		3, 2, 25, 3, 3, 2, 1, 3, 3, 2, 1, 1, 2, 3,
		2, 1, 3, 2, 2, 2, 2, 3, 2, 3, 2, 2, 1, 2,
	};
	static const unsigned ticks[N] = { 0, 0 };
	static const struct arc_spec arcs[] = { { R, T, 1 } };
	struct callgraph cg;
	uint64_t sum = 0;

	bare_graph(&cg, N, ticks, arcs, 1);
	cg.sites = realloc(cg.sites, NSITES * sizeof *cg.sites);
	cg.arcs[0].count = 0;
	for (size_t s = 0; s < NSITES; s++) {
		cg.sites[s] = (struct cg_site){ 0x1008 + s, counts[s], 0 };
		cg.arcs[0].count += counts[s];
	}
	cg.arcs[0].nsites = cg.nsites = NSITES;
	CHECK(propagate(&cg, NULL) == 0);
	CHECK_U64(cg.funcs[T].marker_ns, NSITES);
	CHECK_U64(cg.funcs[T].incl_ns, NSITES);
	CHECK_U64(arc_ns(&cg, R, T), NSITES);
	for (size_t s = 0; s < NSITES; s++) {
		CHECK(cg.sites[s].ns >= MIN_CALL_NS);
		sum += cg.sites[s].ns;
	}
	CHECK_U64(sum, NSITES);
	CHECK_U64(cg.nroots, 1);
	CHECK_U64(cg.roots[0].func, R);
	CHECK_U64(cg.roots[0].ns, NSITES);
	callgraph_release(&cg);
}

/* The worked example with -E B, a member of cycle {A, B}: as gprof, B's
 * 20 and its call to C count for nothing, the cycle keeps A's 10 + 30,
 * all carried by main -> A; C keeps 6/10 + 2/10 of its 50.  The flat
 * profile's child times are gprof's, unscaled: A's 30, main's 40 + 15. */
static void test_excluded_member(void)
{
	bool excl[NWORKED] = { [B] = true };
	struct cg_selection sel = { .excl_time = excl, .excl_graph = excl };
	struct callgraph cg;

	bare_graph(&cg, NWORKED, worked_ticks, worked_arcs, NWORKED_ARCS);
	CHECK(propagate(&cg, &sel) == 0);
	CHECK_NEAR(cg.funcs[B].fract, 0, 0);
	CHECK_NEAR(cg.funcs[A].fract, 1, 0);
	CHECK(!cg.funcs[B].shown && cg.funcs[A].shown);
	CHECK_U64(cg.funcs[B].self_ns, 0);
	CHECK_U64(cg.funcs[C].self_ns, 40 * TICK);
	CHECK_U64(arc_ns(&cg, MAIN, A), 40 * TICK);
	CHECK_U64(cg.funcs[A].incl_ns, 40 * TICK);
	CHECK_NEAR(cg.funcs[A].flat_child_ns, 30.0 * TICK, 1e-3);
	CHECK_NEAR(cg.funcs[B].flat_child_ns, 0, 0);
	CHECK_NEAR(cg.funcs[MAIN].flat_child_ns, 55.0 * TICK, 1e-3);
	/* A is called with its figure: no root for it */
	for (size_t i = 0; i < cg.nroots; i++)
		CHECK(cg.roots[i].func != A);
	callgraph_release(&cg);
}

/* The worked example with -f B: B alone of its cycle is shown, called by
 * nothing shown, so the pseudo caller carries its member figure, 20 +
 * B -> C's 10, not the cycle's 70. */
static void test_shown_member(void)
{
	bool incl[NWORKED] = { [B] = true };
	struct cg_selection sel = { .incl_graph = incl };
	struct callgraph cg;
	bool rooted = false;

	bare_graph(&cg, NWORKED, worked_ticks, worked_arcs, NWORKED_ARCS);
	CHECK(propagate(&cg, &sel) == 0);
	CHECK(cg.funcs[B].shown && !cg.funcs[A].shown && cg.funcs[C].shown);
	for (size_t i = 0; i < cg.nroots; i++)
		if (cg.roots[i].func == B) {
			CHECK_U64(cg.roots[i].ns, 30 * TICK);
			rooted = true;
		}
	CHECK(rooted);
	CHECK_U64(cg.funcs[B].incl_ns, 30 * TICK);
	callgraph_release(&cg);
}

/* A small deterministic generator, so that a failure can be replayed. */
static uint64_t next_random(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 33;
}

/* What a viewer that does not group cycles (callgrind_annotate,
 * KCachegrind with Cycle Detection off) takes as F's inclusive cost: the
 * sum of its incoming calls, direct recursion aside, and of its pseudo
 * caller's call. */
static uint64_t incoming_ns(const struct callgraph *cg, size_t f)
{
	uint64_t sum = 0;

	for (size_t a = 0; a < cg->narcs; a++)
		if (cg->arcs[a].callee == f && cg->arcs[a].caller != f)
			sum += cg->arcs[a].ns;
	for (size_t r = 0; r < cg->nroots; r++)
		if (cg->roots[r].func == f)
			sum += cg->roots[r].ns;
	return sum;
}

/* Random graphs of 2-16 functions, some without samples, with arcs
 * forward and back (so cycles of every size, nested in callers and
 * callees), counts from 1 to 1000.  For every function: incoming calls
 * add up to at least its figure (self + children; for a member of a
 * cycle self + calls leaving the cycle), so no viewer shows inclusive
 * below self; a member's figure is exactly that; each cycle's entering
 * calls and pseudo caller carry the sum of its members' figures, which
 * is what grouping viewers show as <cycle N>; and no call costs 0.  (A
 * call that gprof gives nothing carries MIN_CALL_NS, which the sums
 * allow for.) */
/* Up to 3 N distinct random arcs among N functions (N at most
 * RANDOM_MAXF), each of 1 to MAXCOUNT calls, into ARCS; returns how many. */
enum { RANDOM_MAXF = 16 };
static size_t random_arcs(uint64_t *state, size_t n, uint64_t maxcount,
			  struct arc_spec *arcs)
{
	bool taken[RANDOM_MAXF][RANDOM_MAXF] = { { false } };
	size_t narcs = 0;

	for (size_t i = 0, want = n + next_random(state) % (2 * n); i < want; i++) {
		size_t from = next_random(state) % n, to = next_random(state) % n;

		if (taken[from][to])
			continue;
		taken[from][to] = true;
		arcs[narcs++] = (struct arc_spec){ from, to,
						   1 + next_random(state) % maxcount };
	}
	return narcs;
}

static void test_random_graphs(void)
{
	enum { GRAPHS = 4000, MAXF = RANDOM_MAXF, MAXARCS = 3 * MAXF };
	uint64_t state = 20261125;
	unsigned bad_incoming = 0, bad_member = 0, bad_cycle = 0, zero = 0;
	unsigned cycles_seen = 0;

	for (unsigned g = 0; g < GRAPHS; g++) {
		size_t n = 2 + next_random(&state) % (MAXF - 1), narcs;
		unsigned ticks[MAXF];
		struct arc_spec arcs[MAXARCS];
		struct callgraph cg;

		for (size_t f = 0; f < n; f++)
			ticks[f] = next_random(&state) % 3 ? next_random(&state) % 50 : 0;
		narcs = random_arcs(&state, n, 1000, arcs);
		bare_graph(&cg, n, ticks, arcs, narcs);
		if (propagate(&cg, NULL) != 0) {
			CHECK(!"propagation of a random graph failed");
			callgraph_release(&cg);
			continue;
		}
		cycles_seen += cg.ncycles;
		for (size_t f = 0; f < n; f++) {
			const struct cg_func *fn = &cg.funcs[f];
			uint64_t leaving = 0, markers = 0;

			if (fn->shown && incoming_ns(&cg, f) < fn->incl_ns)
				bad_incoming++;
			if (!fn->cycle)
				continue;
			for (size_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++)
				if (cg.funcs[cg.arcs[a].callee].cycle != fn->cycle) {
					leaving += cg.arcs[a].ns;
					markers += MIN_CALL_NS;
				}
			leaving += fn->marker_ns;
			if (fn->self_ns + leaving < fn->incl_ns ||
			    fn->self_ns + leaving > fn->incl_ns + markers)
				bad_member++;
		}
		for (unsigned c = 1; c <= cg.ncycles; c++) {
			uint64_t members = 0, entering = 0, markers = 0;

			for (size_t f = 0; f < n; f++) {
				if (cg.funcs[f].cycle != c)
					continue;
				members += cg.funcs[f].incl_ns;
				for (size_t r = 0; r < cg.nroots; r++)
					if (cg.roots[r].func == f)
						entering += cg.roots[r].ns;
			}
			for (size_t a = 0; a < cg.narcs; a++)
				if (cg.funcs[cg.arcs[a].callee].cycle == c &&
				    cg.funcs[cg.arcs[a].caller].cycle != c) {
					entering += cg.arcs[a].ns;
					markers += MIN_CALL_NS;
				}
			if (entering < members || entering > members + markers)
				bad_cycle++;
		}
		for (size_t a = 0; a < cg.narcs; a++)
			if (cg.arcs[a].ns == 0)
				zero++;
		callgraph_release(&cg);
	}
	CHECK(cycles_seen > GRAPHS / 2);
	CHECK_U64(bad_incoming, 0);
	CHECK_U64(bad_member, 0);
	CHECK_U64(bad_cycle, 0);
	CHECK_U64(zero, 0);
}

/* Whether function F (or its cycle) is called from outside it. */
static bool called_from_outside(const struct callgraph *cg, size_t f)
{
	unsigned cycle = cg->funcs[f].cycle;

	for (size_t i = 0; i < cg->narcs; i++) {
		size_t from = cg->arcs[i].caller, to = cg->arcs[i].callee;
		bool into = to == f || (cycle && cg->funcs[to].cycle == cycle);
		bool inside = from == to || (cycle && cg->funcs[from].cycle == cycle);

		if (into && !inside)
			return true;
	}
	return false;
}

/* Random graphs of functions never sampled, whose costs are the 1 ns
 * markers of their calls: the split of a component's cost over the calls
 * entering it need not settle, and what it leaves went to a pseudo
 * caller, which then counted one call more than the profile has (the
 * corpus's sqlite3: a cycle called 331 times, 330 in gprof).  A function
 * called from outside its component is no root. */
static void test_no_extra_roots(void)
{
	enum { GRAPHS = 3000, MAXF = 12, MAXARCS = 3 * MAXF };
	uint64_t state = 20261129;
	unsigned extra = 0;

	for (unsigned g = 0; g < GRAPHS; g++) {
		size_t n = 2 + next_random(&state) % (MAXF - 1), narcs;
		unsigned ticks[MAXF] = { 0 };
		struct arc_spec arcs[MAXARCS];
		struct callgraph cg;

		narcs = random_arcs(&state, n, 40, arcs);
		bare_graph(&cg, n, ticks, arcs, narcs);
		if (propagate(&cg, NULL) != 0) {
			CHECK(!"propagation of a random graph failed");
			callgraph_release(&cg);
			continue;
		}
		for (size_t r = 0; r < cg.nroots; r++)
			extra += called_from_outside(&cg, cg.roots[r].func);
		callgraph_release(&cg);
	}
	CHECK_U64(extra, 0);
}

int main(void)
{
	test_worked_example();
	test_direct_recursion();
	test_positions();
	test_roots();
	test_uncalled_cycle();
	test_excluded_time();
	test_markers();
	test_markers_many_sites();
	test_excluded_member();
	test_shown_member();
	test_random_graphs();
	test_no_extra_roots();
	return check_report("test-propagate");
}
