/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html_mean: the cells of the page's table (html_table.c): a row's as
 * its line wrote them, an I/O rate as clyde-report txt prints it
 * ("134m", units_fmt_rate) with the exact figure in the title; a side
 * of repeats' as the mean of its runs' figures +- the half-width of the
 * mean's 95% confidence interval (stats_compute), the half-width in the
 * mean's unit ("131m ±8.1m", "758.3 ±7.8", "396ms ±37ms"), the mean and
 * the interval's ends exact in the title.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "html.h"
#include "units.h"

/* snprintf into a cell's text, cut to fit: the figures fit the cells'
 * sizes in all but absurd cases, which lose their ends. */
static void fit(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* " 134m" -> "134m": the txt cell without its padding. */
static void fmt_rate(char *buf, size_t len, double kib)
{
	char cell[32];
	const char *s = cell;

	units_fmt_rate(cell, sizeof(cell), (uint64_t)llround(kib));
	while (*s == ' ')
		s++;
	fit(buf, len, "%s", s);
}

/* A cell of one row: the line's texts, an I/O rate as txt prints it. */
void html_cell_one(struct hcell *h, const struct csv_cell *c,
		   enum result_test t)
{
	const char *unit = result_rate_unit(result_test_kind(t));

	memset(h, 0, sizeof(*h));
	h->c = *c;
	h->cpu = c->cpu;
	if (c->state == CSV_VALUE && result_test_kind(t) == RK_IO) {
		fmt_rate(h->c.text, sizeof(h->c.text), c->rate);
		snprintf(h->title[HC_RATE], sizeof(h->title[HC_RATE]),
			 "%.0f %s", c->rate, unit);
	}
	/* JSON knows what a "+++++" test measured: say so. */
	if (c->state == CSV_FAST && c->exact_rate)
		snprintf(h->title[HC_RATE], sizeof(h->title[HC_RATE]),
			 "measured %.0f %s", c->rate, unit);
}

/* "131m ±8.1m": an I/O mean and its CI's half-width in the mean's
 * unit. */
static void fmt_io_mean(char *buf, size_t len, const struct stats *s)
{
	char m[32];
	double half = s->ci_high - s->mean;

	fmt_rate(m, sizeof(m), s->mean);
	if (s->n < 2)
		fit(buf, len, "%s", m);
	else if (m[strlen(m) - 1] == 'g')
		fit(buf, len, "%s ±%.2fg", m, half / 1048576);
	else if (m[strlen(m) - 1] == 'm')
		fit(buf, len, "%s ±%.1fm", m, half / 1024);
	else
		fit(buf, len, "%s ±%.0fk", m, half);
}

/* "396ms ±38ms": latency as the cells print it, the half-width in the
 * mean's unit ("<1us" under a microsecond). */
static void fmt_lat_mean(char *buf, size_t len, const struct stats *s)
{
	char m[32];
	double half = (s->ci_high - s->mean) * 1e3; /* ns */
	size_t n;

	units_fmt_latency(m, sizeof(m), (uint64_t)llround(s->mean * 1e3));
	n = strlen(m);
	if (s->n < 2)
		fit(buf, len, "%s", m);
	else if (n > 2 && !strcmp(m + n - 2, "ms"))
		fit(buf, len, "%s ±%.*fms", m, half < 1e7, half / 1e6);
	else if (n > 2 && !strcmp(m + n - 2, "us"))
		fit(buf, len,
		    half > 0 && half < 1000 ? "%s ±<1us" : "%s ±%.0fus", m,
		    half / 1e3);
	else
		fit(buf, len, "%s ±%.1fs", m, half / 1e9);
}

/* "mean 134641, 95% CI 126310 to 142972 KiB/s" */
static void mean_title(char *buf, size_t len, const struct stats *s, int dec,
		       const char *unit)
{
	if (s->n < 2)
		snprintf(buf, len, "%.*f %s (one run has it)", dec, s->mean,
			 unit);
	else
		snprintf(buf, len,
			 "mean %.*f, 95%% CI %.*f to %.*f %s (%u runs)", dec,
			 s->mean, dec, s->ci_low, dec, s->ci_high, unit, s->n);
}

/* The rate part of a side's mean cell of figure t: "+++++" when no run
 * has a figure to show. */
static void mean_rate(struct hcell *h, const struct report_set *set,
		      const struct report_group *g, enum result_test t,
		      double *x)
{
	enum result_kind kind = result_test_kind(t);
	const char *unit = result_rate_unit(kind);
	unsigned fast, n, shown = 0, fasts = 0;
	struct stats s;

	for (size_t i = 0; i < g->n; i++) {
		enum csv_cell_state st = set->rows[g->idx[i]].res.c[t].state;

		shown += st == CSV_VALUE;
		fasts += st == CSV_FAST;
	}
	n = report_samples(set, g->idx, g->n, t, CMP_RATE, x, &fast);
	if (n)
		stats_compute(x, n, &s);
	if (!shown || !n) {
		if (!fasts)
			return;
		h->c.state = CSV_FAST;
		fit(h->c.text, sizeof(h->c.text), "+++++");
		fit(h->c.cpu_text, sizeof(h->c.cpu_text), "+++");
		if (n)
			mean_title(h->title[HC_RATE], sizeof(h->title[0]), &s,
				   0, unit);
		return;
	}
	h->c.state = CSV_VALUE;
	h->c.rate = s.mean;
	if (kind == RK_IO)
		fmt_io_mean(h->c.text, sizeof(h->c.text), &s);
	else if (kind == RK_SEEK && s.n >= 2)
		fit(h->c.text, sizeof(h->c.text), "%.1f ±%.1f", s.mean,
		    s.ci_high - s.mean);
	else if (s.n >= 2)
		fit(h->c.text, sizeof(h->c.text), "%.0f ±%.0f", s.mean,
		    s.ci_high - s.mean);
	else
		fit(h->c.text, sizeof(h->c.text), "%.*f", kind == RK_SEEK,
		    s.mean);
	mean_title(h->title[HC_RATE], sizeof(h->title[0]), &s, kind == RK_SEEK,
		   unit);
}

/* A side's cell of figure t: the means of its runs' figures. */
void html_cell_mean(struct hcell *h, const struct report_set *set,
		    const struct report_group *g, enum result_test t, double *x)
{
	unsigned fast, n;
	struct stats s;

	memset(h, 0, sizeof(*h));
	h->cpu = -1;
	h->c.state = CSV_EMPTY;
	h->c.cpu = -1;
	mean_rate(h, set, g, t, x);
	n = report_samples(set, g->idx, g->n, t, CMP_CPU, x, &fast);
	if (n) {
		stats_compute(x, n, &s);
		h->cpu = s.mean;
		h->c.cpu = (int)lround(s.mean);
		if (s.n >= 2)
			fit(h->c.cpu_text, sizeof(h->c.cpu_text), "%.0f ±%.1f",
			    s.mean, s.ci_high - s.mean);
		else
			fit(h->c.cpu_text, sizeof(h->c.cpu_text), "%.0f",
			    s.mean);
		mean_title(h->title[HC_CPU], sizeof(h->title[0]), &s, 1, "%CP");
	}
	n = report_samples(set, g->idx, g->n, t, CMP_LATENCY, x, &fast);
	if (n) {
		stats_compute(x, n, &s);
		h->c.lat_ns = (uint64_t)llround(s.mean * 1e3);
		fmt_lat_mean(h->c.lat_text, sizeof(h->c.lat_text), &s);
		mean_title(h->title[HC_LAT], sizeof(h->title[0]), &s, 0,
			   "us (the slowest operation)");
	}
}
