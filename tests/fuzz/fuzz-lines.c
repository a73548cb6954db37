/* fuzz-lines.c -- libFuzzer harness: the DWARF line-table reader on a
 * .debug_line section.  The first input byte picks the shape of the
 * compilation units that refer to it (address size, byte order, 32- or
 * 64-bit DWARF, unit version); the next two give the offset of a second
 * unit's table; the rest is the section, which also serves as .debug_str
 * and .debug_line_str so that string offsets land somewhere.  Every row's
 * address is looked up, which joins every file's path. */
#include <config.h>

#include <string.h>

#include "diag.h"
#include "lines.h"

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

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	unsigned char info[128], abbrev[16];
	struct dwarf_sections sec;
	struct line_table lt;
	struct g2c_error err;
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
	if (line_table_parse(&lt, &sec, "fuzz", &err) != LINES_READ)
		return 0;
	for (size_t i = 0; i < lt.nrows; i++) {
		const char *file;
		unsigned line;

		if (line_table_lookup(&lt, lt.rows[i].addr, &file, &line, &err) == 1 &&
		    strlen(file) == (size_t)-1)
			__builtin_trap();	/* reads the whole path */
	}
	line_table_release(&lt);
	return 0;
}
