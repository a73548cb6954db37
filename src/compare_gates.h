/* compare_gates.h -- --fail-on's thresholds ("gates"): the measure each
 * watches, parsed from their text, and whether a change crosses one.
 * Knows nothing of profiles or rows; compare_stats.c applies them. */
#ifndef GMON2CG_COMPARE_GATES_H
#define GMON2CG_COMPARE_GATES_H

#include <stdbool.h>
#include <stddef.h>

struct g2c_error;

enum compare_measure { MEASURE_SELF, MEASURE_INCL, MEASURE_CALLS, MEASURE_TOTAL };

/* One --fail-on threshold: WHAT:[+|-]AMOUNT[%|ns|us|ms|s]. */
struct compare_gate {
	enum compare_measure what;
	int direction;		/* +1: an increase, -1: a decrease, 0: either */
	bool relative;		/* AMOUNT is a percentage of the old value */
	double amount;		/* percent, ns, or calls */
	char text[64];		/* as written, for reports */
};

/* Parses SPEC (one or more thresholds, comma-separated) and appends them
 * to *GATES[0..*N).  Returns 0, or -1 with ERR saying what is wrong (or
 * that memory ran out). */
int compare_parse_gates(const char *spec, struct compare_gate **gates,
			size_t *n, struct g2c_error *err);

/* A time such as "10ms" (units ns, us, ms, s) into *NS: 0, or -1. */
int compare_parse_time(const char *s, double *ns);

/* Without --fail-on: any slowdown beyond noise, any change of calls. */
extern const char compare_default_gates[];

/* Whether the change from OLD to NEW (CHANGED: beyond noise) crosses G. */
bool compare_gate_crossed(const struct compare_gate *g, double old,
			  double new, bool changed);

#endif
