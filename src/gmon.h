/* gmon.h -- read gprof gmon.out files into one summed profile.
 *
 * Owns the on-disk formats: the GNU tagged format (histogram, call-arc and
 * basic-block records), the old and 4.4BSD layouts, and the profile glibc's
 * dynamic loader writes for one shared library under LD_PROFILE (see
 * GMON_FORMAT_LD_PROFILE).  Nothing here knows about symbols: the address
 * width and byte order of the profiled object arrive in a struct
 * gmon_target filled by the resolver, so this module can be tested on
 * hand-made byte buffers.
 *
 * Several files may be added to one profile; they are summed as gprof sums
 * them: histograms with identical ranges are added bin by bin, disjoint ones
 * are kept side by side, arcs with the same (from_pc, self_pc) are added.
 * LD_PROFILE files are summed only with each other (they should all profile
 * the same build of one library).
 * Files are read as a stream, record by record, and gzip-compressed ones
 * are inflated as they are read.  Nothing is allocated from a size a file
 * declares: arcs, blocks and bins are stored as they arrive, and each file
 * is bounded by the code of its object (gmon_target.code_span), so neither
 * a gzip bomb nor an endless device makes the reader grow without end.
 *
 * gmon.c reads the formats (their constants in gmon_format.h), through
 * instream.h for the bytes, into the summed profile of gmon_store.h.
 */
#ifndef GMON2CG_GMON_H
#define GMON2CG_GMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct g2c_error;

struct gmon_target {
	unsigned addr_size;	/* bytes in an address: 4 or 8 */
	bool big_endian;
	/* Bytes of address space the object's loaded sections span (with
	 * their headers), 0 when unknown.  Bounds what one file may hold:
	 * its histograms' bins (profil(2) uses at most one per 2 bytes of
	 * code) and its records (at most 2^20, glibc's most arcs, plus one
	 * per 4 bytes).  A file beyond that is refused before it is read on. */
	uint64_t code_span;
	/* 64-bit Windows (LLP64): a C long is 4 bytes, so a BSD arc's count
	 * is 4 bytes and 4 of padding that MinGW-w64 leaves uninitialised. */
	bool llp64;
};

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

/* Adds the gmon data in DATA[0..LEN) to PROF.  NAME is used only in error
 * messages.  A file that carries nothing (a header without histogram bins,
 * arcs or blocks) is refused, as gprof refuses it.  Returns 0, or -1 with
 * ERR set; after an error PROF may hold part of the file and is fit only
 * for gmon_profile_release(). */
int gmon_profile_add_buffer(struct gmon_profile *prof,
			    const struct gmon_target *target,
			    const unsigned char *data, size_t len,
			    const char *name, struct g2c_error *err);

/* Whether DATA[0..LEN) begins like an LD_PROFILE file, in either byte
 * order.  Lets a caller send such a file to the library it profiles before
 * it knows that library's address size and byte order. */
bool gmon_is_ld_profile(const unsigned char *data, size_t len);

/* Whether PATH (plain or gzip-compressed) starts with the "gmon" cookie
 * of glibc's profiles, gmon.out and LD_PROFILE files alike. */
bool gmon_file_has_cookie(const char *path);

/* Sets *YES to whether PATH (plain or gzip-compressed) is an LD_PROFILE
 * file.  Returns 0, or -1 with ERR set when PATH cannot be read. */
int gmon_file_is_ld_profile(const char *path, bool *yes,
			    struct g2c_error *err);

/* Reads PATH (plain or gzip-compressed) and adds it as above.  A gzip file
 * must be whole: cut short, failing its check, or followed by anything but
 * another gzip member, it is refused. */
int gmon_profile_add_file(struct gmon_profile *prof,
			  const struct gmon_target *target,
			  const char *path, struct g2c_error *err);

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

#endif
