/* source_map.h -- the source file and line of every position written.
 *
 * The stage between the call graph and the writer: for every function
 * the writer shows it finds the home file and entry line, and for every
 * cost and call site the file and line, so that the writer writes a
 * resolved model and reads no debug information.  It asks each object's
 * source lines (object_lines.h) and rewrites the file names by the prefix
 * maps; struct source_map owns the rewritten names.
 */
#ifndef GMON2CG_SOURCE_MAP_H
#define GMON2CG_SOURCE_MAP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "callgraph.h"
#include "diag.h"
#include "hashindex.h"

struct g2c_error;
struct object_lines;

/* A resolved position: FILE is never NULL. */
struct src_pos {
	const char *file;
	unsigned line;		/* 0: no line information */
};

struct source_map {
	struct src_pos *home;	/* per function: its file and entry line */
	struct src_pos *cost;	/* per cg->costs[i] */
	struct src_pos *site;	/* per cg->sites[i] */

	/* private: file names rewritten by a prefix map */
	struct mapped_name *mapped;
	size_t mapped_cap;
	struct hash_index mapped_index;	/* of mapped, by pointer */
};

/* Source file names as gcc's -ffile-prefix-map=OLD=NEW rewrites them: a
 * name that starts with OLD starts with NEW instead; where several OLDs
 * match, the longest wins. */
struct prefix_map {
	const char *old, *new;
	size_t old_len;
};

/* The map of MAPS[0..NMAPS) that rewrites FILE (the one with the longest
 * OLD that FILE starts with), or NULL where none does. */
const struct prefix_map *prefix_map_find(const struct prefix_map *maps,
					 size_t nmaps, const char *file);

/* The line tables of every object being read for CG's positions, on a
 * thread of their own: source_map_read_lines starts it, and
 * source_map_lines_wait waits for it.  Every field is private. */
struct source_map_lines {
	struct object_lines *const *lines;
	size_t nobjs;
	pthread_t thread;
	bool threaded;
	int rc;
	struct g2c_error err;
};

/* Starts reading the line tables of CG's objects (*LINES[K] object K's)
 * for the positions source_map_build will look up with ONLY_THESE (and
 * OUTERMOST as it is given), while the caller propagates CG: the
 * positions of every function that may be shown, known before
 * propagation.  Nothing else may use LINES until source_map_lines_wait.
 * Returns 0, or -1 with ERR set. */
int source_map_read_lines(struct source_map_lines *rl,
			  const struct callgraph *cg,
			  struct object_lines *const *lines, bool outermost,
			  struct g2c_error *err);

/* Waits until RL's tables are read.  Returns 0, or -1 with ERR set (out
 * of memory reading them). */
int source_map_lines_wait(struct source_map_lines *rl, struct g2c_error *err);

/* Resolves every position of the shown functions of CG, whose object K
 * has its line information in *LINES[K].  Code inlined from elsewhere is
 * at its own file and line, or with OUTERMOST at the line of the
 * outermost call.  Where there is no line information a function's file
 * is "???", as callgrind writes it, and a position's file its function's
 * file.  File names are rewritten by MAPS[0..NMAPS).  With ONLY_THESE, these
 * positions are the last looked up in LINES (no other part of the
 * profile follows), so the line tables keep only the rows they need;
 * with READ_AHEAD, source_map_read_lines read them for CG already.
 * Returns 0, or -1 with ERR set. */
int source_map_build(struct source_map *map, const struct callgraph *cg,
		     struct object_lines *const *lines, bool outermost,
		     bool only_these, bool read_ahead,
		     const struct prefix_map *maps, size_t nmaps,
		     struct g2c_error *err);

/* Counts the distinct source files of the program's own that MAP names
 * for CG (not "???", not the system's or the compiler's headers) into
 * *NAMED, and those that exist on this machine (relative names from the
 * current directory) into *FOUND; *EXAMPLE is one that does not.
 * Returns 0, or -1 when memory runs out. */
int source_map_count_files(const struct source_map *map,
			   const struct callgraph *cg, size_t *named,
			   size_t *found, const char **example);

void source_map_release(struct source_map *map);

#endif
