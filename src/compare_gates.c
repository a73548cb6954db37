/* compare_gates.c -- --fail-on's gates: parsed, and crossed or not. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_gates.h"
#include "diag.h"
#include "util.h"

const char compare_default_gates[] = "self:+0%,calls:1";

static const struct {
	const char *name;
	enum compare_measure what;
} measures[] = {
	{ "self", MEASURE_SELF }, { "incl", MEASURE_INCL },
	{ "calls", MEASURE_CALLS }, { "total", MEASURE_TOTAL },
};

static const struct {
	const char *suffix;
	double ns;
} time_units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };

#define NO_UNIT SIZE_MAX

/* Which of time_units S[0..LEN) is; NO_UNIT if none. */
static size_t time_unit(const char *s, size_t len)
{
	for (size_t k = 0; k < sizeof time_units / sizeof *time_units; k++)
		if (strlen(time_units[k].suffix) == len &&
		    memcmp(s, time_units[k].suffix, len) == 0)
			return k;
	return NO_UNIT;
}

int compare_parse_time(const char *s, double *ns)
{
	char *end;
	size_t unit;

	*ns = strtod(s, &end);
	if (end == s || !(*s >= '0' && *s <= '9') || !isfinite(*ns) ||
	    (unit = time_unit(end, strlen(end))) == NO_UNIT)
		return -1;
	*ns *= time_units[unit].ns;
	return 0;
}

/* One threshold, SPEC[0..LEN), into G. */
static int parse_gate(const char *spec, size_t len, struct compare_gate *g,
		      struct g2c_error *err)
{
	const char *colon = memchr(spec, ':', len), *p;
	char *end;
	size_t k, nmeasures = sizeof measures / sizeof *measures;

	memset(g, 0, sizeof *g);
	snprintf(g->text, sizeof g->text, "%.*s", (int)len, spec);
	for (k = 0; colon && k < nmeasures; k++)
		if (strlen(measures[k].name) == (size_t)(colon - spec) &&
		    memcmp(measures[k].name, spec, (size_t)(colon - spec)) == 0)
			break;
	if (!colon || k == nmeasures)
		return g2c_error_set(err, "invalid --fail-on '%s': WHAT:CHANGE is needed, WHAT one of self, incl, calls, total",
				     g->text);
	g->what = measures[k].what;
	p = colon + 1;
	g->direction = *p == '+' ? 1 : *p == '-' ? -1 : 0;
	p += g->direction != 0;
	g->amount = strtod(p, &end);
	if (end == p || !(*p >= '0' && *p <= '9') || !isfinite(g->amount))
		return g2c_error_set(err, "invalid --fail-on '%s': the change needs a number", g->text);
	if ((size_t)(end - spec) < len && *end == '%') {
		g->relative = true;
		end++;
	} else if (g->what != MEASURE_CALLS) {
		size_t unit = time_unit(end, len - (size_t)(end - spec));

		if (unit == NO_UNIT)
			return g2c_error_set(err, "invalid --fail-on '%s': a time needs %% or a unit (ns, us, ms, s)",
					     g->text);
		g->amount *= time_units[unit].ns;
		end += strlen(time_units[unit].suffix);
	}
	if ((size_t)(end - spec) != len)
		return g2c_error_set(err, "invalid --fail-on '%s': unexpected '%.*s'", g->text,
				     (int)(len - (size_t)(end - spec)), end);
	return 0;
}

int compare_parse_gates(const char *spec, struct compare_gate **gates,
			size_t *n, struct g2c_error *err)
{
	for (const char *s = spec;; s++) {
		size_t len = strcspn(s, ",");
		size_t cap = *n;
		struct compare_gate *g = array_grow(*gates, &cap, *n + 1, sizeof *g);

		if (!g)
			return g2c_error_set(err, "out of memory");
		*gates = g;
		if (parse_gate(s, len, &g[*n], err) < 0)
			return -1;
		(*n)++;
		s += len;
		if (!*s)
			return 0;
	}
}

/* Whether the change from OLD to NEW crosses G. */
bool compare_gate_crossed(const struct compare_gate *g, double old,
			  double new, bool changed)
{
	double d = new - old;

	if (!changed || d == 0 || g->direction * d < 0)
		return false;
	if (g->relative)
		return old == 0 || fabs(d) / old * 100 >= g->amount;
	return fabs(d) >= g->amount;
}
