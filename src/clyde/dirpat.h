/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dirpat: clyde's -d under mpirun is a pattern each rank expands for
 * itself: %r its rank, %h its host's short name (up to the first dot),
 * %% a percent sign. Any other % is refused, so a typing error is not
 * taken as a directory name. Outside mpirun -d keeps its bytes as
 * given (no expansion): a % there is a percent sign.
 */
#ifndef CLYDE_DIRPAT_H
#define CLYDE_DIRPAT_H

#include <stddef.h>

/*
 * pat with rank and host put in, into out (len bytes). 0, or -1 with why
 * (whylen bytes) saying what is wrong: an unknown %x, a % at the end, a
 * result longer than len.
 */
int dirpat_expand(const char *pat, int rank, const char *host, char *out,
		  size_t len, char *why, size_t whylen);

/* Whether pat names a directory per rank or per host (%r or %h). */
int dirpat_per_rank(const char *pat);

#endif
