/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seek: the tickets of the random-seek test. The parent makes one ticket
 * per seek from the run's seed and hands them to the seekers through a
 * pipe; a ticket alone says where the seek goes and whether it writes,
 * so the work is the same whichever seeker takes it.
 *
 * The chunks of the first nchunks tickets are a random permutation: no
 * chunk is read twice, so in buffered mode no seek is a page-cache hit
 * on a chunk an earlier seek read (with repeats, 2500 seeks over 512 MiB
 * read about 1% of their chunks from RAM).
 */
#ifndef CLYDE_SEEK_H
#define CLYDE_SEEK_H

#include <stdint.h>

/* A keyed bijection of [0, n): k's place in a shuffled order of n. */
uint64_t seek_perm(uint64_t k, uint64_t n, uint64_t key);

/* Ticket k of a run with this seed over nchunks chunks. */
uint64_t seek_ticket(uint64_t seed, uint64_t k, uint64_t nchunks);

/* One seek in ten rewrites the chunk it read (bonnie++'s rule). */
static inline int seek_ticket_writes(uint64_t ticket)
{
	return ticket % 10 == 0;
}

/* The chunk a ticket reads; independent of the write decision. */
static inline uint64_t seek_ticket_chunk(uint64_t ticket, uint64_t nchunks)
{
	return (ticket / 10) % nchunks;
}

#endif
