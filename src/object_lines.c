/* object_lines.c -- one object's source lines: the file and line of the code
 * at an address. */
#include <config.h>

#include <bfd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dwarf_lines.h"
#include "object.h"
#include "object_lines.h"

/* Whether ABFD has a section libbfd reads source lines from: DWARF
 * (compressed or not) or stabs.  Without one its answers come from the
 * symbol table alone, a linear search per look-up that names no line. */
static bool has_debug_sections(bfd *abfd)
{
	for (asection *sec = abfd->sections; sec; sec = sec->next)
		if (strncmp(sec->name, ".debug", 6) == 0 ||
		    strncmp(sec->name, ".zdebug", 7) == 0 ||
		    strncmp(sec->name, ".stab", 5) == 0)
			return true;
	return false;
}

void object_lines_init(struct object_lines *sl, struct object *obj)
{
	memset(sl, 0, sizeof *sl);
	sl->obj = obj;
	sl->no_debug_sections = !has_debug_sections(obj->dbfd);
}

/* Forgets the line tables read, so that the next look-up reads them
 * again. */
static void drop_tables(struct object_lines *sl)
{
	if (sl->table)
		dwarf_lines_release(sl->table);
	free(sl->table);
	sl->table = NULL;
	sl->tried = false;
	sl->restricted = false;
}

void object_lines_close(struct object_lines *sl)
{
	drop_tables(sl);
	free(sl->expected);
	memset(sl, 0, sizeof *sl);
}

/* Reads the line tables on first use; without them libbfd answers.
 * Returns 0, or -1 with ERR set: out of memory fails the conversion
 * (asked again, the tables are read again), libbfd must not answer
 * instead. */
static int read_tables(struct object_lines *sl, struct g2c_error *err)
{
	int rc;

	if (sl->tried)
		return 0;
	sl->table = calloc(1, sizeof *sl->table);
	rc = sl->table ? dwarf_lines_read(sl->table, sl->obj, sl->expected,
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

/* Whether SEC holds only the linker's stubs for calls through the PLT
 * (.plt, .plt.sec, .plt.got, .iplt). */
static bool is_stub_section(const asection *sec)
{
	const char *name = bfd_section_name(sec);

	return strncmp(name, ".plt", 4) == 0 || strcmp(name, ".iplt") == 0;
}

/* libbfd's file and line of PC, as find_line answers them. */
static void find_line_bfd(struct object_lines *sl, uint64_t pc, bool outermost,
			  const char **file, unsigned *line)
{
	const char *f = NULL, *func = NULL, *outer_file, *outer_func;
	unsigned l = 0, outer_line;
	bfd *dbfd = sl->obj->dbfd;
	asection *sec;

	/* Without a line, libbfd's file is a guess from the symbol table
	 * (an object file's name, such as "libc-start.o"): no source; and
	 * without debug sections, that is all it could answer. */
	if (sl->no_debug_sections)
		return;
	sec = object_find_code_section(dbfd, &sl->last_section, pc);
	/* The linker's call stubs have no line: asking libbfd would parse
	 * every unit's debug information (most of a C++ program's
	 * conversion) to say so. */
	if (!sec || is_stub_section(sec) ||
	    !bfd_find_nearest_line(dbfd, sec, sl->obj->syms,
				   pc - bfd_section_vma(sec), &f, &func, &l) ||
	    !f || l == 0)
		return;
	/* Walk out of inlined frames to the function that owns PC. */
	while (outermost && bfd_find_inliner_info(dbfd, &outer_file,
						  &outer_func, &outer_line)) {
		f = outer_file;
		l = outer_line;
	}
	*file = undouble_comp_dir(f);
	*line = l;
}

/* The file and line of PC, innermost or OUTERMOST; *FILE is NULL and
 * *LINE 0 where there is no line information.  Returns 0, or -1 with ERR
 * set.  (The look-up in the tables read here is apart from libbfd's, whose
 * frame is much larger.) */
static int find_line(struct object_lines *sl, uint64_t pc, bool outermost,
		     const char **file, unsigned *line, struct g2c_error *err)
{
	*file = NULL;
	*line = 0;
	/* The innermost position is the line table's own answer: read the
	 * tables directly, much faster than libbfd's full parse. */
	if (read_tables(sl, err) < 0)
		return -1;
	if (!outermost && sl->table) {
		int found = dwarf_lines_lookup(sl->table, pc, file, line, err);

		/* Where no row covers PC, libbfd still names a file from the
		 * symbol table. */
		if (found != 0)
			return found < 0 ? -1 : 0;
	}
	find_line_bfd(sl, pc, outermost, file, line);
	return 0;
}

int object_lines_find(struct object_lines *sl, uint64_t pc, bool outermost,
		      const char **file, unsigned *line, struct g2c_error *err)
{
	if (find_line(sl, pc, outermost, file, line, err) < 0)
		return -1;
	/* Debug information that names no file (an empty name) is none. */
	if (*file && !**file) {
		*file = NULL;
		*line = 0;
	}
	return 0;
}

int object_lines_file(struct object_lines *sl, uint64_t pc,
		      const char **file, struct g2c_error *err)
{
	unsigned line;

	return object_lines_find(sl, pc, false, file, &line, err);
}

bool object_lines_read_whole(const struct object_lines *sl)
{
	return sl->tried && !sl->restricted;
}

int object_lines_read(struct object_lines *sl, struct g2c_error *err)
{
	return read_tables(sl, err);
}

void object_lines_expect(struct object_lines *sl, uint64_t *pcs, size_t n)
{
	if (sl->restricted)
		drop_tables(sl);
	if (sl->tried) {
		free(pcs);	/* read whole already */
		return;
	}
	free(sl->expected);
	sl->expected = pcs;
	sl->nexpected = n;
}

void object_lines_forget_rows(struct object_lines *sl)
{
	if (sl->table) {
		dwarf_lines_forget_rows(sl->table);
		sl->restricted = true;
	}
	/* (no table answers them any more) */
	free(sl->expected);
	sl->expected = NULL;
	sl->nexpected = 0;
}
