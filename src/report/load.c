/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_load: the inputs of clyde-report made into one list of rows.
 * A file's bytes are CSV lines of any bonnie++ format or a clyde JSON
 * document (a clyde-zcav or clyde-sweep document is docs.c's); what is
 * wrong with a line is said once, with the file and line, and either
 * stops the load or (skip_bad) is a warning. Kept apart from main so the
 * fuzz target (contrib/fuzz) runs the same code.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return p;
	while (c < need)
		c *= 2;
	q = realloc(p, c * size);
	if (q)
		*cap = c;
	return q;
}

static int add_row(struct report_set *set, const struct run_result *row,
		   json_t *run, const char *name, int line, FILE *err)
{
	struct report_row *rows;

	if (set->n >= REPORT_ROWS_MAX) {
		error_on(err, "%s:%d: more than %d result lines in all", name,
			 line, REPORT_ROWS_MAX);
		return -1;
	}
	rows = grow(set->rows, &set->cap, set->n + 1, sizeof(*rows));
	if (!rows) {
		error_on(err, "%s: out of memory", name);
		return -1;
	}
	set->rows = rows;
	rows[set->n].res = *row; /* its histograms go with it */
	rows[set->n].file = name;
	rows[set->n].line = line;
	rows[set->n].run = run;
	rows[set->n].head = NULL;
	rows[set->n].text = NULL;
	rows[set->n].texts = NULL;
	rows[set->n].ntexts = 0;
	set->n++;
	return 0;
}

/* Row k's texts (texts[*at...], by row) to row, which holds places in
 * buf then: 0, or -1 after one line. */
static int take_texts(struct report_set *set, struct report_row *row,
		      const char *buf, const struct json_text *texts,
		      size_t ntexts, size_t k, size_t *at, const char *name,
		      FILE *err)
{
	size_t n = 0;

	while (*at + n < ntexts && texts[*at + n].row == k)
		n++;
	if (!n)
		return 0;
	row->texts = malloc(n * sizeof(*row->texts));
	if (!row->texts) {
		error_on(err, "%s: out of memory", name);
		return -1;
	}
	memcpy(row->texts, texts + *at, n * sizeof(*row->texts));
	row->ntexts = n;
	row->text = buf;
	*at += n;
	set->hold_buf = 1;
	return 0;
}

int report_keep_buf(struct report_set *set, char *buf)
{
	char **b;

	if (!set->hold_buf) {
		free(buf);
		return 0;
	}
	set->hold_buf = 0;
	b = realloc(set->bufs, (set->nbufs + 1) * sizeof(*b));
	if (!b) {
		free(buf);
		return -1;
	}
	set->bufs = b;
	set->bufs[set->nbufs++] = buf;
	return 0;
}

/* A JSON document starts with '{' after any white space. */
static int is_json(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '{')
			return 1;
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n' &&
		    buf[i] != '\r')
			return 0;
	}
	return 0;
}

/* Where a bad run of a JSON document is told, with --skip-bad. */
struct bad_ctx {
	const char *name;
	FILE *err;
	size_t *dropped;
};

static void warn_run(void *ctx, const char *why)
{
	const struct bad_ctx *b = ctx;

	(*b->dropped)++;
	warning_on(b->err, "warning: %s:1: %s", b->name, why);
}

/* Count the histograms r holds against REPORT_HISTS_MAX (a random-I/O
 * figure's service and kinds' too, which are always read). */
static int keep_hists(struct report_set *set, const struct run_result *r,
		      const char *name, FILE *err)
{
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct result_test_rec *rec = &r->t[t];

		set->nhist += (rec->lat != NULL) + (rec->svc != NULL) +
			      (rec->kind[RESULT_READS].lat != NULL) +
			      (rec->kind[RESULT_WRITES].lat != NULL);
	}
	if (set->nhist <= REPORT_HISTS_MAX)
		return 0;
	error_on(err, "%s: more than %d latency histograms in all", name,
		 REPORT_HISTS_MAX);
	return -1;
}

/*
 * A document's runs are its lines: a bad run stops the load, or with
 * skip_bad is a warning and the other runs are kept. A document that is
 * no clyde result is one message either way (a warning with skip_bad).
 */
static int load_json(struct report_set *set, const char *name, const char *buf,
		     size_t len, int skip_bad, FILE *err)
{
	struct run_result *rows;
	struct bad_ctx b = {name, err, &set->dropped};
	json_t **runs = NULL, *head = NULL;
	struct json_text *texts = NULL;
	size_t ntexts = 0, at = 0;
	char why[400];
	int line, n, k = 0, bad = 0;

	n = json_read_doc_texts(
	    buf, len, set->keep_hist ? JSON_READ_HIST : 0, &rows,
	    set->keep_runs ? &runs : NULL, set->keep_json ? &head : NULL,
	    set->keep_runs ? &texts : NULL, &ntexts, skip_bad ? warn_run : NULL,
	    &b, why, sizeof(why), &line);
	if (n < 0) {
		error_on(err, "%s%s:%d: %s", skip_bad ? "warning: " : "", name,
			 line ? line : 1, why);
		return skip_bad ? 0 : -1;
	}
	set->njson++;
	/* The rows take references of their own (below). */
	if (!set->head)
		set->head = json_incref(head);
	for (; k < n; k++) {
		if (keep_hists(set, &rows[k], name, err) < 0 ||
		    add_row(set, &rows[k], runs ? runs[k] : NULL, name, 1,
			    err) < 0)
			break;
		set->rows[set->n - 1].head = json_incref(head);
		/* The row is the set's from here, failed or not. */
		if (take_texts(set, &set->rows[set->n - 1], buf, texts, ntexts,
			       (size_t)k, &at, name, err) < 0) {
			bad = 1;
			k++;
			break;
		}
	}
	free(texts);
	/* The references and histograms not handed to a row. */
	for (int i = k; i < n; i++) {
		if (runs)
			json_decref(runs[i]);
		result_free(&rows[i]);
	}
	free(runs);
	free(rows);
	json_decref(head);
	return bad || k < n ? -1 : 0;
}

int report_load(struct report_set *set, const char *name, const char *buf,
		size_t len, int skip_bad, FILE *err)
{
	struct run_result row;
	size_t pos = 0;
	int line = 0;

	/* Spreadsheets save "CSV UTF-8" with a byte order mark first. */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		buf += 3, len -= 3;
	if (is_json(buf, len)) {
		/* clyde-zcav's, clyde-sweep's, clyde-curve's and a journal
		 * check's documents are docs.c's. */
		int r = report_load_doc(set, name, buf, len, skip_bad, err);

		return r == 1 ? load_json(set, name, buf, len, skip_bad, err)
			      : r;
	}
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;
		char why[400];

		line++;
		switch (
		    csv_parse(buf + pos, end - pos, &row, why, sizeof(why))) {
		case CSV_LINE_ROW:
			if (add_row(set, &row, NULL, name, line, err) < 0)
				return -1;
			set->ncsv++;
			break;
		case CSV_LINE_BAD:
			error_on(err, "%s%s:%d: %s",
				 skip_bad ? "warning: " : "", name, line, why);
			if (!skip_bad)
				return -1;
			break;
		default:
			break;
		}
		pos = end + 1;
	}
	return 0;
}

void report_free(struct report_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		json_decref(set->rows[i].run);
		json_decref(set->rows[i].head);
		free(set->rows[i].texts);
		result_free(&set->rows[i].res);
	}
	for (size_t i = 0; i < set->nbufs; i++)
		free(set->bufs[i]);
	free(set->bufs);
	json_decref(set->head);
	report_docs_free(set);
	free(set->rows);
	memset(set, 0, sizeof(*set));
}

size_t report_group(const struct report_set *set, size_t first, size_t last,
		    struct report_group **groups)
{
	struct report_group *g = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = first; i < last; i++) {
		const char *name = set->rows[i].res.name;
		size_t k;

		for (k = 0; k < n && strcmp(g[k].name, name); k++)
			;
		if (k == n) {
			struct report_group *ng =
			    grow(g, &cap, n + 1, sizeof(*g));

			if (!ng)
				break;
			g = ng;
			g[n].name = name;
			g[n].idx = malloc((last - first) * sizeof(size_t));
			g[n].n = 0;
			if (!g[n].idx)
				break;
			n++;
		}
		g[k].idx[g[k].n++] = i;
	}
	*groups = g;
	return n;
}

void report_groups_free(struct report_group *groups, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(groups[i].idx);
	free(groups);
}

double report_rate(const struct csv_cell *c)
{
	if (c->state == CSV_VALUE || (c->state == CSV_FAST && c->exact_rate))
		return c->rate;
	return NAN;
}

/*
 * "2G::8192:5": size, chunk, seeks and procs, trailing colons dropped,
 * as bon_csv2txt 2.00 joins them; "2G:64k" in the 1.03 layout, which
 * knew only size and chunk.
 */
void report_io_label(const struct run_result *r, enum table_layout layout,
		     char *buf, size_t len)
{
	const struct result_text *x = &r->text;
	const char *fields[4] = {x->size, x->chunk, x->seeks, x->procs};

	result_join_size(buf, len, fields, layout == TABLE_103 ? 2 : 4);
}

/* "16", "4:2000:100/3": num_files[:max][:min][/dirs][:chunk]. */
void report_file_label(const struct run_result *r, char *buf, size_t len)
{
	const struct result_text *x = &r->text;

	result_join_files(buf, len, x->files, x->max_size, x->min_size, x->dirs,
			  x->file_chunk);
}
