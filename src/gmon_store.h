/* gmon_store.h -- the summed profile: what gmon.c's readers found in
 * one or more gmon.out files, and what the later stages read.
 *
 * Owns struct gmon_profile and how several files are summed into it, as
 * gprof sums them: histograms with identical ranges added bin by bin and
 * disjoint ones kept side by side, arcs and basic-block counts appended
 * as read and merged (sorted, each (from_pc, self_pc) or block once,
 * counts summed); and what a histogram's bins stand for.  Knows nothing
 * of the formats of the files: gmon.c decodes them and adds their
 * records here, and nothing here calls back into it.
 */
#ifndef GMON2CG_GMON_STORE_H
#define GMON2CG_GMON_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct g2c_error;

/* Which header a file carried; the first file's kind is kept for reports. */
enum gmon_format {
	GMON_FORMAT_TAGGED,	/* "gmon" cookie, version 1 */
	GMON_FORMAT_BSD_OLD,	/* low_pc, high_pc, ncnt; no rate */
	GMON_FORMAT_BSD44,	/* 4.4BSD: adds version and profrate */
	/* glibc's LD_PROFILE=SONAME file, SONAME.profile: "gmon" cookie,
	 * version 0x1ffff.  Its pcs belong to that shared library, not to
	 * the program, so such files are never summed with the others.  The
	 * reader makes them link-time addresses of the library: the
	 * histogram covers its executable pages, and an arc's pcs (offsets
	 * in the file) get the histogram's low_pc added.  Two differences
	 * from gmon.out remain in struct gmon_arc: self_pc is the callee's
	 * entry point, and from_pc is 0 for any caller outside the library
	 * (GMON_FROM_OUTSIDE).  Only calls through a PLT are counted. */
	GMON_FORMAT_LD_PROFILE,
};

/* A histogram bin that has samples.  Most bins of a profile have none
 * (a run of seconds samples a few hundred places of megabytes of code),
 * so only these are kept. */
struct gmon_bin {
	uint64_t index;		/* of the bin in its histogram */
	uint64_t count;		/* summed over files */
};

struct gmon_hist {
	uint64_t low_pc;	/* first address covered */
	uint64_t high_pc;	/* end of the covered range, exclusive */
	uint32_t nbins;
	uint32_t rate;		/* samples per second; 0 = not recorded */
	char dimen[16];		/* e.g. "seconds", NUL-terminated */
	char dimen_abbrev;	/* e.g. 's' */
	struct gmon_bin *counted;	/* the bins with samples, by index */
	size_t ncounted;
};

/* The from_pc of an LD_PROFILE arc whose caller is outside the library. */
#define GMON_FROM_OUTSIDE 0

struct gmon_arc {
	uint64_t from_pc;	/* in the caller (glibc: a hash-bucket start);
				 * GMON_FROM_OUTSIDE: see GMON_FORMAT_LD_PROFILE */
	uint64_t self_pc;	/* just inside the callee (LD_PROFILE: its
				 * entry point) */
	uint64_t count;
};

struct gmon_bb {
	uint64_t addr;
	uint64_t count;
};

struct gmon_profile {
	struct gmon_hist *hists;
	size_t nhists;
	struct gmon_arc *arcs;	/* by from_pc, then self_pc; each pair once */
	size_t narcs;
	struct gmon_bb *bbs;	/* by address, each once */
	size_t nbbs;
	uint64_t samples;	/* in all histograms: the reader refuses more
				   than 64 bits count */
	uint64_t calls;		/* of all arcs, and the executions of all */
	uint64_t executions;	/* blocks: likewise, no more than 64 bits
				   count (so no sum of counts overflows) */
	unsigned nfiles;	/* files added so far */
	enum gmon_format first_format;
	unsigned first_bin_size;	/* its histogram's bytes a bin, and */
	bool first_bins_signed;		/* whether they are signed (FreeBSD) */
	/* LD_PROFILE: calls ld.so did not count because its arc table was
	 * full, summed over files (each file's count is modulo 2^32) */
	uint64_t calls_lost;

	/* private: the records read up to arcs_merged and bbs_merged are
	 * sorted and distinct (see gmon_store.c) */
	size_t arcs_cap, bbs_cap;
	size_t arcs_merged, bbs_merged;
};

void gmon_profile_init(struct gmon_profile *prof);
void gmon_profile_release(struct gmon_profile *prof);

/* Frees PROF's histogram bins, arcs and blocks once they are credited,
 * keeping what describes it (histogram ranges, format, samples,
 * calls_lost); the counts of what was freed become 0. */
void gmon_profile_drop_records(struct gmon_profile *prof);

/* Samples per second: the first histogram's rate, or FALLBACK when the
 * profile has no histogram or its format records no rate (old BSD). */
uint32_t gmon_profile_rate(const struct gmon_profile *prof, uint32_t fallback);

/* Adds the ns PROF's samples stand for at HZ (> 0) samples a second (a
 * sample counting as 1 ns at least) to *NS, the sum over the profiles
 * read so far.  Returns 0, or -1 with ERR set, naming NAME, when the sum
 * reaches 2^63: no cost in 64-bit nanoseconds holds it, nor a 64-bit
 * count the samples of all profiles. */
int gmon_profile_add_ns(const struct gmon_profile *prof, uint32_t hz,
			double *ns, const char *name, struct g2c_error *err);

/* The profil(2) scale glibc used for HIST: a bin index is
 * ((pc - low_pc) / 2) * scale / 65536. */
uint32_t gmon_hist_scale(const struct gmon_hist *hist);

/* Why profil(2) cannot have filled the bins of HIST (which has bins and
 * a non-empty range): a corrupt or hostile range; or NULL.  The reader
 * refuses such a histogram, so that every bin maps to addresses. */
const char *gmon_hist_misfit(const struct gmon_hist *hist);

/* The addresses [*LO, *HI) whose samples profil(2) counts in bin BIN of
 * HIST, a histogram the reader accepted, whose scale is SCALE. */
void gmon_hist_bin_to_pc(const struct gmon_hist *hist, uint32_t scale,
			 uint64_t bin, uint64_t *lo, uint64_t *hi);


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
 * -1 with ERR set: out of memory, or when the counts of all arcs (or of
 * all blocks) so far add up past 64 bits. */
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
