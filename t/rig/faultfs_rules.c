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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "faultfs_rules.h"

enum ff_kind { FK_FAIL, FK_FLIP, FK_DELAY };
enum ff_dist { FD_FIXED, FD_UNIFORM, FD_EXP };

struct ff_rule {
	struct ff_rule *next;
	unsigned id;
	enum ff_kind kind;
	uint32_t ops; /* bit per enum ff_op */
	int err;
	int ranged;
	uint64_t off, len;
	char *glob;
	uint64_t after, times;
	unsigned char xor ;
	enum ff_dist dist;
	uint64_t d1, d2; /* ns: fixed/min/mean, max */
	uint64_t matched, fired, slept_ns;
	char *text;
};

#define FF_OP_NAME(name) #name,
static const char *const op_names[] = {FF_OPS(FF_OP_NAME)};
#undef FF_OP_NAME

/* The operations that carry a byte range. */
#define RANGED ((1u << FF_read) | (1u << FF_write) | (1u << FF_fallocate))

static const struct {
	const char *name;
	int err;
} errnos[] = {
    {"EIO", EIO},
    {"ENOSPC", ENOSPC},
    {"EDQUOT", EDQUOT},
    {"EROFS", EROFS},
    {"EACCES", EACCES},
    {"EPERM", EPERM},
    {"ENOENT", ENOENT},
    {"EEXIST", EEXIST},
    {"ENOTDIR", ENOTDIR},
    {"EISDIR", EISDIR},
    {"EINVAL", EINVAL},
    {"EFBIG", EFBIG},
    {"EAGAIN", EAGAIN},
    {"EINTR", EINTR},
    {"ENOMEM", ENOMEM},
    {"ETIMEDOUT", ETIMEDOUT},
    {"ENOTEMPTY", ENOTEMPTY},
    {"ENAMETOOLONG", ENAMETOOLONG},
    {"EMFILE", EMFILE},
    {"ENXIO", ENXIO},
    {"EXDEV", EXDEV},
    {"ESTALE", ESTALE},
    {"EREMOTEIO", EREMOTEIO},
    {"ENODATA", ENODATA},
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ff_rule *rules;
static unsigned next_id = 1;
static uint64_t op_count[FF_OP_COUNT];
static uint64_t rng_state = 1;

static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned shift = 0;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	/* Decimal, or hexadecimal after 0x; never octal. */
	*v = strtoull(s, &end,
		      s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k':
		shift = 10;
		break;
	case 'm':
		shift = 20;
		break;
	case 'g':
		shift = 30;
		break;
	case 't':
		shift = 40;
		break;
	case '\0':
		return 0;
	default:
		return -1;
	}
	if (end[1] || *v > (UINT64_MAX >> shift))
		return -1;
	*v <<= shift;
	return 0;
}

static int parse_dur(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double mul;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
	char *end;
	double v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtod(s, &end);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit) && v * units[i].mul < 1e15) {
			*ns = (uint64_t)(v * units[i].mul + 0.5);
			return 0;
		}
	return -1;
}

static int parse_ops(const char *s, uint32_t *mask)
{
	char *copy = strdup(s), *save = NULL, *tok;
	int rc = 0;

	if (!copy)
		return -1;
	*mask = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		if (!strcmp(tok, "any") || !strcmp(tok, "all")) {
			*mask = (1u << FF_OP_COUNT) - 1;
			continue;
		}
		for (i = 0; i < FF_OP_COUNT; i++)
			if (!strcmp(tok, op_names[i]))
				break;
		if (i == FF_OP_COUNT)
			rc = -1;
		else
			*mask |= 1u << i;
	}
	free(copy);
	return rc || !*mask ? -1 : 0;
}

static int parse_errno(const char *s, int *err)
{
	uint64_t v;

	for (size_t i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (!strcmp(s, errnos[i].name)) {
			*err = errnos[i].err;
			return 0;
		}
	if (parse_u64(s, &v) || v == 0 || v > 4095)
		return -1;
	*err = (int)v;
	return 0;
}

/* One key=value word of a rule; -EINVAL with why for a bad one. */
static int parse_option(struct ff_rule *r, const char *word, int *have_len,
			char *why, size_t whylen)
{
	const char *eq = strchr(word, '=');
	const char *v = eq ? eq + 1 : "";
	size_t klen = eq ? (size_t)(eq - word) : strlen(word);
	uint64_t n;

#define KEY(k) (klen == strlen(k) && !strncmp(word, k, klen))
	if (!eq)
		return bad(why, whylen, "'%s': expected key=value", word);
	if (KEY("path")) {
		free(r->glob);
		r->glob = strdup(v);
		return r->glob ? 0 : -ENOMEM;
	}
	if (KEY("fixed") || KEY("exp")) {
		r->dist = KEY("fixed") ? FD_FIXED : FD_EXP;
		if (r->kind != FK_DELAY || parse_dur(v, &r->d1))
			return bad(why, whylen,
				   "'%s': expected a duration "
				   "(5ms) in a delay rule",
				   word);
		return 0;
	}
	if (KEY("uniform")) {
		char lo[64];
		const char *comma = strchr(v, ',');

		if (r->kind != FK_DELAY || !comma ||
		    (size_t)(comma - v) >= sizeof(lo))
			return bad(why, whylen,
				   "'%s': expected uniform=MIN,MAX "
				   "in a delay rule",
				   word);
		snprintf(lo, sizeof(lo), "%.*s", (int)(comma - v), v);
		if (parse_dur(lo, &r->d1) || parse_dur(comma + 1, &r->d2) ||
		    r->d2 < r->d1)
			return bad(why, whylen,
				   "'%s': expected MIN,MAX "
				   "durations, MIN <= MAX",
				   word);
		r->dist = FD_UNIFORM;
		return 0;
	}
	if (KEY("xor")) {
		if (r->kind != FK_FLIP || parse_u64(v, &n) || n == 0 || n > 255)
			return bad(why, whylen,
				   "'%s': expected 1..255 in a "
				   "flip rule",
				   word);
		r->xor = (unsigned char)n;
		return 0;
	}
	if (parse_u64(v, &n))
		return bad(why, whylen, "'%s': not a number", word);
	if (KEY("off")) {
		r->off = n;
		r->ranged = 1;
	} else if (KEY("len")) {
		if (n == 0)
			return bad(why, whylen, "'%s': must be above 0", word);
		r->len = n;
		*have_len = 1;
	} else if (KEY("after")) {
		r->after = n;
	} else if (KEY("times")) {
		r->times = n;
	} else {
		return bad(why, whylen, "'%s': unknown key", word);
	}
	return 0;
#undef KEY
}

static void rule_free(struct ff_rule *r)
{
	if (!r)
		return;
	free(r->glob);
	free(r->text);
	free(r);
}

/* words[0] is fail, flip or delay. */
static int parse_rule(char **words, int n, const char *line,
		      struct ff_rule **out, char *why, size_t whylen)
{
	struct ff_rule *r = calloc(1, sizeof(*r));
	int i = 1, have_len = 0, rc = 0;

	if (!r || !(r->text = strdup(line))) {
		rule_free(r);
		return -ENOMEM;
	}
	r->times = UINT64_MAX;
	r->len = 1;
	r->xor = 0xff;
	if (!strcmp(words[0], "fail")) {
		r->kind = FK_FAIL;
		if (n < 3)
			rc = bad(why, whylen, "fail: expected OPS ERRNO");
		else if (parse_ops(words[1], &r->ops))
			rc = bad(why, whylen, "'%s': unknown operation",
				 words[1]);
		else if (parse_errno(words[2], &r->err))
			rc = bad(why, whylen, "'%s': unknown errno", words[2]);
		i = 3;
	} else if (!strcmp(words[0], "flip")) {
		r->kind = FK_FLIP;
		r->ops = 1u << FF_read;
		if (n > 1 && !strcmp(words[1], "read"))
			i = 2;
	} else {
		r->kind = FK_DELAY;
		r->dist = FD_FIXED;
		r->d1 = UINT64_MAX;
		if (n < 3)
			rc = bad(why, whylen,
				 "delay: expected OPS and a "
				 "distribution");
		else if (parse_ops(words[1], &r->ops))
			rc = bad(why, whylen, "'%s': unknown operation",
				 words[1]);
		i = 2;
	}
	for (; i < n && !rc; i++)
		rc = parse_option(r, words[i], &have_len, why, whylen);
	if (!rc && have_len && !r->ranged)
		rc = bad(why, whylen, "len= needs off=");
	if (!rc && r->ranged && (r->ops & ~RANGED))
		rc = bad(why, whylen,
			 "off= applies only to read, write and "
			 "fallocate");
	if (!rc && r->kind == FK_FLIP && !r->ranged)
		rc = bad(why, whylen, "flip: off= is needed");
	if (!rc && r->kind == FK_DELAY && r->d1 == UINT64_MAX)
		rc = bad(why, whylen,
			 "delay: fixed=, uniform= or exp= is "
			 "needed");
	if (!rc && r->ranged && r->off + r->len < r->off)
		rc = bad(why, whylen, "off+len overflows");
	if (rc) {
		rule_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

static void clear_all(void)
{
	while (rules) {
		struct ff_rule *r = rules;

		rules = r->next;
		rule_free(r);
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
			return bad(why, whylen, "too many words");
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
	} else if (!strcmp(words[0], "seed")) {
		if (n != 2 || parse_u64(words[1], &seed)) {
			rc = bad(why, whylen, "seed: expected one number");
		} else {
			pthread_mutex_lock(&lock);
			rng_state = seed;
			pthread_mutex_unlock(&lock);
		}
	} else if (!strcmp(words[0], "fail") || !strcmp(words[0], "flip") ||
		   !strcmp(words[0], "delay")) {
		/* The text shown in the status: the words, one space apart. */
		char text[512];
		size_t used = 0;

		text[0] = '\0';
		for (int i = 0; i < n && used < sizeof(text); i++)
			used +=
			    (size_t)snprintf(text + used, sizeof(text) - used,
					     "%s%s", i ? " " : "", words[i]);
		rc = parse_rule(words, n, text, &r, why, whylen);
		if (!rc) {
			pthread_mutex_lock(&lock);
			r->id = next_id++;
			for (tail = &rules; *tail; tail = &(*tail)->next)
				;
			*tail = r;
			pthread_mutex_unlock(&lock);
		}
	} else {
		rc = bad(why, whylen,
			 "'%s': unknown command (fail, flip, "
			 "delay, seed, clear)",
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

static uint64_t delay_ns(const struct ff_rule *r)
{
	switch (r->dist) {
	case FD_UNIFORM:
		return r->d1 +
		       (uint64_t)(uniform01() * (double)(r->d2 - r->d1));
	case FD_EXP:
		return (uint64_t)(-(double)r->d1 * log(1.0 - uniform01()));
	default:
		return r->d1;
	}
}

int ff_check(enum ff_op op, const char *path, uint64_t off, uint64_t len)
{
	uint64_t sleep_ns = 0;
	int err = 0;

	pthread_mutex_lock(&lock);
	op_count[op]++;
	for (struct ff_rule *r = rules; r; r = r->next) {
		if (r->kind == FK_FLIP || (r->kind == FK_FAIL && err) ||
		    !matches(r, op, path, off, len) || !fires(r))
			continue;
		if (r->kind == FK_FAIL) {
			err = r->err;
		} else {
			uint64_t d = delay_ns(r);

			r->slept_ns += d;
			sleep_ns += d;
		}
	}
	pthread_mutex_unlock(&lock);
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

char *ff_status(size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		return NULL;
	pthread_mutex_lock(&lock);
	for (const struct ff_rule *r = rules; r; r = r->next)
		fprintf(f,
			"rule %u fired=%llu matched=%llu slept_us=%llu: %s\n",
			r->id, (unsigned long long)r->fired,
			(unsigned long long)r->matched,
			(unsigned long long)(r->slept_ns / 1000), r->text);
	for (int i = 0; i < FF_OP_COUNT; i++)
		if (op_count[i])
			fprintf(f, "op %s %llu\n", op_names[i],
				(unsigned long long)op_count[i]);
	pthread_mutex_unlock(&lock);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
