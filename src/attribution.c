/* attribution.c -- the samples, basic-block counts and arcs of each
 * object's profile credited to its functions, and the checks that the
 * profile belongs to the object. */
#include <config.h>

#include <stdlib.h>

#include "attribution.h"
#include "diag.h"
#include "gmon_store.h"
#include "machine_code.h"
#include "object.h"
#include "symtab.h"
#include "util.h"

/* mcount is called from the prologue, so the callee address of an arc
 * (mcount's return address) is where that call returns, found by
 * decoding the prologue.  Where the code cannot be decoded, it is taken
 * to be within this many bytes of the entry (5 to 30 with gcc on the
 * targets we have seen; clang saves argument registers first). */
#define UNDECODED_MCOUNT_MAX_OFFSET 64

/* The distinct addresses mcount calls name in one object: mcount's entry
 * or PLT entry, or its GOT slot; more would not be mcount's. */
#define MCOUNT_TARGETS_MAX 4

struct build {
	struct callgraph *cg;
	struct attribution_stats *stats;
	const struct attribution_input *inputs;	/* per object */
	const struct cg_object *obj;	/* the object being read */
	const struct attribution_input *in;	/* its code and profile */
	const struct symtab *st;	/* its functions */
	bool counting;		/* only count the positions, not keep them */
	bool added_any;		/* a position was added in this pass: */
	size_t last_func;	/* the last one */
	uint64_t last_pc;
	/* What the object's profile tells of which symbol ranges ran (enum
	 * ran for each; NULL: nothing, as it has no arcs), and the addresses
	 * the mcount calls of the ranges its first ARCS_READ arcs entered
	 * name (read only as far as needed). */
	unsigned char *ran;
	/* each object's RAN and whether its arcs were read, kept from the
	 * counting pass for the second (NULL: not allocated) */
	struct ran_kept { unsigned char *ran; bool arcs_read; } *ran_kept;
	uint64_t mcount_targets[MCOUNT_TARGETS_MAX];
	size_t nmcount_targets, arcs_read;
	/* The first symbol range ending after the start of the bin
	 * attribute_bin read last: a histogram's bins ascend. */
	size_t bin_func;
	/* The first instruction of range STARTS_FUNC ending after the
	 * start of the part starts_in looked at last. */
	size_t starts_func, starts_first;
	/* The body the last bins lay within alone (FUNC SIZE_MAX: none),
	 * from the start LO of the last of them to its END, and its
	 * instructions, NEXT the first starting at or after LO and LAST the
	 * first at or after that bin's end HI. */
	struct {
		size_t func, n, next, last;
		uint64_t lo, hi, end;
		const struct insn *insns;
	} span;
	const struct gmon_profile *prof;	/* the profile being read */
	const struct gmon_profile *arcs_unread;	/* it, until its arcs are read */
	struct g2c_error *err;
};

/* RAN_CALLER: an arc leaves it; RAN_MAYBE: no arc tells, but it has
 * samples of its own or does not call mcount as the ranges entered do. */
enum ran { RAN_NOT_SEEN, RAN_ENTERED, RAN_CALLER, RAN_NEVER, RAN_MAYBE };

/* The number of the object being read. */
static size_t obj_number(const struct build *b)
{
	return (size_t)(b->obj - b->cg->objs);
}

/* The number of function F of the object being read. */
static size_t func_number(const struct build *b, size_t f)
{
	return b->obj->first_func + f;
}

/* Adds a position of function FUNC.  The counting pass counts each
 * function's positions (cg_func.ncosts); credit_samples then gives each
 * function its run of cg->costs, which the second pass fills.  A
 * position equal to the one added last is merged into it: an
 * instruction that spans several bins takes them in turn. */
static void add_cost(struct build *b, size_t func, uint64_t pc, double ticks,
		     uint64_t executions)
{
	struct callgraph *cg = b->cg;
	struct cg_func *fn = &cg->funcs[func];

	if (b->added_any && func == b->last_func && pc == b->last_pc) {
		if (!b->counting) {
			struct cg_cost *last =
				&cg->costs[fn->first_cost + fn->ncosts - 1];

			cg_cost_set_ticks(cg, last,
					  cg_cost_ticks(cg, last) + ticks);
			last->executions = add_saturating(last->executions,
							  executions);
		}
		return;
	}
	b->added_any = true;
	b->last_func = func;
	b->last_pc = pc;
	if (!b->counting) {
		struct cg_cost *c = &cg->costs[fn->first_cost + fn->ncosts];

		*c = (struct cg_cost){ .pc = pc, .executions = executions };
		cg_cost_set_ticks(cg, c, ticks);
	}
	fn->ncosts++;
}

/* Basic-block counts become a second cost at each block's address. */
static void add_executions(struct build *b, const struct gmon_profile *prof)
{
	struct callgraph *cg = b->cg;

	for (size_t i = 0; i < prof->nbbs; i++) {
		size_t f = symtab_lookup(b->st, prof->bbs[i].addr);

		if (prof->bbs[i].count == 0)
			continue;
		if (f == SYMTAB_NONE || b->st->funcs[f].excluded) {
			b->stats->blocks_unresolved++;
			continue;
		}
		add_cost(b, func_number(b, f), prof->bbs[i].addr, 0,
			 prof->bbs[i].count);
		cg->has_executions = true;
	}
}

/* The first function whose range ends after PC (ends ascend with
 * addresses): the one PC is in, where it is in one. */
static size_t first_func_ending_after(const struct symtab *st, uint64_t pc)
{
	size_t f = symtab_lookup(st, pc);

	if (f != SYMTAB_NONE)
		return f;
	if (st->nfuncs == 0)
		return 0;
	return search_above(&st->funcs[0].end, st->nfuncs, sizeof *st->funcs,
			    pc, 0);
}

/* Where the body of symbol range F overlaps [LO, HI): [*A, *E), empty
 * when it does not. */
static void body_overlap(const struct symtab_func *fn, uint64_t lo,
			 uint64_t hi, uint64_t *a, uint64_t *e)
{
	*a = fn->addr > lo ? fn->addr : lo;
	*e = fn->body_end < hi ? fn->body_end : hi;
	if (*e < *a)
		*e = *a;
}

/* first_func_ending_after(b->st, LO), searched from the last bin's: the
 * next bin's is mostly a few ranges further. */
static size_t first_func_of_bin(struct build *b, uint64_t lo)
{
	const struct symtab *st = b->st;

	b->bin_func = search_first(&st->funcs[0].end, st->nfuncs,
				   sizeof *st->funcs, key_at_most, &lo,
				   b->bin_func);
	return b->bin_func;
}

/* The number of function bodies [LO, HI) overlaps; F0 is the first
 * symbol range ending after LO. */
static size_t bodies_in(const struct symtab *st, size_t f0, uint64_t lo,
			uint64_t hi)
{
	size_t n = 0;
	uint64_t a, e;

	for (size_t f = f0; f < st->nfuncs && st->funcs[f].addr < hi; f++) {
		body_overlap(&st->funcs[f], lo, hi, &a, &e);
		n += e > a;
	}
	return n;
}

/* The addresses [*LO, *HI) of counted bin I of HIST (SCALE its scale);
 * empty only at the very top of the address space. */
static void counted_range(const struct gmon_hist *hist, uint32_t scale,
			  size_t i, uint64_t *lo, uint64_t *hi)
{
	gmon_hist_bin_to_pc(hist, scale, hist->counted[i].index, lo, hi);
	if (*hi <= *lo)
		*hi = *lo == UINT64_MAX ? *lo : *lo + 1;
}

/* A search of a histogram's counted bins by where they end. */
struct bin_end_key {
	const struct gmon_hist *hist;
	uint32_t scale;
	uint64_t pc;
};

/* Whether counted bin ELEM of KEY's histogram ends at or before its pc. */
static bool bin_ends_by(const void *elem, const void *key)
{
	const struct bin_end_key *k = key;
	uint64_t lo, hi;

	counted_range(k->hist, k->scale,
		      (size_t)((const struct gmon_bin *)elem - k->hist->counted),
		      &lo, &hi);
	return hi <= k->pc;
}

/* Whether a counted bin of the profile being read overlaps the body of
 * symbol range F and no other body: samples only F can have taken. */
static bool has_own_samples(const struct build *b, size_t f)
{
	const struct symtab_func *fn = &b->st->funcs[f];

	for (size_t h = 0; h < b->prof->nhists; h++) {
		const struct gmon_hist *hist = &b->prof->hists[h];
		uint32_t scale = gmon_hist_scale(hist);
		const struct bin_end_key key = { hist, scale, fn->addr };
		/* (the first counted bin ending after F's entry) */
		size_t i = search_first(hist->counted, hist->ncounted,
					sizeof *hist->counted, bin_ends_by, &key, 0);
		uint64_t lo, hi;

		for (; i < hist->ncounted; i++) {
			counted_range(hist, scale, i, &lo, &hi);
			if (lo >= fn->body_end)
				break;
			if (bodies_in(b->st, first_func_ending_after(b->st, lo),
				      lo, hi) == 1)
				return true;
		}
	}
	return false;
}

/* Credits TICKS at PC to the function owning symbol range F; the mcount
 * family's share is dropped, as gprof drops it. */
static void credit(struct build *b, size_t f, uint64_t pc, double ticks)
{
	if (b->st->funcs[f].excluded)
		b->stats->excluded_ticks += ticks;
	else
		add_cost(b, func_number(b, b->st->funcs[f].owner), pc, ticks, 0);
}

/* The decoded instructions of symbol range F (NULL where they cannot be
 * decoded), and [*FIRST, *LAST): those starting in [A, E). */
static int starts_in(struct build *b, size_t f, uint64_t a, uint64_t e,
		     const struct insn **insns, size_t *first, size_t *last)
{
	size_t n = 0;

	*insns = NULL;
	*first = *last = 0;
	if (b->in->code &&
	    machine_code_instructions(b->in->code, f, insns, &n, b->err) < 0)
		return -1;
	if (!*insns)
		return 0;
	/* (from the last bin's on: the next bin is mostly a few
	 * instructions further) */
	*first = insn_first_ending_after(*insns, n, a,
					 f == b->starts_func ? b->starts_first : 0);
	b->starts_func = f;
	b->starts_first = *first;
	if (*first < n && (*insns)[*first].pc < a)
		(*first)++;
	*last = insns_starting_below(*insns, n, e, *first);
	return 0;
}

/* Whether TARGET is among the mcount targets read so far. */
static bool known_mcount_target(const struct build *b, uint64_t target)
{
	for (size_t k = 0; k < b->nmcount_targets; k++)
		if (b->mcount_targets[k] == target)
			return true;
	return false;
}

/* Whether TARGET is what the mcount calls of the ranges the arcs entered
 * name, where mcount returned from them (or, summed by gprof -s, at their
 * entries): the prologues of the next
 * arcs' callees are decoded only until one names it.  Sets *IS; returns
 * 0, or -1 with b->err set. */
static int is_mcount_target(struct build *b, uint64_t target, bool *is)
{
	const struct gmon_profile *prof = b->prof;

	*is = known_mcount_target(b, target);
	while (!*is && b->arcs_read < prof->narcs &&
	       b->nmcount_targets < MCOUNT_TARGETS_MAX) {
		const struct gmon_arc *arc = &prof->arcs[b->arcs_read++];
		size_t f = symtab_lookup(b->st, arc->self_pc);
		uint64_t ret, named;
		int decoded;

		if (arc->count == 0 || f == SYMTAB_NONE)
			continue;
		decoded = machine_code_mcount_call(b->in->code, f, &ret,
						   &named, b->err);
		if (decoded < 0)
			return -1;
		/* (a gmon.sum's arcs, which gprof -s writes at the callee's
		 * entry, say as much as mcount's own) */
		if (!decoded || (ret != arc->self_pc &&
				 arc->self_pc != b->st->funcs[f].addr) ||
		    named == 0 || known_mcount_target(b, named))
			continue;
		b->mcount_targets[b->nmcount_targets++] = named;
		*is = named == target;
	}
	return 0;
}

/* glibc records a call by the hash bucket of its return address:
 * HASHFRACTION (2) times the size of a long. */
static uint64_t call_bucket(const struct build *b)
{
	return 2 * (uint64_t)b->obj->obj->target.addr_size;
}

/* Marks the symbol ranges that may hold the caller of ARC: those the
 * bucket of its return address, from from_pc, overlaps. */
static void mark_callers(struct build *b, const struct gmon_arc *arc)
{
	uint64_t end = arc->from_pc > UINT64_MAX - call_bucket(b) ?
		       UINT64_MAX : arc->from_pc + call_bucket(b);

	for (size_t f = first_func_ending_after(b->st, arc->from_pc);
	     f < b->st->nfuncs && b->st->funcs[f].addr < end; f++)
		if (b->ran[f] == RAN_NOT_SEEN)
			b->ran[f] = RAN_CALLER;
}

/* Marks the symbol ranges the arcs of b->arcs_unread entered or leave
 * (b->ran): once per object, when a bin is shared.  Only a
 * gmon.out's arcs tell: LD_PROFILE records only calls through the PLT.
 * Leaves b->ran NULL where they tell nothing. */
static int find_entered(struct build *b)
{
	const struct gmon_profile *prof = b->arcs_unread;

	b->arcs_unread = NULL;
	if (!b->in->code || prof->first_format == GMON_FORMAT_LD_PROFILE)
		return 0;
	for (size_t i = 0; i < prof->narcs; i++) {
		const struct gmon_arc *arc = &prof->arcs[i];
		size_t f = symtab_lookup(b->st, arc->self_pc);

		if (arc->count == 0 || f == SYMTAB_NONE)
			continue;
		if (!b->ran && !(b->ran = calloc(b->st->nfuncs, 1)))
			return g2c_error_set(b->err, "out of memory for the functions that ran");
		mark_callers(b, arc);
		b->ran[f] = RAN_ENTERED;
	}
	return 0;
}

/* Whether symbol range F never ran: its prologue calls mcount as the
 * ranges that ran do (mcount records every call of a -pg function, but
 * for calls from outside the profiled code), yet no arc enters or leaves
 * it and no sample can only be its own.  Sets *NEVER; returns 0, or -1
 * with b->err set. */
static int never_ran(struct build *b, size_t f, bool *never)
{
	uint64_t ret, target;
	int decoded;
	bool calls_mcount = false;

	if (b->arcs_unread && find_entered(b) < 0)
		return -1;
	*never = b->ran && b->ran[f] == RAN_NEVER;
	if (!b->ran || b->ran[f] != RAN_NOT_SEEN)
		return 0;
	if (has_own_samples(b, f)) {
		b->ran[f] = RAN_MAYBE;
		return 0;
	}
	decoded = machine_code_mcount_call(b->in->code, f, &ret, &target,
					   b->err);
	if (decoded < 0 || (decoded && ret &&
			    is_mcount_target(b, target, &calls_mcount) < 0))
		return -1;
	*never = calls_mcount;
	b->ran[f] = *never ? RAN_NEVER : RAN_MAYBE;
	return 0;
}

/* What the bodies in one bin, or those of them that may have run, hold. */
struct bin_share {
	uint64_t bytes;
	size_t nstarts;		/* instructions starting there */
	bool by_bytes;		/* some of them cannot be decoded */
};

static void add_share(struct bin_share *s, uint64_t bytes,
		      const struct insn *insns, size_t nstarts)
{
	s->bytes += bytes;
	s->by_bytes = s->by_bytes || !insns;
	s->nstarts += nstarts;
}

/* Credits symbol range F's part [A, E) of COUNT samples that the bodies
 * holding SHARE share, INSNS[FIRST, LAST) being its instructions that
 * start in [A, E). */
static void credit_part(struct build *b, size_t f, uint64_t a, uint64_t e,
			uint64_t count, const struct bin_share *share,
			const struct insn *insns, size_t first, size_t last)
{
	if (!share->by_bytes && share->nstarts > 0) {
		for (size_t k = first; k < last; k++)
			credit(b, f, insns[k].pc,
			       (double)count / (double)share->nstarts);
	} else {
		/* the instruction covering A, which starts before it */
		bool covered = insns && first > 0 &&
			       insns[first - 1].pc + insns[first - 1].len > a;

		credit(b, f, covered ? insns[first - 1].pc : a,
		       (double)count * ((double)(e - a) / (double)share->bytes));
	}
}

/* Credits COUNT samples taken in [LO, HI).  A sampled pc is the start of
 * an instruction that runs: the count is split evenly over the
 * instructions that start in [LO, HI) within functions' bodies (never on
 * the padding past a symbol's size), leaving out those of functions that
 * never ran where another function may have.  Where a body's code cannot
 * be decoded, or no instruction starts there, the bodies share the count
 * by their bytes in the bin, at the instruction covering each share's
 * first byte.  A bin in no body goes to the pseudo function. */
static int attribute_bin(struct build *b, uint64_t lo, uint64_t hi,
			 uint64_t count)
{
	const struct symtab *st = b->st;
	uint64_t a, e;
	size_t first, last, f0;
	struct bin_share all = { 0 }, ran = { 0 }, *share;
	const struct insn *insns;
	bool never = false, tell;

	/* The usual bin, within one body: it has nobody to share with (what
	 * the rest below comes to then, with one pass over the code).  The
	 * next bins are mostly within the same body, further on. */
	if (b->span.func != SIZE_MAX && lo >= b->span.lo && hi <= b->span.end) {
		f0 = b->span.func;
		insns = b->span.insns;
		/* (a bin mostly starts where the last one ended) */
		first = lo == b->span.hi ? b->span.last :
			insns_starting_below(insns, b->span.n, lo, b->span.next);
		last = insns_starting_below(insns, b->span.n, hi, first);
		b->span.lo = lo;
		b->span.next = first;
		b->span.hi = hi;
		b->span.last = last;
		add_share(&all, hi - lo, insns, last - first);
		credit_part(b, f0, lo, hi, count, &all, insns, first, last);
		return 0;
	}
	f0 = first_func_of_bin(b, lo);
	if (f0 < st->nfuncs && st->funcs[f0].addr <= lo &&
	    hi <= st->funcs[f0].body_end) {
		if (starts_in(b, f0, lo, hi, &insns, &first, &last) < 0 ||
		    (b->in->code &&
		     machine_code_instructions(b->in->code, f0, &insns,
					       &b->span.n, b->err) < 0))
			return -1;
		b->span.func = f0;
		b->span.lo = lo;
		b->span.end = st->funcs[f0].body_end;
		b->span.insns = insns;
		b->span.n = insns ? b->span.n : 0;
		b->span.next = first;
		b->span.hi = hi;
		b->span.last = last;
		add_share(&all, hi - lo, insns, last - first);
		credit_part(b, f0, lo, hi, count, &all, insns, first, last);
		return 0;
	}
	b->span.func = SIZE_MAX;
	/* (whether a function ran matters only in a shared bin) */
	tell = bodies_in(st, f0, lo, hi) > 1;

	for (size_t f = f0; f < st->nfuncs && st->funcs[f].addr < hi; f++) {
		body_overlap(&st->funcs[f], lo, hi, &a, &e);
		if (e == a)
			continue;
		if (starts_in(b, f, a, e, &insns, &first, &last) < 0 ||
		    (tell && never_ran(b, f, &never) < 0))
			return -1;
		add_share(&all, e - a, insns, last - first);
		if (!never)
			add_share(&ran, e - a, insns, last - first);
	}
	if (all.bytes == 0) {
		b->stats->unattributed_ticks += (double)count;
		add_cost(b, callgraph_no_symbol(b->cg, obj_number(b)), lo,
			 (double)count, 0);
		return 0;
	}
	share = ran.bytes > 0 ? &ran : &all;
	if (share == &ran && ran.bytes < all.bytes)
		b->stats->never_ran_ticks += (double)count *
			(!all.by_bytes && all.nstarts > 0 ?
			 (double)(all.nstarts - ran.nstarts) / (double)all.nstarts :
			 (double)(all.bytes - ran.bytes) / (double)all.bytes);
	for (size_t f = f0; f < st->nfuncs && st->funcs[f].addr < hi; f++) {
		body_overlap(&st->funcs[f], lo, hi, &a, &e);
		if (e == a)
			continue;
		never = false;
		if (share == &ran && tell && never_ran(b, f, &never) < 0)
			return -1;
		if (never)
			continue;
		if (starts_in(b, f, a, e, &insns, &first, &last) < 0)
			return -1;
		credit_part(b, f, a, e, count, share, insns, first, last);
	}
	return 0;
}

static int attribute_samples(struct build *b, const struct gmon_profile *prof)
{
	struct ran_kept *kept = &b->ran_kept[obj_number(b)];
	int rc = 0;

	b->prof = prof;
	b->arcs_unread = kept->arcs_read ? NULL : prof;
	b->ran = kept->ran;
	b->nmcount_targets = b->arcs_read = 0;
	for (size_t h = 0; rc == 0 && h < prof->nhists; h++) {
		const struct gmon_hist *hist = &prof->hists[h];
		uint32_t scale = gmon_hist_scale(hist);
		size_t f = first_func_ending_after(b->st, hist->low_pc);

		b->stats->hists++;
		b->bin_func = 0;
		b->starts_func = SIZE_MAX;
		b->span.func = SIZE_MAX;
		if (f >= b->st->nfuncs || b->st->funcs[f].addr >= hist->high_pc)
			b->stats->hists_outside++;

		for (size_t i = 0; i < hist->ncounted; i++) {
			const struct gmon_bin *bin = &hist->counted[i];
			uint64_t lo, hi;

			b->cg->samples += bin->count;
			counted_range(hist, scale, i, &lo, &hi);
			if (hi > lo && attribute_bin(b, lo, hi, bin->count) < 0) {
				rc = -1;
				break;
			}
		}
	}
	kept->ran = b->ran;
	kept->arcs_read = !b->arcs_unread;
	b->ran = NULL;
	b->arcs_unread = NULL;
	return rc;
}

/* One resolved arc record before arcs are summed per (caller, callee). */
struct raw_call {
	size_t caller, callee;
	uint64_t pc, count;
};

static uint64_t raw_call_key(const void *x)
{
	return ((const struct raw_call *)x)->caller;
}

static int by_raw_calls(const void *x, const void *y)
{
	const struct raw_call *a = x, *b = y;

	if (a->caller != b->caller)
		return a->caller < b->caller ? -1 : 1;
	if (a->callee != b->callee)
		return a->callee < b->callee ? -1 : 1;
	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	return 0;
}

/* Checks the callee end of ARC, in symbol range CALLEE: sets *FAR when
 * self_pc lies past the callee's prologue (for LD_PROFILE, which records
 * the entry: when it is not the entry), and *AT_SELF to whether self_pc
 * is where the prologue's mcount call returns.  Returns 0, or -1 with
 * b->err set. */
static int check_callee(struct build *b, const struct gmon_arc *arc,
			size_t callee, bool ld_profile, bool *far,
			enum machine_code_check *at_self)
{
	uint64_t entry = b->st->funcs[callee].addr, ret, target;
	int decoded;

	*at_self = MACHINE_CODE_UNKNOWN;
	if (ld_profile) {
		*far = arc->self_pc != entry;
		*at_self = MACHINE_CODE_AFTER_CALL;
		return 0;
	}
	*far = arc->self_pc - entry > UNDECODED_MCOUNT_MAX_OFFSET;
	if (!b->in->code)
		return 0;
	decoded = machine_code_mcount_call(b->in->code, callee, &ret, &target,
					   b->err);
	if (decoded < 0)
		return -1;
	if (decoded) {
		*far = ret == 0 || arc->self_pc > ret;
		*at_self = arc->self_pc == ret ? MACHINE_CODE_AFTER_CALL :
			   MACHINE_CODE_NOT_AFTER_CALL;
		return 0;
	}
	if (*far) {
		*at_self = MACHINE_CODE_NOT_AFTER_CALL;
		return 0;
	}
	return machine_code_call_ends_at(b->in->code, callee, arc->self_pc,
					 at_self, b->err);
}

/* Whether b->prof records a call from BUCKET into the function at
 * TARGET (struct machine_code_recorded). */
static bool recorded_call_into(const void *ctx, uint64_t bucket,
			       uint64_t target)
{
	const struct build *b = ctx;
	const struct gmon_arc *arcs = b->prof->arcs;
	size_t n = b->prof->narcs, f = symtab_lookup(b->st, target);
	/* (the arcs are sorted by from_pc, then self_pc) */
	size_t i = bucket ? search_above(arcs, n, sizeof *arcs, bucket - 1, 0) : 0;

	for (; f != SYMTAB_NONE && i < n && arcs[i].from_pc == bucket; i++)
		if (arcs[i].count && symtab_lookup(b->st, arcs[i].self_pc) == f)
			return true;
	return false;
}

/* Finds the call site of ARC, whose callee is symbol range CALLEE, into
 * *SITE, and checks that the profile fits the code: self_pc must be the
 * return address of the mcount call in the callee's prologue (*FAR when
 * it is past the prologue), and a call must return into from_pc's
 * bucket.  A program rebuilt after profiling fails both.  LD_PROFILE
 * records a return address in from_pc (BUCKET 1) and the callee's entry
 * in self_pc.  Returns 0, or -1 with b->err set. */
static int check_arc(struct build *b, const struct gmon_arc *arc,
		     size_t callee, uint64_t bucket, bool ld_profile,
		     uint64_t *site, bool *far)
{
	struct attribution_stats *stats = b->stats;
	enum machine_code_check at_site = MACHINE_CODE_UNKNOWN, at_self;
	const struct machine_code_recorded recorded = { recorded_call_into, b };

	*site = arc->from_pc;
	if (check_callee(b, arc, callee, ld_profile, far, &at_self) < 0)
		return -1;
	if (b->in->code &&
	    machine_code_call_site(b->in->code, arc->from_pc, bucket,
				   b->st->funcs[callee].addr, &recorded, site,
				   &at_site, b->err) < 0)
		return -1;
	if (at_site == MACHINE_CODE_UNKNOWN || at_self == MACHINE_CODE_UNKNOWN)
		return 0;
	stats->arcs_checked++;
	if (at_site == MACHINE_CODE_NOT_AFTER_CALL ||
	    at_self == MACHINE_CODE_NOT_AFTER_CALL)
		stats->arcs_not_after_call++;
	return 0;
}

/* Whether ARC, whose callee is symbol range CALLEE, is one gprof -s
 * wrote: it records each arc between symbols, self_pc the callee's entry
 * and from_pc the start of the caller's line (with -s gprof reads by
 * lines) or of the caller.  mcount never records an entry (it is called
 * from the prologue), so that the record was summed is certain; where the
 * call was is not, and its site stays from_pc, unchecked. */
static bool is_summed(const struct build *b, const struct gmon_arc *arc,
		      size_t callee, bool ld_profile)
{
	return !ld_profile && arc->self_pc == b->st->funcs[callee].addr;
}

/* Whether pair ELEM comes before pair KEY (by from, then to). */
static bool pair_below(const void *elem, const void *key)
{
	const struct cg_func_pair *p = elem, *k = key;

	return p->from < k->from || (p->from == k->from && p->to < k->to);
}

/* Whether -k drops the calls from FROM to TO. */
static bool deselected(const struct cg_selection *sel, size_t from, size_t to)
{
	const struct cg_func_pair key = { from, to };
	size_t i = search_first(sel->excl_arcs, sel->nexcl_arcs,
				sizeof *sel->excl_arcs, pair_below, &key, 0);

	return i < sel->nexcl_arcs && sel->excl_arcs[i].from == from &&
	       sel->excl_arcs[i].to == to;
}

/* Counts COUNT calls into symbol range CALLEE from code in no function
 * (a callback called by a library that was not profiled). */
static void count_outside_call(struct build *b, size_t callee, uint64_t count)
{
	const struct symtab_func *f = &b->st->funcs[b->st->funcs[callee].owner];
	struct cg_func *fn = &b->cg->funcs[func_number(b, b->st->funcs[callee].owner)];

	if (!f->excluded)
		fn->outside_calls = add_saturating(fn->outside_calls, count);
}

/* Resolves each arc of the object being read as gprof does, appending
 * them to CALLS[0..*N): the caller is the function containing from_pc,
 * the callee the one containing self_pc; records with an end in no
 * function, or in the mcount family, are dropped (and counted). */
static int resolve_calls(struct build *b, const struct gmon_profile *prof,
			 const struct cg_selection *sel, struct raw_call *calls,
			 size_t *nout)
{
	struct attribution_stats *stats = b->stats;
	size_t n = *nout;
	uint64_t bucket = call_bucket(b);
	bool ld_profile = prof->first_format == GMON_FORMAT_LD_PROFILE;

	b->prof = prof;		/* (recorded_call_into reads its arcs) */
	for (size_t i = 0; i < prof->narcs; i++) {
		const struct gmon_arc *arc = &prof->arcs[i];
		size_t caller, callee;
		uint64_t site = arc->from_pc;
		bool far = false;

		if (i + PREFETCH_AHEAD < prof->narcs) {
			uint64_t ahead = prof->arcs[i + PREFETCH_AHEAD].self_pc;

			symtab_prefetch(b->st, ahead);
			if (b->in->code)
				machine_code_prefetch(b->in->code, ahead);
		}
		if (arc->count == 0)
			continue;
		stats->arcs_read++;
		callee = symtab_lookup(b->st, arc->self_pc);
		if (ld_profile && arc->from_pc == GMON_FROM_OUTSIDE) {
			if (callee == SYMTAB_NONE || b->st->funcs[callee].excluded) {
				stats->arcs_unresolved += callee == SYMTAB_NONE;
				stats->arcs_excluded += callee != SYMTAB_NONE;
				continue;
			}
			if (arc->self_pc != b->st->funcs[callee].addr)
				stats->arcs_far_from_entry++;
			calls[n++] = (struct raw_call){
				callgraph_outside(b->cg, obj_number(b)),
				func_number(b, b->st->funcs[callee].owner), 0,
				arc->count };
			continue;
		}
		if (callee != SYMTAB_NONE && is_summed(b, arc, callee, ld_profile))
			stats->arcs_summed++;
		else if (callee != SYMTAB_NONE &&
			 check_arc(b, arc, callee, ld_profile ? 1 : bucket,
				   ld_profile, &site, &far) < 0)
			return -1;
		caller = symtab_lookup(b->st, site);
		if (caller == SYMTAB_NONE || callee == SYMTAB_NONE) {
			stats->arcs_unresolved++;
			if (callee != SYMTAB_NONE)
				count_outside_call(b, callee, arc->count);
			continue;
		}
		if (far)
			stats->arcs_far_from_entry++;
		caller = b->st->funcs[caller].owner;
		callee = b->st->funcs[callee].owner;
		if (b->st->funcs[caller].excluded || b->st->funcs[callee].excluded) {
			stats->arcs_excluded++;
			continue;
		}
		if (deselected(sel, func_number(b, caller), func_number(b, callee))) {
			stats->arcs_deselected++;
			continue;
		}
		calls[n++] = (struct raw_call){ func_number(b, caller),
						func_number(b, callee), site,
						arc->count };
	}
	*nout = n;
	return 0;
}

/* The arcs of all objects, summed per (caller, callee) and call site. */
static int collect_arcs(struct build *b, const struct cg_selection *sel)
{
	struct callgraph *cg = b->cg;
	struct raw_call *calls;
	size_t n = 0, nrecords = 0;

	for (size_t o = 0; o < cg->nobjs; o++)
		if (b->inputs[o].prof)
			nrecords += b->inputs[o].prof->narcs;
	calls = malloc((nrecords ? nrecords : 1) * sizeof *calls);
	if (!calls)
		return g2c_error_set(b->err, "out of memory for call arcs");
	for (size_t o = 0; o < cg->nobjs; o++) {
		b->obj = &cg->objs[o];
		b->in = &b->inputs[o];
		b->st = b->obj->st;
		if (b->in->prof &&
		    resolve_calls(b, b->in->prof, sel, calls, &n) < 0) {
			free(calls);
			return -1;
		}
	}
	sort_by_key(calls, n, sizeof *calls, raw_call_key, by_raw_calls);
	cg->arcs = calloc(n ? n : 1, sizeof *cg->arcs);
	cg->sites = calloc(n ? n : 1, sizeof *cg->sites);
	if (!cg->arcs || !cg->sites) {
		free(calls);
		return g2c_error_set(b->err, "out of memory for call arcs");
	}
	for (size_t i = 0; i < n; i++) {
		const struct raw_call *c = &calls[i];
		struct cg_arc *arc = cg->narcs ? &cg->arcs[cg->narcs - 1] : NULL;

		if (!arc || arc->caller != c->caller || arc->callee != c->callee) {
			arc = &cg->arcs[cg->narcs++];
			*arc = (struct cg_arc){ .caller = c->caller,
						.callee = c->callee,
						.first_site = cg->nsites };
		}
		if (arc->nsites > 0 &&
		    cg->sites[cg->nsites - 1].pc == c->pc) {
			cg->sites[cg->nsites - 1].count =
				add_saturating(cg->sites[cg->nsites - 1].count,
					       c->count);
		} else {
			cg->sites[cg->nsites++] = (struct cg_site){ c->pc,
								    c->count, 0 };
			arc->nsites++;
		}
		arc->count = add_saturating(arc->count, c->count);
	}
	free(calls);
	return 0;
}

/* gprof -z: every function is in the graph, sampled and called or not;
 * not the mcount family, and not cold parts, which are their parents'. */
static void use_every_function(struct callgraph *cg)
{
	for (size_t o = 0; o < cg->nobjs; o++) {
		const struct symtab *st = cg->objs[o].st;

		for (size_t f = 0; f < st->nfuncs; f++)
			if (st->funcs[f].owner == f && !st->funcs[f].excluded)
				cg->funcs[cg->objs[o].first_func + f].used = true;
	}
}

static int credit_objects(struct build *b)
{
	struct callgraph *cg = b->cg;

	for (size_t o = 0; o < cg->nobjs; o++) {
		b->obj = &cg->objs[o];
		b->in = &b->inputs[o];
		b->st = b->obj->st;
		if (!b->in->prof)
			continue;
		if (!cg->hz && b->in->prof->nhists)
			cg->hz = b->in->hz;
		if (attribute_samples(b, b->in->prof) < 0)
			return -1;
		add_executions(b, b->in->prof);
	}
	return 0;
}

/* Credits every object's samples and basic-block counts.  The positions
 * are counted first and then kept in an array of that size, each
 * function's together: a histogram with every bin counted has one per
 * instruction, and a growing array would reserve up to twice that. */
static int credit_samples(struct build *b)
{
	struct callgraph *cg = b->cg;
	struct attribution_stats stats = *b->stats;	/* (counted once) */
	uint64_t samples = cg->samples;

	b->counting = true;
	if (credit_objects(b) < 0)
		return -1;
	*b->stats = stats;
	cg->samples = samples;
	cg->ncosts = 0;
	for (size_t f = 0; f < cg->nfuncs; f++) {
		cg->funcs[f].first_cost = cg->ncosts;
		cg->ncosts += cg->funcs[f].ncosts;
		cg->funcs[f].ncosts = 0;
	}
	cg->costs = malloc((cg->ncosts ? cg->ncosts : 1) * sizeof *cg->costs);
	if (!cg->costs)
		return g2c_error_set(b->err, "out of memory for sample positions");
	cg->phase = CG_ATTRIBUTED;
	b->counting = false;
	b->added_any = false;
	return credit_objects(b);
}

/* One sample of each object's profile in ns, for its functions and its
 * pseudo functions. */
static void set_ns_per_tick(struct callgraph *cg,
			    const struct attribution_input *in)
{
	for (size_t o = 0; o < cg->nobjs; o++) {
		const struct cg_object *obj = &cg->objs[o];
		double ns_per_tick = in[o].prof && in[o].prof->nhists &&
				     in[o].hz ? 1e9 / in[o].hz : 0;

		for (size_t f = 0; f < obj->st->nfuncs; f++)
			cg->funcs[obj->first_func + f].ns_per_tick = ns_per_tick;
		cg->funcs[callgraph_outside(cg, o)].ns_per_tick = ns_per_tick;
		cg->funcs[callgraph_no_symbol(cg, o)].ns_per_tick = ns_per_tick;
	}
}

int attribute_profiles(struct callgraph *cg,
		       const struct attribution_input *in,
		       const struct cg_selection *sel,
		       struct attribution_stats *stats, struct g2c_error *err)
{
	struct build b = { .cg = cg, .inputs = in, .stats = stats, .err = err };
	int rc;

	set_ns_per_tick(cg, in);
	/* (which functions ran is found once for both passes) */
	b.ran_kept = calloc(cg->nobjs ? cg->nobjs : 1, sizeof *b.ran_kept);
	if (!b.ran_kept)
		return g2c_error_set(err, "out of memory for the functions that ran");
	rc = credit_samples(&b);
	for (size_t o = 0; o < cg->nobjs; o++)
		free(b.ran_kept[o].ran);
	free(b.ran_kept);
	if (rc < 0 || collect_arcs(&b, sel) < 0)
		return -1;
	if (sel->show_unused)
		use_every_function(cg);
	return 0;
}

const char *attribute_misfit(const struct callgraph *cg,
			     const struct attribution_stats *s)
{
	uint64_t resolved = s->arcs_read - s->arcs_unresolved - s->arcs_excluded;

	if (s->hists > 0 && s->hists_outside == s->hists)
		return "its histogram covers none of the executable's functions";
	if (cg->samples > 0 && s->unattributed_ticks > 0.5 * (double)cg->samples)
		return "most samples fall outside every function";
	if (s->arcs_read > 0 && s->arcs_unresolved * 2 > s->arcs_read)
		return "most call arcs point outside every function";
	if (resolved > 0 && s->arcs_far_from_entry * 2 > resolved)
		return "most call arcs do not point at the start of a function";
	if (s->arcs_checked > 0 && s->arcs_not_after_call * 2 > s->arcs_checked)
		return "most call arcs do not match its call instructions (was it rebuilt after profiling?)";
	return NULL;
}
