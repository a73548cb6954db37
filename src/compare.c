/* compare.c -- compare two sets of profiles: the stages in turn (read,
 * match, judge), then the rows in the report's order. */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_match.h"
#include "compare_read.h"
#include "compare_stats.h"
#include "diag.h"

/* -- Order -------------------------------------------------------------- */

static double largest_change(const struct compare_row *row)
{
	double self = fabs(row->self[1] - row->self[0]);
	double incl = fabs(row->incl[1] - row->incl[0]);

	return self > incl ? self : incl;
}

/* A row's place in the order, worked out once per row, not per
 * comparison of the sort. */
struct sort_key {
	bool changed, inconclusive;
	double time, calls;	/* the largest change of time, of calls */
	size_t row;
	const struct compare_row *rows;
};

/* Changes first; then the largest change of time, of calls, by name. */
static int by_change(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;
	const struct compare_row *rx = &x->rows[x->row], *ry = &y->rows[y->row];
	int c;

	if (x->changed != y->changed)
		return x->changed ? -1 : 1;
	if (x->inconclusive != y->inconclusive)
		return x->inconclusive ? -1 : 1;
	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	if ((c = strcmp(rx->name, ry->name)) != 0)
		return c;
	if ((c = strcmp(rx->file, ry->file)) != 0)
		return c;
	return strcmp(rx->object, ry->object);
}

/* Sorts the rows by_change: the keys are sorted, and the rows then moved
 * into their places in place, one cycle of the permutation at a time. */
static int sort_rows(struct compare_result *r)
{
	struct sort_key *key = malloc((r->nrows ? r->nrows : 1) * sizeof *key);

	if (!key)
		return -1;
	for (size_t i = 0; i < r->nrows; i++) {
		const struct compare_row *row = &r->rows[i];

		key[i] = (struct sort_key){ compare_row_changed(row), row->inconclusive != NULL,
					    largest_change(row),
					    fabs(row->calls[1] - row->calls[0]), i, r->rows };
	}
	if (r->nrows > 1)
		qsort(key, r->nrows, sizeof *key, by_change);
	/* place i takes row key[i].row; a placed row's key points to itself */
	for (size_t i = 0; i < r->nrows; i++) {
		struct compare_row held;
		size_t to = i;

		if (key[i].row == i)
			continue;
		held = r->rows[i];
		while (key[to].row != i) {
			size_t from = key[to].row;

			r->rows[to] = r->rows[from];
			key[to].row = to;
			to = from;
		}
		r->rows[to] = held;
		key[to].row = to;
	}
	free(key);
	return 0;
}

/* -- The comparison ----------------------------------------------------- */

/* Sums to means per profile. */
static void to_means(struct compare_row *row, const unsigned k[2])
{
	for (int s = 0; s < 2; s++) {
		row->self[s] /= k[s];
		row->incl[s] /= k[s];
	}
}

int compare_profiles(struct compare_result *r, const struct compare_options *o,
		     struct g2c_error *err)
{
	struct matcher m = { 0 };
	double total[2] = { 0, 0 };
	struct compare_gate *defaults = NULL;
	const struct compare_gate *gates;
	size_t ndefaults = 0, ngates;
	int rc = -1;

	memset(r, 0, sizeof *r);
	if (!(r->strings = m.strings = callgrind_read_strings_new()))
		return g2c_error_set(err, "out of memory");
	if (compare_read_runs(r, &m, o, total, err) < 0)
		goto out;
	match_end_runs(&m, r->nprofiles);
	if (match_moved_files(r, &m) < 0) {
		g2c_error_set(err, "out of memory");
		goto out;
	}
	r->rows = m.rows;
	r->nrows = m.nrows;
	m.rows = NULL;
	for (size_t i = 0; i < r->nrows; i++) {
		r->rows[i].calls[0] = m.samples[i].calls[0] / r->nprofiles[0];
		r->rows[i].calls[1] = m.samples[i].calls[1] / r->nprofiles[1];
		for (int s = 0; s < 2; s++) {
			r->rows[i].calls_lo[s] = m.samples[i].calls_lo[s];
			r->rows[i].calls_hi[s] = m.samples[i].calls_hi[s];
		}
		to_means(&r->rows[i], r->nprofiles);
		r->rows[i].sampled = m.samples[i].incl[0] >= 1 || m.samples[i].incl[1] >= 1 ||
				     m.samples[i].self[0] >= 1 || m.samples[i].self[1] >= 1;
	}
	r->total.incl[0] = r->total.self[0];
	r->total.incl[1] = r->total.self[1];
	r->total.present[0] = r->total.present[1] = true;
	r->total.object = r->total.file = "";
	to_means(&r->total, r->nprofiles);
	if (o->ngates == 0 && compare_parse_gates(compare_default_gates, &defaults,
						  &ndefaults, err) < 0) {
		g2c_error_set(err, "out of memory");
		goto out;
	}
	gates = o->ngates ? o->gates : defaults;
	ngates = o->ngates ? o->ngates : ndefaults;
	if (compare_judge_rows(r, m.samples, total, gates, ngates, o) < 0) {
		g2c_error_set(err, "out of memory");
		goto out;
	}
	rc = sort_rows(r) < 0 ? g2c_error_set(err, "out of memory") : 0;
out:
	match_release(&m);
	/* (the rows keep pointers to the gates they crossed) */
	r->defaults = defaults;
	return rc;
}

void compare_release(struct compare_result *r)
{
	callgrind_read_strings_free(r->strings);
	free(r->rows);
	free(r->defaults);
	for (size_t i = 0; i < r->nremaps; i++) {
		free(r->remaps[i].old_prefix);
		free(r->remaps[i].new_prefix);
	}
	free(r->remaps);
	callgrind_read_release(&r->graph);
	memset(r, 0, sizeof *r);
}
