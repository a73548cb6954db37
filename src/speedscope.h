/* speedscope.h -- write a call graph in speedscope's own file format.
 *
 * speedscope (https://www.speedscope.app) reads a JSON file of frames and
 * sampled stacks with weights (its file-format-schema.json).  A call graph
 * has no stacks: this writer unrolls it into a tree under gprof's own
 * assumption, that a function's (or a cycle's) inclusive time is split
 * among its callers in proportion to their calls.  A cycle is one frame,
 * "<cycle N>", whose children are its members, each holding its own self
 * time and its calls leaving the cycle.
 *
 * The weights of the stacks that end in a function add up to its self
 * time, so speedscope's sandwich view shows gprof's flat profile.  To keep
 * the file bounded the tree is cut: a node below CUT_SHARE of the total,
 * or deeper than MAX_DEPTH, is not expanded; the self time of everything
 * it calls, directly or not, is written as leaves directly under it, in
 * the shares gprof's propagation gives them.  So every self time is still
 * exact, and so is the total of every function that is never below a cut;
 * a function reached below cuts misses the time it has there from its
 * total, and the flame graph shows that time one level up, under the cut.
 * The 1 ns markers that the callgrind writer gives functions never
 * sampled (see struct cg_func) are no time in this format.
 *
 * The nodes of one depth share out at most the total, so at most
 * 1 / CUT_SHARE of them are expanded per depth; the shares of a cut
 * node are worked out once per component, with at most one entry per
 * sampled function.
 */
#ifndef GMON2CG_SPEEDSCOPE_H
#define GMON2CG_SPEEDSCOPE_H

#include "callgraph.h"
#include "outstream.h"
#include "source_map.h"

struct g2c_error;

/* A node below this share of the total is not expanded (a tenth of a
 * pixel of a flame graph 1 000 pixels wide). */
#define SPEEDSCOPE_CUT_SHARE 1e-4
/* Nor is a node this many calls down from its root. */
#define SPEEDSCOPE_MAX_DEPTH 128

struct speedscope_info {
	const char *name;	/* the profile's name: its (first) gmon file */
	bool in_seconds;	/* the histogram measures time (else "none") */
	/* for tests: other bounds; 0: SPEEDSCOPE_CUT_SHARE, and
	 * SPEEDSCOPE_MAX_DEPTH (also the most there can be) */
	double cut_share;
	unsigned max_depth;
};

/* Writes CG to OS as one sampled profile, with the source positions of
 * MAP.  Write errors are left in OS for outstream_close(); returns -1 with
 * ERR set only when memory runs out. */
int speedscope_write(const struct callgraph *cg, const struct source_map *map,
		     const struct speedscope_info *info, struct outstream *os,
		     struct g2c_error *err);

#endif
