/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_read: see json.h; reading a clyde document back into run_results
 * (json_read_doc). A document is checked as strictly as a CSV line: every
 * value the renderers could show is of the type and range
 * doc/clyde-json.5 gives it, else the run is refused with its key and
 * value named. This file reads the document, its runs and the cells of
 * each test; json_measured.c what a run measured and its settings.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "json.h"
#include "json_impl.h"

/* "runs[0].tests.putc.rate \"x\" is not a rate: <expected>"; -1. */
int json_refuse(char *why, size_t whylen, const char *key, json_t *v,
		const char *what)
{
	char show[64];

	json_value_shown(v, show, sizeof(show));
	snprintf(why, whylen, "%s %s is not %s", key, show, what);
	return -1;
}

/* A whole number from 0 to max. */
int json_whole(json_t *v, json_int_t max)
{
	return json_is_integer(v) && json_integer_value(v) >= 0 &&
	       json_integer_value(v) <= max;
}

/* A number from 0 to max. */
int json_number(json_t *v, double max)
{
	double d = json_number_value(v);

	return json_is_number(v) && d >= 0 && d <= max;
}

int json_check_key(json_t *o, const char *at, const char *name, int whole,
		   double max, const char *what, char *why, size_t whylen)
{
	json_t *v = json_object_get(o, name);
	char key[200];

	if (!v ||
	    (whole ? json_whole(v, (json_int_t)max) : json_number(v, max)))
		return 0;
	snprintf(key, sizeof(key), "%.150s.%s", at, name);
	return json_refuse(why, whylen, key, v, what);
}

#define STR_(x) #x
#define STR(x)	STR_(x)

/* The latency keys: the percentiles first, which are read and so must
 * be there when anything was counted. */
static const char *const latency_keys[] = {"p50_ns",   "p90_ns", "p99_ns",
					   "p99_9_ns", "min_ns", "max_ns"};
#define NLATENCY_KEYS (sizeof(latency_keys) / sizeof(latency_keys[0]))
#define NPERCENTILES  4

#define NOT_A_LATENCY                                                          \
	"a latency: expected a whole number of nanoseconds from 0 to 1e18"

/*
 * A test's latency object: count, min, mean, the percentiles and max.
 * The percentiles, which are read, must be there when anything was
 * counted.
 */
int json_check_latency(json_t *lat, const char *at, char *why, size_t whylen)
{
	char key[200];
	json_t *count = json_object_get(lat, "count"), *v;

	if (!json_is_object(lat))
		return json_refuse(why, whylen, at, lat, "an object");
	snprintf(key, sizeof(key), "%.150s.count", at);
	if (!count) {
		snprintf(why, whylen, "%s has no count", at);
		return -1;
	}
	if (!json_whole(count, JSON_READ_MAX))
		return json_refuse(why, whylen, key, count,
				   "a count: expected a whole number from 0 to "
				   "1e18");
	for (size_t k = 0; k < NLATENCY_KEYS; k++) {
		v = json_object_get(lat, latency_keys[k]);
		snprintf(key, sizeof(key), "%.150s.%s", at, latency_keys[k]);
		if (!v && k < NPERCENTILES && json_integer_value(count) > 0) {
			snprintf(why, whylen, "%s has no %s", at,
				 latency_keys[k]);
			return -1;
		}
		if (v && !json_whole(v, JSON_READ_MAX))
			return json_refuse(why, whylen, key, v, NOT_A_LATENCY);
	}
	return json_check_key(lat, at, "mean_ns", 0, JSON_READ_MAX,
			      "a latency: expected a number of nanoseconds "
			      "from 0 to 1e18",
			      why, whylen);
}

int json_read_how(json_t *o, const char *at, char *how, char *why,
		  size_t whylen)
{
	json_t *v = json_object_get(o, "how");
	char key[200];

	if (!v)
		return 0;
	if (json_is_string(v) && json_string_length(v) < RESULT_HOW_MAX) {
		if (how)
			snprintf(how, RESULT_HOW_MAX, "%s",
				 json_string_value(v));
		return 0;
	}
	snprintf(key, sizeof(key), "%.150s.how", at);
	return json_refuse(why, whylen, key, v,
			   "the settings: expected a string of fewer than " STR(
			       RESULT_HOW_MAX) " bytes");
}

/* One test object of a run; at is its key ("runs[0].tests.putc"). */
static int check_test(json_t *o, const char *at, char *why, size_t whylen)
{
	static const char *const states[] = {"ok", "too-fast", "skipped",
					     "failed"};
	char key[200];
	json_t *v;
	int known = 0;

	if (!json_is_object(o))
		return json_refuse(why, whylen, at, o, "an object");
	v = json_object_get(o, "status");
	for (size_t k = 0; k < 4 && json_is_string(v); k++)
		known |= !strcmp(json_string_value(v), states[k]);
	snprintf(key, sizeof(key), "%.150s.status", at);
	if (v && !known)
		return json_refuse(why, whylen, key, v,
				   "a status: expected \"ok\", \"too-fast\", "
				   "\"skipped\" or \"failed\"");
	/* %CP as clyde writes it: an int, past 100000 for a too-fast test. */
	if (json_check_key(o, at, "rate", 0, JSON_READ_MAX,
			   "a rate: expected a number from 0 to 1e18", why,
			   whylen) < 0 ||
	    json_check_key(o, at, "cpu_percent", 1, INT_MAX,
			   "a %CP: expected a whole number from 0 to "
			   "2147483647",
			   why, whylen) < 0 ||
	    json_check_key(o, at, "max_latency_ns", 1, JSON_READ_MAX,
			   NOT_A_LATENCY, why, whylen) < 0 ||
	    json_check_key(o, at, "bandwidth", 0, JSON_READ_MAX,
			   "a bandwidth: expected bytes/s from 0 to 1e18", why,
			   whylen) < 0 ||
	    json_read_how(o, at, NULL, why, whylen) < 0)
		return -1;
	v = json_object_get(o, "latency");
	snprintf(key, sizeof(key), "%.150s.latency", at);
	if (v && json_check_latency(v, key, why, whylen) < 0)
		return -1;
	return 0;
}

int json_read_test(json_t *o, const char *at, int hist,
		   struct result_test_rec *rec, char *why, size_t whylen)
{
	if (check_test(o, at, why, whylen) < 0)
		return -1;
	return json_read_measured(o, at, hist, NULL, rec, why, whylen);
}

/*
 * The cell of a figure bonnie++'s line does not carry, from its test
 * object (checked): as the line would have it if it had a field.
 */
static void cell_of_test(json_t *o, enum result_test t,
			 const struct result_test_rec *rec, struct csv_cell *c)
{
	const char *status = json_string_value(json_object_get(o, "status"));
	json_t *rate = json_object_get(o, "rate");
	json_t *cpu = json_object_get(o, "cpu_percent");
	json_t *lat = json_object_get(o, "max_latency_ns");
	enum csv_cell_state state = CSV_EMPTY;

	if (status && rate && !strcmp(status, "ok"))
		state = CSV_VALUE;
	else if (status && rate && !strcmp(status, "too-fast"))
		state = CSV_FAST;
	csv_cell_set(c, result_test_kind(t), state, json_number_value(rate),
		     cpu ? (int)json_integer_value(cpu) : -1,
		     (uint64_t)json_integer_value(lat));
	c->bandwidth = json_number_value(json_object_get(o, "bandwidth"));
	/* The same key as the record's (json_read_measured). */
	c->how = rec->how;
}

/* The percentiles of a test's latency object into c (checked). */
static void cell_percentiles(json_t *lat, struct csv_cell *c)
{
	if (!lat || !json_integer_value(json_object_get(lat, "count")))
		return;
	c->has_pct = 1;
	c->p50_ns =
	    (uint64_t)json_integer_value(json_object_get(lat, "p50_ns"));
	c->p90_ns =
	    (uint64_t)json_integer_value(json_object_get(lat, "p90_ns"));
	c->p99_ns =
	    (uint64_t)json_integer_value(json_object_get(lat, "p99_ns"));
	c->p999_ns =
	    (uint64_t)json_integer_value(json_object_get(lat, "p99_9_ns"));
}

/*
 * The tests of run i, checked, then their exact rates and percentiles
 * put into the cells of the tests its line says ran, the cells of the
 * figures no line holds, and what each test measured.
 */
static int read_tests(json_t *tests, struct run_result *row, size_t run,
		      int hist, const struct json_thin *thin, char *why,
		      size_t whylen)
{
	char at[120];

	if (!tests)
		return 0;
	snprintf(at, sizeof(at), "runs[%zu].tests", run);
	if (!json_is_object(tests))
		return json_refuse(why, whylen, at, tests, "an object");
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		json_t *o = json_object_get(tests, result_test_name(t));
		json_t *rate;
		struct csv_cell *c = &row->c[t];

		if (!o)
			continue;
		snprintf(at, sizeof(at), "runs[%zu].tests.%s", run,
			 result_test_name(t));
		if (check_test(o, at, why, whylen) < 0 ||
		    json_read_measured(o, at, hist, thin, &row->t[t], why,
				       whylen) < 0)
			return -1;
		rate = json_object_get(o, "rate");
		/* A figure no line holds: the cell is what the test says. */
		if (!figure_bonnie(t))
			cell_of_test(o, t, &row->t[t], c);
		if (c->state == CSV_EMPTY || !rate)
			continue;
		c->rate = json_number_value(rate);
		c->exact_rate = 1;
		cell_percentiles(json_object_get(o, "latency"), c);
	}
	return 0;
}

/* One run into row (settings from the document's); 0, or -1 with why. */
static int read_run(json_t *doc, json_t *run, size_t i, int hist,
		    const struct json_thin *thin, struct run_result *row,
		    char *why, size_t whylen)
{
	const char *csv = json_string_value(json_object_get(run, "csv"));
	char cwhy[300];

	if (!csv) {
		snprintf(why, whylen, "runs[%zu] has no csv line", i);
		return -1;
	}
	switch (csv_parse(csv, strlen(csv), row, cwhy, sizeof(cwhy))) {
	case CSV_LINE_ROW:
		break;
	case CSV_LINE_BAD:
		snprintf(why, whylen, "runs[%zu].csv: %s", i, cwhy);
		return -1;
	default:
		/* csv_parse says nothing of a header or blank. */
		snprintf(why, whylen, "runs[%zu].csv is not a result line", i);
		return -1;
	}
	if (result_measure(row) < 0) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	row->measured = 1;
	if (json_read_settings(doc, row, why, whylen) < 0 ||
	    json_read_run_keys(run, i, row, why, whylen) < 0)
		return -1;
	return read_tests(json_object_get(run, "tests"), row, i, hist, thin,
			  why, whylen);
}

/* Whether doc is a clyde (or clyde-pgscan) result of the schema this
 * reader knows. */
static int check_doc(json_t *doc, char *why, size_t whylen)
{
	json_t *runs = json_object_get(doc, "runs");
	json_t *v = json_object_get(doc, "schema_version");
	json_t *prog = json_object_get(doc, "program");
	char show[64];

	if (!json_is_object(doc) || !json_is_array(runs)) {
		snprintf(why, whylen,
			 "a JSON document without a runs array: "
			 "not a clyde result");
		return -1;
	}
	if (!v) {
		snprintf(why, whylen,
			 "no schema_version: not a clyde result document "
			 "(clyde writes \"schema_version\": %d)",
			 JSON_SCHEMA_VERSION);
		return -1;
	}
	if (json_schema_is(v, JSON_SCHEMA_VERSION, why, whylen) < 0)
		return -1;
	/* clyde's, or clyde-pgscan's: clyde's document with its scans. */
	if (prog && (!json_is_string(prog) ||
		     (strcmp(json_string_value(prog), "clyde") &&
		      strcmp(json_string_value(prog), "clyde-pgscan")))) {
		json_value_shown(prog, show, sizeof(show));
		snprintf(why, whylen, "program %s: not a clyde result document",
			 show);
		return -1;
	}
	if (json_array_size(runs) > JSON_RUNS_MAX) {
		snprintf(why, whylen,
			 "a runs array of %zu elements: clyde writes at most "
			 "%d",
			 json_array_size(runs), JSON_RUNS_MAX);
		return -1;
	}
	return 0;
}

/* Free n results and the array. */
static void free_rows(struct run_result *rows, size_t n)
{
	for (size_t k = 0; k < n && rows; k++)
		result_free(&rows[k]);
	free(rows);
}

/* A copy of doc without its runs, the keys in doc's order; NULL without
 * memory. Not a copy of the whole, runs and all: a document's intervals
 * may be most of it. */
static json_t *head_of(json_t *doc)
{
	json_t *head = json_object(), *v;
	const char *key;

	json_object_foreach(doc, key, v)
	{
		if (!strcmp(key, "runs"))
			continue;
		if (!head || json_object_set_new(head, key, json_deep_copy(v)))
			goto fail;
	}
	return head;
fail:
	json_decref(head);
	return NULL;
}

/* By row, then in the text's order. */
static int cmp_text(const void *a, const void *b)
{
	const struct json_text *x = a, *y = b;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

/* The texts of thin's logs in the runs kept (row_of[run]: its row, or
 * SIZE_MAX when left out) into *texts: 0, or -1 without memory. */
static int texts_of(const struct json_thin *thin, const size_t *row_of,
		    size_t nruns, struct json_text **texts, size_t *ntexts)
{
	size_t n = 0;

	*texts = calloc(thin->n ? thin->n : 1, sizeof(**texts));
	if (!*texts)
		return -1;
	for (size_t i = 0; i < thin->n; i++) {
		const struct json_thin_log *l = &thin->logs[i];

		if (l->run < nruns && row_of[l->run] != SIZE_MAX)
			(*texts)[n++] = (struct json_text){
			    row_of[l->run], l->test, l->from, l->to};
	}
	if (n > 1)
		qsort(*texts, n, sizeof(**texts), cmp_text);
	*ntexts = n;
	return 0;
}

int json_read_doc(const char *buf, size_t len, unsigned flags,
		  struct run_result **rows, json_t **head,
		  void (*bad_run)(void *ctx, const char *why), void *ctx,
		  char *why, size_t whylen, int *line)
{
	return json_read_doc_texts(buf, len, flags, rows, NULL, head, NULL,
				   NULL, bad_run, ctx, why, whylen, line);
}

int json_read_doc_texts(const char *buf, size_t len, unsigned flags,
			struct run_result **rows, json_t ***runs_out,
			json_t **head, struct json_text **texts, size_t *ntexts,
			void (*bad_run)(void *ctx, const char *why), void *ctx,
			char *why, size_t whylen, int *line)
{
	json_error_t err;
	struct json_thin thin = {0};
	json_t *doc = json_thin_load(buf, len, &thin, &err), *runs, *run;
	struct run_result *out = NULL;
	json_t **kept = NULL;
	size_t i, nruns = 0, *row_of = NULL;
	int n = 0;

	*rows = NULL;
	*line = 0;
	if (runs_out)
		*runs_out = NULL;
	if (head)
		*head = NULL;
	if (texts) {
		*texts = NULL;
		*ntexts = 0;
	}
	if (!doc) {
		*line = err.line > 0 ? err.line : 0;
		snprintf(why, whylen, "not a JSON document: %s", err.text);
		return -1;
	}
	if (check_doc(doc, why, whylen) < 0)
		goto fail;
	runs = json_object_get(doc, "runs");
	nruns = json_array_size(runs);
	out = calloc(nruns ? nruns : 1, sizeof(*out));
	if (runs_out)
		kept = calloc(nruns ? nruns : 1, sizeof(*kept));
	if (head)
		*head = head_of(doc);
	if (texts)
		row_of = malloc((nruns ? nruns : 1) * sizeof(*row_of));
	if (!out || (runs_out && !kept) || (head && !*head) ||
	    (texts && !row_of)) {
		snprintf(why, whylen, "out of memory");
		goto fail;
	}
	json_array_foreach(runs, i, run)
	{
		if (row_of)
			row_of[i] = SIZE_MAX;
		if (read_run(doc, run, i, flags & JSON_READ_HIST, &thin,
			     &out[n], why, whylen) == 0) {
			if (kept)
				kept[n] = json_incref(run);
			if (row_of)
				row_of[i] = (size_t)n;
			n++;
			continue;
		}
		result_free(&out[n]);
		memset(&out[n], 0, sizeof(out[n]));
		if (!bad_run || !strcmp(why, "out of memory"))
			goto fail;
		bad_run(ctx, why);
	}
	if (texts && texts_of(&thin, row_of, nruns, texts, ntexts) < 0) {
		snprintf(why, whylen, "out of memory");
		goto fail;
	}
	free(row_of);
	json_decref(doc);
	json_thin_free(&thin);
	*rows = out;
	if (runs_out)
		*runs_out = kept;
	return n;
fail:
	free(row_of);
	for (int k = 0; k < n && kept; k++)
		json_decref(kept[k]);
	free(kept);
	if (head) {
		json_decref(*head);
		*head = NULL;
	}
	free_rows(out, (size_t)n);
	json_decref(doc);
	json_thin_free(&thin);
	return -1;
}
