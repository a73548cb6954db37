/* object_lines.h -- one object's source lines: the file and line of the code
 * at an address.
 *
 * Lines come from the DWARF line tables, read directly (dwarf_lines.h), or
 * from libbfd where those cannot be read and for the outermost line of
 * inlined code.  The tables are read on first use, whole or, when the
 * addresses to look up are known beforehand, for those alone.
 *
 * struct object_lines owns one object's line tables; file names handed
 * out stay valid until it is closed (or its object is).
 */
#ifndef GMON2CG_OBJECT_LINES_H
#define GMON2CG_OBJECT_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct g2c_error;
struct object;

/* One object's line information, read on first use. */
struct object_lines {
	struct object *obj;

	/* private: only object_lines.c reads or writes these */
	struct dwarf_lines *table;	/* NULL: ask libbfd */
	bool tried;
	uint64_t *expected;		/* the only addresses to look up, or NULL */
	size_t nexpected;
	bool restricted;		/* table read for EXPECTED alone */
	struct bfd_section *last_section;
	bool no_debug_sections;		/* nothing libbfd reads lines from */
};

void object_lines_init(struct object_lines *sl, struct object *obj);
void object_lines_close(struct object_lines *sl);

/* Sets *FILE and *LINE to the source position of the code at PC: the
 * innermost, or with OUTERMOST that of the outermost call where PC is in
 * inlined code.  *FILE is NULL and *LINE 0 where there is no line
 * information (debug information that names no file counts as none).
 * Returns 0, or -1 with ERR set. */
int object_lines_find(struct object_lines *sl, uint64_t pc, bool outermost,
		      const char **file, unsigned *line, struct g2c_error *err);

/* Sets *FILE to the source file of the code at PC, as the debug
 * information names it, or NULL.  Returns 0, or -1 with ERR set. */
int object_lines_file(struct object_lines *sl, uint64_t pc,
		      const char **file, struct g2c_error *err);

/* Whether SL's tables are read whole: they answer any address, so
 * listing the addresses to come gains nothing. */
bool object_lines_read_whole(const struct object_lines *sl);

/* The look-ups that follow are of PCS[0..N) alone (sorted and distinct;
 * SL takes the array), or with PCS NULL of any address.  Tables read for
 * other addresses are read again; tables read whole are kept. */
void object_lines_expect(struct object_lines *sl, uint64_t *pcs, size_t n);

/* Reads the tables now (for the addresses expected), not at the first
 * look-up: on a thread of the caller's while nothing else uses SL or its
 * object.  Returns 0, or -1 with ERR set. */
int object_lines_read(struct object_lines *sl, struct g2c_error *err);

/* The look-ups expected are done: frees the tables' rows (most of their
 * memory) until the next object_lines_expect reads them again. */
void object_lines_forget_rows(struct object_lines *sl);

#endif
