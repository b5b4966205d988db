/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csv: bonnie++'s result lines. Format 1.98 (bonnie++ 2.00, 50 fields,
 * clyde's default), 1.97 (48 fields: 1.98 without seeks and
 * seek_proc_count) and 1.03 (27 fields, no version field). Which field
 * holds which figure comes from the registry (figures.h); the label
 * fields (name, sizes, settings) are listed in csv.c. A figure without
 * a bonnie++ field is in no line: csv_row carries it for clyde's JSON
 * documents only.
 */
#ifndef CLYDE_CSV_H
#define CLYDE_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "result.h"

enum csv_format { CSV_198, CSV_197, CSV_103 };

/*
 * The fields that hold no figure: X(name, 1.98, 1.97, 1.03), the 0-based
 * field of each format or -1. 1.03 has no version, concurrency, seed,
 * chunk, seek or file-size-detail fields; its file_size and num_files
 * carry the whole labels instead. csv.c checks that with the figures
 * they make up each format's fields, each once.
 */
#define CSV_LABELS(X)                                                          \
	X(format_version, 0, 0, -1)                                            \
	X(bonnie_version, 1, 1, -1)                                            \
	X(name, 2, 2, 0)                                                       \
	X(concurrency, 3, 3, -1)                                               \
	X(seed, 4, 4, -1)                                                      \
	X(file_size, 5, 5, 1)                                                  \
	X(io_chunk_size, 6, 6, -1)                                             \
	X(seeks, 7, -1, -1)                                                    \
	X(seek_proc_count, 8, -1, -1)                                          \
	X(num_files, 21, 19, 14)                                               \
	X(max_size, 22, 20, -1)                                                \
	X(min_size, 23, 21, -1)                                                \
	X(num_dirs, 24, 22, -1)                                                \
	X(file_chunk_size, 25, 23, -1)

enum csv_label {
#define LABEL_ENUM(name, f98, f97, f03) CL_##name,
	CSV_LABELS(LABEL_ENUM)
#undef LABEL_ENUM
	CL_COUNT
};

/* The most fields a line has (1.98's). */
#define CSV_FIELDS_MAX 50

/* Parse "1.98" / "1.97" / "1.03"; -1 when unknown. */
int csv_format_parse(const char *s, enum csv_format *out);

/* Number of fields a line of this format has: 50, 48, 27. */
int csv_field_count(enum csv_format fmt);

/*
 * Where things are in a line of format fmt: the 0-based field of label
 * k, of figure t's rate (its %CP is the next field) and of its worst
 * latency; -1 when the format has none.
 */
int csv_label_at(enum csv_label k, enum csv_format fmt);
int csv_rate_at(enum result_test t, enum csv_format fmt);
int csv_latency_at(enum result_test t, enum csv_format fmt);
/* Label k's name in the header line ("io_chunk_size"). */
const char *csv_label_name(enum csv_label k);

/* The name of field i (0-based) of a line of format fmt ("putc_cpu"),
 * as the header line gives it; "?" when there is no such field. */
void csv_field_name(enum csv_format fmt, int i, char *buf, size_t len);

/* The header line of field names (printed first with -x N > 1). */
void csv_write_header(FILE *out, enum csv_format fmt);

/* One result line, newline-terminated. */
void csv_write(FILE *out, const struct run_result *r, enum csv_format fmt);

/*
 * Reading. A line read back is kept as the figures it carries, not as a
 * run_result: a CSV line has rates and %CP, not bytes and seconds, and
 * the label fields are shown as they were written.
 */
enum csv_cell_state {
	CSV_EMPTY = 0, /* the test did not run: empty fields */
	CSV_FAST,      /* "+++++": ran for under 0.5 s */
	CSV_VALUE,     /* a figure */
};

struct csv_cell {
	enum csv_cell_state state;
	double rate;	 /* KiB/s, seeks/s or files/s (CSV_VALUE) */
	int cpu;	 /* %CP; -1 when empty or "+++" */
	uint64_t lat_ns; /* worst latency; 0 when the field is empty */
	/* The three fields as written ("758.8", "+++", "8094us"). */
	char text[20], cpu_text[20], lat_text[24];
	/*
	 * Only from clyde's JSON documents: the measured rate even when the
	 * line says "+++++" (exact_rate), and the latency percentiles
	 * (has_pct).
	 */
	int exact_rate, has_pct;
	uint64_t p50_ns, p90_ns, p99_ns, p999_ns;
};

#define CSV_TEXT_MAX 64

struct csv_row {
	enum csv_format fmt;		  /* how the line came */
	char version[RESULT_VERSION_MAX]; /* field 1; "" for 1.03 */
	char name[RESULT_NAME_MAX];
	/* Label fields as written ("2G", "" for a default chunk). 1.03 lines
	 * carry the whole labels in size ("1500M:4k") and files. */
	char concurrency[CSV_TEXT_MAX], seed[CSV_TEXT_MAX];
	char size[CSV_TEXT_MAX], chunk[CSV_TEXT_MAX];
	char seeks[CSV_TEXT_MAX], procs[CSV_TEXT_MAX];
	char files[CSV_TEXT_MAX], max_size[CSV_TEXT_MAX];
	char min_size[CSV_TEXT_MAX], dirs[CSV_TEXT_MAX];
	char file_chunk[CSV_TEXT_MAX];
	/* One per figure of the registry; a figure without a bonnie++
	 * field stays CSV_EMPTY unless a JSON document gave it. */
	struct csv_cell c[RT_COUNT];
};

enum csv_line_kind {
	CSV_LINE_BAD = -1, /* why says what is wrong */
	CSV_LINE_ROW,	   /* a result: row is filled */
	CSV_LINE_HEADER,   /* "name,..." or "format_version,..." */
	CSV_LINE_COMMENT,  /* "#..." */
	CSV_LINE_BLANK,	   /* nothing but white space */
};

/*
 * Parse one line of len bytes (without or with its "\n" or "\r\n").
 * The format is told by field 0 and the field count. Every field is
 * checked: rates are empty, "+++++" or a non-negative number; %CP empty,
 * "+++" or a whole number; latencies empty or a whole number of
 * us/ms/s. why[whylen] gets one phrase naming the bad field and value.
 */
enum csv_line_kind csv_parse(const char *line, size_t len, struct csv_row *row,
			     char *why, size_t whylen);

/*
 * A row read back as a 1.98 line, its fields as they were written
 * ("+++++", "2G", "8094us"): a 1.97 line gets empty seeks and
 * seek_proc_count, a 1.03 line empty version, concurrency and seed
 * fields and its whole labels split into their fields ("1500M:4k" into
 * file_size and io_chunk_size), so the tables show the same labels.
 */
void csv_write_row(FILE *out, const struct csv_row *row);

/* The row a run_result writes (what csv_parse of csv_write gives), with
 * the figures no line holds as csv_cell_of gives them. */
void csv_row_of(const struct run_result *r, struct csv_row *row);

/*
 * A cell of figure t of r as a line would hold it: the texts csv_write
 * writes (cut to the cell's sizes), the exact rate (exact_rate), %CP and
 * worst latency, and the latency percentiles when recorded (has_pct).
 */
void csv_cell_of(const struct run_result *r, enum result_test t,
		 struct csv_cell *c);

/*
 * A cell from its figures, its texts written as csv_write writes them:
 * state CSV_FAST gives "+++++" and "+++", CSV_EMPTY blanks. cpu < 0 is
 * no %CP, lat_ns 0 no latency. For figures no line carries (JSON).
 */
void csv_cell_set(struct csv_cell *c, enum result_kind kind,
		  enum csv_cell_state state, double rate, int cpu,
		  uint64_t lat_ns);

#endif
