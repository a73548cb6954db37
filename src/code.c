/* code.c -- the instructions of one object's functions, and the call
 * instruction behind a return address that mcount recorded. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "code.h"
#include "diag.h"
#include "object.h"
#include "symtab.h"
#include "util.h"

struct func_code {
	struct insn *insns;	/* NULL: not decodable here */
	size_t count;
	bool decoded;
};

int code_open(struct code *c, struct object *obj, const struct symtab *st,
	      struct g2c_error *err)
{
	memset(c, 0, sizeof *c);
	c->obj = obj;
	c->st = st;
	c->target = decode_target_of(obj);
	c->funcs = calloc(st->nfuncs ? st->nfuncs : 1, sizeof *c->funcs);
	if (!c->funcs)
		return g2c_error_set(err, "%s: out of memory for code", obj->path);
	return 0;
}

const char *code_arch_name(const struct code *c)
{
	return decode_arch_name(&c->target);
}

void code_close(struct code *c)
{
	for (size_t i = 0; c->funcs && i < c->st->nfuncs; i++)
		free(c->funcs[i].insns);
	free(c->funcs);
	decoder_close(c->decoder);
	if (c->obj)
		object_forget_code(c->obj);
	memset(c, 0, sizeof *c);
}

/* The decoder, opened on first use: many profiles need none. */
static int get_decoder(struct code *c, struct decoder **out,
		       struct g2c_error *err)
{
	if (!c->decoder_tried) {
		c->decoder_tried = true;
		if (decoder_open(&c->decoder, &c->target, c->obj->abfd, err) < 0)
			return -1;
		c->no_decoder = !c->decoder;
		if (c->decoder &&
		    decoder_read_arm_modes(c->decoder, c->obj->syms, c->obj->nsyms,
					   err) < 0)
			return -1;
	}
	*out = c->decoder;
	return 0;
}

int code_instructions(struct code *c, size_t f, const struct insn **insns,
		      size_t *count, struct g2c_error *err)
{
	struct func_code *fc = &c->funcs[f];
	const struct symtab_func *fn = &c->st->funcs[f];

	if (!fc->decoded) {
		struct code_bytes bytes;
		struct decoder *d;
		int found = object_code_at(c->obj, fn->addr, &bytes, err);

		if (found < 0)
			return -1;
		if (found && get_decoder(c, &d, err) < 0)
			return -1;
		if (found && d &&
		    decode_range(d, &bytes, fn->addr, fn->end, &fc->insns,
				 &fc->count, err) < 0)
			return -1;
		fc->decoded = true;
	}
	*insns = fc->insns;
	*count = fc->count;
	return 0;
}

void code_prefetch(struct code *c, uint64_t pc)
{
	struct code_bytes bytes;
	struct g2c_error ignored;	/* the check itself meets it again */

	if (object_code_at(c->obj, pc, &bytes, &ignored) == 1 &&
	    pc - bytes.vma >= 8 && pc - bytes.vma <= bytes.size)
		prefetch(bytes.data + (pc - bytes.vma) - 8);
}

/* The first of INSNS[0..N) (in address order) that ends at or after
 * PC. */
static size_t first_ending_at(const struct insn *insns, size_t n, uint64_t pc)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (insns[mid].pc + insns[mid].len < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int code_call_site(struct code *c, uint64_t bucket, uint64_t size,
		   uint64_t callee, uint64_t *site, enum code_check *check,
		   struct g2c_error *err)
{
	size_t f = symtab_lookup(c->st, bucket), ndirect = 0, nindirect = 0;
	size_t ncalls = 0, callee_f = symtab_lookup(c->st, callee);
	uint64_t direct = 0, indirect = 0, first_call = 0;
	bool decoded = false;
	struct code_bytes bytes;
	int found;

	*site = bucket;
	*check = CODE_UNKNOWN;
	if (f == SYMTAB_NONE)
		return 0;
	found = object_code_at(c->obj, bucket, &bytes, err);
	if (found < 0)
		return -1;
	if (found && (direct = decode_direct_call(&c->target, &bytes, bucket,
						  bucket + size, callee))) {
		*site = direct;
		*check = CODE_AFTER_CALL;
		return 0;
	}
	/* The call may be in the function the bucket starts in or, when a
	 * function starts inside the bucket, in the next ones. */
	for (; f < c->st->nfuncs && c->st->funcs[f].addr < bucket + size; f++) {
		const struct insn *insns;
		size_t n;

		if (code_instructions(c, f, &insns, &n, err) < 0)
			return -1;
		decoded = decoded || insns;
		for (size_t i = first_ending_at(insns, n, bucket);
		     i < n && insns[i].pc < bucket + size; i++) {
			uint64_t ret = insns[i].pc + insns[i].len;

			if (!insns[i].is_call || ret >= bucket + size)
				continue;
			if (ncalls++ == 0)
				first_call = insns[i].pc;
			if (insns[i].target == callee ||
			    (callee_f != SYMTAB_NONE && insns[i].target &&
			     symtab_is_plt_stub_of(c->st, insns[i].target, callee_f))) {
				if (ndirect++ == 0)
					direct = insns[i].pc;
			} else if (insns[i].target == 0 && nindirect++ == 0) {
				indirect = insns[i].pc;
			}
		}
	}
	/* Calls whose target is known and another function cannot have
	 * made it; an indirect call can, when it is the only one.  A call
	 * to another target returning there still makes the record
	 * plausible (a call through a PLT stub). */
	if (ndirect > 0)
		*site = direct;
	else if (nindirect == 1)
		*site = indirect;
	else if (size == 1 && ncalls == 1)
		*site = first_call;	/* the exact return address of a tail
					   call through a PLT (LD_PROFILE) */
	if (decoded)
		*check = ncalls > 0 ? CODE_AFTER_CALL : CODE_NOT_AFTER_CALL;
	return 0;
}

int code_check_return(struct code *c, size_t f, uint64_t ret,
		      enum code_check *check, struct g2c_error *err)
{
	const struct symtab_func *fn = &c->st->funcs[f];
	struct code_bytes bytes;
	struct decoder *d;
	struct insn *insns = NULL;
	size_t n = 0;
	int found, quick;

	*check = CODE_UNKNOWN;
	found = object_code_at(c->obj, fn->addr, &bytes, err);
	if (found <= 0)
		return found;
	quick = decode_call_ends_at(&c->target, &bytes, ret);
	if (quick >= 0) {
		*check = quick ? CODE_AFTER_CALL : CODE_NOT_AFTER_CALL;
		return 0;
	}
	/* Decode the prologue only: from the entry up to RET. */
	if (get_decoder(c, &d, err) < 0)
		return -1;
	if (!d || ret <= fn->addr)
		return 0;
	if (decode_range(d, &bytes, fn->addr, ret, &insns, &n, err) < 0)
		return -1;
	*check = n > 0 && insns[n - 1].pc + insns[n - 1].len == ret &&
		 insns[n - 1].is_call ? CODE_AFTER_CALL : CODE_NOT_AFTER_CALL;
	free(insns);
	return 0;
}
