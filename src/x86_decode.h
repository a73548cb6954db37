/* x86_decode.h -- the lengths, calls and targets of x86-64's common
 * integer instructions, told from their bytes without libopcodes (which
 * disasm.c asks for the rest), and the instructions gcc's prologues put
 * before the mcount call.
 *
 * Owns the opcode tables (x86_decode.c fills them); the decoder itself is
 * inline, for disasm.c's loop over every instruction.  Knows nothing of
 * functions or profiles.
 */
#ifndef GMON2CG_X86_DECODE_H
#define GMON2CG_X86_DECODE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "disasm.h"

/* What follows an x86-64 opcode (x86_operands): a ModRM byte (with SIB
 * and displacement), an immediate of 1 byte, of 2 or 4 (with or without
 * the operand-size prefix), of 2, 4 or 8 (mov $imm,%reg), a relative
 * branch target of 1 or 4 bytes. */
enum {
	X86_MODRM = 1, X86_IMM8 = 2, X86_IMMZ = 4, X86_IMMV = 8,
	X86_REL8 = 16, X86_REL32 = 32, X86_UNKNOWN = 64,
};

/* x86_operands of each opcode, of one byte and after 0x0f, and which of
 * ModRM's reg fields each takes (bit N: reg N). */
struct x86_tables {
	unsigned char ops[2][256], reg_ok[2][256];
};

/* Fills T. */
void x86_tables_fill(struct x86_tables *t);

/* PC past the instructions gcc's x86-64 prologues put before the mcount
 * call, below END (endbr64, push, mov %rsp,%rbp, sub from %rsp), in
 * CODE: none is a call. */
uint64_t x86_skip_prologue(const struct code_bytes *code, uint64_t pc,
			   uint64_t end);

/* A signed 32-bit little-endian word at P. */
static inline int64_t x86_signed_word_at(const unsigned char *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
			 (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* The bytes of the ModRM byte at P and the SIB byte and displacement
 * that follow it, LEFT bytes being there; 0 past LEFT.  *RIP_DISP: the
 * offset of a RIP-relative displacement from P, else 0. */
static inline uint64_t x86_modrm_length(const unsigned char *p, uint64_t left,
				 uint64_t *rip_disp)
{
	unsigned mod = p[0] >> 6, rm = p[0] & 7;
	uint64_t len = 1;

	*rip_disp = 0;
	if (mod == 3)
		return 1;
	if (rm == 4) {			/* SIB */
		if (left < 2)
			return 0;
		len = 2;
		if (mod == 0 && (p[1] & 7) == 5)
			len += 4;
	} else if (mod == 0 && rm == 5) {
		*rip_disp = 1;
		len += 4;
	}
	len += mod == 1 ? 1 : mod == 2 ? 4 : 0;
	return len <= left ? len : 0;
}

/* Whether P (LEFT bytes there) starts the padding gcc puts between
 * functions, xchg %ax,%ax or (data16...) cs nopw 0x0(%rax,%rax,1), one
 * instruction for libopcodes too; *LEN its bytes. */
static inline bool x86_padding(const unsigned char *p, uint64_t left, uint64_t *len)
{
	static const unsigned char cs_nopw[] = { 0x2e, 0x0f, 0x1f, 0x84, 0x00,
						 0x00, 0x00, 0x00, 0x00 };
	uint64_t n66 = 0;

	while (n66 < left && n66 < 6 && p[n66] == 0x66)
		n66++;
	if (n66 == 1 && left >= 2 && p[1] == 0x90)
		*len = 2;
	else if (n66 > 0 && left - n66 >= sizeof cs_nopw &&
		 memcmp(p + n66, cs_nopw, sizeof cs_nopw) == 0)
		*len = n66 + sizeof cs_nopw;
	else
		return false;
	return true;
}

/* The instruction at PC, whose bytes are P[0..LEFT), into *OUT with the
 * length, call flag and target libopcodes gives it (a branch's target, or
 * the address a RIP-relative operand names), for the common x86-64
 * integer instructions with at most an operand-size prefix and a REX
 * prefix (no prefix before a branch or call).  Finding the instruction
 * starts of every function (a histogram with every bin counted) and each
 * function's mcount call then costs a table look-up an instruction
 * instead of libopcodes' decoding and formatting.  Returns false for any
 * other instruction.  Inline: it runs for every instruction decoded. */
static inline bool x86_decode(const struct x86_tables *t,
			      const unsigned char *p, uint64_t left,
			      uint64_t pc, struct insn *out)
{
	uint64_t len = 0, rip_disp = 0;
	bool opsize = false, two_byte = false;
	unsigned rex = 0, op, operands, reg_ok, reg = 0;

	if (left >= 4 && p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e &&
	    p[3] == 0xfa) {
		*out = (struct insn){ .pc = pc, .len = 4 };	/* endbr64 */
		return true;
	}
	if (x86_padding(p, left, &len)) {
		*out = (struct insn){ .pc = pc, .len = (uint32_t)len };
		return true;
	}
	if (len < left && p[len] == 0x66)
		opsize = ++len;
	if (len < left && (p[len] & 0xf0) == 0x40)
		rex = p[len++];
	if (len < left && p[len] == 0x0f)
		two_byte = ++len;
	if (len >= left)
		return false;
	op = p[len++];
	operands = t->ops[two_byte][op];
	reg_ok = t->reg_ok[two_byte][op];
	if (operands & X86_UNKNOWN)
		return false;
	if (operands & X86_MODRM) {
		uint64_t n;

		if (len >= left)
			return false;
		reg = (p[len] >> 3) & 7;
		if (!(reg_ok >> reg & 1) ||
		    (!two_byte && op == 0x8d && p[len] >> 6 == 3) ||
		    (!two_byte && op == 0xff && reg >= 2 && (opsize || rex)))
			return false;	/* lea of a register; a prefixed call
					   (an unused REX is printed first) */
		if (!(n = x86_modrm_length(p + len, left - len, &rip_disp)))
			return false;
		rip_disp += rip_disp ? len : 0;	/* (from the instruction's start) */
		len += n;
		if (!two_byte && (op == 0xf6 || op == 0xf7) && reg == 0)
			operands |= op == 0xf6 ? X86_IMM8 : X86_IMMZ;
	}
	if ((operands & (X86_REL8 | X86_REL32)) && (opsize || rex))
		return false;
	if (opsize && !two_byte &&
	    ((op >= 0x50 && op <= 0x5f) || (op >= 0x90 && op <= 0x99) ||
	     op == 0x68 || op == 0x6a || op == 0x8f || op == 0xc3 ||
	     op == 0xc9 || op == 0xcc || op == 0xf4))
		return false;	/* (pushw, retw...: for libopcodes) */
	if (opsize && two_byte && operands == 0)
		return false;
	len += operands & (X86_IMM8 | X86_REL8) ? 1 :
	       operands & X86_REL32 ? 4 :
	       operands & X86_IMMZ ? (opsize && !(rex & 8) ? 2 : 4) :
	       operands & X86_IMMV ? (rex & 8 ? 8 : opsize ? 2 : 4) : 0;
	if (len > left)
		return false;
	*out = (struct insn){ .pc = pc, .len = (uint32_t)len };
	if (operands & X86_REL8)
		out->target = pc + len + (uint64_t)(int64_t)(int8_t)p[len - 1];
	else if (operands & X86_REL32)
		out->target = pc + len + (uint64_t)x86_signed_word_at(p + len - 4);
	else if (rip_disp)
		out->target = pc + len + (uint64_t)x86_signed_word_at(p + rip_disp);
	out->is_call = !two_byte && (op == 0xe8 || (op == 0xff && reg == 2));
	return true;
}

#endif
