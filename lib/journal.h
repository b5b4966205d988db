/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal: a record of every write clyde makes to a data file and of
 * when the storage acknowledged it, so that after a power cut a
 * verify-only pass can tell a write the storage acknowledged and then
 * lost (a failure) from one still in flight at the cut (old or new
 * content, or a torn block, allowed).
 *
 * Every write has its own generation (lib/fill.h's gen, from 1): gens
 * grow with submission order, and overlapping writes are never in
 * flight together, except buffered writes awaiting one fsync.
 *
 * The file, integers little-endian. The header, 64 bytes at offset 0:
 *
 *     0  magic         8  "CLYDJRN1"
 *     8  header length 4  64
 *    12  block size    4  4096 (FILL_BLOCK: the unit judged)
 *    16  run seed      8  the run's seed
 *    24  content seed  8  the seed in the data file's block headers
 *    32  file size     8  the data file's size in bytes; every record
 *                         lies inside it
 *    40  created       8  creation time, unix ns
 *    48  name         12  the data file's basename, NUL padded,
 *                         truncated (no NUL when 12 long)
 *    60  crc           4  CRC-32 (fill_crc32) of bytes 0 to 59
 *
 * The 64 bytes leave 12 for the name, not 16: a longer header is a new
 * header length, which a reader refuses rather than misreads.
 *
 * Then records, 32 bytes each, from offset 64:
 *
 *     0  type          1  'I', 'A', 'S' or 'E' (enum jrnl_type)
 *     1  reserved      3  zero
 *     4  gen           4  the write's generation
 *     8  off           8  the write's offset in the data file, bytes
 *    16  len           8  its length, bytes
 *    24  index         4  the record's number (0, 1, 2, ...; low 32 bits)
 *    28  crc           4  CRC-32 of bytes 0 to 27
 *
 * The journal ends at its first all-zero record (a record's type is
 * never zero), or at the end of the file. The writer grows the file in
 * zeroed chunks, so a killed writer's journal ends in zeros; a cleanly
 * closed one is cut to its last record.
 */
#ifndef CLYDE_JOURNAL_H
#define CLYDE_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#define JRNL_MAGIC "CLYDJRN1"
#define JRNL_HEAD  64u
#define JRNL_REC   32u
#define JRNL_BLOCK 4096u
#define JRNL_NAME  12u

enum jrnl_type {
	/* Write gen covering [off, off + len) submitted: stored before
	 * the write goes out. */
	JR_INTENT = 'I',
	/* Write gen acknowledged (off and len repeated). */
	JR_ACK = 'A',
	/* Every intent with a gen <= this gen is acknowledged (an fsync
	 * covered them); off and len 0. */
	JR_SYNC = 'S',
	/* The run ended cleanly; gen the last gen. */
	JR_END = 'E',
};

/* The header's fields a caller chooses (length and block size are
 * fixed). */
struct jrnl_head {
	uint64_t run_seed, content_seed;
	uint64_t file_size;	  /* bytes */
	uint64_t created_ns;	  /* unix ns; jrnl_create: 0 for now */
	char name[JRNL_NAME + 1]; /* jrnl_head_name */
};

/* h's name from the data file's path: its basename, cut to 12 bytes. */
void jrnl_head_name(struct jrnl_head *h, const char *path);

/* One record, decoded. */
struct jrnl_rec {
	uint64_t off, len;
	uint32_t gen, index;
	char type; /* enum jrnl_type */
};

/* The 32 bytes of a record as the writer stores them, CRC included
 * (tests build journals of their own with it). */
void jrnl_rec_pack(unsigned char *out, char type, uint32_t gen, uint64_t off,
		   uint64_t len, uint32_t index);

/*
 * The writer.
 */
struct jrnl; /* opaque */

/*
 * Create the journal at path (O_CREAT | O_EXCL, 0644: an existing file
 * is refused, "exists; a journal is never overwritten") with header h,
 * durable (file and directory entry synced) before it returns. NULL
 * with why one phrase, the file removed when it was made.
 */
struct jrnl *jrnl_create(const char *path, const struct jrnl_head *h, char *why,
			 size_t whylen);

/*
 * Records. Each is a few stores into the mapped file, no system call
 * but when a chunk is full. 0, or -errno: -EINVAL for gen 0 or a range
 * that is empty or leaves the data file, -ENOSPC and the like when the
 * file cannot grow (nothing recorded then).
 */
int jrnl_intent(struct jrnl *j, uint32_t gen, uint64_t off, uint64_t len);
int jrnl_ack(struct jrnl *j, uint32_t gen, uint64_t off, uint64_t len);
int jrnl_sync_through(struct jrnl *j, uint32_t gen);

/*
 * msync of the records written since the last waited flush: MS_SYNC
 * when wait (they are durable when it returns: a caller makes intents
 * durable before it submits their writes, when it must), else MS_ASYNC
 * (writeback started, nothing promised). 0 or -errno.
 */
int jrnl_flush(struct jrnl *j, int wait);

/*
 * Close and free j. clean: an 'E' record, a waited flush, the file cut
 * to its header and records and fsynced. Not clean (a fatal error's
 * path): a waited flush only, the size left. 0 or the first -errno.
 */
int jrnl_close(struct jrnl *j, int clean);

/*
 * The reader.
 */
struct jrnl_view {
	struct jrnl_head head;
	struct jrnl_rec *recs; /* malloc'd: jrnl_view_free */
	size_t nrecs;
	int clean;	   /* an 'E' record ends it */
	uint32_t last_gen; /* the highest gen of any record; 0: none */
	/* Records dropped as the torn tail a cut left (the first one not
	 * whole, or after zeros, and the rest); 0: none. */
	uint64_t torn;
};

/*
 * Read and check the journal at path (opened read-only, plain read()).
 * 0 with *v filled, or -1 with why one phrase: "truncated: N bytes,
 * shorter than the 64-byte header", "not a clyde journal", "header: bad
 * CRC", "header length N, expected 64", "block size N, expected 4096",
 * "truncated inside record N" (the file ends inside a record and no
 * zero record came before), "record N at byte B: bad CRC", "...: out of
 * order" (its index is not N), "...: unknown type 0xXX", "...:
 * generation 0", "...: range beyond the data file's N bytes", "record N
 * after the journal's end" (after 'E'). A record not whole (bad CRC, out
 * of order) or after zeros, with no whole record more than 256 records
 * past it, is the torn tail of a writer cut while it wrote: the records
 * from it are dropped and counted in v->torn. With whole records further
 * on, it is damage no cut makes: "record N at byte B: bad CRC, with
 * whole records after it (record M)".
 */
int jrnl_read(const char *path, struct jrnl_view *v, char *why, size_t whylen);
void jrnl_view_free(struct jrnl_view *v);

/*
 * The verdict on one 4 KiB block of the data file, against what the
 * journal says of it. "Acknowledged gen": the highest gen of an 'A'
 * covering the block, or of an 'I' covering it with a gen <= that of an
 * 'S' after it. "In flight": the block is covered by an intent that
 * nothing acknowledged. "Sound": the block's header and CRC are valid
 * and its offset and seed right.
 */
enum jrnl_verdict {
	JV_INTACT,	 /* sound, gen the acknowledged gen; not in flight */
	JV_LOST,	 /* sound, older than the acknowledged gen: FAIL */
	JV_INFLIGHT_OLD, /* in flight, sound, the acknowledged gen (or,
			    none acknowledged, older than the flight) */
	JV_INFLIGHT_NEW, /* sound, a gen in flight, or any gen newer than
			    the acknowledged one (lenient: a write whose
			    intent was lost with the journal's tail) */
	JV_TORN,	 /* not sound, in flight: allowed, counted */
	JV_CORRUPT,	 /* not sound, not in flight: FAIL */
	JV_UNWRITTEN,	 /* no record covers it: anything goes */
	JV_COUNT
};

/* "intact", "lost", "in-flight-old", ...: a word for tables. */
const char *jrnl_verdict_name(enum jrnl_verdict v);
/* One line for messages, e.g. "the storage acknowledged a write it did
 * not keep". */
const char *jrnl_verdict_text(enum jrnl_verdict v);
/* 1 for the verdicts that fail a verify (JV_LOST, JV_CORRUPT). */
int jrnl_verdict_fails(enum jrnl_verdict v);

/* Per block: 12 bytes, whatever the number of records. */
struct jrnl_map;

/* The map of v's data file, or NULL without memory. */
struct jrnl_map *jrnl_map_new(const struct jrnl_view *v);
void jrnl_map_free(struct jrnl_map *m);
/* The data file's blocks the map holds. */
uint64_t jrnl_map_blocks(const struct jrnl_map *m);
/*
 * What the map says of block: its acknowledged gen (0: none) and the
 * gens [lo, hi] of the intents in flight over it (0, 0: none). 0, or -1
 * when no record covers it (or it lies past the file).
 */
int jrnl_map_block(const struct jrnl_map *m, uint64_t block, uint32_t *acked,
		   uint32_t *lo, uint32_t *hi);

/* The verdict on block (its number, offset / 4096) read back with
 * header and CRC sound or not, and, when sound, generation gen. */
enum jrnl_verdict jrnl_judge(const struct jrnl_map *m, uint64_t block,
			     int sound, uint32_t gen);

/*
 * The verdict on a block past the data file's end (a cut while the file
 * was being made, before it reached its size): what was acknowledged
 * there is lost; under a write in flight with nothing acknowledged
 * before it, the old content (none) is allowed; no record, unwritten.
 */
enum jrnl_verdict jrnl_judge_missing(const struct jrnl_map *m, uint64_t block);

/* Counts per verdict, and the offsets of the first JRNL_TALLY_FIRST of
 * each, to name in a message. */
#define JRNL_TALLY_FIRST 8u
struct jrnl_tally {
	uint64_t n[JV_COUNT];
	uint64_t first[JV_COUNT][JRNL_TALLY_FIRST]; /* min(n, 8) kept */
};

/* Count verdict v of the block at byte offset off (t zeroed first). */
void jrnl_tally_add(struct jrnl_tally *t, enum jrnl_verdict v, uint64_t off);

#endif
