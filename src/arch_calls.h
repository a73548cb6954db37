/* arch_calls.h -- what each architecture's calls look like, and what its
 * mcount records of them.
 *
 * Owns the one table of architectures: the call instructions (their
 * mnemonics in libopcodes' text, or their encoding where the text does
 * not tell), where a call returns (after a delay slot on MIPS, SPARC,
 * HP-PA and SuperH), what glibc's mcount records as a call's from_pc and
 * as the callee's self_pc, and the names of the profiling runtime's entry
 * points.  The decoder, call-site placement, the check that a profile fits
 * its program and the evidence of which functions ran all ask it; adding
 * an architecture is adding a row.  It knows nothing of functions or
 * profiles.
 */
#ifndef GMON2CG_ARCH_CALLS_H
#define GMON2CG_ARCH_CALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "disasm.h"

/* What mcount records as the callee's address (self_pc), relative to the
 * -pg prologue's call of mcount. */
enum arch_self_pc {
	SELF_PC_MCOUNT_RETURN,	/* where that call returns (most) */
	SELF_PC_MCOUNT_CALL,	/* the call instruction itself (SPARC: %o7) */
	SELF_PC_CAPTURED,	/* where an earlier call to the next
				   instruction returns (HP-PA's
				   "b,l .+8,%r25" before the call) */
};

struct arch_calls {
	int arch;		/* enum bfd_architecture */
	const char *calls;	/* call mnemonics, each between spaces */
	/* the words libopcodes prints for prefixes before the mnemonic,
	 * each between spaces; one ending in '*' stands for every word
	 * it begins ("rex.*": "rex.W", "rex.WRXB"...) */
	const char *prefixes;
	const char *register_calls;	/* those of them whose printed
					   address is a hint, not the target
					   (Alpha's "jsr ra,(t12),hint") */
	uint8_t delay;		/* bytes of a call's delay slot: a call
				   returns this far past its end */
	enum arch_self_pc self_pc;
	bool from_call;		/* from_pc is the caller's call instruction
				   (SPARC: %i7), not where it returns */
	/* Whether the instruction word W is a call, where the text does not
	 * say (HP-PA: "b,l X,%r0" is a jump, "b,l X,%rp" a call); NULL to
	 * go by the mnemonic. */
	bool (*call_word)(uint32_t w);
	/* The ELF symbol type, besides STT_FUNC, of its code that the
	 * runtime calls without a -pg prologue (HP-PA's millicode, such as
	 * $$remoI: STT_PARISC_MILLI, 13); 0 for none. */
	uint8_t millicode_type;
	/* Whether the code at P (LEFT bytes) is one of the linker's import
	 * stubs, which have no symbols: sets *LEN to its length and
	 * *SLOT_OFFSET to where its PLT slot is, from the value of the
	 * symbol GLOBAL_POINTER (HP-PA: "$global$", %dp); NULL where libbfd
	 * names the stubs itself. */
	bool (*import_stub)(const unsigned char *p, size_t left, bool big_endian,
			    uint32_t *len, int64_t *slot_offset);
	const char *global_pointer;
};

/* The row of ARCH (an enum bfd_architecture); an empty row (no call
 * mnemonics, no delay slot) for architectures not in the table. */
const struct arch_calls *arch_calls_of(int arch);

/* Whether WORD[0..LEN), a word libopcodes printed for one instruction,
 * is one of the prefixes ROW's architecture prints before the mnemonic
 * (x86: "rex.W", "cs", "repz", "data16", "addr32", "lock", "notrack"...). */
bool arch_text_is_prefix(const struct arch_calls *row, const char *word,
			 size_t len);

/* Whether MNEMONIC, the first word libopcodes printed for one
 * instruction past its prefixes, names a call of ROW's architecture;
 * sets *HINT when its printed address is a hint rather than the target. */
bool arch_text_is_call(const struct arch_calls *row, const char *mnemonic,
		       bool *hint);

/* Where a call instruction at PC of LEN bytes returns on ROW's
 * architecture: past its delay slot, if it has one. */
static inline uint64_t arch_call_return(const struct arch_calls *row,
					uint64_t pc, uint32_t len)
{
	return pc + len + row->delay;
}

/* The address mcount records (from_pc, before its bucket rounds it) for
 * the call INSN. */
static inline uint64_t arch_call_recorded(const struct arch_calls *row,
					  const struct insn *insn)
{
	return row->from_call ? insn->pc
			      : arch_call_return(row, insn->pc, insn->len);
}

/* Without libopcodes: the direct call to CALLEE that returns into
 * [RET_LO, RET_HI) of CODE, on targets whose call instruction is simple
 * to recognise from its bytes (x86 "call rel32", AArch64 "bl").  Returns
 * its address, or 0. */
uint64_t arch_direct_call(const struct disasm_target *target,
			  const struct code_bytes *code, uint64_t ret_lo,
			  uint64_t ret_hi, uint64_t callee);

/* Without libopcodes: whether the instruction that ends at END of CODE
 * is a call, for the calls mcount is reached by (x86 "call rel32" and
 * "call *disp32(%rip)", AArch64 "bl" and "blr").  Returns 1 or 0, or -1
 * where the bytes alone do not tell (other instructions and targets). */
int arch_call_ends_at(const struct disasm_target *target,
		      const struct code_bytes *code, uint64_t end);

/* An entry point of the profiling runtime that -pg code calls, or that
 * mcount runs in. */
struct profiler_entry {
	const char *name;
	size_t len;
	bool excluded;		/* gprof leaves its time out of every total */
};

/* The profiler entry RAW names, itself or as its PLT entry ("mcount@plt",
 * which is always left out), or NULL. */
const struct profiler_entry *arch_profiler_entry(const char *raw);

#endif
