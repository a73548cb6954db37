/* worked.h -- gprof's worked example (gmon notes 4.7, doc/internals.md
 * section 4), shared by the test that attributes it from a profile and
 * the test that propagates it on a bare graph: the graph, and the figures
 * gprof's rules give for it.
 * T main 0, A 10, B 20, C 50, D 5; cycle {A, B}; D recursive. */
#ifndef GMON2CG_TEST_WORKED_H
#define GMON2CG_TEST_WORKED_H

#include <stdint.h>

#include "callgraph.h"
#include "check.h"

#ifndef TICK
#define TICK 10000000ull	/* ns per sample at 100 Hz */
#endif

struct arc_spec {
	size_t from, to;
	uint64_t count;
};

enum { MAIN, A, B, C, D, NWORKED };
static const unsigned worked_ticks[NWORKED] = { 0, 10, 20, 50, 5 };
static const struct arc_spec worked_arcs[] = {
	{ MAIN, A, 2 }, { A, B, 4 }, { B, A, 3 }, { A, C, 6 },
	{ B, C, 2 }, { MAIN, D, 1 }, { D, D, 9 }, { D, C, 2 },
};
#define NWORKED_ARCS (sizeof worked_arcs / sizeof *worked_arcs)

/* The time the arc FROM -> TO carries; UINT64_MAX if there is none. */
static inline uint64_t arc_ns(const struct callgraph *cg, size_t from, size_t to)
{
	for (size_t i = 0; i < cg->narcs; i++)
		if (cg->arcs[i].caller == from && cg->arcs[i].callee == to)
			return cg->arcs[i].ns;
	return UINT64_MAX;
}

/* Checks CG, the worked example propagated, against gprof's figures. */
static inline void check_worked_figures(const struct callgraph *cg)
{
	CHECK_U64(cg->total_ns, 85 * TICK);
	for (size_t f = 0; f < NWORKED; f++)
		CHECK_U64(cg->funcs[f].self_ns, worked_ticks[f] * TICK);
	/* raw calls A 5, B 4, C 10, D 10 = 1 + 9 recursive */
	CHECK_U64(cg->funcs[A].ncalls, 5);
	CHECK_U64(cg->funcs[B].ncalls, 4);
	CHECK_U64(cg->funcs[C].ncalls, 10);
	CHECK_U64(cg->funcs[D].ncalls, 1);
	CHECK_U64(cg->funcs[D].self_calls, 9);
	/* cycle 1 = {A, B}; D's recursion is no cycle */
	CHECK_U64(cg->ncycles, 1);
	CHECK_U64(cg->funcs[A].cycle, 1);
	CHECK_U64(cg->funcs[B].cycle, 1);
	CHECK_U64(cg->funcs[MAIN].cycle, 0);
	CHECK_U64(cg->funcs[C].cycle, 0);
	CHECK_U64(cg->funcs[D].cycle, 0);
	/* self + children: main 0+85, A 10+30, B 20+10, C 50+0, D 5+10 */
	CHECK_U64(cg->funcs[MAIN].incl_ns, 85 * TICK);
	CHECK_U64(cg->funcs[A].incl_ns, 40 * TICK);
	CHECK_U64(cg->funcs[B].incl_ns, 30 * TICK);
	CHECK_U64(cg->funcs[C].incl_ns, 50 * TICK);
	CHECK_U64(cg->funcs[D].incl_ns, 15 * TICK);
	/* C's 50 by calls 6:2:2; into the cycle its 30 + 40 by main->A;
	 * D's 5 + 10 by main->D */
	CHECK_U64(arc_ns(cg, A, C), 30 * TICK);
	CHECK_U64(arc_ns(cg, B, C), 10 * TICK);
	CHECK_U64(arc_ns(cg, D, C), 10 * TICK);
	CHECK_U64(arc_ns(cg, MAIN, A), 70 * TICK);
	CHECK_U64(arc_ns(cg, MAIN, D), 15 * TICK);
	/* within the cycle the callee's own time by its calls: B's 30 all
	 * from A, A's 40 by B's 3 of 5; recursion the least listed cost */
	CHECK_U64(arc_ns(cg, A, B), 30 * TICK);
	CHECK_U64(arc_ns(cg, B, A), 24 * TICK);
	CHECK_U64(arc_ns(cg, D, D), 1);
	/* main, without samples, is the only root and carries everything */
	CHECK_U64(cg->nroots, 1);
	CHECK_U64(cg->roots[0].func, MAIN);
	CHECK_U64(cg->roots[0].ns, 85 * TICK);
}

#endif
