/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_io: a random-I/O figure's own parts of a test object read back
 * (json.c writes them): "service" and "service_histogram" (its service
 * times, in the shape of "latency" and "histogram"), "reads" and
 * "writes" (each kind's ops, bytes, iops, latency and histogram; both or
 * neither) and "schedule" (an offered rate: rate, arrivals, due, issued,
 * late, behind_share, late_share). Each key is checked as the rest of the
 * reader checks: a value out of its type or range refuses the run in one line
 * naming it. What json.c derives (iops, late_share) is checked and
 * derived again when written.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json_impl.h"

#define NOT_A_COUNT "a count: expected a whole number from 0 to 1e18"

/* Key name of o (at), which must be there: a whole number from 0 to
 * 1e18, into *v. */
static int read_count(json_t *o, const char *at, const char *name, uint64_t *v,
		      char *why, size_t whylen)
{
	json_t *n = json_object_get(o, name);

	if (!n) {
		snprintf(why, whylen, "%s has no %s", at, name);
		return -1;
	}
	if (json_check_key(o, at, name, 1, JSON_READ_MAX, NOT_A_COUNT, why,
			   whylen) < 0)
		return -1;
	*v = (uint64_t)json_integer_value(n);
	return 0;
}

/* A latency object lkey and its histogram hkey of o, both or neither,
 * into *h (an empty one when the histogram is). */
static int read_times(json_t *o, const char *at, const char *lkey,
		      const char *hkey, struct hist **h, char *why,
		      size_t whylen)
{
	json_t *lat = json_object_get(o, lkey);
	char key[200];

	snprintf(key, sizeof(key), "%.150s.%s", at, lkey);
	if (!lat != !json_object_get(o, hkey)) {
		snprintf(why, whylen, "%.150s has %s without %s", at,
			 lat ? lkey : hkey, lat ? hkey : lkey);
		return -1;
	}
	if (!lat)
		return 0;
	if (json_check_latency(lat, key, why, whylen) < 0 ||
	    json_read_hist(o, at, hkey, lkey, h, why, whylen) < 0)
		return -1;
	if (!*h && (*h = malloc(sizeof(**h))) != NULL)
		hist_init(*h);
	if (!*h) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	return 0;
}

/* "reads" or "writes" (name) of test object o into kind k of rec. */
static int read_kind(json_t *o, const char *at, const char *name,
		     enum result_io_kind k, struct result_test_rec *rec,
		     char *why, size_t whylen)
{
	struct result_kind_rec *kr = &rec->kind[k];
	json_t *v = json_object_get(o, name);
	char key[200];

	snprintf(key, sizeof(key), "%.150s.%s", at, name);
	if (!json_is_object(v))
		return json_refuse(why, whylen, key, v,
				   "a kind's operations: expected an object "
				   "of ops, bytes, iops, latency and "
				   "histogram");
	if (read_count(v, key, "ops", &kr->ops, why, whylen) < 0 ||
	    read_count(v, key, "bytes", &kr->bytes, why, whylen) < 0 ||
	    json_check_key(v, key, "iops", 0, JSON_READ_MAX,
			   "a rate: expected a number from 0 to 1e18", why,
			   whylen) < 0)
		return -1;
	if (!json_object_get(v, "latency")) {
		snprintf(why, whylen, "%s has no latency", key);
		return -1;
	}
	return read_times(v, key, "latency", "histogram", &kr->lat, why,
			  whylen);
}

/* The kinds of test object o, both or neither. */
static int read_kinds(json_t *o, const char *at, struct result_test_rec *rec,
		      char *why, size_t whylen)
{
	json_t *r = json_object_get(o, "reads"),
	       *w = json_object_get(o, "writes");

	if (!r && !w)
		return 0;
	if (!r || !w) {
		snprintf(why, whylen, "%.150s has %s without %s", at,
			 r ? "reads" : "writes", r ? "writes" : "reads");
		return -1;
	}
	rec->io = 1;
	return read_kind(o, at, "reads", RESULT_READS, rec, why, whylen) < 0 ||
		       read_kind(o, at, "writes", RESULT_WRITES, rec, why,
				 whylen) < 0
		   ? -1
		   : 0;
}

/* How the arrivals of a schedule (at) came: "fixed" or "poisson". */
static int read_arrivals(json_t *s, const char *at, int *fixed, char *why,
			 size_t whylen)
{
	json_t *v = json_object_get(s, "arrivals");
	const char *a = json_string_value(v);
	char key[200];

	snprintf(key, sizeof(key), "%.150s.arrivals", at);
	if (a && (!strcmp(a, "fixed") || !strcmp(a, "poisson"))) {
		*fixed = !strcmp(a, "fixed");
		return 0;
	}
	return json_refuse(why, whylen, key, v,
			   "the arrivals: expected \"fixed\" or \"poisson\"");
}

/* Test object o's "schedule" when there. */
static int read_schedule(json_t *o, const char *at, struct result_test_rec *rec,
			 char *why, size_t whylen)
{
	json_t *s = json_object_get(o, "schedule");
	struct result_sched *sc = &rec->sched;
	char key[200];

	if (!s)
		return 0;
	snprintf(key, sizeof(key), "%.150s.schedule", at);
	if (!json_is_object(s))
		return json_refuse(why, whylen, key, s,
				   "a schedule: expected an object of rate, "
				   "arrivals, due, issued, late, late_held, "
				   "behind_share and late_share");
	if (read_count(s, key, "rate", &sc->rate, why, whylen) < 0 ||
	    read_arrivals(s, key, &sc->fixed, why, whylen) < 0 ||
	    read_count(s, key, "due", &sc->due, why, whylen) < 0 ||
	    read_count(s, key, "issued", &sc->issued, why, whylen) < 0 ||
	    read_count(s, key, "late", &sc->late, why, whylen) < 0 ||
	    ((sc->held_kept = json_object_get(s, "late_held") != NULL) &&
	     read_count(s, key, "late_held", &sc->late_held, why, whylen) <
		 0) ||
	    json_check_key(s, key, "behind_share", 0, 1,
			   "a share: expected a number from 0 to 1", why,
			   whylen) < 0 ||
	    json_check_key(s, key, "late_share", 0, 1,
			   "a share: expected a number from 0 to 1", why,
			   whylen) < 0)
		return -1;
	snprintf(key, sizeof(key), "%.150s.schedule.%s", at,
		 !sc->rate		? "rate"
		 : sc->issued > sc->due ? "issued"
					: "late");
	if (!sc->rate)
		return json_refuse(why, whylen, key, json_object_get(s, "rate"),
				   "an offered rate: expected a whole number "
				   "of operations a second from 1 to 1e18");
	if (sc->issued > sc->due)
		return json_refuse(why, whylen, key,
				   json_object_get(s, "issued"),
				   "the arrivals issued: expected at most due");
	if (sc->late > sc->issued)
		return json_refuse(why, whylen, key, json_object_get(s, "late"),
				   "the arrivals late: expected at most "
				   "issued");
	if (sc->late_held > sc->late) {
		snprintf(key, sizeof(key), "%.150s.schedule.late_held", at);
		return json_refuse(why, whylen, key,
				   json_object_get(s, "late_held"),
				   "the arrivals late for a slot: expected at "
				   "most late");
	}
	rec->io = 1;
	return 0;
}

int json_read_io(json_t *o, const char *at, struct result_test_rec *rec,
		 char *why, size_t whylen)
{
	result_io_free(rec);
	if (read_times(o, at, "service", "service_histogram", &rec->svc, why,
		       whylen) < 0)
		return -1;
	if (rec->svc) {
		rec->io = 1;
		/* What the closed loop that wrote it knew: the same times
		 * twice (a document read without histograms has no
		 * response histogram to compare). */
		rec->svc_same =
		    json_equal(json_object_get(o, "service"),
			       json_object_get(o, "latency")) &&
		    json_equal(json_object_get(o, "service_histogram"),
			       json_object_get(o, "histogram"));
	}
	return read_kinds(o, at, rec, why, whylen) < 0 ||
		       read_schedule(o, at, rec, why, whylen) < 0
		   ? -1
		   : 0;
}
