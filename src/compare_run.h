/* compare_run.h -- gmon2cg --compare OLD NEW as one call: the runs of
 * both sides compared (compare.h) and every report asked for written
 * (compare_report.h, compare_forge.h, compare_svg.h): the files named
 * by --junit, --markdown, --codequality, --svg and -o, then the text
 * report, then GitHub's annotations on stdout.
 */
#ifndef GMON2CG_COMPARE_RUN_H
#define GMON2CG_COMPARE_RUN_H

#include <stdbool.h>

struct g2c_error;
struct options;

/* Compares the profiles O names and writes its reports.  Sets
 * *GATE_CROSSED when a change passed a --fail-on gate.  Returns 0, or -1
 * with ERR set; a report file that was not complete does not appear. */
int compare_run(const struct options *o, bool *gate_crossed,
		struct g2c_error *err);

#endif
