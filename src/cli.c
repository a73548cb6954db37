/* cli.c -- gmon2cg's command line (cli.h). */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "diag.h"
#include "disasm.h"
#include "outstream.h"

void options_write_help(FILE *fp)
{
	fprintf(fp,
"Usage: %s [OPTION]... EXECUTABLE [GMON_FILE]...\n"
"  or:  %s --compare [OPTION]... OLD NEW\n"
"Convert the gprof profile GMON_FILE (default gmon.out, or PROG.gmon as\n"
"FreeBSD names it) of EXECUTABLE into a callgrind-format profile for\n"
"KCachegrind, QCachegrind or callgrind_annotate (or, with\n"
"--format=speedscope, a profile for speedscope).\n"
"Several GMON_FILEs are summed, as gprof sums them.  GMON_FILEs may be\n"
"gzip-compressed.  A GMON_FILE may also be a shared library's profile\n"
"written by glibc's dynamic loader (LD_PROFILE=SONAME: SONAME.profile): it\n"
"is converted with that library, found as the dynamic loader finds it for\n"
"EXECUTABLE, into the same profile (EXECUTABLE may be the library itself).\n"
"\n"
"Output:\n"
"  -o, --output=FILE   write the profile to FILE instead of standard output;\n"
"                      FILE appears only when complete (\"-\": stdout)\n"
"      --format=FORMAT callgrind (the default), speedscope or svg.  speedscope:\n"
"                      speedscope's own JSON format; its sandwich view shows\n"
"                      gprof's self and self + children times, its flame\n"
"                      graph the call graph unrolled as gprof splits time\n"
"                      among callers (by call counts; a cycle is one node).\n"
"                      svg: that flame graph as a self-contained interactive\n"
"                      SVG for a browser (hover, click to zoom, search)\n"
"      --gzip          compress the output with gzip (implied when FILE ends\n"
"                      in .gz); callgrind_annotate cannot read it\n"
"      --parts         keep each GMON_FILE as a part of its own instead of\n"
"                      summing them (KCachegrind's Parts view)\n"
"      --no-demangle   show names as they are in the symbol table (C++ names\n"
"                      mangled, 32-bit Windows names with their leading _)\n"
"      --no-inline     show code inlined from other files at the line that\n"
"                      inlined it, not at its own file and line\n"
"      --no-instr      write source lines only, no instruction addresses\n"
"                      (\"positions: line\"), for viewers that read no more;\n"
"                      KCachegrind then has no Machine Code view (for\n"
"                      speedscope, use --format=speedscope)\n"
"      --prefix-map=OLD=NEW  write source file names that start with OLD\n"
"                      as starting with NEW (as gcc's -ffile-prefix-map;\n"
"                      repeatable, the longest OLD that matches wins)\n"
"  -z, --display-unused-functions  also write the functions that were never\n"
"                      called or sampled (with no cost), as gprof -z lists them\n"
"\n"
"Input:\n"
"      --rate=HZ       samples per second for profiles that do not record it\n"
"                      (old BSD layout; default %d)\n"
"      --library=PATH  the shared library an LD_PROFILE GMON_FILE profiles,\n"
"                      when it is not where the dynamic loader would look\n"
"      --debug-dir=DIR where to look for a stripped EXECUTABLE's separate\n"
"                      debug file (build-id or .gnu_debuglink; beside the\n"
"                      executable first; default /usr/lib/debug)\n"
"\n"
"Selection (gprof's options, same meaning).  NAME is a function's name: as\n"
"in the symbol table, as shown, or a C++ name without its parameter list\n"
"(all its overloads); FILE:NAME selects only NAME defined in FILE.\n"
"  -E, --exclude=NAME    leave NAME out of the graph and its time out of the\n"
"                        propagation\n"
"  -e NAME, -Q NAME, --no-graph=NAME  leave NAME out of the graph\n"
"  -F, --only=NAME       only NAME and its callees, and only their time\n"
"  -f NAME, -qNAME, --graph=NAME  only NAME and its callees in the graph\n"
"  -N, --no-time=NAME    do not propagate NAME's time\n"
"  -n, --time=NAME       propagate only NAME's time (and its callees')\n"
"  -k, --drop-arc=FROM/TO  leave out the calls from FROM to TO\n"
"  -a, --no-static       leave out static functions (their time and calls go\n"
"                        to the function before them)\n"
"  Each may be given several times, on members of cycles too.  Costs then\n"
"  follow gprof's call graph: self and inclusive time count only the share\n"
"  gprof propagates.\n"
"\n"
"Checks and reports:\n"
"      --force         convert even when the profile does not seem to belong\n"
"                      to EXECUTABLE\n"
"      --stats         print what was read, attributed and dropped on stderr\n"
"      --summary[=N]   print gprof's flat profile (gprof -b -p with the same\n"
"                      selections) of the N functions with the most self\n"
"                      time (default 10) on stderr\n"
"\n"
"  -h, --help          show this help and exit\n"
"  -V, -v, --version   show version information and exit (with --stats,\n"
"                      the architectures this build reads too)\n"
"\n"
"gprof's report options (-b, -p, -P, -l, -A, -C, -I, -s, -T, ...) have no\n"
"meaning for a callgrind file; each is refused with a word on what to use.\n"
"\n"
"Costs are CPU time in nanoseconds (event \"ns\").  Self time, call counts and\n"
"inclusive time agree with gprof's flat profile and call graph.\n"
"\n"
"Exit status: 0 on success, 1 if an input is unreadable, invalid or does not\n"
"belong to EXECUTABLE, or the output cannot be written, 2 on a usage error,\n"
"3 when --compare finds a change past a --fail-on gate (an inconclusive one,\n"
"past a gate but not beyond noise, is reported with status 0).\n"
"\n"
"Comparison (--compare OLD NEW): OLD and NEW are callgrind files that gmon2cg\n"
"wrote (plain or .gz), several of a side separated by commas (repeated runs,\n"
"summed).  Functions are matched by name and source file (by its path\n"
"suffix when the two sides are checkouts in two directories).  The report\n"
"lists each function's self time, inclusive time and calls, old and new\n"
"(means per run), changes first; a time has changed when it differs beyond\n"
"sampling noise (the user guide, doc/guide/08-compare.md, \"Change or noise\"),\n"
"calls when they differ at all, or, for calls that vary between a side's\n"
"runs, when every run of one side has fewer than every run of the other,\n"
"beyond chance.\n"
"Of the options above only -o and --gzip apply (to the comparison's callgrind\n"
"file); the others are refused.\n"
"      --compare       compare OLD with NEW instead of converting\n"
"      --fail-on=WHAT:[+|-]AMOUNT[%%|ns|us|ms|s]  exit with status 3 when a\n"
"                      change beyond noise is at least AMOUNT (+: an increase,\n"
"                      -: a decrease, neither: either way); WHAT is self, incl\n"
"                      or calls (of any function) or total; repeatable, or\n"
"                      comma-separated (default: self:+0%%,calls:1)\n"
"      --min-time=TIME leave times below TIME (e.g. 10ms) on both sides unjudged\n"
"      --alpha=P       the false-alarm rate of a whole comparison (default %g)\n"
"      --machine-noise=PCT  how far the machine's speed moves a time between\n"
"                      runs: a function of over half the samples, the rest\n"
"                      too few to judge it against, is judged against the\n"
"                      old run beyond it (default %d%%)\n"
"      --junit=FILE    also write a JUnit XML report: a test case per function\n"
"      --annotations=github  after the report, print GitHub's workflow commands:\n"
"                      ::error for a function past a gate, ::warning for a\n"
"                      change beyond noise, ::notice for an inconclusive one,\n"
"                      each at the function's file (as the checkout, the\n"
"                      current directory, names it) and first line\n"
"      --markdown=FILE also write a Markdown summary (for $GITHUB_STEP_SUMMARY):\n"
"                      the verdict, a table of the changed functions, the\n"
"                      inconclusive ones\n"
"      --codequality=FILE  also write GitLab's Code Quality report (JSON), an\n"
"                      issue per change, fingerprinted by function, file and\n"
"                      gate\n"
"      --svg=FILE      also write a differential flame graph (SVG): the new\n"
"                      side's call graph, widths its times, colours the\n"
"                      verdicts (slower, faster, within noise, inconclusive,\n"
"                      new), the functions past a gate outlined\n"
"      --all           report also the functions with no samples and no change\n"
"                      of calls (left out by default)\n"
"  -o, --output=FILE   also write the comparison as a callgrind file (events\n"
"                      Old, New, Slower, Faster) for KCachegrind; with one of\n"
"                      these files on standard output (-), the report goes\n"
"                      to standard error\n"
"\n"
"Report bugs to: %s\n", PACKAGE_NAME, PACKAGE_NAME, DEFAULT_RATE, DEFAULT_ALPHA, COMPARE_MACHINE_NOISE,
		PACKAGE_BUGREPORT);
}

void options_write_version(FILE *fp, const struct options *o)
{
	fprintf(fp, "%s %s\n"
		"Copyright (C) 2026 the gmon2cg authors.\n"
		"License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"
		"This is free software: you are free to change and redistribute it.\n"
		"There is NO WARRANTY, to the extent permitted by law.\n",
		PACKAGE_NAME, PACKAGE_VERSION);
	/* (the list is some 170 names: asked for, not shown by default) */
	if (o->stats) {
		char *archs = disasm_known_architectures();

		fprintf(fp, "Architectures read (libbfd, libopcodes): %s\n",
			archs ? archs : "(out of memory)");
		free(archs);
	}
}


/* gprof's options that have no meaning for a callgrind file, and what to
 * use instead.  HAS_ARG as in struct option. */
static const struct refused {
	char letter;		/* 0: none */
	const char *name;	/* NULL: none */
	int has_arg;
	const char *instead;
} refused[] = {
	{ 'b', "brief", no_argument, "gmon2cg writes no report text to shorten (--summary prints gprof's flat profile)" },
	{ 'p', "flat-profile", optional_argument,
	  "--summary prints gprof's flat profile on stderr; KCachegrind's Flat Profile shows every function" },
	{ 'P', "no-flat-profile", optional_argument,
	  "a callgrind file has no flat profile to leave out" },
	{ 'Q', NULL, optional_argument, NULL },	/* taken as --no-graph */
	{ 'l', "line", no_argument,
	  "costs are always written per source line and instruction (KCachegrind's Source Code view, callgrind_annotate --auto=yes)" },
	{ 'x', "all-lines", no_argument,
	  "costs are always written per source line and instruction" },
	{ 'A', "annotated-source", optional_argument,
	  "open the file in KCachegrind's Source Code view, or run callgrind_annotate --auto=yes" },
	{ 'J', "no-annotated-source", optional_argument,
	  "gmon2cg writes no annotated source to leave out" },
	{ 'L', "print-path", no_argument,
	  "source files are always written with their paths (see --prefix-map)" },
	{ 'y', "separate-files", no_argument,
	  "open the file in KCachegrind's Source Code view, or run callgrind_annotate --auto=yes" },
	{ 0, "inline-file-names", no_argument,
	  "inlined code is always written at its own file and line (--no-inline: at the caller's)" },
	{ 'I', "directory-path", required_argument,
	  "use --prefix-map=OLD=NEW to say where the sources are" },
	{ 'C', "exec-counts", optional_argument,
	  "basic-block counts, when the profile has them, are written as the event bb" },
	{ 'Z', "no-exec-counts", optional_argument,
	  "basic-block counts are a separate event (bb) that viewers can leave unshown" },
	{ 's', "sum", no_argument,
	  "several GMON_FILEs are always summed; gprof -s writes a summed gmon.sum" },
	{ 'c', "static-call-graph", no_argument,
	  "gmon2cg writes only the calls the profile recorded" },
	{ 'D', "ignore-non-functions", no_argument,
	  "gmon2cg follows gprof's default choice of function symbols" },
	{ 'i', "file-info", no_argument, "use --stats" },
	{ 'd', "debug", optional_argument, "use --stats" },
	{ 'r', "function-ordering", no_argument,
	  "gmon2cg suggests no link order; use gprof -r" },
	{ 'R', "file-ordering", required_argument,
	  "gmon2cg suggests no link order; use gprof -R" },
	{ 'T', "traditional", no_argument,
	  "a callgrind file has no report layout to choose" },
	{ 'w', "width", required_argument,
	  "a callgrind file has no report layout to choose" },
	{ 't', "table-length", required_argument,
	  "a callgrind file has no report layout to choose" },
	{ 'm', "min-count", required_argument,
	  "every call is written; viewers hide small ones themselves" },
	{ 'O', "file-format", required_argument,
	  "each GMON_FILE's format is recognised from its contents" },
	{ 0, "external-symbol-table", required_argument,
	  "symbols are read from EXECUTABLE or its separate debug file (--debug-dir)" },
};

#define NREFUSED (sizeof refused / sizeof *refused)

/* Sets O's usage error and says so (or that there is no memory for it). */
__attribute__((format(printf, 2, 3)))
static enum options_action usage_error(struct options *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&o->usage_error, fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->usage_error = NULL;
		return OPTIONS_OUT_OF_MEMORY;
	}
	return OPTIONS_USAGE_ERROR;
}

/* A whole number from 1 to MAX into *V, or a usage error naming WHAT. */
static enum options_action parse_count(struct options *o, const char *arg,
				       unsigned long max, const char *what,
				       unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *v == 0 || *v > max || arg[0] == '-')
		return usage_error(o, "invalid %s '%s': a whole number from 1 to %lu is needed",
				   what, arg, max);
	return OPTIONS_CONVERT;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static enum options_action add_name(struct name_list *list, const char *name)
{
	const char **names = realloc(list->names, (list->n + 1) * sizeof *names);

	if (!names)
		return OPTIONS_OUT_OF_MEMORY;
	names[list->n++] = name;
	list->names = names;
	return OPTIONS_CONVERT;
}

/* getopt's values for the options without a letter, and for the refused
 * ones. */
enum {
	OPT_FIRST_LONG = 256,	/* past every letter */
	OPT_NO_DEMANGLE = OPT_FIRST_LONG, OPT_NO_INLINE, OPT_DEBUG_DIR, OPT_FORCE,
	OPT_PARTS, OPT_RATE, OPT_STATS, OPT_GZIP, OPT_SUMMARY, OPT_PREFIX_MAP,
	OPT_DEMANGLE, OPT_GRAPH, OPT_NO_GRAPH, OPT_NO_INSTR, OPT_LIBRARY,
	OPT_FORMAT, OPT_COMPARE, OPT_FAIL_ON, OPT_MIN_TIME, OPT_ALPHA, OPT_JUNIT, OPT_ALL,
	OPT_MACHINE_NOISE, OPT_ANNOTATIONS, OPT_MARKDOWN, OPT_CODEQUALITY, OPT_SVG,
	OPT_REFUSED		/* + index in refused[] */
};

/* An option as given on the command line. */
struct given {
	const struct own_option *opt;
	const char *arg;	/* NULL: none */
	const char *text;	/* as written, for messages */
};

/* Takes the option G into O.  OPTIONS_CONVERT: parsing goes on. */
typedef enum options_action take_fn(struct options *o, const struct given *g);

/* One of our options: how it is written, and how it fills struct options. */
struct own_option {
	const char *name;	/* the long name; NULL: a letter only */
	int code;		/* getopt's value: the letter, or OPT_* */
	int has_arg;		/* as in struct option */
	take_fn *take;
	size_t field;		/* the member of struct options it fills */
	int sets[2];		/* selections: the sets NAME joins; -1: none */
};

/* The member of O that G's option fills. */
#define MEMBER(o, g, type) ((type *)((char *)(o) + (g)->opt->field))

static enum options_action take_true(struct options *o, const struct given *g)
{
	*MEMBER(o, g, bool) = true;
	return OPTIONS_CONVERT;
}

static enum options_action take_false(struct options *o, const struct given *g)
{
	*MEMBER(o, g, bool) = false;
	return OPTIONS_CONVERT;
}

static enum options_action take_string(struct options *o, const struct given *g)
{
	*MEMBER(o, g, const char *) = g->arg;
	return OPTIONS_CONVERT;
}

static enum options_action take_name(struct options *o, const struct given *g)
{
	return add_name(MEMBER(o, g, struct name_list), g->arg);
}

static enum options_action take_drop_arc(struct options *o, const struct given *g)
{
	if (!strchr(g->arg, '/'))
		return usage_error(o, "-k needs FROM/TO, not '%s'", g->arg);
	return take_name(o, g);
}

static enum options_action take_prefix_map(struct options *o, const struct given *g)
{
	if (!strchr(g->arg, '=') || g->arg[0] == '=')
		return usage_error(o, "--prefix-map needs OLD=NEW, not '%s'", g->arg);
	return take_name(o, g);
}

/* A NAME for gprof's function sets. */
static enum options_action take_selection(struct options *o, const struct given *g)
{
	enum options_action action = OPTIONS_CONVERT;

	if (!g->arg)	/* -Q or --no-graph */
		return usage_error(o, "%s without a NAME would leave out the whole call graph, "
				   "which is what a callgrind file shows; -Q NAME leaves out NAME",
				   g->text);
	for (size_t i = 0; i < 2 && g->opt->sets[i] >= 0 && action == OPTIONS_CONVERT; i++)
		action = add_name(&o->sets[g->opt->sets[i]], g->arg);
	return action;
}

/* The call graph is always written; with a NAME, only NAME's part of it,
 * as gprof -qNAME prints. */
static enum options_action take_graph(struct options *o, const struct given *g)
{
	return g->arg ? take_selection(o, g) : OPTIONS_CONVERT;
}

static enum options_action take_demangle(struct options *o, const struct given *g)
{
	if (g->arg && strcmp(g->arg, "auto") != 0 && strcmp(g->arg, "gnu-v3") != 0)
		return usage_error(o, "demangling style '%s' is not supported: names are demangled as gnu-v3 (--demangle)",
				   g->arg);
	return take_true(o, g);
}

static enum options_action take_format(struct options *o, const struct given *g)
{
	if (strcmp(g->arg, "callgrind") == 0)
		o->format = FORMAT_CALLGRIND;
	else if (strcmp(g->arg, "speedscope") == 0)
		o->format = FORMAT_SPEEDSCOPE;
	else if (strcmp(g->arg, "svg") == 0)
		o->format = FORMAT_SVG;
	else
		return usage_error(o, "unknown output format '%s': callgrind, speedscope or svg",
				   g->arg);
	return OPTIONS_CONVERT;
}

static enum options_action take_rate(struct options *o, const struct given *g)
{
	unsigned long rate;
	enum options_action action = parse_count(o, g->arg, UINT32_MAX, "rate",
						 &rate);

	o->rate = (uint32_t)rate;
	return action;
}

static enum options_action take_summary(struct options *o, const struct given *g)
{
	unsigned long rows = 10;
	enum options_action action = OPTIONS_CONVERT;

	if (g->arg)
		action = parse_count(o, g->arg, 1000000, "summary length", &rows);
	o->summary = (unsigned)rows;
	return action;
}

/* An option that only --compare takes: remembered for the check that
 * --compare was given. */
static void compare_only(struct options *o, const struct given *g)
{
	if (!o->compare_only)
		o->compare_only = g->text;
}

static enum options_action take_fail_on(struct options *o, const struct given *g)
{
	struct g2c_error err;

	compare_only(o, g);
	if (compare_parse_gates(g->arg, &o->gates, &o->ngates, &err) < 0)
		return usage_error(o, "%s", err.msg);
	return OPTIONS_CONVERT;
}

static enum options_action take_min_time(struct options *o, const struct given *g)
{
	compare_only(o, g);
	if (compare_parse_time(g->arg, &o->min_time_ns) < 0)
		return usage_error(o, "invalid --min-time '%s': a time such as 10ms is needed (units ns, us, ms, s)",
				   g->arg);
	return OPTIONS_CONVERT;
}

static enum options_action take_machine_noise(struct options *o, const struct given *g)
{
	char *end;

	compare_only(o, g);
	o->machine_noise = strtod(g->arg, &end);
	if (end == g->arg || (*end && strcmp(end, "%") != 0) ||
	    !(o->machine_noise >= 0 && o->machine_noise <= 1000))
		return usage_error(o, "invalid --machine-noise '%s': a percentage from 0 to 1000 is needed",
				   g->arg);
	return OPTIONS_CONVERT;
}

static enum options_action take_alpha(struct options *o, const struct given *g)
{
	char *end;

	compare_only(o, g);
	o->alpha = strtod(g->arg, &end);
	if (end == g->arg || *end || !(o->alpha > 0 && o->alpha < 1))
		return usage_error(o, "invalid --alpha '%s': a probability between 0 and 1 is needed",
				   g->arg);
	return OPTIONS_CONVERT;
}

static enum options_action take_compare_string(struct options *o, const struct given *g)
{
	compare_only(o, g);
	return take_string(o, g);
}

static enum options_action take_annotations(struct options *o, const struct given *g)
{
	compare_only(o, g);
	if (strcmp(g->arg, "github") != 0)
		return usage_error(o, "unknown --annotations '%s': github (GitHub's workflow commands)",
				   g->arg);
	o->annotations = true;
	return OPTIONS_CONVERT;
}

static enum options_action take_compare_true(struct options *o, const struct given *g)
{
	compare_only(o, g);
	return take_true(o, g);
}

static enum options_action take_help(struct options *o, const struct given *g)
{
	(void)o, (void)g;
	return OPTIONS_HELP;
}

/* --version is answered once every option is read: --stats adds to it. */
static enum options_action take_version(struct options *o, const struct given *g)
{
	(void)g;
	o->version = true;
	return OPTIONS_CONVERT;
}

#define FIELD(member) offsetof(struct options, member)
#define NO_SET { -1, -1 }

static const struct own_option own_options[] = {
	{ "output", 'o', required_argument, take_string, FIELD(output), NO_SET },
	{ "format", OPT_FORMAT, required_argument, take_format, 0, NO_SET },
	{ "gzip", OPT_GZIP, no_argument, take_true, FIELD(gzip), NO_SET },
	{ "parts", OPT_PARTS, no_argument, take_true, FIELD(parts), NO_SET },
	{ "demangle", OPT_DEMANGLE, optional_argument, take_demangle,
	  FIELD(demangle), NO_SET },
	{ "no-demangle", OPT_NO_DEMANGLE, no_argument, take_false,
	  FIELD(demangle), NO_SET },
	{ "no-inline", OPT_NO_INLINE, no_argument, take_true, FIELD(no_inline),
	  NO_SET },
	{ "no-instr", OPT_NO_INSTR, no_argument, take_true, FIELD(no_instr),
	  NO_SET },
	{ "prefix-map", OPT_PREFIX_MAP, required_argument, take_prefix_map,
	  FIELD(prefix_maps), NO_SET },
	{ "display-unused-functions", 'z', no_argument, take_true,
	  FIELD(show_unused), NO_SET },
	{ "debug-dir", OPT_DEBUG_DIR, required_argument, take_string,
	  FIELD(debug_dir), NO_SET },
	{ "library", OPT_LIBRARY, required_argument, take_name,
	  FIELD(libraries), NO_SET },
	{ "rate", OPT_RATE, required_argument, take_rate, 0, NO_SET },
	{ "force", OPT_FORCE, no_argument, take_true, FIELD(force), NO_SET },
	{ "stats", OPT_STATS, no_argument, take_true, FIELD(stats), NO_SET },
	{ "summary", OPT_SUMMARY, optional_argument, take_summary, 0, NO_SET },
	{ "exclude", 'E', required_argument, take_selection, 0,
	  { SET_EXCL_GRAPH, SET_EXCL_TIME } },
	{ NULL, 'e', required_argument, take_selection, 0, { SET_EXCL_GRAPH, -1 } },
	{ "no-graph", OPT_NO_GRAPH, optional_argument, take_selection, 0,
	  { SET_EXCL_GRAPH, -1 } },
	{ "only", 'F', required_argument, take_selection, 0,
	  { SET_INCL_GRAPH, SET_INCL_TIME } },
	{ NULL, 'f', required_argument, take_selection, 0, { SET_INCL_GRAPH, -1 } },
	{ "graph", OPT_GRAPH, optional_argument, take_graph, 0,
	  { SET_INCL_GRAPH, -1 } },
	{ NULL, 'q', optional_argument, take_graph, 0, { SET_INCL_GRAPH, -1 } },
	{ "no-time", 'N', required_argument, take_selection, 0, { SET_EXCL_TIME, -1 } },
	{ "time", 'n', required_argument, take_selection, 0, { SET_INCL_TIME, -1 } },
	{ "drop-arc", 'k', required_argument, take_drop_arc, FIELD(drop_arcs),
	  NO_SET },
	{ "no-static", 'a', no_argument, take_true, FIELD(no_statics), NO_SET },
	{ "compare", OPT_COMPARE, no_argument, take_true, FIELD(compare), NO_SET },
	{ "fail-on", OPT_FAIL_ON, required_argument, take_fail_on, 0, NO_SET },
	{ "min-time", OPT_MIN_TIME, required_argument, take_min_time, 0, NO_SET },
	{ "alpha", OPT_ALPHA, required_argument, take_alpha, 0, NO_SET },
	{ "machine-noise", OPT_MACHINE_NOISE, required_argument, take_machine_noise, 0,
	  NO_SET },
	{ "junit", OPT_JUNIT, required_argument, take_compare_string, FIELD(junit), NO_SET },
	{ "annotations", OPT_ANNOTATIONS, required_argument, take_annotations, 0, NO_SET },
	{ "markdown", OPT_MARKDOWN, required_argument, take_compare_string, FIELD(markdown), NO_SET },
	{ "codequality", OPT_CODEQUALITY, required_argument, take_compare_string,
	  FIELD(codequality), NO_SET },
	{ "svg", OPT_SVG, required_argument, take_compare_string, FIELD(svg), NO_SET },
	{ "all", OPT_ALL, no_argument, take_compare_true, FIELD(show_all), NO_SET },
	{ "help", 'h', no_argument, take_help, 0, NO_SET },
	{ "version", 'V', no_argument, take_version, 0, NO_SET },
	{ NULL, 'v', no_argument, take_version, 0, NO_SET },
};

#define NOWN (sizeof own_options / sizeof *own_options)

/* getopt's tables: our options, then the refused ones. */
static struct option longopts[NOWN + NREFUSED + 1];
static char shortopts[128];

/* Adds LETTER to shortopts[*LEN...], with HAS_ARG's colons. */
static void add_letter(size_t *len, int letter, int has_arg)
{
	shortopts[(*len)++] = (char)letter;
	if (has_arg != no_argument)
		shortopts[(*len)++] = ':';
	if (has_arg == optional_argument)
		shortopts[(*len)++] = ':';
}

static void build_tables(void)
{
	size_t n = 0, len = 0;

	shortopts[len++] = ':';	/* a missing argument is told apart */
	for (size_t i = 0; i < NOWN; i++) {
		const struct own_option *opt = &own_options[i];

		if (opt->name)
			longopts[n++] = (struct option){ opt->name, opt->has_arg,
							 NULL, opt->code };
		if (opt->code < OPT_FIRST_LONG)
			add_letter(&len, opt->code, opt->has_arg);
	}
	for (size_t i = 0; i < NREFUSED; i++) {
		if (refused[i].name)
			longopts[n++] = (struct option){ refused[i].name,
							 refused[i].has_arg, NULL,
							 OPT_REFUSED + (int)i };
		if (refused[i].letter)
			add_letter(&len, refused[i].letter, refused[i].has_arg);
	}
	longopts[n] = (struct option){ 0 };
	shortopts[len] = '\0';
}

/* The option getopt returned as CODE, or NULL. */
static const struct own_option *own_option(int code)
{
	for (size_t i = 0; i < NOWN; i++)
		if (own_options[i].code == code)
			return &own_options[i];
	return NULL;
}

/* The refused option written with LETTER. */
static const struct refused *refused_letter(int letter)
{
	for (size_t i = 0; i < NREFUSED; i++)
		if (refused[i].letter == letter)
			return &refused[i];
	return NULL;
}

/* How the option just parsed was written, for messages. */
static const char *option_text(int argc, char **argv)
{
	const char *arg = optind - 1 < argc ? argv[optind - 1] : "?";

	return arg[0] == '-' ? arg : "option";
}

/* How many long options begin with the name in GIVEN ("--NAME[=...]"):
 * getopt takes an abbreviation only when it is one option's. */
static size_t long_options_matching(const char *given)
{
	size_t len = strcspn(given + 2, "="), n = 0;

	for (const struct option *opt = longopts; opt->name; opt++)
		n += strncmp(opt->name, given + 2, len) == 0;
	return n;
}

/* The usage error for what getopt returned as C that is none of ours. */
static enum options_action not_ours(struct options *o, int c, int argc,
				    char **argv)
{
	const struct refused *r = NULL;
	char letter_text[3] = { '-', (char)c, '\0' };
	const char *given = option_text(argc, argv);

	if (c == ':')
		return usage_error(o, "option '%s' needs an argument", given);
	/* (for a long option, optopt is its code, not a letter) */
	if (c == '?' && strncmp(given, "--", 2) == 0 && optopt && strchr(given, '='))
		return usage_error(o, "option '%.*s' takes no argument",
				   (int)(strchr(given, '=') - given), given);
	if (c == '?' && strncmp(given, "--", 2) == 0 && long_options_matching(given) > 1)
		return usage_error(o, "option '%.*s' is ambiguous", (int)strcspn(given, "="),
				   given);
	if (c == '?' && optopt && strncmp(given, "--", 2) != 0)
		return usage_error(o, "unknown option '-%c'", optopt);
	if (c >= OPT_REFUSED && c < OPT_REFUSED + (int)NREFUSED) {
		r = &refused[c - OPT_REFUSED];
	} else if ((r = refused_letter(c))) {
		given = letter_text;
	}
	if (r)
		return usage_error(o, "gprof's %s has no meaning here: %s", given,
				   r->instead);
	return usage_error(o, "unknown option '%s'", given);
}

/* OLD and NEW of --compare, each a comma-separated list of files. */
static enum options_action compare_operands(struct options *o, int n,
					    char **operands)
{
	if (n != 2)
		return usage_error(o, "--compare needs two operands, OLD and NEW (%s)",
				   n < 2 ? "missing" : "too many");
	for (int s = 0; s < 2; s++) {
		char *files = o->compare_operands[s] = strdup(operands[s]);

		if (!files)
			return OPTIONS_OUT_OF_MEMORY;
		for (char *f = strtok(files, ","); f; f = strtok(NULL, ","))
			if (add_name(&o->compare_files[s], f) != OPTIONS_CONVERT)
				return OPTIONS_OUT_OF_MEMORY;
		if (o->compare_files[s].n == 0)
			return usage_error(o, "--compare: no file in '%s'", operands[s]);
	}
	if (o->output && ends_with(o->output, ".gz"))
		o->gzip = true;
	return OPTIONS_CONVERT;
}

/* Whether the option of getopt's value CODE means something to a
 * comparison: the rest only to a conversion. */
static bool for_comparison(int code)
{
	static const int codes[] = { 'o', OPT_GZIP, OPT_COMPARE, OPT_FAIL_ON,
				     OPT_MIN_TIME, OPT_ALPHA, OPT_JUNIT, OPT_ALL,
				     OPT_MACHINE_NOISE, OPT_ANNOTATIONS, OPT_MARKDOWN,
				     OPT_CODEQUALITY, OPT_SVG, 'h', 'V', 'v' };

	for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
		if (codes[i] == code)
			return true;
	return false;
}

/* --compare's files: at most one on standard output (the report then
 * goes to standard error), and none with --annotations, whose commands
 * GitHub reads there. */
static enum options_action one_on_stdout(struct options *o)
{
	const char *const files[] = { o->output, o->junit, o->markdown,
				      o->codequality, o->svg };
	const char *const names[] = { "-o", "--junit", "--markdown",
				      "--codequality", "--svg" };
	int first = -1;

	for (int i = 0; i < (int)(sizeof files / sizeof *files); i++) {
		if (!outstream_names_stdout(files[i]))
			continue;
		if (o->annotations)
			return usage_error(o, "--annotations=github writes to standard output: %s cannot go there too",
					   names[i]);
		if (first >= 0)
			return usage_error(o, "%s and %s both to standard output would mix two files: name a file for one",
					   names[first], names[i]);
		first = i;
	}
	return OPTIONS_CONVERT;
}

enum options_action options_parse(int argc, char **argv, struct options *o)
{
	/* a profile "-" is read from standard input */
	static char standard_input[] = "/dev/stdin";
	enum options_action action = OPTIONS_CONVERT;
	int c;

	memset(o, 0, sizeof *o);
	o->demangle = true;
	o->alpha = DEFAULT_ALPHA;
	o->machine_noise = COMPARE_MACHINE_NOISE;
	opterr = 0;		/* errors are reported as gmon2cg's */
	build_tables();
	while (action == OPTIONS_CONVERT &&
	       (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		struct given g;

		if (c == 'Q')	/* -Q NAME is --no-graph=NAME */
			c = OPT_NO_GRAPH;
		g = (struct given){ own_option(c), optarg, option_text(argc, argv) };
		if (g.opt && !for_comparison(c) && !o->convert_only)
			o->convert_only = g.text;
		if (g.opt)
			action = g.opt->take(o, &g);
		else
			action = not_ours(o, c, argc, argv);
	}
	if (action != OPTIONS_CONVERT)
		return action;
	if (o->version)
		return OPTIONS_VERSION;
	if (o->compare && o->convert_only)
		return usage_error(o, "%s is not an option of --compare (it applies to a conversion)",
				   o->convert_only);
	if (o->compare && (action = one_on_stdout(o)) != OPTIONS_CONVERT)
		return action;
	if (o->compare)
		return compare_operands(o, argc - optind, &argv[optind]);
	if (o->compare_only)
		return usage_error(o, "%s is an option of --compare", o->compare_only);
	if (optind >= argc)
		return usage_error(o, "missing EXECUTABLE operand");
	o->exe = argv[optind++];
	for (int i = optind; i < argc; i++)
		if (strcmp(argv[i], "-") == 0)
			argv[i] = standard_input;
	/* none: program_open() picks gmon.out or PROG.gmon */
	o->gmon_files = &argv[optind];
	o->ngmon = argc - optind;
	if (o->parts && o->format != FORMAT_CALLGRIND)
		return usage_error(o, "--parts is for KCachegrind's Parts view; --format=%s writes one profile",
				   o->format == FORMAT_SVG ? "svg" : "speedscope");
	if (o->output && ends_with(o->output, ".gz"))
		o->gzip = true;
	return OPTIONS_CONVERT;
}

void options_release(struct options *o)
{
	for (int i = 0; i < NSETS; i++)
		free(o->sets[i].names);
	free(o->drop_arcs.names);
	free(o->prefix_maps.names);
	free(o->libraries.names);
	free(o->usage_error);
	for (int s = 0; s < 2; s++) {
		free(o->compare_operands[s]);
		free(o->compare_files[s].names);
	}
	free(o->gates);
}
