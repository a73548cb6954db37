/* symtab.c -- the resolver: the executable's functions, read with libbfd. */
#include <config.h>

#include <bfd.h>
#include <dis-asm.h>
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "lines.h"
#include "util.h"
#include "symtab.h"

/* From libiberty's demangle.h, which Debian's binutils-dev does not ship:
 * show parameter lists, and ANSI qualifiers such as const. */
#ifndef DMGL_PARAMS
#define DMGL_PARAMS (1 << 0)
#define DMGL_ANSI (1 << 1)
#endif

struct section_bytes {
	asection *sec;
	bfd_byte *data;		/* NULL: could not be read */
};

/* gprof leaves the profiling runtime's own functions out of every total. */
static const char *const mcount_family[] = {
	"_gprof_mcount", "mcount", "_mcount", "__mcount",
	"__mcount_internal", "__mcleanup",
};

static bool is_mcount_family(const char *name)
{
	for (size_t i = 0; i < sizeof mcount_family / sizeof *mcount_family; i++)
		if (strcmp(name, mcount_family[i]) == 0)
			return true;
	return false;
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* gprof's rule for local symbols with a '.': GCC's numbered nested or
 * cloned functions ("f.123", "f.constprop.0", "f.clone.2") are functions.
 * gprof's scanner also reads the string after NAME in the string table;
 * we apply the rule as meant. */
static bool gprof_dotted_name(const char *name)
{
	const char *p = name;

	while ((p = strchr(p, '.')) != NULL) {
		if (starts_with(p, ".constprop."))
			p += strlen(".constprop");
		else if (starts_with(p, ".clone."))
			p += strlen(".clone");
		p++;
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return true;
}

/* gprof rejects GCC's other clones and split parts ("f.part.0",
 * "f.isra.0", "f.cold", "f.lto_priv.0") and credits their samples and
 * calls to whatever function comes before them.  They are functions: any
 * local symbol typed as a function counts. */
static bool static_name_is_function(const asymbol *sym)
{
	return gprof_dotted_name(sym->name) ||
	       (sym->name[0] != '.' && (sym->flags & BSF_FUNCTION));
}

/* The length of the parent's name if RAW names the cold part of a
 * function split by GCC ("f.cold", "f.cold.3"), else 0. */
static size_t cold_parent_length(const char *raw)
{
	const char *cold = strstr(raw, ".cold");

	if (!cold || cold == raw || (cold[5] != '\0' && cold[5] != '.'))
		return 0;
	return (size_t)(cold - raw);
}

/* Decides, as gprof's core_sym_class does, whether SYM names a function;
 * sets *IS_STATIC.  Unlike gprof, weak symbols outside code sections (such
 * as data_start) are not taken for functions. */
static bool symbol_is_function(bfd *abfd, asymbol *sym, bool no_statics,
			       bool *is_static)
{
	char leading = bfd_get_symbol_leading_char(abfd);
	int cls;

	if (!sym->section || (sym->flags & BSF_DEBUGGING) ||
	    !(sym->section->flags & SEC_CODE))
		return false;
	cls = bfd_decode_symclass(sym);
	if (cls == 'T' || cls == 'W') {
		*is_static = false;
		return true;
	}
	if (cls != 't' || no_statics)
		return false;
	*is_static = true;
	return sym->name[0] != '\0' && !strchr(sym->name, '$') &&
	       !(leading && sym->name[0] != leading) &&
	       !starts_with(sym->name, "__gnu_compiled") &&
	       !starts_with(sym->name, "___gnu_compiled") &&
	       static_name_is_function(sym);
}

/* Sort key of gprof's symtab_finalize, made total by the name so that the
 * result never depends on qsort's order. */
static int compare_funcs(const void *a, const void *b)
{
	const struct symtab_func *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->is_func != y->is_func)
		return x->is_func ? -1 : 1;
	if (x->is_static != y->is_static)
		return x->is_static ? 1 : -1;
	return strcmp(x->raw_name, y->raw_name);
}

/* gprof's preference among names at one address: a global over a static,
 * a function over a label, then a name without a leading underscore. */
static bool name_is_better(const struct symtab_func *n,
			   const struct symtab_func *kept)
{
	if (n->is_static != kept->is_static)
		return !n->is_static;
	if (n->is_func != kept->is_func)
		return n->is_func;
	if (n->raw_name[0] != '_' && kept->raw_name[0] == '_')
		return true;
	return n->raw_name[0] == '_' && kept->raw_name[0] == '_' &&
	       n->raw_name[1] != '_' && kept->raw_name[1] == '_';
}

static int bfd_failure(struct g2c_error *err, const char *path)
{
	return g2c_error_set(err, "%s: %s", path, bfd_errmsg(bfd_get_error()));
}

static int check_file(const char *path, struct g2c_error *err)
{
	struct stat sb;

	if (stat(path, &sb) < 0)
		return g2c_error_set(err, "%s: %s", path, strerror(errno));
	if (S_ISDIR(sb.st_mode))
		return g2c_error_set(err, "%s: is a directory, not an executable",
				     path);
	if (!S_ISREG(sb.st_mode))
		return g2c_error_set(err, "%s: not a regular file", path);
	return 0;
}

/* Opens PATH as an object file (not an archive) in *OUT. */
static int open_object(const char *path, bfd **out, struct g2c_error *err)
{
	char **matching = NULL;

	*out = bfd_openr(path, NULL);
	if (!*out)
		return bfd_failure(err, path);
	(*out)->flags |= BFD_DECOMPRESS;
	if (bfd_check_format(*out, bfd_archive))
		return g2c_error_set(err, "%s: is an archive, not an executable",
				     path);
	if (!bfd_check_format_matches(*out, bfd_object, &matching)) {
		if (bfd_get_error() == bfd_error_file_ambiguously_recognized) {
			free(matching);
			return g2c_error_set(err,
					     "%s: file format is ambiguous",
					     path);
		}
		return g2c_error_set(err, "%s: not an executable (%s)", path,
				     bfd_errmsg(bfd_get_error()));
	}
	/* gcc -gz=zlib-gnu's .zdebug_* sections are decompressed already;
	 * libbfd's DWARF reader finds some of them only by their plain
	 * names (.debug_rnglists in binutils 2.40). */
	for (asection *sec = (*out)->sections; sec; sec = sec->next) {
		char *plain;

		if (strncmp(sec->name, ".zdebug_", 8) != 0)
			continue;
		if (!(plain = bfd_alloc(*out, strlen(sec->name))))
			return g2c_error_set(err, "%s: out of memory", path);
		sprintf(plain, ".%s", sec->name + 2);
		bfd_rename_section(sec, plain);
	}
	return 0;
}

static int open_bfd(struct symtab *st, const char *path, struct g2c_error *err)
{
	int bits;

	if (open_object(path, &st->abfd, err) < 0)
		return -1;
	bits = bfd_get_arch_size(st->abfd);
	if (bits < 0)
		bits = (int)bfd_arch_bits_per_address(st->abfd);
	if (bits != 32 && bits != 64)
		return g2c_error_set(err, "%s: unsupported address size of %d bits",
				     path, bits);
	st->target.addr_size = (unsigned)bits / 8;
	st->target.big_endian = bfd_big_endian(st->abfd);
	return 0;
}

/* A stripped executable's symbols and debug information may be in a
 * separate file, named by its build-id or its .gnu_debuglink, looked for
 * where gdb looks (beside it, in .debug/ beside it, and below DEBUG_DIR,
 * by default /usr/lib/debug).  Uses that file, when the executable has no
 * debug information of its own and the file is found. */
static int open_debug_file(struct symtab *st, const char *debug_dir,
			   struct g2c_error *err)
{
	const char *dir = debug_dir ? debug_dir : "/usr/lib/debug";
	char *found;

	st->dbfd = st->abfd;
	if (bfd_get_section_by_name(st->abfd, ".debug_info"))
		return 0;
	found = bfd_follow_build_id_debuglink(st->abfd, dir);
	if (!found)
		found = bfd_follow_gnu_debuglink(st->abfd, dir);
	if (!found)
		return 0;
	st->debug_path = found;
	if (open_object(found, &st->dbfd, err) < 0) {
		if (st->dbfd)
			bfd_close(st->dbfd);
		st->dbfd = st->abfd;
		return -1;
	}
	return 0;
}

static int no_symbols(const struct symtab *st, const char *path,
		      struct g2c_error *err)
{
	if (st->debug_path)
		return g2c_error_set(err, "%s: no symbols in it or in its debug file %s",
				     path, st->debug_path);
	return g2c_error_set(err, "%s: no symbols (and no separate debug file found)",
			     path);
}

/* The static symbols (of the debug file, if one is used), plus the
 * synthetic "name@plt" symbols of the executable's PLT. */
static int read_symbols(struct symtab *st, const char *path,
			struct g2c_error *err)
{
	long size, count, dynsize, ndyn = 0;

	if (!(bfd_get_file_flags(st->dbfd) & HAS_SYMS))
		return no_symbols(st, path, err);
	size = bfd_get_symtab_upper_bound(st->dbfd);
	if (size < 0)
		return bfd_failure(err, path);
	st->syms = malloc(size > 0 ? (size_t)size : 1);
	if (!st->syms)
		return g2c_error_set(err, "%s: out of memory for symbols", path);
	count = bfd_canonicalize_symtab(st->dbfd, st->syms);
	if (count < 0)
		return bfd_failure(err, path);
	if (count == 0)
		return no_symbols(st, path, err);
	st->nsyms = count;
	dynsize = bfd_get_dynamic_symtab_upper_bound(st->abfd);
	if (dynsize > 0 && (st->dynsyms = malloc((size_t)dynsize)) != NULL)
		ndyn = bfd_canonicalize_dynamic_symtab(st->abfd, st->dynsyms);
	if (ndyn > 0)
		st->nsynth = bfd_get_synthetic_symtab(st->abfd, count, st->syms,
						      ndyn, st->dynsyms,
						      &st->synth);
	if (st->nsynth < 0)
		st->nsynth = 0;
	return 0;
}

static const char *display_name(struct symtab *st, const char *raw,
				const struct symtab_options *opts)
{
	char *demangled, **owned;

	if (!opts->demangle)
		return raw;
	demangled = bfd_demangle(st->abfd, raw, DMGL_PARAMS | DMGL_ANSI);
	if (!demangled)
		return raw;
	owned = realloc(st->owned, (st->nowned + 1) * sizeof *owned);
	if (!owned) {
		free(demangled);
		return raw;
	}
	st->owned = owned;
	st->owned[st->nowned++] = demangled;
	return demangled;
}

static uint64_t section_end(const asection *sec)
{
	return bfd_section_vma(sec) + bfd_section_size(sec);
}

/* Compares NAME (LEN bytes) with a whole raw name. */
static int compare_prefix(const char *name, size_t len, const char *raw)
{
	int c = strncmp(name, raw, len);

	return c ? c : -(raw[len] != '\0');
}

/* qsort has no context argument: the table whose indexes are sorted. */
static const struct symtab_func *sort_funcs;

static int compare_raw_names(const void *x, const void *y)
{
	return strcmp(sort_funcs[*(const size_t *)x].raw_name,
		      sort_funcs[*(const size_t *)y].raw_name);
}

/* Each function owns itself, but a cold part ("f.cold") belongs to its
 * parent: the function named f nearest to it.  Parents are found by
 * binary search in the functions sorted by name. */
static void assign_cold_parts(struct symtab *st)
{
	size_t *by_name = malloc(st->nfuncs * sizeof *by_name);

	for (size_t i = 0; i < st->nfuncs; i++) {
		st->funcs[i].owner = i;
		if (by_name)
			by_name[i] = i;
	}
	if (!by_name)
		return;		/* cold parts then stand alone */
	sort_funcs = st->funcs;
	qsort(by_name, st->nfuncs, sizeof *by_name, compare_raw_names);
	for (size_t i = 0; i < st->nfuncs; i++) {
		const char *name = st->funcs[i].raw_name;
		size_t len = cold_parent_length(name), lo = 0, hi = st->nfuncs;
		uint64_t best = UINT64_MAX, b = st->funcs[i].addr;

		if (len == 0)
			continue;
		while (lo < hi) {	/* first function named NAME[0..len) */
			size_t mid = lo + (hi - lo) / 2;

			if (compare_prefix(name, len, st->funcs[by_name[mid]].raw_name) > 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < st->nfuncs &&
		       compare_prefix(name, len, st->funcs[by_name[lo]].raw_name) == 0; lo++) {
			uint64_t a = st->funcs[by_name[lo]].addr;
			uint64_t distance = a > b ? a - b : b - a;

			if (distance < best) {
				best = distance;
				st->funcs[i].owner = by_name[lo];
			}
		}
	}
	free(by_name);
}

static int build_table(struct symtab *st, const struct symtab_options *opts,
		       const char *path, struct g2c_error *err)
{
	struct symtab_func *f;
	uint64_t *ends;
	size_t n = 0, kept = 0;

	size_t ncands = (size_t)st->nsyms + (size_t)st->nsynth;

	f = calloc(ncands, sizeof *f);
	ends = calloc(ncands, sizeof *ends);
	if (!f || !ends) {
		free(f);
		free(ends);
		return g2c_error_set(err, "%s: out of memory for symbols", path);
	}
	for (size_t i = 0; i < ncands; i++) {
		asymbol *sym = i < (size_t)st->nsyms ? st->syms[i]
						     : &st->synth[i - (size_t)st->nsyms];
		bool is_static = false;

		/* PLT entries ("puts@plt") are functions of their own;
		 * gprof, which does not read them, credits them to _init. */
		if (!(sym->flags & BSF_SYNTHETIC) &&
		    !symbol_is_function(st->dbfd, sym, opts->no_statics, &is_static))
			continue;
		if ((sym->flags & BSF_SYNTHETIC) && !(sym->section->flags & SEC_CODE))
			continue;
		f[n].addr = bfd_asymbol_value(sym);
		f[n].raw_name = sym->name;
		f[n].is_static = is_static;
		f[n].is_func = (sym->flags & BSF_FUNCTION) != 0;
		/* Stash the section end until the table is sorted. */
		f[n].end = section_end(sym->section);
		n++;
	}
	if (n == 0) {
		free(f);
		free(ends);
		return g2c_error_set(err, "%s: no function symbols", path);
	}
	qsort(f, n, sizeof *f, compare_funcs);
	for (size_t i = 0; i < n; i++) {
		if (kept > 0 && f[kept - 1].addr == f[i].addr) {
			if (name_is_better(&f[i], &f[kept - 1]))
				f[kept - 1] = f[i];
			continue;
		}
		f[kept++] = f[i];
	}
	for (size_t i = 0; i < kept; i++) {
		uint64_t limit = f[i].end;

		ends[i] = i + 1 < kept && f[i + 1].addr < limit ? f[i + 1].addr
								: limit;
		/* A symbol past its section's end gets an empty range. */
		if (ends[i] < f[i].addr)
			ends[i] = f[i].addr;
	}
	for (size_t i = 0; i < kept; i++) {
		const char *raw = f[i].raw_name;

		if (bfd_get_symbol_leading_char(st->abfd) &&
		    raw[0] == bfd_get_symbol_leading_char(st->abfd))
			raw++;
		f[i].end = ends[i];
		f[i].excluded = is_mcount_family(raw);
		f[i].name = display_name(st, f[i].raw_name, opts);
	}
	free(ends);
	st->funcs = f;
	st->nfuncs = kept;
	assign_cold_parts(st);
	return 0;
}

int symtab_open(struct symtab *st, const char *path,
		const struct symtab_options *opts, struct g2c_error *err)
{
	memset(st, 0, sizeof *st);
	if (bfd_init() != BFD_INIT_MAGIC)
		return g2c_error_set(err, "libbfd does not match the bfd.h gmon2cg was built with");
	if (check_file(path, err) < 0)
		return -1;
	st->path = realpath(path, NULL);
	if (!st->path)
		return g2c_error_set(err, "%s: %s", path, strerror(errno));
	if (open_bfd(st, path, err) < 0 ||
	    open_debug_file(st, opts->debug_dir, err) < 0 ||
	    read_symbols(st, path, err) < 0 ||
	    build_table(st, opts, path, err) < 0)
		goto fail;
	return 0;
fail:
	symtab_close(st);
	return -1;
}

static void free_decoder(struct symtab *st);

void symtab_forget_code(struct symtab *st)
{
	for (size_t i = 0; st->code && i < st->nfuncs; i++)
		free(st->code[i].insns);
	free(st->code);
	st->code = NULL;
	for (size_t i = 0; i < st->nbytes; i++)
		free(st->bytes[i].data);
	free(st->bytes);
	st->bytes = NULL;
	st->nbytes = 0;
}

void symtab_close(struct symtab *st)
{
	symtab_forget_code(st);
	if (st->lines)
		line_table_release(st->lines);
	free(st->lines);
	free(st->arm_maps);
	free_decoder(st);
	for (size_t i = 0; i < st->nowned; i++)
		free(st->owned[i]);
	free(st->owned);
	free(st->funcs);
	free(st->syms);
	free(st->synth);
	free(st->dynsyms);
	free(st->path);
	free(st->debug_path);
	if (st->dbfd && st->dbfd != st->abfd)
		bfd_close(st->dbfd);
	if (st->abfd)
		bfd_close(st->abfd);
	memset(st, 0, sizeof *st);
}

size_t symtab_mark(const struct symtab *st, const char *name, bool *set)
{
	char leading = st->dbfd ? bfd_get_symbol_leading_char(st->dbfd) : 0;
	size_t n = 0;

	for (size_t i = 0; i < st->nfuncs; i++) {
		const char *raw = st->funcs[i].raw_name;

		if (leading && raw[0] == leading)
			raw++;
		if (strcmp(raw, name) == 0 || strcmp(st->funcs[i].name, name) == 0) {
			set[i] = true;
			n++;
		}
	}
	return n;
}

size_t symtab_lookup(const struct symtab *st, uint64_t pc)
{
	size_t lo = 0, hi = st->nfuncs;

	/* Find the last function starting at or below PC. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->funcs[mid].addr <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || pc >= st->funcs[lo - 1].end)
		return SYMTAB_NONE;
	return lo - 1;
}

static asection *code_section_of(struct symtab *st, uint64_t pc);

/* The contents of code section SEC, read once. */
static const bfd_byte *section_contents(struct symtab *st, asection *sec)
{
	struct section_bytes *bytes;
	bfd_byte *data = NULL;

	for (size_t i = 0; i < st->nbytes; i++)
		if (st->bytes[i].sec == sec)
			return st->bytes[i].data;
	bytes = realloc(st->bytes, (st->nbytes + 1) * sizeof *bytes);
	if (!bytes)
		return NULL;
	st->bytes = bytes;
	if (!(sec->flags & SEC_HAS_CONTENTS) ||
	    !bfd_malloc_and_get_section(st->abfd, sec, &data))
		data = NULL;
	st->bytes[st->nbytes++] = (struct section_bytes){ sec, data };
	return data;
}

/* The first two words libopcodes printed for one instruction (enough to
 * see a call, also behind a prefix such as "notrack"), and the last
 * address it printed (a direct branch or call target).  Formatting the
 * rest is skipped: it is most of the decoder's time. */
struct insn_text {
	char text[40];
	size_t len;
	unsigned words;		/* words completed so far */
	uint64_t target;
	bool has_target;
};

static void append_text(struct insn_text *t, const char *fmt, va_list ap)
{
	const char *piece;
	char buf[40];

	if (t->words >= 2)
		return;
	/* Most pieces are plain strings: no need to format them. */
	if (strcmp(fmt, "%s") == 0) {
		piece = va_arg(ap, const char *);
	} else if (!strchr(fmt, '%')) {
		piece = fmt;
	} else {
		vsnprintf(buf, sizeof buf, fmt, ap);
		piece = buf;
	}
	for (; *piece && t->words < 2 && t->len + 1 < sizeof t->text; piece++) {
		bool space = *piece == ' ' || *piece == '\t';

		if (space && (t->len == 0 || t->text[t->len - 1] == ' '))
			continue;
		if (space) {
			t->text[t->len] = '\0';
			t->words++;
			/* A second word matters only behind an x86 prefix. */
			if (t->words == 1 && strcmp(t->text, "notrack") != 0 &&
			    strcmp(t->text, "bnd") != 0)
				t->words = 2;
		}
		t->text[t->len++] = space ? ' ' : *piece;
	}
	t->text[t->len] = '\0';
}

static int capture_text(void *stream, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	append_text(stream, fmt, ap);
	va_end(ap);
	return 0;
}

static int capture_styled_text(void *stream, enum disassembler_style style,
			       const char *fmt, ...)
{
	va_list ap;

	(void)style;
	va_start(ap, fmt);
	append_text(stream, fmt, ap);
	va_end(ap);
	return 0;
}

static void capture_address(bfd_vma addr, struct disassemble_info *info)
{
	struct insn_text *t = info->stream;

	t->target = addr;
	t->has_target = true;
}

/* Call mnemonics of the architectures whose disassemblers do not say. */
static bool is_call_mnemonic(enum bfd_architecture arch, const char *word,
			     size_t len)
{
	static const struct { enum bfd_architecture arch; const char *word; } calls[] = {
		{ bfd_arch_i386, "call" }, { bfd_arch_i386, "callq" },
		{ bfd_arch_i386, "calll" }, { bfd_arch_i386, "callw" },
		{ bfd_arch_arm, "bl" }, { bfd_arch_arm, "blx" },
		{ bfd_arch_aarch64, "bl" }, { bfd_arch_aarch64, "blr" },
		{ bfd_arch_powerpc, "bl" }, { bfd_arch_powerpc, "bla" },
		{ bfd_arch_powerpc, "bctrl" }, { bfd_arch_powerpc, "blrl" },
		{ bfd_arch_s390, "brasl" }, { bfd_arch_s390, "bras" },
		{ bfd_arch_s390, "basr" }, { bfd_arch_s390, "bas" },
		{ bfd_arch_mips, "jal" }, { bfd_arch_mips, "jalr" },
		{ bfd_arch_mips, "bal" }, { bfd_arch_mips, "jalx" },
		{ bfd_arch_riscv, "jal" }, { bfd_arch_riscv, "jalr" },
		{ bfd_arch_riscv, "call" },
	};

	for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
		if (calls[i].arch == arch && strlen(calls[i].word) == len &&
		    memcmp(calls[i].word, word, len) == 0)
			return true;
	return false;
}

/* Whether the instruction text names a call: its first word, or the
 * second after a prefix. */
static bool text_is_call(enum bfd_architecture arch, const char *text)
{
	const char *space = strchr(text, ' ');
	size_t first = space ? (size_t)(space - text) : strlen(text);

	if (is_call_mnemonic(arch, text, first))
		return true;
	if (!space)
		return false;
	text = space + 1;
	space = strchr(text, ' ');
	return is_call_mnemonic(arch, text, space ? (size_t)(space - text)
						  : strlen(text));
}

static int compare_arm_maps(const void *x, const void *y)
{
	const struct arm_map *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Whether the ARM code at PC is Thumb: the last mapping symbol ("$t" for
 * Thumb, "$a" for ARM, "$d" for data) at or before PC says.  The mapping
 * symbols are collected and sorted on first use. */
static bool arm_is_thumb(struct symtab *st, uint64_t pc)
{
	size_t lo = 0, hi;

	if (!st->arm_maps_built) {
		st->arm_maps_built = true;
		st->arm_maps = malloc((size_t)(st->nsyms ? st->nsyms : 1) *
				      sizeof *st->arm_maps);
		for (long i = 0; st->arm_maps && i < st->nsyms; i++) {
			const asymbol *sym = st->syms[i];

			if (sym->name[0] == '$' && strchr("atd", sym->name[1]) &&
			    sym->name[1] && (sym->name[2] == '\0' || sym->name[2] == '.') &&
			    (sym->section->flags & SEC_CODE))
				st->arm_maps[st->narm_maps++] = (struct arm_map){
					bfd_asymbol_value(sym), sym->name[1] == 't' };
		}
		if (st->narm_maps)
			qsort(st->arm_maps, st->narm_maps, sizeof *st->arm_maps,
			      compare_arm_maps);
	}
	for (hi = st->narm_maps; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->arm_maps[mid].addr <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && st->arm_maps[lo - 1].thumb;
}

/* libopcodes' decoder and its state, set up once: some targets allocate
 * private data in disassemble_init_for_target. */
struct decoder {
	disassembler_ftype decode;
	struct disassemble_info info;
	struct insn_text text;
};

static struct decoder *get_decoder(struct symtab *st)
{
	enum bfd_architecture arch = bfd_get_arch(st->abfd);
	struct decoder *d;
	disassembler_ftype decode;

	if (st->disasm_tried)
		return st->disasm;
	st->disasm_tried = true;
	decode = disassembler(arch, bfd_big_endian(st->abfd),
			      bfd_get_mach(st->abfd), st->abfd);
	if (!decode || !(d = calloc(1, sizeof *d)))
		return NULL;
	d->decode = decode;
	init_disassemble_info(&d->info, &d->text, capture_text, capture_styled_text);
	d->info.arch = arch;
	d->info.mach = bfd_get_mach(st->abfd);
	d->info.endian = bfd_big_endian(st->abfd) ? BFD_ENDIAN_BIG : BFD_ENDIAN_LITTLE;
	d->info.print_address_func = capture_address;
	disassemble_init_for_target(&d->info);
	st->disasm = d;
	return d;
}

static void free_decoder(struct symtab *st)
{
	struct decoder *d = st->disasm;

	if (d) {
		disassemble_free_target(&d->info);
		free(d);
	}
}

static int decode_function(struct symtab *st, size_t f, struct symtab_code *code)
{
	const struct symtab_func *fn = &st->funcs[f];
	asection *sec = code_section_of(st, fn->addr);
	const bfd_byte *data = sec ? section_contents(st, sec) : NULL;
	struct decoder *d = data ? get_decoder(st) : NULL;
	struct disassemble_info *info;
	uint64_t pc, end;
	size_t cap = 0;

	if (!d)
		return 0;
	info = &d->info;
	info->section = sec;
	info->buffer = (bfd_byte *)data;
	info->buffer_vma = bfd_section_vma(sec);
	info->buffer_length = bfd_section_size(sec);
	/* ARM code may be Thumb; its mapping symbols say which. */
	if (info->arch == bfd_arch_arm)
		info->disassembler_options = arm_is_thumb(st, fn->addr) ?
					     "force-thumb" : "no-force-thumb";
	end = fn->end < section_end(sec) ? fn->end : section_end(sec);
	for (pc = fn->addr; pc < end;) {
		struct symtab_insn *insns;
		int len;

		d->text.len = 0;
		d->text.words = 0;
		d->text.text[0] = '\0';
		d->text.has_target = false;
		info->insn_info_valid = 0;
		len = d->decode(pc, info);
		if (len <= 0)
			len = 1;	/* undecodable: one byte at a time */
		insns = array_grow(code->insns, &cap, code->count + 1, sizeof *insns);
		if (!insns)
			return -1;
		code->insns = insns;
		insns[code->count].pc = pc;
		insns[code->count].len = (uint32_t)len;
		insns[code->count].is_call =
			(info->insn_info_valid && info->insn_type == dis_jsr) ||
			text_is_call(info->arch, d->text.text);
		insns[code->count].target = insns[code->count].is_call &&
					    d->text.has_target ? d->text.target : 0;
		code->count++;
		pc += (uint64_t)len;
	}
	return 0;
}

const struct symtab_insn *symtab_instructions(struct symtab *st, size_t f,
					      size_t *count)
{
	struct symtab_code *code;

	*count = 0;
	if (!st->abfd || f >= st->nfuncs)
		return NULL;
	if (!st->code) {
		st->code = calloc(st->nfuncs, sizeof *st->code);
		if (!st->code)
			return NULL;
	}
	code = &st->code[f];
	if (!code->decoded) {
		code->decoded = true;
		if (decode_function(st, f, code) < 0) {
			free(code->insns);
			code->insns = NULL;
			code->count = 0;
		}
	}
	*count = code->count;
	return code->insns;
}

/* The usual case needs no disassembly: an x86 "call rel32" (0xe8 and a
 * 32-bit displacement) or an AArch64 "bl" to CALLEE returning into the
 * bucket.  Returns its address, or 0. */
static uint64_t direct_call_by_bytes(struct symtab *st, uint64_t bucket,
				     uint64_t size, uint64_t callee)
{
	enum bfd_architecture arch = bfd_get_arch(st->abfd);
	asection *sec = code_section_of(st, bucket);
	const bfd_byte *data = sec ? section_contents(st, sec) : NULL;
	uint64_t vma, len;

	if (!data || (arch != bfd_arch_i386 && arch != bfd_arch_aarch64))
		return 0;
	vma = bfd_section_vma(sec);
	len = bfd_section_size(sec);
	for (uint64_t ret = bucket; ret < bucket + size; ret++) {
		uint64_t at = ret - vma;
		int64_t disp;

		if (ret < vma + 5 || at > len)
			continue;
		if (arch == bfd_arch_i386 && data[at - 5] == 0xe8) {
			disp = (int32_t)((uint32_t)data[at - 4] | (uint32_t)data[at - 3] << 8 |
					 (uint32_t)data[at - 2] << 16 | (uint32_t)data[at - 1] << 24);
			if (ret + (uint64_t)disp == callee)
				return ret - 5;
		} else if (arch == bfd_arch_aarch64 && ret % 4 == 0) {
			uint32_t insn = (uint32_t)data[at - 4] | (uint32_t)data[at - 3] << 8 |
					(uint32_t)data[at - 2] << 16 | (uint32_t)data[at - 1] << 24;

			if ((insn >> 26) != 0x25)	/* bl */
				continue;
			disp = (int64_t)((int32_t)(insn << 6) >> 6) * 4;
			if (ret - 4 + (uint64_t)disp == callee)
				return ret - 4;
		}
	}
	return 0;
}

uint64_t symtab_call_site(struct symtab *st, uint64_t bucket, uint64_t size,
			  uint64_t callee)
{
	size_t f = symtab_lookup(st, bucket);
	uint64_t direct, indirect = 0;
	size_t ndirect = 0, nindirect = 0;

	if (!st->abfd || f == SYMTAB_NONE)
		return bucket;
	direct = direct_call_by_bytes(st, bucket, size, callee);
	if (direct)
		return direct;
	/* The call may be in the function the bucket starts in or, when a
	 * function starts inside the bucket, in the next ones. */
	for (; f < st->nfuncs && st->funcs[f].addr < bucket + size; f++) {
		size_t n;
		const struct symtab_insn *insns = symtab_instructions(st, f, &n);

		for (size_t i = 0; i < n; i++) {
			uint64_t ret = insns[i].pc + insns[i].len;

			if (!insns[i].is_call || ret < bucket || ret >= bucket + size)
				continue;
			if (insns[i].target == callee) {
				if (ndirect++ == 0)
					direct = insns[i].pc;
			} else if (insns[i].target == 0 && nindirect++ == 0) {
				indirect = insns[i].pc;
			}
		}
	}
	/* Calls whose target is known and another function cannot have
	 * made it; an indirect call can, when it is the only one. */
	if (ndirect > 0)
		return direct;
	return nindirect == 1 ? indirect : bucket;
}

/* The code section of ABFD holding PC, trying *CACHE first. */
static asection *section_in(bfd *abfd, asection **cache, uint64_t pc)
{
	asection *sec = *cache;

	if (sec && pc >= bfd_section_vma(sec) && pc < section_end(sec))
		return sec;
	for (sec = abfd->sections; sec; sec = sec->next) {
		if ((sec->flags & (SEC_CODE | SEC_ALLOC)) != (SEC_CODE | SEC_ALLOC))
			continue;
		if (pc >= bfd_section_vma(sec) && pc < section_end(sec)) {
			*cache = sec;
			return sec;
		}
	}
	return NULL;
}

static asection *code_section_of(struct symtab *st, uint64_t pc)
{
	return section_in(st->abfd, &st->last_section, pc);
}

int symtab_source_line(struct symtab *st, uint64_t pc, bool outermost,
		       const char **file, unsigned *line, struct g2c_error *err)
{
	const char *f = NULL, *func = NULL, *outer_file, *outer_func;
	unsigned l = 0, outer_line;
	asection *sec;

	*file = NULL;
	*line = 0;
	if (!st->dbfd)
		return 0;
	/* The innermost position is the line table's own answer: read the
	 * tables directly, much faster than libbfd's full parse. */
	if (!st->lines_tried) {
		int rc;

		st->lines = calloc(1, sizeof *st->lines);
		rc = st->lines ? line_table_read(st->lines, st->dbfd, err) :
			g2c_error_set(err, "%s: out of memory reading line tables",
				      st->path);
		if (rc != LINES_READ) {
			free(st->lines);
			st->lines = NULL;
		}
		/* Out of memory fails the conversion (asked again, the tables
		 * are read again): libbfd must not answer instead. */
		if (rc < 0)
			return -1;
		st->lines_tried = true;
	}
	if (!outermost && st->lines) {
		int found = line_table_lookup(st->lines, pc, file, line, err);

		/* Where no row covers PC, libbfd still names a file from the
		 * symbol table. */
		if (found != 0)
			return found < 0 ? -1 : 0;
	}
	if (!(sec = section_in(st->dbfd, &st->last_line_section, pc)))
		return 0;
	if (!bfd_find_nearest_line(st->dbfd, sec, st->syms,
				   pc - bfd_section_vma(sec), &f, &func, &l) ||
	    !f)
		return 0;
	/* Walk out of inlined frames to the function that owns PC. */
	while (outermost && bfd_find_inliner_info(st->dbfd, &outer_file,
						  &outer_func, &outer_line)) {
		f = outer_file;
		l = outer_line;
	}
	*file = f;
	*line = l;
	return 0;
}
