/* noise.h -- the statistics of --compare's noise model (noise.c): G
 * tests, with one degree of freedom, of sample counts taken as Poisson,
 * and the chance that runs' call counts part by chance.
 * Owns no state; compare_stats.c decides what to test against what. */
#ifndef GMON2CG_NOISE_H
#define GMON2CG_NOISE_H

/* The p-value of a G statistic with one degree of freedom. */
double noise_p_of_g(double g);

/* The least X in [LO, HI], to a part in 10^9, at which P(X, CTX), which
 * falls as X grows, is below LEVEL (HI where none is): the one bisection
 * of the noise model's inverses. */
double noise_bisect(double lo, double hi, double (*p)(double x, const void *ctx),
		    const void *ctx, double level);

/* The G statistic whose p-value is P. */
double noise_g_of_p(double p);

/* X_OLD and X_NEW samples in K_OLD and K_NEW runs at one rate per run. */
double noise_g_same_rate(double x_old, double x_new, double k_old, double k_new);
double noise_p_same_rate(double x_old, double x_new, double k_old, double k_new);

/* The same, against the nearer edge of a change by a factor of
 * 1 + ALLOWANCE either way; 0 within it. */
double noise_g_beyond_allowance(double x_old, double x_new, double k_old,
				double k_new, double allowance);

/* A function's X_OLD, X_NEW samples against a reference's R_OLD, R_NEW:
 * the G test of the 2 x 2 table. */
double noise_g_same_share(double x_old, double r_old, double x_new, double r_new);
double noise_p_same_share(double x_old, double r_old, double x_new, double r_new);

/* The chance that the ranges of K_OLD and K_NEW runs' counts part when
 * nothing changed: 2 / C(K_OLD + K_NEW, K_OLD). */
double noise_p_ranges_apart(double k_old, double k_new);

#endif
