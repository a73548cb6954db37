/* srcline.c -- the source file and line of every position written. */
#include <config.h>

#include <bfd.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "lines.h"
#include "object.h"
#include "srcline.h"

#define UNKNOWN_FILE "???"

void source_lines_init(struct source_lines *sl, struct object *obj)
{
	memset(sl, 0, sizeof *sl);
	sl->obj = obj;
}

void source_lines_close(struct source_lines *sl)
{
	if (sl->table)
		line_table_release(sl->table);
	free(sl->table);
	memset(sl, 0, sizeof *sl);
}

/* Reads the line tables on first use; without them libbfd answers. */
static void read_tables(struct source_lines *sl)
{
	if (sl->tried)
		return;
	sl->tried = true;
	sl->table = calloc(1, sizeof *sl->table);
	if (sl->table && line_table_read(sl->table, sl->obj->dbfd) < 0) {
		free(sl->table);
		sl->table = NULL;
	}
}

/* The file and line of PC, innermost or OUTERMOST; *FILE is NULL and
 * *LINE 0 where there is no line information. */
static void find_line(struct source_lines *sl, uint64_t pc, bool outermost,
		      const char **file, unsigned *line)
{
	const char *f = NULL, *func = NULL, *outer_file, *outer_func;
	unsigned l = 0, outer_line;
	bfd *dbfd = sl->obj->dbfd;
	asection *sec;

	*file = NULL;
	*line = 0;
	/* The innermost position is the line table's own answer: read the
	 * tables directly, much faster than libbfd's full parse. */
	read_tables(sl);
	if (!outermost && sl->table) {
		line_table_lookup(sl->table, pc, file, line);
		return;
	}
	sec = object_find_code_section(dbfd, &sl->last_section, pc);
	if (!sec ||
	    !bfd_find_nearest_line(dbfd, sec, sl->obj->syms,
				   pc - bfd_section_vma(sec), &f, &func, &l) ||
	    !f)
		return;
	/* Walk out of inlined frames to the function that owns PC. */
	while (outermost && bfd_find_inliner_info(dbfd, &outer_file,
						  &outer_func, &outer_line)) {
		f = outer_file;
		l = outer_line;
	}
	*file = f;
	*line = l;
}

/* The position of PC in function F, whose home is HOME. */
static struct src_pos position_in(struct source_lines *sl, uint64_t pc,
				  bool outermost, const struct src_pos *home)
{
	struct src_pos pos;

	find_line(sl, pc, outermost, &pos.file, &pos.line);
	if (!pos.file)
		pos.file = home->file;
	return pos;
}

int source_map_build(struct source_map *map, const struct callgraph *cg,
		     struct source_lines *lines, bool outermost,
		     struct g2c_error *err)
{
	size_t none = callgraph_no_symbol(cg);

	map->home = calloc(cg->nfuncs, sizeof *map->home);
	map->cost = calloc(cg->ncosts ? cg->ncosts : 1, sizeof *map->cost);
	map->site = calloc(cg->nsites ? cg->nsites : 1, sizeof *map->site);
	if (!map->home || !map->cost || !map->site) {
		source_map_release(map);
		return g2c_error_set(err, "out of memory for source lines");
	}
	for (size_t f = 0; f < cg->nfuncs; f++) {
		const struct cg_func *fn = &cg->funcs[f];
		size_t o = callgraph_object_of(cg, f);
		struct source_lines *sl = &lines[o];
		struct src_pos *home = &map->home[f];

		*home = (struct src_pos){ sl->obj->path, 0 };
		if (!fn->shown)
			continue;
		if (f == none) {
			home->file = UNKNOWN_FILE;
			for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++)
				map->cost[i] = *home;
			continue;
		}
		/* A function's entry is its own code, never inlined code. */
		*home = position_in(sl, callgraph_symbol(cg, f)->addr, false, home);
		for (size_t i = fn->first_cost; i < fn->first_cost + fn->ncosts; i++)
			map->cost[i] = position_in(sl, cg->costs[i].pc, outermost, home);
		for (size_t a = fn->first_arc; a < fn->first_arc + fn->narcs; a++) {
			const struct cg_arc *arc = &cg->arcs[a];

			for (size_t s = arc->first_site; s < arc->first_site + arc->nsites; s++)
				map->site[s] = position_in(sl, cg->sites[s].pc,
							   outermost, home);
		}
	}
	return 0;
}

void source_map_release(struct source_map *map)
{
	free(map->home);
	free(map->cost);
	free(map->site);
	memset(map, 0, sizeof *map);
}
