/* selection.c -- gprof's selection options resolved to sets of functions. */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "object_lines.h"
#include "selection.h"
#include "symtab.h"
#include "util.h"

/* A name given on the command line, split into FILE:NAME. */
struct symspec {
	const char *name;	/* the function's name */
	size_t name_len;
	const char *file;	/* NULL, or the source file it must be in */
	size_t file_len;
};

/* gprof's FILE:NAME: a ':' that is not part of "::", with a file name
 * (a '.' or '/') before it. */
static struct symspec parse_symspec(const char *spec, size_t len)
{
	struct symspec s = { spec, len, NULL, 0 };

	for (size_t i = 1; i + 1 < len; i++) {
		if (spec[i] != ':' || spec[i - 1] == ':' || spec[i + 1] == ':')
			continue;
		if (!memchr(spec, '.', i) && !memchr(spec, '/', i))
			continue;
		s.file = spec;
		s.file_len = i;
		s.name = spec + i + 1;
		s.name_len = len - i - 1;
		break;
	}
	return s;
}

/* Whether PATH is the file FILE[0..LEN): the same path, or a path that
 * ends in "/FILE". */
static bool is_file(const char *path, const char *file, size_t len)
{
	size_t n = strlen(path);

	if (n < len || memcmp(path + n - len, file, len) != 0)
		return false;
	return n == len || path[n - len - 1] == '/';
}

/* Marks in SET the functions of OBJ that SPEC names; returns how many,
 * or SIZE_MAX with ERR set. */
/* One name a function answers to, in an object's sorted list of them. */
struct name_entry {
	const char *text;
	size_t len;
	size_t func;
};

static int order_of_names(const char *a, size_t alen, const char *b,
			    size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}

static int by_entries(const void *x, const void *y)
{
	const struct name_entry *a = x, *b = y;
	int c = order_of_names(a->text, a->len, b->text, b->len);

	return c ? c : (a->func > b->func) - (a->func < b->func);
}

/* Every name every function of OBJ answers to, sorted: a name then
 * selects its functions by a binary search, so that option lists of
 * thousands of names (they come from scripts) cost names + functions,
 * not names * functions.  Returns 0, or -1 with ERR set. */
static int index_names(struct name_index *ix, const struct symtab *st,
		       struct g2c_error *err)
{
	ix->entries = malloc((st->nfuncs ? st->nfuncs : 1) * SYMTAB_NAME_KEYS *
			     sizeof *ix->entries);
	if (!ix->entries)
		return g2c_error_set(err, "out of memory");
	for (size_t f = 0; f < st->nfuncs; f++) {
		struct symtab_key keys[SYMTAB_NAME_KEYS];
		size_t k = symtab_name_keys(st, f, keys);

		for (size_t i = 0; i < k; i++) {
			size_t j = 0;

			while (j < i && (keys[j].len != keys[i].len ||
					 memcmp(keys[j].text, keys[i].text, keys[i].len) != 0))
				j++;
			if (j == i)	/* (not a repeat of an earlier one) */
				ix->entries[ix->n++] = (struct name_entry){
					keys[i].text, keys[i].len, f };
		}
	}
	if (ix->n)
		qsort(ix->entries, ix->n, sizeof *ix->entries, by_entries);
	ix->built = true;
	return 0;
}

/* Whether name entry ELEM sorts before the name of symspec KEY. */
static bool entry_below(const void *elem, const void *key)
{
	const struct name_entry *e = elem;
	const struct symspec *spec = key;

	return order_of_names(e->text, e->len, spec->name, spec->name_len) < 0;
}

/* Marks in SET the functions of OBJ (names indexed in IX) that SPEC
 * names.  Returns how many, or SIZE_MAX with ERR set. */
/* Where marked functions go: flags in SET (numbered from the object's
 * first function), or with SET NULL the function numbers (FIRST + the
 * object's number) appended to LIST[0..*N). */
struct marks {
	bool *set;
	size_t first;
	size_t **list, *n, *cap;
};

static size_t mark_spec(const struct selection_object *obj,
			const struct name_index *ix,
			const struct symspec *spec, const struct marks *to,
			struct g2c_error *err)
{
	size_t count = 0;
	size_t lo = search_first(ix->entries, ix->n, sizeof *ix->entries,
				 entry_below, spec, 0);

	for (; lo < ix->n && order_of_names(ix->entries[lo].text, ix->entries[lo].len,
					      spec->name, spec->name_len) == 0; lo++) {
		size_t f = ix->entries[lo].func;
		const char *file;

		if (spec->file) {
			if (object_lines_file(obj->lines, obj->st->funcs[f].addr,
					      &file, err) < 0)
				return SIZE_MAX;
			if (!file || !is_file(file, spec->file, spec->file_len))
				continue;
		}
		if (to->set) {
			to->set[f] = true;
		} else {
			size_t *list = array_grow(*to->list, to->cap, *to->n + 1,
						  sizeof *list);

			if (!list) {
				g2c_error_set(err, "out of memory");
				return SIZE_MAX;
			}
			*to->list = list;
			list[(*to->n)++] = to->first + f;
		}
		count++;
	}
	return count;
}

/* Levenshtein distance of A and B[0..BLEN), each cut at 255 bytes. */
static unsigned edit_distance(const char *a, const char *b, size_t blen)
{
	unsigned row[256], m = (unsigned)strnlen(a, 255);
	unsigned n = (unsigned)(blen < 255 ? blen : 255);

	for (unsigned j = 0; j <= n; j++)
		row[j] = j;
	for (unsigned i = 1; i <= m; i++) {
		unsigned diag = row[0];

		row[0] = i;
		for (unsigned j = 1; j <= n; j++) {
			unsigned up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[n];
}

#define NSUGGEST 3

/* Up to three distinct function names nearest to NAME, into TEXT, in the
 * short form that selects them ("ns::f", as people type them). */
static void suggest(const struct selection_object *objs, size_t n,
		    const char *name, char *text, size_t size)
{
	struct suggestion { const char *name; size_t len; unsigned dist; } best[NSUGGEST];
	size_t nbest = 0, used = 0;

	for (size_t o = 0; o < n; o++) {
		for (size_t f = 0; f < objs[o].st->nfuncs; f++) {
			const char *cand = objs[o].st->funcs[f].name;
			size_t start, len, k;
			unsigned d;

			/* Measured against what people type: "ns::f", not
			 * "int ns::f<int>(long) const". */
			symtab_short_name(cand, &start, &len);
			cand += start;
			d = edit_distance(name, cand, len);
			/* a bare C++ name ("digest") is nearest to its
			 * qualified ones ("util::digest"), just after an
			 * exact match */
			for (size_t i = len; i >= 2; i--)
				if (cand[i - 1] == ':' && cand[i - 2] == ':') {
					unsigned tail = edit_distance(name, cand + i, len - i) + 1;

					if (tail < d)
						d = tail;
					break;
				}
			for (k = 0; k < nbest && (best[k].len != len ||
						  memcmp(best[k].name, cand, len) != 0); k++)
				;
			if (k < nbest)
				continue;	/* already suggested (an overload) */
			for (k = nbest < NSUGGEST ? nbest++ : NSUGGEST; k > 0 &&
			     (d < best[k - 1].dist || (d == best[k - 1].dist &&
			      strncmp(cand, best[k - 1].name, len) < 0)); k--)
				if (k < NSUGGEST)
					best[k] = best[k - 1];
			if (k < NSUGGEST)
				best[k] = (struct suggestion){ cand, len, d };
		}
	}
	text[0] = '\0';
	for (size_t k = 0; k < nbest && used < size; k++)
		used += (size_t)snprintf(text + used, size - used, "%s'%.*s'",
					 k ? ", " : "; nearest: ", (int)best[k].len,
					 best[k].name);
}

/* Adds the functions named by SPEC[0..LEN) to *SET, allocated on first
 * use for the call graph's SEL->nfuncs functions.  EXE names the executable
 * in messages.  Returns 0, or -1 with ERR set. */
static int mark_functions(struct selection *sel,
			  const struct selection_object *objs, size_t n,
			  const char *exe, const char *spec, size_t len,
			  bool **set, int end, struct g2c_error *err)
{
	struct symspec s = parse_symspec(spec, len);
	size_t marked = 0;
	char near[1024];

	if (set && !*set && !(*set = calloc(sel->nfuncs, sizeof **set)))
		return g2c_error_set(err, "out of memory");
	/* functions are selected by the names people read */
	for (size_t o = 0; o < n; o++)
		if (!sel->names[o].built &&
		    (symtab_names(objs[o].st, err) < 0 ||
		     index_names(&sel->names[o], objs[o].st, err) < 0))
			return -1;
	for (size_t o = 0; o < n; o++) {
		struct marks to = { set ? *set + sel->first_func[o] : NULL,
				    sel->first_func[o], &sel->ends[end],
				    &sel->nends[end], &sel->ends_cap[end] };
		size_t k = mark_spec(&objs[o], &sel->names[o], &s, &to, err);

		if (k == SIZE_MAX)
			return -1;
		marked += k;
	}
	if (marked > 0)
		return 0;
	{
		char name[512];

		snprintf(name, sizeof name, "%.*s", (int)s.name_len, s.name);
		suggest(objs, n, name, near, sizeof near);
	}
	return g2c_error_set(err, "%s: no function named '%.*s'%s", exe, (int)len,
			     spec, near);
}

static int by_pairs(const void *x, const void *y)
{
	const struct cg_func_pair *a = x, *b = y;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return (a->to > b->to) - (a->to < b->to);
}

/* The arcs one -k leaves out: every pair of the functions its FROM and
 * its TO name (in ENDS[0] and ENDS[1]).  Returns 0, or -1 when memory
 * runs out. */
static int add_arc_pairs(struct selection *s)
{
	size_t more = s->nends[0] * s->nends[1];
	struct cg_func_pair *arcs;

	if (more == 0)
		return 0;
	if (!(arcs = array_grow(s->arcs, &s->arcs_cap, s->narcs + more, sizeof *arcs)))
		return -1;
	s->arcs = arcs;
	for (size_t i = 0; i < s->nends[0]; i++)
		for (size_t j = 0; j < s->nends[1]; j++)
			arcs[s->narcs++] = (struct cg_func_pair){ s->ends[0][i],
								  s->ends[1][j] };
	return 0;
}

int selection_build(struct selection *s, const struct options *o,
		    const struct selection_object *objs, size_t n,
		    struct g2c_error *err)
{
	const bool **fields[NSETS] = {
		[SET_EXCL_TIME] = &s->sel.excl_time,
		[SET_INCL_TIME] = &s->sel.incl_time,
		[SET_EXCL_GRAPH] = &s->sel.excl_graph,
		[SET_INCL_GRAPH] = &s->sel.incl_graph,
	};

	memset(s, 0, sizeof *s);
	s->sel.show_unused = o->show_unused;
	/* the sets are indexed as the call graph numbers functions */
	s->first_func = malloc((n + 1) * sizeof *s->first_func);
	if (!s->first_func)
		return g2c_error_set(err, "out of memory");
	s->names = calloc(n ? n : 1, sizeof *s->names);
	if (!s->names)
		return g2c_error_set(err, "out of memory");
	s->nobjs = n;
	for (size_t i = 0; i < n; i++)
		s->first_func[i] = objs[i].st->nfuncs;
	s->nfuncs = callgraph_number_funcs(s->first_func, n, s->first_func);
	for (int i = 0; i < NSETS; i++) {
		for (size_t j = 0; j < o->sets[i].n; j++) {
			const char *name = o->sets[i].names[j];

			if (mark_functions(s, objs, n, o->exe, name, strlen(name),
					   &s->sets[i], 0, err) < 0)
				return -1;
		}
		*fields[i] = s->sets[i];
	}
	for (size_t j = 0; j < o->drop_arcs.n; j++) {
		const char *spec = o->drop_arcs.names[j];
		const char *slash = strchr(spec, '/');

		/* (the command line refuses such a value; a caller of the
		 * library may not have) */
		if (!slash)
			return g2c_error_set(err, "-k %s: not FROM/TO", spec);
		s->nends[0] = s->nends[1] = 0;
		if (mark_functions(s, objs, n, o->exe, spec, (size_t)(slash - spec),
				   NULL, 0, err) < 0 ||
		    mark_functions(s, objs, n, o->exe, slash + 1, strlen(slash + 1),
				   NULL, 1, err) < 0)
			return -1;
		if (add_arc_pairs(s) < 0)
			return g2c_error_set(err, "out of memory");
	}
	if (s->narcs)
		qsort(s->arcs, s->narcs, sizeof *s->arcs, by_pairs);
	s->sel.excl_arcs = s->arcs;
	s->sel.nexcl_arcs = s->narcs;
	return 0;
}

void selection_release(struct selection *s)
{
	for (int i = 0; i < NSETS; i++)
		free(s->sets[i]);
	free(s->ends[0]);
	free(s->ends[1]);
	free(s->arcs);
	free(s->first_func);
	for (size_t i = 0; s->names && i < s->nobjs; i++)
		free(s->names[i].entries);
	free(s->names);
	memset(s, 0, sizeof *s);
}
