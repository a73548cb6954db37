/* main.c -- gmon2cg: convert gprof profiles to callgrind format.
 *
 * Parses the command line and wires the stages together:
 * reader (gmon) -> resolver (symtab) -> call graph -> writer (callgrind).
 * The only place that prints diagnostics or decides the exit status.
 */
#include <config.h>

#include <getopt.h>
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

struct options {
	const char *output;	/* NULL: stdout */
	const char *exe;
	char **gmon_files;
	int ngmon;
	bool demangle;
};

static void usage(FILE *fp)
{
	fprintf(fp,
"Usage: %s [OPTION]... EXECUTABLE [GMON_FILE]...\n"
"Convert the gprof profile GMON_FILE (default gmon.out) of EXECUTABLE into a\n"
"callgrind-format profile for KCachegrind, QCachegrind or callgrind_annotate.\n"
"Several GMON_FILEs are summed, as gprof sums them.\n"
"\n"
"  -o, --output=FILE   write the profile to FILE instead of standard output;\n"
"                      FILE appears only when complete\n"
"      --no-demangle   show C++ names as they are in the symbol table\n"
"  -h, --help          show this help and exit\n"
"  -V, --version       show version information and exit\n"
"\n"
"Costs are CPU time in nanoseconds (event \"ns\").  Self time, call counts and\n"
"inclusive time agree with gprof's flat profile and call graph.\n"
"\n"
"Exit status: 0 on success, 1 if an input is unreadable or invalid or the\n"
"output cannot be written, 2 on a usage error.\n"
"\n"
"Report bugs to: %s\n", PACKAGE_NAME, PACKAGE_BUGREPORT);
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

static void bad_usage(const char *msg)
{
	fflush(stdout);
	if (msg)
		fprintf(stderr, "%s: %s\n", PACKAGE_NAME, msg);
	fprintf(stderr, "Try '%s --help' for more information.\n", PACKAGE_NAME);
	exit(EXIT_USAGE);
}

static void parse_options(int argc, char **argv, struct options *o)
{
	enum { OPT_NO_DEMANGLE = 256 };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static char *default_gmon[] = { "gmon.out" };
	int c;

	o->demangle = true;
	while ((c = getopt_long(argc, argv, "o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case OPT_NO_DEMANGLE:
			o->demangle = false;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_SUCCESS);
		case 'V':
			version();
			exit(EXIT_SUCCESS);
		default:
			bad_usage(NULL);
		}
	}
	if (optind >= argc)
		bad_usage("missing EXECUTABLE operand");
	o->exe = argv[optind++];
	o->gmon_files = optind < argc ? &argv[optind] : default_gmon;
	o->ngmon = optind < argc ? argc - optind : 1;
}

static int fail(const struct g2c_error *err)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", PACKAGE_NAME, err->msg);
	return EXIT_DATA;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct symtab st;
	struct gmon_profile prof;
	struct callgraph cg;
	struct outstream os;
	struct g2c_error err;
	struct callgrind_info info = { "seconds" };
	uint32_t hz = 0;
	int status = EXIT_DATA;

	parse_options(argc, argv, &o);
	if (symtab_open(&st, o.exe, &(struct symtab_options){ o.demangle },
			&err) < 0)
		return fail(&err);
	gmon_profile_init(&prof);
	for (int i = 0; i < o.ngmon; i++)
		if (gmon_profile_add_file(&prof, &st.target, o.gmon_files[i],
					  &err) < 0)
			goto out_prof;
	if (prof.nhists > 0)
		info.dimen = prof.hists[0].dimen;
	/* Old BSD files record no rate; gprof would use this host's, 100. */
	hz = gmon_profile_rate(&prof, 100);
	if (callgraph_build(&cg, &prof, &st, hz, &err) < 0)
		goto out_prof;
	if (outstream_open(&os, o.output, false, &err) < 0)
		goto out_cg;
	if (callgrind_write(&cg, &st, &info, &os, &err) < 0) {
		outstream_discard(&os);
		goto out_cg;
	}
	if (outstream_close(&os, &err) < 0)
		goto out_cg;
	status = EXIT_SUCCESS;
out_cg:
	callgraph_release(&cg);
out_prof:
	gmon_profile_release(&prof);
	symtab_close(&st);
	if (status != EXIT_SUCCESS)
		fail(&err);
	return status;
}
