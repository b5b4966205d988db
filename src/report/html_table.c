/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html_table: the page's table in the shape of bon_csv2html's: the
 * header rows, a row per side (name, size label, the twelve rate and
 * %CP pairs, the file-test label) and under it a row of worst
 * latencies. A side (report_sides: one name in one input) of one row
 * shows that row; a side of repeats shows one row of their means, each
 * +- the half-width of its 95% confidence interval (stats_compute), and
 * the runs themselves in a <details> element under it, unshaded.
 *
 * I/O rates are printed as clyde-report txt prints them (bonnie++
 * 2.00's "134m", units_fmt_rate), the exact figure in the cell's title;
 * seeks and file tests as written.
 *
 * A figure no run has (the file tests of a run with -n 0, the I/O of
 * one with -s 0) has no columns, and the file tests' label column goes
 * with the last of them, so the table is as wide as its figures.
 *
 * The shown rows are shaded per column, over the values above 0 and
 * only when there are two distinct ones, by frac = (v - min) / (max -
 * min) for rates (higher is better) and 1 - frac for %CP per unit of
 * work (%CP divided by the rate, so a faster row is not marked down for
 * the CPU its speed costs) and latencies. The default palette is a
 * single-hue blue scale, darker for better, which readers who cannot
 * tell red from green read alike; --colours=bonnie is bon_csv2html's
 * rule (FORMATS.md): green = 255 * frac, red = 255 - green.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "units.h"

/* The range of one column over the shown rows. */
struct html_scale {
	double min, max;
	int n; /* values seen */
};

/* A shown row: a row of the set or the means of a side's repeats. */
struct hrow {
	const struct run_result *r; /* name, version and labels: the first */
	size_t nruns;
	struct hcell c[RT_COUNT];
};

/* The table's columns: the figures any row has (bits 1 << t), whether a
 * file test is among them (then the Files column), and whether a
 * concurrency column is shown. */
struct tcols {
	unsigned shown;
	int files;
	int conc;
};

/* The palette's ends (frac 0 the worst, 1 the best) for the legend. */
#define SAFE_WORST 0xEFF3FF
#define SAFE_BEST  0x4292C6

/* The value a cell is shaded by, or 0 when it is not shaded. */
static double cell_value(const struct hcell *h, enum html_col col)
{
	const struct csv_cell *c = &h->c;

	switch (col) {
	case HC_RATE:
		return c->state == CSV_VALUE && c->rate > 0 ? c->rate : 0;
	case HC_CPU:
		if (c->state != CSV_VALUE || h->cpu <= 0 || !(c->rate > 0))
			return 0;
		return h->cpu / c->rate;
	case HC_LAT:
	default:
		return (double)c->lat_ns;
	}
}

static void scales_of(const struct hrow *rows, size_t n,
		      struct html_scale sc[HC_COUNT][RT_COUNT])
{
	memset(sc, 0, sizeof(struct html_scale) * HC_COUNT * RT_COUNT);
	for (size_t i = 0; i < n; i++) {
		for (int col = 0; col < HC_COUNT; col++) {
			for (int t = 0; t < RT_COUNT; t++) {
				struct html_scale *s = &sc[col][t];
				double v = cell_value(&rows[i].c[t],
						      (enum html_col)col);

				if (!(v > 0))
					continue;
				if (!s->n || v < s->min)
					s->min = v;
				if (!s->n || v > s->max)
					s->max = v;
				s->n++;
			}
		}
	}
}

/* The colour at frac of the way from a to b (0xRRGGBB). */
static unsigned mix(unsigned a, unsigned b, double frac)
{
	unsigned out = 0;

	for (int sh = 16; sh >= 0; sh -= 8) {
		double x = (a >> sh & 0xff) +
			   frac * ((double)(b >> sh & 0xff) - (a >> sh & 0xff));

		out |= (unsigned)lround(x) << sh;
	}
	return out;
}

/*
 * The style attribute of a cell, or "" when it is not shaded: no
 * figure, no shading (sc NULL: a run under its side's means), or a
 * column with fewer than two distinct figures.
 */
static void shade(char *buf, size_t len, const struct html_scale *s,
		  const struct hcell *h, enum html_col col,
		  enum report_palette pal)
{
	double v = cell_value(h, col), frac;
	long green;

	buf[0] = '\0';
	if (!s || !(v > 0) || !(s->max > s->min))
		return;
	frac = (v - s->min) / (s->max - s->min);
	if (col != HC_RATE)
		frac = 1 - frac;
	if (pal == REPORT_PAL_SAFE) {
		snprintf(buf, len, " style=\"background:#%06X\"",
			 mix(SAFE_WORST, SAFE_BEST, frac));
		return;
	}
	green = lround(255 * frac);
	snprintf(buf, len, " style=\"background:#%02lX%02lX00\"", 255 - green,
		 green);
}

/* A percentile: "<1us" below a microsecond, else as the latency cells. */
static void pct(FILE *out, const char *label, uint64_t ns)
{
	char buf[32];

	if (ns < 1000)
		snprintf(buf, sizeof(buf), "<1us");
	else
		units_fmt_latency(buf, sizeof(buf), ns);
	fprintf(out, "%s&nbsp;", label);
	html_esc(out, buf);
}

/* Figure t is in the I/O block (files 0) or file block (1), and has
 * columns. */
static int in_block(const struct tcols *tc, enum result_test t, int files)
{
	return figure_bonnie(t) && figure_is_file(t) == files &&
	       (tc->shown >> t & 1u);
}

static int has_latency(const struct hrow *r)
{
	for (int t = 0; t < RT_COUNT; t++)
		if (figure_bonnie(t) && r->c[t].c.lat_text[0])
			return 1;
	return 0;
}

/* Any concurrency but the default: then it gets a column. */
static int any_concurrency(const struct report_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		const char *c = set->rows[i].res.text.concurrency;

		if (c[0] && strcmp(c, "1"))
			return 1;
	}
	return 0;
}

/* The columns of the set's rows: a figure's when any row has it. */
static void tcols_of(const struct report_set *set, struct tcols *tc)
{
	tc->shown = 0;
	tc->files = 0;
	tc->conc = any_concurrency(set);
	for (size_t i = 0; i < set->n; i++)
		for (int t = 0; t < RT_COUNT; t++) {
			const struct csv_cell *c = &set->rows[i].res.c[t];

			if (!figure_bonnie((enum result_test)t) ||
			    (c->state == CSV_EMPTY && !c->lat_text[0]))
				continue;
			tc->shown |= 1u << t;
			tc->files |= figure_is_file((enum result_test)t);
		}
}

/* Whether figure t shares its heading with a neighbour of its block. */
static int shares_head(const struct tcols *tc, enum result_test t)
{
	int files = figure_is_file(t);
	const char *head = figure_of(t)->head;

	return (t > 0 && in_block(tc, t - 1, files) &&
		!strcmp(figure_of(t - 1)->head, head)) ||
	       (t + 1 < RT_COUNT && in_block(tc, t + 1, files) &&
		!strcmp(figure_of(t + 1)->head, head));
}

/* The top header cells of a block: one per heading; a heading over one
 * figure takes the second row too ("Random<br>Seeks"). */
static void head_cells(FILE *out, const struct tcols *tc, int files)
{
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct figure *f = figure_of(t);
		int n = 1;

		if (!in_block(tc, t, files))
			continue;
		if (!shares_head(tc, t)) {
			fprintf(out,
				"<th colspan=\"2\" rowspan=\"2\">%s<br>%s</th>",
				f->head, f->col);
			continue;
		}
		while (t + 1 < RT_COUNT && in_block(tc, t + 1, files) &&
		       !strcmp(figure_of(t + 1)->head, f->head))
			n++, t++;
		fprintf(out, "<th colspan=\"%d\">%s</th>", 2 * n, f->head);
	}
}

/* The three header rows. */
static void header(FILE *out, const struct tcols *tc)
{
	fputs("<thead>\n<tr><th rowspan=\"3\">Name</th>"
	      "<th rowspan=\"3\">Size</th>",
	      out);
	if (tc->conc)
		fputs("<th rowspan=\"3\">Concurrency</th>", out);
	head_cells(out, tc, 0);
	if (tc->files)
		fputs("<th rowspan=\"3\">Files</th>", out);
	head_cells(out, tc, 1);
	fputs("</tr>\n<tr>", out);
	for (int files = 0; files < 2; files++)
		for (enum result_test t = 0; t < RT_COUNT; t++)
			if (in_block(tc, t, files) && shares_head(tc, t))
				fprintf(out, "<th colspan=\"2\">%s</th>",
					figure_of(t)->col);
	fputs("</tr>\n<tr>", out);
	for (int files = 0; files < 2; files++) {
		for (enum result_test t = 0; t < RT_COUNT; t++) {
			enum result_kind k = result_test_kind(t);

			if (!in_block(tc, t, files))
				continue;
			fprintf(out,
				"<th class=\"unit\">%s</th>"
				"<th class=\"unit\">%%CP</th>",
				k == RK_IO		      ? "K/sec"
				: k == RK_SEEK || k == RK_OPS ? "/sec"
							      : "files/sec");
		}
	}
	fputs("</tr>\n</thead>\n", out);
}

/* The table's columns: name, size, [concurrency,] [files] and a pair
 * per figure shown. */
static int ncols(const struct tcols *tc)
{
	int n = 2 + tc->conc + tc->files;

	for (int t = 0; t < RT_COUNT; t++)
		n += 2 * (figure_bonnie((enum result_test)t) &&
			  (tc->shown >> t & 1u));
	return n;
}

/* " title=\"...\"" when there is one. */
static void title_attr(FILE *out, const char *title)
{
	if (!title[0])
		return;
	fputs(" title=\"", out);
	html_esc(out, title);
	fputc('"', out);
}

/* One figure's cells of a row; sc NULL: unshaded. */
typedef void html_cell_fn(FILE *out, const struct hcell *h,
			  struct html_scale sc[HC_COUNT][RT_COUNT],
			  enum result_test t, enum report_palette pal);

/* The rate and %CP cells of figure t. */
static void rate_cell(FILE *out, const struct hcell *h,
		      struct html_scale sc[HC_COUNT][RT_COUNT],
		      enum result_test t, enum report_palette pal)
{
	char bg[64];

	shade(bg, sizeof(bg), sc ? &sc[HC_RATE][t] : NULL, h, HC_RATE, pal);
	fprintf(out, "<td%s", bg);
	title_attr(out, h->title[HC_RATE]);
	fputc('>', out);
	html_esc(out, h->c.text);
	shade(bg, sizeof(bg), sc ? &sc[HC_CPU][t] : NULL, h, HC_CPU, pal);
	fprintf(out, "</td><td%s", bg);
	title_attr(out, h->title[HC_CPU]);
	fputc('>', out);
	html_esc(out, h->c.cpu_text);
	fputs("</td>", out);
}

/* The latency of c; with its percentiles under it when it has them. */
void html_lat_pcts(FILE *out, const struct csv_cell *c)
{
	static const char *const name[] = {"p50", "p90", "p99", "p99.9"};
	const uint64_t ns[] = {c->p50_ns, c->p90_ns, c->p99_ns, c->p999_ns};

	if (c->has_pct && c->lat_text[0])
		fputs("max&nbsp;", out);
	html_esc(out, c->lat_text);
	if (!c->has_pct)
		return;
	fputs("<div class=\"pct\">", out);
	for (int i = 0; i < 4; i++) {
		fputs(i ? "<br>" : "", out);
		pct(out, name[i], ns[i]);
	}
	fputs("</div>", out);
}

/* The latency cell of figure t, spanning its two columns. */
static void latency_cell(FILE *out, const struct hcell *h,
			 struct html_scale sc[HC_COUNT][RT_COUNT],
			 enum result_test t, enum report_palette pal)
{
	char bg[64];

	shade(bg, sizeof(bg), sc ? &sc[HC_LAT][t] : NULL, h, HC_LAT, pal);
	fprintf(out, "<td colspan=\"2\"%s", bg);
	title_attr(out, h->title[HC_LAT]);
	fputc('>', out);
	html_lat_pcts(out, &h->c);
	fputs("</td>", out);
}

/* cell() of each figure of the I/O block (files 0) or the file block. */
static void block_cells(FILE *out, const struct hrow *r, const struct tcols *tc,
			int files, struct html_scale sc[HC_COUNT][RT_COUNT],
			enum report_palette pal, html_cell_fn *cell)
{
	for (int t = 0; t < RT_COUNT; t++)
		if (in_block(tc, (enum result_test)t, files))
			cell(out, &r->c[t], sc, (enum result_test)t, pal);
}

static void row(FILE *out, const struct hrow *h, const struct tcols *tc,
		struct html_scale sc[HC_COUNT][RT_COUNT],
		enum report_palette pal)
{
	const struct run_result *r = h->r;
	char label[CSV_TEXT_MAX * 5 + 8];
	int lat = has_latency(h);

	fprintf(out, "<tr><td class=\"name\" rowspan=\"%d\">", lat ? 2 : 1);
	html_esc(out, r->name);
	fputs("<div class=\"ver\">", out);
	/* A 1.03 line has no version field. */
	html_esc(out, r->version[0] ? r->version : "1.03 format");
	if (h->nruns > 1)
		fprintf(out, "<br>mean of %zu runs", h->nruns);
	fputs("</div></td><td class=\"label\">", out);
	report_io_label(r, TABLE_200, label, sizeof(label));
	html_esc(out, label);
	fputs("</td>", out);
	if (tc->conc) {
		fputs("<td class=\"label\">", out);
		html_esc(out, r->text.concurrency);
		fputs("</td>", out);
	}
	block_cells(out, h, tc, 0, sc, pal, rate_cell);
	if (tc->files) {
		fputs("<td class=\"label\">", out);
		report_file_label(r, label, sizeof(label));
		html_esc(out, label);
		fputs("</td>", out);
	}
	block_cells(out, h, tc, 1, sc, pal, rate_cell);
	fputs("</tr>\n", out);
	if (!lat)
		return;
	fprintf(out, "<tr class=\"lat\"><td class=\"label\"%s>Latency</td>",
		tc->conc ? " colspan=\"2\"" : "");
	block_cells(out, h, tc, 0, sc, pal, latency_cell);
	if (tc->files)
		fputs("<td class=\"label\">Latency</td>", out);
	block_cells(out, h, tc, 1, sc, pal, latency_cell);
	fputs("</tr>\n", out);
}

/* The row of each run of side g, unshaded, in a <details> under its
 * means; h: scratch. */
static void runs(FILE *out, const struct report_set *set,
		 const struct report_group *g, const struct tcols *tc,
		 enum report_palette pal, struct hrow *h)
{
	fprintf(out,
		"<tr class=\"runs\"><td colspan=\"%d\"><details><summary>"
		"%zu runs</summary>\n<table>\n",
		ncols(tc), g->n);
	header(out, tc);
	fputs("<tbody>\n", out);
	for (size_t i = 0; i < g->n; i++) {
		h->r = &set->rows[g->idx[i]].res;
		h->nruns = 1;
		for (int t = 0; t < RT_COUNT; t++)
			html_cell_one(&h->c[t], &h->r->c[t],
				      (enum result_test)t);
		row(out, h, tc, NULL, pal);
	}
	fputs("</tbody>\n</table>\n</details></td></tr>\n", out);
}

/* Whether a column has two distinct figures: then the legend. */
static int any_shaded(struct html_scale sc[HC_COUNT][RT_COUNT])
{
	for (int col = 0; col < HC_COUNT; col++)
		for (int t = 0; t < RT_COUNT; t++)
			if (figure_bonnie(t) && sc[col][t].max > sc[col][t].min)
				return 1;
	return 0;
}

/* What the shades mean, with a swatch of each end. */
static void legend(FILE *out, enum report_palette pal, int compared)
{
	unsigned best = pal == REPORT_PAL_SAFE ? SAFE_BEST : 0x00FF00;
	unsigned worst = pal == REPORT_PAL_SAFE ? SAFE_WORST : 0xFF0000;

	fprintf(out,
		"<p class=\"note\">Shading ranks the shown rows of each "
		"column against each other, from "
		"<span class=\"sw\" style=\"background:#%06X\">best</span> "
		"(%s) to "
		"<span class=\"sw\" style=\"background:#%06X\">worst</span> "
		"(%s): higher rates, lower CPU per unit of work, lower "
		"latency; a side of repeats by its means. A column with "
		"fewer than two distinct figures is not shaded.%s</p>\n",
		best, pal == REPORT_PAL_SAFE ? "darkest blue" : "green", worst,
		pal == REPORT_PAL_SAFE ? "palest blue" : "red",
		compared ? " A shade does not say that a difference is beyond "
			   "noise: the verdicts below do."
			 : "");
}

int html_table(FILE *out, const struct html_page *p)
{
	const struct report_set *set = p->set;
	struct hrow *rows = calloc(p->nsides + 1, sizeof(*rows));
	double *x = malloc((set->n + 1) * sizeof(double));
	struct html_scale sc[HC_COUNT][RT_COUNT];
	struct tcols tc;

	if (!rows || !x) {
		free(rows);
		free(x);
		return -ENOMEM;
	}
	for (size_t s = 0; s < p->nsides; s++) {
		const struct report_group *g = &p->sides[s];

		rows[s].r = &set->rows[g->idx[0]].res;
		rows[s].nruns = g->n;
		for (int t = 0; t < RT_COUNT; t++) {
			if (g->n == 1)
				html_cell_one(&rows[s].c[t], &rows[s].r->c[t],
					      (enum result_test)t);
			else
				html_cell_mean(&rows[s].c[t], set, g,
					       (enum result_test)t, x);
		}
	}
	scales_of(rows, p->nsides, sc);
	tcols_of(set, &tc);
	fputs("<table class=\"main\">\n", out);
	header(out, &tc);
	fputs("<tbody>\n", out);
	for (size_t s = 0; s < p->nsides; s++) {
		row(out, &rows[s], &tc, sc, p->o->palette);
		if (p->sides[s].n > 1)
			runs(out, set, &p->sides[s], &tc, p->o->palette,
			     &rows[p->nsides]);
	}
	fputs("</tbody>\n</table>\n", out);
	if (any_shaded(sc))
		legend(out, p->o->palette, p->nsides > 1);
	free(rows);
	free(x);
	return 0;
}
