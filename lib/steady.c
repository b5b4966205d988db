/* SPDX-License-Identifier: GPL-2.0-or-later */
/* steady: see steady.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steady.h"

static const char *const on_names[] = {"rate", "iops", "bw", "p99"};

void steady_rule_default(struct steady_rule *r)
{
	r->rounds = STEADY_ROUNDS_DEFAULT;
	r->range_pct = STEADY_RANGE_DEFAULT;
	r->slope_pct = STEADY_SLOPE_DEFAULT;
	r->on = STEADY_RATE;
}

const char *steady_on_name(enum steady_on on)
{
	return (unsigned)on < sizeof(on_names) / sizeof(on_names[0])
		   ? on_names[on]
		   : "?";
}

static int on_of(const char *w, enum steady_on *on)
{
	for (unsigned i = 1; i < sizeof(on_names) / sizeof(on_names[0]); i++)
		if (!strcmp(w, on_names[i])) {
			*on = (enum steady_on)i;
			return 0;
		}
	return -1;
}

/* A percentage in (0, 100]. */
static int pct_of(const char *w, double *v)
{
	char *end;

	if (!*w || *w == '-' || *w == '+')
		return -1;
	*v = strtod(w, &end);
	return *end || !(*v > 0) || *v > 100 ? -1 : 0;
}

int steady_parse(const char *s, struct steady_rule *r, char *why, size_t len)
{
	char buf[128], *parts[5], *save = NULL;
	unsigned n = 0;
	unsigned long rounds;
	char *end;

	steady_rule_default(r);
	if (strlen(s) >= sizeof(buf)) {
		snprintf(why, len, "too long (%zu characters)", strlen(s));
		return -1;
	}
	/* strtok would take "5::10" for two parts. */
	if (!*s || strstr(s, "::") || s[0] == ':' || s[strlen(s) - 1] == ':') {
		snprintf(why, len,
			 "expected ROUNDS:RANGE:SLOPE, iops, bw or p99");
		return -1;
	}
	strcpy(buf, s);
	for (char *p = buf;; p = NULL) {
		char *t = strtok_r(p, ":", &save);

		if (!t)
			break;
		if (n == 5) {
			snprintf(why, len, "at most ROUNDS:RANGE:SLOPE:WHAT");
			return -1;
		}
		parts[n++] = t;
	}
	if (n && !on_of(parts[n - 1], &r->on))
		n--;
	if (n == 0)
		return 0;
	if (n != 3) {
		snprintf(why, len,
			 "expected ROUNDS:RANGE:SLOPE (as 5:20:10), "
			 "then optionally :iops, :bw or :p99");
		return -1;
	}
	rounds = strtoul(parts[0], &end, 10);
	if (parts[0][0] < '0' || parts[0][0] > '9' || *end || rounds < 2 ||
	    rounds > STEADY_ROUNDS_MAX) {
		snprintf(why, len, "ROUNDS '%s' is not a whole number 2..%u",
			 parts[0], STEADY_ROUNDS_MAX);
		return -1;
	}
	r->rounds = (unsigned)rounds;
	if (pct_of(parts[1], &r->range_pct)) {
		snprintf(why, len,
			 "RANGE '%s' is not a percentage above 0 and at most "
			 "100",
			 parts[1]);
		return -1;
	}
	if (pct_of(parts[2], &r->slope_pct)) {
		snprintf(why, len,
			 "SLOPE '%s' is not a percentage above 0 and at most "
			 "100",
			 parts[2]);
		return -1;
	}
	return 0;
}

int steady_judge(const double *y, unsigned n, const struct steady_rule *r,
		 struct steady_window *w)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, d;

	memset(w, 0, sizeof(*w));
	if (n < 2)
		return 0;
	w->min = w->max = y[0];
	for (unsigned i = 0; i < n; i++) {
		double x = i;

		sx += x;
		sy += y[i];
		sxx += x * x;
		sxy += x * y[i];
		w->min = fmin(w->min, y[i]);
		w->max = fmax(w->max, y[i]);
	}
	w->avg = sy / n;
	w->range = w->max - w->min;
	d = n * sxx - sx * sx;
	w->slope = (n * sxy - sx * sy) / d;
	w->excursion = fabs(w->slope) * (n - 1);
	w->range_ok = w->range <= r->range_pct / 100.0 * w->avg;
	w->slope_ok = w->excursion <= r->slope_pct / 100.0 * w->avg;
	return w->range_ok && w->slope_ok;
}

double steady_value(const struct steady_round *rd, enum steady_on on)
{
	if (on == STEADY_P99)
		return (double)rd->p99_ns;
	if (!(rd->seconds > 0))
		return 0;
	return (double)(on == STEADY_BW ? rd->bytes : rd->ops) / rd->seconds;
}

struct steady_run *steady_run_dup(const struct steady_run *s)
{
	struct steady_run *d = malloc(sizeof(*d));

	if (!d)
		return NULL;
	*d = *s;
	d->rounds = NULL;
	if (s->nrounds &&
	    !(d->rounds = malloc(s->nrounds * sizeof(*d->rounds)))) {
		free(d);
		return NULL;
	}
	if (s->nrounds)
		memcpy(d->rounds, s->rounds, s->nrounds * sizeof(*d->rounds));
	return d;
}

void steady_run_free(struct steady_run *s)
{
	if (!s)
		return;
	free(s->rounds);
	free(s);
}

void steady_run_text(const struct steady_run *s, char *buf, size_t len)
{
	if (s->steady)
		snprintf(buf, len, "steady r%u (%.0f s)", s->nrounds,
			 s->seconds);
	else
		snprintf(buf, len, "NOT steady after %.0f s", s->seconds);
}
