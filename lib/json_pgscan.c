/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_pgscan: see json_impl.h; the settings.pgscan object of a
 * clyde-pgscan document (its PostgreSQL server, the table it scanned and
 * how the table was evicted before each scan), checked as json_read.c
 * checks the rest: each key there is of its type and range, else the
 * document is refused with the key and value named. A key this reader
 * does not know is left alone, as in the rest of settings. Nothing here
 * is shown: the scans themselves are the runs' pg_scan test records.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "json.h"
#include "json_impl.h"

/* The longest string value taken: a path or a version, not a file. */
#define PGSCAN_STRING_MAX 4096

/* The string keys, each a non-empty string of at most 4096 bytes. */
static const char *const string_keys[] = {"server_version", "bindir",
					  "relation"};

/* The whole-number keys and their ranges. */
static const struct {
	const char *name;
	json_int_t max;
	const char *what;
} whole_keys[] = {
    {"relation_bytes", JSON_READ_MAX,
     "a relation size: expected a whole number of bytes from 0 to 1e18"},
    {"scale", 1000000000,
     "a pgbench scale: expected a whole number from 0 to 1000000000"},
    {"parallel_workers", 1024,
     "a number of parallel workers: expected a whole number from 0 to "
     "1024"},
};

#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

static int check_strings(json_t *p, char *why, size_t whylen)
{
	char key[64];

	for (size_t k = 0; k < NKEYS(string_keys); k++) {
		json_t *v = json_object_get(p, string_keys[k]);

		if (!v || (json_is_string(v) && json_string_length(v) > 0 &&
			   json_string_length(v) <= PGSCAN_STRING_MAX))
			continue;
		snprintf(key, sizeof(key), "settings.pgscan.%s",
			 string_keys[k]);
		return json_refuse(why, whylen, key, v,
				   "a name: expected a string of 1 to 4096 "
				   "bytes");
	}
	return 0;
}

/* How the table left the page cache before each scan. */
static int check_evict(json_t *p, char *why, size_t whylen)
{
	json_t *v = json_object_get(p, "evict");
	const char *e = json_string_value(v);

	if (!v || (e && (!strcmp(e, "fadvise") || !strcmp(e, "drop_caches"))))
		return 0;
	return json_refuse(why, whylen, "settings.pgscan.evict", v,
			   "an eviction: expected \"fadvise\" or "
			   "\"drop_caches\"");
}

int json_read_pgscan(json_t *settings, char *why, size_t whylen)
{
	json_t *p = json_object_get(settings, "pgscan");

	if (!p)
		return 0;
	if (!json_is_object(p))
		return json_refuse(why, whylen, "settings.pgscan", p,
				   "an object");
	if (check_strings(p, why, whylen) < 0)
		return -1;
	for (size_t k = 0; k < NKEYS(whole_keys); k++)
		if (json_check_key(p, "settings.pgscan", whole_keys[k].name, 1,
				   (double)whole_keys[k].max,
				   whole_keys[k].what, why, whylen) < 0)
			return -1;
	if (check_evict(p, why, whylen) < 0)
		return -1;
	return json_check_key(p, "settings.pgscan", "resident_after_evict", 0,
			      1,
			      "a share of the table: expected a number "
			      "from 0 to 1",
			      why, whylen);
}
