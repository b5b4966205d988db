/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * optable: see optable.h. Values are read and checked here by their
 * type, or handed to the entry's call; the parse itself is
 * optable_parse.c, help and usage optable_help.c, all from the same
 * entries.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "optable.h"
#include "optable_impl.h"
#include "text.h"
#include "units.h"

/* The engine's own entries, in every parser after the program's. */
static const struct opt builtin_opts[] = {
    {.name = "help",
     .type = OPT_FLAG,
     .flags = OPT_NO_USAGE,
     .help = "this text"},
    {.name = "version",
     .type = OPT_FLAG,
     .flags = OPT_NO_USAGE,
     .help = "the version"},
    {.name = "dump-options", .type = OPT_FLAG, .flags = OPT_HIDDEN},
    OPT_END,
};
const struct opt_table opt_builtin = {NULL, builtin_opts, NULL};

/* The k-th table of p: its own, then the engine's, then NULL. */
static const struct opt_table *table_at(const struct opt_parser *p, int k)
{
	int n = 0;

	while (p->tables && p->tables[n])
		n++;
	return k < n ? p->tables[k] : k == n ? &opt_builtin : NULL;
}

int opt_next_entry(struct opt_walk *w, const struct opt_parser *p)
{
	const struct opt_table *t;

	while ((t = table_at(p, w->table))) {
		const struct opt *e = &t->opts[w->i];

		if (e->name || e->key) {
			w->t = t;
			w->e = e;
			w->i++;
			w->index++;
			return 1;
		}
		w->table++;
		w->i = 0;
	}
	return 0;
}

const char *opt_name(const struct opt *e, char *buf, size_t len)
{
	if (e->key)
		snprintf(buf, len, "-%c", e->key);
	else
		snprintf(buf, len, "--%s", e->name);
	return buf;
}

void *opt_field(const struct opt_ctx *c)
{
	return (char *)c->base + c->opt->off;
}

int opt_error(const struct opt_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vline(c->err, c->parser->prog, fmt, ap);
	va_end(ap);
	return -1;
}

int opt_bad(const struct opt_ctx *c, const char *what, const char *value,
	    const char *why)
{
	char shown[1024];

	return opt_error(c, "%s '%s': %s", what,
			 text_shown(value, shown, sizeof(shown)), why);
}

int opt_refuse(const struct opt_ctx *c, const char *why)
{
	return opt_bad(c, c->name, c->arg ? c->arg : "", why);
}

int opt_twice_as(const struct opt_ctx *c, const char *value, const char *first)
{
	char why[1100], shown[1024];

	snprintf(why, sizeof(why),
		 "given twice with different values ('%s' first)",
		 text_shown(first, shown, sizeof(shown)));
	return opt_bad(c, c->name, value, why);
}

int opt_twice(const struct opt_ctx *c, const char *first)
{
	return opt_twice_as(c, c->arg ? c->arg : "", first);
}

static int out_of_range(struct opt_ctx *c, const char *lo, const char *hi)
{
	char why[128];

	snprintf(why, sizeof(why), "must be %s to %s", lo, hi);
	return opt_refuse(c, why);
}

static int take_unsigned(struct opt_ctx *c, const char *arg, uint64_t *v)
{
	const struct opt *e = c->opt;
	uint64_t max = e->max		     ? e->max
		       : e->type == OPT_UINT ? UINT32_MAX
					     : UINT64_MAX;
	char why[96], lo[24], hi[24];

	if (units_parse_uint(arg, UINT64_MAX, v, why, sizeof(why)))
		return opt_refuse(c, why);
	if (*v < e->min || *v > max) {
		snprintf(lo, sizeof(lo), "%" PRIu64, e->min);
		snprintf(hi, sizeof(hi), "%" PRIu64, max);
		return out_of_range(c, lo, hi);
	}
	return 0;
}

static int take_int(struct opt_ctx *c, const char *arg, int *field)
{
	int64_t lo = (int64_t)c->opt->min, hi = (int64_t)c->opt->max;
	char *end, slo[24], shi[24];
	long long v;

	if (!lo && !hi) {
		lo = INT32_MIN;
		hi = INT32_MAX;
	}
	errno = 0;
	v = strtoll(arg, &end, 10);
	if (end == arg || *end || errno)
		return opt_refuse(c, "not a number");
	if (v < lo || v > hi) {
		snprintf(slo, sizeof(slo), "%" PRId64, lo);
		snprintf(shi, sizeof(shi), "%" PRId64, hi);
		return out_of_range(c, slo, shi);
	}
	*field = (int)v;
	return 0;
}

static int take_size(struct opt_ctx *c, const char *arg, uint64_t *field)
{
	const struct opt *e = c->opt;
	char why[96], b[32];
	uint64_t v;

	if (units_parse_size(arg, e->unit ? e->unit : 1, &v, why, sizeof(why)))
		return opt_refuse(c, why);
	if (v < e->min) {
		if (e->min == 1)
			return opt_refuse(c, "must be more than 0");
		units_fmt_small(b, sizeof(b), e->min);
		snprintf(why, sizeof(why), "must be at least %s", b);
		return opt_refuse(c, why);
	}
	if (e->max && v > e->max) {
		units_fmt_small(b, sizeof(b), e->max);
		snprintf(why, sizeof(why), "must be at most %s", b);
		return opt_refuse(c, why);
	}
	*field = v;
	return 0;
}

static int take_string(struct opt_ctx *c, const char *arg, const char **field)
{
	const struct opt *e = c->opt;

	if (!arg)
		return 0; /* an optional value left out */
	if (!*arg && !(e->flags & OPT_EMPTY_OK))
		return opt_refuse(c, e->type == OPT_PATH ? "empty name"
							 : "empty value");
	if ((e->flags & OPT_ONCE) && *field && strcmp(*field, arg))
		return opt_twice(c, *field);
	*field = arg;
	return 0;
}

static int take_enum(struct opt_ctx *c, const char *arg, int *field)
{
	const char *const *w = c->opt->words;
	char why[256];
	size_t n = 0, len;

	for (int i = 0; w[i]; i++)
		if (!strcmp(w[i], arg)) {
			*field = i;
			return 0;
		}
	len = (size_t)snprintf(why, sizeof(why), "expected");
	for (; w[n]; n++)
		len += (size_t)snprintf(
		    why + len, len < sizeof(why) ? sizeof(why) - len : 0,
		    "%s %s",
		    !n	       ? ""
		    : w[n + 1] ? ","
			       : " or",
		    w[n]);
	return opt_refuse(c, why);
}

/* The entry's value into its field: 0, or -1 after one line; an OPT_CALL
 * entry may also return what its .call returns (1: done, as --help). */
static int take_value(struct opt_ctx *c, const char *arg)
{
	void *f = opt_field(c);
	uint64_t v;

	switch (c->opt->type) {
	case OPT_FLAG:
		*(int *)f = 1;
		return 0;
	case OPT_SET:
		*(int *)f = c->opt->value;
		return 0;
	case OPT_INT:
		return take_int(c, arg, f);
	case OPT_UINT:
		if (take_unsigned(c, arg, &v))
			return -1;
		*(unsigned *)f = (unsigned)v;
		return 0;
	case OPT_U64:
		return take_unsigned(c, arg, f);
	case OPT_SIZE:
		return take_size(c, arg, f);
	case OPT_STRING:
	case OPT_PATH:
		return take_string(c, arg, f);
	case OPT_ENUM:
		return take_enum(c, arg, f);
	case OPT_CALL:
		return c->opt->call(c, arg);
	}
	return -1;
}

int opt_take(struct opt_ctx *c, const struct opt_walk *w, const char *arg)
{
	int rc;

	c->opt = w->e;
	c->base = w->t->base ? w->t->base : c->parse_base;
	c->arg = arg;
	opt_name(w->e, c->name, sizeof(c->name));
	if ((rc = take_value(c, arg)) != 0)
		return rc;
	if (w->e->flags & OPT_SEEN)
		*(int *)((char *)c->base + w->e->seen) = 1;
	if (c->parser->taken && c->parser->taken(c))
		return -1;
	return 0;
}

int opt_exit(enum opt_result r)
{
	if (r == OPT_OK)
		return -1;
	return r == OPT_DONE ? cli_stdout_close() : CLI_EXIT_USAGE;
}
