/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_perchar: whether the per-char figures (putc, getc) of two
 * sides, or of the rows of a page, mean the same thing. bonnie++ 1.03's
 * are putc()/getc() through stdio over the whole file, bonnie++ 2.00's
 * 1-byte read()/write() calls: tens of times apart for the same disk,
 * so compare and html say so when they put the two side by side. What
 * a row means is read with it (result_per_char_of_line,
 * json_read_settings); a row without per-char figures has no say.
 */
#include "config.h"

#include <string.h>

#include "report.h"

/* Whether r has a per-char figure (a value or "+++++"). */
static int has_per_char(const struct run_result *r)
{
	return r->c[RT_putc].state != CSV_EMPTY ||
	       r->c[RT_getc].state != CSV_EMPTY;
}

void report_per_char_of(const struct report_set *set, const size_t *idx,
			size_t n, struct report_pc *pc)
{
	memset(pc, 0, sizeof(*pc));
	for (size_t i = 0; i < n; i++) {
		const struct run_result *r = &set->rows[idx[i]].res;

		if (!has_per_char(r) || r->per_char == RPC_UNKNOWN)
			continue;
		if (!pc->from) {
			pc->m = r->per_char;
			pc->from = r;
		} else if (r->per_char != pc->m) {
			pc->mixed = 1;
		}
	}
}

/* "stdio putc()/getc() (a 1.03 line)" into buf. */
static void meaning(char *buf, size_t len, const struct report_pc *pc)
{
	char src[96];

	if (pc->mixed) {
		snprintf(buf, len,
			 "a mix of stdio putc()/getc() and 1-byte "
			 "read()/write() calls");
		return;
	}
	result_per_char_source(pc->from, src, sizeof(src));
	snprintf(buf, len, "%s (%s)", result_per_char_name(pc->m), src);
}

int report_per_char_note(char *buf, size_t len, const struct report_pc *base,
			 const struct report_pc *other)
{
	char a[160], b[160];

	if (!base->from || !other->from)
		return 0;
	if (!base->mixed && !other->mixed && base->m == other->m)
		return 0;
	meaning(a, sizeof(a), base);
	meaning(b, sizeof(b), other);
	snprintf(buf, len,
		 "per-char figures (putc, getc) differ in meaning: the "
		 "baseline's are %s, this side's %s; they are not like with "
		 "like",
		 a, b);
	return 1;
}

/* The names of the rows of meaning m, each once, escaped by put; the
 * first few. */
static void names_of(FILE *out, const struct report_set *set,
		     enum result_per_char m,
		     void (*put)(FILE *out, const char *s))
{
	const char *shown[6];
	size_t n = 0;
	int more = 0;

	for (size_t i = 0; i < set->n; i++) {
		const struct run_result *r = &set->rows[i].res;
		size_t k;

		if (!has_per_char(r) || r->per_char != m)
			continue;
		for (k = 0; k < n && strcmp(shown[k], r->name); k++)
			;
		if (k < n)
			continue;
		if (n == sizeof(shown) / sizeof(shown[0])) {
			more = 1;
			break;
		}
		fputs(n ? ", " : "", out);
		put(out, r->name);
		shown[n++] = r->name;
	}
	if (more)
		fputs(" and others", out);
}

int report_per_char_rows_note(FILE *out, const struct report_set *set,
			      void (*put)(FILE *out, const char *s),
			      const char *pre, const char *post)
{
	int seen[3] = {0};

	for (size_t i = 0; i < set->n; i++)
		if (has_per_char(&set->rows[i].res))
			seen[set->rows[i].res.per_char] = 1;
	if (!seen[RPC_STDIO] || !seen[RPC_SYSCALL])
		return 0;
	fputs(pre, out);
	fputs("Per Chr columns hold figures of two meanings, not like with "
	      "like: stdio putc()/getc() over the whole file (bonnie++ "
	      "1.03) in ",
	      out);
	names_of(out, set, RPC_STDIO, put);
	fputs("; 1-byte read()/write() calls (bonnie++ 1.97 and 2.00) in ",
	      out);
	names_of(out, set, RPC_SYSCALL, put);
	fputs(".", out);
	fputs(post, out);
	return 1;
}
