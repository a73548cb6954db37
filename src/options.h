/* options.h -- gmon2cg's command line.
 *
 * Part of the command-line layer (with main.c and report.c): parses the
 * options into struct options, writes --help and --version, and refuses
 * gprof's report options with a pointer to what does the job here.  It
 * says what to do; main.c prints and decides the exit status.
 */
#ifndef GMON2CG_OPTIONS_H
#define GMON2CG_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare.h"

/* EXIT_GATE: gmon2cg --compare found a change past a --fail-on gate. */
enum { EXIT_DATA = 1, EXIT_USAGE = 2, EXIT_GATE = 3 };

/* gprof's fallback when a profile records no rate (old BSD layout). */
#define DEFAULT_RATE 100

/* gprof's function sets, filled from -e -E -f -F -n -N (and -q, -Q). */
enum { SET_EXCL_TIME, SET_INCL_TIME, SET_EXCL_GRAPH, SET_INCL_GRAPH, NSETS };

/* What the output is written as (--format). */
enum output_format { FORMAT_CALLGRIND, FORMAT_SPEEDSCOPE, FORMAT_SVG };

struct name_list {
	const char **names;
	size_t n;
};

struct options {
	const char *output;	/* NULL: stdout */
	const char *exe;
	char **gmon_files;	/* none: program_open() picks the default */
	int ngmon;
	bool demangle;
	const char *debug_dir;
	bool no_inline;
	enum output_format format;
	bool no_instr;		/* "positions: line" */
	bool gzip;
	bool force;
	bool parts;
	bool stats;
	bool version;		/* --version: with stats, the architectures too */
	bool show_unused;	/* gprof -z */
	unsigned summary;	/* rows of the flat profile on stderr; 0: none */
	uint32_t rate;		/* 0: from the profile */
	bool no_statics;
	struct name_list sets[NSETS];
	struct name_list drop_arcs;	/* "FROM/TO" */
	struct name_list prefix_maps;	/* "OLD=NEW" */
	struct name_list libraries;	/* --library: shared library paths */
	char *usage_error;	/* with OPTIONS_USAGE_ERROR: what is wrong */
	/* --compare OLD NEW: the profiles of each side, comma-separated */
	bool compare;
	char *compare_operands[2];	/* copies of OLD and NEW, cut at commas */
	struct name_list compare_files[2];	/* into them */
	struct compare_gate *gates;	/* --fail-on */
	size_t ngates;
	double alpha;		/* --alpha; default DEFAULT_ALPHA */
	double min_time_ns;	/* --min-time */
	double machine_noise;	/* --machine-noise, percent */
	const char *junit;	/* --junit=FILE */
	bool annotations;	/* --annotations=github: on stdout */
	const char *markdown;	/* --markdown=FILE */
	const char *codequality;	/* --codequality=FILE */
	const char *svg;	/* --svg=FILE */
	bool show_all;		/* --all */
	const char *compare_only;	/* the first option only --compare takes */
	const char *convert_only;	/* the first one --compare does not take */
};

/* The family-wise level of --compare's tests. */
#define DEFAULT_ALPHA 0.01

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

/* Whether PATH (of -o, --junit...; NULL: none given) is standard output. */
bool names_stdout(const char *path);

void options_write_help(FILE *fp);
void options_write_version(FILE *fp, const struct options *o);

void options_release(struct options *o);

#endif
