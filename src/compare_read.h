/* compare_read.h -- --compare's input: the profiles of both sides read,
 * two at a time on threads, and each added to the rows then let go of.
 *
 * Owns the reader threads and the order of the files (old side first);
 * what a profile adds to the rows is compare_match.c's.
 */
#ifndef GMON2CG_COMPARE_READ_H
#define GMON2CG_COMPARE_READ_H

#include "compare.h"
#include "compare_match.h"

struct g2c_error;

/* Reads the profiles O names and adds each to M; R takes each side's
 * number of profiles, the first profile's rate, the total time of each
 * side (R->total.self, summed), and, with O->new_graph, the new side's
 * calls; TOTAL[side] the sample totals.  Returns 0, or -1 with ERR set
 * (the first error in the files' order). */
int compare_read_runs(struct compare_result *r, struct matcher *m,
		      const struct compare_options *o, double total[2],
		      struct g2c_error *err);

#endif
