/* disasm.c -- machine instructions of one target: libopcodes, loaded
 * when needed, its text read for calls, ARM's mapping symbols; x86-64's
 * common instructions by x86_decode.h. */
#include <config.h>

#include <bfd.h>
#include <dis-asm.h>
#ifdef OPCODES_SONAME
#include <dlfcn.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_calls.h"
#include "diag.h"
#include "disasm.h"
#include "util.h"
#include "x86_decode.h"

/* The mnemonic libopcodes printed for one instruction, past any prefix
 * words before it (x86: "rex.W", "cs", "repz", "notrack"...), and the
 * last address it printed (a direct branch or call target).  Formatting
 * stops once the mnemonic is complete: the rest is most of the
 * decoder's time. */
struct insn_text {
	char text[40];
	size_t len;
	bool done;		/* the mnemonic is complete */
	const struct arch_calls *calls;	/* the target's row: its prefixes */
	uint64_t target;
	bool has_target;
};

__attribute__((format(printf, 2, 0)))
static void append_text(struct insn_text *t, const char *fmt, va_list ap)
{
	const char *piece;
	char buf[40];

	if (t->done)
		return;
	/* Most pieces are plain strings: no need to format them. */
	if (strcmp(fmt, "%s") == 0) {
		piece = va_arg(ap, const char *);
		/* (HP-PA's printer passes no string for some invalid
		 * completers: printf would write "(null)", no mnemonic) */
		if (!piece)
			return;
	} else if (!strchr(fmt, '%')) {
		piece = fmt;
	} else {
		vsnprintf(buf, sizeof buf, fmt, ap);
		piece = buf;
	}
	for (; *piece && !t->done; piece++) {
		if (*piece != ' ' && *piece != '\t') {
			if (t->len + 1 < sizeof t->text)
				t->text[t->len++] = *piece;
		} else if (t->len > 0) {
			/* a word complete: a prefix, or the mnemonic */
			t->done = !arch_text_is_prefix(t->calls, t->text, t->len);
			if (!t->done)
				t->len = 0;
		}
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

/* Where ARM code switches between ARM and Thumb, from mapping symbols. */
struct arm_mode {
	uint64_t addr;
	bool thumb;
};


/* What is called of libopcodes. */
struct opcodes {
	disassembler_ftype (*disassembler)(enum bfd_architecture, bool,
					   unsigned long, bfd *);
	void (*init_info)(struct disassemble_info *, void *, fprintf_ftype,
			  fprintf_styled_ftype);
	void (*init_for_target)(struct disassemble_info *);
	void (*free_target)(struct disassemble_info *);
};

#ifdef OPCODES_SONAME
/* Loads the shared libopcodes configure found, on first need: mapping it
 * relocates the tables of every architecture it decodes (4 MB of memory
 * for Debian's multiarch one), more than a small conversion needs in
 * all, and most x86-64 code decodes without it.  Only the attribution
 * stage decodes, on one thread.  Returns it, or NULL with ERR set. */
static const struct opcodes *opcodes_load(struct g2c_error *err)
{
	static struct opcodes api;
	static void *lib;
	void *fn[4];
	static const char *const names[4] = {
		"disassembler", "init_disassemble_info",
		"disassemble_init_for_target", "disassemble_free_target" };

	if (lib)
		return &api;
	if (!(lib = dlopen(OPCODES_SONAME, RTLD_NOW | RTLD_LOCAL))) {
		g2c_error_set(err, "cannot load the instruction decoder: %s",
			      dlerror());
		return NULL;
	}
	for (size_t i = 0; i < 4; i++)
		if (!(fn[i] = dlsym(lib, names[i]))) {
			g2c_error_set(err, "%s has no %s", OPCODES_SONAME,
				      names[i]);
			dlclose(lib);
			lib = NULL;
			return NULL;
		}
	/* (POSIX: a function's address from dlsym is converted so) */
	*(void **)&api.disassembler = fn[0];
	*(void **)&api.init_info = fn[1];
	*(void **)&api.init_for_target = fn[2];
	*(void **)&api.free_target = fn[3];
	return &api;
}
#else
/* A static libopcodes is linked. */
static const struct opcodes *opcodes_load(struct g2c_error *err)
{
	static const struct opcodes api = {
		disassembler, init_disassemble_info,
		disassemble_init_for_target, disassemble_free_target };

	(void)err;
	return &api;
}
#endif

/* libopcodes' decoder and its state, set up once: some targets allocate
 * private data in disassemble_init_for_target.  For x86-64 it is set up
 * only when an instruction needs it (decode_at). */
struct disasm {
	const struct opcodes *opcodes;	/* NULL: not loaded yet */
	disassembler_ftype decode;
	bfd *abfd;
	struct disasm_target target;
	const struct arch_calls *calls;	/* the target's row */
	struct g2c_error failure;	/* of loading it late, if it failed */
	bool failed;
	struct disassemble_info info;
	struct insn_text text;
	struct arm_mode *arm_modes;	/* sorted by address */
	size_t narm_modes;
	bool x86_64;
	struct x86_tables x86;	/* x86-64: its common instructions */
	struct insn *decoded;	/* disasm_range's last answer */
	size_t decoded_cap;
};

const char *disasm_arch_name(const struct disasm_target *target)
{
	if (target->arch == bfd_arch_unknown)
		return "an architecture unknown to libbfd";
	return bfd_printable_arch_mach((enum bfd_architecture)target->arch,
				       target->mach);
}

char *disasm_known_architectures(void)
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

struct disasm_target disasm_target_of(const struct object *obj)
{
	return (struct disasm_target){ bfd_get_arch(obj->abfd),
				       bfd_get_mach(obj->abfd),
				       bfd_big_endian(obj->abfd) };
}

/* Sets up libopcodes' decoder for D's target: sets D->decode, NULL when
 * libopcodes does not decode it.  Returns 0, or -1 with ERR set. */
static int opcodes_start(struct disasm *d, struct g2c_error *err)
{
	const struct disasm_target *t = &d->target;

	if (!(d->opcodes = opcodes_load(err)))
		return -1;
	d->decode = d->opcodes->disassembler((enum bfd_architecture)t->arch,
					     t->big_endian, t->mach, d->abfd);
	if (!d->decode)
		return 0;
	d->opcodes->init_info(&d->info, &d->text, capture_text,
			      capture_styled_text);
	d->info.arch = (enum bfd_architecture)t->arch;
	d->info.mach = t->mach;
	d->info.endian = t->big_endian ? BFD_ENDIAN_BIG : BFD_ENDIAN_LITTLE;
	d->info.print_address_func = capture_address;
	d->opcodes->init_for_target(&d->info);
	return 0;
}

int disasm_open(struct disasm **out, const struct disasm_target *target,
		 bfd *abfd, struct g2c_error *err)
{
	struct disasm *d;

	*out = NULL;
	d = calloc(1, sizeof *d);
	if (!d)
		return g2c_error_set(err, "out of memory for the instruction decoder");
	d->abfd = abfd;
	d->target = *target;
	d->calls = d->text.calls = arch_calls_of(target->arch);
	d->info.arch = (enum bfd_architecture)target->arch;
	d->x86_64 = target->arch == bfd_arch_i386 &&
		    (target->mach & bfd_mach_x86_64);
	if (!d->x86_64 && (opcodes_start(d, err) < 0 || !d->decode)) {
		int rc = d->opcodes ? 0 : -1;

		free(d);
		return rc;
	}
	if (d->x86_64)
		x86_tables_fill(&d->x86);
	*out = d;
	return 0;
}

const struct g2c_error *disasm_failure(const struct disasm *d)
{
	return d && d->failed ? &d->failure : NULL;
}

void disasm_close(struct disasm *d)
{
	if (!d)
		return;
	if (d->decode)
		d->opcodes->free_target(&d->info);
	free(d->arm_modes);
	free(d->decoded);
	free(d);
}

static int by_arm_modes(const void *x, const void *y)
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

int disasm_read_arm_modes(struct disasm *d, asymbol **syms, size_t nsyms,
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
		      by_arm_modes);
	return 0;
}

/* Whether the ARM code at PC is Thumb: the last mapping symbol at or
 * before PC says. */
static bool arm_is_thumb(const struct disasm *d, uint64_t pc)
{
	size_t after = search_above(d->arm_modes, d->narm_modes,
				    sizeof *d->arm_modes, pc, 0);

	return after > 0 && d->arm_modes[after - 1].thumb;
}

/* Points D at CODE, in the mode (ARM or Thumb) of the code at LO, for
 * decoding from LO on. */
static void decode_from(struct disasm *d, const struct code_bytes *code,
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


/* Without libopcodes: the instruction at PC of the code INFO points at
 * into *OUT, where x86_decode tells it (x86_decode.h).  Returns false for
 * any other instruction, which libopcodes decodes. */
static bool decode_x86_64_insn(const struct disasm *d, uint64_t pc,
			       struct insn *out)
{
	const struct disassemble_info *info = &d->info;
	uint64_t at = pc - info->buffer_vma;

	if (!d->x86_64 || pc < info->buffer_vma || at >= info->buffer_length)
		return false;
	return x86_decode(&d->x86, info->buffer + at, info->buffer_length - at,
			  pc, out);
}

/* Sets up libopcodes' decoder where it was left for the first
 * instruction that needs it (x86-64), keeping the code decode_from
 * pointed D at; on failure D->failed, with D->failure saying why. */
static void opcodes_start_late(struct disasm *d)
{
	const bfd_byte *buffer = d->info.buffer;
	bfd_vma vma = d->info.buffer_vma;
	size_t length = d->info.buffer_length;

	d->failed = opcodes_start(d, &d->failure) < 0 || !d->decode;
	if (d->decode) {
		d->info.buffer = (bfd_byte *)buffer;
		d->info.buffer_vma = vma;
		d->info.buffer_length = length;
	} else if (d->opcodes) {
		g2c_error_set(&d->failure, "libopcodes does not decode %s",
			      disasm_arch_name(&d->target));
	}
}

/* The 32-bit instruction word at PC of the code INFO points at, in the
 * target's byte order. */
static uint32_t read_word(const struct disassemble_info *info, uint64_t pc)
{
	const bfd_byte *p = info->buffer + (pc - info->buffer_vma);

	if (info->endian == BFD_ENDIAN_BIG)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | (uint32_t)p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | (uint32_t)p[0];
}

/* The instruction at PC through libopcodes (apart from decode_at, whose
 * frame stays small for the instructions decoded without it). */
__attribute__((noinline))
static struct insn decode_with_opcodes(struct disasm *d, uint64_t pc)
{
	struct disassemble_info *info = &d->info;
	struct insn out = { .pc = pc, .len = 1 };
	bool hint = false;
	int len;

	if (!d->decode && !d->failed)
		opcodes_start_late(d);
	if (d->failed)
		return out;
	d->text.len = 0;
	d->text.done = false;
	d->text.text[0] = '\0';
	d->text.has_target = false;
	info->insn_info_valid = 0;
	len = d->decode(pc, info);
	out.len = len > 0 ? (uint32_t)len : 1;	/* undecodable: one byte at a time */
	if (d->calls->call_word) {
		out.is_call = len == 4 && pc - info->buffer_vma + 4 <= info->buffer_length &&
			      d->calls->call_word(read_word(info, pc));
	} else {
		out.is_call = arch_text_is_call(d->calls, d->text.text, &hint) ||
			      (info->insn_info_valid && info->insn_type == dis_jsr);
	}
	/* (a call through a register names no target, whatever address
	 * its text shows) */
	out.target = d->text.has_target && !hint ? d->text.target : 0;
	return out;
}

/* The one instruction at PC, of the code decode_from pointed D at. */
static struct insn decode_at(struct disasm *d, uint64_t pc)
{
	struct insn out = { .pc = pc };

	if (decode_x86_64_insn(d, pc, &out))
		return out;
	return decode_with_opcodes(d, pc);
}

/* The end of the instructions to decode from LO below HI in CODE. */
static uint64_t decode_end(const struct code_bytes *code, uint64_t hi)
{
	uint64_t end = code->vma + code->size;

	return hi < end ? hi : end;
}

int disasm_range(struct disasm *d, const struct code_bytes *code,
		 uint64_t lo, uint64_t hi, const struct insn **insns,
		 size_t *count, struct g2c_error *err)
{
	size_t n = 0;
	uint64_t end = decode_end(code, hi);

	decode_from(d, code, lo);
	for (uint64_t pc = lo < code->vma ? code->vma : lo; pc < end;
	     pc += d->decoded[n - 1].len) {
		struct insn *grown = array_grow(d->decoded, &d->decoded_cap, n + 1,
						sizeof *grown);

		if (!grown)
			return g2c_error_set(err, "out of memory for decoded instructions");
		d->decoded = grown;
		d->decoded[n++] = decode_at(d, pc);
	}
	*insns = d->decoded;
	*count = n;
	return 0;
}


bool disasm_first_call(struct disasm *d, const struct code_bytes *code,
		       uint64_t lo, uint64_t hi, struct insn *call)
{
	uint64_t end = decode_end(code, hi);

	decode_from(d, code, lo);
	if (lo < code->vma)
		lo = code->vma;
	if (d->x86_64)
		lo = x86_skip_prologue(code, lo, end);
	for (uint64_t pc = lo; pc < end;
	     pc += call->len) {
		*call = decode_at(d, pc);
		if (call->is_call)
			return true;
	}
	return false;
}
