/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_cliff: a test's write-cache cliff (cliff.h) as its "cliff"
 * object (doc/clyde-json.5), written by json.c and read back by
 * json_measured.c, each key checked as the rest of the reader checks:
 *
 *   {"found": true, "method", "burst_bytes_per_s", "sustained_bytes_per_s",
 *    "burst_sd", "sustained_sd", "drop_seconds", "absorbed_bytes",
 *    "burst_intervals", "sustained_intervals", "intervals"}
 *   {"found": false, "intervals", "why"}
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "json.h"
#include "json_impl.h"
#include "jput.h"

/* What the finding rests on, in the document's words. */
#define CLIFF_METHOD "two-level least squares of the intervals' log rates"

json_t *json_cliff(const struct cliff *c)
{
	json_t *o = json_object();
	int bad = 0;

	jp_put(o, "found", json_boolean(c->found), &bad);
	jp_put(o, "intervals", json_integer(c->intervals), &bad);
	if (!c->found) {
		jp_put(o, "why", json_string(c->why), &bad);
		return jp_done(o, bad);
	}
	jp_put(o, "method", json_string(CLIFF_METHOD), &bad);
	jp_put(o, "burst_bytes_per_s", json_real(c->burst), &bad);
	jp_put(o, "sustained_bytes_per_s", json_real(c->sustained), &bad);
	jp_put(o, "burst_sd", json_real(c->burst_sd), &bad);
	jp_put(o, "sustained_sd", json_real(c->sustained_sd), &bad);
	jp_put(o, "drop_seconds", json_real(c->drop_s), &bad);
	jp_put(o, "absorbed_bytes", json_real(c->absorbed), &bad);
	jp_put(o, "burst_intervals", json_integer(c->n_burst), &bad);
	jp_put(o, "sustained_intervals", json_integer(c->n_sustained), &bad);
	return jp_done(o, bad);
}

/* Key name of the cliff object o: a number from 0 to 1e18 into *v. */
static int number(json_t *o, const char *at, const char *name, int whole,
		  double *v, char *why, size_t whylen)
{
	json_t *x = json_object_get(o, name);

	if (!x) {
		snprintf(why, whylen,
			 "%.200s has no %s: a cliff found has each of its "
			 "figures",
			 at, name);
		return -1;
	}
	if (json_check_key(o, at, name, whole, JSON_READ_MAX,
			   whole ? "a count: expected a whole number from 0 "
				   "to 1e18"
				 : "a cliff's figure: expected a number from 0 "
				   "to 1e18",
			   why, whylen) < 0)
		return -1;
	*v = json_number_value(x);
	return 0;
}

int json_read_cliff(json_t *t, const char *at, struct result_test_rec *rec,
		    char *why, size_t whylen)
{
	json_t *o = json_object_get(t, "cliff"), *found, *w;
	struct cliff *c = &rec->cliff;
	char key[240];
	double n = 0, nb = 0, ns = 0;

	memset(c, 0, sizeof(*c));
	if (!o)
		return 0;
	snprintf(key, sizeof(key), "%.200s.cliff", at);
	found = json_object_get(o, "found");
	if (!json_is_object(o) || !json_is_boolean(found))
		return json_refuse(why, whylen, key, o,
				   "a cliff: expected an object with \"found\" "
				   "true or false");
	c->looked = 1;
	c->found = json_is_true(found);
	if (number(o, key, "intervals", 1, &n, why, whylen) < 0)
		return -1;
	c->intervals = n > 4e9 ? 4000000000u : (unsigned)n;
	if (!c->found) {
		w = json_object_get(o, "why");
		snprintf(key, sizeof(key), "%.200s.cliff.why", at);
		if (!json_is_string(w) ||
		    json_string_length(w) >= sizeof(c->why))
			return json_refuse(
			    why, whylen, key, w,
			    "why no cliff was found: expected a string of "
			    "fewer than 160 bytes");
		snprintf(c->why, sizeof(c->why), "%s", json_string_value(w));
		return 0;
	}
	if (number(o, key, "burst_bytes_per_s", 0, &c->burst, why, whylen) ||
	    number(o, key, "sustained_bytes_per_s", 0, &c->sustained, why,
		   whylen) ||
	    number(o, key, "burst_sd", 0, &c->burst_sd, why, whylen) ||
	    number(o, key, "sustained_sd", 0, &c->sustained_sd, why, whylen) ||
	    number(o, key, "drop_seconds", 0, &c->drop_s, why, whylen) ||
	    number(o, key, "absorbed_bytes", 0, &c->absorbed, why, whylen) ||
	    number(o, key, "burst_intervals", 1, &nb, why, whylen) ||
	    number(o, key, "sustained_intervals", 1, &ns, why, whylen))
		return -1;
	if (!(c->sustained < c->burst)) {
		snprintf(key, sizeof(key), "%.200s.cliff.sustained_bytes_per_s",
			 at);
		return json_refuse(why, whylen, key,
				   json_object_get(o, "sustained_bytes_per_s"),
				   "a sustained rate: expected it under the "
				   "burst");
	}
	if (nb + ns + 1 > n) {
		snprintf(key, sizeof(key), "%.200s.cliff.intervals", at);
		return json_refuse(
		    why, whylen, key, json_object_get(o, "intervals"),
		    "the intervals looked at: expected more than "
		    "those of both levels");
	}
	c->n_burst = (unsigned)nb;
	c->n_sustained = (unsigned)ns;
	return 0;
}
