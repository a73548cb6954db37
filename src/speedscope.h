/* speedscope.h -- write a call graph in speedscope's own file format.
 *
 * speedscope (https://www.speedscope.app) reads a JSON file of frames and
 * sampled stacks with weights (its file-format-schema.json): the stacks
 * of the call graph unrolled by flame.c, so that speedscope's sandwich
 * view shows gprof's flat profile and its flame graph the numbers of
 * --format=svg's.
 */
#ifndef GMON2CG_SPEEDSCOPE_H
#define GMON2CG_SPEEDSCOPE_H

#include "callgraph.h"
#include "outstream.h"
#include "source_map.h"

struct g2c_error;

struct speedscope_info {
	const char *name;	/* the profile's name: its (first) gmon file */
	bool in_seconds;	/* the histogram measures time (else "none") */
	/* for tests: other bounds; 0: flame.h's FLAME_CUT_SHARE, and
	 * FLAME_MAX_DEPTH (also the most there can be) */
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
