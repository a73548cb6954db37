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
 * Several files may be added to one profile (struct gmon_profile, owned
 * by gmon_store.h, which sums them as gprof does).  LD_PROFILE files are
 * summed only with each other (they should all profile the same build of
 * one library).
 * Files are read as a stream, record by record, and gzip-compressed ones
 * are inflated as they are read.  Nothing is allocated from a size a file
 * declares: arcs, blocks and bins are stored as they arrive, and each file
 * is bounded by the code of its object (gmon_target.code_span), so neither
 * a gzip bomb nor an endless device makes the reader grow without end.
 *
 * gmon.c reads the formats (their constants in gmon_format.h), through
 * instream.h for the bytes, into the summed profile of gmon_store.h; the
 * store never calls back.
 */
#ifndef GMON2CG_GMON_H
#define GMON2CG_GMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gmon_store.h"

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

#endif
