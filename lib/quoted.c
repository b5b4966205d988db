/* SPDX-License-Identifier: GPL-2.0-or-later */
/* quoted: see quoted.h. */
#include "config.h"

#include "quoted.h"

void quoted_put(FILE *f, const char *s, char q)
{
	fputc(q, f);
	for (; *s; s++) {
		if (*s == q)
			fputc(q, f);
		fputc(*s, f);
	}
	fputc(q, f);
}
