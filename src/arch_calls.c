/* arch_calls.c -- what each architecture's calls look like, and what its
 * mcount records of them. */
#include <config.h>

#include <bfd.h>
#include <string.h>

#include "arch_calls.h"

/* HP-PA's branches that link (PA-RISC 2.0): BLE ("be,l", opcode 0x39)
 * always links %r31; BL ("b,l", 0x3a, ext 0) and BLR (ext 2) link the
 * register in the t field, none when it is %r0 (a plain branch); the
 * 22-bit BL (ext 5) links %rp and BVE,L (ext 7) %rp. */
static bool hppa_call_word(uint32_t w)
{
	unsigned op = w >> 26, ext = (w >> 13) & 7, link = (w >> 21) & 31;

	if (op == 0x39)
		return true;
	if (op != 0x3a)
		return false;
	return ((ext == 0 || ext == 2) && link != 0) || ext == 5 || ext == 7;
}

/* A 32-bit word at P in the given byte order. */
static uint32_t word_at(const unsigned char *p, bool big_endian)
{
	if (big_endian)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | (uint32_t)p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | (uint32_t)p[0];
}

/* HP-PA's import stub, as ld writes it for a program (not PIC):
 *	addil L%slot-$global$,%dp,%r1
 *	ldo R%slot-$global$(%r1),%r22
 *	ldw 0(%r22),%r21	; the function
 *	bv %r0(%r21)
 *	ldw 4(%r22),%r19	; its global pointer, in the delay slot
 * The two offsets are addil's 21-bit immediate (bits scattered, the left
 * part of the offset) and ldo's 14-bit one (sign in its lowest bit). */
static bool hppa_import_stub(const unsigned char *p, size_t left,
			     bool big_endian, uint32_t *len,
			     int64_t *slot_offset)
{
	uint32_t w0, w1, x;
	int64_t left_part, right_part;

	if (left < 20)
		return false;
	w0 = word_at(p, big_endian);
	w1 = word_at(p + 4, big_endian);
	if (w0 >> 26 != 0x0a || ((w0 >> 21) & 31) != 27 ||
	    w1 >> 26 != 0x0d || ((w1 >> 21) & 31) != 1 ||
	    ((w1 >> 16) & 31) != 22 ||
	    word_at(p + 8, big_endian) != 0x0ec01095 ||
	    word_at(p + 12, big_endian) != 0xeaa0c000 ||
	    word_at(p + 16, big_endian) != 0x0ec81093)
		return false;
	x = w0 & 0x1fffff;
	x = (x & 1) << 20 | (x & 0xffe) << 8 | (x & 0xc000) >> 7 |
	    (x & 0x1f0000) >> 14 | (x & 0x3000) >> 12;
	left_part = (int64_t)(x ^ 0x100000) - 0x100000;	/* 21 bits, signed */
	right_part = (int64_t)((w1 & 0x3fff) >> 1) - ((w1 & 1) ? 0x2000 : 0);
	*len = 20;
	*slot_offset = left_part * 2048 + right_part;
	return true;
}

/* The rows, as glibc's machine-gmon.h and _mcount.S of each architecture
 * and gcc's -pg prologues make them (doc/guide/09-cross-bsd-mingw.md has
 * the table of what was verified on each). */
static const struct arch_calls rows[] = {
	/* (the prefixes as libopcodes 2.40 prints them, checked with
	 * objdump -m i386 and -m i386:x86-64: several may come in a row) */
	{ .arch = bfd_arch_i386, .calls = " call callq calll callw ",
	  .prefixes = " rex rex.* cs ds es fs gs ss data16 data32 addr16"
		      " addr32 rep repz repnz repe repne lock xacquire"
		      " xrelease bnd notrack " },
	{ .arch = bfd_arch_arm, .calls = " bl blx " },
	{ .arch = bfd_arch_aarch64, .calls = " bl blr " },
	{ .arch = bfd_arch_powerpc, .calls = " bl bla bctrl blrl " },
	{ .arch = bfd_arch_s390, .calls = " brasl bras basr bas " },
	{ .arch = bfd_arch_riscv, .calls = " jal jalr call " },
	/* (mcount is reached by "jal _mcount" or "jalr t9" and records
	 * where the call returns, past its delay slot) */
	{ .arch = bfd_arch_mips, .calls = " jal jalr bal jalx jalr.hb ",
	  .delay = 4 },
	/* _mcount records %o7 (its own call) and %i7 (the caller's) */
	{ .arch = bfd_arch_sparc, .calls = " call ", .delay = 4,
	  .self_pc = SELF_PC_MCOUNT_CALL, .from_call = true },
	{ .arch = bfd_arch_m68k, .calls = " bsr bsrs bsrw bsrl jsr jbsr " },
	{ .arch = bfd_arch_alpha, .calls = " bsr jsr ", .register_calls = " jsr " },
	/* the prologue puts its own address in %r25 ("b,l .+8,%r25") for
	 * _mcount before calling it */
	{ .arch = bfd_arch_hppa, .delay = 4, .self_pc = SELF_PC_CAPTURED,
	  .call_word = hppa_call_word, .millicode_type = 13,
	  .import_stub = hppa_import_stub, .global_pointer = "$global$" },
	{ .arch = bfd_arch_sh, .calls = " jsr bsr bsrf ", .delay = 2 },
};

const struct arch_calls *arch_calls_of(int arch)
{
	static const struct arch_calls none = { .arch = bfd_arch_unknown };

	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
		if (rows[i].arch == arch)
			return &rows[i];
	return &none;
}

/* Whether WORD[0..LEN) is one of LIST's words (see .prefixes for a
 * word ending in '*'). */
static bool in_list(const char *list, const char *word, size_t len)
{
	for (const char *p = list; len && p && (p = strchr(p, ' ')); p++) {
		size_t n = strcspn(p + 1, " ");

		if ((n == len && strncmp(p + 1, word, len) == 0) ||
		    (n > 1 && p[n] == '*' && n - 1 <= len &&
		     strncmp(p + 1, word, n - 1) == 0))
			return true;
	}
	return false;
}

bool arch_text_is_prefix(const struct arch_calls *row, const char *word,
			 size_t len)
{
	return in_list(row->prefixes, word, len);
}

bool arch_text_is_call(const struct arch_calls *row, const char *mnemonic,
		       bool *hint)
{
	size_t len = strcspn(mnemonic, " ");

	*hint = in_list(row->register_calls, mnemonic, len);
	return in_list(row->calls, mnemonic, len);
}

/* A 32-bit little-endian word of CODE ending at offset AT. */
static uint32_t word_before(const struct code_bytes *code, uint64_t at)
{
	const unsigned char *p = code->data + at - 4;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint64_t arch_direct_call(const struct disasm_target *target,
			  const struct code_bytes *code, uint64_t ret_lo,
			  uint64_t ret_hi, uint64_t callee)
{
	bool x86 = target->arch == bfd_arch_i386;

	/* (AArch64 instructions are little-endian in either data order.) */
	if (!x86 && target->arch != bfd_arch_aarch64)
		return 0;
	if (x86) {
		/* (the returns a call rel32 in CODE can make, at once) */
		uint64_t lo = ret_lo > code->vma + 5 ? ret_lo : code->vma + 5;
		uint64_t hi = ret_hi < code->vma + code->size + 1 ?
			      ret_hi : code->vma + code->size + 1;

		for (uint64_t ret = lo; ret < hi; ret++)
			if (code->data[ret - code->vma - 5] == 0xe8 &&
			    ret + (uint64_t)(int64_t)(int32_t)word_before(code, ret - code->vma) ==
			    callee)
				return ret - 5;
		return 0;
	}
	for (uint64_t ret = ret_lo; ret < ret_hi; ret++) {
		uint64_t at = ret - code->vma;
		int64_t disp;

		if (ret < code->vma + 5 || at > code->size)
			continue;
		if (ret % 4 == 0) {
			uint32_t insn = word_before(code, at);

			if ((insn >> 26) != 0x25)	/* bl */
				continue;
			disp = (int64_t)((int32_t)(insn << 6) >> 6) * 4;
			if (ret - 4 + (uint64_t)disp == callee)
				return ret - 4;
		}
	}
	return 0;
}

int arch_call_ends_at(const struct disasm_target *target,
		      const struct code_bytes *code, uint64_t end)
{
	uint64_t at = end - code->vma;

	if (end < code->vma || at > code->size)
		return 0;
	if (target->arch == bfd_arch_i386) {
		if (at >= 5 && code->data[at - 5] == 0xe8)
			return 1;
		if (at >= 6 && code->data[at - 6] == 0xff && code->data[at - 5] == 0x15)
			return 1;
		return -1;
	}
	if (target->arch == bfd_arch_aarch64) {
		uint32_t insn;

		if (at < 4 || end % 4)
			return 0;
		insn = word_before(code, at);
		return (insn >> 26) == 0x25 || (insn & 0xfffffc1f) == 0xd63f0000;
	}
	return -1;
}

/* What -pg code calls on the targets gprof knows, and where mcount
 * runs.  gprof leaves the profiling runtime's own functions out of every
 * total (.mcount is what FreeBSD's -pg prologues call on amd64 and
 * i386); ARM's __gnu_mcount_nc and x86-64 MinGW-w64's __fentry__ (called
 * as the function's first instruction) keep their time. */
#define PROFILER_ENTRIES(X)						\
	X("_gprof_mcount", true) X("mcount", true) X("_mcount", true)	\
	X("__mcount", true) X("__mcount_internal", true)		\
	X("__mcleanup", true) X(".mcount", true)			\
	X("__gnu_mcount_nc", false) X("__fentry__", false)
#define PROFILER_ENTRY(name, excluded) { name, sizeof name - 1, excluded },
#define PROFILER_LENGTH_BIT(name, excluded) | (UINT64_C(1) << (sizeof name - 1))

static const struct profiler_entry profiler_entries[] = {
	PROFILER_ENTRIES(PROFILER_ENTRY)
};

/* Bit N set: an entry's name is N bytes long (all are below 64).  Every
 * symbol's name is looked at, and most names differ in length from all. */
static const uint64_t profiler_lengths = 0 PROFILER_ENTRIES(PROFILER_LENGTH_BIT);

/* The entry named RAW[0..LEN), or NULL. */
static const struct profiler_entry *entry_named(const char *raw, size_t len)
{
	if (len >= 64 || !((profiler_lengths >> len) & 1))
		return NULL;
	for (size_t i = 0; i < sizeof profiler_entries / sizeof *profiler_entries; i++)
		if (profiler_entries[i].len == len &&
		    memcmp(raw, profiler_entries[i].name, len) == 0)
			return &profiler_entries[i];
	return NULL;
}

const struct profiler_entry *arch_profiler_entry(const char *raw)
{
	/* A linker's stub of any of them is the profiler's cost, on every
	 * target, as mcount itself is: ARM's __gnu_mcount_nc@plt too. */
	static const struct profiler_entry stub = { "@plt", 4, true };
	static const char plt[] = "@plt";
	size_t len = strlen(raw);
	bool is_stub = false;
	const struct profiler_entry *entry;

	if (len > sizeof plt - 1 &&
	    memcmp(raw + len - (sizeof plt - 1), plt, sizeof plt - 1) == 0) {
		len -= sizeof plt - 1;
		is_stub = true;
	}
	entry = entry_named(raw, len);
	/* (64-bit PowerPC's ELFv1 names a function's code with a dot
	 * before its name: "._mcount") */
	if (!entry && raw[0] == '.')
		entry = entry_named(raw + 1, len - 1);
	return entry && is_stub ? &stub : entry;
}
