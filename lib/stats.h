/*
 * stats: what repeated runs say about one figure: mean, sample standard
 * deviation, min, max and the 95% confidence interval of the mean
 * (Student's t with n-1 degrees of freedom).
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

/* The two-sided 95% critical value of Student's t for df >= 1. */
double stats_t975(unsigned df);

#endif
