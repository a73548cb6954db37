/* lines.h -- the source line of an address, from the DWARF 5 line tables
 * (.debug_line) alone.
 *
 * Part of the resolver.  libbfd's bfd_find_nearest_line also parses every
 * compilation unit's function and inline trees, which is most of the time
 * on large programs; where only the line table's answer is wanted (the
 * innermost file and line, as the table records it), this reader gives
 * the same answer for a fraction of the cost.  Tables of other DWARF
 * versions, or with forms it does not know, are refused, and the caller
 * uses libbfd instead.
 */
#ifndef GMON2CG_LINES_H
#define GMON2CG_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bfd;

struct line_row {
	uint64_t addr;
	uint32_t file;		/* index in files, or LINE_END: a sequence ends */
	uint32_t line;
};

#define LINE_END UINT32_MAX

struct line_table {
	struct line_row *rows;	/* sorted by address */
	size_t nrows;
	char **files;		/* paths joined as libbfd joins them */
	size_t nfiles;
};

/* Reads all line tables of ABFD.  Returns 0, or -1 when there are none or
 * they cannot be read here (the table is then empty). */
int line_table_read(struct line_table *lt, struct bfd *abfd);

/* The file and line of PC; false where no row covers it. */
bool line_table_lookup(const struct line_table *lt, uint64_t pc,
		       const char **file, unsigned *line);

void line_table_release(struct line_table *lt);

#endif
