/* SPDX-License-Identifier: GPL-2.0-or-later */
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
    2.364624, 2.306004,	 2.262157, 2.228139, 2.200985, 2.178813, 2.160369,
    2.144787, 2.131450,	 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
    2.079614, 2.073873,	 2.068658, 2.063899, 2.059539, 2.055529, 2.051831,
    2.048407, 2.045230,	 2.042272,
};

double stats_t975(unsigned df)
{
	const double z = 1.959963985;
	double v = df, z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;

	if (df == 0)
		return INFINITY;
	if (df <= 30)
		return t975[df];
	return z + (z3 + z) / (4 * v) +
	       (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v) +
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

/*
 * The regularised incomplete beta function I_x(a, b) by its continued
 * fraction, evaluated with the modified Lentz method; the fraction
 * converges fast for x < (a + 1) / (a + b + 2), and the symmetry
 * I_x(a, b) = 1 - I_{1-x}(b, a) covers the rest.
 */
static double beta_cf(double x, double a, double b)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), f;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	f = d;
	for (int m = 1; m <= 1000; m++) {
		double num, delta;

		/* Even step. */
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
		if (fabs(c) < tiny)
			c = tiny;
		f *= d * c;
		/* Odd step. */
		num = -(a + m) * (a + b + m) * x /
		      ((a + 2 * m) * (a + 2 * m + 1));
		d = 1.0 + num * d;
		c = 1.0 + num / c;
		d = fabs(d) < tiny ? 1.0 / tiny : 1.0 / d;
		if (fabs(c) < tiny)
			c = tiny;
		delta = d * c;
		f *= delta;
		if (fabs(delta - 1.0) < eps)
			break;
	}
	return f;
}

static double inc_beta(double x, double a, double b)
{
	double front;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(x, a, b) / a;
	return 1.0 - front * beta_cf(1.0 - x, b, a) / b;
}

double stats_t_p2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0.0;
	/* P(|T| > t) = I_{df/(df+t^2)}(df/2, 1/2). */
	return inc_beta(df / (df + t * t), df / 2.0, 0.5);
}

int stats_welch(const struct stats *a, const struct stats *b,
		struct stats_welch *w)
{
	double va, vb, se2, diff;

	if (a->n < 2 || b->n < 2)
		return -1;
	va = a->sd * a->sd / a->n;
	vb = b->sd * b->sd / b->n;
	se2 = va + vb;
	diff = b->mean - a->mean;
	if (se2 == 0.0) {
		w->t = diff == 0.0 ? 0.0 : diff > 0 ? INFINITY : -INFINITY;
		w->df = a->n + b->n - 2.0;
		w->p = diff == 0.0 ? 1.0 : 0.0;
		return 0;
	}
	w->t = diff / sqrt(se2);
	w->df = se2 * se2 / (va * va / (a->n - 1.0) + vb * vb / (b->n - 1.0));
	w->p = stats_t_p2(w->t, w->df);
	return 0;
}
