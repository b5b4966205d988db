/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text: bytes the user gave (a -m name, a -d path, a file name built
 * from it) made safe to print and to store. A message must stay one
 * line whatever a value holds, and a JSON string must be UTF-8 (jansson
 * refuses anything else, and a refused string is a key that silently
 * vanishes from the document).
 */
#ifndef CLYDE_TEXT_H
#define CLYDE_TEXT_H

#include <stddef.h>

/*
 * The length of the well-formed UTF-8 sequence at s (1 to 4 bytes: no
 * overlong form, no surrogate, nothing above U+10FFFF), or 0 when the
 * byte at s starts none. s points at a NUL-terminated string.
 */
size_t text_utf8_len(const char *s);

/* Whether all of s is well-formed UTF-8. */
int text_utf8_valid(const char *s);

/* What text_escape() escapes besides bytes that are not UTF-8. */
enum text_escape_mode {
	TEXT_LINE, /* messages: also control characters, so one line */
	TEXT_JSON, /* JSON strings: only what is not UTF-8 */
};

/*
 * Copy s into out[len] with every byte that is not part of a UTF-8
 * character written as \xNN (two lowercase hex digits) and, under
 * TEXT_LINE, the control characters as \n, \r, \t or \xNN. A result
 * that does not fit is cut at a character boundary and ends in "...".
 * Returns the number of bytes escaped (0: out holds s unchanged, unless
 * cut).
 */
size_t text_escape(const char *s, char *out, size_t len,
		   enum text_escape_mode mode);

/* s escaped into buf[len] for a message (TEXT_LINE): buf. */
const char *text_shown(const char *s, char *buf, size_t len);

/*
 * The room text_escape() needs for all of s, the NUL included (each
 * byte becomes at most four).
 */
size_t text_escape_room(const char *s);

#endif
