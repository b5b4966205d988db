/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * quoted: text between quote characters, the quote doubled inside, as
 * both CSV ('"') and gnuplot ('\'') want a string that may hold
 * anything.
 */
#ifndef CLYDE_QUOTED_H
#define CLYDE_QUOTED_H

#include <stdio.h>

/* s on f between two q, each q in s written twice. */
void quoted_put(FILE *f, const char *s, char q);

#endif
