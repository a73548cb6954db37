/* machine_code.c -- one object's machine code: its functions'
 * instructions, decoded on first use, and the call instruction behind a
 * return address that mcount recorded. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "arch_calls.h"
#include "diag.h"
#include "machine_code.h"
#include "object.h"
#include "symtab.h"
#include "util.h"

struct func_code {
	const struct insn *insns;	/* NULL: not decodable here */
	size_t count;
	bool decoded;
	uint64_t mcount_return;	/* 0: no mcount call */
	uint64_t mcount_target;	/* the address that call names, or 0 */
	bool mcount_searched, mcount_decoded;
};

int machine_code_open(struct machine_code *c, struct object *obj,
		      const struct symtab *st, struct g2c_error *err)
{
	memset(c, 0, sizeof *c);
	c->obj = obj;
	c->st = st;
	c->target = disasm_target_of(obj);
	c->calls = arch_calls_of(c->target.arch);
	/* (from 24 kB, for the few functions most profiles need decoded, to
	 * 1.5 MB, for every function of a histogram with every bin counted) */
	c->kept = (struct copy_blocks){ 1024 * sizeof(struct insn),
					65536 * sizeof(struct insn), NULL };
	c->funcs = calloc(st->nfuncs ? st->nfuncs : 1, sizeof *c->funcs);
	if (!c->funcs)
		return g2c_error_set(err, "%s: out of memory for code", obj->path);
	return 0;
}

const char *machine_code_arch_name(const struct machine_code *c)
{
	return disasm_arch_name(&c->target);
}

int machine_code_check_decoded(const struct machine_code *c,
			       struct g2c_error *err)
{
	const struct g2c_error *failure = disasm_failure(c->decoder);

	if (failure)
		return g2c_error_set(err, "%s: %s", c->obj->path, failure->msg);
	return 0;
}

void machine_code_close(struct machine_code *c)
{
	copy_blocks_release(&c->kept);
	free(c->funcs);
	disasm_close(c->decoder);
	if (c->obj)
		object_forget_code(c->obj);
	memset(c, 0, sizeof *c);
}

/* The decoder, opened on first use: many profiles need none. */
static int get_decoder(struct machine_code *c, struct disasm **out,
		       struct g2c_error *err)
{
	if (!c->decoder_tried) {
		c->decoder_tried = true;
		if (disasm_open(&c->decoder, &c->target, c->obj->abfd, err) < 0)
			return g2c_error_prefix(err, c->obj->path);
		c->no_decoder = !c->decoder;
		if (c->decoder &&
		    disasm_read_arm_modes(c->decoder, c->obj->syms, c->obj->nsyms,
					   err) < 0)
			return g2c_error_prefix(err, c->obj->path);
	}
	*out = c->decoder;
	return 0;
}

int machine_code_instructions(struct machine_code *c, size_t f,
			      const struct insn **insns, size_t *count,
			      struct g2c_error *err)
{
	struct func_code *fc = &c->funcs[f];
	const struct symtab_func *fn = &c->st->funcs[f];

	if (!fc->decoded) {
		struct code_bytes bytes;
		struct disasm *d;
		const struct insn *decoded;
		int found = object_code_at(c->obj, fn->addr, &bytes, err);

		if (found < 0)
			return -1;
		if (found && get_decoder(c, &d, err) < 0)
			return -1;
		if (found && d) {
			if (disasm_range(d, &bytes, fn->addr, fn->end, &decoded,
					 &fc->count, err) < 0)
				return g2c_error_prefix(err, c->obj->path);
			/* (kept side by side: an array of its own each would
			 * grow by doubling and be freed one by one) */
			if (fc->count &&
			    !(fc->insns = copy_blocks_add(&c->kept, decoded,
							  fc->count * sizeof *decoded,
							  _Alignof(struct insn))))
				return g2c_error_set(err, "%s: out of memory for decoded instructions",
						     c->obj->path);
		}
		fc->decoded = true;
	}
	*insns = fc->insns;
	*count = fc->count;
	return 0;
}

void machine_code_prefetch(struct machine_code *c, uint64_t pc)
{
	struct code_bytes bytes;
	struct g2c_error ignored;	/* the check itself meets it again */

	if (object_code_at(c->obj, pc, &bytes, &ignored) == 1 &&
	    pc - bytes.vma >= 8 && pc - bytes.vma <= bytes.size)
		prefetch(bytes.data + (pc - bytes.vma) - 8);
}

/* Whether function F's code jumps to CALLEE: a tail call, which makes a
 * call to F a call of CALLEE to mcount. */
static int jumps_to(struct machine_code *c, size_t f, uint64_t callee,
		    bool *found, struct g2c_error *err)
{
	const struct insn *insns;
	size_t n;

	*found = false;
	if (machine_code_instructions(c, f, &insns, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n && !*found; i++)
		*found = !insns[i].is_call && insns[i].target == callee;
	return 0;
}

/* Whether symbol range F is the program's own code: not a PLT entry,
 * which leaves it. */
static bool in_program(const struct machine_code *c, size_t f)
{
	const char *name = f == SYMTAB_NONE ? NULL : c->st->funcs[f].raw_name;
	size_t len = name ? strlen(name) : 0;

	return name && !(len > 4 && strcmp(name + len - 4, "@plt") == 0);
}

/* The call mcount recorded from BUCKET for CALLEE among CALLS[0..N),
 * calls to other targets that return into the bucket (machine_code_call_site
 * says which is preferred).  Sets *SITE to its address. */
static int tail_call_site(struct machine_code *c, const struct insn *calls,
			  size_t n, uint64_t bucket, uint64_t callee,
			  const struct machine_code_recorded *recorded,
			  uint64_t *site, struct g2c_error *err)
{
	int best = -1;

	*site = calls[0].pc;
	for (size_t i = 0; i < n && best < 3; i++) {
		size_t f = symtab_lookup(c->st, calls[i].target);
		bool found = false;
		int rank;

		if (f != SYMTAB_NONE && jumps_to(c, f, callee, &found, err) < 0)
			return -1;
		rank = found ? 3 : !in_program(c, f) ? 0 :
		       recorded && recorded->call_into(recorded->ctx, bucket,
						      calls[i].target) ? 2 : 1;
		if (rank > best) {
			best = rank;
			*site = calls[i].pc;
		}
	}
	return 0;
}

/* Whether CALL names CALLEE (symbol range CALLEE_F): its entry, its PLT
 * entry, or a place in its prologue (Alpha's calls within a program skip
 * the two instructions that set up the global pointer). */
static bool calls_callee(const struct machine_code *c, const struct insn *call,
			 uint64_t callee, size_t callee_f)
{
	if (call->target == callee)
		return true;
	if (callee_f == SYMTAB_NONE || !call->target)
		return false;
	return symtab_is_plt_stub_of(c->st, call->target, callee_f) ||
	       (call->target > callee && symtab_lookup(c->st, call->target) == callee_f);
}

int machine_code_call_site(struct machine_code *c, uint64_t bucket,
			   uint64_t size, uint64_t callee,
			   const struct machine_code_recorded *recorded,
			   uint64_t *site, enum machine_code_check *check,
			   struct g2c_error *err)
{
	size_t f = symtab_lookup(c->st, bucket), ndirect = 0, nindirect = 0;
	size_t ncalls = 0, nothers = 0, callee_f;
	uint64_t direct = 0, indirect = 0, first_call = 0, covering = 0;
	struct insn others[16];	/* calls to other targets; a bucket holds few */
	bool decoded = false;
	struct code_bytes bytes;
	int found;

	*site = bucket;
	*check = MACHINE_CODE_UNKNOWN;
	if (f == SYMTAB_NONE)
		return 0;
	found = object_code_at(c->obj, bucket, &bytes, err);
	if (found < 0)
		return -1;
	if (found && (direct = arch_direct_call(&c->target, &bytes, bucket,
						bucket + size, callee))) {
		*site = direct;
		*check = MACHINE_CODE_AFTER_CALL;
		return 0;
	}
	/* The call may be in the function the bucket starts in or, when a
	 * function starts inside the bucket, in the next ones. */
	callee_f = symtab_lookup(c->st, callee);
	for (; f < c->st->nfuncs && c->st->funcs[f].addr < bucket + size; f++) {
		const struct insn *insns;
		size_t n, i;

		if (machine_code_instructions(c, f, &insns, &n, err) < 0)
			return -1;
		/* (a call ending at the bucket's start returns into it; one
		 * ending a delay slot earlier too) */
		i = bucket > c->calls->delay ?
		    insn_first_ending_after(insns, n, bucket - 1 - c->calls->delay, 0) : 0;
		if (insns && !decoded) {
			size_t at = bucket ? insn_first_ending_after(insns, n, bucket - 1, 0) : 0;

			covering = at < n ? insns[at].pc : 0;
		}
		decoded = decoded || insns;
		for (; i < n && insns[i].pc < bucket + size; i++) {
			uint64_t recorded = arch_call_recorded(c->calls, &insns[i]);

			if (!insns[i].is_call || recorded < bucket ||
			    recorded >= bucket + size)
				continue;
			if (ncalls++ == 0)
				first_call = insns[i].pc;
			if (calls_callee(c, &insns[i], callee, callee_f)) {
				if (ndirect++ == 0)
					direct = insns[i].pc;
			} else if (insns[i].target == 0 && nindirect++ == 0) {
				indirect = insns[i].pc;
			} else if (insns[i].target != 0 &&
				   nothers < sizeof others / sizeof *others) {
				others[nothers++] = insns[i];
			}
		}
	}
	/* Calls whose target is known and another function cannot have
	 * made it; an indirect call can (the first, when there are
	 * several).  A call to another target returning there still makes
	 * the record plausible: the callee is reached from it by a tail
	 * call (or through a PLT stub).  With no call there, the site is
	 * the instruction the bucket starts in: every site is an
	 * instruction start. */
	if (ndirect > 0)
		*site = direct;
	else if (nindirect > 0)
		*site = indirect;
	else if (size == 1 && ncalls == 1)
		*site = first_call;	/* the exact return address of a tail
					   call through a PLT (LD_PROFILE) */
	else if (nothers > 0 &&
		 tail_call_site(c, others, nothers, bucket, callee, recorded,
				site, err) < 0)
		return -1;
	else if (ncalls == 0 && decoded && covering)
		*site = covering;
	if (decoded)
		*check = ncalls > 0 ? MACHINE_CODE_AFTER_CALL :
			 MACHINE_CODE_NOT_AFTER_CALL;
	return 0;
}

/* Whether a call to TARGET can be a -pg prologue's call of mcount: a
 * call through the GOT (gcc's PIE code) or a register, or to an mcount
 * entry point or its PLT entry.  i386's PIC prologue calls
 * __x86.get_pc_thunk first, PowerPC's may "bcl" to the next instruction:
 * calls to other functions are not it. */
static bool can_call_mcount(const struct machine_code *c, uint64_t target)
{
	size_t f;

	if (target == 0)
		return true;
	f = symtab_lookup(c->st, target);
	return f == SYMTAB_NONE || c->st->funcs[f].is_mcount;
}

int machine_code_mcount_call(struct machine_code *c, size_t f, uint64_t *ret,
			     uint64_t *target, struct g2c_error *err)
{
	struct func_code *fc = &c->funcs[f];
	const struct symtab_func *fn = &c->st->funcs[f];

	if (!fc->mcount_searched) {
		struct code_bytes bytes;
		struct disasm *d = NULL;
		struct insn call;
		int found = object_code_at(c->obj, fn->addr, &bytes, err);

		if (found < 0 || (found && get_decoder(c, &d, err) < 0))
			return -1;
		fc->mcount_searched = true;
		fc->mcount_decoded = d != NULL;
		/* The prologue, however long (clang saves argument registers
		 * before the call), up to the first call that can be mcount's;
		 * HP-PA's captures its own address first. */
		for (uint64_t pc = fn->addr, captured = 0;
		     d && disasm_first_call(d, &bytes, pc, fn->end, &call);
		     pc = call.pc + call.len) {
			uint64_t returns = arch_call_return(c->calls, call.pc, call.len);

			if (can_call_mcount(c, call.target)) {
				fc->mcount_return =
					c->calls->self_pc == SELF_PC_MCOUNT_RETURN ? returns :
					c->calls->self_pc == SELF_PC_MCOUNT_CALL ? call.pc :
					captured;
				fc->mcount_target = call.target;
				break;
			}
			if (call.target == returns)
				captured = returns;
		}
	}
	*ret = fc->mcount_return;
	*target = fc->mcount_target;
	return fc->mcount_decoded;
}

int machine_code_call_ends_at(struct machine_code *c, size_t f, uint64_t ret,
			      enum machine_code_check *check,
			      struct g2c_error *err)
{
	struct code_bytes bytes;
	int found = object_code_at(c->obj, c->st->funcs[f].addr, &bytes, err);
	int quick = found > 0 ? arch_call_ends_at(&c->target, &bytes, ret) : -1;

	*check = quick < 0 ? MACHINE_CODE_UNKNOWN :
		 quick ? MACHINE_CODE_AFTER_CALL : MACHINE_CODE_NOT_AFTER_CALL;
	return found < 0 ? -1 : 0;
}
