/* propagate.h -- gprof's time propagation over a bare call graph.
 *
 * Works on functions with self costs and arcs with counts alone (no
 * objects, symbols or code): finds the cycles (strongly connected
 * components, Tarjan's algorithm), inherits gprof's selections from
 * callers to callees, rounds costs to integer ns, propagates inclusive
 * cost from callees to callers in proportion to call counts, finds the
 * roots that get a pseudo caller, and splits each arc's cost over its
 * call sites.
 */
#ifndef GMON2CG_PROPAGATE_H
#define GMON2CG_PROPAGATE_H

#include <stdbool.h>
#include <stddef.h>

#include "callgraph.h"

/* gprof's selections (-E, -F, -e, -f), as sets of function numbers:
 * arrays of nfuncs flags, or NULL for the empty set; and -k's arcs, as
 * the pairs of function numbers it leaves out. */
struct cg_func_pair {
	size_t from, to;
};

struct cg_selection {
	const bool *excl_time;	/* -E: its time is not propagated */
	const bool *incl_time;	/* -F: only its time and its callees' is */
	const bool *excl_graph;	/* -e, -E: not shown */
	const bool *incl_graph;	/* -f, -F: only it and its callees are shown */
	const struct cg_func_pair *excl_arcs;	/* -k: arcs left out, sorted */
	size_t nexcl_arcs;
	bool show_unused;	/* -z: functions never called or sampled too */
};

struct g2c_error;

/* What propagate_graph sets besides the call graph's costs. */
enum propagate_extras {
	PROPAGATE_GRAPH_ONLY,
	/* each function's flat_child_ns too: gprof's flat profile's child
	 * time (--summary), which nothing else reads */
	PROPAGATE_FLAT_PROFILE,
};

/* Propagates time over the graph CG holds, CG_ATTRIBUTED (and leaves it
 * CG_PROPAGATED): cg->nfuncs zeroed functions (but for ns_per_tick, used
 * for functions to show without samples or arcs, and first_cost and
 * ncosts: each function's positions in cg->costs, in ticks, together, in
 * any order within), and cg->arcs sorted by
 * caller then callee, each with at least one site in cg->sites.  Sets
 * everything else of the functions, arcs, sites and roots, total_ns and
 * ncycles; the costs end up sorted by function and address, equal
 * positions merged.
 * SEL (never NULL) applies gprof's selections, to members of cycles
 * too; EXTRAS says whether the flat profile's child time is wanted.
 * Returns 0, or -1 with ERR set. */
int propagate_graph(struct callgraph *cg, const struct cg_selection *sel,
		    enum propagate_extras extras, struct g2c_error *err);

/* Finds the cycles of a graph that has its propagated costs already (one
 * read back from a callgrind file): CG's used functions and its arcs,
 * sorted by caller then callee.  Sets each function's cycle (numbered as
 * propagate_graph numbers them) and cg->ncycles.  Returns 0, or -1 with
 * ERR set. */
int propagate_find_cycles(struct callgraph *cg, struct g2c_error *err);

#endif
