/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json_thin: a clyde document read thin (json_impl.h). A scan of the
 * text finds each runs[i].tests.<test>.intervals array; its elements
 * are parsed one at a time (json_loadb stopping after one value), read
 * into the test's log and freed, and the parser is then fed the text
 * with the array's inside given as its newlines alone, so that it
 * builds the rest of the tree, and counts lines, as before. Anything
 * the scan does not expect sends the whole text to json_loadb instead.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json_impl.h"

/* jansson's own limit of nesting. */
#define THIN_DEPTH 2048
/* A test's intervals at most (json_read_intervals refuses more). */
#define THIN_INTERVALS 1000000

/* What the scan keeps of an open object or array. */
struct level {
	char type;	 /* '{' or '[' */
	const char *key; /* the key it is under; NULL in an array */
	size_t keylen;
	size_t count; /* an array's values so far */
	bool want_key;
	uint32_t seen; /* the keys of the path to a log met in it */
};

/* A part of the text given to the parser as its newlines alone. */
struct skip {
	size_t from, to;
};

struct scan {
	const char *buf;
	size_t len, pos;
	struct level *lv;
	size_t depth;
	struct skip *skips;
	size_t nskips, skips_cap;
	struct json_thin *thin;
	/* The parser's feed: where it is, and the skip it is in. */
	size_t feed, next_skip;
};

static bool key_is(const struct level *l, const char *s)
{
	return l->key && l->keylen == strlen(s) &&
	       !memcmp(l->key, s, l->keylen);
}

/* After the string that starts at pos (its opening quote); 0: none. */
static size_t string_end(const char *buf, size_t len, size_t pos)
{
	for (size_t i = pos + 1; i < len; i++) {
		if (buf[i] == '\\')
			i++;
		else if (buf[i] == '"')
			return i + 1;
	}
	return 0;
}

static void skip_ws(const struct scan *s, size_t *p)
{
	while (*p < s->len && (s->buf[*p] == ' ' || s->buf[*p] == '\t' ||
			       s->buf[*p] == '\n' || s->buf[*p] == '\r'))
		(*p)++;
}

/* The registry's test named by the key of level l; RT_COUNT: none. */
static enum result_test test_of(const struct level *l)
{
	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (key_is(l, result_test_name(t)))
			return t;
	return RT_COUNT;
}

/* Whether the array opening at s->pos is a test's intervals, in a
 * clyde document's place for them; its test then into *t. */
static bool is_log(const struct scan *s, enum result_test *t)
{
	const struct level *l = s->lv;

	/* {"runs": [{"tests": {"<test>": {"intervals": [ */
	if (s->depth != 6 || l[0].type != '{' || l[1].type != '[' ||
	    !key_is(&l[1], "runs") || l[2].type != '{' || l[3].type != '{' ||
	    !key_is(&l[3], "tests") || l[4].type != '{' ||
	    !key_is(&l[5], "intervals"))
		return false;
	*t = test_of(&l[4]);
	return *t != RT_COUNT;
}

static struct json_thin_log *new_log(struct json_thin *thin)
{
	if (thin->n == thin->cap) {
		size_t c = thin->cap ? 2 * thin->cap : 16;
		struct json_thin_log *n = realloc(thin->logs, c * sizeof(*n));

		if (!n)
			return NULL;
		thin->logs = n;
		thin->cap = c;
	}
	memset(&thin->logs[thin->n], 0, sizeof(thin->logs[0]));
	return &thin->logs[thin->n++];
}

/*
 * The elements of the intervals array opening at s->pos, of test t of
 * run run, into a new log; s->pos then after its closing bracket. An
 * empty array is left as it is. 0, or -1: not as clyde writes it.
 */
static int read_log(struct scan *s, size_t run, enum result_test t)
{
	size_t p = s->pos + 1, cap = 0;
	struct json_thin_log *log;
	char at[120];

	skip_ws(s, &p);
	if (p < s->len && s->buf[p] == ']') {
		s->pos = p + 1;
		return 0;
	}
	if (!(log = new_log(s->thin)))
		return -1;
	log->run = run;
	log->test = t;
	log->from = s->pos;
	/* As read_tests names the test. */
	snprintf(at, sizeof(at), "runs[%zu].tests.%s", run,
		 result_test_name(t));
	for (;;) {
		json_error_t err;
		json_t *e;
		int rc;

		if (log->n == THIN_INTERVALS)
			return -1;
		if (log->n == cap) {
			size_t c = cap ? 2 * cap : 1024;
			struct result_interval *v =
			    realloc(log->v, c * sizeof(*v));

			if (!v)
				return -1;
			log->v = v;
			cap = c;
		}
		e = json_loadb(s->buf + p, s->len - p,
			       JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY, &err);
		if (!e)
			return -1;
		p += (size_t)err.position;
		memset(&log->v[log->n], 0, sizeof(log->v[0]));
		rc = json_thin_element(e, at, log->n, log);
		json_decref(e);
		if (rc < 0)
			return -1;
		log->n++;
		skip_ws(s, &p);
		if (p < s->len && s->buf[p] == ',') {
			p++;
			continue;
		}
		if (p < s->len && s->buf[p] == ']')
			break;
		return -1;
	}
	/* The room not taken goes back. */
	if (log->n < cap) {
		struct result_interval *v =
		    realloc(log->v, log->n * sizeof(*log->v));

		if (v)
			log->v = v;
	}
	if (s->nskips == s->skips_cap) {
		size_t c = s->skips_cap ? 2 * s->skips_cap : 16;
		struct skip *n = realloc(s->skips, c * sizeof(*n));

		if (!n)
			return -1;
		s->skips = n;
		s->skips_cap = c;
	}
	s->skips[s->nskips++] = (struct skip){s->pos + 1, p};
	s->pos = p + 1;
	log->to = s->pos;
	return 0;
}

/*
 * The key just read in the object on top, where a log's path may pass
 * (the document, a run, its tests, a test): escaped, or one of the
 * path's keys twice in one object, and what the parser keeps may not
 * be what the scan read (it keeps a key's last value). -1 then.
 */
static int path_key(struct scan *s, const char *key, size_t keylen)
{
	struct level *top = &s->lv[s->depth - 1];
	const struct level k = {.key = key, .keylen = keylen};
	uint32_t bit = 0;

	if (s->depth > 5)
		return 0;
	if (memchr(key, '\\', keylen))
		return -1;
	if (s->depth == 1 && key_is(&k, "runs"))
		bit = 1;
	else if (s->depth == 3 && key_is(&k, "tests"))
		bit = 1;
	else if (s->depth == 4 && test_of(&k) != RT_COUNT)
		bit = 1u << test_of(&k);
	else if (s->depth == 5 && key_is(&k, "intervals"))
		bit = 1;
	if (top->seen & bit)
		return -1;
	top->seen |= bit;
	return 0;
}

/* A value starts at s->pos: an array counts it. */
static void value_starts(struct scan *s)
{
	if (s->depth && s->lv[s->depth - 1].type == '[')
		s->lv[s->depth - 1].count++;
}

/* The key of the value that starts now (NULL in an array). */
static void opens(struct scan *s, char type, const char *key, size_t keylen)
{
	struct level *l = &s->lv[s->depth++];

	*l = (struct level){.type = type,
			    .key = key,
			    .keylen = keylen,
			    .want_key = type == '{'};
}

/* The whole text scanned, the logs read. 0, or -1: read it whole. */
static int scan_text(struct scan *s)
{
	const char *key = NULL;
	size_t keylen = 0;

	while (s->pos < s->len) {
		char c = s->buf[s->pos];
		struct level *top = s->depth ? &s->lv[s->depth - 1] : NULL;
		enum result_test t;

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == ':') {
			s->pos++;
		} else if (c == ',') {
			if (top && top->type == '{')
				top->want_key = true;
			s->pos++;
		} else if (c == '"') {
			size_t end = string_end(s->buf, s->len, s->pos);

			if (!end)
				return -1;
			if (top && top->type == '{' && top->want_key) {
				key = s->buf + s->pos + 1;
				keylen = end - s->pos - 2;
				top->want_key = false;
				if (path_key(s, key, keylen) < 0)
					return -1;
			} else {
				value_starts(s);
			}
			s->pos = end;
		} else if (c == '{' || c == '[') {
			const bool in_obj = top && top->type == '{';

			value_starts(s);
			if (s->depth == THIN_DEPTH)
				return -1;
			opens(s, c, in_obj ? key : NULL, in_obj ? keylen : 0);
			if (c == '[' && is_log(s, &t)) {
				s->depth--;
				if (read_log(s, s->lv[1].count - 1, t) < 0)
					return -1;
				continue;
			}
			s->pos++;
		} else if (c == '}' || c == ']') {
			if (!s->depth)
				return -1;
			s->depth--;
			s->pos++;
		} else {
			/* A number, true, false or null. */
			value_starts(s);
			while (s->pos < s->len &&
			       !strchr(" \t\r\n,]}:\"", s->buf[s->pos]))
				s->pos++;
		}
	}
	return 0;
}

/* json_load_callback's feed: the text, each skip as its newlines. */
static size_t feed(void *buf, size_t room, void *data)
{
	struct scan *s = data;
	char *out = buf;
	size_t n = 0;

	while (n < room && s->feed < s->len) {
		const struct skip *k =
		    s->next_skip < s->nskips ? &s->skips[s->next_skip] : NULL;

		if (k && s->feed >= k->from) {
			/* Inside a skip: its newlines only. */
			for (; s->feed < k->to && n < room; s->feed++)
				if (s->buf[s->feed] == '\n')
					out[n++] = '\n';
			if (s->feed == k->to)
				s->next_skip++;
			continue;
		}
		{
			size_t end = k ? k->from : s->len, take = end - s->feed;

			if (take > room - n)
				take = room - n;
			memcpy(out + n, s->buf + s->feed, take);
			n += take;
			s->feed += take;
		}
	}
	return n;
}

static int cmp_array(const void *a, const void *b)
{
	const json_t *x = ((const struct json_thin_log *)a)->array,
		     *y = ((const struct json_thin_log *)b)->array;

	return x < y ? -1 : x > y;
}

/* Each log to its (empty) array in doc: 0, or -1 when one has none or
 * shares it (a key twice). */
static int bind_logs(json_t *doc, struct json_thin *thin)
{
	json_t *runs = json_object_get(doc, "runs");

	for (size_t i = 0; i < thin->n; i++) {
		struct json_thin_log *log = &thin->logs[i];
		json_t *run = json_array_get(runs, log->run);
		json_t *tests = json_object_get(run, "tests");
		json_t *test =
		    json_object_get(tests, result_test_name(log->test));
		json_t *a = json_object_get(test, "intervals");

		if (!json_is_array(a) || json_array_size(a))
			return -1;
		log->array = a;
	}
	if (thin->n > 1)
		qsort(thin->logs, thin->n, sizeof(thin->logs[0]), cmp_array);
	for (size_t i = 1; i < thin->n; i++)
		if (thin->logs[i].array == thin->logs[i - 1].array)
			return -1;
	return 0;
}

void json_thin_free(struct json_thin *thin)
{
	for (size_t i = 0; i < thin->n; i++) {
		free(thin->logs[i].v);
		for (int f = 0; f < THIN_FAILS; f++)
			free(thin->logs[i].fail_why[f]);
	}
	free(thin->logs);
	memset(thin, 0, sizeof(*thin));
}

json_t *json_thin_load(const char *buf, size_t len, struct json_thin *thin,
		       json_error_t *err)
{
	struct scan s = {.buf = buf, .len = len, .thin = thin};
	json_t *doc = NULL;

	memset(thin, 0, sizeof(*thin));
	s.lv = malloc(THIN_DEPTH * sizeof(*s.lv));
	if (s.lv && scan_text(&s) == 0 && s.depth == 0) {
		doc = json_load_callback(feed, &s, 0, err);
		if (doc && bind_logs(doc, thin) < 0) {
			json_decref(doc);
			doc = NULL;
		}
	}
	free(s.lv);
	free(s.skips);
	if (doc)
		return doc;
	/* Not as clyde writes it: whole, and refused as before. */
	json_thin_free(thin);
	return json_loadb(buf, len, 0, err);
}

json_t *json_load_thin(const char *buf, size_t len)
{
	struct json_thin thin;
	json_t *doc = json_thin_load(buf, len, &thin, NULL);

	json_thin_free(&thin);
	return doc;
}
