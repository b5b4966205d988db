/*
 * seek: the tickets of the random-seek test. The parent draws one 64-bit
 * ticket per seek from the run's seeded generator and hands them to the
 * seekers through a pipe; a ticket alone says where the seek goes and
 * whether it writes, so the work is the same whichever seeker takes it.
 */
#ifndef CLYDE_SEEK_H
#define CLYDE_SEEK_H

#include <stdint.h>

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
