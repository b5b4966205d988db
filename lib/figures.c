/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * figures: see figures.h. The table below is FIGURES(X) at run time, by
 * result_test (another program's slots are extfig.c's). The compile-time
 * checks here hold for the figures alone; lib/csv.c checks that with the
 * label fields they fill each bonnie++ line exactly, every field once.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "figures.h"

static const struct figure table[RT_COUNT] = {
#define FIG_ENTRY(key, title, kind, group, head, col, cell, tick, csv, ...)    \
	[RT_##key] = {#key,	    title,	  "clyde",                     \
		      RK_##kind,    FG_##group,	  FIG_FLAGS(__VA_ARGS__),      \
		      FK_ALL,	    head,	  col,                         \
		      cell,	    tick,	  FIG_S98(csv),                \
		      FIG_L98(csv), FIG_S97(csv), FIG_L97(csv),                \
		      FIG_S03(csv), -1,		  NULL,                        \
		      NULL},
    FIGURES(FIG_ENTRY)
#undef FIG_ENTRY
};

const enum result_test figure_list[FIG_COUNT] = {
#define FIG_LIST(key, ...) RT_##key,
    FIGURES(FIG_LIST)
#undef FIG_LIST
};

/* A figure is in every bonnie++ format, with its latency, or in none. */
#define FIG_PARTIAL(key, title, kind, group, head, col, cell, tick, csv, ...)  \
	+((FIG_S98(csv) < 0) != (FIG_L98(csv) < 0) ||                          \
	  (FIG_S98(csv) < 0) != (FIG_S97(csv) < 0) ||                          \
	  (FIG_S98(csv) < 0) != (FIG_L97(csv) < 0) ||                          \
	  (FIG_S98(csv) < 0) != (FIG_S03(csv) < 0))
_Static_assert((0 FIGURES(FIG_PARTIAL)) == 0,
	       "a figure with a bonnie++ field needs one in every format "
	       "(1.98, 1.97, 1.03) and a latency field in 1.98 and 1.97");

/* The data-file figures first: RT_FIRST_FILE splits the list. */
#define FIG_ORDER(key, title, kind, group, head, col, cell, tick, csv, ...)    \
	+((FG_##group == FG_IO) != (RT_##key < RT_FIRST_FILE))
_Static_assert((0 FIGURES(FIG_ORDER)) == 0,
	       "the figures of group IO come before the file tests");

/* The text tables give a column name 9 characters. */
#define FIG_CELL(key, title, kind, group, head, col, cell, tick, csv, ...)     \
	+(sizeof(cell) > 10)
_Static_assert((0 FIGURES(FIG_CELL)) == 0,
	       "a table cell name is longer than 9 characters");

const struct figure *figure_of(enum result_test t)
{
	const struct figure *f = &table[(unsigned)t < RT_COUNT ? t : 0];

	return f->key ? f : extfig_of(t);
}

int figure_bonnie(enum result_test t)
{
	return figure_of(t)->csv198 >= 0;
}

int figure_is_file(enum result_test t)
{
	return figure_of(t)->group == FG_SEQ || figure_of(t)->group == FG_RAN;
}

int figure_find(const char *key)
{
	for (size_t i = 0; i < FIG_COUNT; i++)
		if (!strcmp(key, table[figure_list[i]].key))
			return (int)figure_list[i];
	return -1;
}

unsigned figure_only_bits(enum result_test t)
{
	unsigned bits = 1u << t;

	if (!figure_is_file(t))
		return bits;
	for (size_t i = 0; i < FIG_COUNT; i++)
		if (table[figure_list[i]].group == figure_of(t)->group)
			bits |= 1u << figure_list[i];
	return bits;
}

void figure_keys(char *buf, size_t len, const char *sep)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < FIG_COUNT && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? sep : "",
				      table[figure_list[i]].key);
}
