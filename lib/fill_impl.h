/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fill_impl: what fill.c, fill_gen.c and fill_check.c share. */
#ifndef CLYDE_FILL_IMPL_H
#define CLYDE_FILL_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "fill.h"

/*
 * The random bytes every writer's content is cut from, made once: 1 MiB
 * is far beyond deflate's 32 KiB window, so no compressor at the usual
 * settings sees it repeat, and small enough to stay in the cache.
 */
#define FILL_POOL (1u << 20)

struct fill {
	struct fill_spec spec;
	uint64_t seed;
	int verify;
	size_t max_len;
	/*
	 * FILL_POOL bytes of content, then as many again repeated as a
	 * call can reach past the end (max_len and two blocks), so that
	 * the content at any offset is one contiguous run of pool.
	 */
	unsigned char *pool;
	size_t pool_len;
	unsigned char *out; /* dedupe: the blocks put together */
	unsigned head;	    /* compress: a block's random head, in bytes */
	unsigned nstamp;    /* the sectors of a block that are stamped */
};

static inline void fill_put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline void fill_put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint32_t fill_get_le32(const unsigned char *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static inline uint64_t fill_get_le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The header's CRC of a FILL_BLOCK block: of its bytes 8 to 4095. */
uint32_t fill_block_crc(const unsigned char *blk);

#endif
