/* select.c -- gprof's selection options resolved to sets of functions. */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "select.h"
#include "srcline.h"
#include "symtab.h"

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
static size_t mark_spec(const struct select_object *obj,
			const struct symspec *spec, bool *set,
			struct g2c_error *err)
{
	char *name = strndup(spec->name, spec->name_len);
	bool *matched;
	size_t count = 0;

	if (!name) {
		g2c_error_set(err, "out of memory");
		return SIZE_MAX;
	}
	matched = calloc(obj->st->nfuncs ? obj->st->nfuncs : 1, sizeof *matched);
	if (!matched) {
		free(name);
		g2c_error_set(err, "out of memory");
		return SIZE_MAX;
	}
	symtab_mark(obj->st, name, matched);
	for (size_t f = 0; f < obj->st->nfuncs; f++) {
		const char *file;

		if (!matched[f])
			continue;
		if (spec->file) {
			if (source_lines_file(obj->lines, obj->st->funcs[f].addr,
					      &file, err) < 0) {
				count = SIZE_MAX;
				break;
			}
			if (!file || !is_file(file, spec->file, spec->file_len))
				continue;
		}
		set[f] = true;
		count++;
	}
	free(matched);
	free(name);
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
static void suggest(const struct select_object *objs, size_t n,
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
static int mark_functions(const struct selection *sel,
			  const struct select_object *objs, size_t n,
			  const char *exe, const char *spec, size_t len,
			  bool **set, struct g2c_error *err)
{
	struct symspec s = parse_symspec(spec, len);
	size_t marked = 0;
	char near[1024];

	if (!*set && !(*set = calloc(sel->nfuncs, sizeof **set)))
		return g2c_error_set(err, "out of memory");
	/* functions are selected by the names people read */
	for (size_t o = 0; o < n; o++)
		if (symtab_names(objs[o].st, err) < 0)
			return -1;
	for (size_t o = 0; o < n; o++) {
		size_t k = mark_spec(&objs[o], &s, *set + sel->first_func[o], err);

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

int selection_build(struct selection *s, const struct options *o,
		    const struct select_object *objs, size_t n,
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
	for (size_t i = 0; i < n; i++)
		s->first_func[i] = objs[i].st->nfuncs;
	s->nfuncs = callgraph_number_funcs(s->first_func, n, s->first_func);
	for (int i = 0; i < NSETS; i++) {
		for (size_t j = 0; j < o->sets[i].n; j++) {
			const char *name = o->sets[i].names[j];

			if (mark_functions(s, objs, n, o->exe, name, strlen(name),
					   &s->sets[i], err) < 0)
				return -1;
		}
		*fields[i] = s->sets[i];
	}
	if (o->drop_arcs.n == 0)
		return 0;
	s->arcs = calloc(o->drop_arcs.n, sizeof *s->arcs);
	s->arc_ends = calloc(2 * o->drop_arcs.n, sizeof *s->arc_ends);
	if (!s->arcs || !s->arc_ends)
		return g2c_error_set(err, "out of memory");
	s->narcs = o->drop_arcs.n;
	for (size_t j = 0; j < o->drop_arcs.n; j++) {
		const char *spec = o->drop_arcs.names[j];
		const char *slash = strchr(spec, '/');

		if (mark_functions(s, objs, n, o->exe, spec, (size_t)(slash - spec),
				   &s->arc_ends[2 * j], err) < 0 ||
		    mark_functions(s, objs, n, o->exe, slash + 1, strlen(slash + 1),
				   &s->arc_ends[2 * j + 1], err) < 0)
			return -1;
		s->arcs[j] = (struct cg_arc_filter){ s->arc_ends[2 * j],
						     s->arc_ends[2 * j + 1] };
	}
	s->sel.excl_arcs = s->arcs;
	s->sel.nexcl_arcs = o->drop_arcs.n;
	return 0;
}

void selection_release(struct selection *s)
{
	for (int i = 0; i < NSETS; i++)
		free(s->sets[i]);
	for (size_t i = 0; s->arc_ends && i < 2 * s->narcs; i++)
		free(s->arc_ends[i]);
	free(s->arc_ends);
	free(s->arcs);
	free(s->first_func);
	memset(s, 0, sizeof *s);
}
