/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fill: the one place write buffers get their content, so that other
 * kinds of data (zeros, compressible, verifiable blocks) can be added
 * without touching the phases. Today: seeded pseudo-random bytes, which
 * no compressing or deduplicating layer can shrink.
 */
#ifndef CLYDE_FILL_H
#define CLYDE_FILL_H

#include <stddef.h>
#include <stdint.h>

/* Fill buf[len] with bytes from the seeded generator. */
void fill_random(void *buf, size_t len, uint64_t seed);

/*
 * Make every 4 KiB block of a write distinct: buf[len] is to be written
 * at stream offset off; the first 8 bytes of each 4 KiB block (counted
 * from offset 0 of the stream) become a hash of (seed, block number).
 * So a buffer filled once and reused for every write still gives a
 * deduplicating device nothing to merge. off need not be aligned.
 */
void fill_stamp(void *buf, size_t len, uint64_t off, uint64_t seed);

/*
 * The compressed size of buf[len] over len (zlib, level 1), in [0, ~1.01]:
 * near 1.0 for incompressible data. Returns -1.0 on a zlib failure.
 */
double fill_compress_ratio(const void *buf, size_t len);

#endif
