/* test-decode.c -- the instruction decoder on code built in memory: x86-64
 * instruction boundaries and calls through libopcodes, an x86-64 -pg
 * prologue's instructions (decoded without it), the instruction
 * at an address, the first call of a range, calls recognised from their bytes (x86 call rel32, AArch64 bl), a range clipped to its
 * section, x86 indirect calls behind any run of prefixes (x86-64 and
 * i386), and AArch64 through libopcodes where this build has it; the
 * architecture table's calls (SPARC, HP-PA, Alpha, m68k: delay slots,
 * what mcount records, links, hints) and the profiler's entry names. */
#include <config.h>

#include <bfd.h>
#include <stdlib.h>

#include "check.h"
#include "arch_calls.h"
#include "diag.h"
#include "disasm.h"

/* push %rbp; mov %rsp,%rbp; call 0x1010 (rel32 +1); nop; ret; at 0x1000 */
static const unsigned char x86_code[] = {
	0x55, 0x48, 0x89, 0xe5, 0xe8, 0x01, 0x00, 0x00, 0x00, 0x90, 0xc3,
};

static const struct disasm_target x86_64 = { bfd_arch_i386, bfd_mach_x86_64, false };

static void test_x86_instructions(void)
{
	struct code_bytes code = { x86_code, 0x1000, sizeof x86_code };
	struct disasm *d;
	const struct insn *insns = NULL;
	struct insn call;
	struct g2c_error err;
	size_t n = 0;

	CHECK(disasm_open(&d, &x86_64, NULL, &err) == 0);
	CHECK(d != NULL);
	if (!d)
		return;
	CHECK(disasm_range(d, &code, 0x1000, 0x2000, &insns, &n, &err) == 0);
	CHECK_U64(n, 5);
	if (n == 5) {
		CHECK_U64(insns[1].pc, 0x1001);
		CHECK_U64(insns[1].len, 3);
		CHECK(!insns[1].is_call);
		CHECK(insns[2].is_call);
		CHECK_U64(insns[2].pc, 0x1004);
		CHECK_U64(insns[2].len, 5);
		CHECK_U64(insns[2].target, 0x100a);
		CHECK_U64(insns[4].pc, 0x100a);
	}
	/* The one rule for "the instruction at PC": the first ending after
	 * it (the call at 0x1004 covers 0x1004..0x1008; nop at 0x1009). */
	if (n == 5) {
		CHECK_U64(insn_first_ending_after(insns, n, 0x1000, 0), 0);
		CHECK_U64(insn_first_ending_after(insns, n, 0x1004, 0), 2);
		CHECK_U64(insn_first_ending_after(insns, n, 0x1008, 2), 2);
		CHECK_U64(insn_first_ending_after(insns, n, 0x1009, 2), 3);
		CHECK_U64(insn_first_ending_after(insns, n, 0x100b, 3), 5);
		/* (from a later answer, back) */
		CHECK_U64(insn_first_ending_after(insns, n, 0x1004, 5), 2);
		CHECK_U64(insns_starting_below(insns, n, 0x1004, 0), 2);
		CHECK_U64(insns_starting_below(insns, n, 0x1005, 5), 3);
		CHECK_U64(insns_starting_below(insns, n, 0, 3), 0);
	}
	/* The first call from the entry on, and none after it. */
	CHECK(disasm_first_call(d, &code, 0x1000, 0x2000, &call));
	CHECK_U64(call.pc, 0x1004);
	CHECK_U64(call.target, 0x100a);
	CHECK(!disasm_first_call(d, &code, 0x1009, 0x2000, &call));
	/* A range that starts mid-way and ends before the code does. */
	CHECK(disasm_range(d, &code, 0x1004, 0x100a, &insns, &n, &err) == 0);
	CHECK_U64(n, 2);
	disasm_close(d);
}

/* The instructions of an x86-64 -pg prologue, decoded without libopcodes
 * as libopcodes decodes them (lengths, calls, the GOT slot a call reads),
 * and the next one through libopcodes. */
static void test_x86_prologue(void)
{
	static const unsigned char prologue[] = {
		0xf3, 0x0f, 0x1e, 0xfa,			/* endbr64 at 0x2000 */
		0x55,					/* push %rbp */
		0x48, 0x89, 0xe5,			/* mov %rsp,%rbp */
		0x53,					/* push %rbx */
		0x41, 0x57,				/* push %r15 */
		0x48, 0x83, 0xec, 0x08,			/* sub $0x8,%rsp */
		0x48, 0x81, 0xec, 0x00, 0x10, 0x00, 0x00, /* sub $0x1000,%rsp */
		0xff, 0x15, 0xf0, 0xff, 0xff, 0xff,	/* call *-0x10(%rip), at 0x2016 */
		0x31, 0xc0,				/* xor %eax,%eax */
		0xe8, 0x00, 0x00, 0x01, 0x00,		/* call 0x12023, at 0x201e */
	};
	static const uint32_t lens[] = { 4, 1, 3, 1, 2, 4, 7, 6, 2, 5 };
	struct code_bytes code = { prologue, 0x2000, sizeof prologue };
	struct disasm *d;
	const struct insn *insns = NULL;
	struct insn call;
	struct g2c_error err;
	size_t n = 0;

	CHECK(disasm_open(&d, &x86_64, NULL, &err) == 0);
	if (!d)
		return;
	CHECK(disasm_range(d, &code, 0x2000, 0x3000, &insns, &n, &err) == 0);
	CHECK_U64(n, sizeof lens / sizeof *lens);
	for (size_t i = 0; i < n && i < sizeof lens / sizeof *lens; i++) {
		CHECK_U64(insns[i].len, lens[i]);
		CHECK(insns[i].is_call == (i == 7 || i == 9));
		CHECK_U64(insns[i].target, i == 7 ? 0x200c : i == 9 ? 0x12023 : 0);
	}
	CHECK(disasm_first_call(d, &code, 0x2000, 0x3000, &call));
	CHECK_U64(call.pc, 0x2016);
	CHECK_U64(call.target, 0x200c);
	/* (the prologue's instructions are skipped by their bytes: as they
	 * decode, also where the range ends inside one, or inside the call) */
	CHECK(disasm_first_call(d, &code, 0x2004, 0x2017, &call));
	CHECK_U64(call.pc, 0x2016);
	CHECK_U64(call.len, 6);
	CHECK(!disasm_first_call(d, &code, 0x2000, 0x2012, &call));
	CHECK(disasm_first_call(d, &code, 0x2009, 0x3000, &call));
	CHECK_U64(call.pc, 0x2016);
	disasm_close(d);
}

/* Targets libopcodes gives other x86-64 instructions decoded without
 * it: a short branch's, and a RIP-relative operand's (from the end of
 * the instruction, past its immediate); gcc's padding between functions. */
static void test_x86_targets(void)
{
	static const unsigned char code_bytes[] = {
		0x74, 0x0a,				/* je 0x300c, at 0x3000 */
		0xc7, 0x05, 0x10, 0x00, 0x00, 0x00,	/* movl $1,0x10(%rip) */
		0x01, 0x00, 0x00, 0x00,			/* (at 0x3002; 0x301c) */
		0x41, 0xff, 0xd3,			/* call *%r11 (libopcodes) */
		0x66, 0x90,				/* xchg %ax,%ax */
		0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84,	/* data16 cs nopw */
		0x00, 0x00, 0x00, 0x00, 0x00,		/* 0x0(%rax,%rax,1) */
	};
	struct code_bytes code = { code_bytes, 0x3000, sizeof code_bytes };
	struct disasm *d;
	const struct insn *insns = NULL;
	struct g2c_error err;
	size_t n = 0;

	CHECK(disasm_open(&d, &x86_64, NULL, &err) == 0);
	if (!d)
		return;
	CHECK(disasm_range(d, &code, 0x3000, 0x4000, &insns, &n, &err) == 0);
	CHECK_U64(n, 5);
	if (n == 5) {
		CHECK_U64(insns[0].target, 0x300c);
		CHECK(!insns[0].is_call);
		CHECK_U64(insns[1].len, 10);
		CHECK_U64(insns[1].target, 0x301c);
		CHECK(insns[2].is_call);
		CHECK_U64(insns[2].target, 0);
		CHECK_U64(insns[3].len, 2);
		CHECK_U64(insns[4].len, 11);
		CHECK_U64(insns[4].target, 0);
	}
	disasm_close(d);
}

static void test_calls_from_bytes(void)
{
	struct code_bytes code = { x86_code, 0x1000, sizeof x86_code };
	/* bl +8 at 0x4000: 0x94000002, little-endian */
	static const unsigned char a64_code[] = { 0x1f, 0x20, 0x03, 0xd5,
						  0x02, 0x00, 0x00, 0x94 };
	struct code_bytes a64 = { a64_code, 0x4000, sizeof a64_code };
	struct disasm_target aarch64 = { bfd_arch_aarch64, bfd_mach_aarch64, false };
	struct disasm_target ppc = { bfd_arch_powerpc, bfd_mach_ppc, true };

	/* The call returns to 0x1009, in the bucket [0x1008, 0x1018). */
	CHECK_U64(arch_direct_call(&x86_64, &code, 0x1008, 0x1018, 0x100a), 0x1004);
	CHECK_U64(arch_direct_call(&x86_64, &code, 0x1008, 0x1018, 0x2000), 0);
	CHECK_U64(arch_direct_call(&x86_64, &code, 0x1000, 0x1008, 0x100a), 0);
	CHECK_U64(arch_direct_call(&aarch64, &a64, 0x4008, 0x4018, 0x400c), 0x4004);
	CHECK_U64(arch_direct_call(&aarch64, &a64, 0x4008, 0x4018, 0x4010), 0);
	/* Other targets need libopcodes. */
	CHECK_U64(arch_direct_call(&ppc, &a64, 0x4008, 0x4018, 0x400c), 0);
}

static void test_aarch64_instructions(void)
{
	static const unsigned char a64_code[] = { 0x1f, 0x20, 0x03, 0xd5,
						  0x02, 0x00, 0x00, 0x94,
						  0xc0, 0x03, 0x5f, 0xd6 };
	struct code_bytes code = { a64_code, 0x4000, sizeof a64_code };
	struct disasm_target aarch64 = { bfd_arch_aarch64, bfd_mach_aarch64, false };
	struct disasm *d;
	const struct insn *insns = NULL;
	struct g2c_error err;
	size_t n = 0;

	CHECK(disasm_open(&d, &aarch64, NULL, &err) == 0);
	if (!d)		/* this libopcodes reads only the host's code */
		return;
	CHECK(disasm_range(d, &code, 0x4000, 0x400c, &insns, &n, &err) == 0);
	CHECK_U64(n, 3);
	if (n == 3) {
		CHECK(!insns[0].is_call);
		CHECK(insns[1].is_call);
		CHECK_U64(insns[1].target, 0x400c);
		CHECK(!insns[2].is_call);	/* ret */
	}
	disasm_close(d);
}

/* Decodes CODE (N bytes at 0x1000) for TARGET into INSNS[0..MAX);
 * returns how many, 0 where this libopcodes does not decode TARGET. */
static size_t decode_for(const struct disasm_target *target,
			 const unsigned char *code, size_t n, struct insn *out,
			 size_t max)
{
	struct code_bytes bytes = { code, 0x1000, n };
	struct disasm *d = NULL;
	const struct insn *insns = NULL;
	struct g2c_error err;
	size_t count = 0;

	if (disasm_open(&d, target, NULL, &err) < 0 || !d)
		return 0;
	CHECK(disasm_range(d, &bytes, 0x1000, 0x1000 + n, &insns, &count, &err) == 0);
	for (size_t i = 0; i < count && i < max; i++)
		out[i] = insns[i];
	disasm_close(d);
	return count < max ? count : max;
}

static void test_arch_calls(void)
{
	/* SPARC: call .+8; nop -- returns past its delay slot; mcount
	 * records the call itself */
	static const unsigned char sparc[] = { 0x40, 0, 0, 2, 0x01, 0, 0, 0 };
	/* HP-PA: b,l .+8,%r25 (a call: it links); b,l .+8,%r0 (a branch);
	 * b,l .+0x6c4,%rp */
	static const unsigned char hppa[] = { 0xeb, 0x20, 0, 0, 0xe8, 0, 0, 0,
					      0xe8, 0x51, 0x0d, 0xbc };
	/* Alpha: jsr at,(at),hint; bsr ra,.-0x14c */
	static const unsigned char alpha[] = { 0x00, 0x40, 0x9c, 0x6b,
					       0xac, 0xff, 0x5f, 0xd3 };
	/* m68k: bsr.l .+0x1dc14; rts */
	static const unsigned char m68k[] = { 0x61, 0xff, 0x00, 0x01, 0xdc, 0x12,
					      0x4e, 0x75 };
	static const struct disasm_target sparc64 = { bfd_arch_sparc, bfd_mach_sparc_v9, true },
		hppa20 = { bfd_arch_hppa, 20, true }, alpha_t = { bfd_arch_alpha, 0, false },
		m68k_t = { bfd_arch_m68k, 0, true };
	const struct arch_calls *row;
	struct insn insns[4];
	size_t n;

	row = arch_calls_of(bfd_arch_sparc);
	if ((n = decode_for(&sparc64, sparc, sizeof sparc, insns, 4)) > 0) {
		CHECK_U64(n, 2);
		CHECK(insns[0].is_call);
		CHECK_U64(insns[0].target, 0x1008);
		CHECK_U64(arch_call_return(row, insns[0].pc, insns[0].len), 0x1008);
		CHECK_U64(arch_call_recorded(row, &insns[0]), 0x1000);
		CHECK(!insns[1].is_call);
	}
	row = arch_calls_of(bfd_arch_hppa);
	CHECK(row->self_pc == SELF_PC_CAPTURED);
	if ((n = decode_for(&hppa20, hppa, sizeof hppa, insns, 4)) > 0) {
		CHECK_U64(n, 3);
		CHECK(insns[0].is_call);
		CHECK_U64(insns[0].target, 0x1008);
		CHECK_U64(arch_call_recorded(row, &insns[0]), 0x1008);
		CHECK(!insns[1].is_call);
		CHECK(insns[2].is_call);
	}
	/* HP-PA's printer hands the text a NULL string for the completer of
	 * this invalid word (a fuzzer's find): no call, no crash */
	static const unsigned char hppa_null_text[] = { 0x08, 0x84, 0x22, 0xc2 };
	if ((n = decode_for(&hppa20, hppa_null_text, sizeof hppa_null_text, insns, 4)) > 0) {
		CHECK_U64(n, 1);
		CHECK(!insns[0].is_call);
	}
	if ((n = decode_for(&alpha_t, alpha, sizeof alpha, insns, 4)) > 0) {
		CHECK_U64(n, 2);
		CHECK(insns[0].is_call);
		CHECK_U64(insns[0].target, 0);	/* the hint is no target */
		CHECK(insns[1].is_call);
		CHECK_U64(insns[1].target, 0x1004 + 4 - 0x150);
	}
	row = arch_calls_of(bfd_arch_m68k);
	if ((n = decode_for(&m68k_t, m68k, sizeof m68k, insns, 4)) > 0) {
		CHECK_U64(n, 2);
		CHECK(insns[0].is_call);
		CHECK_U64(arch_call_return(row, insns[0].pc, insns[0].len), 0x1006);
		CHECK(!insns[1].is_call);
	}
	CHECK_U64(arch_calls_of(bfd_arch_mips)->delay, 4);
	CHECK_U64(arch_calls_of(bfd_arch_i386)->delay, 0);
	CHECK(arch_calls_of(bfd_arch_unknown)->calls == NULL);

	/* the profiler's entries, their stubs and 64-bit PowerPC's code
	 * symbols */
	CHECK(arch_profiler_entry("_mcount")->excluded);
	CHECK(arch_profiler_entry("._mcount")->excluded);
	CHECK(arch_profiler_entry(".mcount")->excluded);
	CHECK(!arch_profiler_entry("__gnu_mcount_nc")->excluded);
	CHECK(arch_profiler_entry("__gnu_mcount_nc@plt")->excluded);
	CHECK(arch_profiler_entry("mcount@plt")->excluded);
	CHECK(arch_profiler_entry("main") == NULL);
	CHECK(arch_profiler_entry(".main") == NULL);
	CHECK(arch_profiler_entry("@plt") == NULL);
}

/* Indirect calls behind any run of x86 prefixes (REX, segment, rep,
 * operand and address size, lock, bnd, notrack), as hand-written
 * assembly has them: each a call on x86-64 (libopcodes decodes them all)
 * and on i386, where 0x40-0x4f are instructions of their own (inc, dec)
 * and the call follows them. */
static void test_x86_prefixed_calls(void)
{
	static const struct {
		unsigned char bytes[8];
		size_t n;
		uint64_t i386_call;	/* where the call starts on i386 */
	} calls[] = {
		{ { 0x48, 0xff, 0xd0 }, 3, 0x1001 },		/* rex.W call *%rax */
		{ { 0x2e, 0xff, 0xd4 }, 3, 0x1000 },		/* cs call *%rsp */
		{ { 0xf3, 0xff, 0xd4 }, 3, 0x1000 },		/* repz call *%rsp */
		{ { 0x66, 0x48, 0xff, 0x50, 0x1e }, 5, 0x1002 },	/* data16 rex.W */
		{ { 0x67, 0xff, 0xd0 }, 3, 0x1000 },		/* addr32 call */
		{ { 0xf2, 0x3e, 0xff, 0xd0 }, 4, 0x1000 },	/* bnd notrack */
		{ { 0xf0, 0xf3, 0xff, 0x10 }, 4, 0x1000 },	/* lock repz */
		{ { 0x26, 0x64, 0x65, 0x36, 0xff, 0xd0 }, 6, 0x1000 }, /* es fs gs ss */
		{ { 0xf3, 0x48, 0xff, 0xd0 }, 4, 0x1002 },	/* repz rex.W */
		{ { 0x66, 0x67, 0xff, 0xd0 }, 4, 0x1000 },	/* addr32 call *%ax */
	};
	static const struct disasm_target i386 = { bfd_arch_i386, bfd_mach_i386_i386, false };
	struct insn insns[4];
	size_t n;

	for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
		n = decode_for(&x86_64, calls[i].bytes, calls[i].n, insns, 4);
		CHECK_U64(n, 1);
		CHECK(n == 1 && insns[0].is_call);
		CHECK(n == 0 || insns[0].target == 0);
		n = decode_for(&i386, calls[i].bytes, calls[i].n, insns, 4);
		CHECK(n > 0 && insns[n - 1].pc == calls[i].i386_call &&
		      insns[n - 1].is_call);
		for (size_t k = 0; k + 1 < n; k++)
			CHECK(!insns[k].is_call);
	}
}

int main(void)
{
	test_arch_calls();
	test_x86_instructions();
	test_x86_prologue();
	test_x86_targets();
	test_calls_from_bytes();
	test_aarch64_instructions();
	test_x86_prefixed_calls();
	return check_report("test-decode");
}
