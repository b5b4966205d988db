/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fill_check: reading the block headers back (see fill.h). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "fill.h"
#include "fill_impl.h"

/* The first fault of one whole block at boff, into *bad. */
static enum fill_fault check_block(const struct fill *f,
				   const unsigned char *blk, uint64_t boff,
				   uint32_t gen, struct fill_bad *bad)
{
	uint32_t magic = fill_get_le32(blk);
	uint32_t crc = fill_get_le32(blk + FILL_CRC_AT);
	uint64_t hseed = fill_get_le64(blk + 16);
	uint64_t hoff = fill_get_le64(blk + 8);
	uint32_t hgen = fill_get_le32(blk + 24);
	uint32_t want_crc;

	bad->off = boff;
	bad->bad_magic = 0;
	if (magic != FILL_MAGIC) {
		bad->bad_magic = 1;
		bad->want = FILL_MAGIC;
		bad->got = magic;
		return bad->fault = FILL_CORRUPT;
	}
	want_crc = fill_block_crc(blk);
	if (crc != want_crc) {
		bad->want = want_crc;
		bad->got = crc;
		return bad->fault = FILL_CORRUPT;
	}
	/* A sound block: now whether it is the one that belongs here. */
	bad->want = f->seed;
	bad->got = hseed;
	if (hseed != f->seed)
		return bad->fault = FILL_FOREIGN;
	bad->want = boff;
	bad->got = hoff;
	if (hoff != boff)
		return bad->fault = FILL_MISPLACED;
	bad->want = gen;
	bad->got = hgen;
	if (hgen < gen)
		return bad->fault = FILL_LOST;
	if (hgen > gen)
		return bad->fault = FILL_NEWER;
	return bad->fault = FILL_OK;
}

/*
 * 1 when the n (1..FILL_RUN) whole blocks at blk, the first at boff, are
 * all sound and in place: one CRC over them all, then their headers.
 * 0 says only that some block is not; check_block finds which.
 */
static int run_sound(const struct fill *f, const unsigned char *blk,
		     uint64_t boff, size_t n, uint32_t gen)
{
	if (fill_crc32(0, blk, n * FILL_BLOCK) != f->run_crc[n])
		return 0;
	for (size_t b = 0; b < n; b++, blk += FILL_BLOCK, boff += FILL_BLOCK)
		if (fill_get_le32(blk) != FILL_MAGIC ||
		    fill_get_le64(blk + 8) != boff ||
		    fill_get_le64(blk + 16) != f->seed ||
		    fill_get_le32(blk + 24) != gen)
			return 0;
	return 1;
}

enum fill_fault fill_check(const struct fill *f, const void *buf, uint64_t off,
			   size_t len, uint32_t gen, struct fill_bad *bad)
{
	const unsigned char *p = buf;
	struct fill_bad spare;
	/* The first block wholly inside, relative to buf. */
	size_t i = (size_t)((FILL_BLOCK - off % FILL_BLOCK) % FILL_BLOCK);

	if (!bad)
		bad = &spare;
	bad->fault = FILL_OK;
	if (!f->verify)
		return FILL_OK;
	while (i + FILL_BLOCK <= len && i + FILL_BLOCK > i) {
		size_t n = (len - i) / FILL_BLOCK;

		if (n > FILL_RUN)
			n = FILL_RUN;
		if (!run_sound(f, p + i, off + i, n, gen))
			for (size_t b = 0; b < n; b++)
				if (check_block(f, p + i + b * FILL_BLOCK,
						off + i + b * FILL_BLOCK, gen,
						bad) != FILL_OK)
					return bad->fault;
		i += n * FILL_BLOCK;
	}
	return FILL_OK;
}

void fill_bad_text(const struct fill_bad *bad, char *buf, size_t len)
{
	uint64_t o = bad->off;

	switch (bad->fault) {
	case FILL_OK:
		snprintf(buf, len, "block at offset %" PRIu64 ": sound", o);
		break;
	case FILL_CORRUPT:
		snprintf(buf, len,
			 "block at offset %" PRIu64
			 ": bad %s (corrupt data): expected 0x%08" PRIx64
			 ", found 0x%08" PRIx64,
			 o, bad->bad_magic ? "magic" : "CRC", bad->want,
			 bad->got);
		break;
	case FILL_MISPLACED:
		snprintf(buf, len,
			 "block at offset %" PRIu64
			 " holds the block of offset "
			 "%" PRIu64 " (misplaced write)",
			 o, bad->got);
		break;
	case FILL_LOST:
	case FILL_NEWER:
		snprintf(buf, len,
			 "block at offset %" PRIu64 " is generation %" PRIu64
			 ", expected %" PRIu64 " (%s)",
			 o, bad->got, bad->want,
			 bad->fault == FILL_LOST ? "lost write"
						 : "newer than this run wrote");
		break;
	case FILL_FOREIGN:
		snprintf(buf, len,
			 "block at offset %" PRIu64 " belongs to another run "
			 "(seed 0x%" PRIx64 ", expected 0x%" PRIx64 ")",
			 o, bad->got, bad->want);
		break;
	default:
		snprintf(buf, len, "block at offset %" PRIu64 ": fault %d", o,
			 (int)bad->fault);
	}
}

int fill_header_read(const void *block, uint64_t *off, uint64_t *seed,
		     uint32_t *gen, struct fill_spec *spec)
{
	const unsigned char *b = block;
	unsigned mode = b[28], pct = b[29];
	int pct_mode = mode == FILL_COMPRESS || mode == FILL_DEDUPE;

	if (fill_get_le32(b) != FILL_MAGIC ||
	    fill_get_le32(b + FILL_CRC_AT) != fill_block_crc(b))
		return -1;
	/* A CRC that matches by chance over a bad mode is still no
	 * header clyde wrote. */
	if (mode > FILL_DEDUPE || (pct_mode && (pct < 1 || pct > 99)) ||
	    (!pct_mode && pct != 0))
		return -1;
	if (off)
		*off = fill_get_le64(b + 8);
	if (seed)
		*seed = fill_get_le64(b + 16);
	if (gen)
		*gen = fill_get_le32(b + 24);
	if (spec) {
		spec->mode = (enum fill_mode)mode;
		spec->pct = pct;
	}
	return 0;
}

uint32_t fill_header_flags(const void *block)
{
	return fill_get_le32((const unsigned char *)block + 4);
}
