/* test-speedscope.c -- the speedscope writer on random call graphs with
 * cycles, its JSON read back: the stacks ending in each function weigh
 * its self time, whatever the cuts; without cuts, the stacks through a
 * function outside cycles weigh its inclusive time; no stack is deeper
 * than the depth bound allows; the weights add up to endValue. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "diag.h"
#include "fake.h"
#include "outstream.h"
#include "source_map.h"
#include "speedscope.h"

enum { MAXF = 12, WIDTH = 32, BASE = 0x1000 };

static uint64_t lcg(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 33;
}

/* CG written with these bounds, as a string to free; NULL on failure. */
static char *write_json(const struct callgraph *cg, const struct source_map *map,
			double cut_share, unsigned max_depth)
{
	struct speedscope_info info = { .name = "gmon.out", .in_seconds = true,
					.cut_share = cut_share,
					.max_depth = max_depth };
	struct outstream os;
	struct g2c_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	bool written;

	if (!fp)
		return NULL;
	outstream_from_file(&os, fp, "memory");
	written = speedscope_write(cg, map, &info, &os, &err) == 0;
	written = outstream_close(&os, &err) == 0 && written;
	fclose(fp);
	if (!written) {
		free(text);
		return NULL;
	}
	return text;
}

/* What the JSON says, per function of the fake program: the weight of the
 * stacks ending in it and of those through it; and the deepest stack. */
struct read_back {
	uint64_t self[MAXF], through[MAXF];
	uint64_t sum, end_value;
	size_t deepest;
	bool ok;
};

/* The numbers of the function each frame is ("fN"), or -1 (a cycle). */
static size_t read_frames(const char *text, int *func, size_t max)
{
	const char *p = strstr(text, "\"frames\":[");
	size_t n = 0;

	while (p && (p = strstr(p, "{\"name\":\"")) && n < max) {
		p += strlen("{\"name\":\"");
		func[n++] = *p == 'f' ? atoi(p + 1) : -1;
	}
	return n;
}

static struct read_back read_json(const char *text)
{
	struct read_back r = { .ok = true };
	int func[4 * MAXF];
	size_t nframes = read_frames(text, func, 4 * MAXF);
	const char *samples = strstr(text, "\"samples\":[");
	const char *samples_end = strstr(text, "],\n\"weights\":[");
	const char *weights = strstr(text, "\"weights\":[");
	const char *end = strstr(text, "\"endValue\":");
	char *p;

	if (!samples || !samples_end || !weights || !end)
		return (struct read_back){ .ok = false };
	samples += strlen("\"samples\":[");
	weights += strlen("\"weights\":[");
	r.end_value = strtoull(end + strlen("\"endValue\":"), NULL, 10);
	while ((samples = strchr(samples, '[')) && samples < samples_end) {
		bool in[MAXF] = { false };
		int leaf = -1;
		size_t depth = 0;
		uint64_t weight = strtoull(weights, &p, 10);

		for (p = (char *)samples + 1; *p != ']'; p += *p == ',') {
			size_t frame = strtoul(p, &p, 10);

			r.ok = r.ok && frame < nframes;
			leaf = frame < nframes ? func[frame] : -1;
			if (leaf >= 0)
				in[leaf] = true;
			depth++;
		}
		samples = p;
		weights = strchr(weights, ',') ? strchr(weights, ',') + 1 : weights;
		r.sum += weight;
		if (depth > r.deepest)
			r.deepest = depth;
		if (leaf >= 0)
			r.self[leaf] += weight;
		for (int f = 0; f < MAXF; f++)
			r.through[f] += in[f] ? weight : 0;
	}
	return r;
}

/* A random program of 2-12 functions, some never sampled, with calls
 * forward and back (cycles of every size). */
static void random_program(uint64_t *state, struct symtab *st,
			   struct gmon_profile *p, size_t *nfuncs)
{
	static char names[MAXF][4];
	size_t n = 2 + lcg(state) % (MAXF - 1);

	fake_symtab(st, n, BASE, WIDTH);
	fake_profile(p, BASE, BASE + n * WIDTH);
	for (size_t f = 0; f < n; f++) {
		snprintf(names[f], sizeof names[f], "f%zu", f);
		st->funcs[f].name = st->funcs[f].raw_name = names[f];
		if (lcg(state) % 3)
			set_bin(p, f * WIDTH / 2 + 1, lcg(state) % 40);
	}
	for (size_t i = 0, want = n + lcg(state) % (2 * n); i < want; i++) {
		size_t from = lcg(state) % n, to = lcg(state) % n;

		add_arc(p, BASE + from * WIDTH + 4 + 2 * (i % 8), BASE + to * WIDTH,
			1 + lcg(state) % 1000);
	}
	*nfuncs = n;
}

static void test_random_graphs(void)
{
	enum { GRAPHS = 600 };
	static const struct { double cut_share; unsigned max_depth; } bounds[] = {
		{ 1e-15, 0 }, { 0.2, 0 }, { 0, 1 }, { 0.05, 3 } };
	uint64_t state = 20261125;
	unsigned bad_self = 0, bad_total = 0, bad_depth = 0, bad_sum = 0, unread = 0;
	unsigned cycles_seen = 0, cuts_seen = 0;

	for (unsigned g = 0; g < GRAPHS; g++) {
		struct symtab st;
		struct gmon_profile p;
		struct cg_object obj;
		struct callgraph cg;
		struct source_map map = { 0 };
		struct g2c_error err;
		uint64_t slack = 0;
		size_t n, full_samples = 0;

		random_program(&state, &st, &p, &n);
		if (build(&cg, &obj, &p, &st, 100, &err) != 0) {
			CHECK(!"a random call graph failed to build");
			continue;
		}
		cycles_seen += cg.ncycles;
		map.home = calloc(cg.nfuncs, sizeof *map.home);
		for (size_t f = 0; f < cg.nfuncs; f++)
			map.home[f] = (struct src_pos){ "a.c", 1 };
		/* what the file leaves out: the 1 ns markers and calls */
		for (size_t f = 0; f < cg.nfuncs; f++)
			slack += cg.funcs[f].marker_ns;
		slack += 2 * cg.nsites;
		for (size_t b = 0; b < sizeof bounds / sizeof *bounds; b++) {
			char *text = write_json(&cg, &map, bounds[b].cut_share,
						bounds[b].max_depth);
			struct read_back r;
			size_t samples = 0;

			if (!text) {
				unread++;
				continue;
			}
			r = read_json(text);

			for (const char *s = text; (s = strstr(s, "\n[")); s++)
				samples++;
			if (b == 0)
				full_samples = samples;
			else if (samples < full_samples)
				cuts_seen++;
			unread += !r.ok;
			bad_sum += r.sum != r.end_value;
			bad_depth += bounds[b].max_depth &&
				     r.deepest > 2 * bounds[b].max_depth + 2;
			for (size_t f = 0; f < n; f++) {
				const struct cg_func *fn = &cg.funcs[f];
				int64_t off = (int64_t)r.self[f] - (int64_t)fn->self_ns;

				if (off < -(int64_t)samples - 1 || off > (int64_t)samples + 1)
					bad_self++;
				if (b == 0 && fn->shown && !fn->cycle &&
				    (r.through[f] > fn->incl_ns + samples ||
				     r.through[f] + slack + samples < fn->incl_ns))
					bad_total++;
			}
			free(text);
		}
		free(map.home);
		callgraph_release(&cg);
		gmon_profile_release(&p);
		free(st.funcs);
	}
	CHECK_U64(unread, 0);
	CHECK_U64(bad_sum, 0);
	CHECK_U64(bad_self, 0);
	CHECK_U64(bad_total, 0);
	CHECK_U64(bad_depth, 0);
	/* the graphs had cycles, and the bounds cut trees */
	CHECK(cycles_seen > GRAPHS / 4);
	CHECK(cuts_seen > GRAPHS / 4);
}

int main(void)
{
	test_random_graphs();
	return check_report("test-speedscope");
}
