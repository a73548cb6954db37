/* outcheck.c -- checks the numbers the writer is about to write. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"
#include "outcheck.h"
#include "symtab.h"
#include "util.h"

/* A cost this large is a difference that went below 0. */
#define COST_LIMIT (UINT64_C(1) << 63)

/* Sets ERR to the internal error WHAT (a failed invariant) of function F
 * (SIZE_MAX: of the whole profile); returns -1. */
static int violated(const struct callgraph *cg, size_t f, const char *what,
		    struct g2c_error *err)
{
	char buf[256];

	return g2c_error_set(err, "internal error: %s%s%s; this is a bug of gmon2cg, please report it at %s",
			     what, f == SIZE_MAX ? "" : " for ",
			     f == SIZE_MAX ? "" : callgraph_name(cg, f, buf, sizeof buf),
			     PACKAGE_BUGREPORT);
}

/* Whether a cost of NS can be written: below 2^63 and at most the total
 * (no call carries more than every sample). */
static bool cost_fits(const struct callgraph *cg, uint64_t ns)
{
	return ns < COST_LIMIT && ns <= cg->total_ns;
}

/* Function F with a symbol, and where it lies. */
struct placed_func {
	size_t f;
	const struct cg_object *obj;
	const struct symtab_func *sym;
};

static struct placed_func func_and_object(const struct callgraph *cg, size_t f)
{
	return (struct placed_func){ f, &cg->objs[callgraph_object_of(cg, f)],
				     callgraph_symbol(cg, f) };
}

/* Whether PC lies in a part of function P away from its symbol (a cold
 * part, credited to its owner). */
static bool in_other_part(const struct placed_func *p, uint64_t pc)
{
	size_t at = symtab_lookup(p->obj->st, pc);

	return at != SYMTAB_NONE &&
	       p->obj->st->funcs[at].owner == p->f - p->obj->first_func;
}

/* Whether PC lies in function P: in its symbol's range (the usual case,
 * inline), or in a part of it elsewhere. */
static inline bool inside(const struct placed_func *p, uint64_t pc)
{
	return (pc >= p->sym->addr && pc < p->sym->end) || in_other_part(p, pc);
}

/* Adds what the calls written into each function carry (direct recursion
 * aside, as the viewers take it) into IN[callee]: the pseudo caller's
 * calls and every call site of a shown function to a shown one. */
static int sum_calls_in(const struct callgraph *cg, uint64_t *in,
			struct g2c_error *err)
{
	for (size_t r = 0; r < cg->nroots; r++) {
		const struct cg_root *root = &cg->roots[r];

		if (!cg->funcs[root->func].shown)
			return violated(cg, root->func, "a call from <spontaneous> to a function not written", err);
		if (!cost_fits(cg, root->ns))
			return violated(cg, root->func, "the cost of the call from <spontaneous> is not below 2^63 and at most the total", err);
		in[root->func] = add_saturating(in[root->func], root->ns);
	}
	for (size_t a = 0; a < cg->narcs; a++) {
		const struct cg_arc *arc = &cg->arcs[a];
		uint64_t ns = 0;

		if (a + PREFETCH_AHEAD < cg->narcs) {
			size_t callee = cg->arcs[a + PREFETCH_AHEAD].callee;

			prefetch(&cg->funcs[callee]);
			prefetch(&in[callee]);
		}
		if (!cg->funcs[arc->caller].shown || !cg->funcs[arc->callee].shown)
			continue;
		for (size_t s = arc->first_site; s < arc->first_site + arc->nsites; s++) {
			if (!cost_fits(cg, cg->sites[s].ns))
				return violated(cg, arc->caller, "the cost of a call is not below 2^63 and at most the total", err);
			ns = add_saturating(ns, cg->sites[s].ns);
		}
		if (arc->caller != arc->callee)
			in[arc->callee] = add_saturating(in[arc->callee], ns);
	}
	return 0;
}

/* Checks shown function F against IN[F], what its calls in carry, and
 * adds the self cost written for it to *TOTAL. */
static int check_function(const struct callgraph *cg, size_t f,
			  const uint64_t *in, uint64_t *total,
			  uint64_t *executions, struct g2c_error *err)
{
	const struct cg_func *fn = &cg->funcs[f];
	bool pseudo = callgraph_is_pseudo(cg, f);
	/* the writer writes a marker at the entry of a function with a
	 * symbol; a pseudo function's would be lost */
	uint64_t self = fn->marker_ns, out = 0, hidden_out = 0, leaving = 0;
	struct placed_func placed;

	if (pseudo && fn->marker_ns)
		return violated(cg, f, "a marker cost on a function without an entry", err);
	if (!pseudo)
		placed = func_and_object(cg, f);
	for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++) {
		const struct cg_cost *c = &cg->costs[i];

		if (!cost_fits(cg, cg_cost_ns(cg, c)))
			return violated(cg, f, "a self cost is not below 2^63 and at most the total", err);
		if (!pseudo && !inside(&placed, c->pc))
			return violated(cg, f, "a cost position outside the function", err);
		self = add_saturating(self, cg_cost_ns(cg, c));
		*executions = add_saturating(*executions, c->executions);
	}
	for (size_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++) {
		const struct cg_arc *arc = &cg->arcs[a];

		if (arc->callee == f)
			continue;
		if (!cg->funcs[arc->callee].shown) {
			hidden_out = add_saturating(hidden_out, arc->ns);
			continue;
		}
		for (size_t s = arc->first_site; s < arc->first_site + arc->nsites; s++) {
			if (!pseudo && !inside(&placed, cg->sites[s].pc))
				return violated(cg, f, "a call site outside the function", err);
			out = add_saturating(out, cg->sites[s].ns);
			if (cg->funcs[arc->callee].cycle != fn->cycle)
				leaving = add_saturating(leaving, cg->sites[s].ns);
		}
	}
	*total = add_saturating(*total, self);
	if (in[f] < self)
		return violated(cg, f, "the calls in carry less than the self cost (inclusive below self)", err);
	/* The calls into a function that a selection leaves out are not
	 * written, but its cost is in its callers' (gprof's -e). */
	if (fn->cycle == 0 &&
	    in[f] != add_saturating(add_saturating(self, out), hidden_out))
		return violated(cg, f, "the calls in do not carry the self cost plus the calls out", err);
	/* (a member's calls in carry its share of the cycle, at least its
	 * self cost and its calls out of the cycle) */
	if (fn->cycle != 0 && in[f] < add_saturating(self, leaving))
		return violated(cg, f, "the calls into a cycle member carry less than its self cost plus its calls out of the cycle", err);
	return 0;
}

int outcheck_graph(const struct callgraph *cg, struct g2c_error *err)
{
	uint64_t *in = calloc(cg->nfuncs ? cg->nfuncs : 1, sizeof *in);
	uint64_t total = 0, executions = 0;
	int rc = -1;

	if (!in)
		return g2c_error_set(err, "out of memory while checking the profile");
	if (cg->total_ns >= COST_LIMIT) {
		violated(cg, SIZE_MAX, "the total is not below 2^63", err);
		goto out;
	}
	if (sum_calls_in(cg, in, err) < 0)
		goto out;
	for (size_t f = 0; f < cg->nfuncs; f++) {
		const struct cg_func *fn = &cg->funcs[f];

		/* (the callees of the functions ahead, scattered) */
		if (f + PREFETCH_AHEAD < cg->nfuncs) {
			const struct cg_func *ahead = &cg->funcs[f + PREFETCH_AHEAD];

			for (size_t a = ahead->first_arc; a < ahead->first_arc + ahead->narcs; a++)
				prefetch(&cg->funcs[cg->arcs[a].callee]);
		}
		if (fn->shown) {
			if (check_function(cg, f, in, &total, &executions, err) < 0)
				goto out;
			continue;
		}
		/* written as <hidden> */
		for (size_t i = fn->first_cost; fn->used && i < fn->first_cost + fn->ncosts; i++) {
			if (!cost_fits(cg, cg_cost_ns(cg, &cg->costs[i]))) {
				violated(cg, SIZE_MAX, "a cost of <hidden> is not below 2^63 and at most the total", err);
				goto out;
			}
			total = add_saturating(total, cg_cost_ns(cg, &cg->costs[i]));
			executions = add_saturating(executions, cg->costs[i].executions);
		}
	}
	if (total != cg->total_ns) {
		char what[128];

		snprintf(what, sizeof what, "the self costs add up to %" PRIu64 " ns, the total is %" PRIu64,
			 total, cg->total_ns);
		violated(cg, SIZE_MAX, what, err);
		goto out;
	}
	if (cg->has_executions && executions != cg->total_executions) {
		violated(cg, SIZE_MAX, "the basic-block counts do not add up to their total", err);
		goto out;
	}
	rc = 0;
out:
	free(in);
	return rc;
}

int outcheck_name_ids(const char *key, size_t last, size_t given, bool in_order,
		      struct g2c_error *err)
{
	char what[160];

	if (in_order && last == given)
		return 0;
	snprintf(what, sizeof what, "the %zu ids of %s names are not each defined once (%s, the last defined %zu)",
		 given, key, in_order ? "in order" : "out of order", last);
	return violated(NULL, SIZE_MAX, what, err);
}
