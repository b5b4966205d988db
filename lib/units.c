/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * units: see units.h. Parsing is strict: the whole string must be used,
 * so "1gg", "12x", "-5" and "" are refused rather than half-read.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

static int fail(char *why, size_t whylen, const char *msg)
{
	if (why && whylen)
		snprintf(why, whylen, "%s", msg);
	return -1;
}

/* What no number here may be: nothing, or negative; NULL, or why not. */
static const char *refused_first(const char *s)
{
	if (!s || !*s)
		return "empty value";
	return *s == '-' ? "must not be negative" : NULL;
}

/* The decimal digits at *p into *v, *p moved past them; -1 when they
 * overflow 64 bits. */
static int digits(const char **p, uint64_t *v)
{
	for (; isdigit((unsigned char)**p); (*p)++) {
		unsigned d = (unsigned)(**p - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return -1;
		*v = *v * 10 + d;
	}
	return 0;
}

int units_parse_uint(const char *s, uint64_t max, uint64_t *out, char *why,
		     size_t whylen)
{
	uint64_t v = 0;
	const char *p = s, *no = refused_first(s);

	if (no)
		return fail(why, whylen, no);
	if (*p == '+')
		p++;
	if (!isdigit((unsigned char)*p))
		return fail(why, whylen, "not a number");
	if (digits(&p, &v))
		return fail(why, whylen, "too large");
	if (*p)
		return fail(why, whylen, "not a whole number");
	if (v > max)
		return fail(why, whylen, "too large");
	*out = v;
	return 0;
}

/* The multiplier of a suffix, or 0 when it is not one of ours. */
static uint64_t suffix_mult(const char *p)
{
	uint64_t m;

	switch (tolower((unsigned char)*p)) {
	case 'b':
		return p[1] ? 0 : 1;
	case 'k':
		m = UNITS_KIB;
		break;
	case 'm':
		m = UNITS_MIB;
		break;
	case 'g':
		m = UNITS_GIB;
		break;
	case 't':
		m = UNITS_TIB;
		break;
	default:
		return 0;
	}
	p++;
	if (!*p)
		return m;
	if (tolower((unsigned char)*p) == 'i')
		p++;
	if (tolower((unsigned char)*p) == 'b' && !p[1])
		return m;
	return 0;
}

int units_parse_size(const char *s, uint64_t plain_unit, uint64_t *out,
		     char *why, size_t whylen)
{
	uint64_t whole = 0, mult;
	const char *p = s, *no = refused_first(s);
	const char *frac = NULL;
	size_t fraclen = 0;

	if (no)
		return fail(why, whylen, no);
	if (!isdigit((unsigned char)*p) && *p != '.')
		return fail(why, whylen, "not a number");
	if (digits(&p, &whole))
		return fail(why, whylen, "too large");
	if (*p == '.') {
		frac = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		fraclen = (size_t)(p - frac);
		if (fraclen == 0 && frac == s + 1)
			return fail(why, whylen, "not a number");
		if (fraclen > 9)
			return fail(why, whylen, "too many decimal places");
	}
	if (*p) {
		mult = suffix_mult(p);
		if (!mult)
			return fail(why, whylen,
				    "unknown suffix (use k, m, g or t)");
	} else {
		mult = plain_unit;
	}
	if (whole && mult > UINT64_MAX / whole)
		return fail(why, whylen, "too large");
	whole *= mult;
	if (frac && fraclen) {
		/* Exact decimal fraction times mult, in integers. */
		uint64_t num = 0, den = 1;
		size_t i;

		for (i = 0; i < fraclen; i++) {
			num = num * 10 + (uint64_t)(frac[i] - '0');
			den *= 10;
		}
		/* num < 10^9 and mult <= 2^40: 128 bits hold the product. */
		unsigned __int128 prod = (unsigned __int128)num * mult;

		if (prod % den)
			return fail(why, whylen, "not a whole number of bytes");
		num = (uint64_t)(prod / den);
		if (whole > UINT64_MAX - num)
			return fail(why, whylen, "too large");
		whole += num;
	}
	*out = whole;
	return 0;
}

void units_fmt_rate(char *buf, size_t len, uint64_t x)
{
	double m, g;

	if (x < 10000) {
		snprintf(buf, len, "%4dk", (int)x);
		return;
	}
	/*
	 * bonnie++'s thresholds are m < 100 and m < 1000, which print
	 * "100.0m" (six characters, a shifted row) for 99.95..99.99 and
	 * "1000m" for 999.5..999.99. Switching where the rounded figure
	 * would reach the next form keeps every cell five wide.
	 */
	m = (double)x / 1024.0;
	g = (double)x / 1048576.0;
	if (m < 99.95)
		snprintf(buf, len, "%4.1fm", m);
	else if (m < 999.5)
		snprintf(buf, len, "%4dm", (int)(m + 0.5));
	else if (g < 99.95)
		snprintf(buf, len, "%4.1fg", g);
	else /* x is 64 bits: g + 0.5 fits 64 bits, not always an int */
		snprintf(buf, len, "%4llug", (unsigned long long)(g + 0.5));
}

void units_fmt_latency(char *buf, size_t len, uint64_t ns)
{
	uint64_t us = ns / 1000;

	if (ns == 0)
		snprintf(buf, len, "%s", "");
	else if (us > 99999999)
		snprintf(buf, len, "%llus", (unsigned long long)(us / 1000000));
	else if (us > 99999)
		snprintf(buf, len, "%llums", (unsigned long long)(us / 1000));
	else
		snprintf(buf, len, "%lluus", (unsigned long long)us);
}

void units_fmt_size(char *buf, size_t len, uint64_t bytes)
{
	if (bytes % UNITS_GIB == 0 && bytes)
		snprintf(buf, len, "%lluG",
			 (unsigned long long)(bytes / UNITS_GIB));
	else
		snprintf(buf, len, "%lluM",
			 (unsigned long long)(bytes / UNITS_MIB));
}

void units_fmt_small(char *buf, size_t len, uint64_t bytes)
{
	if (bytes && bytes % UNITS_GIB == 0)
		snprintf(buf, len, "%llug",
			 (unsigned long long)(bytes / UNITS_GIB));
	else if (bytes && bytes % UNITS_MIB == 0)
		snprintf(buf, len, "%llum",
			 (unsigned long long)(bytes / UNITS_MIB));
	else if (bytes && bytes % UNITS_KIB == 0)
		snprintf(buf, len, "%lluk",
			 (unsigned long long)(bytes / UNITS_KIB));
	else
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
}
