/* compare_forge.h -- --compare's verdict where a forge shows it.
 *
 * Beside the text report and JUnit XML (compare_report.c), the reports a
 * pull or merge request shows: GitHub's workflow commands (an ::error
 * annotation for a function past a gate, a ::warning for one changed
 * beyond noise, a ::notice for an inconclusive one, each on the
 * function's first line in the pull request's diff), a Markdown summary
 * for $GITHUB_STEP_SUMMARY (the verdict, a table of the changed
 * functions, the inconclusive ones with the change the runs could find),
 * and GitLab's Code Quality report (its documented subset of Code
 * Climate's JSON), whose fingerprints depend only on the finding
 * (function, file, check), so that GitLab tells a new one from a fixed
 * one across runs.  Source paths are the checkout's: the longest suffix
 * of whole components of a profile's path that names a file under the
 * current directory (the checkout, where a CI job runs).
 */
#ifndef GMON2CG_COMPARE_FORGE_H
#define GMON2CG_COMPARE_FORGE_H

#include "compare.h"
#include "outstream.h"

/* GitHub's workflow commands, one a line, to OS. */
void compare_write_github(struct outstream *os, const struct compare_result *r,
			  const struct compare_options *o);

/* The Markdown summary, to OS. */
void compare_write_markdown(struct outstream *os, const struct compare_result *r,
			    const struct compare_options *o);

/* GitLab's Code Quality report (a JSON array), to OS. */
void compare_write_codequality(struct outstream *os,
			       const struct compare_result *r,
			       const struct compare_options *o);

#endif
