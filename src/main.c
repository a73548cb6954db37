/* main.c -- gmon2cg: convert gprof profiles to callgrind format.
 *
 * Parses the command line and wires the stages together:
 * reader (gmon) -> resolver (symtab) -> call graph -> writer (callgrind).
 * The only place that prints diagnostics or decides the exit status.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"
#include "callgrind.h"
#include "diag.h"
#include "gmon.h"
#include "outstream.h"
#include "symtab.h"

enum { EXIT_DATA = 1, EXIT_USAGE = 2 };

/* gprof's fallback when a profile records no rate (old BSD layout). */
#define DEFAULT_RATE 100

struct options {
	const char *output;	/* NULL: stdout */
	const char *exe;
	char **gmon_files;
	int ngmon;
	bool demangle;
	bool gzip;
	bool force;
	bool parts;
	bool stats;
	uint32_t rate;		/* 0: from the profile */
};

static void usage(FILE *fp)
{
	fprintf(fp,
"Usage: %s [OPTION]... EXECUTABLE [GMON_FILE]...\n"
"Convert the gprof profile GMON_FILE (default gmon.out) of EXECUTABLE into a\n"
"callgrind-format profile for KCachegrind, QCachegrind or callgrind_annotate.\n"
"Several GMON_FILEs are summed, as gprof sums them.  GMON_FILEs may be\n"
"gzip-compressed.\n"
"\n"
"Output:\n"
"  -o, --output=FILE   write the profile to FILE instead of standard output;\n"
"                      FILE appears only when complete (\"-\": stdout)\n"
"  -z, --gzip          compress the output with gzip (implied when FILE ends\n"
"                      in .gz); callgrind_annotate cannot read it\n"
"      --parts         keep each GMON_FILE as a part of its own instead of\n"
"                      summing them (KCachegrind's Parts view)\n"
"      --no-demangle   show C++ names as they are in the symbol table\n"
"\n"
"Input:\n"
"      --rate=HZ       samples per second for profiles that do not record it\n"
"                      (old BSD layout; default %d)\n"
"      --force         convert even when the profile does not seem to belong\n"
"                      to EXECUTABLE\n"
"      --stats         print what was read, attributed and dropped on stderr\n"
"\n"
"  -h, --help          show this help and exit\n"
"  -V, --version       show version information and exit\n"
"\n"
"Costs are CPU time in nanoseconds (event \"ns\").  Self time, call counts and\n"
"inclusive time agree with gprof's flat profile and call graph.\n"
"\n"
"Exit status: 0 on success, 1 if an input is unreadable, invalid or does not\n"
"belong to EXECUTABLE, or the output cannot be written, 2 on a usage error.\n"
"\n"
"Report bugs to: %s\n", PACKAGE_NAME, DEFAULT_RATE, PACKAGE_BUGREPORT);
}

static void version(void)
{
	printf("%s %s\n"
	       "Copyright (C) 2026 the gmon2cg authors.\n"
	       "License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"
	       "This is free software: you are free to change and redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n",
	       PACKAGE_NAME, PACKAGE_VERSION);
}

static void bad_usage(const char *fmt, const char *arg)
{
	fflush(stdout);
	if (fmt) {
		fprintf(stderr, "%s: ", PACKAGE_NAME);
		fprintf(stderr, fmt, arg);
		fputc('\n', stderr);
	}
	fprintf(stderr, "Try '%s --help' for more information.\n", PACKAGE_NAME);
	exit(EXIT_USAGE);
}

static uint32_t parse_rate(const char *arg)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || v == 0 || v > UINT32_MAX ||
	    arg[0] == '-')
		bad_usage("invalid rate '%s': a whole number of samples per second is needed", arg);
	return (uint32_t)v;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void parse_options(int argc, char **argv, struct options *o)
{
	enum { OPT_NO_DEMANGLE = 256, OPT_FORCE, OPT_PARTS, OPT_RATE,
	       OPT_STATS };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "gzip", no_argument, NULL, 'z' },
		{ "parts", no_argument, NULL, OPT_PARTS },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		{ "rate", required_argument, NULL, OPT_RATE },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static char *default_gmon[] = { "gmon.out" };
	int c;

	o->demangle = true;
	while ((c = getopt_long(argc, argv, "o:zhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case 'z':
			o->gzip = true;
			break;
		case OPT_PARTS:
			o->parts = true;
			break;
		case OPT_NO_DEMANGLE:
			o->demangle = false;
			break;
		case OPT_RATE:
			o->rate = parse_rate(optarg);
			break;
		case OPT_FORCE:
			o->force = true;
			break;
		case OPT_STATS:
			o->stats = true;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_SUCCESS);
		case 'V':
			version();
			exit(EXIT_SUCCESS);
		default:
			bad_usage(NULL, NULL);
		}
	}
	if (optind >= argc)
		bad_usage("%s", "missing EXECUTABLE operand");
	o->exe = argv[optind++];
	o->gmon_files = optind < argc ? &argv[optind] : default_gmon;
	o->ngmon = optind < argc ? argc - optind : 1;
	if (o->output && ends_with(o->output, ".gz"))
		o->gzip = true;
}

static void print_stats(const struct callgraph *cg, const char *what)
{
	const struct cg_stats *s = &cg->stats;
	size_t written = 0;

	for (size_t f = 0; f < cg->nfuncs; f++)
		written += cg->funcs[f].used;
	fflush(stdout);
	fprintf(stderr, "%s: stats: %s\n", PACKAGE_NAME, what);
	fprintf(stderr, "%s: stats: samples: %" PRIu64 " at %" PRIu32 " Hz;"
		" in functions %.3f, in no function %.3f, in the mcount family"
		" (left out) %.3f\n", PACKAGE_NAME, s->samples, cg->hz,
		(double)s->samples - s->unattributed_ticks - s->excluded_ticks,
		s->unattributed_ticks, s->excluded_ticks);
	fprintf(stderr, "%s: stats: functions: %zu in the executable, %zu"
		" written; cycles: %u\n", PACKAGE_NAME, cg->nfuncs - 1, written,
		cg->ncycles);
	fprintf(stderr, "%s: stats: call arcs: %" PRIu64 " records; %zu arcs"
		" at %zu call sites; dropped: %" PRIu64 " with an end in no"
		" function, %" PRIu64 " into or out of the mcount family\n",
		PACKAGE_NAME, s->arcs_read, cg->narcs, cg->nsites,
		s->arcs_unresolved, s->arcs_excluded);
	if (cg->has_executions || s->blocks_unresolved)
		fprintf(stderr, "%s: stats: basic blocks: %" PRIu64 " executions;"
			" dropped: %" PRIu64 " blocks in no function\n",
			PACKAGE_NAME, cg->total_executions, s->blocks_unresolved);
}

static int report(const struct g2c_error *err)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", PACKAGE_NAME, err->msg);
	return EXIT_DATA;
}

/* Reads FILES[0..N) into one profile, builds its call graph and writes it
 * as PART (0: the only part). */
static int convert(const struct options *o, struct symtab *st, char **files,
		   int n, unsigned part, struct outstream *os,
		   struct g2c_error *err)
{
	struct gmon_profile prof;
	struct callgraph cg;
	struct callgrind_info info = { .dimen = "seconds", .part = part,
				       .source = files[0],
				       .nsources = (unsigned)n };
	const char *misfit;
	int rc = -1;

	gmon_profile_init(&prof);
	for (int i = 0; i < n; i++)
		if (gmon_profile_add_file(&prof, &st->target, files[i], err) < 0)
			goto out;
	if (prof.nhists > 0)
		info.dimen = prof.hists[0].dimen;
	info.rate_assumed = prof.nhists > 0 && prof.hists[0].rate == 0;
	if (callgraph_build(&cg, &prof, st,
			    gmon_profile_rate(&prof, o->rate ? o->rate
							     : DEFAULT_RATE),
			    err) < 0)
		goto out;
	if (o->stats)
		print_stats(&cg, files[0]);
	misfit = callgraph_misfit(&cg);
	if (misfit && !o->force) {
		g2c_error_set(err, "%s%s: does not belong to %s: %s (--force converts anyway)",
			      files[0], n > 1 ? " and the other profiles" : "",
			      o->exe, misfit);
	} else {
		rc = callgrind_write(&cg, st, &info, os, err);
	}
	callgraph_release(&cg);
out:
	gmon_profile_release(&prof);
	return rc;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct symtab st;
	struct outstream os;
	struct g2c_error err;
	int rc = 0;

	parse_options(argc, argv, &o);
	if (symtab_open(&st, o.exe, &(struct symtab_options){ o.demangle },
			&err) < 0)
		return report(&err);
	if (outstream_open(&os, o.output, o.gzip, &err) < 0) {
		symtab_close(&st);
		return report(&err);
	}
	if (o.parts) {
		for (int i = 0; i < o.ngmon && rc == 0; i++)
			rc = convert(&o, &st, &o.gmon_files[i], 1,
				     (unsigned)i + 1, &os, &err);
	} else {
		rc = convert(&o, &st, o.gmon_files, o.ngmon, 0, &os, &err);
	}
	if (rc < 0)
		outstream_discard(&os);
	else
		rc = outstream_close(&os, &err);
	symtab_close(&st);
	return rc < 0 ? report(&err) : EXIT_SUCCESS;
}
