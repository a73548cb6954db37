/* check.h -- a minimal assertion kit for the unit tests.  Each check is a
 * line of TAP on stdout ("ok N - FILE:LINE: EXPRESSION", or "not ok" with
 * the values as "# " lines below it), and check_report() prints the plan
 * at the end; automake's tap-driver.sh turns the lines into results.  The
 * exit status is 0 whenever the program reaches its report, so a non-zero
 * one means it broke off (or valgrind found an error). */
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
#define CHECK_STR_CONTAINS(s, part) check_contains((s), (part), #s, __FILE__, __LINE__)
#define CHECK_STR_EQ(s, expected) check_str_eq((s), (expected), #s, __FILE__, __LINE__)

/* Writes TEXT as part of a TAP description: one line, and no '#', which
 * would start a directive. */
static inline void check_tap_text(const char *text)
{
	for (; *text; text++)
		putchar(*text == '\n' ? ' ' : *text == '#' ? '_' : *text);
}

/* Prints one check's TAP line, "WHAT", or "WHAT RELATION OTHER", and
 * counts it; returns whether it passed, so that the caller can print the
 * values of a failure. */
static inline int check_line(int ok, const char *file, int line, const char *what,
			     const char *relation, const char *other)
{
	check_count++;
	if (!ok)
		check_failures++;
	printf("%sok %d - %s:%d: ", ok ? "" : "not ", check_count, file, line);
	check_tap_text(what);
	if (relation) {
		printf(" %s ", relation);
		check_tap_text(other);
	}
	putchar('\n');
	return ok;
}

static inline void check_true(int ok, const char *what, const char *file, int line)
{
	check_line(ok, file, line, what, NULL, NULL);
}

static inline void check_u64(uint64_t a, uint64_t b, const char *ea,
			     const char *eb, const char *file, int line)
{
	if (!check_line(a == b, file, line, ea, "==", eb))
		printf("# %" PRIu64 " != %" PRIu64 "\n", a, b);
}

static inline void check_near(double a, double b, double tol, const char *ea,
			      const char *eb, const char *file, int line)
{
	if (!check_line(fabs(a - b) <= tol, file, line, ea, "~=", eb))
		printf("# %.9g vs %.9g, tolerance %g\n", a, b, tol);
}

static inline void check_contains(const char *s, const char *part, const char *what,
				  const char *file, int line)
{
	if (!check_line(strstr(s, part) != NULL, file, line, what, "contains", part))
		printf("# \"%s\" does not contain \"%s\"\n", s, part);
}

/* TEXT as TAP comment lines. */
static inline void check_comment(const char *text)
{
	printf("# ");
	for (; *text; text++) {
		putchar(*text);
		if (*text == '\n' && text[1])
			printf("# ");
	}
	putchar('\n');
}

/* Equal strings; on a difference, both from the first differing line. */
static inline void check_str_eq(const char *s, const char *expected,
				const char *what, const char *file, int line)
{
	size_t at = 0, bol = 0;

	if (check_line(s && strcmp(s, expected) == 0, file, line, what,
		       "equals", "the expected text") || !s)
		return;
	while (s[at] && s[at] == expected[at])
		if (s[at++] == '\n')
			bol = at;
	printf("# differs at offset %zu; got, from that line:\n", at);
	check_comment(s + bol);
	printf("# expected:\n");
	check_comment(expected + bol);
}

static inline int check_report(const char *suite)
{
	printf("1..%d\n", check_count);
	if (check_failures)
		printf("# %s: %d of %d checks failed\n", suite, check_failures, check_count);
	return 0;
}

#endif
