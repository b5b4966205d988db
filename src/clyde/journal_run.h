/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal_run: --journal=FILE in a run, the side of lib/journal that the
 * phases call. One journal follows one data file (one worker, one
 * target, one run: options_journal.c refuses the rest).
 *
 * Under a journal every write to the data file has a generation of its
 * own, so that a write the storage dropped leaves a block older than
 * the journal says, which a read can see: block output, per-char output,
 * the rewrite and the precondition take one generation for the whole
 * file each (they write every block once), every write of ran_write,
 * ran_mix and sync_write takes the next. The whole-file generations are
 * the data file's usual ones (PHASE_GEN_WRITE, PHASE_GEN_REWRITE), and
 * a write's begin at JRUN_FIRST_GEN, above them: generations then grow
 * with submission order, as lib/journal's verdict needs.
 *
 * What a write does, in order:
 *   jrun_intent      before it goes out (a record; jrun_send makes the
 *                    records durable before the write is submitted, so
 *                    a block torn by a cut is always inside a recorded
 *                    write)
 *   jrun_acked       when it returned on a file opened O_SYNC or
 *                    O_DSYNC: the storage acknowledged it
 *   jrun_written     when a buffered (or O_DIRECT) write returned: not
 *                    yet acknowledged; jrun_synced, after the fsync or
 *                    fdatasync that covers it, acknowledges every write
 *                    up to it.
 * The run also keeps, per 4 KiB block, the generation its last finished
 * write left (jrun_expect): what a read of the block must find.
 */
#ifndef CLYDE_JOURNAL_RUN_H
#define CLYDE_JOURNAL_RUN_H

#include <stddef.h>
#include <stdint.h>

/* The first generation of a single write: above the whole-file ones. */
#define JRUN_FIRST_GEN 16u

struct jrun; /* opaque */

/*
 * The journal at path for a data file of size bytes whose blocks carry
 * content_seed, in run seed run_seed; data_path names the data file in
 * the header. NULL with why (one phrase) when it cannot be made or there
 * is no memory for the block map.
 */
struct jrun *jrun_open(const char *path, const char *data_path, uint64_t size,
		       uint64_t run_seed, uint64_t content_seed, char *why,
		       size_t whylen);

/* The next single write's generation (JRUN_FIRST_GEN, then one more
 * each call). */
uint32_t jrun_next(struct jrun *jr);

/* Write gen over [off, off + len) about to go out. 0 or -errno. */
int jrun_intent(struct jrun *jr, uint32_t gen, uint64_t off, uint64_t len);
/* The intents so far made durable: before the writes are submitted. */
int jrun_send(struct jrun *jr);
/*
 * For the writes of a whole-file phase that no fsync follows one by one
 * (block output without -b, per-char output, the precondition): write
 * gen over [off, off + len) is inside one intent recorded and sent for
 * the window bytes from off (up to the file's end), so that a phase of
 * 8 KiB writes makes one durable record every window, not every write.
 * The sync after the phase then acknowledges them all; a window's bytes
 * never written by then would be acknowledged too, so this is only for
 * phases that write every byte of it before their sync. 0 or -errno.
 */
int jrun_cover(struct jrun *jr, uint32_t gen, uint64_t off, uint64_t len,
	       uint64_t window);
/* Write gen returned, acknowledged (O_SYNC, O_DSYNC). 0 or -errno. */
int jrun_acked(struct jrun *jr, uint32_t gen, uint64_t off, uint64_t len);
/* Write gen returned, not acknowledged yet (buffered, O_DIRECT). */
void jrun_written(struct jrun *jr, uint32_t gen, uint64_t off, uint64_t len);
/* An fsync or fdatasync of the data file returned: every write up to
 * the last one returned is acknowledged. 0 or -errno. */
int jrun_synced(struct jrun *jr);

/* The generation block (offset / 4096) must hold: 0 when no write of
 * this run reached it. */
uint32_t jrun_expect(const struct jrun *jr, uint64_t block);

/* Close: clean (an end record, the file cut to its records) when the
 * run ended without a cut; else the records flushed. 0 or -errno. */
int jrun_close(struct jrun *jr, int clean);

#endif
