/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options: bonnie++'s command line with bonnie++'s meaning, plus clyde's
 * long options, declared for the option engine (optable.h): the run's
 * own here, each unit's in its phase file. Parsing validates everything
 * it can before any file is touched: a bad value is one line naming it,
 * and exit 2.
 */
#ifndef CLYDE_OPTIONS_H
#define CLYDE_OPTIONS_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "csv.h"
#include "fill.h"
#include "optable.h"
#include "privs.h"
#include "result.h"
#include "steady.h"
#include "table.h"

/* -y: how a run keeps in step with other processes before each test. */
enum opt_sync {
	OPT_SYNC_NONE,
	OPT_SYNC_SEM,	 /* -y s: bonnie++'s semaphores (lib/semsync.h) */
	OPT_SYNC_PROMPT, /* -y p: a prompt on stdout, a line from stdin */
};

/* --sync-timeout's default: seconds -y s waits at one test. */
#define OPT_SYNC_TIMEOUT_DEFAULT 600u
#define OPT_SYNC_TIMEOUT_MAX	 31536000u
/* --barrier-timeout's default: the longest (seconds) the workers of
 * -c, several -d or mpirun's ranks wait for each other at a test's start,
 * or go without an operation in it (0: no limit). */
#define OPT_BARRIER_TIMEOUT_DEFAULT 600u
/* --precondition without a count: PTS's two passes; and the most. */
#define OPT_PRECONDITION_DEFAULT 2u
#define OPT_PRECONDITION_MAX	 100u
/* --round's and --steady-max's defaults, and the most of either
 * (seconds). */
#define OPT_STEADY_ROUND_DEFAULT 10u
#define OPT_STEADY_MAX_DEFAULT	 600u
#define OPT_STEADY_MAX_MAX	 86400u

enum per_char_mode {
	PER_CHAR_STDIO,	  /* putc/getc over the whole file (bonnie++ 1.03) */
	PER_CHAR_SYSCALL, /* 1-byte write()/read() over a bounded size (2.00) */
};

/* Bytes the 1-byte-system-call per-char tests cover by default (as
 * bonnie++ 2.00: at about 600 KiB/s a whole file would take hours). */
#define OPT_PER_CHAR_SYSCALL_DEFAULT (20ull * 1024 * 1024)

/* The most -d targets one run takes, and the most workers in all
 * (-c N per target). */
#define OPT_TARGETS_MAX 64u
#define OPT_WORKERS_MAX 1024u

/* --progress: the live status line on stderr (src/clyde/live.c) when
 * stderr is a terminal (auto, the default), always, or never. */
enum opt_progress { PROGRESS_AUTO = 0, PROGRESS_ALWAYS, PROGRESS_NONE };

struct clyde_opts {
	const char *dir; /* -d: the first target, dirs[0] */
	/* -d given more than once: one worker group per directory, all at
	 * once; ndirs 1 without -d ("."). */
	const char *dirs[OPT_TARGETS_MAX];
	unsigned ndirs;
	uint64_t size; /* -s, bytes; 0 = skip the I/O tests */
	int size_set;
	const char *size_arg;  /* -s as given, for messages; NULL if none */
	const char *files_arg; /* -n as given; NULL if none */
	const char *ram_arg;   /* -r as given; NULL if none */
	uint64_t chunk;	       /* -s size:chunk */
	uint64_t seeks;	       /* -s size:chunk:seeks */
	unsigned procs;	       /* -s size:chunk:seeks:procs */
	char name[RESULT_NAME_MAX]; /* -m */
	uint64_t ram;		    /* -r, bytes; 0 = no size checks */
	unsigned repeats;	    /* -x */
	unsigned concurrency;	    /* -c: copies of each test at once */
	int quiet;		    /* -q */
	int fast;		    /* -f: no per-char tests */
	uint64_t per_char_size; /* -f SIZE: bytes per-char tests cover; 0 = mode
				   default */
	/* -n num[:max[:min[:dirs[:chunk]]]]; files_num 0 = no file tests. */
	uint64_t files_num; /* in units of 1024 files */
	int64_t files_max;  /* bytes, or -1 hard links, -2 symlinks */
	uint64_t files_min;
	unsigned files_dirs;
	uint64_t files_chunk; /* write size for file data */
	int sync_each;	      /* -b: fsync after every write */
	int direct;	      /* -D: O_DIRECT */
	uint64_t seed;	      /* -z */
	int seed_set;
	int drop_caches; /* --drop-caches: also empty the machine's caches */
	int latency;	 /* --latency / -v: print the percentile table */
	int json;	 /* --json given */
	const char *json_path; /* its FILE; NULL: stdout */
	int no_latency;	 /* --no-latency: record only the worst operation */
	unsigned only;	 /* --only: bit (1 << RT_x) per test; 0 = all */
	int size_chosen; /* no -s: clyde chose the size (see main.c) */
	int seeks_set;	 /* -s gave the seek count (its third field) */
	/* What clyde sizes itself is the run's plan (clyde/plan.h). */
	struct privs privs;    /* -u, -g */
	int sem_procs;	       /* -p: make the semaphore set for N (> 0) or
				* remove it (-1), and run no test; 0: no -p */
	enum opt_sync sync;    /* -y s, -y p */
	unsigned sync_timeout; /* --sync-timeout, seconds */
	const char *sync_timeout_arg; /* as given; NULL if none */
	unsigned barrier_timeout;     /* --barrier-timeout, seconds; 0 none */
	unsigned log_interval_ms;     /* --log-interval, ms; 0: no log */
	/* --precondition[=N]: the data file written whole N times before
	 * the first test that writes in place (PHASE_PRECONDITION); 0:
	 * none. */
	unsigned precondition;
	/* --steady[=RULE]: the tests that can (PHASE_STEADY) run in rounds
	 * of steady_round_s seconds until the last rounds meet the rule or
	 * steady_max_s seconds have passed; their figure is the window's. */
	int steady;
	struct steady_rule steady_rule;
	unsigned steady_round_s, steady_max_s;
	/* --data: the content every write of the data file carries
	 * (lib/fill), random by default; data_arg as given, NULL if none. */
	struct fill_spec data;
	const char *data_arg;
	int verify; /* --verify: every block written carries a header and
		     * CRC, every block read is checked */
	const char *verify_only; /* --verify-only=FILE: check FILE, no test */
	int keep;		 /* --keep: the data file stays */
	/* --journal=FILE: every write to the data file recorded in FILE
	 * when it goes out and when the storage acknowledged it
	 * (journal_run.h); with --verify-only, the journal that run left.
	 * NULL: none. */
	const char *journal;
	/* --until-killed: the tests that write loop until clyde is killed
	 * or the machine goes down (a cut under --journal). */
	int until_killed;
	enum csv_format csv;
	enum table_layout layout;
	/* --per-char, or when not given the meaning of the lines asked
	 * for (opts_settle_per_char); per_char_set: given. */
	enum per_char_mode per_char;
	int per_char_set;
	enum opt_progress progress; /* --progress[=WHEN]: the live view */
	/* A program that runs the tests in steps sets each step's offered
	 * rate itself (clyde-curve): --arrivals needs no --rate. */
	int rate_stepped;
};

/*
 * Parse argv into o. Messages (errors, --help, --version) go to err/out,
 * and nowhere else; nothing is allocated, nothing exits, so it can be
 * called any number of times in one process. A value echoed in a
 * message is escaped to stay on one line (text.h). o keeps pointers
 * into argv. Returns OPT_OK to go on, OPT_DONE after
 * --help/--version, or OPT_BAD after printing one line about the bad
 * value or the two options that contradict each other.
 */
enum opt_result opts_parse(int argc, char **argv, struct clyde_opts *o,
			   FILE *out, FILE *err);

/*
 * clyde's parser (optable.h): the run's table, then the table of each
 * unit of the registry that has options (phase_ops.options), in the
 * registry's order; --help is written from them.
 */
const struct opt_parser *opts_parser(void);

/*
 * A program that runs clyde's tests through its runner (clyde-curve):
 * its own table first, then the run's options it keeps (by letter, or
 * by long name, with help and value name in its words where it gives
 * them), then the options of one unit of the registry (phase_ops.unit)
 * but those it drops. Its check runs after the last
 * option, before the unit's (it may set o->only, which the unit's check
 * reads); then the targets' and the default size, as for clyde.
 */
struct opts_keep {
	int key;
	const char *name;
	const char *help; /* NULL: the entry's own */
	const char *arg;  /* NULL: the entry's own */
};
struct opts_prog {
	const char *prog;
	const struct opt_table *own;
	const struct opts_keep *keep; /* ended by {0, NULL} */
	const char *unit;
	/* The unit's entries left out (the program's own table may take
	 * their names), and help of the unit's entries in its words. */
	const struct opts_keep *unit_drop, *unit_help;
	const char *unit_title; /* NULL: the unit's */
	const char *about, *epilogue;
	int (*check)(struct opt_ctx *c, struct clyde_opts *o);
};

/* Program g's parser, composed (its --help is written from it). */
const struct opt_parser *opts_prog_parser(const struct opts_prog *g);

/* opts_parse for program g: the same answers and lines. */
enum opt_result opts_parse_prog(const struct opts_prog *g, int argc,
				char **argv, struct clyde_opts *o, FILE *out,
				FILE *err);

/* bonnie++'s default: the file tests run with 16*1024 empty files. */
#define OPT_FILES_NUM_DEFAULT 16u
/* Default write size for file data in the file tests. */
#define OPT_FILES_CHUNK_DEFAULT RESULT_DEF_FILE_CHUNK
/* The most files one -n can ask for (1024 * this): indexes fit 32 bits. */
#define OPT_FILES_NUM_MAX 4194303u

/* With no -s, the data size when the page cache can be evicted: large
 * enough for steady figures, small enough for a few minutes. */
#define OPT_DEFAULT_SIZE (4ull << 30)

/* The most copies -c runs at once (bonnie++'s limit). */
#define OPT_CONCURRENCY_MAX 200u

/* Physical memory in bytes. */
uint64_t opts_physical_ram(void);

#endif
