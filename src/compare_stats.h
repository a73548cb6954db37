/* compare_stats.h -- --compare's statistics: whether each row changed
 * beyond noise, which gate it crossed, and what the runs could not tell.
 *
 * Owns the reference each function's time is judged against (the
 * functions that moved with the program as a whole), the tests (through
 * noise.h) and their correction (Tarone's count, Holm's steps), and the
 * what-ifs of a time past a gate: the least change the runs could find,
 * and the runs a side that would find the gate's.  Takes the rows and
 * their samples as compare_match.c made them; reads and matches nothing.
 */
#ifndef GMON2CG_COMPARE_STATS_H
#define GMON2CG_COMPARE_STATS_H

#include <stddef.h>

#include "compare.h"
#include "compare_gates.h"
#include "compare_match.h"

/* Judges R's rows (means per profile, runs R->nprofiles), whose samples
 * are RS[0..R->nrows) and the sides' sample totals TOTAL, and the total:
 * the p-values, the changes, the first of GATES[0..NGATES) each crossed,
 * the inconclusive times.  Returns 0, or -1 when out of memory. */
int compare_judge_rows(struct compare_result *r, const struct row_samples *rs,
		       const double total[2], const struct compare_gate *gates,
		       size_t ngates, const struct compare_options *o);

#endif
