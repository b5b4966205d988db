/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workload_parse: the options of a workload and its settings text (see
 * workload.h). Numbers are read digit by digit, not by strtod or
 * strtoul: no locale, sign, blank, exponent or base can slip through,
 * and a value is kept in whole tenths or millionths so that its text
 * comes back exactly as it was read.
 */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "units.h"
#include "workload.h"

/* The longest option text taken: zones and splits at their most fit. */
#define TEXT_IN_MAX 512

static int fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* s into buf (NUL-terminated, to be cut up in place); -1 if it is
 * empty or too long. */
static int take_copy(char *buf, const char *s, char *why, size_t whylen)
{
	size_t n = s ? strlen(s) : 0;

	if (!n)
		return fail(why, whylen, "empty value");
	if (n >= TEXT_IN_MAX)
		return fail(why, whylen, "longer than %d characters",
			    TEXT_IN_MAX - 1);
	memcpy(buf, s, n + 1);
	return 0;
}

/*
 * A decimal with at most `decimals` decimals, scaled by 10^decimals,
 * into *out. The integer part is at most max / 10^decimals (so nothing
 * overflows; callers check their own range). what and shown name the
 * value in a reason: "share '110' is above 100".
 */
static int take_fixed(const char *s, const char *shown, unsigned decimals,
		      uint64_t max, uint64_t *out, const char *what, char *why,
		      size_t whylen)
{
	uint64_t v = 0, scale = 1;
	unsigned d = 0, i;
	const char *p = s;

	for (i = 0; i < decimals; i++)
		scale *= 10;
	if (!*s)
		return fail(why, whylen, "%s missing", what);
	if (*s == '-')
		return fail(why, whylen, "%s '%s' is negative", what, shown);
	if (!isdigit((unsigned char)*p))
		return fail(why, whylen, "%s '%s' is not a number", what,
			    shown);
	for (; isdigit((unsigned char)*p); p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > max / scale)
			return fail(why, whylen, "%s '%s' is too large", what,
				    shown);
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return fail(why, whylen, "%s '%s' is not a number",
				    what, shown);
		for (; isdigit((unsigned char)*p); p++, d++) {
			if (d == decimals)
				return fail(why, whylen, "%s '%s': %s at most",
					    what, shown,
					    decimals == 1 ? "one decimal"
							  : "6 decimals");
			v = v * 10 + (uint64_t)(*p - '0');
		}
	}
	if (*p == 'e' || *p == 'E')
		return fail(why, whylen,
			    "%s '%s': write it in plain decimals (as 1.5), "
			    "without an exponent",
			    what, shown);
	if (*p)
		return fail(why, whylen, "%s '%s' is not a number", what,
			    shown);
	for (i = d; i < decimals; i++)
		v *= 10;
	*out = v;
	return 0;
}

/* Whether a list cut at sep has an empty piece: at either end, or two
 * seps in a row. */
static int has_empty_piece(const char *s, char sep)
{
	size_t n = strlen(s);

	if (!n || s[0] == sep || s[n - 1] == sep)
		return 1;
	for (const char *p = s; (p = strchr(p, sep)); p++)
		if (p[1] == sep)
			return 1;
	return 0;
}

/* A percentage with a decimal at most, in tenths, 0..100. */
static int take_pct(const char *s, unsigned *out, const char *what, char *why,
		    size_t whylen)
{
	uint64_t v;

	/* 10^6 tenths bounds the digits read; the range is checked here. */
	if (take_fixed(s, s, 1, 1000000, &v, what, why, whylen))
		return -1;
	if (v > WL_WHOLE)
		return fail(why, whylen, "%s '%s' is above 100", what, s);
	*out = (unsigned)v;
	return 0;
}

void wl_fmt_pct(char *buf, size_t len, unsigned tenths)
{
	if (tenths % 10)
		snprintf(buf, len, "%u.%u", tenths / 10, tenths % 10);
	else
		snprintf(buf, len, "%u", tenths / 10);
}

/* Millionths without trailing zeros: "1.1", "0.25", "1". */
static void fmt_param(char *buf, size_t len, uint32_t v)
{
	unsigned frac = v % WL_PARAM_ONE, digits = 6;

	if (!frac) {
		snprintf(buf, len, "%u", v / WL_PARAM_ONE);
		return;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "%u.%0*u", v / WL_PARAM_ONE, (int)digits, frac);
}

/* The next piece of a list cut at sep: *p moves past it; NULL at the
 * end of the list. */
static char *next_piece(char **p, char sep)
{
	char *s = *p, *end;

	if (!s)
		return NULL;
	end = strchr(s, sep);
	if (end) {
		*end = '\0';
		*p = end + 1;
	} else {
		*p = NULL;
	}
	return s;
}

int wl_parse_mix(struct wl_spec *w, const char *s, char *why, size_t whylen)
{
	unsigned v;

	if (!s || !*s)
		return fail(why, whylen, "empty value");
	if (take_pct(s, &v, "reads", why, whylen))
		return -1;
	w->reads = v;
	w->given |= WL_GIVEN_MIX;
	return 0;
}

/* One SIZE of a split, checked. */
static int take_bs_size(const char *s, uint64_t *out, char *why, size_t whylen)
{
	char no[96];
	uint64_t v;

	if (!*s)
		return fail(why, whylen, "a block size is missing");
	if (units_parse_size(s, 1, &v, no, sizeof(no)))
		return fail(why, whylen, "block size '%s': %s", s, no);
	if (!v || (v & (v - 1)))
		return fail(why, whylen,
			    "block size '%s' is not a power of two", s);
	if (v < WL_BS_MIN || v > WL_BS_MAX)
		return fail(why, whylen,
			    "block size '%s' is not from 512 bytes to 16m", s);
	*out = v;
	return 0;
}

int wl_parse_bs(struct wl_spec *w, const char *s, char *why, size_t whylen)
{
	char buf[TEXT_IN_MAX], *rest = buf, *piece, *colon, pct[16];
	struct wl_bs b = {0};
	unsigned sum = 0;

	if (take_copy(buf, s, why, whylen))
		return -1;
	if (has_empty_piece(buf, ','))
		return fail(why, whylen, "an empty piece");
	while ((piece = next_piece(&rest, ','))) {
		if (b.n == WL_SPLIT_MAX)
			return fail(why, whylen, "more than %u block sizes",
				    WL_SPLIT_MAX);
		colon = strchr(piece, ':');
		if (colon)
			*colon = '\0';
		if (take_bs_size(piece, &b.size[b.n], why, whylen))
			return -1;
		for (unsigned i = 0; i < b.n; i++)
			if (b.size[i] == b.size[b.n])
				return fail(why, whylen,
					    "block size '%s' given twice",
					    piece);
		if (!colon) {
			/* A size alone is the whole workload, or nothing. */
			if (b.n || rest)
				return fail(why, whylen,
					    "block size '%s' has no share "
					    "(SIZE:PCT)",
					    piece);
			b.share[b.n++] = WL_WHOLE;
			break;
		}
		if (take_pct(colon + 1, &b.share[b.n], "share", why, whylen))
			return -1;
		if (!b.share[b.n])
			return fail(why, whylen,
				    "block size '%s' has a share of 0", piece);
		sum += b.share[b.n++];
	}
	if (sum && sum != WL_WHOLE) {
		wl_fmt_pct(pct, sizeof(pct), sum);
		return fail(why, whylen, "shares add to %s, not 100", pct);
	}
	w->bs = b;
	w->given |= WL_GIVEN_BS;
	return 0;
}

/* The value of zipf:THETA or pareto:H, checked (NULL: fio's default). */
static int take_param(const char *name, const char *s, uint32_t *out, char *why,
		      size_t whylen)
{
	int zipf = !strcmp(name, "zipf");
	uint64_t v;

	if (!s) {
		*out = zipf ? WL_ZIPF_DEFAULT : WL_PARETO_DEFAULT;
		return 0;
	}
	if (take_fixed(s, s, 6, 100u * WL_PARAM_ONE, &v, zipf ? "theta" : "h",
		       why, whylen))
		return -1;
	if (zipf && v == 0)
		return fail(why, whylen, "zipf theta '%s' is not above 0", s);
	if (zipf && v > WL_ZIPF_MAX)
		return fail(why, whylen, "zipf theta '%s' is above 10", s);
	if (!zipf && (v == 0 || v >= WL_PARAM_ONE))
		return fail(why, whylen, "pareto h '%s' is not between 0 and 1",
			    s);
	*out = (uint32_t)v;
	return 0;
}

static int take_zones(char *list, struct wl_dist *d, char *why, size_t whylen)
{
	unsigned io = 0, size = 0, i;
	char *piece, *slash, pct[16];

	if (has_empty_piece(list, ','))
		return fail(why, whylen, "an empty zone");
	while ((piece = next_piece(&list, ','))) {
		if (d->nzones == WL_ZONES_MAX)
			return fail(why, whylen, "more than %u zones",
				    WL_ZONES_MAX);
		i = d->nzones;
		slash = strchr(piece, '/');
		if (!slash)
			return fail(why, whylen,
				    "zone '%s' is not IO/SIZE (percent of "
				    "the I/O / of the file)",
				    piece);
		*slash = '\0';
		if (take_pct(piece, &d->zone_io[i], "I/O share", why, whylen) ||
		    take_pct(slash + 1, &d->zone_size[i], "file share", why,
			     whylen))
			return -1;
		if (!d->zone_size[i])
			return fail(why, whylen,
				    "zone %u holds 0%% of the file", i + 1);
		io += d->zone_io[i];
		size += d->zone_size[i];
		d->nzones++;
	}
	if (io != WL_WHOLE) {
		wl_fmt_pct(pct, sizeof(pct), io);
		return fail(why, whylen, "I/O shares add to %s, not 100", pct);
	}
	if (size != WL_WHOLE) {
		wl_fmt_pct(pct, sizeof(pct), size);
		return fail(why, whylen, "file shares add to %s, not 100", pct);
	}
	return 0;
}

int wl_parse_dist(struct wl_spec *w, const char *s, char *why, size_t whylen)
{
	char buf[TEXT_IN_MAX], *value;
	struct wl_dist d = {0};

	if (take_copy(buf, s, why, whylen))
		return -1;
	value = strchr(buf, ':');
	if (value)
		*value++ = '\0';
	if (!strcmp(buf, "uniform")) {
		if (value)
			return fail(why, whylen, "uniform takes no value");
		d.kind = WL_UNIFORM;
	} else if (!strcmp(buf, "zipf") || !strcmp(buf, "pareto")) {
		d.kind = buf[0] == 'z' ? WL_ZIPF : WL_PARETO;
		if (take_param(buf, value, &d.param, why, whylen))
			return -1;
	} else if (!strcmp(buf, "zoned")) {
		if (!value || !*value)
			return fail(why, whylen,
				    "zoned needs its zones: IO/SIZE,...");
		d.kind = WL_ZONED;
		if (take_zones(value, &d, why, whylen))
			return -1;
	} else {
		return fail(why, whylen,
			    "'%s' is not uniform, zipf:THETA, pareto:H or "
			    "zoned:IO/SIZE,...",
			    buf);
	}
	w->dist = d;
	w->given |= WL_GIVEN_DIST;
	return 0;
}

int wl_parse_rate(struct wl_spec *w, const char *s, char *why, size_t whylen)
{
	char buf[TEXT_IN_MAX];
	uint64_t v, mult = 1;
	size_t n;

	if (take_copy(buf, s, why, whylen))
		return -1;
	n = strlen(buf);
	if (strchr("kK", buf[n - 1]))
		mult = 1000;
	else if (strchr("mM", buf[n - 1]))
		mult = 1000000;
	else if (!isdigit((unsigned char)buf[n - 1]) &&
		 isdigit((unsigned char)buf[0]))
		return fail(why, whylen,
			    "rate '%s': unknown suffix (use k or m)", s);
	if (mult > 1)
		buf[--n] = '\0';
	if (!n)
		return fail(why, whylen, "rate '%s' is not a number", s);
	/* In millionths: a fraction that a suffix makes whole is read
	 * exactly ("1.5k", "0.25m"). */
	if (take_fixed(buf, s, 6, WL_RATE_MAX * WL_PARAM_ONE, &v, "rate", why,
		       whylen))
		return -1;
	if (v % (WL_PARAM_ONE / mult))
		return fail(why, whylen,
			    "rate '%s' is not whole operations a second", s);
	v /= WL_PARAM_ONE / mult;
	if (v == 0)
		return fail(why, whylen, "rate '%s' is not above 0", s);
	if (v > WL_RATE_MAX)
		return fail(why, whylen, "rate '%s' is above 1000m", s);
	w->rate = v;
	w->given |= WL_GIVEN_RATE;
	return 0;
}

int wl_parse_arrivals(struct wl_spec *w, const char *s, char *why,
		      size_t whylen)
{
	if (!s || !*s)
		return fail(why, whylen, "empty value");
	if (!strcmp(s, "poisson"))
		w->arrivals = WL_POISSON;
	else if (!strcmp(s, "fixed"))
		w->arrivals = WL_FIXED;
	else
		return fail(why, whylen, "'%s' is not poisson or fixed", s);
	w->given |= WL_GIVEN_ARRIVALS;
	return 0;
}

/* Text appended at o->pos, what does not fit counted all the same. */
struct text {
	char *buf;
	size_t len, pos;
};

static void put(struct text *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->pos < o->len ? o->buf + o->pos : NULL,
		      o->pos < o->len ? o->len - o->pos : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
}

/* The space before every piece but the first. */
static const char *sep(const struct text *o)
{
	return o->pos ? " " : "";
}

static void text_bs(struct text *o, const struct wl_bs *b)
{
	char size[24], pct[16];

	put(o, "%s", sep(o));
	for (unsigned i = 0; i < b->n; i++) {
		units_fmt_small(size, sizeof(size), b->size[i]);
		wl_fmt_pct(pct, sizeof(pct), b->share[i]);
		if (b->n == 1)
			put(o, "%s", size);
		else
			put(o, "%s%s:%s", i ? "," : "", size, pct);
	}
}

static void text_dist(struct text *o, const struct wl_dist *d)
{
	static const char *const name[] = {"uniform", "zipf", "pareto",
					   "zoned"};
	char a[16], b[16];

	put(o, "%s%s", sep(o), name[d->kind]);
	if (d->kind == WL_ZIPF || d->kind == WL_PARETO) {
		fmt_param(a, sizeof(a), d->param);
		put(o, ":%s", a);
	}
	for (unsigned i = 0; d->kind == WL_ZONED && i < d->nzones; i++) {
		wl_fmt_pct(a, sizeof(a), d->zone_io[i]);
		wl_fmt_pct(b, sizeof(b), d->zone_size[i]);
		put(o, "%s%s/%s", i ? "," : ":", a, b);
	}
}

size_t wl_text(const struct wl_spec *w, char *buf, size_t len)
{
	struct text o = {buf, len, 0};
	const char *arrivals = w->arrivals == WL_FIXED ? "fixed" : "poisson";
	char pct[16];

	if (len)
		buf[0] = '\0';
	if (w->given & WL_GIVEN_BS)
		text_bs(&o, &w->bs);
	if (w->given & WL_GIVEN_MIX) {
		wl_fmt_pct(pct, sizeof(pct), w->reads);
		put(&o, "%sr%s", sep(&o), pct);
	}
	if (w->given & WL_GIVEN_DIST)
		text_dist(&o, &w->dist);
	if (w->given & WL_GIVEN_RATE)
		put(&o, "%srate %llu %s", sep(&o), (unsigned long long)w->rate,
		    arrivals);
	else if (w->given & WL_GIVEN_ARRIVALS)
		put(&o, "%s%s", sep(&o), arrivals);
	return o.pos;
}
