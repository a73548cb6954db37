/* noise.c -- the statistics of --compare's noise model: G tests of
 * Poisson sample counts (doc/internals.md section 9). */
#include <config.h>

#include <math.h>
#include <stddef.h>

#include "noise.h"

/* X ln(X / E), 0 for X = 0. */
static double xlogx(double x, double e)
{
	return x > 0 && e > 0 ? x * log(x / e) : 0;
}

/* The p-value of a G statistic with one degree of freedom. */
double noise_p_of_g(double g)
{
	return g > 0 ? erfc(sqrt(g / 2)) : 1;
}

double noise_bisect(double lo, double hi, double (*p)(double x, const void *ctx),
		    const void *ctx, double level)
{
	while (hi - lo > 1e-9 * hi) {
		double mid = (lo + hi) / 2;

		*(p(mid, ctx) < level ? &hi : &lo) = mid;
	}
	return hi;
}

static double p_of_g(double g, const void *unused)
{
	(void)unused;
	return noise_p_of_g(g);
}

/* The G statistic whose p-value is P (erfc has no inverse in C). */
double noise_g_of_p(double p)
{
	return noise_bisect(0, 1e4, p_of_g, NULL, p);
}

/* Poisson counts X_OLD, X_NEW of K_OLD and K_NEW runs at one rate per
 * run: given their sum N, X_NEW is binomial (N, K_NEW / (K_OLD + K_NEW)).
 * The likelihood-ratio statistic G (noise_p_same_rate: its p-value). */
double noise_g_same_rate(double x_old, double x_new, double k_old, double k_new)
{
	double n = x_old + x_new, p0 = k_new / (k_old + k_new);

	return 2 * (xlogx(x_new, n * p0) + xlogx(x_old, n * (1 - p0)));
}

double noise_p_same_rate(double x_old, double x_new, double k_old, double k_new)
{
	return noise_p_of_g(noise_g_same_rate(x_old, x_new, k_old, k_new));
}

/* X_OLD and X_NEW samples in K_OLD and K_NEW runs: did the rate per run
 * change by more than the machine's speed can, a factor 1 + ALLOWANCE
 * either way?  The G statistic against the nearer edge of that range; 0
 * within it. */
double noise_g_beyond_allowance(double x_old, double x_new, double k_old,
				 double k_new, double allowance)
{
	double ratio = (x_new / k_new) / (x_old / k_old);
	double edge = ratio > 1 + allowance ? 1 + allowance :
		      ratio < 1 / (1 + allowance) ? 1 / (1 + allowance) : 0;

	if (!(x_old > 0) || edge == 0)
		return 0;
	return noise_g_same_rate(x_old, x_new, k_old, k_new * edge);
}

/* X_OLD and X_NEW samples of a function, against R_OLD and R_NEW of a
 * reference: did the function move as the reference did?  The G test of
 * the 2 x 2 table (function, reference) x (old, new), which given the
 * sums is the conditional binomial of the function's share. */
double noise_g_same_share(double x_old, double r_old, double x_new, double r_new)
{
	double n = x_old + r_old + x_new + r_new;
	double x = x_old + x_new, r = r_old + r_new;
	double old = x_old + r_old, new = x_new + r_new;

	if (n <= 0 || x <= 0 || r <= 0)
		return 0;
	return 2 * (xlogx(x_old, x * old / n) + xlogx(r_old, r * old / n) +
		    xlogx(x_new, x * new / n) + xlogx(r_new, r * new / n));
}

double noise_p_same_share(double x_old, double r_old, double x_new, double r_new)
{
	return noise_p_of_g(noise_g_same_share(x_old, r_old, x_new, r_new));
}

/* Runs of two sides, K_OLD and K_NEW of them, whose counts per run vary:
 * under no change the runs are exchangeable, every order of them as
 * likely, and the two sides' ranges part (every run of one side below
 * every run of the other) in 2 of the C(K_OLD + K_NEW, K_OLD) ways to
 * deal them out (in fewer with ties).  That chance: the p-value of
 * ranges that part, the least a rank test of the runs can give. */
double noise_p_ranges_apart(double k_old, double k_new)
{
	double log_ways = lgamma(k_old + k_new + 1) - lgamma(k_old + 1) - lgamma(k_new + 1);
	double p = 2 * exp(-log_ways);

	return p < 1 ? p : 1;
}
