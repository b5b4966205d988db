/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_perchar: whether the figures whose meaning is a run's per-char
 * mode (figures.h's FIGF_PER_CHAR) mean the same thing on two sides, or
 * in the rows of a page. bonnie++ 1.03's go through stdio over the whole
 * file, bonnie++ 2.00's are 1-byte calls: tens of times apart for the
 * same disk, so compare and html say so when they put the two side by
 * side. What a row means is read with it (result_per_char_of_line,
 * json_read_settings); a row without such figures has no say; the
 * words for each meaning are result.h's.
 */
#include "config.h"

#include <string.h>

#include "report.h"

void report_per_char_of(const struct report_set *set, const size_t *idx,
			size_t n, struct report_pc *pc)
{
	memset(pc, 0, sizeof(*pc));
	for (size_t i = 0; i < n; i++) {
		const struct run_result *r = &set->rows[idx[i]].res;

		if (!result_has_per_char(r) || r->per_char == RPC_UNKNOWN)
			continue;
		if (!pc->from) {
			pc->m = r->per_char;
			pc->from = r;
		} else if (r->per_char != pc->m) {
			pc->mixed = 1;
		}
	}
}

/* A meaning and whence it is known ("... (a 1.03 line)") into buf. */
static void meaning(char *buf, size_t len, const struct report_pc *pc)
{
	char src[96];

	if (pc->mixed) {
		snprintf(buf, len, "a mix of %s and %s",
			 result_per_char_name(RPC_STDIO),
			 result_per_char_name(RPC_SYSCALL));
		return;
	}
	result_per_char_source(pc->from, src, sizeof(src));
	snprintf(buf, len, "%s (%s)", result_per_char_name(pc->m), src);
}

int report_per_char_note(char *buf, size_t len, const struct report_pc *base,
			 const struct report_pc *other)
{
	char a[160], b[160], figs[96];

	if (!base->from || !other->from)
		return 0;
	if (!base->mixed && !other->mixed && base->m == other->m)
		return 0;
	meaning(a, sizeof(a), base);
	meaning(b, sizeof(b), other);
	result_per_char_figures(figs, sizeof(figs));
	snprintf(buf, len,
		 "%s differ in meaning: the baseline's are %s, this side's "
		 "%s; they are not like with like",
		 figs, a, b);
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

		if (!result_has_per_char(r) || r->per_char != m)
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

/* The text tables' column name of those figures ("Per Chr"). */
static const char *column(void)
{
	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (figure_of(t)->flags & FIGF_PER_CHAR)
			return figure_of(t)->cell;
	return "";
}

int report_per_char_rows_note(FILE *out, const struct report_set *set,
			      void (*put)(FILE *out, const char *s),
			      const char *pre, const char *post)
{
	int seen[3] = {0};

	for (size_t i = 0; i < set->n; i++)
		if (result_has_per_char(&set->rows[i].res))
			seen[set->rows[i].res.per_char] = 1;
	if (!seen[RPC_STDIO] || !seen[RPC_SYSCALL])
		return 0;
	fputs(pre, out);
	fprintf(out,
		"%s columns hold figures of two meanings, not like with "
		"like: %s %s in ",
		column(), result_per_char_name(RPC_STDIO),
		result_per_char_whence(RPC_STDIO));
	names_of(out, set, RPC_STDIO, put);
	fprintf(out, "; %s %s in ", result_per_char_name(RPC_SYSCALL),
		result_per_char_whence(RPC_SYSCALL));
	names_of(out, set, RPC_SYSCALL, put);
	fputs(".", out);
	fputs(post, out);
	return 1;
}
