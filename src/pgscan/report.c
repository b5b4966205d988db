/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report: clyde-pgscan's results. The line a person reads puts the
 * scan's rate (relation bytes over the scan's time, MB/s of 10^6 bytes
 * as clyde-sweep's) beside clyde's block input on the same filesystem,
 * with the ratio, the backend's CPU share and a verdict: CPU-bound (the
 * backend busy at least 90% of the scan), at the device's rate (the
 * scan at least 90% of block input) or waiting on reads. With -x N the
 * figures are the means of the N runs, each with its sample standard
 * deviation. The document is clyde's own from the child clyde, its head
 * this run's, with settings.pgscan and a pg_scan test in every run
 * (doc/clyde-json.5).
 */
#include "config.h"

#include <jansson.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "jsonput.h"
#include "pgscan_prog.h"
#include "result.h"
#include "stats.h"

double pg_scan_mbps(const struct pg_result *res, unsigned i)
{
	const struct pg_scan *s = &res->scan[i];

	return s->elapsed > 0 ? (double)res->rel_bytes / s->elapsed / 1e6 : 0;
}

/* runs[i].tests.get_block of clyde's document. */
static json_t *get_block(void *doc, unsigned i)
{
	json_t *run = json_array_get(json_object_get(doc, "runs"), i);

	return json_object_get(json_object_get(run, "tests"), "get_block");
}

double pg_block_mbps(void *doc, unsigned i)
{
	json_t *t = get_block(doc, i);
	double w = json_number_value(json_object_get(t, "work"));
	double e = json_number_value(json_object_get(t, "elapsed"));

	return e > 0 ? w / e / 1e6 : 0;
}

/* The backend's CPU share of scan i, in percent. */
static double cpu_share(const struct pg_result *res, unsigned i)
{
	const struct pg_scan *s = &res->scan[i];

	return s->elapsed > 0 ? (s->user + s->sys) / s->elapsed * 100 : 0;
}

/* " (mean of 3, sd 2.1)" for more than one run, else "". */
static void spread(char *buf, size_t len, const struct stats *s, int first)
{
	if (s->n < 2)
		buf[0] = '\0';
	else if (first)
		snprintf(buf, len, " (mean of %u, sd %.1f)", s->n, s->sd);
	else
		snprintf(buf, len, " (sd %.1f)", s->sd);
}

/* Warnings about figures too short to trust, once each. */
static void warn_short(const struct pg_result *res, void *doc, unsigned n)
{
	int scan = 0, block = 0;

	for (unsigned i = 0; i < n; i++) {
		json_t *st = json_object_get(get_block(doc, i), "status");

		scan |= clk_too_fast(res->scan[i].elapsed);
		block |= !st || strcmp(json_string_value(st) ?: "", "ok");
	}
	if (scan)
		warning("warning: a scan took under %.1f s, too short "
			"to trust: give a larger -s",
			CLK_MIN_SECONDS);
	if (block)
		warning("warning: block input took under %.1f s (or "
			"failed), too short to trust: give a larger -s",
			CLK_MIN_SECONDS);
}

int pg_print_line(const struct pg_opts *o, const struct pg_result *res,
		  void *doc)
{
	double scan[PG_MAX_RUNS], block[PG_MAX_RUNS], cpu[PG_MAX_RUNS];
	struct stats ss, sb, sc;
	char s1[64], s2[64];
	const char *verdict;
	unsigned n = res->nscans;
	double ratio;
	FILE *out = o->json && !o->json_path ? stderr : stdout;

	for (unsigned i = 0; i < n; i++) {
		scan[i] = pg_scan_mbps(res, i);
		block[i] = pg_block_mbps(doc, i);
		cpu[i] = cpu_share(res, i);
	}
	stats_compute(scan, n, &ss);
	stats_compute(block, n, &sb);
	stats_compute(cpu, n, &sc);
	ratio = sb.mean > 0 ? ss.mean / sb.mean * 100 : 0;
	if (sc.mean >= 90)
		verdict = "CPU-bound";
	else if (ratio >= 90)
		verdict = "at the device's rate";
	else
		verdict = "waiting on reads";
	spread(s1, sizeof(s1), &ss, 1);
	spread(s2, sizeof(s2), &sb, 0);
	warn_short(res, doc, n);
	fprintf(out,
		"PostgreSQL seq scan %.0f MB/s%s = %.0f%% of block input "
		"%.0f MB/s%s, backend CPU %.0f%%: %s\n",
		ss.mean, s1, ratio, sb.mean, s2, sc.mean, verdict);
	if (out == stdout)
		return cli_stdout_close();
	fflush(out);
	return 0;
}

static json_t *settings_pgscan(const struct pg_opts *o,
			       const struct pg_result *res, int *bad)
{
	json_t *p = json_object();

	if (!p) {
		*bad = 1;
		return NULL;
	}
	jp_put(p, "server_version", jp_text(res->version), bad);
	jp_path(p, "bindir", res->bindir, bad);
	jp_put(p, "relation", json_string("pgbench_accounts"), bad);
	jp_put(p, "relation_bytes", json_integer((json_int_t)res->rel_bytes),
	       bad);
	jp_put(p, "scale", json_integer(res->scale), bad);
	jp_put(p, "parallel_workers", json_integer(o->parallel), bad);
	jp_put(p, "evict",
	       json_string(o->drop_caches ? "drop_caches" : "fadvise"), bad);
	jp_put(p, "resident_after_evict", json_real(res->resident_max), bad);
	return p;
}

/*
 * One scan as a test record of clyde's shape: the keys its entry in
 * lib/extfig.h says it holds, in its units (a rate in whole KiB/s).
 */
static json_t *scan_test(const struct figure *f, const struct pg_result *res,
			 unsigned i, int *bad)
{
	const struct pg_scan *s = &res->scan[i];
	const struct result_test_rec rec = {.work = res->rel_bytes,
					    .elapsed = s->elapsed,
					    .cpu = s->user + s->sys};
	json_t *t = json_object();

	if (!t) {
		*bad = 1;
		return NULL;
	}
	jp_put(t, "status",
	       json_string(clk_too_fast(s->elapsed) ? "too-fast" : "ok"), bad);
	if (f->keys & FK_WORK) {
		jp_put(t, "work", json_integer((json_int_t)rec.work), bad);
		jp_put(t, "unit", json_string(result_work_unit(f->kind)), bad);
	}
	if (f->keys & FK_TIMES) {
		jp_put(t, "elapsed", json_real(s->elapsed), bad);
		jp_put(t, "user", json_real(s->user), bad);
		jp_put(t, "sys", json_real(s->sys), bad);
	}
	if (f->keys & FK_RATE) {
		jp_put(t, "rate",
		       json_integer((json_int_t)result_rate(&rec, f->kind)),
		       bad);
		jp_put(t, "rate_unit", json_string(result_rate_unit(f->kind)),
		       bad);
	}
	if (f->keys & FK_CPU)
		jp_put(t, "cpu_percent", json_integer(result_pcp(&rec)), bad);
	return t;
}

/*
 * clyde ran in the private directory; the target is DIR, as clyde's
 * own document names its -d.
 */
static void name_target(json_t *doc, const char *dir, int *bad)
{
	json_t *t = json_object_get(doc, "target"), *v;
	size_t i;

	if (json_is_object(t))
		jp_path(t, "directory", dir, bad);
	json_array_foreach(json_object_get(doc, "targets"), i,
			   v) if (json_is_object(v))
	    jp_path(v, "directory", dir, bad);
}

void *pg_json_doc(const struct pg_opts *o, const struct pg_result *res,
		  void *base, time_t start)
{
	json_t *doc = base, *runs = json_object_get(doc, "runs");
	json_t *settings = json_object_get(doc, "settings");
	json_t *sv = json_object_get(doc, "schema_version");
	const struct figure *f = figure_of(RT_pg_scan);
	int bad = 0;

	jp_head(doc, json_is_integer(sv) ? (int)json_integer_value(sv) : 1,
		PROG, start, &bad);
	name_target(doc, o->dir_abs, &bad);
	jp_put(settings, "pgscan", settings_pgscan(o, res, &bad), &bad);
	for (unsigned i = 0; i < res->nscans; i++) {
		json_t *tests =
		    json_object_get(json_array_get(runs, i), "tests");

		if (!json_is_object(tests)) {
			bad = 1;
			break;
		}
		jp_put(tests, f->key, scan_test(f, res, i, &bad), &bad);
	}
	return jp_done(doc, bad);
}
