/* compare_match.c -- --compare's rows: functions matched by object, file
 * and name, and across checkouts by their files' path suffix. */
#include <config.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compare_match.h"
#include "util.h"

static uint64_t identity_hash(struct matcher *m,
			      const struct callgrind_read_fn *fn)
{
	if (fn->file != m->last_file) {
		m->last_file = fn->file;
		m->last_file_hash = hash_string(fn->file);
	}
	return hash_string(fn->name) ^ m->last_file_hash * 0x9e3779b97f4a7c15u ^
	       hash_string(fn->object) * 31;
}

static bool same_function(const void *rows, size_t pos, const void *key)
{
	const struct compare_row *r = &((const struct compare_row *)rows)[pos];
	const struct callgrind_read_fn *fn = key;

	return strcmp(r->name, fn->name) == 0 && strcmp(r->file, fn->file) == 0 &&
	       strcmp(r->object, fn->object) == 0;
}

/* Makes room for N rows. */
static int reserve_rows(struct matcher *m, size_t n)
{
	size_t cap = m->cap;
	struct compare_row *rows = array_grow(m->rows, &cap, n, sizeof *rows);
	struct row_samples *samples;

	if (!rows)
		return -1;
	m->rows = rows;
	cap = m->cap;
	if (!(samples = array_grow(m->samples, &cap, n, sizeof *samples)))
		return -1;
	m->samples = samples;
	m->cap = cap;
	return hash_index_reserve(&m->index, n) ? 0 : -1;
}

/* Takes the calls of the run RS was last added from into its side's
 * range. */
static void end_run(struct row_samples *rs)
{
	int s = rs->run_side;

	if (!rs->run)
		return;
	if (rs->calls_runs[s]++ == 0 || rs->run_calls < rs->calls_lo[s])
		rs->calls_lo[s] = rs->run_calls;
	if (rs->run_calls > rs->calls_hi[s])
		rs->calls_hi[s] = rs->run_calls;
	rs->run = 0;
}

void match_end_runs(struct matcher *m, const unsigned k[2])
{
	for (size_t i = 0; i < m->nrows; i++) {
		struct row_samples *rs = &m->samples[i];

		end_run(rs);
		for (int s = 0; s < 2; s++)
			if (rs->calls_runs[s] < k[s])
				rs->calls_lo[s] = 0;
	}
}

/* Adds FN of a profile of side SIDE to its row. */
static int add_function(struct matcher *m, const struct callgrind_read_fn *fn,
			int side)
{
	uint64_t hash = identity_hash(m, fn);
	struct hash_slot *slot;
	struct row_samples *rs;
	struct compare_row *row;

	if (reserve_rows(m, m->nrows + 1) < 0)
		return -1;
	slot = hash_index_find(&m->index, hash, same_function, m->rows, fn);
	if (hash_slot_is_free(slot)) {
		/* (the profile is let go of once added: the row keeps copies) */
		const char *object =
			callgrind_read_strings_intern(m->strings, fn->object);
		const char *file =
			callgrind_read_strings_intern(m->strings, fn->file);
		const char *name =
			callgrind_read_strings_intern(m->strings, fn->name);

		if (!object || !file || !name)
			return -1;
		m->rows[m->nrows] = (struct compare_row){ .object = object,
							  .file = file, .name = name };
		m->samples[m->nrows] = (struct row_samples){ 0 };
		hash_index_add(&m->index, slot, hash, m->nrows++);
	}
	row = &m->rows[hash_slot_entry(slot)];
	rs = &m->samples[hash_slot_entry(slot)];
	row->present[side] = true;
	if (fn->line && (side == 1 || !row->line))	/* where the new code is */
		row->line = fn->line;
	row->self[side] += (double)fn->self_ns;
	row->incl[side] += (double)fn->incl_ns;
	rs->self[side] += fn->self_samples;
	rs->incl[side] += fn->incl_samples;
	rs->calls[side] += (double)fn->calls;
	if (rs->run != m->run) {
		end_run(rs);
		rs->run = m->run;
		rs->run_side = side;
		rs->run_calls = 0;
	}
	rs->run_calls += (double)fn->calls;
	return 0;
}

int match_add_profile(struct matcher *m, const struct callgrind_read_profile *p,
		      int side)
{
	m->last_file = NULL;	/* (P's strings may sit where freed ones did) */
	m->run++;
	for (size_t f = 0; f < p->nfns; f++)
		if (add_function(m, &p->fns[f], side) < 0)
			return -1;
	return 0;
}

/* -- Checkouts in other directories ------------------------------------ */

/* A checkout in another directory names every source file with another
 * prefix: each function would be gone on one side and new on the other.
 * Such functions are matched by name, object and the file's path suffix:
 * the prefixes that most of them agree on (OLD -> NEW) are taken first,
 * then the next, while any function is left to match. */
struct prefix_vote {
	const char *old_file, *new_file;	/* prefixes: their first LEN chars */
	size_t old_len, new_len;
	size_t votes;
};

static bool at_component(const char *path, size_t pos)
{
	return pos == 0 || path[pos - 1] == '/';
}

/* The length of the longest common suffix of A and B made of whole path
 * components (0: not even the base name is the same). */
static size_t common_suffix(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = 0;

	while (n < la && n < lb && a[la - 1 - n] == b[lb - 1 - n])
		n++;
	while (n > 0 && !(at_component(a, la - n) && at_component(b, lb - n)))
		n--;
	return n;
}

/* A row present on the new side only, for the look-up by name. */
struct new_only {
	const char *name, *object;
	size_t row;
};

static int by_name_object(const void *a, const void *b)
{
	const struct new_only *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->object, y->object);
}

/* Whether ELEM sorts before KEY (by_name_object). */
static bool new_only_below(const void *elem, const void *key)
{
	return by_name_object(elem, key) < 0;
}

/* The first of N[0..COUNT) named as ROW is, or COUNT. */
static size_t first_named(const struct new_only *n, size_t count,
			  const struct compare_row *row)
{
	struct new_only key = { row->name, row->object, 0 };

	return search_first(n, count, sizeof *n, new_only_below, &key, 0);
}

static bool gone(const struct compare_row *row)
{
	return row->present[0] && !row->present[1] && row->name;
}

/* Adds a vote for the prefixes that make OLD_FILE NEW_FILE. */
static int vote(struct prefix_vote **votes, size_t *n, size_t *cap,
		const char *old_file, const char *new_file)
{
	size_t common = common_suffix(old_file, new_file);
	struct prefix_vote v = { old_file, new_file, strlen(old_file) - common,
				 strlen(new_file) - common, 1 };
	struct prefix_vote *grown;

	if (common == 0)
		return 0;
	for (size_t i = 0; i < *n; i++) {
		struct prefix_vote *w = &(*votes)[i];

		if (w->old_len == v.old_len && w->new_len == v.new_len &&
		    memcmp(w->old_file, v.old_file, v.old_len) == 0 &&
		    memcmp(w->new_file, v.new_file, v.new_len) == 0) {
			w->votes++;
			return 0;
		}
	}
	if (!(grown = array_grow(*votes, cap, *n + 1, sizeof *grown)))
		return -1;
	*votes = grown;
	grown[(*n)++] = v;
	return 0;
}

/* Whether FILE is PREFIX_OLD + rest and TARGET is PREFIX_NEW + rest. */
static bool moved_file(const struct prefix_vote *v, const char *file,
		       const char *target)
{
	size_t rest = strlen(file) - v->old_len;

	return strlen(file) >= v->old_len && strlen(target) == v->new_len + rest &&
	       memcmp(file, v->old_file, v->old_len) == 0 &&
	       memcmp(target, v->new_file, v->new_len) == 0 &&
	       strcmp(file + v->old_len, target + v->new_len) == 0;
}

/* Merges the new-only row N into the gone row G (which takes N's file:
 * the checkout compared against) and leaves N without a name. */
static void merge_rows(struct matcher *m, size_t g, size_t n)
{
	struct compare_row *old = &m->rows[g], *new = &m->rows[n];

	old->file = new->file;
	if (new->line)
		old->line = new->line;
	old->present[1] = true;
	old->self[1] = new->self[1];
	old->incl[1] = new->incl[1];
	m->samples[g].self[1] = m->samples[n].self[1];
	m->samples[g].incl[1] = m->samples[n].incl[1];
	m->samples[g].calls[1] = m->samples[n].calls[1];
	m->samples[g].calls_lo[1] = m->samples[n].calls_lo[1];
	m->samples[g].calls_hi[1] = m->samples[n].calls_hi[1];
	m->samples[g].calls_runs[1] = m->samples[n].calls_runs[1];
	new->name = NULL;
}

/* Applies the prefixes V: merges each gone row with the new-only row of
 * its name whose file is its own with V's new prefix.  Returns how many. */
static size_t apply_prefixes(struct matcher *m, const struct prefix_vote *v,
			     const struct new_only *n, size_t nnew)
{
	size_t merged = 0;

	for (size_t g = 0; g < m->nrows; g++) {
		if (!gone(&m->rows[g]))
			continue;
		for (size_t k = first_named(n, nnew, &m->rows[g]);
		     k < nnew && by_name_object(&n[k], &(struct new_only){
			     m->rows[g].name, m->rows[g].object, 0 }) == 0; k++) {
			const struct compare_row *row = &m->rows[n[k].row];

			if (row->name && moved_file(v, m->rows[g].file, row->file)) {
				merge_rows(m, g, n[k].row);
				merged++;
				break;
			}
		}
	}
	return merged;
}

/* Records that N functions were matched with the prefixes V. */
static int add_remap(struct compare_result *r, const struct prefix_vote *v,
		     size_t n)
{
	size_t cap = r->nremaps;
	struct compare_remap *remaps = array_grow(r->remaps, &cap, r->nremaps + 1,
						  sizeof *remaps);
	struct compare_remap *to;

	if (!remaps)
		return -1;
	r->remaps = remaps;
	to = &remaps[r->nremaps];
	to->old_prefix = strndup(v->old_file, v->old_len);
	to->new_prefix = strndup(v->new_file, v->new_len);
	to->nfns = n;
	if (!to->old_prefix || !to->new_prefix) {
		free(to->old_prefix);
		free(to->new_prefix);
		return -1;
	}
	r->nremaps++;
	return 0;
}

/* Drops the rows merge_rows() left without a name. */
static void drop_merged(struct matcher *m)
{
	size_t to = 0;

	for (size_t i = 0; i < m->nrows; i++)
		if (m->rows[i].name) {
			m->rows[to] = m->rows[i];
			m->samples[to++] = m->samples[i];
		}
	m->nrows = to;
}

int match_moved_files(struct compare_result *r, struct matcher *m)
{
	struct new_only *n = NULL;
	struct prefix_vote *votes = NULL;
	size_t nnew = 0, ncap = 0, vcap = 0, nvotes;
	int rc = -1;

	for (size_t i = 0; i < m->nrows; i++) {
		const struct compare_row *row = &m->rows[i];
		struct new_only *grown;

		if (row->present[0] || !row->present[1])
			continue;
		if (!(grown = array_grow(n, &ncap, nnew + 1, sizeof *grown)))
			goto out;
		n = grown;
		n[nnew++] = (struct new_only){ row->name, row->object, i };
	}
	if (nnew > 1)	/* (qsort takes no null array, even empty) */
		qsort(n, nnew, sizeof *n, by_name_object);
	for (;;) {
		size_t best = 0, merged;

		nvotes = 0;
		for (size_t g = 0; g < m->nrows; g++) {
			const struct compare_row *row = &m->rows[g];

			if (!gone(row))
				continue;
			for (size_t k = first_named(n, nnew, row);
			     k < nnew && by_name_object(&n[k], &(struct new_only){
				     row->name, row->object, 0 }) == 0; k++)
				if (m->rows[n[k].row].name &&
				    vote(&votes, &nvotes, &vcap, row->file,
					 m->rows[n[k].row].file) < 0)
					goto out;
		}
		if (nvotes == 0)
			break;
		for (size_t i = 1; i < nvotes; i++)
			if (votes[i].votes > votes[best].votes)
				best = i;
		/* (the best vote's own pair always merges) */
		if ((merged = apply_prefixes(m, &votes[best], n, nnew)) == 0)
			break;
		if (add_remap(r, &votes[best], merged) < 0)
			goto out;
	}
	drop_merged(m);
	rc = 0;
out:
	free(n);
	free(votes);
	return rc;
}

void match_release(struct matcher *m)
{
	free(m->rows);
	free(m->samples);
	hash_index_release(&m->index);
}
