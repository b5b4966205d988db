/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * figures: see figures.h. The table below is FIGURES(X) at run time. The
 * compile-time checks here hold for the figures alone; lib/csv.c checks
 * that with the label fields they fill each bonnie++ line exactly, every
 * field once.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "figures.h"

static const struct figure table[RT_COUNT] = {
#define FIG_ENTRY(key, title, kind, group, head, col, cell, tick, csv)         \
	{#key,	       title,	     RK_##kind,	  FG_##group,	head,          \
	 col,	       cell,	     tick,	  FIG_S98(csv), FIG_L98(csv),  \
	 FIG_S97(csv), FIG_L97(csv), FIG_S03(csv)},
    FIGURES(FIG_ENTRY)
#undef FIG_ENTRY
};

/* A figure is in every bonnie++ format, with its latency, or in none. */
#define FIG_PARTIAL(key, title, kind, group, head, col, cell, tick, csv)       \
	+((FIG_S98(csv) < 0) != (FIG_L98(csv) < 0) ||                          \
	  (FIG_S98(csv) < 0) != (FIG_S97(csv) < 0) ||                          \
	  (FIG_S98(csv) < 0) != (FIG_L97(csv) < 0) ||                          \
	  (FIG_S98(csv) < 0) != (FIG_S03(csv) < 0))
_Static_assert((0 FIGURES(FIG_PARTIAL)) == 0,
	       "a figure with a bonnie++ field needs one in every format "
	       "(1.98, 1.97, 1.03) and a latency field in 1.98 and 1.97");

/* The data-file figures first: RT_FIRST_FILE splits the list. */
#define FIG_ORDER(key, title, kind, group, head, col, cell, tick, csv)         \
	+((FG_##group == FG_IO || FG_##group == FG_EXT) !=                     \
	  (RT_##key < RT_FIRST_FILE))
_Static_assert((0 FIGURES(FIG_ORDER)) == 0,
	       "the figures of groups IO and EXT come before the file tests");

/* Another program's figure is bytes read or written, and none of
 * bonnie++'s: its rate is in KiB/s, and it has no CSV field. */
#define FIG_EXT(key, title, kind, group, head, col, cell, tick, csv)           \
	+(FG_##group == FG_EXT && (RK_##kind != RK_IO || FIG_S98(csv) >= 0))
_Static_assert((0 FIGURES(FIG_EXT)) == 0,
	       "a figure of group EXT is of kind IO, with FIG_NO_CSV");

/* The text tables give a column name 9 characters. */
#define FIG_CELL(key, title, kind, group, head, col, cell, tick, csv)          \
	+(sizeof(cell) > 10)
_Static_assert((0 FIGURES(FIG_CELL)) == 0,
	       "a table cell name is longer than 9 characters");

const struct figure *figure_of(enum result_test t)
{
	return &table[(unsigned)t < RT_COUNT ? t : 0];
}

int figure_bonnie(enum result_test t)
{
	return figure_of(t)->csv198 >= 0;
}

int figure_is_file(enum result_test t)
{
	return figure_of(t)->group == FG_SEQ || figure_of(t)->group == FG_RAN;
}

int figure_phased(enum result_test t)
{
	return figure_of(t)->group != FG_EXT;
}

const char *figure_program(enum result_test t)
{
	return figure_phased(t) ? "clyde" : "clyde-pgscan";
}

int figure_find(const char *key)
{
	for (int t = 0; t < RT_COUNT; t++)
		if (!strcmp(key, table[t].key))
			return t;
	return -1;
}

unsigned figure_only_bits(enum result_test t)
{
	unsigned bits = 1u << t;

	if (!figure_is_file(t))
		return bits;
	for (int u = 0; u < RT_COUNT; u++)
		if (table[u].group == figure_of(t)->group)
			bits |= 1u << u;
	return bits;
}

void figure_keys(char *buf, size_t len, const char *sep)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (int t = 0; t < RT_COUNT && n < len; t++)
		if (figure_phased(t))
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? sep : "", table[t].key);
}
