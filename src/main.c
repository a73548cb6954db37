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

/* gprof's function sets, filled from -e -E -f -F -n -N. */
enum { SET_EXCL_TIME, SET_INCL_TIME, SET_EXCL_GRAPH, SET_INCL_GRAPH, NSETS };

struct name_list {
	const char **names;
	size_t n;
};

struct options {
	const char *output;	/* NULL: stdout */
	const char *exe;
	char **gmon_files;
	int ngmon;
	bool demangle;
	const char *debug_dir;
	bool no_inline;
	bool no_instr;
	bool gzip;
	bool force;
	bool parts;
	bool stats;
	uint32_t rate;		/* 0: from the profile */
	bool no_statics;
	struct name_list sets[NSETS];
	struct name_list drop_arcs;	/* "FROM/TO" */
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
"      --no-inline     show code inlined from other files at the line that\n"
"                      inlined it, not at its own file and line\n"
"      --no-instr      write source lines only, no instruction addresses\n"
"                      (\"positions: line\"), for viewers that read no more,\n"
"                      such as speedscope; KCachegrind then has no Machine\n"
"                      Code view\n"
"\n"
"Input:\n"
"      --rate=HZ       samples per second for profiles that do not record it\n"
"                      (old BSD layout; default %d)\n"
"      --debug-dir=DIR where to look for a stripped EXECUTABLE's separate\n"
"                      debug file (build-id or .gnu_debuglink; beside the\n"
"                      executable first; default /usr/lib/debug)\n"
"\n"
"Selection (gprof's options, same meaning; NAME is a function's name):\n"
"  -E, --exclude=NAME    leave NAME out of the graph and its time out of the\n"
"                        propagation\n"
"  -e, --no-graph=NAME   leave NAME out of the graph\n"
"  -F, --only=NAME       only NAME and its callees, and only their time\n"
"  -f, --graph=NAME      only NAME and its callees in the graph\n"
"  -N, --no-time=NAME    do not propagate NAME's time\n"
"  -n, --time=NAME       propagate only NAME's time (and its callees')\n"
"  -k, --drop-arc=FROM/TO  leave out the calls from FROM to TO\n"
"  -a, --no-static     leave out static functions (their time goes to the\n"
"                      function before them)\n"
"  Each may be given several times.  Costs then follow gprof's call graph:\n"
"  self and inclusive time count only the share gprof propagates.\n"
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

static void add_name(struct name_list *list, const char *name)
{
	const char **names = realloc(list->names, (list->n + 1) * sizeof *names);

	if (!names) {
		fprintf(stderr, "%s: out of memory\n", PACKAGE_NAME);
		exit(EXIT_DATA);
	}
	names[list->n++] = name;
	list->names = names;
}

static void parse_options(int argc, char **argv, struct options *o)
{
	enum { OPT_NO_DEMANGLE = 256, OPT_NO_INLINE, OPT_NO_INSTR, OPT_DEBUG_DIR, OPT_FORCE,
	       OPT_PARTS, OPT_RATE, OPT_STATS };
	/* Which sets each selection option adds its NAME to. */
	static const struct { char opt; int set1, set2; } selections[] = {
		{ 'E', SET_EXCL_GRAPH, SET_EXCL_TIME },
		{ 'e', SET_EXCL_GRAPH, -1 },
		{ 'F', SET_INCL_GRAPH, SET_INCL_TIME },
		{ 'f', SET_INCL_GRAPH, -1 },
		{ 'N', SET_EXCL_TIME, -1 },
		{ 'n', SET_INCL_TIME, -1 },
	};
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "gzip", no_argument, NULL, 'z' },
		{ "parts", no_argument, NULL, OPT_PARTS },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
		{ "no-instr", no_argument, NULL, OPT_NO_INSTR },
		{ "debug-dir", required_argument, NULL, OPT_DEBUG_DIR },
		{ "rate", required_argument, NULL, OPT_RATE },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "exclude", required_argument, NULL, 'E' },
		{ "no-graph", required_argument, NULL, 'e' },
		{ "only", required_argument, NULL, 'F' },
		{ "graph", required_argument, NULL, 'f' },
		{ "no-time", required_argument, NULL, 'N' },
		{ "time", required_argument, NULL, 'n' },
		{ "drop-arc", required_argument, NULL, 'k' },
		{ "no-static", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static char *default_gmon[] = { "gmon.out" };
	int c;

	o->demangle = true;
	while ((c = getopt_long(argc, argv, "o:zE:e:F:f:N:n:k:ahV", longopts,
				NULL)) != -1) {
		for (size_t i = 0; i < sizeof selections / sizeof *selections; i++) {
			if (selections[i].opt != c)
				continue;
			add_name(&o->sets[selections[i].set1], optarg);
			if (selections[i].set2 >= 0)
				add_name(&o->sets[selections[i].set2], optarg);
		}
		switch (c) {
		case 'E':
		case 'e':
		case 'F':
		case 'f':
		case 'N':
		case 'n':
			break;
		case 'k':
			if (!strchr(optarg, '/'))
				bad_usage("-k needs FROM/TO, not '%s'", optarg);
			add_name(&o->drop_arcs, optarg);
			break;
		case 'a':
			o->no_statics = true;
			break;
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
		case OPT_NO_INLINE:
			o->no_inline = true;
			break;
		case OPT_NO_INSTR:
			o->no_instr = true;
			break;
		case OPT_DEBUG_DIR:
			o->debug_dir = optarg;
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

static void print_stats(const struct callgraph *cg, const char *what,
			enum gmon_format format)
{
	static const char *const format_names[] = {
		[GMON_FORMAT_TAGGED] = "GNU tagged",
		[GMON_FORMAT_BSD_OLD] = "old BSD",
		[GMON_FORMAT_BSD44] = "4.4BSD",
	};
	const struct cg_stats *s = &cg->stats;
	size_t written = 0;

	for (size_t f = 0; f < cg->nfuncs; f++)
		written += cg->funcs[f].shown;
	fflush(stdout);
	fprintf(stderr, "%s: stats: %s (%s format)\n", PACKAGE_NAME, what,
		format_names[format]);
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
		" function, %" PRIu64 " into or out of the mcount family, %" PRIu64
		" by -k\n", PACKAGE_NAME, s->arcs_read, cg->narcs, cg->nsites,
		s->arcs_unresolved, s->arcs_excluded, s->arcs_deselected);
	if (cg->has_executions || s->blocks_unresolved)
		fprintf(stderr, "%s: stats: basic blocks: %" PRIu64 " executions;"
			" dropped: %" PRIu64 " blocks in no function\n",
			PACKAGE_NAME, cg->total_executions, s->blocks_unresolved);
}

/* The function sets of the selection options, resolved against ST. */
struct selection {
	struct cg_selection sel;
	bool *sets[NSETS];
	struct cg_arc_filter *arcs;
	bool **arc_ends;	/* two sets per dropped arc */
};

static void selection_release(struct selection *s, size_t narcs)
{
	for (int i = 0; i < NSETS; i++)
		free(s->sets[i]);
	for (size_t i = 0; s->arc_ends && i < 2 * narcs; i++)
		free(s->arc_ends[i]);
	free(s->arc_ends);
	free(s->arcs);
}

/* Adds the functions named NAME (NAME_LEN bytes) to SET, allocated if
 * NULL; EXE names the executable in messages.  Returns the set, or NULL
 * (having freed a set it allocated) with ERR set. */
static bool *mark_functions(const struct symtab *st, const char *exe,
			    const char *name, size_t name_len, bool *set,
			    struct g2c_error *err)
{
	char *copy = strndup(name, name_len);
	bool *fresh = set ? NULL : calloc(st->nfuncs + 1, sizeof *set);

	if (!set)
		set = fresh;
	if (!copy || !set) {
		free(copy);
		free(fresh);
		g2c_error_set(err, "out of memory");
		return NULL;
	}
	if (symtab_mark(st, copy, set) == 0) {
		g2c_error_set(err, "%s: no function named '%s'", exe, copy);
		free(copy);
		free(fresh);
		return NULL;
	}
	free(copy);
	return set;
}

static int build_selection(const struct options *o, const struct symtab *st,
			   struct selection *s, struct g2c_error *err)
{
	const bool **fields[NSETS] = {
		[SET_EXCL_TIME] = &s->sel.excl_time,
		[SET_INCL_TIME] = &s->sel.incl_time,
		[SET_EXCL_GRAPH] = &s->sel.excl_graph,
		[SET_INCL_GRAPH] = &s->sel.incl_graph,
	};

	memset(s, 0, sizeof *s);
	for (int i = 0; i < NSETS; i++) {
		for (size_t j = 0; j < o->sets[i].n; j++) {
			const char *name = o->sets[i].names[j];
			bool *set = mark_functions(st, o->exe, name, strlen(name),
						   s->sets[i], err);

			if (!set)
				return -1;
			s->sets[i] = set;
		}
		*fields[i] = s->sets[i];
	}
	if (o->drop_arcs.n == 0)
		return 0;
	s->arcs = calloc(o->drop_arcs.n, sizeof *s->arcs);
	s->arc_ends = calloc(2 * o->drop_arcs.n, sizeof *s->arc_ends);
	if (!s->arcs || !s->arc_ends)
		return g2c_error_set(err, "out of memory");
	for (size_t j = 0; j < o->drop_arcs.n; j++) {
		const char *spec = o->drop_arcs.names[j];
		const char *slash = strchr(spec, '/');

		s->arc_ends[2 * j] = mark_functions(st, o->exe, spec,
						    (size_t)(slash - spec), NULL, err);
		if (!s->arc_ends[2 * j])
			return -1;
		s->arc_ends[2 * j + 1] = mark_functions(st, o->exe, slash + 1,
							strlen(slash + 1), NULL, err);
		if (!s->arc_ends[2 * j + 1])
			return -1;
		s->arcs[j] = (struct cg_arc_filter){ s->arc_ends[2 * j],
						     s->arc_ends[2 * j + 1] };
	}
	s->sel.excl_arcs = s->arcs;
	s->sel.nexcl_arcs = o->drop_arcs.n;
	return 0;
}

static int report(const struct g2c_error *err)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", PACKAGE_NAME, err->msg);
	return EXIT_DATA;
}

/* Reads FILES[0..N) into one profile, builds its call graph and writes it
 * as PART (0: the only part). */
static int convert(const struct options *o, struct symtab *st,
		   const struct cg_selection *sel, char **files, int n,
		   unsigned part, struct outstream *os, struct g2c_error *err)
{
	struct gmon_profile prof;
	struct callgraph cg;
	struct callgrind_info info = { .dimen = "seconds", .part = part,
				       .source = files[0],
				       .nsources = (unsigned)n,
				       .no_inline = o->no_inline,
				       .no_instr = o->no_instr };
	const char *misfit;
	char dimen[sizeof prof.hists[0].dimen];
	enum gmon_format format;
	int rc = -1;

	gmon_profile_init(&prof);
	for (int i = 0; i < n; i++)
		if (gmon_profile_add_file(&prof, &st->target, files[i], err) < 0)
			goto out;
	if (prof.nhists > 0)
		info.dimen = strcpy(dimen, prof.hists[0].dimen);
	format = prof.first_format;
	info.rate_assumed = prof.nhists > 0 && prof.hists[0].rate == 0;
	if (callgraph_build(&cg, &prof, st,
			    gmon_profile_rate(&prof, o->rate ? o->rate
							     : DEFAULT_RATE),
			    sel, err) < 0)
		goto out;
	/* Neither the raw profile nor decoded code is needed for writing:
	 * free them before the line lookups load the debug information. */
	gmon_profile_release(&prof);
	symtab_forget_code(st);
	if (o->stats)
		print_stats(&cg, files[0], format);
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
	struct selection sel;
	struct g2c_error err;
	int rc = 0;

	parse_options(argc, argv, &o);
	if (symtab_open(&st, o.exe,
			&(struct symtab_options){ o.demangle, o.no_statics,
						  o.debug_dir },
			&err) < 0)
		return report(&err);
	if (build_selection(&o, &st, &sel, &err) < 0 ||
	    outstream_open(&os, o.output, o.gzip, &err) < 0) {
		rc = -1;
		goto out;
	}
	if (o.parts) {
		for (int i = 0; i < o.ngmon && rc == 0; i++)
			rc = convert(&o, &st, &sel.sel, &o.gmon_files[i], 1,
				     (unsigned)i + 1, &os, &err);
	} else {
		rc = convert(&o, &st, &sel.sel, o.gmon_files, o.ngmon, 0, &os,
			     &err);
	}
	if (rc < 0)
		outstream_discard(&os);
	else
		rc = outstream_close(&os, &err);
out:
	selection_release(&sel, o.drop_arcs.n);
	symtab_close(&st);
	for (int i = 0; i < NSETS; i++)
		free(o.sets[i].names);
	free(o.drop_arcs.names);
	return rc < 0 ? report(&err) : EXIT_SUCCESS;
}
