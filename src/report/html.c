/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_html: one self-contained page an engineer reads at a glance.
 * In order: the notes that warn of unlike rows ranked side by side
 * (per-char figures of two meanings, rows of several machines or
 * setups), bon_csv2html's table with each side's repeats collapsed to
 * their means and shaded per column (html_table.c, html_mean.c), the
 * figures bonnie++ has no column for, the charts (inline SVG, svg.c,
 * svg_time.c, svg_steady.c), and with two sides or more compare's
 * verdicts and the settings that differ between the sides (html_cmp.c).
 *
 * The page carries its style inline and names no outside resource, so
 * it can be mailed or archived alone; it holds no script. All text is
 * 12px or larger. Units are what the figures are: I/O in KiB/s (printed
 * as txt prints them, "134m"), seeks and file tests per second
 * (bon_csv2html 2.00 labels per-char KiB/s "M/sec"). The output holds
 * no time or path, so the same input always gives the same bytes.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "svg.h"

static const char html_style[] =
    "<style>\n"
    "body{font-family:sans-serif;font-size:14px;color:#000;"
    "background:#fff;margin:1em}\n"
    "h1{font-size:22px}\n"
    "h2{font-size:18px;margin-top:1.2em}\n"
    "h3{font-size:15px}\n"
    "table{border-collapse:collapse;font-size:13px}\n"
    "th,td{border:1px solid #888;padding:2px 5px;white-space:nowrap}\n"
    "th{background:#ccffff;text-align:center}\n"
    "th.unit{font-weight:normal;font-style:italic;font-size:12px}\n"
    "td{text-align:right}\n"
    "td.name{background:#cccfff;text-align:left;font-weight:bold;"
    "vertical-align:top}\n"
    "td.label{background:#eeeeff;text-align:center}\n"
    "td.more{text-align:left;vertical-align:top}\n"
    "tr.lat td{font-size:12px;vertical-align:top}\n"
    "tr.runs>td{text-align:left;padding:2px 0 6px 1.5em}\n"
    "summary{font-size:13px}\n"
    ".ver{font-weight:normal;font-size:12px}\n"
    ".pct{font-size:12px;line-height:1.2}\n"
    ".sw{padding:0 6px;border:1px solid #888}\n"
    "p.note{font-size:13px;max-width:70em}\n"
    "p.warn{font-size:14px;max-width:70em;border-left:5px solid #E69F00;"
    "padding-left:6px}\n"
    "td.better{background:#CFE2F3;font-weight:bold}\n"
    "td.worse{background:#FDD9A0;font-weight:bold}\n"
    "div.panels{display:flex;flex-wrap:wrap;gap:8px 16px;"
    "align-items:flex-start}\n"
    "svg text{font-family:sans-serif}\n"
    "</style>\n";

/* Under the More figures table: each side's figures of another
 * program against what they are measured against (the means of its
 * runs), as compare says them. */
static void ratios(FILE *out, const struct html_page *p)
{
	char ratio[200];

	for (size_t s = 0; s < p->nsides; s++) {
		const struct report_group *g = &p->sides[s];

		for (enum result_test t = 0; t < RT_COUNT; t++) {
			if (!report_ratio(p->set, g->idx, g->n, t, ratio,
					  sizeof(ratio)))
				continue;
			fprintf(out, "<p class=\"note %s\">",
				figure_of(t)->tag);
			html_esc(out, g->name);
			if (g->n > 1)
				fprintf(out, " (mean of %zu runs)", g->n);
			fputs(": ", out);
			html_esc(out, ratio);
			fputs("</p>\n", out);
		}
	}
}

/* Whether any run of side g has figure t. */
static int side_has(const struct report_set *set, const struct report_group *g,
		    enum result_test t)
{
	for (size_t i = 0; i < g->n; i++)
		if (set->rows[g->idx[i]].res.c[t].state != CSV_EMPTY)
			return 1;
	return 0;
}

/* The mean of the bandwidths of side g's runs of figure t, KiB/s (0
 * when none has one). */
static double side_bandwidth(const struct report_set *set,
			     const struct report_group *g, enum result_test t)
{
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < g->n; i++) {
		double b = set->rows[g->idx[i]].res.c[t].bandwidth;

		if (b > 0) {
			sum += b;
			n++;
		}
	}
	return n ? sum / (double)n / 1024 : 0;
}

/* A cell's opening tag of class cls ("" for none), with the exact
 * figures in its title, as the table's. */
static void cell_open(FILE *out, const char *cls, const char *title)
{
	fputs("<td", out);
	if (cls[0])
		fprintf(out, " class=\"%s\"", cls);
	if (title[0]) {
		fputs(" title=\"", out);
		html_esc(out, title);
		fputc('"', out);
	}
	fputc('>', out);
}

/* A cell of text, and unit after it when not NULL. */
static void more_cell(FILE *out, const char *title, const char *text,
		      const char *unit)
{
	cell_open(out, "", title);
	html_esc(out, text);
	if (text[0] && unit)
		fprintf(out, " %s", unit);
	fputs("</td>", out);
}

/*
 * The figures bonnie++ does not have (random I/O at a depth, synchronous
 * writes, other programs' figures), as the text table's "More figures"
 * section: a row per side and figure, a side of repeats as the table
 * shows it, the means of its runs (+- the half-width of the 95% CI; the
 * runs' own figures are the Random I/O section's); nothing when no row
 * has one. x: set->n doubles.
 */
static void more_table(FILE *out, const struct html_page *p, double *x)
{
	const struct report_set *set = p->set;
	int head = 0;

	for (size_t s = 0; s < p->nsides; s++) {
		const struct report_group *g = &p->sides[s];
		const struct run_result *r = &set->rows[g->idx[0]].res;

		for (int t = 0; t < RT_COUNT; t++) {
			enum result_test rt = (enum result_test)t;
			enum result_kind kind = result_test_kind(rt);
			struct hcell h;
			double bw;

			if (figure_bonnie(rt) || !side_has(set, g, rt))
				continue;
			if (!head)
				fputs(
				    "<h2>More figures</h2>\n<table>\n<thead>"
				    "<tr><th>Name</th><th>Test</th><th>Rate</"
				    "th>"
				    "<th>%CP</th><th>Latency</th><th>KiB/s</th>"
				    "<th>Settings</th></tr>\n</thead>\n"
				    "<tbody>\n",
				    out);
			head = 1;
			if (g->n == 1) {
				/* The line's own texts. */
				memset(&h, 0, sizeof(h));
				h.c = r->c[t];
			} else {
				html_cell_mean(&h, set, g, rt, x);
			}
			fputs("<tr><td class=\"name\">", out);
			html_esc(out, r->name);
			if (g->n > 1)
				fprintf(out,
					"<div class=\"ver\">mean of %zu "
					"runs</div>",
					g->n);
			fputs("</td><td class=\"label\">", out);
			html_esc(out, figure_of(rt)->title);
			fputs("</td>", out);
			/* A mean I/O rate is in txt's units ("134m");
			 * "+++++" has none. */
			more_cell(out, h.title[HC_RATE], h.c.text,
				  h.c.state != CSV_VALUE ||
					  (g->n > 1 && kind == RK_IO)
				      ? NULL
				      : result_rate_unit(kind));
			more_cell(out, h.title[HC_CPU], h.c.cpu_text, NULL);
			cell_open(out, "more", h.title[HC_LAT]);
			html_lat_pcts(out, &h.c);
			fputs("</td><td>", out);
			bw = side_bandwidth(set, g, rt);
			if (bw > 0)
				fprintf(out, "%.0f", bw);
			fputs("</td><td class=\"label\">", out);
			html_esc(out, r->c[t].how);
			fputs("</td></tr>\n", out);
		}
	}
	if (head)
		fputs("</tbody>\n</table>\n", out);
	ratios(out, p);
}

/* The write-cache cliff of each figure that looked for one, as the
 * text table's "Write cache" section; nothing when none did. */
static void cliff_table(FILE *out, const struct report_set *set)
{
	const double mib = 1048576.0;
	int head = 0;

	for (size_t i = 0; i < set->n; i++)
		for (int t = 0; t < RT_COUNT; t++) {
			const struct result_test_rec *rec =
			    &set->rows[i].res.t[t];
			const struct cliff *c = &rec->cliff;

			if (rec->state != RS_OK || !c->looked)
				continue;
			if (!head++)
				fputs("<h2>Write cache</h2>\n<table "
				      "class=\"cliff\">\n<thead><tr><th>Name"
				      "</th><th>Test</th><th>Burst MiB/s</th>"
				      "<th>Sustained MiB/s</th><th>Absorbed "
				      "MiB</th><th>Drop at</th></tr>\n"
				      "</thead>\n<tbody>\n",
				      out);
			fputs("<tr><td class=\"name\">", out);
			html_esc(out, set->rows[i].res.name);
			fputs("</td><td class=\"label\">", out);
			html_esc(out, figure_of((enum result_test)t)->title);
			if (c->found) {
				fprintf(out,
					"</td><td>%.1f</td><td>%.1f</td>"
					"<td>%.1f</td><td>%.2f s</td></tr>\n",
					c->burst / mib, c->sustained / mib,
					c->absorbed / mib, c->drop_s);
				continue;
			}
			fputs("</td><td class=\"label\" colspan=\"4\">no "
			      "cliff: ",
			      out);
			html_esc(out, c->why);
			fputs("</td></tr>\n", out);
		}
	if (head)
		fputs("</tbody>\n</table>\n", out);
}

static int any_pct(const struct report_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		for (int t = 0; t < RT_COUNT; t++)
			if (figure_bonnie(t) && set->rows[i].res.c[t].has_pct)
				return 1;
	return 0;
}

/* Where a row was run: its document's host, else (a CSV line) its
 * name, which bonnie++ sets to the machine's. */
static const char *machine_of(const struct report_row *r)
{
	json_t *h = r->head ? json_object_get(r->head, "host") : NULL;

	return json_is_string(h) ? json_string_value(h) : r->res.name;
}

/*
 * One line above the table when its rows come from more than one
 * machine or setup (by host, or name for a CSV line): the shading
 * ranks them against each other all the same.
 */
static void machines_note(FILE *out, const struct report_set *set)
{
	const char *seen[6];
	size_t n = 0;
	int more = 0;

	for (size_t i = 0; i < set->n; i++) {
		const char *m = machine_of(&set->rows[i]);
		size_t k;

		for (k = 0; k < n && strcmp(seen[k], m); k++)
			;
		if (k < n)
			continue;
		if (n == sizeof(seen) / sizeof(seen[0])) {
			more = 1;
			break;
		}
		seen[n++] = m;
	}
	if (n < 2)
		return;
	fputs("<p class=\"warn\">These rows come from different machines "
	      "or setups (by host, or by name for a CSV line): ",
	      out);
	for (size_t k = 0; k < n; k++) {
		fputs(k ? ", " : "", out);
		html_esc(out, seen[k]);
	}
	fputs(more ? " and others" : "", out);
	fputs("; the shading ranks them against each other, not each "
	      "against its own figures.</p>\n",
	      out);
}

/*
 * The charts of the sides, between the table and the compare section:
 * the bars of every figure (svg.c), then throughput over time where a
 * JSON run has intervals (svg_time.c), then the rounds of each test run
 * until steady (svg_steady.c); all inline SVG, so the page stays one
 * file.
 */
static int charts(FILE *out, const struct report_set *set,
		  const struct report_opts *o)
{
	/* A write error stays on the stream, whose close names the file;
	 * only memory is this function's to report. */
	if (report_svg_bars(out, set, o->alpha) < 0 ||
	    report_svg_over_time(out, set) < 0 ||
	    report_svg_steady(out, set) < 0)
		return errno == ENOMEM ? -ENOMEM : 0;
	return 0;
}

/* The notes under the table: units and signs. */
static void units_note(FILE *out, const struct report_set *set)
{
	fputs("<p class=\"note\">"
	      "K/sec: KiB per second (k, m, g: KiB, MiB, GiB per second; "
	      "the exact figure is the cell's title); /sec: seeks or files "
	      "per second; %CP: CPU time as a share of the elapsed time; "
	      "+++++: the test took under 0.5 s, too little to time; "
	      "Latency: the slowest single operation; ±: the half-width of "
	      "the 95% confidence interval of a mean of repeats.",
	      out);
	if (any_pct(set))
		fputs(" p50, p90, p99, p99.9: latency percentiles over all "
		      "operations (from clyde JSON results).",
		      out);
	fputs("</p>\n", out);
}

void html_head(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"clyde-report " PACKAGE_VERSION
	      "\">\n<title>",
	      out);
	html_esc(out, title);
	fprintf(out, "</title>\n%s</head>\n<body>\n<h1>", html_style);
	html_esc(out, title);
	fputs("</h1>\n", out);
}

int report_html(FILE *out, const struct report_set *set, const size_t *inputs,
		size_t ninputs, const struct report_opts *o, FILE *err)
{
	const char *title = o->title ? o->title : "clyde-report";
	struct html_page p = {set, o, NULL, 0};
	double *x;
	int status = 0;

	/* Standard input is one input. */
	p.nsides = report_sides(set, inputs, ninputs ? ninputs : 1, &p.sides);
	if (p.nsides == (size_t)-1) {
		error_on(err, "html: out of memory");
		return CLI_EXIT_FAILED;
	}
	html_head(out, title);
	/* Unlike rows side by side: said before they are read. */
	report_per_char_rows_note(out, set, html_esc, "<p class=\"warn\">",
				  "</p>\n");
	machines_note(out, set);
	if (html_table(out, &p) < 0)
		status = CLI_EXIT_FAILED;
	x = status ? NULL : malloc((set->n + 1) * sizeof(double));
	if (!x)
		status = CLI_EXIT_FAILED;
	if (!status) {
		more_table(out, &p, x);
		cliff_table(out, set);
		html_io(out, set);
		units_note(out, set);
		/* The charts: after the tables, before the comparison. */
		if (charts(out, set, o) < 0 || html_compare(out, &p) < 0 ||
		    html_settings(out, &p) < 0)
			status = CLI_EXIT_FAILED;
	}
	if (status)
		error_on(err, "html: out of memory");
	else
		fputs("</body>\n</html>\n", out);
	report_groups_free(p.sides, p.nsides);
	free(x);
	return status;
}
