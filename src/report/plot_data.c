/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot_data: the figures of report_plot's charts (plot.h): the series
 * (one per name in each input, repeats as their mean and 95% CI), their
 * key labels, and per chart the tests shown, a bar per series and test
 * in the unit that suits the test's figures, and each small panel's
 * linear axis from 0. A test with a repeat under 0.5 s ("+++++") is a
 * marker, not a figure. plot_draw.c writes them out as gnuplot's data
 * blocks.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "stats.h"

const struct panel plot_panels[P_COUNT] = {
    {"rate", "Throughput", K_ALL, M_RATE},
    {"cpu", "CPU use (%CP)", K_ALL, M_CPU},
    {"lat", "Worst latency", K_ALL, M_LAT},
};

/*
 * Text shown in a picture: valid UTF-8 kept, other bytes '?', control
 * characters a space (a newline would end a gnuplot command), cut at
 * max characters.
 */
void plot_clean_text(char *dst, size_t len, const char *src, size_t max)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0, chars = 0;

	while (*s && o + 8 < len) {
		size_t n = 1;

		if (*s >= 0xc2 && *s <= 0xdf)
			n = 2;
		else if (*s >= 0xe0 && *s <= 0xef)
			n = 3;
		else if (*s >= 0xf0 && *s <= 0xf4)
			n = 4;
		for (size_t k = 1; k < n; k++)
			if ((s[k] & 0xc0) != 0x80)
				n = 0;
		if (chars == max) {
			memcpy(dst + o, "...", 3);
			o += 3;
			break;
		}
		if (n == 0 || (n == 1 && *s >= 0x80)) {
			dst[o++] = '?';
			s++;
		} else if (n == 1) {
			dst[o++] = (*s < 0x20 || *s == 0x7f) ? ' ' : (char)*s;
			s++;
		} else {
			memcpy(dst + o, s, n);
			o += n;
			s += n;
		}
		chars++;
	}
	dst[o] = '\0';
}

/*
 * The series: the groups of each input in order. The rows of one input
 * are consecutive and share the file pointer main.c gave them.
 */
int plot_make_series(struct plot *p, struct report_group ***groups,
		     size_t **ngroups, size_t *ninputs)
{
	const struct report_set *set = p->set;
	size_t first = 0, k = 0, total = 0;

	*ninputs = 0;
	for (size_t i = 0; i < set->n; i++)
		if (i == 0 || set->rows[i].file != set->rows[i - 1].file)
			(*ninputs)++;
	*groups = calloc(*ninputs, sizeof(**groups));
	*ngroups = calloc(*ninputs, sizeof(**ngroups));
	if (!*groups || !*ngroups)
		return -1;
	for (size_t i = 1; i <= set->n; i++) {
		if (i < set->n && set->rows[i].file == set->rows[i - 1].file)
			continue;
		(*ngroups)[k] = report_group(set, first, i, &(*groups)[k]);
		if (!(*ngroups)[k])
			return -1;
		total += (*ngroups)[k];
		first = i;
		k++;
	}
	p->series = calloc(total, sizeof(*p->series));
	if (!p->series)
		return -1;
	for (k = 0; k < *ninputs; k++) {
		for (size_t g = 0; g < (*ngroups)[k]; g++) {
			struct report_group *gr = &(*groups)[k][g];
			struct series *s = &p->series[p->nseries++];

			s->idx = gr->idx;
			s->n = gr->n;
		}
	}
	return 0;
}

/*
 * A result's key label: its name; "(mean of N)" for repeats; the input
 * file's base name when the same name comes from more than one input.
 */
void plot_label_series(struct plot *p)
{
	const struct report_set *set = p->set;

	for (size_t i = 0; i < p->nseries; i++) {
		struct series *s = &p->series[i];
		const struct report_row *r = &set->rows[s->idx[0]];
		char name[LABEL_CHARS * 4 + 8], file[LABEL_CHARS * 4 + 8];
		const char *base;
		int twice = 0;

		for (size_t j = 0; j < p->nseries; j++) {
			const struct report_row *q =
			    &set->rows[p->series[j].idx[0]];

			twice |= j != i && !strcmp(q->res.name, r->res.name);
		}
		plot_clean_text(name, sizeof(name), r->res.name, LABEL_CHARS);
		base = strrchr(r->file, '/');
		plot_clean_text(file, sizeof(file),
				strcmp(r->file, "-")
				    ? (base ? base + 1 : r->file)
				    : "stdin",
				LABEL_CHARS / 2);
		snprintf(s->label, sizeof(s->label), "%s%s%s%s", name,
			 twice ? " [" : "", twice ? file : "",
			 twice ? "]" : "");
		if (s->n > 1) {
			size_t l = strlen(s->label);

			snprintf(s->label + l, sizeof(s->label) - l,
				 " (mean of %zu)", s->n);
		}
	}
}

/* The plotted figure of one cell, before scaling; NaN when none. */
static double cell_value(const struct csv_cell *c, enum metric m)
{
	switch (m) {
	case M_RATE:
		return report_rate(c);
	case M_CPU:
		return c->cpu >= 0 ? c->cpu : NAN;
	case M_LAT:
	default:
		return c->lat_ns ? (double)c->lat_ns : NAN;
	}
}

/* Mean and CI of the series' figures for test t; x has room for n. */
static void summarise(const struct report_set *set, const struct series *s,
		      enum result_test t, enum metric m, double scale,
		      double *x, struct bar *b)
{
	unsigned n = 0, np = 0;
	int fast = 0;
	double p99 = 0;
	struct stats st;

	for (size_t k = 0; k < s->n; k++) {
		const struct csv_cell *c = &set->rows[s->idx[k]].res.c[t];
		double v = cell_value(c, m);

		if (!isnan(v))
			x[n++] = v / scale;
		fast |= c->state == CSV_FAST;
		if (c->has_pct && c->p99_ns) {
			p99 += (double)c->p99_ns / scale;
			np++;
		}
	}
	b->fig = b->lo = b->hi = NAN;
	if (n) {
		stats_compute(x, n, &st);
		b->fig = st.mean;
		if (st.ci_low < st.ci_high) {
			b->lo = st.ci_low;
			b->hi = st.ci_high;
		}
	}
	/* Any repeat under 0.5 s: a marker, not a bar, even where a JSON
	 * document kept the rate (too short a time to trust). */
	if (m == M_LAT)
		b->extra = np ? p99 / np : NAN;
	else
		b->extra = fast;
}

/* Whether b stands as a bar of its figure (not absent, not "+++++"). */
static int is_figure(const struct bar *b, enum metric m)
{
	return !isnan(b->fig) && (m == M_LAT || !(b->extra > 0));
}

/* Whether panel pn draws figure t. */
static int shows(const struct panel *pn, enum result_test t)
{
	return (pn->kinds & (1u << result_test_kind(t))) != 0;
}

/*
 * A unit that suits a figure's largest value (raw: KiB/s, operations/s
 * or ns), so its axis reads in small numbers: the unit's name and how
 * many raw ones it holds.
 */
static const char *pick_unit(enum result_test t, enum metric m, double max,
			     double *scale)
{
	static const char *const per[] = {
	    [RK_SEEK] = "seeks/s", [RK_FILE] = "files/s", [RK_OPS] = "ops/s"};
	enum result_kind k = result_test_kind(t);

	*scale = 1;
	if (m == M_CPU)
		return "%CP";
	if (m == M_LAT) {
		*scale = max >= 1e9 ? 1e9 : max >= 1e6 ? 1e6 : 1e3;
		return *scale == 1e9 ? "s" : *scale == 1e6 ? "ms" : "us";
	}
	if (k != RK_IO)
		return per[k];
	*scale = max >= 10240.0 * 1024 ? 1048576 : max >= 1024 ? 1024 : 1;
	return *scale == 1048576 ? "GiB/s" : *scale == 1024 ? "MiB/s" : "KiB/s";
}

/* A bar's figures over scale; "+++++" and NaN stay as they are. */
static void scale_bar(struct bar *b, enum metric m, double scale)
{
	b->fig /= scale;
	b->lo /= scale;
	b->hi /= scale;
	if (m == M_LAT)
		b->extra /= scale;
}

/*
 * The axis of one small panel: from 0 to room above the highest figure,
 * p99 or CI end, for the figures over the bars (1 when it has only
 * "+++++" markers: no scale is drawn then).
 */
static double axis_top(double hi)
{
	return hi > 0 ? hi * 1.18 : 1;
}

/* Test t's bars in row, raw; whether any series has one. */
static int fill_test(struct plot *p, struct pdata *d, enum metric m,
		     enum result_test t, struct bar *row, double *x,
		     double *max)
{
	int any = 0;

	*max = 0;
	for (size_t i = 0; i < p->nseries; i++) {
		struct bar *b = &row[i];

		summarise(p->set, &p->series[i], t, m, 1, x, b);
		if (is_figure(b, m) || (m != M_LAT && b->extra > 0)) {
			any = 1;
			d->slot[i] = 1;
		}
		if (!is_figure(b, m))
			continue;
		double vals[3] = {b->fig, b->hi, m == M_LAT ? b->extra : NAN};
		for (int k = 0; k < 3; k++)
			if (vals[k] > *max)
				*max = vals[k];
	}
	return any;
}

/* Fill one chart's data: which tests to show, the bars, the axes. */
int plot_compute_panel(struct plot *p, int pi)
{
	const struct panel *pn = &plot_panels[pi];
	struct pdata *d = &p->pd[pi];
	size_t ns = p->nseries, maxn = 1;
	double *x;

	for (size_t i = 0; i < ns; i++)
		if (p->series[i].n > maxn)
			maxn = p->series[i].n;
	d->bar = calloc((size_t)RT_COUNT * ns, sizeof(*d->bar));
	d->slot = calloc(ns, sizeof(*d->slot));
	x = malloc(maxn * sizeof(*x));
	if (!d->bar || !d->slot || !x) {
		free(x);
		return -1;
	}
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		struct bar *row = &d->bar[(size_t)d->ntests * ns];
		struct fig *fg = &d->fig[d->ntests];
		double max, scale;

		if (!shows(pn, t) ||
		    !fill_test(p, d, pn->metric, t, row, x, &max))
			continue;
		fg->test = t;
		fg->unit = pick_unit(t, pn->metric, max, &scale);
		for (size_t i = 0; i < ns; i++) {
			struct bar *b = &row[i];

			scale_bar(b, pn->metric, scale);
			fg->any_fig |= is_figure(b, pn->metric);
			fg->any_fast |= pn->metric != M_LAT && b->extra > 0;
			fg->any_ci |= is_figure(b, pn->metric) && !isnan(b->lo);
			fg->any_p99 |= pn->metric == M_LAT && !isnan(b->extra);
			/* %CP past one process' share is capped, marked. */
			d->any_over |= pn->metric == M_CPU && b->fig > CPU_CAP;
			d->any_over_ci |= pn->metric == M_CPU &&
					  !(b->fig > CPU_CAP) &&
					  b->hi > CPU_CAP;
		}
		fg->ytop = axis_top(max / scale);
		d->any_fast |= fg->any_fast;
		d->any_ci |= fg->any_ci;
		d->any_p99 |= fg->any_p99;
		d->ntests++;
	}
	free(x);
	d->title = d->any_p99 ? "Worst and p99 latency" : pn->title;
	for (size_t i = 0; i < ns; i++)
		if (d->slot[i])
			d->slot[i] = ++d->nslots;
	return 0;
}

/* Whether a chart has any bar at all. */
int plot_panel_empty(const struct plot *p, int pi)
{
	return p->pd[pi].nslots == 0;
}
