/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify_journal: --verify-only=DATA --journal=JOURNAL, the check of a
 * data file after a cut against the journal its run left (clyde(1) and
 * lib/journal.h say what an acknowledged write lost is, and what a
 * write in flight may leave).
 */
#ifndef CLYDE_VERIFY_JOURNAL_H
#define CLYDE_VERIFY_JOURNAL_H

#include <stdio.h>

#include "options.h"

/*
 * Read o->verify_only and o->journal (neither ever opened for writing),
 * judge every whole 4 KiB block and print the report on out (on err
 * when the --json document goes to standard output). 0 when no block
 * fails, CLI_EXIT_FAILED when one does or the journal is damaged,
 * CLI_EXIT_USAGE when a file cannot be read as a regular file or the
 * journal is of another data file or run; each refusal one line on err.
 */
int verify_journal(const struct clyde_opts *o, FILE *out, FILE *err);

#endif
