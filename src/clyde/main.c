/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clyde: options -> checks -> outputs -> scratch directory -> runs ->
 * tables, CSV lines, JSON document. Everything that can be refused is
 * refused before the first test: the directory and its room, the --json
 * path (whose temporary file is made then, as the -u user). The scratch
 * directory is removed on every path out, SIGINT, SIGTERM and SIGHUP
 * included (their handlers only set a flag, the first signal's, that
 * the phases check after every operation), and a closed stdout stops
 * the runs the same way; one that cannot be removed is named, with why.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "autosize.h"
#include "cli.h"
#include "csv.h"
#include "fill.h"
#include "journal_run.h"
#include "jsondoc.h"
#include "live.h"
#include "lockstep.h"
#include "mpirank.h"
#include "options.h"
#include "outfile.h"
#include "plan.h"
#include "rng.h"
#include "runner.h"
#include "verify_journal.h"
#include "verify_only.h"
#include "scratch.h"
#include "target.h"
#include "table.h"
#include "targets.h"
#include "text.h"
#include "units.h"

static volatile sig_atomic_t stop_signal;

/* The first signal decides the exit status; later ones only repeat the
 * request to stop. */
static void on_signal(int sig)
{
	cli_stop_first(&stop_signal, sig);
}

#define shown text_shown

/* bonnie++'s -u/-g, before anything is made under -d. */
static int drop_privileges(const struct clyde_opts *o)
{
	char why[200];

	if (privs_drop(&o->privs, why, sizeof(why)) == 0)
		return 0;
	error("-u/-g: %s", why);
	return -1;
}

/*
 * --json=FILE: checked and its temporary file made before the first
 * test, as the user who runs the tests (after -u/-g), so a bad path
 * costs nothing and a failed run leaves no half document.
 */
static int open_outputs(const struct clyde_opts *o, struct outfile *json)
{
	char why[PATH_MAX * 2], line[PATH_MAX * 8 + 1];

	if (!o->json_path)
		return 0;
	if (outfile_open(json, o->json_path, why, sizeof(why)) == 0)
		return 0;
	error("--json: %s", shown(why, line, sizeof(line)));
	return -1;
}

/* One line on how the page cache is kept out, and the size when clyde
 * chose it. */
static void say_cache_method(const struct run_plan *rp)
{
	const struct clyde_opts *o = rp->opt;
	struct runner_room room;
	char a[32];

	runner_room(rp, &room);
	if (rp->size == 0 || !room.data) /* no test of the data file runs */
		return;
	units_fmt_size(a, sizeof(a), rp->size);
	warning("data %s%s, %s", a, o->size_chosen ? " (no -s given)" : "",
		o->direct	 ? "O_DIRECT: the page cache is not used"
		: o->drop_caches ? "page cache evicted and the machine's "
				   "caches dropped before each read test"
				 : "page cache evicted before each read "
				   "test");
}

/*
 * Flush standard output after a run's lines: 0, or the errno of the
 * failed write (EPIPE: its reader went away, as in `clyde | head -1`).
 */
static int flush_stdout(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	return errno ? errno : EIO;
}

/* What the runs need and what they leave for main. */
struct runs {
	const struct clyde_opts *o;
	/* The plan from o (plan->opt): the first run settles the counts
	 * it sized there. */
	struct run_plan *plan;
	struct targets *targets;
	struct run_result *per; /* several -d: each target's figures */
	struct lockstep ls;	/* -y: keeping in step before each test */
	unsigned char *buf;
	size_t buf_len;
	json_t *doc;
	double (*rates)[RT_COUNT]; /* per run, for the -x summary */
	unsigned done;
	uint64_t last_seed; /* the seed of the last run that ended */
	int out_err;	   /* errno of a failed write to stdout: no more runs */
	int doc_err;	   /* a run could not be added to the document */
	struct live *live; /* --progress: the status line, or NULL */
	/* --journal: the seed of the run it followed (its data file is
	 * kept whatever the end); journaled 0 before it began. */
	uint64_t journal_seed;
	int journaled;
	int legend; /* the size label's fields were explained */
	/* --verify: the blocks checked and found sound over the runs,
	 * shared with the run's forked processes; NULL without. */
	uint64_t *verified;
};

/* Target i's row name: -m's, a colon and the directory (a comma or a
 * control character, which would break the CSV line, as '?'). */
static void target_name(char *buf, size_t len, const char *name,
			const char *dir)
{
	size_t n = strnlen(name, len - 2);

	/* Cut to fit: the JSON's "directory" has it whole. */
	memcpy(buf, name, n);
	buf[n++] = ':';
	buf[n] = '\0';
	strncat(buf, dir, len - n - 1);
	for (char *c = buf; *c; c++)
		if (*c == ',' || (unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

/* r, and each target's result under several -d, afresh for a run. */
static void run_settings(struct runs *x, struct run_result *r, uint64_t seed)
{
	const struct clyde_opts *o = x->o;

	plan_result(x->plan, r, seed);
	if (o->ndirs < 2)
		return;
	/* The aggregate row: every worker of every target at once. */
	r->concurrency = o->concurrency * o->ndirs;
	for (unsigned i = 0; i < o->ndirs; i++) {
		struct run_result *p = &x->per[i];

		plan_result(x->plan, p, seed);
		target_name(p->name, sizeof(p->name), o->name, o->dirs[i]);
	}
}

/* A run into the document: r, and each target's under several -d. */
static int add_run(struct runs *x, const struct run_result *r)
{
	unsigned n = x->o->ndirs > 1 ? x->o->ndirs : 0;

	return jsondoc_add_run(x->doc, x->plan, r, n ? x->per : NULL, n);
}

/* A run's table, latency table and CSV line(s): under several -d, a row
 * per target and the aggregate row last. */
static void print_run(struct runs *x, const struct run_result *r, FILE *csv_out,
		      FILE *tables)
{
	const struct clyde_opts *o = x->o;
	const struct run_result *rows[OPT_TARGETS_MAX + 1];
	unsigned n = 0;

	if (o->ndirs > 1)
		for (unsigned i = 0; i < o->ndirs; i++)
			rows[n++] = &x->per[i];
	rows[n++] = r;
	/* Data other than the default: said over the table it shaped. */
	if (o->data.mode != FILL_RANDOM) {
		char mode[32];

		fill_spec_text(&o->data, mode, sizeof(mode));
		fprintf(tables, "Data written: %s (--data)\n", mode);
	}
	table_print_rows(tables, rows, n, o->layout, &x->legend);
	for (unsigned i = 0; i < n && o->latency; i++)
		table_print_latency(tables, rows[i]);
	if (o->latency)
		table_print_spans(tables, r);
	for (unsigned i = 0; i < n; i++)
		csv_write(csv_out, rows[i], o->csv);
}

/*
 * --journal: the journal of the run of seed, over the first target's
 * data file, said in one line with where the data file is, so that
 * after a cut that ends clyde unawares the two can be found. 0, or
 * CLI_EXIT_USAGE after one line: made before the first test, a journal
 * that cannot be made is a refusal, as --json's file is.
 */
static int journal_open(struct runs *x, uint64_t seed, struct jrun **jr)
{
	const struct clyde_opts *o = x->o;
	char data[PATH_MAX + 8], why[160], jq[PATH_MAX * 4 + 1];
	char dq[PATH_MAX * 4 + 40];

	snprintf(data, sizeof(data), "%.*s/%s", PATH_MAX - 1,
		 x->targets->s[0].path, RUNNER_DATA_NAME);
	text_shown(o->journal, jq, sizeof(jq));
	text_shown(data, dq, sizeof(dq));
	*jr = jrun_open(o->journal, data, x->plan->size, seed, seed, why,
			sizeof(why));
	if (!*jr) {
		error("--journal '%s': %s", jq, why);
		return CLI_EXIT_USAGE;
	}
	x->journaled = 1;
	x->journal_seed = seed;
	error("--journal '%s': recording the writes to '%s' (seed %llu)", jq,
	      dq, (unsigned long long)seed);
	return 0;
}

/* The -x runs into r, each afresh. Returns 0, or CLI_EXIT_FAILED when a
 * run failed. */
static int run_each(struct runs *x, struct run_result *r, FILE *csv_out,
		    FILE *tables)
{
	const struct clyde_opts *o = x->o;

	if (o->repeats > 1) {
		csv_write_header(csv_out, o->csv);
		fflush(stderr);
		if ((x->out_err = flush_stdout()) != 0)
			return 0;
	}
	for (unsigned run = 0; run < o->repeats && !stop_signal; run++) {
		struct runner_env env = {
		    .opt = o,
		    .plan = x->plan,
		    .scratch = &x->targets->s[0],
		    .scratches = x->targets->s,
		    .ntargets = x->targets->n,
		    .per = x->per,
		    .buf = x->buf,
		    .buf_len = x->buf_len,
		    .stop = &stop_signal,
		    .progress = o->quiet ? NULL : stderr,
		    .err = stderr,
		    .sync = lockstep_wait,
		    .sync_arg = &x->ls,
		    .live = x->live,
		    .verified = x->verified,
		};
		uint64_t seed = o->seed_set ? o->seed : rng_fresh_seed();
		enum runner_status st;
		int jrc;

		run_settings(x, r, seed);
		if (o->journal && (jrc = journal_open(x, seed, &env.jr)))
			return jrc;
		if (x->live)
			live_run_begin(x->live, run);
		st = runner_run(&env, r);
		/* A failed run may be a cut: the journal has no end then. */
		if (env.jr && (jrc = jrun_close(env.jr, st != RUNNER_FAILED)) &&
		    st != RUNNER_FAILED) {
			error("--journal: closing it: %s", strerror(-jrc));
			st = RUNNER_FAILED;
		}
		if (st == RUNNER_STOPPED)
			break;
		autosize_settle(x->plan, r, x->per,
				o->ndirs > 1 ? o->ndirs : 0);
		if (st == RUNNER_FAILED) {
			if (x->doc && add_run(x, r))
				x->doc_err = 1;
			return CLI_EXIT_FAILED;
		}
		print_run(x, r, csv_out, tables);
		/* stdout is flushed once, here, so its errno is the one seen
		 * (a second fflush after a failed one reports nothing). */
		fflush(stderr);
		if ((x->out_err = flush_stdout()) != 0)
			break;
		if (x->doc && add_run(x, r)) {
			x->doc_err = 1;
			return CLI_EXIT_FAILED;
		}
		for (int t = 0; t < RT_COUNT; t++)
			x->rates[x->done][t] =
			    r->t[t].state == RS_OK
				? result_rate(&r->t[t], result_test_kind(t))
				: NAN;
		x->done++;
		x->last_seed = seed;
	}
	return 0;
}

/* The -x runs. Returns 0, or CLI_EXIT_FAILED when a run failed. */
static int run_all(struct runs *x)
{
	const struct clyde_opts *o = x->o;
	/* --json to stdout: stdout holds the document alone. */
	FILE *csv_out = o->json && !o->json_path ? stderr : stdout;
	/* stdout keeps to CSV under -q and with -x N > 1. */
	FILE *tables =
	    o->repeats == 1 && !o->quiet && csv_out == stdout ? stdout : stderr;
	struct run_result r = {0};
	int rc;

	/* The status line: a terminal's (or --progress), never -q's. */
	if (live_wanted(o, STDERR_FILENO))
		x->live = live_new(stderr, x->plan);
	rc = run_each(x, &r, csv_out, tables);
	live_free(x->live);
	x->live = NULL;

	result_free(&r);
	for (unsigned i = 0; x->per && i < o->ndirs; i++)
		result_free(&x->per[i]);
	return rc;
}

/*
 * The document, to its temporary file (renamed over FILE only when
 * whole) or to stdout. Returns 0 or CLI_EXIT_FAILED (after one line); a closed
 * stdout sets x->out_err instead.
 */
static int write_json(struct runs *x, struct outfile *json)
{
	const char *path = x->o->json_path;
	FILE *f = path ? outfile_stream(json) : stdout;
	char p[PATH_MAX * 4 + 1];
	int e = 0;

	if (x->doc_err) {
		error("--json: the document could not be built: out of memory");
		return CLI_EXIT_FAILED;
	}
	if (!f || jsondoc_write(x->doc, x->done,
				(const double(*)[RT_COUNT])x->rates, f) != 0)
		e = errno ? errno : EIO;
	if (!path) {
		if (!e)
			return 0;
		x->out_err = e;
		return 0;
	}
	if (!e && (e = -outfile_commit(json)) == 0)
		return 0;
	error("--json: cannot write '%s': %s", shown(path, p, sizeof(p)),
	      strerror(e));
	return CLI_EXIT_FAILED;
}

/* The buffers the runs need: the chunk buffer (4096-aligned), each
 * target's results, the -x rates. 0, or CLI_EXIT_FAILED after one line. */
static int make_room(struct runs *x)
{
	const struct clyde_opts *o = x->o;

	x->buf_len =
	    (size_t)(o->chunk > o->files_chunk ? o->chunk : o->files_chunk);
	if (posix_memalign((void **)&x->buf, 4096, x->buf_len) != 0) {
		error("out of memory for a %zu-byte buffer", x->buf_len);
		x->buf = NULL;
		return CLI_EXIT_FAILED;
	}
	if (o->ndirs > 1 && !(x->per = calloc(o->ndirs, sizeof(*x->per)))) {
		error("out of memory for %u targets", o->ndirs);
		return CLI_EXIT_FAILED;
	}
	if (!(x->rates = calloc(o->repeats, sizeof(*x->rates)))) {
		error("out of memory for %u runs", o->repeats);
		return CLI_EXIT_FAILED;
	}
	if (o->verify) {
		void *m =
		    mmap(NULL, sizeof(*x->verified), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED) {
			error("--verify: mapping its count: %s",
			      strerror(errno));
			return CLI_EXIT_FAILED;
		}
		x->verified = m;
	}
	return 0;
}

/* After runs under --verify that found nothing wrong: how many blocks
 * were checked, as --verify-only says it of a kept file. */
static void say_verified(const struct runs *x)
{
	unsigned long long n = *x->verified;

	if (!n)
		warning("--verify: no test read the data back: no block "
			"checked");
	else if (x->done > 1)
		warning("--verify: %llu blocks of 4 KiB checked over the %u "
			"runs, all sound",
			n, x->done);
	else
		warning("--verify: %llu blocks of 4 KiB checked, all sound", n);
}

/* The lines before the first test: the user, the data size and how the
 * cache is kept out, the tests an option skips as a side effect (-D). */
static void say_setup(const struct run_plan *rp)
{
	const struct clyde_opts *o = rp->opt;
	const char *note;

	if (!o->quiet)
		say("Using uid:%u, gid:%u.", (unsigned)getuid(),
		    (unsigned)getgid());
	autosize_say(rp, stderr);
	say_cache_method(rp);
	if ((note = runner_skip_note(rp)) != NULL)
		warning("note: %s", note);
}

/*
 * The runs of o, from its plan to the documents: the checks and outputs
 * before the first test, the scratch directories, the runs, and the
 * cleanup on every path out. Returns the exit status.
 */
static int run_clyde(const struct clyde_opts *o)
{
	static struct targets targets; /* 64 paths: not on the stack */
	struct outfile json = {.fd = -1, .slot = -1};
	struct run_plan plan;
	struct runs x = {.o = o, .plan = &plan, .targets = &targets};
	struct autosize sized;
	char why[PATH_MAX * 2 + 64], left[PATH_MAX];
	int status = 0, rc, journal_left = 0;

	plan_init(&plan, o);
	autosize_plan(&plan, &sized);
	if (lockstep_open(&x.ls, o, &stop_signal, stderr) ||
	    targets_check(&plan) || open_outputs(o, &json)) {
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if ((status = make_room(&x)) != 0)
		goto out;
	if (targets_create(&targets, o) || targets_probe_keep(&targets, o)) {
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (o->direct && plan.size &&
	    (rc = targets_probe_direct(&targets, o, x.buf))) {
		status = rc;
		goto out;
	}
	if ((rc = autosize_probe(&plan, &sized, &targets.s[0], x.buf,
				 &stop_signal, stderr)) != 0) {
		status = rc > 0 ? rc : 0;
		goto out;
	}
	if ((status = plan_prepare(&plan)) != 0)
		goto out;
	if ((status = mpirank_agree(0)) != 0)
		goto out;
	say_setup(&plan);
	if (o->json && !(x.doc = jsondoc_new(&plan, time(NULL)))) {
		error("--json: the document could not be built: out of memory");
		status = CLI_EXIT_FAILED;
		goto out;
	}
	status = run_all(&x);
	/* On stderr whatever stdout holds; the document has it too. */
	if (x.done > 1)
		table_print_summary(stderr, x.done,
				    (const double(*)[RT_COUNT])x.rates);
	if (x.verified && status == 0 && x.done && !stop_signal && !x.out_err)
		say_verified(&x);
	if (x.doc && !stop_signal && !x.out_err && write_json(&x, &json))
		status = CLI_EXIT_FAILED;
out:
	/* --keep: the data files of a run that ended well stay; under
	 * --journal, whatever the end. */
	if (x.journaled) {
		/* Not moved out (a cut fails the rename too): the scratch
		 * directory stays with it, as the line said. */
		journal_left =
		    targets_keep(&targets, o, x.journal_seed, stderr);
		if (journal_left)
			status = CLI_EXIT_FAILED;
	} else if (o->keep && status == 0 && !stop_signal && x.done &&
		   targets_keep(&targets, o, x.last_seed, stderr)) {
		status = CLI_EXIT_FAILED;
	}
	rc = journal_left
		 ? 0
		 : targets_remove(&targets, &stop_signal, left, sizeof(left),
				  why, sizeof(why), stderr);
	/* Not committed (a failure, a signal, a closed stdout): the
	 * temporary document goes; FILE keeps what it held. */
	outfile_abort(&json);
	free(x.buf);
	free(x.rates);
	free(x.per);
	if (x.verified)
		munmap(x.verified, sizeof(*x.verified));
	if (x.doc)
		json_decref(x.doc);
	return mpirank_end(targets_finish(status, stop_signal, left, rc, why,
					  x.out_err, "scratch files removed"));
}

int main(int argc, char **argv)
{
	struct clyde_opts o;
	int rc;

	cli_set_prog("clyde");
	cli_ignore_sigpipe();
	if ((rc = opt_exit(opts_parse(argc, argv, &o, stdout, stderr))) >= 0)
		return rc;
	if (o.verify_only) { /* a data file an earlier run kept: no test */
		/* -u/-g: the check reads as that user, as a run would. */
		if (drop_privileges(&o))
			return CLI_EXIT_USAGE;
		return o.journal ? verify_journal(&o, stdout, stderr)
				 : verify_only(o.verify_only, stdout, stderr);
	}
	/* The first to run sets the status; a blocked write() returns so
	 * the phase can stop. A file-size limit is an error to report,
	 * after which the scratch directory is still removed. */
	cli_catch_signals(on_signal, NULL);
	if (o.drop_caches && (geteuid() != 0 || o.privs.drop)) {
		error("--drop-caches: only root can drop the machine's caches "
		      "(and not with -u/-g)");
		return CLI_EXIT_USAGE;
	}
	/* A phase that is not valid is a bug, found before anything is
	 * made. */
	if (runner_init(stderr))
		return CLI_EXIT_FAILED;
	if (drop_privileges(&o))
		return CLI_EXIT_USAGE;
	if ((rc = mpirank_start(&o, &stop_signal)) >= 0)
		return rc;
	if (o.sem_procs) /* makes or removes the semaphore set: no test */
		return lockstep_make(&o, stdout, stderr);
	return run_clyde(&o);
}
