/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options_impl: what the parts of clyde's parser share (options.c: the
 * parse and the checks of the whole, options_table.c: the run's table,
 * options_values.c: the values with a form of their own,
 * options_modes.c: the values that pick a mode, options_lockstep.c: -p,
 * -y and the timeouts, options_steady.c: --steady and its rounds,
 * options_journal.c:
 * --journal and --until-killed).
 * Nothing else includes it: the interface is
 * options.h.
 */
#ifndef CLYDE_OPTIONS_IMPL_H
#define CLYDE_OPTIONS_IMPL_H

#include <stddef.h>

#include "optable.h"
#include "options.h"

/*
 * The parse under way, the base of the run's table: the options, and
 * what was given as given for the checks of combinations.
 */
struct opts_parse {
	struct clyde_opts o;
	const char *f_size;		/* -f SIZE */
	const char *only;		/* --only=TESTS */
	int ram_set;			/* -r given */
	const char *round, *steady_max; /* --round, --steady-max as given */
};

/* The field of struct clyde_opts in the run table's base. */
#define OPTS_F(field) offsetof(struct opts_parse, o.field)

/* The run's own table (options_table.c), and the parser's about and
 * epilogue. */
extern const struct opt_table opts_run_table;
extern const char opts_about[], opts_epilogue[];

/* The run's table base as a handler sees it. */
static inline struct opts_parse *opts_state(const struct opt_ctx *c)
{
	return c->parse_base;
}

/* The handlers of the run's table: 0, or -1 after one line; -h and -V
 * 1 (done). */
int opts_take_size(struct opt_ctx *c, const char *arg);	       /* -s */
int opts_take_files(struct opt_ctx *c, const char *arg);       /* -n */
int opts_take_only(struct opt_ctx *c, const char *arg);	       /* --only */
int opts_take_dir(struct opt_ctx *c, const char *arg);	       /* -d */
int opts_take_concurrency(struct opt_ctx *c, const char *arg); /* -c */
int opts_take_name(struct opt_ctx *c, const char *arg);	       /* -m */
int opts_take_ram(struct opt_ctx *c, const char *arg);	       /* -r */
int opts_take_repeats(struct opt_ctx *c, const char *arg);     /* -x */
int opts_take_fast(struct opt_ctx *c, const char *arg);	       /* -f */
int opts_take_random_file(struct opt_ctx *c, const char *arg); /* -Z */
int opts_take_csv(struct opt_ctx *c, const char *arg);	       /* --csv */
int opts_take_format(struct opt_ctx *c, const char *arg);      /* --format */
int opts_take_progress(struct opt_ctx *c, const char *arg);    /* --progress */
/* --progress's words, by enum opt_progress, and -y's, s then p: what
 * the calls take, and the words completion offers (NULL-terminated). */
extern const char *const opts_progress_words[];
extern const char *const opts_sync_words[];
int opts_take_log_interval(struct opt_ctx *c, const char *arg);
int opts_take_precondition(struct opt_ctx *c, const char *arg);
/* --steady, --round, --steady-max (options_steady.c), and their check
 * against the rest: 0, or -1 after one line. */
int opts_take_steady(struct opt_ctx *c, const char *arg);
int opts_take_round(struct opt_ctx *c, const char *arg);
int opts_take_steady_max(struct opt_ctx *c, const char *arg);
int opts_check_steady(struct opt_ctx *c, const struct opts_parse *ps);

/* --journal and --until-killed (options_journal.c), and their check
 * after the last option. */
int opts_take_journal(struct opt_ctx *c, const char *arg);
int opts_check_journal(struct opt_ctx *c, struct opts_parse *ps);
int opts_take_data(struct opt_ctx *c, const char *arg);	       /* --data */
int opts_take_verify_only(struct opt_ctx *c, const char *arg); /* ... */
int opts_take_help(struct opt_ctx *c, const char *arg);	       /* -h */
int opts_take_version(struct opt_ctx *c, const char *arg);     /* -V */
int opts_take_sem_procs(struct opt_ctx *c, const char *arg);   /* -p */
int opts_take_sync(struct opt_ctx *c, const char *arg);	       /* -y */
int opts_take_sync_timeout(struct opt_ctx *c, const char *arg);
int opts_take_barrier_timeout(struct opt_ctx *c, const char *arg);

/*
 * What -p and -y cannot go with, once every option is read
 * (options_lockstep.c). 0, or -1 after one line.
 */
int opts_check_lockstep(struct opt_ctx *c, const struct clyde_opts *o);

/* What --verify cannot go with among the run's options: dedupe:PCT, a
 * chunk that is not whole 4 KiB blocks (options_modes.c). */
int opts_check_data(struct opt_ctx *c, const struct clyde_opts *o);

/*
 * Without --per-char, the per-char meaning of the format asked for:
 * 1-byte system calls (bonnie++ 2.00) in 1.98 and 1.97 lines and the
 * 2.00 table, stdio (bonnie++ 1.03) when --csv=1.03 or --format=1.03
 * (options_modes.c).
 */
void opts_settle_per_char(struct clyde_opts *o);

#endif
