/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json: a run_result as a JSON object (jansson), the pieces of clyde's
 * versioned JSON document (doc/clyde-json.5). Everything a CSV line
 * carries is there, plus what CSV cannot hold: user and system CPU,
 * status, the latency summary and histogram.
 */
#ifndef CLYDE_JSON_H
#define CLYDE_JSON_H

#include <jansson.h>

#include "csv.h"
#include "result.h"

/* The document's schema version; bump it on any incompatible change. */
#define JSON_SCHEMA_VERSION 1

/* One run: seed, cache, error, the 1.98 CSV line and every test clyde
 * measures, with another program's figure (extfig.h) only when r holds
 * it (a run read back from a clyde-pgscan document). */
json_t *json_run(const struct run_result *r);

/* One test of r as json_run puts it under "tests": its status, figures,
 * latencies and histograms (clyde-curve's steps are one test each). */
json_t *json_test(const struct run_result *r, enum result_test t);

/* A test object as json_test writes it (at naming it, as "curves[0].
 * steps[1].test"), checked as json_read_doc checks a run's, into rec:
 * what it measured, its random-I/O parts and, with hist, its
 * histograms. 0, or -1 with why (rec's parts then freed by
 * result_rec_free). */
int json_read_test(json_t *o, const char *at, int hist,
		   struct result_test_rec *rec, char *why, size_t whylen);

/* Repeat statistics per test (rate[i][t] NaN where run i lacks t). */
/* --log-interval's n intervals as an array (doc/clyde-json.5): all of
 * them (worker -1), or worker's alone. */
json_t *json_intervals(const struct result_interval *v, unsigned n, int worker);

/* A test's write-cache cliff (cliff.h) as its "cliff" object. */
json_t *json_cliff(const struct cliff *c);

/* A test's steady-state run (steady.h, --steady) as its "steady"
 * object: the rule, the rounds and, once there are the rule's rounds,
 * the window. */
json_t *json_steady(const struct steady_run *s);

json_t *json_summary(unsigned nruns, const double (*rate)[RT_COUNT]);

/*
 * The most runs a document holds: clyde's -x limit. A longer runs array
 * is no clyde result, and reading it would cost a run_result (some
 * 4 KiB) per element.
 */
#define JSON_RUNS_MAX 100000

/*
 * Read a clyde JSON document (buf, len bytes): one run_result per element
 * of runs[]: its shown part from its csv line, with each test's exact
 * rate and latency percentiles and the cells of the figures no CSV line
 * holds from their test objects; what it measured from its test objects
 * (status, work, elapsed, user and system CPU, worst latency) and the
 * run's seed, cache_left and error; its settings (sizes, seeks, file
 * tests) from the document's settings (measured 1). Every value read is
 * checked as a CSV field is: the type and range doc/clyde-json.5 gives
 * it; a document that is not a clyde result of JSON_SCHEMA_VERSION (not
 * JSON, no runs array, another or no schema_version, another program) is
 * refused whole. A bad run ends the read when bad_run is NULL; else
 * bad_run(ctx, why) is told of it, the run is left out and the read goes
 * on. Returns the number of rows (*rows malloc'd), or -1 with why[whylen]
 * and *line (1-based, 0 when unknown) saying what is wrong:
 * "runs[1].tests.putc.rate \"x\" is not a rate: ...".
 *
 * With JSON_READ_HIST in flags, each test's latency histogram too
 * (rec->lat, 8 KiB each; every bucket checked); with head (else NULL), a
 * copy of the document without its runs (the program, machine, target,
 * settings and summary), a reference the caller drops. The intervals
 * are read apart from the tree (json_thin.c): they cost their bytes.
 */
/*
 * buf's document as json_loadb gives it (no flags), but each test's
 * intervals under runs[] read apart and dropped, left as empty arrays:
 * for a look at its other keys at little more than the cost of its
 * text. NULL when it is not a JSON document.
 */
json_t *json_load_thin(const char *buf, size_t len);

#define JSON_READ_HIST 1u
int json_read_doc(const char *buf, size_t len, unsigned flags,
		  struct run_result **rows, json_t **head,
		  void (*bad_run)(void *ctx, const char *why), void *ctx,
		  char *why, size_t whylen, int *line);

/* A test's intervals array a run object was read without: its text in
 * the buffer read, buf[from, to) ('[' to after ']'). */
struct json_text {
	size_t row; /* the row (of *rows) whose run it is in */
	enum result_test test;
	size_t from, to;
};

/*
 * json_read_doc, with runs_out (else NULL) the run object of each row
 * (*runs_out malloc'd, one new reference per row, which the caller
 * drops), each test's intervals array in it left empty and its text's
 * place in buf given in *texts (malloc'd, *ntexts of them, by row and
 * then in the text's order; runs_out and texts are given together), so
 * that a writer of the runs again can write each array from buf while
 * holding none whole (report json). A document the scan does not take
 * (json_thin.c) is read whole, and has no texts.
 */
int json_read_doc_texts(const char *buf, size_t len, unsigned flags,
			struct run_result **rows, json_t ***runs_out,
			json_t **head, struct json_text **texts, size_t *ntexts,
			void (*bad_run)(void *ctx, const char *why), void *ctx,
			char *why, size_t whylen, int *line);

/*
 * Whether v is schema_version version: 0, or -1 with why "schema_version
 * 2: clyde-report reads version 1 (\"schema_version\": 1)". The one
 * refusal of every reader of a versioned document (this and lib/jdoc).
 */
int json_schema_is(const json_t *v, int version, char *why, size_t whylen);

/*
 * A value as a message shows it: compact JSON, cut to about 40 bytes
 * (never inside a UTF-8 sequence) with "..."; "(missing)" for NULL.
 */
void json_value_shown(const json_t *v, char *buf, size_t len);

#endif
