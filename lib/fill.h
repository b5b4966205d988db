/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fill: the one place write buffers get their content, so that the
 * phases never decide what goes on the device. A data mode (struct
 * fill_spec) says what the bytes look like to a compressing or
 * deduplicating layer; with verify on, every 4 KiB block also carries a
 * header and a CRC, so that what is read back can be checked and a bad
 * block named (corrupt, misplaced, lost, another run's).
 *
 * The content of a byte is a function of (seed, spec, verify, stream
 * offset, generation) alone, whatever the calls that asked for it, so a
 * per-char writer and a chunk writer put the same file on the device.
 * A generation counts the rewrites of a stream: 1 for the first write,
 * 2 after one rewrite, ...
 *
 * The older helpers fill_random, fill_stamp and fill_compress_ratio
 * stay for the programs that fill their own buffer (zcav, sweep).
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

/* The unit of content and of verification, aligned to stream offset 0. */
#define FILL_BLOCK 4096u
/* The unit within which random content never repeats. */
#define FILL_SECTOR 512u

/*
 * FILL_RANDOM: incompressible, and no 512-byte sector of a stream equals
 * another (each starts with an 8-byte hash of seed, offset, generation).
 * FILL_ZERO: zero bytes. FILL_COMPRESS: each 4 KiB block deflates
 * (zlib, any level) to about pct% of its size: a random head, then
 * zeros. FILL_DEDUPE: about pct% of 4 KiB blocks, chosen by a hash of
 * seed and block number, are copies of an earlier block of the stream
 * (within the preceding 1 GiB); the others are unique random blocks.
 */
enum fill_mode { FILL_RANDOM, FILL_ZERO, FILL_COMPRESS, FILL_DEDUPE };

struct fill_spec {
	enum fill_mode mode;
	unsigned pct; /* FILL_COMPRESS, FILL_DEDUPE: 1..99; else 0 */
};

/*
 * "random", "zero", "compress:PCT" or "dedupe:PCT" (PCT a whole number
 * from 1 to 99) into *out: 0, or -1 with why (whylen bytes, may be 0)
 * one phrase saying what is wrong with it, e.g. "PCT must be a whole
 * number from 1 to 99" (the caller's message names arg).
 */
int fill_parse(const char *arg, struct fill_spec *out, char *why,
	       size_t whylen);
/* The spec as fill_parse takes it: "compress:50". */
void fill_spec_text(const struct fill_spec *s, char *buf, size_t len);

/*
 * The block header, with verify on, in the first 32 bytes of every 4 KiB
 * block, and its CRC in the last 4; integers little-endian:
 *
 *     0  magic     4  "CLYD" (0x44594c43)
 *     4  flags     4  FILL_HDR_JOURNALED, else zero
 *     8  offset    8  the block's stream offset
 *    16  seed      8  the run's seed
 *    24  gen       4  the generation that wrote it
 *    28  mode      1  enum fill_mode
 *    29  pct       1  the spec's pct
 *    30  reserved  2  zero
 *  4092  crc       4  CRC-32 (zlib's crc32, the gzip polynomial, initial
 *                     value 0) of the block's bytes 0 to 4091
 *
 * A CRC at the end makes the CRC of every sound block, CRC included, one
 * constant, and of n sound blocks in a row another: a read of many
 * blocks is checked with one CRC call over all of it (a call per block
 * cost block input 3 points more on tmpfs), and only a read that fails
 * it is searched block by block.
 *
 * Dedupe cannot be verified (a block that repeats another cannot carry
 * its own offset): fill_new refuses the pair. Under compress:PCT the
 * header sits in the block's random head, the CRC in its zero tail.
 */
#define FILL_HEADER 32u
#define FILL_MAGIC  0x44594c43u

/*
 * The header's flag of a block written under a write journal: its
 * generations are the journal's (a write each), which only the journal
 * can judge, so a check without it must refuse rather than call older
 * blocks lost.
 */
#define FILL_HDR_JOURNALED 0x1u

/* fill_new's verify: FILL_VERIFY, with FILL_JOURNALED to flag every
 * header FILL_HDR_JOURNALED. */
#define FILL_VERIFY    0x1
#define FILL_JOURNALED 0x2

struct fill; /* opaque: the content pool of one writer */

/*
 * The seed of the content of worker n (1, 2, ...: its place among all
 * the run's workers) of a run with seed seed: the same seed would give
 * every worker's file the same blocks, which an array would deduplicate
 * across them. Distinct for every n (the multiplier is odd).
 */
static inline uint64_t fill_worker_seed(uint64_t seed, unsigned n)
{
	return seed ^ (uint64_t)n * 0x9e3779b97f4a7c15ull;
}

/*
 * A writer's content: spec, the run's seed, verify (FILL_VERIFY: every
 * 4 KiB block carries a header and CRC; | FILL_JOURNALED), max_len (the largest
 * len any fill_at will ask). NULL with errno ENOMEM, or EINVAL for dedupe with
 * verify, a bad spec or max_len 0.
 */
struct fill *fill_new(const struct fill_spec *spec, uint64_t seed, int verify,
		      size_t max_len);
void fill_free(struct fill *f);

/*
 * The content of len bytes (at most max_len) at stream offset off for
 * generation gen: a pointer into f (4096-aligned when off is), valid
 * until the next fill_at or fill_into on f; the caller must not write
 * through it. off and len need not be block aligned. NULL with errno
 * EINVAL when len > max_len. In random mode it costs the sector stamps
 * only (the bytes come from a pool made once); with verify, a CRC of
 * every block touched.
 */
const void *fill_at(struct fill *f, uint64_t off, size_t len, uint32_t gen);
/* The same content copied into buf; len may exceed max_len. */
void fill_into(struct fill *f, void *buf, uint64_t off, size_t len,
	       uint32_t gen);

/*
 * Re-mark buf (len bytes read back from stream offset off, to be written
 * there again) as generation gen: sector stamps rewritten, and with
 * verify each whole block's header and CRC; every other byte of buf is
 * kept, so a rewrite that changed a byte still verifies. A block only
 * partly inside buf gets its stamps but no header (its CRC needs the
 * whole block): with verify, rewrite in whole blocks.
 */
void fill_remark(struct fill *f, void *buf, uint64_t off, size_t len,
		 uint32_t gen);

enum fill_fault {
	FILL_OK,
	FILL_CORRUPT,	/* bad magic or CRC: want, got the magic or CRC */
	FILL_MISPLACED, /* the header's offset is another block's */
	FILL_LOST,	/* an older generation than expected */
	FILL_FOREIGN,	/* another run's seed */
	FILL_NEWER,	/* a later generation than expected */
};

struct fill_bad {
	enum fill_fault fault;
	uint64_t off;	    /* the block's stream offset */
	uint64_t want, got; /* CRCs, magics, offsets, seeds or generations */
	int bad_magic;	    /* FILL_CORRUPT: 1 the magic, 0 the CRC */
};

/*
 * Check every whole 4 KiB block of buf (len bytes read from stream
 * offset off) against generation gen: FILL_OK, or the fault of the first
 * bad block, described in *bad (may be NULL). Blocks only partly inside
 * [off, off + len) are skipped. The tests, in order: magic and CRC
 * (corrupt), seed (foreign), offset (misplaced), generation (lost,
 * newer). Without verify there is nothing to check: FILL_OK.
 */
enum fill_fault fill_check(const struct fill *f, const void *buf, uint64_t off,
			   size_t len, uint32_t gen, struct fill_bad *bad);
/*
 * One phrase for a message, e.g. "block at offset 8192 is generation 1,
 * expected 2 (lost write)".
 */
void fill_bad_text(const struct fill_bad *bad, char *buf, size_t len);

/*
 * For a verify-only pass over a file an earlier run wrote: the header of
 * the FILL_BLOCK bytes at block, without knowing the seed. 0 and the
 * fields (any pointer may be NULL), or -1 when the block has no valid
 * header (magic, CRC or mode wrong).
 */
int fill_header_read(const void *block, uint64_t *off, uint64_t *seed,
		     uint32_t *gen, struct fill_spec *spec);

/* The header flags of a block fill_header_read found valid
 * (FILL_HDR_JOURNALED). */
uint32_t fill_header_flags(const void *block);

/*
 * CRC-32 as zlib's crc32(crc, buf, len) computes it (chainable, 0 to
 * start), through ISA-L when configure found it: the same values.
 */
uint32_t fill_crc32(uint32_t crc, const void *buf, size_t len);

#endif
