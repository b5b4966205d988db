/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_steady_read: a test's "steady" object (json_steady.c) read back
 * into its record, each key checked as the rest of the reader checks.
 * Apart from the writer, as the cliff's reader is.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json_impl.h"

/* The most rounds read: a week of one-second rounds and more (each a
 * struct steady_round of 40 bytes). */
#define STEADY_READ_ROUNDS 1000000u

#define A_TIME	 "a time: expected a number of seconds from 0 to 1e18"
#define A_COUNT	 "a count: expected a whole number from 0 to 1e18"
#define A_PCT	 "a percentage: expected a number over 0, at most 100"
#define A_FIGURE "a window's figure: expected a number from 0 to 1e18"

/*
 * Key name of object o (at naming o), which must be there: a number
 * (whole: a whole one) over lo (open) or from lo (else), at most hi,
 * into *v and, when u, *u; else -1 with why, "AT.NAME value is not WHAT".
 */
/* Key name of o (at naming o) with its full name in key; NULL when o has
 * none. */
static json_t *member(json_t *o, const char *at, const char *name, char *key,
		      size_t keylen)
{
	snprintf(key, keylen, "%.200s.%s", at, name);
	return json_object_get(o, name);
}

/* The same, which must be there: NULL with why when it is not. */
static json_t *needed(json_t *o, const char *at, const char *name, char *key,
		      size_t keylen, char *why, size_t whylen)
{
	json_t *x = member(o, at, name, key, keylen);

	if (!x)
		snprintf(why, whylen,
			 "%.200s has no %s: a steady run has each of its keys",
			 at, name);
	return x;
}

static int number(json_t *o, const char *at, const char *name, int whole,
		  double lo, int open, double hi, const char *what, double *v,
		  uint64_t *u, char *why, size_t whylen)
{
	char key[240];
	json_t *x = needed(o, at, name, key, sizeof(key), why, whylen);
	double d = json_number_value(x);

	if (!x)
		return -1;
	if (!(whole ? json_is_integer(x) : json_is_number(x)) ||
	    !(open ? d > lo : d >= lo) || !(d <= hi))
		return json_refuse(why, whylen, key, x, what);
	if (v)
		*v = d;
	if (u)
		*u = (uint64_t)json_integer_value(x);
	return 0;
}

/* Key name of o, which must be there: true or false, into *v. */
static int flag(json_t *o, const char *at, const char *name, int *v, char *why,
		size_t whylen)
{
	char key[240];
	json_t *x = needed(o, at, name, key, sizeof(key), why, whylen);

	if (!x)
		return -1;
	if (!json_is_boolean(x))
		return json_refuse(why, whylen, key, x, "true or false");
	*v = json_is_true(x);
	return 0;
}

/* The rule (at naming the steady object) into *r. */
static int read_rule(json_t *o, const char *at, struct steady_rule *r,
		     char *why, size_t whylen)
{
	char key[240], what[96];
	json_t *x = member(o, at, "rule", key, sizeof(key)), *on;
	double n;
	unsigned i;

	if (!json_is_object(x))
		return json_refuse(why, whylen, key, x,
				   "a steady-state rule: expected an object "
				   "with rounds, range_pct, slope_pct and on");
	snprintf(what, sizeof(what),
		 "a window: expected a whole number of rounds from 2 to %u",
		 STEADY_ROUNDS_MAX);
	if (number(x, key, "rounds", 1, 2, 0, STEADY_ROUNDS_MAX, what, &n, NULL,
		   why, whylen) < 0 ||
	    number(x, key, "range_pct", 0, 0, 1, 100, A_PCT, &r->range_pct,
		   NULL, why, whylen) < 0 ||
	    number(x, key, "slope_pct", 0, 0, 1, 100, A_PCT, &r->slope_pct,
		   NULL, why, whylen) < 0)
		return -1;
	r->rounds = (unsigned)n;
	on = json_object_get(x, "on");
	for (i = 0; i <= STEADY_P99; i++)
		if (json_is_string(on) &&
		    !strcmp(json_string_value(on),
			    steady_on_name((enum steady_on)i)))
			break;
	snprintf(key, sizeof(key), "%.200s.rule.on", at);
	if (i > STEADY_P99)
		return json_refuse(why, whylen, key, on,
				   "what a round measures: expected \"rate\", "
				   "\"iops\", \"bw\" or \"p99\"");
	r->on = (enum steady_on)i;
	return 0;
}

/* The rounds array (at naming the steady object) into s. */
static int read_rounds(json_t *o, const char *at, struct steady_run *s,
		       char *why, size_t whylen)
{
	char key[240], what[96];
	json_t *a = member(o, at, "rounds", key, sizeof(key)), *e;
	size_t i;

	snprintf(what, sizeof(what),
		 "the rounds: expected an array of at most %u objects",
		 STEADY_READ_ROUNDS);
	if (!json_is_array(a) || json_array_size(a) > STEADY_READ_ROUNDS)
		return json_refuse(why, whylen, key, a, what);
	s->nrounds = (unsigned)json_array_size(a);
	if (!s->nrounds)
		return 0;
	s->rounds = calloc(s->nrounds, sizeof(*s->rounds));
	if (!s->rounds) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	json_array_foreach(a, i, e)
	{
		struct steady_round *rd = &s->rounds[i];

		snprintf(key, sizeof(key), "%.200s.rounds[%zu]", at, i);
		if (!json_is_object(e))
			return json_refuse(why, whylen, key, e,
					   "a round: expected an object");
		if (number(e, key, "seconds", 0, 0, 0, JSON_READ_MAX, A_TIME,
			   &rd->seconds, NULL, why, whylen) < 0 ||
		    number(e, key, "ops", 1, 0, 0, JSON_READ_MAX, A_COUNT, NULL,
			   &rd->ops, why, whylen) < 0 ||
		    number(e, key, "bytes", 1, 0, 0, JSON_READ_MAX, A_COUNT,
			   NULL, &rd->bytes, why, whylen) < 0 ||
		    number(e, key, "p99_ns", 1, 0, 0, JSON_READ_MAX,
			   "a latency: expected a whole number of "
			   "nanoseconds from 0 to 1e18",
			   NULL, &rd->p99_ns, why, whylen) < 0 ||
		    number(e, key, "value", 0, 0, 0, JSON_READ_MAX,
			   "a round's value: expected a number from 0 to "
			   "1e18",
			   &rd->value, NULL, why, whylen) < 0)
			return -1;
	}
	return 0;
}

/* The window (at naming the steady object) into s, its rounds read. */
static int read_window(json_t *o, const char *at, struct steady_run *s,
		       char *why, size_t whylen)
{
	char key[240], what[160];
	json_t *x = member(o, at, "window", key, sizeof(key));
	struct steady_window *w = &s->window;
	double first, n;

	if (s->nrounds < s->rule.rounds) {
		if (!x)
			return 0;
		snprintf(what, sizeof(what),
			 "a window: expected none in %u rounds, fewer than "
			 "the rule's %u",
			 s->nrounds, s->rule.rounds);
		return json_refuse(why, whylen, key, x, what);
	}
	if (!x) {
		snprintf(why, whylen,
			 "%.200s has no window: a steady run of %u rounds, "
			 "the rule's %u or more, has one",
			 at, s->nrounds, s->rule.rounds);
		return -1;
	}
	if (!json_is_object(x))
		return json_refuse(why, whylen, key, x,
				   "a window: expected an object");
	snprintf(what, sizeof(what),
		 "the window's first round: expected a whole number from 0 "
		 "to %u (its %u rounds among the %u)",
		 s->nrounds - s->rule.rounds, s->rule.rounds, s->nrounds);
	if (number(x, key, "first", 1, 0, 0, s->nrounds - s->rule.rounds, what,
		   &first, NULL, why, whylen) < 0)
		return -1;
	s->first = (unsigned)first;
	snprintf(what, sizeof(what),
		 "the window's rounds: expected the rule's, %u",
		 s->rule.rounds);
	if (number(x, key, "rounds", 1, s->rule.rounds, 0, s->rule.rounds, what,
		   &n, NULL, why, whylen) < 0 ||
	    number(x, key, "avg", 0, 0, 0, JSON_READ_MAX, A_FIGURE, &w->avg,
		   NULL, why, whylen) < 0 ||
	    number(x, key, "min", 0, 0, 0, JSON_READ_MAX, A_FIGURE, &w->min,
		   NULL, why, whylen) < 0 ||
	    number(x, key, "max", 0, w->min, 0, JSON_READ_MAX,
		   "a window's largest value: expected a number from its "
		   "min to 1e18",
		   &w->max, NULL, why, whylen) < 0 ||
	    number(x, key, "range", 0, 0, 0, JSON_READ_MAX, A_FIGURE, &w->range,
		   NULL, why, whylen) < 0 ||
	    number(x, key, "slope", 0, -(double)JSON_READ_MAX, 0, JSON_READ_MAX,
		   "a slope: expected a number from -1e18 to 1e18", &w->slope,
		   NULL, why, whylen) < 0 ||
	    number(x, key, "excursion", 0, 0, 0, JSON_READ_MAX, A_FIGURE,
		   &w->excursion, NULL, why, whylen) < 0 ||
	    flag(x, key, "range_ok", &w->range_ok, why, whylen) < 0 ||
	    flag(x, key, "slope_ok", &w->slope_ok, why, whylen) < 0)
		return -1;
	return 0;
}

int json_read_steady(json_t *t, const char *at, struct result_test_rec *rec,
		     char *why, size_t whylen)
{
	json_t *o = json_object_get(t, "steady");
	struct steady_run *s;
	char key[240];

	steady_run_free(rec->steady);
	rec->steady = NULL;
	if (!o)
		return 0;
	snprintf(key, sizeof(key), "%.200s.steady", at);
	if (!json_is_object(o))
		return json_refuse(why, whylen, key, o,
				   "a steady-state run: expected an object");
	s = rec->steady = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	if (read_rule(o, key, &s->rule, why, whylen) < 0 ||
	    number(o, key, "round_seconds", 0, 0, 1, JSON_READ_MAX,
		   "a round's length: expected a number of seconds over 0, "
		   "at most 1e18",
		   &s->round_s, NULL, why, whylen) < 0 ||
	    number(o, key, "max_seconds", 0, 0, 0, JSON_READ_MAX, A_TIME,
		   &s->max_s, NULL, why, whylen) < 0 ||
	    number(o, key, "seconds", 0, 0, 0, JSON_READ_MAX, A_TIME,
		   &s->seconds, NULL, why, whylen) < 0 ||
	    flag(o, key, "steady", &s->steady, why, whylen) < 0 ||
	    read_rounds(o, key, s, why, whylen) < 0 ||
	    read_window(o, key, s, why, whylen) < 0)
		return -1;
	/* Steady: the window met both of the rule's tests. */
	if (s->steady && (s->nrounds < s->rule.rounds || !s->window.range_ok ||
			  !s->window.slope_ok)) {
		snprintf(key, sizeof(key), "%.200s.steady.steady", at);
		return json_refuse(why, whylen, key, json_true(),
				   "a verdict of this run: expected false "
				   "without a window that meets both the "
				   "range and the slope test");
	}
	return 0;
}
