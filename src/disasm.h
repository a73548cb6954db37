/* disasm.h -- machine instructions of one target, through libopcodes.
 *
 * Owns libopcodes' decoder state and, for ARM, the table of mapping
 * symbols that says where code is Thumb.  It decodes code bytes handed to
 * it (struct code_bytes), so it can be tested on code built in memory;
 * it knows nothing of functions or profiles.
 */
#ifndef GMON2CG_DISASM_H
#define GMON2CG_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "object.h"
#include "util.h"

struct g2c_error;

/* The architecture as libbfd names it (an enum bfd_architecture and its
 * machine number), and the byte order. */
struct disasm_target {
	int arch;
	unsigned long mach;
	bool big_endian;
};

struct insn {
	uint64_t pc;
	uint32_t len;
	bool is_call;
	uint64_t target;	/* the address it names (a direct call's or
				   jump's target), else 0 */
};

struct disasm;

/* The architecture's name, as libbfd prints it ("i386:x86-64"). */
const char *disasm_arch_name(const struct disasm_target *target);

/* The architectures this libbfd reads, for --version: a list separated
 * by spaces, to free; NULL when memory runs out. */
char *disasm_known_architectures(void);

/* The target of OBJ. */
struct disasm_target disasm_target_of(const struct object *obj);

/* Opens a decoder for TARGET; ABFD (may be NULL) is handed to libopcodes,
 * which some targets consult.  Sets *OUT to NULL when this libopcodes
 * cannot decode the target.  Returns 0, or -1 with ERR set.  (The errors
 * of this module name no file: its caller knows the object.) */
int disasm_open(struct disasm **out, const struct disasm_target *target,
		 struct bfd *abfd, struct g2c_error *err);

/* Tells an ARM decoder where Thumb code starts and ends: the mapping
 * symbols "$t" (Thumb), "$a" (ARM) and "$d" (data) of code sections among
 * SYMS.  Returns 0, or -1 with ERR set. */
int disasm_read_arm_modes(struct disasm *d, struct bfd_symbol **syms,
			   size_t nsyms, struct g2c_error *err);

/* What went wrong when the decoder of D, set up for x86-64 without
 * libopcodes, needed it and could not load it (its instructions since
 * were taken a byte each), or NULL. */
const struct g2c_error *disasm_failure(const struct disasm *d);

void disasm_close(struct disasm *d);

/* Decodes the instructions starting in [LO, HI) of CODE, from LO on, into
 * *INSNS, *COUNT of them; undecodable bytes are taken one by one.  The
 * array is D's, valid until its next disasm_range or disasm_close (a
 * caller that keeps them copies them).  Returns 0, or -1 with ERR set
 * when memory runs out. */
int disasm_range(struct disasm *d, const struct code_bytes *code,
		 uint64_t lo, uint64_t hi, const struct insn **insns,
		 size_t *count, struct g2c_error *err);

/* Whether instruction ELEM ends at or before the address at KEY. */
static inline bool insn_ends_by(const void *elem, const void *key)
{
	const struct insn *insn = elem;

	return insn->pc + insn->len <= *(const uint64_t *)key;
}

/* The first of INSNS[0..N) (in address order) that ends after PC: the
 * one covering PC, or else the first after it; N if none.  The one copy
 * of that rule for attribution and call sites.  FROM: the answer of the
 * previous look-up in INSNS, 0 for none (search_first).  Inline: it runs
 * for every histogram bin. */
static inline size_t insn_first_ending_after(const struct insn *insns,
					     size_t n, uint64_t pc, size_t from)
{
	return search_first(insns, n, sizeof *insns, insn_ends_by, &pc, from);
}

/* The first of INSNS[0..N) that starts at or after PC (the end of those
 * that start below it), searched from FROM. */
static inline size_t insns_starting_below(const struct insn *insns, size_t n,
					  uint64_t pc, size_t from)
{
	uint64_t limit = pc - 1;

	return pc ? search_first(insns, n, sizeof *insns, key_at_most, &limit,
				 from) : 0;
}

/* The first call instruction of CODE that starts in [LO, HI), decoded
 * from LO on, into *CALL.  Returns whether there is one. */
bool disasm_first_call(struct disasm *d, const struct code_bytes *code,
		       uint64_t lo, uint64_t hi, struct insn *call);

#endif
