/* callgrind_read.h -- read back a callgrind file that gmon2cg wrote.
 *
 * The first stage of a comparison (gmon2cg --compare): reads one file,
 * plain or gzip-compressed, parts and all, and sums per function its self
 * cost, its inclusive cost and the calls to it, in nanoseconds and in
 * samples (each part's sampling rate is read from its "desc: Sampling
 * rate:" line).  It accepts everything the writer (callgrind_write.c)
 * writes -- name compression, fl=/fi=/fe=, cob=/cfi=/cfn=, calls=,
 * "positions: instr line" or "line" with relative positions, the ns and bb
 * events, summary: and totals: -- and refuses anything else with one line
 * naming the file and line: also a line of over 1 MiB (a file of another
 * kind can have no newline for gigabytes: its first line is judged by its
 * first bytes), costs that add up past 64 bits, and a call that costs more
 * than its part's total.  A function is known by its name (without the
 * writer's " [FILE]" or " [0x...]" label), its source file and its object
 * (the base name of a library; "" for the program, the file's first
 * object), so that a rebuild, where every address moves, matches.
 * Asked to, it also keeps the calls between functions (cfn=, calls= and
 * their inclusive costs), summed per caller and callee, for the
 * differential flame graph of the new side.
 */
#ifndef GMON2CG_CALLGRIND_READ_H
#define GMON2CG_CALLGRIND_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hashindex.h"

struct g2c_error;

struct callgrind_read_fn {
	const char *object;	/* "": the program; else a library's base name */
	const char *file;	/* its fl= */
	const char *name;	/* as shown, without the writer's label */
	uint64_t self_ns, incl_ns;
	double self_samples, incl_samples;
	uint64_t calls;		/* calls to it, but from <spontaneous> */
	unsigned line;		/* its entry's line (a call's target); 0: none */
};

/* All calls from one function to another (fns numbers), but from
 * <spontaneous>. */
struct callgrind_read_call {
	size_t caller, callee;
	uint64_t count;
	uint64_t ns;		/* their inclusive cost */
};

struct callgrind_read_profile {
	const char *path;
	struct callgrind_read_fn *fns;
	size_t nfns;
	uint64_t total_ns;	/* every self cost */
	double total_samples;
	uint32_t hz;		/* the first part's sampling rate; 0: none */
	struct callgrind_read_call *calls;	/* when asked for, as first met */
	size_t ncalls;
	/* callgrind_read.c's: owns the names */
	struct callgrind_read_strings *strings;
	size_t fns_cap;
	struct hash_index index;	/* the reader's: fns by identity */
	size_t calls_cap;
	struct hash_index call_index;	/* the reader's: calls by ends */
};

/* Reads the callgrind file PATH into P, the calls too when CALLS.
 * Returns 0, or -1 with ERR set ("PATH:LINE: what is wrong"); P is to be
 * released either way. */
int callgrind_read_file(struct callgrind_read_profile *p, const char *path,
			bool calls, struct g2c_error *err);

void callgrind_read_release(struct callgrind_read_profile *p);

/* Adds the functions and calls of FROM to INTO (zeroed at first, then
 * the sum of the profiles added: functions matched as within a file,
 * names copied into its own table).  Returns 0, or -1 with ERR set; INTO
 * is to be released either way. */
int callgrind_read_merge(struct callgrind_read_profile *into,
			 const struct callgrind_read_profile *from,
			 struct g2c_error *err);

/* A table of strings, each kept once: the profile's names, and those a
 * comparison keeps once the profiles are released. */
/* NULL: out of memory */
struct callgrind_read_strings *callgrind_read_strings_new(void);
/* The table's copy of S (added if new); NULL when out of memory. */
const char *callgrind_read_strings_intern(struct callgrind_read_strings *t,
					  const char *s);
void callgrind_read_strings_free(struct callgrind_read_strings *t);

#endif
