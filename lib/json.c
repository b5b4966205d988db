/*
 * json: see json.h. Numbers are written by jansson, which uses the C
 * locale's decimal point whatever the environment says.
 */
#include "config.h"

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
	return k == RK_IO ? "bytes" : k == RK_SEEK ? "seeks" : "files";
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

static json_t *test(const struct run_result *r, enum result_test t)
{
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
	json_object_set_new(o, "cpu_percent", json_integer(result_pcp(rec)));
	json_object_set_new(o, "max_latency_ns",
			    json_integer((json_int_t)rec->max_latency_ns));
	json_object_set_new(o, "latency", latency(&rec->lat));
	json_object_set_new(o, "histogram", histogram(&rec->lat));
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
	for (enum result_test t = 0; t < RT_COUNT; t++)
		json_object_set_new(tests, result_test_name(t), test(r, t));
	json_object_set_new(o, "tests", tests);
	return o;
}

json_t *json_summary(unsigned nruns, const double (*rate)[RT_COUNT])
{
	json_t *o = json_object();
	double *x = malloc((nruns ? nruns : 1) * sizeof(*x));
	struct stats s;

	if (!x)
		return o;
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		unsigned n = result_rates_of(nruns, rate, t, x);

		if (!n)
			continue;
		stats_compute(x, n, &s);
		json_object_set_new(
		    o, result_test_name(t),
		    json_pack("{s:s,s:I,s:f,s:f,s:f,s:f,s:f,s:f}", "unit",
			      result_rate_unit(result_test_kind(t)), "n",
			      (json_int_t)n, "mean", s.mean, "sd", s.sd, "min",
			      s.min, "max", s.max, "ci_low", s.ci_low,
			      "ci_high", s.ci_high));
	}
	free(x);
	return o;
}

/* An unsigned JSON integer, or 0. */
static uint64_t get_u64(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0
		   ? (uint64_t)json_integer_value(v)
		   : 0;
}

/*
 * The exact rates and percentiles of one run. A rate is a figure the
 * renderers format and compare, so one no CSV field could hold (negative,
 * or past the 18 digits csv_parse takes) is refused, not printed.
 */
static int read_tests(json_t *tests, struct csv_row *row, size_t run, char *why,
		      size_t whylen)
{
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		json_t *o = json_object_get(tests, result_test_name(t));
		json_t *rate = json_object_get(o, "rate");
		json_t *lat = json_object_get(o, "latency");
		struct csv_cell *c = &row->c[t];
		double v = json_number_value(rate);

		if (c->state == CSV_EMPTY || !json_is_number(rate))
			continue;
		if (!(v >= 0 && v <= 1e18)) {
			snprintf(why, whylen,
				 "runs[%zu].tests.%s.rate %g is not a rate: "
				 "expected a number from 0 to 1e18",
				 run, result_test_name(t), v);
			return -1;
		}
		c->rate = v;
		c->exact_rate = 1;
		if (json_is_object(lat) && get_u64(lat, "count")) {
			c->has_pct = 1;
			c->p50_ns = get_u64(lat, "p50_ns");
			c->p90_ns = get_u64(lat, "p90_ns");
			c->p99_ns = get_u64(lat, "p99_ns");
			c->p999_ns = get_u64(lat, "p99_9_ns");
		}
	}
	return 0;
}

int json_read_rows(const char *buf, size_t len, struct csv_row **rows,
		   char *why, size_t whylen, int *line)
{
	json_error_t err;
	json_t *doc = json_loadb(buf, len, 0, &err), *runs, *run;
	struct csv_row *out = NULL;
	size_t i;
	int n = 0;

	*rows = NULL;
	*line = 0;
	if (!doc) {
		*line = err.line > 0 ? err.line : 0;
		snprintf(why, whylen, "not a JSON document: %s", err.text);
		return -1;
	}
	runs = json_object_get(doc, "runs");
	if (!json_is_object(doc) || !json_is_array(runs)) {
		snprintf(why, whylen,
			 "a JSON document without a runs array: "
			 "not a clyde result");
		goto fail;
	}
	if (json_array_size(runs) > JSON_RUNS_MAX) {
		snprintf(why, whylen,
			 "a runs array of %zu elements: clyde writes at most "
			 "%d",
			 json_array_size(runs), JSON_RUNS_MAX);
		goto fail;
	}
	out = calloc(json_array_size(runs) ? json_array_size(runs) : 1,
		     sizeof(*out));
	if (!out) {
		snprintf(why, whylen, "out of memory");
		goto fail;
	}
	json_array_foreach(runs, i, run)
	{
		const char *csv =
		    json_string_value(json_object_get(run, "csv"));
		char cwhy[300];

		if (!csv) {
			snprintf(why, whylen, "runs[%zu] has no csv line", i);
			goto fail;
		}
		switch (
		    csv_parse(csv, strlen(csv), &out[n], cwhy, sizeof(cwhy))) {
		case CSV_LINE_ROW:
			break;
		case CSV_LINE_BAD:
			snprintf(why, whylen, "runs[%zu].csv: %s", i, cwhy);
			goto fail;
		default:
			/* csv_parse says nothing of a header or blank. */
			snprintf(why, whylen,
				 "runs[%zu].csv is not a result line", i);
			goto fail;
		}
		if (read_tests(json_object_get(run, "tests"), &out[n], i, why,
			       whylen) < 0)
			goto fail;
		n++;
	}
	json_decref(doc);
	*rows = out;
	return n;
fail:
	free(out);
	json_decref(doc);
	return -1;
}
