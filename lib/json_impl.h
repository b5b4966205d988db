/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_impl: what the two halves of the JSON reader share (json_read.c,
 * json_measured.c); no other file includes it.
 */
#ifndef CLYDE_JSON_IMPL_H
#define CLYDE_JSON_IMPL_H

#include <jansson.h>

#include "result.h"

struct json_thin;

/* The largest latency, rate or count read: what a CSV field can hold. */
#define JSON_READ_MAX 1000000000000000000LL

/* "runs[0].tests.putc.rate \"x\" is not a rate: <expected>"; -1. */
int json_refuse(char *why, size_t whylen, const char *key, json_t *v,
		const char *what);
/* v is a whole number from 0 to max; a number from 0 to max. */
int json_whole(json_t *v, json_int_t max);
int json_number(json_t *v, double max);

/*
 * Key name of object o (at "runs[0].tests.putc"), when there: a whole
 * number (whole) or any number from 0 to max, else refused as "AT.NAME
 * value is not WHAT". 0 or -1.
 */
int json_check_key(json_t *o, const char *at, const char *name, int whole,
		   double max, const char *what, char *why, size_t whylen);

/*
 * A latency object (at "runs[0].tests.putc.latency"): count, min, mean,
 * the percentiles and max, the percentiles there when anything was
 * counted. 0, or -1 with why.
 */
int json_check_latency(json_t *lat, const char *at, char *why, size_t whylen);

/*
 * Object o's histogram hkey (non-empty buckets as [low_ns, high_ns,
 * count]) and its summary lkey ("histogram" and "latency" of a test)
 * back into a struct hist, at naming o: each triple a bucket of this
 * histogram's, each bucket once. *out NULL when absent or empty, else
 * malloc'd (the caller frees it, on a refusal too). 0, or -1 with why.
 */
int json_read_hist(json_t *o, const char *at, const char *hkey,
		   const char *lkey, struct hist **out, char *why,
		   size_t whylen);

/*
 * A random-I/O figure's own parts of test object o (json_io.c): its
 * "service" and "service_histogram", "reads" and "writes", "schedule",
 * each checked, into rec. 0, or -1 with why.
 */
int json_read_io(json_t *o, const char *at, struct result_test_rec *rec,
		 char *why, size_t whylen);

/*
 * Test object o's "how" (its settings in a few words, as clyde writes
 * them) into how (RESULT_HOW_MAX bytes) when there, checked: a string
 * shorter than RESULT_HOW_MAX. 0, or -1 with why. how NULL: only check.
 */
int json_read_how(json_t *o, const char *at, char *how, char *why,
		  size_t whylen);

/*
 * What test object o (at "runs[0].tests.putc", checked by json_read.c
 * for what the cells use) measured, into rec: status, work, elapsed,
 * user, sys, worst latency, start_unix_ns and, with hist, its histogram
 * (malloc'd). thin: the document's logs read apart (NULL: none).
 */
int json_read_measured(json_t *o, const char *at, int hist,
		       const struct json_thin *thin,
		       struct result_test_rec *rec, char *why, size_t whylen);

/*
 * Test object o's "cliff" (json_cliff_read.c) into rec->cliff, checked;
 * absent: not looked for. 0, or -1 with why.
 */
int json_read_cliff(json_t *o, const char *at, struct result_test_rec *rec,
		    char *why, size_t whylen);

/*
 * Test object o's "steady" (json_steady_read.c) into rec->steady
 * (malloc'd), checked; absent: NULL, the test ran without --steady. 0,
 * or -1 with why (rec->steady then freed by result_rec_free).
 */
int json_read_steady(json_t *o, const char *at, struct result_test_rec *rec,
		     char *why, size_t whylen);

/*
 * Test object o's "intervals" (--log-interval) into rec, checked, their
 * times too: without "workers" one log that tiles the timed window, with
 * it a sum of which no interval starts before the test. 0, or -1 with
 * why (rec's intervals then freed by result_free).
 */
int json_read_intervals(json_t *o, const char *at, const struct json_thin *thin,
			struct result_test_rec *rec, char *why, size_t whylen);

/*
 * A document read thin (json_thin.c): each test's "intervals" array
 * under runs[].tests read apart, element by element, into a compact
 * log, each element's tree freed as soon as it is read, and left empty
 * in the tree; 10^6 intervals then cost their 80 bytes each, not the
 * kilobyte of their objects. json_read_intervals takes a log as it
 * would have read the array: each element checked as it is parsed,
 * the first failure of each kind kept, since which one is told (and
 * whether a log must tile its window) depends on the test's "workers",
 * known only once the test is whole.
 */
enum json_thin_fail {
	THIN_READ,	/* an element not an interval (read_one) */
	THIN_ORDER,	/* an end before the one above (one worker's log) */
	THIN_START_LOG, /* a start off the end above (one worker's log) */
	THIN_START_SUM, /* a start before the test (a sum of workers) */
	THIN_FAILS
};

struct json_thin_log {
	json_t *array;	 /* its array in the tree, left empty */
	size_t run;	 /* runs[run].tests.<test> */
	size_t from, to; /* its text in the buffer, '[' to after ']' */
	enum result_test test;
	struct result_interval *v; /* malloc'd, n of them */
	size_t n;
	/* The first failure of each kind: its element's index and why
	 * (malloc'd); why NULL: none. */
	size_t fail_at[THIN_FAILS];
	char *fail_why[THIN_FAILS];
};

struct json_thin {
	struct json_thin_log *logs; /* by array, for bsearch */
	size_t n, cap;
};

/* Element i of a log at at ("runs[0].tests.ran_read"), parsed as e,
 * into log->v[i] (room made by the caller), each check done and its
 * first failure kept. 0, or -1 without memory. */
int json_thin_element(json_t *e, const char *at, size_t i,
		      struct json_thin_log *log);

/*
 * The document of buf: as json_loadb's, read thin (above) where its
 * intervals allow; where anything is not as clyde writes it (a syntax
 * error, a key twice, more than 1000000 intervals in a test), read
 * whole, so that what is refused is refused as before. NULL with err.
 */
json_t *json_thin_load(const char *buf, size_t len, struct json_thin *thin,
		       json_error_t *err);

/* Free thin's logs (their intervals, unless handed to a record). */
void json_thin_free(struct json_thin *thin);

/* The document's settings into r (result_init's values where absent). */
int json_read_settings(json_t *doc, struct run_result *r, char *why,
		       size_t whylen);

/*
 * The settings.pgscan object of settings (a clyde-pgscan document's),
 * when there, checked (json_pgscan.c); 0, or -1 with why naming the key.
 */
int json_read_pgscan(json_t *settings, char *why, size_t whylen);

/* Run i's seed, cache_left and error into r. */
int json_read_run_keys(json_t *run, size_t i, struct run_result *r, char *why,
		       size_t whylen);

#endif
