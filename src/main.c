/* main.c -- gmon2cg: convert gprof profiles to callgrind format.
 *
 * Acts on what the command line asks for (options): --help, --version,
 * a conversion (convert.c runs its stages) or, with --compare, the
 * comparison (compare) and its reports (compare_report).  The only place
 * that prints errors or decides the exit status; warnings and reports
 * are report.c's.
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

#include "compare.h"
#include "compare_forge.h"
#include "compare_report.h"
#include "compare_svg.h"
#include "convert.h"
#include "diag.h"
#include "options.h"
#include "outstream.h"
#include "warnings.h"
#include "util.h"

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

/* A report's writer: WRITE, or CHECKED, which can run out of memory. */
struct report_writer {
	void (*write)(struct outstream *, const struct compare_result *,
		      const struct compare_options *);
	int (*checked)(struct outstream *, const struct compare_result *,
		       const struct compare_options *, struct g2c_error *);
};

/* Writes a report of the comparison R into the file PATH with W,
 * unless PATH is one of the profiles compared. */
static int write_report_file(const char *path, bool gzip,
			     const struct compare_result *r,
			     const struct compare_options *co,
			     struct report_writer w, struct g2c_error *err)
{
	size_t n = co->nfiles[0] + co->nfiles[1];
	const char **inputs = calloc(n, sizeof *inputs);
	struct outstream os;
	int rc = -1;

	if (!inputs)
		return g2c_error_set(err, "out of memory");
	for (size_t i = 0; i < n; i++)
		inputs[i] = i < co->nfiles[0] ? co->files[0][i] : co->files[1][i - co->nfiles[0]];
	if (outstream_check_inputs(path, inputs, n, err) == 0 &&
	    outstream_open(&os, path, gzip, err) == 0) {
		if (!w.write && w.checked(&os, r, co, err) < 0)
			outstream_discard(&os);	/* (no part of a file appears) */
		else {
			if (w.write)
				w.write(&os, r, co);
			rc = outstream_close(&os, err);
		}
	}
	free(inputs);
	return rc;
}

/* GitHub's workflow commands on stdout, after the report. */
static int write_annotations(const struct compare_result *r,
			     const struct compare_options *co, struct g2c_error *err)
{
	struct outstream os;

	outstream_from_file(&os, stdout, "stdout");
	compare_write_github(&os, r, co);
	return outstream_close(&os, err);
}

/* gmon2cg --compare OLD NEW: returns the exit status. */
static int run_comparison(const struct options *o)
{
	struct compare_options co = {
		.files = { o->compare_files[0].names, o->compare_files[1].names },
		.nfiles = { o->compare_files[0].n, o->compare_files[1].n },
		.alpha = o->alpha, .min_time_ns = o->min_time_ns,
		.machine_noise = o->machine_noise / 100,
		.gates = o->gates, .ngates = o->ngates, .show_all = o->show_all,
		.new_graph = o->svg != NULL,
	};
	struct compare_result r;
	struct g2c_error err;
	int rc = compare_profiles(&r, &co, &err);

	if (rc == 0 && o->junit)
		rc = write_report_file(o->junit, false, &r, &co,
				       (struct report_writer){ compare_write_junit, NULL }, &err);
	if (rc == 0 && o->markdown)
		rc = write_report_file(o->markdown, false, &r, &co,
				       (struct report_writer){ compare_write_markdown, NULL }, &err);
	if (rc == 0 && o->codequality)
		rc = write_report_file(o->codequality, false, &r, &co,
				       (struct report_writer){ compare_write_codequality, NULL },
				       &err);
	if (rc == 0 && o->svg)
		rc = write_report_file(o->svg, false, &r, &co,
				       (struct report_writer){ NULL, compare_write_svg }, &err);
	if (rc == 0 && o->output)
		rc = write_report_file(o->output, o->gzip, &r, &co,
				       (struct report_writer){ compare_write_callgrind, NULL },
				       &err);
	if (rc == 0) {
		/* (with a file on stdout, the report is a log: stderr) */
		FILE *fp = names_stdout(o->output) || names_stdout(o->junit) ||
			   names_stdout(o->markdown) || names_stdout(o->codequality) ||
			   names_stdout(o->svg) ?
			   stderr : stdout;

		compare_write_text(fp, &r, &co);
		if (fflush(fp) != 0 || ferror(fp)) {
			g2c_error_set(&err, "%s: write error: %s",
				      fp == stdout ? "stdout" : "stderr", strerror(errno));
			rc = fail_with(&err);
		} else if (o->annotations && write_annotations(&r, &co, &err) < 0) {
			rc = fail_with(&err);
		} else
			rc = r.nfailed ? EXIT_GATE : EXIT_SUCCESS;
	} else {
		rc = fail_with(&err);
	}
	compare_release(&r);
	return rc;
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
