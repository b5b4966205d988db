/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_phase_io: a random-I/O figure's own parts from phase_op_io to
 * the document. Two workers record known operations, their figures go
 * through their slots (struct workers_io) and are merged as -c N merges
 * them; the record written as a JSON document and read back holds every
 * part (service times, reads and writes, the schedule, the intervals'
 * service percentiles), writes the same run again, and a bad value of
 * each is refused in one line naming its key. Likewise a test's
 * steady-state run (--steady), steady with its window and not steady
 * without one.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "csv.h"
#include "json.h"
#include "phase.h"
#include "steady.h"
#include "table.h"
#include "workers.h"

/* Worker a: 3 reads of 4 KiB (response 2 us, service 1 us), 1 write of
 * 8 KiB (5 us, 3 us), 100 due, 90 issued, 10 late, 4 of them held for a
 * slot. */
static void worker_a(struct phase_out *out)
{
	phase_out_init(out, 1);
	for (int i = 0; i < 3; i++)
		phase_op_io(out, PHASE_READ, 4096, 2000, 1000);
	phase_op_io(out, PHASE_WRITE, 8192, 5000, 3000);
	out->sched = (struct phase_sched){.rate = 1000,
					  .fixed = 0,
					  .due = 100,
					  .issued = 90,
					  .late = 10,
					  .late_held = 4};
}

/* Worker b: 1 read (4 us, 2 us), 2 writes (6 us, 4 us), all on time. */
static void worker_b(struct phase_out *out)
{
	phase_out_init(out, 1);
	phase_op_io(out, PHASE_READ, 4096, 4000, 2000);
	for (int i = 0; i < 2; i++)
		phase_op_io(out, PHASE_WRITE, 8192, 6000, 4000);
	out->sched = (struct phase_sched){
	    .rate = 1000, .fixed = 0, .due = 100, .issued = 100, .late = 0};
}

/* The two workers through their slots, merged into one phase_out as the
 * conductor of -c 2 merges them. */
static void merged(struct phase_out *out)
{
	static struct phase_out a, b;
	static struct workers_result ra, rb, sum;

	worker_a(&a);
	worker_b(&b);
	workers_result_init(&ra);
	workers_result_init(&rb);
	workers_result_init(&sum);
	ra.max_latency_ns = a.max_latency_ns;
	rb.max_latency_ns = b.max_latency_ns;
	hist_merge(&ra.lat, &a.lat);
	hist_merge(&rb.lat, &b.lat);
	phase_out_io_put(&a, &ra.io);
	phase_out_io_put(&b, &rb.io);
	workers_merge(&sum, &ra);
	workers_merge(&sum, &rb);
	phase_out_init(out, 1);
	out->max_latency_ns = sum.max_latency_ns;
	hist_merge(&out->lat, &sum.lat);
	phase_out_io_add(out, &sum.io);
}

START_TEST(workers_merge_io)
{
	static struct phase_out out;

	merged(&out);
	ck_assert_int_eq(out.io, 1);
	ck_assert_uint_eq(out.kind[PHASE_READ].ops, 4);
	ck_assert_uint_eq(out.kind[PHASE_READ].bytes, 4 * 4096);
	ck_assert_uint_eq(out.kind[PHASE_WRITE].ops, 3);
	ck_assert_uint_eq(out.kind[PHASE_WRITE].bytes, 3 * 8192);
	ck_assert_uint_eq(out.lat.count, 7);
	ck_assert_uint_eq(out.svc.count, 7);
	ck_assert_uint_eq(out.svc.min_ns, 1000);
	ck_assert_uint_eq(out.svc.max_ns, 4000);
	ck_assert_uint_eq(out.svc.sum_ns, 3 * 1000 + 3000 + 2000 + 2 * 4000);
	ck_assert_uint_eq(out.kind[PHASE_READ].lat.count, 4);
	ck_assert_uint_eq(out.kind[PHASE_READ].lat.max_ns, 4000);
	ck_assert_uint_eq(out.kind[PHASE_WRITE].lat.count, 3);
	ck_assert_uint_eq(out.kind[PHASE_WRITE].lat.min_ns, 5000);
	/* Each worker was offered its share: the rates add up. */
	ck_assert_uint_eq(out.sched.rate, 2000);
	ck_assert_int_eq(out.sched.fixed, 0);
	ck_assert_uint_eq(out.sched.due, 200);
	ck_assert_uint_eq(out.sched.issued, 190);
	ck_assert_uint_eq(out.sched.late, 10);
	ck_assert_uint_eq(out.sched.late_held, 4);
}
END_TEST

/* A worker of another figure (no phase_op_io) adds nothing. */
START_TEST(no_io_no_parts)
{
	static struct phase_out out, back;
	static struct workers_result r;
	struct result_test_rec rec = {.state = RS_OK};

	phase_out_init(&out, 1);
	phase_op_took(&out, 1000);
	workers_result_init(&r);
	phase_out_io_put(&out, &r.io);
	ck_assert_int_eq(r.io.on, 0);
	phase_out_init(&back, 1);
	phase_out_io_add(&back, &r.io);
	ck_assert_int_eq(back.io, 0);
	ck_assert_int_eq(phase_out_io_record(&out, &rec), 0);
	ck_assert_int_eq(rec.io, 0);
	ck_assert_ptr_null(rec.svc);
	ck_assert_uint_eq(rec.sched.rate, 0);
}
END_TEST

/* The merge recorded into a run: ran_write of 2 s, with intervals. */
static void record(struct run_result *r)
{
	static struct phase_out out;
	struct result_test_rec *rec;

	merged(&out);
	result_init(r);
	if (result_measure(r) < 0)
		abort();
	rec = &r->t[RT_ran_write];
	rec->state = RS_OK;
	rec->work = 7;
	rec->elapsed = 2.0;
	rec->user = 0.25;
	rec->sys = 0.5;
	rec->cpu = 0.75;
	rec->max_latency_ns = out.max_latency_ns;
	rec->lat = result_hist_dup(&out.lat);
	ck_assert_ptr_nonnull(rec->lat);
	ck_assert_int_eq(phase_out_io_record(&out, rec), 0);
	rec->nintervals = 1;
	rec->intervals = calloc(1, sizeof(*rec->intervals));
	ck_assert_ptr_nonnull(rec->intervals);
	rec->intervals[0] = (struct result_interval){.end = 2.0,
						     .secs = 2.0,
						     .ops = 7,
						     .bytes = 40960,
						     .p50_ns = 4000,
						     .p99_ns = 6000,
						     .max_ns = 6000,
						     .svc_p50_ns = 2000,
						     .svc_p99_ns = 4000};
}

static char *doc_text(const struct run_result *r)
{
	json_t *doc =
	    json_pack("{s:i,s:s,s:[o]}", "schema_version", JSON_SCHEMA_VERSION,
		      "program", "clyde", "runs", json_run(r));
	char *text = json_dumps(doc, JSON_REAL_PRECISION(17));

	ck_assert_ptr_nonnull(text);
	json_decref(doc);
	return text;
}

static void same_hist(const struct hist *x, const struct hist *y)
{
	ck_assert_ptr_nonnull(x);
	ck_assert_ptr_nonnull(y);
	ck_assert_uint_eq(y->count, x->count);
	ck_assert_uint_eq(y->sum_ns, x->sum_ns);
	ck_assert_uint_eq(y->min_ns, x->min_ns);
	ck_assert_uint_eq(y->max_ns, x->max_ns);
	ck_assert_int_eq(memcmp(y->b, x->b, sizeof(x->b)), 0);
}

/* The keys json.c writes for the test, by value. */
static void keys_written(json_t *test)
{
	json_t *reads = json_object_get(test, "reads");
	json_t *sched = json_object_get(test, "schedule");

	ck_assert_int_eq(json_integer_value(json_object_get(
			     json_object_get(test, "service"), "count")),
			 7);
	ck_assert(json_is_array(json_object_get(test, "service_histogram")));
	ck_assert_int_eq(json_integer_value(json_object_get(reads, "ops")), 4);
	ck_assert_int_eq(json_integer_value(json_object_get(reads, "bytes")),
			 16384);
	ck_assert_double_eq_tol(
	    json_number_value(json_object_get(reads, "iops")), 2.0, 1e-9);
	ck_assert_int_eq(
	    json_integer_value(json_object_get(
		json_object_get(json_object_get(test, "writes"), "latency"),
		"min_ns")),
	    5000);
	ck_assert_int_eq(json_integer_value(json_object_get(sched, "rate")),
			 2000);
	ck_assert_str_eq(json_string_value(json_object_get(sched, "arrivals")),
			 "poisson");
	/* 10 never issued of 200 due; 10 late of 190 issued. */
	ck_assert_double_eq_tol(
	    json_number_value(json_object_get(sched, "behind_share")), 0.05,
	    1e-12);
	ck_assert_double_eq_tol(
	    json_number_value(json_object_get(sched, "late_share")),
	    10.0 / 190.0, 1e-12);
}

START_TEST(document_round_trip)
{
	struct run_result r, *back = NULL;
	const struct result_test_rec *x, *y;
	char *text, why[300];
	json_t *a, *b;
	int line, n;

	record(&r);
	x = &r.t[RT_ran_write];
	text = doc_text(&r);
	n = json_read_doc(text, strlen(text), JSON_READ_HIST, &back, NULL, NULL,
			  NULL, why, sizeof(why), &line);
	ck_assert_msg(n == 1, "%d runs: %s", n, why);
	y = &back->t[RT_ran_write];
	ck_assert_int_eq(y->io, 1);
	same_hist(x->svc, y->svc);
	for (int k = 0; k < RESULT_KINDS; k++) {
		ck_assert_uint_eq(y->kind[k].ops, x->kind[k].ops);
		ck_assert_uint_eq(y->kind[k].bytes, x->kind[k].bytes);
		same_hist(x->kind[k].lat, y->kind[k].lat);
	}
	ck_assert_uint_eq(y->sched.rate, 2000);
	ck_assert_int_eq(y->sched.fixed, 0);
	ck_assert_uint_eq(y->sched.due, 200);
	ck_assert_uint_eq(y->sched.issued, 190);
	ck_assert_uint_eq(y->sched.late, 10);
	ck_assert_uint_eq(y->sched.late_held, 4);
	ck_assert_uint_eq(y->nintervals, 1);
	ck_assert_uint_eq(y->intervals[0].svc_p50_ns, 2000);
	ck_assert_uint_eq(y->intervals[0].svc_p99_ns, 4000);
	/* Read back, the same run again. */
	a = json_run(&r);
	b = json_run(back);
	keys_written(json_object_get(json_object_get(a, "tests"), "ran_write"));
	ck_assert_msg(json_equal(a, b), "the JSON runs differ");
	json_decref(a);
	json_decref(b);
	result_free(back);
	free(back);
	free(text);
	result_free(&r);
}
END_TEST

/* A test of one kind has no reads and writes apart; one without a rate
 * no schedule; one without svc no service: none of their keys. */
START_TEST(only_what_it_has)
{
	struct run_result r;
	struct result_test_rec *rec;
	json_t *run, *test;

	record(&r);
	rec = &r.t[RT_ran_write];
	rec->kind[RESULT_READS].ops = 0;
	rec->sched.rate = 0;
	free(rec->svc);
	rec->svc = NULL;
	run = json_run(&r);
	test = json_object_get(json_object_get(run, "tests"), "ran_write");
	ck_assert_ptr_nonnull(json_object_get(test, "latency"));
	ck_assert_ptr_null(json_object_get(test, "service"));
	ck_assert_ptr_null(json_object_get(test, "service_histogram"));
	ck_assert_ptr_null(json_object_get(test, "reads"));
	ck_assert_ptr_null(json_object_get(test, "writes"));
	ck_assert_ptr_null(json_object_get(test, "schedule"));
	json_decref(run);
	result_free(&r);
}
END_TEST

/* The member of o that part names: "a", or "a[2]", the third element
 * of array a. */
static json_t *member(json_t *o, const char *part)
{
	char name[64], *open;

	snprintf(name, sizeof(name), "%s", part);
	if (!(open = strchr(name, '[')))
		return json_object_get(o, name);
	*open = '\0';
	return json_array_get(json_object_get(o, name),
			      strtoul(open + 1, NULL, 10));
}

/* The document of the run fill records, with key path (a.b.c, a part
 * "a[2]" an array's element) of ran_write set to value (JSON text;
 * NULL removes it): refused in one line naming want. */
static void refused_of(void (*fill)(struct run_result *), const char *path,
		       const char *value, const char *want)
{
	struct run_result r, *back = NULL;
	char *text, why[400], key[64];
	const char *rest = path, *dot;
	json_t *doc, *at;
	int line, n;

	fill(&r);
	text = doc_text(&r);
	doc = json_loads(text, 0, NULL);
	free(text);
	ck_assert_ptr_nonnull(doc);
	at = json_object_get(
	    json_object_get(json_array_get(json_object_get(doc, "runs"), 0),
			    "tests"),
	    "ran_write");
	/* Each part but the last an object's key or an element. */
	while ((dot = strchr(rest, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - rest), rest);
		at = member(at, key);
		ck_assert_msg(json_is_object(at), "%s: no object at %s", path,
			      key);
		rest = dot + 1;
	}
	snprintf(key, sizeof(key), "%s", rest);
	if (value)
		json_object_set_new(at, key,
				    json_loads(value, JSON_DECODE_ANY, NULL));
	else
		json_object_del(at, key);
	text = json_dumps(doc, 0);
	json_decref(doc);
	n = json_read_doc(text, strlen(text), JSON_READ_HIST, &back, NULL, NULL,
			  NULL, why, sizeof(why), &line);
	ck_assert_int_eq(n, -1);
	ck_assert_msg(strstr(why, want) != NULL, "why: %s (want %s)", why,
		      want);
	ck_assert_ptr_null(strchr(why, '\n'));
	free(text);
	result_free(&r);
}

static void refused(const char *path, const char *value, const char *want)
{
	refused_of(record, path, value, want);
}

START_TEST(bad_values_refused)
{
	refused("service.p50_ns", "-1", "tests.ran_write.service.p50_ns");
	refused("service", "\"x\"", "tests.ran_write.service");
	refused("service_histogram", NULL, "service without service_histogram");
	refused("service_histogram", "[[1,2,3]]",
		"tests.ran_write.service_histogram[0]");
	refused("reads", NULL, "writes without reads");
	refused("reads", "7", "tests.ran_write.reads");
	refused("reads.ops", "-3", "tests.ran_write.reads.ops");
	refused("writes.bytes", NULL, "tests.ran_write.writes has no bytes");
	refused("writes.iops", "\"fast\"", "tests.ran_write.writes.iops");
	refused("writes.latency", NULL, "writes has no latency");
	refused("schedule", "[]", "tests.ran_write.schedule");
	refused("schedule.rate", "0", "tests.ran_write.schedule.rate");
	refused("schedule.arrivals", "\"uniform\"",
		"tests.ran_write.schedule.arrivals");
	refused("schedule.issued", "201", "tests.ran_write.schedule.issued");
	refused("schedule.late", "191", "tests.ran_write.schedule.late");
	refused("schedule.late_held", "11",
		"tests.ran_write.schedule.late_held");
	refused("schedule.late_held", "-1",
		"tests.ran_write.schedule.late_held");
	refused("schedule.late_share", "1.5",
		"tests.ran_write.schedule.late_share");
	refused("schedule.due", NULL, "schedule has no due");
}
END_TEST

/* ran_write run under --steady=5:20:10:iops, 10 s rounds, 600 s at
 * most: n rounds of 10 s, the last 5 steady when n is 7 (the window
 * then judged as the rule does). */
static void steady_of(struct run_result *r, unsigned n)
{
	static const uint64_t ops[] = {500, 700, 1000, 1010, 990, 1005, 995};
	struct steady_run *s = calloc(1, sizeof(*s));
	double y[STEADY_ROUNDS_MAX];

	ck_assert_ptr_nonnull(s);
	ck_assert_uint_le(n, 7);
	s->rule = (struct steady_rule){
	    .rounds = 5, .range_pct = 20, .slope_pct = 10, .on = STEADY_IOPS};
	s->round_s = 10;
	s->max_s = 600;
	s->nrounds = n;
	s->seconds = 10.0 * n + 0.25;
	s->rounds = calloc(n, sizeof(*s->rounds));
	ck_assert_ptr_nonnull(s->rounds);
	for (unsigned i = 0; i < n; i++) {
		struct steady_round *rd = &s->rounds[i];

		rd->seconds = 10.0 + i / 1000.0;
		rd->ops = ops[i];
		rd->bytes = ops[i] * 4096;
		rd->p99_ns = 250000 + 1000 * i;
		rd->value = steady_value(rd, s->rule.on);
	}
	if (n >= s->rule.rounds) {
		s->first = n - s->rule.rounds;
		for (unsigned i = 0; i < s->rule.rounds; i++)
			y[i] = s->rounds[s->first + i].value;
		s->steady =
		    steady_judge(y, s->rule.rounds, &s->rule, &s->window);
	}
	r->t[RT_ran_write].steady = s;
}

static void record_steady(struct run_result *r)
{
	record(r);
	steady_of(r, 7);
}

static void record_unsteady(struct run_result *r)
{
	record(r);
	steady_of(r, 3);
}

/* r written as a document and read back: its ran_write's steady run,
 * the same run written again. */
static struct run_result *steady_back(const struct run_result *r)
{
	struct run_result *back = NULL;
	char *text = doc_text(r), why[300];
	json_t *a, *b;
	int line, n;

	n = json_read_doc(text, strlen(text), JSON_READ_HIST, &back, NULL, NULL,
			  NULL, why, sizeof(why), &line);
	ck_assert_msg(n == 1, "%d runs: %s", n, why);
	free(text);
	a = json_run(r);
	b = json_run(back);
	ck_assert_ptr_nonnull(a);
	ck_assert_msg(json_equal(a, b), "the JSON runs differ");
	json_decref(a);
	json_decref(b);
	ck_assert_ptr_nonnull(back->t[RT_ran_write].steady);
	return back;
}

/* Every field of x and y the same (the window's when x has one). */
static void same_steady(const struct steady_run *x, const struct steady_run *y)
{
	const struct steady_window *v = &x->window, *w = &y->window;

	ck_assert_uint_eq(y->rule.rounds, x->rule.rounds);
	ck_assert(y->rule.range_pct == x->rule.range_pct);
	ck_assert(y->rule.slope_pct == x->rule.slope_pct);
	ck_assert_int_eq(y->rule.on, x->rule.on);
	ck_assert(y->round_s == x->round_s);
	ck_assert(y->max_s == x->max_s);
	ck_assert(y->seconds == x->seconds);
	ck_assert_int_eq(y->steady, x->steady);
	ck_assert_uint_eq(y->nrounds, x->nrounds);
	ck_assert_uint_eq(y->first, x->first);
	for (unsigned i = 0; i < x->nrounds; i++) {
		ck_assert(y->rounds[i].seconds == x->rounds[i].seconds);
		ck_assert_uint_eq(y->rounds[i].ops, x->rounds[i].ops);
		ck_assert_uint_eq(y->rounds[i].bytes, x->rounds[i].bytes);
		ck_assert_uint_eq(y->rounds[i].p99_ns, x->rounds[i].p99_ns);
		ck_assert(y->rounds[i].value == x->rounds[i].value);
	}
	ck_assert(w->avg == v->avg);
	ck_assert(w->min == v->min);
	ck_assert(w->max == v->max);
	ck_assert(w->range == v->range);
	ck_assert(w->slope == v->slope);
	ck_assert(w->excursion == v->excursion);
	ck_assert_int_eq(w->range_ok, v->range_ok);
	ck_assert_int_eq(w->slope_ok, v->slope_ok);
}

START_TEST(steady_round_trip)
{
	struct run_result r, *back;
	const struct steady_run *s;
	json_t *run, *o, *w;

	record_steady(&r);
	s = r.t[RT_ran_write].steady;
	ck_assert_int_eq(s->steady, 1);
	ck_assert_uint_eq(s->first, 2);
	run = json_run(&r);
	o = json_object_get(
	    json_object_get(json_object_get(run, "tests"), "ran_write"),
	    "steady");
	w = json_object_get(o, "window");
	ck_assert_str_eq(json_string_value(
			     json_object_get(json_object_get(o, "rule"), "on")),
			 "iops");
	ck_assert_uint_eq(json_array_size(json_object_get(o, "rounds")), 7);
	ck_assert_int_eq(json_integer_value(json_object_get(w, "first")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(w, "rounds")), 5);
	ck_assert(json_is_true(json_object_get(o, "steady")));
	json_decref(run);
	back = steady_back(&r);
	same_steady(s, back->t[RT_ran_write].steady);
	result_free(back);
	free(back);
	result_free(&r);
}
END_TEST

/* Fewer rounds than the rule's window: not steady, and no window. */
START_TEST(unsteady_round_trip)
{
	struct run_result r, *back;
	const struct steady_run *s;
	json_t *run, *o;

	record_unsteady(&r);
	s = r.t[RT_ran_write].steady;
	run = json_run(&r);
	o = json_object_get(
	    json_object_get(json_object_get(run, "tests"), "ran_write"),
	    "steady");
	ck_assert(json_is_false(json_object_get(o, "steady")));
	ck_assert_ptr_null(json_object_get(o, "window"));
	json_decref(run);
	back = steady_back(&r);
	same_steady(s, back->t[RT_ran_write].steady);
	ck_assert_int_eq(back->t[RT_ran_write].steady->steady, 0);
	result_free(back);
	free(back);
	/* Without --steady, no steady object and none read. */
	steady_run_free(r.t[RT_ran_write].steady);
	r.t[RT_ran_write].steady = NULL;
	run = json_run(&r);
	ck_assert_ptr_null(json_object_get(
	    json_object_get(json_object_get(run, "tests"), "ran_write"),
	    "steady"));
	json_decref(run);
	result_free(&r);
}
END_TEST

#define AT "runs[0].tests.ran_write.steady"

START_TEST(bad_steady_refused)
{
	refused_of(record_steady, "steady", "[]", AT " [] is not");
	refused_of(record_steady, "steady.rule.rounds", "\"5\"",
		   AT ".rule.rounds \"5\" is not a window");
	refused_of(record_steady, "steady.rule.rounds", "1",
		   AT ".rule.rounds 1 is not");
	refused_of(record_steady, "steady.rule.rounds", "101",
		   AT ".rule.rounds 101 is not");
	refused_of(record_steady, "steady.rule.range_pct", "0",
		   AT ".rule.range_pct 0 is not a percentage");
	refused_of(record_steady, "steady.rule.slope_pct", "100.5",
		   AT ".rule.slope_pct 100.5 is not a percentage");
	refused_of(record_steady, "steady.rule.on", "\"foo\"",
		   AT ".rule.on \"foo\" is not what a round measures");
	refused_of(record_steady, "steady.rule", NULL, AT ".rule (missing)");
	refused_of(record_steady, "steady.round_seconds", "0",
		   AT ".round_seconds 0 is not");
	refused_of(record_steady, "steady.seconds", NULL, AT " has no seconds");
	refused_of(record_steady, "steady.steady", "1",
		   AT ".steady 1 is not true or false");
	refused_of(record_steady, "steady.rounds", "{}",
		   AT ".rounds {} is not");
	refused_of(record_steady, "steady.rounds[6].ops", "-1",
		   AT ".rounds[6].ops -1 is not a count");
	refused_of(record_steady, "steady.rounds[0].value", "\"x\"",
		   AT ".rounds[0].value \"x\" is not");
	refused_of(record_steady, "steady.rounds[3].p99_ns", NULL,
		   AT ".rounds[3] has no p99_ns");
	/* first + rule.rounds > nrounds. */
	refused_of(record_steady, "steady.window.first", "3",
		   AT ".window.first 3 is not the window's first round");
	refused_of(record_steady, "steady.window.rounds", "4",
		   AT ".window.rounds 4 is not");
	refused_of(record_steady, "steady.window.max", "1",
		   AT ".window.max 1 is not");
	refused_of(record_steady, "steady.window.slope", "true",
		   AT ".window.slope true is not a slope");
	refused_of(record_steady, "steady.window.range_ok", NULL,
		   AT ".window has no range_ok");
	refused_of(record_steady, "steady.window", NULL, AT " has no window");
	/* Steady: only with a window that meets the rule. */
	refused_of(record_steady, "steady.window.slope_ok", "false",
		   AT ".steady true is not a verdict");
	/* A window in fewer rounds than the rule's. */
	refused_of(record_unsteady, "steady.window", "{}",
		   AT ".window {} is not");
	refused_of(record_unsteady, "steady.steady", "true",
		   AT ".steady true is not a verdict");
}
END_TEST

/* The text tables: the Random I/O section and -v's latency rows. */
START_TEST(text_rows)
{
	struct run_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int head = 0;

	record(&r);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	csv_cell_of(&r, RT_ran_write, &r.c[RT_ran_write]);
	table_print_io(f, "vm", &r, r.c, &head);
	table_print_latency(f, &r);
	fclose(f);
	ck_assert_msg(strstr(buf, "vm                  ran_write        read "
				  "            2.0") != NULL,
		      "%s", buf);
	ck_assert_msg(strstr(buf, "ran_write        write            1.5"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "ran_write        service            -"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "ran_write        response         3.5 "
				  "      4us       5us       5us       6us"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "2000 IOPS poisson: 200 due, 190 issued "
				  "(5.0% never), 10 late (5.3% of issued), 4 "
				  "held for a slot"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "\n  service    "), "%s", buf);
	ck_assert_msg(strstr(buf, "\n  read       "), "%s", buf);
	ck_assert_msg(strstr(buf, "\n  write      "), "%s", buf);
	free(buf);
	result_free(&r);
}
END_TEST

/* The warning after a test that did not keep up: only then, with the
 * never issued and the late each said. */
START_TEST(behind_schedule)
{
	struct result_sched s = {.rate = 2000,
				 .fixed = 1,
				 .due = 4000,
				 .issued = 2000,
				 .late = 1998};
	char msg[256];

	ck_assert_int_eq(phase_sched_behind(&s, "ran_mix", msg, sizeof(msg)),
			 1);
	ck_assert_str_eq(msg, "ran_mix: the target did not keep up with 2000 "
			      "IOPS: 50.0% of the 4000 I/Os due were never "
			      "issued, 99.9% of those issued went over 1 ms "
			      "late");
	/* All issued, 1% of them late: said. */
	s.issued = 4000;
	s.late = 40;
	ck_assert_int_eq(phase_sched_behind(&s, "ran_mix", msg, sizeof(msg)),
			 1);
	ck_assert_ptr_nonnull(strstr(msg, ": 0.0% of the 4000 I/Os due were "
					  "never issued, 1.0% of those"));
	/* Under 1% late, and the last arrival never issued: jitter. */
	s.late = 39;
	s.due = 4001;
	ck_assert_int_eq(phase_sched_behind(&s, "ran_mix", msg, sizeof(msg)),
			 0);
	/* A closed loop has no schedule to keep. */
	s = (struct result_sched){.due = 10};
	ck_assert_int_eq(phase_sched_behind(&s, "ran_mix", msg, sizeof(msg)),
			 0);
}
END_TEST

static Suite *phase_io_suite(void)
{
	Suite *s = suite_create("phase_io");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, workers_merge_io);
	tcase_add_test(tc, no_io_no_parts);
	tcase_add_test(tc, document_round_trip);
	tcase_add_test(tc, only_what_it_has);
	tcase_add_test(tc, bad_values_refused);
	tcase_add_test(tc, steady_round_trip);
	tcase_add_test(tc, unsteady_round_trip);
	tcase_add_test(tc, bad_steady_refused);
	tcase_add_test(tc, text_rows);
	tcase_add_test(tc, behind_schedule);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(phase_io_suite)
