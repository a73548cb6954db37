/* compare_run.c -- the comparison and its reports (compare_run.h). */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_forge.h"
#include "compare_report.h"
#include "compare_run.h"
#include "compare_svg.h"
#include "diag.h"
#include "options.h"
#include "outstream.h"

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

/* The report files O asks for, each written whole or not at all. */
static int write_report_files(const struct options *o,
			      const struct compare_result *r,
			      const struct compare_options *co,
			      struct g2c_error *err)
{
	const struct {
		const char *path;
		bool gzip;
		struct report_writer w;
	} files[] = {
		{ o->junit, false, { compare_write_junit, NULL } },
		{ o->markdown, false, { compare_write_markdown, NULL } },
		{ o->codequality, false, { compare_write_codequality, NULL } },
		{ o->svg, false, { NULL, compare_write_svg } },
		{ o->output, o->gzip, { compare_write_callgrind, NULL } },
	};

	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		if (files[i].path &&
		    write_report_file(files[i].path, files[i].gzip, r, co,
				      files[i].w, err) < 0)
			return -1;
	return 0;
}

/* The text report: on stdout, or on stderr when a file goes there (the
 * report is then a log); then GitHub's workflow commands on stdout. */
static int write_text_report(const struct options *o,
			     const struct compare_result *r,
			     const struct compare_options *co,
			     struct g2c_error *err)
{
	FILE *fp = outstream_names_stdout(o->output) || outstream_names_stdout(o->junit) ||
		   outstream_names_stdout(o->markdown) ||
		   outstream_names_stdout(o->codequality) ||
		   outstream_names_stdout(o->svg) ? stderr : stdout;
	struct outstream os;

	compare_write_text(fp, r, co);
	if (fflush(fp) != 0 || ferror(fp))
		return g2c_error_set(err, "%s: write error: %s",
				     fp == stdout ? "stdout" : "stderr", strerror(errno));
	if (!o->annotations)
		return 0;
	outstream_from_file(&os, stdout, "stdout");
	compare_write_github(&os, r, co);
	return outstream_close(&os, err);
}

int compare_run(const struct options *o, bool *gate_crossed,
		struct g2c_error *err)
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
	int rc;

	/* (the command line asks for both; a caller of the library may not) */
	if (co.nfiles[0] == 0 || co.nfiles[1] == 0)
		return g2c_error_set(err, "--compare needs a profile on each side");
	rc = compare_profiles(&r, &co, err);

	if (rc == 0)
		rc = write_report_files(o, &r, &co, err);
	if (rc == 0)
		rc = write_text_report(o, &r, &co, err);
	*gate_crossed = rc == 0 && r.nfailed > 0;
	compare_release(&r);
	return rc;
}
