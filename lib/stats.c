/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats: see stats.h. Student's t quantiles and tails come from GSL's
 * cumulative distribution functions. GSL reports a failure through an
 * error handler that by default prints and aborts; lib/ never does
 * either, so the handler is switched off once, before the first call,
 * and every argument is checked here first: a bad one gets the answer
 * stats.h promises without reaching GSL.
 */
#include "config.h"

#include <math.h>
#include <pthread.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "stats.h"

static pthread_once_t gsl_quiet_once = PTHREAD_ONCE_INIT;

static void gsl_quiet_set(void)
{
	gsl_set_error_handler_off();
}

/* Before any GSL call: failures come back as NaN, never as an abort. */
static void gsl_quiet(void)
{
	pthread_once(&gsl_quiet_once, gsl_quiet_set);
}

double stats_t975(unsigned df)
{
	if (df == 0)
		return INFINITY;
	gsl_quiet();
	return gsl_cdf_tdist_Pinv(0.975, df);
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

double stats_t_p2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0.0;
	if (t == 0.0)
		return 1.0;
	gsl_quiet();
	/*
	 * Past 1e30 degrees of freedom t is normal to the last bit (the
	 * tails differ by about t^4 / (4 df) of their size), and GSL's
	 * expansion for large df overflows to NaN from about 1e40 on:
	 * the normal tail.
	 */
	if (df > 1e30)
		return 2.0 * gsl_cdf_ugaussian_Q(fabs(t));
	/* The upper tail of |t|, not 1 - P: tiny p-values keep their
	 * digits. */
	return 2.0 * gsl_cdf_tdist_Q(fabs(t), df);
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
