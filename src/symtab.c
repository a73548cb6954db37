/* symtab.c -- the functions of one object, from its symbol table. */
#include <config.h>

#include <bfd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_calls.h"
#include "diag.h"
#include "object.h"
#include "symtab.h"
#include "util.h"

/* From libiberty's demangle.h, which Debian's binutils-dev does not ship:
 * show parameter lists, and ANSI qualifiers such as const. */
#ifndef DMGL_PARAMS
#define DMGL_PARAMS (1 << 0)
#define DMGL_ANSI (1 << 1)
#endif

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
	const char *cold = raw;

	/* (strstr's first ".cold", looked for at each '.': most names,
	 * which this sees all of, have none) */
	while ((cold = strchr(cold, '.')) && strncmp(cold, ".cold", 5) != 0)
		cold++;

	if (!cold || cold == raw || (cold[5] != '\0' && cold[5] != '.'))
		return 0;
	return (size_t)(cold - raw);
}

/* The part of libbfd's elf_symbol_type (elf-bfd.h, not installed) that
 * holds an ELF symbol's value and size: an asymbol, then the
 * Elf_Internal_Sym, whose first members are st_value and st_size. */
struct elf_symbol_head {
	asymbol symbol;
	struct {
		bfd_vma st_value;
		bfd_vma st_size;
		unsigned long st_name;
		unsigned char st_info;
	} internal;
};

/* SYM's ELF size (st_size), or 0 where it has none or is not an ELF
 * symbol of ABFD; the value is checked against the symbol's address
 * before the size is believed. */
static uint64_t elf_symbol_size(bfd *abfd, asymbol *sym)
{
	const struct elf_symbol_head *e = (const struct elf_symbol_head *)sym;

	if (bfd_get_flavour(abfd) != bfd_target_elf_flavour ||
	    (sym->flags & BSF_SYNTHETIC) ||
	    e->internal.st_value != bfd_asymbol_value(sym))
		return 0;
	return e->internal.st_size;
}

/* Whether SYM is of the ELF symbol type that ABFD's architecture gives
 * its millicode (arch_calls.h): code, if not typed as a function. */
static bool is_millicode(bfd *abfd, asymbol *sym)
{
	const struct elf_symbol_head *e = (const struct elf_symbol_head *)sym;
	unsigned type = arch_calls_of(bfd_get_arch(abfd))->millicode_type;

	return type && elf_symbol_size(abfd, sym) > 0 &&
	       (e->internal.st_info & 0xf) == type;
}

/* gprof drops every local symbol with a '$' in its name, which marks
 * assembler labels: ARM's and AArch64's mapping symbols ($a, $t, $d, $x),
 * the local labels of MIPS and PowerPC ($L...), untyped and without a
 * size.  clang names lambdas and all it instantiates with them with '$'
 * ("compute(int)::$_1::operator()", "std::__introsort_loop<...$_0>"):
 * a symbol typed as a function and given a size is a function, whatever
 * its name. */
static bool is_sized_function(bfd *abfd, asymbol *sym)
{
	return (sym->flags & BSF_FUNCTION) && elf_symbol_size(abfd, sym) > 0;
}

/* The callee in REST, a PowerPC call stub's name past its addend, or
 * NULL (see ppc_stub_callee). */
static const char *ppc_stub_kind_callee(const char *rest)
{
	static const char *const kinds[] = {
		".plt_pic32.", ".plt_call32.", ".plt_call."
	};
	const char *kind;

	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if ((kind = strstr(rest, kinds[i])) &&
		    kind[strlen(kinds[i])] != '\0')
			return kind + strlen(kinds[i]);
	return NULL;
}

/* The name of the function a PowerPC call stub calls, or NULL when RAW
 * names no such stub.  Code calls a shared function through a stub in
 * .text (the PLT holds only addresses), which GNU ld names, ADDEND in 8
 * hex digits, on 32-bit PowerPC "ADDEND[SECTION].plt_pic32.NAME" in
 * position-independent code and "ADDEND.plt_call32.NAME" otherwise
 * ("00008000.got2.plt_pic32.printf@@GLIBC_2.4"), on 64-bit
 * "ADDEND.plt_call.NAME" ("0000004b.plt_call.printf@@GLIBC_2.17").  (Its
 * other stubs, "long_branch" and "plt_branch", reach functions of the
 * object itself.) */
static inline const char *ppc_stub_callee(const char *raw)
{
	/* (inline, the 8 digits looked at one by one: this runs for every
	 * function, and most names fail at the first) */
	for (size_t i = 0; i < 8; i++)
		if (!((raw[i] >= '0' && raw[i] <= '9') ||
		      (raw[i] >= 'a' && raw[i] <= 'f')))
			return NULL;
	return raw[8] == '.' ? ppc_stub_kind_callee(raw + 8) : NULL;
}

/* bfd_decode_symclass's answers so far.  Its answer depends only on a
 * symbol's section and flags, which thousands of symbols share, and costs
 * hundreds of instructions (it compares the section's name with a list). */
#define SYMCLASS_SEEN 8

struct symclass_cache {
	struct {
		const asection *section;
		flagword flags;
		int cls;
	} seen[SYMCLASS_SEEN];
	size_t n, next;		/* entries filled; the one to replace next */
};

static int symbol_class(struct symclass_cache *cache, asymbol *sym)
{
	size_t slot;

	for (size_t i = 0; i < cache->n; i++)
		if (cache->seen[i].section == sym->section &&
		    cache->seen[i].flags == sym->flags)
			return cache->seen[i].cls;
	if (cache->n < SYMCLASS_SEEN) {
		slot = cache->n++;
	} else {
		slot = cache->next;
		cache->next = (cache->next + 1) % SYMCLASS_SEEN;
	}
	cache->seen[slot].section = sym->section;
	cache->seen[slot].flags = sym->flags;
	cache->seen[slot].cls = bfd_decode_symclass(sym);
	return cache->seen[slot].cls;
}

/* Decides, as gprof's core_sym_class does without -a, whether SYM names a
 * function; sets *IS_STATIC.  Unlike gprof, weak symbols outside code
 * sections (such as data_start) are not taken for functions, and
 * functions with a '$' in their name and PowerPC's call stubs are. */
static bool symbol_is_function(bfd *abfd, asymbol *sym,
			       struct symclass_cache *classes, bool *is_static)
{
	char leading = bfd_get_symbol_leading_char(abfd);
	int cls;

	if (!sym->section || (sym->flags & BSF_DEBUGGING) ||
	    !(sym->section->flags & SEC_CODE))
		return false;
	cls = symbol_class(classes, sym);
	if (cls == 'T' || cls == 'W') {
		*is_static = false;
		return true;
	}
	if (cls != 't')
		return false;
	*is_static = true;
	if (ppc_stub_callee(sym->name))
		return true;
	return sym->name[0] != '\0' &&
	       (!strchr(sym->name, '$') || is_sized_function(abfd, sym) ||
		is_millicode(abfd, sym)) &&
	       !(leading && sym->name[0] != leading) &&
	       !starts_with(sym->name, "__gnu_compiled") &&
	       !starts_with(sym->name, "___gnu_compiled") &&
	       static_name_is_function(sym);
}

/* Sort key of gprof's symtab_finalize, made total by the symbol table's
 * order (gprof's sort keeps it) so that the result never depends on
 * qsort's. */
static uint64_t func_key(const void *a)
{
	return ((const struct symtab_func *)a)->addr;
}

static int by_funcs(const void *a, const void *b)
{
	const struct symtab_func *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->is_func != y->is_func)
		return x->is_func ? -1 : 1;
	if (x->is_static != y->is_static)
		return x->is_static ? 1 : -1;
	/* (then the symbol table's order, kept in owner until the table is
	 * built: gprof keeps the first of names it likes as well, such as
	 * glibc's __memmove_avx512_unaligned_erms before the __memcpy_... at
	 * its address) */
	return x->owner < y->owner ? -1 : x->owner > y->owner;
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

/* Whether bfd_demangle could demangle RAW, a name of ABFD's: after the
 * target's leading character and any '.' or '$' (which bfd_demangle
 * skips), the styles it is asked for (GNU v3 and Rust) all start with
 * "_Z", "_R" or "_GLOBAL_".  C names are never handed to it: a failed
 * attempt costs as much as a success, and for a C program it would be
 * made for every name. */
static bool may_be_mangled(bfd *abfd, const char *raw)
{
	if (*raw != '\0' && *raw == bfd_get_symbol_leading_char(abfd))
		raw++;
	while (*raw == '.' || *raw == '$')
		raw++;
	return raw[0] == '_' && (raw[1] == 'Z' || raw[1] == 'R' ||
				 strncmp(raw, "_GLOBAL_", 8) == 0);
}

/* Makes room in ST->owned for one more name; false when out of memory. */
static bool room_for_owned(struct symtab *st)
{
	char **owned = array_grow(st->owned, &st->owned_cap, st->nowned + 1,
				  sizeof *owned);

	if (!owned)
		return false;
	st->owned = owned;
	return true;
}

/* The name people read of RAW, a name that is not mangled: without the
 * target's LEADING character (i386 Windows' "_main" is main), as
 * bfd_demangle and so gprof drop it. */
static const char *unmangled_name(char leading, const char *raw)
{
	return leading && raw[0] == leading ? raw + 1 : raw;
}

/* The name people read: demangled, unless turned off or not mangled.
 * Returns NULL only when memory runs out. */
static const char *display_name(struct symtab *st, const char *raw)
{
	char *demangled;

	if (!st->demangle)
		return raw;
	if (!may_be_mangled(st->abfd, raw))
		return unmangled_name(st->leading_char, raw);
	if (!room_for_owned(st))
		return NULL;
	bfd_set_error(bfd_error_no_error);
	demangled = bfd_demangle(st->abfd, raw, DMGL_PARAMS | DMGL_ANSI);
	if (!demangled)
		return bfd_get_error() == bfd_error_no_memory ? NULL : raw;
	st->owned[st->nowned++] = demangled;
	return demangled;
}

/* Demangling a large C++ program's names is most of the time of reading
 * its symbols (9 000 instructions for a name of 100 characters); from this
 * many functions on, a thread does it while the other stages run. */
#define NAME_THREAD_MIN 1024

/* The thread copies the names it demangles into blocks of up to this
 * size (copy_blocks): the table's owner then frees a block, not a name
 * (100 000 frees of a large C++ program took milliseconds), and the
 * names lie in the order they are written. */
#define NAME_BLOCK (1 << 20)

struct name_job {
	pthread_t thread;
	bfd *abfd;
	const char **raw;	/* the raw names, copied: funcs[] is not shared */
	const char **demangled;	/* the names to show; NULL where demangling
				   failed (retried) */
	size_t n;
	char leading_char;
	struct copy_blocks blocks;	/* what demangled[] points into */
};

static void *demangle_names(void *arg)
{
	struct name_job *job = arg;

	for (size_t i = 0; i < job->n; i++) {
		char *name;

		/* (the names not mangled too: symtab_names then looks at
		 * no name again) */
		if (!may_be_mangled(job->abfd, job->raw[i])) {
			job->demangled[i] = unmangled_name(job->leading_char,
							   job->raw[i]);
			continue;
		}
		name = bfd_demangle(job->abfd, job->raw[i], DMGL_PARAMS | DMGL_ANSI);
		if (name) {
			job->demangled[i] = copy_blocks_add(&job->blocks, name,
							    strlen(name) + 1, 1);
			free(name);
		}
	}
	return NULL;
}

/* Starts demangling ST's names on a thread; false if it cannot, and then
 * symtab_names demangles them itself. */
static bool start_names(struct symtab *st)
{
	struct name_job *job = calloc(1, sizeof *job);

	if (!job)
		return false;
	job->abfd = st->abfd;
	job->leading_char = st->leading_char;
	job->blocks = (struct copy_blocks){ NAME_BLOCK, NAME_BLOCK, NULL };
	job->n = st->nfuncs;
	job->raw = malloc(job->n * sizeof *job->raw);
	job->demangled = calloc(job->n, sizeof *job->demangled);
	if (job->raw && job->demangled) {
		for (size_t i = 0; i < job->n; i++)
			job->raw[i] = st->funcs[i].raw_name;
		if (pthread_create(&job->thread, NULL, demangle_names, job) == 0) {
			st->names = job;
			return true;
		}
	}
	free(job->raw);
	free(job->demangled);
	free(job);
	return false;
}

/* Waits for ST's demangling thread; returns its names (to free), or NULL.
 * ST owns the blocks they are in from then on. */
static const char **finish_names(struct symtab *st)
{
	struct name_job *job = st->names;
	const char **demangled;

	if (!job)
		return NULL;
	pthread_join(job->thread, NULL);
	demangled = job->demangled;
	st->name_blocks = job->blocks;
	free(job->raw);
	free(job);
	st->names = NULL;
	return demangled;
}

int symtab_names(struct symtab *st, struct g2c_error *err)
{
	const char **demangled;
	bool ok = true;

	if (!st->names_pending)
		return 0;
	demangled = finish_names(st);
	for (size_t i = 0; i < st->nfuncs && ok; i++) {
		struct symtab_func *f = &st->funcs[i];
		const char *name;

		/* What the thread could not demangle is tried here, where
		 * running out of memory can be told from a name that is not
		 * mangled. */
		if (demangled && demangled[i])
			f->name = demangled[i];
		else if ((name = display_name(st, f->raw_name)))
			f->name = name;
		else
			ok = false;
	}
	free(demangled);
	if (!ok)
		return g2c_error_set(err, "%s: out of memory for symbols", st->path);
	st->names_pending = false;
	return 0;
}

/* Compares NAME (LEN bytes) with a whole raw name. */
static int order_of_prefix(const char *name, size_t len, const char *raw)
{
	int c = strncmp(name, raw, len);

	return c ? c : -(raw[len] != '\0');
}

/* A name merged away into the function at ADDR. */
struct symtab_alias {
	const char *raw_name;
	uint64_t addr;
};

/* A function's raw name and index, to sort by name. */
struct named_func {
	const char *raw_name;
	size_t index;
};

static int by_named_funcs(const void *x, const void *y)
{
	const struct named_func *a = x, *b = y;
	int c = strcmp(a->raw_name, b->raw_name);

	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* A search of functions sorted by name for NAME[0..LEN). */
struct name_prefix {
	const char *name;
	size_t len;
};

/* Whether named function ELEM sorts before the name KEY. */
static bool name_below(const void *elem, const void *key)
{
	const struct name_prefix *k = key;

	return order_of_prefix(k->name, k->len,
			      ((const struct named_func *)elem)->raw_name) > 0;
}

/* Each function owns itself, but a cold part ("f.cold") belongs to its
 * parent: the function named f nearest to it.  Parents are found by
 * binary search in the functions sorted by name. */
static int assign_cold_parts(struct symtab *st)
{
	struct named_func *by_name;
	bool any_cold = false;
	size_t nnames;

	for (size_t i = 0; i < st->nfuncs; i++) {
		st->funcs[i].owner = i;
		/* (the rest of a function after a symbol inside it: its
		 * start is the one of that name before) */
		for (size_t k = i; st->funcs[i].continues && k-- > 0;)
			if (st->funcs[k].raw_name == st->funcs[i].raw_name &&
			    !st->funcs[k].continues) {
				st->funcs[i].owner = k;
				break;
			}
		any_cold = any_cold || cold_parent_length(st->funcs[i].raw_name);
	}
	if (!any_cold)
		return 0;
	/* (a parent's name may be one merged away: a constructor's C2 at the
	 * address of its C1, whose cold part is named after C2) */
	nnames = st->nfuncs + st->naliases;
	by_name = malloc(nnames * sizeof *by_name);
	if (!by_name)
		return -1;
	for (size_t i = 0; i < st->nfuncs; i++)
		by_name[i] = (struct named_func){ st->funcs[i].raw_name, i };
	for (size_t i = 0; i < st->naliases; i++)
		by_name[st->nfuncs + i] = (struct named_func){
			st->aliases[i].raw_name, symtab_lookup(st, st->aliases[i].addr) };
	qsort(by_name, nnames, sizeof *by_name, by_named_funcs);
	for (size_t i = 0; i < st->nfuncs; i++) {
		const char *name = st->funcs[i].raw_name;
		size_t len = cold_parent_length(name), lo;
		uint64_t best = UINT64_MAX, b = st->funcs[i].addr;

		if (len == 0)
			continue;
		/* (the first function named NAME[0..len)) */
		lo = search_first(by_name, nnames, sizeof *by_name, name_below,
				  &(struct name_prefix){ name, len }, 0);
		for (; lo < nnames &&
		       order_of_prefix(name, len, by_name[lo].raw_name) == 0; lo++) {
			uint64_t a = st->funcs[by_name[lo].index].addr;
			uint64_t distance = a > b ? a - b : b - a;

			if (distance < best) {
				best = distance;
				st->funcs[i].owner = by_name[lo].index;
			}
		}
	}
	free(by_name);
	return 0;
}

/* The candidates: the object's static symbols that name functions, and
 * its PLT entries ("puts@plt"), which are functions of their own (gprof,
 * which does not read them, credits them to _init).  Each candidate's end
 * is its section's end until the table is sorted. */
static size_t collect_candidates(struct object *obj, struct symtab_func *f)
{
	struct symclass_cache classes = { .n = 0 };
	size_t n = 0;

	for (size_t i = 0; i < obj->nsyms + obj->nsynth; i++) {
		asymbol *sym = i < obj->nsyms ? obj->syms[i]
					      : &obj->synth[i - obj->nsyms];
		bool is_static = false;

		if (!(sym->flags & BSF_SYNTHETIC) &&
		    !symbol_is_function(obj->dbfd, sym, &classes, &is_static))
			continue;
		if ((sym->flags & BSF_SYNTHETIC) && !(sym->section->flags & SEC_CODE))
			continue;
		f[n].addr = bfd_asymbol_value(sym);
		f[n].raw_name = sym->name;
		f[n].is_static = is_static;
		f[n].is_func = (sym->flags & BSF_FUNCTION) != 0;
		f[n].continues = false;
		f[n].owner = n;	/* (its place in the symbol table, until
				   assign_cold_parts) */
		f[n].end = section_end(sym->section);
		/* (body_end holds the size until the table is bounded) */
		f[n].body_end = elf_symbol_size(obj->dbfd, sym);
		n++;
	}
	return n;
}

/* Names each PowerPC call stub among ST's functions as the PLT entries
 * of other targets are: "printf@plt" (the callee's name without its
 * symbol version).  Returns -1 when memory runs out. */
static int name_call_stubs(struct symtab *st)
{
	for (size_t i = 0; i < st->nfuncs; i++) {
		const char *callee = ppc_stub_callee(st->funcs[i].raw_name);
		size_t len;
		char *name;

		if (!callee)
			continue;
		len = strcspn(callee, "@");
		if (!room_for_owned(st) || !(name = malloc(len + sizeof "@plt")))
			return -1;
		sprintf(name, "%.*s@plt", (int)len, callee);
		st->owned[st->nowned++] = name;
		st->funcs[i].raw_name = name;
		st->funcs[i].is_static = false;	/* (-a leaves no PLT entry out) */
	}
	return 0;
}

/* Keeps one name per address (gprof's choice, with the largest size
 * among them) and ends each function where the next one starts, or at its
 * section's end, and its body where its size says; returns how many are
 * kept. */
/* Sorts ST's N candidates and keeps one function per address (the best
 * name, the largest size), noting the other names in st->aliases.
 * Returns -1 when memory runs out. */
static int merge_aliases(struct symtab *st, size_t n)
{
	struct symtab_func *f = st->funcs;
	size_t kept = 0;

	st->naliases = 0;
	if (n && !(st->aliases = malloc(n * sizeof *st->aliases)))
		return -1;
	sort_by_key(f, n, sizeof *f, func_key, by_funcs);
	for (size_t i = 0; i < n; i++) {
		if (kept > 0 && f[kept - 1].addr == f[i].addr) {
			uint64_t size = f[kept - 1].body_end > f[i].body_end ?
					f[kept - 1].body_end : f[i].body_end;
			const char *other = f[i].raw_name;

			if (name_is_better(&f[i], &f[kept - 1])) {
				other = f[kept - 1].raw_name;
				f[kept - 1] = f[i];
			}
			f[kept - 1].body_end = size;
			st->aliases[st->naliases++] = (struct symtab_alias){ other, f[i].addr };
			continue;
		}
		f[kept++] = f[i];
	}
	st->nfuncs = kept;
	return 0;
}

/* A sized symbol inside another's sized range (a local label typed as a
 * function in hand-written assembly, 16 bytes in the middle of f) takes
 * its own bytes; the outer function goes on after them, in a range of its
 * own that counts as part of it (SYMTAB_FUNCS' continues).  Sizes are in
 * body_end still.  The table (capacity *CAP) keeps SPARE entries free after
 * the functions, for the section heads.  Returns -1 when memory runs out. */
static int resume_outer_functions(struct symtab *st, size_t *cap, size_t spare)
{
	size_t n = st->nfuncs, extra = 0;

	for (size_t i = 0; i + 1 < n; i++) {
		struct symtab_func *outer = &st->funcs[i], *inner = &st->funcs[i + 1];
		uint64_t outer_end = outer->addr + outer->body_end;
		uint64_t inner_end = inner->addr + inner->body_end;
		struct symtab_func *grown;

		if (!outer->body_end || !inner->body_end || inner_end >= outer_end ||
		    (i + 2 < n && st->funcs[i + 2].addr <= inner_end))
			continue;
		if (!(grown = array_grow(st->funcs, cap, n + extra + 1 + spare,
					 sizeof *grown)))
			return -1;
		st->funcs = grown;
		outer = &st->funcs[i];
		st->funcs[n + extra] = *outer;
		st->funcs[n + extra].addr = inner_end;
		st->funcs[n + extra].body_end = outer_end - inner_end;
		st->funcs[n + extra].continues = true;
		extra++;
	}
	if (extra) {
		st->nfuncs = n + extra;
		sort_by_key(st->funcs, st->nfuncs, sizeof *st->funcs, func_key,
			    by_funcs);
	}
	return 0;
}

/* Ends each of F[0..N) at the next one or its section's end, and its body
 * where its size says. */
static void bound_functions(struct symtab_func *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t limit = f[i].end;

		if (i + 1 < n && f[i + 1].addr < limit)
			limit = f[i + 1].addr;
		/* A symbol past its section's end gets an empty range. */
		f[i].end = limit < f[i].addr ? f[i].addr : limit;
		f[i].body_end = f[i].body_end && f[i].body_end < f[i].end - f[i].addr ?
				f[i].addr + f[i].body_end : f[i].end;
	}
}

static bool starts_code_section(bfd *abfd, uint64_t addr)
{
	for (asection *sec = abfd->sections; sec; sec = sec->next)
		if ((sec->flags & SEC_CODE) && bfd_section_vma(sec) == addr)
			return true;
	return false;
}

/* gprof -a: each static function (a clone or cold part too) becomes part
 * of the function before it in its section, which its time and calls go
 * to, as gprof credits them to the function loaded before it.  It keeps
 * its own range, so that its samples still fall on its instructions and
 * the calls into and out of it are checked against its own code.  A
 * static with no function right before it in its section (the first one
 * there) stays a function of its own.  Runs after assign_cold_parts. */
static void give_statics_to_the_function_before(struct symtab *st, bfd *abfd)
{
	for (size_t i = 1; i < st->nfuncs; i++)
		if (st->funcs[i].is_static &&
		    st->funcs[i - 1].end == st->funcs[i].addr &&
		    !starts_code_section(abfd, st->funcs[i].addr))
			st->funcs[i].owner = st->funcs[i - 1].owner;
}

static size_t count_code_sections(bfd *abfd)
{
	size_t n = 0;

	for (asection *sec = abfd->sections; sec; sec = sec->next)
		n += (sec->flags & SEC_CODE) != 0;
	return n;
}

/* The index of the first of ST's functions at or above ADDR. */
static size_t first_at_or_above(const struct symtab *st, uint64_t addr)
{
	return addr ? search_above(st->funcs, st->nfuncs, sizeof *st->funcs,
				   addr - 1, 0) : 0;
}

/* The name of the code at the start of SEC that no symbol names, up to
 * FIRST (the first function in SEC, or NULL): "<.plt>" in a PLT section;
 * in an object with only dynamic symbols, "<unknown code before NAME>",
 * or "<unknown code in SECTION>" when SEC has no symbol.  NULL when that
 * code is left in no function (the rest), or memory runs out (*OOM). */
static char *section_head_name(asection *sec, const struct symtab_func *first,
			       bool dynamic_symbols_only, bool *oom)
{
	const char *fmt = "<%s>", *what = sec->name;
	char *name;

	if (strncmp(sec->name, ".plt", 4) != 0) {
		if (!dynamic_symbols_only)
			return NULL;
		fmt = first ? "<unknown code before %s>" : "<unknown code in %s>";
		what = first ? first->raw_name : sec->name;
	}
	name = malloc(strlen(fmt) + strlen(what));
	if (!name)
		*oom = true;
	else
		sprintf(name, fmt, what);
	return name;
}

/* Code at the start of a code section before its first symbol becomes a
 * function of its own: the PLT's header (x86's and ARM's PLT0, which every
 * lazily bound call passes, and with LD_PROFILE every call through the
 * PLT; or a whole .plt whose entries are named in .plt.sec), and in a
 * stripped library the local functions placed before its first exported
 * one.  (gprof credits the PLT's header to _init, with the entries.)  ST's
 * table has room for one per code section of ABFD.  Returns -1 when
 * memory runs out. */
static int add_section_heads(struct symtab *st, bfd *abfd,
			     bool dynamic_symbols_only)
{
	size_t n = st->nfuncs, nheads = 0, to;
	struct symtab_func *heads = NULL;
	bool oom = false;

	for (asection *sec = abfd->sections; sec; sec = sec->next) {
		uint64_t start = bfd_section_vma(sec), end = section_end(sec);
		size_t i = first_at_or_above(st, start);
		const struct symtab_func *first = i < n && st->funcs[i].addr < end ?
						  &st->funcs[i] : NULL;
		char *name;

		if (!(sec->flags & SEC_CODE) || end == start ||
		    (first && first->addr == start))
			continue;
		if (!room_for_owned(st))
			return -1;
		name = section_head_name(sec, first, dynamic_symbols_only, &oom);
		if (oom)
			return -1;
		if (!name)
			continue;
		st->owned[st->nowned++] = name;
		end = first ? first->addr : end;
		st->funcs[n + nheads++] = (struct symtab_func){
			.addr = start, .end = end, .body_end = end,
			.raw_name = name, .is_static = true };
	}
	if (nheads == 0)
		return 0;
	/* The heads (one per section start, so at distinct addresses) are
	 * merged into the sorted table from its end. */
	heads = malloc(nheads * sizeof *heads);
	if (!heads)
		return -1;
	memcpy(heads, st->funcs + n, nheads * sizeof *heads);
	sort_by_key(heads, nheads, sizeof *heads, func_key, by_funcs);
	st->nfuncs = to = n + nheads;
	while (nheads > 0) {
		if (n > 0 && st->funcs[n - 1].addr > heads[nheads - 1].addr)
			st->funcs[--to] = st->funcs[--n];
		else
			st->funcs[--to] = heads[--nheads];
	}
	free(heads);
	return 0;
}

/* In an object with only dynamic symbols (a stripped library), the code
 * past an exported function's size up to the next symbol is some
 * function of its own, not the exported one: each such gap becomes the
 * function "<unknown code after X>".  ST->funcs has room for them. */
static int add_gaps(struct symtab *st)
{
	size_t ngaps = 0, to;

	for (size_t i = 0; i < st->nfuncs; i++)
		ngaps += st->funcs[i].body_end < st->funcs[i].end;
	to = st->nfuncs + ngaps;
	for (size_t i = st->nfuncs; i-- > 0;) {
		struct symtab_func *f = &st->funcs[i];

		if (f->body_end < f->end) {
			static const char before[] = "<unknown code after ", after[] = ">";
			size_t len = sizeof before + strlen(f->raw_name) + sizeof after;
			char *name = room_for_owned(st) ? malloc(len) : NULL;

			if (!name)
				return -1;
			snprintf(name, len, "%s%s%s", before, f->raw_name, after);
			st->owned[st->nowned++] = name;
			st->funcs[--to] = (struct symtab_func){
				.addr = f->body_end, .end = f->end,
				.body_end = f->end, .name = name, .raw_name = name,
				.is_static = true };
			f->end = f->body_end;
		}
		st->funcs[--to] = *f;
	}
	st->nfuncs += ngaps;
	return 0;
}

/* Cuts the address range of ST's functions into about one slice per
 * function, so that a look-up searches the few functions of one slice
 * rather than the whole table (whose binary search misses the cache at
 * every step on large programs). */
static int index_slices(struct symtab *st)
{
	uint64_t low = st->funcs[0].addr, span = st->funcs[st->nfuncs - 1].addr - low;
	size_t f = 0;

	if (st->nfuncs >= UINT32_MAX)
		return 0;	/* the whole table is searched */
	while (st->slice_shift < 63 && (span >> st->slice_shift) >= st->nfuncs)
		st->slice_shift++;
	st->nslices = (size_t)(span >> st->slice_shift) + 1;
	st->slice_first = malloc(st->nslices * sizeof *st->slice_first);
	if (!st->slice_first)
		return -1;
	for (size_t s = 0; s < st->nslices; s++) {
		uint64_t start = low + ((uint64_t)s << st->slice_shift);

		while (f < st->nfuncs && st->funcs[f].addr < start)
			f++;
		st->slice_first[s] = (uint32_t)f;
	}
	return 0;
}

int symtab_build(struct symtab *st, struct object *obj,
		 const struct symtab_options *opts, struct g2c_error *err)
{
	size_t n, nsections = count_code_sections(obj->abfd);
	size_t cap = obj->nsyms + obj->nsynth + nsections;
	int rc;

	memset(st, 0, sizeof *st);
	st->leading_char = obj->symbol_leading_char;
	st->abfd = obj->abfd;
	st->path = obj->path;
	st->demangle = opts->demangle;
	/* (not zeroed: each entry is written whole before it is read) */
	st->funcs = malloc(cap * sizeof *st->funcs);
	if (!st->funcs)
		goto oom;
	n = collect_candidates(obj, st->funcs);
	if (merge_aliases(st, n) < 0 || resume_outer_functions(st, &cap, nsections) < 0)
		goto oom;
	bound_functions(st->funcs, st->nfuncs);
	if (name_call_stubs(st) < 0)
		goto oom;
	if (add_section_heads(st, obj->abfd, obj->dynamic_symbols_only) < 0)
		goto oom;
	/* (a stripped program may have no function symbol: its code is
	 * "<unknown code in .text>") */
	if (st->nfuncs == 0 || (n == 0 && !obj->dynamic_symbols_only)) {
		symtab_release(st);
		return g2c_error_set(err, "%s: no function symbols", obj->path);
	}
	if (obj->dynamic_symbols_only) {
		struct symtab_func *grown = realloc(st->funcs, 2 * st->nfuncs *
						    sizeof *st->funcs);

		if (!grown)
			goto oom;
		st->funcs = grown;
		if (add_gaps(st) < 0)
			goto oom;
	}
	for (size_t i = 0; i < st->nfuncs; i++) {
		struct symtab_func *f = &st->funcs[i];
		const char *raw = f->raw_name;
		const struct profiler_entry *entry;

		if (i + PREFETCH_AHEAD < st->nfuncs)
			prefetch(st->funcs[i + PREFETCH_AHEAD].raw_name);

		if (st->leading_char && raw[0] == st->leading_char)
			raw++;
		entry = arch_profiler_entry(raw);
		f->excluded = entry && entry->excluded;
		f->is_mcount = entry != NULL;
		f->name = f->raw_name;
	}
	rc = assign_cold_parts(st);
	free(st->aliases);
	st->aliases = NULL;
	if (rc < 0 || index_slices(st) < 0)
		goto oom;
	/* (a stripped library has no static symbols, only its own gaps) */
	if (opts->no_statics && !obj->dynamic_symbols_only)
		give_statics_to_the_function_before(st, obj->abfd);
	st->names_pending = true;
	if (st->demangle && st->nfuncs >= NAME_THREAD_MIN)
		start_names(st);
	return 0;
oom:
	symtab_release(st);
	return g2c_error_set(err, "%s: out of memory for symbols", obj->path);
}

/* Whether gprof lists the local function named RAW (its rule for static
 * symbols, less its reading past the name for f.constprop.N). */
static bool gprof_lists_static(const char *raw)
{
	return raw[0] && !strchr(raw, '$') && gprof_dotted_name(raw) &&
	       !starts_with(raw, "__gnu_compiled") &&
	       !starts_with(raw, "___gnu_compiled");
}

size_t symtab_fold_as_gprof(struct symtab *st, const bool *entered,
			    const char **example)
{
	size_t n = 0;

	for (size_t i = 1; i < st->nfuncs; i++) {
		struct symtab_func *f = &st->funcs[i];

		/* (cold parts and continuations are their functions' already;
		 * a section's head, "<.plt>", is no symbol gprof reads) */
		if (!f->is_static || f->owner != i || f->raw_name[0] == '<' ||
		    (gprof_lists_static(f->raw_name) &&
		     (!strstr(f->raw_name, ".constprop.") || entered[i])))
			continue;
		f->owner = st->funcs[i - 1].owner;
		if (n++ == 0)
			*example = f->raw_name;
	}
	return n;
}

void symtab_release(struct symtab *st)
{
	free(st->aliases);
	free(finish_names(st));
	for (size_t i = 0; i < st->nowned; i++)
		free(st->owned[i]);
	free(st->owned);
	copy_blocks_release(&st->name_blocks);
	free(st->funcs);
	free(st->slice_first);
	memset(st, 0, sizeof *st);
}

/* The length of NAME without its parameter list and the qualifiers
 * after it ("f(int) const" -> "f"); all of it when it has none. */
static size_t without_parameters(const char *name)
{
	size_t len = strlen(name), end = len;
	int depth = 0;

	while (end > 0 && strchr(" &constvlai", name[end - 1]))
		end--;		/* " const", " volatile", "&", "&&" */
	if (end == 0 || name[end - 1] != ')')
		return len;
	while (end-- > 0) {
		if (name[end] == ')')
			depth++;
		else if (name[end] == '(' && --depth == 0)
			return end;
	}
	return len;
}

/* Skips a return type written before the name ("int f<int>"): the part
 * after the last space outside template arguments. */
static size_t name_start(const char *name, size_t len)
{
	size_t start = 0;
	int depth = 0;

	for (size_t i = 0; i < len; i++) {
		if (name[i] == '<')
			depth++;
		else if (name[i] == '>')
			depth--;
		else if (name[i] == ' ' && depth == 0 &&
			 (i < 8 || strncmp(name + i - 8, "operator", 8) != 0))
			start = i + 1;
	}
	return start;
}

/* The length of NAME[0..LEN) without trailing template arguments. */
static size_t without_template(const char *name, size_t len)
{
	int depth = 0;

	if (len == 0 || name[len - 1] != '>')
		return len;
	for (size_t i = len; i-- > 0;) {
		if (name[i] == '>')
			depth++;
		else if (name[i] == '<' && --depth == 0)
			return i;
	}
	return len;
}

void symtab_short_name(const char *name, size_t *start, size_t *len)
{
	size_t end = without_parameters(name);

	*start = name_start(name, end);
	*len = without_template(name + *start, end - *start);
}

size_t symtab_name_keys(const struct symtab *st, size_t f,
			struct symtab_key keys[SYMTAB_NAME_KEYS])
{
	const char *raw = st->funcs[f].raw_name, *name = st->funcs[f].name;
	size_t n = 0, len, start;

	if (st->leading_char && raw[0] == st->leading_char)
		raw++;
	keys[n++] = (struct symtab_key){ raw, strlen(raw) };
	keys[n++] = (struct symtab_key){ name, strlen(name) };
	len = without_parameters(name);
	keys[n++] = (struct symtab_key){ name, len };
	start = name_start(name, len);
	keys[n++] = (struct symtab_key){ name + start, len - start };
	keys[n++] = (struct symtab_key){ name + start,
					 without_template(name + start, len - start) };
	return n;
}

void symtab_prefetch(const struct symtab *st, uint64_t pc)
{
	size_t s = symtab_slice_of(st, pc);

	if (s < st->nslices)
		prefetch(&st->funcs[st->slice_first[s]]);
}

bool symtab_is_plt_stub_of(const struct symtab *st, uint64_t stub, size_t f)
{
	size_t s = symtab_lookup(st, stub);
	const char *name = st->funcs[f].raw_name;
	size_t len = strcspn(name, "@");

	return s != SYMTAB_NONE && st->funcs[s].addr == stub &&
	       strncmp(st->funcs[s].raw_name, name, len) == 0 &&
	       strcmp(st->funcs[s].raw_name + len, "@plt") == 0;
}
