/* SPDX-License-Identifier: GPL-2.0-or-later */
/* optable_impl: what the engine's files share (see optable.h). */
#ifndef CLYDE_OPTABLE_IMPL_H
#define CLYDE_OPTABLE_IMPL_H

#include "optable.h"

/* At most this many entries in one parser, the engine's own included. */
#define OPT_MAX_ENTRIES 256

/* The engine's own table: --help, --version and --dump-options. */
extern const struct opt_table opt_builtin;

/*
 * A walk over every entry of a parser, table by table, the engine's
 * last: start with {0}; opt_next_entry() sets t, e and index (0, 1, ...
 * over all tables) and returns 1, or 0 after the last.
 */
struct opt_walk {
	int table, i;
	const struct opt_table *t;
	const struct opt *e;
	int index; /* the entry's number: 1 for the first, after the call */
};
int opt_next_entry(struct opt_walk *w, const struct opt_parser *p);

/* Take entry w->e with its value arg (NULL: none) into its field, then
 * the parser's taken hook: 0, -1 after one line on c->err, or 1 when
 * the entry's call said all there was to say (the parse is done). */
int opt_take(struct opt_ctx *c, const struct opt_walk *w, const char *arg);

/* Whether e takes a value (required or optional). */
int opt_has_arg(const struct opt *e);

#endif
