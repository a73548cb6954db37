/* svg.h -- a flame graph as a self-contained interactive SVG.
 *
 * A browser opens it with nothing fetched: its style and script are in
 * the file.  Each frame is a <g> holding a <title> (name, source, total
 * and self time: what hovering shows), a <rect> whose width is its time
 * and a <text>; the script zooms into a frame clicked, and "Search"
 * marks the frames whose names match and says how much of the total
 * they hold.  Frames come from stacks handed in depth first (flame.c's,
 * as speedscope's JSON has them): a stack shares a frame with the one
 * before it as far as their paths agree, as speedscope's flame chart
 * merges them, so the widths are speedscope's.  The numbers are also the
 * frames' attributes (data-ns: total, data-self: self time, in ns), for
 * tests and tools.
 */
#ifndef GMON2CG_SVG_H
#define GMON2CG_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callgraph.h"
#include "flame.h"
#include "outstream.h"
#include "source_map.h"

struct g2c_error;

/* One frame of the picture: a node of the unrolled tree. */
struct svg_node {
	size_t frame;		/* the stack's frame number */
	unsigned depth;		/* 0: a root */
	uint64_t x, width, self;	/* ns: where it starts, its total,
					 * the stacks that end in it */
};

/* The frames built from stacks as they come. */
struct svg_picture {
	struct svg_node *nodes;
	size_t n, cap;
	size_t open[FLAME_MAX_STACK];	/* the nodes of the last stack */
	size_t nopen;
	uint64_t total;
	unsigned depth;		/* the deepest node's depth + 1 */
};

/* Adds a stack (a flame_stack_fn, CTX the struct svg_picture). */
bool svg_add_stack(void *ctx, const size_t *path, size_t depth, uint64_t weight);

void svg_picture_release(struct svg_picture *p);

/* How a writer shows its frames. */
struct svg_style {
	const char *title;	/* the picture's heading */
	const char *subtitle;	/* under it: what the colours mean, etc. */
	/* Writes node N's name, through PUT (which escapes it). */
	void (*name)(void *ctx, const struct svg_node *n, struct outstream *os,
		     void (*put)(struct outstream *, const char *));
	/* Writes what its title says besides the name and the times: its
	 * source, a change (each line starting "\n"); NULL: nothing. */
	void (*details)(void *ctx, const struct svg_node *n, struct outstream *os);
	/* Its fill, "#rrggbb"; NULL: by its name, a flame's warm colours. */
	const char *(*fill)(void *ctx, const struct svg_node *n);
	/* Writes more attributes of its <rect> (" name=\"value\"..."), such
	 * as an outline; NULL: none. */
	void (*rect_attributes)(void *ctx, const struct svg_node *n, struct outstream *os);
	void *ctx;
};

/* Writes picture P as an SVG file to OS. */
void svg_write(const struct svg_picture *p, const struct svg_style *style,
	       struct outstream *os);

struct svg_info {
	const char *name;	/* the profile's name: its (first) gmon file */
};

/* --format=svg: writes CG as a flame graph, with the source positions of
 * MAP.  Write errors are left in OS for outstream_close(); returns -1
 * with ERR set only when memory runs out. */
int svg_write_profile(const struct callgraph *cg, const struct source_map *map,
		      const struct svg_info *info, struct outstream *os,
		      struct g2c_error *err);

#endif
