/* callgrind_read.c -- read back a callgrind file that gmon2cg wrote. */
#include <config.h>

#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind_format.h"
#include "callgrind_read.h"
#include "diag.h"
#include "hashindex.h"
#include "instream.h"
#include "util.h"

#define READ_CHUNK (1 << 16)
#define NOT_CALLGRIND "not a callgrind file (no '" CALLGRIND_FIRST_LINE "' line)"
/* The writer's longest line is a name's; a longer one is no profile of
 * ours, and is refused before it fills the memory. */
#define LINE_MAX_BYTES (1 << 20)

/* Each distinct string once, so that names compare by address. */
struct callgrind_read_strings {
	struct string_index copies;	/* of the strings asked for */
};

/* The one copy of S[0..N), or NULL when out of memory. */
static const char *intern(struct callgrind_read_strings *t, const char *s,
			  size_t n);

struct callgrind_read_strings *callgrind_read_strings_new(void)
{
	return calloc(1, sizeof(struct callgrind_read_strings));
}

const char *callgrind_read_strings_intern(struct callgrind_read_strings *t,
					  const char *s)
{
	return intern(t, s, strlen(s));
}

void callgrind_read_strings_free(struct callgrind_read_strings *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->copies.index.count; i++)
		free((char *)t->copies.strs[i]);
	string_index_release(&t->copies);
	free(t);
}

static const char *intern(struct callgrind_read_strings *t, const char *s,
			  size_t n)
{
	uint64_t hash;
	struct hash_slot *slot = string_index_find(&t->copies, s, n, &hash);
	char *copy;

	if (!slot)
		return NULL;
	if (!hash_slot_is_free(slot))
		return t->copies.strs[hash_slot_entry(slot)];
	if (!(copy = malloc(n + 1)))
		return NULL;
	memcpy(copy, s, n);
	copy[n] = '\0';
	if (!string_index_add(&t->copies, slot, hash, copy)) {
		free(copy);
		return NULL;
	}
	return copy;
}

/* What a compressed name number stands for; a function's number also
 * remembers the function it was last found to be. */
struct name_entry {
	const char *name;
	const char *ob, *fl;	/* the context of the cached look-up */
	size_t fn;		/* SIZE_MAX: not looked up */
};

struct name_table {
	struct name_entry *e;
	size_t cap;
	size_t max;		/* the largest number defined */
};

/* The lines of the file, one at a time. */
struct line_reader {
	struct instream in;
	char *buf;
	size_t cap, start, end;
	bool eof;
};

struct parser {
	struct callgrind_read_profile *p;
	struct line_reader lr;
	uint64_t lineno;
	struct name_table names[3];	/* by kind: objects, files, functions */
	const char *program;	/* the file's first object */
	const char *ob, *fl;	/* of the current function */
	const char *cob, *cfi, *cfn;	/* of the next call */
	size_t fn;		/* the current function; SIZE_MAX: none */
	bool spontaneous;	/* the current function is <spontaneous> */
	bool in_part, in_body, part_done;
	unsigned npos;		/* position numbers of a cost line */
	unsigned nevents;
	double period;		/* ns per sample of the part; 0: no samples */
	bool rate_known;
	uint64_t part_sum, summary;
	uint64_t file_sum;	/* of the parts done */
	uint64_t most_call;	/* the largest cost of a call in the part */
	uint64_t most_call_line;
	bool have_summary;
	bool call_pending;	/* a calls= line wants its cost line */
	uint64_t call_count;
	size_t callee;
	bool keep_calls;	/* the calls are kept in p->calls */
	struct g2c_error *err;
};

enum { KIND_OB, KIND_FILE, KIND_FN };

/* Sets the error "PATH:LINE: WHAT" and returns -1. */
__attribute__((format(printf, 2, 3)))
static int fail(struct parser *ps, const char *fmt, ...)
{
	char what[800];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return g2c_error_set(ps->err, "%s:%" PRIu64 ": %s", ps->p->path,
			     ps->lineno, what);
}

static int out_of_memory(struct parser *ps)
{
	return g2c_error_set(ps->err, "%s: out of memory", ps->p->path);
}

/* The next line, without its newline, in *LINE (NUL-terminated in the
 * buffer): 1, 0 at the end of the file, or -1 with the error set. */
static int next_line(struct parser *ps, char **line)
{
	struct line_reader *lr = &ps->lr;

	for (;;) {
		/* (nothing buffered yet: buf may still be NULL) */
		char *nl = lr->end > lr->start ?
			   memchr(lr->buf + lr->start, '\n', lr->end - lr->start) : NULL;
		size_t got;

		if (nl) {
			*line = lr->buf + lr->start;
			*nl = '\0';
			lr->start = (size_t)(nl - lr->buf) + 1;
			ps->lineno++;
			if (memchr(*line, '\0', (size_t)(nl - *line)))
				return fail(ps, NOT_CALLGRIND);
			return 1;
		}
		/* (a file of another kind can have no newline for gigabytes) */
		if (ps->lineno == 0 &&
		    lr->end - lr->start >= sizeof CALLGRIND_FIRST_LINE &&
		    memcmp(lr->buf + lr->start, CALLGRIND_FIRST_LINE "\n",
			   sizeof CALLGRIND_FIRST_LINE) != 0) {
			ps->lineno++;
			return fail(ps, NOT_CALLGRIND);
		}
		if (lr->end - lr->start > LINE_MAX_BYTES) {
			ps->lineno++;
			return fail(ps, "a line of more than %d MiB: not a profile gmon2cg wrote",
				    LINE_MAX_BYTES >> 20);
		}
		if (lr->eof) {
			if (lr->start == lr->end)
				return 0;
			ps->lineno++;
			return fail(ps, ps->lineno == 1 ? NOT_CALLGRIND :
				    "truncated: the last line has no end");
		}
		if (lr->start > 0) {	/* (buf is NULL until the first read) */
			memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
			lr->end -= lr->start;
			lr->start = 0;
		}
		if (lr->cap - lr->end < READ_CHUNK) {
			char *buf = array_grow(lr->buf, &lr->cap, lr->end + READ_CHUNK + 1, 1);

			if (!buf)
				return out_of_memory(ps);
			lr->buf = buf;
		}
		if (instream_read(&lr->in, (unsigned char *)lr->buf + lr->end,
				  lr->cap - lr->end - 1, &got, ps->err) < 0)
			return -1;
		lr->end += got;
		lr->eof = got == 0;
	}
}

/* The value of the digit C in BASE (10 or 16), or -1. */
static int digit_value(char c, int base)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (base == 16 && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (base == 16 && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A number (decimal, or hex with 0x) at *S, which moves past it; false
 * when there is none or it needs more than 64 bits.  (By hand: a large
 * file has millions, and strtoull's locale and sign handling cost more
 * than the digits.) */
static bool parse_number(const char **s, uint64_t *v)
{
	const char *p = *s;
	int base = 10, d;

	if (p[0] == '0' && p[1] == 'x') {
		base = 16;
		p += 2;
	}
	if (digit_value(*p, base) < 0)
		return false;
	for (*v = 0; (d = digit_value(*p, base)) >= 0; p++) {
		if (*v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return false;
		*v = *v * (uint64_t)base + (uint64_t)d;
	}
	*s = p;
	return true;
}

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* One position at *S: a number, +N, -N or "*"; *V the number when it
 * stands alone (not relative), else 0. */
static bool parse_position(const char **s, uint64_t *v)
{
	bool relative = **s == '+' || **s == '-';

	*v = 0;
	if (**s == '*') {
		(*s)++;
		return true;
	}
	if (relative)
		(*s)++;
	if (!parse_number(s, v))
		return false;
	if (relative)
		*v = 0;
	return true;
}

/* NPOS positions at S, then spaces; returns what follows, or NULL.  *LAST
 * is the last position (the line) when written whole, else 0. */
static const char *parse_positions(const char *s, unsigned npos, uint64_t *last)
{
	for (unsigned i = 0; i < npos; i++) {
		if (!parse_position(&s, last) || (*s && *s != ' ' && *s != '\t'))
			return NULL;
		s = skip_space(s);
	}
	return s;
}

struct fn_key {
	const char *ob, *fl, *name;
};

static bool same_fn(const void *fns, size_t pos, const void *key)
{
	const struct callgrind_read_fn *fn =
		&((const struct callgrind_read_fn *)fns)[pos];
	const struct fn_key *k = key;

	return fn->object == k->ob && fn->file == k->fl && fn->name == k->name;
}

/* The function OB, FL, NAME (interned, so known by their addresses),
 * added if new; SIZE_MAX when out of memory. */
static size_t function_of(struct callgrind_read_profile *p, const char *ob,
			  const char *fl, const char *name)
{
	struct fn_key key = { ob, fl, name };
	uintptr_t h = (uintptr_t)ob * 31 ^ (uintptr_t)fl * 0x9e3779b97f4a7c15u ^
		      (uintptr_t)name * 0xbf58476d1ce4e5b9u;
	uint64_t hash = h ^ (h >> 29);
	struct hash_slot *slot;
	struct callgrind_read_fn *fns;
	size_t at;

	at = hash_index_place(&p->index, hash, same_fn, p->fns, p->nfns, &key,
			      &slot);
	if (at != p->nfns)
		return at;
	if (!(fns = array_grow(p->fns, &p->fns_cap, p->nfns + 1, sizeof *fns)))
		return SIZE_MAX;
	p->fns = fns;
	fns[p->nfns] = (struct callgrind_read_fn){ .object = ob, .file = fl,
						   .name = name };
	hash_index_add(&p->index, slot, hash, p->nfns);
	return p->nfns++;
}

/* NAME as shown: without the " [FILE]" the writer adds to one of two
 * functions KCachegrind would merge, or the " [0x...]" it adds where
 * even their files agree (their address moves with every build). */
static const char *unlabelled(struct parser *ps, const char *name,
			      const char *file)
{
	size_t n = strlen(name), flen = strlen(file);
	const char *open = n > 4 && name[n - 1] == ']' ? strrchr(name, '[') : NULL;
	bool label = false;

	if (open && open > name && open[-1] == ' ') {
		size_t len = (size_t)(name + n - 1 - (open + 1));

		label = (len == flen && memcmp(open + 1, file, flen) == 0) ||
			(len > 2 && open[1] == '0' && open[2] == 'x' &&
			 strspn(open + 3, "0123456789abcdef") == len - 2);
	}
	if (!label)
		return name;
	return intern(ps->p->strings, name, (size_t)(open - 1 - name));
}

/* The function NAME_ID stands for in the context OB, FL (cached per
 * number); SIZE_MAX with the error set. */
static size_t function_named(struct parser *ps, size_t name_id,
			     const char *ob, const char *fl)
{
	struct name_entry *e = &ps->names[KIND_FN].e[name_id];
	const char *name;

	if (e->fn != SIZE_MAX && e->ob == ob && e->fl == fl)
		return e->fn;
	if (!(name = unlabelled(ps, e->name, fl)) ||
	    (e->fn = function_of(ps->p, ob, fl, name)) == SIZE_MAX) {
		out_of_memory(ps);
		return SIZE_MAX;
	}
	e->ob = ob;
	e->fl = fl;
	return e->fn;
}

/* The value of "KEY=(N) NAME", "KEY=(N)" or "KEY=NAME" at S, of name
 * kind KIND: its number in *ID.  -1 with the error set. */
static int parse_name(struct parser *ps, const char *s, int kind, size_t *id)
{
	struct name_table *t = &ps->names[kind];
	const char *name = NULL;
	uint64_t n;

	if (s[0] == '(' && s[1] >= '0' && s[1] <= '9') {
		s++;
		if (!parse_number(&s, &n) || *s++ != ')' || n == 0)
			return fail(ps, "bad name number");
		if (*s == ' ')
			name = s + 1;
		else if (*s)
			return fail(ps, "bad name number");
	} else {
		n = 0;	/* an uncompressed name: the slot of number 0 */
		name = s;
	}
	/* the writer numbers names in the order it defines them */
	if (n > t->max + (name != NULL))
		return fail(ps, name ? "name number (%" PRIu64 ") out of order"
			    : "name number (%" PRIu64 ") used before it is defined", n);
	if (n >= t->cap) {
		size_t old = t->cap;
		struct name_entry *e = array_grow(t->e, &t->cap, n + 1, sizeof *e);

		if (!e)
			return out_of_memory(ps);
		t->e = e;
		memset(e + old, 0, (t->cap - old) * sizeof *e);
		for (size_t i = old; i < t->cap; i++)
			e[i].fn = SIZE_MAX;
	}
	if (name) {
		if (!(name = intern(ps->p->strings, name, strlen(name))))
			return out_of_memory(ps);
		t->e[n] = (struct name_entry){ name, NULL, NULL, SIZE_MAX };
		t->max = n > t->max ? n : t->max;
	} else if (!t->e[n].name) {
		return fail(ps, "name number (%" PRIu64 ") used before it is defined", n);
	}
	*id = (size_t)n;
	return 0;
}

/* An object's key: "" for the program (the file's first object), else
 * its base name, so that the paths of two builds need not agree. */
static const char *object_key(struct parser *ps, const char *path)
{
	if (!ps->program)
		ps->program = path;
	if (path == ps->program)
		return "";
	return intern(ps->p->strings, base_name(path), strlen(base_name(path)));
}

/* The position lines: what each sets, and its kind of name. */
enum spec { SPEC_OB, SPEC_FL, SPEC_FI_FE, SPEC_FN, SPEC_COB, SPEC_CFI, SPEC_CFN };

static const struct {
	const char *key;
	enum spec spec;
	int kind;
} specs[] = {
	{ "ob", SPEC_OB, KIND_OB }, { "fl", SPEC_FL, KIND_FILE },
	{ "fi", SPEC_FI_FE, KIND_FILE }, { "fe", SPEC_FI_FE, KIND_FILE },
	{ "fn", SPEC_FN, KIND_FN }, { "cob", SPEC_COB, KIND_OB },
	{ "cfi", SPEC_CFI, KIND_FILE }, { "cfl", SPEC_CFI, KIND_FILE },
	{ "cfn", SPEC_CFN, KIND_FN },
};

/* "KEY=..." in a part's body. */
static int position_spec(struct parser *ps, const char *key, size_t klen,
			 const char *value)
{
	size_t id = 0, k, n = sizeof specs / sizeof *specs;
	const char *name;

	for (k = 0; k < n; k++)
		if (strlen(specs[k].key) == klen && memcmp(specs[k].key, key, klen) == 0)
			break;
	if (k == n)
		return fail(ps, "unknown line '%.*s='", (int)klen, key);
	if (parse_name(ps, value, specs[k].kind, &id) < 0)
		return -1;
	name = ps->names[specs[k].kind].e[id].name;
	if ((specs[k].spec == SPEC_FN || specs[k].spec == SPEC_CFN) && (!ps->ob || !ps->fl))
		return fail(ps, "%s= before ob= and fl=", specs[k].key);
	switch (specs[k].spec) {
	case SPEC_OB:
	case SPEC_COB:
		name = object_key(ps, name);
		if (!name)
			return out_of_memory(ps);
		*(specs[k].spec == SPEC_OB ? &ps->ob : &ps->cob) = name;
		break;
	case SPEC_FL:
		ps->fl = name;
		break;
	case SPEC_FI_FE:	/* where the next costs are; not who owns them */
		break;
	case SPEC_FN:
		ps->spontaneous = strcmp(name, CALLGRIND_SPONTANEOUS) == 0 &&
				  strcmp(ps->fl, CALLGRIND_UNKNOWN_FILE) == 0;
		if (!ps->spontaneous &&
		    (ps->fn = function_named(ps, id, ps->ob, ps->fl)) == SIZE_MAX)
			return -1;
		break;
	case SPEC_CFI:
		ps->cfi = name;
		break;
	case SPEC_CFN:
		ps->cfn = name;
		ps->callee = function_named(ps, id, ps->cob ? ps->cob : ps->ob,
					    ps->cfi ? ps->cfi : ps->fl);
		if (ps->callee == SIZE_MAX)
			return -1;
		break;
	}
	return 0;
}

/* "calls=COUNT TARGET": its cost line follows. */
static int call_line(struct parser *ps, const char *s)
{
	uint64_t line;

	if (!ps->cfn)
		return fail(ps, "calls= without cfn=");
	if (ps->fn == SIZE_MAX && !ps->spontaneous)
		return fail(ps, "calls= outside a function");
	s = skip_space(s);
	if (!parse_number(&s, &ps->call_count) || (*s != ' ' && *s != '\t') ||
	    !(s = parse_positions(skip_space(s), ps->npos, &line)) || *s)
		return fail(ps, "bad calls= line");
	/* the writer's target is the callee's entry, written whole */
	if (!ps->p->fns[ps->callee].line && line <= UINT_MAX)
		ps->p->fns[ps->callee].line = (unsigned)line;
	ps->call_pending = true;
	return 0;
}

static bool same_call(const void *calls, size_t pos, const void *key)
{
	const struct callgrind_read_call *c =
		&((const struct callgrind_read_call *)calls)[pos];
	const struct callgrind_read_call *k = key;

	return c->caller == k->caller && c->callee == k->callee;
}

/* Adds COUNT calls of cost NS from CALLER to CALLEE to p->calls; false
 * when out of memory.  (NS stays within the caller's inclusive cost,
 * which the caller of this checks for 64 bits.) */
static bool add_call(struct callgrind_read_profile *p, size_t caller,
		     size_t callee, uint64_t count, uint64_t ns)
{
	struct callgrind_read_call key = { caller, callee, count, ns };
	uint64_t hash = (uint64_t)caller * 0x9e3779b97f4a7c15u ^
			(uint64_t)callee * 0xbf58476d1ce4e5b9u;
	struct hash_slot *slot;
	struct callgrind_read_call *calls;
	size_t at;

	hash ^= hash >> 29;
	at = hash_index_place(&p->call_index, hash, same_call, p->calls,
			      p->ncalls, &key, &slot);
	if (at == SIZE_MAX)
		return false;
	if (at != p->ncalls) {
		struct callgrind_read_call *c = &p->calls[at];

		c->count = add_saturating(c->count, count);
		c->ns = add_saturating(c->ns, ns);
		return true;
	}
	if (!(calls = array_grow(p->calls, &p->calls_cap, p->ncalls + 1, sizeof *calls)))
		return false;
	p->calls = calls;
	calls[p->ncalls] = key;
	hash_index_add(&p->call_index, slot, hash, p->ncalls++);
	return true;
}

/* A cost line: positions, then at most one cost per event. */
static int cost_line(struct parser *ps, const char *s)
{
	uint64_t ns = 0, v, line;
	unsigned n = 0;
	double samples;

	if (!(s = parse_positions(s, ps->npos, &line)))
		return fail(ps, "bad cost line");
	for (; *s; n++) {
		if (n == ps->nevents || !parse_number(&s, &v) ||
		    (*s && *s != ' ' && *s != '\t'))
			return fail(ps, "bad cost line");
		if (n == 0)
			ns = v;
		s = skip_space(s);
	}
	if (ns && !ps->period)
		return fail(ps, "a cost, but the profile has no samples (no 'desc: Sampling rate:' line)");
	samples = ns ? (double)ns / ps->period : 0;
	if (ps->call_pending) {
		struct callgrind_read_fn *callee = &ps->p->fns[ps->callee];

		ps->call_pending = false;
		if (ns > ps->most_call) {
			ps->most_call = ns;
			ps->most_call_line = ps->lineno;
		}
		if (!ps->spontaneous) {
			struct callgrind_read_fn *caller = &ps->p->fns[ps->fn];

			callee->calls = add_saturating(callee->calls, ps->call_count);
			if (ps->callee != ps->fn) {
				if (caller->incl_ns > UINT64_MAX - ns)
					return fail(ps, "the costs of a function's calls add up to more than 64 bits");
				caller->incl_ns += ns;
				caller->incl_samples += samples;
				if (ps->keep_calls &&
				    !add_call(ps->p, ps->fn, ps->callee, ps->call_count, ns))
					return out_of_memory(ps);
			}
		}
		ps->cob = ps->cfi = ps->cfn = NULL;
		return 0;
	}
	if (ps->fn == SIZE_MAX && !ps->spontaneous)
		return fail(ps, "a cost line outside a function");
	if (ps->part_sum > UINT64_MAX - ns)
		return fail(ps, "the costs add up to more than 64 bits");
	ps->part_sum += ns;
	if (!ps->spontaneous) {
		ps->p->fns[ps->fn].self_ns += ns;
		ps->p->fns[ps->fn].self_samples += samples;
	}
	return 0;
}

/* The value of a "summary:" or "totals:" line: its first cost. */
static int first_cost(struct parser *ps, const char *s, uint64_t *v)
{
	s = skip_space(s);
	if (!parse_number(&s, v))
		return fail(ps, "bad cost in a summary: or totals: line");
	return 0;
}

/* "desc: Sampling rate: N Hz ..." or "desc: Samples: none ...". */
static int description(struct parser *ps, const char *s)
{
	static const char rate[] = CALLGRIND_DESC_RATE;
	static const char unit[] = CALLGRIND_DESC_RATE_UNIT;
	static const char none[] = CALLGRIND_DESC_NO_SAMPLES;
	uint64_t hz;

	s = skip_space(s);
	if (strncmp(s, rate, sizeof rate - 1) == 0) {
		s += sizeof rate - 1;
		if (!parse_number(&s, &hz) || hz == 0 || hz > UINT32_MAX ||
		    strncmp(s, unit, sizeof unit - 1) != 0)
			return fail(ps, "bad sampling rate");
		ps->period = 1e9 / (double)hz;
		ps->rate_known = true;
		if (!ps->p->hz)
			ps->p->hz = (uint32_t)hz;
	} else if (strncmp(s, none, sizeof none - 1) == 0) {
		ps->period = 0;
		ps->rate_known = true;
	}
	return 0;
}

/* "events:": only the writer's ns, and bb after it. */
static int events_line(struct parser *ps, const char *s)
{
	char event[64];
	int n = 0, len;

	ps->nevents = 0;
	for (s = skip_space(s); *s; s = skip_space(s + len)) {
		if (sscanf(s, "%63[^ \t]%n", event, &len) != 1)
			break;
		if (strcmp(event, n == 0 ? CALLGRIND_EVENT_NS
					 : CALLGRIND_EVENT_BB) != 0 || n > 1)
			return fail(ps, "unknown event '%s': only gmon2cg's events ns and bb are read", event);
		n++;
	}
	if (n == 0)
		return fail(ps, "events: names no event");
	ps->nevents = (unsigned)n;
	if (!ps->rate_known)
		return fail(ps, "no 'desc: Sampling rate:' line before events: (not written by gmon2cg?)");
	ps->in_body = true;
	return 0;
}

/* A header line "KEY: VALUE" of a part. */
static int header_line(struct parser *ps, const char *line, const char *colon)
{
	size_t klen = (size_t)(colon - line);
	const char *value = colon + 1;

#define KEY(k) (klen == sizeof k - 1 && memcmp(line, k, klen) == 0)
	if (KEY(CALLGRIND_KEY_TOTALS)) {
		uint64_t totals;

		if (!ps->in_body || ps->call_pending)
			return fail(ps, "totals: before the costs");
		if (first_cost(ps, value, &totals) < 0)
			return -1;
		if (totals != ps->part_sum || (ps->have_summary && ps->summary != totals))
			return fail(ps, "totals: %" PRIu64 ", but the costs add up to %" PRIu64
				    " (a damaged file?)", totals, ps->part_sum);
		/* (a call costs its callee's inclusive time: part of the total) */
		if (ps->most_call > totals)
			return fail(ps, "the call on line %" PRIu64 " costs %" PRIu64
				    ", more than the part's total (a damaged file?)",
				    ps->most_call_line, ps->most_call);
		if (ps->file_sum > UINT64_MAX - totals)
			return fail(ps, "the parts' costs add up to more than 64 bits");
		ps->file_sum += totals;
		ps->part_done = true;
		return 0;
	}
	if (ps->in_body && !KEY(CALLGRIND_KEY_SUMMARY))
		return fail(ps, "header line '%.*s:' among the costs", (int)klen, line);
	if (KEY(CALLGRIND_KEY_VERSION)) {
		if (strcmp(skip_space(value), CALLGRIND_VERSION) != 0)
			return fail(ps, "unknown format version '%s'", skip_space(value));
	} else if (KEY(CALLGRIND_KEY_PART)) {
		uint64_t part;

		value = skip_space(value);
		if (!parse_number(&value, &part) || *value)
			return fail(ps, "bad part: line");
	} else if (KEY(CALLGRIND_KEY_POSITIONS)) {
		value = skip_space(value);
		if (strcmp(value, CALLGRIND_POSITIONS_INSTR) == 0)
			ps->npos = 2;
		else if (strcmp(value, CALLGRIND_POSITIONS_LINE) == 0)
			ps->npos = 1;
		else
			return fail(ps, "positions: '%s' (gmon2cg writes 'instr line' or 'line')", value);
	} else if (KEY(CALLGRIND_KEY_EVENTS)) {
		return events_line(ps, value);
	} else if (KEY(CALLGRIND_KEY_SUMMARY)) {
		if (!ps->in_body)
			return fail(ps, "summary: before events:");
		ps->have_summary = true;
		return first_cost(ps, value, &ps->summary);
	} else if (KEY(CALLGRIND_KEY_DESC)) {
		return description(ps, value);
	} else if (!KEY(CALLGRIND_KEY_CREATOR) && !KEY(CALLGRIND_KEY_CMD) &&
		   !KEY(CALLGRIND_KEY_EVENT)) {
		return fail(ps, "unknown header line '%.*s:'", (int)klen, line);
	}
#undef KEY
	return 0;
}

/* Starts a part: its header says again what its lines hold. */
static void start_part(struct parser *ps)
{
	ps->in_part = true;
	ps->in_body = ps->part_done = ps->rate_known = ps->have_summary = false;
	ps->npos = 1;	/* the format's default */
	ps->nevents = 0;
	ps->part_sum = ps->most_call = 0;
	ps->fn = SIZE_MAX;
	ps->spontaneous = false;
	ps->cob = ps->cfi = ps->cfn = NULL;
}

/* One line after the first. */
static int parse_line(struct parser *ps, const char *line)
{
	const char *colon = strchr(line, ':'), *eq = strchr(line, '=');

	if (!*line || line[0] == '#')
		return 0;
	if (ps->call_pending && !(line[0] >= '0' && line[0] <= '9') &&
	    !strchr("+-*", line[0]))
		return fail(ps, "calls= is not followed by its cost line");
	if (ps->part_done) {
		if (strncmp(line, CALLGRIND_KEY_PART ":",
			    sizeof CALLGRIND_KEY_PART) != 0)
			return fail(ps, "'%s' after totals:", line);
		start_part(ps);
	}
	if (strncmp(line, "calls=", 6) == 0) {
		if (!ps->in_body)
			return fail(ps, "calls= before events:");
		return call_line(ps, line + 6);
	}
	if (eq && (!colon || eq < colon) && eq > line &&
	    strspn(line, "abcdefghijklmnopqrstuvwxyz") == (size_t)(eq - line)) {
		if (!ps->in_body)
			return fail(ps, "'%.*s=' before events:", (int)(eq - line), line);
		return position_spec(ps, line, (size_t)(eq - line), eq + 1);
	}
	if (colon && strspn(line, "abcdefghijklmnopqrstuvwxyz") == (size_t)(colon - line))
		return header_line(ps, line, colon);
	if (!ps->in_body)
		return fail(ps, "a cost line before events:");
	return cost_line(ps, line);
}

static int parse_file(struct parser *ps)
{
	char *line;
	int rc;

	if ((rc = next_line(ps, &line)) <= 0)
		return rc < 0 ? -1 : fail(ps, "empty file: not a callgrind file");
	if (strcmp(line, CALLGRIND_FIRST_LINE) != 0)
		return fail(ps, NOT_CALLGRIND);
	start_part(ps);
	while ((rc = next_line(ps, &line)) > 0)
		if (parse_line(ps, line) < 0)
			return -1;
	if (rc < 0)
		return -1;
	if (!ps->part_done)
		return fail(ps, "truncated: no totals: line at the end");
	return 0;
}

int callgrind_read_file(struct callgrind_read_profile *p, const char *path,
			bool calls, struct g2c_error *err)
{
	struct parser ps = { .p = p, .keep_calls = calls, .err = err };
	int rc = -1;

	memset(p, 0, sizeof *p);
	p->path = path;
	if (!(p->strings = callgrind_read_strings_new()))
		return g2c_error_set(err, "%s: out of memory", path);
	if (instream_open(&ps.lr.in, path, err) < 0)
		return -1;
	rc = parse_file(&ps);
	instream_close(&ps.lr.in);
	free(ps.lr.buf);
	for (int k = 0; k < 3; k++)
		free(ps.names[k].e);
	for (size_t f = 0; rc == 0 && f < p->nfns; f++) {
		struct callgrind_read_fn *fn = &p->fns[f];

		/* (self costs are within the parts' sum, calls not always) */
		if (fn->incl_ns > UINT64_MAX - fn->self_ns) {
			rc = g2c_error_set(err, "%s: a function's inclusive cost is more than 64 bits",
					   path);
			break;
		}
		fn->incl_ns += fn->self_ns;
		fn->incl_samples += fn->self_samples;
		p->total_ns += fn->self_ns;
		p->total_samples += fn->self_samples;
	}
	return rc;
}

void callgrind_read_release(struct callgrind_read_profile *p)
{
	callgrind_read_strings_free(p->strings);
	free(p->fns);
	hash_index_release(&p->index);
	free(p->calls);
	hash_index_release(&p->call_index);
	memset(p, 0, sizeof *p);
}

int callgrind_read_merge(struct callgrind_read_profile *into,
			 const struct callgrind_read_profile *from,
			 struct g2c_error *err)
{
	size_t *to = malloc((from->nfns + 1) * sizeof *to);
	bool ok = to != NULL;

	if (ok && !into->strings)
		ok = (into->strings = callgrind_read_strings_new()) != NULL;
	for (size_t f = 0; ok && f < from->nfns; f++) {
		const struct callgrind_read_fn *fn = &from->fns[f];
		const char *ob = callgrind_read_strings_intern(into->strings, fn->object);
		const char *fl = callgrind_read_strings_intern(into->strings, fn->file);
		const char *name = callgrind_read_strings_intern(into->strings, fn->name);
		struct callgrind_read_fn *sum;

		if (!ob || !fl || !name || (to[f] = function_of(into, ob, fl, name)) == SIZE_MAX) {
			ok = false;
			break;
		}
		sum = &into->fns[to[f]];
		sum->self_ns = add_saturating(sum->self_ns, fn->self_ns);
		sum->incl_ns = add_saturating(sum->incl_ns, fn->incl_ns);
		sum->self_samples += fn->self_samples;
		sum->incl_samples += fn->incl_samples;
		sum->calls = add_saturating(sum->calls, fn->calls);
		if (!sum->line)
			sum->line = fn->line;
	}
	for (size_t c = 0; ok && c < from->ncalls; c++) {
		const struct callgrind_read_call *call = &from->calls[c];

		ok = add_call(into, to[call->caller], to[call->callee], call->count, call->ns);
	}
	free(to);
	if (!ok)
		return g2c_error_set(err, "out of memory");
	into->total_ns = add_saturating(into->total_ns, from->total_ns);
	into->total_samples += from->total_samples;
	if (!into->hz)
		into->hz = from->hz;
	return 0;
}
