/* main.c -- gmon2cg: convert gprof profiles to callgrind format.
 *
 * Acts on what the command line asks for (cli.h): --help, --version,
 * a conversion (convert.h, the library's call that runs its stages) or,
 * with --compare, the comparison and its reports (compare_run.h).  The
 * only place that prints errors or decides the exit status; the warnings
 * and reports a conversion collects (warnings.h) are printed from here
 * when it ends.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>

#if HAVE_MALLOC_H
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "compare_run.h"
#include "convert.h"
#include "diag.h"
#include "util.h"
#include "warnings.h"

/* Prints ERR, the one line of a run that failed; returns its status. */
static int fail_with(const struct g2c_error *err)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", PACKAGE_NAME, err->msg);
	return EXIT_DATA;
}

/* The stages allocate and free tables of megabytes in turn.  From the
 * heap, and not handed back, one's pages serve the next; mapped afresh,
 * each is faulted in and zeroed again (a quarter of the system time of
 * a large conversion).  Tables of over 8 MiB are mapped all the same:
 * kept, the largest (a histogram's bins, its positions) would stay
 * resident beside what comes after them, a quarter more peak memory
 * with every bin counted. */
static void reuse_freed_memory(void)
{
#if HAVE_MALLOPT && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
	mallopt(M_MMAP_THRESHOLD, 8 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

/* gmon2cg --compare OLD NEW: returns the exit status. */
static int run_comparison(const struct options *o)
{
	struct g2c_error err;
	bool gate_crossed;

	if (compare_run(o, &gate_crossed, &err) < 0)
		return fail_with(&err);
	return gate_crossed ? EXIT_GATE : EXIT_SUCCESS;
}

/* Prints what the command line asked for other than a conversion, or
 * why it cannot be parsed; returns the exit status. */
static int answer(enum options_action action, const struct options *o)
{
	switch (action) {
	case OPTIONS_HELP:
		options_write_help(stdout);
		return EXIT_SUCCESS;
	case OPTIONS_VERSION:
		options_write_version(stdout, o);
		return EXIT_SUCCESS;
	case OPTIONS_USAGE_ERROR:
		fflush(stdout);
		/* an option's value, echoed, cannot break the line */
		copy_printable(o->usage_error, o->usage_error, strlen(o->usage_error));
		fprintf(stderr, "%s: %s\nTry '%s --help' for more information.\n",
			PACKAGE_NAME, o->usage_error, PACKAGE_NAME);
		return EXIT_USAGE;
	default:
		fflush(stdout);
		fprintf(stderr, "%s: out of memory\n", PACKAGE_NAME);
		return EXIT_DATA;
	}
}

/* Descriptors 0-2 closed by the caller (prog 2>&-) would be handed to the
 * first files opened: libbfd would read the executable through fd 2 and
 * the output file would be fd 1, taking the messages meant for stderr
 * and stdout.  As GNU tools do, fill them with /dev/null first.  Returns
 * false if that cannot be done. */
static bool standard_descriptors_open(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
			return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	struct options o;
	struct warnings warnings = { 0 };
	struct g2c_error err;
	enum options_action action;
	int rc;

	if (!standard_descriptors_open())
		return EXIT_DATA;
	reuse_freed_memory();
	action = options_parse(argc, argv, &o);
	if (action != OPTIONS_CONVERT)
		rc = answer(action, &o);
	else if (o.compare)
		rc = run_comparison(&o);
	else {
		rc = convert_program(&o, &warnings, &err);
		warnings_print(&warnings, rc == 0);
		rc = rc < 0 ? fail_with(&err) : EXIT_SUCCESS;
	}
	options_release(&o);
	return rc;
}
