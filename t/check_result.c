/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_result: the one result model. A run_result clyde filled, written
 * as a clyde JSON document and read back by json_read_doc (what
 * clyde-report loads), is the same run_result: every test's status,
 * work, times, CPU split, worst latency, start and histogram, the run's
 * seed and error, the settings; so it writes the same CSV lines of every
 * format and the same JSON run. Bad measured values are refused with
 * their key named.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "csv.h"
#include "fixture.h"
#include "json.h"
#include "jput.h"

/* r with settings off their defaults, a CPU split and histograms. */
static void measured(struct run_result *r)
{
	fx_vm200(r);
	r->chunk = 65536;
	r->seeks = 4096;
	r->seek_procs = 3;
	r->num_files = 4;
	r->max_size = 2000;
	r->min_size = 100;
	r->num_dirs = 3;
	r->file_chunk = 4096;
	r->cache_left = 0.25;
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		struct result_test_rec *rec = &r->t[t];
		struct hist h;

		/* (A figure the fixture did not run has no start: JSON
		 * writes only the status of such a test.) */
		if (rec->state != RS_OK)
			continue;
		rec->user = rec->cpu * 0.25;
		rec->sys = rec->cpu - rec->user;
		/* Past 2^53, where a double would no longer hold it. */
		rec->start_unix_ns = 1796117602659400129ull + t * 1000003ull;
		if (t == RT_put_block) {
			/* --log-interval's, tiling the window from 0,
			 * the last without percentiles (the log full). */
			rec->nintervals = 3;
			rec->intervals = calloc(3, sizeof(*rec->intervals));
			ck_assert_ptr_nonnull(rec->intervals);
			for (unsigned k = 0; k < 3; k++)
				rec->intervals[k] = (struct result_interval){
				    .end = 0.5 * (k + 1) + 0.001,
				    .secs = k ? 0.5 : 0.501,
				    .ops = 100 + k,
				    .bytes = (100 + k) * 65536ull,
				    .p50_ns = k < 2 ? 40000 + k : 0,
				    .p99_ns = k < 2 ? 900000 + k : 0,
				    .max_ns = 1000000 + k};
		}
		if (t == RT_seq_del)
			continue; /* one test without a histogram */
		hist_init(&h);
		for (uint64_t k = 1; k <= 100 + t; k++)
			hist_add(&h, k * k * 997 + t);
		rec->lat = result_hist_dup(&h);
		ck_assert_ptr_nonnull(rec->lat);
	}
}

/* The settings object clyde writes for r (src/clyde/jsondoc.c's keys). */
static json_t *settings_of(const struct run_result *r)
{
	return json_pack(
	    "{s:I,s:I,s:I,s:i,s:i,s:{s:I,s:I,s:I,s:I,s:I}}", "file_size",
	    (json_int_t)r->file_size, "chunk", (json_int_t)r->chunk, "seeks",
	    (json_int_t)r->seeks, "seek_procs", (int)r->seek_procs,
	    "concurrency", (int)r->concurrency, "files", "num",
	    (json_int_t)r->num_files, "max_size", (json_int_t)r->max_size,
	    "min_size", (json_int_t)r->min_size, "dirs",
	    (json_int_t)r->num_dirs, "chunk",
	    (json_int_t)(r->file_chunk ? r->file_chunk
				       : RESULT_DEF_FILE_CHUNK));
}

static char *doc_text(const struct run_result *r, json_t *settings)
{
	json_t *doc = json_pack("{s:i,s:s,s:o,s:[o]}", "schema_version",
				JSON_SCHEMA_VERSION, "program", "clyde",
				"settings", settings, "runs", json_run(r));
	char *text = json_dumps(doc, JSON_REAL_PRECISION(17));

	ck_assert_ptr_nonnull(text);
	json_decref(doc);
	return text;
}

/* Read text as clyde-report does; n runs expected, or -1 and why. */
static struct run_result *read_doc(const char *text, unsigned flags, int want,
				   char *why, size_t whylen)
{
	struct run_result *rows = NULL;
	int line, n;

	why[0] = '\0';
	n = json_read_doc(text, strlen(text), flags, &rows, NULL, NULL, NULL,
			  why, whylen, &line);
	ck_assert_msg(n == want, "%d runs, not %d: %s", n, want, why);
	return rows;
}

static char *line_of(const struct run_result *r, enum csv_format fmt)
{
	char *buf = NULL;

	FX_CAPTURE(buf, csv_write(out, r, fmt));
	return buf;
}

START_TEST(document_round_trip)
{
	static const enum csv_format fmts[] = {CSV_198, CSV_197, CSV_103};
	struct run_result r, *back;
	char *text, why[300];
	json_t *a, *b;

	measured(&r);
	text = doc_text(&r, settings_of(&r));
	back = read_doc(text, JSON_READ_HIST, 1, why, sizeof(why));
	ck_assert_int_eq(back->measured, 1);
	ck_assert_uint_eq(back->seed, r.seed);
	ck_assert_double_eq(back->cache_left, r.cache_left);
	ck_assert_uint_eq(back->chunk, r.chunk);
	ck_assert_uint_eq(back->seeks, r.seeks);
	ck_assert_uint_eq(back->seek_procs, r.seek_procs);
	ck_assert_uint_eq(back->num_files, r.num_files);
	ck_assert_int_eq(back->max_size, r.max_size);
	ck_assert_uint_eq(back->min_size, r.min_size);
	ck_assert_uint_eq(back->num_dirs, r.num_dirs);
	ck_assert_uint_eq(back->file_chunk, r.file_chunk);
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct result_test_rec *x = &r.t[t], *y = &back->t[t];

		ck_assert_int_eq(y->state, x->state);
		ck_assert_uint_eq(y->work, x->work);
		ck_assert_double_eq(y->elapsed, x->elapsed);
		ck_assert_double_eq(y->user, x->user);
		ck_assert_double_eq(y->sys, x->sys);
		ck_assert_uint_eq(y->max_latency_ns, x->max_latency_ns);
		ck_assert_uint_eq(y->start_unix_ns, x->start_unix_ns);
		ck_assert_uint_eq(y->nintervals, x->nintervals);
		for (unsigned k = 0; k < x->nintervals; k++) {
			const struct result_interval *a = &x->intervals[k],
						     *b = &y->intervals[k];

			ck_assert_double_eq(b->end, a->end);
			ck_assert_double_eq(b->secs, a->secs);
			ck_assert_uint_eq(b->ops, a->ops);
			ck_assert_uint_eq(b->bytes, a->bytes);
			ck_assert_uint_eq(b->p50_ns, a->p50_ns);
			ck_assert_uint_eq(b->p99_ns, a->p99_ns);
			ck_assert_uint_eq(b->max_ns, a->max_ns);
		}
		if (!x->lat) {
			ck_assert_ptr_null(y->lat);
			continue;
		}
		ck_assert_ptr_nonnull(y->lat);
		ck_assert_uint_eq(y->lat->count, x->lat->count);
		ck_assert_uint_eq(y->lat->sum_ns, x->lat->sum_ns);
		ck_assert_uint_eq(y->lat->min_ns, x->lat->min_ns);
		ck_assert_uint_eq(y->lat->max_ns, x->lat->max_ns);
		ck_assert_int_eq(
		    memcmp(y->lat->b, x->lat->b, sizeof(x->lat->b)), 0);
	}
	/* So it is the run clyde filled: the same lines, the same run. */
	for (size_t k = 0; k < 3; k++) {
		char *l1 = line_of(&r, fmts[k]), *l2 = line_of(back, fmts[k]);

		ck_assert_str_eq(l2, l1);
		free(l1);
		free(l2);
	}
	a = json_run(&r);
	b = json_run(back);
	ck_assert_msg(json_equal(a, b), "the JSON runs differ");
	json_decref(a);
	json_decref(b);
	result_free(back);
	free(back);
	free(text);
	result_free(&r);
}
END_TEST

/* Without JSON_READ_HIST no histogram is kept; the rest is the same. */
START_TEST(document_without_histograms)
{
	struct run_result r, *back;
	char *text, why[300];

	measured(&r);
	text = doc_text(&r, settings_of(&r));
	back = read_doc(text, 0, 1, why, sizeof(why));
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		ck_assert_ptr_null(back->t[t].lat);
		ck_assert_uint_eq(back->t[t].work, r.t[t].work);
	}
	/* The percentiles in the cells come from the latency objects. */
	ck_assert_int_eq(back->c[RT_put_block].has_pct, 1);
	ck_assert_uint_eq(back->c[RT_put_block].p99_ns,
			  hist_percentile(r.t[RT_put_block].lat, 99));
	result_free(back);
	free(back);
	free(text);
	result_free(&r);
}
END_TEST

/* A CSV line fills the shown part alone. */
START_TEST(line_is_shown_only)
{
	struct run_result r, back;
	char *l, why[200];

	measured(&r);
	l = line_of(&r, CSV_198);
	ck_assert_int_eq(csv_parse(l, strlen(l), &back, why, sizeof(why)),
			 CSV_LINE_ROW);
	ck_assert_int_eq(back.measured, 0);
	ck_assert_str_eq(back.text.size, "2G");
	ck_assert_str_eq(back.text.chunk, "64k");
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		ck_assert_ptr_null(back.t[t].lat);
		ck_assert_uint_eq(back.t[t].work, 0);
	}
	free(l);
	result_free(&r);
}
END_TEST

/*
 * A measured value that is wrong: the run is refused, the key named.
 * set is jq-like: the test's key and the value put there.
 */
static const struct bad_measured {
	const char *test, *key, *value, *want;
} bad_measured[] = {
    {"put_block", "work", "\"x\"", "tests.put_block.work \"x\" is not"},
    {"put_block", "work", "-1", "tests.put_block.work -1 is not"},
    {"putc", "elapsed", "-0.5", "tests.putc.elapsed -0.5 is not a time"},
    {"putc", "user", "null", "tests.putc.user null is not a time"},
    {"seeks", "start_unix_ns", "1.5e9",
     "tests.seeks.start_unix_ns 1500000000.0 is not a start"},
    {"seeks", "start_unix_ns", "-1", "tests.seeks.start_unix_ns -1 is not"},
    {"seeks", "start_unix_ns", "\"now\"",
     "tests.seeks.start_unix_ns \"now\" is not a start"},
    {"getc", "histogram", "7", "tests.getc.histogram 7 is not"},
    {"getc", "histogram", "[[1000,1015,0]]",
     "tests.getc.histogram[0] [1000,1015,0] is not a bucket"},
    {"getc", "histogram", "[[1001,1016,1]]",
     "tests.getc.histogram[0] [1001,1016,1] is not a bucket of clyde's"},
    {"getc", "histogram", "[[64,64,1],[64,64,2]]",
     "tests.getc.histogram[1] [64,64,2] is not a bucket of clyde's "
     "histogram, each once"},
    {"getc", "histogram", "[[64,64]]", "tests.getc.histogram[0] [64,64]"},
    {"put_block", "intervals",
     "[{\"end\": 1, \"seconds\": 0.5, \"ops\": 1},"
     " {\"end\": 0.5, \"seconds\": 0.5, \"ops\": 1}]",
     "tests.put_block.intervals[1].end 0.5 is not in time order"},
    {"put_block", "intervals",
     "[{\"end\": 0.5, \"seconds\": 0.5, \"ops\": 1},"
     " {\"end\": 1.5, \"seconds\": 0.5, \"ops\": 1}]",
     "tests.put_block.intervals[1].seconds 0.5 is not the time since "
     "intervals[0] ended"},
};

START_TEST(bad_measured_values)
{
	const struct bad_measured *b = &bad_measured[_i];
	struct run_result r;
	json_t *doc, *v;
	char *text, why[300];
	json_error_t e;

	measured(&r);
	text = doc_text(&r, settings_of(&r));
	doc = json_loads(text, 0, NULL);
	free(text);
	v = json_loads(b->value, JSON_DECODE_ANY, &e);
	ck_assert_ptr_nonnull(v);
	json_object_set_new(
	    json_object_get(
		json_object_get(json_array_get(json_object_get(doc, "runs"), 0),
				"tests"),
		b->test),
	    b->key, v);
	text = json_dumps(doc, 0);
	read_doc(text, JSON_READ_HIST, -1, why, sizeof(why));
	ck_assert_msg(strstr(why, b->want), "'%s' lacks '%s'", why, b->want);
	free(text);
	json_decref(doc);
	result_free(&r);
}
END_TEST

/* Settings s (settings_of's, changed) refused with why want. */
static void setting_refused(const struct run_result *r, json_t *s,
			    const char *want)
{
	char *text = doc_text(r, s), why[300];

	read_doc(text, 0, -1, why, sizeof(why));
	ck_assert_str_eq(why, want);
	free(text);
}

/* Bad settings, and the ones clyde-report json writes (null). */
START_TEST(settings_checked)
{
	struct run_result r, *back;
	char *text, why[300];
	json_t *s;

	measured(&r);
	s = settings_of(&r);
	json_object_set_new(s, "chunk", json_string("64k"));
	setting_refused(&r, s,
			"settings.chunk \"64k\" is not a setting: expected a "
			"whole number from 0 to 1000000000000000000");
	s = settings_of(&r);
	json_object_set_new(json_object_get(s, "files"), "max_size",
			    json_integer(-3));
	setting_refused(&r, s,
			"settings.files.max_size -3 is not a setting: expected "
			"a whole number from -2 to 1000000000000000000");
	text = doc_text(&r, json_null());
	back = read_doc(text, 0, 1, why, sizeof(why));
	ck_assert_uint_eq(back->chunk, RESULT_DEF_CHUNK);
	result_free(back);
	free(back);
	free(text);
	result_free(&r);
}
END_TEST

/*
 * A value jansson refuses (NULL: text that is not UTF-8, or no memory)
 * is never left out without a word: jp_put and jp_append mark the
 * builder bad and jp_done gives NULL, so json_run of a run whose error
 * is not UTF-8 gives no run at all rather than one without its "error".
 */
START_TEST(refused_value_fails_builder)
{
	struct run_result r;
	json_t *o = json_object(), *a = json_array(), *run;
	int bad = 0;

	ck_assert_ptr_nonnull(o);
	ck_assert_ptr_nonnull(a);
	jp_put(o, "fine", json_integer(1), &bad);
	ck_assert_int_eq(bad, 0);
	jp_put(o, "text", json_string("\xff"), &bad);
	ck_assert_int_eq(bad, 1);
	ck_assert_ptr_null(jp_done(o, bad));
	bad = 0;
	jp_append(a, json_integer(1), &bad);
	ck_assert_int_eq(bad, 0);
	jp_append(a, NULL, &bad);
	ck_assert_int_eq(bad, 1);
	ck_assert_ptr_null(jp_done(a, bad));

	measured(&r);
	r.t[RT_putc].state = RS_FAILED;
	snprintf(r.error, sizeof(r.error), "putc: write '\xff': EIO");
	ck_assert_ptr_null(json_run(&r));
	snprintf(r.error, sizeof(r.error), "putc: write 'x': EIO");
	run = json_run(&r);
	ck_assert_ptr_nonnull(run);
	ck_assert_str_eq(
	    json_string_value(json_object_get(
		json_object_get(json_object_get(run, "tests"), "putc"),
		"error")),
	    "putc: write 'x': EIO");
	json_decref(run);
	result_free(&r);
}
END_TEST

static Suite *result_suite(void)
{
	Suite *s = suite_create("result");
	TCase *tc = tcase_create("result");

	tcase_add_test(tc, document_round_trip);
	tcase_add_test(tc, document_without_histograms);
	tcase_add_test(tc, line_is_shown_only);
	tcase_add_loop_test(tc, bad_measured_values, 0,
			    sizeof(bad_measured) / sizeof(bad_measured[0]));
	tcase_add_test(tc, settings_checked);
	tcase_add_test(tc, refused_value_fails_builder);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(result_suite)
