/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsondoc: see jsondoc.h. The filesystem and device under the target come
 * from /proc/self/mountinfo (the longest mount point holding the target),
 * which names them as the system does: "ext4", "/dev/sdb1". Every string
 * goes through jp_text() or jp_path(), and every key through jp_put(): no
 * key can go missing because its value was not UTF-8.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "autosize.h"
#include "fill.h"
#include "json.h"
#include "jsondoc.h"
#include "phase.h"
#include "runner.h"
#include "mounts.h"
#include "mpirank.h"
#include "plan.h"
#include "jsonput.h"
#include "text.h"
#include "units.h"

/* The mount holding dir, from /proc/self/mountinfo: 0, or -1. */
static int find_mount(const char *dir, struct mounts_entry *m)
{
	char path[PATH_MAX];
	FILE *f;
	int found;

	if (!realpath(dir, path))
		return -1;
	f = mounts_open();
	if (!f)
		return -1;
	found = mounts_find_path(f, path, m);
	fclose(f);
	return found ? 0 : -1;
}

/* settings.auto.probe: what the sizing probe measured. */
static json_t *probe_of(const struct autosize *a, int *bad)
{
	json_t *p = json_object();

	if (JP_MADE(bad, p))
		return NULL;
	jp_put(p, "seconds", json_real(a->probe_seconds), bad);
	jp_put(p, "write_rate", json_real(a->write_bps), bad);
	jp_put(p, "read_rate", json_real(a->read_bps), bad);
	jp_put(p, "putc_rate",
	       a->putc_bps > 0 ? json_real(a->putc_bps) : json_null(), bad);
	jp_put(p, "in_memory", json_boolean(a->in_memory), bad);
	jp_put(p, "room", json_integer((json_int_t)a->room), bad);
	jp_put(p, "limit", json_string(a->limit ? a->limit : "rate"), bad);
	return p;
}

/* settings.auto: what clyde sized itself (clyde/autosize.h), or null. */
static json_t *auto_of(const struct run_plan *rp, int *bad)
{
	const struct autosize *a = rp->sized;
	json_t *j;

	if (!a)
		return json_null();
	if (JP_MADE(bad, (j = json_object())))
		return NULL;
	jp_put(j, "target_seconds", json_real(a->target), bad);
	jp_put(j, "file_size", json_boolean(a->size), bad);
	jp_put(j, "seeks", json_boolean(a->seeks), bad);
	jp_put(j, "files", json_boolean(a->files), bad);
	plan_auto(j, bad);
	jp_put(j, "probe", a->size ? probe_of(a, bad) : json_null(), bad);
	return j;
}

/* Key of the run's settings into s, then each unit's settings that
 * follow it (plan.h). */
static void put(json_t *s, const struct run_plan *rp, const char *key,
		json_t *v, int *bad)
{
	jp_put(s, key, v, bad);
	plan_settings(s, rp, key, bad);
}

static json_t *settings(const struct run_plan *rp, int *bad)
{
	const struct clyde_opts *o = rp->opt;
	char mode[32];
	json_t *s = json_object(), *files = json_object(), *only;
	char label[32];

	if (JP_MADE(bad, s, files))
		return NULL;
	units_fmt_size(label, sizeof(label), rp->size);
	put(s, rp, "name", jp_text(o->name), bad);
	put(s, rp, "file_size", json_integer((json_int_t)rp->size), bad);
	put(s, rp, "file_size_label", json_string(label), bad);
	put(s, rp, "size_chosen", json_boolean(o->size_chosen), bad);
	put(s, rp, "auto", auto_of(rp, bad), bad);
	put(s, rp, "chunk", json_integer((json_int_t)o->chunk), bad);
	put(s, rp, "seeks", json_integer((json_int_t)rp->seeks), bad);
	put(s, rp, "seek_procs", json_integer(o->procs), bad);
	put(s, rp, "concurrency", json_integer(o->concurrency), bad);
	put(s, rp, "ranks",
	    mpirank_ranks() ? json_integer(mpirank_ranks()) : json_null(), bad);
	jp_put(files, "num", json_integer((json_int_t)rp->files_num), bad);
	jp_put(files, "count", json_integer((json_int_t)(rp->files_num * 1024)),
	       bad);
	jp_put(files, "max_size", json_integer(o->files_max), bad);
	jp_put(files, "min_size", json_integer((json_int_t)o->files_min), bad);
	jp_put(files, "dirs", json_integer(o->files_dirs), bad);
	jp_put(files, "chunk", json_integer((json_int_t)o->files_chunk), bad);
	put(s, rp, "files", files, bad);
	put(s, rp, "direct", json_boolean(o->direct), bad);
	fill_spec_text(&o->data, mode, sizeof(mode));
	put(s, rp, "data", json_string(mode), bad);
	put(s, rp, "verify", json_boolean(o->verify), bad);
	put(s, rp, "keep", json_boolean(o->keep), bad);
	put(s, rp, "sync_each_write", json_boolean(o->sync_each), bad);
	put(s, rp, "cache_method",
	    json_string(o->direct	 ? "direct"
			: o->drop_caches ? "evict+drop_caches"
					 : "evict"),
	    bad);
	put(s, rp, "per_char",
	    json_string(o->fast || o->direct		  ? "skipped"
			: o->per_char == PER_CHAR_SYSCALL ? "syscall"
							  : "stdio"),
	    bad);
	put(s, rp, "per_char_size", json_integer((json_int_t)o->per_char_size),
	    bad);
	put(s, rp, "repeats", json_integer(o->repeats), bad);
	put(s, rp, "seed_fixed", json_boolean(o->seed_set), bad);
	put(s, rp, "seeds", json_array(), bad);
	if (o->only) {
		only = json_array();
		for (size_t i = 0; i < FIG_COUNT; i++)
			if (o->only & (1u << figure_list[i]))
				jp_append(only,
					  json_string(
					      result_test_name(figure_list[i])),
					  bad);
		put(s, rp, "only", only, bad);
	} else {
		put(s, rp, "only", json_null(), bad);
	}
	put(s, rp, "latency_recorded", json_boolean(!o->no_latency), bad);
	put(s, rp, "log_interval_ms",
	    o->log_interval_ms ? json_integer(o->log_interval_ms) : json_null(),
	    bad);
	put(s, rp, "precondition",
	    o->precondition ? json_integer(o->precondition) : json_null(), bad);
	put(s, rp, "steady",
	    o->steady
		? json_pack("{s:i, s:f, s:f, s:s, s:i, s:i}", "rounds",
			    (json_int_t)o->steady_rule.rounds, "range_pct",
			    o->steady_rule.range_pct, "slope_pct",
			    o->steady_rule.slope_pct, "on",
			    steady_on_name(o->steady_rule.on), "round_seconds",
			    (json_int_t)o->steady_round_s, "max_seconds",
			    (json_int_t)o->steady_max_s)
		: json_null(),
	    bad);
	put(s, rp, "sync",
	    o->sync == OPT_SYNC_SEM	 ? json_string("semaphores")
	    : o->sync == OPT_SYNC_PROMPT ? json_string("prompt")
					 : json_null(),
	    bad);
	put(s, rp, "uid", json_integer(getuid()), bad);
	put(s, rp, "gid", json_integer(getgid()), bad);
	plan_settings(s, rp, NULL, bad);
	return s;
}

/* Target dir: the directory, and the mount holding it. */
static json_t *target_of(const char *dir, int *bad)
{
	json_t *target = json_object();
	struct mounts_entry m;
	char real[PATH_MAX];
	int have = find_mount(dir, &m) == 0;

	if (JP_MADE(bad, target))
		return NULL;
	jp_path(target, "directory", realpath(dir, real) ? real : dir, bad);
	jp_path(target, "mount_point", have ? m.point : NULL, bad);
	jp_put(target, "filesystem", have ? jp_text(m.fstype) : json_null(),
	       bad);
	jp_path(target, "device", have ? m.source : NULL, bad);
	return target;
}

json_t *jsondoc_new(const struct run_plan *rp, time_t start)
{
	return jsondoc_new_as(rp, start, "clyde");
}

json_t *jsondoc_new_as(const struct run_plan *rp, time_t start,
		       const char *program)
{
	const struct clyde_opts *o = rp->opt;
	json_t *doc = json_object(), *all = json_array();
	int bad = 0;

	if (JP_MADE(&bad, doc, all))
		return NULL;
	jp_head(doc, JSON_SCHEMA_VERSION, program, start, &bad);
	/* "target": the first -d (the only one, most often); "targets":
	 * every one, in the order given. */
	jp_put(doc, "target", target_of(o->dirs[0], &bad), &bad);
	for (unsigned i = 0; i < o->ndirs; i++)
		jp_append(all, target_of(o->dirs[i], &bad), &bad);
	jp_put(doc, "targets", all, &bad);
	jp_put(doc, "settings", settings(rp, &bad), &bad);
	jp_put(doc, "runs", json_array(), &bad);
	return jp_done(doc, bad);
}

/*
 * How far zlib shrinks the run's data (64 KiB of the fill): near 1.0 means
 * a compressing or deduplicating array cannot flatter the figures.
 */
static json_t *compress_ratio(const struct run_plan *rp, uint64_t seed)
{
	enum { LEN = 256 * 1024, PARTS = 4 };
	unsigned char *buf = malloc(LEN);
	struct fill *f = runner_fill_new(rp, seed);
	double out = 0;
	int ok = buf && f;

	/* A stretch at each quarter of the data file, as block output
	 * writes them, each compressed alone. */
	for (int i = 0; ok && i < PARTS; i++) {
		uint64_t at = rp->size / PARTS * (uint64_t)i / 4096 * 4096;
		double r;

		fill_into(f, buf, at, LEN, PHASE_GEN_WRITE);
		r = fill_compress_ratio(buf, LEN);
		ok = r >= 0;
		out += r / PARTS;
	}
	free(buf);
	fill_free(f);
	return ok ? json_real(out) : json_null();
}

/*
 * r with its text made UTF-8, when it is not: a copy (a run_result is
 * some 100 KiB) with the name and error escaped; NULL when r is fine or
 * no memory.
 */
static struct run_result *as_text(const struct run_result *r)
{
	struct run_result *c;

	if (text_utf8_valid(r->name) && text_utf8_valid(r->error))
		return NULL;
	c = malloc(sizeof(*c));
	if (!c)
		return NULL;
	*c = *r;
	text_escape(r->name, c->name, sizeof(c->name), TEXT_JSON);
	text_escape(r->error, c->error, sizeof(c->error), TEXT_JSON);
	return c;
}

/* Whether json_run() wrote every key (a refused string drops one). */
static int run_complete(const json_t *run, const struct run_result *r)
{
	const json_t *tests = json_object_get(run, "tests");

	if (!json_object_get(run, "csv") || !json_object_get(run, "error") ||
	    json_object_size(tests) != FIG_COUNT)
		return 0;
	for (size_t i = 0; i < FIG_COUNT; i++) {
		enum result_test t = figure_list[i];
		const json_t *rec = json_object_get(tests, result_test_name(t));

		if (!json_object_get(rec, "status") ||
		    (r->t[t].state == RS_FAILED &&
		     !json_object_get(rec, "error")))
			return 0;
	}
	return 1;
}

/* r as a run object, every key there; NULL when no memory. */
static json_t *run_object(const struct run_result *r)
{
	struct run_result *c = as_text(r);
	json_t *run = json_run(c ? c : r);
	int bad = !run || !run_complete(run, c ? c : r);

	free(c);
	if (bad) {
		json_decref(run);
		return NULL;
	}
	return run;
}

int jsondoc_add_run(json_t *doc, const struct run_plan *rp,
		    const struct run_result *r, const struct run_result *per,
		    unsigned n)
{
	const json_t *dirs = json_object_get(doc, "targets");
	json_t *run = run_object(r), *each;
	int bad = !run;

	if (bad)
		return -1;
	/* The counts a first run sized (autosize_settle): the settings of
	 * every run. */
	if (rp->sized) {
		json_t *s = json_object_get(doc, "settings");
		json_t *files = json_object_get(s, "files");

		jp_put(s, "seeks", json_integer((json_int_t)rp->seeks), &bad);
		jp_put(files, "num", json_integer((json_int_t)rp->files_num),
		       &bad);
		jp_put(files, "count",
		       json_integer((json_int_t)(rp->files_num * 1024)), &bad);
	}
	jp_put(run, "data_compress_ratio", compress_ratio(rp, r->seed), &bad);
	if (n) {
		each = json_array();
		jp_put(run, "targets", each, &bad);
		for (unsigned i = 0; each && i < n; i++) {
			json_t *one = run_object(&per[i]);
			const json_t *t = json_array_get(dirs, i);

			if (one)
				jp_put(one, "directory",
				       json_incref(
					   json_object_get(t, "directory")),
				       &bad);
			jp_append(each, one, &bad);
		}
	}
	if (json_array_append_new(json_object_get(doc, "runs"), run) ||
	    json_array_append_new(
		json_object_get(json_object_get(doc, "settings"), "seeds"),
		json_integer((json_int_t)r->seed)))
		bad = 1;
	return bad ? -1 : 0;
}

int jsondoc_write(json_t *doc, unsigned nruns, const double (*rate)[RT_COUNT],
		  FILE *f)
{
	json_t *sum = json_summary(nruns, rate);

	if (!sum || json_object_set_new(doc, "summary", sum) != 0) {
		errno = ENOMEM;
		return -1;
	}
	return jp_write(doc, f, JSON_REAL_PRECISION(10));
}
