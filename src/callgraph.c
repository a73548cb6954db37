/* callgraph.c -- the call graph's arrays: functions numbered across the
 * objects, and the look-ups between function numbers, objects and
 * symbols. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"
#include "callgrind_format.h"
#include "diag.h"
#include "object.h"
#include "symtab.h"
#include "util.h"

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

int callgraph_init(struct callgraph *cg, struct cg_object *objs, size_t nobjs,
		   struct g2c_error *err)
{
	size_t *first;

	memset(cg, 0, sizeof *cg);
	cg->objs = objs;
	cg->nobjs = nobjs;
	first = malloc((nobjs + 1) * sizeof *first);
	if (!first)
		return g2c_error_set(err, "out of memory for the call graph");
	for (size_t o = 0; o < nobjs; o++)
		first[o] = objs[o].st->nfuncs;
	cg->nfuncs = callgraph_number_funcs(first, nobjs, first);
	for (size_t o = 0; o < nobjs; o++)
		objs[o].first_func = first[o];
	cg->first_pseudo = first[nobjs];
	free(first);
	if (!(cg->funcs = calloc(cg->nfuncs, sizeof *cg->funcs)))
		return g2c_error_set(err, "out of memory for the call graph");
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

const char *callgraph_name(const struct callgraph *cg, size_t f, char *buf,
			   size_t size)
{
	const struct symtab_func *sym = callgraph_symbol(cg, f);

	if (sym)
		return sym->name;
	if (callgraph_is_no_symbol(cg, f))
		return CALLGRIND_NO_SYMBOL;
	snprintf(buf, size, CALLGRIND_OUTSIDE_BEFORE "%s" CALLGRIND_OUTSIDE_AFTER,
		 base_name(cg->objs[callgraph_object_of(cg, f)].obj->path));
	return buf;
}
