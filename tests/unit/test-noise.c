/* test-noise.c -- the noise model's G tests and p-values on fixed tables,
 * against figures worked out apart from the code (G = 2 sum O ln(O/E)
 * with E from the margins; a chi-square of one degree of freedom), so
 * that a statistic off by a factor (the 2 of G dropped) or an expected
 * count from the wrong margin fails. */
#include <config.h>

#include "noise.h"
#include "check.h"

/* (relative: p-values span many decades) */
#define CHECK_REL(a, b) CHECK_NEAR((a) / (b), 1.0, 1e-9)

/* The chi-square distribution's critical values, one degree of freedom. */
static void test_p_of_g(void)
{
	CHECK_REL(noise_p_of_g(3.841458820694124), 0.05);
	CHECK_REL(noise_p_of_g(6.634896601021214), 0.01);
	CHECK_REL(noise_p_of_g(10.827566170662733), 0.001);
	CHECK_NEAR(noise_p_of_g(0), 1.0, 0);
	CHECK_REL(noise_g_of_p(0.01), 6.634896601021214);
	CHECK_REL(noise_g_of_p(0.001), 10.827566170662733);
}

/* A function's samples against the reference's, old and new: the 2 x 2
 * tables (function, reference) x (old, new). */
static void test_same_share(void)
{
	CHECK_REL(noise_g_same_share(120, 1000, 160, 1010), 4.691844116434403);
	CHECK_REL(noise_p_same_share(120, 1000, 160, 1010), 0.030306105072098428);
	CHECK_REL(noise_g_same_share(40, 9000, 62, 9100), 4.517361535573425);
	CHECK_REL(noise_p_same_share(40, 9000, 62, 9100), 0.033552536863406736);
	/* the same share on both sides: no evidence */
	CHECK_NEAR(noise_g_same_share(50, 500, 100, 1000), 0, 1e-9);
	CHECK_NEAR(noise_p_same_share(50, 500, 100, 1000), 1, 1e-6);
}

/* Counts of K_OLD and K_NEW runs at one rate per run. */
static void test_same_rate(void)
{
	CHECK_REL(noise_g_same_rate(100, 150, 2, 2), 10.067756775344435);
	CHECK_REL(noise_p_same_rate(100, 150, 2, 2), 0.0015088662814768273);
	/* three runs against one: the expected split is 3 : 1 */
	CHECK_REL(noise_g_same_rate(300, 130, 3, 1), 6.018939803069188);
	CHECK_REL(noise_p_same_rate(300, 130, 3, 1), 0.01415314647311661);
}

/* Beyond a machine allowance of 20 %: tested against the nearer edge. */
static void test_beyond_allowance(void)
{
	CHECK_REL(noise_g_beyond_allowance(1000, 1400, 1, 1, 0.2), 13.967293966100499);
	CHECK_REL(noise_g_beyond_allowance(1000, 700, 1, 1, 0.2), 12.630936525004557);
	CHECK_NEAR(noise_g_beyond_allowance(1000, 1100, 1, 1, 0.2), 0, 0);
	CHECK_NEAR(noise_g_beyond_allowance(1000, 900, 1, 1, 0.2), 0, 0);
}

/* Runs' ranges of calls that part by chance: 2 of the C(n, k) ways to
 * deal n exchangeable runs out to the sides. */
static void test_ranges_apart(void)
{
	CHECK_REL(noise_p_ranges_apart(10, 10), 2.0 / 184756);
	CHECK_REL(noise_p_ranges_apart(5, 5), 2.0 / 252);
	CHECK_REL(noise_p_ranges_apart(4, 4), 2.0 / 70);
	CHECK_REL(noise_p_ranges_apart(3, 7), 2.0 / 120);
	/* two runs against one: ranges part in 2 of 3 deals */
	CHECK_REL(noise_p_ranges_apart(2, 1), 2.0 / 3);
	/* one run a side: always apart, no evidence of a change */
	CHECK_NEAR(noise_p_ranges_apart(1, 1), 1, 0);
}

int main(void)
{
	test_p_of_g();
	test_same_share();
	test_same_rate();
	test_beyond_allowance();
	test_ranges_apart();
	return check_report("test-noise");
}
