/* source_map.c -- the source file and line of every position written. */
#include <config.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callgrind_format.h"
#include "diag.h"
#include "object_lines.h"
#include "source_map.h"
#include "symtab.h"
#include "util.h"

/* A file name and what a prefix map made of it. */
struct mapped_name {
	const char *from;
	char *to;
};

static uint64_t hash_pointer(const void *p)
{
	return ((uintptr_t)p >> 3) * 0x9e3779b97f4a7c15u;
}

static bool same_from(const void *mapped, size_t pos, const void *file)
{
	return ((const struct mapped_name *)mapped)[pos].from == file;
}

const struct prefix_map *prefix_map_find(const struct prefix_map *maps,
					 size_t nmaps, const char *file)
{
	const struct prefix_map *best = NULL;

	for (size_t i = 0; i < nmaps; i++)
		if (strncmp(file, maps[i].old, maps[i].old_len) == 0 &&
		    (!best || maps[i].old_len > best->old_len))
			best = &maps[i];
	return best;
}

/* FILE rewritten by MAPS, each name rewritten once; FILE itself where no
 * map rewrites it.  NULL when memory runs out. */
static const char *map_file(struct source_map *map, const char *file,
			    const struct prefix_map *maps, size_t nmaps)
{
	const struct prefix_map *best = prefix_map_find(maps, nmaps, file);
	size_t count = map->mapped_index.count, at;
	uint64_t hash = hash_pointer(file);
	struct mapped_name *mapped;
	struct hash_slot *slot;
	char *to;

	if (!best)
		return file;
	at = hash_index_place(&map->mapped_index, hash, same_from, map->mapped,
			      count, file, &slot);
	if (at != count)
		return at == SIZE_MAX ? NULL : map->mapped[at].to;
	mapped = array_grow(map->mapped, &map->mapped_cap, count + 1, sizeof *mapped);
	if (!mapped)
		return NULL;
	map->mapped = mapped;
	to = malloc(strlen(best->new) + strlen(file + best->old_len) + 1);
	if (!to)
		return NULL;
	strcpy(stpcpy(to, best->new), file + best->old_len);
	mapped[count] = (struct mapped_name){ file, to };
	hash_index_add(&map->mapped_index, slot, hash, count);
	return to;
}

/* Sets *POS to the position of PC in a function whose home is HOME (POS
 * may be HOME).  Returns 0, or -1 with ERR set. */
static int position_in(struct object_lines *sl, uint64_t pc, bool outermost,
		       const struct src_pos *home, struct src_pos *pos,
		       struct g2c_error *err)
{
	struct src_pos found;

	if (object_lines_find(sl, pc, outermost, &found.file, &found.line, err) < 0)
		return -1;
	if (!found.file)
		found.file = home->file;
	*pos = found;
	return 0;
}

/* Sets *POS to the position of PC in function F of CG, whose home is
 * HOME (POS may be HOME).  Pseudo functions have no code: all their
 * positions are unknown.  Returns 0, or -1 with ERR set. */
static int position_of(struct object_lines *sl, const struct callgraph *cg,
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
	size_t first, end;

	if (!(map->home[f].file = map_file(map, map->home[f].file, maps, nmaps)))
		return -1;
	for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++)
		if (!(map->cost[i].file = map_file(map, map->cost[i].file, maps, nmaps)))
			return -1;
	callgraph_sites_of(cg, f, &first, &end);
	for (size_t s = first; s < end; s++)
		if (!(map->site[s].file = map_file(map, map->site[s].file, maps, nmaps)))
			return -1;
	return 0;
}

static uint64_t address_key(const void *x)
{
	return *(const uint64_t *)x;
}

static int by_addresses(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* Which functions of object O have positions to look up before
 * propagation says which are shown: those with costs, those the arcs
 * join, and those -z shows (a flag per function of O).  NULL when out of
 * memory. */
static bool *functions_placed(const struct callgraph *cg, size_t o)
{
	size_t first = cg->objs[o].first_func, n = cg->objs[o].st->nfuncs;
	bool *placed = calloc(n ? n : 1, sizeof *placed);

	if (!placed)
		return NULL;
	for (size_t f = 0; f < n; f++)
		placed[f] = cg->funcs[first + f].used || cg->funcs[first + f].ncosts > 0;
	for (size_t i = 0; i < cg->narcs; i++) {
		if (cg->arcs[i].caller - first < n)
			placed[cg->arcs[i].caller - first] = true;
		if (cg->arcs[i].callee - first < n)
			placed[cg->arcs[i].callee - first] = true;
	}
	return placed;
}

/* The addresses of object O whose lines source_map_build may look up in
 * its tables (entries, and with inlined positions costs and call sites),
 * sorted and distinct, *N of them: of every function that may be shown,
 * as they are the same before propagation as after.  NULL when out of
 * memory. */
static uint64_t *expected_positions(const struct callgraph *cg, size_t o,
				    bool outermost, size_t *n_distinct)
{
	size_t n = 0, first_func = cg->objs[o].first_func, a = 0;
	uint64_t *pcs = malloc((cg->nfuncs + cg->ncosts + cg->nsites + 1) *
			       sizeof *pcs);
	bool *placed = functions_placed(cg, o);

	if (!pcs || !placed) {
		free(pcs);
		free(placed);
		return NULL;
	}
	for (size_t f = first_func; f < first_func + cg->objs[o].st->nfuncs; f++) {
		const struct cg_func *fn = &cg->funcs[f];
		size_t first = n;

		if (!placed[f - first_func])
			continue;
		pcs[n++] = callgraph_symbol(cg, f)->addr;
		if (outermost)
			continue;
		for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++)
			pcs[n++] = cg->costs[i].pc;
		/* (the arcs are sorted by caller) */
		for (; a < cg->narcs && cg->arcs[a].caller < f; a++)
			;
		for (; a < cg->narcs && cg->arcs[a].caller == f; a++)
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
	free(placed);
	/* (sorted already, equal addresses need no order among them) */
	for (size_t i = 1; i < n; i++)
		if (pcs[i - 1] > pcs[i]) {
			sort_by_key(pcs, n, sizeof *pcs, address_key,
				    by_addresses);
			break;
		}
	*n_distinct = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || pcs[i] != pcs[i - 1])
			pcs[(*n_distinct)++] = pcs[i];
	return pcs;
}

/* Prepares the line tables of every object for the look-ups of CG: read
 * for these positions alone with ONLY_THESE, else whole (read again if
 * they were read for other positions). */
static int prepare_tables(const struct callgraph *cg,
			  struct object_lines *const *lines, bool outermost,
			  bool only_these)
{
	for (size_t o = 0; o < cg->nobjs; o++) {
		uint64_t *pcs = NULL;
		size_t n = 0;

		if (only_these && !object_lines_read_whole(lines[o]) &&
		    !(pcs = expected_positions(cg, o, outermost, &n)))
			return -1;
		object_lines_expect(lines[o], pcs, n);
	}
	return 0;
}

/* The reading thread: every object's tables, in turn. */
static void *read_lines(void *arg)
{
	struct source_map_lines *rl = arg;

	for (size_t o = 0; rl->rc == 0 && o < rl->nobjs; o++)
		rl->rc = object_lines_read(rl->lines[o], &rl->err);
	return NULL;
}

int source_map_read_lines(struct source_map_lines *rl,
			  const struct callgraph *cg,
			  struct object_lines *const *lines, bool outermost,
			  struct g2c_error *err)
{
	*rl = (struct source_map_lines){ .lines = lines, .nobjs = cg->nobjs };
	if (prepare_tables(cg, lines, outermost, true) < 0)
		return g2c_error_set(err, "out of memory for source lines");
	rl->threaded = pthread_create(&rl->thread, NULL, read_lines, rl) == 0;
	if (!rl->threaded)
		read_lines(rl);	/* (then here and now) */
	return 0;
}

int source_map_lines_wait(struct source_map_lines *rl, struct g2c_error *err)
{
	if (rl->threaded)
		pthread_join(rl->thread, NULL);
	rl->threaded = false;
	if (rl->rc < 0) {
		*err = rl->err;
		rl->rc = 0;
		return -1;
	}
	return 0;
}

int source_map_build(struct source_map *map, const struct callgraph *cg,
		     struct object_lines *const *lines, bool outermost,
		     bool only_these, bool read_ahead,
		     const struct prefix_map *maps, size_t nmaps,
		     struct g2c_error *err)
{
	memset(map, 0, sizeof *map);
	/* (propagation changes none of the positions read ahead for) */
	if (!read_ahead && prepare_tables(cg, lines, outermost, only_these) < 0)
		goto oom;
	map->home = calloc(cg->nfuncs, sizeof *map->home);
	map->cost = calloc(cg->ncosts ? cg->ncosts : 1, sizeof *map->cost);
	map->site = calloc(cg->nsites ? cg->nsites : 1, sizeof *map->site);
	if (!map->home || !map->cost || !map->site)
		goto oom;
	for (size_t f = 0; f < cg->nfuncs; f++) {
		const struct cg_func *fn = &cg->funcs[f];
		size_t o = callgraph_object_of(cg, f);
		struct object_lines *sl = lines[o];
		struct src_pos *home = &map->home[f];
		const struct symtab_func *sym;
		size_t first, end;

		/* Without line information the file is unknown, as callgrind
		 * writes it. */
		*home = (struct src_pos){ CALLGRIND_UNKNOWN_FILE, 0 };
		if (!fn->shown)
			continue;
		/* A function's entry is its own code, never inlined code. */
		sym = callgraph_symbol(cg, f);
		if (position_of(sl, cg, f, sym ? sym->addr : 0, false, home, home, err) < 0)
			goto fail;
		for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++)
			if (position_of(sl, cg, f, cg->costs[i].pc, outermost, home,
				  &map->cost[i], err) < 0)
				goto fail;
		callgraph_sites_of(cg, f, &first, &end);
		for (size_t s = first; s < end; s++)
			if (position_of(sl, cg, f, cg->sites[s].pc, outermost, home,
				  &map->site[s], err) < 0)
				goto fail;
		if (nmaps > 0 && map_positions(map, cg, f, maps, nmaps) < 0)
			goto oom;
	}
	/* No more look-ups follow: the rows (most of the tables' memory)
	 * can go before the writer needs its own. */
	for (size_t o = 0; only_these && o < cg->nobjs; o++)
		object_lines_forget_rows(lines[o]);
	return 0;
oom:
	g2c_error_set(err, "out of memory for source lines");
fail:
	source_map_release(map);
	return -1;
}

static int by_pointers(const void *x, const void *y)
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

static int by_names(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A file of the system's headers or the compiler's (C++'s <vector>,
 * inlined from /usr/include/c++/12/): present wherever the compiler is,
 * so it says nothing about whether the program's own sources are here. */
static bool is_system_file(const char *name)
{
	static const char *const dirs[] = { "/usr/include/", "/usr/lib/gcc/",
					    "/usr/local/include/", "/usr/lib/llvm-",
					    "/usr/share/mingw-w64/include/" };

	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
		if (strncmp(name, dirs[i], strlen(dirs[i])) == 0)
			return true;
	return false;
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
		size_t first, end;

		if (!fn->shown)
			continue;
		add_name(names, &n, map->home[f].file);
		for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++)
			add_name(names, &n, map->cost[i].file);
		callgraph_sites_of(cg, f, &first, &end);
		for (size_t s = first; s < end; s++)
			add_name(names, &n, map->site[s].file);
	}
	/* The names are shared strings: most repeats are the same pointer,
	 * so drop those before comparing the strings. */
	if (n)
		qsort(names, n, sizeof *names, by_pointers);
	n = unique_pointers(names, n);
	if (n)
		qsort(names, n, sizeof *names, by_names);
	for (size_t i = 0; i < n; i++) {
		if ((i > 0 && strcmp(names[i], names[i - 1]) == 0) ||
		    strcmp(names[i], CALLGRIND_UNKNOWN_FILE) == 0 ||
		    is_system_file(names[i]))
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
	for (size_t i = 0; i < map->mapped_index.count; i++)
		free(map->mapped[i].to);
	free(map->mapped);
	hash_index_release(&map->mapped_index);
	memset(map, 0, sizeof *map);
}
