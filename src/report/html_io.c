/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html_io: the page's Random I/O section, the text table's (table_io.c)
 * as HTML: per run and random-I/O figure, its response and service
 * times, its reads and writes apart when it did both, and an offered
 * rate's schedule. Nothing when no row has them.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "html.h"
#include "table.h"
#include "units.h"

struct html_io {
	FILE *out;
	const char *name;
	int head;
};

static void io_head(struct html_io *x)
{
	if (x->head)
		return;
	fputs("<h2>Random I/O</h2>\n<table>\n<thead><tr><th>Name</th>"
	      "<th>Test</th><th>Part</th><th>IOPS</th><th>p50</th>"
	      "<th>p99</th><th>p99.9</th><th>max</th></tr>\n</thead>\n"
	      "<tbody>\n",
	      x->out);
	x->head = 1;
}

/* The cells every row starts with: the run, the test, the part. */
static void io_start(struct html_io *x, enum result_test t, const char *part)
{
	io_head(x);
	fputs("<tr><td class=\"name\">", x->out);
	html_esc(x->out, x->name);
	fputs("</td><td class=\"label\">", x->out);
	html_esc(x->out, figure_of(t)->title);
	fputs("</td><td class=\"label\">", x->out);
	html_esc(x->out, part);
	fputs("</td>", x->out);
}

static void io_row(void *arg, enum result_test t, const char *part, double iops,
		   const uint64_t v[4])
{
	struct html_io *x = arg;
	char cell[32];

	io_start(x, t, part);
	if (iops >= 0)
		fprintf(x->out, "<td>%.1f</td>", iops);
	else
		fputs("<td></td>", x->out);
	for (unsigned k = 0; k < 4; k++) {
		cell[0] = 0;
		if (v[k])
			units_fmt_latency(cell, sizeof(cell), v[k]);
		fprintf(x->out, "<td>%s</td>", cell);
	}
	fputs("</tr>\n", x->out);
}

static void io_sched(void *arg, enum result_test t,
		     const struct result_sched *s)
{
	struct html_io *x = arg;
	char what[160];

	io_start(x, t, "offered");
	table_io_sched_text(what, sizeof(what), s);
	fprintf(x->out, "<td>%llu</td><td class=\"more\" colspan=\"4\">",
		(unsigned long long)s->rate);
	html_esc(x->out, what);
	fputs("</td></tr>\n", x->out);
}

void html_io(FILE *out, const struct report_set *set)
{
	static const struct table_io_sink sink = {io_row, io_sched};
	struct html_io x = {.out = out};

	for (size_t i = 0; i < set->n; i++) {
		x.name = set->rows[i].res.name;
		table_io_walk(&set->rows[i].res, set->rows[i].res.c, &sink, &x);
	}
	if (x.head)
		fputs("</tbody>\n</table>\n", out);
}
