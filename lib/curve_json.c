/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * curve_json: see curve_json.h. The summary is made from the curves
 * each time it is written, so a document read back has the same one.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve_json.h"
#include "jdoc.h"
#include "json.h"
#include "json_impl.h"
#include "jput.h"
#include "stats.h"

static const char *const kind_names[] = {"max", "step", "refine"};

/* {"n", "mean", "sd", "ci_low", "ci_high"} of x[m]; the bounds of the
 * CI at 0 at least (a rate, a time). */
static json_t *stats_json(const double *x, unsigned m, int *bad)
{
	struct stats s;
	json_t *o = json_object();

	if (JP_MADE(bad, o))
		return NULL;
	stats_compute(x, m, &s);
	jp_put(o, "n", json_integer(m), bad);
	jp_put(o, "mean", json_real(s.mean), bad);
	jp_put(o, "sd", json_real(s.sd), bad);
	jp_put(o, "ci_low", json_real(s.ci_low > 0 ? s.ci_low : 0), bad);
	jp_put(o, "ci_high", json_real(s.ci_high), bad);
	return o;
}

static json_t *summary_json(const struct curve_result *r, int *bad)
{
	double ach[CURVE_REPEATS_MAX], val[CURVE_REPEATS_MAX];
	json_t *o = json_object(), *steps = json_array();
	unsigned m;

	if (JP_MADE(bad, o, steps))
		return NULL;
	jp_put(o, "stat", json_string(curve_stat_name(curve_judged(r))), bad);
	for (int i = -1; i < (int)r->nsteps; i++) {
		unsigned pct = i < 0 ? 0 : r->pct[i];
		json_t *one;

		m = curve_gather(r, pct,
				 i < 0 ? CURVE_STEP_MAX : CURVE_STEP_LIST,
				 curve_judged(r), ach, val);
		if (!m)
			continue;
		if (JP_MADE(bad, one = json_object()))
			break;
		jp_put(one, "percent",
		       i < 0 ? json_null() : json_real(pct / 10.0), bad);
		jp_put(one, "achieved", stats_json(ach, m, bad), bad);
		jp_put(one, "value_ns", stats_json(val, m, bad), bad);
		if (i < 0)
			jp_put(o, "max", one, bad);
		else
			jp_append(steps, one, bad);
	}
	jp_put(o, "steps", steps, bad);
	m = curve_knees(r, ach);
	jp_put(o, "knee", m ? stats_json(ach, m, bad) : json_null(), bad);
	return o;
}

static json_t *settings_json(const struct curve_result *r, int *bad)
{
	json_t *o = json_object(), *steps = json_array();

	if (JP_MADE(bad, o, steps))
		return NULL;
	for (unsigned i = 0; i < r->nsteps; i++)
		jp_append(steps, json_real(r->pct[i] / 10.0), bad);
	jp_put(o, "test", json_string(result_test_name(r->test)), bad);
	jp_put(o, "steps", steps, bad);
	jp_put(o, "step_time", json_integer(r->step_time), bad);
	jp_put(o, "target",
	       r->target.on ? json_pack("{s:s,s:I}", "stat",
					curve_stat_name(r->target.stat), "ns",
					(json_int_t)r->target.ns)
			    : json_null(),
	       bad);
	jp_put(o, "refine", json_integer(r->refine), bad);
	return o;
}

/* Step s's test as json_test writes a run's. */
static json_t *test_json(const struct curve_result *r,
			 const struct curve_step *s, struct run_result *tmp)
{
	json_t *o;

	tmp->t[r->test] = s->rec;
	snprintf(tmp->error, sizeof(tmp->error), "%s", s->error);
	o = json_test(tmp, r->test);
	memset(&tmp->t[r->test], 0, sizeof(tmp->t[r->test]));
	return o;
}

static json_t *curve_of(const struct curve_result *r, const struct curve_one *c,
			struct run_result *tmp, int *bad)
{
	json_t *o = json_object(), *steps = json_array();

	if (JP_MADE(bad, o, steps))
		return NULL;
	jp_put(o, "seed", json_integer((json_int_t)c->seed), bad);
	jp_put(o, "complete", json_boolean(c->complete), bad);
	for (unsigned i = 0; i < c->n; i++) {
		const struct curve_step *s = &c->step[i];
		json_t *one = json_object();

		if (JP_MADE(bad, one))
			break;
		jp_put(one, "kind", json_string(kind_names[s->kind]), bad);
		jp_put(one, "percent",
		       s->kind == CURVE_STEP_MAX ? json_null()
						 : json_real(s->pct / 10.0),
		       bad);
		jp_put(one, "offered",
		       s->offered ? json_integer((json_int_t)s->offered)
				  : json_null(),
		       bad);
		jp_put(one, "seed", json_integer((json_int_t)s->seed), bad);
		jp_put(one, "test", test_json(r, s, tmp), bad);
		jp_append(steps, one, bad);
	}
	jp_put(o, "steps", steps, bad);
	if (r->target.on && c->knee >= 0 && (unsigned)c->knee < c->n) {
		const struct curve_step *k = &c->step[c->knee];
		double max = curve_achieved(&c->step[0]);

		jp_put(o, "knee",
		       json_pack(
			   "{s:f,s:f,s:I,s:I}", "iops", curve_achieved(k),
			   "percent_of_max",
			   max > 0 ? 100 * curve_achieved(k) / max : 0.0,
			   "value_ns",
			   (json_int_t)curve_stat_of(&k->rec, r->target.stat),
			   "step", (json_int_t)c->knee),
		       bad);
	} else {
		jp_put(o, "knee", json_null(), bad);
	}
	return o;
}

int curve_json_put(json_t *doc, const struct curve_result *r)
{
	json_t *settings = json_object_get(doc, "settings"),
	       *curves = json_array(), *seeds = json_array();
	struct run_result *tmp = calloc(1, sizeof(*tmp));
	int bad = 0;

	if (tmp)
		result_init(tmp);
	if (!tmp || result_measure(tmp) < 0 || JP_MADE(&bad, curves, seeds) ||
	    !json_is_object(settings)) {
		if (tmp)
			result_free(tmp);
		free(tmp);
		json_decref(curves);
		json_decref(seeds);
		return -1;
	}
	for (unsigned i = 0; i < r->n; i++)
		jp_append(seeds, json_integer((json_int_t)r->curves[i].seed),
			  &bad);
	jp_put(settings, "seeds", seeds, &bad);
	jp_put(settings, "curve", settings_json(r, &bad), &bad);
	json_object_del(doc, "runs");
	jp_put(doc, "complete", json_boolean(r->complete), &bad);
	for (unsigned i = 0; i < r->n; i++)
		jp_append(curves, curve_of(r, &r->curves[i], tmp, &bad), &bad);
	jp_put(doc, "curves", curves, &bad);
	jp_put(doc, "summary", r->n > 1 ? summary_json(r, &bad) : json_null(),
	       &bad);
	result_free(tmp);
	free(tmp);
	return bad ? -1 : 0;
}

/* "at.key value is not what"; -1. */
static int refuse(char *why, size_t whylen, const char *at, const char *key,
		  json_t *v, const char *what)
{
	char k[160];

	snprintf(k, sizeof(k), "%.100s%s%.50s", at, *at ? "." : "", key);
	return json_refuse(why, whylen, k, v, what);
}

/* A percentage of the maximum with one decimal at most, 0.1 to
 * CURVE_PCT_MAX, at o[key]: tenths into *out. */
static int read_pct(json_t *o, const char *at, const char *key, unsigned *out,
		    char *why, size_t whylen)
{
	json_t *v = json_object_get(o, key);
	double x = json_number_value(v), t = x * 10;

	if (!json_is_number(v) || !(t >= 1 && t <= CURVE_PCT_MAX * 10) ||
	    fabs(t - round(t)) > 1e-6)
		return refuse(why, whylen, at, key, v,
			      "a percentage of the maximum: expected a number "
			      "from 0.1 to 200 with one decimal at most");
	*out = (unsigned)lround(t);
	return 0;
}

static int read_settings(json_t *doc, struct curve_result *r, char *why,
			 size_t whylen)
{
	static const char *const tests[] = {"ran_read", "ran_mix"};
	static const char *const stats[] = {"p50",   "p90",  "p99",
					    "p99.9", "mean", "max"};
	json_t *s = json_object_get(doc, "settings"), *c, *t, *v;
	const json_t *steps;
	uint64_t u;
	int k;

	if (!json_is_object(s))
		return refuse(why, whylen, "", "settings", s, "an object");
	v = json_object_get(s, "name");
	if (!json_is_string(v) || json_string_length(v) >= sizeof(r->name))
		return refuse(why, whylen, "settings", "name", v,
			      "a machine's name: expected a string of fewer "
			      "than 64 bytes");
	snprintf(r->name, sizeof(r->name), "%s", json_string_value(v));
	c = json_object_get(s, "curve");
	if (!json_is_object(c))
		return refuse(why, whylen, "settings", "curve", c, "an object");
	if ((k = jdoc_name(c, "settings.curve", "test", tests, 2, why,
			   whylen)) < 0)
		return -1;
	r->test = k ? RT_ran_mix : RT_ran_read;
	if (!(steps = jdoc_array(c, "settings.curve", "steps", CURVE_STEPS_MAX,
				 why, whylen)))
		return -1;
	r->nsteps = 0;
	for (size_t i = 0; i < json_array_size(steps); i++) {
		char at[64];
		json_t *one = json_pack("{s:O}", "p", json_array_get(steps, i));

		snprintf(at, sizeof(at), "settings.curve.steps[%zu]", i);
		k = one ? read_pct(one, at, "p", &r->pct[i], why, whylen) : -1;
		json_decref(one);
		if (k < 0)
			return -1;
		if (i && r->pct[i] <= r->pct[i - 1])
			return refuse(why, whylen, "settings.curve", "steps",
				      json_object_get(c, "steps"),
				      "a list of steps: expected them rising");
		r->nsteps++;
	}
	if (jdoc_u64(c, "settings.curve", "step_time", 1, 3600,
		     "a step's time: expected whole seconds from 1 to 3600", &u,
		     why, whylen) < 0)
		return -1;
	r->step_time = (unsigned)u;
	if (jdoc_u64(c, "settings.curve", "refine", 0, CURVE_REFINE_MAX,
		     "a count of bisection steps: expected 0 to 20", &u, why,
		     whylen) < 0)
		return -1;
	r->refine = (unsigned)u;
	t = json_object_get(c, "target");
	memset(&r->target, 0, sizeof(r->target));
	if (!t || json_is_null(t))
		return 0;
	if (!json_is_object(t))
		return refuse(why, whylen, "settings.curve", "target", t,
			      "a target: expected null or {stat, ns}");
	if ((k = jdoc_name(t, "settings.curve.target", "stat", stats, 6, why,
			   whylen)) < 0 ||
	    jdoc_u64(t, "settings.curve.target", "ns", 1, 3600000000000ull,
		     "a bound: expected whole nanoseconds from 1 to an hour",
		     &r->target.ns, why, whylen) < 0)
		return -1;
	r->target.on = 1;
	r->target.stat = (enum curve_stat)k;
	return 0;
}

/* Step j of a curve, at "curves[i].steps[j]", after step prev (NULL for
 * the first). */
static int read_step(json_t *o, const char *at, struct curve_step *s,
		     const struct curve_step *prev, char *why, size_t whylen)
{
	char tat[96];
	json_t *v;
	int k;

	if (!json_is_object(o))
		return json_refuse(why, whylen, at, o, "an object");
	if ((k = jdoc_name(o, at, "kind", kind_names, 3, why, whylen)) < 0)
		return -1;
	s->kind = (enum curve_kind)k;
	if ((s->kind == CURVE_STEP_MAX) != !prev)
		return refuse(why, whylen, at, "kind",
			      json_object_get(o, "kind"),
			      prev ? "a step: expected \"step\" or \"refine\" "
				     "after the maximum"
				   : "the first step: expected \"max\"");
	if (jdoc_u64(o, at, "seed", 0, UINT64_MAX >> 1,
		     "a seed: expected a whole number", &s->seed, why,
		     whylen) < 0)
		return -1;
	if (s->kind == CURVE_STEP_MAX) {
		if (!json_is_null(json_object_get(o, "percent")) ||
		    !json_is_null(json_object_get(o, "offered")))
			return refuse(why, whylen, at, "offered",
				      json_object_get(o, "offered"),
				      "the maximum's: expected null (a closed "
				      "loop), and its percent null");
		s->pct = 0;
		s->offered = 0;
	} else {
		if (read_pct(o, at, "percent", &s->pct, why, whylen) < 0 ||
		    jdoc_u64(o, at, "offered", 1, 1000000000,
			     "a rate offered: expected whole operations a "
			     "second from 1 to 1e9",
			     &s->offered, why, whylen) < 0)
			return -1;
		if (prev->kind != CURVE_STEP_MAX && s->offered < prev->offered)
			return refuse(why, whylen, at, "offered",
				      json_object_get(o, "offered"),
				      "in order: expected the steps rising in "
				      "the rate offered");
	}
	v = json_object_get(o, "test");
	snprintf(tat, sizeof(tat), "%.80s.test", at);
	if (!json_is_object(v))
		return json_refuse(why, whylen, tat, v, "an object");
	return json_read_test(v, tat, 1, &s->rec, why, whylen);
}

static int read_curve(json_t *o, unsigned i, const struct curve_result *r,
		      struct curve_one *c, char *why, size_t whylen)
{
	char at[64], sat[96];
	const json_t *steps;
	json_t *knee;
	uint64_t u;

	snprintf(at, sizeof(at), "curves[%u]", i);
	if (!json_is_object(o))
		return json_refuse(why, whylen, at, o, "an object");
	if (jdoc_u64(o, at, "seed", 0, UINT64_MAX >> 1,
		     "a seed: expected a whole number", &c->seed, why,
		     whylen) < 0 ||
	    jdoc_bool(o, at, "complete", &c->complete, why, whylen) < 0 ||
	    !(steps = jdoc_array(o, at, "steps", CURVE_RUN_STEPS, why, whylen)))
		return -1;
	if (!json_array_size(steps))
		return refuse(why, whylen, at, "steps",
			      json_object_get(o, "steps"),
			      "a curve's steps: expected the maximum at least");
	for (size_t j = 0; j < json_array_size(steps); j++) {
		snprintf(sat, sizeof(sat), "%s.steps[%zu]", at, j);
		c->n = (unsigned)j + 1;
		if (read_step(json_array_get(steps, j), sat, &c->step[j],
			      j ? &c->step[j - 1] : NULL, why, whylen) < 0)
			return -1;
	}
	c->knee = -1;
	knee = json_object_get(o, "knee");
	if (!knee || json_is_null(knee))
		return 0;
	snprintf(sat, sizeof(sat), "%s.knee", at);
	if (!r->target.on)
		return refuse(why, whylen, at, "knee", knee,
			      "a knee: expected null without a target");
	if (!json_is_object(knee) ||
	    jdoc_u64(knee, sat, "step", 1, c->n - 1,
		     "a step of the curve: expected the index of one after "
		     "the maximum",
		     &u, why, whylen) < 0)
		return json_is_object(knee)
			   ? -1
			   : json_refuse(why, whylen, sat, knee, "an object");
	c->knee = (int)u;
	return 0;
}

json_t *curve_json_read(const char *buf, size_t len, struct curve_result *r,
			char *why, size_t whylen)
{
	json_t *doc = jdoc_load(buf, len, "clyde-curve", why, whylen), *sum;
	const json_t *curves;

	memset(r, 0, sizeof(*r));
	if (!doc)
		return NULL;
	if (read_settings(doc, r, why, whylen) < 0 ||
	    jdoc_bool(doc, "", "complete", &r->complete, why, whylen) < 0 ||
	    !(curves = jdoc_array(doc, "", "curves", CURVE_REPEATS_MAX, why,
				  whylen)))
		goto bad;
	sum = json_object_get(doc, "summary");
	if (sum && !json_is_null(sum) && !json_is_object(sum)) {
		refuse(why, whylen, "", "summary", sum, "null or an object");
		goto bad;
	}
	if (!json_array_size(curves)) {
		refuse(why, whylen, "", "curves",
		       json_object_get(doc, "curves"),
		       "a list of curves: expected one at least");
		goto bad;
	}
	r->curves = calloc(json_array_size(curves), sizeof(*r->curves));
	if (!r->curves) {
		snprintf(why, whylen, "out of memory for %zu curves",
			 json_array_size(curves));
		goto bad;
	}
	for (size_t i = 0; i < json_array_size(curves); i++) {
		r->n = (unsigned)i + 1;
		if (read_curve(json_array_get(curves, i), (unsigned)i, r,
			       &r->curves[i], why, whylen) < 0)
			goto bad;
	}
	return doc;
bad:
	curve_result_free(r);
	json_decref(doc);
	return NULL;
}
