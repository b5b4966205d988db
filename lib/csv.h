/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csv: bonnie++'s result lines. Format 1.98 (bonnie++ 2.00, 50 fields,
 * clyde's default), 1.97 (48 fields: 1.98 without seeks and
 * seek_proc_count) and 1.03 (27 fields, no version field). Which field
 * holds which figure comes from the registry (figures.h); the label
 * fields (name, sizes, settings) are listed here. A figure without a
 * bonnie++ field is in no line: a run_result's cell of it comes from
 * what was measured (clyde's runs, JSON documents) only. The cell types
 * are the shown part of the result model (result.h).
 */
#ifndef CLYDE_CSV_H
#define CLYDE_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "result.h"

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
 * Reading. A line read back fills only what a line holds: the shown part
 * of a run_result (format, version, name, label texts and cells), as
 * they were written; measured stays 0.
 */
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
enum csv_line_kind csv_parse(const char *line, size_t len, struct run_result *r,
			     char *why, size_t whylen);

/*
 * The shown part of r as a 1.98 line, its fields as they were written
 * ("+++++", "2G", "8094us"): a 1.97 line gets empty seeks and
 * seek_proc_count, a 1.03 line empty version, concurrency and seed
 * fields and its whole labels split into their fields ("1500M:4k" into
 * file_size and io_chunk_size), so the tables show the same labels.
 */
void csv_write_row(FILE *out, const struct run_result *r);

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
