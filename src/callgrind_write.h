/* callgrind_write.h -- write a call graph as a callgrind-format profile.
 *
 * Follows the rules that make KCachegrind and callgrind_annotate agree with
 * gprof (doc/internals.md): header order with
 * "events:" last, name and subposition compression, one "ns" cost event,
 * "calls=" lines whose costs are the inclusive cost of the calls, and
 * "summary:"/"totals:" equal to the sum of all self costs.  Functions that
 * nothing in the profile calls get the pseudo caller "<spontaneous>", and
 * samples outside every function are the self cost of "<no symbol>".
 * Each object of the program has its "ob=" (and "cob=" for calls into it);
 * the pseudo functions belong to the first object.
 */
#ifndef GMON2CG_CALLGRIND_WRITE_H
#define GMON2CG_CALLGRIND_WRITE_H

#include "callgraph.h"
#include "outstream.h"
#include "source_map.h"

struct g2c_error;

struct callgrind_write_info {
	const char *dimen;	/* what the histogram measures, e.g. "seconds" */
	bool rate_assumed;	/* the profile recorded no sampling rate */
	const char *source;	/* the (first) gmon file, for a desc: line */
	unsigned nsources;	/* how many gmon files were summed */
	unsigned part;		/* 0: the only part; else its number, from 1 */
	bool no_instr;		/* "positions: line": no addresses */
	const char *const *desc;	/* more "desc:" lines (on the objects) */
	size_t ndesc;
	/* for tests: the function from which a second thread writes (the
	 * output is the same); 0: chosen by the profile's size */
	size_t split_at;
};

/* Writes CG to OS, as a whole file or as one of its parts (the file's
 * first lines come with part 1), with the source positions in MAP.  Write
 * errors are left in OS for outstream_close(); returns -1 with ERR set
 * only when memory runs out. */
int callgrind_write(const struct callgraph *cg, const struct source_map *map,
		    const struct callgrind_write_info *info,
		    struct outstream *os, struct g2c_error *err);

#endif
