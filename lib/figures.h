/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * figures: the registry of every figure clyde measures, one X-list that
 * everything else is made from: the enum of figures (RT_x) and RT_COUNT,
 * the run-time table (figure_of), the CSV writer and parser (which field
 * holds what in each bonnie++ format), the table cells and headings, the
 * --only names and groups, the labels of every clyde-report output, and
 * clyde's table of phases: figure <key> is filled by the phase
 * phase_<key>_ops (src/clyde/phase.h), and they run in this order.
 *
 * A figure with a bonnie++ CSV slot is one of bonnie++'s twelve; their
 * order here is the order of bonnie++'s table. A figure with FIG_NO_CSV
 * never touches a bonnie++ line or table: it shows in JSON, in -v, in the
 * table section after bonnie++'s and in clyde-report's txt and compare.
 * doc/ARCHITECTURE.md ("Adding a figure") says how to add one.
 */
#ifndef CLYDE_FIGURES_H
#define CLYDE_FIGURES_H

#include <stddef.h>

/*
 * X(key, title, kind, group, head, col, cell, tick, csv)
 *
 * key    the figure's name: CSV header field, JSON key, --only name
 * title  for messages and the extended table section
 * kind   IO: bytes, shown in KiB/s; SEEK: operations, seeks/s;
 *        FILE: files, files/s; OPS: operations, ops/s (no bonnie++
 *        figure has it)
 * group  IO: a test of the data file, --only runs it alone; SEQ or RAN:
 *        a file test of the sequential or random pass, and --only naming
 *        one runs its whole pass (create, stat, delete); EXT: measured
 *        by another program of the suite (clyde-pgscan), which writes
 *        it in its documents for clyde-report: clyde has no phase for
 *        it, never writes it and --only refuses it
 * head   the column group over it in the tables ("Sequential Output");
 *        neighbours with the same head share one heading
 * col    its column's name in the html page ("Per Char")
 * cell   its column's name in bonnie++'s text tables, at most 9
 *        characters ("Per Chr"); the tables centre it in dashes
 * tick   plot's label on the x axis; "\n" breaks the line
 * csv    FIG_CSV(rate 1.98, latency 1.98, rate 1.97, latency 1.97,
 *        rate 1.03): 0-based fields of each bonnie++ CSV format; the
 *        %CP field always follows the rate field, and 1.03 has no
 *        latencies. FIG_NO_CSV for a figure bonnie++ does not have.
 *
 * The data-file figures (group IO, and EXT) come before the file tests.
 */
#define FIGURES(X)                                                             \
	X(putc, "per-char output", IO, IO, "Sequential Output", "Per Char",    \
	  "Per Chr", "write\nper char", FIG_CSV(9, 38, 7, 36, 2))              \
	X(put_block, "block output", IO, IO, "Sequential Output", "Block",     \
	  "Block", "write\nblock", FIG_CSV(11, 39, 9, 37, 4))                  \
	X(rewrite, "rewrite", IO, IO, "Sequential Output", "Rewrite",          \
	  "Rewrite", "rewrite", FIG_CSV(13, 40, 11, 38, 6))                    \
	X(getc, "per-char input", IO, IO, "Sequential Input", "Per Char",      \
	  "Per Chr", "read\nper char", FIG_CSV(15, 41, 13, 39, 8))             \
	X(get_block, "block input", IO, IO, "Sequential Input", "Block",       \
	  "Block", "read\nblock", FIG_CSV(17, 42, 15, 40, 10))                 \
	X(seeks, "random seeks", SEEK, IO, "Random", "Seeks", "Seeks",         \
	  "random\nseeks", FIG_CSV(19, 43, 17, 41, 12))                        \
	X(ran_read, "random reads", OPS, IO, "Random I/O", "Read", "Read",     \
	  "random\nread", FIG_NO_CSV)                                          \
	X(ran_write, "random writes", OPS, IO, "Random I/O", "Write", "Write", \
	  "random\nwrite", FIG_NO_CSV)                                         \
	X(sync_write, "synchronous write", OPS, IO, "Synchronous", "Write",    \
	  "Write", "sync\nwrite", FIG_NO_CSV)                                  \
	X(pg_scan, "PostgreSQL seq scan", IO, EXT, "PostgreSQL", "Seq scan",   \
	  "Seq scan", "pg seq\nscan", FIG_NO_CSV)                              \
	X(seq_create, "sequential create", FILE, SEQ, "Sequential Create",     \
	  "Create", "Create", "seq\ncreate", FIG_CSV(26, 44, 24, 42, 15))      \
	X(seq_stat, "sequential stat", FILE, SEQ, "Sequential Create", "Read", \
	  "Read", "seq\nstat", FIG_CSV(28, 45, 26, 43, 17))                    \
	X(seq_del, "sequential delete", FILE, SEQ, "Sequential Create",        \
	  "Delete", "Delete", "seq\ndelete", FIG_CSV(30, 46, 28, 44, 19))      \
	X(ran_create, "random create", FILE, RAN, "Random Create", "Create",   \
	  "Create", "random\ncreate", FIG_CSV(32, 47, 30, 45, 21))             \
	X(ran_stat, "random stat", FILE, RAN, "Random Create", "Read", "Read", \
	  "random\nstat", FIG_CSV(34, 48, 32, 46, 23))                         \
	X(ran_del, "random delete", FILE, RAN, "Random Create", "Delete",      \
	  "Delete", "random\ndelete", FIG_CSV(36, 49, 34, 47, 25))

/* The csv argument: a parenthesised list the FIG_S* macros take apart. */
#define FIG_CSV(s98, l98, s97, l97, s03)  (s98, l98, s97, l97, s03)
#define FIG_NO_CSV			  (-1, -1, -1, -1, -1)
#define FIG_S98_(s98, l98, s97, l97, s03) (s98)
#define FIG_L98_(s98, l98, s97, l97, s03) (l98)
#define FIG_S97_(s98, l98, s97, l97, s03) (s97)
#define FIG_L97_(s98, l98, s97, l97, s03) (l97)
#define FIG_S03_(s98, l98, s97, l97, s03) (s03)
/* FIG_S98(csv) and so on: one field of a figure's csv argument. */
#define FIG_S98(csv) FIG_S98_ csv
#define FIG_L98(csv) FIG_L98_ csv
#define FIG_S97(csv) FIG_S97_ csv
#define FIG_L97(csv) FIG_L97_ csv
#define FIG_S03(csv) FIG_S03_ csv

/*
 * For compile-time checks: field s as a bit of a 64-bit mask (none for
 * -1), and the %CP field after rate field s (-1 for none).
 */
#define FIG_BIT(s)	 ((s) < 0 ? 0ull : 1ull << ((s) < 0 ? 0 : (s)))
#define FIG_CPU(s)	 ((s) < 0 ? -1 : (s) + 1)
#define FIG_BITS_(s, l)	 (FIG_BIT(s) + FIG_BIT(FIG_CPU(s)) + FIG_BIT(l))
#define FIG_COUNT_(s, l) (2 * ((s) >= 0) + ((l) >= 0))
#define FIG_SUM98_(key, title, kind, group, head, col, cell, tick, csv)        \
	+FIG_BITS_(FIG_S98(csv), FIG_L98(csv))
#define FIG_SUM97_(key, title, kind, group, head, col, cell, tick, csv)        \
	+FIG_BITS_(FIG_S97(csv), FIG_L97(csv))
#define FIG_SUM03_(key, title, kind, group, head, col, cell, tick, csv)        \
	+FIG_BITS_(FIG_S03(csv), -1)
#define FIG_N98_(key, title, kind, group, head, col, cell, tick, csv)          \
	+FIG_COUNT_(FIG_S98(csv), FIG_L98(csv))
#define FIG_N97_(key, title, kind, group, head, col, cell, tick, csv)          \
	+FIG_COUNT_(FIG_S97(csv), FIG_L97(csv))
#define FIG_N03_(key, title, kind, group, head, col, cell, tick, csv)          \
	+FIG_COUNT_(FIG_S03(csv), -1)
/*
 * The fields the figures take in a format (rate, %CP, latency): the sum
 * of their bits and their number. The sum has each field's bit once
 * only when no two figures share a field.
 */
#define FIG_SUM98 (0ull FIGURES(FIG_SUM98_))
#define FIG_SUM97 (0ull FIGURES(FIG_SUM97_))
#define FIG_SUM03 (0ull FIGURES(FIG_SUM03_))
#define FIG_N98	  (0 FIGURES(FIG_N98_))
#define FIG_N97	  (0 FIGURES(FIG_N97_))
#define FIG_N03	  (0 FIGURES(FIG_N03_))

enum result_test {
#define FIG_ENUM(key, title, kind, group, head, col, cell, tick, csv) RT_##key,
	FIGURES(FIG_ENUM)
#undef FIG_ENUM
	    RT_COUNT
};

/* The unit of a figure's work and rate: bytes (KiB/s), seeks, files,
 * operations (ops/s: a synchronous write, a random read at a depth). */
enum result_kind { RK_IO, RK_SEEK, RK_FILE, RK_OPS };

/* Which tests run together (see group above). */
enum figure_group { FG_IO, FG_SEQ, FG_RAN, FG_EXT };

/*
 * FIG_PHASED(group, ...): the rest of the arguments for a figure clyde
 * measures (a phase fills it), nothing for one of group EXT; for the
 * tables of phases made from FIGURES.
 */
#define FIG_PHASED(group, ...) FIG_PHASED_##group(__VA_ARGS__)
#define FIG_PHASED_IO(...)     __VA_ARGS__
#define FIG_PHASED_SEQ(...)    __VA_ARGS__
#define FIG_PHASED_RAN(...)    __VA_ARGS__
#define FIG_PHASED_EXT(...)
#define FIG_NPHASED_(key, title, kind, group, head, col, cell, tick, csv)      \
	FIG_PHASED(group, +1)
/* The number of figures clyde measures: its phases. */
#define FIG_NPHASED (0 FIGURES(FIG_NPHASED_))

/* The first file test: the data-file figures all come before it. */
#define RT_FIRST_FILE RT_seq_create

/* --only keeps a mask of 1 << RT_x. */
_Static_assert(RT_COUNT <= 32, "--only's mask has 32 bits");

struct figure {
	const char *key;   /* "put_block" */
	const char *title; /* "block output" */
	enum result_kind kind;
	enum figure_group group;
	const char *head; /* "Sequential Output" */
	const char *col;  /* "Block" */
	const char *cell; /* "Block" (9 characters at most) */
	const char *tick; /* "write\nblock" */
	/* Rate field of each CSV format (its %CP is the next one) and the
	 * latency field; -1 where the format has none. */
	int csv198, lat198, csv197, lat197, csv103;
};

/* The entry of figure t (t < RT_COUNT). */
const struct figure *figure_of(enum result_test t);

/* True for one of bonnie++'s figures: it has a CSV slot and a cell in
 * bonnie++'s tables. */
int figure_bonnie(enum result_test t);

/* True for a file test (group SEQ or RAN). */
int figure_is_file(enum result_test t);

/* True for a figure clyde measures itself (a phase fills it); false for
 * one of group EXT. */
int figure_phased(enum result_test t);

/* The program of the suite that measures t: "clyde", or for a figure of
 * group EXT the other one ("clyde-pgscan"). */
const char *figure_program(enum result_test t);

/* The figure called key, or -1. */
int figure_find(const char *key);

/*
 * The --only bits that naming t sets: 1 << t, or for a file test the
 * bits of its whole pass.
 */
unsigned figure_only_bits(enum result_test t);

/* Every key of a figure clyde measures (--only's names), joined by sep,
 * into buf ("putc, put_block, ..."). */
void figure_keys(char *buf, size_t len, const char *sep);

#endif
