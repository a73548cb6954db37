/* flame.h -- a call graph unrolled into a flame graph's stacks.
 *
 * A call graph has no stacks: this unrolls it into a tree under gprof's
 * own assumption, that a function's (or a cycle's) inclusive time is
 * split among its callers in proportion to their calls.  A cycle is one
 * frame, "<cycle N>", whose children are its members, each holding its
 * own self time and its calls leaving the cycle.  The stacks are handed
 * to the caller depth first, each with its weight (rounded by running
 * sums, so that the weights add up to the rounded total); the writers of
 * speedscope's JSON (speedscope.c) and of the SVG flame graph (svg.c)
 * share them, so both show the same numbers.
 *
 * The weights of the stacks that end in a function add up to its self
 * time (gprof's flat profile).  To keep the output bounded the tree is
 * cut: a node below FLAME_CUT_SHARE of the total, or deeper than
 * FLAME_MAX_DEPTH, is not expanded; the self time of everything it
 * calls, directly or not, is given as leaves directly under it, in the
 * shares gprof's propagation gives them.  So every self time is still
 * exact, and so is the total of every function that is never below a
 * cut; a function reached below cuts misses the time it has there from
 * its total, and the flame graph shows that time one level up, under the
 * cut.  The 1 ns markers that the callgrind writer gives functions never
 * sampled (see struct cg_func) are no time here.
 *
 * The nodes of one depth share out at most the total, so at most
 * 1 / FLAME_CUT_SHARE of them are expanded per depth; the shares of a cut
 * node are worked out once per component, with at most one entry per
 * sampled function.
 */
#ifndef GMON2CG_FLAME_H
#define GMON2CG_FLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callgraph.h"
#include "outstream.h"

struct g2c_error;

/* A node below this share of the total is not expanded (a tenth of a
 * pixel of a flame graph 1 000 pixels wide). */
#define FLAME_CUT_SHARE 1e-4
/* Nor is a node this many calls down from its root. */
#define FLAME_MAX_DEPTH 128
/* The most frames a stack has: a cycle's frame and its member's at
 * every depth, and the leaves under a cut. */
#define FLAME_MAX_STACK (2 * FLAME_MAX_DEPTH + 4)

/* What a frame stands for: a function, or a cycle. */
struct flame_frame {
	size_t what;		/* the function's number, or the cycle's */
	bool is_cycle;
};

/* The frames of the stacks, numbered as they are first met. */
struct flame_frames {
	struct flame_frame *frames;
	size_t n, cap;
};

/* Called with each stack, PATH[0..DEPTH) frame numbers from the root,
 * and its weight (ns, rounded; never 0).  Returns false to stop (out of
 * memory). */
typedef bool flame_stack_fn(void *ctx, const size_t *path, size_t depth,
			    uint64_t weight);

struct flame_bounds {
	double cut_share;	/* 0: FLAME_CUT_SHARE */
	unsigned max_depth;	/* 0: FLAME_MAX_DEPTH (also the most there can be) */
};

/* Unrolls CG's shown functions, handing each stack to STACK with CTX,
 * into FRAMES (released by the caller whatever the answer), and sets
 * *TOTAL to the weights' sum.  Returns 0, or -1 with ERR set when memory
 * runs out or STACK says stop. */
int flame_unroll(const struct callgraph *cg, const struct flame_bounds *bounds,
		 flame_stack_fn *stack, void *ctx, struct flame_frames *frames,
		 uint64_t *total, struct g2c_error *err);

void flame_frames_release(struct flame_frames *frames);

/* How a cycle's frame is named: "<cycle N>", N its number. */
#define FLAME_CYCLE_NAME "<cycle %zu>"

/* Writes FRAME's name as the callgrind writer names the function ("<cycle
 * N>" for a cycle; without the labels that keep KCachegrind from merging
 * namesakes: a flame graph tells frames apart by number), each piece of
 * it through PUT, which escapes it for the output's format. */
void flame_put_name(const struct callgraph *cg, const struct flame_frame *frame,
		    struct outstream *os,
		    void (*put)(struct outstream *os, const char *s));

#endif
