/* dwarf_lines.h -- the source line of an address, from the DWARF line tables
 * (.debug_line, versions 2 to 5) alone.
 *
 * Part of the resolver.  libbfd's bfd_find_nearest_line also parses every
 * compilation unit's function and inline trees, which is most of the time
 * on large programs; where only the line table's answer is wanted (the
 * innermost file and line, as the table records it), this reader gives
 * the same answer, with paths joined as libbfd joins them, for a fraction
 * of the cost.  Tables it cannot read the way libbfd would (unknown forms,
 * VLIW op indexes, malformed headers) are refused as a whole, and the
 * caller uses libbfd instead.  Memory stays linear in the sections' size:
 * paths are joined on first lookup, once per distinct (directory, name).
 */
#ifndef GMON2CG_DWARF_LINES_H
#define GMON2CG_DWARF_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "object.h"

struct g2c_error;

/* The bytes of the debug sections the reader uses; any may be missing
 * (NULL, 0).  They must outlive the table parsed from them. */
struct dwarf_sections {
	const unsigned char *info, *abbrev, *line, *str, *line_str;
	size_t info_size, abbrev_size, line_size, str_size, line_str_size;
	bool big_endian;
	/* DWARF 5's string offsets, which clang's units name their
	 * compilation directory by (DW_FORM_strx*): NULL if absent */
	const unsigned char *str_offsets;
	size_t str_offsets_size;
};

struct line_row {
	uint64_t addr;
	uint32_t file;		/* index in files, or LINE_END: a sequence ends */
	uint32_t line;
};

#define LINE_END UINT32_MAX

struct line_file;		/* private: one file entry, joined on demand */
struct path_intern;		/* private: joined paths by (dirs, name) */

struct dwarf_lines {
	struct line_row *rows;	/* sorted by address */
	size_t nrows;
	size_t last;		/* where the last look-up ended */
	struct line_file *files;
	size_t nfiles;
	const char *name;	/* the object, for messages */
	struct path_intern *paths;
	struct section_bytes owned[5];	/* the sections dwarf_lines_read read */
};

/* What dwarf_lines_read and dwarf_lines_parse return besides -1 (an error,
 * with ERR set: out of memory). */
enum {
	LINES_READ = 0,		/* the table is ready */
	LINES_UNREADABLE = 1,	/* none, or not readable here: use libbfd */
};

/* What a reading of the line tables keeps, and how it reads them. */
struct line_request {
	/* PCS[0..NPCS), sorted and distinct, are the only addresses that
	 * will be looked up: only the rows their answers need are kept (a
	 * small part of a large program's rows).  NULL keeps every row. */
	const uint64_t *pcs;
	size_t npcs;
	/* read the second half of the tables on a thread of its own */
	bool split;
};

/* dwarf_lines_read splits tables of this many bytes or more. */
#define LINES_SPLIT_MIN (1u << 20)

/* Reads all line tables of SEC, those the compilation units of .debug_info
 * refer to, into LT, as REQ asks (NULL: every row, one thread).  NAME
 * (kept, not copied) names the object in error messages.  On
 * LINES_UNREADABLE and -1, LT is left empty. */
int dwarf_lines_parse(struct dwarf_lines *lt, const struct dwarf_sections *sec,
		     const struct line_request *req, const char *name,
		     struct g2c_error *err);

/* dwarf_lines_parse on the sections of OBJ's debug information (its
 * dbfd; decompressed by libbfd, the .zdebug_* names of gcc -gz=zlib-gnu
 * too).  The table must be released before OBJ is closed. */
int dwarf_lines_read(struct dwarf_lines *lt, struct object *obj,
		    const uint64_t *pcs, size_t npcs, struct g2c_error *err);

/* The file and line of PC: 1 with *FILE and *LINE set, 0 where no row
 * covers PC, or -1 with ERR set (out of memory joining the path). */
int dwarf_lines_lookup(struct dwarf_lines *lt, uint64_t pc, const char **file,
		      unsigned *line, struct g2c_error *err);

/* Frees LT's rows once no more look-ups will be made: the file names
 * handed out stay valid until dwarf_lines_release. */
void dwarf_lines_forget_rows(struct dwarf_lines *lt);

void dwarf_lines_release(struct dwarf_lines *lt);

#endif
