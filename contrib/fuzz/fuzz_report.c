/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_report: clyde-report's input side under libFuzzer. Each input is
 * one file's bytes, loaded as clyde-report loads it (CSV lines, or a
 * JSON document when it starts with '{') with --skip-bad off and on,
 * then rendered as txt in both layouts and grouped as compare and plot
 * group it; with --skip-bad on, the run objects are kept too and the
 * rows written out as one JSON document (clyde-report json), or a
 * clyde-zcav or clyde-sweep document written again. Messages and tables
 * go to /dev/null: what is checked is that
 * no input crashes, reads out of bounds or does undefined arithmetic
 * (built with -fsanitize=fuzzer,address,undefined; see `make fuzz`).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "curve.h"
#include "report.h"

static FILE *sink(void)
{
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w");
	if (!null)
		abort();
	return null;
}

/* What compare and plot ask of every row: groups and rates. */
static void walk(const struct report_set *set)
{
	struct report_group *g;
	size_t n = report_group(set, 0, set->n, &g);
	volatile double sum = 0;

	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < g[k].n; i++)
			for (int t = 0; t < RT_COUNT; t++)
				sum += report_rate(
				    &set->rows[g[k].idx[i]].res.c[t]);
	report_groups_free(g, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_opts o = {.layout = TABLE_200, .alpha = 0.05};
	FILE *null = sink();

	for (int skip_bad = 0; skip_bad < 2; skip_bad++) {
		struct report_set set = {.keep_json = skip_bad};

		/* A failed load keeps the rows read before the bad line. */
		report_load(&set, "fuzz", (const char *)data, size, skip_bad,
			    null);
		o.layout = TABLE_200;
		report_txt(null, &set, &o, null);
		o.layout = TABLE_103;
		report_txt(null, &set, &o, null);
		walk(&set);
		if (set.keep_json && set.ndocs)
			report_docs_json(null, &set, null);
		else if (set.keep_json)
			report_json(null, &set, &o, null);
		/* The page, as main renders it: one input, no documents;
		 * with the settings of its JSON runs (keep_json). */
		if (!set.ndocs && set.n) {
			size_t first = 0;

			o.palette = (enum report_palette)skip_bad;
			report_html(null, &set, &first, 1, &o, null);
		}
		/* A curve document: its page (both scales) and its compare
		 * with itself (a single one is refused). */
		if (report_curves_alone(&set) == 1) {
			o.palette = REPORT_PAL_SAFE;
			o.log_y = skip_bad;
			report_curve_html(null, &set, &o, null);
			report_curve_compare(null, &set, &o, null);
		}
		report_free(&set);
	}
	return 0;
}
