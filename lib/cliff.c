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
 * rate (a burst of 800 MiB/s wanders by tens of MiB/s, a sustained 20 MiB/s
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
#include "result.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Spikes out of the logs (a Hampel filter): a log more than CLIFF_SPIKE
 * times the scaled median absolute deviation of its window (CLIFF_HALF
 * intervals each side) from the window's median is taken as that
 * median. An interval in which the machine stalled (busy elsewhere for
 * a few of its milliseconds) has a log far below its neighbours', and a
 * few such would swamp the spread of a short burst and hide a cliff that
 * is plainly there; a step is not a spike (the window's median follows
 * it), so the drop and the interval that holds it stay as they were.
 * The reported levels are the plain rates', stalls and all.
 */
#define CLIFF_HALF  3u
#define CLIFF_SPIKE 3.0
#define CLIFF_WIN   (2 * CLIFF_HALF + 1)
/* The spread taken at least, in the logs (a tenth of a percent of the
 * rate): where most of a window's rates are the same to the byte (a
 * throttle's), the one apart from them is still a spike. */
#define CLIFF_MAD_MIN 1e-3

/* The median of x[0, n), n <= CLIFF_WIN. */
static double median_win(const double *x, unsigned n)
{
	double d[CLIFF_WIN];

	memcpy(d, x, n * sizeof(*d));
	qsort(d, n, sizeof(*d), cmp_double);
	return n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
}

static int despike(double *y, unsigned m)
{
	double *out = malloc((m ? m : 1) * sizeof(*out)), d[CLIFF_WIN];

	if (!out)
		return -1;
	for (unsigned i = 0; i < m; i++) {
		unsigned lo = i >= CLIFF_HALF ? i - CLIFF_HALF : 0,
			 hi = i + CLIFF_HALF + 1 < m ? i + CLIFF_HALF + 1 : m;
		double med = median_win(y + lo, hi - lo), mad;

		for (unsigned j = lo; j < hi; j++)
			d[j - lo] = fabs(y[j] - med);
		mad = fmax(1.4826 * median_win(d, hi - lo), CLIFF_MAD_MIN);
		out[i] = fabs(y[i] - med) > CLIFF_SPIKE * mad ? med : y[i];
	}
	memcpy(y, out, m * sizeof(*y));
	free(out);
	return 0;
}

/* The intervals that give a rate: start, length, rate and the bytes
 * written before each (by every interval before it, short ones too). */
struct pts {
	double *t0, *secs, *r, *before, *bytes;
	double *y; /* log of r (floored, despiked): what the fit is made on */
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

		/* Only the last can be cut short, by the test's end. */
		if (iv->secs > 0 &&
		    (i + 1 < n || iv->secs >= CLIFF_SHORT * typical)) {
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
	if (despike(p->y, p->m) != 0) {
		pts_free(p);
		return -1;
	}
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

/*
 * The two sides of the drop at the scale of their groups: g intervals
 * a group, g the largest power of two that leaves each side
 * CLIFF_GROUPS groups (merged from the drop outwards; what is left at
 * the far ends is not judged), each group's rate its bytes over its
 * seconds. What noise means depends on how long an interval is: at 10 ms
 * a busy machine's scheduler alone moves a rate by half, over a tenth of
 * a second it does not, while the levels stay where they are. So the
 * sides are compared at as long a scale as they allow.
 */
#define CLIFF_GROUPS 8u

struct sides {
	double *a, *b; /* the groups' rates before and after the drop */
	unsigned na, nb, g;
};

/* The mean and sample standard deviation of x[lo, hi). */
static void mean_sd(const double *x, unsigned lo, unsigned hi, double *mean,
		    double *sd)
{
	double sum = 0, ss = 0;

	for (unsigned i = lo; i < hi; i++)
		sum += x[i];
	*mean = sum / (hi - lo);
	for (unsigned i = lo; i < hi; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*sd = hi - lo > 1 ? sqrt(ss / (hi - lo - 1)) : 0;
}

/* The rate of intervals [lo, hi) as one: their bytes over their seconds
 * (what the storage did over that time, each interval weighing by its
 * length). */
static double span_rate(const struct pts *p, unsigned lo, unsigned hi)
{
	double b = 0, t = 0;

	for (unsigned j = lo; j < hi; j++) {
		b += p->bytes[j];
		t += p->secs[j];
	}
	return t > 0 ? b / t : 0;
}

static int sides_make(const struct pts *p, unsigned k, struct sides *s)
{
	unsigned na = k, nb = p->m - k - 1, g = 1;

	while (na / (2 * g) >= CLIFF_GROUPS && nb / (2 * g) >= CLIFF_GROUPS)
		g *= 2;
	s->g = g;
	s->na = na / g;
	s->nb = nb / g;
	s->a = calloc(s->na, sizeof(*s->a));
	s->b = calloc(s->nb, sizeof(*s->b));
	if (!s->a || !s->b)
		return -1;
	for (unsigned j = 0; j < s->na; j++)
		s->a[j] = span_rate(p, k - (j + 1) * g, k - j * g);
	for (unsigned j = 0; j < s->nb; j++)
		s->b[j] = span_rate(p, k + 1 + j * g, k + 1 + (j + 1) * g);
	return 0;
}

/*
 * The share of pairs, one group before the drop and one after, in which
 * the one before is the faster (ties count half): 1 when every rate
 * before is above every rate after, about 1/2 where the two sides are
 * alike. This is what "differ by more than the noise of either side"
 * comes to without assuming how the noise is spread: it holds for a
 * burst as ragged as a busy machine makes it, and fails for a split of
 * plain noise, whose sides overlap.
 */
static double separation(struct sides *s)
{
	double above = 0;
	unsigned j = 0;

	qsort(s->a, s->na, sizeof(*s->a), cmp_double);
	qsort(s->b, s->nb, sizeof(*s->b), cmp_double);
	/* For each rate before, the rates after below it (and half of
	 * those equal), walking both in order. */
	for (unsigned i = 0; i < s->na; i++) {
		unsigned eq;

		while (j < s->nb && s->b[j] < s->a[i])
			j++;
		for (eq = j; eq < s->nb && s->b[eq] == s->a[i]; eq++)
			;
		above += j + (eq - j) / 2.0;
	}
	return above / ((double)s->na * s->nb);
}

static int judge(const struct pts *p, unsigned k, const double *mid,
		 double typical_ratio, struct cliff *c)
{
	const double mb = 1048576;
	struct sides sd = {0};
	double sep;
	int ok = 0;

	c->sse_line = line_sse(mid, p->y, p->m);
	if (c->sustained >= CLIFF_RATIO * c->burst) {
		snprintf(c->why, sizeof(c->why),
			 "no drop: the rate after its largest change is "
			 "%.0f%% of the rate before",
			 c->burst > 0 ? 100.0 * c->sustained / c->burst
				      : 100.0);
		return 0;
	}
	if (typical_ratio >= CLIFF_RATIO) {
		snprintf(c->why, sizeof(c->why),
			 "no drop: in a typical interval the rate after its "
			 "largest change is %.0f%% of the rate before; a few "
			 "intervals, not a level, made the rest",
			 100.0 * typical_ratio);
		return 0;
	}
	if (c->sse_levels >= c->sse_line) {
		snprintf(c->why, sizeof(c->why),
			 "the rate slides from %.1f to %.1f MiB/s rather "
			 "than drops: a straight line fits it as well",
			 c->burst / mb, c->sustained / mb);
		return 0;
	}
	if (sides_make(p, k, &sd) != 0) {
		snprintf(c->why, sizeof(c->why), "out of memory");
	} else if ((sep = separation(&sd)) < CLIFF_SEPARATION) {
		snprintf(c->why, sizeof(c->why),
			 "the fall from %.1f to %.1f MiB/s is within the "
			 "rates' noise: over %.0f ms, %.0f%% of the rates "
			 "before are above those after",
			 c->burst / mb, c->sustained / mb,
			 1e3 * sd.g * p->t0[p->m - 1] / (p->m - 1), 100 * sep);
	} else {
		ok = 1;
	}
	free(sd.a);
	free(sd.b);
	return ok;
}

int cliff_find(const struct result_interval *v, unsigned n, struct cliff *c)
{
	struct pts p;
	double *s1 = NULL, *s2 = NULL, *mid = NULL, sse, yk, la, lb, sd;
	unsigned k;

	memset(c, 0, sizeof(*c));
	c->looked = 1;
	if (pts_make(v, n, &p) != 0) {
		snprintf(c->why, sizeof(c->why), "out of memory");
		return 0;
	}
	c->intervals = p.m;
	if (p.m < 2 * CLIFF_SIDE_MIN + 1) {
		snprintf(c->why, sizeof(c->why),
			 "too few intervals to tell a drop from noise: %u, "
			 "where %u are needed",
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
	/* The two levels' squared residuals, the interval of the drop on
	 * the nearer level. */
	yk = p.y[k];
	la = s1[k] / k;
	lb = (s1[p.m] - s1[k + 1]) / (p.m - k - 1);
	c->sse_levels =
	    sse + fmin((yk - la) * (yk - la), (yk - lb) * (yk - lb));
	c->burst = span_rate(&p, 0, k);
	c->sustained = span_rate(&p, k + 1, p.m);
	mean_sd(p.r, 0, k, &sd, &c->burst_sd);
	mean_sd(p.r, k + 1, p.m, &sd, &c->sustained_sd);
	/* The levels of the despiked logs: a typical interval's rate each
	 * side, which a few fast intervals do not move. */
	if (judge(&p, k, mid, exp(lb - la), c)) {
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
