/* options.c -- gmon2cg's command line. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "options.h"

static void usage(FILE *fp)
{
	fprintf(fp,
"Usage: %s [OPTION]... EXECUTABLE [GMON_FILE]...\n"
"Convert the gprof profile GMON_FILE (default gmon.out) of EXECUTABLE into a\n"
"callgrind-format profile for KCachegrind, QCachegrind or callgrind_annotate.\n"
"Several GMON_FILEs are summed, as gprof sums them.  GMON_FILEs may be\n"
"gzip-compressed.  A GMON_FILE may also be a shared library's profile\n"
"written by glibc's dynamic loader (LD_PROFILE=SONAME: SONAME.profile): it\n"
"is converted with that library, found as the dynamic loader finds it for\n"
"EXECUTABLE, into the same profile (EXECUTABLE may be the library itself).\n"
"\n"
"Output:\n"
"  -o, --output=FILE   write the profile to FILE instead of standard output;\n"
"                      FILE appears only when complete (\"-\": stdout)\n"
"      --gzip          compress the output with gzip (implied when FILE ends\n"
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
"  -a, --no-static       leave out static functions (their time goes to the\n"
"                        function before them)\n"
"  Each may be given several times.  Costs then follow gprof's call graph:\n"
"  self and inclusive time count only the share gprof propagates.\n"
"\n"
"Checks and reports:\n"
"      --force         convert even when the profile does not seem to belong\n"
"                      to EXECUTABLE\n"
"      --stats         print what was read, attributed and dropped on stderr\n"
"      --summary[=N]   print gprof's flat profile of the N functions with the\n"
"                      most self time (default 10) on stderr\n"
"\n"
"  -h, --help          show this help and exit\n"
"  -V, -v, --version   show version information and exit\n"
"\n"
"gprof's report options (-b, -p, -P, -l, -A, -C, -I, -s, -T, ...) have no\n"
"meaning for a callgrind file; each is refused with a word on what to use.\n"
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
	char *archs = decode_known_architectures();

	printf("%s %s\n"
	       "Copyright (C) 2026 the gmon2cg authors.\n"
	       "License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"
	       "This is free software: you are free to change and redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n",
	       PACKAGE_NAME, PACKAGE_VERSION);
	printf("Architectures read (libbfd, libopcodes): %s\n",
	       archs ? archs : "(out of memory)");
	free(archs);
}

__attribute__((format(printf, 1, 2), noreturn))
static void bad_usage(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	if (fmt) {
		fprintf(stderr, "%s: ", PACKAGE_NAME);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fprintf(stderr, "Try '%s --help' for more information.\n", PACKAGE_NAME);
	exit(EXIT_USAGE);
}

/* A whole number from 1 to MAX, or a usage error naming WHAT. */
static unsigned long parse_count(const char *arg, unsigned long max,
				 const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || v == 0 || v > max || arg[0] == '-')
		bad_usage("invalid %s '%s': a whole number from 1 to %lu is needed",
			  what, arg, max);
	return v;
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

/* gprof's options that have no meaning for a callgrind file, and what to
 * use instead.  HAS_ARG as in struct option. */
static const struct refused {
	char letter;		/* 0: none */
	const char *name;	/* NULL: none */
	int has_arg;
	const char *instead;
} refused[] = {
	{ 'b', "brief", no_argument, "gmon2cg writes no report text to shorten" },
	{ 'p', "flat-profile", optional_argument,
	  "--summary prints gprof's flat profile on stderr; KCachegrind's Flat Profile shows every function" },
	{ 'P', "no-flat-profile", optional_argument,
	  "a callgrind file has no flat profile to leave out" },
	{ 'Q', NULL, optional_argument, NULL },	/* only without a NAME */
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

enum {
	OPT_NO_DEMANGLE = 256, OPT_NO_INLINE, OPT_DEBUG_DIR, OPT_FORCE,
	OPT_PARTS, OPT_RATE, OPT_STATS, OPT_GZIP, OPT_SUMMARY, OPT_PREFIX_MAP,
	OPT_DEMANGLE, OPT_GRAPH, OPT_NO_GRAPH, OPT_NO_INSTR, OPT_LIBRARY,
	OPT_REFUSED		/* + index in refused[] */
};

static const struct option own_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "gzip", no_argument, NULL, OPT_GZIP },
	{ "parts", no_argument, NULL, OPT_PARTS },
	{ "demangle", optional_argument, NULL, OPT_DEMANGLE },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
	{ "no-instr", no_argument, NULL, OPT_NO_INSTR },
	{ "prefix-map", required_argument, NULL, OPT_PREFIX_MAP },
	{ "display-unused-functions", no_argument, NULL, 'z' },
	{ "debug-dir", required_argument, NULL, OPT_DEBUG_DIR },
	{ "library", required_argument, NULL, OPT_LIBRARY },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "summary", optional_argument, NULL, OPT_SUMMARY },
	{ "exclude", required_argument, NULL, 'E' },
	{ "no-graph", optional_argument, NULL, OPT_NO_GRAPH },
	{ "only", required_argument, NULL, 'F' },
	{ "graph", optional_argument, NULL, OPT_GRAPH },
	{ "no-time", required_argument, NULL, 'N' },
	{ "time", required_argument, NULL, 'n' },
	{ "drop-arc", required_argument, NULL, 'k' },
	{ "no-static", no_argument, NULL, 'a' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
};

#define NOWN (sizeof own_options / sizeof *own_options)

/* getopt's tables: our options, then the refused ones. */
static struct option longopts[NOWN + NREFUSED + 1];
static char shortopts[128] = ":o:zE:e:F:f:N:n:k:ahVvq::";

static void build_tables(void)
{
	size_t n = NOWN, len = strlen(shortopts);

	memcpy(longopts, own_options, sizeof own_options);
	for (size_t i = 0; i < NREFUSED; i++) {
		if (refused[i].name)
			longopts[n++] = (struct option){ refused[i].name,
							 refused[i].has_arg, NULL,
							 OPT_REFUSED + (int)i };
		if (refused[i].letter) {
			shortopts[len++] = refused[i].letter;
			if (refused[i].has_arg != no_argument)
				shortopts[len++] = ':';
			if (refused[i].has_arg == optional_argument)
				shortopts[len++] = ':';
		}
	}
	shortopts[len] = '\0';
}

/* The refused option written with LETTER. */
static const struct refused *refused_letter(int letter)
{
	for (size_t i = 0; i < NREFUSED; i++)
		if (refused[i].letter == letter)
			return &refused[i];
	return NULL;
}

__attribute__((noreturn))
static void refuse(const struct refused *r, const char *given)
{
	if (!r || !r->instead)	/* -Q or --no-graph without a NAME */
		bad_usage("%s without a NAME would leave out the whole call graph, "
			  "which is what a callgrind file shows; -Q NAME leaves out NAME",
			  given);
	bad_usage("gprof's %s has no meaning here: %s", given, r->instead);
}

/* How the option just parsed was written, for messages. */
static const char *option_text(int argc, char **argv)
{
	const char *arg = optind - 1 < argc ? argv[optind - 1] : "?";

	return arg[0] == '-' ? arg : "option";
}

static void add_selection(struct options *o, int set1, int set2,
			  const char *name)
{
	add_name(&o->sets[set1], name);
	if (set2 >= 0)
		add_name(&o->sets[set2], name);
}

void options_parse(int argc, char **argv, struct options *o)
{
	static char *default_gmon[] = { "gmon.out" };
	int c;

	memset(o, 0, sizeof *o);
	o->demangle = true;
	opterr = 0;		/* errors are reported below, as gmon2cg */
	build_tables();
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'E':
			add_selection(o, SET_EXCL_GRAPH, SET_EXCL_TIME, optarg);
			break;
		case 'e':
			add_selection(o, SET_EXCL_GRAPH, -1, optarg);
			break;
		case 'Q':
		case OPT_NO_GRAPH:
			if (!optarg)
				refuse(NULL, option_text(argc, argv));
			add_selection(o, SET_EXCL_GRAPH, -1, optarg);
			break;
		case 'F':
			add_selection(o, SET_INCL_GRAPH, SET_INCL_TIME, optarg);
			break;
		case 'f':
			add_selection(o, SET_INCL_GRAPH, -1, optarg);
			break;
		case 'q':
		case OPT_GRAPH:
			/* The call graph is always written; with a NAME, only
			 * NAME's part of it, as gprof -qNAME prints. */
			if (optarg)
				add_selection(o, SET_INCL_GRAPH, -1, optarg);
			break;
		case 'N':
			add_selection(o, SET_EXCL_TIME, -1, optarg);
			break;
		case 'n':
			add_selection(o, SET_INCL_TIME, -1, optarg);
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
		case OPT_GZIP:
			o->gzip = true;
			break;
		case 'z':
			o->show_unused = true;
			break;
		case OPT_PARTS:
			o->parts = true;
			break;
		case OPT_DEMANGLE:
			if (optarg && strcmp(optarg, "auto") != 0 &&
			    strcmp(optarg, "gnu-v3") != 0)
				bad_usage("demangling style '%s' is not supported: names are demangled as gnu-v3 (--demangle)",
					  optarg);
			o->demangle = true;
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
		case OPT_PREFIX_MAP:
			if (!strchr(optarg, '=') || optarg[0] == '=')
				bad_usage("--prefix-map needs OLD=NEW, not '%s'", optarg);
			add_name(&o->prefix_maps, optarg);
			break;
		case OPT_DEBUG_DIR:
			o->debug_dir = optarg;
			break;
		case OPT_LIBRARY:
			add_name(&o->libraries, optarg);
			break;
		case OPT_RATE:
			o->rate = (uint32_t)parse_count(optarg, UINT32_MAX, "rate");
			break;
		case OPT_FORCE:
			o->force = true;
			break;
		case OPT_STATS:
			o->stats = true;
			break;
		case OPT_SUMMARY:
			o->summary = optarg ? (unsigned)parse_count(optarg, 1000000,
								     "summary length")
					    : 10;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_SUCCESS);
		case 'V':
		case 'v':
			version();
			exit(EXIT_SUCCESS);
		case ':':
			bad_usage("option '%s' needs an argument",
				  option_text(argc, argv));
		case '?':
			if (optopt)
				bad_usage("unknown option '-%c'", optopt);
			bad_usage("unknown option '%s'", option_text(argc, argv));
		default:
			if (c >= OPT_REFUSED && c < OPT_REFUSED + (int)NREFUSED) {
				refuse(&refused[c - OPT_REFUSED], option_text(argc, argv));
			} else if (refused_letter(c)) {
				char given[3] = { '-', (char)c, '\0' };

				refuse(refused_letter(c), given);
			}
			bad_usage("unknown option '%s'", option_text(argc, argv));
		}
	}
	if (optind >= argc)
		bad_usage("missing EXECUTABLE operand");
	o->exe = argv[optind++];
	o->gmon_files = optind < argc ? &argv[optind] : default_gmon;
	o->ngmon = optind < argc ? argc - optind : 1;
	if (o->output && ends_with(o->output, ".gz"))
		o->gzip = true;
}

void options_release(struct options *o)
{
	for (int i = 0; i < NSETS; i++)
		free(o->sets[i].names);
	free(o->drop_arcs.names);
	free(o->prefix_maps.names);
	free(o->libraries.names);
}
