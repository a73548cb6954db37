/* compare_stats.c -- --compare's statistics: each row's reference, its
 * tests and their correction, the gates, what the runs could not tell. */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "compare_stats.h"
#include "noise.h"
#include "util.h"

/* -- Tests -------------------------------------------------------------- */

/* What a function's time is judged against: the self samples of the
 * functions that moved with the program as a whole.  A loaded machine
 * makes every function slower alike (by 15 % on a shared build machine,
 * far beyond Poisson noise), a slower function makes every other one's
 * share smaller; so the program's common factor is the median, weighted
 * by samples, of the functions' new/old ratios, and the reference is the
 * functions whose ratio agrees with it within 3 standard errors (Poisson).
 * Each function's reference is made without it: its factor is the
 * pooled ratio of the others that agree with the median, its reference
 * the others that agree with that factor.  (With the median as the
 * factor, a function of nearly half the samples that grew pulled it to
 * the largest of the others' ratios, one small function's, and its
 * reference to the few of them that agree with its own growth: Lua's
 * internshrstr, 48 % of the samples, 24 % slower, lost its largest peer
 * from its reference and was found in 93 of 100 draws of 10 runs a side
 * instead of all.)
 * A function that holds most of the samples would make the median its
 * own ratio, and the reference for every other function: it is left out
 * of the common factor and the references, and judged against the
 * others, or, when they have too few samples for that to find as small a
 * change, against the old run with an allowance for the machine's speed
 * (--machine-noise). */
struct reference {
	size_t dominant;	/* the row of over half the samples; SIZE_MAX */
	double (*samples)[2];	/* per row: its reference's, old and new */
};

/* A row's log ratio with its weight (samples), or the edge of the range
 * of factors it agrees with, with its samples. */
struct ratio {
	double log_ratio, weight;
	double x[2];
};

static int by_ratio(const void *a, const void *b)
{
	double x = ((const struct ratio *)a)->log_ratio;
	double y = ((const struct ratio *)b)->log_ratio;

	return (x > y) - (x < y);
}

/* The row of RS[0..N) that holds over half the self samples of those
 * with samples on both sides (their median ratio is its own); SIZE_MAX
 * if none. */
static size_t dominant_row(const struct row_samples *rs, size_t n)
{
	double total = 0, most = 0;
	size_t row = SIZE_MAX;

	for (size_t i = 0; i < n; i++)
		if (rs[i].self[0] > 0 && rs[i].self[1] > 0) {
			double w = rs[i].self[0] + rs[i].self[1];

			total += w;
			if (w > most) {
				most = w;
				row = i;
			}
		}
	return most * 2 > total ? row : SIZE_MAX;
}

/* The functions that can make a reference: samples on both sides, not
 * the dominant one. */
static bool in_reference(const struct row_samples *rs, size_t i, size_t dominant)
{
	return rs[i].self[0] > 0 && rs[i].self[1] > 0 && i != dominant;
}

/* Row I's log ratio (runs K) and its standard error. */
static double log_ratio(const struct row_samples *rs, size_t i, const unsigned k[2],
			double *se)
{
	const double *x = rs[i].self;

	*se = sqrt(1 / x[0] + 1 / x[1]);
	return log(x[1] / k[1]) - log(x[0] / k[0]);
}

/* The weighted median of the sorted ratios R[0..M); 0 if M is 0. */
static double weighted_median(const struct ratio *r, size_t m)
{
	double total = 0, sum = 0;

	for (size_t j = 0; j < m; j++)
		total += r[j].weight;
	for (size_t j = 0; j < m; j++) {
		sum += r[j].weight;
		if (sum * 2 >= total)
			return r[j].log_ratio;
	}
	return 0;	/* no function has samples on both sides */
}

/* Whether ratio ELEM's log is below, or at most, the double at KEY. */
static bool ratio_below(const void *elem, const void *key)
{
	return ((const struct ratio *)elem)->log_ratio < *(const double *)key;
}

static bool ratio_at_most(const void *elem, const void *key)
{
	return ((const struct ratio *)elem)->log_ratio <= *(const double *)key;
}

/* The number of E[0..M) (sorted) at most F (STRICT: below F). */
static size_t count_below(const struct ratio *e, size_t m, double f, bool strict)
{
	return strict ? search_first(e, m, sizeof *e, ratio_below, &f, 0) :
			search_first(e, m, sizeof *e, ratio_at_most, &f, 0);
}

/* The ranges of factors each row agrees with (within 3 standard errors
 * of its ratio), by where they start and where they end, sorted, with
 * their samples summed: the rows agreeing with a factor F are those whose
 * range starts at F or below, less those whose range ends below F. */
struct agreement {
	struct ratio *start, *end;
	double (*sum_start)[2], (*sum_end)[2];	/* of the first j, j = 0..m */
	size_t m;
};

/* The samples of the rows that agree with F into R; ROW I's own left
 * out. */
static void agreeing(const struct agreement *a, double f, const struct row_samples *rs,
		     size_t i, bool own, const unsigned k[2], double r[2])
{
	size_t started = count_below(a->start, a->m, f, false);
	size_t ended = count_below(a->end, a->m, f, true);
	double se;
	bool member = own && fabs(log_ratio(rs, i, k, &se) - f) <= 3 * se;

	for (int s = 0; s < 2; s++) {
		r[s] = a->sum_start[started][s] - a->sum_end[ended][s] -
		       (member ? rs[i].self[s] : 0);
		r[s] = r[s] > 0.5 ? r[s] : 0;	/* (sums of counts: rounding) */
	}
}

/* Each row's reference.  The program's median ratio is robust, but it is
 * one function's ratio, and as noisy as that function's samples; so each
 * row's factor is the pooled ratio of the functions that agree with the
 * median, the row left out, and its reference the functions (the row
 * left out) that agree with that factor.  -1 when out of memory. */
static int build_reference(struct reference *ref, const struct row_samples *rs,
			   size_t n, const unsigned k[2])
{
	struct ratio *ratio = malloc((n ? n : 1) * sizeof *ratio);
	struct agreement a = {
		malloc((n ? n : 1) * sizeof *a.start), malloc((n ? n : 1) * sizeof *a.end),
		malloc((n + 1) * sizeof *a.sum_start), malloc((n + 1) * sizeof *a.sum_end), 0
	};
	double median;
	int rc = -1;

	ref->dominant = dominant_row(rs, n);
	ref->samples = malloc((n ? n : 1) * sizeof *ref->samples);
	if (!ratio || !a.start || !a.end || !a.sum_start || !a.sum_end || !ref->samples)
		goto out;
	for (size_t i = 0; i < n; i++) {
		double se, lr;

		if (!in_reference(rs, i, ref->dominant))
			continue;
		lr = log_ratio(rs, i, k, &se);
		ratio[a.m] = (struct ratio){ lr, rs[i].self[0] + rs[i].self[1],
					     { rs[i].self[0], rs[i].self[1] } };
		a.start[a.m] = ratio[a.m];
		a.start[a.m].log_ratio = lr - 3 * se;
		a.end[a.m] = ratio[a.m];
		a.end[a.m].log_ratio = lr + 3 * se;
		a.m++;
	}
	if (a.m > 1) {
		qsort(ratio, a.m, sizeof *ratio, by_ratio);
		qsort(a.start, a.m, sizeof *a.start, by_ratio);
		qsort(a.end, a.m, sizeof *a.end, by_ratio);
	}
	median = weighted_median(ratio, a.m);
	a.sum_start[0][0] = a.sum_start[0][1] = a.sum_end[0][0] = a.sum_end[0][1] = 0;
	for (size_t j = 0; j < a.m; j++)
		for (int s = 0; s < 2; s++) {
			a.sum_start[j + 1][s] = a.sum_start[j][s] + a.start[j].x[s];
			a.sum_end[j + 1][s] = a.sum_end[j][s] + a.end[j].x[s];
		}
	for (size_t i = 0; i < n; i++) {
		bool own = in_reference(rs, i, ref->dominant);
		double pooled[2], factor = median;

		agreeing(&a, median, rs, i, own, k, pooled);
		if (pooled[0] > 0 && pooled[1] > 0)
			factor = log(pooled[1] / k[1]) - log(pooled[0] / k[0]);
		agreeing(&a, factor, rs, i, own, k, ref->samples[i]);
	}
	rc = 0;
out:
	free(ratio);
	free(a.start);
	free(a.end);
	free(a.sum_start);
	free(a.sum_end);
	return rc;
}

/* The reference for row I: made without it. */
static void reference_for(const struct reference *ref, size_t i, double r[2])
{
	r[0] = ref->samples[i][0];
	r[1] = ref->samples[i][1];
}

/* The p-value of row I's time X (self or inclusive samples) against the
 * reference. */
static double p_time(const double x[2], const struct reference *ref, size_t i)
{
	double r[2];

	reference_for(ref, i, r);
	return noise_p_same_share(x[0], r[0], x[1], r[1]);
}

/* The p-value of the time X (samples in runs K) against the old run's,
 * beyond the machine's allowance. */
static double p_against_old(const double x[2], const unsigned k[2], double allowance)
{
	return noise_p_of_g(noise_g_beyond_allowance(x[0], x[1], k[0], k[1], allowance));
}

/* The least p-value row I's time X could have: its samples all on one
 * side. */
static double least_p(const double x[2], const struct reference *ref, size_t i)
{
	double n = x[0] + x[1];
	double p_old = p_time((const double[2]){ n, 0 }, ref, i);
	double p_new = p_time((const double[2]){ 0, n }, ref, i);

	return p_old < p_new ? p_old : p_new;
}

/* Whether the time X (samples, runs K) of a function that holds most of
 * the samples is better judged against the old run, beyond the machine's
 * allowance, than against its reference R: whether the least change that
 * test finds at the level is the smaller.  Worked out from the sums
 * alone (X's split as the reference's, or as the runs'), which both
 * tests take as given: the choice does not change either one's level.
 * (Log changes, normal approximations: the G tests are near them.) */
static bool old_run_finds_less(const double x[2], const double r[2], const unsigned k[2],
			       const struct compare_options *o)
{
	double n = x[0] + x[1], z = sqrt(noise_g_of_p(o->alpha));
	double by_runs[2] = { n * k[0] / (k[0] + k[1]), n * k[1] / (k[0] + k[1]) };
	double against_old = log1p(o->machine_noise) + z * sqrt(1 / by_runs[0] + 1 / by_runs[1]);
	double by_reference[2], against_reference;

	if (!(r[0] > 0 && r[1] > 0))
		return true;
	by_reference[0] = n * r[0] / (r[0] + r[1]);
	by_reference[1] = n * r[1] / (r[0] + r[1]);
	against_reference = z * sqrt(1 / by_reference[0] + 1 / by_reference[1] +
				     1 / r[0] + 1 / r[1]);
	return against_old < against_reference;
}

/* A test: its p-value (corrected in place) and the least it could be. */
struct test {
	double *p;
	double least;
	bool of_calls;		/* (else of a time) */
};

static int by_p(const void *a, const void *b)
{
	double pa = *((const struct test *)a)->p, pb = *((const struct test *)b)->p;

	return (pa > pb) - (pa < pb);
}

static int by_least(const void *a, const void *b)
{
	double pa = ((const struct test *)a)->least, pb = ((const struct test *)b)->least;

	return (pa > pb) - (pa < pb);
}

/* Whether test ELEM's least p-value is at most the double at KEY. */
static bool least_at_most(const void *elem, const void *key)
{
	return ((const struct test *)elem)->least <= *(const double *)key;
}

/* Tarone's count: the least K such that at most K of the tests T[0..N)
 * (sorted by_least) could reach ALPHA / K at all.  A function of a few
 * samples can never be beyond noise; counted, it would only make the
 * correction of the others stricter (most of a large program's functions
 * have no sample).  Returns K; *FAMILY: the tests that could (first). */
static size_t tarone(const struct test *t, size_t n, double alpha, size_t *family)
{
	for (size_t k = 1;; k++) {
		double level = alpha / (double)k;
		/* (the first above alpha / k) */
		size_t m = search_first(t, n, sizeof *t, least_at_most, &level, 0);

		if (m <= k) {
			*family = m;
			return k;
		}
	}
}

/* Holm's step-down correction of T[0..N) in place, over K tests (K >= N:
 * Tarone's count): the family-wise error stays under the level whatever
 * the tests' dependence. */
static void holm(struct test *t, size_t n, size_t k)
{
	double running = 0;

	if (n > 1)
		qsort(t, n, sizeof *t, by_p);
	for (size_t i = 0; i < n; i++) {
		double adj = *t[i].p * (double)(k - i);

		running = adj > running ? adj : running;
		*t[i].p = running < 1 ? running : 1;
	}
}

/* Whether a time of MEANS[0..2) ns is large enough to be judged. */
static bool judged(const double means[2], const double samples[2], double min_ns)
{
	return (samples[0] > 0 || samples[1] > 0) &&
	       (means[0] >= min_ns || means[1] >= min_ns);
}

static bool same_time(const double a[2], const double b[2])
{
	return a[0] == b[0] && a[1] == b[1];
}

/* Whether every run of one side had fewer calls than every run of the
 * other (one run a side: whether the counts differ). */
static bool ranges_apart(const struct compare_row *row)
{
	return row->calls_hi[0] < row->calls_lo[1] || row->calls_hi[1] < row->calls_lo[0];
}

/* Judges ROW's calls: a count the same in every run of a side is exact,
 * and any change of it a change; a count that varies between a side's
 * runs has changed when the ranges of the sides part, and the chance of
 * that among runs of one build is below the level: its test goes to T
 * (*N), to be corrected with the times'. */
static void judge_calls(struct compare_row *row, const unsigned k[2], struct test *t,
			size_t *n)
{
	double least = noise_p_ranges_apart(k[0], k[1]);

	row->p_calls = row->p_calls_alone = 1;
	row->calls_vary = row->calls_lo[0] != row->calls_hi[0] ||
			  row->calls_lo[1] != row->calls_hi[1];
	if (!row->calls_vary) {
		row->calls_changed = ranges_apart(row);
		return;
	}
	if (ranges_apart(row))
		row->p_calls = least;
	row->p_calls_alone = row->p_calls;
	t[(*n)++] = (struct test){ &row->p_calls, least, true };
}

/* Runs every test against REF, corrects them together and marks the
 * changes. */
static int judge(struct compare_result *r, const struct row_samples *rs,
		 const struct reference *ref, const double total[2],
		 const struct compare_options *o)
{
	struct test *t = malloc((3 * r->nrows + 1) * sizeof *t);
	size_t n = 0, family;

	if (!t)
		return -1;
	for (size_t i = 0; i < r->nrows; i++) {
		struct compare_row *row = &r->rows[i];

		row->p_self = row->p_incl = 1;
		row->against_old = i == ref->dominant &&
				   old_run_finds_less(rs[i].self, ref->samples[i], r->nprofiles, o);
		if (judged(row->self, rs[i].self, o->min_time_ns)) {
			row->p_self = row->against_old ?
				      p_against_old(rs[i].self, r->nprofiles, o->machine_noise) :
				      p_time(rs[i].self, ref, i);
			/* (the most samples of all: always among the family) */
			t[n++] = (struct test){ &row->p_self, row->against_old ? 0 :
						least_p(rs[i].self, ref, i), false };
		}
		/* a function that calls nothing that costs has its self time
		 * as its inclusive time: one test, counted once */
		if (judged(row->incl, rs[i].incl, o->min_time_ns) &&
		    !same_time(rs[i].incl, rs[i].self)) {
			row->p_incl = row->against_old ?
				      p_against_old(rs[i].incl, r->nprofiles, o->machine_noise) :
				      p_time(rs[i].incl, ref, i);
			t[n++] = (struct test){ &row->p_incl, row->against_old ? 0 :
						least_p(rs[i].incl, ref, i), false };
		}
		row->p_self_alone = row->p_self;
		judge_calls(row, r->nprofiles, t, &n);
	}
	if (n > 1)
		qsort(t, n, sizeof *t, by_least);
	r->ntests = n ? tarone(t, n, o->alpha, &family) : (family = 0);
	for (size_t j = family; j < n; j++) {
		*t[j].p = 1;	/* (never below the level) */
		r->nuntestable += !t[j].of_calls;
	}
	holm(t, family, r->ntests);
	free(t);
	for (size_t i = 0; i < r->nrows; i++) {
		struct compare_row *row = &r->rows[i];

		if (same_time(rs[i].incl, rs[i].self))
			row->p_incl = row->p_self;
		row->self_changed = row->p_self < o->alpha;
		row->incl_changed = row->p_incl < o->alpha;
		if (row->calls_vary)
			row->calls_changed = row->p_calls < o->alpha;
		r->nvarying += row->calls_vary && !row->calls_changed;
		r->nchanged += row->self_changed || row->calls_changed;
	}
	for (unsigned k = 1; k <= COMPARE_RUNS_MAX && !r->calls_runs_needed; k++)
		if (noise_p_ranges_apart(k, k) < o->alpha / (double)(r->ntests ? r->ntests : 1))
			r->calls_runs_needed = k;
	/* The total alone: beyond its Poisson noise (a loaded machine moves it
	 * further; it is reported, not counted among the changes). */
	r->total.p_self = r->total.p_incl =
		noise_p_same_rate(total[0], total[1], r->nprofiles[0], r->nprofiles[1]);
	r->total.self_changed = r->total.incl_changed = r->total.p_self < o->alpha;
	return 0;
}

/* -- Gates -------------------------------------------------------------- */

static const struct compare_gate *first_crossed(const struct compare_row *row,
						const struct compare_gate *gates,
						size_t n, bool total)
{
	for (size_t i = 0; i < n; i++) {
		const struct compare_gate *g = &gates[i];
		bool hit;

		if ((g->what == MEASURE_TOTAL) != total)
			continue;
		if (g->what == MEASURE_CALLS)
			hit = compare_gate_crossed(g, row->calls[0], row->calls[1], row->calls_changed);
		else if (g->what == MEASURE_INCL)
			hit = compare_gate_crossed(g, row->incl[0], row->incl[1], row->incl_changed);
		else
			hit = compare_gate_crossed(g, row->self[0], row->self[1], row->self_changed);
		if (hit)
			return g;
	}
	return NULL;
}

static void check_gates(struct compare_result *r, const struct compare_gate *gates,
			size_t n)
{
	for (size_t i = 0; i < r->nrows; i++)
		if ((r->rows[i].failed = first_crossed(&r->rows[i], gates, n, false)))
			r->nfailed++;
	if ((r->total.failed = first_crossed(&r->total, gates, n, true)))
		r->nfailed++;
}

/* -- What the runs could not tell ---------------------------------------- */

/* How a time was judged, for what-ifs: its old samples X_OLD in runs K,
 * against the reference's R (in runs K), or against the old run with the
 * machine's ALLOWANCE. */
struct judgement {
	double x_old, r[2], k[2];
	bool against_old;
	double allowance;
};

/* The G statistic a change of the time by the factor 1 + CHANGE would
 * show at the expected counts, with RUNS a side (J's own, or others). */
static double g_of_change(const struct judgement *j, double change,
			  const double runs[2])
{
	double x_old = j->x_old / j->k[0] * runs[0];

	if (j->against_old)
		return noise_g_beyond_allowance(x_old, x_old / runs[0] * runs[1] * (1 + change),
					  runs[0], runs[1], j->allowance);
	double r_old = j->r[0] / j->k[0] * runs[0], r_new = j->r[1] / j->k[1] * runs[1];

	return noise_g_same_share(x_old, r_old, x_old * (r_new / r_old) * (1 + change), r_new);
}

/* A judgement and the direction of a change, for p_of_change. */
struct change_at {
	const struct judgement *j;
	int sign;
};

/* The p-value of a change of |log(1 + change)| X in AT's direction. */
static double p_of_change(double x, const void *at)
{
	const struct change_at *c = at;

	return noise_p_of_g(g_of_change(c->j, expm1(c->sign * x), c->j->k));
}

/* The least change in the direction SIGN that J's runs would show beyond
 * LEVEL; INFINITY if not within a factor of 1000. */
static double least_detectable(const struct judgement *j, double level, int sign)
{
	const struct change_at at = { j, sign };
	double most = log(1000);	/* |log(1 + change)| */

	if (p_of_change(most, &at) >= level)
		return INFINITY;
	return expm1(sign * noise_bisect(0, most, p_of_change, &at, level));
}

/* The runs a side at which a change CHANGE would show beyond LEVEL; 0 if
 * more than COMPARE_RUNS_MAX or none would.  (With k runs a side every
 * count is k times a run's, and so is the G statistic.) */
static unsigned runs_to_find(const struct judgement *j, double change, double level)
{
	double g1 = g_of_change(j, change, (const double[2]){ 1, 1 });
	double g = noise_g_of_p(level);

	if (!(g1 > 0))
		return 0;
	return g / g1 > COMPARE_RUNS_MAX ? 0 : (unsigned)ceil(g / g1);
}

/* The first self-time gate of GATES[0..N) that ROW's self time crossed,
 * beyond noise or not; NULL if none. */
static const struct compare_gate *self_gate_crossed(const struct compare_row *row,
						    const struct compare_gate *gates,
						    size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (gates[i].what == MEASURE_SELF &&
		    compare_gate_crossed(&gates[i], row->self[0], row->self[1], true))
			return &gates[i];
	return NULL;
}

/* Marks the rows whose self time moved past a gate, as noise alone would
 * move it less than once in 20, but not beyond the level: the runs could
 * not tell.  Says how small a change they could have found, and how many
 * runs would find the gate's (or the change seen).  For a self time past
 * a gate, the least change found too. */
static void find_inconclusive(struct compare_result *r, const struct row_samples *rs,
			      const struct reference *ref, const struct compare_gate *gates,
			      size_t n, const struct compare_options *o)
{
	double level = o->alpha / (double)(r->ntests ? r->ntests : 1);
	double k[2] = { r->nprofiles[0], r->nprofiles[1] };

	for (size_t i = 0; i < r->nrows; i++) {
		struct compare_row *row = &r->rows[i];
		struct judgement j = { .x_old = rs[i].self[0], .k = { k[0], k[1] },
				       .against_old = row->against_old,
				       .allowance = o->machine_noise };
		const double *x = rs[i].self;
		const struct compare_gate *g;
		int sign = row->self[1] > row->self[0] ? 1 : -1;
		double p_moved;	/* of sampling noise alone */

		reference_for(ref, i, j.r);
		row->detectable = NAN;
		if (!(x[0] > 0) || (!row->against_old && !(j.r[0] > 0 && j.r[1] > 0)) ||
		    !judged(row->self, x, o->min_time_ns))
			continue;
		if (row->failed && row->failed->what == MEASURE_SELF) {
			/* (for the report: how much less would have passed) */
			row->detectable = least_detectable(&j, level, sign);
			continue;
		}
		if (compare_row_changed(row) || row->failed ||
		    !(g = self_gate_crossed(row, gates, n)))
			continue;
		if (row->against_old) {	/* (the old run, without the allowance) */
			p_moved = noise_p_same_rate(x[0], x[1], k[0], k[1]);
			row->moved = (x[1] / k[1]) / (x[0] / k[0]) - 1;
		} else {
			p_moved = row->p_self_alone;
			row->moved = (x[1] / x[0]) / (j.r[1] / j.r[0]) - 1;
		}
		if (!(p_moved < COMPARE_HINT_P))
			continue;
		row->inconclusive = g;
		row->detectable = least_detectable(&j, level, sign);
		/* (a gate of any change: the change seen) */
		row->change_for_runs = g->amount == 0 ? row->moved :
				       sign * (g->relative ? g->amount / 100 :
					       g->amount / row->self[0]);
		row->runs_needed = runs_to_find(&j, row->change_for_runs, level);
		r->ninconclusive++;
	}
}

int compare_judge_rows(struct compare_result *r, const struct row_samples *rs,
		       const double total[2], const struct compare_gate *gates,
		       size_t ngates, const struct compare_options *o)
{
	struct reference ref = { 0 };
	int rc = -1;

	if (build_reference(&ref, rs, r->nrows, r->nprofiles) < 0 ||
	    judge(r, rs, &ref, total, o) < 0)
		goto out;
	check_gates(r, gates, ngates);
	find_inconclusive(r, rs, &ref, gates, ngates, o);
	rc = 0;
out:
	free(ref.samples);
	return rc;
}
