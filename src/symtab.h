/* symtab.h -- the resolver: the executable's functions, read with libbfd.
 *
 * Owns the open BFD, its symbol table and every string handed out: names,
 * demangled names and source file names stay valid until symtab_close().
 * Downstream stages refer to functions by their index in funcs[], which is
 * sorted by address with one entry per address.
 *
 * The table follows gprof's rules (which symbols count as functions, which
 * name wins when several share an address, a function extends to the next
 * one) except where gprof has a bug; the README lists those places.
 */
#ifndef GMON2CG_SYMTAB_H
#define GMON2CG_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gmon.h"

struct g2c_error;
struct bfd;
struct bfd_section;
struct bfd_symbol;
struct line_table;

#define SYMTAB_NONE SIZE_MAX

struct symtab_func {
	uint64_t addr;		/* entry address */
	uint64_t end;		/* exclusive: the next function or the section end */
	const char *name;	/* what people read: demangled unless turned off */
	const char *raw_name;	/* as in the symbol table */
	bool is_static;
	bool is_func;		/* typed as a function (ELF STT_FUNC) */
	bool excluded;		/* the mcount family: gprof drops their time */
	size_t owner;		/* the function this code is part of: itself,
				   or for a cold part ("f.cold") its parent */
};

/* One decoded machine instruction. */
struct symtab_insn {
	uint64_t pc;
	uint32_t len;
	bool is_call;
	uint64_t target;	/* a direct call's target, else 0 */
};

/* A function's instructions, decoded once (by libopcodes). */
struct symtab_code {
	struct symtab_insn *insns;	/* NULL: could not be decoded */
	size_t count;
	bool decoded;
};

struct symtab_options {
	bool demangle;
	bool no_statics;	/* gprof -a: leave static functions out */
	const char *debug_dir;	/* for separate debug files; NULL: default */
};

struct symtab {
	struct symtab_func *funcs;	/* sorted by addr, one per address */
	size_t nfuncs;
	struct gmon_target target;	/* address width and byte order */
	char *path;			/* the executable, absolute */

	char *debug_path;		/* the separate debug file used, or NULL */

	/* private */
	struct bfd *abfd;		/* the executable: code and target */
	struct bfd *dbfd;		/* symbols and lines: abfd or the debug file */
	struct bfd_symbol **syms;	/* static symbols, from dbfd */
	long nsyms;
	struct bfd_symbol **dynsyms;	/* the executable's dynamic symbols */
	struct bfd_symbol *synth;	/* and its synthetic PLT symbols */
	long nsynth;
	char **owned;			/* demangled names to free */
	size_t nowned;
	struct bfd_section *last_section;	/* section caches */
	struct bfd_section *last_line_section;
	struct symtab_code *code;	/* per function, filled on demand */
	struct section_bytes *bytes;	/* contents of code sections read */
	size_t nbytes;
	struct decoder *disasm;		/* libopcodes' decoder; NULL: none */
	struct line_table *lines;	/* DWARF line tables; NULL: use libbfd */
	bool lines_tried;
	struct arm_map { uint64_t addr; bool thumb; } *arm_maps;
	size_t narm_maps;
	bool arm_maps_built;
	bool disasm_tried;
};

/* Opens the executable PATH and builds its function table.  Returns 0, or
 * -1 with ERR set (missing file, not an object file, no symbols, ...). */
int symtab_open(struct symtab *st, const char *path,
		const struct symtab_options *opts, struct g2c_error *err);

void symtab_close(struct symtab *st);

/* Sets SET[i] for every function named NAME (as in the symbol table, or
 * as displayed); returns how many there are. */
size_t symtab_mark(const struct symtab *st, const char *name, bool *set);

/* The index of the symbol range containing PC, or SYMTAB_NONE; the
 * function it belongs to is funcs[index].owner. */
size_t symtab_lookup(const struct symtab *st, uint64_t pc);

/* The instructions of function F, decoded on first use; NULL (with
 * *COUNT 0) where the target has no decoder or the bytes are missing. */
const struct symtab_insn *symtab_instructions(struct symtab *st, size_t f,
					      size_t *count);

/* Frees the decoded instructions and code bytes read so far; they are
 * read again if asked for. */
void symtab_forget_code(struct symtab *st);

/* The call instruction that made a call recorded by mcount, which knows
 * only that the return address lay in [BUCKET, BUCKET + SIZE): a call to
 * CALLEE ending there, or else the only indirect call ending there;
 * BUCKET itself when there is no such instruction. */
uint64_t symtab_call_site(struct symtab *st, uint64_t bucket, uint64_t size,
			  uint64_t callee);

/* The source position of PC: where PC is in code inlined from elsewhere,
 * the inlined code's own file and line, or with OUTERMOST the line of the
 * outermost call, in the function PC belongs to.  Sets *FILE to NULL and
 * *LINE to 0 when there is no line information.  Returns 0, or -1 with
 * ERR set when memory runs out. */
int symtab_source_line(struct symtab *st, uint64_t pc, bool outermost,
		       const char **file, unsigned *line, struct g2c_error *err);

#endif
