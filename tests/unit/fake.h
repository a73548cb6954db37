/* fake.h -- hand-made inputs for the unit tests: an object whose code
 * cannot be read, symbol tables of equal-sized functions, profiles with
 * one histogram of 2-byte bins, and arcs. */
#ifndef GMON2CG_FAKE_H
#define GMON2CG_FAKE_H

#include <stdlib.h>
#include <string.h>

#include "attribution.h"
#include "callgraph.h"
#include "gmon_store.h"
#include "object.h"
#include "propagate.h"
#include "symtab.h"

#define TICK 10000000ull	/* ns per sample at 100 Hz */

/* A 64-bit little-endian object whose code cannot be read: positions
 * stay at histogram bins and call sites at hash buckets. */
static struct object fake_object = { .path = "/fake/prog", .target = { 8, false } };

/* A symbol table of N functions, each WIDTH bytes from BASE. */
static inline void fake_symtab(struct symtab *st, size_t n, uint64_t base,
			uint64_t width)
{
	memset(st, 0, sizeof *st);
	st->funcs = calloc(n, sizeof *st->funcs);
	st->nfuncs = n;
	for (size_t i = 0; i < n; i++) {
		st->funcs[i].addr = base + i * width;
		st->funcs[i].end = st->funcs[i].body_end = base + (i + 1) * width;
		st->funcs[i].name = st->funcs[i].raw_name = "f";
		st->funcs[i].is_func = true;
		st->funcs[i].owner = i;
	}
}

/* Builds the call graph of the objects OBJS[0..N), profiled as IN[0..N)
 * says, without selections, as gmon2cg's conversion does: attribution,
 * then propagation.  On error CG is released. */
static inline int build_graph(struct callgraph *cg, struct cg_object *objs,
			      const struct attribution_input *in, size_t n,
			      struct g2c_error *err)
{
	static const struct cg_selection none;
	struct attribution_stats stats = { 0 };

	if (callgraph_init(cg, objs, n, err) < 0 ||
	    attribute_profiles(cg, in, &none, &stats, err) < 0 ||
	    propagate_graph(cg, &none, PROPAGATE_GRAPH_ONLY, err) < 0) {
		callgraph_release(cg);
		return -1;
	}
	return 0;
}

/* Builds the call graph of one object with symbols ST, profiled at HZ. */
static inline int build(struct callgraph *cg, struct cg_object *obj,
		 const struct gmon_profile *p, const struct symtab *st,
		 uint32_t hz, struct g2c_error *err)
{
	const struct attribution_input in = { .prof = p, .hz = hz };

	*obj = (struct cg_object){ .obj = &fake_object, .st = st };
	return build_graph(cg, obj, &in, 1, err);
}

/* A profile with one histogram of 2-byte bins over [LOW, HIGH). */
static inline void fake_profile(struct gmon_profile *p, uint64_t low, uint64_t high)
{
	gmon_profile_init(p);
	p->hists = calloc(1, sizeof *p->hists);
	p->nhists = 1;
	p->hists[0] = (struct gmon_hist){ .low_pc = low, .high_pc = high,
					  .nbins = (uint32_t)((high - low) / 2),
					  .rate = 100, .dimen = "seconds" };
	/* room for a count in every bin: set_bin appends */
	p->hists[0].counted = calloc(p->hists[0].nbins + 1, sizeof *p->hists[0].counted);
}

/* Gives bin INDEX of P's histogram COUNT samples; bins must be given in
 * increasing order, as the reader keeps them, each once. */
static inline void set_bin(struct gmon_profile *p, uint64_t index, uint64_t count)
{
	struct gmon_hist *h = &p->hists[0];

	h->counted[h->ncounted++] = (struct gmon_bin){ index, count };
}

static inline void add_arc(struct gmon_profile *p, uint64_t from, uint64_t self,
		    uint64_t count)
{
	if (p->narcs == p->arcs_cap) {
		p->arcs_cap = p->arcs_cap ? 2 * p->arcs_cap : 16;
		p->arcs = realloc(p->arcs, p->arcs_cap * sizeof *p->arcs);
	}
	p->arcs[p->narcs++] = (struct gmon_arc){ from, self, count };
}

#endif
