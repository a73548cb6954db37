/* srcline.c -- the source file and line of every position written. */
#include <config.h>

#include <bfd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "lines.h"
#include "object.h"
#include "srcline.h"
#include "symtab.h"
#include "util.h"

#define UNKNOWN_FILE "???"

void source_lines_init(struct source_lines *sl, struct object *obj)
{
	memset(sl, 0, sizeof *sl);
	sl->obj = obj;
}

/* Forgets the line tables read, so that the next look-up reads them
 * again. */
static void drop_tables(struct source_lines *sl)
{
	if (sl->table)
		line_table_release(sl->table);
	free(sl->table);
	sl->table = NULL;
	sl->tried = false;
	sl->restricted = false;
}

void source_lines_close(struct source_lines *sl)
{
	drop_tables(sl);
	free(sl->expected);
	memset(sl, 0, sizeof *sl);
}

/* Reads the line tables on first use; without them libbfd answers.
 * Returns 0, or -1 with ERR set: out of memory fails the conversion
 * (asked again, the tables are read again), libbfd must not answer
 * instead. */
static int read_tables(struct source_lines *sl, struct g2c_error *err)
{
	int rc;

	if (sl->tried)
		return 0;
	sl->table = calloc(1, sizeof *sl->table);
	rc = sl->table ? line_table_read(sl->table, sl->obj, sl->expected,
					 sl->nexpected, err) :
		g2c_error_set(err, "%s: out of memory reading line tables",
			      sl->obj->path);
	if (rc != LINES_READ) {
		free(sl->table);
		sl->table = NULL;
	}
	if (rc < 0)
		return -1;
	sl->tried = true;
	sl->restricted = sl->expected != NULL;
	return 0;
}

/* libbfd joins a relative DWARF 5 directory entry 0 (./src, under
 * -ffile-prefix-map=$PWD=.) to DW_AT_comp_dir, which is that directory
 * already: ./src/./src/x.c.  The line tables read directly name it once,
 * ./src/x.c, and so must libbfd's answers: the part from the second copy. */
static const char *undouble_comp_dir(const char *f)
{
	if (f[0] != '.')
		return f;
	for (const char *slash = strchr(f, '/'); slash; slash = strchr(slash + 1, '/')) {
		size_t n = (size_t)(slash - f);

		if (strncmp(slash + 1, f, n) == 0 && slash[1 + n] == '/')
			return slash + 1;
	}
	return f;
}

/* The file and line of PC, innermost or OUTERMOST; *FILE is NULL and
 * *LINE 0 where there is no line information.  Returns 0, or -1 with ERR
 * set. */
static int find_line(struct source_lines *sl, uint64_t pc, bool outermost,
		     const char **file, unsigned *line, struct g2c_error *err)
{
	const char *f = NULL, *func = NULL, *outer_file, *outer_func;
	unsigned l = 0, outer_line;
	bfd *dbfd = sl->obj->dbfd;
	asection *sec;

	*file = NULL;
	*line = 0;
	/* The innermost position is the line table's own answer: read the
	 * tables directly, much faster than libbfd's full parse. */
	if (read_tables(sl, err) < 0)
		return -1;
	if (!outermost && sl->table) {
		int found = line_table_lookup(sl->table, pc, file, line, err);

		/* Where no row covers PC, libbfd still names a file from the
		 * symbol table. */
		if (found != 0)
			return found < 0 ? -1 : 0;
	}
	/* Without a line, libbfd's file is a guess from the symbol table
	 * (an object file's name, such as "libc-start.o"): no source. */
	sec = object_find_code_section(dbfd, &sl->last_section, pc);
	if (!sec ||
	    !bfd_find_nearest_line(dbfd, sec, sl->obj->syms,
				   pc - bfd_section_vma(sec), &f, &func, &l) ||
	    !f || l == 0)
		return 0;
	/* Walk out of inlined frames to the function that owns PC. */
	while (outermost && bfd_find_inliner_info(dbfd, &outer_file,
						  &outer_func, &outer_line)) {
		f = outer_file;
		l = outer_line;
	}
	*file = undouble_comp_dir(f);
	*line = l;
	return 0;
}

/* The file and line of PC, where debug information that names no file
 * (an empty name) counts as none. */
static int find_named_line(struct source_lines *sl, uint64_t pc,
			   bool outermost, const char **file, unsigned *line,
			   struct g2c_error *err)
{
	if (find_line(sl, pc, outermost, file, line, err) < 0)
		return -1;
	if (*file && !**file) {
		*file = NULL;
		*line = 0;
	}
	return 0;
}

int source_lines_file(struct source_lines *sl, uint64_t pc,
		      const char **file, struct g2c_error *err)
{
	unsigned line;

	return find_named_line(sl, pc, false, file, &line, err);
}

/* A file name and what a prefix map made of it. */
struct mapped_name {
	const char *from;
	char *to;
};

static size_t pointer_slot(const void *p, size_t cap)
{
	return (size_t)(((uintptr_t)p >> 3) * 0x9e3779b97f4a7c15u) & (cap - 1);
}

/* Makes room for one more rewritten name in the table. */
static int grow_mapped(struct source_map *map)
{
	struct mapped_name *old = map->mapped, *table;
	size_t cap = map->mapped_cap ? 2 * map->mapped_cap : 64;

	if ((map->nmapped + 1) * 2 <= map->mapped_cap)
		return 0;
	table = calloc(cap, sizeof *table);
	if (!table)
		return -1;
	for (size_t i = 0; i < map->mapped_cap; i++) {
		size_t slot;

		if (!old[i].from)
			continue;
		for (slot = pointer_slot(old[i].from, cap); table[slot].from;
		     slot = (slot + 1) & (cap - 1))
			;
		table[slot] = old[i];
	}
	free(old);
	map->mapped = table;
	map->mapped_cap = cap;
	return 0;
}

/* FILE rewritten by the longest matching OLD of MAPS, each name rewritten
 * once; FILE itself where none matches.  NULL when memory runs out. */
static const char *map_file(struct source_map *map, const char *file,
			    const struct prefix_map *maps, size_t nmaps)
{
	const struct prefix_map *best = NULL;
	size_t slot;
	char *to;

	for (size_t i = 0; i < nmaps; i++)
		if (strncmp(file, maps[i].old, maps[i].old_len) == 0 &&
		    (!best || maps[i].old_len > best->old_len))
			best = &maps[i];
	if (!best)
		return file;
	if (grow_mapped(map) < 0)
		return NULL;
	for (slot = pointer_slot(file, map->mapped_cap); map->mapped[slot].from;
	     slot = (slot + 1) & (map->mapped_cap - 1))
		if (map->mapped[slot].from == file)
			return map->mapped[slot].to;
	to = malloc(strlen(best->new) + strlen(file + best->old_len) + 1);
	if (!to)
		return NULL;
	strcpy(stpcpy(to, best->new), file + best->old_len);
	map->mapped[slot] = (struct mapped_name){ file, to };
	map->nmapped++;
	return to;
}

/* Sets *POS to the position of PC in a function whose home is HOME (POS
 * may be HOME).  Returns 0, or -1 with ERR set. */
static int position_in(struct source_lines *sl, uint64_t pc, bool outermost,
		       const struct src_pos *home, struct src_pos *pos,
		       struct g2c_error *err)
{
	struct src_pos found;

	if (find_named_line(sl, pc, outermost, &found.file, &found.line, err) < 0)
		return -1;
	if (!found.file)
		found.file = home->file;
	*pos = found;
	return 0;
}

/* Sets *POS to the position of PC in function F of CG, whose home is
 * HOME (POS may be HOME).  Pseudo functions have no code: all their
 * positions are unknown.  Returns 0, or -1 with ERR set. */
static int place(struct source_lines *sl, const struct callgraph *cg,
		 size_t f, uint64_t pc, bool outermost,
		 const struct src_pos *home, struct src_pos *pos,
		 struct g2c_error *err)
{
	if (callgraph_is_pseudo(cg, f)) {
		*pos = *home;
		return 0;
	}
	return position_in(sl, pc, outermost, home, pos, err);
}

/* Rewrites the file names of function F's positions by the prefix maps. */
static int map_positions(struct source_map *map, const struct callgraph *cg,
			 size_t f, const struct prefix_map *maps, size_t nmaps)
{
	const struct cg_func *fn = &cg->funcs[f];
	if (!(map->home[f].file = map_file(map, map->home[f].file, maps, nmaps)))
		return -1;
	for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++)
		if (!(map->cost[i].file = map_file(map, map->cost[i].file, maps, nmaps)))
			return -1;
	for (size_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++) {
		const struct cg_arc *arc = &cg->arcs[a];

		for (size_t s = arc->first_site; s < arc->first_site + arc->nsites; s++)
			if (!(map->site[s].file = map_file(map, map->site[s].file,
							   maps, nmaps)))
				return -1;
	}
	return 0;
}

static uint64_t address_key(const void *x)
{
	return *(const uint64_t *)x;
}

static int compare_addresses(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* The addresses of object O whose lines source_map_build looks up in its
 * tables (entries, and with inlined positions costs and call sites),
 * sorted and distinct, into SL->expected.  Returns -1 when out of memory. */
static int expect_positions(struct source_lines *sl, const struct callgraph *cg,
			    size_t o, bool outermost)
{
	size_t n = 0;
	uint64_t *pcs = malloc((cg->nfuncs + cg->ncosts + cg->nsites + 1) *
			       sizeof *pcs);

	if (!pcs)
		return -1;
	for (size_t f = cg->objs[o].first_func;
	     f < cg->objs[o].first_func + cg->objs[o].st->nfuncs; f++) {
		const struct cg_func *fn = &cg->funcs[f];
		size_t first = n;

		if (!fn->shown)
			continue;
		pcs[n++] = callgraph_symbol(cg, f)->addr;
		if (outermost)
			continue;
		for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++)
			pcs[n++] = cg->costs[i].pc;
		for (size_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++)
			for (size_t s = cg->arcs[a].first_site;
			     s < cg->arcs[a].first_site + cg->arcs[a].nsites; s++)
				pcs[n++] = cg->sites[s].pc;
		/* A function's positions are mostly in its own code, and the
		 * functions in address order: sorted function by function
		 * (where there are a few), they are mostly sorted as a
		 * whole, which sort_by_key sees at once. */
		for (size_t i = first + 1; n - first <= 16 && i < n; i++)
			for (size_t j = i; j > first && pcs[j - 1] > pcs[j]; j--) {
				uint64_t t = pcs[j];

				pcs[j] = pcs[j - 1];
				pcs[j - 1] = t;
			}
	}
	sort_by_key(pcs, n, sizeof *pcs, address_key, compare_addresses);
	sl->nexpected = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || pcs[i] != pcs[i - 1])
			pcs[sl->nexpected++] = pcs[i];
	free(sl->expected);
	sl->expected = pcs;
	return 0;
}

/* Prepares the line tables of every object for the look-ups of CG: read
 * for these positions alone with ONLY_THESE, else whole (read again if
 * they were read for other positions). */
static int prepare_tables(const struct callgraph *cg,
			  struct source_lines *const *lines, bool outermost,
			  bool only_these)
{
	for (size_t o = 0; o < cg->nobjs; o++) {
		struct source_lines *sl = lines[o];

		if (sl->restricted)
			drop_tables(sl);
		if (sl->tried)
			continue;	/* read whole already */
		if (!only_these) {
			free(sl->expected);
			sl->expected = NULL;
		} else if (expect_positions(sl, cg, o, outermost) < 0) {
			return -1;
		}
	}
	return 0;
}

int source_map_build(struct source_map *map, const struct callgraph *cg,
		     struct source_lines *const *lines, bool outermost,
		     bool only_these, const struct prefix_map *maps,
		     size_t nmaps, struct g2c_error *err)
{
	memset(map, 0, sizeof *map);
	if (prepare_tables(cg, lines, outermost, only_these) < 0)
		goto oom;
	map->home = calloc(cg->nfuncs, sizeof *map->home);
	map->cost = calloc(cg->ncosts ? cg->ncosts : 1, sizeof *map->cost);
	map->site = calloc(cg->nsites ? cg->nsites : 1, sizeof *map->site);
	if (!map->home || !map->cost || !map->site)
		goto oom;
	for (size_t f = 0; f < cg->nfuncs; f++) {
		const struct cg_func *fn = &cg->funcs[f];
		size_t o = callgraph_object_of(cg, f);
		struct source_lines *sl = lines[o];
		struct src_pos *home = &map->home[f];
		const struct symtab_func *sym;

		/* Without line information the file is unknown, as callgrind
		 * writes it. */
		*home = (struct src_pos){ UNKNOWN_FILE, 0 };
		if (!fn->shown)
			continue;
		/* A function's entry is its own code, never inlined code. */
		sym = callgraph_symbol(cg, f);
		if (place(sl, cg, f, sym ? sym->addr : 0, false, home, home, err) < 0)
			goto fail;
		for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++)
			if (place(sl, cg, f, cg->costs[i].pc, outermost, home,
				  &map->cost[i], err) < 0)
				goto fail;
		for (size_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++) {
			const struct cg_arc *arc = &cg->arcs[a];

			for (size_t s = arc->first_site; s < arc->first_site + arc->nsites; s++)
				if (place(sl, cg, f, cg->sites[s].pc, outermost, home,
					  &map->site[s], err) < 0)
					goto fail;
		}
		if (nmaps > 0 && map_positions(map, cg, f, maps, nmaps) < 0)
			goto oom;
	}
	/* No more look-ups follow: the rows (most of the tables' memory)
	 * can go before the writer needs its own. */
	for (size_t o = 0; only_these && o < cg->nobjs; o++) {
		if (lines[o]->table) {
			line_table_forget_rows(lines[o]->table);
			lines[o]->restricted = true;
		}
	}
	return 0;
oom:
	g2c_error_set(err, "out of memory for source lines");
fail:
	source_map_release(map);
	return -1;
}

static int compare_pointers(const void *x, const void *y)
{
	uintptr_t a = (uintptr_t)*(const char *const *)x;
	uintptr_t b = (uintptr_t)*(const char *const *)y;

	return a < b ? -1 : a > b;
}

/* Drops repeated pointers from the sorted NAMES[0..N); returns how many
 * are left. */
static size_t unique_pointers(const char **names, size_t n)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++)
		if (kept == 0 || names[kept - 1] != names[i])
			names[kept++] = names[i];
	return kept;
}

/* Appends FILE to NAMES[0..*N) unless it is the last one there: the
 * positions of a function, and neighbouring functions, share a file. */
static void add_name(const char **names, size_t *n, const char *file)
{
	if (*n == 0 || names[*n - 1] != file)
		names[(*n)++] = file;
}

static int compare_names(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

int source_map_count_files(const struct source_map *map,
			   const struct callgraph *cg, size_t *named,
			   size_t *found, const char **example)
{
	const char **names = malloc((cg->nfuncs + cg->ncosts + cg->nsites) *
				    sizeof *names);
	size_t n = 0;

	*named = *found = 0;
	*example = NULL;
	if (!names)
		return -1;
	for (size_t f = 0; f < cg->nfuncs; f++) {
		const struct cg_func *fn = &cg->funcs[f];

		if (!fn->shown)
			continue;
		add_name(names, &n, map->home[f].file);
		for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++)
			add_name(names, &n, map->cost[i].file);
		for (size_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++)
			for (size_t i = cg->arcs[a].first_site;
			     i < cg->arcs[a].first_site + cg->arcs[a].nsites; i++)
				add_name(names, &n, map->site[i].file);
	}
	/* The names are shared strings: most repeats are the same pointer,
	 * so drop those before comparing the strings. */
	if (n)
		qsort(names, n, sizeof *names, compare_pointers);
	n = unique_pointers(names, n);
	if (n)
		qsort(names, n, sizeof *names, compare_names);
	for (size_t i = 0; i < n; i++) {
		if ((i > 0 && strcmp(names[i], names[i - 1]) == 0) ||
		    strcmp(names[i], UNKNOWN_FILE) == 0)
			continue;
		++*named;
		if (access(names[i], F_OK) == 0)
			++*found;
		else if (!*example)
			*example = names[i];
	}
	free(names);
	return 0;
}

void source_map_release(struct source_map *map)
{
	free(map->home);
	free(map->cost);
	free(map->site);
	for (size_t i = 0; i < map->mapped_cap; i++)
		free(map->mapped[i].to);
	free(map->mapped);
	memset(map, 0, sizeof *map);
}
