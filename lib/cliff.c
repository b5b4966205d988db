/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cliff: see cliff.h.
 *
 * The method is a two-segment least-squares fit: for each place the
 * drop could be, the rates before it are fitted by their mean and those
 * after it by theirs, and the place with the least squared residuals in
 * all wins (one pass over prefix sums). It was chosen over CUSUM
 * because what the user asks for is exactly what the fit gives: the two
 * levels (burst and sustained rates) and where one ends, with the
 * spread about each level to judge the drop against. CUSUM finds where
 * a mean shifted, but its threshold is set in units of a noise it must
 * be told, and the levels would still need fitting afterwards. A cache
 * fills once in a test, so one change point is looked for, not many.
 *
 * The fit is of the rates' logarithms. A rate's noise is a share of the
 * rate (a burst of 800 MB/s wanders by tens of MB/s, a sustained 20 MB/s
 * by one or two), so in plain rates the burst's noise would outweigh
 * the sustained side's, and an interval half-way down could be taken
 * for the sustained level's noise. In logs both sides' noise weighs
 * alike. The levels reported are the plain rates' means on each side.
 *
 * The interval in which the rate fell holds both levels: it is left
 * out of both means, and the time of the drop inside it is where its
 * bytes say the burst rate ended (bytes = burst * t + sustained *
 * (secs - t)), so the absorbed bytes are not tied to the grid of the
 * intervals.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cliff.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The intervals that give a rate: start, length, rate and the bytes
 * written before each (by every interval before it, short ones too). */
struct pts {
	double *t0, *secs, *r, *before, *bytes;
	double *y; /* log of r (floored), what the fit is made on */
	unsigned m;
};

static void pts_free(struct pts *p)
{
	free(p->t0);
	free(p->secs);
	free(p->r);
	free(p->before);
	free(p->bytes);
	free(p->y);
}

static int pts_make(const struct result_interval *v, unsigned n, struct pts *p)
{
	double *len = malloc((n ? n : 1) * sizeof(*len)), typical, sum = 0,
	       top = 0;
	unsigned i;

	memset(p, 0, sizeof(*p));
	p->t0 = malloc((n ? n : 1) * sizeof(double));
	p->secs = malloc((n ? n : 1) * sizeof(double));
	p->r = malloc((n ? n : 1) * sizeof(double));
	p->before = malloc((n ? n : 1) * sizeof(double));
	p->bytes = malloc((n ? n : 1) * sizeof(double));
	p->y = malloc((n ? n : 1) * sizeof(double));
	if (!len || !p->t0 || !p->secs || !p->r || !p->before || !p->bytes ||
	    !p->y) {
		free(len);
		pts_free(p);
		return -1;
	}
	for (i = 0; i < n; i++)
		len[i] = v[i].secs;
	qsort(len, n, sizeof(*len), cmp_double);
	typical = n ? len[n / 2] : 0;
	free(len);
	for (i = 0; i < n; i++) {
		const struct result_interval *iv = &v[i];

		if (iv->secs > 0 && iv->secs >= CLIFF_SHORT * typical) {
			p->t0[p->m] = iv->end - iv->secs;
			p->secs[p->m] = iv->secs;
			p->bytes[p->m] = (double)iv->bytes;
			p->r[p->m] = (double)iv->bytes / iv->secs;
			p->before[p->m] = sum;
			p->m++;
		}
		sum += (double)iv->bytes;
	}
	/* An interval of (almost) nothing would be minus infinity: floor
	 * the rates at a thousandth of the largest. */
	for (i = 0; i < p->m; i++)
		top = fmax(top, p->r[i]);
	for (i = 0; i < p->m; i++)
		p->y[i] = log(fmax(p->r[i], top * 1e-3 + 1e-9));
	return 0;
}

/* The squared residuals of a least-squares line through (t, r). */
static double line_sse(const double *t, const double *r, unsigned m)
{
	double st = 0, sr = 0, stt = 0, str = 0, b, a, sse = 0;

	for (unsigned i = 0; i < m; i++) {
		st += t[i];
		sr += r[i];
		stt += t[i] * t[i];
		str += t[i] * r[i];
	}
	b = m * stt - st * st;
	b = b > 0 ? (m * str - st * sr) / b : 0;
	a = (sr - b * st) / m;
	for (unsigned i = 0; i < m; i++) {
		double e = r[i] - (a + b * t[i]);

		sse += e * e;
	}
	return sse;
}

/* Squared residuals about the mean of r[lo, hi) from prefix sums. */
static double seg_sse(const double *s1, const double *s2, unsigned lo,
		      unsigned hi)
{
	double n = hi - lo, s = s1[hi] - s1[lo],
	       v = s2[hi] - s2[lo] - s * s / n;

	return v > 0 ? v : 0;
}

/* The best place for the drop: the interval left out of both levels. */
static unsigned best_split(const struct pts *p, const double *s1,
			   const double *s2, double *sse)
{
	unsigned best = CLIFF_SIDE_MIN;

	*sse = INFINITY;
	for (unsigned k = CLIFF_SIDE_MIN; k + CLIFF_SIDE_MIN < p->m; k++) {
		double e = seg_sse(s1, s2, 0, k) + seg_sse(s1, s2, k + 1, p->m);

		if (e < *sse) {
			*sse = e;
			best = k;
		}
	}
	return best;
}

/* Where in interval k the rate fell from a to b: the drop's time and
 * the bytes before it. */
static void place_drop(const struct pts *p, unsigned k, struct cliff *c)
{
	double a = c->burst, b = c->sustained, secs = p->secs[k];
	double t = (p->bytes[k] - b * secs) / (a - b);

	if (t < 0)
		t = 0;
	if (t > secs)
		t = secs;
	c->drop_s = p->t0[k] + t;
	/* The interval's bytes less those after the drop: the sustained
	 * level is the steadier of the two. */
	c->absorbed = p->before[k] + fmax(p->bytes[k] - b * (secs - t), 0);
}

/* The fit at split k in logs: each level's mean log and the spread of
 * the logs about it, and both sides' spread together. */
struct logfit {
	double la, lb, sda, sdb, pooled;
};

static int judge(const struct pts *p, unsigned k, const double *mid,
		 const struct logfit *lf, struct cliff *c)
{
	const double mb = 1e6;
	double yk = p->y[k];
	/* Either side's spread, or both sides' together: a side of a few
	 * intervals can show little spread by chance. */
	double noise = fmax(fmax(lf->sda, lf->sdb), lf->pooled);

	c->sse_levels +=
	    fmin((yk - lf->la) * (yk - lf->la), (yk - lf->lb) * (yk - lf->lb));
	c->sse_line = line_sse(mid, p->y, p->m);
	if (c->sustained >= CLIFF_RATIO * c->burst) {
		snprintf(c->why, sizeof(c->why),
			 "no drop: the rate after its largest change is "
			 "%.0f%% of the rate before",
			 c->burst > 0 ? 100.0 * c->sustained / c->burst
				      : 100.0);
		return 0;
	}
	if (lf->la - lf->lb < CLIFF_NOISE * noise) {
		snprintf(c->why, sizeof(c->why),
			 "the fall from %.1f to %.1f MB/s is within the "
			 "rates' noise (sd %.1f and %.1f MB/s)",
			 c->burst / mb, c->sustained / mb, c->burst_sd / mb,
			 c->sustained_sd / mb);
		return 0;
	}
	if (c->sse_levels >= c->sse_line) {
		snprintf(c->why, sizeof(c->why),
			 "the rate slides from %.1f to %.1f MB/s rather "
			 "than drops: a straight line fits it as well",
			 c->burst / mb, c->sustained / mb);
		return 0;
	}
	return 1;
}

/* The mean and sample standard deviation of x[lo, hi). */
static void mean_sd(const double *x, unsigned lo, unsigned hi, double *mean,
		    double *sd)
{
	double s = 0, ss = 0;

	for (unsigned i = lo; i < hi; i++)
		s += x[i];
	*mean = s / (hi - lo);
	for (unsigned i = lo; i < hi; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*sd = hi - lo > 1 ? sqrt(ss / (hi - lo - 1)) : 0;
}

int cliff_find(const struct result_interval *v, unsigned n, struct cliff *c)
{
	struct pts p;
	struct logfit lf;
	double *s1 = NULL, *s2 = NULL, *mid = NULL, sse;
	unsigned k;

	memset(c, 0, sizeof(*c));
	if (pts_make(v, n, &p) != 0) {
		snprintf(c->why, sizeof(c->why), "out of memory");
		return 0;
	}
	c->intervals = p.m;
	if (p.m < 2 * CLIFF_SIDE_MIN + 1) {
		snprintf(c->why, sizeof(c->why),
			 "%u intervals of the test are too few to tell a "
			 "drop from noise (%u are needed)",
			 p.m, 2 * CLIFF_SIDE_MIN + 1);
		goto out;
	}
	s1 = calloc(p.m + 1, sizeof(*s1));
	s2 = calloc(p.m + 1, sizeof(*s2));
	mid = malloc(p.m * sizeof(*mid));
	if (!s1 || !s2 || !mid) {
		snprintf(c->why, sizeof(c->why), "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < p.m; i++) {
		s1[i + 1] = s1[i] + p.y[i];
		s2[i + 1] = s2[i] + p.y[i] * p.y[i];
		mid[i] = p.t0[i] + p.secs[i] / 2;
	}
	k = best_split(&p, s1, s2, &sse);
	c->n_burst = k;
	c->n_sustained = p.m - k - 1;
	c->sse_levels = sse;
	mean_sd(p.y, 0, k, &lf.la, &lf.sda);
	mean_sd(p.y, k + 1, p.m, &lf.lb, &lf.sdb);
	lf.pooled = sqrt(sse / (p.m - 3));
	mean_sd(p.r, 0, k, &c->burst, &c->burst_sd);
	mean_sd(p.r, k + 1, p.m, &c->sustained, &c->sustained_sd);
	if (judge(&p, k, mid, &lf, c)) {
		c->found = 1;
		place_drop(&p, k, c);
	}
out:
	free(s1);
	free(s2);
	free(mid);
	pts_free(&p);
	return c->found;
}
