/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_fill: what its two files share. */
#ifndef CLYDE_T_CHECK_FILL_H
#define CLYDE_T_CHECK_FILL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "fill.h"

/* len bytes of a stream from off, asked for 8 KiB at a time; malloc'd. */
unsigned char *cf_stream(const struct fill_spec *spec, uint64_t seed,
			 int verify, uint64_t off, size_t len, uint32_t gen);
/* The verify format's tests (check_fill_verify.c). */
void fill_verify_tcase(Suite *s);

#endif
