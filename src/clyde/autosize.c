/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * autosize: see autosize.h. The probe writes the way block output does
 * (chunk-sized writes, writeback paced, fsync inside the time), then
 * reads back what it wrote after evicting it, so the two rates are the
 * device's and not the page cache's; a file that stays cached after
 * eviction lives in RAM (tmpfs) and bounds the size by the RAM. The
 * size aims at AUTOSIZE_TARGET seconds for the faster of block output
 * and block input, so the slower tests (rewrite, per-char) run longer.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "autosize.h"
#include "cache.h"
#include "cli.h"
#include "clock.h"
#include "fill.h"
#include "mpirank.h"
#include "phase.h"
#include "plan.h"
#include "runner.h"
#include "target.h"
#include "text.h"
#include "units.h"

#define PROBE_NAME "probe"

/* The target time: AUTOSIZE_TARGET, or CLYDE_AUTO_SECONDS (0.05-600). */
static double target_seconds(void)
{
	const char *s = getenv(AUTOSIZE_ENV);
	char *end;
	double v;

	if (!s || !*s)
		return AUTOSIZE_TARGET;
	v = strtod(s, &end);
	if (*end || !(v >= 0.05 && v <= 600))
		return AUTOSIZE_TARGET;
	return v;
}

/* The stdio per-char tests run over the whole data file. */
static int per_char_whole(const struct run_plan *rp)
{
	const struct clyde_opts *o = rp->opt;

	return o->per_char == PER_CHAR_STDIO && !o->per_char_size &&
	       plan_runs_any(rp, PHASE_PER_CHAR);
}

/* The most files (units of 1024) a chosen -n may make in every -d: a
 * 64th of the free bytes at the room check's 64 bytes a file, a quarter
 * of the free inodes, shared by the copies; what set the least is
 * recorded in a->bound. 0: not even 1024 files. */
static uint64_t files_cap(const struct clyde_opts *o, struct autosize *a)
{
	uint64_t cap = AUTOSIZE_FILES_MAX;
	unsigned share = o->concurrency * o->ndirs;

	for (unsigned i = 0; i < o->ndirs; i++) {
		struct target_room room;
		uint64_t k;

		if (target_room_path(o->dirs[i], &room) != 0 || !room.counted)
			continue;
		if ((k = room.bytes / 64 / 64 / 1024 / share) < cap) {
			cap = k;
			a->bound.inodes = 0;
			a->bound.free = room.bytes;
			a->bound.dir = o->dirs[i];
		}
		if (room.inodes_counted &&
		    (k = room.inodes / 4 / 1024 / share) < cap) {
			cap = k;
			a->bound.inodes = 1;
			a->bound.free = room.inodes;
			a->bound.dir = o->dirs[i];
		}
	}
	a->bound.share = share;
	return cap;
}

void autosize_plan(struct run_plan *rp, struct autosize *a)
{
	const struct clyde_opts *o = rp->opt;
	struct runner_room room;

	memset(a, 0, sizeof(*a));
	rp->sized = NULL;
	if (mpirank_ranks())
		return;
	a->target = target_seconds();
	runner_room(rp, &room);
	if (o->size_chosen && room.data) {
		a->size = 1;
		rp->size = AUTOSIZE_SIZE_MAX;
	}
	if (!o->seeks_set && plan_runs_any(rp, PHASE_SEEK_COUNT)) {
		a->seeks = 1;
		rp->seeks_time = a->target;
	}
	if (!o->files_arg && room.files) {
		uint64_t cap = files_cap(o, a);

		/* --only naming a file test asks for them: at least -n 1,
		 * which the room check then takes or refuses. */
		if (!cap && o->only)
			cap = 1;
		if (cap) {
			a->files = 1;
			rp->files_num = cap;
			rp->files_time = rp->stat_time = a->target;
		} else {
			a->files_skipped = 1;
			rp->files_num = 0;
		}
	}
	/* Each unit's own rule (its autosize hook), into the run state. */
	a->units = plan_autosize(rp, a->target);
	if (a->size || a->seeks || a->files || a->units || a->files_skipped)
		rp->sized = a;
}

/* Seconds between two clk_now_ns readings. */
static double since(uint64_t t0)
{
	return (double)(clk_now_ns() - t0) / 1e9;
}

/* Block writes for secs (at most max bytes), then fsync: bytes/s. */
static int probe_write(struct phase_ctx *ctx, double secs, uint64_t max,
		       double *bps)
{
	uint64_t t0 = clk_now_ns(), pos = 0;
	int rc;

	if ((rc = phase_open(ctx, O_WRONLY | O_CREAT | O_EXCL, "create")) < 0)
		return rc;
	while (pos + ctx->chunk <= max && (pos == 0 || since(t0) < secs)) {
		ctx->buf[(pos / ctx->chunk) % ctx->chunk]++;
		if ((rc = phase_write_all(ctx, ctx->buf, ctx->chunk)) != 0 ||
		    (rc = phase_writeback(ctx, pos + ctx->chunk)) != 0)
			return rc;
		pos += ctx->chunk;
	}
	if ((rc = phase_fsync(ctx)) != 0)
		return rc;
	*bps = (double)pos / since(t0);
	ctx->size = pos;
	phase_close(ctx);
	return 0;
}

/* Evicted, then read back for secs at most: bytes/s, and whether the
 * file stayed in memory. */
static int probe_read(struct phase_ctx *ctx, double secs, struct autosize *a)
{
	uint64_t t0, pos = 0;
	int rc;

	if ((rc = phase_open(ctx, O_RDONLY, "open")) < 0)
		return rc;
	if (!ctx->opt->direct) {
		cache_evict_fd(ctx->fd);
		a->in_memory = cache_resident(ctx->fd, ctx->size) > 0.5;
	}
	t0 = clk_now_ns();
	while (pos + ctx->chunk <= ctx->size &&
	       (pos == 0 || since(t0) < secs)) {
		if ((rc = phase_read_all(ctx, ctx->buf, ctx->chunk)) != 0)
			return rc;
		pos += ctx->chunk;
	}
	a->read_bps = (double)pos / since(t0);
	phase_close(ctx);
	return 0;
}

/* putc for secs into the probe file (emptied first): bytes/s. */
static int probe_putc(struct phase_ctx *ctx, double secs, double *bps)
{
	uint64_t t0, n = 0;
	FILE *f;
	int fd, rc = 0;

	fd = openat(ctx->dirfd, ctx->data_name,
		    O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		rc = phase_fail(ctx, fd < 0 ? "open" : "fdopen", errno);
		if (fd >= 0)
			close(fd);
		return rc;
	}
	t0 = clk_now_ns();
	do {
		for (int i = 0; i < 65536; i++)
			putc((int)(n + (uint64_t)i) & 0xff, f);
		n += 65536;
	} while (!ferror(f) && !*ctx->stop && since(t0) < secs);
	if (ferror(f) || fflush(f))
		rc = phase_fail(ctx, "write", errno ? errno : EIO);
	*bps = (double)n / since(t0);
	fclose(f);
	return rc;
}

/* The size for the rates measured: the target time for the faster of
 * block output and input, then each bound in turn (a->limit says which
 * one took). */
static uint64_t choose_size(const struct clyde_opts *o, struct autosize *a)
{
	double fast = fmax(a->write_bps, a->read_bps);
	double slow = fmin(a->write_bps, a->read_bps);
	double copies = o->concurrency, want, per, ram;
	uint64_t g, size;

	a->limit = "rate";
	want = a->target * fast / copies;
	/* In memory (tmpfs) the rates are the CPU's, which a loaded machine
	 * halves in a short probe: a quarter of the RAM, which costs RAM
	 * but no device, shared by every file the copies make. */
	ram = (double)opts_physical_ram() / 4 / (copies * o->ndirs);
	if (a->in_memory && ram > 0) {
		want = ram;
		a->limit = "memory";
	}
	/* Seconds a byte of the data file costs over its tests: block
	 * output, rewrite (a read and a write), block input, per-char. */
	per = 1 / a->write_bps + 2 / slow + 1 / a->read_bps;
	if (a->putc_bps > 0)
		per += 2 / a->putc_bps;
	if (want * per * copies > AUTOSIZE_BUDGET * a->target) {
		want = AUTOSIZE_BUDGET * a->target / (per * copies);
		a->limit = "budget";
	}
	if (want > (double)AUTOSIZE_SIZE_MAX) {
		want = (double)AUTOSIZE_SIZE_MAX;
		a->limit = "max";
	}
	/* bonnie++-like labels: 256M steps below 2G, whole G above; the
	 * nearest for the target time, below a bound. */
	g = want < 2.0 * UNITS_GIB ? AUTOSIZE_SIZE_MIN : UNITS_GIB;
	size = (uint64_t)(want / (double)g +
			  (strcmp(a->limit, "rate") ? 0 : 0.5)) *
	       g;
	if (size > a->room) {
		size = a->room / AUTOSIZE_SIZE_MIN * AUTOSIZE_SIZE_MIN;
		a->limit = "room";
	}
	if (size < AUTOSIZE_SIZE_MIN) {
		size = AUTOSIZE_SIZE_MIN;
		a->limit = "min";
	}
	return size;
}

int autosize_probe(struct run_plan *rp, struct autosize *a,
		   const struct scratch *s, unsigned char *buf,
		   volatile sig_atomic_t *stop, FILE *err)
{
	const struct clyde_opts *o = rp->opt;
	char path[PATH_MAX + 16];
	struct phase_ctx ctx = {.opt = o,
				.dirfd = s->dirfd,
				.data_name = PROBE_NAME,
				.data_path = path,
				.scratch_path = s->path,
				.buf = buf,
				.chunk = (size_t)o->chunk,
				.stop = stop,
				.fd = -1};
	double secs = a->target / 6;
	uint64_t t0 = clk_now_ns();
	int rc;

	if (!a->size)
		return 0;
	a->room = rp->size;
	snprintf(path, sizeof(path), "%s/%s", s->path, PROBE_NAME);
	fill_random(buf, ctx.chunk, (uint64_t)t0);
	rc = probe_write(&ctx, secs, a->room, &a->write_bps);
	if (!rc)
		rc = probe_read(&ctx, secs, a);
	if (!rc && per_char_whole(rp))
		rc = probe_putc(&ctx, secs / 2, &a->putc_bps);
	phase_close(&ctx);
	unlinkat(s->dirfd, PROBE_NAME, 0);
	a->probe_seconds = since(t0);
	if (*stop)
		return -1;
	if (rc) {
		error_on(err, "sizing probe: %s: %s", ctx.what, strerror(-rc));
		return 1;
	}
	rp->size = choose_size(o, a);
	return 0;
}

/* " (bounded by ...)" for what bounded the size, or "". */
static const char *limit_text(const struct autosize *a)
{
	static const struct {
		const char *key, *text;
	} t[] = {
	    {"budget", " (bounded so the data tests take about a minute)"},
	    {"memory", " (a quarter of the RAM: this filesystem "
		       "keeps its files in memory)"},
	    {"max", " (the most clyde chooses)"},
	    {"room", " (bounded by the room in -d)"},
	    {"min", " (the least clyde chooses)"},
	};

	for (size_t i = 0; a->limit && i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(a->limit, t[i].key))
			return t[i].text;
	return "";
}

/* The note on the file tests skipped: which rule, in which -d, left
 * less than 1024 files a copy, and what to give to run them. */
static void say_skipped(const struct autosize *a, FILE *err)
{
	char d[PATH_MAX * 4 + 1], rule[64], each[48] = "";

	text_shown(a->bound.dir ? a->bound.dir : "", d, sizeof(d));
	if (a->bound.share > 1)
		snprintf(each, sizeof(each), " for each of %u copies",
			 a->bound.share);
	if (a->bound.inodes)
		snprintf(rule, sizeof(rule),
			 "a quarter of the %llu free inodes",
			 (unsigned long long)a->bound.free);
	else
		snprintf(rule, sizeof(rule), "a 64th of the %lluK free",
			 (unsigned long long)(a->bound.free / 1024));
	warning_on(err,
		   "note: file tests skipped: %s in '%s' is under 1024 "
		   "files%s%s; give -n 1 to run them anyway",
		   rule, d, a->bound.inodes ? "" : " at 64 bytes a file", each);
}

/* The line on what was chosen and from what. */
static void say_sized(const struct run_plan *rp, const struct autosize *a,
		      FILE *err)
{
	char what[320] = "", w[32], r[32], sz[32];
	size_t n = 0;

	if (!(a->size || a->seeks || a->files || a->units))
		return;
	if (a->size) {
		units_fmt_size(sz, sizeof(sz), rp->size);
		n += (size_t)snprintf(what + n, sizeof(what) - n, "data %s%s",
				      sz, limit_text(a));
	}
	if (a->seeks)
		n += (size_t)snprintf(what + n, sizeof(what) - n,
				      "%sseeks for %g s", n ? ", " : "",
				      a->target);
	if (a->files)
		n += (size_t)snprintf(
		    what + n, sizeof(what) - n,
		    "%s-n from %g s of creates, stat passes for %g s",
		    n ? ", " : "", a->target, a->target);
	plan_sized_words(what, sizeof(what), n);
	if (!a->size) {
		error_on(err, "sized for this target: %s", what);
		return;
	}
	units_fmt_rate(w, sizeof(w), (uint64_t)(a->write_bps / 1024));
	units_fmt_rate(r, sizeof(r), (uint64_t)(a->read_bps / 1024));
	error_on(err,
		 "sized for this target (block writes %s/s, reads %s/s "
		 "in a %.1f s probe): %s",
		 w, r, a->probe_seconds, what);
}

void autosize_say(const struct run_plan *rp, FILE *err)
{
	if (!rp->sized)
		return;
	say_sized(rp, rp->sized, err);
	if (rp->sized->files_skipped)
		say_skipped(rp->sized, err);
}

/* In r, the record of the first phase with flag (PHASE_SEEK_COUNT,
 * PHASE_FILE_COUNT) in the registry's order that ran well; NULL when
 * none did. */
static const struct result_test_rec *counted(const struct run_result *r,
					     unsigned flag)
{
	for (int t = 0; t < RT_COUNT; t++) {
		const struct phase_ops *ph =
		    runner_phase_of((enum result_test)t);

		if (ph && (ph->flags & flag) && r->t[t].state == RS_OK)
			return &r->t[t];
	}
	return NULL;
}

/* r's counts from the work its timed tests did, per copy. */
static void settle_one(const struct run_plan *rp, struct run_result *r)
{
	uint64_t copies = r->concurrency ? r->concurrency : 1;
	const struct result_test_rec *s = counted(r, PHASE_SEEK_COUNT);
	const struct result_test_rec *c = counted(r, PHASE_FILE_COUNT);

	if (rp->seeks_time > 0 && s)
		r->seeks = (s->work + copies / 2) / copies;
	if (r->seeks == 0)
		r->seeks = 1;
	if (rp->files_time > 0 && c && c->work >= 1024)
		r->num_files = (c->work / 1024 + copies / 2) / copies;
}

void autosize_settle(struct run_plan *rp, struct run_result *r,
		     struct run_result *per, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		settle_one(rp, &per[i]);
	settle_one(rp, r);
	if (rp->seeks_time > 0 && counted(r, PHASE_SEEK_COUNT)) {
		rp->seeks = r->seeks;
		rp->seeks_time = 0;
	}
	if (rp->files_time > 0 && counted(r, PHASE_FILE_COUNT)) {
		rp->files_num = r->num_files;
		rp->files_time = 0;
	}
}
