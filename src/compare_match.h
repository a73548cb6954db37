/* compare_match.h -- --compare's rows: each function of the profiles
 * added to the row of its object, source file and name, summed over a
 * side's runs.
 *
 * Owns the rows while they are made, their samples (the sums the tests
 * take) and the matching of the functions a checkout in another
 * directory names with another prefix (by their files' path suffix).
 * Reads no files (it is handed each profile) and judges nothing (the
 * tests take its rows' samples).
 */
#ifndef GMON2CG_COMPARE_MATCH_H
#define GMON2CG_COMPARE_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "callgrind_read.h"
#include "compare.h"
#include "hashindex.h"

/* The sums of a row, for the tests: samples on each side. */
struct row_samples {
	double self[2], incl[2];
	double calls[2];	/* summed, exact below 2^53 */
	/* calls per run: the least and the most of a side's runs, and the
	 * runs that had the function (kept as the runs are added, so that
	 * memory does not grow with them) */
	double calls_lo[2], calls_hi[2];
	unsigned calls_runs[2];
	double run_calls;	/* the calls of the run being added, */
	unsigned run;		/* its number (from 1; 0: none) */
	int run_side;		/* and side */
};

/* The rows being made; zeroed, with STRINGS set, before the first
 * profile. */
struct matcher {
	struct compare_row *rows;
	struct row_samples *samples;	/* per row */
	size_t nrows;
	struct callgrind_read_strings *strings;	/* the rows' names */

	/* private */
	size_t cap;
	struct hash_index index;	/* of rows, by identity_hash */
	const char *last_file;	/* the file hashed last, and its hash: */
	uint64_t last_file_hash;	/* a file's functions come together */
	unsigned run;		/* the profile being added, from 1 */
};

/* Adds each function of the profile P, of side SIDE (0 old, 1 new), to
 * its row; P may be let go of then (the rows keep copies of its names).
 * Returns 0, or -1 when out of memory. */
int match_add_profile(struct matcher *m, const struct callgrind_read_profile *p,
		      int side);

/* After the last profile, K[side] of them: ends the last run of every
 * row; a side with runs that had no such function had a run of 0
 * calls. */
void match_end_runs(struct matcher *m, const unsigned k[2]);

/* Matches the functions gone on one side and new on the other whose
 * files differ only by their prefix, records the prefixes in R's remaps
 * and drops the rows merged away.  Returns 0, or -1 when out of memory. */
int match_moved_files(struct compare_result *r, struct matcher *m);

/* Frees M's rows, samples and index (NULL rows: taken by the caller). */
void match_release(struct matcher *m);

#endif
