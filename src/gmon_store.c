/* gmon_store.c -- several profile files summed into one gmon_profile. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "gmon_format.h"
#include "gmon_store.h"
#include "util.h"

/* Arcs and basic blocks are appended as they are read and merged at the
 * end of each file: sorted by address, each (from_pc, self_pc) or block
 * once, its counts summed (added in place when every record is known
 * already).  Sorting a file's records costs far less than a hash
 * look-up per record in a table larger than the caches, and a
 * file that repeats one record over and over is merged whenever its
 * unmerged records outnumber the merged ones (and 65 536), so memory
 * stays a small multiple of the distinct records. */
#define MERGE_MIN (1u << 16)

/* One kind of record: NKEYS uint64_t keys, then a uint64_t count.  Arcs,
 * blocks and histogram bins are arrays of such records. */
_Static_assert(sizeof (struct gmon_arc) == 3 * sizeof (uint64_t),
	       "an arc is two keys and a count");
_Static_assert(sizeof (struct gmon_bb) == 2 * sizeof (uint64_t),
	       "a block is a key and a count");
_Static_assert(sizeof (struct gmon_bin) == 2 * sizeof (uint64_t),
	       "a bin is a key and a count");

struct records {
	void **base;
	size_t *n, *merged, *cap;
	uint64_t *total;	/* the sum of all counts so far */
	unsigned nkeys;
	const char *what, *counted;	/* for messages */
};

static uint64_t record_key(const void *x)
{
	return *(const uint64_t *)x;
}

/* (NKEYS is 1 or 2: spelt out, as every record of a file passes here
 * several times) */
static int order_of_keys(const uint64_t *a, const uint64_t *b, unsigned nkeys)
{
	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	if (nkeys == 2 && a[1] != b[1])
		return a[1] < b[1] ? -1 : 1;
	return 0;
}

static int by_arc_records(const void *x, const void *y)
{
	return order_of_keys(x, y, 2);
}

static int by_bb_records(const void *x, const void *y)
{
	return order_of_keys(x, y, 1);
}

/* Appends record FROM to OUT[*K], or adds its count to OUT[*K - 1] when
 * that has the same keys. */
static inline void put_record(uint64_t *out, size_t *k,
			      const uint64_t *from, unsigned nkeys)
{
	uint64_t *last = *k ? out + (*k - 1) * (nkeys + 1) : NULL;

	/* (no sum overflows: the total of all counts fits, see
	 * add_counted) */
	if (last && order_of_keys(last, from, nkeys) == 0) {
		last[nkeys] += from[nkeys];
		return;
	}
	/* (word by word from the first: FROM may be where it goes, or
	 * after it) */
	out += *k * (nkeys + 1);
	out[0] = from[0];
	out[1] = from[1];
	if (nkeys == 2)
		out[2] = from[2];
	(*k)++;
}

/* Merges A[0..NA) and B[0..NB), both sorted, into OUT: each key once,
 * counts summed.  Returns the number of records in OUT. */
static size_t merge_runs(uint64_t *out, const uint64_t *a, size_t na,
			 const uint64_t *b, size_t nb, unsigned nkeys)
{
	unsigned w = nkeys + 1;
	size_t i = 0, j = 0, k = 0;

	while (i < na || j < nb) {
		bool take_a = j == nb ||
			(i < na && order_of_keys(a + i * w, b + j * w, nkeys) <= 0);

		put_record(out, &k, take_a ? a + i++ * w : b + j++ * w, nkeys);
	}
	return k;
}

/* The position of the record with the keys of REC in BASE[0..n)
 * (sorted, distinct); N if none.  *FROM is where the previous search
 * ended (0 at first), and is set to where this one did. */
static size_t find_record(const uint64_t *base, size_t n, const uint64_t *rec,
			  size_t *from, unsigned nkeys)
{
	unsigned w = nkeys + 1;

	/* the first record whose first key is REC's or above */
	*from = rec[0] == 0 ? 0 :
		search_above(base, n, w * sizeof *base, rec[0] - 1, *from);
	for (size_t i = *from; i < n && base[i * w] == rec[0]; i++)
		if (order_of_keys(base + i * w, rec, nkeys) == 0)
			return i;
	return n;
}

/* Adds the counts of RUN[0..n) to BASE[0..old) (sorted, distinct) where
 * every record of RUN is already there, and says whether it did (BASE is
 * unchanged when not): the usual case when the runs of one program are
 * summed, which then needs no sorting and no new array.  A file's
 * records come mostly in address order, so each search gallops from
 * where the one before ended. */
static bool add_in_place(uint64_t *base, size_t old, const uint64_t *run,
			 size_t n, unsigned nkeys)
{
	unsigned w = nkeys + 1;
	size_t from = 0;

	for (size_t j = 0; j < n; j++)
		if (find_record(base, old, run + j * w, &from, nkeys) == old)
			return false;
	from = 0;
	for (size_t j = 0; j < n; j++) {
		size_t at = find_record(base, old, run + j * w, &from, nkeys);

		base[at * w + nkeys] += run[j * w + nkeys];	/* (as above) */
	}
	return true;
}

/* Adds the records appended since the last merge to the merged ones: in
 * place when all are known, else sorted and merged.  Returns -1 when out
 * of memory (nothing lost). */
static int merge_records(const struct records *rs)
{
	unsigned w = rs->nkeys + 1;	/* uint64_t words per record */
	uint64_t *base = *rs->base, *out;
	size_t old = *rs->merged, run = old;

	if (*rs->n == old)
		return 0;
	if (old > 0 && add_in_place(base, old, base + old * w, *rs->n - old,
				    rs->nkeys)) {
		*rs->n = old;
		return 0;
	}
	sort_by_key(base + old * w, *rs->n - old, w * sizeof *base, record_key,
		    rs->nkeys == 2 ? by_arc_records : by_bb_records);
	for (size_t r = old; r < *rs->n; r++) {
		size_t at = run - old;

		put_record(base + old * w, &at, base + r * w, rs->nkeys);
		run = old + at;
	}
	/* (records come mostly in address order: a run all above the
	 * merged ones merges where it lies) */
	if (old == 0 || order_of_keys(base + (old - 1) * w, base + old * w,
				     rs->nkeys) < 0) {
		*rs->n = *rs->merged = run;
		return 0;
	}
	out = malloc(run * w * sizeof *out);
	if (!out)
		return -1;
	*rs->n = *rs->merged = merge_runs(out, base, old, base + old * w,
					  run - old, rs->nkeys);
	free(base);
	*rs->base = out;
	*rs->cap = run;
	return 0;
}

/* Appends a record of KEYS and COUNT.  Returns -1 when out of memory.
 * (Inline, as every record of a file is appended: RS and KEYS are the
 * caller's constants.) */
static inline int add_record(const struct records *rs, const uint64_t *keys,
			     uint64_t count)
{
	unsigned w = rs->nkeys + 1;
	uint64_t *p;

	if (*rs->n - *rs->merged >= MERGE_MIN &&
	    *rs->n - *rs->merged > *rs->merged && merge_records(rs) < 0)
		return -1;
	if (*rs->n == *rs->cap) {
		p = array_grow(*rs->base, rs->cap, *rs->n + 1, w * sizeof *p);
		if (!p)
			return -1;
		*rs->base = p;
	}
	p = (uint64_t *)*rs->base + (*rs->n)++ * w;
	memcpy(p, keys, rs->nkeys * sizeof *p);
	p[rs->nkeys] = count;
	return 0;
}

static struct records arc_records(struct gmon_profile *prof)
{
	return (struct records){ (void **)&prof->arcs, &prof->narcs,
				 &prof->arcs_merged, &prof->arcs_cap,
				 &prof->calls, 2, "call arcs", "calls" };
}

static struct records bb_records(struct gmon_profile *prof)
{
	return (struct records){ (void **)&prof->bbs, &prof->nbbs,
				 &prof->bbs_merged, &prof->bbs_cap,
				 &prof->executions, 1, "basic-block counts",
				 "basic-block executions" };
}

static int out_of_memory(const struct records *rs, const char *name,
			 struct g2c_error *err)
{
	return g2c_error_set(err, "%s: out of memory for %s", name, rs->what);
}

/* Appends a record of KEYS and COUNT of the file NAME to RS of PROF,
 * refusing a count that takes the total of RS's counts past 64 bits (as
 * the reader refuses samples): then no sum of counts overflows.  Returns
 * 0, or -1 with ERR set. */
static int add_counted(const struct records *rs,
		       const struct gmon_profile *prof, const uint64_t *keys,
		       uint64_t count, const char *name, struct g2c_error *err)
{
	if (count > UINT64_MAX - *rs->total) {
		if (prof->nfiles == 0)
			return g2c_error_set(err,
					     "%s: more %s than 64 bits count (corrupted or hostile file)",
					     name, rs->counted);
		return g2c_error_set(err,
				     "%s: more %s than 64 bits count, summed with the %u %s before it (corrupted or hostile files)",
				     name, rs->counted, prof->nfiles,
				     prof->nfiles == 1 ? "file" : "files");
	}
	*rs->total += count;
	if (add_record(rs, keys, count) < 0)
		return out_of_memory(rs, name, err);
	return 0;
}

int gmon_profile_add_arc(struct gmon_profile *prof, uint64_t from_pc,
			 uint64_t self_pc, uint64_t count, const char *name,
			 struct g2c_error *err)
{
	struct records rs = arc_records(prof);

	return add_counted(&rs, prof, (const uint64_t[]){ from_pc, self_pc },
			   count, name, err);
}

int gmon_profile_add_bb(struct gmon_profile *prof, uint64_t addr,
			uint64_t count, const char *name,
			struct g2c_error *err)
{
	struct records rs = bb_records(prof);

	return add_counted(&rs, prof, &addr, count, name, err);
}

int gmon_profile_merge_file(struct gmon_profile *prof, const char *name,
			    struct g2c_error *err)
{
	struct records arcs = arc_records(prof), bbs = bb_records(prof);

	if (merge_records(&arcs) < 0)
		return out_of_memory(&arcs, name, err);
	if (merge_records(&bbs) < 0)
		return out_of_memory(&bbs, name, err);
	return 0;
}

void gmon_profile_init(struct gmon_profile *prof)
{
	memset(prof, 0, sizeof *prof);
}

void gmon_profile_drop_records(struct gmon_profile *prof)
{
	for (size_t i = 0; i < prof->nhists; i++) {
		free(prof->hists[i].counted);
		prof->hists[i].counted = NULL;
		prof->hists[i].ncounted = 0;
	}
	free(prof->arcs);
	free(prof->bbs);
	prof->arcs = NULL;
	prof->bbs = NULL;
	prof->narcs = prof->nbbs = 0;
	prof->arcs_cap = prof->bbs_cap = 0;
	prof->arcs_merged = prof->bbs_merged = 0;
}

void gmon_profile_release(struct gmon_profile *prof)
{
	gmon_profile_drop_records(prof);
	free(prof->hists);
	gmon_profile_init(prof);
}

/* gprof's measure of bin width, used to refuse mixing histograms whose
 * bins have different sizes. */
static double hist_units_per_bin(uint64_t low_pc, uint64_t high_pc,
				 uint32_t nbins)
{
	return (double)((high_pc - low_pc) / 2) / nbins;
}

/* Sets the error "histogram for H's range RELATION the one for O's
 * range TAIL"; returns NULL, for gmon_profile_hist_for(). */
static struct gmon_hist *hist_conflict(const char *name,
				       struct g2c_error *err,
				       const struct gmon_hist *h,
				       const char *relation,
				       const struct gmon_hist *o,
				       const char *tail)
{
	g2c_error_set(err, "%s: histogram for 0x%llx-0x%llx %s the one for 0x%llx-0x%llx%s",
		      name, (unsigned long long)h->low_pc,
		      (unsigned long long)h->high_pc, relation,
		      (unsigned long long)o->low_pc,
		      (unsigned long long)o->high_pc, tail);
	return NULL;
}

struct gmon_hist *gmon_profile_hist_for(struct gmon_profile *prof,
					const struct gmon_hist *h,
					const char *name,
					struct g2c_error *err)
{
	struct gmon_hist *hists;

	for (size_t i = 0; i < prof->nhists; i++) {
		struct gmon_hist *o = &prof->hists[i];

		if (strcmp(o->dimen, h->dimen) != 0 ||
		    o->dimen_abbrev != h->dimen_abbrev) {
			g2c_error_set(err,
				      "%s: histogram measures '%s', but an earlier one measures '%s'",
				      name, h->dimen, o->dimen);
			return NULL;
		}
		if (fabs(hist_units_per_bin(o->low_pc, o->high_pc, o->nbins) -
			 hist_units_per_bin(h->low_pc, h->high_pc, h->nbins)) > 1e-6) {
			return hist_conflict(name, err, h,
					     "has a different bin size than",
					     o, "");
		}
		if (o->low_pc == h->low_pc && o->high_pc == h->high_pc &&
		    o->nbins == h->nbins)
			return o;
		if (h->low_pc < o->high_pc && o->low_pc < h->high_pc) {
			return hist_conflict(name, err, h, "overlaps", o,
					     " without matching it");
		}
	}
	hists = realloc(prof->hists, (prof->nhists + 1) * sizeof *hists);
	if (!hists) {
		g2c_error_set(err, "%s: out of memory", name);
		return NULL;
	}
	prof->hists = hists;
	hists[prof->nhists] = *h;
	hists[prof->nhists].counted = NULL;
	hists[prof->nhists].ncounted = 0;
	return &hists[prof->nhists++];
}

bool gmon_hist_add_counted(struct gmon_hist *hist, struct gmon_bin *fresh,
			   size_t n)
{
	struct gmon_bin *merged;

	if (n == 0) {
		free(fresh);
		return true;
	}
	if (hist->ncounted == 0) {
		free(hist->counted);
		hist->counted = fresh;
		hist->ncounted = n;
		return true;
	}
	merged = malloc((hist->ncounted + n) * sizeof *merged);
	if (!merged) {
		free(fresh);
		return false;
	}
	hist->ncounted = merge_runs((uint64_t *)merged,
				    (const uint64_t *)hist->counted,
				    hist->ncounted, (const uint64_t *)fresh, n, 1);
	free(hist->counted);
	free(fresh);
	hist->counted = merged;
	return true;
}

uint32_t gmon_profile_rate(const struct gmon_profile *prof, uint32_t fallback)
{
	return prof->nhists && prof->hists[0].rate ? prof->hists[0].rate
						   : fallback;
}

int gmon_profile_add_ns(const struct gmon_profile *prof, uint32_t hz,
			double *ns, const char *name, struct g2c_error *err)
{
	double ns_per_tick = 1e9 / hz;

	*ns += (double)prof->samples * (ns_per_tick > 1 ? ns_per_tick : 1);
	if (*ns >= 0x1p63)
		return g2c_error_set(err, "%s: too many samples for 64-bit nanoseconds (%llu at %u Hz)",
				     name, (unsigned long long)prof->samples,
				     (unsigned)hz);
	return 0;
}

uint32_t gmon_hist_scale(const struct gmon_hist *hist)
{
	uint64_t textsize = hist->high_pc - hist->low_pc;
	uint64_t kcountsize = (uint64_t)hist->nbins * GMON_BIN_SIZE;
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

const char *gmon_hist_misfit(const struct gmon_hist *hist)
{
	uint32_t scale = gmon_hist_scale(hist);

	if (scale == 0)
		return "more than 128 KiB of code a bin, where profil(2) records nothing";
	/* (at most 2^49: no overflow) */
	if (2 * first_unit_of_bin(hist->nbins, scale) > UINT64_MAX - hist->low_pc)
		return "they reach past the end of the address space";
	return NULL;
}

void gmon_hist_bin_to_pc(const struct gmon_hist *hist, uint32_t scale,
			 uint64_t bin, uint64_t *lo, uint64_t *hi)
{
	*lo = hist->low_pc + 2 * first_unit_of_bin(bin, scale);
	*hi = hist->low_pc + 2 * first_unit_of_bin(bin + 1, scale);
}
