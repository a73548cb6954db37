/* x86_decode.c -- x86-64's opcode tables and gcc's prologues. */
#include <config.h>

#include "x86_decode.h"

/* The operands of the one-byte opcode OP (after 0x0f when TWO_BYTE) of
 * the common integer instructions, whose decoding does not depend on
 * ModRM's reg field but as REG_OK says (bit N: reg N is valid); or
 * X86_UNKNOWN, for libopcodes. */
static unsigned x86_operands(unsigned op, bool two_byte, unsigned *reg_ok)
{
	*reg_ok = 0xff;
	if (two_byte) {
		if ((op >= 0x40 && op <= 0x4f) || op == 0xa3 || op == 0xa5 ||
		    op == 0xab || op == 0xad || op == 0xaf || op == 0xb3 ||
		    op == 0xbb || op == 0xb6 || op == 0xb7 || op == 0xbe ||
		    op == 0xbf)
			return X86_MODRM;
		if (op == 0x1f || (op >= 0x90 && op <= 0x9f)) {
			*reg_ok = 1;	/* nop Ev, setcc Eb */
			return X86_MODRM;
		}
		if (op == 0xa4 || op == 0xac)
			return X86_MODRM | X86_IMM8;
		if (op >= 0x80 && op <= 0x8f)
			return X86_REL32;
		if (op == 0x05 || op == 0x0b || op == 0xa2 ||
		    (op >= 0xc8 && op <= 0xcf))
			return 0;
		return X86_UNKNOWN;
	}
	if (op < 0x40 && (op & 7) < 4)
		return X86_MODRM;		/* add ... cmp Eb,Gb and so on */
	if (op < 0x40 && (op & 7) == 4)
		return X86_IMM8;		/* add ... cmp $imm8,%al */
	if (op < 0x40 && (op & 7) == 5)
		return X86_IMMZ;		/* add ... cmp $imm,%eax */
	if ((op >= 0x50 && op <= 0x5f) || (op >= 0x90 && op <= 0x99) ||
	    op == 0xc3 || op == 0xc9 || op == 0xcc || op == 0xf4)
		return 0;
	if (op == 0x63 || (op >= 0x84 && op <= 0x8b) || op == 0x8d ||
	    (op >= 0xd0 && op <= 0xd3))
		return X86_MODRM;
	if (op == 0x69 || op == 0x81)
		return X86_MODRM | X86_IMMZ;
	if (op == 0x6b || op == 0x80 || op == 0x83 || op == 0xc0 || op == 0xc1)
		return X86_MODRM | X86_IMM8;
	if (op == 0x68 || op == 0xa9)
		return X86_IMMZ;
	if (op == 0x6a || op == 0xa8 || (op >= 0xb0 && op <= 0xb7))
		return X86_IMM8;
	if (op >= 0xb8 && op <= 0xbf)
		return X86_IMMV;
	if ((op >= 0x70 && op <= 0x7f) || op == 0xeb)
		return X86_REL8;
	if (op == 0xe8 || op == 0xe9)
		return X86_REL32;
	switch (op) {
	case 0x8f: *reg_ok = 0x01; return X86_MODRM;		/* pop Ev */
	case 0xc6: *reg_ok = 0x01; return X86_MODRM | X86_IMM8;	/* mov */
	case 0xc7: *reg_ok = 0x01; return X86_MODRM | X86_IMMZ;
	case 0xfe: *reg_ok = 0x03; return X86_MODRM;		/* inc, dec */
	case 0xff: *reg_ok = 0x57; return X86_MODRM;	/* inc dec call jmp push */
	case 0xf6: *reg_ok = 0xfd; return X86_MODRM;	/* (test's imm8 below) */
	case 0xf7: *reg_ok = 0xfd; return X86_MODRM;
	}
	return X86_UNKNOWN;
}

void x86_tables_fill(struct x86_tables *t)
{
	for (unsigned op = 0; op < 256; op++)
		for (int two_byte = 0; two_byte < 2; two_byte++) {
			unsigned reg_ok;

			t->ops[two_byte][op] =
				(unsigned char)x86_operands(op, two_byte, &reg_ok);
			t->reg_ok[two_byte][op] = (unsigned char)reg_ok;
		}
}

uint64_t x86_skip_prologue(const struct code_bytes *code, uint64_t pc,
			   uint64_t end)
{
	while (pc < end) {
		const unsigned char *p = code->data + (pc - code->vma);
		uint64_t left = end - pc, n;

		if (left >= 4 && p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e &&
		    p[3] == 0xfa)
			n = 4;				/* endbr64 */
		else if (p[0] >= 0x50 && p[0] <= 0x57)
			n = 1;				/* push %rax..%rdi */
		else if (left >= 2 && p[0] == 0x41 && p[1] >= 0x50 && p[1] <= 0x57)
			n = 2;				/* push %r8..%r15 */
		else if (left >= 3 && p[0] == 0x48 && p[1] == 0x89 && p[2] == 0xe5)
			n = 3;				/* mov %rsp,%rbp */
		else if (left >= 4 && p[0] == 0x48 && p[1] == 0x83 && p[2] == 0xec)
			n = 4;				/* sub $imm8,%rsp */
		else if (left >= 7 && p[0] == 0x48 && p[1] == 0x81 && p[2] == 0xec)
			n = 7;				/* sub $imm32,%rsp */
		else
			break;
		pc += n;
	}
	return pc;
}
