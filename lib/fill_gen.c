/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fill_gen: the content of the data modes (see fill.h). Every mode cuts
 * its bytes from one pool made at fill_new, at the stream offset modulo
 * FILL_POOL, and makes them unique where it must by stamps written in
 * place: 8 bytes at the start of a sector, a hash of (seed, generation,
 * sector). So the default mode costs a few hashes per 4 KiB, not fresh
 * random bytes, and since the stamps sit at fixed places and depend only
 * on the offset, any split of a stream into calls gives the same bytes.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fill.h"
#include "fill_impl.h"
#include "rng.h"

/* Salts, so the pool, the stamps and the dedupe choices of one seed are
 * unrelated streams of the hash. */
#define POOL_SALT   0x706f6f6c636c7964ull
#define STAMP_SALT  0x7374616d70636c79ull
#define DEDUPE_SALT 0x6465647570636c79ull

/* How far back a dedupe copy may reach: 1 GiB of blocks. */
#define DEDUPE_WINDOW ((1ull << 30) / FILL_BLOCK)

#define SECTORS (FILL_BLOCK / FILL_SECTOR)

/*
 * The random head of a compress:PCT block. Deflate spends a little over
 * a byte per random byte (literal codes of 8 and 9 bits, block headers)
 * and a few bytes on the zeros after them: about 0.6 points over pct,
 * measured with zlib levels 1 and 6 over 8 MiB for PCT 1..99, so the
 * head is 20 bytes short of pct%. With verify, the header's seed and
 * generation repeat from block to block and deflate takes them back.
 */
static unsigned compress_head(unsigned pct, int verify)
{
	long head = (long)pct * FILL_BLOCK / 100 - (verify ? 0 : 20);

	if (head < (long)FILL_HEADER)
		head = FILL_HEADER;
	return (unsigned)head;
}

/* The base content: random bytes (compress: a random head, then zeros)
 * or zeros, FILL_POOL of them, repeated to the pool's end. */
static void pool_make(struct fill *f)
{
	unsigned char *p = f->pool;

	if (f->spec.mode == FILL_ZERO) {
		memset(p, 0, f->pool_len);
		return;
	}
	fill_random(p, FILL_POOL, rng_hash(f->seed, POOL_SALT));
	if (f->spec.mode == FILL_COMPRESS)
		for (size_t b = 0; b < FILL_POOL; b += FILL_BLOCK)
			memset(p + b + f->head, 0, FILL_BLOCK - f->head);
	for (size_t i = FILL_POOL; i < f->pool_len; i += FILL_POOL) {
		size_t n =
		    f->pool_len - i < FILL_POOL ? f->pool_len - i : FILL_POOL;

		memcpy(p + i, p, n);
	}
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

struct fill *fill_new(const struct fill_spec *spec, uint64_t seed, int verify,
		      size_t max_len)
{
	struct fill *f;
	int pct_mode;

	if (!spec || max_len == 0 || (unsigned)spec->mode > FILL_DEDUPE)
		goto invalid;
	pct_mode = spec->mode == FILL_COMPRESS || spec->mode == FILL_DEDUPE;
	if (pct_mode && (spec->pct < 1 || spec->pct > 99))
		goto invalid;
	if (spec->mode == FILL_DEDUPE && verify)
		goto invalid;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->spec = *spec;
	f->spec.pct = pct_mode ? spec->pct : 0;
	f->seed = seed;
	f->verify = !!(verify & FILL_VERIFY);
	f->hdr_flags =
	    f->verify && (verify & FILL_JOURNALED) ? FILL_HDR_JOURNALED : 0;
	f->max_len = max_len;
	f->pool_len =
	    FILL_POOL + round_up(max_len, FILL_BLOCK) + 2 * FILL_BLOCK;
	if (posix_memalign((void **)&f->pool, FILL_BLOCK, f->pool_len))
		goto nomem;
	if (spec->mode == FILL_DEDUPE &&
	    posix_memalign((void **)&f->out, FILL_BLOCK,
			   round_up(max_len, FILL_BLOCK) + 2 * FILL_BLOCK))
		goto nomem;
	switch (spec->mode) {
	case FILL_ZERO:
		f->nstamp = 0;
		break;
	case FILL_COMPRESS:
		f->head = compress_head(spec->pct, f->verify);
		/* Only sectors whose stamp fits in the random head. */
		f->nstamp = (f->head - 8) / FILL_SECTOR + 1;
		break;
	default:
		f->nstamp = SECTORS;
	}
	pool_make(f);
	if (f->verify)
		fill_run_crc_make(f);
	return f;
nomem:
	fill_free(f);
	errno = ENOMEM;
	return NULL;
invalid:
	errno = EINVAL;
	return NULL;
}

void fill_free(struct fill *f)
{
	if (!f)
		return;
	free(f->pool);
	free(f->out);
	free(f);
}

/* The stamps' key for generation gen: one hash a call, not a sector. */
static uint64_t stamp_key(const struct fill *f, uint32_t gen)
{
	return rng_hash(f->seed ^ STAMP_SALT, gen);
}

/*
 * The stamps of the block whose content is that of block src (its own
 * number but under dedupe): sector 0's only without verify, where the
 * header makes the block unique instead. One hash a block, and each
 * sector's stamp that plus the sector times an odd constant: two
 * sectors could match only at the same place in the pool, so in the
 * same sector of two blocks, and then only if the blocks' hashes did.
 * A hash a sector cost block output 1.5% on tmpfs.
 */
static void stamp_block(const struct fill *f, unsigned char *blk, uint64_t src,
			uint64_t key)
{
	uint64_t h = rng_hash(key, src);

	for (unsigned s = f->verify ? 1 : 0; s < f->nstamp; s++)
		fill_put_le64(blk + s * FILL_SECTOR,
			      h + s * UINT64_C(0x9e3779b97f4a7c15));
}

static void header_put(const struct fill *f, unsigned char *blk, uint64_t boff,
		       uint32_t gen)
{
	fill_put_le32(blk, FILL_MAGIC);
	fill_put_le32(blk + 4, f->hdr_flags);
	fill_put_le64(blk + 8, boff);
	fill_put_le64(blk + 16, f->seed);
	fill_put_le32(blk + 24, gen);
	blk[28] = (unsigned char)f->spec.mode;
	blk[29] = (unsigned char)f->spec.pct;
	blk[30] = 0;
	blk[31] = 0;
	fill_put_le32(blk + FILL_CRC_AT, fill_block_crc(blk));
}

/* Stamps, then header and CRC: the marks of a whole block at boff. */
static void mark_block(const struct fill *f, unsigned char *blk, uint64_t boff,
		       uint64_t src, uint64_t key, uint32_t gen)
{
	stamp_block(f, blk, src, key);
	if (f->verify)
		header_put(f, blk, boff, gen);
}

/*
 * Dedupe: the block whose content block b repeats, or b itself when it
 * is unique. A copy's source is picked by hash among the blocks before
 * it and may be a copy in turn; following the chain to a unique block
 * makes every copy byte-identical to a block earlier in the stream.
 */
static uint64_t dedupe_root(const struct fill *f, uint64_t b)
{
	while (b > 0) {
		uint64_t x = rng_hash(f->seed ^ DEDUPE_SALT, b);
		uint64_t w = b < DEDUPE_WINDOW ? b : DEDUPE_WINDOW;

		if (x % 100 >= f->spec.pct)
			break;
		b -= 1 + (x >> 32) % w;
	}
	return b;
}

static const void *dedupe_at(struct fill *f, uint64_t off, size_t len,
			     uint32_t gen)
{
	uint64_t key = stamp_key(f, gen);
	uint64_t boff = off - off % FILL_BLOCK;
	unsigned char *q = f->out;

	for (; boff < off + len; boff += FILL_BLOCK, q += FILL_BLOCK) {
		uint64_t src = dedupe_root(f, boff / FILL_BLOCK);

		memcpy(q, f->pool + src * FILL_BLOCK % FILL_POOL, FILL_BLOCK);
		stamp_block(f, q, src, key);
	}
	return f->out + off % FILL_BLOCK;
}

const void *fill_at(struct fill *f, uint64_t off, size_t len, uint32_t gen)
{
	size_t at = (size_t)(off % FILL_POOL);
	unsigned char *q = f->pool + at - off % FILL_BLOCK;
	uint64_t boff = off - off % FILL_BLOCK;
	uint64_t key;

	if (len > f->max_len) {
		errno = EINVAL;
		return NULL;
	}
	if (f->spec.mode == FILL_DEDUPE)
		return dedupe_at(f, off, len, gen);
	/* Zeros: nothing to mark, and every write from the pool's start,
	 * so that the copy reads from a few cache-hot lines rather than
	 * walking the whole pool (a plain 8 KiB write loop on tmpfs
	 * lost 1.4% reading from 1 MiB rather than from one buffer). */
	if (f->nstamp == 0 && !f->verify)
		return f->pool + off % FILL_BLOCK;
	/* Whole blocks, even at the ends: a header's CRC covers all of
	 * its block, and the pool has room past either end. */
	key = stamp_key(f, gen);
	for (; boff < off + len; boff += FILL_BLOCK, q += FILL_BLOCK)
		mark_block(f, q, boff, boff / FILL_BLOCK, key, gen);
	return f->pool + at;
}

void fill_into(struct fill *f, void *buf, uint64_t off, size_t len,
	       uint32_t gen)
{
	unsigned char *p = buf;

	while (len > 0) {
		size_t n = len < f->max_len ? len : f->max_len;

		memcpy(p, fill_at(f, off, n, gen), n);
		p += n;
		off += n;
		len -= n;
	}
}

void fill_remark(struct fill *f, void *buf, uint64_t off, size_t len,
		 uint32_t gen)
{
	unsigned char *p = buf;
	uint64_t key = stamp_key(f, gen);
	uint64_t boff = off - off % FILL_BLOCK;
	unsigned char tmp[FILL_BLOCK];

	for (; boff < off + len; boff += FILL_BLOCK) {
		uint64_t src = boff / FILL_BLOCK;
		uint64_t lo = boff > off ? boff : off;
		uint64_t hi = boff + FILL_BLOCK < off + len ? boff + FILL_BLOCK
							    : off + len;

		if (f->spec.mode == FILL_DEDUPE)
			src = dedupe_root(f, src);
		if (lo == boff && hi == boff + FILL_BLOCK) {
			mark_block(f, p + (boff - off), boff, src, key, gen);
			continue;
		}
		/* A block cut by buf's ends: stamp a copy of the part
		 * inside and put the part back. */
		memset(tmp, 0, sizeof(tmp));
		memcpy(tmp + (lo - boff), p + (lo - off), (size_t)(hi - lo));
		stamp_block(f, tmp, src, key);
		memcpy(p + (lo - off), tmp + (lo - boff), (size_t)(hi - lo));
	}
}
