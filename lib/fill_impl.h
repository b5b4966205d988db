/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fill_impl: what fill.c, fill_gen.c and fill_check.c share. */
#ifndef CLYDE_FILL_IMPL_H
#define CLYDE_FILL_IMPL_H

#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fill.h"

/*
 * The random bytes every writer's content is cut from, made once: 1 MiB
 * is far beyond deflate's 32 KiB window, so no compressor at the usual
 * settings sees it repeat, and small enough to stay in the cache.
 */
#define FILL_POOL (1u << 20)

/* Where a block's CRC sits: its last 4 bytes, over the bytes before. */
#define FILL_CRC_AT (FILL_BLOCK - 4u)
/* The most blocks one CRC call checks at once (fill_check). */
#define FILL_RUN 256u

struct fill {
	struct fill_spec spec;
	uint64_t seed;
	int verify;
	uint32_t hdr_flags; /* the header's flags (FILL_HDR_JOURNALED) */
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
	/*
	 * With verify: run_crc[n], the CRC-32 of any n sound blocks one
	 * after another. A sound block's CRC (its CRC appended) is one
	 * constant, and the CRC of a concatenation depends only on its
	 * parts' CRCs and lengths, so one call over a read's blocks
	 * checks them all (fill_check).
	 */
	uint32_t run_crc[FILL_RUN + 1];
};

/*
 * Little-endian fields by memcpy and a byte-order conversion: one load or
 * store each, where a byte loop stayed eight (GCC did not merge it), and
 * the header checks cost block input 2% on tmpfs.
 */
static inline void fill_put_le32(unsigned char *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static inline void fill_put_le64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

static inline uint32_t fill_get_le32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static inline uint64_t fill_get_le64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

/* The CRC a FILL_BLOCK block carries at FILL_CRC_AT: of the bytes
 * before it. */
uint32_t fill_block_crc(const unsigned char *blk);

/* Fill f->run_crc (verify on). */
void fill_run_crc_make(struct fill *f);

#endif
