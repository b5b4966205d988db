/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot_data: the figures of report_plot's panels (plot.h): the series
 * (one per name in each input, repeats as their mean and 95% CI), their
 * key labels, and per panel the tests shown, a bar per series and test,
 * and the axis range. plot.c writes them out as gnuplot's data blocks.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "stats.h"

const struct panel plot_panels[P_COUNT] = {
    {"io", "Sequential I/O throughput", K_IO, M_RATE},
    {"ops", "Seeks and file operations", K_OPS, M_RATE},
    {"cpu", "CPU use (%CP)", K_IO | K_OPS, M_CPU},
    {"lat", "Worst latency", K_IO | K_OPS, M_LAT},
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
			   strcmp(r->file, "-") ? (base ? base + 1 : r->file)
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

/*
 * A log axis from the decade below lo, where the bars stand, up to
 * room above hi for the figures over the bars.
 */
static void log_range(double lo, double hi, double room, double *bot,
		      double *top)
{
	if (!(lo > 0) || !(hi > 0)) {
		*bot = 1;
		*top = 10;
		return;
	}
	*bot = pow(10, floor(log10(lo) + 1e-9));
	*top = hi * room;
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
	if (m == M_LAT)
		b->extra = np ? p99 / np : NAN;
	else
		b->extra = !n && fast;
}

/* Whether panel pn draws figure t. */
static int shows(const struct panel *pn, enum result_test t)
{
	return (pn->kinds & (1u << result_test_kind(t))) != 0;
}

/* The worst latency of any figure the panel shows, in ns. */
static double worst_latency(const struct report_set *set,
			    const struct panel *pn)
{
	double worst = 0;

	for (size_t i = 0; i < set->n; i++)
		for (enum result_test t = 0; t < RT_COUNT; t++)
			if (shows(pn, t) &&
			    (double)set->rows[i].res.c[t].lat_ns > worst)
				worst = (double)set->rows[i].res.c[t].lat_ns;
	return worst;
}

/* Fill one panel's data: which tests to show, the bars, the axis. */
int plot_compute_panel(struct plot *p, int pi)
{
	const struct panel *pn = &plot_panels[pi];
	struct pdata *d = &p->pd[pi];
	size_t ns = p->nseries, maxn = 1;
	double *x, lo = INFINITY, hi = 0, scale = 1;

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
	if (pn->metric == M_LAT) {
		/* ms unless every latency is under a millisecond. */
		scale = worst_latency(p->set, pn) >= 1e6 ? 1e6 : 1e3;
		d->ylabel = scale == 1e6 ? "latency, ms (log scale)"
					 : "latency, us (log scale)";
	} else if (pn->metric == M_CPU) {
		d->ylabel = "%CP (CPU time / elapsed time)";
	} else {
		scale = pn->kinds == K_IO ? 1024 : 1;
		d->ylabel = pn->kinds == K_IO
				? "MiB/s (log scale)"
				: "seeks/s, files/s (log scale)";
	}
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		struct bar *row = &d->bar[(size_t)d->ntests * ns];
		int any = 0;

		if (!shows(pn, t))
			continue;
		for (size_t i = 0; i < ns; i++) {
			struct bar *b = &row[i];

			summarise(p->set, &p->series[i], t, pn->metric, scale,
				  x, b);
			if (!isnan(b->fig) || b->extra > 0) {
				any = 1;
				d->slot[i] = 1;
			}
			if (!isnan(b->lo))
				d->any_ci = 1;
			if (pn->metric == M_LAT && !isnan(b->extra))
				d->any_p99 = 1;
			if (pn->metric != M_LAT && b->extra > 0)
				d->any_fast = 1;
			/*
			 * The axis: every figure, p99 and CI top on it; a CI
			 * reaching lower is cut at the bottom, not followed.
			 */
			double vals[3] = {b->fig, b->hi,
					  pn->metric == M_LAT ? b->extra : NAN};
			for (int k = 0; k < 3; k++) {
				if (isnan(vals[k]))
					continue;
				if (vals[k] > 0 && vals[k] < lo && k != 1)
					lo = vals[k];
				if (vals[k] > hi)
					hi = vals[k];
			}
		}
		if (any)
			d->test[d->ntests++] = t;
	}
	free(x);
	d->title = d->any_p99 ? "Worst and p99 latency" : pn->title;
	for (size_t i = 0; i < ns; i++)
		if (d->slot[i])
			d->slot[i] = ++d->nslots;
	if (!d->nslots) {
		/* Nothing to draw: the key still names every result. */
		for (size_t i = 0; i < ns; i++)
			d->slot[i] = ++d->nslots;
	}
	if (pn->metric == M_CPU) {
		/* %CP may pass 100 (several processes); room for figures. */
		double top = (hi > 100 ? hi : 100) *
			     (d->nslots <= FIGURES_MAX ? 1.15 : 1.05);

		d->ybot = 0;
		d->ytop = ceil(top / 10) * 10;
	} else {
		d->log = 1;
		log_range(lo, hi, d->nslots <= FIGURES_MAX ? 3 : 1.3, &d->ybot,
			  &d->ytop);
	}
	return 0;
}

/* Whether a panel has any bar at all. */
int plot_panel_empty(const struct plot *p, int pi)
{
	const struct pdata *d = &p->pd[pi];

	for (int i = 0; i < d->ntests * (int)p->nseries; i++)
		if (!isnan(d->bar[i].fig))
			return 0;
	return 1;
}
