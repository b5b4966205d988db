/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json: see json.h. Numbers are written by jansson, which uses the C
 * locale's decimal point whatever the environment says.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "json.h"
#include "stats.h"

static const char *status_name(const struct result_test_rec *rec)
{
	switch (rec->state) {
	case RS_OK:
		return result_too_fast(rec) ? "too-fast" : "ok";
	case RS_FAILED:
		return "failed";
	case RS_NOT_RUN:
	default:
		return "skipped";
	}
}

static const char *work_unit(enum result_kind k)
{
	return k == RK_IO     ? "bytes"
	       : k == RK_SEEK ? "seeks"
	       : k == RK_OPS  ? "operations"
			      : "files";
}

static json_t *latency(const struct hist *h)
{
	json_t *o = json_object();

	json_object_set_new(o, "count", json_integer((json_int_t)h->count));
	json_object_set_new(
	    o, "min_ns", json_integer((json_int_t)(h->count ? h->min_ns : 0)));
	json_object_set_new(o, "mean_ns", json_real(hist_mean(h)));
	json_object_set_new(o, "p50_ns",
			    json_integer((json_int_t)hist_percentile(h, 50)));
	json_object_set_new(o, "p90_ns",
			    json_integer((json_int_t)hist_percentile(h, 90)));
	json_object_set_new(o, "p99_ns",
			    json_integer((json_int_t)hist_percentile(h, 99)));
	json_object_set_new(o, "p99_9_ns",
			    json_integer((json_int_t)hist_percentile(h, 99.9)));
	json_object_set_new(o, "max_ns", json_integer((json_int_t)h->max_ns));
	return o;
}

/* The non-empty buckets as [low_ns, high_ns, count] triples. */
static json_t *histogram(const struct hist *h)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!h->b[i])
			continue;
		json_array_append_new(a, json_pack("[I,I,I]",
						   (json_int_t)hist_low(i),
						   (json_int_t)hist_high(i),
						   (json_int_t)h->b[i]));
	}
	return a;
}

/* -c N: each copy's own figures, in the order of the workers. */
static json_t *workers(const struct result_test_rec *rec)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < rec->nworkers; i++) {
		const struct result_worker *w = &rec->workers[i];

		json_t *o = json_pack(
		    "{s:I,s:f,s:f,s:f,s:f,s:f,s:I,s:I}", "work",
		    (json_int_t)w->work, "elapsed", w->end - w->start, "start",
		    w->start, "end", w->end, "user", w->user, "sys", w->sys,
		    "max_latency_ns", (json_int_t)w->max_latency_ns, "target",
		    (json_int_t)w->target);

		/* An MPI rank: which one, where (a name that is not UTF-8
		 * is left out rather than the entry lost). */
		if (o && w->host) {
			json_object_set_new(o, "rank", json_integer(w->rank));
			json_object_set_new(o, "host", json_string(w->host));
			json_object_set_new(o, "directory",
					    json_string(w->dir ? w->dir : ""));
		}
		if (o && rec->nwintervals)
			json_object_set_new(o, "intervals",
					    json_intervals(rec->wintervals,
							   rec->nwintervals,
							   (int)i));
		json_array_append_new(a, o);
	}
	return a;
}

/* A first- or last-finished figure: its work, time and rate. */
static json_t *span(enum result_kind k, uint64_t work, double elapsed,
		    int exact)
{
	struct result_test_rec one = {.work = work, .elapsed = elapsed};
	json_t *o = json_pack("{s:I,s:f,s:f}", "work", (json_int_t)work,
			      "elapsed", elapsed, "rate", result_rate(&one, k));

	if (o && exact >= 0)
		json_object_set_new(o, "exact", json_boolean(exact));
	return o;
}

static json_t *test(const struct run_result *r, enum result_test t)
{
	static const struct hist none;
	const struct result_test_rec *rec = &r->t[t];
	enum result_kind k = result_test_kind(t);
	json_t *o = json_object();

	json_object_set_new(o, "status", json_string(status_name(rec)));
	if (rec->state == RS_FAILED)
		json_object_set_new(o, "error", json_string(r->error));
	if (rec->state != RS_OK)
		return o;
	json_object_set_new(o, "work", json_integer((json_int_t)rec->work));
	json_object_set_new(o, "unit", json_string(work_unit(k)));
	json_object_set_new(o, "elapsed", json_real(rec->elapsed));
	json_object_set_new(o, "user", json_real(rec->user));
	json_object_set_new(o, "sys", json_real(rec->sys));
	json_object_set_new(o, "rate", json_real(result_rate(rec, k)));
	json_object_set_new(o, "rate_unit", json_string(result_rate_unit(k)));
	if (rec->op_bytes) {
		json_object_set_new(o, "block_size",
				    json_integer((json_int_t)rec->op_bytes));
		json_object_set_new(
		    o, "bandwidth",
		    json_real(result_rate(rec, k) * (double)rec->op_bytes));
	}
	if (rec->how[0])
		json_object_set_new(o, "how", json_string(rec->how));
	json_object_set_new(o, "cpu_percent", json_integer(result_pcp(rec)));
	/* A figure whose records hold no latency (another program's). */
	if (!(figure_of(t)->keys & FK_LATENCY))
		return o;
	json_object_set_new(o, "max_latency_ns",
			    json_integer((json_int_t)rec->max_latency_ns));
	if (rec->start_unix_ns)
		json_object_set_new(
		    o, "start_unix_ns",
		    json_integer((json_int_t)rec->start_unix_ns));
	/* Not recorded (--no-latency): an empty histogram, count 0. */
	json_object_set_new(o, "latency", latency(rec->lat ? rec->lat : &none));
	json_object_set_new(o, "histogram",
			    histogram(rec->lat ? rec->lat : &none));
	if (rec->nintervals)
		json_object_set_new(
		    o, "intervals",
		    json_intervals(rec->intervals, rec->nintervals, -1));
	if (rec->nworkers)
		json_object_set_new(o, "workers", workers(rec));
	if (rec->spans.on) {
		const struct result_spans *sp = &rec->spans;

		json_object_set_new(o, "first_finished",
				    span(k, sp->first_work, sp->first_elapsed,
					 sp->first_exact));
		json_object_set_new(
		    o, "last_finished",
		    span(k, sp->last_work, sp->last_elapsed, -1));
	}
	return o;
}

json_t *json_run(const struct run_result *r)
{
	json_t *o = json_object(), *tests = json_object();
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	if (f) {
		csv_write(f, r, CSV_198);
		fclose(f);
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
	}
	json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
	json_object_set_new(o, "cache_left",
			    r->cache_left < 0 ? json_null()
					      : json_real(r->cache_left));
	json_object_set_new(o, "error",
			    r->error[0] ? json_string(r->error) : json_null());
	json_object_set_new(o, "csv", json_string(line ? line : ""));
	free(line);
	/* Every figure clyde measures; another program's where r has it. */
	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (!(figure_of(t)->flags & FIGF_OTHER) ||
		    r->t[t].state != RS_NOT_RUN)
			json_object_set_new(tests, result_test_name(t),
					    test(r, t));
	json_object_set_new(o, "tests", tests);
	return o;
}

json_t *json_summary(unsigned nruns, const double (*rate)[RT_COUNT])
{
	json_t *o = json_object();
	struct stats s;

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		unsigned n = result_summary(nruns, rate, t, &s);

		if (!n)
			continue;
		json_object_set_new(
		    o, result_test_name(t),
		    json_pack("{s:s,s:I,s:f,s:f,s:f,s:f,s:f,s:f}", "unit",
			      result_rate_unit(result_test_kind(t)), "n",
			      (json_int_t)n, "mean", s.mean, "sd", s.sd, "min",
			      s.min, "max", s.max, "ci_low", s.ci_low,
			      "ci_high", s.ci_high));
	}
	return o;
}

int json_schema_is(const json_t *v, int version, char *why, size_t whylen)
{
	char show[64];

	if (json_is_integer(v) && json_integer_value(v) == version)
		return 0;
	json_value_shown(v, show, sizeof(show));
	snprintf(why, whylen,
		 "schema_version %s: clyde-report reads version %d "
		 "(\"schema_version\": %d)",
		 show, version, version);
	return -1;
}

/* A value as a message shows it: compact JSON, cut short when long. */
void json_value_shown(const json_t *v, char *buf, size_t len)
{
	char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT |
					JSON_REAL_PRECISION(15))
		    : NULL;
	size_t n;

	if (!v) {
		snprintf(buf, len, "(missing)");
		return;
	}
	if (!s) {
		snprintf(buf, len, "(a value)");
		return;
	}
	n = strlen(s);
	if (n > 40) {
		/* Not inside a UTF-8 sequence. */
		for (n = 37; n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80; n--)
			;
		snprintf(buf, len, "%.*s...", (int)n, s);
	} else {
		snprintf(buf, len, "%s", s);
	}
	free(s);
}
