/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_html: one self-contained page in the shape of bon_csv2html's:
 * a row per result line (name, size label, the twelve rate and %CP
 * pairs, the file-test label) and under it a row of worst latencies.
 * Rows from clyde's JSON documents also show the latency percentiles.
 *
 * Cells are coloured by bon_csv2html's rule (FORMATS.md): per column,
 * over the values above 0 and only when there are two distinct ones,
 * green = 255 * (v - min) / (max - min), red = 255 - green. Rates are
 * greener when higher; %CP is compared as CPU per unit of work (%CP
 * divided by the rate), so a faster row is not marked down for the CPU
 * its speed costs; latencies are greener when lower.
 *
 * The columns are bonnie++'s figures, with the registry's headings
 * (figures.h); a figure bonnie++ has no column for is not on the page.
 *
 * The page carries its style inline and names no outside resource, so
 * it can be mailed or archived alone. Units are what the figures are:
 * I/O in KiB/s, seeks and file tests per second (bon_csv2html 2.00
 * labels per-char KiB/s "M/sec"). The output holds no time or path, so
 * the same input always gives the same bytes.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "report.h"
#include "units.h"

/* What a column's colour is taken from. */
enum html_col { HC_RATE, HC_CPU, HC_LAT, HC_COUNT };

/* The range of one column over all rows. */
struct html_scale {
	double min, max;
	int n; /* values seen */
};

/* The value a cell is coloured by, or 0 when it is not coloured. */
static double cell_value(const struct csv_cell *c, enum html_col col)
{
	switch (col) {
	case HC_RATE:
		return c->state == CSV_VALUE && c->rate > 0 ? c->rate : 0;
	case HC_CPU:
		if (c->state != CSV_VALUE || c->cpu <= 0 || !(c->rate > 0))
			return 0;
		return c->cpu / c->rate;
	case HC_LAT:
	default:
		return (double)c->lat_ns;
	}
}

static void scales_of(const struct report_set *set,
		      struct html_scale sc[HC_COUNT][RT_COUNT])
{
	memset(sc, 0, sizeof(struct html_scale) * HC_COUNT * RT_COUNT);
	for (size_t i = 0; i < set->n; i++) {
		for (int col = 0; col < HC_COUNT; col++) {
			for (int t = 0; t < RT_COUNT; t++) {
				struct html_scale *s = &sc[col][t];
				double v = cell_value(&set->rows[i].res.c[t],
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

/*
 * The background attribute of a cell, or "" when it is not coloured:
 * no figure, or a column with fewer than two distinct figures.
 */
static void colour(char *buf, size_t len, const struct html_scale *s,
		   const struct csv_cell *c, enum html_col col)
{
	double v = cell_value(c, col), frac;
	long green;

	buf[0] = '\0';
	if (!(v > 0) || !(s->max > s->min))
		return;
	frac = (v - s->min) / (s->max - s->min);
	if (col != HC_RATE)
		frac = 1 - frac;
	green = lround(255 * frac);
	snprintf(buf, len, " style=\"background:#%02lX%02lX00\"", 255 - green,
		 green);
}

/* Text with the five characters that mean something in HTML escaped. */
static void esc(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			/* Control characters are not allowed in HTML text. */
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				fputs("&#xFFFD;", out);
			else
				fputc(*s, out);
		}
	}
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
	esc(out, buf);
}

/* Figure t is in the I/O block (files 0) or file block (1). */
static int in_block(enum result_test t, int files)
{
	return figure_bonnie(t) && figure_is_file(t) == files;
}

static int has_latency(const struct run_result *r)
{
	for (int t = 0; t < RT_COUNT; t++)
		if (figure_bonnie(t) && r->c[t].lat_text[0])
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

static const char style[] =
    "<style>\n"
    "body{font-family:sans-serif;color:#000;background:#fff;margin:1em}\n"
    "h1{font-size:140%}\n"
    "table{border-collapse:collapse;font-size:80%}\n"
    "th,td{border:1px solid #888;padding:1px 4px;white-space:nowrap}\n"
    "th{background:#ccffff;text-align:center}\n"
    "th.unit{font-weight:normal;font-style:italic;font-size:85%}\n"
    "td{text-align:right}\n"
    "td.name{background:#cccfff;text-align:left;font-weight:bold;"
    "vertical-align:top}\n"
    "td.label{background:#eeeeff;text-align:center}\n"
    "tr.lat td{font-size:90%;vertical-align:top}\n"
    ".ver{font-weight:normal;font-size:80%}\n"
    ".pct{font-size:85%;line-height:1.15}\n"
    "p.note{font-size:85%;max-width:60em}\n"
    "</style>\n";

static const char more_style[] =
    "<style>\n"
    "h2{font-size:115%}\n"
    "td.more{text-align:left;vertical-align:top}\n"
    "</style>\n";

/* Any row with a figure bonnie++ does not have (the More figures). */
static int any_more(const struct report_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		for (int t = 0; t < RT_COUNT; t++)
			if (!figure_bonnie(t) &&
			    set->rows[i].res.c[t].state != CSV_EMPTY)
				return 1;
	return 0;
}

/* Whether figure t shares its heading with a neighbour of its block. */
static int shares_head(enum result_test t)
{
	int files = figure_is_file(t);
	const char *head = figure_of(t)->head;

	return (t > 0 && in_block(t - 1, files) &&
		!strcmp(figure_of(t - 1)->head, head)) ||
	       (t + 1 < RT_COUNT && in_block(t + 1, files) &&
		!strcmp(figure_of(t + 1)->head, head));
}

/* The top header cells of a block: one per heading; a heading over one
 * figure takes the second row too ("Random<br>Seeks"). */
static void head_cells(FILE *out, int files)
{
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct figure *f = figure_of(t);
		int n = 1;

		if (!in_block(t, files))
			continue;
		if (!shares_head(t)) {
			fprintf(out,
				"<th colspan=\"2\" rowspan=\"2\">%s<br>%s</th>",
				f->head, f->col);
			continue;
		}
		while (t + 1 < RT_COUNT && in_block(t + 1, files) &&
		       !strcmp(figure_of(t + 1)->head, f->head))
			n++, t++;
		fprintf(out, "<th colspan=\"%d\">%s</th>", 2 * n, f->head);
	}
}

/* The three header rows; conc adds a concurrency column. */
static void header(FILE *out, int conc)
{
	fputs("<thead>\n<tr><th rowspan=\"3\">Name</th>"
	      "<th rowspan=\"3\">Size</th>",
	      out);
	if (conc)
		fputs("<th rowspan=\"3\">Concurrency</th>", out);
	head_cells(out, 0);
	fputs("<th rowspan=\"3\">Files</th>", out);
	head_cells(out, 1);
	fputs("</tr>\n<tr>", out);
	for (int files = 0; files < 2; files++)
		for (enum result_test t = 0; t < RT_COUNT; t++)
			if (in_block(t, files) && shares_head(t))
				fprintf(out, "<th colspan=\"2\">%s</th>",
					figure_of(t)->col);
	fputs("</tr>\n<tr>", out);
	for (int files = 0; files < 2; files++) {
		for (enum result_test t = 0; t < RT_COUNT; t++) {
			enum result_kind k = result_test_kind(t);

			if (!in_block(t, files))
				continue;
			fprintf(out,
				"<th class=\"unit\">%s</th>"
				"<th class=\"unit\">%%CP</th>",
				k == RK_IO			  ? "K/sec"
				: k == RK_SEEK || k == RK_OPS ? "/sec"
							      : "files/sec");
		}
	}
	fputs("</tr>\n</thead>\n", out);
}

/* One figure's cells of a row, in the colours of its column. */
typedef void html_cell_fn(FILE *out, const struct csv_cell *c,
			  enum result_test t,
			  struct html_scale sc[HC_COUNT][RT_COUNT]);

/* The rate and %CP cells of figure t. */
static void rate_cell(FILE *out, const struct csv_cell *c, enum result_test t,
		      struct html_scale sc[HC_COUNT][RT_COUNT])
{
	char bg[64];

	colour(bg, sizeof(bg), &sc[HC_RATE][t], c, HC_RATE);
	fprintf(out, "<td%s", bg);
	/* JSON knows what a "+++++" test measured: say so. */
	if (c->state == CSV_FAST && c->exact_rate)
		fprintf(out, " title=\"measured %.0f %s\"", c->rate,
			result_rate_unit(result_test_kind(t)));
	fputc('>', out);
	esc(out, c->text);
	colour(bg, sizeof(bg), &sc[HC_CPU][t], c, HC_CPU);
	fprintf(out, "</td><td%s>", bg);
	esc(out, c->cpu_text);
	fputs("</td>", out);
}

/* The latency of c; with its percentiles under it when it has them. */
static void lat_pcts(FILE *out, const struct csv_cell *c)
{
	static const char *const name[] = {"p50", "p90", "p99", "p99.9"};
	const uint64_t ns[] = {c->p50_ns, c->p90_ns, c->p99_ns, c->p999_ns};

	if (c->has_pct && c->lat_text[0])
		fputs("max&nbsp;", out);
	esc(out, c->lat_text);
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
static void latency_cell(FILE *out, const struct csv_cell *c,
			 enum result_test t,
			 struct html_scale sc[HC_COUNT][RT_COUNT])
{
	char bg[64];

	colour(bg, sizeof(bg), &sc[HC_LAT][t], c, HC_LAT);
	fprintf(out, "<td colspan=\"2\"%s>", bg);
	lat_pcts(out, c);
	fputs("</td>", out);
}

/* cell() of each figure of the I/O block (files 0) or the file block. */
static void block_cells(FILE *out, const struct run_result *r, int files,
			struct html_scale sc[HC_COUNT][RT_COUNT],
			html_cell_fn *cell)
{
	for (int t = 0; t < RT_COUNT; t++)
		if (in_block((enum result_test)t, files))
			cell(out, &r->c[t], (enum result_test)t, sc);
}

static void row(FILE *out, const struct run_result *r, int conc,
		struct html_scale sc[HC_COUNT][RT_COUNT])
{
	char label[CSV_TEXT_MAX * 5 + 8];
	int lat = has_latency(r);

	fprintf(out, "<tr><td class=\"name\" rowspan=\"%d\">", lat ? 2 : 1);
	esc(out, r->name);
	fputs("<div class=\"ver\">", out);
	/* A 1.03 line has no version field. */
	esc(out, r->version[0] ? r->version : "1.03 format");
	fputs("</div></td><td class=\"label\">", out);
	report_io_label(r, TABLE_200, label, sizeof(label));
	esc(out, label);
	fputs("</td>", out);
	if (conc) {
		fputs("<td class=\"label\">", out);
		esc(out, r->text.concurrency);
		fputs("</td>", out);
	}
	block_cells(out, r, 0, sc, rate_cell);
	fputs("<td class=\"label\">", out);
	report_file_label(r, label, sizeof(label));
	esc(out, label);
	fputs("</td>", out);
	block_cells(out, r, 1, sc, rate_cell);
	fputs("</tr>\n", out);
	if (!lat)
		return;
	fprintf(out, "<tr class=\"lat\"><td class=\"label\"%s>Latency</td>",
		conc ? " colspan=\"2\"" : "");
	block_cells(out, r, 0, sc, latency_cell);
	fputs("<td class=\"label\">Latency</td>", out);
	block_cells(out, r, 1, sc, latency_cell);
	fputs("</tr>\n", out);
}

/*
 * clyde's figures that bonnie++ does not have (random I/O at a depth,
 * synchronous writes), a row per run and figure, as the text table's
 * "More figures" section; nothing when no row has one.
 */
static void more_table(FILE *out, const struct report_set *set)
{
	int head = 0;

	for (size_t i = 0; i < set->n; i++) {
		const struct run_result *r = &set->rows[i].res;

		for (int t = 0; t < RT_COUNT; t++) {
			const struct csv_cell *c = &r->c[t];

			if (figure_bonnie(t) || c->state == CSV_EMPTY)
				continue;
			if (!head)
				fputs("<h2>More figures</h2>\n<table>\n<thead>"
				      "<tr><th>Name</th><th>Test</th><th>Rate</th>"
				      "<th>%CP</th><th>Latency</th><th>KiB/s</th>"
				      "<th>Settings</th></tr>\n</thead>\n"
				      "<tbody>\n",
				      out);
			head = 1;
			fputs("<tr><td class=\"name\">", out);
			esc(out, r->name);
			fputs("</td><td class=\"label\">", out);
			esc(out, figure_of((enum result_test)t)->title);
			fputs("</td><td>", out);
			esc(out, c->text);
			fprintf(out, " %s</td><td>",
				result_rate_unit(result_test_kind(t)));
			esc(out, c->cpu_text);
			fputs("</td><td class=\"more\">", out);
			lat_pcts(out, c);
			fputs("</td><td>", out);
			if (c->bandwidth > 0)
				fprintf(out, "%.0f", c->bandwidth / 1024);
			fputs("</td><td class=\"label\">", out);
			esc(out, c->how);
			fputs("</td></tr>\n", out);
		}
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

int report_html(FILE *out, const struct report_set *set,
		const struct report_opts *o, FILE *err)
{
	struct html_scale sc[HC_COUNT][RT_COUNT];
	const char *title = o->title ? o->title : "clyde-report";
	int conc = any_concurrency(set);

	(void)err;
	scales_of(set, sc);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"clyde-report " PACKAGE_VERSION
	      "\">\n<title>",
	      out);
	esc(out, title);
	/* The More figures table's rules only where it is, so that a page
	 * of bonnie++'s lines stays as it was. */
	fprintf(out, "</title>\n%s%s</head>\n<body>\n<h1>", style,
		any_more(set) ? more_style : "");
	esc(out, title);
	fputs("</h1>\n<table>\n", out);
	header(out, conc);
	fputs("<tbody>\n", out);
	for (size_t i = 0; i < set->n; i++)
		row(out, &set->rows[i].res, conc, sc);
	fputs("</tbody>\n</table>\n", out);
	more_table(out, set);
	fputs("<p class=\"note\">"
	      "K/sec: KiB per second; /sec: seeks or files per second; "
	      "%CP: CPU time as a share of the elapsed time; "
	      "+++++: the test took under 0.5 s, too little to time; "
	      "Latency: the slowest single operation.",
	      out);
	if (any_pct(set))
		fputs(" p50, p90, p99, p99.9: latency percentiles over all "
		      "operations (from clyde JSON results).",
		      out);
	fputs("</p>\n", out);
	report_per_char_rows_note(out, set, esc, "<p class=\"note\">",
				  "</p>\n");
	fputs("<p class=\"note\">"
	      "Colours compare the rows of each column, green the best "
	      "and red the worst: higher rates, lower CPU per unit of work, "
	      "lower latency. A column with fewer than two distinct "
	      "figures is not coloured.</p>\n</body>\n</html>\n",
	      out);
	return 0;
}
