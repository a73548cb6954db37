/* fuzz-lines.c -- libFuzzer harness: the DWARF line-table reader on a
 * .debug_line section.  The first input byte picks the shape of the
 * compilation units that refer to it (address size, byte order, 32- or
 * 64-bit DWARF, unit version); the next two give the offset of a second
 * unit's table; the rest is the section, which also serves as .debug_str
 * and .debug_line_str so that string offsets land somewhere.  Every row's
 * address is looked up, which joins every file's path, and so is the
 * next address, in a table read for these addresses alone by two threads
 * (one unit each): both tables must give the same answers. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dwarf_lines.h"

/* Appends V in SIZE bytes. */
static size_t put(unsigned char *p, uint64_t v, unsigned size, bool be)
{
	for (unsigned i = 0; i < size; i++)
		p[i] = (unsigned char)(v >> (be ? 8 * (size - 1 - i) : 8 * i));
	return size;
}

/* One unit of VERSION whose first entry names its line table at
 * LINE_OFFSET and its compilation directory. */
static size_t put_unit(unsigned char *p, unsigned version, unsigned offset_size,
		       unsigned addr_size, bool be, uint64_t line_offset)
{
	size_t n = 0, start;

	if (offset_size == 8)
		n += put(p + n, 0xffffffff, 4, be);
	n += offset_size;
	start = n;
	n += put(p + n, version, 2, be);
	if (version == 5) {
		n += put(p + n, 1, 1, be);
		n += put(p + n, addr_size, 1, be);
		n += put(p + n, 0, offset_size, be);
	} else {
		n += put(p + n, 0, offset_size, be);
		n += put(p + n, addr_size, 1, be);
	}
	p[n++] = 1;	/* abbreviation 1 */
	n += put(p + n, line_offset, offset_size, be);
	memcpy(p + n, "/comp", 6);
	n += 6;
	put(p + start - offset_size, n - start, offset_size, be);
	return n;
}

static int compare_addresses(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	unsigned char info[128], abbrev[16];
	struct dwarf_sections sec;
	struct dwarf_lines lt, only;
	struct g2c_error err;
	uint64_t *pcs;
	size_t npcs = 0;
	unsigned version, offset_size, addr_size;
	size_t ninfo = 0, nabbrev = 0;
	bool be;

	if (len < 3)
		return 0;
	addr_size = data[0] & 1 ? 4 : 8;
	be = data[0] & 2;
	offset_size = data[0] & 4 ? 8 : 4;
	version = 2 + (data[0] >> 3) % 4;
	/* abbreviation 1: a compile unit with stmt_list and comp_dir */
	abbrev[nabbrev++] = 1;
	abbrev[nabbrev++] = 0x11;
	abbrev[nabbrev++] = 0;
	abbrev[nabbrev++] = 0x10;
	abbrev[nabbrev++] = offset_size == 8 ? 0x07 : 0x06;
	abbrev[nabbrev++] = 0x1b;
	abbrev[nabbrev++] = 0x08;
	abbrev[nabbrev++] = 0;
	abbrev[nabbrev++] = 0;
	abbrev[nabbrev++] = 0;
	ninfo += put_unit(info, version, offset_size, addr_size, be, 0);
	ninfo += put_unit(info + ninfo, version, offset_size, addr_size, be,
			  (uint64_t)data[1] << 8 | data[2]);
	sec = (struct dwarf_sections){
		info, abbrev, data + 3, data + 3, data + 3,
		ninfo, nabbrev, len - 3, len - 3, len - 3, be,
	};
	if (dwarf_lines_parse(&lt, &sec, NULL, "fuzz", &err) != LINES_READ)
		return 0;
	/* Every row's address and the one after it: read again for these
	 * alone, the table must answer them as the whole table does. */
	pcs = malloc((2 * lt.nrows + 1) * sizeof *pcs);
	if (!pcs)
		__builtin_trap();
	for (size_t i = 0; i < lt.nrows; i++) {
		pcs[2 * i] = lt.rows[i].addr;
		pcs[2 * i + 1] = lt.rows[i].addr + 1;
	}
	qsort(pcs, 2 * lt.nrows, sizeof *pcs, compare_addresses);
	for (size_t i = 0; i < 2 * lt.nrows; i++)
		if (npcs == 0 || pcs[i] != pcs[npcs - 1])
			pcs[npcs++] = pcs[i];
	if (dwarf_lines_parse(&only, &sec, &(struct line_request){ pcs, npcs, true },
			     "fuzz", &err) != LINES_READ)
		__builtin_trap();
	for (size_t i = 0; i < npcs; i++) {
		const char *file = NULL, *file2 = NULL;
		unsigned line = 0, line2 = 0;
		int found = dwarf_lines_lookup(&lt, pcs[i], &file, &line, &err);

		if (found == 1 && strlen(file) == (size_t)-1)
			__builtin_trap();	/* reads the whole path */
		if (dwarf_lines_lookup(&only, pcs[i], &file2, &line2, &err) != found ||
		    (found == 1 && (strcmp(file, file2) != 0 || line != line2)))
			__builtin_trap();
	}
	free(pcs);
	dwarf_lines_release(&only);
	dwarf_lines_release(&lt);
	return 0;
}
