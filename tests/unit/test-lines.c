/* test-lines.c -- the DWARF line-table reader on hand-assembled sections:
 * versions 2 to 5, 32- and 64-bit DWARF, 4- and 8-byte addresses, both
 * byte orders, paths joined as libbfd joins them; hostile headers,
 * opcodes and forms; truncation at every byte; and every allocation
 * failing in turn (malloc, calloc and realloc are wrapped at link time). */
#include <config.h>

#include <stdlib.h>

#include "check.h"
#include "diag.h"
#include "dwarf_lines.h"

/* Allocation failure on demand: the FAIL_AT-th allocation from now fails
 * (0: none). */
static long fail_at, allocations;

static bool allocation_fails(void)
{
	return fail_at && ++allocations == fail_at;
}

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);

void *__wrap_malloc(size_t n)
{
	return allocation_fails() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return allocation_fails() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return allocation_fails() ? NULL : __real_realloc(p, n);
}

/* A section being assembled. */
struct buf {
	unsigned char d[1 << 16];
	size_t n;
	bool be;
};

static void put(struct buf *b, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		b->d[b->n + i] = (unsigned char)(v >> (b->be ? 8 * (size - 1 - i) : 8 * i));
	b->n += size;
}

static void uleb(struct buf *b, uint64_t v)
{
	do {
		b->d[b->n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

static void sleb(struct buf *b, int64_t v)
{
	bool more = true;

	while (more) {
		unsigned char byte = v & 0x7f;

		v >>= 7;	/* arithmetic on this compiler */
		more = !((v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40)));
		b->d[b->n++] = byte | (more ? 0x80 : 0);
	}
}

static void str(struct buf *b, const char *s)
{
	memcpy(b->d + b->n, s, strlen(s) + 1);
	b->n += strlen(s) + 1;
}

/* An initial length to patch once the unit is complete: its position. */
static size_t begin_length(struct buf *b, unsigned offset_size)
{
	if (offset_size == 8)
		put(b, 0xffffffff, 4);
	put(b, 0, offset_size);
	return b->n;
}

static void end_length(struct buf *b, size_t start, unsigned offset_size)
{
	size_t n = b->n;

	b->n = start - offset_size;
	put(b, n - start, offset_size);
	b->n = n;
}

/* The shape of one test table. */
struct shape {
	unsigned version, offset_size, addr_size;
	bool be;
};

struct sections {
	struct buf info, abbrev, line, str, line_str, str_offsets;
	size_t program;		/* where the line program starts */
	size_t header_length_at, unit_start;
};

static size_t add_line_str(struct sections *s, const char *text)
{
	size_t at = s->line_str.n;

	str(&s->line_str, text);
	return at;
}

/* A compilation unit whose line table (at LINE_OFFSET) has directories
 * "inc" and "/abs" and files a.c (in the compilation directory /comp),
 * h.h (in inc) and z.h (in /abs), numbered 1, 2, 3 in every version. */
static void add_unit(struct sections *s, const struct shape *sh,
		     uint64_t line_offset)
{
	struct buf *i = &s->info, *a = &s->abbrev;
	size_t start;

	if (a->n == 0) {
		uleb(a, 1);
		uleb(a, 0x11);	/* DW_TAG_compile_unit */
		put(a, 0, 1);
		uleb(a, 0x10);	/* DW_AT_stmt_list */
		uleb(a, sh->version >= 4 ? 0x17 : sh->offset_size == 8 ? 0x07 : 0x06);
		uleb(a, 0x1b);	/* DW_AT_comp_dir */
		uleb(a, sh->version == 5 ? 0x1f : 0x08);
		uleb(a, 0x13);	/* DW_AT_language, a constant to skip */
		uleb(a, 0x0b);
		put(a, 0, 2);
		put(a, 0, 1);
	}
	start = begin_length(i, sh->offset_size);
	put(i, sh->version, 2);
	if (sh->version == 5) {
		put(i, 1, 1);	/* DW_UT_compile */
		put(i, sh->addr_size, 1);
		put(i, 0, sh->offset_size);
	} else {
		put(i, 0, sh->offset_size);
		put(i, sh->addr_size, 1);
	}
	uleb(i, 1);
	put(i, line_offset, sh->offset_size);
	if (sh->version == 5)
		put(i, add_line_str(s, "/comp"), sh->offset_size);
	else
		str(i, "/comp");
	put(i, 12, 1);
	end_length(i, start, sh->offset_size);
}

/* The header of a line table, up to its program. */
static void begin_table(struct sections *s, const struct shape *sh)
{
	struct buf *l = &s->line;
	static const unsigned char lengths[12] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };

	s->unit_start = begin_length(l, sh->offset_size);
	put(l, sh->version, 2);
	if (sh->version == 5) {
		put(l, sh->addr_size, 1);
		put(l, 0, 1);
	}
	s->header_length_at = l->n;
	put(l, 0, sh->offset_size);
	put(l, 1, 1);		/* minimum instruction length */
	if (sh->version >= 4)
		put(l, 1, 1);	/* maximum operations per instruction */
	put(l, 1, 1);		/* default is_stmt */
	put(l, (uint8_t)-5, 1);	/* line base */
	put(l, 14, 1);		/* line range */
	put(l, 13, 1);		/* opcode base */
	memcpy(l->d + l->n, lengths, sizeof lengths);
	l->n += sizeof lengths;
	if (sh->version < 5) {
		str(l, "inc");
		str(l, "/abs");
		put(l, 0, 1);
		str(l, "a.c"); uleb(l, 0); uleb(l, 0); uleb(l, 0);
		str(l, "h.h"); uleb(l, 1); uleb(l, 0); uleb(l, 0);
		str(l, "z.h"); uleb(l, 2); uleb(l, 0); uleb(l, 0);
		put(l, 0, 1);
	} else {
		put(l, 1, 1);	/* directories: a path */
		uleb(l, 1); uleb(l, 0x1f);
		uleb(l, 3);
		put(l, add_line_str(s, "/comp"), sh->offset_size);
		put(l, add_line_str(s, "inc"), sh->offset_size);
		put(l, add_line_str(s, "/abs"), sh->offset_size);
		put(l, 3, 1);	/* files: path, directory, an MD5 to skip */
		uleb(l, 1); uleb(l, 0x08);
		uleb(l, 2); uleb(l, 0x0f);
		uleb(l, 5); uleb(l, 0x1e);
		uleb(l, 4);
		str(l, "a.c"); uleb(l, 0); l->n += 16;
		str(l, "a.c"); uleb(l, 0); l->n += 16;
		str(l, "h.h"); uleb(l, 1); l->n += 16;
		str(l, "z.h"); uleb(l, 2); l->n += 16;
	}
	s->program = l->n;
	{
		size_t n = l->n;

		l->n = s->header_length_at;
		put(l, n - s->header_length_at - sh->offset_size, sh->offset_size);
		l->n = n;
	}
}

static void end_table(struct sections *s, const struct shape *sh)
{
	end_length(&s->line, s->unit_start, sh->offset_size);
}

static void set_address(struct buf *l, uint64_t addr, unsigned size)
{
	put(l, 0, 1);
	uleb(l, size + 1);
	put(l, 2, 1);
	put(l, addr, size);
}

static void end_sequence(struct buf *l)
{
	put(l, 0, 1);
	uleb(l, 1);
	put(l, 1, 1);
}

/* The usual program: a.c:1 at BASE, h.h:11 at BASE+4, z.h:12 at BASE+6
 * (a special opcode), the end at BASE+10. */
static void usual_program(struct buf *l, uint64_t base, unsigned addr_size)
{
	set_address(l, base, addr_size);
	put(l, 1, 1);			/* copy */
	put(l, 4, 1); uleb(l, 2);	/* set_file h.h */
	put(l, 3, 1); sleb(l, 10);	/* advance_line */
	put(l, 2, 1); uleb(l, 4);	/* advance_pc */
	put(l, 1, 1);
	put(l, 4, 1); uleb(l, 3);	/* set_file z.h */
	put(l, 13 + 2 * 14 + (1 + 5), 1);	/* special: pc +2, line +1 */
	put(l, 2, 1); uleb(l, 4);
	end_sequence(l);
}

static struct dwarf_sections view(const struct sections *s)
{
	return (struct dwarf_sections){
		s->info.d, s->abbrev.d, s->line.d, s->str.d, s->line_str.d,
		s->info.n, s->abbrev.n, s->line.n, s->str.n, s->line_str.n,
		s->line.be, s->str_offsets.n ? s->str_offsets.d : NULL,
		s->str_offsets.n,
	};
}

static void init(struct sections *s, const struct shape *sh)
{
	memset(s, 0, sizeof *s);
	s->info.be = s->abbrev.be = s->line.be = sh->be;
	s->str.be = s->line_str.be = s->str_offsets.be = sh->be;
}

static int parse(struct dwarf_lines *lt, const struct sections *s)
{
	struct dwarf_sections v = view(s);
	struct g2c_error err;

	return dwarf_lines_parse(lt, &v, NULL, "test", &err);
}

static void expect_line(struct dwarf_lines *lt, uint64_t pc, const char *file,
			unsigned line)
{
	struct g2c_error err;
	const char *f = NULL;
	unsigned l = 0;
	int found = dwarf_lines_lookup(lt, pc, &f, &l, &err);

	if (!file) {
		CHECK_U64(found, 0);
		return;
	}
	CHECK_U64(found, 1);
	CHECK(f && strcmp(f, file) == 0);
	if (f && strcmp(f, file) != 0)
		printf("  at %#" PRIx64 ": %s, expected %s\n", pc, f, file);
	CHECK_U64(l, line);
}

static void test_shapes(void)
{
	for (unsigned version = 2; version <= 5; version++)
		for (unsigned o = 4; o <= 8; o += 4)
			for (unsigned a = 4; a <= 8; a += 4)
				for (int be = 0; be <= 1; be++) {
					struct shape sh = { version, o, a, be };
					static struct sections s;
					struct dwarf_lines lt;
					uint64_t base = a == 8 ? 0x123456789000 : 0x8000;

					init(&s, &sh);
					add_unit(&s, &sh, 0);
					begin_table(&s, &sh);
					usual_program(&s.line, base, a);
					end_table(&s, &sh);
					CHECK_U64(parse(&lt, &s), LINES_READ);
					expect_line(&lt, base - 1, NULL, 0);
					expect_line(&lt, base, "/comp/a.c", 1);
					expect_line(&lt, base + 3, "/comp/a.c", 1);
					expect_line(&lt, base + 4, "/comp/inc/h.h", 11);
					expect_line(&lt, base + 6, "/abs/z.h", 12);
					expect_line(&lt, base + 9, "/abs/z.h", 12);
					expect_line(&lt, base + 10, NULL, 0);
					dwarf_lines_release(&lt);
				}
}

/* A DWARF 5 unit as clang writes it: its compilation directory by an
 * index in the string offsets (DW_FORM_strx1), and their base after it
 * (DW_AT_str_offsets_base), or with WITH_BASE false none. */
static void add_indexed_unit(struct sections *s, const struct shape *sh,
			     bool with_base)
{
	struct buf *i = &s->info, *a = &s->abbrev, *o = &s->str_offsets;
	size_t start, base;

	uleb(a, 1);
	uleb(a, 0x11);	/* DW_TAG_compile_unit */
	put(a, 0, 1);
	uleb(a, 0x10); uleb(a, 0x17);	/* DW_AT_stmt_list, sec_offset */
	uleb(a, 0x1b); uleb(a, 0x25);	/* DW_AT_comp_dir, strx1 */
	if (with_base) {
		uleb(a, 0x72); uleb(a, 0x17);	/* DW_AT_str_offsets_base */
	}
	put(a, 0, 2);
	put(a, 0, 1);
	start = begin_length(o, sh->offset_size);	/* the offsets' header */
	put(o, 5, 2);
	put(o, 0, 2);
	base = o->n;
	put(o, s->str.n, sh->offset_size);	/* index 0: a name to skip */
	str(&s->str, "producer");
	put(o, s->str.n, sh->offset_size);	/* index 1 */
	str(&s->str, "/clang");
	end_length(o, start, sh->offset_size);
	start = begin_length(i, sh->offset_size);
	put(i, 5, 2);
	put(i, 1, 1);	/* DW_UT_compile */
	put(i, sh->addr_size, 1);
	put(i, 0, sh->offset_size);
	uleb(i, 1);
	put(i, 0, sh->offset_size);
	put(i, 1, 1);
	if (with_base)
		put(i, base, sh->offset_size);
	end_length(i, start, sh->offset_size);
}

/* clang's units are read, in either byte order and offset size; without
 * the base of their string offsets, the table is left to libbfd. */
static void test_indexed_comp_dir(void)
{
	for (unsigned o = 4; o <= 8; o += 4)
		for (int be = 0; be <= 1; be++) {
			struct shape sh = { 5, o, 8, be };
			static struct sections s;
			struct dwarf_lines lt;

			init(&s, &sh);
			add_indexed_unit(&s, &sh, true);
			begin_table(&s, &sh);
			usual_program(&s.line, 0x4000, 8);
			end_table(&s, &sh);
			CHECK_U64(parse(&lt, &s), LINES_READ);
			expect_line(&lt, 0x4000, "/comp/a.c", 1);
			/* (a relative directory joins the unit's own) */
			expect_line(&lt, 0x4004, "/clang/inc/h.h", 11);
			dwarf_lines_release(&lt);

			init(&s, &sh);
			add_indexed_unit(&s, &sh, false);
			begin_table(&s, &sh);
			usual_program(&s.line, 0x4000, 8);
			end_table(&s, &sh);
			CHECK_U64(parse(&lt, &s), LINES_UNREADABLE);

			/* an index with no string offsets section at all: no
			 * directory (and no pointer arithmetic on the missing
			 * section, which clang's UBSan flags: the fuzz smoke
			 * run reads a program of this shape among its seeds,
			 * tests/fuzz/regressions/exe-strx-without-str-offsets) */
			init(&s, &sh);
			add_indexed_unit(&s, &sh, true);
			s.str_offsets.n = 0;
			begin_table(&s, &sh);
			usual_program(&s.line, 0x4000, 8);
			end_table(&s, &sh);
			CHECK_U64(parse(&lt, &s), LINES_UNREADABLE);
		}
}

/* A table of SH with PROGRAM bytes after its header, parsed. */
static int parse_program(const struct shape *sh, const unsigned char *program,
			 size_t n, struct dwarf_lines *lt)
{
	static struct sections s;

	init(&s, sh);
	add_unit(&s, sh, 0);
	begin_table(&s, sh);
	memcpy(s.line.d + s.line.n, program, n);
	s.line.n += n;
	end_table(&s, sh);
	return parse(lt, &s);
}

static void test_hostile_programs(void)
{
	struct shape sh = { 4, 4, 8, false };
	struct dwarf_lines lt;
	/* set_address with a 9-byte operand: no shift by 64 or more */
	static const unsigned char wide_address[] = {
		0, 10, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1,
	};
	/* an extended opcode of length 2^63 */
	static const unsigned char huge_length[] = {
		0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 1, 1,
	};
	/* advance_line by INT64_MAX, then by INT64_MIN: wraps as libbfd's
	 * unsigned register does */
	static const unsigned char far_lines[] = {
		0, 9, 2, 0, 0x10, 0, 0, 0, 0, 0, 0,
		3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 1,
		2, 1,
		3, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f, 1,
		2, 1, 0, 1, 1,
	};
	/* a file index past the list: left to libbfd */
	static const unsigned char bad_file[] = { 0, 9, 2, 0, 0x10, 0, 0, 0, 0, 0, 0, 4, 9, 1 };
	/* DW_LNE_define_file: left to libbfd */
	static const unsigned char define_file[] = { 0, 4, 3, 'x', 0, 0, 1 };

	CHECK_U64(parse_program(&sh, wide_address, sizeof wide_address, &lt),
		  LINES_UNREADABLE);
	CHECK_U64(parse_program(&sh, huge_length, sizeof huge_length, &lt),
		  LINES_UNREADABLE);
	CHECK_U64(parse_program(&sh, far_lines, sizeof far_lines, &lt), LINES_READ);
	expect_line(&lt, 0x1000, "/comp/a.c", (uint32_t)(1 + (uint64_t)INT64_MAX));
	expect_line(&lt, 0x1001, "/comp/a.c",
		    (uint32_t)(1 + (uint64_t)INT64_MAX + (uint64_t)INT64_MIN));
	dwarf_lines_release(&lt);
	CHECK_U64(parse_program(&sh, bad_file, sizeof bad_file, &lt), LINES_UNREADABLE);
	CHECK_U64(parse_program(&sh, define_file, sizeof define_file, &lt),
		  LINES_UNREADABLE);
	CHECK(lt.rows == NULL && lt.files == NULL);
}

static void test_hostile_headers(void)
{
	struct shape sh = { 5, 4, 8, false };
	static struct sections s;
	struct dwarf_lines lt;

	/* the unit length past the section */
	init(&s, &sh);
	add_unit(&s, &sh, 0);
	begin_table(&s, &sh);
	usual_program(&s.line, 0x1000, 8);
	end_table(&s, &sh);
	s.line.d[0] += 1;
	CHECK_U64(parse(&lt, &s), LINES_UNREADABLE);
	s.line.d[0] -= 1;
	/* the header length past the unit */
	s.line.d[s.header_length_at + 2] = 0x7f;
	CHECK_U64(parse(&lt, &s), LINES_UNREADABLE);
	s.line.d[s.header_length_at + 2] = 0;
	CHECK_U64(parse(&lt, &s), LINES_READ);
	dwarf_lines_release(&lt);
	/* a statement list offset past the section */
	s.info.d[4 + 2 + 1 + 1 + 4 + 1] = 0xff;
	CHECK_U64(parse(&lt, &s), LINES_UNREADABLE);
	s.info.d[4 + 2 + 1 + 1 + 4 + 1] = 0;
	/* an unknown form in the directory entry format */
	s.line.d[s.header_length_at + 4 + 6 + 12 + 2] = 0x7e;
	CHECK_U64(parse(&lt, &s), LINES_UNREADABLE);
	s.line.d[s.header_length_at + 4 + 6 + 12 + 2] = 0x1f;
	/* an unknown form in the unit's first entry */
	s.abbrev.d[6] = 0x7e;
	CHECK_U64(parse(&lt, &s), LINES_UNREADABLE);
	s.abbrev.d[6] = 0x1f;
	/* several operations per instruction (VLIW) */
	s.line.d[s.header_length_at + 5] = 4;
	CHECK_U64(parse(&lt, &s), LINES_UNREADABLE);
	s.line.d[s.header_length_at + 5] = 1;
	/* a version this reader does not know */
	s.line.d[4] = 6;
	CHECK_U64(parse(&lt, &s), LINES_UNREADABLE);
	s.line.d[4] = 5;
	CHECK_U64(parse(&lt, &s), LINES_READ);
	dwarf_lines_release(&lt);
}

/* Every prefix of every section parses or is refused, without a fault. */
static void test_truncation(void)
{
	for (unsigned version = 2; version <= 5; version++) {
		struct shape sh = { version, 4, 8, version == 3 };
		static struct sections s;
		struct buf *bufs[] = { &s.info, &s.abbrev, &s.line, &s.line_str };
		unsigned ok = 0;

		init(&s, &sh);
		add_unit(&s, &sh, 0);
		begin_table(&s, &sh);
		usual_program(&s.line, 0x1000, 8);
		end_table(&s, &sh);
		for (size_t b = 0; b < sizeof bufs / sizeof *bufs; b++) {
			size_t full = bufs[b]->n;

			for (size_t n = 0; n < full; n++) {
				struct dwarf_lines lt;
				int rc;

				bufs[b]->n = n;
				rc = parse(&lt, &s);
				CHECK(rc == LINES_READ || rc == LINES_UNREADABLE);
				ok += rc == LINES_READ;
				dwarf_lines_release(&lt);
			}
			bufs[b]->n = full;
		}
		/* only a line_str cut after its last use still reads */
		CHECK(ok < 8);
	}
}

/* Many units sharing one table read it once; many entries naming one
 * string share one joined path. */
static void test_sharing(void)
{
	struct shape sh = { 5, 4, 8, false };
	static struct sections s;
	struct dwarf_lines lt;
	const char *first = NULL;
	struct buf *l = &s.line;
	size_t name, start;

	init(&s, &sh);
	for (int i = 0; i < 100; i++)
		add_unit(&s, &sh, 0);
	name = add_line_str(&s, "shared.c");
	start = begin_length(l, 4);
	put(l, 5, 2); put(l, 8, 1); put(l, 0, 1);
	s.header_length_at = l->n;
	put(l, 0, 4);
	put(l, 1, 1); put(l, 1, 1); put(l, 1, 1); put(l, (uint8_t)-5, 1);
	put(l, 14, 1); put(l, 13, 1);
	l->n += 12;
	l->d[s.header_length_at + 4 + 6 + 1] = 1;	/* advance_pc: one operand */
	put(l, 1, 1); uleb(l, 1); uleb(l, 0x1f); uleb(l, 1);
	put(l, add_line_str(&s, "/dir"), 4);
	put(l, 1, 1); uleb(l, 1); uleb(l, 0x1f); uleb(l, 1000);
	for (int i = 0; i < 1000; i++)
		put(l, name, 4);
	{
		size_t n = l->n;

		l->n = s.header_length_at;
		put(l, n - s.header_length_at - 4, 4);
		l->n = n;
	}
	set_address(l, 0x1000, 8);
	for (int i = 0; i < 1000; i++) {
		put(l, 4, 1); uleb(l, (uint64_t)i);	/* set_file */
		put(l, 1, 1);				/* copy */
		put(l, 2, 1); uleb(l, 1);		/* advance_pc */
	}
	end_sequence(l);
	end_length(l, start, 4);
	CHECK_U64(parse(&lt, &s), LINES_READ);
	CHECK_U64(lt.nfiles, 1000);
	CHECK_U64(lt.nrows, 1001);
	for (uint64_t pc = 0x1000; pc < 0x1000 + 1000; pc++) {
		struct g2c_error err;
		const char *f = NULL;
		unsigned line;

		CHECK_U64(dwarf_lines_lookup(&lt, pc, &f, &line, &err), 1);
		if (!first)
			first = f;
		if (f != first) {
			CHECK(f == first);
			break;
		}
	}
	CHECK(first && strcmp(first, "/dir/shared.c") == 0);
	dwarf_lines_release(&lt);
}

/* A table read for some addresses alone answers them as the whole table
 * does: sequences that overlap, go back in address, end at a row's
 * address, or do not end; each address alone and all of them at once. */
static void test_restricted(void)
{
	struct shape sh = { 4, 4, 8, false };
	static struct sections s;
	struct dwarf_lines whole, only;
	struct dwarf_sections v;
	struct g2c_error err;
	struct buf *l = &s.line;
	uint64_t pcs[0x2100], npcs = 0;

	init(&s, &sh);
	add_unit(&s, &sh, 0);
	begin_table(&s, &sh);
	set_address(l, 0x2000, 8);		/* 0x2000-0x2010: lines 1, 3, 4 */
	put(l, 1, 1);
	put(l, 2, 1); uleb(l, 4); put(l, 3, 1); sleb(l, 2); put(l, 1, 1);
	put(l, 2, 1); uleb(l, 4); put(l, 3, 1); sleb(l, 1); put(l, 1, 1);
	put(l, 2, 1); uleb(l, 8); end_sequence(l);
	set_address(l, 0x2008, 8);		/* overlapping: line 11 */
	put(l, 3, 1); sleb(l, 10); put(l, 1, 1);
	put(l, 2, 1); uleb(l, 4); end_sequence(l);
	set_address(l, 0x3000, 8);		/* back in address: 0x2ff0 */
	put(l, 3, 1); sleb(l, 20); put(l, 1, 1);
	set_address(l, 0x2ff0, 8);
	put(l, 3, 1); sleb(l, 1); put(l, 1, 1);
	put(l, 2, 1); uleb(l, 0x20); end_sequence(l);
	set_address(l, 0x3100, 8);		/* a row at its sequence's end */
	put(l, 1, 1); put(l, 2, 1); uleb(l, 2); put(l, 1, 1); end_sequence(l);
	set_address(l, 0x4000, 8);		/* no end */
	put(l, 3, 1); sleb(l, 5); put(l, 1, 1);
	end_table(&s, &sh);
	v = view(&s);
	CHECK_U64(dwarf_lines_parse(&whole, &v, NULL, "test", &err), LINES_READ);
	for (uint64_t pc = 0x1ff0; pc < 0x3110; pc++)
		pcs[npcs++] = pc;
	pcs[npcs++] = 0x4000;
	pcs[npcs++] = 0x5000;
	for (size_t n = 0; n <= npcs; n++) {
		/* N < NPCS: PCS[N] alone; then all of them */
		const uint64_t *asked = n < npcs ? &pcs[n] : pcs;
		size_t nasked = n < npcs ? 1 : npcs;
		bool same = true;

		CHECK_U64(dwarf_lines_parse(&only, &v, &(struct line_request){ asked, nasked, false },
					   "test", &err),
			  LINES_READ);
		for (size_t i = 0; i < nasked; i++) {
			const char *f1 = NULL, *f2 = NULL;
			unsigned l1 = 0, l2 = 0;
			int r1 = dwarf_lines_lookup(&whole, asked[i], &f1, &l1, &err);
			int r2 = dwarf_lines_lookup(&only, asked[i], &f2, &l2, &err);

			if (r1 != r2 || (r1 == 1 && (strcmp(f1, f2) != 0 || l1 != l2))) {
				printf("  at %#" PRIx64 ": %d %u, whole table %d %u\n",
				       asked[i], r2, l2, r1, l1);
				same = false;
			}
		}
		/* before every row: only the ends and the unended row stay */
		if (n == 0)
			CHECK_U64(only.nrows, 6);
		CHECK(same);
		dwarf_lines_release(&only);
	}
	expect_line(&whole, 0x2008, "/comp/a.c", 11);
	expect_line(&whole, 0x200c, NULL, 0);	/* the overlapping end */
	expect_line(&whole, 0x2ff8, "/comp/a.c", 22);
	expect_line(&whole, 0x4100, "/comp/a.c", 6);
	dwarf_lines_release(&whole);
}

/* Rows that answer as the row before them in their sequence are not
 * kept, and the answers are those of every row: lines 5, 5, 6, 6, 5 at
 * 4-byte steps keep three rows and an end. */
static void test_repeated_lines(void)
{
	struct shape sh = { 5, 4, 8, false };
	static struct sections s;
	struct dwarf_lines lt;
	struct dwarf_sections v;
	struct g2c_error err;
	struct buf *l = &s.line;
	static const unsigned lines[] = { 5, 5, 6, 6, 5 };

	init(&s, &sh);
	add_unit(&s, &sh, 0);
	begin_table(&s, &sh);
	set_address(l, 0x1000, 8);
	put(l, 3, 1); sleb(l, 4); put(l, 1, 1);		/* line 5 at 0x1000 */
	for (unsigned i = 1; i < 5; i++) {
		put(l, 2, 1); uleb(l, 4);
		put(l, 3, 1); sleb(l, (int)lines[i] - (int)lines[i - 1]);
		put(l, 1, 1);
	}
	put(l, 2, 1); uleb(l, 0x10); end_sequence(l);
	end_table(&s, &sh);
	v = view(&s);
	CHECK_U64(dwarf_lines_parse(&lt, &v, NULL, "test", &err), LINES_READ);
	CHECK_U64(lt.nrows, 4);
	for (uint64_t pc = 0x1000; pc < 0x1020; pc++)
		expect_line(&lt, pc, "/comp/a.c", pc < 0x1014 ? lines[(pc - 0x1000) / 4] : 5);
	expect_line(&lt, 0x1020, NULL, 0);
	dwarf_lines_release(&lt);
}

/* Tables read by two threads are the tables read by one: the same files
 * in the same order and the same rows, whatever the split. */
static void test_split(void)
{
	for (unsigned ntables = 2; ntables <= 5; ntables++) {
		struct shape sh = { 3 + ntables % 3, 4, 8, false };
		static struct sections s;
		struct dwarf_lines one, two;
		struct dwarf_sections v;
		struct g2c_error err;
		bool same;

		init(&s, &sh);
		for (unsigned t = 0; t < ntables; t++) {
			add_unit(&s, &sh, s.line.n);
			if (t == 1)
				add_unit(&s, &sh, s.line.n);	/* a shared table */
			begin_table(&s, &sh);
			usual_program(&s.line, 0x1000 + 0x100 * (ntables - t), 8);
			end_table(&s, &sh);
		}
		v = view(&s);
		CHECK_U64(dwarf_lines_parse(&one, &v, NULL, "test", &err), LINES_READ);
		CHECK_U64(dwarf_lines_parse(&two, &v, &(struct line_request){ NULL, 0, true },
					   "test", &err), LINES_READ);
		same = one.nfiles == two.nfiles && one.nrows == two.nrows &&
		       memcmp(one.rows, two.rows, one.nrows * sizeof *one.rows) == 0;
		for (uint64_t pc = 0x1000; same && pc < 0x1000 + 0x100 * (ntables + 1); pc++) {
			const char *f1 = NULL, *f2 = NULL;
			unsigned l1 = 0, l2 = 0;
			int r1 = dwarf_lines_lookup(&one, pc, &f1, &l1, &err);

			same = dwarf_lines_lookup(&two, pc, &f2, &l2, &err) == r1 &&
			       (r1 != 1 || (strcmp(f1, f2) == 0 && l1 == l2));
		}
		CHECK(same);
		CHECK_U64(one.nfiles, (sh.version == 5 ? 4 : 3) * ntables);
		dwarf_lines_release(&one);
		dwarf_lines_release(&two);
	}
}

/* Each allocation failing in turn: -1 with "out of memory" and the
 * object's name, never a table read another way, never a leak (the
 * harness runs this under valgrind and ASan). */
static void test_out_of_memory(void)
{
	struct shape sh = { 4, 4, 8, false };
	static struct sections s;
	struct dwarf_sections v;
	int failures = 0;

	init(&s, &sh);
	add_unit(&s, &sh, 0);
	add_unit(&s, &sh, 0);
	begin_table(&s, &sh);
	usual_program(&s.line, 0x1000, 8);
	end_table(&s, &sh);
	v = view(&s);
	for (long n = 1;; n++) {
		struct dwarf_lines lt;
		struct g2c_error err = { "" };
		const char *f;
		unsigned line;
		int rc, found = 1;

		allocations = 0;
		fail_at = n;
		rc = dwarf_lines_parse(&lt, &v, NULL, "prog", &err);
		if (rc == LINES_READ) {
			found = dwarf_lines_lookup(&lt, 0x1004, &f, &line, &err);
			if (found == 1)
				found = dwarf_lines_lookup(&lt, 0x1007, &f, &line, &err);
			dwarf_lines_release(&lt);
		}
		fail_at = 0;
		if (rc == LINES_READ && found == 1)
			break;	/* no allocation was left to fail */
		failures++;
		CHECK(rc == -1 || found == -1);
		CHECK_STR_CONTAINS(err.msg, "prog: out of memory");
		if (n > 1000) {
			CHECK(!"allocation failures never end");
			break;
		}
	}
	CHECK(failures >= 4);
}

int main(void)
{
	test_shapes();
	test_indexed_comp_dir();
	test_hostile_programs();
	test_hostile_headers();
	test_truncation();
	test_sharing();
	test_restricted();
	test_repeated_lines();
	test_split();
	test_out_of_memory();
	return check_report("test-lines");
}
