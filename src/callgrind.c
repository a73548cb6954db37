/* callgrind.c -- write a call graph as a callgrind-format profile. */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"
#include "diag.h"

#define UNKNOWN_FILE "???"
#define SPONTANEOUS "<spontaneous>"
#define NO_SYMBOL "<no symbol>"
#define HIDDEN "<hidden>"

/* Strings that have been given a compression number, e.g. "fl=(3) a.c". */
struct name_ids {
	const char **names;	/* open addressing by string hash */
	size_t *ids;
	size_t cap, count;
};

static uint64_t hash_string(const char *s)
{
	uint64_t h = 1469598103934665603u;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

/* Returns the id of S, 0 with *IS_NEW if it gets a new one, or -1 when out
 * of memory. */
static long long name_id(struct name_ids *ids, const char *s, bool *is_new)
{
	size_t slot;

	if ((ids->count + 1) * 2 > ids->cap) {
		size_t cap = ids->cap ? ids->cap * 2 : 64;
		const char **names = calloc(cap, sizeof *names);
		size_t *nums = calloc(cap, sizeof *nums);

		if (!names || !nums) {
			free(names);
			free(nums);
			return -1;
		}
		for (size_t i = 0; i < ids->cap; i++) {
			if (!ids->names[i])
				continue;
			slot = hash_string(ids->names[i]) & (cap - 1);
			while (names[slot])
				slot = (slot + 1) & (cap - 1);
			names[slot] = ids->names[i];
			nums[slot] = ids->ids[i];
		}
		free(ids->names);
		free(ids->ids);
		ids->names = names;
		ids->ids = nums;
		ids->cap = cap;
	}
	slot = hash_string(s) & (ids->cap - 1);
	while (ids->names[slot] && strcmp(ids->names[slot], s) != 0)
		slot = (slot + 1) & (ids->cap - 1);
	*is_new = !ids->names[slot];
	if (*is_new) {
		ids->names[slot] = s;
		ids->ids[slot] = ++ids->count;
	}
	return (long long)ids->ids[slot];
}

static void name_ids_release(struct name_ids *ids)
{
	free(ids->names);
	free(ids->ids);
}

struct writer {
	const struct callgraph *cg;
	struct symtab *st;
	struct outstream *os;
	const char **home_file;	/* per function: its fl= */
	unsigned *entry_line;	/* per function: line of its entry */
	char **label;		/* per function: name written, when not st's */
	size_t *fn_id;		/* per function: 0 until named */
	size_t next_fn_id;
	struct name_ids files;
	const char *last_fl;	/* the last fl= written */
	const char *cur_file;	/* file of the cost lines being written */
	uint64_t last_pc;
	unsigned last_line;
	bool have_last;
	bool inline_files;	/* inlined code at its own file and line */
	bool failed;		/* out of memory */
	struct g2c_error *line_err;	/* set when reading source lines failed */
	bool line_failed;
};

static const char *func_name(const struct writer *w, size_t f)
{
	if (w->label[f])
		return w->label[f];
	if (f == callgraph_no_symbol(w->cg))
		return NO_SYMBOL;
	return w->st->funcs[f].name;
}

/* Writes "KEY=(id)" or, at first use, "KEY=(id) name".  Control characters
 * cannot be written in a name line; they become '?'. */
static void write_name(struct writer *w, const char *key, size_t id,
		       bool is_new, const char *name)
{
	outstream_puts(w->os, key);
	outstream_write(w->os, "=(", 2);
	outstream_u64(w->os, id, false);
	outstream_write(w->os, ")", 1);
	if (is_new) {
		const char *p = name;

		outstream_write(w->os, " ", 1);
		while (*p) {
			size_t n = 0;

			while (p[n] && (unsigned char)p[n] >= 0x20 && p[n] != 0x7f)
				n++;
			outstream_write(w->os, p, n);
			p += n;
			if (*p) {
				outstream_write(w->os, "?", 1);
				p++;
			}
		}
	}
	outstream_write(w->os, "\n", 1);
}

static void write_file(struct writer *w, const char *key, const char *file)
{
	bool is_new;
	long long id = name_id(&w->files, file, &is_new);

	if (id < 0) {
		w->failed = true;
		return;
	}
	write_name(w, key, (size_t)id, is_new, file);
}

static void write_fn(struct writer *w, const char *key, size_t f)
{
	bool is_new = w->fn_id[f] == 0;

	if (is_new)
		w->fn_id[f] = ++w->next_fn_id;
	write_name(w, key, w->fn_id[f], is_new, func_name(w, f));
}

/* Writes "ADDR LINE" compressed against the previous position line, as
 * both consumers resolve "+N", "-N" and "*" against it. */
static void write_position(struct writer *w, uint64_t pc, unsigned line)
{
	struct outstream *os = w->os;

	if (w->have_last && pc == w->last_pc) {
		outstream_write(os, "*", 1);
	} else if (w->have_last && pc > w->last_pc && pc - w->last_pc < 0x10000) {
		outstream_write(os, "+", 1);
		outstream_u64(os, pc - w->last_pc, false);
	} else if (w->have_last && pc < w->last_pc && w->last_pc - pc < 0x10000) {
		outstream_write(os, "-", 1);
		outstream_u64(os, w->last_pc - pc, false);
	} else {
		outstream_u64(os, pc, true);
	}
	if (w->have_last && line == w->last_line) {
		outstream_write(os, " *", 2);
	} else if (w->have_last && line > w->last_line) {
		outstream_write(os, " +", 2);
		outstream_u64(os, line - w->last_line, false);
	} else if (w->have_last && line < w->last_line) {
		outstream_write(os, " -", 2);
		outstream_u64(os, w->last_line - line, false);
	} else {
		outstream_write(os, " ", 1);
		outstream_u64(os, line, false);
	}
	w->last_pc = pc;
	w->last_line = line;
	w->have_last = true;
}

/* " VALUE\n" ending a cost line. */
static void write_value(struct writer *w, uint64_t v)
{
	outstream_write(w->os, " ", 1);
	outstream_u64(w->os, v, false);
	outstream_write(w->os, "\n", 1);
}

/* Switches the file of the following cost lines with fi=/fe= (fe= when
 * returning to the function's own file). */
static void switch_file(struct writer *w, size_t f, const char *file)
{
	if (strcmp(file, w->cur_file) == 0)
		return;
	write_file(w, strcmp(file, w->home_file[f]) == 0 ? "fe" : "fi", file);
	w->cur_file = file;
}

/* A self cost line: position, ns and, when there are any, executions. */
static void write_cost(struct writer *w, const struct cg_cost *c, unsigned line)
{
	write_position(w, c->pc, line);
	if (c->executions) {
		outstream_write(w->os, " ", 1);
		outstream_u64(w->os, c->ns, false);
	}
	write_value(w, c->executions ? c->executions : c->ns);
}

/* "cfi=", "cfn=" and "calls=COUNT TARGET", the target being the callee's
 * entry; the call cost line follows. */
static void write_call(struct writer *w, size_t callee, uint64_t count)
{
	write_file(w, "cfi", w->home_file[callee]);
	write_fn(w, "cfn", callee);
	outstream_write(w->os, "calls=", 6);
	outstream_u64(w->os, count, false);
	outstream_write(w->os, " ", 1);
	outstream_u64(w->os, callee == callgraph_no_symbol(w->cg) ? 0 :
		      w->st->funcs[callee].addr, true);
	write_value(w, w->entry_line[callee]);
}

/* The file and line to show for PC in function F: for inlined code the
 * inlined file and line (written with fi=, as callgrind does) unless
 * turned off; F's own file and line 0 where there is no line
 * information. */
static unsigned source_of(struct writer *w, size_t f, uint64_t pc,
			  const char **file)
{
	unsigned line = 0;

	*file = NULL;
	if (f != callgraph_no_symbol(w->cg) && !w->line_failed &&
	    symtab_source_line(w->st, pc, !w->inline_files, file, &line,
			       w->line_err) < 0)
		w->line_failed = true;
	if (!*file)
		*file = w->home_file[f];
	return line;
}

static void write_function(struct writer *w, size_t f)
{
	const struct cg_func *fn = &w->cg->funcs[f];
	const char *file;
	unsigned line;

	if (!w->last_fl || strcmp(w->last_fl, w->home_file[f]) != 0) {
		write_file(w, "fl", w->home_file[f]);
		w->last_fl = w->home_file[f];
	}
	w->cur_file = w->home_file[f];
	write_fn(w, "fn", f);
	for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++) {
		const struct cg_cost *c = &w->cg->costs[i];

		if (c->ns == 0 && c->executions == 0)
			continue;
		line = source_of(w, f, c->pc, &file);
		switch_file(w, f, file);
		write_cost(w, c, line);
	}
	for (size_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++) {
		const struct cg_arc *arc = &w->cg->arcs[a];

		if (!w->cg->funcs[arc->callee].shown)
			continue;
		for (size_t s = arc->first_site; s < arc->first_site + arc->nsites; s++) {
			const struct cg_site *site = &w->cg->sites[s];

			line = source_of(w, f, site->pc, &file);
			switch_file(w, f, file);
			write_call(w, arc->callee, site->count);
			write_position(w, site->pc, line);
			write_value(w, site->ns);
		}
	}
	switch_file(w, f, w->home_file[f]);
}

/* The pseudo caller of every function or cycle nothing else calls, so that
 * both viewers show their inclusive cost (and KCachegrind finds every
 * cycle: its search starts from functions in name order, and this name
 * sorts first).  Its call sites have no address. */
static void write_spontaneous(struct writer *w)
{
	if (w->cg->nroots == 0)
		return;
	write_file(w, "fl", UNKNOWN_FILE);
	w->last_fl = w->cur_file = UNKNOWN_FILE;
	write_name(w, "fn", ++w->next_fn_id, true, SPONTANEOUS);
	for (size_t i = 0; i < w->cg->nroots; i++) {
		const struct cg_root *root = &w->cg->roots[i];

		write_call(w, root->func, 1);
		write_position(w, 0, 0);
		write_value(w, root->ns);
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

			if (c->ns == 0 && c->executions == 0)
				continue;
			if (!named) {
				write_file(w, "fl", UNKNOWN_FILE);
				w->last_fl = w->cur_file = UNKNOWN_FILE;
				write_name(w, "fn", ++w->next_fn_id, true, HIDDEN);
				named = true;
			}
			write_cost(w, c, 0);
		}
	}
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* qsort has no context argument; the writer being sorted for. */
static const struct writer *sort_writer;

/* KCachegrind's identity of a function: name and file basename (all
 * functions here share one object). */
static int compare_identity(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int c = strcmp(func_name(sort_writer, a), func_name(sort_writer, b));

	if (c)
		return c;
	return strcmp(base_name(sort_writer->home_file[a]),
		      base_name(sort_writer->home_file[b]));
}

static bool same_home(const struct writer *w, size_t a, size_t b)
{
	return strcmp(w->home_file[a], w->home_file[b]) == 0;
}

/* KCachegrind would merge functions whose identities agree (two static
 * "init"s in a/util.c and b/util.c), so each of them gets its source file
 * in its name, or its address where even the file is shared. */
static int label_clashing_names(struct writer *w, size_t *order, size_t n)
{
	sort_writer = w;
	qsort(order, n, sizeof *order, compare_identity);
	for (size_t i = 0, end; i < n; i = end) {
		for (end = i + 1; end < n &&
		     compare_identity(&order[i], &order[end]) == 0; end++)
			;
		for (size_t j = i; end - i > 1 && j < end; j++) {
			size_t f = order[j];
			bool file_unique = true;
			const char *name = func_name(w, f);
			char *label;

			for (size_t k = i; k < end; k++)
				if (k != j && same_home(w, f, order[k]))
					file_unique = false;
			label = malloc(strlen(name) + strlen(w->home_file[f]) + 32);
			if (!label)
				return -1;
			if (file_unique)
				sprintf(label, "%s [%s]", name, w->home_file[f]);
			else
				sprintf(label, "%s [0x%" PRIx64 "]", name,
					w->st->funcs[f].addr);
			w->label[f] = label;
		}
	}
	return 0;
}

/* Finds each written function's file and entry line, and its name. */
static int prepare_functions(struct writer *w)
{
	const struct callgraph *cg = w->cg;
	size_t *order = malloc(cg->nfuncs * sizeof *order), n = 0;
	int rc;

	if (!order)
		return -1;
	for (size_t f = 0; f < cg->nfuncs; f++) {
		const char *file = NULL;

		w->home_file[f] = w->st->path;
		if (!cg->funcs[f].shown)
			continue;
		if (f == callgraph_no_symbol(cg)) {
			w->home_file[f] = UNKNOWN_FILE;
			continue;
		}
		/* Without line information the object stands for the file. */
		/* A function's entry is its own code, never inlined code. */
		if (symtab_source_line(w->st, w->st->funcs[f].addr, false, &file,
				       &w->entry_line[f], w->line_err) < 0) {
			w->line_failed = true;
			break;
		}
		if (file)
			w->home_file[f] = file;
		order[n++] = f;
	}
	rc = w->line_failed ? -1 : label_clashing_names(w, order, n);
	free(order);
	return rc;
}

/* "summary:" or "totals:": the sum of all self costs, per event. */
static void write_totals(struct writer *w, const char *key)
{
	outstream_printf(w->os, "%s: %" PRIu64, key, w->cg->total_ns);
	if (w->cg->has_executions)
		outstream_printf(w->os, " %" PRIu64, w->cg->total_executions);
	outstream_printf(w->os, "\n");
}

static void write_header(struct writer *w, const struct callgrind_info *info)
{
	const struct callgraph *cg = w->cg;

	if (info->part <= 1)
		outstream_printf(w->os, "# callgrind format\nversion: 1\n"
				 "creator: %s %s\ncmd: %s\n", PACKAGE_NAME,
				 PACKAGE_VERSION, w->st->path);
	/* A part's own lines must all come before its "events:". */
	if (info->part >= 1)
		outstream_printf(w->os, "\npart: %u\n", info->part);
	if (info->nsources > 1)
		outstream_printf(w->os, "desc: Trigger: profile %s and %u more\n",
				 info->source, info->nsources - 1);
	else
		outstream_printf(w->os, "desc: Trigger: profile %s\n", info->source);
	if (cg->hz) {
		outstream_printf(w->os, "desc: Sampling rate: %" PRIu32 " Hz (1 sample = %.10g ns)%s\n",
				 cg->hz, 1e9 / cg->hz,
				 info->rate_assumed ? ", assumed: the profile does not record it" : "");
		outstream_printf(w->os, "desc: Samples: %" PRIu64 "\n",
				 cg->stats.samples);
	} else {
		outstream_printf(w->os, "desc: Samples: none (the profile has no histogram, so all costs are 0)\n");
	}
	outstream_printf(w->os, "positions: instr line\n");
	if (strcmp(info->dimen, "seconds") == 0)
		outstream_printf(w->os, "event: ns : CPU time (ns)\n");
	else
		outstream_printf(w->os, "event: ns : %s (billionths)\n",
				 info->dimen);
	if (cg->has_executions)
		outstream_printf(w->os, "event: bb : Basic-block executions\n");
	/* callgrind_annotate needs "events:" to end the header. */
	outstream_printf(w->os, "events: ns%s\n", cg->has_executions ? " bb" : "");
	write_totals(w, "summary");
	outstream_printf(w->os, "\n");
	outstream_printf(w->os, "ob=(1) %s\n", w->st->path);
}

int callgrind_write(const struct callgraph *cg, struct symtab *st,
		    const struct callgrind_info *info, struct outstream *os,
		    struct g2c_error *err)
{
	struct writer w = { .cg = cg, .st = st, .os = os,
			    .inline_files = !info->no_inline, .line_err = err };
	int rc = 0;

	w.home_file = calloc(cg->nfuncs, sizeof *w.home_file);
	w.entry_line = calloc(cg->nfuncs, sizeof *w.entry_line);
	w.label = calloc(cg->nfuncs, sizeof *w.label);
	w.fn_id = calloc(cg->nfuncs, sizeof *w.fn_id);
	if (!w.home_file || !w.entry_line || !w.label || !w.fn_id ||
	    prepare_functions(&w) < 0) {
		rc = w.line_failed ? -1 :
			g2c_error_set(err, "out of memory while writing the profile");
		goto out;
	}
	write_header(&w, info);
	write_spontaneous(&w);
	for (size_t f = 0; f < cg->nfuncs; f++)
		if (cg->funcs[f].shown)
			write_function(&w, f);
	write_hidden(&w);
	outstream_printf(os, "\n");
	write_totals(&w, "totals");
	if (w.line_failed)
		rc = -1;
	else if (w.failed)
		rc = g2c_error_set(err, "out of memory while writing the profile");
out:
	for (size_t f = 0; w.label && f < cg->nfuncs; f++)
		free(w.label[f]);
	free(w.label);
	free(w.home_file);
	free(w.entry_line);
	free(w.fn_id);
	name_ids_release(&w.files);
	return rc;
}
