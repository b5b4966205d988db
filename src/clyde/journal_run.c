/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal_run: see journal_run.h. The records go to lib/journal; the
 * block map is the run's own, a generation (4 bytes) per 4 KiB block.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "fill.h"
#include "journal.h"
#include "journal_run.h"

struct jrun {
	struct jrnl *j;
	uint32_t next;	  /* the next single write's generation */
	uint32_t pending; /* the last write returned, not acknowledged: 0
			   * none */
	int unsent;	  /* intents recorded since the last jrun_send */
	/* The last jrun_cover intent: gen over [cover_off, cover_end). */
	uint32_t cover_gen;
	uint64_t cover_off, cover_end, size;
	uint64_t nblocks;
	uint32_t *gens; /* per block: what its last finished write left */
};

struct jrun *jrun_open(const char *path, const char *data_path, uint64_t size,
		       uint64_t run_seed, uint64_t content_seed, char *why,
		       size_t whylen)
{
	struct jrnl_head h = {.run_seed = run_seed,
			      .content_seed = content_seed,
			      .file_size = size};
	struct jrun *jr = calloc(1, sizeof(*jr));

	jrnl_head_name(&h, data_path);
	if (jr) {
		jr->nblocks = (size + FILL_BLOCK - 1) / FILL_BLOCK;
		jr->gens =
		    calloc(jr->nblocks ? jr->nblocks : 1, sizeof(*jr->gens));
	}
	if (!jr || !jr->gens) {
		snprintf(why, whylen, "no memory for a map of its %llu blocks",
			 (unsigned long long)(size / FILL_BLOCK));
		free(jr);
		return NULL;
	}
	jr->next = JRUN_FIRST_GEN;
	jr->size = size;
	if (!(jr->j = jrnl_create(path, &h, why, whylen))) {
		free(jr->gens);
		free(jr);
		return NULL;
	}
	return jr;
}

uint32_t jrun_next(struct jrun *jr)
{
	return jr->next++;
}

int jrun_intent(struct jrun *jr, uint32_t gen, uint64_t off, uint64_t len)
{
	jr->unsent = 1;
	return jrnl_intent(jr->j, gen, off, len);
}

int jrun_send(struct jrun *jr)
{
	if (!jr->unsent)
		return 0;
	jr->unsent = 0;
	/* Waited: also makes the acknowledgements before it durable. */
	return jrnl_flush(jr->j, 1);
}

int jrun_cover(struct jrun *jr, uint32_t gen, uint64_t off, uint64_t len,
	       uint64_t window)
{
	uint64_t end = off + (len > window ? len : window);
	int rc;

	if (gen == jr->cover_gen && off >= jr->cover_off &&
	    off + len <= jr->cover_end)
		return 0;
	if (end > jr->size)
		end = jr->size;
	if ((rc = jrun_intent(jr, gen, off, end - off)) != 0)
		return rc;
	jr->cover_gen = gen;
	jr->cover_off = off;
	jr->cover_end = end;
	return jrun_send(jr);
}

/* The blocks of [off, off + len) hold gen now. */
static void map_set(struct jrun *jr, uint32_t gen, uint64_t off, uint64_t len)
{
	uint64_t b = off / FILL_BLOCK,
		 end = (off + len + FILL_BLOCK - 1) / FILL_BLOCK;

	for (; b < end && b < jr->nblocks; b++)
		jr->gens[b] = gen;
}

int jrun_acked(struct jrun *jr, uint32_t gen, uint64_t off, uint64_t len)
{
	map_set(jr, gen, off, len);
	return jrnl_ack(jr->j, gen, off, len);
}

void jrun_written(struct jrun *jr, uint32_t gen, uint64_t off, uint64_t len)
{
	map_set(jr, gen, off, len);
	if (gen > jr->pending)
		jr->pending = gen;
}

int jrun_synced(struct jrun *jr)
{
	uint32_t g = jr->pending;

	if (!g)
		return 0;
	jr->pending = 0;
	return jrnl_sync_through(jr->j, g);
}

uint32_t jrun_expect(const struct jrun *jr, uint64_t block)
{
	return block < jr->nblocks ? jr->gens[block] : 0;
}

int jrun_close(struct jrun *jr, int clean)
{
	int rc;

	if (!jr)
		return 0;
	rc = jrnl_close(jr->j, clean);
	free(jr->gens);
	free(jr);
	return rc;
}
