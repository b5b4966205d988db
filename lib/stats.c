/*
 * stats: see stats.h. Critical values: a table to 30 degrees of freedom,
 * then the Cornish-Fisher expansion around the normal quantile, which is
 * within 1e-4 of the exact value from there on.
 */
#include "config.h"

#include <math.h>

#include "stats.h"

static const double t975[31] = {
	0.0,      12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912,
	2.364624, 2.306004,  2.262157, 2.228139, 2.200985, 2.178813, 2.160369,
	2.144787, 2.131450,  2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
	2.079614, 2.073873,  2.068658, 2.063899, 2.059539, 2.055529, 2.051831,
	2.048407, 2.045230,  2.042272,
};

double stats_t975(unsigned df)
{
	const double z = 1.959963985;
	double v = df, z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;

	if (df == 0)
		return INFINITY;
	if (df <= 30)
		return t975[df];
	return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v) +
	       (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v);
}

void stats_compute(const double *x, unsigned n, struct stats *s)
{
	double sum = 0.0, ss = 0.0, half;

	s->n = n;
	s->min = s->max = x[0];
	for (unsigned i = 0; i < n; i++) {
		sum += x[i];
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
	}
	s->mean = sum / n;
	for (unsigned i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (n - 1)) : 0.0;
	half = n > 1 ? stats_t975(n - 1) * s->sd / sqrt((double)n) : 0.0;
	s->ci_low = s->mean - half;
	s->ci_high = s->mean + half;
}
