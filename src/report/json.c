/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_json: every row out as one clyde JSON document, the schema
 * clyde writes (doc/clyde-json.5). A run read from a clyde document is
 * written as it was read, histograms, CPU split and all; a CSV line
 * becomes a run of what the line holds: its csv key is the line as a
 * 1.98 line with the fields as written, each test has its status and,
 * where the line gave them, rate, %CP and worst latency, and the keys
 * a line cannot give (work, elapsed, user, sys, latency, histogram,
 * cache_left) are absent or null. The program, machine, target and
 * settings are the input document's when all rows come from one clyde
 * document, else null; so is its summary when the rows are all of its
 * runs, else the summary is computed from the rows' rates, as clyde
 * computes its own (result_summary).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "jput.h"
#include "jsonput.h"
#include "report.h"

/* The 1.98 line of a row, without its newline; NULL without memory. */
static char *row_line(const struct run_result *row)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	csv_write_row(f, row);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}

/* A test of a CSV line: what its fields say, no more. */
static json_t *line_test(const struct csv_cell *c, enum result_test t)
{
	enum result_kind k = result_test_kind(t);
	json_t *o = json_object();
	int bad = 0;

	jp_put(o, "status",
	       json_string(c->state == CSV_VALUE  ? "ok"
			   : c->state == CSV_FAST ? "too-fast"
						  : "skipped"),
	       &bad);
	if (c->state == CSV_EMPTY)
		return jp_done(o, bad);
	if (c->state == CSV_VALUE)
		jp_put(o, "rate", json_real(c->rate), &bad);
	jp_put(o, "rate_unit", json_string(result_rate_unit(k)), &bad);
	if (c->cpu >= 0)
		jp_put(o, "cpu_percent", json_integer(c->cpu), &bad);
	if (c->lat_text[0])
		jp_put(o, "max_latency_ns", json_integer((json_int_t)c->lat_ns),
		       &bad);
	return jp_done(o, bad);
}

/* The seed field when it is a whole number, else null. */
static json_t *line_seed(const char *text)
{
	char *end;
	unsigned long long v;

	if (!*text || strspn(text, "0123456789") != strlen(text))
		return json_null();
	v = strtoull(text, &end, 10);
	if (v > (unsigned long long)INT64_MAX)
		return json_null();
	return json_integer((json_int_t)v);
}

/* A run of a CSV line; NULL without memory. */
static json_t *line_run(const struct run_result *row)
{
	json_t *o = json_object(), *tests = json_object();
	char *line = row_line(row);
	int bad = 0;

	if (!o || !tests || !line) {
		json_decref(o);
		json_decref(tests);
		free(line);
		return NULL;
	}
	jp_put(o, "seed", line_seed(row->text.seed), &bad);
	jp_put(o, "cache_left", json_null(), &bad);
	jp_put(o, "error", json_null(), &bad);
	jp_put(o, "csv", json_string(line), &bad);
	free(line);
	/* A line holds no figure of another program (extfig.h). */
	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (!(figure_of(t)->flags & FIGF_OTHER) ||
		    row->c[t].state != CSV_EMPTY)
			jp_put(tests, result_test_name(t),
			       line_test(&row->c[t], t), &bad);
	jp_put(o, "tests", tests, &bad);
	return jp_done(o, bad);
}

/* Whether the rows are the runs of one document, all of them. */
static int one_doc(const struct report_set *set)
{
	return set->head && set->njson == 1 && set->ncsv == 0 &&
	       set->dropped == 0;
}

/* The keys before runs: the one input document's, or null. */
static json_t *doc_head(const struct report_set *set)
{
	static const char *const keys[] = {"start_time", "host", "kernel",
					   "target", "settings"};
	json_t *doc = set->head && set->njson == 1 && set->ncsv == 0
			  ? json_deep_copy(set->head)
			  : json_object();
	int bad = 0;

	if (!doc)
		return NULL;
	/* Made again after the runs, or taken whole (one_doc). */
	json_object_del(doc, "summary");
	jp_put(doc, "schema_version", json_integer(JSON_SCHEMA_VERSION), &bad);
	if (!json_object_get(doc, "program"))
		jp_put(doc, "program", json_string("clyde"), &bad);
	if (!json_object_get(doc, "version"))
		jp_put(doc, "version", json_string(PACKAGE_VERSION), &bad);
	jp_put(doc, "converted_by",
	       json_string("clyde-report " PACKAGE_VERSION), &bad);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!json_object_get(doc, keys[k]))
			jp_put(doc, keys[k], json_null(), &bad);
	return jp_done(doc, bad);
}

/*
 * The input document's summary when the rows are all its runs, else one
 * of every row's rates, as clyde's -x summary takes them; NULL: no
 * memory.
 */
static json_t *summary(const struct report_set *set)
{
	double(*rate)[RT_COUNT];
	json_t *o = one_doc(set) ? json_object_get(set->head, "summary") : NULL;

	if (o)
		return json_deep_copy(o);
	rate = calloc(set->n, sizeof(*rate));
	if (!rate)
		return NULL;
	for (size_t i = 0; i < set->n; i++)
		for (enum result_test t = 0; t < RT_COUNT; t++)
			rate[i][t] = report_rate(&set->rows[i].res.c[t]);
	o = json_summary((unsigned)set->n, (const double(*)[RT_COUNT])rate);
	free(rate);
	return o;
}

int report_json_failed(FILE *out, int e, FILE *err)
{
	if (out == stdout)
		return cli_stdout_failed(e);
	error_on(err, "json: the document could not be written: %s",
		 strerror(e));
	return CLI_EXIT_FAILED;
}

int report_json(FILE *out, const struct report_set *set,
		const struct report_opts *o, FILE *err)
{
	json_t *doc = doc_head(set), *runs = json_array(), *sum = NULL;
	int status = CLI_EXIT_FAILED, bad = 0;

	(void)o;
	if (!doc || !runs)
		goto done;
	for (size_t i = 0; i < set->n; i++) {
		const struct report_row *r = &set->rows[i];
		json_t *run = r->run ? json_incref(r->run) : line_run(&r->res);

		jp_append(runs, run, &bad);
		if (bad)
			goto done;
	}
	jp_put(doc, "runs", json_incref(runs), &bad);
	sum = summary(set);
	jp_put(doc, "summary", sum, &bad);
	if (bad)
		goto done;
	status = jp_write(doc, out, JSON_REAL_PRECISION(10))
		     ? report_json_failed(out, errno, err)
		     : 0;
	json_decref(runs);
	json_decref(doc);
	return status;
done:
	error_on(err, "json: out of memory");
	json_decref(runs);
	json_decref(doc);
	return status;
}
