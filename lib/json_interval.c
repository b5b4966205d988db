/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_interval: --log-interval's intervals in a test object (json.c
 * writes them, under the test and under each of its workers) and read
 * back (json_measured.c, the test's own), each key checked as the rest
 * of the reader checks: an interval is {"end", "seconds", "ops",
 * "bytes", "p50_ns", "p99_ns", "max_ns"}, the percentiles absent when
 * not known (the sum of several workers); a random-I/O figure's has its
 * service times' "service_p50_ns" and "service_p99_ns" too.
 *
 * And their times as clyde writes them. One worker's log (a test
 * without "workers") tiles the timed window: the ends in order, each
 * interval starting (end - seconds) where the one before ended, the
 * first at 0. A sum of several workers' (a test with "workers") has
 * the latest end and the longest seconds of each place, so its
 * intervals overlap and, after a worker's interval that ran long, an
 * end may come before the one above it: of a sum, only that no
 * interval starts before the test.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json_impl.h"
#include "jput.h"

json_t *json_intervals(const struct result_interval *v, unsigned n, int worker)
{
	json_t *a = json_array();
	int bad = 0;

	for (unsigned i = 0; a && i < n; i++) {
		const struct result_interval *iv = &v[i];
		json_t *o;

		if (worker >= 0 && iv->worker != (unsigned)worker)
			continue;
		o = json_pack("{s:f,s:f,s:I,s:I,s:I}", "end", iv->end,
			      "seconds", iv->secs, "ops", (json_int_t)iv->ops,
			      "bytes", (json_int_t)iv->bytes, "max_ns",
			      (json_int_t)iv->max_ns);
		if (o && iv->p50_ns)
			jp_put(o, "p50_ns",
			       json_integer((json_int_t)iv->p50_ns), &bad);
		if (o && iv->p99_ns)
			jp_put(o, "p99_ns",
			       json_integer((json_int_t)iv->p99_ns), &bad);
		if (o && iv->svc_p50_ns)
			jp_put(o, "service_p50_ns",
			       json_integer((json_int_t)iv->svc_p50_ns), &bad);
		if (o && iv->svc_p99_ns)
			jp_put(o, "service_p99_ns",
			       json_integer((json_int_t)iv->svc_p99_ns), &bad);
		jp_append(a, o, &bad);
	}
	return jp_done(a, bad);
}

/* Interval e (at key) into iv, every key checked. 0 or -1 with why. */
static int read_one(json_t *e, const char *key, struct result_interval *iv,
		    char *why, size_t whylen)
{
	static const char *const whole[] = {
	    "ops",    "bytes",		"p50_ns",	 "p99_ns",
	    "max_ns", "service_p50_ns", "service_p99_ns"};
	uint64_t *to[] = {&iv->ops,	  &iv->bytes,  &iv->p50_ns,
			  &iv->p99_ns,	  &iv->max_ns, &iv->svc_p50_ns,
			  &iv->svc_p99_ns};

	if (!json_is_object(e))
		return json_refuse(why, whylen, key, e,
				   "an interval: expected an object");
	if (json_check_key(e, key, "end", 0, JSON_READ_MAX,
			   "a time: expected a number of seconds from 0 to "
			   "1e18",
			   why, whylen) < 0 ||
	    json_check_key(e, key, "seconds", 0, JSON_READ_MAX,
			   "a time: expected a number of seconds from 0 to "
			   "1e18",
			   why, whylen) < 0)
		return -1;
	iv->end = json_number_value(json_object_get(e, "end"));
	iv->secs = json_number_value(json_object_get(e, "seconds"));
	for (size_t k = 0; k < sizeof(whole) / sizeof(whole[0]); k++) {
		if (json_check_key(e, key, whole[k], 1, JSON_READ_MAX,
				   "a count: expected a whole number from 0 "
				   "to 1e18",
				   why, whylen) < 0)
			return -1;
		*to[k] =
		    (uint64_t)json_integer_value(json_object_get(e, whole[k]));
	}
	if (!json_object_get(e, "end") || !json_object_get(e, "seconds") ||
	    !json_object_get(e, "ops"))
		return json_refuse(why, whylen, key, e,
				   "an interval: expected end, seconds and "
				   "ops at least");
	return 0;
}

/*
 * What two times written as the same may differ by, at t seconds: the
 * seconds of a log's last interval are summed in steps once the log is
 * full (ILOG_MAX), and a start is a difference of two numbers.
 */
static double slack(double t)
{
	return 1e-6 + 1e-8 * t;
}

/* Interval i (at key) of one worker's log ends no earlier than the one
 * before it. 0, or -1 with why. */
static int check_order(json_t *e, const char *key,
		       const struct result_interval *v, size_t i, char *why,
		       size_t whylen)
{
	char at[240], what[120];

	if (!i || v[i].end >= v[i - 1].end)
		return 0;
	snprintf(at, sizeof(at), "%s.end", key);
	snprintf(what, sizeof(what),
		 "in time order: expected intervals[%zu].end %.9g or later",
		 i - 1, v[i - 1].end);
	return json_refuse(why, whylen, at, json_object_get(e, "end"), what);
}

/*
 * Interval i (at key) starts (end - seconds) no earlier than the test
 * and, in one worker's log (sum false), where interval i - 1 ended (the
 * first at 0). 0, or -1 with why.
 */
static int check_start(json_t *e, const char *key,
		       const struct result_interval *v, size_t i, bool sum,
		       char *why, size_t whylen)
{
	const double end = v[i].end, start = end - v[i].secs;
	const double last = i ? v[i - 1].end : 0;
	char at[240], what[160];

	if (sum ? start >= -slack(end)
		: start >= last - slack(end) && start <= last + slack(end))
		return 0;
	snprintf(at, sizeof(at), "%s.seconds", key);
	if (sum)
		snprintf(what, sizeof(what),
			 "within the test: expected at most its end %.9g (no "
			 "interval starts before the test)",
			 end);
	else if (i)
		snprintf(what, sizeof(what),
			 "the time since intervals[%zu] ended: expected %.9g "
			 "(end %.9g less %.9g)",
			 i - 1, end - last, end, last);
	else
		snprintf(what, sizeof(what),
			 "the time since the test began: expected its end "
			 "%.9g",
			 end);
	return json_refuse(why, whylen, at, json_object_get(e, "seconds"),
			   what);
}

/* Keep why as failure f of log at element i, unless one came before. */
static int keep_fail(struct json_thin_log *log, enum json_thin_fail f, size_t i,
		     const char *why)
{
	if (log->fail_why[f])
		return 0;
	log->fail_at[f] = i;
	log->fail_why[f] = strdup(why);
	return log->fail_why[f] ? 0 : -1;
}

int json_thin_element(json_t *e, const char *at, size_t i,
		      struct json_thin_log *log)
{
	char key[200], why[400];
	int bad = 0;

	/* After an element that is no interval, nothing more is told. */
	if (log->fail_why[THIN_READ])
		return 0;
	snprintf(key, sizeof(key), "%.150s.intervals[%zu]", at, i);
	if (read_one(e, key, &log->v[i], why, sizeof(why)) < 0)
		return keep_fail(log, THIN_READ, i, why);
	if (check_order(e, key, log->v, i, why, sizeof(why)) < 0)
		bad |= keep_fail(log, THIN_ORDER, i, why);
	if (check_start(e, key, log->v, i, false, why, sizeof(why)) < 0)
		bad |= keep_fail(log, THIN_START_LOG, i, why);
	if (check_start(e, key, log->v, i, true, why, sizeof(why)) < 0)
		bad |= keep_fail(log, THIN_START_SUM, i, why);
	return bad ? -1 : 0;
}

static int cmp_log(const void *a, const void *b)
{
	const json_t *x = ((const struct json_thin_log *)a)->array,
		     *y = ((const struct json_thin_log *)b)->array;

	return x < y ? -1 : x > y;
}

/* The log read apart for array a, or NULL. */
static struct json_thin_log *log_of(const struct json_thin *thin, json_t *a)
{
	struct json_thin_log k = {.array = a};

	if (!thin || !thin->n || !json_is_array(a) || json_array_size(a))
		return NULL;
	return bsearch(&k, thin->logs, thin->n, sizeof(k), cmp_log);
}

/* A log read apart into rec, or the failure its reading would have
 * told first. */
static int take_log(struct json_thin_log *log, bool sum,
		    struct result_test_rec *rec, char *why, size_t whylen)
{
	int f = -1;

	/* The first pass: each element read, then (one log) in order. */
	if (log->fail_why[THIN_READ])
		f = THIN_READ;
	if (!sum && log->fail_why[THIN_ORDER] &&
	    (f < 0 || log->fail_at[THIN_ORDER] < log->fail_at[THIN_READ]))
		f = THIN_ORDER;
	/* Then where each one starts. */
	if (f < 0)
		f = sum ? THIN_START_SUM : THIN_START_LOG;
	if (log->fail_why[f]) {
		snprintf(why, whylen, "%s", log->fail_why[f]);
		return -1;
	}
	rec->intervals = log->v;
	rec->nintervals = (unsigned)log->n;
	log->v = NULL;
	log->n = 0;
	return 0;
}

int json_read_intervals(json_t *o, const char *at, const struct json_thin *thin,
			struct result_test_rec *rec, char *why, size_t whylen)
{
	json_t *a = json_object_get(o, "intervals"), *e;
	const bool sum = json_is_array(json_object_get(o, "workers"));
	struct json_thin_log *log = log_of(thin, a);
	char key[200];
	size_t i;

	snprintf(key, sizeof(key), "%.150s.intervals", at);
	free(rec->intervals);
	rec->intervals = NULL;
	rec->nintervals = 0;
	if (log)
		return take_log(log, sum, rec, why, whylen);
	if (!a)
		return 0;
	if (!json_is_array(a) || json_array_size(a) > 1000000)
		return json_refuse(why, whylen, key, a,
				   "intervals: expected an array of at most "
				   "1000000 objects");
	if (!json_array_size(a))
		return 0;
	rec->intervals = calloc(json_array_size(a), sizeof(*rec->intervals));
	if (!rec->intervals) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	json_array_foreach(a, i, e)
	{
		snprintf(key, sizeof(key), "%.150s.intervals[%zu]", at, i);
		if (read_one(e, key, &rec->intervals[i], why, whylen) < 0 ||
		    (!sum &&
		     check_order(e, key, rec->intervals, i, why, whylen) < 0))
			return -1;
		rec->nintervals = (unsigned)i + 1;
	}
	/* In order: then where each one starts. */
	json_array_foreach(a, i, e)
	{
		snprintf(key, sizeof(key), "%.150s.intervals[%zu]", at, i);
		if (check_start(e, key, rec->intervals, i, sum, why, whylen) <
		    0)
			return -1;
	}
	return 0;
}
