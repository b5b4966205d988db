/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_measured: see json_impl.h; what a run of a clyde document
 * measured (each test's status, work, times, CPU split, worst latency,
 * start and histogram), the run's own keys and the document's settings,
 * read back into a run_result and checked as json_read.c checks the rest.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json_impl.h"

int json_read_hist(json_t *o, const char *at, const char *hkey,
		   const char *lkey, struct hist **out, char *why,
		   size_t whylen)
{
	json_t *a = json_object_get(o, hkey);
	json_t *lat = json_object_get(o, lkey), *e;
	char key[200];
	struct hist *h;
	size_t i;

	*out = NULL;
	snprintf(key, sizeof(key), "%.150s.%s", at, hkey);
	if (!a)
		return 0;
	if (!json_is_array(a) || json_array_size(a) > HIST_BUCKETS)
		return json_refuse(why, whylen, key, a,
				   "a histogram: expected an array of at most "
				   "2112 [low_ns, high_ns, count] buckets");
	if (!json_array_size(a))
		return 0;
	h = *out = malloc(sizeof(*h));
	if (!h) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	hist_init(h);
	json_array_foreach(a, i, e)
	{
		json_t *low = json_array_get(e, 0),
		       *high = json_array_get(e, 1);
		json_t *n = json_array_get(e, 2);
		unsigned b;

		snprintf(key, sizeof(key), "%.150s.%s[%zu]", at, hkey, i);
		if (!json_is_array(e) || json_array_size(e) != 3 ||
		    !json_whole(low, JSON_READ_MAX) ||
		    !json_whole(high, JSON_READ_MAX) ||
		    !json_whole(n, UINT32_MAX) || !json_integer_value(n))
			return json_refuse(
			    why, whylen, key, e,
			    "a bucket: expected [low_ns, high_ns, "
			    "count], whole numbers, count 1 to "
			    "4294967295");
		b = hist_index((uint64_t)json_integer_value(low));
		if (hist_low(b) != (uint64_t)json_integer_value(low) ||
		    hist_high(b) != (uint64_t)json_integer_value(high) ||
		    h->b[b])
			return json_refuse(
			    why, whylen, key, e,
			    "a bucket of clyde's histogram, each "
			    "once");
		h->b[b] = (uint32_t)json_integer_value(n);
		h->count += h->b[b];
	}
	/* The exact ends and the mean are the latency object's. */
	h->min_ns =
	    (uint64_t)json_integer_value(json_object_get(lat, "min_ns"));
	h->max_ns =
	    (uint64_t)json_integer_value(json_object_get(lat, "max_ns"));
	h->sum_ns =
	    (uint64_t)(json_number_value(json_object_get(lat, "mean_ns")) *
			   (double)h->count +
		       0.5);
	return 0;
}

/* Seconds: a number from 0 to 1e18 when there, else 0. */
static int read_seconds(json_t *o, const char *name, const char *at,
			double *out, char *why, size_t whylen)
{
	*out = json_number_value(json_object_get(o, name));
	return json_check_key(o, at, name, 0, JSON_READ_MAX,
			      "a time: expected a number of seconds from 0 "
			      "to 1e18",
			      why, whylen);
}

/* Whole number name (0 to max; absent: 0) of o into *v; else -1 with
 * why saying it is not what (what is expected). */
static int read_whole(json_t *o, const char *at, const char *name, double max,
		      const char *what, uint64_t *v, char *why, size_t whylen)
{
	if (json_check_key(o, at, name, 1, max, what, why, whylen) < 0)
		return -1;
	*v = (uint64_t)json_integer_value(json_object_get(o, name));
	return 0;
}

/* Test o's "preconditioned" when there: true or false. */
static int read_preconditioned(json_t *o, const char *at,
			       struct result_test_rec *rec, char *why,
			       size_t whylen)
{
	json_t *v = json_object_get(o, "preconditioned");
	char key[200];

	rec->preconditioned = json_is_true(v);
	if (!v || json_is_boolean(v))
		return 0;
	snprintf(key, sizeof(key), "%.150s.preconditioned", at);
	return json_refuse(why, whylen, key, v, "true or false");
}

/*
 * What a test measured (checked by check_test, and here what it does not
 * check) into rec: status, work, times, CPU split, worst latency, start,
 * a random-I/O figure's own parts and, with hist, the histogram.
 */
int json_read_measured(json_t *o, const char *at, int hist,
		       const struct json_thin *thin,
		       struct result_test_rec *rec, char *why, size_t whylen)
{
	const char *status = json_string_value(json_object_get(o, "status"));

	rec->state = !status			   ? RS_NOT_RUN
		     : !strcmp(status, "ok")	   ? RS_OK
		     : !strcmp(status, "too-fast") ? RS_OK
		     : !strcmp(status, "failed")   ? RS_FAILED
						   : RS_NOT_RUN;
	if (read_whole(o, at, "work", JSON_READ_MAX,
		       "a count of work: expected a whole number from 0 to "
		       "1e18",
		       &rec->work, why, whylen) < 0)
		return -1;
	if (read_seconds(o, "elapsed", at, &rec->elapsed, why, whylen) < 0 ||
	    read_seconds(o, "user", at, &rec->user, why, whylen) < 0 ||
	    read_seconds(o, "sys", at, &rec->sys, why, whylen) < 0)
		return -1;
	rec->cpu = rec->user + rec->sys;
	rec->max_latency_ns =
	    (uint64_t)json_integer_value(json_object_get(o, "max_latency_ns"));
	if (read_whole(o, at, "start_unix_ns", 9e18,
		       "a start: expected a whole number of nanoseconds since "
		       "the epoch from 0 to 9e18",
		       &rec->start_unix_ns, why, whylen) < 0 ||
	    read_whole(o, at, "block_size", JSON_READ_MAX,
		       "a block size: expected a whole number of bytes from 0 "
		       "to 1e18",
		       &rec->op_bytes, why, whylen) < 0 ||
	    json_read_how(o, at, rec->how, why, whylen) < 0 ||
	    json_read_intervals(o, at, thin, rec, why, whylen) < 0 ||
	    json_read_cliff(o, at, rec, why, whylen) < 0 ||
	    json_read_steady(o, at, rec, why, whylen) < 0 ||
	    read_preconditioned(o, at, rec, why, whylen) < 0 ||
	    json_read_io(o, at, rec, why, whylen) < 0)
		return -1;
	return hist ? json_read_hist(o, at, "histogram", "latency", &rec->lat,
				     why, whylen)
		    : 0;
}

/* Setting name of object o (at "settings" or "settings.files") into
 * *out when there: a whole number from min to max. */
static int read_setting(json_t *o, const char *at, const char *name,
			json_int_t min, json_int_t max, int64_t *out, char *why,
			size_t whylen)
{
	json_t *v = json_object_get(o, name);
	char key[64], what[96];

	if (!v)
		return 0;
	if (json_is_integer(v) && json_integer_value(v) >= min &&
	    json_integer_value(v) <= max) {
		*out = (int64_t)json_integer_value(v);
		return 0;
	}
	snprintf(key, sizeof(key), "%s.%s", at, name);
	snprintf(what, sizeof(what),
		 "a setting: expected a whole number from %lld to %lld",
		 (long long)min, (long long)max);
	return json_refuse(why, whylen, key, v, what);
}

/*
 * settings.per_char when there: what the run's putc and getc meant
 * ("skipped": none ran, nothing to compare). Without it (a document of
 * an older clyde) the run's CSV line's presumption stays.
 */
static int read_per_char(json_t *s, struct run_result *r, char *why,
			 size_t whylen)
{
	json_t *v = json_object_get(s, "per_char");
	const char *m = json_string_value(v);

	if (!v)
		return 0;
	if (m && !strcmp(m, "stdio"))
		r->per_char = RPC_STDIO;
	else if (m && !strcmp(m, "syscall"))
		r->per_char = RPC_SYSCALL;
	else if (m && !strcmp(m, "skipped"))
		r->per_char = RPC_UNKNOWN;
	else
		return json_refuse(why, whylen, "settings.per_char", v,
				   "the per-char mode: expected \"stdio\", "
				   "\"syscall\" or \"skipped\"");
	r->per_char_from = r->per_char == RPC_UNKNOWN ? RPF_NONE : RPF_SETTINGS;
	return 0;
}

/*
 * The document's settings, as clyde's runs hold them (src/clyde/main.c
 * result_settings): into r, whose other fields result_init set.
 */
int json_read_settings(json_t *doc, struct run_result *r, char *why,
		       size_t whylen)
{
	json_t *s = json_object_get(doc, "settings");
	json_t *files = json_object_get(s, "files");
	int64_t v[10] = {0,
			 (int64_t)r->chunk,
			 (int64_t)r->seeks,
			 r->seek_procs,
			 r->concurrency,
			 0,
			 0,
			 0,
			 0,
			 RESULT_DEF_FILE_CHUNK};

	/* clyde-report json writes null for rows of no one document. */
	if (!s || json_is_null(s))
		return 0;
	if (!json_is_object(s))
		return json_refuse(why, whylen, "settings", s,
				   "an object or null");
	if (files && !json_is_object(files))
		return json_refuse(why, whylen, "settings.files", files,
				   "an object");
	if (read_setting(s, "settings", "file_size", 0, JSON_READ_MAX, &v[0],
			 why, whylen) ||
	    read_setting(s, "settings", "chunk", 0, JSON_READ_MAX, &v[1], why,
			 whylen) ||
	    read_setting(s, "settings", "seeks", 0, JSON_READ_MAX, &v[2], why,
			 whylen) ||
	    read_setting(s, "settings", "seek_procs", 0, UINT_MAX, &v[3], why,
			 whylen) ||
	    read_setting(s, "settings", "concurrency", 0, UINT_MAX, &v[4], why,
			 whylen) ||
	    read_setting(files, "settings.files", "num", 0, JSON_READ_MAX,
			 &v[5], why, whylen) ||
	    read_setting(files, "settings.files", "max_size", -2, JSON_READ_MAX,
			 &v[6], why, whylen) ||
	    read_setting(files, "settings.files", "min_size", 0, JSON_READ_MAX,
			 &v[7], why, whylen) ||
	    read_setting(files, "settings.files", "dirs", 0, JSON_READ_MAX,
			 &v[8], why, whylen) ||
	    read_setting(files, "settings.files", "chunk", 0, JSON_READ_MAX,
			 &v[9], why, whylen))
		return -1;
	if (read_per_char(s, r, why, whylen) < 0 ||
	    json_read_pgscan(s, why, whylen) < 0)
		return -1;
	r->file_size = (uint64_t)v[0];
	r->chunk = (uint64_t)v[1];
	r->seeks = (uint64_t)v[2];
	r->seek_procs = (unsigned)v[3];
	r->concurrency = (unsigned)v[4];
	r->num_files = (uint64_t)v[5];
	r->max_size = v[6];
	r->min_size = (uint64_t)v[7];
	r->num_dirs = (uint64_t)v[8];
	/* Left at 0 for the default, as clyde's runs hold it. */
	r->file_chunk = v[9] == RESULT_DEF_FILE_CHUNK ? 0 : (uint64_t)v[9];
	return 0;
}

/* Run i's "precondition" when there: {passes 1 to 100, bytes,
 * block_size, seconds}, each checked. */
static int read_precondition(json_t *run, size_t i,
			     struct result_precondition *pc, char *why,
			     size_t whylen)
{
	json_t *o = json_object_get(run, "precondition");
	char at[64];
	uint64_t passes, bytes, bs;

	memset(pc, 0, sizeof(*pc));
	if (!o)
		return 0;
	snprintf(at, sizeof(at), "runs[%zu].precondition", i);
	if (!json_is_object(o))
		return json_refuse(why, whylen, at, o,
				   "a precondition: expected an object");
	if (read_whole(o, at, "passes", 100,
		       "a count of passes: expected a whole number from 1 to "
		       "100",
		       &passes, why, whylen) < 0 ||
	    read_whole(o, at, "bytes", JSON_READ_MAX,
		       "a count of bytes: expected a whole number from 0 to "
		       "1e18",
		       &bytes, why, whylen) < 0 ||
	    read_whole(o, at, "block_size", JSON_READ_MAX,
		       "a block size: expected a whole number of bytes from 0 "
		       "to 1e18",
		       &bs, why, whylen) < 0 ||
	    read_seconds(o, "seconds", at, &pc->seconds, why, whylen) < 0)
		return -1;
	if (!passes) {
		char key[96];

		snprintf(key, sizeof(key), "%s.passes", at);
		return json_refuse(why, whylen, key,
				   json_object_get(o, "passes"),
				   "a count of passes: expected a whole number "
				   "from 1 to 100");
	}
	pc->passes = (unsigned)passes;
	pc->bytes = bytes;
	pc->block_size = bs;
	return 0;
}

/* The run's own keys: seed, cache_left, error, precondition. */
int json_read_run_keys(json_t *run, size_t i, struct run_result *row, char *why,
		       size_t whylen)
{
	json_t *seed = json_object_get(run, "seed");
	json_t *left = json_object_get(run, "cache_left");
	json_t *error = json_object_get(run, "error");
	char key[64];

	snprintf(key, sizeof(key), "runs[%zu].seed", i);
	if (seed && !json_is_null(seed) && !json_whole(seed, INT64_MAX))
		return json_refuse(why, whylen, key, seed,
				   "a seed: expected a whole number from 0, "
				   "or null (no seed is negative)");
	snprintf(key, sizeof(key), "runs[%zu].cache_left", i);
	if (left && !json_is_null(left) &&
	    (!json_is_number(left) || json_number_value(left) < 0 ||
	     json_number_value(left) > 1))
		return json_refuse(
		    why, whylen, key, left,
		    "a share of the data file: expected a number "
		    "from 0 to 1, or null");
	snprintf(key, sizeof(key), "runs[%zu].error", i);
	if (error && !json_is_null(error) && !json_is_string(error))
		return json_refuse(why, whylen, key, error,
				   "an error: expected a string or null");
	if (read_precondition(run, i, &row->precondition, why, whylen) < 0)
		return -1;
	row->seed = (uint64_t)json_integer_value(seed);
	row->cache_left = json_is_number(left) ? json_number_value(left) : -1;
	snprintf(row->error, sizeof(row->error), "%s",
		 json_is_string(error) ? json_string_value(error) : "");
	return 0;
}
