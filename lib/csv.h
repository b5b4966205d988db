/*
 * csv: bonnie++'s result lines. Format 1.98 (bonnie++ 2.00, 50 fields,
 * clyde's default), 1.97 (48 fields: 1.98 without seeks and
 * seek_proc_count) and 1.03 (27 fields, no version field).
 */
#ifndef CLYDE_CSV_H
#define CLYDE_CSV_H

#include <stdio.h>

#include "result.h"

enum csv_format { CSV_198, CSV_197, CSV_103 };

/* Parse "1.98" / "1.97" / "1.03"; -1 when unknown. */
int csv_format_parse(const char *s, enum csv_format *out);

/* Number of fields a line of this format has. */
int csv_field_count(enum csv_format fmt);

/* The header line of field names (printed first with -x N > 1). */
void csv_write_header(FILE *out, enum csv_format fmt);

/* One result line, newline-terminated. */
void csv_write(FILE *out, const struct run_result *r, enum csv_format fmt);

#endif
