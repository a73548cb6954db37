/* lines.c -- the source line of an address, from the DWARF 5 line tables. */
#include <config.h>

#include <bfd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "util.h"

/* DWARF constants used here (DWARF 5, sections 6.2 and 7.22). */
enum {
	DW_LNS_copy = 1, DW_LNS_advance_pc, DW_LNS_advance_line, DW_LNS_set_file,
	DW_LNS_set_column, DW_LNS_negate_stmt, DW_LNS_set_basic_block,
	DW_LNS_const_add_pc, DW_LNS_fixed_advance_pc,
	DW_LNE_end_sequence = 1, DW_LNE_set_address = 2,
	DW_LNCT_path = 1, DW_LNCT_directory_index = 2,
	DW_FORM_block = 0x09, DW_FORM_data1 = 0x0b, DW_FORM_data2 = 0x05,
	DW_FORM_data4 = 0x06, DW_FORM_data8 = 0x07, DW_FORM_data16 = 0x1e,
	DW_FORM_string = 0x08, DW_FORM_strp = 0x0e, DW_FORM_udata = 0x0f,
	DW_FORM_line_strp = 0x1f,
};

/* A bounded cursor; any read past the end sets FAILED and yields 0. */
struct cursor {
	const bfd_byte *p, *end;
	bool big_endian, failed;
};

static uint64_t read_fixed(struct cursor *c, unsigned size)
{
	uint64_t v = 0;

	if ((size_t)(c->end - c->p) < size) {
		c->failed = true;
		c->p = c->end;
		return 0;
	}
	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t)c->p[i] << (c->big_endian ? 8 * (size - 1 - i) : 8 * i);
	c->p += size;
	return v;
}

static uint64_t read_uleb(struct cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (c->p < c->end) {
		bfd_byte b = *c->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	c->failed = true;
	return 0;
}

static int64_t read_sleb(struct cursor *c)
{
	uint64_t v = 0;
	unsigned shift = 0;
	bfd_byte b = 0;

	while (c->p < c->end) {
		b = *c->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			return (int64_t)v;
		}
	}
	c->failed = true;
	return 0;
}

static const char *read_cstring(struct cursor *c)
{
	const bfd_byte *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
	const char *s = (const char *)c->p;

	if (!nul) {
		c->failed = true;
		c->p = c->end;
		return "";
	}
	c->p = nul + 1;
	return s;
}

/* A section's contents, read once. */
struct section {
	bfd_byte *data;
	size_t size;
};

static void load(bfd *abfd, const char *name, struct section *s)
{
	asection *sec = bfd_get_section_by_name(abfd, name);

	s->data = NULL;
	s->size = 0;
	if (sec && bfd_malloc_and_get_section(abfd, sec, &s->data))
		s->size = bfd_section_size(sec);
}

static const char *string_at(const struct section *s, uint64_t offset)
{
	if (!s->data || offset >= s->size || !memchr(s->data + offset, 0, s->size - offset))
		return NULL;
	return (const char *)s->data + offset;
}

struct reader {
	struct line_table *lt;
	struct section str, line_str;
	size_t rows_cap, files_cap;
	unsigned offset_size;
};

/* One attribute of a directory or file entry: a string (for paths) or a
 * number (for indexes); other contents are skipped.  Returns false on a
 * form this reader does not know. */
static bool read_form(struct reader *r, struct cursor *c, uint64_t form,
		      const char **str, uint64_t *num)
{
	*str = NULL;
	*num = 0;
	switch (form) {
	case DW_FORM_string:
		*str = read_cstring(c);
		return true;
	case DW_FORM_line_strp:
		*str = string_at(&r->line_str, read_fixed(c, r->offset_size));
		return *str != NULL;
	case DW_FORM_strp:
		*str = string_at(&r->str, read_fixed(c, r->offset_size));
		return *str != NULL;
	case DW_FORM_udata:
		*num = read_uleb(c);
		return true;
	case DW_FORM_data1:
		*num = read_fixed(c, 1);
		return true;
	case DW_FORM_data2:
		*num = read_fixed(c, 2);
		return true;
	case DW_FORM_data4:
		*num = read_fixed(c, 4);
		return true;
	case DW_FORM_data8:
		*num = read_fixed(c, 8);
		return true;
	case DW_FORM_data16:
		read_fixed(c, 8);
		read_fixed(c, 8);
		return true;
	case DW_FORM_block: {
		uint64_t n = read_uleb(c);

		if ((uint64_t)(c->end - c->p) < n)
			return false;
		c->p += n;
		return true;
	}
	default:
		return false;
	}
}

/* Reads an entry-format list and COUNT entries of paths and directory
 * indexes (directories: DIRS NULL). */
static bool read_entries(struct reader *r, struct cursor *c,
			 const char ***paths, uint64_t **dirs, uint64_t *count)
{
	unsigned nformats = (unsigned)read_fixed(c, 1);
	uint64_t types[16], forms[16];

	if (nformats > 16)
		return false;
	for (unsigned i = 0; i < nformats; i++) {
		types[i] = read_uleb(c);
		forms[i] = read_uleb(c);
	}
	*count = read_uleb(c);
	if (c->failed || *count > (uint64_t)(c->end - c->p))
		return false;
	*paths = calloc(*count ? *count : 1, sizeof **paths);
	if (dirs)
		*dirs = calloc(*count ? *count : 1, sizeof **dirs);
	if (!*paths || (dirs && !*dirs))
		return false;
	for (uint64_t e = 0; e < *count; e++) {
		for (unsigned i = 0; i < nformats; i++) {
			const char *s;
			uint64_t n;

			if (!read_form(r, c, forms[i], &s, &n))
				return false;
			if (types[i] == DW_LNCT_path)
				(*paths)[e] = s;
			else if (types[i] == DW_LNCT_directory_index && dirs)
				(*dirs)[e] = n;
		}
		if (!(*paths)[e])
			return false;
	}
	return !c->failed;
}

static bool is_absolute(const char *path)
{
	return path[0] == '/';
}

/* libbfd's concat_filename: a relative name goes below its directory, and
 * a relative directory below the compilation directory (directory 0). */
static char *join_path(const char *const *dirs, uint64_t ndirs, uint64_t dir,
		       const char *name)
{
	const char *d = dir < ndirs ? dirs[dir] : NULL;
	const char *comp = ndirs ? dirs[0] : NULL;
	char *out;

	if (is_absolute(name) || !d)
		return strdup(name);
	if (is_absolute(d) || !comp || d == comp) {
		out = malloc(strlen(d) + strlen(name) + 2);
		if (out)
			sprintf(out, "%s/%s", d, name);
	} else {
		out = malloc(strlen(comp) + strlen(d) + strlen(name) + 3);
		if (out)
			sprintf(out, "%s/%s/%s", comp, d, name);
	}
	return out;
}

static bool add_row(struct reader *r, uint64_t addr, uint32_t file,
		    uint32_t line, bool *in_sequence)
{
	struct line_table *lt = r->lt;
	struct line_row *rows;

	/* libbfd keeps only the last row at one address of a sequence. */
	if (*in_sequence && lt->nrows > 0 && lt->rows[lt->nrows - 1].addr == addr &&
	    lt->rows[lt->nrows - 1].file != LINE_END && file != LINE_END) {
		lt->rows[lt->nrows - 1].file = file;
		lt->rows[lt->nrows - 1].line = line;
		return true;
	}
	rows = array_grow(lt->rows, &r->rows_cap, lt->nrows + 1, sizeof *rows);
	if (!rows)
		return false;
	lt->rows = rows;
	rows[lt->nrows++] = (struct line_row){ addr, file, line };
	*in_sequence = file != LINE_END;
	return true;
}

/* Runs one unit's line program from C, whose header has been read. */
static bool run_program(struct reader *r, struct cursor *c, unsigned addr_size,
			unsigned min_insn, int line_base, unsigned line_range,
			unsigned opcode_base, const bfd_byte *lengths,
			uint32_t first_file, uint64_t nfiles)
{
	uint64_t addr = 0, file = 1;
	int64_t line = 1;
	bool in_sequence = false;

	while (c->p < c->end && !c->failed) {
		unsigned op = *c->p++;

		if (op >= opcode_base) {
			unsigned adj = op - opcode_base;

			addr += (uint64_t)(adj / line_range) * min_insn;
			line += line_base + (int)(adj % line_range);
			if (!add_row(r, addr, first_file + (uint32_t)(file < nfiles ? file : 0),
				     (uint32_t)line, &in_sequence))
				return false;
			continue;
		}
		switch (op) {
		case 0: {
			uint64_t len = read_uleb(c);
			const bfd_byte *next = c->p + len;
			unsigned sub;

			if (len == 0 || len > (uint64_t)(c->end - c->p))
				return false;
			sub = *c->p++;
			if (sub == DW_LNE_end_sequence) {
				if (!add_row(r, addr, LINE_END, 0, &in_sequence))
					return false;
				addr = 0;
				file = 1;
				line = 1;
			} else if (sub == DW_LNE_set_address) {
				addr = read_fixed(c, len - 1 <= 8 ? (unsigned)(len - 1) : addr_size);
			}
			c->p = next;
			break;
		}
		case DW_LNS_copy:
			if (!add_row(r, addr, first_file + (uint32_t)(file < nfiles ? file : 0),
				     (uint32_t)line, &in_sequence))
				return false;
			break;
		case DW_LNS_advance_pc:
			addr += read_uleb(c) * min_insn;
			break;
		case DW_LNS_advance_line:
			line += read_sleb(c);
			break;
		case DW_LNS_set_file:
			file = read_uleb(c);
			break;
		case DW_LNS_const_add_pc:
			addr += (uint64_t)((255 - opcode_base) / line_range) * min_insn;
			break;
		case DW_LNS_fixed_advance_pc:
			addr += read_fixed(c, 2);
			break;
		default:
			/* other standard opcodes: skip their operands */
			for (unsigned i = 0; i < lengths[op - 1]; i++)
				read_uleb(c);
			break;
		}
	}
	return !c->failed;
}

/* Reads the unit at C's position and moves C past it. */
static bool read_unit(struct reader *r, struct cursor *c)
{
	struct cursor u = *c;
	uint64_t length = read_fixed(&u, 4), header_length, ndirs = 0, nfiles = 0;
	unsigned version, addr_size, min_insn, line_range, opcode_base;
	const char **dirs = NULL, **names = NULL;
	uint64_t *file_dirs = NULL;
	const bfd_byte *lengths, *program;
	int line_base;
	uint32_t first_file = (uint32_t)r->lt->nfiles;
	bool ok = false;

	r->offset_size = 4;
	if (length == 0xffffffff) {
		length = read_fixed(&u, 8);
		r->offset_size = 8;
	}
	if (u.failed || length > (uint64_t)(u.end - u.p))
		return false;
	u.end = u.p + length;
	c->p = u.end;
	version = (unsigned)read_fixed(&u, 2);
	if (version != 5)
		return false;
	addr_size = (unsigned)read_fixed(&u, 1);
	read_fixed(&u, 1);	/* segment selector size */
	header_length = read_fixed(&u, r->offset_size);
	if (u.failed || header_length > (uint64_t)(u.end - u.p))
		return false;
	program = u.p + header_length;
	min_insn = (unsigned)read_fixed(&u, 1);
	read_fixed(&u, 1);	/* maximum operations per instruction */
	read_fixed(&u, 1);	/* default is_stmt */
	line_base = (int8_t)read_fixed(&u, 1);
	line_range = (unsigned)read_fixed(&u, 1);
	opcode_base = (unsigned)read_fixed(&u, 1);
	lengths = u.p;
	if (u.failed || line_range == 0 || opcode_base == 0 ||
	    (size_t)(u.end - u.p) < opcode_base - 1)
		return false;
	u.p += opcode_base - 1;
	if (!read_entries(r, &u, &dirs, NULL, &ndirs) ||
	    !read_entries(r, &u, &names, &file_dirs, &nfiles))
		goto out;
	for (uint64_t i = 0; i < nfiles; i++) {
		char **files = array_grow(r->lt->files, &r->files_cap,
					  r->lt->nfiles + 1, sizeof *files);

		if (!files)
			goto out;
		r->lt->files = files;
		files[r->lt->nfiles] = join_path(dirs, ndirs, file_dirs[i], names[i]);
		if (!files[r->lt->nfiles])
			goto out;
		r->lt->nfiles++;
	}
	u.p = program;
	ok = nfiles > 0 && run_program(r, &u, addr_size, min_insn, line_base,
				       line_range, opcode_base, lengths,
				       first_file, nfiles);
out:
	free(dirs);
	free(names);
	free(file_dirs);
	return ok;
}

static int compare_rows(const void *x, const void *y)
{
	const struct line_row *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	/* a sequence's end before the start of the next one */
	return (b->file == LINE_END) - (a->file == LINE_END);
}

int line_table_read(struct line_table *lt, bfd *abfd)
{
	struct reader r = { .lt = lt };
	struct section line;
	struct cursor c;
	int rc = -1;

	memset(lt, 0, sizeof *lt);
	load(abfd, ".debug_line", &line);
	if (!line.data)
		return -1;
	load(abfd, ".debug_str", &r.str);
	load(abfd, ".debug_line_str", &r.line_str);
	c = (struct cursor){ line.data, line.data + line.size,
			     bfd_big_endian(abfd), false };
	while (c.p < c.end)
		if (!read_unit(&r, &c))
			goto out;
	if (lt->nrows > 0) {
		/* Sorting is stable enough: rows of one sequence ascend. */
		qsort(lt->rows, lt->nrows, sizeof *lt->rows, compare_rows);
		rc = 0;
	}
out:
	free(line.data);
	free(r.str.data);
	free(r.line_str.data);
	if (rc < 0)
		line_table_release(lt);
	return rc;
}

bool line_table_lookup(const struct line_table *lt, uint64_t pc,
		       const char **file, unsigned *line)
{
	size_t lo = 0, hi = lt->nrows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (lt->rows[mid].addr <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || lt->rows[lo - 1].file == LINE_END)
		return false;
	*file = lt->files[lt->rows[lo - 1].file];
	*line = lt->rows[lo - 1].line;
	return true;
}

void line_table_release(struct line_table *lt)
{
	for (size_t i = 0; i < lt->nfiles; i++)
		free(lt->files[i]);
	free(lt->files);
	free(lt->rows);
	memset(lt, 0, sizeof *lt);
}
