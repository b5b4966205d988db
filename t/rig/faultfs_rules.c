/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultfs_rules: see faultfs_rules.h. Rules are kept in the order they
 * were given; counts live in the rules, so reading the control file
 * shows what fired.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "faultfs_file.h"
#include "faultfs_parse.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ff_rule *rules;
static unsigned next_id = 1;
static uint64_t op_count[FF_OP_COUNT];
static uint64_t rng_state = 1;

void ff_lock(void)
{
	pthread_mutex_lock(&lock);
}

void ff_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void clear_all(void)
{
	while (rules) {
		struct ff_rule *r = rules;

		rules = r->next;
		ff_rule_free(r);
	}
	memset(op_count, 0, sizeof(op_count));
	next_id = 1;
}

int ff_command(const char *line, char *why, size_t whylen)
{
	char *copy = strdup(line), *save = NULL, *words[32];
	int n = 0, rc = 0;
	struct ff_rule *r = NULL, **tail;
	uint64_t seed;

	if (!copy)
		return -ENOMEM;
	for (char *w = strtok_r(copy, " \t\r\n", &save); w;
	     w = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == 32) {
			free(copy);
			return ff_bad(why, whylen, "too many words");
		}
		words[n++] = w;
	}
	if (n == 0 || words[0][0] == '#') {
		free(copy);
		return 0;
	}
	if (!strcmp(words[0], "clear") && n == 1) {
		pthread_mutex_lock(&lock);
		clear_all();
		pthread_mutex_unlock(&lock);
		/* The cache goes too, what it holds never written. */
		ff_cache_clear();
	} else if (!strcmp(words[0], "wcache")) {
		enum ff_wcache mode;
		char *glob;

		rc = ff_parse_wcache(words, n, &mode, &glob, why, whylen);
		if (!rc)
			rc = ff_cache_set(mode, glob, why, whylen);
	} else if (!strcmp(words[0], "cut")) {
		if (n != 1)
			rc = ff_bad(why, whylen, "'%s': cut takes no words",
				    words[1]);
		else
			ff_cache_cut();
	} else if (!strcmp(words[0], "seed")) {
		if (n != 2 || ff_parse_u64(words[1], &seed)) {
			rc = ff_bad(why, whylen, "seed: expected one number");
		} else {
			pthread_mutex_lock(&lock);
			rng_state = seed;
			pthread_mutex_unlock(&lock);
		}
	} else if (!strcmp(words[0], "fail") || !strcmp(words[0], "flip") ||
		   !strcmp(words[0], "delay") || !strcmp(words[0], "drop") ||
		   !strcmp(words[0], "remap")) {
		/* The text shown in the status: the words, one space apart. */
		char text[512];
		size_t used = 0;

		text[0] = '\0';
		for (int i = 0; i < n && used < sizeof(text); i++)
			used +=
			    (size_t)snprintf(text + used, sizeof(text) - used,
					     "%s%s", i ? " " : "", words[i]);
		rc = ff_parse_rule(words, n, text, &r, why, whylen);
		if (!rc) {
			pthread_mutex_lock(&lock);
			r->id = next_id++;
			r->set_ns = now_ns();
			for (tail = &rules; *tail; tail = &(*tail)->next)
				;
			*tail = r;
			pthread_mutex_unlock(&lock);
		}
	} else {
		rc = ff_bad(why, whylen,
			    "'%s': unknown command (fail, flip, "
			    "drop, remap, delay, wcache, cut, seed, clear)",
			    words[0]);
	}
	free(copy);
	return rc;
}

static int matches(const struct ff_rule *r, enum ff_op op, const char *path,
		   uint64_t off, uint64_t len)
{
	if (!(r->ops & (1u << op)))
		return 0;
	if (r->glob && fnmatch(r->glob, path ? path : "", 0) != 0)
		return 0;
	if (r->ranged && (off == FF_NO_RANGE || len == 0 ||
			  off >= r->off + r->len || r->off >= off + len))
		return 0;
	return 1;
}

/* A match is counted; it fires once past after= and within times=. */
static int fires(struct ff_rule *r)
{
	if (++r->matched <= r->after || r->fired >= r->times)
		return 0;
	r->fired++;
	return 1;
}

/* splitmix64: a double in [0, 1). */
static double uniform01(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0;
}

/* The longest gap between two operations of a rate= device that it
 * works through as if they had come back to back. */
#define RATE_SLACK_NS 20000000u

/*
 * A rate= rule is one device of that many bytes a second serving its
 * operations in turn: one that comes while it is busy waits for it, so
 * several FUSE threads together get the rate, not the rate each. A gap
 * of up to RATE_SLACK_NS after the last one ended counts as work going
 * on (the time a request spends in FUSE and the program between two of
 * them), so a closed loop gets N bytes a second, not a little less; a
 * longer gap leaves the device idle, with nothing in hand: no burst at
 * the start, nor after a pause. The sleep until this operation's bytes
 * are done, 0 when they already are.
 */
static uint64_t rate_ns(struct ff_rule *r, uint64_t bytes)
{
	uint64_t now = now_ns(), start = r->busy_until_ns;

	if (start + RATE_SLACK_NS < now)
		start = now;
	r->busy_until_ns =
	    start + (uint64_t)((double)bytes * 1e9 / (double)r->d1 + 0.5);
	return r->busy_until_ns > now ? r->busy_until_ns - now : 0;
}

/*
 * A cache= rule lets its first cache bytes through undelayed (a
 * write-back cache taking writes at memory speed); of an operation that
 * fills it, the bytes beyond it are delayed. skip= bytes come before
 * even those. The bytes to delay.
 */
static uint64_t past_cache(struct ff_rule *r, uint64_t len)
{
	uint64_t room;

	/* skip=: the bytes before the rule starts pass as if it were not
	 * there. */
	if (r->skipped < r->skip) {
		room = r->skip - r->skipped;
		if (len <= room) {
			r->skipped += len;
			return 0;
		}
		r->skipped = r->skip;
		len -= room;
	}
	if (!r->cache)
		return len;
	room = r->cache - r->cached;
	if (len <= room) {
		r->cached += len;
		return 0;
	}
	r->cached = r->cache;
	return len - room;
}

/*
 * grow=: the time a delay rule's operations take longer now than when
 * it was set, grow for every second (a real number) since then.
 */
static uint64_t grown_ns(const struct ff_rule *r)
{
	double ns;

	if (!r->grow)
		return 0;
	ns = (double)r->grow * (double)(now_ns() - r->set_ns) / 1e9 + 0.5;
	return ns < 1e18 ? (uint64_t)ns : (uint64_t)1e18;
}

static uint64_t delay_ns(struct ff_rule *r, uint64_t len)
{
	uint64_t bytes = len == FF_NO_RANGE ? 0 : past_cache(r, len);

	if ((r->cache || r->skip) && !bytes)
		return 0;
	switch (r->dist) {
	case FD_RATE:
		return rate_ns(r, bytes);
	case FD_UNIFORM:
		return r->d1 +
		       (uint64_t)(uniform01() * (double)(r->d2 - r->d1)) +
		       grown_ns(r);
	case FD_EXP:
		return (uint64_t)(-(double)r->d1 * log(1.0 - uniform01())) +
		       grown_ns(r);
	default:
		return r->d1 + grown_ns(r);
	}
}

int ff_check(enum ff_op op, const char *path, uint64_t off, uint64_t len)
{
	uint64_t sleep_ns = 0;
	int err = 0, cut = ff_cache_is_cut();

	pthread_mutex_lock(&lock);
	op_count[op]++;
	/* After the power went, nothing answers but the control file. */
	for (struct ff_rule *r = cut ? NULL : rules; r; r = r->next) {
		if ((r->kind != FK_FAIL && r->kind != FK_DELAY) ||
		    (r->kind == FK_FAIL && err) ||
		    !matches(r, op, path, off, len) || !fires(r))
			continue;
		if (r->kind == FK_FAIL) {
			err = r->err;
		} else {
			uint64_t d =
			    delay_ns(r, off == FF_NO_RANGE ? FF_NO_RANGE : len);

			r->slept_ns += d;
			sleep_ns += d;
		}
	}
	pthread_mutex_unlock(&lock);
	if (cut)
		return -EIO;
	if (sleep_ns) {
		struct timespec ts = {.tv_sec = (time_t)(sleep_ns / 1000000000),
				      .tv_nsec = (long)(sleep_ns % 1000000000)};

		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	}
	return -err;
}

void ff_flip(const char *path, uint64_t off, char *buf, size_t n)
{
	if (n == 0)
		return;
	pthread_mutex_lock(&lock);
	for (struct ff_rule *r = rules; r; r = r->next) {
		uint64_t from, to;

		if (r->kind != FK_FLIP || !matches(r, FF_read, path, off, n) ||
		    !fires(r))
			continue;
		from = r->off > off ? r->off : off;
		to = r->off + r->len < off + n ? r->off + r->len : off + n;
		for (uint64_t b = from; b < to; b++)
			buf[b - off] ^= (char)r->xor ;
	}
	pthread_mutex_unlock(&lock);
}

/*
 * The spans of n bytes at off that the rules of kind (on op) firing now
 * cover, in rule order, at most FF_SPANS_MAX.
 */
static size_t spans(enum ff_kind kind, enum ff_op op, const char *path,
		    uint64_t off, size_t n, struct ff_span *s)
{
	size_t k = 0;

	if (n == 0)
		return 0;
	pthread_mutex_lock(&lock);
	for (struct ff_rule *r = rules; r && k < FF_SPANS_MAX; r = r->next) {
		uint64_t from = off, to = off + n;

		if (r->kind != kind || !matches(r, op, path, off, n) ||
		    !fires(r))
			continue;
		if (r->ranged) {
			from = r->off > off ? r->off : off;
			to = r->off + r->len < to ? r->off + r->len : to;
		}
		s[k].off = from;
		s[k].len = to - from;
		s[k].from = r->from + (from - r->off);
		k++;
	}
	pthread_mutex_unlock(&lock);
	return k;
}

size_t ff_drops(const char *path, uint64_t off, size_t n, struct ff_span *s)
{
	size_t k = spans(FK_DROP, FF_write, path, off, n, s);

	/* By offset, for the writer to walk the gaps between them. */
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && s[j].off < s[j - 1].off; j--) {
			struct ff_span t = s[j];

			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	return k;
}

size_t ff_remaps(const char *path, uint64_t off, size_t n, struct ff_span *s)
{
	return spans(FK_REMAP, FF_read, path, off, n, s);
}

char *ff_status(size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		return NULL;
	pthread_mutex_lock(&lock);
	for (const struct ff_rule *r = rules; r; r = r->next) {
		fprintf(f, "rule %u fired=%llu matched=%llu slept_us=%llu",
			r->id, (unsigned long long)r->fired,
			(unsigned long long)r->matched,
			(unsigned long long)(r->slept_ns / 1000));
		if (r->cache)
			fprintf(f, " cached=%llu",
				(unsigned long long)r->cached);
		fprintf(f, ": %s\n", r->text);
	}
	for (int i = 0; i < FF_OP_COUNT; i++)
		if (op_count[i])
			fprintf(f, "op %s %llu\n", ff_op_names[i],
				(unsigned long long)op_count[i]);
	pthread_mutex_unlock(&lock);
	ff_cache_status(f);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
