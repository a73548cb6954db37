/* gmon.c -- read gprof gmon.out files into one summed profile. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "diag.h"
#include "util.h"
#include "gmon.h"

/* GNU tagged format (glibc gmon/sys/gmon_out.h). */
#define TAGGED_HEADER_SIZE 20
enum { TAG_TIME_HIST = 0, TAG_CG_ARC = 1, TAG_BB_COUNT = 2 };
#define HIST_DIMEN_SIZE 15

/* 4.4BSD header version word (sys/gmon.h GMONVERSION). */
#define BSD44_VERSION 0x00051879u

/* glibc's LD_PROFILE file (elf/dl-profile.c): the tagged header with
 * version GMON_SHOBJ_VERSION, then 4-byte tags, a histogram with one 16-bit
 * bin per 4 bytes (HISTFRACTION * sizeof (HISTCOUNTER)) of the library's
 * executable pages, and a fixed table of packed arc slots. */
#define LD_PROFILE_VERSION 0x0001ffffu
#define LD_PROFILE_BYTES_PER_BIN 4

/* The fewest arcs ld.so's table has room for, for TEXTSIZE bytes of code:
 * 3% of them (ARCDENSITY), at least 50 (MINARCS), at most MAXARCS, which
 * was 65534 in older glibc and is 1 << 20 now.  The table's slots are more
 * than that, so a file with fewer slots than this and than its count of
 * slots taken has been cut short. */
static uint64_t ld_profile_min_arcs(uint64_t textsize)
{
	uint64_t limit = textsize / 100 * 3 + textsize % 100 * 3 / 100;

	if (limit > 65534)
		limit = 65534;
	return limit < 50 ? 50 : limit;
}

/* A cursor over one file's bytes, decoding in the target's byte order. */
struct reader {
	const unsigned char *data;
	size_t len, pos;
	const struct gmon_target *target;
	const char *name;	/* for messages only */
	struct g2c_error *err;
};

static size_t remaining(const struct reader *r)
{
	return r->len - r->pos;
}

/* Fails with a message naming WHAT unless N more bytes are present. */
static int need(struct reader *r, uint64_t n, const char *what, size_t start)
{
	if (remaining(r) >= n)
		return 0;
	return g2c_error_set(r->err,
			     "%s: truncated %s at offset %zu (%llu bytes needed, %zu present)",
			     r->name, what, start,
			     (unsigned long long)(n + (r->pos - start)),
			     r->len - start);
}

static uint64_t decode(const struct reader *r, size_t pos, unsigned size)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < size; i++) {
		unsigned shift = r->target->big_endian ? 8 * (size - 1 - i) : 8 * i;
		v |= (uint64_t)r->data[pos + i] << shift;
	}
	return v;
}

/* Callers have checked with need() that SIZE bytes remain. */
static uint64_t take(struct reader *r, unsigned size)
{
	uint64_t v = decode(r, r->pos, size);

	r->pos += size;
	return v;
}

static uint64_t take_addr(struct reader *r)
{
	return take(r, r->target->addr_size);
}

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15u ^ (b + 0x632be59bd9b4e019u + (a << 6));

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9u;
	return h ^ (h >> 32);
}

/* An open-addressing index from a (key1, key2) pair to a position in an
 * array of records; slots hold position + 1, 0 = empty.  Used for arcs
 * (from_pc, self_pc) and basic blocks (addr, 0). */
struct pair_index {
	uint32_t **slots;
	size_t *cap;
};

typedef void pair_keys_fn(const void *records, size_t i, uint64_t *k1,
			  uint64_t *k2);

static int index_rehash(struct pair_index ix, const void *records,
			size_t count, pair_keys_fn *keys)
{
	size_t cap = *ix.cap ? *ix.cap * 2 : 64;
	uint32_t *slots = calloc(cap, sizeof *slots);

	if (!slots)
		return -1;
	for (size_t i = 0; i < count; i++) {
		uint64_t k1, k2;
		size_t s;

		keys(records, i, &k1, &k2);
		s = mix(k1, k2) & (cap - 1);
		while (slots[s])
			s = (s + 1) & (cap - 1);
		slots[s] = (uint32_t)(i + 1);
	}
	free(*ix.slots);
	*ix.slots = slots;
	*ix.cap = cap;
	return 0;
}

/* Returns the slot for (K1, K2): either the one holding that record, or the
 * empty one where it belongs. */
static uint32_t *index_find(struct pair_index ix, const void *records,
			    uint64_t k1, uint64_t k2, pair_keys_fn *keys)
{
	size_t cap = *ix.cap;
	size_t s = mix(k1, k2) & (cap - 1);

	for (;;) {
		uint32_t *slot = &(*ix.slots)[s];
		uint64_t a, b;

		if (!*slot)
			return slot;
		keys(records, *slot - 1, &a, &b);
		if (a == k1 && b == k2)
			return slot;
		s = (s + 1) & (cap - 1);
	}
}

static void arc_keys(const void *records, size_t i, uint64_t *k1, uint64_t *k2)
{
	const struct gmon_arc *arc = (const struct gmon_arc *)records + i;

	*k1 = arc->from_pc;
	*k2 = arc->self_pc;
}

static void bb_keys(const void *records, size_t i, uint64_t *k1, uint64_t *k2)
{
	*k1 = ((const struct gmon_bb *)records)[i].addr;
	*k2 = 0;
}

/* Finds or appends the record with keys (K1, K2) in a records array that a
 * pair_index keeps unique; returns its position or SIZE_MAX when out of
 * memory.  A new record is zeroed; the caller sets its fields. */
static size_t upsert(void **records, size_t *count, size_t *cap, size_t elem,
		     struct pair_index ix, uint64_t k1, uint64_t k2,
		     pair_keys_fn *keys)
{
	uint32_t *slot;
	void *p;

	/* Keep the load factor at or below one half. */
	if ((*count + 1) * 2 > *ix.cap &&
	    index_rehash(ix, *records, *count, keys) < 0)
		return SIZE_MAX;
	slot = index_find(ix, *records, k1, k2, keys);
	if (*slot)
		return *slot - 1;
	if (*count >= UINT32_MAX - 1)
		return SIZE_MAX;
	p = array_grow(*records, cap, *count + 1, elem);
	if (!p)
		return SIZE_MAX;
	*records = p;
	memset((char *)p + *count * elem, 0, elem);
	*slot = (uint32_t)(*count + 1);
	return (*count)++;
}

static int add_arc(struct gmon_profile *prof, struct reader *r,
		   uint64_t from_pc, uint64_t self_pc, uint64_t count)
{
	struct pair_index ix = { &prof->arc_index, &prof->arc_index_cap };
	void *records = prof->arcs;
	size_t i = upsert(&records, &prof->narcs, &prof->arcs_cap,
			  sizeof *prof->arcs, ix, from_pc, self_pc, arc_keys);

	prof->arcs = records;
	if (i == SIZE_MAX)
		return g2c_error_set(r->err, "%s: out of memory for call arcs",
				     r->name);
	prof->arcs[i].from_pc = from_pc;
	prof->arcs[i].self_pc = self_pc;
	prof->arcs[i].count = add_saturating(prof->arcs[i].count, count);
	return 0;
}

static int add_bb(struct gmon_profile *prof, struct reader *r, uint64_t addr,
		  uint64_t count)
{
	struct pair_index ix = { &prof->bb_index, &prof->bb_index_cap };
	void *records = prof->bbs;
	size_t i = upsert(&records, &prof->nbbs, &prof->bbs_cap,
			  sizeof *prof->bbs, ix, addr, 0, bb_keys);

	prof->bbs = records;
	if (i == SIZE_MAX)
		return g2c_error_set(r->err,
				     "%s: out of memory for basic-block counts",
				     r->name);
	prof->bbs[i].addr = addr;
	prof->bbs[i].count = add_saturating(prof->bbs[i].count, count);
	return 0;
}

void gmon_profile_init(struct gmon_profile *prof)
{
	memset(prof, 0, sizeof *prof);
}

void gmon_profile_release(struct gmon_profile *prof)
{
	for (size_t i = 0; i < prof->nhists; i++)
		free(prof->hists[i].bins);
	free(prof->hists);
	free(prof->arcs);
	free(prof->bbs);
	free(prof->arc_index);
	free(prof->bb_index);
	gmon_profile_init(prof);
}

/* gprof's measure of bin width, used to refuse mixing histograms whose
 * bins have different sizes. */
static double hist_units_per_bin(uint64_t low_pc, uint64_t high_pc,
				 uint32_t nbins)
{
	return (double)((high_pc - low_pc) / 2) / nbins;
}

/* Adds a histogram whose header is in H and whose NBINS u16 counts start at
 * R's current position (already checked to be present).  Identical ranges
 * are summed; disjoint ranges are kept; anything else is refused. */
static int add_hist(struct gmon_profile *prof, struct reader *r,
		    const struct gmon_hist *h, size_t record_start)
{
	struct gmon_hist *target = NULL;

	if (h->high_pc < h->low_pc)
		return g2c_error_set(r->err,
				     "%s: histogram record at offset %zu ends (0x%llx) before it starts (0x%llx)",
				     r->name, record_start,
				     (unsigned long long)h->high_pc,
				     (unsigned long long)h->low_pc);
	if (h->nbins == 0)
		return 0;	/* covers nothing, carries nothing */
	if (h->high_pc == h->low_pc)
		return g2c_error_set(r->err,
				     "%s: histogram record at offset %zu has %u bins for an empty address range",
				     r->name, record_start, h->nbins);
	for (size_t i = 0; i < prof->nhists; i++) {
		struct gmon_hist *o = &prof->hists[i];

		if (strcmp(o->dimen, h->dimen) != 0 ||
		    o->dimen_abbrev != h->dimen_abbrev)
			return g2c_error_set(r->err,
					     "%s: histogram measures '%s', but an earlier one measures '%s'",
					     r->name, h->dimen, o->dimen);
		if (fabs(hist_units_per_bin(o->low_pc, o->high_pc, o->nbins) -
			 hist_units_per_bin(h->low_pc, h->high_pc, h->nbins)) > 1e-6)
			return g2c_error_set(r->err,
					     "%s: histogram for 0x%llx-0x%llx has a different bin size than the one for 0x%llx-0x%llx",
					     r->name,
					     (unsigned long long)h->low_pc,
					     (unsigned long long)h->high_pc,
					     (unsigned long long)o->low_pc,
					     (unsigned long long)o->high_pc);
		if (o->low_pc == h->low_pc && o->high_pc == h->high_pc &&
		    o->nbins == h->nbins) {
			target = o;
			break;
		}
		if (h->low_pc < o->high_pc && o->low_pc < h->high_pc)
			return g2c_error_set(r->err,
					     "%s: histogram for 0x%llx-0x%llx overlaps the one for 0x%llx-0x%llx without matching it",
					     r->name,
					     (unsigned long long)h->low_pc,
					     (unsigned long long)h->high_pc,
					     (unsigned long long)o->low_pc,
					     (unsigned long long)o->high_pc);
	}
	if (!target) {
		struct gmon_hist *hists = realloc(prof->hists,
						  (prof->nhists + 1) * sizeof *hists);

		if (!hists)
			return g2c_error_set(r->err, "%s: out of memory", r->name);
		prof->hists = hists;
		target = &hists[prof->nhists];
		*target = *h;
		target->bins = calloc(h->nbins, sizeof *target->bins);
		if (!target->bins)
			return g2c_error_set(r->err,
					     "%s: out of memory for %u histogram bins",
					     r->name, h->nbins);
		prof->nhists++;
	}
	for (uint32_t i = 0; i < h->nbins; i++)
		target->bins[i] += take(r, 2);
	return 0;
}

static int read_tagged_hist(struct gmon_profile *prof, struct reader *r,
			    size_t start)
{
	struct gmon_hist h = { 0 };
	unsigned P = r->target->addr_size;

	if (need(r, 2 * P + 8 + HIST_DIMEN_SIZE + 1, "histogram record", start))
		return -1;
	h.low_pc = take_addr(r);
	h.high_pc = take_addr(r);
	h.nbins = (uint32_t)take(r, 4);
	h.rate = (uint32_t)take(r, 4);
	memcpy(h.dimen, r->data + r->pos, HIST_DIMEN_SIZE);
	r->pos += HIST_DIMEN_SIZE;
	h.dimen_abbrev = (char)r->data[r->pos++];
	if (need(r, (uint64_t)h.nbins * 2, "histogram record", start))
		return -1;
	return add_hist(prof, r, &h, start);
}

static int read_tagged_arc(struct gmon_profile *prof, struct reader *r,
			   size_t start)
{
	unsigned P = r->target->addr_size;
	uint64_t from_pc, self_pc, count;

	if (need(r, 2 * P + 4, "call-arc record", start))
		return -1;
	from_pc = take_addr(r);
	self_pc = take_addr(r);
	count = take(r, 4);
	return add_arc(prof, r, from_pc, self_pc, count);
}

static int read_tagged_bb(struct gmon_profile *prof, struct reader *r,
			  size_t start, uint32_t version)
{
	unsigned P = r->target->addr_size;
	uint64_t n;

	if (version == 0)
		return g2c_error_set(r->err,
				     "%s: basic-block record at offset %zu uses the version 0 layout, which is not portable and not supported",
				     r->name, start);
	if (need(r, 4, "basic-block record", start))
		return -1;
	n = take(r, 4);
	if (need(r, n * 2 * P, "basic-block record", start))
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t addr = take_addr(r);
		uint64_t count = take(r, P);

		if (add_bb(prof, r, addr, count) < 0)
			return -1;
	}
	return 0;
}

static int read_tagged(struct gmon_profile *prof, struct reader *r)
{
	uint32_t version;

	r->pos = 4;
	version = (uint32_t)take(r, 4);
	if (version != 1 && version != 0)
		return g2c_error_set(r->err,
				     "%s: unsupported gmon.out version %u (only 1 is known)",
				     r->name, version);
	r->pos = TAGGED_HEADER_SIZE;
	while (remaining(r) > 0) {
		size_t start = r->pos;
		unsigned tag = r->data[r->pos++];
		int rc;

		switch (tag) {
		case TAG_TIME_HIST:
			rc = read_tagged_hist(prof, r, start);
			break;
		case TAG_CG_ARC:
			rc = read_tagged_arc(prof, r, start);
			break;
		case TAG_BB_COUNT:
			rc = read_tagged_bb(prof, r, start, version);
			break;
		default:
			return g2c_error_set(r->err,
					     "%s: unknown record tag %u at offset %zu (file corrupted?)",
					     r->name, tag, start);
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The LD_PROFILE layout, past the header.  ld.so maps the file and updates
 * it in place, so its sizes come from the library's program headers: the
 * arc table fills the rest of the file and is preceded by the number of
 * slots taken, which goes on growing (one per call not counted) once the
 * table is full. */
static int read_ld_profile(struct gmon_profile *prof, struct reader *r)
{
	unsigned P = r->target->addr_size;
	size_t slot_size = 2 * P + 4, start = TAGGED_HEADER_SIZE;
	struct gmon_hist h = { 0 };
	uint64_t textsize, nslots, in_use, counted = 0;
	uint32_t narcs;

	r->pos = start;
	if (need(r, 4 + 2 * P + 8 + HIST_DIMEN_SIZE + 1, "histogram record", start))
		return -1;
	if (take(r, 4) != TAG_TIME_HIST)
		return g2c_error_set(r->err,
				     "%s: LD_PROFILE file without its histogram record at offset %zu",
				     r->name, start);
	h.low_pc = take_addr(r);
	h.high_pc = take_addr(r);
	h.nbins = (uint32_t)take(r, 4);
	h.rate = (uint32_t)take(r, 4);
	memcpy(h.dimen, r->data + r->pos, HIST_DIMEN_SIZE);
	r->pos += HIST_DIMEN_SIZE;
	h.dimen_abbrev = (char)r->data[r->pos++];
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
	if (need(r, (uint64_t)h.nbins * 2, "histogram record", start) < 0 ||
	    add_hist(prof, r, &h, start) < 0)
		return -1;

	start = r->pos;
	if (need(r, 8, "call-arc table", start))
		return -1;
	if (take(r, 4) != TAG_CG_ARC)
		return g2c_error_set(r->err,
				     "%s: LD_PROFILE file without its call-arc table at offset %zu",
				     r->name, start);
	narcs = (uint32_t)take(r, 4);
	if (remaining(r) % slot_size != 0)
		return g2c_error_set(r->err,
				     "%s: LD_PROFILE call-arc table at offset %zu is not a whole number of %zu-byte slots (%zu bytes; truncated?)",
				     r->name, start, slot_size, remaining(r));
	nslots = remaining(r) / slot_size;
	if (narcs > nslots && nslots < ld_profile_min_arcs(textsize))
		return g2c_error_set(r->err,
				     "%s: truncated LD_PROFILE call-arc table at offset %zu (%u slots taken, %llu present)",
				     r->name, start, narcs,
				     (unsigned long long)nslots);
	in_use = narcs < nslots ? narcs : nslots;
	for (uint64_t i = 0; i < in_use; i++) {
		size_t at = r->pos;
		uint64_t from_off = take_addr(r);
		uint64_t self_off = take_addr(r);
		uint64_t count = take(r, 4);

		if (count == 0)
			continue;	/* a slot taken but never counted */
		if (from_off >= textsize || self_off >= textsize)
			return g2c_error_set(r->err,
					     "%s: LD_PROFILE arc at offset %zu lies outside the profiled range (file corrupted?)",
					     r->name, at);
		if (add_arc(prof, r,
			    from_off ? h.low_pc + from_off : GMON_FROM_OUTSIDE,
			    h.low_pc + self_off, count) < 0)
			return -1;
		counted++;
	}
	prof->calls_lost += narcs - counted;
	return 0;
}

/* The BSD layouts have no magic number; as in gprof, the 4.4BSD header is
 * recognised by its version word and everything else is the old header. */
static int read_bsd(struct gmon_profile *prof, struct reader *r,
		    enum gmon_format *format)
{
	unsigned P = r->target->addr_size;
	size_t old_size = 2 * P + 4, bsd44_size = 2 * P + 24;
	struct gmon_hist h = { .dimen = "seconds", .dimen_abbrev = 's' };
	uint64_t ncnt, nbins;
	size_t header_size = old_size;

	if (need(r, old_size, "BSD header", 0))
		return -1;
	h.low_pc = take_addr(r);
	h.high_pc = take_addr(r);
	ncnt = take(r, 4);
	*format = GMON_FORMAT_BSD_OLD;
	if (remaining(r) >= 8 && decode(r, r->pos, 4) == BSD44_VERSION) {
		if (need(r, bsd44_size - old_size, "4.4BSD header", 0))
			return -1;
		r->pos += 4;
		h.rate = (uint32_t)take(r, 4);
		r->pos += 12;
		header_size = bsd44_size;
		*format = GMON_FORMAT_BSD44;
	}
	/* gprof's test for a file that is no profile at all */
	if (ncnt < header_size || h.high_pc < h.low_pc)
		return g2c_error_set(r->err,
				     "%s: not a gmon.out file (no \"gmon\" cookie, and no valid BSD header)",
				     r->name);
	nbins = (ncnt - header_size) / 2;
	if (remaining(r) < nbins * 2)
		return g2c_error_set(r->err,
				     "%s: not a gmon.out file, or a truncated BSD one (no \"gmon\" cookie; as a BSD file it would need %llu bytes, it has %zu)",
				     r->name,
				     (unsigned long long)(r->pos + nbins * 2),
				     r->len);
	h.nbins = (uint32_t)nbins;
	if (add_hist(prof, r, &h, 0) < 0)
		return -1;
	while (remaining(r) > 0) {
		size_t start = r->pos;
		uint64_t from_pc, self_pc, count;

		/* Arc counts are address-sized in the BSD layouts. */
		if (need(r, 3 * P, "BSD call-arc record", start))
			return -1;
		from_pc = take_addr(r);
		self_pc = take_addr(r);
		count = take(r, P);
		if (add_arc(prof, r, from_pc, self_pc, count) < 0)
			return -1;
	}
	return 0;
}

int gmon_profile_add_buffer(struct gmon_profile *prof,
			    const struct gmon_target *target,
			    const unsigned char *data, size_t len,
			    const char *name, struct g2c_error *err)
{
	struct reader r = { data, len, 0, target, name, err };
	enum gmon_format format = GMON_FORMAT_TAGGED;
	bool tagged;
	int rc;

	if (target->addr_size != 4 && target->addr_size != 8)
		return g2c_error_set(err, "%s: unsupported address size %u",
				     name, target->addr_size);
	if (len == 0)
		return g2c_error_set(err, "%s: empty file", name);
	tagged = len >= 4 && memcmp(data, "gmon", 4) == 0;
	if (gmon_is_ld_profile(data, len)) {
		format = GMON_FORMAT_LD_PROFILE;
		if (decode(&r, 4, 4) != LD_PROFILE_VERSION)
			return g2c_error_set(err,
					     "%s: LD_PROFILE file in %s-endian byte order, for a %s-endian object",
					     name, target->big_endian ? "little" : "big",
					     target->big_endian ? "big" : "little");
	}
	if (prof->nfiles > 0 &&
	    (format == GMON_FORMAT_LD_PROFILE) !=
	    (prof->first_format == GMON_FORMAT_LD_PROFILE))
		return g2c_error_set(err,
				     "%s: a shared-library profile (LD_PROFILE) and a program profile cannot be summed: their addresses belong to different objects",
				     name);
	if (tagged && need(&r, TAGGED_HEADER_SIZE, "file header", 0))
		return -1;
	if (format == GMON_FORMAT_LD_PROFILE) {
		rc = read_ld_profile(prof, &r);
	} else if (tagged) {
		rc = read_tagged(prof, &r);
	} else {
		rc = read_bsd(prof, &r, &format);
	}
	if (rc < 0)
		return rc;
	if (prof->nfiles++ == 0)
		prof->first_format = format;
	return 0;
}

bool gmon_is_ld_profile(const unsigned char *data, size_t len)
{
	static const unsigned char little[4] = { 0xff, 0xff, 0x01, 0x00 };
	static const unsigned char big[4] = { 0x00, 0x01, 0xff, 0xff };

	return len >= 8 && memcmp(data, "gmon", 4) == 0 &&
	       (memcmp(data + 4, little, 4) == 0 ||
		memcmp(data + 4, big, 4) == 0);
}

/* Sets ERR from a failed read of GZ, closes it and returns -1. */
static int gz_fail(gzFile gz, const char *path, struct g2c_error *err)
{
	int zerr;
	const char *msg = gzerror(gz, &zerr);

	g2c_error_set(err, "%s: %s", path,
		      zerr == Z_ERRNO ? strerror(errno) : msg);
	gzclose(gz);
	return -1;
}

/* Reads a whole file through zlib, which passes uncompressed data through
 * unchanged, so gzip-compressed profiles need no special name. */
static int slurp(const char *path, unsigned char **out, size_t *out_len,
		 struct g2c_error *err)
{
	gzFile gz;
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	int n;

	errno = 0;
	gz = gzopen(path, "rb");
	if (!gz)
		return g2c_error_set(err, "%s: %s", path,
				     errno ? strerror(errno) : "cannot open");
	gzbuffer(gz, 1 << 17);
	do {
		unsigned char *p = array_grow(buf, &cap, len + 65536, 1);

		if (!p) {
			free(buf);
			gzclose(gz);
			return g2c_error_set(err, "%s: out of memory", path);
		}
		buf = p;
		n = gzread(gz, buf + len, 65536);
		if (n > 0)
			len += (size_t)n;
	} while (n > 0);
	if (n < 0) {
		free(buf);
		return gz_fail(gz, path, err);
	}
	gzclose(gz);
	*out = buf;
	*out_len = len;
	return 0;
}

int gmon_file_is_ld_profile(const char *path, bool *yes,
			    struct g2c_error *err)
{
	unsigned char head[8];
	gzFile gz;
	int n;

	errno = 0;
	gz = gzopen(path, "rb");
	if (!gz)
		return g2c_error_set(err, "%s: %s", path,
				     errno ? strerror(errno) : "cannot open");
	n = gzread(gz, head, sizeof head);
	if (n < 0)
		return gz_fail(gz, path, err);
	gzclose(gz);
	*yes = gmon_is_ld_profile(head, (size_t)n);
	return 0;
}

int gmon_profile_add_file(struct gmon_profile *prof,
			  const struct gmon_target *target, const char *path,
			  struct g2c_error *err)
{
	unsigned char *data = NULL;
	size_t len = 0;
	int rc;

	if (slurp(path, &data, &len, err) < 0)
		return -1;
	rc = gmon_profile_add_buffer(prof, target, data, len, path, err);
	free(data);
	return rc;
}

uint32_t gmon_profile_rate(const struct gmon_profile *prof, uint32_t fallback)
{
	return prof->nhists && prof->hists[0].rate ? prof->hists[0].rate
						   : fallback;
}

uint32_t gmon_hist_scale(const struct gmon_hist *hist)
{
	uint64_t textsize = hist->high_pc - hist->low_pc;
	uint64_t kcountsize = (uint64_t)hist->nbins * 2;
	volatile float ratio;

	if (kcountsize >= textsize)
		return 65536;
	/* glibc: s_scale = ((float) kcountsize / textsize) * SCALE_1_TO_1,
	 * in single precision, truncated to an integer. */
	ratio = (float)kcountsize / (float)textsize;
	ratio = ratio * 65536.0f;
	return (uint32_t)ratio;
}

/* The first offset unit u = (pc - low_pc) / 2 that profil maps to BIN or
 * later: the least u with u * scale / 65536 >= bin. */
static uint64_t first_unit_of_bin(uint64_t bin, uint32_t scale)
{
	return (bin * 65536 + scale - 1) / scale;
}

void gmon_hist_bin_to_pc(const struct gmon_hist *hist, uint32_t scale,
			 uint64_t bin, uint64_t *lo, uint64_t *hi)
{
	uint64_t ulo, uhi;

	if (scale == 0) {
		/* profil maps every pc to bin 0 */
		*lo = bin == 0 ? hist->low_pc : hist->high_pc;
		*hi = hist->high_pc;
		return;
	}
	ulo = first_unit_of_bin(bin, scale);
	uhi = first_unit_of_bin(bin + 1, scale);
	*lo = hist->low_pc + 2 * ulo;
	*hi = hist->low_pc + 2 * uhi;
	if (*lo < hist->low_pc)	/* wrapped: hostile range at the top */
		*lo = UINT64_MAX;
	if (*hi < hist->low_pc)
		*hi = UINT64_MAX;
}
