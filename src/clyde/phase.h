/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase: one timed test of the suite. Each figure of the registry
 * (FIGURES in lib/figures.h) is filled by one phase, which a
 * phase_<x>.c exports as const struct phase_ops phase_<key>_ops: there
 * is no list of phases apart from the registry, and the run order is the
 * registry's order, which for bonnie++'s twelve is the order of its
 * table and CSV fields.
 *
 * The runner owns timing, progress and cleanup: a phase's run() does the
 * measured work, records the worst single operation, and returns 0 or
 * -errno with ctx->what saying which call on which file failed. A phase
 * never prints and never exits (the runner turns its failure into the
 * one line), and times no window of its own (only each operation,
 * phase_op_done) unless its work runs in other processes
 * (phase_out.self_timed). State a
 * phase keeps beyond one hook lives behind ctx->priv, and its release
 * hook frees it; the runner checks every entry once, when it builds its
 * registry, and treats them all alike.
 */
#ifndef CLYDE_PHASE_H
#define CLYDE_PHASE_H

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "figures.h"
#include "fill.h"
#include "hist.h"
#include "journal_run.h"
#include "options.h"
#include "result.h"

/* The most bytes of run state a phase keeps (phase_ops.state_size). */
#define PHASE_STATE_MAX 256u

struct run_plan;

/*
 * What a phase's run-level hooks see: the run's options, the run's plan
 * (plan.h: the data size, -n and seek count it uses, chosen or given),
 * and the state the run keeps for the phase (phase_ops.state_size
 * bytes, zeroed at the start, the run's and never written into the
 * options): what the run decided for it, as a bound sized or a fallback
 * taken. Phases of one unit (phase_ops.unit) share it. plan.h makes it.
 */
struct phase_plan {
	const struct clyde_opts *opt;
	const struct run_plan *run;
	void *state;
	/* The unit's own options (its phase_options' struct, as parsed);
	 * NULL for a unit without options. */
	const void *options;
};

struct opt_ctx;
struct opt_table;

/*
 * A unit's own options, as a fio engine carries .options and
 * .option_struct_size: its table (optable.h), whose entries' offsets are
 * into the unit's private struct, table->base; clyde's parser composes
 * it with the run's table and the other units' (under its title in
 * --help), so the parser names no phase. The phases of the unit read
 * the struct through their plan (phase_plan.options), never from
 * struct clyde_opts.
 */
struct phase_options {
	const struct opt_table *table;
	const void *defaults; /* size bytes copied into table->base before
			       * each parse */
	size_t size;
	/*
	 * Optional, once after the last option: what the unit's options
	 * cannot go with among the run's (o), and defaults that depend on
	 * them. 0, or -1 after one line (opt_bad(), opt_error() on c).
	 */
	int (*check)(struct opt_ctx *c, const struct clyde_opts *o);
};

struct phase_ctx {
	const struct clyde_opts *opt;
	/* The running phase's plan (its run state), set by the runner. */
	const struct phase_plan *plan;
	int dirfd;		  /* the private scratch directory */
	const char *data_name;	  /* data file, relative to dirfd */
	const char *data_path;	  /* the same, in full, for messages */
	const char *scratch_path; /* the scratch directory */
	unsigned char *buf;	  /* fill data, aligned for O_DIRECT; holds
				   * the larger of chunk and the -n chunk */
	struct fill *fill;	  /* what the data file's writes carry (--data):
				   * fill_at/fill_into of lib/fill */
	/* --journal: the run's journal (journal_run.h), every write to the
	 * data file recorded, and the generation each block must hold;
	 * NULL without. */
	struct jrun *jr;
	uint32_t gen; /* the data file's generation: PHASE_GEN_WRITE
		       * once block output (or per-char output, or
		       * the untimed maker) wrote it, one more after
		       * each PHASE_NEW_GEN phase; 0 before */
	size_t chunk;
	uint64_t size;		     /* bytes of the data file */
	volatile sig_atomic_t *stop; /* set by SIGINT/SIGTERM */
	int fd;			     /* a phase's open file, -1 when none */
	void *stream;		     /* a phase's FILE *, NULL when none */
	uint64_t sink;		     /* bytes read are folded in here */
	uint64_t seed;		     /* the run's seed */
	uint64_t wb_prev, wb_next;   /* writeback windows (phase_writeback) */
	void *priv; /* a phase's own state (phase_ops.release) */
	/* In a -c worker: of the operations counted, those written but
	 * not yet written back (workers_live_ahead); NULL otherwise. */
	uint64_t *live_ahead;
	/* In a group of forked workers (-c N, several -d) or of mpirun
	 * ranks: this one's index and how many there are; 0 and 0
	 * otherwise. */
	unsigned worker, nworkers;
	/* --verify: the run's count of 4 KiB blocks checked and found
	 * sound, in memory every process of the run shares (runner_env's
	 * verified); NULL: not counted. */
	uint64_t *verified;
	char what[512]; /* the failing call and file */
};

/* A phase's -PHASE_SAID: ctx->what says it all (a block that failed
 * --verify, a worker that died), and the runner adds no strerror. */
#define PHASE_SAID EBADMSG

/* The kinds of operation a random-I/O figure counts apart. */
enum phase_kind { PHASE_READ = 0, PHASE_WRITE, PHASE_KINDS };

/* One kind's operations: how many, their bytes, their response times. */
struct phase_kind_out {
	uint64_t ops, bytes;
	struct hist lat;
};

/*
 * The schedule of an offered rate (--rate), as the phase kept it; rate
 * 0: none (a closed loop). Of the arrivals due before the test ended,
 * issued were submitted and late were submitted more than PHASE_LATE_NS
 * after they were due; due - issued never were. late_held: those late
 * that fell due while every slot was in flight.
 */
struct phase_sched {
	uint64_t rate; /* operations a second offered */
	int fixed;     /* fixed gaps; else poisson */
	uint64_t due, issued, late, late_held;
};

/* How long after its due time an operation may be submitted and still
 * count as on time: a timer's wake-up, not the target's doing. */
#define PHASE_LATE_NS 1000000ull
/* A schedule with at least this share never issued or issued late is
 * warned of after its test. */
#define PHASE_BEHIND_WARN 0.01

struct phase_out {
	uint64_t work;		 /* bytes, seeks or files done */
	uint64_t max_latency_ns; /* worst single operation */
	int record;		 /* fill lat (not under --no-latency) */
	struct hist lat;	 /* every operation's latency */
	/*
	 * A phase whose work runs in other processes times it itself: from
	 * the first worker's start to the last one's end, with the sum of
	 * the workers' own CPU. Otherwise the runner's marks count.
	 */
	int self_timed;
	double elapsed, user, sys;
	uint64_t start_ns, end_ns; /* the same span, CLOCK_MONOTONIC */
	/* In a -c worker: its live count of operations (workers_live),
	 * which phase_op_done adds to; NULL otherwise. */
	uint64_t *live;
	/* Operations done so far in this test (phase_op_took counts). */
	uint64_t ops;
	/*
	 * The runner's clock hook, for what watches a test while it runs:
	 * once an operation ends at or after tick_ns (CLOCK_MONOTONIC),
	 * tick(out, now) runs and sets the next tick_ns. UINT64_MAX (the
	 * runner's default): never, for one compare an operation; a
	 * phase_out made elsewhere must set it too.
	 */
	uint64_t tick_ns;
	void (*tick)(struct phase_out *out, uint64_t now_ns);
	void *tick_arg;
	/* --log-interval: the open interval's histogram (clyde/interval.c),
	 * fed beside lat; NULL when not logging. */
	struct hist *ilat;
	/*
	 * A random-I/O figure's operations (phase_op_io): lat holds each
	 * one's response time, from when it was due (under --rate) or
	 * submitted, to its completion; svc its service time, submission to
	 * completion (the same in a closed loop); kind[] each kind's. io is
	 * set by the first. isvc: --log-interval's open interval of svc.
	 */
	int io;
	struct hist svc;
	struct phase_kind_out kind[PHASE_KINDS];
	struct phase_sched sched;
	struct hist *isvc;
	/*
	 * --steady (steady_watch.h): a phase that can run in rounds
	 * (PHASE_STEADY) sees until_ns below UINT64_MAX, and then runs
	 * until that time whatever its own bounds; the watcher brings it
	 * to now, on its tick, once the rounds are steady.
	 */
	uint64_t until_ns;
};

struct workers_io;

/*
 * out made empty for a test (phase_out.c), the one way every place that
 * makes one does: zeros, empty histograms, record as given, no tick due
 * (tick_ns UINT64_MAX).
 */
void phase_out_init(struct phase_out *out, int record);

/* Its random-I/O parts alone made empty (a merge that starts over). */
void phase_out_io_reset(struct phase_out *out);

/* A random-I/O figure's parts of out (what phase_op_io recorded and the
 * phase's schedule) added into io, for a worker's slot or a rank's
 * figures; nothing when out->io is 0. */
void phase_out_io_put(const struct phase_out *out, struct workers_io *io);

/* The merge of several workers' parts, io, added into out: histograms
 * bucket-wise, counts and the schedule's rates summed. */
void phase_out_io_add(struct phase_out *out, const struct workers_io *io);

/* out's random-I/O parts into rec, whose own are freed first: 0, or -1
 * without memory. */
int phase_out_io_record(const struct phase_out *out,
			struct result_test_rec *rec);

/*
 * Whether schedule s was not kept (at least PHASE_BEHIND_WARN of its
 * arrivals never issued, or of those issued, late): then 1, with the
 * line that says so for the figure key in buf ("ran_mix: the target did
 * not keep up with 2000 IOPS: 50.0% of the 4000 I/Os due were never
 * issued, 99.9% of those issued went over 1 ms late"); else 0.
 */
int phase_sched_behind(const struct result_sched *s, const char *key, char *buf,
		       size_t len);

/* The generation of the data file's content (lib/fill) that block
 * output writes, and that the rewrite makes it. */
#define PHASE_GEN_WRITE	  1u
#define PHASE_GEN_REWRITE 2u

/* Flags: what the runner, and the sizing of a run (autosize.h), do with
 * a phase; they read every one of them. */
/* Uses the data file: skipped by -s 0. */
#define PHASE_DATA 0x1u
/* A per-char phase: skipped by -f, and by -D with a note before the
 * first test (runner_skip_note). */
#define PHASE_PER_CHAR 0x2u
/* A file test: skipped without -n. */
#define PHASE_FILES 0x4u
/* Reads the data file an earlier phase wrote: the runner makes sure it
 * is there and empties the page cache of it first. */
#define PHASE_READS 0x8u
/* Writes the whole data file: the phase the runner runs, untimed, when
 * a PHASE_READS phase is to run without it (--only). */
#define PHASE_MAKES_DATA 0x10u
/* Writes every block of the data file again (rewrite): its content is
 * then the next generation (ctx->gen). */
#define PHASE_NEW_GEN 0x20u
/* Its work is the run's seek count (struct run_plan.seeks): with none
 * given it runs for a time instead (seeks_time), and the seeks the first
 * run did per copy become the count for the runs after it. */
#define PHASE_SEEK_COUNT 0x40u
/* A file test whose work is the files it made: with no -n given it
 * creates for a time (files_time), and -n for the runs after the first
 * is what the first of them that ran made per copy. */
#define PHASE_FILE_COUNT 0x80u
/* Writes in place, at random or synchronously (ran_write, ran_mix,
 * sync_write): under --precondition the runner writes the whole data
 * file first, untimed (precondition.h), once a pass. */
#define PHASE_PRECONDITION 0x100u
/* Can run under --steady: in rounds until steady (phase_out.until_ns);
 * ran_read, ran_write, ran_mix, sync_write. */
#define PHASE_STEADY 0x200u
/* Under --journal, writes the data file in place where it would write
 * a file of its own (sync_write): the runner makes the data file first,
 * as for PHASE_READS. */
#define PHASE_JOURNAL_DATA 0x400u
/* Writes the data file from processes of its own (the seekers): under
 * --journal, which follows one process's writes, it is skipped. */
#define PHASE_FORKED_WRITES 0x800u
#define PHASE_FLAGS_KNOWN   0xfffu

/* What a test is expected to do (phase_ops.expect), for the live view:
 * how far it is, its rate, and an estimate of its time. */
struct phase_expect {
	uint64_t ops; /* the most operations (0: no count) */
	double secs;  /* the most seconds (0: no limit) */
	/* Bytes an operation moves: its rate is shown in bytes (0: in
	 * operations of unit, "ops", "seeks", "files"). */
	uint64_t op_bytes;
	const char *unit;
	/* A test at the block rate: how many times it moves the data size
	 * (block output, block input: 1; rewrite, a read and a write: 2),
	 * which the view times at the block rate measured so far before
	 * it runs. 0: not one. */
	unsigned data_moves;
};

struct phase_ops {
	const char *name;      /* the figure's key, e.g. "put_block" */
	const char *title;     /* for messages, e.g. "block output" */
	enum result_test test; /* the figure it fills */
	unsigned flags;
	const char *progress; /* "Writing intelligently" */
	/* Untimed, optional: open, create, evict what the phase reads. */
	int (*setup)(struct phase_ctx *);
	/* Timed, required. */
	int (*run)(struct phase_ctx *, struct phase_out *);
	/* Optional, for a figure counted in operations of one size: the
	 * bytes of one (its bandwidth is the rate times this). */
	uint64_t (*op_bytes)(const struct phase_plan *);
	/* Optional: the settings the figure ran with, in a few words for
	 * the extended table section and JSON ("4k qd32 io_uring"). */
	void (*how)(const struct phase_plan *, char *buf, size_t len);
	/* Optional, for a PHASE_DATA phase that writes a file of its own
	 * instead of the data file (sync_write): that file's largest size,
	 * which the room check counts beside the data file. */
	uint64_t (*room)(const struct phase_plan *);
	/* Untimed, optional: close what setup opened. */
	void (*teardown)(struct phase_ctx *);
	/*
	 * Optional: free ctx->priv, once, at the end of the pass (also
	 * after a failure or a stop). Phases that share a release hook
	 * share their priv (the six file tests: one pass's files); the
	 * others never see it.
	 */
	void (*release)(struct phase_ctx *);

	/*
	 * The run-level part: what holds for the whole run rather than one
	 * pass. Phases with the same unit (ran_read and ran_write:
	 * "random_io") share one run state and the hooks below, which run
	 * once for the unit, by its first phase in the registry; NULL: the
	 * phase's name.
	 */
	const char *unit;
	/* Optional: whether the figure runs in a run whose --only does not
	 * name it (NULL: it does); one that only an option asks for
	 * (ran_mix: --mix) says so. */
	int (*wanted)(const struct phase_plan *);
	size_t state_size; /* bytes of its run state, PHASE_STATE_MAX at most */
	/* Optional: the unit's own options (struct phase_options). */
	const struct phase_options *options;
	/*
	 * Optional, once before the first test when a phase of the unit is
	 * to run: check what only the run can tell and settle the run state
	 * (a fallback taken). 0, or the exit status after one line
	 * (error()); warning() for what does not stop the run.
	 */
	int (*prepare)(const struct phase_plan *);
	/* Optional: the longest single write that takes its content from
	 * the run's fill (lib/fill), in bytes; the runner sizes the fill
	 * for the largest over the phases and the chunk. */
	size_t (*buf_need)(const struct phase_plan *);
	/*
	 * Optional: the unit's object in the JSON settings, under its unit
	 * name (NULL with *bad set when it could not be made: jsonput.h),
	 * placed after the run's settings key settings_after (NULL: after
	 * the run's own). Its line in the settings column is the how hook.
	 */
	struct json_t *(*settings)(const struct phase_plan *, int *bad);
	const char *settings_after;
	/*
	 * Optional, for a run that sizes itself (no -s), when a phase of
	 * the unit runs: unless the unit's own options bound its work, size
	 * it for about target seconds in the run state; then 1, with a few
	 * words on it for the line on what was sized ("sync_write for 1 s")
	 * in what. Else 0. settings.auto.<unit> records which.
	 */
	int (*autosize)(const struct phase_plan *, double target, char *what,
			size_t len);
	/*
	 * Optional, for the live view: what a test of the figure does, as
	 * settled for the run, into e (struct phase_expect), which comes
	 * zeroed but for its unit ("ops"). Without it the view knows no
	 * count, no limit and no size of an operation.
	 */
	void (*expect)(const struct phase_plan *, struct phase_expect *e);
};

/* phase_<key>_ops for every key of FIGURES (runner_phases.c's table). */
#define PHASE_DECLARE(key, ...) extern const struct phase_ops phase_##key##_ops;
FIGURES(PHASE_DECLARE)
#undef PHASE_DECLARE

/* Helpers shared by the phases (phase_io.c). */

/*
 * Close one operation: *t0 is when it started; it becomes the start of
 * the next, so each operation costs one clock read and one histogram
 * bucket increment.
 */
/* One operation of d ns done: its latency recorded, the worst kept, the
 * -c worker's live count moved (phase_op_done, and a phase that times
 * its operations otherwise, as io_uring's from submission). */
static inline void phase_op_took(struct phase_out *out, uint64_t d)
{
	out->ops++;
	if (out->record)
		hist_add(&out->lat, d);
	if (__builtin_expect(out->ilat != NULL, 0))
		hist_add(out->ilat, d);
	if (d > out->max_latency_ns)
		out->max_latency_ns = d;
	if (out->live)
		__atomic_fetch_add(out->live, 1, __ATOMIC_RELAXED);
}

/* A random-I/O operation of kind k and bytes done: resp ns from when it
 * was due (or submitted) and svc ns from its submission to its end. */
static inline void phase_op_io(struct phase_out *out, enum phase_kind k,
			       uint64_t bytes, uint64_t resp, uint64_t svc)
{
	phase_op_took(out, resp);
	out->io = 1;
	out->kind[k].ops++;
	out->kind[k].bytes += bytes;
	if (out->record) {
		hist_add(&out->svc, svc);
		hist_add(&out->kind[k].lat, resp);
	}
	if (__builtin_expect(out->isvc != NULL, 0))
		hist_add(out->isvc, svc);
}

/* The tick hook's turn, for an operation that ended at now. */
static inline void phase_op_tick(struct phase_out *out, uint64_t now)
{
	if (__builtin_expect(now >= out->tick_ns, 0) && out->tick)
		out->tick(out, now);
}

static inline void phase_op_done(struct phase_out *out, uint64_t *t0)
{
	uint64_t t1 = clk_now_ns();

	phase_op_took(out, t1 - *t0);
	phase_op_tick(out, t1);
	*t0 = t1;
}

/*
 * The end of an operation of a timed loop: phase_op_done, then a stop
 * honoured, as a failure of call (the call the stop cut short). 0 or
 * -EINTR (ctx->what set).
 */
static inline int phase_op_next(struct phase_ctx *ctx, struct phase_out *out,
				uint64_t *t0, const char *call);

/*
 * The end of chunk i of block output and rewrite: buf (chunk bytes,
 * generation gen) written whole at the file offset (under --journal,
 * recorded as it goes out and as it returns), fsynced under -b, writeback kept
 * to two windows, then phase_op_next. Inline: it is the timed loop of both. 0
 * or -errno (ctx->what set).
 */
static inline int phase_put_chunk(struct phase_ctx *ctx, struct phase_out *out,
				  uint64_t *t0, uint64_t i, const void *buf,
				  uint32_t gen);

/*
 * Under --verify, check buf (len bytes read from the data file at off)
 * against generation gen: 0 (its whole blocks added to ctx->verified),
 * or -PHASE_SAID with ctx->what naming the file
 * and the first bad block, what was expected and what was found (the
 * runner says it without a strerror). Without --verify: 0, no cost.
 */
static inline int phase_verify(struct phase_ctx *ctx, const void *buf,
			       uint64_t off, size_t len, uint32_t gen);
int phase_fail_verify(struct phase_ctx *ctx, const struct fill_bad *bad);

/*
 * A lib/workers watch (arg: a phase_out) for a test whose operations
 * run in other processes: their count, ops, becomes out->ops, and the
 * tick hook has its turn, as if an operation ended now.
 */
void phase_watch(void *arg, uint64_t ops);

/* Open the data file; sets ctx->what on failure. Returns fd or -errno. */
int phase_open(struct phase_ctx *ctx, int flags, const char *call);

/*
 * Setup hooks, 0 or -errno: the data file opened for reading
 * (phase_setup_read), or made afresh for writing, a leftover of an
 * earlier test or run removed first (phase_setup_create).
 */
int phase_setup_read(struct phase_ctx *ctx);
int phase_setup_create(struct phase_ctx *ctx);

/*
 * For the per-char phases after one of those: in the stdio mode, a stream
 * over ctx->fd (fdopen mode) in ctx->stream; in the syscall mode nothing.
 * 0 or -errno.
 */
int phase_setup_stream(struct phase_ctx *ctx, const char *mode);

/* Close ctx->fd (and ctx->stream) if open. */
void phase_close(struct phase_ctx *ctx);

/*
 * write()/read() all of len, retrying short transfers and EINTR unless
 * a stop was asked for. Returns 0, -errno, or -ENODATA on an early EOF.
 */
int phase_write_all(struct phase_ctx *ctx, const void *buf, size_t len);
int phase_read_all(struct phase_ctx *ctx, void *buf, size_t len);

/*
 * Buffered sequential writes up to file offset pos: every 8 MiB, start
 * writeback of the newest window and wait for the one before it, then
 * drop it from the cache. At most two windows are ever dirty, so the
 * writer runs at the device's speed, as it would with a file far bigger
 * than the RAM, instead of filling the cache and paying at the final
 * fsync. A no-op under -D. Returns 0 or -errno.
 */
int phase_writeback(struct phase_ctx *ctx, uint64_t pos);

/* fsync ctx->fd, naming the file on failure; under --journal the
 * writes it covered are acknowledged (jrun_synced). */
int phase_fsync(struct phase_ctx *ctx);

/*
 * Under --journal (ctx->jr): write gen over [off, off + len) about to
 * go out, recorded and made durable (phase_journal_send), and then
 * returned (acked: from a file opened O_SYNC or O_DSYNC; else written,
 * acknowledged by the next phase_fsync). 0 or -errno with ctx->what
 * naming the journal. Without a journal: 0, no cost.
 */
int phase_journal_out(struct phase_ctx *ctx, uint32_t gen, uint64_t off,
		      uint64_t len);
/* The same for a write of a whole-file phase (block output, rewrite,
 * per-char output, the precondition): one record a window ahead
 * (jrun_cover) unless -b syncs each write. */
int phase_journal_cover(struct phase_ctx *ctx, uint32_t gen, uint64_t off,
			uint64_t len);
int phase_journal_back(struct phase_ctx *ctx, uint32_t gen, uint64_t off,
		       uint64_t len, int acked);
/* Under --journal, buf (len bytes read from off) checked block by block
 * against the generation each must hold (jrun_expect). */
int phase_verify_journal(struct phase_ctx *ctx, const void *buf, uint64_t off,
			 size_t len);

/* Record a failure of call on the data file; returns -err. */
int phase_fail(struct phase_ctx *ctx, const char *call, int err);

/* Record an end of the data file before the bytes a read expected;
 * returns -ENODATA. */
int phase_fail_short(struct phase_ctx *ctx);

/* Record a failure of a call on no file (pipe, fork, mmap); -err. */
int phase_fail_call(struct phase_ctx *ctx, const char *call, int err);

/* Bytes the per-char phases cover in the chosen mode of o, over a data
 * file of size bytes. */
uint64_t phase_per_char_size(const struct clyde_opts *o, uint64_t size);

/*
 * Expect hooks shared by the data-file phases: a chunk an operation over
 * the data size (phase_expect_block: a block-rate test that moves it
 * once), or over the bytes the per-char phases cover
 * (phase_expect_per_char).
 */
void phase_expect_block(const struct phase_plan *p, struct phase_expect *e);
void phase_expect_per_char(const struct phase_plan *p, struct phase_expect *e);

static inline int phase_op_next(struct phase_ctx *ctx, struct phase_out *out,
				uint64_t *t0, const char *call)
{
	phase_op_done(out, t0);
	return *ctx->stop ? phase_fail(ctx, call, EINTR) : 0;
}

/* The whole 4 KiB blocks of [off, off + len), found sound, counted. */
static inline void phase_verified(struct phase_ctx *ctx, uint64_t off,
				  size_t len)
{
	uint64_t first = (off + FILL_BLOCK - 1) / FILL_BLOCK;
	uint64_t end = (off + len) / FILL_BLOCK;

	if (ctx->verified && end > first)
		__atomic_add_fetch(ctx->verified, end - first,
				   __ATOMIC_RELAXED);
}

static inline int phase_verify(struct phase_ctx *ctx, const void *buf,
			       uint64_t off, size_t len, uint32_t gen)
{
	struct fill_bad bad;
	int rc;

	if (!ctx->opt->verify)
		return 0;
	if (ctx->jr)
		rc = phase_verify_journal(ctx, buf, off, len);
	else if (fill_check(ctx->fill, buf, off, len, gen, &bad) == FILL_OK)
		rc = 0;
	else
		return phase_fail_verify(ctx, &bad);
	if (rc == 0)
		phase_verified(ctx, off, len);
	return rc;
}

static inline int phase_put_chunk(struct phase_ctx *ctx, struct phase_out *out,
				  uint64_t *t0, uint64_t i, const void *buf,
				  uint32_t gen)
{
	uint64_t off = i * ctx->chunk;
	int rc;

	if (ctx->jr &&
	    (rc = phase_journal_cover(ctx, gen, off, ctx->chunk)) != 0)
		return rc;
	if ((rc = phase_write_all(ctx, buf, ctx->chunk)) != 0)
		return rc;
	if (ctx->jr &&
	    (rc = phase_journal_back(ctx, gen, off, ctx->chunk, 0)) != 0)
		return rc;
	if (ctx->opt->sync_each && (rc = phase_fsync(ctx)) != 0)
		return rc;
	if ((rc = phase_writeback(ctx, (i + 1) * ctx->chunk)) != 0)
		return rc;
	return phase_op_next(ctx, out, t0, "write");
}
#endif
