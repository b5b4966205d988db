/* SPDX-License-Identifier: GPL-2.0-or-later */
/* text: see text.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "text.h"

size_t text_utf8_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* The second byte's range rules out overlong forms, surrogates
	 * (U+D800..U+DFFF) and code points above U+10FFFF. */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

int text_utf8_valid(const char *s)
{
	while (*s) {
		size_t n = text_utf8_len(s);

		if (!n)
			return 0;
		s += n;
	}
	return 1;
}

size_t text_escape_room(const char *s)
{
	return 4 * strlen(s) + 1;
}

size_t text_escape(const char *s, char *out, size_t len,
		   enum text_escape_mode mode)
{
	size_t o = 0, escaped = 0;

	if (!len)
		return 0;
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n = text_utf8_len(s);
		char piece[8];
		size_t plen;

		if (n && (mode == TEXT_JSON || (c >= 0x20 && c != 0x7f))) {
			memcpy(piece, s, n);
			plen = n;
		} else {
			n = 1;
			escaped++;
			if (c == '\n')
				plen = (size_t)snprintf(piece, sizeof(piece),
							"\\n");
			else if (c == '\r')
				plen = (size_t)snprintf(piece, sizeof(piece),
							"\\r");
			else if (c == '\t')
				plen = (size_t)snprintf(piece, sizeof(piece),
							"\\t");
			else
				plen = (size_t)snprintf(piece, sizeof(piece),
							"\\x%02x", c);
		}
		/* Room for this piece and, when more follows, for "..."
		 * after it: so whatever comes next, "..." fits, and the cut
		 * falls between two whole characters. */
		if (o + plen + (s[n] ? 3 : 0) >= len) {
			if (o + 3 < len) {
				memcpy(out + o, "...", 3);
				o += 3;
			}
			break;
		}
		memcpy(out + o, piece, plen);
		o += plen;
		s += n;
	}
	out[o] = '\0';
	return escaped;
}

const char *text_shown(const char *s, char *buf, size_t len)
{
	text_escape(s, buf, len, TEXT_LINE);
	return buf;
}
