/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_curve_html: clyde-curve documents as one self-contained page
 * (html.c's style; no script, no outside resource). The chart: the
 * statistic compared (the baseline's target's, p99 without one) against
 * the achieved IOPS, one line per document (its curve's steps, or each
 * step's mean over its -x curves), on linear axes from 0 (--log-y: the
 * statistic on a log scale), the target as a dashed horizontal line and
 * each document's knee marked on it. On a linear scale the y axis ends
 * at five times the target (without one, at the largest value), so the
 * saturated steps, whose queues grow for as long as they run, do not
 * flatten the rest: a point above it is a triangle on the top edge,
 * its value in its tooltip. Under the chart: each document's maximum and
 * knee, then compare's rows for each document against the first.
 *
 * Elements a test can find: <polyline class="curve" data-series="I">,
 * <line class="target">, <path class="knee" data-series="I">,
 * <path class="over" data-series="I">.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "curve.h"
#include "html.h"

#define W  760.0
#define H  420.0
#define L  78.0 /* room for the y labels */
#define R  40.0
#define T  16.0
#define B  52.0
#define PW (W - L - R)
#define PH (H - T - B)

/* The y scale: ns to the unit shown. */
struct yscale {
	double div; /* ns per unit */
	const char *unit;
	int log;
	double top, bot; /* in units: the axis' ends (log: decades) */
	struct svg_axis a;
};

static double ypos(const struct yscale *ys, double ns)
{
	double v = ns / ys->div;

	if (ys->log) {
		if (v < ys->bot)
			v = ys->bot;
		return T + PH -
		       PH * (log10(v) - log10(ys->bot)) /
			   (log10(ys->top) - log10(ys->bot));
	}
	return T + PH - PH * v / ys->top;
}

static void scale_of(struct yscale *ys, double lo, double hi, double target,
		     int log_y)
{
	double top = hi;

	if (target > 0 && !log_y && top > 5 * target)
		top = 5 * target;
	ys->div = top >= 2e6 ? 1e6 : 1e3;
	ys->unit = ys->div == 1e6 ? "ms" : "us";
	ys->log = log_y;
	if (log_y) {
		double l = lo / ys->div, h = hi / ys->div;

		ys->bot = pow(10, floor(log10(l > 0 ? l : 1e-3)));
		ys->top = pow(10, ceil(log10(h > ys->bot ? h : ys->bot * 10)));
		if (ys->top <= ys->bot)
			ys->top = ys->bot * 10;
		return;
	}
	svg_axis_of(top / ys->div, &ys->a);
	ys->top = ys->a.top;
}

static void y_axis(FILE *out, const struct yscale *ys)
{
	char label[48];

	if (!ys->log) {
		svg_grid(out, L, T, PW, PH, &ys->a, 0);
		return;
	}
	for (double d = ys->bot; d <= ys->top * 1.0001; d *= 10) {
		double gy = ypos(ys, d * ys->div);

		svg_axis_label(label, sizeof(label), d, d);
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#dddddd\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"end\">%s</text>\n",
			L, gy, L + PW, gy, L - 4, gy + 4, label);
	}
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#000000\"/>\n",
		L, T, L, T + PH);
}

static void x_axis(FILE *out, const struct svg_axis *xa)
{
	char label[48];

	for (int i = 0; i <= xa->n; i++) {
		double x = L + PW * i / xa->n;

		svg_axis_label(label, sizeof(label), xa->step * i, xa->step);
		fprintf(out,
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s"
			"</text>\n",
			x, T + PH + 16, label);
	}
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#000000\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
		"text-anchor=\"middle\">achieved IOPS</text>\n",
		L, T + PH, L + PW, T + PH, L + PW / 2, H - 10);
}

/* The chart of lines[n] (one per document). */
static void chart(FILE *out, const struct report_set *set,
		  const struct curve_line *lines, enum curve_stat st,
		  const struct curve_target *target, int log_y)
{
	double xmax = 0, lo = INFINITY, hi = 0;
	struct svg_axis xa;
	struct yscale ys;

	for (size_t i = 0; i < set->ndocs; i++)
		for (unsigned k = 0; k < lines[i].n; k++) {
			xmax = fmax(xmax, lines[i].x[k]);
			if (lines[i].y[k] > 0)
				lo = fmin(lo, lines[i].y[k]);
			hi = fmax(hi, lines[i].y[k]);
		}
	for (size_t i = 0; i < set->ndocs; i++)
		if (isfinite(lines[i].knee))
			xmax = fmax(xmax, lines[i].knee);
	if (target->on) {
		hi = fmax(hi, target->ns * 1.2);
		lo = fmin(lo, (double)target->ns);
	}
	svg_axis_of(xmax > 0 ? xmax : 1, &xa);
	scale_of(&ys, isfinite(lo) ? lo : 1, hi > 0 ? hi : 1,
		 target->on ? (double)target->ns : 0, log_y);
	fprintf(out,
		"<svg class=\"curves\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" "
		"font-size=\"12\">\n",
		W, H, W, H);
	y_axis(out, &ys);
	x_axis(out, &xa);
	fprintf(out,
		"<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 14 %.1f)\">%s response time (%s)%s"
		"</text>\n",
		T + PH / 2, T + PH / 2, curve_stat_name(st), ys.unit,
		ys.log ? ", log scale" : "");
	if (target->on) {
		double ty = ypos(&ys, (double)target->ns);
		char t[64];

		curve_target_text(target, t, sizeof(t));
		fprintf(out,
			"<line class=\"target\" x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\" stroke=\"#D55E00\" "
			"stroke-dasharray=\"6 4\"/>\n<text x=\"%.1f\" "
			"y=\"%.1f\" text-anchor=\"end\" fill=\"#D55E00\">"
			"target: %s</text>\n",
			L, ty, L + PW, ty, L + PW - 4, ty - 5, t);
	}
	for (size_t i = 0; i < set->ndocs; i++) {
		const struct curve_line *l = &lines[i];
		const char *c = svg_palette[i % SVG_COLOURS];

		fprintf(out,
			"<polyline class=\"curve\" data-series=\"%zu\" "
			"fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
			"points=\"",
			i, c);
		for (unsigned k = 0; k < l->n; k++) {
			double y = ypos(&ys, l->y[k]);

			fprintf(out, "%s%.1f,%.1f", k ? " " : "",
				L + PW * l->x[k] / xa.top, y < T ? T : y);
		}
		fputs("\"/>\n", out);
		for (unsigned k = 0; k < l->n; k++) {
			double x = L + PW * l->x[k] / xa.top,
			       y = ypos(&ys, l->y[k]);
			char v[32];

			snprintf(v, sizeof(v), "%.0f IOPS, %.4g %s", l->x[k],
				 l->y[k] / ys.div, ys.unit);
			if (y < T)
				fprintf(
				    out,
				    "<path class=\"over\" data-series="
				    "\"%zu\" d=\"M%.1f,%.1f l-5,9 h10 z\" "
				    "fill=\"%s\"><title>%s</title></path>\n",
				    i, x, T, c, v);
			else
				fprintf(
				    out,
				    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
				    "fill=\"%s\"><title>%s</title>"
				    "</circle>\n",
				    x, y, c, v);
		}
		if (isfinite(l->knee) && target->on) {
			double x = L + PW * l->knee / xa.top,
			       y = ypos(&ys, (double)target->ns);

			fprintf(out,
				"<path class=\"knee\" data-series=\"%zu\" "
				"d=\"M%.1f,%.1f l8,8 l-8,8 l-8,-8 z\" "
				"fill=\"%s\" stroke=\"#000000\"><title>knee: "
				"%.0f IOPS</title></path>\n",
				i, x, y - 8, c, l->knee);
		}
	}
	fputs("</svg>\n", out);
}

static void legend(FILE *out, const struct report_set *set,
		   const struct curve_line *lines)
{
	fputs("<table>\n<tr><th>curve</th><th>file</th><th>curves</th>"
	      "<th>max IOPS</th><th>knee IOPS</th><th>knee % of max</th>"
	      "</tr>\n",
	      out);
	for (size_t i = 0; i < set->ndocs; i++) {
		const struct curve_result *r = set->docs[i].curve;
		double ach[CURVE_REPEATS_MAX], val[CURVE_REPEATS_MAX], max = 0;
		unsigned m =
		    curve_gather(r, 0, CURVE_STEP_MAX, CURVE_P99, ach, val);

		for (unsigned k = 0; k < m; k++)
			max += ach[k] / m;
		fprintf(out,
			"<tr><td class=\"name\"><span class=\"sw\" "
			"style=\"background:%s\">&nbsp;</span> ",
			svg_palette[i % SVG_COLOURS]);
		html_esc(out, r->name);
		fputs("</td><td class=\"more\">", out);
		html_esc(out, set->docs[i].file);
		fprintf(out, "</td><td>%u</td><td>%.0f</td>", r->n, max);
		if (isfinite(lines[i].knee))
			fprintf(out, "<td>%.0f</td><td>%.0f%%</td></tr>\n",
				lines[i].knee,
				max > 0 ? 100 * lines[i].knee / max : 0);
		else
			fputs("<td>-</td><td>-</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static const char *cell_class(const struct verdict *v)
{
	if (!strcmp(v->word, "faster"))
		return " class=\"better\"";
	if (!strcmp(v->word, "slower"))
		return " class=\"worse\"";
	return "";
}

static void compare_table(FILE *out, const struct report_doc *base,
			  const struct report_doc *other, double alpha)
{
	struct curve_cmp_row rows[2 + 2 * CURVE_STEPS_MAX];
	size_t n = report_curve_rows(base->curve, other->curve, alpha, rows,
				     sizeof(rows) / sizeof(rows[0]));
	struct report_tally tally = {{0}};
	char p[16], note[400], line[256];

	fputs("<h3>", out);
	html_esc(out, other->curve->name);
	fputs(" (", out);
	html_esc(out, other->file);
	fputs(") against ", out);
	html_esc(out, base->curve->name);
	fputs(" (", out);
	html_esc(out, base->file);
	fputs(")</h3>\n", out);
	if (report_curve_note(base->curve, other->curve, note, sizeof(note))) {
		fputs("<p class=\"warn\">", out);
		html_esc(out, note);
		fputs("</p>\n", out);
	}
	fputs("<table>\n<tr><th>figure</th><th>unit</th>"
	      "<th>baseline</th><th>this</th><th>change</th><th>p</th>"
	      "<th>verdict</th></tr>\n",
	      out);
	for (size_t i = 0; i < n; i++) {
		const struct curve_cmp_row *r = &rows[i];

		report_fig_p(p, sizeof(p), &r->v);
		fprintf(out, "<tr><td class=\"label\">%s</td><td>%s</td>",
			r->name, r->rate ? "IOPS" : "us");
		fprintf(out, "<td>%.*f", fabs(r->a.mean) < 1000, r->a.mean);
		if (r->a.n > 1)
			fprintf(out, " &plusmn; %.*f", fabs(r->a.mean) < 1000,
				r->a.ci_high - r->a.mean);
		fprintf(out, "</td><td>%.*f", fabs(r->b.mean) < 1000,
			r->b.mean);
		if (r->b.n > 1)
			fprintf(out, " &plusmn; %.*f", fabs(r->b.mean) < 1000,
				r->b.ci_high - r->b.mean);
		fputs("</td>", out);
		if (isfinite(r->change))
			fprintf(out, "<td>%+.1f%%</td>", r->change);
		else
			fputs("<td>-</td>", out);
		fputs("<td>", out);
		html_esc(out, p);
		fprintf(out, "</td><td%s>%s</td></tr>\n", cell_class(&r->v),
			r->v.word);
		report_tally_add(&tally, &r->v);
	}
	report_tally_text(line, sizeof(line), &tally);
	fputs("</table>\n<p class=\"note\">", out);
	html_esc(out, line);
	fprintf(out,
		" A step is each side at its share of its own maximum; a "
		"verdict names a direction only when p &lt; %g.</p>\n",
		alpha);
}

int report_curve_html(FILE *out, const struct report_set *set,
		      const struct report_opts *o, FILE *err)
{
	const char *title = o->title ? o->title : "clyde-report: curves";
	const struct curve_result *base = set->docs[0].curve;
	enum curve_stat st = report_curve_stat(base);
	struct curve_line *lines = calloc(set->ndocs, sizeof(*lines));

	if (!lines) {
		error_on(err, "html: out of memory");
		return CLI_EXIT_FAILED;
	}
	for (size_t i = 0; i < set->ndocs; i++)
		curve_line_of(set->docs[i].curve, st, &lines[i]);
	html_head(out, title);
	fprintf(out,
		"<p class=\"note\">Latency against load: each "
		"line is one clyde-curve document, its %s response time "
		"(from when each I/O was due) at the IOPS each step "
		"achieved%s.</p>\n",
		curve_stat_name(st),
		base->target.on ? "; the dashed line is the target, a diamond "
				  "each knee"
				: "");
	legend(out, set, lines);
	chart(out, set, lines, st, &base->target, o->log_y);
	if (set->ndocs > 1)
		fputs("<h2>Comparison</h2>\n", out);
	for (size_t i = 1; i < set->ndocs; i++)
		compare_table(out, &set->docs[0], &set->docs[i], o->alpha);
	fputs("</body>\n</html>\n", out);
	free(lines);
	if (ferror(out)) {
		error_on(err, "html: the page could not be written");
		return CLI_EXIT_FAILED;
	}
	return 0;
}
