/* options.h -- what one run of gmon2cg is asked to do: a conversion (its
 * inputs, output and gprof's selections) or a comparison (--compare).
 *
 * Plain data, filled by the command line (cli.h) or by a caller of the
 * library (tests, fuzz harnesses); convert.h and compare_run.h act on it.
 */
#ifndef GMON2CG_OPTIONS_H
#define GMON2CG_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare.h"

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

#endif
