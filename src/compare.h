/* compare.h -- compare two sets of profiles: what changed beyond noise.
 *
 * The second stage of gmon2cg --compare, after callgrind_read: sums the
 * profiles of each side (repeated runs, each let go of once added), matches
 * functions by object, source file and name (a function gone on one side
 * and new on the other whose files differ only by a prefix, as in a
 * checkout in another directory, by its file's path suffix), and judges
 * each change.  Call counts are exact: with one run a side any change is
 * one; a count that varies between a side's runs (a program that seeds a
 * hash from the clock) has changed when the sides' ranges part beyond
 * chance (all the runs of one side below all of the other's).  Times are
 * sample counts, Poisson under the model (doc/guide/08-compare.md: "Change or noise"): a
 * function's self or inclusive time has changed when it moved against the
 * functions that moved with the program as a whole beyond its sampling
 * error (likelihood-ratio tests, Holm's correction over the tests that
 * could reach the level), or, for a function of over half the samples,
 * against the old run beyond the machine's noise.  Then the gates
 * (--fail-on) are checked, and the times past a gate that the runs could
 * not tell from noise are marked inconclusive.  compare.c runs these
 * stages in turn: compare_read.c reads, compare_match.c matches,
 * compare_stats.c judges; then it sorts the rows.  Writes nothing:
 * compare_report.c does.
 */
#ifndef GMON2CG_COMPARE_H
#define GMON2CG_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callgrind_read.h"

#include "compare_gates.h"

struct g2c_error;

struct compare_options {
	const char *const *files[2];	/* old, new */
	size_t nfiles[2];
	double alpha;		/* family-wise level of the tests */
	double min_time_ns;	/* times below this on both sides are not judged */
	double machine_noise;	/* how far the machine's speed moves a time
				 * between runs (0.2: 20 %) */
	const struct compare_gate *gates;	/* none: compare_default_gates */
	size_t ngates;
	bool show_all;		/* report rows without samples and changes too */
	bool new_graph;		/* keep the new side's calls (compare_result.graph) */
};

/* --machine-noise's default (percent): on a steady machine, sides of 10
 * runs of one build of Lua's interpreter loop (bench/compare-real.sh)
 * differed by at most 3.8 % in total time, single runs by 12 % (most of
 * it sampling noise); 10 % finds that loop 21 % slower in every draw of
 * 13 runs a side, and raised no false alarm there nor on a busy machine. */
#define COMPARE_MACHINE_NOISE 10

/* The most runs a side the report works out that a change needs. */
#define COMPARE_RUNS_MAX 1000
/* A time that moved past a gate further than noise would once in 20
 * times, but not beyond the level, is inconclusive. */
#define COMPARE_HINT_P 0.05


/* A function, or the whole program, on both sides: means per profile. */
struct compare_row {
	const char *object, *file, *name;	/* the total: name NULL */
	unsigned line;		/* its entry's line, the new side's; 0: none */
	double self[2], incl[2], calls[2];	/* ns, ns, calls; [0] old, [1] new */
	double calls_lo[2], calls_hi[2];	/* calls per run: a side's least, most */
	bool present[2];
	bool sampled;		/* a sample of self or inclusive time, a side */
	bool against_old;	/* over half the samples: judged against the old
				 * run with machine_noise, not the reference */
	double p_self, p_incl;	/* after Holm's correction; 1: not judged */
	double p_self_alone;	/* before it */
	/* The calls vary between a side's runs: changed only when the
	 * sides' ranges part, and p_calls (the chance of that, corrected
	 * with the times) is below the level; else 1. */
	bool calls_vary;
	double p_calls, p_calls_alone;	/* (before the correction) */
	bool self_changed, incl_changed, calls_changed;
	const struct compare_gate *failed;	/* the first gate crossed */
	/* Inconclusive: the self time moved past a gate, further than noise
	 * alone would move it more than once in 20 (p_self_alone < 0.05),
	 * but not beyond the level after the correction. */
	const struct compare_gate *inconclusive;	/* the gate */
	double detectable;	/* the least change the runs could find (+0.9:
				 * +90 %); INFINITY: none up to 1000x; also of
				 * a self time past a gate; else NAN */
	double moved;		/* the change against the reference */
	double change_for_runs;	/* the change (the gate's, or as moved) */
	unsigned runs_needed;	/* a side, to find it; 0: over RUNS_MAX */
};

/* Whether the function itself changed: its self time or its calls.  An
 * inclusive time alone changes with any callee's self time, in every
 * caller up to main: it is a change of its column, not of the function. */
static inline bool compare_row_changed(const struct compare_row *row)
{
	return row->self_changed || row->calls_changed;
}

/* Functions matched across checkouts: files OLD_PREFIX + rest on the
 * old side are NEW_PREFIX + rest on the new. */
struct compare_remap {
	char *old_prefix, *new_prefix;
	size_t nfns;		/* the functions matched so */
};

struct compare_result {
	struct compare_row *rows;	/* changed first, largest change first */
	size_t nrows;
	struct compare_row total;
	size_t ntests;		/* the p-values corrected for (Tarone's count) */
	size_t nuntestable;	/* times too few samples to ever reach the level */
	size_t nvarying;	/* rows whose calls vary, not changed */
	unsigned calls_runs_needed;	/* a side, for calls that vary to be
					 * told apart at the level of Holm's
					 * strictest step */
	size_t ninconclusive;
	size_t nchanged;	/* rows compare_row_changed() */
	size_t nfailed;		/* rows (and total) past a gate */
	unsigned nprofiles[2];
	uint32_t hz;		/* the first profile's rate; 0: none */
	struct callgrind_read_strings *strings;	/* the rows' names */
	struct compare_gate *defaults;	/* the gates used without --fail-on */
	struct compare_remap *remaps;
	size_t nremaps;
	/* With compare_options.new_graph: the new side's functions and
	 * calls, summed over its runs (callgrind_read_merge). */
	struct callgrind_read_profile graph;
};

/* Reads and compares the profiles O names.  Returns 0, or -1 with ERR set;
 * R is to be released either way. */
int compare_profiles(struct compare_result *r, const struct compare_options *o,
		     struct g2c_error *err);

void compare_release(struct compare_result *r);

#endif
