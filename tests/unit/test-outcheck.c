/* test-outcheck.c -- the self-check of the numbers about to be written:
 * a call graph built by hand passes it; each invariant broken on purpose
 * in the final integers (a cost of 2^64 - 1, self costs that do not add
 * up to the total, calls in that do not carry self + calls out, an
 * inclusive cost below the self cost, a position outside its function)
 * fails it with one line that says it is an internal error, which
 * invariant, for which function, and where to report it; and a function
 * never sampled called from many sites, whose calls in once carried more
 * than its cost (the pseudo caller's call then 2^64 - 1 ns), passes;
 * and the writer's name ids, each defined once. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "diag.h"
#include "fake.h"
#include "outcheck.h"
#include "propagate.h"

enum { MAIN, MID, LEAF, N };

/* main (1 sample) calls mid 5 times from two call sites, mid (no
 * samples) calls leaf (3 samples) twice. */
static void small_graph(struct callgraph *cg, struct symtab *st,
			struct cg_object *obj, struct gmon_profile *p)
{
	struct g2c_error err;

	fake_symtab(st, N, 0x1000, 32);
	st->funcs[MAIN].name = "main";
	st->funcs[MID].name = "mid";
	st->funcs[LEAF].name = "leaf";
	fake_profile(p, 0x1000, 0x1060);
	set_bin(p, 2, 1);	/* main, 0x1004 */
	set_bin(p, 33, 2);	/* leaf, 0x1042 */
	set_bin(p, 34, 1);	/* leaf, 0x1044 */
	add_arc(p, 0x1008, 0x1024, 3);
	add_arc(p, 0x1018, 0x1024, 2);
	add_arc(p, 0x1028, 0x1044, 2);
	CHECK(build(cg, obj, p, st, 100, &err) == 0);
}

static void release(struct callgraph *cg, struct symtab *st,
		    struct gmon_profile *p)
{
	callgraph_release(cg);
	gmon_profile_release(p);
	free(st->funcs);
}

/* The arc from CALLER to CALLEE. */
static struct cg_arc *arc_of(struct callgraph *cg, size_t caller, size_t callee)
{
	for (size_t a = 0; a < cg->narcs; a++)
		if (cg->arcs[a].caller == caller && cg->arcs[a].callee == callee)
			return &cg->arcs[a];
	CHECK(!"no such arc");
	return &cg->arcs[0];
}

/* Checks that CG fails the self-check with a message that contains
 * WHAT and, unless NULL, the function's name FUNC. */
static void check_fails(const struct callgraph *cg, const char *what,
			const char *func)
{
	struct g2c_error err = { "" };

	CHECK(outcheck_graph(cg, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "internal error: ");
	CHECK_STR_CONTAINS(err.msg, what);
	if (func)
		CHECK_STR_CONTAINS(err.msg, func);
	CHECK_STR_CONTAINS(err.msg, PACKAGE_BUGREPORT);
	CHECK(strchr(err.msg, '\n') == NULL);
}

static void test_passes(void)
{
	struct symtab st;
	struct cg_object obj;
	struct gmon_profile p;
	struct callgraph cg;
	struct g2c_error err;

	small_graph(&cg, &st, &obj, &p);
	CHECK(outcheck_graph(&cg, &err) == 0);
	release(&cg, &st, &p);
}

/* Moves F's first position's cost by DELTA ns. */
static void add_self_ns(struct callgraph *cg, size_t f, int delta)
{
	struct cg_cost *c = &cg->costs[cg->funcs[f].first_cost];

	cg_cost_set_ns(cg, c, cg_cost_ns(cg, c) + (uint64_t)(int64_t)delta);
}

/* Each case breaks one number of the small graph. */
enum planted { WRAPPED_ROOT, COST_NOT_IN_TOTAL, CALL_TOO_DEAR,
	       INCL_BELOW_SELF, POSITION_OUTSIDE, HUGE_TOTAL };

static void test_planted(enum planted what)
{
	struct symtab st;
	struct cg_object obj;
	struct gmon_profile p;
	struct callgraph cg;
	struct cg_arc *arc;

	small_graph(&cg, &st, &obj, &p);
	switch (what) {
	case WRAPPED_ROOT:
		CHECK_U64(cg.nroots, 1);
		cg.roots[0].ns = UINT64_MAX;
		check_fails(&cg, "call from <spontaneous> is not below 2^63", "main");
		break;
	case COST_NOT_IN_TOTAL:
		cg.total_ns += 1;
		check_fails(&cg, "self costs add up to 40000000 ns, the total is 40000001", NULL);
		break;
	case CALL_TOO_DEAR:	/* a main -> mid call carries 1 ns of main's */
		arc = arc_of(&cg, MAIN, MID);
		cg.sites[arc->first_site].ns += 1;
		add_self_ns(&cg, MAIN, -1);
		check_fails(&cg, "calls in do not carry the self cost plus the calls out", "mid");
		break;
	case INCL_BELOW_SELF:	/* leaf costs 1 ns more than its call in */
		add_self_ns(&cg, LEAF, 1);
		cg.total_ns += 1;
		check_fails(&cg, "calls in carry less than the self cost", "leaf");
		break;
	case POSITION_OUTSIDE:
		cg.costs[cg.funcs[LEAF].first_cost].pc = 0x1004;
		check_fails(&cg, "cost position outside the function", "leaf");
		break;
	case HUGE_TOTAL:
		cg.total_ns = UINT64_MAX;
		check_fails(&cg, "total is not below 2^63", NULL);
		break;
	}
	release(&cg, &st, &p);
}

/* main (1 sample) calls leaf, never sampled, from 28 call sites (hash
 * buckets of 16 bytes) with uneven counts: leaf's cost is 1 ns per site.
 * Its calls once carried 29 ns, and main's call from the pseudo caller
 * leaf's cost less that, 2^64 - 1 ns. */
static void test_many_sites(void)
{
	enum { NSITES = 28 };
	static const uint64_t counts[NSITES] = {
		3, 2, 25, 3, 3, 2, 1, 3, 3, 2, 1, 1, 2, 3,
		2, 1, 3, 2, 2, 2, 2, 3, 2, 3, 2, 2, 1, 2,
	};
	struct symtab st;
	struct cg_object obj;
	struct gmon_profile p;
	struct callgraph cg;
	struct g2c_error err = { "" };

	fake_symtab(&st, 2, 0x1000, 0x200);
	st.funcs[0].name = "main";
	st.funcs[1].name = "leaf";
	fake_profile(&p, 0x1000, 0x1400);
	set_bin(&p, 2, 1);
	for (size_t s = 0; s < NSITES; s++)
		add_arc(&p, 0x1010 + 16 * s, 0x1204, counts[s]);
	CHECK(build(&cg, &obj, &p, &st, 100, &err) == 0);
	CHECK_U64(cg.nsites, NSITES);
	CHECK_U64(cg.funcs[1].marker_ns, NSITES);
	CHECK(outcheck_graph(&cg, &err) == 0);
	for (size_t r = 0; r < cg.nroots; r++)
		CHECK(cg.roots[r].ns < UINT64_C(1) << 63);
	release(&cg, &st, &p);
}

/* A small deterministic generator, so that a failure can be replayed. */
static uint64_t next_random(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 33;
}

/* Random graphs of 2-12 functions of 4 kB each (and the two pseudo
 * functions), a third of them sampled (fractions of a sample, at rates
 * from 100 Hz to 1 GHz), arcs of 1 to 40 call sites with counts from 1
 * to a million, some selections of gprof's (-E, -E with -e, -e, -f, -F),
 * propagated as the program does: every one passes the self-check.
 * (Before the calls into a function were kept from carrying more than
 * its cost, 15 of these 20 000 had a call of 2^64 - 1 ns.) */
static void test_random_graphs(void)
{
	enum { GRAPHS = 20000, MAXF = 12, MAXSITES = 40 };
	uint64_t state = 20261128;
	unsigned failed = 0;

	for (unsigned g = 0; g < GRAPHS; g++) {
		size_t n = 2 + next_random(&state) % (MAXF - 1);
		bool taken[MAXF][MAXF] = { { false } }, set[4][MAXF] = { { false } };
		struct cg_selection sel = { 0 };
		struct symtab st;
		struct cg_object obj = { .obj = &fake_object, .st = &st };
		struct callgraph cg = { .phase = CG_ATTRIBUTED, .objs = &obj,
					.nobjs = 1, .nfuncs = n + 2,
					.first_pseudo = n };
		struct g2c_error err;

		fake_symtab(&st, n, 0x1000, 0x1000);
		cg.funcs = calloc(n + 2, sizeof *cg.funcs);
		cg.costs = calloc(n, sizeof *cg.costs);
		cg.arcs = calloc(n * n, sizeof *cg.arcs);
		cg.sites = calloc(n * n * MAXSITES, sizeof *cg.sites);
		for (size_t f = 0; f < n + 2; f++) {
			struct cg_func *fn = &cg.funcs[f];

			fn->ns_per_tick = next_random(&state) % 2 ? 1e7 :
				1e9 / (double)(1 + next_random(&state) % 1000);
			fn->first_cost = cg.ncosts;
			if (f < n && next_random(&state) % 3 == 0) {
				struct cg_cost *c = &cg.costs[cg.ncosts++];

				fn->ncosts = 1;
				c->pc = 0x1000 * (f + 1) + 4;
				cg_cost_set_ticks(&cg, c, (double)(next_random(&state) % 1000) /
						  (double)(1 + next_random(&state) % 1000));
			}
			for (int k = 0; k < 4 && f < n; k++)
				set[k][f] = next_random(&state) % 4 == 0;
		}
		for (size_t i = 0, want = n + next_random(&state) % (2 * n); i < want; i++)
			taken[next_random(&state) % n][next_random(&state) % n] = true;
		for (size_t a = 0; a < n; a++)
			for (size_t b = 0; b < n; b++) {
				struct cg_arc *arc = &cg.arcs[cg.narcs];

				if (!taken[a][b])
					continue;
				*arc = (struct cg_arc){ .caller = a, .callee = b,
					.first_site = cg.nsites,
					.nsites = 1 + next_random(&state) %
						  (next_random(&state) % 2 ? MAXSITES : 3) };
				for (size_t s = 0; s < arc->nsites; s++) {
					uint64_t count = next_random(&state) % 4 == 0 ?
						1 + next_random(&state) % 1000000 :
						1 + next_random(&state) % 3;

					cg.sites[cg.nsites++] = (struct cg_site){
						0x1000 * (a + 1) + 8 + 16 * s, count, 0 };
					arc->count += count;
				}
				cg.narcs++;
			}
		switch (next_random(&state) % 6) {
		case 1: sel.excl_time = set[0]; break;
		case 2: sel.excl_time = sel.excl_graph = set[0]; break;
		case 3: sel.excl_graph = set[1]; break;
		case 4: sel.incl_graph = set[2]; break;
		case 5: sel.incl_time = set[3]; break;
		}
		if (propagate_graph(&cg, &sel, PROPAGATE_GRAPH_ONLY, &err) < 0 ||
		    outcheck_graph(&cg, &err) < 0) {
			if (failed++ == 0)
				check_comment(err.msg);
		}
		callgraph_release(&cg);
		free(st.funcs);
	}
	CHECK_U64(failed, 0);
}

/* The writer's names: each id defined once, in order, up to the last
 * given; an id defined out of order (twice, or one skipped) or the last
 * ones never defined fail. */
static void test_name_ids(void)
{
	struct g2c_error err = { "" };

	CHECK(outcheck_name_ids("fn=", 12, 12, true, &err) == 0);
	CHECK(outcheck_name_ids("fn=", 0, 0, true, &err) == 0);
	CHECK(outcheck_name_ids("fn=", 12, 12, false, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "internal error: the 12 ids of fn= names are not each defined once (out of order");
	CHECK_STR_CONTAINS(err.msg, PACKAGE_BUGREPORT);
	CHECK(outcheck_name_ids("fl=", 11, 12, true, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "the 12 ids of fl= names are not each defined once (in order, the last defined 11)");
}

int main(void)
{
	test_passes();
	for (int what = WRAPPED_ROOT; what <= HUGE_TOTAL; what++)
		test_planted(what);
	test_many_sites();
	test_random_graphs();
	test_name_ids();
	return check_report("test-outcheck");
}
