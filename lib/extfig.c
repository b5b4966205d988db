/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * extfig: see extfig.h. The table below is EXT_FIGURES(X) at run time,
 * as struct figure entries with no bonnie++ field.
 */
#include "config.h"

#include <string.h>

#include "extfig.h"
#include "figures.h"

#define EXT_ONE_(key, ...) +1
#define EXT_COUNT	   (0 EXT_FIGURES(EXT_ONE_))

static const struct {
	enum result_test t;
	struct figure f;
} table[EXT_COUNT] = {
#define EXT_ENTRY(key, title, program, tag, kind, head, col, cell, tick, keys, \
		  against, cpu_of)                                             \
	{RT_##key,                                                             \
	 {#key, title, program, RK_##kind, FG_IO, FIGF_OTHER, keys, head, col, \
	  cell, tick, -1, -1, -1, -1, -1, RT_##against, cpu_of, tag}},
    EXT_FIGURES(EXT_ENTRY)
#undef EXT_ENTRY
};

/* Its notes give its rate in MB/s beside another's: both in bytes. */
#define EXT_UNITS(key, title, program, tag, kind, head, col, cell, tick, keys, \
		  against, cpu_of)                                             \
	+(RK_##kind != RK_IO || RT_##against >= RT_FIRST_FILE)
_Static_assert((0 EXT_FIGURES(EXT_UNITS)) == 0,
	       "another program's figure is of kind IO, set beside a "
	       "data-file figure");

/* The text tables give a column name 9 characters. */
#define EXT_CELL(key, title, program, tag, kind, head, col, cell, tick, keys,  \
		 against, cpu_of)                                              \
	+(sizeof(cell) > 10)
_Static_assert((0 EXT_FIGURES(EXT_CELL)) == 0,
	       "a table cell name is longer than 9 characters");

const struct figure *extfig_of(int t)
{
	for (size_t i = 0; i < EXT_COUNT; i++)
		if (table[i].t == (enum result_test)t)
			return &table[i].f;
	return NULL;
}

int extfig_find(const char *key)
{
	for (size_t i = 0; i < EXT_COUNT; i++)
		if (!strcmp(key, table[i].f.key))
			return (int)table[i].t;
	return -1;
}
