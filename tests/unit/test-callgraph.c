/* test-callgraph.c -- attribution and propagation on hand-made profiles:
 * gprof's worked example with a cycle and self-recursion (doc/internals.md, section 4),
 * a bin straddling two functions and a gap, exact integer sums, and graphs
 * deep enough to overflow any recursive walk. */
#include <config.h>

#include <stdlib.h>

#include "callgraph.h"
#include "check.h"
#include "diag.h"
#include "gmon_store.h"
#include "fake.h"
#include "object.h"
#include "symtab.h"
#include "worked.h"

static const struct cg_arc *find_arc(const struct callgraph *cg, size_t from,
				     size_t to)
{
	for (size_t i = 0; i < cg->narcs; i++)
		if (cg->arcs[i].caller == from && cg->arcs[i].callee == to)
			return &cg->arcs[i];
	return NULL;
}

/* The worked example (worked.h) as a profile: each function 16 bytes,
 * its samples in one bin, its calls from one site. */
static void test_worked_example(void)
{
	struct symtab st;
	struct cg_object obj;
	struct gmon_profile p;
	struct callgraph cg;
	struct g2c_error err;

	fake_symtab(&st, NWORKED, 0x1000, 16);
	fake_profile(&p, 0x1000, 0x1000 + NWORKED * 16);
	for (size_t f = 0; f < NWORKED; f++)
		set_bin(&p, f * 8 + 2, worked_ticks[f]);
	for (size_t i = 0; i < NWORKED_ARCS; i++)
		add_arc(&p, 0x1000 + 16 * worked_arcs[i].from + 6,
			0x1000 + 16 * worked_arcs[i].to + 4, worked_arcs[i].count);
	CHECK(build(&cg, &obj, &p, &st, 100, &err) == 0);
	check_worked_figures(&cg);
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
	CHECK_U64(cg.samples, 6);
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
		sum_self += cg_cost_ns(&cg, &cg.costs[i]);
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
