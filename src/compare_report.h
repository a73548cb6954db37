/* compare_report.h -- what gmon2cg --compare writes.
 *
 * The last stage of a comparison: the report for build logs (80 columns,
 * changes first, then the inconclusive; without --all, not the functions
 * with no sample and no change of calls), a JUnit XML file (one test case
 * per function, failed when it crosses a gate, skipped when inconclusive:
 * Jenkins and GitLab show it as test results) and a callgrind file of the
 * comparison for KCachegrind (events Old, New, Slower and Faster:
 * callgrind costs cannot be negative).  Names are an object file's bytes:
 * the report and the XML write a control character or a byte that is not
 * of a UTF-8 character as \xHH.
 */
#ifndef GMON2CG_COMPARE_REPORT_H
#define GMON2CG_COMPARE_REPORT_H

#include <stdio.h>

#include "compare.h"
#include "outstream.h"

struct g2c_error;

/* The report's words and numbers, for the forges' reports too
 * (compare_forge.c).  A time NS with its unit, in at most 7 characters. */
void compare_format_time(char *buf, size_t n, double ns);
/* The relative change from OLD to NEW, and "*" when CHANGED (else " "). */
void compare_format_change(char *buf, size_t n, double old, double new,
			   bool changed);
/* A count, exact: a whole number as it is, a mean of runs to a tenth. */
void compare_format_count(char *buf, size_t n, double v);
/* The change of a count from OLD to NEW, and MARK after it. */
void compare_format_count_change(char *buf, size_t n, double old, double new,
				 const char *mark);
/* What crossed ROW's gate (row->failed), in words: "self time 11.0s ->
 * 14.3s (+30.0%) crosses --fail-on=self:+0%; beyond noise at p = ...". */
void compare_describe_failure(char *buf, size_t n, const struct compare_row *row,
			      const struct compare_result *r);
/* Why ROW is inconclusive, and what would tell. */
void compare_describe_inconclusive(char *buf, size_t n, const struct compare_row *row,
				   const struct compare_options *o);

/* The report on FP: the total, then every function, changes first. */
void compare_write_text(FILE *fp, const struct compare_result *r,
			const struct compare_options *o);

/* The JUnit XML report, to OS. */
void compare_write_junit(struct outstream *os, const struct compare_result *r,
			 const struct compare_options *o);

/* The comparison as a callgrind file, to OS. */
void compare_write_callgrind(struct outstream *os,
			     const struct compare_result *r,
			     const struct compare_options *o);

#endif
