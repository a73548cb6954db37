/* dwarf_lines.c -- the source line of an address, from the DWARF line tables. */
#include <config.h>

#include <bfd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dwarf_lines.h"
#include "hashindex.h"
#include "util.h"

/* DWARF constants used here (DWARF 5, sections 6.2 and 7). */
enum {
	DW_LNS_copy = 1, DW_LNS_advance_pc, DW_LNS_advance_line, DW_LNS_set_file,
	DW_LNS_set_column, DW_LNS_negate_stmt, DW_LNS_set_basic_block,
	DW_LNS_const_add_pc, DW_LNS_fixed_advance_pc,
	DW_LNE_end_sequence = 1, DW_LNE_set_address, DW_LNE_define_file,
	DW_LNCT_path = 1, DW_LNCT_directory_index = 2,
	DW_UT_compile = 1, DW_UT_partial = 3,
	DW_AT_stmt_list = 0x10, DW_AT_comp_dir = 0x1b,
	DW_AT_str_offsets_base = 0x72,
	DW_FORM_addr = 0x01, DW_FORM_block2 = 0x03, DW_FORM_block4,
	DW_FORM_data2, DW_FORM_data4, DW_FORM_data8, DW_FORM_string,
	DW_FORM_block, DW_FORM_block1, DW_FORM_data1, DW_FORM_flag,
	DW_FORM_sdata, DW_FORM_strp, DW_FORM_udata, DW_FORM_ref_addr,
	DW_FORM_ref1, DW_FORM_ref2, DW_FORM_ref4, DW_FORM_ref8,
	DW_FORM_ref_udata, DW_FORM_indirect, DW_FORM_sec_offset,
	DW_FORM_exprloc, DW_FORM_flag_present, DW_FORM_strx, DW_FORM_addrx,
	DW_FORM_ref_sup4, DW_FORM_strp_sup, DW_FORM_data16, DW_FORM_line_strp,
	DW_FORM_ref_sig8, DW_FORM_implicit_const, DW_FORM_loclistx,
	DW_FORM_rnglistx, DW_FORM_ref_sup8, DW_FORM_strx1, DW_FORM_strx2,
	DW_FORM_strx3, DW_FORM_strx4, DW_FORM_addrx1, DW_FORM_addrx2,
	DW_FORM_addrx3, DW_FORM_addrx4,
	DW_FORM_GNU_addr_index = 0x1f01, DW_FORM_GNU_str_index,
	DW_FORM_GNU_ref_alt = 0x1f20, DW_FORM_GNU_strp_alt,
};

/* How each step ends: READ and UNREADABLE as in dwarf_lines.h, or NOMEM. */
enum status { OK = LINES_READ, REFUSE = LINES_UNREADABLE, NOMEM = -1 };

/* A bounded cursor; any read past the end sets FAILED and yields 0. */
struct cursor {
	const unsigned char *p, *end;
	bool big_endian, failed;
};

static size_t left(const struct cursor *c)
{
	return (size_t)(c->end - c->p);
}

static void skip(struct cursor *c, uint64_t n)
{
	if (left(c) < n) {
		c->failed = true;
		c->p = c->end;
		return;
	}
	c->p += n;
}

/* An unsigned number of SIZE bytes, 1 to 8. */
static inline uint64_t read_fixed(struct cursor *c, unsigned size)
{
	uint64_t v = 0;

	if (left(c) < size) {
		skip(c, size);
		return 0;
	}
	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t)c->p[i] << (c->big_endian ? 8 * (size - 1 - i) : 8 * i);
	c->p += size;
	return v;
}

static inline uint64_t read_leb(struct cursor *c, bool is_signed)
{
	uint64_t v = 0;
	unsigned shift = 0;

	/* most operands of a line program fit in one byte */
	if (c->p < c->end && !(*c->p & 0x80)) {
		unsigned char b = *c->p++;

		return is_signed && (b & 0x40) ? (uint64_t)b | ~(uint64_t)0x7f : b;
	}
	while (c->p < c->end) {
		unsigned char b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (is_signed && shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			return v;
		}
	}
	c->failed = true;
	return 0;
}

static uint64_t read_uleb(struct cursor *c)
{
	return read_leb(c, false);
}

static const char *read_cstring(struct cursor *c)
{
	const unsigned char *nul = memchr(c->p, 0, left(c));
	const char *s = (const char *)c->p;

	if (!nul) {
		skip(c, left(c) + 1);
		return NULL;
	}
	c->p = nul + 1;
	return s;
}

/* The NUL-terminated string at OFFSET of a string section, or NULL. */
static const char *string_at(const unsigned char *sec, size_t size,
			     uint64_t offset)
{
	if (!sec || offset >= size || !memchr(sec + offset, 0, size - offset))
		return NULL;
	return (const char *)sec + offset;
}

/* The sizes a unit's header fixes for the forms of its attributes. */
struct unit_shape {
	unsigned version, offset_size, addr_size;
};

/* One attribute value: a resolved string, or a number. */
struct value {
	const char *str;
	uint64_t num;
};

/* Reads or skips one value of FORM.  Strings this reader cannot resolve
 * (indexed or in a supplementary file) leave STR NULL; returns false on
 * a form it does not know, whose size it cannot tell. */
static bool read_value(struct cursor *c, uint64_t form, int64_t implicit,
		       const struct unit_shape *u,
		       const struct dwarf_sections *s, struct value *v)
{
	v->str = NULL;
	v->num = 0;
	switch (form) {
	case DW_FORM_string:
		v->str = read_cstring(c);
		return true;
	case DW_FORM_strp:
		v->str = string_at(s->str, s->str_size, read_fixed(c, u->offset_size));
		return true;
	case DW_FORM_line_strp:
		v->str = string_at(s->line_str, s->line_str_size,
				   read_fixed(c, u->offset_size));
		return true;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag:
	case DW_FORM_strx1: case DW_FORM_addrx1:
		v->num = read_fixed(c, 1);
		return true;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2:
	case DW_FORM_addrx2:
		v->num = read_fixed(c, 2);
		return true;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		v->num = read_fixed(c, 3);
		return true;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_ref_sup4:
	case DW_FORM_strx4: case DW_FORM_addrx4:
		v->num = read_fixed(c, 4);
		return true;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		v->num = read_fixed(c, 8);
		return true;
	case DW_FORM_data16:
		skip(c, 16);
		return true;
	case DW_FORM_udata: case DW_FORM_ref_udata: case DW_FORM_strx:
	case DW_FORM_addrx: case DW_FORM_loclistx: case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index: case DW_FORM_GNU_str_index:
		v->num = read_uleb(c);
		return true;
	case DW_FORM_sdata:
		v->num = read_leb(c, true);
		return true;
	case DW_FORM_addr:
		v->num = read_fixed(c, u->addr_size);
		return true;
	case DW_FORM_ref_addr:
		/* DWARF 2 gave it the size of an address */
		v->num = read_fixed(c, u->version == 2 ? u->addr_size : u->offset_size);
		return true;
	case DW_FORM_sec_offset: case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt:
	case DW_FORM_GNU_strp_alt:
		v->num = read_fixed(c, u->offset_size);
		return true;
	case DW_FORM_block1:
		skip(c, read_fixed(c, 1));
		return true;
	case DW_FORM_block2:
		skip(c, read_fixed(c, 2));
		return true;
	case DW_FORM_block4:
		skip(c, read_fixed(c, 4));
		return true;
	case DW_FORM_block: case DW_FORM_exprloc:
		skip(c, read_uleb(c));
		return true;
	case DW_FORM_flag_present:
		return true;
	case DW_FORM_implicit_const:
		v->num = (uint64_t)implicit;
		return true;
	default:
		return false;
	}
}

/* Whether FORM names a string by its index in the unit's string offsets. */
static bool is_indexed_string(uint64_t form)
{
	return form == DW_FORM_strx || form == DW_FORM_strx1 ||
	       form == DW_FORM_strx2 || form == DW_FORM_strx3 ||
	       form == DW_FORM_strx4;
}

/* The string of index INDEX in the string offsets from BASE (a unit's
 * DW_AT_str_offsets_base), or NULL. */
static const char *indexed_string(const struct dwarf_sections *s,
				  const struct unit_shape *u, uint64_t base,
				  uint64_t index)
{
	struct cursor c;
	uint64_t offset;

	if (!s->str_offsets || base > s->str_offsets_size ||
	    index > (s->str_offsets_size - base) / u->offset_size)
		return NULL;
	c = (struct cursor){ s->str_offsets, s->str_offsets + s->str_offsets_size,
			     s->big_endian, false };
	skip(&c, base + index * u->offset_size);
	offset = read_fixed(&c, u->offset_size);
	return c.failed ? NULL : string_at(s->str, s->str_size, offset);
}

/* What a compilation unit says of its line table. */
struct unit_ref {
	uint64_t line_offset;	/* DW_AT_stmt_list */
	const char *comp_dir;	/* DW_AT_comp_dir, or NULL */
	unsigned addr_size;
};

/* The line table being read: its compilation directory, directories
 * and version, and where its files begin in the table. */
struct unit_state {
	const char *comp_dir;
	const char **dirs;
	size_t ndirs, dirs_cap, first_file;
	unsigned version;
};

struct reader {
	struct dwarf_lines *lt;
	const struct dwarf_sections *sec;
	struct unit_ref *units;
	size_t nunits, units_cap, rows_cap, files_cap;
	struct unit_state unit;
	uint64_t abbrev_budget;	/* abbreviation bytes still to scan */
	/* the addresses that will be looked up (NULL: any) */
	const uint64_t *pcs;
	size_t npcs;
	/* the last row of the sequence being read, held back until the
	 * next row shows which addresses it covers, and the first address
	 * to be looked up at or above it (UINT64_MAX: none) */
	struct line_row held;
	uint64_t next_pc;
	size_t next_index;	/* of next_pc in pcs */
	bool holding;
};

/* The attribute list of abbreviation CODE in the table at OFFSET. */
static enum status find_abbrev(struct reader *r, uint64_t offset, uint64_t code,
			       struct cursor *attrs)
{
	struct cursor c = { r->sec->abbrev, r->sec->abbrev + r->sec->abbrev_size,
			    false, false };
	const unsigned char *entry, *start;

	if (offset >= r->sec->abbrev_size)
		return REFUSE;
	c.p += offset;
	while (!c.failed) {
		uint64_t this_code, name, form;

		entry = c.p;
		if ((this_code = read_uleb(&c)) == 0)
			return REFUSE;
		read_uleb(&c);	/* tag */
		skip(&c, 1);	/* children */
		start = c.p;
		do {
			name = read_uleb(&c);
			form = read_uleb(&c);
			if (form == DW_FORM_implicit_const)
				read_leb(&c, true);
		} while ((name || form) && !c.failed);
		/* Shared tables make scanning quadratic in hostile files;
		 * past a budget linear in the input, leave them to libbfd. */
		if ((uint64_t)(c.p - entry) > r->abbrev_budget)
			return REFUSE;
		r->abbrev_budget -= (uint64_t)(c.p - entry);
		if (this_code == code && !c.failed) {
			*attrs = (struct cursor){ start, c.p, false, false };
			return OK;
		}
	}
	return REFUSE;
}

/* Reads the first entry of the unit at C (its header read into U),
 * noting its line table. */
static enum status read_unit_die(struct reader *r, struct cursor *c,
				 const struct unit_shape *u, uint64_t abbrev_offset)
{
	struct unit_ref ref = { UINT64_MAX, NULL, u->addr_size };
	struct cursor attrs;
	uint64_t code = read_uleb(c);
	/* (the base of an indexed name may come after it) */
	uint64_t comp_dir_index = UINT64_MAX, str_offsets_base = UINT64_MAX;
	enum status st;

	if (c->failed || code == 0)
		return OK;	/* an empty unit: no line table */
	if ((st = find_abbrev(r, abbrev_offset, code, &attrs)) != OK)
		return st;
	for (;;) {
		uint64_t name = read_uleb(&attrs), form = read_uleb(&attrs);
		int64_t implicit = 0;
		struct value v;

		if (name == 0 && form == 0)
			break;
		if (form == DW_FORM_implicit_const)
			implicit = (int64_t)read_leb(&attrs, true);
		if (form == DW_FORM_indirect)
			form = read_uleb(c);
		if (attrs.failed || !read_value(c, form, implicit, u, r->sec, &v) ||
		    c->failed)
			return REFUSE;
		if (name == DW_AT_stmt_list) {
			if (form != DW_FORM_sec_offset && form != DW_FORM_data4 &&
			    form != DW_FORM_data8)
				return REFUSE;
			ref.line_offset = v.num;
		} else if (name == DW_AT_comp_dir && is_indexed_string(form)) {
			comp_dir_index = v.num;
		} else if (name == DW_AT_comp_dir) {
			if (!v.str)
				return REFUSE;
			ref.comp_dir = v.str;
		} else if (name == DW_AT_str_offsets_base) {
			str_offsets_base = v.num;
		}
	}
	if (comp_dir_index != UINT64_MAX &&
	    !(ref.comp_dir = indexed_string(r->sec, u, str_offsets_base,
					    comp_dir_index)))
		return REFUSE;
	if (ref.line_offset == UINT64_MAX)
		return OK;
	struct unit_ref *units = array_grow(r->units, &r->units_cap,
					    r->nunits + 1, sizeof *units);

	if (!units)
		return NOMEM;
	r->units = units;
	units[r->nunits++] = ref;
	return OK;
}

/* The initial length of a unit: sets C's end to the unit's end and
 * *OFFSET_SIZE to 4 or 8 (32- or 64-bit DWARF). */
static bool read_unit_length(struct cursor *c, unsigned *offset_size)
{
	uint64_t length = read_fixed(c, 4);

	*offset_size = 4;
	if (length == 0xffffffff) {
		length = read_fixed(c, 8);
		*offset_size = 8;
	} else if (length >= 0xfffffff0) {
		return false;	/* reserved */
	}
	if (c->failed || length == 0 || length > left(c))
		return false;
	c->end = c->p + length;
	return true;
}

/* Collects the line table offset and compilation directory of every
 * compilation unit in .debug_info. */
static enum status read_units(struct reader *r)
{
	const struct dwarf_sections *s = r->sec;
	struct cursor all = { s->info, s->info + s->info_size, s->big_endian, false };

	while (all.p < all.end) {
		struct cursor c = all;
		struct unit_shape u;
		uint64_t abbrev_offset;
		unsigned type = DW_UT_compile;
		enum status st;

		if (!read_unit_length(&c, &u.offset_size))
			return REFUSE;
		all.p = c.end;
		u.version = (unsigned)read_fixed(&c, 2);
		if (u.version < 2 || u.version > 5)
			return REFUSE;
		if (u.version == 5) {
			type = (unsigned)read_fixed(&c, 1);
			u.addr_size = (unsigned)read_fixed(&c, 1);
			abbrev_offset = read_fixed(&c, u.offset_size);
		} else {
			abbrev_offset = read_fixed(&c, u.offset_size);
			u.addr_size = (unsigned)read_fixed(&c, 1);
		}
		if (c.failed || u.addr_size == 0 || u.addr_size > 8)
			return REFUSE;
		/* type, skeleton and split units carry no line table here */
		if (type != DW_UT_compile && type != DW_UT_partial)
			continue;
		if ((st = read_unit_die(r, &c, &u, abbrev_offset)) != OK)
			return st;
	}
	return OK;
}

/* Reads one entry-format list and the entries it describes (DWARF 5),
 * passing the path and directory index of each to ADD. */
static enum status read_entries(struct reader *r, struct cursor *c,
				const struct unit_shape *u,
				bool (*add)(struct reader *, const char *, uint64_t,
					    enum status *))
{
	unsigned nformats = (unsigned)read_fixed(c, 1);
	uint64_t types[16], forms[16], count;
	enum status st = OK;

	if (nformats > 16)
		return REFUSE;
	for (unsigned i = 0; i < nformats; i++) {
		types[i] = read_uleb(c);
		forms[i] = read_uleb(c);
	}
	count = read_uleb(c);
	if (c->failed)
		return REFUSE;
	for (uint64_t e = 0; e < count; e++) {
		const char *path = NULL;
		uint64_t dir = 0;

		for (unsigned i = 0; i < nformats; i++) {
			struct value v;

			if (!read_value(c, forms[i], 0, u, r->sec, &v) || c->failed ||
			    forms[i] == DW_FORM_implicit_const ||
			    forms[i] == DW_FORM_indirect)
				return REFUSE;
			if (types[i] == DW_LNCT_path)
				path = v.str;
			else if (types[i] == DW_LNCT_directory_index)
				dir = v.num;
		}
		if (!path || !add(r, path, dir, &st))
			return st;
	}
	return OK;
}

static bool is_absolute(const char *path)
{
	return path[0] == '/';
}

/* One file entry: its path is HEAD "/" MIDDLE "/" NAME, with the parts
 * that are NULL left out, as libbfd's concat_filename joins it. */
struct line_file {
	const char *head, *middle, *name;
	const char *path;	/* joined on first lookup */
};

static bool add_dir(struct reader *r, const char *path, uint64_t unused,
		    enum status *st)
{
	struct unit_state *u = &r->unit;
	const char **dirs = array_grow(u->dirs, &u->dirs_cap, u->ndirs + 1,
				       sizeof *dirs);

	(void)unused;
	if (!dirs) {
		*st = NOMEM;
		return false;
	}
	u->dirs = dirs;
	dirs[u->ndirs++] = path;
	return true;
}

static bool add_file(struct reader *r, const char *name, uint64_t dir,
		     enum status *st)
{
	struct dwarf_lines *lt = r->lt;
	struct line_file *files, *f;
	const char *sub = NULL;

	if (lt->nfiles >= LINE_END - 1) {
		*st = REFUSE;
		return false;
	}
	files = array_grow(lt->files, &r->files_cap, lt->nfiles + 1, sizeof *files);
	if (!files) {
		*st = NOMEM;
		return false;
	}
	lt->files = files;
	f = &files[lt->nfiles++];
	*f = (struct line_file){ NULL, NULL, name, NULL };
	if (is_absolute(name))
		return true;
	/* Before DWARF 5, directory 0 is the compilation directory and the
	 * list starts at 1. */
	if (r->unit.version < 5)
		dir = dir - 1;	/* 0 wraps past every index: no directory */
	if (dir < r->unit.ndirs)
		sub = r->unit.dirs[dir];
	/* In DWARF 5 entry 0 is the compilation directory itself, so a
	 * relative one (./src under -ffile-prefix-map=$PWD=.) is not joined
	 * to DW_AT_comp_dir again: that would name ./src/./src/x.c. */
	if ((sub && is_absolute(sub)) || (r->unit.version >= 5 && dir == 0) ||
	    !r->unit.comp_dir) {
		f->head = sub;
	} else {
		f->head = r->unit.comp_dir;
		f->middle = sub;
	}
	return true;
}

static inline bool store_row(struct reader *r, struct line_row row)
{
	struct dwarf_lines *lt = r->lt;
	struct line_row *rows;

	if (lt->nrows == r->rows_cap) {
		rows = array_grow(lt->rows, &r->rows_cap, lt->nrows + 1, sizeof *rows);
		if (!rows)
			return false;
		lt->rows = rows;
	}
	lt->rows[lt->nrows++] = row;
	return true;
}

/* Holds ROW back as the sequence's last, noting the first address to be
 * looked up at or above it. */
static void hold(struct reader *r, struct line_row row)
{
	size_t i = row.addr == 0 ? 0 :
		search_first(r->pcs, r->npcs, sizeof *r->pcs, key_at_most,
			     &(uint64_t){ row.addr - 1 }, r->next_index);

	r->next_index = i;
	r->held = row;
	r->next_pc = i < r->npcs ? r->pcs[i] : UINT64_MAX;
	r->holding = true;
}

/* A row answers the addresses from its own up to the next row of its
 * sequence (a later row would be a later answer), so only rows whose
 * cover holds an address that will be looked up are stored: the look-ups
 * find what they would in the whole table.  So are every sequence end
 * and, where a sequence goes back in address, the row before.  These are
 * the cases the line program's loop does not settle itself (see
 * run_program). */
static bool add_row(struct reader *r, uint64_t addr, uint32_t file,
		    uint32_t line)
{
	if (r->holding) {
		r->holding = false;
		if ((!r->pcs || addr < r->held.addr || r->next_pc < addr) &&
		    !store_row(r, r->held))
			return false;
	}
	if (file == LINE_END)
		return store_row(r, (struct line_row){ addr, file, line });
	hold(r, (struct line_row){ addr, file, line });
	return true;
}

/* Ends the sequence at ADDR. */
static bool end_sequence(struct reader *r, uint64_t addr)
{
	/* a row at the sequence's end covers nothing */
	if (r->holding && addr == r->held.addr) {
		r->holding = false;
		return store_row(r, (struct line_row){ addr, LINE_END, 0 });
	}
	return add_row(r, addr, LINE_END, 0);
}

/* What the line program loop does with an opcode: makes a row (special
 * opcodes and DW_LNS_copy), skips that many operands (0 to 255, those
 * opcodes that have only operands to skip, such as set_column and
 * negate_stmt), or runs it (run_opcode). */
enum { OPCODE_ROW = 256, OPCODE_RUN };

/* The header fields the line program uses. */
struct program_shape {
	unsigned min_insn, line_range, opcode_base, addr_size;
	int line_base;
	const unsigned char *lengths;	/* of standard opcodes 1 .. base-1 */
	size_t nfiles;
	/* what each row-making opcode adds to the address and line
	 * registers */
	uint64_t special_addr[256];
	uint32_t special_line[256];
	uint16_t kind[256];	/* OPCODE_ROW, OPCODE_RUN or operands to skip */
};

/* Whether standard opcode OP only has operands to skip (set_column,
 * negate_stmt, ... and those of later versions). */
static bool only_skipped(unsigned op)
{
	return op == DW_LNS_set_column || op == DW_LNS_negate_stmt ||
	       op == DW_LNS_set_basic_block || op > DW_LNS_fixed_advance_pc;
}

static void compute_opcodes(struct program_shape *ps)
{
	ps->kind[0] = OPCODE_RUN;
	for (unsigned op = 1; op < ps->opcode_base; op++) {
		ps->kind[op] = op == DW_LNS_copy ? OPCODE_ROW :
			       only_skipped(op) ? ps->lengths[op - 1] : OPCODE_RUN;
		ps->special_addr[op] = 0;
		ps->special_line[op] = 0;
	}
	for (unsigned op = ps->opcode_base; op < 256; op++) {
		unsigned adj = op - ps->opcode_base;

		ps->kind[op] = OPCODE_ROW;
		ps->special_addr[op] = (uint64_t)(adj / ps->line_range) * ps->min_insn;
		ps->special_line[op] = (uint32_t)(ps->line_base + (int)(adj % ps->line_range));
	}
}

/* The row file of file register FILE: an index in the table's files, or
 * LINE_END for an index outside the unit's list (which libbfd names
 * "<unknown>"; such tables are left to libbfd). */
static uint32_t row_file(const struct reader *r, const struct program_shape *ps,
			 uint64_t file)
{
	uint64_t index = r->unit.version < 5 ? file - 1 : file;

	return index < ps->nfiles ? (uint32_t)(r->unit.first_file + index) : LINE_END;
}

/* The registers of a line program that rows are made of. */
struct registers {
	uint64_t addr;
	uint32_t file, line;
};

/* Runs the standard or extended opcode OP (not a special one, nor
 * DW_LNS_copy, nor one that only has operands to skip) with its operands
 * at C. */
static enum status run_opcode(struct reader *r, struct cursor *c,
			      const struct program_shape *ps, unsigned op,
			      struct registers *reg)
{
	switch (op) {
	case 0: {
		uint64_t len = read_uleb(c);
		struct cursor ext = *c;
		unsigned sub;

		if (c->failed || len == 0 || len > left(c))
			return REFUSE;
		ext.end = c->p + len;
		c->p = ext.end;
		sub = (unsigned)read_fixed(&ext, 1);
		if (sub == DW_LNE_end_sequence) {
			if (!end_sequence(r, reg->addr))
				return NOMEM;
			*reg = (struct registers){ 0, row_file(r, ps, 1), 1 };
		} else if (sub == DW_LNE_set_address) {
			/* libbfd reads an address of the unit's size */
			if (len - 1 != ps->addr_size)
				return REFUSE;
			reg->addr = read_fixed(&ext, ps->addr_size);
		} else if (sub == DW_LNE_define_file) {
			return REFUSE;
		}
		break;
	}
	case DW_LNS_advance_pc:
		reg->addr += read_uleb(c) * ps->min_insn;
		break;
	case DW_LNS_advance_line:
		reg->line += (uint32_t)read_leb(c, true);
		break;
	case DW_LNS_set_file:
		reg->file = row_file(r, ps, read_uleb(c));
		break;
	case DW_LNS_const_add_pc:
		reg->addr += ps->special_addr[255];
		break;
	case DW_LNS_fixed_advance_pc:
		reg->addr += read_fixed(c, 2);
		break;
	}
	return c->failed ? REFUSE : OK;
}

/* Runs one unit's line program from C to its end.  Every step consumes
 * at least one byte, so the program ends; a read past the end refuses
 * the table.  Most opcodes make a row or skip a column number: those
 * are run here, with the registers in local variables, and so are the
 * rows that only move the held row (see add_row). */
static enum status run_program(struct reader *r, struct cursor *c,
			       const struct program_shape *ps)
{
	const unsigned char *p = c->p, *end = c->end;
	struct registers reg = { 0, row_file(r, ps, 1), 1 };
	enum status st;

	while (p < end) {
		unsigned op = *p++, kind = ps->kind[op];

		if (kind < OPCODE_ROW) {
			for (; kind > 0; kind--)
				do {
					if (p == end)
						return REFUSE;
				} while (*p++ & 0x80);
			continue;
		}
		if (kind == OPCODE_RUN) {
			c->p = p;
			if ((st = run_opcode(r, c, ps, op, &reg)) != OK)
				return st;
			p = c->p;
			continue;
		}
		/* a row; the line register wraps as libbfd's unsigned one does */
		reg.addr += ps->special_addr[op];
		reg.line += ps->special_line[op];
		if (reg.file == LINE_END)
			return REFUSE;
		if (r->holding) {
			/* libbfd keeps only the last row at one address of a
			 * sequence */
			if (reg.addr == r->held.addr) {
				r->held.file = reg.file;
				r->held.line = reg.line;
				continue;
			}
			if (reg.addr > r->held.addr) {
				/* a row that answers as the held row does adds
				 * nothing: the held row covers its addresses
				 * too (the answers change only where another
				 * sequence overlaps this one, within the span
				 * the row would have reclaimed: code the linker
				 * discarded) */
				if (reg.file == r->held.file && reg.line == r->held.line)
					continue;
				/* the held row covers no address to be looked up */
				if (r->pcs && reg.addr <= r->next_pc) {
					r->held = (struct line_row){ reg.addr, reg.file,
								     reg.line };
					continue;
				}
			}
		}
		if (!add_row(r, reg.addr, reg.file, reg.line))
			return NOMEM;
	}
	c->p = p;
	/* a sequence without its end: the held row covers what follows */
	if (r->holding) {
		r->holding = false;
		if (!store_row(r, r->held))
			return NOMEM;
	}
	return OK;
}

/* The directory and file lists of DWARF 2 to 4: NUL-terminated strings,
 * each list ended by an empty one. */
static enum status read_old_lists(struct reader *r, struct cursor *c)
{
	const char *s;
	enum status st = OK;

	while ((s = read_cstring(c)) && *s)
		if (!add_dir(r, s, 0, &st))
			return st;
	while ((s = read_cstring(c)) && *s) {
		uint64_t dir = read_uleb(c);

		read_uleb(c);	/* modification time */
		read_uleb(c);	/* size */
		if (c->failed || !add_file(r, s, dir, &st))
			return c->failed ? REFUSE : st;
	}
	return c->failed ? REFUSE : OK;
}

/* Reads the line table of unit REF. */
static enum status read_line_unit(struct reader *r, const struct unit_ref *ref)
{
	const struct dwarf_sections *s = r->sec;
	struct cursor c = { s->line, s->line + s->line_size, s->big_endian, false };
	struct program_shape ps = { .addr_size = ref->addr_size };
	struct unit_shape u = { .addr_size = ref->addr_size };
	uint64_t header_length;
	const unsigned char *program;
	enum status st;

	if (ref->line_offset >= s->line_size)
		return REFUSE;
	c.p += ref->line_offset;
	if (!read_unit_length(&c, &u.offset_size))
		return REFUSE;
	u.version = (unsigned)read_fixed(&c, 2);
	if (u.version < 2 || u.version > 5)
		return REFUSE;
	if (u.version == 5) {
		/* the line table's own address size must be the unit's */
		if (read_fixed(&c, 1) != ref->addr_size || read_fixed(&c, 1) != 0)
			return REFUSE;
	}
	header_length = read_fixed(&c, u.offset_size);
	if (c.failed || header_length > left(&c))
		return REFUSE;
	program = c.p + header_length;
	ps.min_insn = (unsigned)read_fixed(&c, 1);
	/* several operations per instruction (VLIW) need op_index */
	if (u.version >= 4 && read_fixed(&c, 1) != 1)
		return REFUSE;
	read_fixed(&c, 1);	/* default is_stmt */
	ps.line_base = (int8_t)read_fixed(&c, 1);
	ps.line_range = (unsigned)read_fixed(&c, 1);
	ps.opcode_base = (unsigned)read_fixed(&c, 1);
	ps.lengths = c.p;
	if (c.failed || ps.line_range == 0 || ps.opcode_base == 0)
		return REFUSE;
	skip(&c, ps.opcode_base - 1);
	r->unit.comp_dir = ref->comp_dir;
	r->unit.ndirs = 0;
	r->unit.first_file = r->lt->nfiles;
	r->unit.version = u.version;
	if (u.version < 5) {
		st = read_old_lists(r, &c);
	} else {
		st = read_entries(r, &c, &u, add_dir);
		if (st == OK)
			st = read_entries(r, &c, &u, add_file);
	}
	if (st != OK || c.failed || c.p > program)
		return st != OK ? st : REFUSE;
	ps.nfiles = r->lt->nfiles - r->unit.first_file;
	compute_opcodes(&ps);
	c.p = program;
	return run_program(r, &c, &ps);
}

static uint64_t unit_key(const void *x)
{
	return ((const struct unit_ref *)x)->line_offset;
}

static int by_units(const void *x, const void *y)
{
	const struct unit_ref *a = x, *b = y;

	return (a->line_offset > b->line_offset) - (a->line_offset < b->line_offset);
}

/* A total order, so that the sort is deterministic: by address, a
 * sequence's end before the start of the next one, then by position. */
static int by_rows(const void *x, const void *y)
{
	const struct line_row *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if ((a->file == LINE_END) != (b->file == LINE_END))
		return a->file == LINE_END ? -1 : 1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

static uint64_t row_key(const void *x)
{
	return ((const struct line_row *)x)->addr;
}

static bool rows_sorted(const struct dwarf_lines *lt)
{
	for (size_t i = 1; i < lt->nrows; i++)
		if (by_rows(&lt->rows[i - 1], &lt->rows[i]) > 0)
			return false;
	return true;
}

static int finish(struct dwarf_lines *lt, enum status st, struct g2c_error *err)
{
	if (st == OK && lt->nrows == 0)
		st = REFUSE;
	if (st != OK) {
		const char *name = lt->name;

		dwarf_lines_release(lt);
		if (st == NOMEM)
			return g2c_error_set(err, "%s: out of memory reading line tables",
					     name);
		return LINES_UNREADABLE;
	}
	return LINES_READ;
}

/* S with an empty buffer for every absent section, so that cursors
 * never point into nothing. */
static struct dwarf_sections present_sections(const struct dwarf_sections *s)
{
	static const unsigned char none[1];
	struct dwarf_sections p = *s;

	if (!p.info)
		p.info = none, p.info_size = 0;
	if (!p.abbrev)
		p.abbrev = none, p.abbrev_size = 0;
	if (!p.line)
		p.line = none, p.line_size = 0;
	if (!p.str)
		p.str = none, p.str_size = 0;
	if (!p.line_str)
		p.line_str = none, p.line_str_size = 0;
	return p;
}

/* Reads the tables of units FROM to TO (sorted by table offset), each
 * table once however many units share it. */
static enum status read_line_units(struct reader *r, size_t from, size_t to)
{
	enum status st = OK;

	for (size_t i = from; st == OK && i < to; i++)
		if (i == 0 || r->units[i].line_offset != r->units[i - 1].line_offset)
			st = read_line_unit(r, &r->units[i]);
	free(r->unit.dirs);
	r->unit.dirs = NULL;
	return st;
}

/* The second half of the units, read into a table of its own. */
struct half {
	struct reader r;
	struct dwarf_lines lt;
	size_t from, to;
	enum status st;
};

static void *read_half(void *arg)
{
	struct half *h = arg;

	h->st = read_line_units(&h->r, h->from, h->to);
	return NULL;
}

/* Appends H's files and rows to LT, whose files come first. */
static enum status join_half(struct dwarf_lines *lt, struct half *h)
{
	size_t nfiles = lt->nfiles;
	struct line_file *files;
	struct line_row *rows;

	if (h->lt.nfiles > LINE_END - 1 - nfiles)
		return REFUSE;
	files = realloc(lt->files, (nfiles + h->lt.nfiles + 1) * sizeof *files);
	if (files)
		lt->files = files;
	rows = realloc(lt->rows, (lt->nrows + h->lt.nrows + 1) * sizeof *rows);
	if (rows)
		lt->rows = rows;
	if (!files || !rows)
		return NOMEM;
	memcpy(files + nfiles, h->lt.files, h->lt.nfiles * sizeof *files);
	lt->nfiles += h->lt.nfiles;
	for (size_t i = 0; i < h->lt.nrows; i++) {
		struct line_row row = h->lt.rows[i];

		if (row.file != LINE_END)
			row.file += (uint32_t)nfiles;
		rows[lt->nrows++] = row;
	}
	return OK;
}

/* Reads the line tables of R's units (sorted by table offset); with
 * SPLIT, those of the second half of the line program bytes on a thread
 * of their own.  The result is the same either way: the second half's
 * files and rows follow the first's. */
static enum status read_all_units(struct reader *r, bool split)
{
	struct half h = { .r = { .lt = &h.lt, .sec = r->sec, .units = r->units,
				 .nunits = r->nunits, .pcs = r->pcs,
				 .npcs = r->npcs } };
	pthread_t thread;
	uint64_t middle;
	enum status st;

	if (!split || r->nunits < 2)
		return read_line_units(r, 0, r->nunits);
	/* where the line program bytes are halved, between two tables */
	middle = r->units[0].line_offset +
		 (r->sec->line_size - r->units[0].line_offset) / 2;
	h.from = 1;
	while (h.from < r->nunits && (r->units[h.from].line_offset < middle ||
				      r->units[h.from].line_offset ==
				      r->units[h.from - 1].line_offset))
		h.from++;
	h.to = r->nunits;
	h.lt.name = r->lt->name;
	if (h.from == r->nunits || pthread_create(&thread, NULL, read_half, &h) != 0)
		return read_line_units(r, 0, r->nunits);
	st = read_line_units(r, 0, h.from);
	pthread_join(thread, NULL);
	if (st == OK)
		st = h.st;
	if (st == OK)
		st = join_half(r->lt, &h);
	free(h.lt.files);
	free(h.lt.rows);
	return st;
}

int dwarf_lines_parse(struct dwarf_lines *lt, const struct dwarf_sections *given,
		     const struct line_request *req, const char *name,
		     struct g2c_error *err)
{
	struct dwarf_sections sec = present_sections(given);
	struct reader r = { .lt = lt, .sec = &sec,
			    .abbrev_budget = 4 * (uint64_t)sec.abbrev_size + 65536,
			    .pcs = req ? req->pcs : NULL, .npcs = req ? req->npcs : 0 };
	enum status st;

	memset(lt, 0, sizeof *lt);
	lt->name = name;
	/* Without units or line tables there is nothing to read here. */
	st = sec.info_size && sec.line_size ? read_units(&r) : REFUSE;
	/* one table per offset, however many units share it */
	if (st == OK && r.nunits > 0)
		sort_by_key(r.units, r.nunits, sizeof *r.units, unit_key, by_units);
	if (st == OK)
		st = read_all_units(&r, req && req->split);
	free(r.units);
	if (st == OK && !rows_sorted(lt))
		sort_by_key(lt->rows, lt->nrows, sizeof *lt->rows, row_key, by_rows);
	return finish(lt, st, err);
}

/* Section .NAME of ABFD, or .zNAME (gcc -gz=zlib-gnu), as libbfd
 * decompresses it; NULL when there is none. */
static asection *debug_section(bfd *abfd, const char *name)
{
	char zname[32];
	asection *sec = bfd_get_section_by_name(abfd, name);

	if (!sec) {
		snprintf(zname, sizeof zname, ".z%s", name + 1);
		sec = bfd_get_section_by_name(abfd, zname);
	}
	return sec;
}

int dwarf_lines_read(struct dwarf_lines *lt, struct object *obj,
		    const uint64_t *pcs, size_t npcs, struct g2c_error *err)
{
	static const char *const names[] = {
		".debug_info", ".debug_abbrev", ".debug_line", ".debug_str",
		".debug_line_str", ".debug_str_offsets",
	};
	struct section_bytes b[6] = { 0 };
	struct dwarf_sections sec;
	int rc;

	for (unsigned i = 0; i < 6; i++) {
		asection *s = debug_section(obj->dbfd, names[i]);

		if (s && object_section_bytes(obj, obj->dbfd, s, &b[i], err) < 0) {
			while (i-- > 0)
				section_bytes_release(&b[i]);
			memset(lt, 0, sizeof *lt);
			return -1;
		}
	}
	sec = (struct dwarf_sections){
		b[0].data, b[1].data, b[2].data, b[3].data, b[4].data,
		b[0].size, b[1].size, b[2].size, b[3].size, b[4].size,
		bfd_big_endian(obj->dbfd), b[5].data, b[5].size,
	};
	/* a large program's tables are read by two threads */
	rc = dwarf_lines_parse(lt, &sec, &(struct line_request){
				      pcs, npcs, sec.line_size >= LINES_SPLIT_MIN },
			      bfd_get_filename(obj->dbfd), err);
	if (rc != LINES_READ) {
		for (unsigned i = 0; i < 6; i++)
			section_bytes_release(&b[i]);
		return rc;
	}
	/* the abbreviations and string offsets are no longer needed; file
	 * entries point into the others */
	section_bytes_release(&b[1]);
	section_bytes_release(&b[5]);
	memcpy(lt->owned, b, sizeof lt->owned);
	return rc;
}

/* Joined paths, one per distinct (head, middle, name) triple of string
 * pointers, so that many entries naming one string share one copy. */
struct path_intern {
	struct line_file *files;	/* each triple once, with its path */
	size_t files_cap;
	struct hash_index index;	/* of files, by hash_parts */
};

static uint64_t hash_parts(const struct line_file *f)
{
	uint64_t h = (uintptr_t)f->head * 0x9e3779b97f4a7c15u;

	h = (h ^ (uintptr_t)f->middle) * 0x9e3779b97f4a7c15u;
	h = (h ^ (uintptr_t)f->name) * 0x9e3779b97f4a7c15u;
	return h ^ (h >> 29);
}

static bool same_parts(const void *files, size_t pos, const void *key)
{
	const struct line_file *a = &((const struct line_file *)files)[pos], *b = key;

	return a->head == b->head && a->middle == b->middle && a->name == b->name;
}

static const char *join(struct dwarf_lines *lt, struct line_file *f)
{
	struct path_intern *pi = lt->paths;
	struct line_file *files;
	struct hash_slot *slot;
	uint64_t hash = hash_parts(f);
	size_t len, count, at;
	char *path;

	if (!pi && !(pi = lt->paths = calloc(1, sizeof *pi)))
		return NULL;
	count = pi->index.count;
	at = hash_index_place(&pi->index, hash, same_parts, pi->files, count, f,
			      &slot);
	if (at != count)
		return at == SIZE_MAX ? NULL : pi->files[at].path;
	files = array_grow(pi->files, &pi->files_cap, count + 1, sizeof *files);
	if (!files)
		return NULL;
	pi->files = files;
	len = strlen(f->name) + 1;
	if (f->head)
		len += strlen(f->head) + 1;
	if (f->middle)
		len += strlen(f->middle) + 1;
	if (!(path = malloc(len)))
		return NULL;
	snprintf(path, len, "%s%s%s%s%s", f->head ? f->head : "",
		 f->head ? "/" : "", f->middle ? f->middle : "",
		 f->middle ? "/" : "", f->name);
	files[count] = *f;
	files[count].path = path;
	hash_index_add(&pi->index, slot, hash, count);
	return path;
}

int dwarf_lines_lookup(struct dwarf_lines *lt, uint64_t pc, const char **file,
		      unsigned *line, struct g2c_error *err)
{
	size_t lo = lt->last < lt->nrows ? lt->last : lt->nrows;
	struct line_file *f;

	/* the rows at or below PC: positions are looked up mostly in
	 * address order, but for a function's call sites, which come by
	 * callee, a few rows back */
	lo = search_first(lt->rows, lt->nrows, sizeof *lt->rows, key_at_most,
			  &pc, lo);
	lt->last = lo;
	if (lo == 0 || lt->rows[lo - 1].file == LINE_END)
		return 0;
	f = &lt->files[lt->rows[lo - 1].file];
	if (!f->path && !(f->path = join(lt, f)))
		return g2c_error_set(err, "%s: out of memory joining source paths",
				     lt->name);
	*file = f->path;
	*line = lt->rows[lo - 1].line;
	return 1;
}

void dwarf_lines_forget_rows(struct dwarf_lines *lt)
{
	free(lt->rows);
	lt->rows = NULL;
	lt->nrows = 0;
	lt->last = 0;
}

void dwarf_lines_release(struct dwarf_lines *lt)
{
	if (lt->paths) {
		for (size_t i = 0; i < lt->paths->index.count; i++)
			free((char *)lt->paths->files[i].path);
		free(lt->paths->files);
		hash_index_release(&lt->paths->index);
		free(lt->paths);
	}
	for (size_t i = 0; i < sizeof lt->owned / sizeof *lt->owned; i++)
		section_bytes_release(&lt->owned[i]);
	free(lt->files);
	free(lt->rows);
	memset(lt, 0, sizeof *lt);
}
