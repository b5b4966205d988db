/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fill: see fill.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fill.h"
#include "rng.h"

void fill_random(void *buf, size_t len, uint64_t seed)
{
	struct rng r;
	unsigned char *p = buf;
	size_t i;

	rng_seed(&r, seed);
	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t x = rng_next(&r);

		memcpy(p + i, &x, 8);
	}
	if (i < len) {
		uint64_t x = rng_next(&r);

		memcpy(p + i, &x, len - i);
	}
}

#define STAMP_BLOCK 4096u

void fill_stamp(void *buf, size_t len, uint64_t off, uint64_t seed)
{
	unsigned char *p = buf;
	/* The first block start at or after off, relative to buf. */
	size_t i = (size_t)((STAMP_BLOCK - off % STAMP_BLOCK) % STAMP_BLOCK);

	for (; i < len; i += STAMP_BLOCK) {
		uint64_t x = rng_hash(seed, (off + i) / STAMP_BLOCK);
		size_t n = len - i < 8 ? len - i : 8;

		memcpy(p + i, &x, n);
	}
}

double fill_compress_ratio(const void *buf, size_t len)
{
	uLongf out_len = compressBound((uLong)len);
	Bytef *out = malloc(out_len);
	double ratio = -1.0;

	if (!out)
		return -1.0;
	if (compress2(out, &out_len, buf, (uLong)len, 1) == Z_OK && len)
		ratio = (double)out_len / (double)len;
	free(out);
	return ratio;
}
