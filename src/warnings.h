/* warnings.h -- the warnings and reports a run says besides its output.
 *
 * The stages return errors (diag.h); report.c words the causes of
 * warnings and the --stats and --summary reports, collected here during
 * the conversion, and the caller (main.c) prints them when it ends.
 */
#ifndef GMON2CG_WARNINGS_H
#define GMON2CG_WARNINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What a run says besides its output, the --stats and --summary reports
 * and the warnings, is printed only when the conversion succeeds: a
 * failed run says one line, its error (even when the failure comes last,
 * writing the output).  Each warning is said once, however many parts
 * of the profile give cause.  (A warning that finds no memory is lost.) */
struct warnings {
	char **lines;
	size_t n;
	bool sources_warned;	/* "none of the source files is here" */
	FILE *held;		/* the reports, into HELD_TEXT */
	char *held_text;
	size_t held_len;
};

/* Where reports go until the run ends: a stream held in memory, or
 * stderr itself if there is no memory for one. */
FILE *warnings_stream(struct warnings *w);

/* Prints the reports, then the warnings, on stderr when the run
 * SUCCEEDED, and frees them. */
void warnings_print(struct warnings *w, bool succeeded);

/* Frees what W holds, printing nothing. */
void warnings_release(struct warnings *w);

/* Adds a warning, said once however often it is added.  (One that finds
 * no memory is lost.) */
void warnings_add(struct warnings *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
