/* SPDX-License-Identifier: GPL-2.0-or-later */
/* steady_watch: see steady_watch.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "steady_watch.h"

/* The histograms a window's figure needs, as they stood at a round's
 * end. */
struct steady_snap {
	uint64_t ns, ops;
	uint64_t bytes[PHASE_KINDS], kops[PHASE_KINDS];
	struct hist lat, svc, kind[PHASE_KINDS];
};

struct steady_watch {
	struct steady_run run;
	uint64_t start_ns, round_ns, next_ns, op_bytes;
	unsigned cap; /* rounds[] room */
	/* The round ends k = nrounds - rule.rounds .. nrounds, at
	 * snap[k % (rule.rounds + 1)]; snap of 0: the start. */
	struct steady_snap *snap;
	struct hist tmp;
};

static struct steady_snap *snap_at(struct steady_watch *w, unsigned k)
{
	return &w->snap[k % (w->run.rule.rounds + 1)];
}

static void snap_take(struct steady_snap *s, const struct phase_out *out,
		      uint64_t now)
{
	s->ns = now;
	s->ops = out->ops;
	s->lat = out->lat;
	s->svc = out->svc;
	for (int k = 0; k < PHASE_KINDS; k++) {
		s->bytes[k] = out->kind[k].bytes;
		s->kops[k] = out->kind[k].ops;
		s->kind[k] = out->kind[k].lat;
	}
}

struct steady_watch *steady_watch_new(const struct clyde_opts *o,
				      struct phase_out *out, uint64_t now,
				      uint64_t op_bytes)
{
	struct steady_watch *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->run.rule = o->steady_rule;
	w->run.round_s = o->steady_round_s;
	w->run.max_s = o->steady_max_s;
	w->snap = calloc(o->steady_rule.rounds + 1, sizeof(*w->snap));
	if (!w->snap) {
		free(w);
		return NULL;
	}
	w->start_ns = now;
	w->round_ns = (uint64_t)o->steady_round_s * 1000000000ull;
	w->next_ns = now + w->round_ns;
	w->op_bytes = op_bytes;
	snap_take(snap_at(w, 0), out, now);
	out->until_ns = now + (uint64_t)o->steady_max_s * 1000000000ull;
	return w;
}

/* Round n (0-based) ended at now: kept; 0, or -1 without memory. */
static int keep_round(struct steady_watch *w, const struct phase_out *out,
		      uint64_t now)
{
	struct steady_run *r = &w->run;
	unsigned n = r->nrounds;
	struct steady_snap *a = snap_at(w, n), *b = snap_at(w, n + 1);
	struct steady_round *rd;
	uint64_t bytes = 0;

	if (n == w->cap) {
		unsigned cap = w->cap ? 2 * w->cap : 64;
		void *p = realloc(r->rounds, cap * sizeof(*r->rounds));

		if (!p)
			return -1;
		r->rounds = p;
		w->cap = cap;
	}
	snap_take(b, out, now);
	rd = &r->rounds[n];
	rd->seconds = (double)(now - a->ns) / 1e9;
	rd->ops = b->ops - a->ops;
	for (int k = 0; k < PHASE_KINDS; k++)
		bytes += b->bytes[k] - a->bytes[k];
	rd->bytes = out->io ? bytes : rd->ops * w->op_bytes;
	hist_sub(&w->tmp, &b->lat, &a->lat);
	rd->p99_ns = hist_percentile(&w->tmp, 99);
	rd->value = steady_value(rd, r->rule.on);
	r->nrounds++;
	return 0;
}

/* Judge the last rule.rounds rounds: 1 when steady. */
static int judge(struct steady_watch *w)
{
	struct steady_run *r = &w->run;
	unsigned R = r->rule.rounds;
	double y[STEADY_ROUNDS_MAX];

	if (r->nrounds < R)
		return 0;
	r->first = r->nrounds - R;
	for (unsigned i = 0; i < R; i++)
		y[i] = r->rounds[r->first + i].value;
	return steady_judge(y, R, &r->rule, &r->window);
}

uint64_t steady_watch_tick(struct steady_watch *w, struct phase_out *out,
			   uint64_t now)
{
	if (w->run.steady || now < w->next_ns)
		return w->run.steady ? UINT64_MAX : w->next_ns;
	/* Without memory for a round, no more rounds: the test runs on to
	 * its limit, its figure the whole test's. */
	if (keep_round(w, out, now) < 0) {
		w->next_ns = UINT64_MAX;
		return UINT64_MAX;
	}
	/* The next round ends on the grid, or a round after now when an
	 * operation outlasted one. */
	while (w->next_ns <= now)
		w->next_ns += w->round_ns;
	if (judge(w)) {
		w->run.steady = 1;
		out->until_ns = now;
		return UINT64_MAX;
	}
	return w->next_ns;
}

/* out's figure made the window's: rounds first .. nrounds. */
static void window_figure(struct steady_watch *w, struct phase_out *out,
			  double user, double sys, double whole)
{
	struct steady_run *r = &w->run;
	struct steady_snap *a = snap_at(w, r->first),
			   *b = snap_at(w, r->nrounds);
	double secs = (double)(b->ns - a->ns) / 1e9;
	double share = whole > 0 ? secs / whole : 1;

	out->work = b->ops - a->ops;
	out->ops = out->work;
	out->self_timed = 1;
	out->elapsed = secs;
	out->user = user * share;
	out->sys = sys * share;
	out->start_ns = a->ns;
	out->end_ns = b->ns;
	hist_sub(&out->lat, &b->lat, &a->lat);
	hist_sub(&out->svc, &b->svc, &a->svc);
	out->max_latency_ns = out->lat.count ? out->lat.max_ns : 0;
	for (int k = 0; k < PHASE_KINDS; k++) {
		hist_sub(&out->kind[k].lat, &b->kind[k], &a->kind[k]);
		out->kind[k].bytes = b->bytes[k] - a->bytes[k];
		out->kind[k].ops = b->kops[k] - a->kops[k];
	}
}

struct steady_run *steady_watch_end(struct steady_watch *w,
				    struct phase_out *out, uint64_t end,
				    double user, double sys)
{
	struct steady_run *run;

	w->run.seconds = (double)(end - w->start_ns) / 1e9;
	if (!w->run.steady)
		judge(w);
	if (w->run.nrounds >= w->run.rule.rounds)
		window_figure(w, out, user, sys, w->run.seconds);
	run = steady_run_dup(&w->run);
	free(w->run.rounds);
	free(w->snap);
	free(w);
	return run;
}
