/* gmon_store.h -- the summed profile behind gmon.h, as the readers of
 * gmon.c add to it.
 *
 * Owns how several files are summed into one struct gmon_profile:
 * histograms with identical ranges added bin by bin and disjoint ones
 * kept apart, arcs and basic-block counts appended as read and merged
 * (sorted, each once, counts summed).  Knows nothing of the formats.
 * Also implements the profile's accessors declared in gmon.h.
 */
#ifndef GMON2CG_GMON_STORE_H
#define GMON2CG_GMON_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gmon.h"

struct g2c_error;

/* The histogram of PROF that H (a header: no bins yet) adds to: one with
 * the same range, or a new one without samples.  Anything else is
 * refused: another dimension, another bin size, an overlapping range.
 * Returns NULL with ERR set, NAME being the file's. */
struct gmon_hist *gmon_profile_hist_for(struct gmon_profile *prof,
					const struct gmon_hist *h,
					const char *name,
					struct g2c_error *err);

/* Adds the bins with samples FRESH[0..N) (by index) to HIST's, summing
 * those of one index.  Takes FRESH.  Returns false when out of memory. */
bool gmon_hist_add_counted(struct gmon_hist *hist, struct gmon_bin *fresh,
			   size_t n);

/* Add one call arc or basic-block count of the file NAME.  Return 0, or
 * -1 with ERR set. */
int gmon_profile_add_arc(struct gmon_profile *prof, uint64_t from_pc,
			 uint64_t self_pc, uint64_t count, const char *name,
			 struct g2c_error *err);
int gmon_profile_add_bb(struct gmon_profile *prof, uint64_t addr,
			uint64_t count, const char *name,
			struct g2c_error *err);

/* Merges the arcs and blocks the file NAME added, once it is read.
 * Returns 0, or -1 with ERR set. */
int gmon_profile_merge_file(struct gmon_profile *prof, const char *name,
			    struct g2c_error *err);

#endif
