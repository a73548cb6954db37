/* attribution.h -- the samples, basic-block counts and arcs of each
 * object's profile credited to the object's functions, as gprof credits
 * them.
 *
 * The half of the call-graph stage that reads symbols, code and profiles:
 * histogram bins go to the functions (and instructions) whose bytes they
 * overlap, arcs to their caller, callee and call site (recovered from the
 * code), and every arc is checked against the code to tell whether the
 * profile belongs to the executable.  Fills the graph that
 * src/propagate.c then works on.
 */
#ifndef GMON2CG_ATTRIBUTION_H
#define GMON2CG_ATTRIBUTION_H

#include "callgraph.h"

struct g2c_error;

/* Fills CG's positions (cg->costs, each function's together as its
 * first_cost and ncosts say, in any order within), arcs and sites (sorted by
 * caller, callee and site), statistics, hz and each function's
 * ns_per_tick from the profiles of its objects, whose functions are
 * numbered and cg->funcs allocated already.  SEL's arc filters (-k)
 * drop arcs; with show_unused every function is used.  Returns 0, or -1
 * with ERR set. */
int attribute_profiles(struct callgraph *cg, const struct cg_selection *sel,
		       struct g2c_error *err);

/* Whether the profile plausibly belongs to the executable: returns NULL,
 * or a short reason why not (most samples or arcs in no function, arcs
 * that do not point at function entries or do not follow call
 * instructions, histograms outside the code). */
const char *attribute_misfit(const struct callgraph *cg);

#endif
