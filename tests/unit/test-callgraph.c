/* test-callgraph.c -- attribution and propagation on hand-made profiles:
 * gprof's worked example with a cycle and self-recursion (doc/internals.md, section 4),
 * a bin straddling two functions and a gap, exact integer sums, and graphs
 * deep enough to overflow any recursive walk. */
#include <config.h>

#include <stdlib.h>

#include "callgraph.h"
#include "check.h"
#include "diag.h"
#include "gmon.h"
#include "fake.h"
#include "object.h"
#include "symtab.h"

static const struct cg_arc *find_arc(const struct callgraph *cg, size_t from,
				     size_t to)
{
	for (size_t i = 0; i < cg->narcs; i++)
		if (cg->arcs[i].caller == from && cg->arcs[i].callee == to)
			return &cg->arcs[i];
	return NULL;
}

static uint64_t arc_ns(const struct callgraph *cg, size_t from, size_t to)
{
	const struct cg_arc *a = find_arc(cg, from, to);

	return a ? a->ns : UINT64_MAX;
}

/* Self ticks T: main 0, A 10, B 20, C 50, D 5; arcs main->A 2, A->B 4,
 * B->A 3, A->C 6, B->C 2, main->D 1, D->D 9, D->C 2. */
static void test_worked_example(void)
{
	enum { MAIN, A, B, C, D, N };
	static const unsigned ticks[N] = { 0, 10, 20, 50, 5 };
	static const struct { int from, to, count; } arcs[] = {
		{ MAIN, A, 2 }, { A, B, 4 }, { B, A, 3 }, { A, C, 6 },
		{ B, C, 2 }, { MAIN, D, 1 }, { D, D, 9 }, { D, C, 2 },
	};
	struct symtab st;
	struct cg_object obj;
	struct gmon_profile p;
	struct callgraph cg;
	struct g2c_error err;

	fake_symtab(&st, N, 0x1000, 16);
	fake_profile(&p, 0x1000, 0x1000 + N * 16);
	for (int f = 0; f < N; f++)
		set_bin(&p, f * 8 + 2, ticks[f]);
	for (size_t i = 0; i < sizeof arcs / sizeof *arcs; i++)
		add_arc(&p, 0x1000 + 16 * arcs[i].from + 6,
			0x1000 + 16 * arcs[i].to + 4, arcs[i].count);
	CHECK(build(&cg, &obj, &p, &st, 100, &err) == 0);

	CHECK_U64(cg.total_ns, 85 * TICK);
	CHECK_U64(cg.funcs[A].self_ns, 10 * TICK);
	CHECK_U64(cg.funcs[C].self_ns, 50 * TICK);
	/* calls from other functions vs direct recursion */
	CHECK_U64(cg.funcs[A].ncalls, 5);
	CHECK_U64(cg.funcs[B].ncalls, 4);
	CHECK_U64(cg.funcs[C].ncalls, 10);
	CHECK_U64(cg.funcs[D].ncalls, 1);
	CHECK_U64(cg.funcs[D].self_calls, 9);
	/* one cycle {A, B} */
	CHECK_U64(cg.ncycles, 1);
	CHECK(cg.funcs[A].cycle != 0 && cg.funcs[A].cycle == cg.funcs[B].cycle);
	CHECK_U64(cg.funcs[C].cycle, 0);
	/* gprof: C 50+0, D 5+10, A 10+30, B 20+10, main 0+85 */
	CHECK_U64(cg.funcs[C].incl_ns, 50 * TICK);
	CHECK_U64(cg.funcs[D].incl_ns, 15 * TICK);
	CHECK_U64(cg.funcs[A].incl_ns, 40 * TICK);
	CHECK_U64(cg.funcs[B].incl_ns, 30 * TICK);
	CHECK_U64(cg.funcs[MAIN].incl_ns, 85 * TICK);
	/* arc costs: C's time split 6:2:2; into the cycle the whole cycle */
	CHECK_U64(arc_ns(&cg, A, C), 30 * TICK);
	CHECK_U64(arc_ns(&cg, B, C), 10 * TICK);
	CHECK_U64(arc_ns(&cg, D, C), 10 * TICK);
	CHECK_U64(arc_ns(&cg, MAIN, A), 70 * TICK);
	CHECK_U64(arc_ns(&cg, MAIN, D), 15 * TICK);
	/* inside the cycle the callee's own time (self + calls leaving
	 * the cycle) by count: B's 30 all from A, A's 40 by 3 of 5 calls */
	CHECK_U64(arc_ns(&cg, A, B), 30 * TICK);
	CHECK_U64(arc_ns(&cg, B, A), 24 * TICK);
	/* direct recursion: only the least cost that keeps it listed */
	CHECK_U64(arc_ns(&cg, D, D), 1);
	/* main is the only root */
	CHECK_U64(cg.nroots, 1);
	CHECK_U64(cg.roots[0].func, MAIN);
	CHECK_U64(cg.roots[0].ns, 85 * TICK);
	callgraph_release(&cg);
	gmon_profile_release(&p);
	free(st.funcs);
}

/* X = [0x2000, 0x2003) with 1 byte of padding past its size, Y =
 * [0x2003, 0x200e), bins of 4 bytes; the code cannot be decoded, so bins
 * are shared by the bodies' bytes. */
static void test_straddling_bins(void)
{
	struct symtab st;
	struct cg_object obj;
	struct gmon_profile p;
	struct callgraph cg;
	struct g2c_error err;
	size_t nosym;

	fake_symtab(&st, 2, 0x2000, 3);
	st.funcs[0].body_end = 0x2002;
	st.funcs[1].end = st.funcs[1].body_end = 0x200e;
	fake_profile(&p, 0x2000, 0x2014);
	p.hists[0].nbins = 5;	/* scale 32768: each bin is 4 bytes */
	set_bin(&p, 0, 3);	/* 2 bytes of X's body, 1 of padding, 1 of Y */
	set_bin(&p, 3, 2);	/* 2 bytes of Y, 2 in no function */
	set_bin(&p, 4, 1);	/* in no function */
	CHECK(build(&cg, &obj, &p, &st, 100, &err) == 0);
	nosym = callgraph_no_symbol(&cg, 0);
	CHECK_NEAR(cg.funcs[0].self_ticks, 2.0, 1e-12);
	CHECK_NEAR(cg.funcs[1].self_ticks, 3.0, 1e-12);
	CHECK_NEAR(cg.funcs[nosym].self_ticks, 1.0, 1e-12);
	CHECK_U64(cg.funcs[1].self_ns, 3 * TICK);
	CHECK_U64(cg.total_ns, 6 * TICK);
	CHECK_U64(cg.stats.samples, 6);
	/* Y's cost sits at its first byte in each bin */
	CHECK_U64(cg.funcs[1].ncosts, 2);
	CHECK_U64(cg.costs[cg.funcs[1].first_cost].pc, 0x2003);
	CHECK_U64(cg.costs[cg.funcs[1].first_cost + 1].pc, 0x200c);
	callgraph_release(&cg);
	gmon_profile_release(&p);
	free(st.funcs);
}

/* Thirds do not round evenly: the parts must still add up exactly. */
static void test_exact_sums(void)
{
	struct symtab st;
	struct cg_object obj;
	struct gmon_profile p;
	struct callgraph cg;
	struct g2c_error err;
	uint64_t sum_self = 0, into_leaf = 0;

	fake_symtab(&st, 4, 0x3000, 16);
	fake_profile(&p, 0x3000, 0x3040);
	p.hists[0].nbins = 3;	/* 64 bytes / 3 bins: uneven bins */
	set_bin(&p, 0, 7);
	set_bin(&p, 1, 11);
	set_bin(&p, 2, 13);
	add_arc(&p, 0x3004, 0x3034, 1);
	add_arc(&p, 0x3014, 0x3034, 1);
	add_arc(&p, 0x3024, 0x3034, 1);
	add_arc(&p, 0x3028, 0x3034, 3);	/* a second site of 2 -> 3 */
	CHECK(build(&cg, &obj, &p, &st, 3, &err) == 0);	/* 1/3 s ticks */
	for (size_t i = 0; i < cg.ncosts; i++)
		sum_self += cg.costs[i].ns;
	CHECK_U64(sum_self, cg.total_ns);
	CHECK_NEAR((double)cg.total_ns, 31e9 / 3, 1.0);
	for (size_t i = 0; i < cg.narcs; i++) {
		const struct cg_arc *a = &cg.arcs[i];
		uint64_t sites = 0;

		for (size_t s = a->first_site; s < a->first_site + a->nsites; s++)
			sites += cg.sites[s].ns;
		CHECK_U64(sites, a->ns);
		if (a->callee == 3)
			into_leaf += a->ns;
	}
	CHECK_U64(into_leaf, cg.funcs[3].incl_ns);
	CHECK_U64(find_arc(&cg, 2, 3)->nsites, 2);
	CHECK_U64(find_arc(&cg, 2, 3)->count, 4);
	callgraph_release(&cg);
	gmon_profile_release(&p);
	free(st.funcs);
}

/* A chain f0 -> f1 -> ... of N functions, closed into one big cycle when
 * RING: neither may exhaust the stack. */
static void test_deep_graph(bool ring)
{
	enum { N = 200000 };
	struct symtab st;
	struct cg_object obj;
	struct gmon_profile p;
	struct callgraph cg;
	struct g2c_error err;
	bool ok = true;

	fake_symtab(&st, N, 0x10000, 4);
	fake_profile(&p, 0x10000, 0x10000 + 4 * N);
	for (size_t i = 0; i < N; i++) {
		set_bin(&p, 2 * i, 1);
		if (i + 1 < N || ring)
			add_arc(&p, 0x10000 + 4 * i + 2,
				0x10000 + 4 * ((i + 1) % N), 1);
	}
	CHECK(build(&cg, &obj, &p, &st, 100, &err) == 0);
	CHECK_U64(cg.total_ns, N * TICK);
	if (ring) {
		CHECK_U64(cg.ncycles, 1);
		CHECK_U64(cg.nroots, 1);	/* the cycle has no outside caller */
		CHECK_U64(cg.roots[0].ns, N * TICK);
		for (size_t i = 0; i < N; i++)
			ok = ok && cg.funcs[i].incl_ns == TICK;
	} else {
		CHECK_U64(cg.ncycles, 0);
		for (size_t i = 0; i < N; i++)
			ok = ok && cg.funcs[i].incl_ns == (N - i) * TICK;
	}
	CHECK(ok);
	callgraph_release(&cg);
	gmon_profile_release(&p);
	free(st.funcs);
}

int main(void)
{
	test_worked_example();
	test_straddling_bins();
	test_exact_sums();
	test_deep_graph(false);
	test_deep_graph(true);
	return check_report("test-callgraph");
}
