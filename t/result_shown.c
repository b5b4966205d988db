/* SPDX-License-Identifier: GPL-2.0-or-later */
/* result_shown: see result_shown.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "json.h"
#include "result_shown.h"

int csv_shown(struct run_result *r)
{
	struct run_result *line = malloc(sizeof(*line));
	char *buf = NULL, why[200];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ok = f && line;

	if (f) {
		csv_write(f, r, CSV_198);
		ok &= fclose(f) == 0;
	}
	ok = ok && csv_parse(buf, len, line, why, sizeof(why)) == CSV_LINE_ROW;
	free(buf);
	r->fmt = CSV_198;
	memset(&r->text, 0, sizeof(r->text));
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		struct csv_cell *c = &r->c[t], of;

		csv_cell_set(c, result_test_kind(t), CSV_EMPTY, 0, -1, 0);
		if (!ok)
			continue;
		*c = line->c[t];
		if (r->t[t].state != RS_OK && figure_bonnie(t))
			continue;
		csv_cell_of(r, t, &of);
		/* What no line holds comes straight from the result; the
		 * line's cells get the exact rate and the percentiles. */
		if (!figure_bonnie(t)) {
			*c = of;
			continue;
		}
		c->exact_rate = of.exact_rate;
		c->rate = of.rate;
		c->has_pct = of.has_pct;
		c->p50_ns = of.p50_ns;
		c->p90_ns = of.p90_ns;
		c->p99_ns = of.p99_ns;
		c->p999_ns = of.p999_ns;
	}
	if (ok)
		r->text = line->text;
	free(line);
	return ok ? 0 : -1;
}

void table_print(FILE *out, const struct run_result *r,
		 enum table_layout layout)
{
	table_print_rows(out, &r, 1, layout, NULL);
}

int json_read_rows(const char *buf, size_t len, struct run_result **rows,
		   void (*bad_run)(void *ctx, const char *why), void *ctx,
		   char *why, size_t whylen, int *line)
{
	return json_read_doc(buf, len, 0, rows, NULL, bad_run, ctx, why, whylen,
			     line);
}
