/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultfs_parse: see faultfs_parse.h. The control language's words:
 * numbers, durations, operation lists, errnos and key=value options.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "faultfs_parse.h"

#define FF_OP_NAME(name) #name,
const char *const ff_op_names[FF_OP_COUNT] = {FF_OPS(FF_OP_NAME)};
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
int ff_bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int ff_parse_u64(const char *s, uint64_t *v)
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
			if (!strcmp(tok, ff_op_names[i]))
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
	if (ff_parse_u64(s, &v) || v == 0 || v > 4095)
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
		return ff_bad(why, whylen, "'%s': expected key=value", word);
	if (KEY("path")) {
		free(r->glob);
		r->glob = strdup(v);
		return r->glob ? 0 : -ENOMEM;
	}
	if (KEY("fixed") || KEY("exp")) {
		r->dist = KEY("fixed") ? FD_FIXED : FD_EXP;
		if (r->kind != FK_DELAY || parse_dur(v, &r->d1))
			return ff_bad(why, whylen,
				      "'%s': expected a duration "
				      "(5ms) in a delay rule",
				      word);
		return 0;
	}
	if (KEY("grow")) {
		if (r->kind != FK_DELAY || parse_dur(v, &r->grow) || !r->grow)
			return ff_bad(why, whylen,
				      "'%s': expected a duration above 0 "
				      "(1ms) in a delay rule",
				      word);
		return 0;
	}
	if (KEY("uniform")) {
		char lo[64];
		const char *comma = strchr(v, ',');

		if (r->kind != FK_DELAY || !comma ||
		    (size_t)(comma - v) >= sizeof(lo))
			return ff_bad(why, whylen,
				      "'%s': expected uniform=MIN,MAX "
				      "in a delay rule",
				      word);
		snprintf(lo, sizeof(lo), "%.*s", (int)(comma - v), v);
		if (parse_dur(lo, &r->d1) || parse_dur(comma + 1, &r->d2) ||
		    r->d2 < r->d1)
			return ff_bad(why, whylen,
				      "'%s': expected MIN,MAX "
				      "durations, MIN <= MAX",
				      word);
		r->dist = FD_UNIFORM;
		return 0;
	}
	if (KEY("rate")) {
		if (r->kind != FK_DELAY || ff_parse_u64(v, &n) || n == 0)
			return ff_bad(why, whylen,
				      "'%s': expected bytes a second (20m) "
				      "in a delay rule",
				      word);
		r->dist = FD_RATE;
		r->d1 = n;
		return 0;
	}
	if (KEY("skip")) {
		if (r->kind != FK_DELAY || ff_parse_u64(v, &n) || n == 0)
			return ff_bad(why, whylen,
				      "'%s': expected a size (256m) in a "
				      "delay rule",
				      word);
		r->skip = n;
		return 0;
	}
	if (KEY("cache")) {
		if (r->kind != FK_DELAY || ff_parse_u64(v, &n) || n == 0)
			return ff_bad(why, whylen,
				      "'%s': expected a size (96m) in a "
				      "delay rule",
				      word);
		r->cache = n;
		return 0;
	}
	if (KEY("xor")) {
		if (r->kind != FK_FLIP || ff_parse_u64(v, &n) || n == 0 ||
		    n > 255)
			return ff_bad(why, whylen,
				      "'%s': expected 1..255 in a "
				      "flip rule",
				      word);
		r->xor = (unsigned char)n;
		return 0;
	}
	if (ff_parse_u64(v, &n))
		return ff_bad(why, whylen, "'%s': not a number", word);
	if (KEY("off")) {
		r->off = n;
		r->ranged = 1;
	} else if (KEY("len")) {
		if (n == 0)
			return ff_bad(why, whylen, "'%s': must be above 0",
				      word);
		r->len = n;
		*have_len = 1;
	} else if (KEY("after")) {
		r->after = n;
	} else if (KEY("times")) {
		r->times = n;
	} else if (KEY("from")) {
		if (r->kind != FK_REMAP)
			return ff_bad(why, whylen,
				      "'%s': from= applies only to a remap "
				      "rule",
				      word);
		r->from = n;
		r->have_from = 1;
	} else {
		return ff_bad(why, whylen, "'%s': unknown key", word);
	}
	return 0;
#undef KEY
}

void ff_rule_free(struct ff_rule *r)
{
	if (!r)
		return;
	free(r->glob);
	free(r->text);
	free(r);
}

/*
 * flip, drop and remap act on one operation, which they may name: words[1]
 * if it is not an option. The index of the first option, or -EINVAL.
 */
static int data_op(struct ff_rule *r, char **words, int n, enum ff_op op,
		   char *why, size_t whylen)
{
	r->ops = 1u << op;
	if (n < 2 || strchr(words[1], '='))
		return 1;
	if (strcmp(words[1], ff_op_names[op]))
		return ff_bad(why, whylen, "'%s': %s applies to %s only",
			      words[1], words[0], ff_op_names[op]);
	return 2;
}

/*
 * The words before the options, by kind: fail OPS ERRNO, delay OPS,
 * flip [read], drop [write], remap [read]. The index of the first
 * option, or -EINVAL.
 */
static int parse_head(struct ff_rule *r, char **words, int n, char *why,
		      size_t whylen)
{
	const char *kind = words[0];

	if (!strcmp(kind, "flip")) {
		r->kind = FK_FLIP;
		return data_op(r, words, n, FF_read, why, whylen);
	}
	if (!strcmp(kind, "drop")) {
		r->kind = FK_DROP;
		return data_op(r, words, n, FF_write, why, whylen);
	}
	if (!strcmp(kind, "remap")) {
		r->kind = FK_REMAP;
		return data_op(r, words, n, FF_read, why, whylen);
	}
	r->kind = strcmp(kind, "fail") ? FK_DELAY : FK_FAIL;
	if (r->kind == FK_FAIL && n < 3)
		return ff_bad(why, whylen, "fail: expected OPS ERRNO");
	if (r->kind == FK_DELAY && n < 3)
		return ff_bad(why, whylen,
			      "delay: expected OPS and a distribution");
	if (parse_ops(words[1], &r->ops))
		return ff_bad(why, whylen, "'%s': unknown operation", words[1]);
	if (r->kind == FK_DELAY)
		return 2;
	if (parse_errno(words[2], &r->err))
		return ff_bad(why, whylen, "'%s': unknown errno", words[2]);
	return 3;
}

/* What a whole rule needs, once its options are read. */
static int check_rule(const struct ff_rule *r, int have_len, char *why,
		      size_t whylen)
{
	if (have_len && !r->ranged)
		return ff_bad(why, whylen, "len= needs off=");
	if (r->ranged && (r->ops & ~RANGED))
		return ff_bad(why, whylen,
			      "off= applies only to read, write and "
			      "fallocate");
	if (r->ranged && r->off + r->len < r->off)
		return ff_bad(why, whylen, "off+len overflows");
	switch (r->kind) {
	case FK_FLIP:
		if (!r->ranged)
			return ff_bad(why, whylen, "flip: off= is needed");
		break;
	case FK_REMAP:
		if (!r->ranged || !have_len || !r->have_from)
			return ff_bad(why, whylen,
				      "remap: off=, len= and from= are "
				      "needed");
		if (r->from + r->len < r->from)
			return ff_bad(why, whylen, "from+len overflows");
		break;
	case FK_DELAY:
		if (r->d1 == UINT64_MAX)
			return ff_bad(why, whylen,
				      "delay: fixed=, uniform=, exp= or "
				      "rate= is needed");
		if ((r->dist == FD_RATE || r->cache || r->skip) &&
		    (r->ops & ~RANGED))
			return ff_bad(why, whylen,
				      "rate=, cache= and skip= apply only to "
				      "read, write and fallocate");
		if (r->grow && r->dist == FD_RATE)
			return ff_bad(why, whylen,
				      "grow= applies to fixed=, uniform= and "
				      "exp=, not rate=");
		break;
	default:
		break;
	}
	return 0;
}

/* words[0] is fail, flip, delay, drop or remap. */
int ff_parse_rule(char **words, int n, const char *line, struct ff_rule **out,
		  char *why, size_t whylen)
{
	struct ff_rule *r = calloc(1, sizeof(*r));
	int i, have_len = 0, rc = 0;

	if (!r || !(r->text = strdup(line))) {
		ff_rule_free(r);
		return -ENOMEM;
	}
	r->times = UINT64_MAX;
	r->len = 1;
	r->xor = 0xff;
	r->dist = FD_FIXED;
	r->d1 = UINT64_MAX;
	i = parse_head(r, words, n, why, whylen);
	if (i < 0)
		rc = i;
	for (; i < n && !rc; i++)
		rc = parse_option(r, words[i], &have_len, why, whylen);
	if (!rc)
		rc = check_rule(r, have_len, why, whylen);
	if (rc) {
		ff_rule_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

int ff_parse_wcache(char **words, int n, enum ff_wcache *mode, char **glob,
		    char *why, size_t whylen)
{
	static const char *const modes[] = {"off", "honest", "lying"};
	const char *bad = NULL;
	int i;

	*glob = NULL;
	if (n < 2)
		return ff_bad(why, whylen,
			      "wcache: expected honest, lying or off");
	for (i = 0; i < 3 && strcmp(words[1], modes[i]); i++)
		;
	if (i == 3)
		return ff_bad(why, whylen,
			      "'%s': expected honest, lying or off", words[1]);
	*mode = (enum ff_wcache)i;
	if (n == 2)
		return 0;
	if (*mode == FW_OFF || strncmp(words[2], "path=", 5))
		bad = words[2];
	else if (n > 3)
		bad = words[3];
	if (bad)
		return ff_bad(
		    why, whylen, "'%s': wcache %s takes %s", bad, words[1],
		    *mode == FW_OFF ? "no more words" : "only path=GLOB");
	if (!words[2][5])
		return ff_bad(why, whylen,
			      "'%s': expected a glob after path=", words[2]);
	*glob = strdup(words[2] + 5);
	return *glob ? 0 : -ENOMEM;
}
