/* report.h -- what gmon2cg says on stderr besides errors: --stats, the
 * statistics of a conversion, and --summary, gprof's flat profile of
 * the functions with the most self time, for build logs.
 *
 * Part of the command-line layer: it prints.
 */
#ifndef GMON2CG_REPORT_H
#define GMON2CG_REPORT_H

#include <stdio.h>

#include "callgraph.h"
#include "gmon.h"
#include "program.h"

/* --stats: what was read from the profiles PROFS[k] of PROG's objects
 * (the executable's: FILES[0..N) when FILES is not NULL), attributed and
 * dropped. */
void report_stats(FILE *fp, const struct callgraph *cg,
		  const struct program *prog, const struct gmon_profile *profs,
		  const char **files, size_t n);

/* --summary: gprof's flat profile of the ROWS functions with the most
 * self time, ordered as gprof orders it, in at most 80 columns. */
void report_summary(FILE *fp, const struct callgraph *cg, unsigned rows);

#endif
