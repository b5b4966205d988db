/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_steady: a test's steady-state run (steady.h, --steady) as its
 * "steady" object (doc/clyde-json.5), written by json.c and read back by
 * json_steady_read.c:
 *
 *   {"rule": {"rounds", "range_pct", "slope_pct", "on"},
 *    "round_seconds", "max_seconds", "seconds", "steady",
 *    "rounds": [{"seconds", "ops", "bytes", "p99_ns", "value"} ...],
 *    "window": {"first", "rounds", "avg", "min", "max", "range", "slope",
 *               "excursion", "range_ok", "slope_ok"}}
 *
 * the window there once the run has rule.rounds rounds.
 */
#include "config.h"

#include "json.h"
#include "jput.h"

static json_t *rule(const struct steady_rule *r)
{
	json_t *o = json_object();
	int bad = 0;

	jp_put(o, "rounds", json_integer(r->rounds), &bad);
	jp_put(o, "range_pct", json_real(r->range_pct), &bad);
	jp_put(o, "slope_pct", json_real(r->slope_pct), &bad);
	jp_put(o, "on", json_string(steady_on_name(r->on)), &bad);
	return jp_done(o, bad);
}

static json_t *round_of(const struct steady_round *rd)
{
	json_t *o = json_object();
	int bad = 0;

	jp_put(o, "seconds", json_real(rd->seconds), &bad);
	jp_put(o, "ops", json_integer((json_int_t)rd->ops), &bad);
	jp_put(o, "bytes", json_integer((json_int_t)rd->bytes), &bad);
	jp_put(o, "p99_ns", json_integer((json_int_t)rd->p99_ns), &bad);
	jp_put(o, "value", json_real(rd->value), &bad);
	return jp_done(o, bad);
}

static json_t *window(const struct steady_run *s)
{
	const struct steady_window *w = &s->window;
	json_t *o = json_object();
	int bad = 0;

	jp_put(o, "first", json_integer(s->first), &bad);
	jp_put(o, "rounds", json_integer(s->rule.rounds), &bad);
	jp_put(o, "avg", json_real(w->avg), &bad);
	jp_put(o, "min", json_real(w->min), &bad);
	jp_put(o, "max", json_real(w->max), &bad);
	jp_put(o, "range", json_real(w->range), &bad);
	jp_put(o, "slope", json_real(w->slope), &bad);
	jp_put(o, "excursion", json_real(w->excursion), &bad);
	jp_put(o, "range_ok", json_boolean(w->range_ok), &bad);
	jp_put(o, "slope_ok", json_boolean(w->slope_ok), &bad);
	return jp_done(o, bad);
}

json_t *json_steady(const struct steady_run *s)
{
	json_t *o = json_object(), *a = json_array();
	int bad = 0;

	if (JP_MADE(&bad, o, a) < 0)
		return NULL;
	jp_put(o, "rule", rule(&s->rule), &bad);
	jp_put(o, "round_seconds", json_real(s->round_s), &bad);
	jp_put(o, "max_seconds", json_real(s->max_s), &bad);
	jp_put(o, "seconds", json_real(s->seconds), &bad);
	jp_put(o, "steady", json_boolean(s->steady), &bad);
	for (unsigned i = 0; i < s->nrounds; i++)
		jp_append(a, round_of(&s->rounds[i]), &bad);
	jp_put(o, "rounds", a, &bad);
	if (s->nrounds >= s->rule.rounds)
		jp_put(o, "window", window(s), &bad);
	return jp_done(o, bad);
}
