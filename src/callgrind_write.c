/* callgrind_write.c -- write a call graph as a callgrind-format profile. */
#include <config.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind_format.h"
#include "callgrind_write.h"
#include "diag.h"
#include "hashindex.h"
#include "object.h"
#include "outcheck.h"
#include "symtab.h"
#include "util.h"

/* (a power of two: the bits of a hash of the address pick the entry) */
#define RECENT_ID_BITS 10
#define RECENT_IDS (1u << RECENT_ID_BITS)

/* Strings that have been given a compression number, e.g. "fl=(3) a.c". */
struct name_ids {
	struct string_index names;	/* numbered id - 1 */
	/* the ids of strings recently asked for, by their address: the
	 * positions name their files with shared strings, so most look-ups
	 * end here without hashing a path */
	const char *recent[RECENT_IDS];
	size_t recent_id[RECENT_IDS];
};

/* Returns the id of S, 0 with *IS_NEW if it gets a new one, or -1 when out
 * of memory. */
static long long name_id(struct name_ids *ids, const char *s, bool *is_new)
{
	size_t recent = (size_t)(((uint64_t)(uintptr_t)s * 0x9e3779b97f4a7c15u) >>
				(64 - RECENT_ID_BITS));
	struct hash_slot *slot;
	uint64_t hash;

	if (ids->recent[recent] == s) {
		*is_new = false;
		return (long long)ids->recent_id[recent];
	}
	if (!(slot = string_index_find(&ids->names, s, strlen(s), &hash)))
		return -1;
	*is_new = hash_slot_is_free(slot);
	if (*is_new && !string_index_add(&ids->names, slot, hash, s))
		return -1;
	ids->recent[recent] = s;
	ids->recent_id[recent] = hash_slot_entry(slot) + 1;
	return (long long)ids->recent_id[recent];
}

static void name_ids_release(struct name_ids *ids)
{
	string_index_release(&ids->names);
}

/* A function as the calls to it name it, gathered in one pass before
 * writing: a call reads its callee here, in one place, instead of in
 * five tables at random. */
struct fn_ref {
	const char *name;	/* as written */
	const char *file;	/* its home file */
	uint64_t addr;		/* its entry; 0 for a pseudo function */
	size_t object;
	unsigned line;		/* its entry line */
	bool shown;
};

/* The name spaces of compressed names: each id is given once, in order,
 * and defined ("(id) name") where it is first written. */
enum name_space { NAMES_FILE, NAMES_OBJECT, NAMES_FN, NAME_SPACES };

struct writer {
	const struct callgraph *cg;
	const struct source_map *map;
	struct outstream *os;
	char **label;		/* per function: name written, when not its symbol's */
	const struct fn_ref *ref;	/* per function */
	size_t *fn_id;		/* per function: its fn= number, 0 until named */
	size_t next_fn_id;
	struct name_ids files;
	struct name_ids objects;
	size_t cur_ob;		/* the object of the cost lines being written */
	const char *last_fl;	/* the last fl= written */
	const char *cur_file;	/* file of the cost lines being written */
	uint64_t last_pc;
	unsigned last_line;
	bool have_last;
	bool instr;		/* positions are "instr line", else "line" */
	bool follow_only;	/* keep the state up to date, write nothing */
	bool failed;		/* out of memory */
	/* per name space: the last id defined (or followed), and whether
	 * one came out of order, which would define an id twice or never */
	size_t last_defined[NAME_SPACES];
	bool ids_out_of_order;
};

static const char *home_file(const struct writer *w, size_t f)
{
	return w->map->home[f].file;
}

static const char *object_path(const struct writer *w, size_t o)
{
	return w->cg->objs[o].obj->path;
}

/* Puts "KEY=(ID)" at P; returns the end.  (Keys are short.) */
static char *put_name_id(char *p, const char *key, size_t id)
{
	while (*key)
		*p++ = *key++;
	*p++ = '=';
	*p++ = '(';
	p = outstream_format_u64(p, id);
	*p++ = ')';
	return p;
}

/* Writes "KEY=(ID) NAME", the line that defines ID.  Control characters
 * cannot be written in a name line; they become '?' (as in every line
 * that carries a name). */
static void define_name(struct writer *w, enum name_space space,
			const char *key, size_t id, const char *name)
{
	size_t len;
	char *p;

	w->ids_out_of_order |= id != w->last_defined[space] + 1;
	w->last_defined[space] = id;
	if (w->follow_only)
		return;
	/* the line in place when it fits the buffer */
	len = strlen(name);
	p = put_name_id(outstream_room(w->os, len < 4096 ? len + 32 : 32),
			key, id);
	*p++ = ' ';
	if (len < 4096) {
		p = copy_printable(p, name, len);
		*p++ = '\n';
		outstream_advance(w->os, p);
		return;
	}
	outstream_advance(w->os, p);
	outstream_puts_printable(w->os, name);
	outstream_write(w->os, "\n", 1);
}

/* Writes "KEY=(id)" or, at first use (IS_NEW), "KEY=(id) name". */
static inline void write_name(struct writer *w, enum name_space space,
			      const char *key, size_t id, bool is_new,
			      const char *name)
{
	char *p;

	if (is_new) {
		define_name(w, space, key, id, name);
		return;
	}
	if (w->follow_only)
		return;
	p = put_name_id(outstream_room(w->os, 32), key, id);
	*p++ = '\n';
	outstream_advance(w->os, p);
}

/* Writes KEY naming STRING, compressed in the name space IDS, SPACE. */
static void write_compressed(struct writer *w, struct name_ids *ids,
			     enum name_space space, const char *key,
			     const char *string)
{
	bool is_new;
	long long id = name_id(ids, string, &is_new);

	if (id < 0) {
		w->failed = true;
		return;
	}
	write_name(w, space, key, (size_t)id, is_new, string);
}

static void write_file(struct writer *w, const char *key, const char *file)
{
	write_compressed(w, &w->files, NAMES_FILE, key, file);
}

/* Makes object O the object of the following lines ("ob="), or of the
 * following call's target ("cob="). */
static void write_object(struct writer *w, const char *key, size_t o)
{
	write_compressed(w, &w->objects, NAMES_OBJECT, key, object_path(w, o));
}

static inline void write_fn(struct writer *w, const char *key, size_t f)
{
	bool is_new = w->fn_id[f] == 0;

	if (is_new)
		w->fn_id[f] = ++w->next_fn_id;
	write_name(w, NAMES_FN, key, w->fn_id[f], is_new, w->ref[f].name);
}

/* Puts "0x" and V in lowercase hex at P; returns the end. */
static char *put_hex(char *p, uint64_t v)
{
#define HEX_PAIRS(high) high "0" high "1" high "2" high "3" high "4" high "5" \
	high "6" high "7" high "8" high "9" high "a" high "b" high "c" high "d" \
	high "e" high "f"
	/* the two digits of each byte */
	static const char pairs[] =
		HEX_PAIRS("0") HEX_PAIRS("1") HEX_PAIRS("2") HEX_PAIRS("3")
		HEX_PAIRS("4") HEX_PAIRS("5") HEX_PAIRS("6") HEX_PAIRS("7")
		HEX_PAIRS("8") HEX_PAIRS("9") HEX_PAIRS("a") HEX_PAIRS("b")
		HEX_PAIRS("c") HEX_PAIRS("d") HEX_PAIRS("e") HEX_PAIRS("f");
#undef HEX_PAIRS
	unsigned ndigits = 2;
	uint64_t top = v;
	char *end;

	for (; top >= 256; top >>= 8)
		ndigits += 2;
	ndigits -= top < 16;
	end = p + 2 + ndigits;
	p[0] = '0';
	p[1] = 'x';
	/* a byte at a time, from the end */
	for (p = end; ndigits >= 2; ndigits -= 2, v >>= 8) {
		p -= 2;
		memcpy(p, pairs + 2 * (v & 0xff), 2);
	}
	if (ndigits)
		p[-1] = pairs[2 * v + 1];
	return end;
}

/* Puts "+D" or "-D" for V - LAST, "*" for V = LAST: both consumers
 * resolve these against the previous position line. */
static char *put_relative(char *p, uint64_t v, uint64_t last)
{
	if (v == last) {
		*p++ = '*';
	} else if (v > last) {
		*p++ = '+';
		p = outstream_format_u64(p, v - last);
	} else {
		*p++ = '-';
		p = outstream_format_u64(p, last - v);
	}
	return p;
}

/* Makes PC and LINE the position the next one is compressed against. */
static void follow_position(struct writer *w, uint64_t pc, unsigned line)
{
	w->last_pc = pc;
	w->last_line = line;
	w->have_last = true;
}

/* Puts "ADDR LINE", or "LINE" without addresses, compressed against the
 * previous position line (addresses only when near it). */
static char *put_position(struct writer *w, char *p, uint64_t pc, unsigned line)
{
	if (w->instr) {
		if (w->have_last && (pc > w->last_pc ? pc - w->last_pc : w->last_pc - pc) < 0x10000)
			p = put_relative(p, pc, w->last_pc);
		else
			p = put_hex(p, pc);
		*p++ = ' ';
	}
	if (w->have_last)
		p = put_relative(p, line, w->last_line);
	else
		p = outstream_format_u64(p, line);
	follow_position(w, pc, line);
	return p;
}

/* A cost line: position PC, LINE and the costs VALUES[0..N), N <= 2. */
static void write_cost_line(struct writer *w, uint64_t pc, unsigned line,
			    const uint64_t *values, size_t n)
{
	char *p;

	if (w->follow_only) {
		follow_position(w, pc, line);
		return;
	}
	p = outstream_room(w->os, 128);
	p = put_position(w, p, pc, line);
	for (size_t i = 0; i < n; i++) {
		*p++ = ' ';
		p = outstream_format_u64(p, values[i]);
	}
	*p++ = '\n';
	outstream_advance(w->os, p);
}

/* Whether A and B are one file name; most are one shared string. */
static inline bool same_file(const char *a, const char *b)
{
	return a == b || strcmp(a, b) == 0;
}

/* Switches the file of the following cost lines with fi=/fe= (fe= when
 * returning to the function's own file). */
static inline void switch_file(struct writer *w, size_t f, const char *file)
{
	if (same_file(file, w->cur_file))
		return;
	write_file(w, same_file(file, home_file(w, f)) ? "fe" : "fi", file);
	w->cur_file = file;
}

/* A self cost line: position, ns and, when there are any, executions. */
static void write_cost(struct writer *w, const struct cg_cost *c, unsigned line)
{
	const uint64_t values[2] = { cg_cost_ns(w->cg, c), c->executions };

	write_cost_line(w, c->pc, line, values, c->executions ? 2 : 1);
}

/* "cfi=", "cfn=" and "calls=COUNT TARGET", the target being the callee's
 * entry; the call cost line follows. */
static void write_call(struct writer *w, size_t callee, uint64_t count)
{
	const struct fn_ref *ref = &w->ref[callee];
	char *p;

	if (ref->object != w->cur_ob)
		write_object(w, "cob", ref->object);
	write_file(w, "cfi", ref->file);
	write_fn(w, "cfn", callee);
	if (w->follow_only)
		return;
	p = outstream_room(w->os, 96);
	memcpy(p, "calls=", 6);
	p = outstream_format_u64(p + 6, count);
	if (w->instr) {
		*p++ = ' ';
		p = put_hex(p, ref->addr);
	}
	*p++ = ' ';
	p = outstream_format_u64(p, ref->line);
	*p++ = '\n';
	outstream_advance(w->os, p);
}

/* Makes object O the object of the following functions. */
static void switch_object(struct writer *w, size_t o)
{
	if (o == w->cur_ob)
		return;
	write_object(w, "ob", o);
	w->cur_ob = o;
}

static void write_function(struct writer *w, size_t f)
{
	const struct cg_func *fn = &w->cg->funcs[f];
	const struct src_pos *pos;
	bool wrote_cost = false;

	switch_object(w, w->ref[f].object);
	if (!w->last_fl || !same_file(w->last_fl, home_file(w, f))) {
		write_file(w, "fl", home_file(w, f));
		w->last_fl = home_file(w, f);
	}
	w->cur_file = home_file(w, f);
	write_fn(w, "fn", f);
	for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++) {
		const struct cg_cost *c = &w->cg->costs[i];

		if (cg_cost_ns(w->cg, c) == 0 && c->executions == 0)
			continue;
		pos = &w->map->cost[i];
		switch_file(w, f, pos->file);
		write_cost(w, c, pos->line);
		wrote_cost = true;
	}
	/* callgrind_annotate --inclusive=yes annotates the file of every
	 * costly function and warns when that file has no cost line at all:
	 * a function without self cost gets a cost of 0 at its entry (or
	 * its marker cost, see propagate.c). */
	if ((!wrote_cost || fn->marker_ns) && !callgraph_is_pseudo(w->cg, f)) {
		switch_file(w, f, home_file(w, f));
		write_cost_line(w, w->ref[f].addr, w->map->home[f].line,
				&fn->marker_ns, 1);
	}
	for (size_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++) {
		const struct cg_arc *arc = &w->cg->arcs[a];

		if (!w->ref[arc->callee].shown)
			continue;
		for (size_t s = arc->first_site; s < arc->first_site + arc->nsites; s++) {
			const struct cg_site *site = &w->cg->sites[s];

			pos = &w->map->site[s];
			switch_file(w, f, pos->file);
			write_call(w, arc->callee, site->count);
			write_cost_line(w, site->pc, pos->line, &site->ns, 1);
		}
	}
	switch_file(w, f, home_file(w, f));
}

/* The pseudo caller of every function or cycle nothing else calls, so that
 * both viewers show their inclusive cost (and KCachegrind finds every
 * cycle: its search starts from functions in name order, and this name
 * sorts first).  Its call sites have no address. */
static void write_spontaneous(struct writer *w)
{
	if (w->cg->nroots == 0)
		return;
	write_file(w, "fl", CALLGRIND_UNKNOWN_FILE);
	w->last_fl = w->cur_file = CALLGRIND_UNKNOWN_FILE;
	write_name(w, NAMES_FN, "fn", ++w->next_fn_id, true,
		   CALLGRIND_SPONTANEOUS);
	for (size_t i = 0; i < w->cg->nroots; i++) {
		const struct cg_root *root = &w->cg->roots[i];

		write_call(w, root->func, root->count);
		write_cost_line(w, 0, 0, &root->ns, 1);
	}
}

/* Functions left out of the graph by a selection (gprof -e, -f) still
 * had their time propagated to their callers; their self cost stays in
 * the profile as the pseudo function "<hidden>", at its addresses, so
 * that the total is still every sample's. */
static void write_hidden(struct writer *w)
{
	const struct callgraph *cg = w->cg;
	bool named = false;

	for (size_t f = 0; f < cg->nfuncs; f++) {
		const struct cg_func *fn = &cg->funcs[f];

		if (!fn->used || fn->shown)
			continue;
		for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++) {
			const struct cg_cost *c = &cg->costs[i];

			if (cg_cost_ns(cg, c) == 0 && c->executions == 0)
				continue;
			if (!named) {
				switch_object(w, 0);
				write_file(w, "fl", CALLGRIND_UNKNOWN_FILE);
				w->last_fl = w->cur_file = CALLGRIND_UNKNOWN_FILE;
				write_name(w, NAMES_FN, "fn", ++w->next_fn_id, true,
					   CALLGRIND_HIDDEN);
				named = true;
			}
			write_cost(w, c, 0);
		}
	}
}

static void write_functions(struct writer *w, size_t from, size_t to)
{
	for (size_t f = from; f < to; f++)
		if (w->cg->funcs[f].shown)
			write_function(w, f);
}

/* A large profile is written by two threads: the one writing the output
 * takes the functions before SPLIT, a second one writes those from SPLIT
 * on, and <hidden>, into memory.  Where SPLIT's lines start, which names
 * and files already have numbers and the position they are compressed
 * against depend on every line before; so the second thread starts from
 * a copy of the writer's state after the header and the pseudo caller,
 * and follows the functions before SPLIT without writing them (at about
 * a third of the cost of writing them). */
#define SPLIT_MIN_FUNCS 2048

struct second_half {
	struct writer w;	/* its own state */
	size_t split;
	size_t at_split[NAME_SPACES];	/* w.last_defined there */
	struct outstream os;	/* into memory */
	pthread_t thread;
};

/* About how many lines function F takes. */
static uint64_t lines_of_function(const struct callgraph *cg, size_t f)
{
	const struct cg_func *fn = &cg->funcs[f];
	uint64_t n = 2 + fn->ncosts;

	for (size_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++)
		n += 4 * (uint64_t)cg->arcs[a].nsites;
	return n;
}

/* Where the second thread takes over, so that both threads end together:
 * the first thread writes L lines, the second follows them and writes the
 * other TOTAL - L, which balance at L = TOTAL / 1.7.  0: no split (too
 * few functions to be worth a thread).  *AFTER: the lines from there. */
static size_t split_point(const struct callgraph *cg, uint64_t *after)
{
	uint64_t total = 0, lines = 0;
	size_t nshown = 0;

	for (size_t f = 0; f < cg->nfuncs; f++)
		if (cg->funcs[f].shown) {
			total += lines_of_function(cg, f);
			nshown++;
		}
	if (nshown < SPLIT_MIN_FUNCS)
		return 0;
	for (size_t f = 0; f < cg->nfuncs; f++)
		if (cg->funcs[f].shown) {
			lines += lines_of_function(cg, f);
			if (lines * 17 >= total * 10) {
				*after = total - lines;
				return f + 1;
			}
		}
	return 0;
}

static bool name_ids_copy(struct name_ids *to, const struct name_ids *from)
{
	*to = *from;	/* the recent ids */
	return string_index_copy(&to->names, &from->names);
}

static void *write_second_half(void *arg)
{
	struct second_half *h = arg;

	h->w.follow_only = true;
	write_functions(&h->w, 0, h->split);
	h->w.follow_only = false;
	memcpy(h->at_split, h->w.last_defined, sizeof h->at_split);
	write_functions(&h->w, h->split, h->w.cg->nfuncs);
	write_hidden(&h->w);
	outstream_flush_pending(&h->os);
	return NULL;
}

static void second_half_release(struct second_half *h)
{
	free(h->os.mem);
	free(h->w.fn_id);
	name_ids_release(&h->w.files);
	name_ids_release(&h->w.objects);
	free(h);
}

/* About as many bytes as a line takes at most, but for long names: what
 * the second thread writes into is allocated by the writer's thread, from
 * the memory that the earlier stages freed, rather than faulted in by the
 * second thread as it grows. */
#define LINE_BYTES 48

/* Starts the second thread on the functions from SPLIT on, which take
 * about LINES lines; NULL when it cannot be started (the writer then
 * writes them itself).  (On the heap: with its buffer it is larger than
 * a stack frame should be.) */
static struct second_half *start_second_half(const struct writer *w,
					     size_t split, uint64_t lines)
{
	size_t nfuncs = w->cg->nfuncs;
	struct second_half *h = calloc(1, sizeof *h);

	if (!h)
		return NULL;
	h->w = *w;
	h->split = split;
	h->w.os = &h->os;
	h->w.files = h->w.objects = (struct name_ids){ 0 };
	h->w.fn_id = malloc(nfuncs * sizeof *h->w.fn_id);
	if (!h->w.fn_id || !name_ids_copy(&h->w.files, &w->files) ||
	    !name_ids_copy(&h->w.objects, &w->objects) ||
	    lines > SIZE_MAX / LINE_BYTES ||
	    !outstream_to_memory(&h->os, (size_t)lines * LINE_BYTES)) {
		second_half_release(h);
		return NULL;
	}
	memcpy(h->w.fn_id, w->fn_id, nfuncs * sizeof *h->w.fn_id);
	if (pthread_create(&h->thread, NULL, write_second_half, h) != 0) {
		second_half_release(h);
		return NULL;
	}
	return h;
}

/* Waits for the second thread and appends what it wrote. */
static void finish_second_half(struct second_half *h, struct writer *w)
{
	pthread_join(h->thread, NULL);
	if (h->os.failed || h->w.failed)
		w->failed = true;
	else
		outstream_write(w->os, h->os.mem, h->os.mem_len);
	/* Its definitions go on from where this thread's end, and its ids
	 * are the profile's. */
	w->ids_out_of_order |= h->w.ids_out_of_order ||
		memcmp(w->last_defined, h->at_split, sizeof h->at_split) != 0;
	memcpy(w->last_defined, h->w.last_defined, sizeof w->last_defined);
	w->next_fn_id = h->w.next_fn_id;
	name_ids_release(&w->files);
	name_ids_release(&w->objects);
	w->files = h->w.files;
	w->objects = h->w.objects;
	h->w.files = h->w.objects = (struct name_ids){ 0 };
	second_half_release(h);
}

/* KCachegrind's identity of a function: its name and the base names of
 * its file and object. */
struct identity {
	const char *name, *file, *object;
	size_t func;
};

/* The base name of a path and its hash, remembered for the last path
 * asked (files and objects are shared strings, asked for by
 * neighbouring functions). */
struct last_base {
	const char *path, *base;
	uint64_t hash;
};

static const struct last_base *base_shared(struct last_base *last,
					   const char *path)
{
	if (last->path != path) {
		const char *base = base_name(path);

		*last = (struct last_base){ path, base, hash_string(base) };
	}
	return last;
}

static bool same_identity(const void *ids, size_t pos, const void *key)
{
	const struct identity *a = &((const struct identity *)ids)[pos], *b = key;

	return strcmp(a->name, b->name) == 0 && strcmp(a->file, b->file) == 0 &&
	       strcmp(a->object, b->object) == 0;
}

/* Labels function F, one of a group of functions that share an identity
 * (IDS[FIRST], IDS[NEXT[FIRST]], ... up to SIZE_MAX): with its source file
 * where that is its own, else with its address. */
static int label_clash(struct writer *w, const struct identity *ids,
		       const size_t *next, size_t first, size_t f)
{
	const char *name = w->ref[f].name, *file = home_file(w, f);
	bool file_unique = true;
	char *label;

	for (size_t k = first; k != SIZE_MAX; k = next[k])
		if (ids[k].func != f && strcmp(home_file(w, ids[k].func), file) == 0)
			file_unique = false;
	label = malloc(strlen(name) + strlen(file) + 32);
	if (!label)
		return -1;
	if (file_unique)
		sprintf(label, "%s [%s]", name, file);
	else
		sprintf(label, "%s [0x%" PRIx64 "]", name, w->ref[f].addr);
	w->label[f] = label;
	return 0;
}

/* KCachegrind would merge functions whose identities agree (two static
 * "init"s in a/util.c and b/util.c), so each of them gets its source file
 * in its name, or its address where even the file is shared.  The groups
 * are found through a hash index of identities (few functions share one),
 * each a list from the first function of the group met; the firsts of
 * the groups of more than one are listed as they form.  The names are
 * hashed first and the index filled after, so that both passes can ask
 * for the memory of the entries ahead: in a large program the names and
 * the slots are scattered over megabytes, one cache miss each. */
static int label_clashing_names(struct writer *w)
{
	const struct callgraph *cg = w->cg;
	struct identity *ids = malloc(cg->nfuncs * sizeof *ids);
	uint64_t *hashes = malloc(cg->nfuncs * sizeof *hashes);
	size_t *next = malloc((cg->nfuncs ? cg->nfuncs : 1) * sizeof *next);
	size_t *shared = NULL;	/* the firsts of groups of two or more */
	struct last_base file_base = { 0 }, object_base = { 0 };
	struct hash_index index = { 0 };	/* of each group's first */
	size_t n = 0, nshared = 0, shared_cap = 0;
	int rc = -1;

	if (!ids || !hashes || !next || !hash_index_reserve(&index, cg->nfuncs))
		goto out;
	for (size_t f = 0; f < cg->nfuncs; f++) {
		if (f + PREFETCH_AHEAD < cg->nfuncs)
			prefetch(w->ref[f + PREFETCH_AHEAD].name);
		if (cg->funcs[f].shown && !callgraph_is_pseudo(cg, f)) {
			const char *name = w->ref[f].name;
			const struct last_base *file =
				base_shared(&file_base, home_file(w, f));
			const struct last_base *object =
				base_shared(&object_base,
					    object_path(w, w->ref[f].object));

			hashes[n] = hash_string(name) ^ file->hash * 31 ^
				    object->hash * 961;
			ids[n++] = (struct identity){ name, file->base,
						      object->base, f };
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct hash_slot *slot;

		if (i + PREFETCH_AHEAD < n)
			prefetch(hash_index_first_probe(&index,
							hashes[i + PREFETCH_AHEAD]));
		slot = hash_index_find(&index, hashes[i], same_identity, ids, &ids[i]);
		if (hash_slot_is_free(slot)) {
			hash_index_add(&index, slot, hashes[i], i);
			next[i] = SIZE_MAX;
		} else {	/* i joins the list after its first */
			size_t first = hash_slot_entry(slot);

			if (next[first] == SIZE_MAX) {
				size_t *grown = array_grow(shared, &shared_cap,
							   nshared + 1, sizeof *grown);

				if (!grown)
					goto out;
				shared = grown;
				shared[nshared++] = first;
			}
			next[i] = next[first];
			next[first] = i;
		}
	}
	rc = 0;
	for (size_t g = 0; g < nshared && rc == 0; g++)
		for (size_t j = shared[g]; j != SIZE_MAX && rc == 0; j = next[j])
			rc = label_clash(w, ids, next, shared[g], ids[j].func);
out:
	free(ids);
	free(hashes);
	free(next);
	free(shared);
	hash_index_release(&index);
	return rc;
}

/* The pseudo caller of each object's functions from outside it (an
 * LD_PROFILE profile knows no more of them) is "<outside NAME>". */
static int name_outside_callers(struct writer *w)
{
	for (size_t o = 0; o < w->cg->nobjs; o++) {
		size_t f = callgraph_outside(w->cg, o);
		const char *name = base_name(object_path(w, o));

		if (!w->cg->funcs[f].shown)
			continue;
		w->label[f] = malloc(strlen(name) +
				     sizeof(CALLGRIND_OUTSIDE_BEFORE
					    CALLGRIND_OUTSIDE_AFTER));
		if (!w->label[f])
			return -1;
		sprintf(w->label[f], CALLGRIND_OUTSIDE_BEFORE "%s"
			CALLGRIND_OUTSIDE_AFTER, name);
	}
	return 0;
}

/* "summary:" or "totals:": the sum of all self costs, per event. */
static void write_totals(struct writer *w, const char *key)
{
	outstream_printf(w->os, "%s: %" PRIu64, key, w->cg->total_ns);
	if (w->cg->has_executions)
		outstream_printf(w->os, " %" PRIu64, w->cg->total_executions);
	outstream_printf(w->os, "\n");
}

static void write_header(struct writer *w,
			 const struct callgrind_write_info *info)
{
	const struct callgraph *cg = w->cg;

	/* Names in header lines are written printable, as in name lines. */
	if (info->part <= 1) {
		outstream_printf(w->os, CALLGRIND_FIRST_LINE "\n"
				 CALLGRIND_KEY_VERSION ": " CALLGRIND_VERSION "\n"
				 CALLGRIND_KEY_CREATOR ": %s %s\n"
				 CALLGRIND_KEY_CMD ": ", PACKAGE_NAME,
				 PACKAGE_VERSION);
		outstream_puts_printable(w->os, object_path(w, 0));
		outstream_puts(w->os, "\n");
	}
	/* A part's own lines must all come before its "events:". */
	if (info->part >= 1)
		outstream_printf(w->os, "\n" CALLGRIND_KEY_PART ": %u\n",
				 info->part);
	outstream_puts(w->os, CALLGRIND_KEY_DESC ": Trigger: profile ");
	outstream_puts_printable(w->os, info->source);
	if (info->nsources > 1)
		outstream_printf(w->os, " and %u more", info->nsources - 1);
	outstream_puts(w->os, "\n");
	for (size_t i = 0; i < info->ndesc; i++) {
		outstream_puts(w->os, CALLGRIND_KEY_DESC ": ");
		outstream_puts_printable(w->os, info->desc[i]);
		outstream_puts(w->os, "\n");
	}
	if (cg->hz) {
		outstream_printf(w->os, CALLGRIND_KEY_DESC ": " CALLGRIND_DESC_RATE
				 "%" PRIu32 CALLGRIND_DESC_RATE_UNIT
				 " (1 sample = %.10g ns)%s\n",
				 cg->hz, 1e9 / cg->hz,
				 info->rate_assumed ? ", assumed: the profile does not record it" : "");
		outstream_printf(w->os, CALLGRIND_KEY_DESC ": Samples: %" PRIu64 "\n",
				 cg->samples);
	} else {
		outstream_printf(w->os, CALLGRIND_KEY_DESC ": " CALLGRIND_DESC_NO_SAMPLES
				 " (the profile has no histogram, so all costs are 0)\n");
	}
	outstream_printf(w->os, CALLGRIND_KEY_POSITIONS ": %s\n",
			 w->instr ? CALLGRIND_POSITIONS_INSTR : CALLGRIND_POSITIONS_LINE);
	if (strcmp(info->dimen, "seconds") == 0) {
		outstream_printf(w->os, CALLGRIND_KEY_EVENT ": " CALLGRIND_EVENT_NS
				 " : CPU time (ns)\n");
	} else {
		outstream_puts(w->os, CALLGRIND_KEY_EVENT ": " CALLGRIND_EVENT_NS " : ");
		outstream_puts_printable(w->os, info->dimen);
		outstream_puts(w->os, " (billionths)\n");
	}
	if (cg->has_executions)
		outstream_printf(w->os, CALLGRIND_KEY_EVENT ": " CALLGRIND_EVENT_BB
				 " : Basic-block executions\n");
	/* callgrind_annotate needs "events:" to end the header. */
	outstream_printf(w->os, CALLGRIND_KEY_EVENTS ": " CALLGRIND_EVENT_NS "%s\n",
			 cg->has_executions ? " " CALLGRIND_EVENT_BB : "");
	write_totals(w, CALLGRIND_KEY_SUMMARY);
	outstream_printf(w->os, "\n");
	write_object(w, "ob", 0);
}

/* How the name spaces are written, for messages. */
static const char *const name_keys[NAME_SPACES] = { "fl=", "ob=", "fn=" };

int callgrind_write(const struct callgraph *cg, const struct source_map *map,
		    const struct callgrind_write_info *info,
		    struct outstream *os, struct g2c_error *err)
{
	struct writer w = { .cg = cg, .map = map, .os = os,
			    .instr = !info->no_instr };
	struct second_half *half;
	struct fn_ref *ref = malloc(cg->nfuncs * sizeof *ref);
	size_t split, given[NAME_SPACES];
	uint64_t lines_after = 0;
	int rc = 0;

	w.label = calloc(cg->nfuncs, sizeof *w.label);
	w.fn_id = calloc(cg->nfuncs, sizeof *w.fn_id);
	w.ref = ref;
	if (!w.label || !ref || !w.fn_id) {
		rc = g2c_error_set(err, "out of memory while writing the profile");
		goto out;
	}
	/* the references with the symbols' names, which the labels then
	 * replace (a pseudo function that is never written has no name) */
	for (size_t f = 0; f < cg->nfuncs; f++) {
		const struct symtab_func *sym = callgraph_symbol(cg, f);

		ref[f] = (struct fn_ref){
			sym ? sym->name : callgraph_is_no_symbol(cg, f) ?
			CALLGRIND_NO_SYMBOL : NULL,
			home_file(&w, f), sym ? sym->addr : 0,
			callgraph_object_of(cg, f), map->home[f].line,
			cg->funcs[f].shown };
	}
	if (label_clashing_names(&w) < 0 || name_outside_callers(&w) < 0) {
		rc = g2c_error_set(err, "out of memory while writing the profile");
		goto out;
	}
	for (size_t f = 0; f < cg->nfuncs; f++)
		if (w.label[f])
			ref[f].name = w.label[f];
	write_header(&w, info);
	write_spontaneous(&w);
	split = info->split_at ? info->split_at : split_point(cg, &lines_after);
	if (split > 0 && split < cg->nfuncs &&
	    (half = start_second_half(&w, split, lines_after))) {
		write_functions(&w, 0, split);
		finish_second_half(half, &w);
	} else {
		write_functions(&w, 0, cg->nfuncs);
		write_hidden(&w);
	}
	outstream_printf(os, "\n");
	write_totals(&w, CALLGRIND_KEY_TOTALS);
	if (w.failed) {
		rc = g2c_error_set(err, "out of memory while writing the profile");
		goto out;
	}
	given[NAMES_FILE] = w.files.names.index.count;
	given[NAMES_OBJECT] = w.objects.names.index.count;
	given[NAMES_FN] = w.next_fn_id;
	for (int s = 0; s < NAME_SPACES && rc == 0; s++)
		rc = outcheck_name_ids(name_keys[s], w.last_defined[s], given[s],
				       !w.ids_out_of_order, err);
out:
	for (size_t f = 0; w.label && f < cg->nfuncs; f++)
		free(w.label[f]);
	free(w.label);
	free(ref);
	free(w.fn_id);
	name_ids_release(&w.files);
	name_ids_release(&w.objects);
	return rc;
}
