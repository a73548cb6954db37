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
#include "propagate.h"

struct g2c_error;
struct gmon_profile;
struct machine_code;

/* What attribution reads of one of the graph's objects besides its
 * symbols: not graph data, nothing after attribution reads it. */
struct attribution_input {
	struct machine_code *code;	/* its instructions; NULL: positions
					   stay bins */
	const struct gmon_profile *prof;	/* NULL: nothing profiled */
	uint32_t hz;		/* the profile's samples per second */
};

/* What attribution met on the way, for --stats, the warnings and the
 * check that the profile belongs to the program. */
struct attribution_stats {
	double excluded_ticks;		/* in the mcount family */
	double unattributed_ticks;	/* in no function */
	double never_ran_ticks;		/* that a split over every function
					   in their bins would have given to
					   functions that never ran */
	uint64_t blocks_unresolved;	/* basic blocks in no function */
	uint64_t arcs_read;		/* records with a non-zero count */
	uint64_t arcs_unresolved;	/* an end in no function */
	uint64_t arcs_excluded;		/* an end in the mcount family */
	uint64_t arcs_deselected;	/* left out by -k */
	/* Resolved records whose callee address is far from the callee's
	 * entry, where mcount is called from: a sign of the wrong executable. */
	uint64_t arcs_far_from_entry;
	/* Arcs checked against the decoded code, and those whose addresses
	 * do not follow call instructions: a program rebuilt after
	 * profiling, or another program's profile. */
	uint64_t arcs_checked, arcs_not_after_call;
	/* Records gprof -s wrote (self_pc the callee's entry, where no
	 * mcount call returns): not checked, their call sites unknown. */
	uint64_t arcs_summed;
	size_t hists, hists_outside;	/* histograms; those covering no function */
};

/* Fills CG's positions (cg->costs, in ticks, CG becoming CG_ATTRIBUTED;
 * each function's together as its first_cost and ncosts say, in any
 * order within), arcs and sites (sorted by caller, callee and site),
 * samples, hz and each function's ns_per_tick from IN[o], the code and
 * profile of its object cg->objs[o], whose functions are numbered and
 * cg->funcs allocated already.  SEL's arc filters (-k)
 * drop arcs; with show_unused every function is used.  Counts into
 * *STATS (zeroed by the caller).  Returns 0, or -1 with ERR set. */
int attribute_profiles(struct callgraph *cg,
		       const struct attribution_input *in,
		       const struct cg_selection *sel,
		       struct attribution_stats *stats, struct g2c_error *err);

/* Whether the profile plausibly belongs to the executable: returns NULL,
 * or a short reason why not (most samples or arcs in no function, arcs
 * that do not point at function entries or do not follow call
 * instructions, histograms outside the code). */
const char *attribute_misfit(const struct callgraph *cg,
			     const struct attribution_stats *stats);

#endif
