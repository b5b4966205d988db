/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * extfig: the figures other programs of the suite write into clyde's
 * document family, which clyde itself never measures: what the readers
 * (lib's JSON reader, clyde-report) need to show them, and what the
 * program that measures one writes it by. clyde's own registry is
 * figures.h; the result model holds both (enum result_test puts these
 * between clyde's data-file figures and its file tests), and figure_of
 * gives either's entry.
 *
 * X(key, title, program, tag, kind, head, col, cell, tick, keys, against,
 *   cpu_of)
 *
 * key      the test record's key in the document's runs[].tests
 * title    the readers' name for it ("PostgreSQL seq scan")
 * program  the program that measures it
 * tag      that program's short name (html's class for its notes)
 * kind     its units, as figures.h's kind (IO: bytes, KiB/s)
 * head, col, cell, tick  its place in the tables and plots, as
 *          figures.h's
 * keys     figures.h's FK_*: what its test records hold beside status
 * against  the key of clyde's figure its notes set it beside (measured
 *          of the same size on the same filesystem), with its rate as a
 *          share of that one's and cpu_of's CPU share ("backend")
 *
 * None has a bonnie++ field; each is shown in the tables' "More figures"
 * rows, in compare, plot and json, never in a bonnie++ line.
 */
#ifndef CLYDE_EXTFIG_H
#define CLYDE_EXTFIG_H

#define EXT_FIGURES(X)                                                         \
	X(pg_scan, "PostgreSQL seq scan", "clyde-pgscan", "pgscan", IO,        \
	  "PostgreSQL", "Seq scan", "Seq scan", "pg seq\nscan",                \
	  FK_WORK | FK_TIMES | FK_RATE | FK_CPU, get_block, "backend")

struct figure;

/* The entry of result_test t when it is another program's; else NULL. */
const struct figure *extfig_of(int t);

/* The result_test of another program's figure called key, or -1. */
int extfig_find(const char *key);

#endif
