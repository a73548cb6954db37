/* gmon.c -- the gmon.out formats decoded: GNU tagged, old and 4.4BSD,
 * LD_PROFILE.  Each file is recognised by its first bytes, read record by
 * record in the profiled object's byte order within the bounds of its code
 * span, and added to the summed profile (gmon_store.c). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "gmon.h"
#include "gmon_format.h"
#include "gmon_store.h"
#include "instream.h"
#include "util.h"

/* The arcs ld.so's table has room for, for TEXTSIZE bytes of code, with
 * glibc's limit MAX_ARCS (fromlimit in elf/dl-profile.c). */
static uint64_t ld_profile_arc_limit(uint64_t textsize, uint64_t max_arcs)
{
	uint64_t limit = textsize / 100 * LD_PROFILE_ARC_DENSITY +
			 textsize % 100 * LD_PROFILE_ARC_DENSITY / 100;

	if (limit > max_arcs)
		limit = max_arcs;
	return limit < LD_PROFILE_MIN_ARCS ? LD_PROFILE_MIN_ARCS : limit;
}

/* Whether NSLOTS slots are the whole arc table ld.so writes for TEXTSIZE
 * bytes of code in a process with ADDR_SIZE-byte pointers: room for
 * fromlimit arcs times the size of its own per-arc record (a pointer and
 * a 16-bit link, padded: two pointers' size), of which only the first
 * fromlimit slots are ever taken.  MAXARCS was 65534 in older glibc. */
static bool ld_profile_table_is_whole(uint64_t textsize, unsigned addr_size,
				      uint64_t nslots)
{
	return nslots == 2 * addr_size * ld_profile_arc_limit(textsize, LD_PROFILE_OLD_MAX_ARCS) ||
	       nslots == 2 * addr_size * ld_profile_arc_limit(textsize, GLIBC_MAX_ARCS);
}

/* One file's bytes, decoded in the target's byte order. */
struct reader {
	struct instream *in;
	const struct gmon_target *target;
	const char *name;		/* for messages only */
	struct g2c_error *err;
	uint64_t records, max_records;	/* see file_limits() */
	uint64_t bins, max_bins;
	unsigned bin_size;		/* bytes in a histogram bin */
	bool bins_signed;		/* FreeBSD: a signed bin type */
	bool carries_data;		/* bins, arcs or blocks were read */
};

/* What one file may hold: no run records more bins than profil(2) can use
 * for the object's code (one per 2 bytes), nor more records than 2^20
 * (glibc's MAXARCS) plus one per 4 bytes of it (glibc's table holds one
 * arc per 33 bytes; a basic block is longer than 4 bytes).  A stream that
 * goes on past that is hostile or corrupt, and is stopped there. */
static void file_limits(struct reader *r)
{
	uint64_t span = r->target->code_span;

	r->max_bins = span ? span / 2 + 1 : UINT64_MAX;
	r->max_records = span ? GLIBC_MAX_ARCS + span / 4 : UINT64_MAX;
}

/* The SIZE-byte field at P. */
static uint64_t decode_bytes(const unsigned char *p, unsigned size,
			     bool big_endian)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < size; i++) {
		unsigned shift = big_endian ? 8 * (size - 1 - i) : 8 * i;
		v |= (uint64_t)p[i] << shift;
	}
	return v;
}

static uint32_t decode_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint32_t decode_be32(const unsigned char *p)
{
	return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[0] << 24;
}

/* The SIZE-byte field at P.  Addresses and counts of 4 and 8 bytes, which
 * every arc's fields are, are put together from 32-bit halves, which the
 * compiler makes single loads. */
static inline uint64_t decode(const unsigned char *p, unsigned size,
			      bool big_endian)
{
	if (size == 4)
		return big_endian ? decode_be32(p) : decode_le32(p);
	if (size == 8)
		return big_endian ?
		       (uint64_t)decode_be32(p) << 32 | decode_be32(p + 4) :
		       (uint64_t)decode_le32(p + 4) << 32 | decode_le32(p);
	return decode_bytes(p, size, big_endian);
}

/* The version word of a file that starts with the tagged cookie. */
static uint32_t tagged_version(const unsigned char *head, bool big_endian)
{
	return (uint32_t)decode(head + GMON_MAGIC_SIZE, GMON_VERSION_SIZE,
				big_endian);
}

/* Decodes a SIZE-byte field at *P in the target's byte order, and moves
 * *P past it. */
static inline uint64_t get(const struct reader *r, const unsigned char **p,
		    unsigned size)
{
	uint64_t v = decode(*p, size, r->target->big_endian);

	*p += size;
	return v;
}

static uint64_t get_addr(const struct reader *r, const unsigned char **p)
{
	return get(r, p, r->target->addr_size);
}

/* The arc at P: from_pc, self_pc and a COUNT_SIZE-byte count. */
static struct gmon_arc decode_arc(const struct reader *r,
				  const unsigned char *p, unsigned count_size)
{
	struct gmon_arc arc;

	arc.from_pc = get_addr(r, &p);
	arc.self_pc = get_addr(r, &p);
	arc.count = get(r, &p, count_size);
	return arc;
}

static int add_arc(struct gmon_profile *prof, struct reader *r,
		   struct gmon_arc arc)
{
	if (gmon_profile_add_arc(prof, arc.from_pc, arc.self_pc, arc.count,
				 r->name, r->err) < 0)
		return -1;
	r->carries_data = true;
	return 0;
}

static int add_bb(struct gmon_profile *prof, struct reader *r, uint64_t addr,
		  uint64_t count)
{
	if (gmon_profile_add_bb(prof, addr, count, r->name, r->err) < 0)
		return -1;
	r->carries_data = true;
	return 0;
}

/* Counts one more record of the file against its limit. */
static int count_record(struct reader *r)
{
	if (++r->records <= r->max_records)
		return 0;
	return g2c_error_set(r->err,
			     "%s: more than %llu records, more than a profile of %llu bytes of code can hold (corrupted or hostile file)",
			     r->name, (unsigned long long)r->max_records,
			     (unsigned long long)r->target->code_span);
}

/* Bytes of bins read at a time. */
#define BIN_CHUNK_BYTES 8192

/* A signed bin below zero: a count of nothing, which no cost can show. */
static int negative_bin(struct reader *r, const char *what, uint64_t start,
			uint64_t index, uint64_t raw)
{
	uint64_t sign = (uint64_t)1 << (8 * r->bin_size - 1);
	/* sign-extended to 64 bits; all of them when the bin has 64 */
	int64_t value = (int64_t)(raw | ~(2 * sign - 1));

	return g2c_error_set(r->err,
			     "%s: %s at offset %llu: bin %llu holds a negative count (%lld; corrupted file?)",
			     r->name, what, (unsigned long long)start,
			     (unsigned long long)index, (long long)value);
}

static int bins_out_of_memory(struct reader *r, const struct gmon_hist *h)
{
	return g2c_error_set(r->err, "%s: out of memory for %u histogram bins",
			     r->name, h->nbins);
}

/* Reads the NBINS counts of H (each R->bin_size bytes), of the record
 * WHAT that spans START..END, and sets *FRESH[0..*NFRESH) to those that
 * have samples, by index.  Returns 0, or -1 with R->err set and nothing
 * to free. */
static int read_counted_bins(struct reader *r, const struct gmon_hist *h,
			     const char *what, uint64_t start, uint64_t end,
			     struct gmon_bin **fresh, size_t *nfresh)
{
	uint32_t chunk = BIN_CHUNK_BYTES / r->bin_size;
	uint32_t per_word = sizeof (uint64_t) / r->bin_size;
	uint64_t sign = (uint64_t)1 << (8 * r->bin_size - 1);
	size_t cap = 0;

	*fresh = NULL;
	*nfresh = 0;
	for (uint32_t done = 0; done < h->nbins;) {
		unsigned char raw[BIN_CHUNK_BYTES];
		const unsigned char *p = raw;
		uint32_t n = h->nbins - done < chunk ? h->nbins - done : chunk;

		if (instream_take(r->in, raw, r->bin_size * (size_t)n, what,
				  start, end, r->err) < 0)
			goto fail;
		for (uint32_t i = 0; i < n; i++) {
			uint64_t count, word;
			struct gmon_bin *grown;

			/* most bins are empty: pass over them 8 bytes at a time */
			if (i + per_word <= n) {
				memcpy(&word, p, sizeof word);
				if (word == 0) {
					p += sizeof word;
					i += per_word - 1;
					continue;
				}
			}
			count = get(r, &p, r->bin_size);
			if (!count)
				continue;
			if (r->bins_signed && (count & sign)) {
				negative_bin(r, what, start, done + i, count);
				goto fail;
			}
			grown = array_grow(*fresh, &cap, *nfresh + 1, sizeof **fresh);
			if (!grown) {
				bins_out_of_memory(r, h);
				goto fail;
			}
			*fresh = grown;
			(*fresh)[(*nfresh)++] = (struct gmon_bin){ done + i, count };
		}
		done += n;
	}
	*fresh = array_fit(*fresh, &cap, *nfresh, sizeof **fresh);
	return 0;
fail:
	free(*fresh);
	return -1;
}

/* Adds the histogram whose header, read from the record WHAT at START, is
 * in H; its NBINS counts follow.  Only bins with samples are kept,
 * as they arrive, so a record that claims more than the file holds costs
 * no more than the file. */
static int add_hist(struct gmon_profile *prof, struct reader *r,
		    const struct gmon_hist *h, const char *what, uint64_t start)
{
	uint64_t end = r->in->pos + (uint64_t)h->nbins * r->bin_size;
	struct gmon_hist *target;
	struct gmon_bin *fresh;
	size_t nfresh;
	const char *misfit;

	if (h->high_pc < h->low_pc)
		return g2c_error_set(r->err,
				     "%s: %s at offset %llu ends (0x%llx) before it starts (0x%llx)",
				     r->name, what, (unsigned long long)start,
				     (unsigned long long)h->high_pc,
				     (unsigned long long)h->low_pc);
	if (h->nbins == 0)
		return 0;	/* covers nothing, carries nothing */
	if (h->high_pc == h->low_pc)
		return g2c_error_set(r->err,
				     "%s: %s at offset %llu has %u bins for an empty address range",
				     r->name, what, (unsigned long long)start,
				     h->nbins);
	if ((misfit = gmon_hist_misfit(h)))
		return g2c_error_set(r->err,
				     "%s: %s at offset %llu has %u bins for 0x%llx-0x%llx: %s (corrupted or hostile file)",
				     r->name, what, (unsigned long long)start,
				     h->nbins, (unsigned long long)h->low_pc,
				     (unsigned long long)h->high_pc, misfit);
	if (h->nbins > r->max_bins - r->bins)
		return g2c_error_set(r->err,
				     "%s: %s at offset %llu has %u bins, more than %llu bytes of code can use (corrupted or hostile file)",
				     r->name, what, (unsigned long long)start,
				     h->nbins,
				     (unsigned long long)r->target->code_span);
	r->bins += h->nbins;
	target = gmon_profile_hist_for(prof, h, r->name, r->err);
	if (!target ||
	    read_counted_bins(r, h, what, start, end, &fresh, &nfresh) < 0)
		return -1;
	for (size_t i = 0; i < nfresh; i++) {
		if (fresh[i].count > UINT64_MAX - prof->samples) {
			free(fresh);
			return g2c_error_set(r->err,
					     "%s: %s at offset %llu: more samples than 64 bits count (corrupted or hostile file)",
					     r->name, what, (unsigned long long)start);
		}
		prof->samples += fresh[i].count;
	}
	if (!gmon_hist_add_counted(target, fresh, nfresh))
		return bins_out_of_memory(r, h);
	r->carries_data = true;
	return 0;
}

/* The histogram header past the tag: low_pc, high_pc, nbins, rate,
 * dimension and its abbreviation. */
static int take_hist_header(struct reader *r, struct gmon_hist *h,
			    uint64_t start)
{
	unsigned char raw[GMON_HIST_HEADER_SIZE(8)];
	const unsigned char *p = raw;

	if (instream_take_record(r->in, raw,
				 GMON_HIST_HEADER_SIZE(r->target->addr_size),
				 "histogram record", start, r->err) < 0)
		return -1;
	h->low_pc = get_addr(r, &p);
	h->high_pc = get_addr(r, &p);
	h->nbins = (uint32_t)get(r, &p, 4);
	h->rate = (uint32_t)get(r, &p, 4);
	memcpy(h->dimen, p, GMON_HIST_DIMEN_SIZE);
	p += GMON_HIST_DIMEN_SIZE;
	h->dimen_abbrev = (char)*p;
	return 0;
}

static int read_tagged_hist(struct gmon_profile *prof, struct reader *r,
			    uint64_t start)
{
	struct gmon_hist h = { 0 };

	if (take_hist_header(r, &h, start) < 0)
		return -1;
	return add_hist(prof, r, &h, "histogram record", start);
}

static int read_tagged_arc(struct gmon_profile *prof, struct reader *r,
			   uint64_t start)
{
	unsigned char raw[GMON_ARC_SIZE(8)];

	if (instream_take_record(r->in, raw, GMON_ARC_SIZE(r->target->addr_size),
				 "call-arc record", start, r->err) < 0)
		return -1;
	return add_arc(prof, r, decode_arc(r, raw, 4));
}

static int read_tagged_bb(struct gmon_profile *prof, struct reader *r,
			  uint64_t start, uint32_t version)
{
	unsigned P = r->target->addr_size;
	unsigned char raw[GMON_BB_SIZE(8)];
	const unsigned char *p = raw;
	uint64_t n, end;

	if (version == GMON_VERSION_OLD)
		return g2c_error_set(r->err,
				     "%s: basic-block record at offset %llu uses the version 0 layout, which is not portable and not supported",
				     r->name, (unsigned long long)start);
	if (instream_take_record(r->in, raw, GMON_BB_COUNT_SIZE,
				 "basic-block record", start,
				 r->err) < 0)
		return -1;
	n = get(r, &p, GMON_BB_COUNT_SIZE);
	end = r->in->pos + n * GMON_BB_SIZE(P);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t addr, count;

		p = raw;
		if (count_record(r) < 0 ||
		    instream_take(r->in, raw, GMON_BB_SIZE(P), "basic-block record", start,
				  end, r->err) < 0)
			return -1;
		addr = get_addr(r, &p);
		count = get(r, &p, P);
		if (add_bb(prof, r, addr, count) < 0)
			return -1;
	}
	return 0;
}

static int read_tagged(struct gmon_profile *prof, struct reader *r)
{
	unsigned char header[GMON_HEADER_SIZE];
	uint32_t version;

	if (instream_take_record(r->in, header, GMON_HEADER_SIZE,
				 "file header", 0, r->err) < 0)
		return -1;
	version = tagged_version(header, r->target->big_endian);
	if (version != GMON_VERSION && version != GMON_VERSION_OLD)
		return g2c_error_set(r->err,
				     "%s: unsupported gmon.out version %u (only 1 is known)",
				     r->name, version);
	for (;;) {
		uint64_t start = r->in->pos;
		unsigned char tag;
		size_t got;
		int rc;

		if (instream_read(r->in, &tag, 1, &got, r->err) < 0)
			return -1;
		if (got == 0)
			return 0;
		if (count_record(r) < 0)
			return -1;
		switch (tag) {
		case GMON_TAG_TIME_HIST:
			rc = read_tagged_hist(prof, r, start);
			break;
		case GMON_TAG_CG_ARC:
			rc = read_tagged_arc(prof, r, start);
			break;
		case GMON_TAG_BB_COUNT:
			rc = read_tagged_bb(prof, r, start, version);
			break;
		default:
			return g2c_error_set(r->err,
					     "%s: unknown record tag %u at offset %llu (file corrupted?)",
					     r->name, tag, (unsigned long long)start);
		}
		if (rc < 0)
			return rc;
	}
}

/* LD_PROFILE's arc table, which starts at the current position: its tag,
 * the number of slots taken, then slots to the end of the file.  ld.so
 * sizes the table from the library's program headers, and the count of
 * slots taken goes on growing (one per call not counted) once the table
 * is full.  Arcs are offsets from the histogram's LOW_PC, inside its
 * TEXTSIZE bytes. */
static int read_ld_arc_table(struct gmon_profile *prof, struct reader *r,
			     uint64_t low_pc, uint64_t textsize)
{
	size_t slot_size = LD_PROFILE_ARC_SIZE(r->target->addr_size);
	unsigned char raw[LD_PROFILE_ARC_SIZE(8)];
	const unsigned char *p = raw;
	uint64_t start = r->in->pos, nslots = 0, counted = 0;
	/* (the table's size is fixed by TEXTSIZE, and slots are not kept:
	 * they count against this bound, not the file's record bound) */
	uint64_t max_slots = 2 * (uint64_t)r->target->addr_size *
			     ld_profile_arc_limit(textsize, GLIBC_MAX_ARCS);
	uint32_t narcs;

	if (instream_take_record(r->in, raw, LD_PROFILE_ARC_TABLE_HEADER_SIZE,
				 "call-arc table", start, r->err) < 0)
		return -1;
	if (get(r, &p, LD_PROFILE_TAG_SIZE) != GMON_TAG_CG_ARC)
		return g2c_error_set(r->err,
				     "%s: LD_PROFILE file without its call-arc table at offset %llu",
				     r->name, (unsigned long long)start);
	narcs = (uint32_t)get(r, &p, 4);
	for (;;) {
		uint64_t at = r->in->pos;
		struct gmon_arc slot;
		size_t got;

		if (instream_read(r->in, raw, slot_size, &got, r->err) < 0)
			return -1;
		if (got == 0)
			break;
		if (got < slot_size)
			return g2c_error_set(r->err,
					     "%s: LD_PROFILE call-arc table at offset %llu is not a whole number of %zu-byte slots (%llu bytes; truncated?)",
					     r->name, (unsigned long long)start,
					     slot_size,
					     (unsigned long long)(r->in->pos - start -
								  LD_PROFILE_ARC_TABLE_HEADER_SIZE));
		if (nslots == max_slots)
			return g2c_error_set(r->err,
					     "%s: LD_PROFILE call-arc table at offset %llu has more slots than ld.so makes for 0x%llx bytes of code (%llu)",
					     r->name, (unsigned long long)start,
					     (unsigned long long)textsize,
					     (unsigned long long)max_slots);
		slot = decode_arc(r, raw, 4);
		if (nslots++ >= narcs || slot.count == 0)
			continue;	/* a slot not taken, or never counted */
		if (slot.from_pc >= textsize || slot.self_pc >= textsize)
			return g2c_error_set(r->err,
					     "%s: LD_PROFILE arc at offset %llu lies outside the profiled range (file corrupted?)",
					     r->name, (unsigned long long)at);
		slot.from_pc = slot.from_pc ? low_pc + slot.from_pc
					    : GMON_FROM_OUTSIDE;
		slot.self_pc += low_pc;
		if (count_record(r) < 0 || add_arc(prof, r, slot) < 0)
			return -1;
		counted++;
	}
	/* More slots taken than present: the table was full (the count
	 * goes on growing by one per call not counted), and then it is all
	 * there, or the file was cut short of the slots in use. */
	if (narcs > nslots &&
	    !ld_profile_table_is_whole(textsize, r->target->addr_size, nslots))
		return g2c_error_set(r->err,
				     "%s: truncated LD_PROFILE call-arc table at offset %llu (%u slots taken, %llu present)",
				     r->name, (unsigned long long)start, narcs,
				     (unsigned long long)nslots);
	prof->calls_lost += narcs - counted;
	return 0;
}

/* The LD_PROFILE layout: the header, the histogram of the library's
 * executable pages and the arc table. */
static int read_ld_profile(struct gmon_profile *prof, struct reader *r)
{
	unsigned char raw[GMON_HEADER_SIZE];
	const unsigned char *p = raw;
	struct gmon_hist h = { 0 };
	uint64_t textsize, start = GMON_HEADER_SIZE;

	if (instream_take_record(r->in, raw, GMON_HEADER_SIZE, "file header",
				 0, r->err) < 0 ||
	    instream_take_record(r->in, raw, LD_PROFILE_TAG_SIZE,
				 "histogram record", start, r->err) < 0)
		return -1;
	if (get(r, &p, LD_PROFILE_TAG_SIZE) != GMON_TAG_TIME_HIST)
		return g2c_error_set(r->err,
				     "%s: LD_PROFILE file without its histogram record at offset %llu",
				     r->name, (unsigned long long)start);
	if (take_hist_header(r, &h, start) < 0)
		return -1;
	textsize = h.high_pc - h.low_pc;
	if (h.high_pc <= h.low_pc ||
	    textsize / LD_PROFILE_BYTES_PER_BIN != h.nbins ||
	    textsize % LD_PROFILE_BYTES_PER_BIN != 0)
		return g2c_error_set(r->err,
				     "%s: LD_PROFILE histogram has %u bins for 0x%llx-0x%llx; ld.so writes one bin per %d bytes",
				     r->name, h.nbins,
				     (unsigned long long)h.low_pc,
				     (unsigned long long)h.high_pc,
				     LD_PROFILE_BYTES_PER_BIN);
	if (add_hist(prof, r, &h, "histogram record", start) < 0)
		return -1;
	return read_ld_arc_table(prof, r, h.low_pc, textsize);
}

/* The arcs after a BSD histogram, to the end of the file. */
static int read_bsd_arcs(struct gmon_profile *prof, struct reader *r)
{
	unsigned P = r->target->addr_size;
	unsigned char raw[BSD_ARC_SIZE(8)];

	for (;;) {
		uint64_t start = r->in->pos;
		size_t got;

		if (instream_read(r->in, raw, BSD_ARC_SIZE(P), &got, r->err) < 0)
			return -1;
		if (got == 0)
			return 0;
		if (got < BSD_ARC_SIZE(P))
			return instream_truncated(r->in, "BSD call-arc record",
						  start, start + BSD_ARC_SIZE(P),
						  r->err);
		if (count_record(r) < 0)
			return -1;
		/* A BSD arc's count is a C long: address-sized but on LLP64,
		 * where the record keeps its size and only the low 4 bytes
		 * count. */
		if (add_arc(prof, r, decode_arc(r, raw, r->target->llp64 ? 4 : P)) < 0)
			return -1;
	}
}

/* The first spare word of a 4.4BSD header whose spare words are SPARE
 * (see gmon_format.h): FreeBSD's bin type goes into R, OpenBSD's length
 * of the arcs into *ARC_BYTES (0 when the arcs go to the end of the
 * file).  Other writers zero the words or, as MinGW, leave them
 * uninitialised: a value that means neither, or one followed by words
 * that are not zero, is ignored as gprof ignores all three. */
static void read_bsd44_spare(struct reader *r, const unsigned char *spare,
			     uint64_t *arc_bytes)
{
	const unsigned char *p = spare;
	uint32_t word = (uint32_t)get(r, &p, 4);
	uint32_t width = word & 0x80000000u ? 0u - word : word;
	bool rest_zero = get(r, &p, 4) == 0 && get(r, &p, 4) == 0;

	*arc_bytes = 0;
	if (!rest_zero || word == 0)
		return;
	switch (width) {
	case 8: case 16: case 32: case 64:
		r->bin_size = width / 8;
		r->bins_signed = word != width;
		return;
	}
	if (word < 0x80000000u && word % BSD_ARC_SIZE(r->target->addr_size) == 0)
		*arc_bytes = word;
}

/* The arcs after a BSD histogram, to the end of the file; ARC_BYTES of
 * them when that is not 0 (OpenBSD's header says how many). */
static int read_bsd_arc_data(struct gmon_profile *prof, struct reader *r,
			     uint64_t arc_bytes)
{
	uint64_t start = r->in->pos, got;

	if (read_bsd_arcs(prof, r) < 0)
		return -1;
	got = r->in->pos - start;
	if (arc_bytes == 0 || got == arc_bytes)
		return 0;
	return g2c_error_set(r->err,
			     got < arc_bytes ?
			     "%s: truncated call arcs at offset %llu (the OpenBSD header declares %llu bytes, %llu present)" :
			     "%s: call arcs at offset %llu run past their end (the OpenBSD header declares %llu bytes, %llu present; corrupted file?)",
			     r->name, (unsigned long long)start,
			     (unsigned long long)arc_bytes,
			     (unsigned long long)got);
}

/* The BSD layouts have no magic number; as in gprof, the 4.4BSD header is
 * recognised by its version word and everything else is the old header.
 * HEAD holds the file's first HEAD_LEN bytes. */
static int read_bsd(struct gmon_profile *prof, struct reader *r,
		    const unsigned char *head, size_t head_len,
		    enum gmon_format *format)
{
	unsigned P = r->target->addr_size;
	size_t old_size = BSD_OLD_HEADER_SIZE(P);
	size_t bsd44_size = BSD44_HEADER_SIZE(P);
	struct gmon_hist h = { .dimen = "seconds", .dimen_abbrev = 's' };
	const unsigned char *p = head;
	uint64_t ncnt, nbins, arc_bytes = 0;
	size_t header_size = old_size;

	if (head_len < old_size)
		return g2c_error_set(r->err,
				     "%s: truncated BSD header at offset 0 (%zu bytes needed, %zu present)",
				     r->name, old_size, head_len);
	h.low_pc = get_addr(r, &p);
	h.high_pc = get_addr(r, &p);
	ncnt = get(r, &p, 4);
	*format = GMON_FORMAT_BSD_OLD;
	if (head_len >= old_size + 8 && get(r, &p, 4) == BSD44_VERSION) {
		if (head_len < bsd44_size)
			return g2c_error_set(r->err,
					     "%s: truncated 4.4BSD header at offset 0 (%zu bytes needed, %zu present)",
					     r->name, bsd44_size, head_len);
		h.rate = (uint32_t)get(r, &p, 4);
		read_bsd44_spare(r, head + BSD44_SPARE_OFFSET(P), &arc_bytes);
		header_size = bsd44_size;
		*format = GMON_FORMAT_BSD44;
	}
	/* gprof's test for a file that is no profile at all */
	if (ncnt < header_size || h.high_pc < h.low_pc)
		return g2c_error_set(r->err,
				     "%s: not a gmon.out file (no \"gmon\" cookie, and no valid BSD header)",
				     r->name);
	nbins = (ncnt - header_size) / r->bin_size;
	if (nbins > r->max_bins)
		return g2c_error_set(r->err,
				     "%s: not a gmon.out file (no \"gmon\" cookie; as a BSD file its histogram would have %llu bins, more than %llu bytes of code can use)",
				     r->name, (unsigned long long)nbins,
				     (unsigned long long)r->target->code_span);
	h.nbins = (uint32_t)nbins;
	instream_unread(r->in, head + header_size, head_len - header_size);
	if (add_hist(prof, r, &h, "BSD histogram", 0) < 0) {
		if (r->in->cut_short)
			g2c_error_set(r->err,
				      "%s: not a gmon.out file, or a truncated BSD one (no \"gmon\" cookie; as a BSD file it would need %llu bytes, it has %llu)",
				      r->name,
				      (unsigned long long)(header_size + nbins * r->bin_size),
				      (unsigned long long)r->in->pos);
		return -1;
	}
	return read_bsd_arc_data(prof, r, arc_bytes);
}

/* Reads the file IN into PROF. */
static int add_input(struct gmon_profile *prof,
		     const struct gmon_target *target, struct instream *in,
		     struct g2c_error *err)
{
	struct reader r = { .in = in, .target = target, .name = in->name,
			    .err = err, .bin_size = GMON_BIN_SIZE };
	enum gmon_format format = GMON_FORMAT_TAGGED;
	unsigned char head[GMON_LONGEST_HEADER_SIZE];
	size_t head_len;
	int rc;

	if (target->addr_size != 4 && target->addr_size != 8)
		return g2c_error_set(err, "%s: unsupported address size %u",
				     in->name, target->addr_size);
	file_limits(&r);
	/* The first bytes decide the format; they are then read again. */
	if (instream_read(in, head, sizeof head, &head_len, err) < 0)
		return -1;
	if (head_len == 0)
		return g2c_error_set(err, "%s: empty file", in->name);
	if (gmon_is_ld_profile(head, head_len)) {
		format = GMON_FORMAT_LD_PROFILE;
		if (tagged_version(head, target->big_endian) != LD_PROFILE_VERSION)
			return g2c_error_set(err,
					     "%s: LD_PROFILE file in %s-endian byte order, for a %s-endian object",
					     in->name, target->big_endian ? "little" : "big",
					     target->big_endian ? "big" : "little");
	}
	if (prof->nfiles > 0 &&
	    (format == GMON_FORMAT_LD_PROFILE) !=
	    (prof->first_format == GMON_FORMAT_LD_PROFILE))
		return g2c_error_set(err,
				     "%s: a shared-library profile (LD_PROFILE) and a program profile cannot be summed: their addresses belong to different objects",
				     in->name);
	if (head_len >= GMON_MAGIC_SIZE &&
	    memcmp(head, GMON_MAGIC, GMON_MAGIC_SIZE) == 0) {
		instream_unread(in, head, head_len);
		rc = format == GMON_FORMAT_LD_PROFILE ? read_ld_profile(prof, &r)
						       : read_tagged(prof, &r);
	} else {
		rc = read_bsd(prof, &r, head, head_len, &format);
	}
	if (rc < 0)
		return rc;
	if (gmon_profile_merge_file(prof, in->name, err) < 0)
		return -1;
	/* gprof: "gmon.out file is missing histogram" */
	if (!r.carries_data)
		return g2c_error_set(err,
				     "%s: empty profile: no histogram, no call arcs, no basic-block counts",
				     in->name);
	if (prof->nfiles++ == 0) {
		prof->first_format = format;
		prof->first_bin_size = r.bin_size;
		prof->first_bins_signed = r.bins_signed;
	}
	return 0;
}

int gmon_profile_add_buffer(struct gmon_profile *prof,
			    const struct gmon_target *target,
			    const unsigned char *data, size_t len,
			    const char *name, struct g2c_error *err)
{
	struct instream in;

	instream_from_buffer(&in, data, len, name);
	return add_input(prof, target, &in, err);
}

bool gmon_is_ld_profile(const unsigned char *data, size_t len)
{
	return len >= GMON_MAGIC_SIZE + GMON_VERSION_SIZE &&
	       memcmp(data, GMON_MAGIC, GMON_MAGIC_SIZE) == 0 &&
	       (tagged_version(data, false) == LD_PROFILE_VERSION ||
		tagged_version(data, true) == LD_PROFILE_VERSION);
}

/* The first bytes of PATH, plain or gzip-compressed, into HEAD. */
static int read_head(const char *path, unsigned char *head, size_t size,
		     size_t *got, struct g2c_error *err)
{
	struct instream in;
	int rc;

	if (instream_open(&in, path, err) < 0)
		return -1;
	rc = instream_read(&in, head, size, got, err);
	instream_close(&in);
	return rc;
}

int gmon_file_is_ld_profile(const char *path, bool *yes,
			    struct g2c_error *err)
{
	unsigned char head[GMON_MAGIC_SIZE + GMON_VERSION_SIZE];
	size_t got;
	int rc = read_head(path, head, sizeof head, &got, err);

	*yes = rc == 0 && gmon_is_ld_profile(head, got);
	return rc;
}

bool gmon_file_has_cookie(const char *path)
{
	unsigned char head[GMON_MAGIC_SIZE];
	struct g2c_error ignored;
	size_t got;

	return read_head(path, head, sizeof head, &got, &ignored) == 0 &&
	       got == sizeof head && memcmp(head, "gmon", sizeof head) == 0;
}

int gmon_profile_add_file(struct gmon_profile *prof,
			  const struct gmon_target *target, const char *path,
			  struct g2c_error *err)
{
	struct instream in;
	int rc;

	if (instream_open(&in, path, err) < 0)
		return -1;
	rc = add_input(prof, target, &in, err);
	instream_close(&in);
	return rc;
}
