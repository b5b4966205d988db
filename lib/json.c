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
#include "jput.h"
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

static json_t *latency(const struct hist *h)
{
	json_t *o = json_object();
	int bad = 0;

	jp_put(o, "count", json_integer((json_int_t)h->count), &bad);
	jp_put(o, "min_ns",
	       json_integer((json_int_t)(h->count ? h->min_ns : 0)), &bad);
	jp_put(o, "mean_ns", json_real(hist_mean(h)), &bad);
	jp_put(o, "p50_ns", json_integer((json_int_t)hist_percentile(h, 50)),
	       &bad);
	jp_put(o, "p90_ns", json_integer((json_int_t)hist_percentile(h, 90)),
	       &bad);
	jp_put(o, "p99_ns", json_integer((json_int_t)hist_percentile(h, 99)),
	       &bad);
	jp_put(o, "p99_9_ns",
	       json_integer((json_int_t)hist_percentile(h, 99.9)), &bad);
	jp_put(o, "max_ns", json_integer((json_int_t)h->max_ns), &bad);
	return jp_done(o, bad);
}

/* The non-empty buckets as [low_ns, high_ns, count] triples. */
static json_t *histogram(const struct hist *h)
{
	json_t *a = json_array();
	int bad = 0;

	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!h->b[i])
			continue;
		jp_append(a,
			  json_pack("[I,I,I]", (json_int_t)hist_low(i),
				    (json_int_t)hist_high(i),
				    (json_int_t)h->b[i]),
			  &bad);
	}
	return jp_done(a, bad);
}

/* One kind of a random-I/O figure's operations: count, bytes, rate,
 * response times (empty when not recorded). */
static json_t *kind(const struct result_test_rec *rec, enum result_io_kind k)
{
	static const struct hist none;
	const struct result_kind_rec *kr = &rec->kind[k];
	const struct hist *h = kr->lat ? kr->lat : &none;
	json_t *o = json_object();
	int bad = 0;

	jp_put(o, "ops", json_integer((json_int_t)kr->ops), &bad);
	jp_put(o, "bytes", json_integer((json_int_t)kr->bytes), &bad);
	jp_put(o, "iops", json_real(result_kind_iops(rec, k)), &bad);
	jp_put(o, "latency", latency(h), &bad);
	jp_put(o, "histogram", histogram(h), &bad);
	return jp_done(o, bad);
}

/* The schedule of an offered rate, and the share of it not kept;
 * late_held where it is known. */
static json_t *schedule(const struct result_sched *s)
{
	json_t *o = json_pack(
	    "{s:I,s:s,s:I,s:I,s:I,s:f,s:f}", "rate", (json_int_t)s->rate,
	    "arrivals", s->fixed ? "fixed" : "poisson", "due",
	    (json_int_t)s->due, "issued", (json_int_t)s->issued, "late",
	    (json_int_t)s->late, "behind_share", result_behind_share(s),
	    "late_share", result_late_share(s));

	if (o && s->held_kept &&
	    json_object_set_new(o, "late_held",
				json_integer((json_int_t)s->late_held)) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* A random-I/O figure's own parts, each only when it has them, so
 * every other test object stays as it was. */
static void io_parts(json_t *o, const struct result_test_rec *rec, int *bad)
{
	if (rec->svc) {
		jp_put(o, "service", latency(rec->svc), bad);
		jp_put(o, "service_histogram", histogram(rec->svc), bad);
	}
	if (result_kinds_shown(rec)) {
		jp_put(o, "reads", kind(rec, RESULT_READS), bad);
		jp_put(o, "writes", kind(rec, RESULT_WRITES), bad);
	}
	if (rec->sched.rate)
		jp_put(o, "schedule", schedule(&rec->sched), bad);
}

/* Key of o to the string s, left out when s is not UTF-8 (which
 * json_string refuses with NULL, as it does without memory). */
static void put_text(json_t *o, const char *key, const char *s, int *bad)
{
	json_t *v = json_string(s);

	if (v)
		jp_put(o, key, v, bad);
}

/* -c N: each copy's own figures, in the order of the workers. */
static json_t *workers(const struct result_test_rec *rec)
{
	json_t *a = json_array();
	int bad = 0;

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
			jp_put(o, "rank", json_integer(w->rank), &bad);
			put_text(o, "host", w->host, &bad);
			put_text(o, "directory", w->dir ? w->dir : "", &bad);
		}
		if (o && rec->nwintervals)
			jp_put(o, "intervals",
			       json_intervals(rec->wintervals, rec->nwintervals,
					      (int)i),
			       &bad);
		jp_append(a, o, &bad);
	}
	return jp_done(a, bad);
}

/* A first- or last-finished figure: its work, time and rate. */
static json_t *span(enum result_kind k, uint64_t work, double elapsed,
		    int exact)
{
	struct result_test_rec one = {.work = work, .elapsed = elapsed};
	json_t *o = json_pack("{s:I,s:f,s:f}", "work", (json_int_t)work,
			      "elapsed", elapsed, "rate", result_rate(&one, k));
	int bad = 0;

	if (o && exact >= 0)
		jp_put(o, "exact", json_boolean(exact), &bad);
	return jp_done(o, bad);
}

json_t *json_test(const struct run_result *r, enum result_test t)
{
	static const struct hist none;
	const struct result_test_rec *rec = &r->t[t];
	enum result_kind k = result_test_kind(t);
	json_t *o = json_object();
	int bad = 0;

	jp_put(o, "status", json_string(status_name(rec)), &bad);
	if (rec->state == RS_FAILED)
		jp_put(o, "error", json_string(r->error), &bad);
	if (rec->state != RS_OK)
		return jp_done(o, bad);
	jp_put(o, "work", json_integer((json_int_t)rec->work), &bad);
	jp_put(o, "unit", json_string(result_work_unit(k)), &bad);
	jp_put(o, "elapsed", json_real(rec->elapsed), &bad);
	jp_put(o, "user", json_real(rec->user), &bad);
	jp_put(o, "sys", json_real(rec->sys), &bad);
	jp_put(o, "rate", json_real(result_rate(rec, k)), &bad);
	jp_put(o, "rate_unit", json_string(result_rate_unit(k)), &bad);
	if (rec->op_bytes) {
		jp_put(o, "block_size", json_integer((json_int_t)rec->op_bytes),
		       &bad);
		jp_put(o, "bandwidth",
		       json_real(result_rate(rec, k) * (double)rec->op_bytes),
		       &bad);
	}
	if (rec->how[0])
		jp_put(o, "how", json_string(rec->how), &bad);
	jp_put(o, "cpu_percent", json_integer(result_pcp(rec)), &bad);
	/* A figure whose records hold no latency (another program's). */
	if (!(figure_of(t)->keys & FK_LATENCY))
		return jp_done(o, bad);
	jp_put(o, "max_latency_ns",
	       json_integer((json_int_t)rec->max_latency_ns), &bad);
	if (rec->start_unix_ns)
		jp_put(o, "start_unix_ns",
		       json_integer((json_int_t)rec->start_unix_ns), &bad);
	/* Not recorded (--no-latency): an empty histogram, count 0. */
	jp_put(o, "latency", latency(rec->lat ? rec->lat : &none), &bad);
	jp_put(o, "histogram", histogram(rec->lat ? rec->lat : &none), &bad);
	io_parts(o, rec, &bad);
	if (rec->nintervals)
		jp_put(o, "intervals",
		       json_intervals(rec->intervals, rec->nintervals, -1),
		       &bad);
	if (rec->cliff.looked)
		jp_put(o, "cliff", json_cliff(&rec->cliff), &bad);
	if (rec->steady)
		jp_put(o, "steady", json_steady(rec->steady), &bad);
	if (rec->preconditioned)
		jp_put(o, "preconditioned", json_true(), &bad);
	if (rec->nworkers)
		jp_put(o, "workers", workers(rec), &bad);
	if (rec->spans.on) {
		const struct result_spans *sp = &rec->spans;

		jp_put(
		    o, "first_finished",
		    span(k, sp->first_work, sp->first_elapsed, sp->first_exact),
		    &bad);
		jp_put(o, "last_finished",
		       span(k, sp->last_work, sp->last_elapsed, -1), &bad);
	}
	return jp_done(o, bad);
}

json_t *json_run(const struct run_result *r)
{
	json_t *o = json_object(), *tests = json_object();
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);
	int bad = 0;

	if (f) {
		csv_write(f, r, CSV_198);
		fclose(f);
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
	}
	jp_put(o, "seed", json_integer((json_int_t)r->seed), &bad);
	jp_put(o, "cache_left",
	       r->cache_left < 0 ? json_null() : json_real(r->cache_left),
	       &bad);
	jp_put(o, "error", r->error[0] ? json_string(r->error) : json_null(),
	       &bad);
	if (r->precondition.passes)
		jp_put(o, "precondition",
		       json_pack("{s:I,s:I,s:I,s:f}", "passes",
				 (json_int_t)r->precondition.passes, "bytes",
				 (json_int_t)r->precondition.bytes,
				 "block_size",
				 (json_int_t)r->precondition.block_size,
				 "seconds", r->precondition.seconds),
		       &bad);
	jp_put(o, "csv", json_string(line ? line : ""), &bad);
	free(line);
	/* Every figure clyde measures; another program's where r has it. */
	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (!(figure_of(t)->flags & FIGF_OTHER) ||
		    r->t[t].state != RS_NOT_RUN)
			jp_put(tests, result_test_name(t), json_test(r, t),
			       &bad);
	jp_put(o, "tests", tests, &bad);
	return jp_done(o, bad);
}

json_t *json_summary(unsigned nruns, const double (*rate)[RT_COUNT])
{
	json_t *o = json_object();
	struct stats s;
	int bad = 0;

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		unsigned n = result_summary(nruns, rate, t, &s);

		if (!n)
			continue;
		jp_put(o, result_test_name(t),
		       json_pack("{s:s,s:I,s:f,s:f,s:f,s:f,s:f,s:f}", "unit",
				 result_rate_unit(result_test_kind(t)), "n",
				 (json_int_t)n, "mean", s.mean, "sd", s.sd,
				 "min", s.min, "max", s.max, "ci_low", s.ci_low,
				 "ci_high", s.ci_high),
		       &bad);
	}
	return jp_done(o, bad);
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
