/* check.h -- a minimal assertion kit for the unit tests: each failed check
 * prints its location and values; the program's exit status says whether
 * any check failed (0 pass, 1 fail), as the Automake harness expects. */
#ifndef GMON2CG_CHECK_H
#define GMON2CG_CHECK_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures, check_count;

#define CHECK(cond) check_true((cond), #cond, __FILE__, __LINE__)
#define CHECK_U64(a, b) check_u64((uint64_t)(a), (uint64_t)(b), #a, #b, __FILE__, __LINE__)
#define CHECK_NEAR(a, b, tol) check_near((double)(a), (double)(b), (tol), #a, #b, __FILE__, __LINE__)
#define CHECK_STR_CONTAINS(s, part) check_contains((s), (part), __FILE__, __LINE__)
#define CHECK_STR_EQ(s, expected) check_str_eq((s), (expected), __FILE__, __LINE__)

static inline void check_true(int ok, const char *what, const char *file, int line)
{
	check_count++;
	if (!ok) {
		check_failures++;
		printf("FAIL %s:%d: %s\n", file, line, what);
	}
}

static inline void check_u64(uint64_t a, uint64_t b, const char *ea,
			     const char *eb, const char *file, int line)
{
	check_count++;
	if (a != b) {
		check_failures++;
		printf("FAIL %s:%d: %s == %s (%" PRIu64 " != %" PRIu64 ")\n",
		       file, line, ea, eb, a, b);
	}
}

static inline void check_near(double a, double b, double tol, const char *ea,
			      const char *eb, const char *file, int line)
{
	check_count++;
	if (!(fabs(a - b) <= tol)) {
		check_failures++;
		printf("FAIL %s:%d: %s ~= %s (%.9g vs %.9g, tolerance %g)\n",
		       file, line, ea, eb, a, b, tol);
	}
}

static inline void check_contains(const char *s, const char *part,
				  const char *file, int line)
{
	check_count++;
	if (!strstr(s, part)) {
		check_failures++;
		printf("FAIL %s:%d: \"%s\" does not contain \"%s\"\n", file,
		       line, s, part);
	}
}

/* Equal strings; on a difference, both from the first differing line. */
static inline void check_str_eq(const char *s, const char *expected,
				const char *file, int line)
{
	size_t at = 0, bol = 0;

	check_count++;
	if (s && strcmp(s, expected) == 0)
		return;
	check_failures++;
	if (!s) {
		printf("FAIL %s:%d: NULL instead of \"%s\"\n", file, line, expected);
		return;
	}
	while (s[at] && s[at] == expected[at])
		if (s[at++] == '\n')
			bol = at;
	printf("FAIL %s:%d: strings differ at offset %zu\n--- got:\n%s\n--- expected:\n%s\n",
	       file, line, at, s + bol, expected + bol);
}

static inline int check_report(const char *suite)
{
	printf("%s: %d checks, %d failed\n", suite, check_count, check_failures);
	return check_failures ? 1 : 0;
}

#endif
