/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * figures: the registry of every figure clyde measures, one X-list that
 * everything else is made from: the run-time table (figure_of), the CSV
 * writer and parser (which field holds what in each bonnie++ format), the
 * table cells and headings, the --only names and groups, the labels of
 * every clyde-report output, and clyde's table of phases: figure <key> is
 * filled by the phase phase_<key>_ops (src/clyde/phase.h), and they run in
 * this order. The result model's index (enum result_test, RT_x) is these
 * figures with those of other programs' documents (extfig.h, which the
 * readers know too) between the data-file figures and the file tests.
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

#include "extfig.h"

/*
 * X(key, title, kind, group, head, col, cell, tick, csv[, flags])
 *
 * key    the figure's name: CSV header field, JSON key, --only name
 * title  for messages and the extended table section
 * kind   IO: bytes, shown in KiB/s; SEEK: operations, seeks/s;
 *        FILE: files, files/s; OPS: operations, ops/s (no bonnie++
 *        figure has it)
 * group  IO: a test of the data file, --only runs it alone; SEQ or RAN:
 *        a file test of the sequential or random pass, and --only naming
 *        one runs its whole pass (create, stat, delete)
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
 * flags  optional: FIGF_PER_CHAR when what it measures is the run's
 *        per-char meaning (result.h's enum result_per_char), which the
 *        readers name when rows of two meanings meet; FIGF_CLIFF when
 *        clyde looks for the write-cache cliff in its intervals
 *
 * The data-file figures (group IO) come before the file tests.
 */
#define FIGURES(X)                                                             \
	X(putc, "per-char output", IO, IO, "Sequential Output", "Per Char",    \
	  "Per Chr", "write\nper char", FIG_CSV(9, 38, 7, 36, 2),              \
	  FIGF_PER_CHAR)                                                       \
	X(put_block, "block output", IO, IO, "Sequential Output", "Block",     \
	  "Block", "write\nblock", FIG_CSV(11, 39, 9, 37, 4), FIGF_CLIFF)      \
	X(rewrite, "rewrite", IO, IO, "Sequential Output", "Rewrite",          \
	  "Rewrite", "rewrite", FIG_CSV(13, 40, 11, 38, 6))                    \
	X(getc, "per-char input", IO, IO, "Sequential Input", "Per Char",      \
	  "Per Chr", "read\nper char", FIG_CSV(15, 41, 13, 39, 8),             \
	  FIGF_PER_CHAR)                                                       \
	X(get_block, "block input", IO, IO, "Sequential Input", "Block",       \
	  "Block", "read\nblock", FIG_CSV(17, 42, 15, 40, 10))                 \
	X(seeks, "random seeks", SEEK, IO, "Random", "Seeks", "Seeks",         \
	  "random\nseeks", FIG_CSV(19, 43, 17, 41, 12))                        \
	X(ran_read, "random reads", OPS, IO, "Random I/O", "Read", "Read",     \
	  "random\nread", FIG_NO_CSV)                                          \
	X(ran_write, "random writes", OPS, IO, "Random I/O", "Write", "Write", \
	  "random\nwrite", FIG_NO_CSV, FIGF_CLIFF)                             \
	X(ran_mix, "random mix", OPS, IO, "Random I/O", "Mix", "Mix",          \
	  "random\nmix", FIG_NO_CSV, FIGF_CLIFF)                               \
	X(sync_write, "synchronous write", OPS, IO, "Synchronous", "Write",    \
	  "Write", "sync\nwrite", FIG_NO_CSV)                                  \
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

/* The flags argument, 0 when left out. */
#define FIG_FLAGS(...) (__VA_ARGS__ + 0)

/* The csv argument: a parenthesised list the FIG_S* macros take
 * apart. */
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
 * For compile-time checks: field s as a bit of a 64-bit mask (none
 * for -1), and the %CP field after rate field s (-1 for none).
 */
#define FIG_BIT(s)	 ((s) < 0 ? 0ull : 1ull << ((s) < 0 ? 0 : (s)))
#define FIG_CPU(s)	 ((s) < 0 ? -1 : (s) + 1)
#define FIG_BITS_(s, l)	 (FIG_BIT(s) + FIG_BIT(FIG_CPU(s)) + FIG_BIT(l))
#define FIG_COUNT_(s, l) (2 * ((s) >= 0) + ((l) >= 0))
#define FIG_SUM98_(key, title, kind, group, head, col, cell, tick, csv, ...)   \
	+FIG_BITS_(FIG_S98(csv), FIG_L98(csv))
#define FIG_SUM97_(key, title, kind, group, head, col, cell, tick, csv, ...)   \
	+FIG_BITS_(FIG_S97(csv), FIG_L97(csv))
#define FIG_SUM03_(key, title, kind, group, head, col, cell, tick, csv, ...)   \
	+FIG_BITS_(FIG_S03(csv), -1)
#define FIG_N98_(key, title, kind, group, head, col, cell, tick, csv, ...)     \
	+FIG_COUNT_(FIG_S98(csv), FIG_L98(csv))
#define FIG_N97_(key, title, kind, group, head, col, cell, tick, csv, ...)     \
	+FIG_COUNT_(FIG_S97(csv), FIG_L97(csv))
#define FIG_N03_(key, title, kind, group, head, col, cell, tick, csv, ...)     \
	+FIG_COUNT_(FIG_S03(csv), -1)
/*
 * The fields the figures take in a format (rate, %CP, latency): the
 * sum of their bits and their number. The sum has each field's bit
 * once only when no two figures share a field.
 */
#define FIG_SUM98 (0ull FIGURES(FIG_SUM98_))
#define FIG_SUM97 (0ull FIGURES(FIG_SUM97_))
#define FIG_SUM03 (0ull FIGURES(FIG_SUM03_))
#define FIG_N98	  (0 FIGURES(FIG_N98_))
#define FIG_N97	  (0 FIGURES(FIG_N97_))
#define FIG_N03	  (0 FIGURES(FIG_N03_))

/*
 * The result model's index: clyde's figures, and between its
 * data-file figures and its file tests those of other programs'
 * documents, in the order every reader shows them. RT_COUNT: every
 * figure a result holds.
 */
#define FIG_IN_DATA_IO(...) __VA_ARGS__
#define FIG_IN_DATA_SEQ(...)
#define FIG_IN_DATA_RAN(...)
#define FIG_IN_FILE_IO(...)
#define FIG_IN_FILE_SEQ(...) __VA_ARGS__
#define FIG_IN_FILE_RAN(...) __VA_ARGS__
#define FIG_ENUM_DATA(key, title, kind, group, ...)                            \
	FIG_IN_DATA_##group(RT_##key, )
#define FIG_ENUM_FILE(key, title, kind, group, ...)                            \
	FIG_IN_FILE_##group(RT_##key, )
#define EXT_ENUM(key, ...) RT_##key,
enum result_test {
	FIGURES(FIG_ENUM_DATA) EXT_FIGURES(EXT_ENUM) FIGURES(FIG_ENUM_FILE)
	    RT_COUNT
};

/* The number of figures clyde measures: FIGURES' entries, its phases.
 */
#define FIG_ONE_(key, ...) +1
#define FIG_COUNT	   (0 FIGURES(FIG_ONE_))

/* Those figures, in the registry's order (the run order). */
extern const enum result_test figure_list[FIG_COUNT];

/* The unit of a figure's work and rate: bytes (KiB/s), seeks, files,
 * operations (ops/s: a synchronous write, a random read at a depth).
 */
enum result_kind { RK_IO, RK_SEEK, RK_FILE, RK_OPS };

/* Which tests run together (see group above). */
enum figure_group { FG_IO, FG_SEQ, FG_RAN };

/* What a figure is beside its units (see flags above; FIGF_OTHER only
 * in extfig.h's table). */
enum figure_flags {
	FIGF_PER_CHAR = 1u, /* its meaning is the run's per-char mode */
	FIGF_OTHER = 2u,    /* another program measures it (extfig.h) */
	FIGF_CLIFF = 4u,    /* it writes for a while: a write-back cache
			     * shows in its rate over time (cliff.h) */
};

/*
 * The keys of a figure's test record in a JSON document
 * (doc/clyde-json.5) beside status: work and unit; elapsed, user,
 * sys; rate and rate_unit; cpu_percent; the latencies
 * (max_latency_ns, latency, histogram and what -c N, --log-interval
 * and several workers add).
 */
enum figure_keys {
	FK_WORK = 1u,
	FK_TIMES = 2u,
	FK_RATE = 4u,
	FK_CPU = 8u,
	FK_LATENCY = 16u,
	FK_ALL = 31u,
};

/* The first file test: the data-file figures all come before it. */
#define RT_FIRST_FILE RT_seq_create

/* --only keeps a mask of 1 << RT_x. */
_Static_assert(RT_COUNT <= 32, "--only's mask has 32 bits");

struct figure {
	const char *key;     /* "put_block" */
	const char *title;   /* "block output" */
	const char *program; /* the program that measures it: "clyde" */
	enum result_kind kind;
	enum figure_group group;
	unsigned flags;	  /* enum figure_flags */
	unsigned keys;	  /* enum figure_keys: those its test records hold */
	const char *head; /* "Sequential Output" */
	const char *col;  /* "Block" */
	const char *cell; /* "Block" (9 characters at most) */
	const char *tick; /* "write\nblock" */
	/* Rate field of each CSV format (its %CP is the next one) and
	 * the latency field; -1 where the format has none. */
	int csv198, lat198, csv197, lat197, csv103;
	/* Another program's: the figure its notes set it beside, and
	 * whose CPU it is ("backend"), as "PostgreSQL seq scan = 86%
	 * of block input (...), backend CPU 97%"; against -1: no such
	 * note. tag: the program's short name, html's class of the
	 * note ("pgscan"). */
	int against;
	const char *cpu_of, *tag;
};

/* The entry of figure t (t < RT_COUNT): clyde's, or extfig.h's. */
const struct figure *figure_of(enum result_test t);

/* True for one of bonnie++'s figures: it has a CSV slot and a cell in
 * bonnie++'s tables. */
int figure_bonnie(enum result_test t);

/* True for a file test (group SEQ or RAN). */
int figure_is_file(enum result_test t);

/* The figure clyde measures called key, or -1 (extfig_find finds
 * another program's). */
int figure_find(const char *key);

/*
 * The --only bits that naming t sets: 1 << t, or for a file test the
 * bits of its whole pass.
 */
unsigned figure_only_bits(enum result_test t);

/* Every key of a figure clyde measures (--only's names), joined by
 * sep, into buf ("putc, put_block, ..."). */
void figure_keys(char *buf, size_t len, const char *sep);

#endif
