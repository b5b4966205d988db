/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_cliff_read: a test's "cliff" object (json_cliff.c) read back
 * into its record, each key checked as the rest of the reader checks.
 * Apart from the writer, which the programs that only write documents
 * link without the reader.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "json.h"
#include "json_impl.h"

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
