/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * curve: see curve.h.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve.h"
#include "hist.h"

static const char *const stat_names[] = {
    [CURVE_P50] = "p50",    [CURVE_P90] = "p90",   [CURVE_P99] = "p99",
    [CURVE_P999] = "p99.9", [CURVE_MEAN] = "mean", [CURVE_MAX] = "max",
};

const char *curve_stat_name(enum curve_stat s)
{
	return stat_names[s];
}

/* A percentage with at most one decimal, 0.1 .. CURVE_PCT_MAX, from
 * [s, end): tenths into *v; 0, or -1. */
static int parse_pct(const char *s, const char *end, unsigned *v)
{
	unsigned whole = 0, tenth = 0, digits = 0;
	const char *p = s;

	for (; p < end && *p >= '0' && *p <= '9'; p++, digits++)
		if ((whole = whole * 10 + (unsigned)(*p - '0')) > 100000)
			return -1;
	if (!digits)
		return -1;
	if (p < end && *p == '.') {
		p++;
		if (p >= end || *p < '0' || *p > '9')
			return -1;
		tenth = (unsigned)(*p++ - '0');
	}
	if (p != end)
		return -1;
	*v = whole * 10 + tenth;
	return *v >= 1 && *v <= (unsigned)(CURVE_PCT_MAX * 10) ? 0 : -1;
}

void curve_pct_text(unsigned tenths, char *buf, size_t len)
{
	if (tenths % 10)
		snprintf(buf, len, "%u.%u", tenths / 10, tenths % 10);
	else
		snprintf(buf, len, "%u", tenths / 10);
}

int curve_parse_steps(const char *s, unsigned *pct, unsigned *n, char *why,
		      size_t len)
{
	unsigned k = 0;

	for (const char *p = s;;) {
		const char *end = strchr(p, ',');
		unsigned v;

		if (!end)
			end = p + strlen(p);
		if (k == CURVE_STEPS_MAX) {
			snprintf(why, len, "at most %u steps", CURVE_STEPS_MAX);
			return -1;
		}
		if (parse_pct(p, end, &v)) {
			snprintf(why, len,
				 "'%.*s' is not a percentage of the maximum "
				 "from 0.1 to %.0f (one decimal at most)",
				 (int)(end - p > 32 ? 32 : end - p), p,
				 CURVE_PCT_MAX);
			return -1;
		}
		if (k && v <= pct[k - 1]) {
			char prev[16];

			curve_pct_text(pct[k - 1], prev, sizeof(prev));
			snprintf(why, len, "the steps must rise: %.*s after %s",
				 (int)(end - p > 32 ? 32 : end - p), p, prev);
			return -1;
		}
		pct[k++] = v;
		if (!*end)
			break;
		p = end + 1;
	}
	*n = k;
	return 0;
}

int curve_parse_target(const char *s, struct curve_target *t, char *why,
		       size_t len)
{
	static const struct {
		const char *suffix;
		double ns;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
	const char *colon = strchr(s, ':');
	size_t sl = colon ? (size_t)(colon - s) : strlen(s);
	int stat = -1;

	for (int i = 0; i <= CURVE_MAX; i++)
		if (strlen(stat_names[i]) == sl &&
		    !strncmp(s, stat_names[i], sl))
			stat = i;
	if (stat < 0) {
		snprintf(why, len,
			 "expected STAT:TIME, STAT one of p50, p90, p99, "
			 "p99.9, mean, max (as p99:5ms)");
		return -1;
	}
	if (!colon || !colon[1]) {
		snprintf(why, len, "a target needs a time: %s:TIME, as %s:5ms",
			 stat_names[stat], stat_names[stat]);
		return -1;
	}
	for (unsigned k = 0; k < sizeof(units) / sizeof(units[0]); k++) {
		const char *num = colon + 1;
		size_t n = strlen(num), ul = strlen(units[k].suffix);
		char buf[32], *end;
		double v;

		if (n <= ul || n - ul >= sizeof(buf) ||
		    strcmp(num + n - ul, units[k].suffix))
			continue;
		memcpy(buf, num, n - ul);
		buf[n - ul] = '\0';
		/* "5ms" ends in "s" too: the number must be clean. */
		if (!buf[0] || isspace((unsigned char)buf[0]))
			continue;
		errno = 0;
		v = strtod(buf, &end);
		if (*end)
			continue;
		if (isnan(v)) {
			snprintf(why, len, "the time '%s' is not a number",
				 buf);
			return -1;
		}
		/* Negative, infinite, or too large or small for a double:
		 * out of range all the same. */
		v *= units[k].ns;
		if (errno || !(v >= 1) || v > 3600e9) {
			snprintf(why, len,
				 "the time must be from 1 ns to an hour");
			return -1;
		}
		t->on = 1;
		t->stat = (enum curve_stat)stat;
		t->ns = (uint64_t)llround(v);
		return 0;
	}
	snprintf(why, len,
		 "the time needs its unit: a number with ns, us, ms or s (as "
		 "%s:5ms)",
		 stat_names[stat]);
	return -1;
}

void curve_target_text(const struct curve_target *t, char *buf, size_t len)
{
	double v = (double)t->ns;
	const char *u = "ns";

	if (t->ns >= 1000000000ull) {
		v /= 1e9;
		u = "s";
	} else if (t->ns >= 1000000ull) {
		v /= 1e6;
		u = "ms";
	} else if (t->ns >= 1000ull) {
		v /= 1e3;
		u = "us";
	}
	snprintf(buf, len, "%s <= %.4g %s", stat_names[t->stat], v, u);
}

uint64_t curve_stat_of(const struct result_test_rec *rec, enum curve_stat s)
{
	static const double pct[] = {[CURVE_P50] = 50,
				     [CURVE_P90] = 90,
				     [CURVE_P99] = 99,
				     [CURVE_P999] = 99.9};

	if (s == CURVE_MAX)
		return rec->max_latency_ns;
	if (!rec->lat || !rec->lat->count)
		return 0;
	if (s == CURVE_MEAN)
		return (uint64_t)llround(hist_mean(rec->lat));
	return hist_percentile(rec->lat, pct[s]);
}

int curve_bracket(const struct curve_point *p, unsigned n,
		  const struct curve_target *t, unsigned *lo, unsigned *hi)
{
	unsigned beyond = 0;

	while (beyond < n && curve_within(&p[beyond], t))
		beyond++;
	*hi = beyond;
	if (beyond == 0)
		return -1;
	*lo = beyond - 1;
	return 0;
}
