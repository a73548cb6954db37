/* convert.h -- gmon2cg's conversion, stage by stage, as one library call.
 *
 * The one place that knows the order of the stages and what each hands
 * the next: the program's objects opened (program) -> their profiles
 * read (gmon) and code opened (machine_code) -> the call graph started
 * (callgraph), its samples and arcs credited to functions (attribution),
 * the profiles and code freed, time propagated (propagate) -> source
 * positions (source_map) -> the numbers checked (outcheck) -> written
 * (callgrind, speedscope or svg) into the output (outstream).  What a
 * user should be told on the way is collected in struct warnings (the
 * reports are report.c's); the caller prints it.
 *
 * The graph's costs are integer nanoseconds that add up exactly: one
 * sample is 1e9 / hz ns of its object's profile; rounding is cumulative,
 * so the costs of all positions add up to total_ns, each function's
 * calls add up to its inclusive cost, and every arc's sites add up to
 * the arc.  gprof's selections (-E -F -e -f -k) apply as gprof's call
 * graph applies them: only the share of each function's time that gprof
 * propagates counts, and only shown functions and the calls between
 * them are written (the self cost of the others is still part of
 * total_ns).
 */
#ifndef GMON2CG_CONVERT_H
#define GMON2CG_CONVERT_H

#include <stddef.h>

struct cg_selection;
struct g2c_error;
struct gmon_profile;
struct options;
struct outstream;
struct prefix_map;
struct program;
struct warnings;

/* Converts the profiles O names into O's output (with --parts, one part
 * per gmon.out of the executable), adding what the user should be told to
 * W.  Returns 0, or -1 with ERR set and no output file made. */
int convert_program(const struct options *o, struct warnings *w,
		    struct g2c_error *err);

/* What convert_profiles() converts: PROG's objects (symbols and line
 * readers open; their code is opened and closed here) and PROFS[i], the
 * profile read for object i from FILES(i): the executable's FILES[0..N)
 * when PART is not 0 (part PART of --parts), else the object's own. */
struct conversion_input {
	const struct options *o;
	struct program *prog;
	struct gmon_profile *profs;
	const struct prefix_map *maps;	/* O's --prefix-map, parsed */
	const struct cg_selection *sel;	/* O's gprof selections */
	const char **files;
	size_t n;
	unsigned part;
};

/* The stages from read profiles to the output OS: the call graph, its
 * propagation, the source positions, the self-check and the writer.  A
 * profile of gprof -s has PROG's symbol tables folded as gprof folded
 * them.  Returns 0, or -1 with ERR set (OS then holds a part to discard). */
int convert_profiles(const struct conversion_input *in, struct outstream *os,
		     struct warnings *w, struct g2c_error *err);

#endif
