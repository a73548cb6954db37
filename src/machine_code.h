/* machine_code.h -- one object's machine code: its functions'
 * instructions, each function's decoded on first use, and the call
 * instruction behind a return address that mcount recorded (call-site
 * recovery).
 *
 * Owns the decoded instructions, each function's decoded on first use
 * (through disasm.h, from the object's code sections), and the decoder.
 * The call graph is its one user.
 */
#ifndef GMON2CG_MACHINE_CODE_H
#define GMON2CG_MACHINE_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "disasm.h"
#include "util.h"

struct arch_calls;
struct g2c_error;
struct object;
struct symtab;

struct machine_code {
	struct object *obj;
	const struct symtab *st;
	struct disasm_target target;
	const struct arch_calls *calls;	/* what its calls look like */
	bool no_decoder;	/* decoding was needed, but this libopcodes
				   cannot decode the target */

	/* private */
	struct disasm *decoder;
	bool decoder_tried;
	struct func_code *funcs;	/* per function of st */
	struct copy_blocks kept;	/* the decoded instructions */
};

/* Prepares to decode the functions ST found in OBJ; nothing is decoded
 * yet.  Returns 0, or -1 with ERR set. */
int machine_code_open(struct machine_code *c, struct object *obj,
		      const struct symtab *st, struct g2c_error *err);

/* Asks for C's code bytes just before PC (where a call returning to PC
 * is) to be read into the cache, for a loop of checks at random. */
void machine_code_prefetch(struct machine_code *c, uint64_t pc);

/* The name of C's architecture, as libbfd names it. */
const char *machine_code_arch_name(const struct machine_code *c);

/* Returns 0 when every instruction decoded so far was decoded, or -1
 * with ERR set when libopcodes was needed and could not be loaded. */
int machine_code_check_decoded(const struct machine_code *c,
			       struct g2c_error *err);

/* Frees all decoded instructions and the object's code bytes. */
void machine_code_close(struct machine_code *c);

/* Sets *INSNS and *COUNT to the instructions of function F, decoded on
 * first use; NULL and 0 where they cannot be decoded here.  Returns 0, or
 * -1 with ERR set when memory runs out. */
int machine_code_instructions(struct machine_code *c, size_t f,
			      const struct insn **insns, size_t *count,
			      struct g2c_error *err);

/* What is known of an address that should follow a call instruction. */
enum machine_code_check {
	MACHINE_CODE_UNKNOWN,
	MACHINE_CODE_AFTER_CALL,
	MACHINE_CODE_NOT_AFTER_CALL,
};

/* What the profile recorded: whether it has a call from BUCKET into the
 * function at TARGET (so that a call there to TARGET ran). */
struct machine_code_recorded {
	bool (*call_into)(const void *ctx, uint64_t bucket, uint64_t target);
	const void *ctx;
};

/* glibc's mcount records a call by the hash bucket of its return address
 * (on SPARC, of the call itself), [BUCKET, BUCKET + SIZE).  Sets *SITE to
 * the call instruction that made it: a call to CALLEE (or to its PLT
 * entry) returning there, else the only indirect call returning there,
 * else (SIZE 1: an exact return address) the call returning there, else
 * of the calls to other targets (CALLEE reached from them by a tail
 * call), the first whose target jumps to CALLEE, else the first RECORDED
 * shows ran that stays in the program, else the first that stays in it
 * (a call into a PLT entry leaves it, such as one of _Unwind_Resume,
 * which does not return), else BUCKET itself; *CHECK says whether any
 * call returns there.  Returns 0, or -1 with ERR set. */
int machine_code_call_site(struct machine_code *c, uint64_t bucket,
			   uint64_t size, uint64_t callee,
			   const struct machine_code_recorded *recorded,
			   uint64_t *site, enum machine_code_check *check,
			   struct g2c_error *err);

/* Sets *RET to the self_pc mcount records for function F (0 if F has no
 * call of mcount): where that call returns, or what the architecture
 * records instead (arch_calls.h), found once by decoding F from its entry
 * to its first call that can be mcount's, and *TARGET to the address that call names (the
 * callee, or the GOT slot it reads: 0 through a register).  Returns 1, or
 * 0 where F cannot be decoded here, or -1 with ERR set. */
int machine_code_mcount_call(struct machine_code *c, size_t f, uint64_t *ret,
			     uint64_t *target, struct g2c_error *err);

/* Without decoding: sets *CHECK to whether the instruction that ends at
 * RET, in function F, is a call, as far as its bytes tell
 * (arch_call_ends_at).  Returns 0, or -1 with ERR set. */
int machine_code_call_ends_at(struct machine_code *c, size_t f, uint64_t ret,
			      enum machine_code_check *check,
			      struct g2c_error *err);

#endif
