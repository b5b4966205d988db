/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkjournal DATA JOURNAL SEED BLOCKS [TWEAK...]: a data file and the
 * journal of its writes as a --journal run would leave them after a cut,
 * made without the run (lib/fill.h for the blocks, lib/journal.h's
 * writer for the journal), so that the check after a cut
 * (t/084-verify-journal.sh) meets cases whose answer is known. Never
 * installed.
 *
 * BLOCKS of 4 KiB (at least 12), content seed fill_worker_seed(SEED, 1)
 * as a run's one worker has (all 64 bits of it used), run seed SEED:
 *
 *   gen 1  blocks 0 to BLOCKS-3, acknowledged    (the block output, a
 *          block at a time)
 *   gen 2  block 3, acknowledged                 (an O_SYNC write)
 *   gen 3  block 5, acknowledged by a sync       (a buffered write)
 *   the last 2 blocks never written (zeros), the journal closed cleanly
 *
 * TWEAKs:
 *   lost          block 3 keeps gen 1: an acknowledged write lost
 *   corrupt       block 2 is garbage: corrupt outside a write in flight
 *   inflight=XYZ  gen 4 over blocks 6 to 8, never acknowledged, the
 *                 journal cut (no end record); per block one letter:
 *                 o (the old gen 1), n (the new gen 4), t (torn: its
 *                 first half gen 4's, the rest gen 1's)
 *   cut           the journal cut (no end record)
 *   size          the journal's header names a file one block larger
 * Exit 0, or 1 (2 for usage) after one line on stderr.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fill.h"
#include "journal.h"

#define B JRNL_BLOCK

struct plan {
	uint64_t seed, blocks;
	int lost, corrupt, cut, size;
	const char *inflight; /* NULL, or a letter per block 6 to 8 */
};

static int die(const char *what, const char *why)
{
	fprintf(stderr, "mkjournal: %s: %s\n", what, why);
	return 1;
}

static int parse(int argc, char **argv, struct plan *p)
{
	char *end;

	memset(p, 0, sizeof(*p));
	if (argc < 5)
		return -1;
	p->seed = strtoull(argv[3], &end, 10);
	if (*end)
		return -1;
	p->blocks = strtoull(argv[4], &end, 10);
	if (*end || p->blocks < 12)
		return -1;
	for (int i = 5; i < argc; i++) {
		const char *t = argv[i];

		if (!strcmp(t, "lost"))
			p->lost = 1;
		else if (!strcmp(t, "corrupt"))
			p->corrupt = 1;
		else if (!strcmp(t, "cut"))
			p->cut = 1;
		else if (!strcmp(t, "size"))
			p->size = 1;
		else if (!strncmp(t, "inflight=", 9) && strlen(t + 9) == 3 &&
			 strspn(t + 9, "ont") == 3)
			p->inflight = t + 9;
		else
			return -1;
	}
	return 0;
}

/* The gen block k holds after the scenario: 0 for zeros (never
 * written), and *torn for a block half of gen 4. */
static uint32_t gen_of(const struct plan *p, uint64_t k, int *torn)
{
	*torn = 0;
	if (k >= p->blocks - 2)
		return 0;
	if (p->inflight && k >= 6 && k <= 8) {
		char c = p->inflight[k - 6];

		*torn = c == 't';
		return c == 'n' ? 4 : 1;
	}
	if (k == 3)
		return p->lost ? 1 : 2;
	return k == 5 ? 3 : 1;
}

/* Block k of the data file into buf. */
static void block_of(const struct plan *p, struct fill *f, unsigned char *buf,
		     uint64_t k)
{
	static unsigned char half[B];
	int torn;
	uint32_t gen = gen_of(p, k, &torn);

	memset(buf, 0, B);
	if (gen)
		fill_into(f, buf, k * B, B, gen);
	if (torn) {
		fill_into(f, half, k * B, B, 4);
		memcpy(buf, half, B / 2);
	}
	if (p->corrupt && k == 2)
		memset(buf, 0xab, B);
}

static int write_data(const char *path, const struct plan *p)
{
	struct fill_spec spec = {.mode = FILL_RANDOM};
	struct fill *f = fill_new(&spec, fill_worker_seed(p->seed, 1),
				  FILL_VERIFY | FILL_JOURNALED, B);
	static unsigned char buf[B];
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	int e = 0;

	if (fd < 0 || !f) {
		e = errno;
		fill_free(f);
		if (fd >= 0)
			close(fd);
		return die(path, strerror(e));
	}
	for (uint64_t k = 0; !e && k < p->blocks; k++) {
		block_of(p, f, buf, k);
		if (pwrite(fd, buf, B, (off_t)(k * B)) != (ssize_t)B)
			e = errno ? errno : EIO;
	}
	fill_free(f);
	if (close(fd) && !e)
		e = errno;
	return e ? die(path, strerror(e)) : 0;
}

/* The records of the scenario: gen 1 a block at a time, as block output
 * with -b records its chunks (two records a block). */
static int records(struct jrnl *j, const struct plan *p)
{
	for (uint64_t b = 0; b < p->blocks - 2; b++)
		if (jrnl_intent(j, 1, b * B, B) || jrnl_ack(j, 1, b * B, B))
			return -1;
	return jrnl_intent(j, 2, 3 * B, B) || jrnl_ack(j, 2, 3 * B, B) ||
	       jrnl_intent(j, 3, 5 * B, B) || jrnl_sync_through(j, 3) ||
	       (p->inflight && jrnl_intent(j, 4, 6 * B, 3 * B));
}

static int write_journal(const char *path, const char *data,
			 const struct plan *p)
{
	struct jrnl_head h = {
	    .run_seed = p->seed,
	    .content_seed = fill_worker_seed(p->seed, 1),
	    .file_size = (p->blocks + (p->size ? 1 : 0)) * B,
	};
	char why[200];
	struct jrnl *j;
	int rc;

	jrnl_head_name(&h, data);
	if (!(j = jrnl_create(path, &h, why, sizeof(why))))
		return die(path, why);
	rc = records(j, p);
	if (jrnl_close(j, !p->cut && !p->inflight) || rc)
		return die(path, "the records could not be written");
	return 0;
}

int main(int argc, char **argv)
{
	struct plan p;

	if (parse(argc, argv, &p)) {
		fprintf(stderr, "usage: mkjournal DATA JOURNAL SEED BLOCKS "
				"[lost|corrupt|cut|size|inflight=XYZ]...\n");
		return 2;
	}
	return write_data(argv[1], &p) || write_journal(argv[2], argv[1], &p);
}
