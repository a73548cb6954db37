/* decode.c -- machine instructions of one target, through libopcodes. */
#include <config.h>

#include <bfd.h>
#include <dis-asm.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "diag.h"
#include "util.h"

/* The first two words libopcodes printed for one instruction (enough to
 * see a call, also behind a prefix such as "notrack"), and the last
 * address it printed (a direct branch or call target).  Formatting the
 * rest is skipped: it is most of the decoder's time. */
struct insn_text {
	char text[40];
	size_t len;
	unsigned words;		/* words completed so far */
	uint64_t target;
	bool has_target;
};

__attribute__((format(printf, 2, 0)))
static void append_text(struct insn_text *t, const char *fmt, va_list ap)
{
	const char *piece;
	char buf[40];

	if (t->words >= 2)
		return;
	/* Most pieces are plain strings: no need to format them. */
	if (strcmp(fmt, "%s") == 0) {
		piece = va_arg(ap, const char *);
	} else if (!strchr(fmt, '%')) {
		piece = fmt;
	} else {
		vsnprintf(buf, sizeof buf, fmt, ap);
		piece = buf;
	}
	for (; *piece && t->words < 2 && t->len + 1 < sizeof t->text; piece++) {
		bool space = *piece == ' ' || *piece == '\t';

		if (space && (t->len == 0 || t->text[t->len - 1] == ' '))
			continue;
		if (space) {
			t->text[t->len] = '\0';
			t->words++;
			/* A second word matters only behind an x86 prefix. */
			if (t->words == 1 && strcmp(t->text, "notrack") != 0 &&
			    strcmp(t->text, "bnd") != 0)
				t->words = 2;
		}
		t->text[t->len++] = space ? ' ' : *piece;
	}
	t->text[t->len] = '\0';
}

__attribute__((format(printf, 2, 3)))
static int capture_text(void *stream, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	append_text(stream, fmt, ap);
	va_end(ap);
	return 0;
}

__attribute__((format(printf, 3, 4)))
static int capture_styled_text(void *stream, enum disassembler_style style,
			       const char *fmt, ...)
{
	va_list ap;

	(void)style;
	va_start(ap, fmt);
	append_text(stream, fmt, ap);
	va_end(ap);
	return 0;
}

static void capture_address(bfd_vma addr, struct disassemble_info *info)
{
	struct insn_text *t = info->stream;

	t->target = addr;
	t->has_target = true;
}

/* Call mnemonics of the architectures whose disassemblers do not say. */
static bool is_call_mnemonic(enum bfd_architecture arch, const char *word,
			     size_t len)
{
	static const struct { enum bfd_architecture arch; const char *word; } calls[] = {
		{ bfd_arch_i386, "call" }, { bfd_arch_i386, "callq" },
		{ bfd_arch_i386, "calll" }, { bfd_arch_i386, "callw" },
		{ bfd_arch_arm, "bl" }, { bfd_arch_arm, "blx" },
		{ bfd_arch_aarch64, "bl" }, { bfd_arch_aarch64, "blr" },
		{ bfd_arch_powerpc, "bl" }, { bfd_arch_powerpc, "bla" },
		{ bfd_arch_powerpc, "bctrl" }, { bfd_arch_powerpc, "blrl" },
		{ bfd_arch_s390, "brasl" }, { bfd_arch_s390, "bras" },
		{ bfd_arch_s390, "basr" }, { bfd_arch_s390, "bas" },
		{ bfd_arch_mips, "jal" }, { bfd_arch_mips, "jalr" },
		{ bfd_arch_mips, "bal" }, { bfd_arch_mips, "jalx" },
		{ bfd_arch_riscv, "jal" }, { bfd_arch_riscv, "jalr" },
		{ bfd_arch_riscv, "call" },
	};

	for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
		if (calls[i].arch == arch && strlen(calls[i].word) == len &&
		    memcmp(calls[i].word, word, len) == 0)
			return true;
	return false;
}

/* Whether the instruction text names a call: its first word, or the
 * second after a prefix. */
static bool text_is_call(enum bfd_architecture arch, const char *text)
{
	const char *space = strchr(text, ' ');
	size_t first = space ? (size_t)(space - text) : strlen(text);

	if (is_call_mnemonic(arch, text, first))
		return true;
	if (!space)
		return false;
	text = space + 1;
	space = strchr(text, ' ');
	return is_call_mnemonic(arch, text, space ? (size_t)(space - text)
						  : strlen(text));
}

/* Where ARM code switches between ARM and Thumb, from mapping symbols. */
struct arm_mode {
	uint64_t addr;
	bool thumb;
};

/* libopcodes' decoder and its state, set up once: some targets allocate
 * private data in disassemble_init_for_target. */
struct decoder {
	disassembler_ftype decode;
	struct disassemble_info info;
	struct insn_text text;
	struct arm_mode *arm_modes;	/* sorted by address */
	size_t narm_modes;
};

const char *decode_arch_name(const struct decode_target *target)
{
	if (target->arch == bfd_arch_unknown)
		return "an architecture unknown to libbfd";
	return bfd_printable_arch_mach((enum bfd_architecture)target->arch,
				       target->mach);
}

char *decode_known_architectures(void)
{
	const char **names = bfd_arch_list();
	size_t len = 1;
	char *list, *p;

	if (!names)
		return NULL;
	for (size_t i = 0; names[i]; i++)
		len += strlen(names[i]) + 1;
	p = list = malloc(len);
	for (size_t i = 0; list && names[i]; i++)
		p += sprintf(p, "%s%s", i ? " " : "", names[i]);
	if (list)
		*p = '\0';
	free(names);
	return list;
}

struct decode_target decode_target_of(const struct object *obj)
{
	return (struct decode_target){ bfd_get_arch(obj->abfd),
				       bfd_get_mach(obj->abfd),
				       bfd_big_endian(obj->abfd) };
}

int decoder_open(struct decoder **out, const struct decode_target *target,
		 bfd *abfd, struct g2c_error *err)
{
	enum bfd_architecture arch = (enum bfd_architecture)target->arch;
	disassembler_ftype decode;
	struct decoder *d;

	*out = NULL;
	decode = disassembler(arch, target->big_endian, target->mach, abfd);
	if (!decode)
		return 0;
	d = calloc(1, sizeof *d);
	if (!d)
		return g2c_error_set(err, "out of memory for the instruction decoder");
	d->decode = decode;
	init_disassemble_info(&d->info, &d->text, capture_text, capture_styled_text);
	d->info.arch = arch;
	d->info.mach = target->mach;
	d->info.endian = target->big_endian ? BFD_ENDIAN_BIG : BFD_ENDIAN_LITTLE;
	d->info.print_address_func = capture_address;
	disassemble_init_for_target(&d->info);
	*out = d;
	return 0;
}

void decoder_close(struct decoder *d)
{
	if (!d)
		return;
	disassemble_free_target(&d->info);
	free(d->arm_modes);
	free(d);
}

static int compare_arm_modes(const void *x, const void *y)
{
	const struct arm_mode *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return (int)a->thumb - (int)b->thumb;
}

static bool is_mapping_symbol(const asymbol *sym)
{
	return sym->name[0] == '$' && sym->name[1] && strchr("atd", sym->name[1]) &&
	       (sym->name[2] == '\0' || sym->name[2] == '.') &&
	       sym->section && (sym->section->flags & SEC_CODE);
}

int decoder_read_arm_modes(struct decoder *d, asymbol **syms, size_t nsyms,
			   struct g2c_error *err)
{
	if (d->info.arch != bfd_arch_arm || nsyms == 0)
		return 0;
	d->arm_modes = malloc(nsyms * sizeof *d->arm_modes);
	if (!d->arm_modes)
		return g2c_error_set(err, "out of memory for ARM mapping symbols");
	for (size_t i = 0; i < nsyms; i++)
		if (is_mapping_symbol(syms[i]))
			d->arm_modes[d->narm_modes++] = (struct arm_mode){
				bfd_asymbol_value(syms[i]), syms[i]->name[1] == 't' };
	if (d->narm_modes)
		qsort(d->arm_modes, d->narm_modes, sizeof *d->arm_modes,
		      compare_arm_modes);
	return 0;
}

/* Whether the ARM code at PC is Thumb: the last mapping symbol at or
 * before PC says. */
static bool arm_is_thumb(const struct decoder *d, uint64_t pc)
{
	size_t after = search_above(d->arm_modes, d->narm_modes,
				    sizeof *d->arm_modes, pc, 0);

	return after > 0 && d->arm_modes[after - 1].thumb;
}

/* Points D at CODE, in the mode (ARM or Thumb) of the code at LO, for
 * decoding from LO on. */
static void decode_from(struct decoder *d, const struct code_bytes *code,
			uint64_t lo)
{
	struct disassemble_info *info = &d->info;

	info->buffer = (bfd_byte *)code->data;
	info->buffer_vma = code->vma;
	info->buffer_length = code->size;
	/* ARM code may be Thumb; its mapping symbols say which. */
	if (info->arch == bfd_arch_arm)
		info->disassembler_options = arm_is_thumb(d, lo) ?
					     "force-thumb" : "no-force-thumb";
}

/* A signed 32-bit little-endian word at P. */
static int64_t signed_word_at(const unsigned char *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
			 (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* Without libopcodes: the instruction at PC of the code INFO points at
 * into *OUT, as libopcodes decodes it, when it is one of those an x86-64
 * -pg prologue is made of: endbr64, push of a register, mov %rsp,%rbp,
 * sub $imm,%rsp, call rel32 and call *disp32(%rip) (whose target is the
 * GOT slot it reads).  Finding where each function calls mcount is then
 * a few byte compares instead of libopcodes' decoding and formatting.
 * Returns false for any other instruction. */
static bool decode_prologue_insn(const struct disassemble_info *info,
				 uint64_t pc, struct insn *out)
{
	static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const unsigned char mov_rsp_rbp[] = { 0x48, 0x89, 0xe5 };
	static const unsigned char sub_imm8_rsp[] = { 0x48, 0x83, 0xec };
	static const unsigned char sub_imm32_rsp[] = { 0x48, 0x81, 0xec };
	uint64_t at = pc - info->buffer_vma, left;
	const unsigned char *p;

	if (info->arch != bfd_arch_i386 || !(info->mach & bfd_mach_x86_64) ||
	    pc < info->buffer_vma || at >= info->buffer_length)
		return false;
	p = info->buffer + at;
	left = info->buffer_length - at;
	*out = (struct insn){ .pc = pc };
#define STARTS_WITH(bytes) \
	(left >= sizeof bytes && memcmp(p, bytes, sizeof bytes) == 0)
	if (p[0] >= 0x50 && p[0] <= 0x57)	/* push %rax ... %rdi */
		out->len = 1;
	else if (left >= 2 && p[0] == 0x41 && p[1] >= 0x50 && p[1] <= 0x57)
		out->len = 2;			/* push %r8 ... %r15 */
	else if (STARTS_WITH(mov_rsp_rbp))
		out->len = sizeof mov_rsp_rbp;
	else if (STARTS_WITH(endbr64))
		out->len = sizeof endbr64;
	else if (left >= 4 && STARTS_WITH(sub_imm8_rsp))
		out->len = 4;
	else if (left >= 7 && STARTS_WITH(sub_imm32_rsp))
		out->len = 7;
	else if (left >= 5 && p[0] == 0xe8)
		out->len = 5;
	else if (left >= 6 && p[0] == 0xff && p[1] == 0x15)
		out->len = 6;
#undef STARTS_WITH
	out->is_call = out->len > 0 && (p[0] == 0xe8 || p[0] == 0xff);
	if (out->is_call)
		out->target = pc + out->len +
			      (uint64_t)signed_word_at(p + out->len - 4);
	return out->len > 0;
}

/* The one instruction at PC, of the code decode_from pointed D at. */
static struct insn decode_at(struct decoder *d, uint64_t pc)
{
	struct disassemble_info *info = &d->info;
	struct insn out = { .pc = pc };
	int len;

	if (decode_prologue_insn(info, pc, &out))
		return out;
	d->text.len = 0;
	d->text.words = 0;
	d->text.text[0] = '\0';
	d->text.has_target = false;
	info->insn_info_valid = 0;
	len = d->decode(pc, info);
	out.len = len > 0 ? (uint32_t)len : 1;	/* undecodable: one byte at a time */
	out.is_call = (info->insn_info_valid && info->insn_type == dis_jsr) ||
		      text_is_call(info->arch, d->text.text);
	out.target = d->text.has_target ? d->text.target : 0;
	return out;
}

/* The end of the instructions to decode from LO below HI in CODE. */
static uint64_t decode_end(const struct code_bytes *code, uint64_t hi)
{
	uint64_t end = code->vma + code->size;

	return hi < end ? hi : end;
}

int decode_range(struct decoder *d, const struct code_bytes *code,
		 uint64_t lo, uint64_t hi, struct insn **insns, size_t *count,
		 struct g2c_error *err)
{
	struct insn *out = NULL;
	size_t cap = 0, n = 0;
	uint64_t end = decode_end(code, hi);

	decode_from(d, code, lo);
	for (uint64_t pc = lo < code->vma ? code->vma : lo; pc < end;
	     pc += out[n - 1].len) {
		struct insn *grown = array_grow(out, &cap, n + 1, sizeof *out);

		if (!grown) {
			free(out);
			return g2c_error_set(err, "out of memory for decoded instructions");
		}
		out = grown;
		out[n++] = decode_at(d, pc);
	}
	/* (kept while the profile is credited: every function's, when every
	 * bin has samples) */
	*insns = array_fit(out, &cap, n, sizeof *out);
	*count = n;
	return 0;
}

bool decode_first_call(struct decoder *d, const struct code_bytes *code,
		       uint64_t lo, uint64_t hi, struct insn *call)
{
	uint64_t end = decode_end(code, hi);

	decode_from(d, code, lo);
	for (uint64_t pc = lo < code->vma ? code->vma : lo; pc < end;
	     pc += call->len) {
		*call = decode_at(d, pc);
		if (call->is_call)
			return true;
	}
	return false;
}

size_t insn_first_ending_after(const struct insn *insns, size_t n,
			       uint64_t pc)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (insns[mid].pc + insns[mid].len <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A 32-bit little-endian word of CODE ending at offset AT. */
static uint32_t word_before(const struct code_bytes *code, uint64_t at)
{
	const unsigned char *p = code->data + at - 4;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint64_t decode_direct_call(const struct decode_target *target,
			    const struct code_bytes *code, uint64_t ret_lo,
			    uint64_t ret_hi, uint64_t callee)
{
	bool x86 = target->arch == bfd_arch_i386;

	/* (AArch64 instructions are little-endian in either data order.) */
	if (!x86 && target->arch != bfd_arch_aarch64)
		return 0;
	for (uint64_t ret = ret_lo; ret < ret_hi; ret++) {
		uint64_t at = ret - code->vma;
		int64_t disp;

		if (ret < code->vma + 5 || at > code->size)
			continue;
		if (x86 && code->data[at - 5] == 0xe8) {	/* call rel32 */
			disp = (int32_t)word_before(code, at);
			if (ret + (uint64_t)disp == callee)
				return ret - 5;
		} else if (!x86 && ret % 4 == 0) {
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

int decode_call_ends_at(const struct decode_target *target,
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
