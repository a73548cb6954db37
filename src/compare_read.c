/* compare_read.c -- --compare's input: both sides' profiles read on
 * threads, each added to the rows and let go of. */
#include <config.h>

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "callgrind_read.h"
#include "compare_read.h"
#include "diag.h"

/* One profile read on a thread of its own. */
struct read_job {
	struct callgrind_read_profile *p;
	const char *path;
	bool calls;		/* keep its calls */
	struct g2c_error err;
	int rc;
};

static void *read_profile(void *arg)
{
	struct read_job *job = arg;

	job->rc = callgrind_read_file(job->p, job->path, job->calls, &job->err);
	return NULL;
}

/* Adds the profile P of side SIDE to M; its sample total to *TOTAL. */
static int add_profile(struct compare_result *r, struct matcher *m,
		       const struct callgrind_read_profile *p, int side,
		       double *total)
{
	if (!r->hz)
		r->hz = p->hz;
	if (match_add_profile(m, p, side) < 0)
		return -1;
	r->total.self[side] += (double)p->total_ns;
	*total += p->total_samples;
	return 0;
}

/* Two profiles at a time (the second on a thread: reading is most of a
 * comparison's time), each let go of once added: the tests need only
 * each side's sums, so memory holds two profiles and the rows however
 * many runs there are. */
int compare_read_runs(struct compare_result *r, struct matcher *m,
		      const struct compare_options *o, double total[2],
		      struct g2c_error *err)
{
	size_t nfiles = o->nfiles[0] + o->nfiles[1];
	int rc = 0;

	for (size_t i = 0; i < nfiles && rc == 0; i += 2) {
		struct callgrind_read_profile p[2];
		struct read_job job[2];
		size_t n = nfiles - i < 2 ? nfiles - i : 2;
		pthread_t thread;
		bool threaded = false;

		for (size_t j = 0; j < n; j++) {
			size_t f = i + j;
			int side = f >= o->nfiles[0];

			job[j] = (struct read_job){
				.p = &p[j], .path = o->files[side][f - (side ? o->nfiles[0] : 0)],
				.calls = side == 1 && o->new_graph };
		}
		if (n == 2)
			threaded = pthread_create(&thread, NULL, read_profile, &job[1]) == 0;
		read_profile(&job[0]);
		if (threaded)
			pthread_join(thread, NULL);
		else if (n == 2)
			read_profile(&job[1]);
		for (size_t j = 0; j < n; j++) {
			int side = i + j >= o->nfiles[0];

			if (rc == 0 && job[j].rc < 0) {
				*err = job[j].err;
				rc = -1;
			}
			if (rc == 0 && add_profile(r, m, &p[j], side, &total[side]) < 0)
				rc = g2c_error_set(err, "out of memory");
			if (rc == 0 && job[j].calls)
				rc = callgrind_read_merge(&r->graph, &p[j], err);
			callgrind_read_release(&p[j]);
		}
	}
	r->nprofiles[0] = (unsigned)o->nfiles[0];
	r->nprofiles[1] = (unsigned)o->nfiles[1];
	return rc;
}
