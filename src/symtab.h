/* symtab.h -- the functions of one object, from its symbol table.
 *
 * Owns the function table and the demangled names; raw names point into
 * the object's symbols (or are the table's own), so the object must
 * outlive its symtab.  Functions
 * are referred to by their index in funcs[], sorted by address with one
 * entry per address.  A large table's names are demangled on a thread of
 * their own while the other stages run: symtab_names() waits for them.
 *
 * The table follows gprof's rules (which symbols count as functions, which
 * name wins when several share an address, a function extends to the next
 * one) except where gprof has a bug; doc/guide/03-deviations.md lists those
 * places.
 * PLT entries are functions ("puts@plt"), and so are PowerPC's call
 * stubs, named the same way (their raw name is that one).  Each
 * function's body ends where its ELF symbol size says (the rest is
 * padding), and in a stripped library the code past it is a function of
 * its own, "<unknown code after NAME>".  Code at a code section's start
 * before its first symbol is a function too: in a PLT section "<.plt>"
 * (the section's name), in a stripped library "<unknown code before
 * NAME>", or "<unknown code in SECTION>" in a section without symbols
 * (all of a stripped program's code that exports no function).
 */
#ifndef GMON2CG_SYMTAB_H
#define GMON2CG_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct g2c_error;
struct object;

#define SYMTAB_NONE SIZE_MAX

struct symtab_func {
	uint64_t addr;		/* entry address */
	uint64_t end;		/* exclusive: the next function or the section end */
	uint64_t body_end;	/* exclusive: the end of the function's own
				   code, addr + its ELF symbol size where the
				   table gives one (the rest up to end is
				   padding), else end */
	const char *name;	/* what people read: demangled unless turned
				   off (after symtab_names) */
	const char *raw_name;	/* as in the symbol table */
	bool is_static;
	bool is_func;		/* typed as a function (ELF STT_FUNC) */
	bool excluded;		/* the mcount family and its PLT entries:
				   gprof drops their time */
	bool is_mcount;		/* what a -pg prologue calls: the mcount
				   family, ARM's __gnu_mcount_nc, or a PLT
				   entry for one */
	bool continues;		/* the rest of the function before it, after
				   a symbol inside it (its owner) */
	size_t owner;		/* the function this code is part of: itself,
				   for a cold part ("f.cold") its parent, for
				   a continuation the function it continues */
};

struct symtab_options {
	bool demangle;
	bool no_statics;	/* gprof -a: leave static functions out */
};

struct symtab {
	struct symtab_func *funcs;	/* sorted by addr, one per address */
	size_t nfuncs;
	char leading_char;		/* stripped from raw names when matching */

	/* private */
	struct symtab_alias *aliases;	/* names merged away into a function
					   at their address, while cold parts
					   are found by their parents' names */
	size_t naliases;
	char **owned;			/* demangled names to free */
	size_t nowned, owned_cap;
	struct copy_blocks name_blocks;	/* the demangling thread's names */
	struct name_job *names;		/* a thread demangling names */
	struct bfd *abfd;		/* for demangling */
	const char *path;		/* the object's, for messages */
	bool demangle;
	bool names_pending;		/* symtab_names has names to set */
	/* look-up index: for each slice of 2^shift bytes from the first
	 * function's address, the first function starting in or above it
	 * (NULL: search the whole table) */
	uint32_t *slice_first;
	size_t nslices;
	unsigned slice_shift;
};

/* Builds the function table of OBJ.  Returns 0, or -1 with ERR set (no
 * function symbols in an object that is not stripped, no code, out of
 * memory). */
int symtab_build(struct symtab *st, struct object *obj,
		 const struct symtab_options *opts, struct g2c_error *err);

/* gprof -s writes the calls of gprof's own function set: a call into a
 * function gprof does not list (a local clone or split part such as
 * f.part.0 or f.isra.0, a '$' name) is written at the entry of the
 * function before it.  Folds each such function into the one before it
 * (its owner), as gprof does; ENTERED[f] says whether the sum has a call
 * at f's entry, which decides for f.constprop.N (gprof keeps or drops it
 * by its neighbour in the string table).  Returns how many were folded,
 * *EXAMPLE the first one's name. */
size_t symtab_fold_as_gprof(struct symtab *st, const bool *entered,
			    const char **example);

/* Puts the display names in place, waiting for the demangling thread if
 * there is one; every reader of funcs[].name calls it first (until then
 * names are the raw ones).  Returns 0, or -1 with ERR set when memory runs
 * out. */
int symtab_names(struct symtab *st, struct g2c_error *err);

void symtab_release(struct symtab *st);

/* A name a function answers to: LEN bytes of TEXT. */
struct symtab_key {
	const char *text;
	size_t len;
};
#define SYMTAB_NAME_KEYS 5

/* The names function F answers to when people select it, into KEYS
 * (some may repeat): as in the symbol table, as displayed, and for a C++
 * name without its parameter list, return type or template arguments (so
 * that one name selects every overload).  Returns how many. */
size_t symtab_name_keys(const struct symtab *st, size_t f,
			struct symtab_key keys[SYMTAB_NAME_KEYS]);

/* The part of a displayed NAME that people type: [*START, *START + *LEN),
 * without a C++ parameter list, return type or template arguments. */
void symtab_short_name(const char *name, size_t *start, size_t *len);

/* The slice holding PC's function (the last slice past its end), or
 * ST->nslices when PC is before the first function or there are none. */
static inline size_t symtab_slice_of(const struct symtab *st, uint64_t pc)
{
	uint64_t s;

	if (!st->slice_first || pc < st->funcs[0].addr)
		return st->nslices;
	s = (pc - st->funcs[0].addr) >> st->slice_shift;
	return s < st->nslices ? (size_t)s : st->nslices - 1;
}

/* The most functions of a slice symtab_lookup looks at one by one. */
#define SYMTAB_SLICE_SCAN_MAX 8

/* The index of the symbol range containing PC, or SYMTAB_NONE; the
 * function it belongs to is funcs[index].owner.  (Inline: it runs
 * several times per arc.) */
static inline size_t symtab_lookup(const struct symtab *st, uint64_t pc)
{
	size_t lo = 0, hi = st->nfuncs, s = symtab_slice_of(st, pc);

	/* Functions before PC's slice start below PC, those after it above:
	 * the answer is the last function of the slice starting at or below
	 * PC, or the one before the slice. */
	if (s < st->nslices) {
		lo = st->slice_first[s];
		if (s + 1 < st->nslices)
			hi = st->slice_first[s + 1];
	}
	/* the last function starting at or below PC: a slice holds a
	 * function or two, which are looked at in turn; a crowded one is
	 * searched */
	if (hi - lo <= SYMTAB_SLICE_SCAN_MAX)
		while (lo < hi && st->funcs[lo].addr <= pc)
			lo++;
	else
		lo += search_above(st->funcs + lo, hi - lo, sizeof *st->funcs,
				   pc, 0);
	if (lo == 0 || pc >= st->funcs[lo - 1].end)
		return SYMTAB_NONE;
	return lo - 1;
}

/* Whether STUB is the address of the PLT entry through which function F
 * is called ("F@plt"; a symbol version on F's name aside). */
bool symtab_is_plt_stub_of(const struct symtab *st, uint64_t stub, size_t f);

/* Asks for what symtab_lookup(ST, PC) will read to be read into the
 * cache: a loop of look-ups at random calls it for one a few ahead. */
void symtab_prefetch(const struct symtab *st, uint64_t pc);

#endif
