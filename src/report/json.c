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
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

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

/* The dump's flags, as clyde writes its reals. */
#define DUMP_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(10))
/* What stands for a row's intervals array in the dump: a control
 * character and a number drawn for the run, which no document holds;
 * jansson writes the character as \u0001. */
#define MARK	    "\001clyde-intervals %lx %zu"
#define MARK_DUMPED "\"\\u0001clyde-intervals %lx "

/* One of the arrays written from their text. */
struct mark {
	const struct report_row *row;
	const struct json_text *t;
};

/* n spaces on out. */
static void indent(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

/*
 * The array of text t (row->text[t->from, t->to)) on out as the dump of
 * the whole document would have it at depth d: each element parsed and
 * written alone, so that none but one is ever held. 0, or -1 (not
 * parsed, or no memory).
 */
static int write_array(FILE *out, const char *buf, const struct json_text *t,
		       size_t d)
{
	size_t p = t->from + 1;
	int first = 1;

	fputc('[', out);
	for (;;) {
		json_error_t err;
		json_t *e;
		char *s;

		while (p < t->to && strchr(" \t\r\n,", buf[p]))
			p++;
		if (p >= t->to || buf[p] == ']')
			break;
		e = json_loadb(buf + p, t->to - p,
			       JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY, &err);
		if (!e)
			return -1;
		p += (size_t)err.position;
		s = json_dumps(e, DUMP_FLAGS | JSON_ENCODE_ANY);
		json_decref(e);
		if (!s)
			return -1;
		fputs(first ? "\n" : ",\n", out);
		indent(out, d + 1);
		for (const char *c = s; *c; c++) {
			fputc(*c, out);
			if (*c == '\n')
				indent(out, d + 1);
		}
		free(s);
		first = 0;
	}
	fputc('\n', out);
	indent(out, d);
	fputc(']', out);
	return 0;
}

/*
 * doc on out, each row's intervals arrays written from their texts
 * (marks[], nmarks of them, stood for in doc by MARK strings): the dump
 * of doc without them, with each mark replaced. 0, or -1 with errno.
 */
static int write_marked(FILE *out, json_t *doc, const struct mark *marks,
			size_t nmarks, unsigned long nonce)
{
	char *dump = json_dumps(doc, DUMP_FLAGS), pre[64];
	const char *at = dump, *m;
	size_t plen;
	int rc = 0;

	if (!dump) {
		errno = ENOMEM;
		return -1;
	}
	plen = (size_t)snprintf(pre, sizeof(pre), MARK_DUMPED, nonce);
	while (rc == 0 && (m = strstr(at, pre)) != NULL) {
		const char *line = m, *end;
		size_t k = strtoul(m + plen, (char **)&end, 10), d = 0;

		if (k >= nmarks || *end != '"') {
			errno = EINVAL;
			rc = -1;
			break;
		}
		while (line > dump && line[-1] != '\n')
			line--;
		while (line[d] == ' ')
			d++;
		fwrite(at, 1, (size_t)(m - at), out);
		if (write_array(out, marks[k].row->text, marks[k].t, d) < 0) {
			errno = ENOMEM;
			rc = -1;
		}
		at = end + 1;
	}
	if (rc == 0)
		fputs(at, out);
	free(dump);
	if (rc == 0 &&
	    (fputc('\n', out) == EOF || fflush(out) == EOF || ferror(out))) {
		if (!errno)
			errno = EIO;
		rc = -1;
	}
	return rc;
}

/* Each row's intervals arrays read from their texts (report_row.texts)
 * stood for in its run by a mark, into *marks (malloc'd, *n of them).
 * 0, or -1 without memory. */
static int mark_rows(const struct report_set *set, unsigned long nonce,
		     struct mark **marks, size_t *n)
{
	size_t total = 0, k = 0;
	char text[64];

	for (size_t i = 0; i < set->n; i++)
		total += set->rows[i].run ? set->rows[i].ntexts : 0;
	*n = 0;
	*marks = NULL;
	if (!total)
		return 0;
	if (!(*marks = calloc(total, sizeof(**marks))))
		return -1;
	for (size_t i = 0; i < set->n; i++) {
		const struct report_row *r = &set->rows[i];
		json_t *tests = json_object_get(r->run, "tests");

		for (size_t j = 0; r->run && j < r->ntexts; j++) {
			json_t *test = json_object_get(
			    tests, result_test_name(r->texts[j].test));

			snprintf(text, sizeof(text), MARK, nonce, k);
			if (!json_is_object(test) ||
			    json_object_set_new(test, "intervals",
						json_string(text)))
				return -1;
			(*marks)[k++] = (struct mark){r, &r->texts[j]};
		}
	}
	*n = k;
	return 0;
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
	/* What makes the marks this run's own: drawn, so that no document
	 * can hold one. */
	unsigned long nonce = 0;
	struct mark *marks = NULL;
	size_t nmarks = 0;

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
	if (getrandom(&nonce, sizeof(nonce), 0) != (ssize_t)sizeof(nonce))
		nonce =
		    (unsigned long)getpid() ^ ((unsigned long)time(NULL) << 20);
	if (bad || mark_rows(set, nonce, &marks, &nmarks) < 0)
		goto done;
	if (nmarks)
		status = write_marked(out, doc, marks, nmarks, nonce)
			     ? report_json_failed(out, errno, err)
			     : 0;
	else
		status = jp_write(doc, out, JSON_REAL_PRECISION(10))
			     ? report_json_failed(out, errno, err)
			     : 0;
	free(marks);
	json_decref(runs);
	json_decref(doc);
	return status;
done:
	free(marks);
	error_on(err, "json: out of memory");
	json_decref(runs);
	json_decref(doc);
	return status;
}
