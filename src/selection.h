/* selection.h -- gprof's selection options resolved to sets of functions.
 *
 * Turns the names given to -E -e -F -f -N -n -k (and -q, -Q) into the
 * function sets the call graph applies.  A name matches as gprof users
 * expect: the symbol's own name, the name shown, a C++ name without its
 * parameter list (every overload), and gprof's FILE:NAME, NAME defined
 * in source file FILE.  A name that
 * matches nothing is an error that suggests the nearest names.
 */
#ifndef GMON2CG_SELECTION_H
#define GMON2CG_SELECTION_H

#include <stdbool.h>
#include <stddef.h>

#include "callgraph.h"
#include "options.h"
#include "propagate.h"

struct g2c_error;
struct object_lines;
struct symtab;

/* One object's functions, and its lines for FILE:NAME. */
struct selection_object {
	struct symtab *st;
	struct object_lines *lines;
};

struct selection {
	struct cg_selection sel;

	/* private */
	size_t *first_func;	/* per object: its first function's number */
	size_t nfuncs;		/* the call graph's functions */
	bool *sets[NSETS];
	struct cg_func_pair *arcs;	/* -k's, sorted */
	size_t narcs, arcs_cap;
	size_t *ends[2];	/* scratch: one -k's callers and callees */
	size_t nends[2], ends_cap[2];
	struct name_index *names;	/* per object, indexed on first use */
	size_t nobjs;
};

/* An object's function names, sorted (selection.c). */
struct name_index {
	struct name_entry *entries;
	size_t n;
	bool built;
};

/* Resolves O's selections against the functions of OBJS[0..N).  Returns
 * 0, or -1 with ERR set (a name that matches no function, out of
 * memory). */
int selection_build(struct selection *s, const struct options *o,
		    const struct selection_object *objs, size_t n,
		    struct g2c_error *err);

void selection_release(struct selection *s);

#endif
