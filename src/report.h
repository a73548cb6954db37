/* report.h -- what gmon2cg says about a conversion besides errors: its
 * warnings (a profile that looks stale, sources not found here, code it
 * cannot decode), the check that the profile belongs to the executable,
 * the desc: lines on what each object's profile held, --stats, the
 * statistics of a conversion, and --summary, gprof's flat profile of the
 * functions with the most self time, for build logs.
 *
 * Used by the conversion (convert.c): the warnings go to struct warnings,
 * the reports to the stream it holds them in (warnings_stream()).
 */
#ifndef GMON2CG_REPORT_H
#define GMON2CG_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "attribution.h"
#include "callgraph.h"
#include "gmon_store.h"
#include "machine_code.h"
#include "program.h"
#include "source_map.h"
#include "warnings.h"

struct g2c_error;

/* Into *LINE, a desc: line saying what was profiled in object PO, from
 * what (PROF), and whether its static functions are missing.  Returns 0,
 * or -1 with ERR set. */
int report_describe_object(char **line, const struct program_object *po,
			   const struct gmon_profile *prof,
			   struct g2c_error *err);

/* PROF, an LD_PROFILE profile read from SOURCE, counted more calls than
 * its arc table holds: the table was full, and the calls it could not
 * record are in no count.  Warns with how many (also a --stats line). */
void report_calls_lost(struct warnings *w, const struct gmon_profile *prof,
		       const char *source);

/* PROF, the profile of object PO read from SOURCE and the other files
 * of NSOURCES, without samples: its time was seen by nobody, which the
 * output alone does not say.  Warns, with the likely cause: a library's
 * LD_PROFILE profile with calls (the program was built with -pg); a
 * profile without histogram (only counts); a run shorter than one tick,
 * or spent in shared libraries. */
void report_no_samples(struct warnings *w, const struct program_object *po,
		       const struct gmon_profile *prof, const char *source,
		       size_t nsources);

/* CODE, needed decoded, could not be: warns, and with STATS says so in
 * the reports. */
void report_no_decoder(struct warnings *w, const struct machine_code *code,
		       bool stats);

/* Says once that the FOLDED functions gprof does not list (such as
 * EXAMPLE) were folded into the function before each, for the sum FILE
 * (program_fold_summed). */
void report_folded(struct warnings *w, const char *file, size_t folded,
		   const char *example);

/* Whether the profile SOURCE (and the others when MORE_SOURCES) belongs
 * to EXE, as CG found it: returns -1 with ERR set when it does not and
 * FORCE is not given; warns when some of its arcs are not after calls. */
int report_check_belongs(struct warnings *w, const struct callgraph *cg,
			 const struct attribution_stats *stats,
			 const char *source, bool more_sources,
			 const char *exe, bool force, struct g2c_error *err);

/* Warns when none of the source files MAP names for CG is here; with
 * STATS counts them on stderr.  Returns 0, or -1 with ERR set. */
int report_sources(struct warnings *w, const struct source_map *map,
		   const struct callgraph *cg, bool stats,
		   struct g2c_error *err);

/* --stats: what was read from the profiles PROFS[k] of PROG's objects
 * (the executable's: FILES[0..N) when FILES is not NULL), attributed and
 * dropped. */
void report_stats(FILE *fp, const struct callgraph *cg,
		  const struct attribution_stats *stats,
		  const struct program *prog, const struct gmon_profile *profs,
		  const char **files, size_t n);

/* --summary: gprof's flat profile of the ROWS functions with the most
 * self time, ordered as gprof orders it, names whole, as gprof prints it
 * under the same selections. */
void report_summary(FILE *fp, const struct callgraph *cg, unsigned rows);

#endif
