/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dirpat: see dirpat.h. One pass over the pattern, copying bytes and
 * putting in the rank or host at each %r or %h; nothing is allocated.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "dirpat.h"

/* Append s (n bytes) at out[*at]; -1 when it does not fit with a NUL. */
static int put(char *out, size_t len, size_t *at, const char *s, size_t n)
{
	if (n >= len - *at)
		return -1;
	memcpy(out + *at, s, n);
	*at += n;
	return 0;
}

int dirpat_expand(const char *pat, int rank, const char *host, char *out,
		  size_t len, char *why, size_t whylen)
{
	char num[16];
	size_t at = 0;
	int rc = 0;

	if (len == 0)
		return -1;
	for (const char *p = pat; *p && rc == 0; p++) {
		if (*p != '%') {
			rc = put(out, len, &at, p, 1);
			continue;
		}
		switch (*++p) {
		case 'r':
			snprintf(num, sizeof(num), "%d", rank);
			rc = put(out, len, &at, num, strlen(num));
			break;
		case 'h':
			rc = put(out, len, &at, host, strcspn(host, "."));
			break;
		case '%':
			rc = put(out, len, &at, "%", 1);
			break;
		case '\0':
			snprintf(why, whylen,
				 "a %% at the end (%%r is the "
				 "rank, %%h the host, %%%% a %%)");
			return -1;
		default:
			if (isprint((unsigned char)*p))
				snprintf(num, sizeof(num), "%%%c", *p);
			else
				snprintf(num, sizeof(num), "%%\\x%02x",
					 (unsigned char)*p);
			snprintf(why, whylen,
				 "%s is not a pattern (%%r is the rank, %%h "
				 "the host, %%%% a %%)",
				 num);
			return -1;
		}
	}
	out[at] = '\0';
	if (rc)
		snprintf(why, whylen, "longer than %zu bytes once expanded",
			 len - 1);
	return rc;
}

int dirpat_per_rank(const char *pat)
{
	for (const char *p = pat; *p; p++) {
		if (*p != '%')
			continue;
		if (p[1] == 'r' || p[1] == 'h')
			return 1;
		if (p[1] == '\0')
			break;
		p++; /* %%, or a refused %x */
	}
	return 0;
}
