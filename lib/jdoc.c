/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jdoc: see jdoc.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jdoc.h"
#include "json.h"

/* "at.key value is not what"; -1. */
static int refuse(char *why, size_t len, const char *at, const char *key,
		  const json_t *v, const char *what)
{
	char show[64];

	json_value_shown(v, show, sizeof(show));
	snprintf(why, len, "%s%s%s %s is not %s", at, *at && key ? "." : "",
		 key ? key : "", show, what);
	return -1;
}

json_t *jdoc_load(const char *buf, size_t len, const char *program, char *why,
		  size_t whylen)
{
	json_error_t err;
	json_t *doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &err);
	json_t *v, *p;
	char show[64];

	if (!doc) {
		snprintf(why, whylen, "not JSON: line %d: %s", err.line,
			 err.text);
		return NULL;
	}
	v = json_object_get(doc, "schema_version");
	p = json_object_get(doc, "program");
	if (!json_is_object(doc) || !json_is_string(p) ||
	    strcmp(json_string_value(p), program)) {
		json_value_shown(p, show, sizeof(show));
		snprintf(why, whylen, "program %s: not a %s document", show,
			 program);
	} else if (json_schema_is(v, JDOC_SCHEMA_VERSION, why, whylen) == 0) {
		return doc;
	}
	json_decref(doc);
	return NULL;
}

int jdoc_u64(const json_t *o, const char *at, const char *key, uint64_t min,
	     uint64_t max, const char *what, uint64_t *out, char *why,
	     size_t len)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (uint64_t)json_integer_value(v) < min ||
	    (uint64_t)json_integer_value(v) > max)
		return refuse(why, len, at, key, v, what);
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

int jdoc_seconds(const json_t *v, const char *at, double *out, char *why,
		 size_t len)
{
	double d = json_number_value(v);

	if (!json_is_number(v) || !isfinite(d) || d < 0)
		return refuse(why, len, at, NULL, v,
			      "a time: expected seconds, a number from 0 up");
	*out = d;
	return 0;
}

int jdoc_bool(const json_t *o, const char *at, const char *key, int *out,
	      char *why, size_t len)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_boolean(v))
		return refuse(why, len, at, key, v,
			      "a boolean: expected true or false");
	*out = json_is_true(v);
	return 0;
}

const json_t *jdoc_array(const json_t *o, const char *at, const char *key,
			 size_t max, char *why, size_t len)
{
	const json_t *v = json_object_get(o, key);
	char what[96];

	if (json_is_array(v) && json_array_size(v) <= max)
		return v;
	snprintf(what, sizeof(what), "a list: expected an array of at most %zu",
		 max);
	refuse(why, len, at, key, v, what);
	return NULL;
}

int jdoc_name(const json_t *o, const char *at, const char *key,
	      const char *const *names, int n, char *why, size_t len)
{
	const json_t *v = json_object_get(o, key);
	char what[200];
	size_t k = 0;

	for (int i = 0; json_is_string(v) && i < n; i++)
		if (!strcmp(json_string_value(v), names[i]))
			return i;
	k = (size_t)snprintf(what, sizeof(what), "one of");
	for (int i = 0; i < n && k < sizeof(what); i++)
		k += (size_t)snprintf(what + k, sizeof(what) - k, " %s%s",
				      names[i], i + 1 < n ? "," : "");
	return refuse(why, len, at, key, v, what);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int jdoc_path(const json_t *o, const char *at, const char *key, size_t max,
	      char **out, char *why, size_t len)
{
	char hkey[64], what[96];
	const json_t *h, *v = json_object_get(o, key);
	const char *s;
	size_t n;

	snprintf(hkey, sizeof(hkey), "%s_bytes", key);
	snprintf(what, sizeof(what),
		 "a name: expected a string of 1 to %zu bytes", max);
	h = json_object_get(o, hkey);
	if (h) {
		s = json_string_value(h);
		n = s ? strlen(s) : 0;
		if (!s || n == 0 || n % 2 || n / 2 > max)
			goto bad_hex;
		*out = malloc(n / 2 + 1);
		if (!*out)
			return refuse(why, len, at, hkey, h, "read: no memory");
		for (size_t i = 0; i < n / 2; i++) {
			int a = hexval(s[2 * i]), b = hexval(s[2 * i + 1]);

			if (a < 0 || b < 0 || (a | b) == 0) {
				free(*out);
				*out = NULL;
				goto bad_hex;
			}
			(*out)[i] = (char)(a << 4 | b);
		}
		(*out)[n / 2] = '\0';
		return 0;
	}
	s = json_string_value(v);
	if (!s || !*s || json_string_length(v) != strlen(s) || strlen(s) > max)
		return refuse(why, len, at, key, v, what);
	*out = strdup(s);
	if (!*out)
		return refuse(why, len, at, key, v, "read: no memory");
	return 0;
bad_hex:
	return refuse(why, len, at, hkey, h,
		      "a path's bytes: expected lowercase hex digits, two a "
		      "byte, no 00");
}

int jdoc_text(const json_t *o, const char *at, const char *key, char *buf,
	      size_t room, char *why, size_t len)
{
	const json_t *v = json_object_get(o, key);
	const char *s = json_string_value(v);
	char what[96];

	buf[0] = '\0';
	if (!v || json_is_null(v))
		return 0;
	snprintf(what, sizeof(what),
		 "a name: expected a string of printable characters, at most "
		 "%zu bytes, or null",
		 room - 1);
	if (!s || json_string_length(v) >= room)
		return refuse(why, len, at, key, v, what);
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return refuse(why, len, at, key, v, what);
	memcpy(buf, s, strlen(s) + 1);
	return 0;
}

int jdoc_opt_u64(const json_t *o, const char *at, const char *key, uint64_t min,
		 uint64_t max, const char *what, uint64_t *out, char *why,
		 size_t len)
{
	const json_t *v = json_object_get(o, key);

	*out = 0;
	if (!v || json_is_null(v))
		return 0;
	return jdoc_u64(o, at, key, min, max, what, out, why, len);
}

int jdoc_start_time(const json_t *doc, char *buf, size_t room, char *why,
		    size_t len)
{
	const json_t *v = json_object_get(doc, "start_time");
	const char *s = json_string_value(v);
	unsigned y, mo, d, h, mi, sec;
	char z, end;

	buf[0] = '\0';
	if (!v)
		return 0;
	if (!s || strlen(s) != 20 || strlen(s) >= room ||
	    sscanf(s, "%4u-%2u-%2uT%2u:%2u:%2u%c%c", &y, &mo, &d, &h, &mi, &sec,
		   &z, &end) != 7 ||
	    z != 'Z' || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
	    mi > 59 || sec > 60)
		return refuse(why, len, "", "start_time", v,
			      "a time: expected UTC as 2026-11-30T01:30:00Z");
	memcpy(buf, s, 21);
	return 0;
}
