/* cli.h -- gmon2cg's command line.
 *
 * Part of the command-line layer (with main.c): parses the arguments
 * into struct options (options.h), writes --help and --version, and
 * refuses gprof's report options with a pointer to what does the job
 * here.  It says what to do; main.c prints and decides the exit status.
 */
#ifndef GMON2CG_CLI_H
#define GMON2CG_CLI_H

#include <stdio.h>

#include "options.h"

/* EXIT_GATE: gmon2cg --compare found a change past a --fail-on gate. */
enum { EXIT_DATA = 1, EXIT_USAGE = 2, EXIT_GATE = 3 };

/* What the command line asks for. */
enum options_action {
	OPTIONS_CONVERT,	/* the conversion (or with compare, the
				 * comparison) struct options describes */
	OPTIONS_HELP,		/* options_write_help() */
	OPTIONS_VERSION,	/* options_write_version() */
	OPTIONS_USAGE_ERROR,	/* usage_error says what; exit status 2 */
	OPTIONS_OUT_OF_MEMORY,
};

/* Parses ARGV into O and says what to do.  O is to be released whatever
 * the answer. */
enum options_action options_parse(int argc, char **argv, struct options *o);

void options_write_help(FILE *fp);
void options_write_version(FILE *fp, const struct options *o);

void options_release(struct options *o);

#endif
