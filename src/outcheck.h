/* outcheck.h -- checks the numbers the writer is about to write.
 *
 * Before a profile is written, the call graph's final integers are
 * checked against what the viewers rely on, in one pass over the graph:
 * every cost below 2^63 and at most the total; the self costs written
 * (positions, markers, <hidden>) adding up to the total; outside cycles,
 * the calls into every function written (its pseudo caller's included)
 * carrying its self cost plus its calls out; no function's calls in
 * carrying less than its self cost; every position inside its function.
 * It reads the graph as the writers do (the same shown flags, the same
 * costs), so a failure is a bug of gmon2cg, not of the input: the error
 * says so and asks for a report, and nothing is written.  The callgrind
 * writer also has it check that each compressed name's id was defined
 * once (after writing, into the temporary file that main then drops).
 */
#ifndef GMON2CG_OUTCHECK_H
#define GMON2CG_OUTCHECK_H

#include "callgraph.h"

struct g2c_error;

/* Checks CG as the writers will write it.  Returns 0, or -1 with ERR set
 * to one line that names the invariant and the function. */
int outcheck_graph(const struct callgraph *cg, struct g2c_error *err);

/* Checks that the writer defined ("(id) name") each of the GIVEN ids of
 * the name space written KEY ("fn=") once: IN_ORDER, each definition
 * the id after the one before, and the last one LAST.  Returns 0, or -1
 * with ERR set. */
int outcheck_name_ids(const char *key, size_t last, size_t given, bool in_order,
		      struct g2c_error *err);

#endif
