/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats: what repeated runs say about one figure: mean, sample standard
 * deviation, min, max and the 95% confidence interval of the mean
 * (Student's t with n-1 degrees of freedom), and Welch's test of two
 * means. The t quantiles and tails are GSL's.
 */
#ifndef CLYDE_STATS_H
#define CLYDE_STATS_H

struct stats {
	unsigned n;
	double mean, sd, min, max;
	double ci_low, ci_high; /* = mean when n < 2 */
};

/* Summarise x[n] (n >= 1). */
void stats_compute(const double *x, unsigned n, struct stats *s);

/* The two-sided 95% critical value of Student's t for df >= 1 (df 0:
 * infinity). */
double stats_t975(unsigned df);

/* Welch's t-test of two means with unequal variances. */
struct stats_welch {
	double t;  /* (mean b - mean a) / standard error of the difference */
	double df; /* Welch-Satterthwaite degrees of freedom */
	double p;  /* two-sided p-value */
};

/*
 * Compare the means of a and b (each n >= 2). When both standard
 * deviations are 0, t is +-infinity and p 0 if the means differ, and
 * t 0 and p 1 if they do not. Returns -1 when a side has n < 2.
 */
int stats_welch(const struct stats *a, const struct stats *b,
		struct stats_welch *w);

/*
 * Two-sided p-value of Student's t with df > 0 degrees of freedom: 0
 * for an infinite t, NaN for a NaN t or a df that is NaN or not above
 * 0; an infinite df is the normal distribution.
 */
double stats_t_p2(double t, double df);

#endif
