/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * units: sizes as people type them ("512", "512m", "2G", "1.5g", "4k",
 * "1t"; binary multiples, case-insensitive) and the fixed-width cells
 * bonnie++ prints for rates, latencies and sizes.
 */
#ifndef CLYDE_UNITS_H
#define CLYDE_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define UNITS_KIB 1024ull
#define UNITS_MIB (1024ull * 1024ull)
#define UNITS_GIB (1024ull * 1024ull * 1024ull)
#define UNITS_TIB (1024ull * 1024ull * 1024ull * 1024ull)

/*
 * Parse a size. A bare number is multiplied by plain_unit (1 for bytes,
 * UNITS_MIB for bonnie++'s -s and -r). A suffix k/m/g/t (either case,
 * optionally followed by b or ib) overrides it. Fractions are allowed
 * with a suffix or a plain_unit above 1 ("1.5g") as long as the result is
 * a whole number of bytes. Returns 0, or -1 with a reason (without the
 * value) in why[whylen]: empty, negative, not a number, unknown suffix,
 * too large, not whole bytes.
 */
int units_parse_size(const char *s, uint64_t plain_unit, uint64_t *out,
		     char *why, size_t whylen);

/*
 * Parse a plain non-negative decimal integer no larger than max.
 * Returns 0, or -1 with a reason in why[whylen].
 */
int units_parse_uint(const char *s, uint64_t max, uint64_t *out, char *why,
		     size_t whylen);

/*
 * bonnie++ 2.00's 5-character rate cell for x KiB/s:
 *   x < 10000 -> "%4dk"; m = x/1024 < 100 -> "%4.1fm";
 *   m < 1000 -> "%4dm" of (int)(m+0.5); else "%4.1fg" of x/1048576;
 * except that a figure whose rounding would reach the next form takes
 * it ("100m", not "100.0m"), so a cell is always five characters.
 */
void units_fmt_rate(char *buf, size_t len, uint64_t kib_per_sec);

/*
 * Latency cell: "" for 0 (not measured), "%ds" above 99.999999 s,
 * "%dms" above 0.099999 s, else "%dus"; always truncated.
 */
void units_fmt_latency(char *buf, size_t len, uint64_t ns);

/* A size as bonnie++ labels it: "%dG" for whole GiB, else "%dM". */
void units_fmt_size(char *buf, size_t len, uint64_t bytes);

/* A chunk or file size: "%dg"/"%dm"/"%dk" when a whole multiple, else "%d". */
void units_fmt_small(char *buf, size_t len, uint64_t bytes);

#endif
