/* callgraph.c -- the call-graph stage: functions numbered across the
 * objects, their samples and arcs attributed (attribute.c), time
 * propagated over the graph (propagate.c). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "attribute.h"
#include "callgraph.h"
#include "diag.h"
#include "propagate.h"
#include "symtab.h"

size_t callgraph_number_funcs(const size_t *nfuncs, size_t n, size_t *first)
{
	size_t next = 0;

	for (size_t o = 0; o < n; o++) {
		size_t own = nfuncs[o];

		first[o] = next;
		next += own;
	}
	first[n] = next;
	/* then object 0's "<no symbol>", one pseudo caller per object, the
	 * other objects' "<no symbol>" */
	return next + 1 + n + (n ? n - 1 : 0);
}

size_t callgraph_object_of(const struct callgraph *cg, size_t f)
{
	size_t o = cg->nobjs;

	if (callgraph_is_pseudo(cg, f)) {
		size_t k = f - cg->first_pseudo;

		return k == 0 ? 0 : k <= cg->nobjs ? k - 1 : k - cg->nobjs;
	}
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

/* Numbers the functions of CG's objects.  Returns -1 when out of memory. */
static int number_objects(struct callgraph *cg)
{
	size_t *first = malloc((cg->nobjs + 1) * sizeof *first);

	if (!first)
		return -1;
	for (size_t o = 0; o < cg->nobjs; o++)
		first[o] = cg->objs[o].st->nfuncs;
	cg->nfuncs = callgraph_number_funcs(first, cg->nobjs, first);
	for (size_t o = 0; o < cg->nobjs; o++)
		cg->objs[o].first_func = first[o];
	cg->first_pseudo = first[cg->nobjs];
	free(first);
	return 0;
}

static const struct cg_selection no_selection;

int callgraph_build(struct callgraph *cg, struct cg_object *objs, size_t nobjs,
		    const struct cg_selection *sel, struct g2c_error *err)
{
	size_t in_cycle = SIZE_MAX;

	memset(cg, 0, sizeof *cg);
	cg->objs = objs;
	cg->nobjs = nobjs;
	if (!sel)
		sel = &no_selection;
	if (number_objects(cg) < 0 ||
	    !(cg->funcs = calloc(cg->nfuncs, sizeof *cg->funcs)))
		return g2c_error_set(err, "out of memory for the call graph");
	if (attribute_profiles(cg, sel, err) < 0 ||
	    propagate_graph(cg, sel, &in_cycle, err) < 0) {
		if (in_cycle != SIZE_MAX)
			g2c_error_set(err, "%s is part of a cycle; selecting a function inside a cycle is not supported",
				      callgraph_symbol(cg, in_cycle)->name);
		callgraph_release(cg);
		return -1;
	}
	return 0;
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
