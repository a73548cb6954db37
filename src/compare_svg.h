/* compare_svg.h -- gmon2cg --compare --svg: a differential flame graph.
 *
 * The new side's call graph (compare_result.graph: its functions and
 * calls as the callgrind files hold them, summed over its runs) is
 * unrolled as --format=svg unrolls a profile (flame.c: cycles found
 * again, each call carrying its inclusive cost) and drawn by svg.c:
 * widths are the new side's times, means per run, so that the root
 * frames add up to the report's new total; each frame's fill is its
 * function's verdict (slower or faster beyond noise, within noise,
 * inconclusive, new), a function past a gate (--fail-on) has a heavy
 * outline, and its title carries the report's numbers for it (old, new,
 * change of self and inclusive time and calls) and the verdict in
 * words.  The verdict is also the frame's data-verdict attribute, for
 * tests and tools.
 */
#ifndef GMON2CG_COMPARE_SVG_H
#define GMON2CG_COMPARE_SVG_H

#include "compare.h"
#include "outstream.h"

struct g2c_error;

/* Writes the differential flame graph of R (compared with
 * compare_options.new_graph) to OS.  Write errors are left in OS for
 * outstream_close(); returns -1 with ERR set only when memory runs
 * out. */
int compare_write_svg(struct outstream *os, const struct compare_result *r,
		      const struct compare_options *o, struct g2c_error *err);

#endif
