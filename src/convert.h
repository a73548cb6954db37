/* convert.h -- gmon2cg's conversion, stage by stage.
 *
 * The one place that knows the order of the stages and what each hands
 * the next: the program's objects opened (program) -> their profiles
 * read (gmon) and code opened (code) -> the call graph started
 * (callgraph), its samples and arcs credited to functions (attribution),
 * the profiles and code freed, time propagated (propagate) -> source
 * positions (source_map) -> the numbers checked (outcheck) -> written
 * (callgrind or speedscope) into the output (outstream).
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

struct g2c_error;
struct options;
struct warnings;

/* Converts the profiles O names into O's output (with --parts, one part
 * per gmon.out of the executable), adding what the user should be told to
 * W.  Returns 0, or -1 with ERR set and no output file made. */
int convert_program(const struct options *o, struct warnings *w,
		    struct g2c_error *err);

#endif
