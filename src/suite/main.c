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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cli.h"
#include "csv.h"
#include "jsondoc.h"
#include "lockstep.h"
#include "mpirank.h"
#include "options.h"
#include "outfile.h"
#include "rng.h"
#include "runner.h"
#include "scratch.h"
#include "target.h"
#include "table.h"
#include "text.h"
#include "units.h"

#define EXIT_USAGE 2

static volatile sig_atomic_t stop_signal;

/* The first signal decides the exit status; later ones only repeat the
 * request to stop. */
static void on_signal(int sig)
{
	cli_stop_first(&stop_signal, sig);
}

/* A user-given value or path, for a message: one line (text.h). */
static const char *shown(const char *s, char *buf, size_t len)
{
	text_escape(s, buf, len, TEXT_LINE);
	return buf;
}

/*
 * A size for a message, in the largest of K, M, G, T it reaches: rounded
 * up for what is needed (up), down for what is free, so "needs 1G, only
 * 1G free" cannot happen.
 */
static void fmt_bytes(char *buf, size_t len, uint64_t v, int up)
{
	static const char units[] = "KMGT";
	uint64_t unit = 1024;
	int i = 0;

	while (i < 3 && v >= unit * 1024) {
		unit *= 1024;
		i++;
	}
	snprintf(buf, len, "%llu%c",
		 (unsigned long long)((v + (up ? unit - 1 : 0)) / unit),
		 units[i]);
}

/* bonnie++'s -u/-g, before anything is made under -d. */
static int drop_privileges(const struct clyde_opts *o)
{
	char why[200];

	if (privs_drop(&o->privs, why, sizeof(why)) == 0)
		return 0;
	fprintf(stderr, "clyde: -u/-g: %s\n", why);
	return -1;
}

/*
 * The room the file tests take, by this rule: each file its largest
 * size rounded up to a block of the filesystem (a symbolic link one
 * block, a hard link nothing), plus 64 bytes of directory entry; one
 * block per subdirectory, the test directory and the link target. And
 * one inode per file (one in all for hard links) and per directory.
 */
static void files_need(const struct clyde_opts *o, uint64_t block,
		       uint64_t *bytes, uint64_t *inodes)
{
	/* -c N: N file sets. */
	uint64_t count = o->files_num * 1024 * o->concurrency, each = 0, dirs;

	*bytes = *inodes = 0;
	if (!count)
		return;
	if (o->files_max > 0)
		each = ((uint64_t)o->files_max + block - 1) / block * block;
	else if (o->files_max == -2)
		each = block;
	/* Per copy; -c N > 1 adds each copy's directory. */
	dirs = (o->files_dirs + 2) * o->concurrency +
	       (o->concurrency > 1 ? o->concurrency : 0);
	*bytes = count * (each + 64) + dirs * block;
	*inodes = (o->files_max == -1 ? o->concurrency : count) + dirs;
}

/* Half of avail, in whole MiB (a multiple of any chunk): a -s to offer. */
static void suggest_size(char *buf, size_t len, uint64_t avail)
{
	uint64_t half = avail / 2 / UNITS_MIB * UNITS_MIB;

	if (half)
		units_fmt_size(buf, len, half);
	else
		snprintf(buf, len, "0");
}

/*
 * The data file and the file tests must fit in f_bavail (the data file
 * stays while the file tests run). A size clyde chose shrinks to half
 * of what the file tests leave (in 256 MiB steps, at least 256 MiB)
 * rather than fail; when even that does not fit, the message says what
 * was chosen, why it does not fit and what to give instead.
 */
static int check_space(struct clyde_opts *o, const struct statvfs *vfs)
{
	uint64_t avail = (uint64_t)vfs->f_bavail * vfs->f_frsize;
	uint64_t fbytes, finodes, left;
	char a[32], b[32], c[32], d[PATH_MAX * 4 + 1], n[1024];

	files_need(o, vfs->f_frsize ? vfs->f_frsize : 4096, &fbytes, &finodes);
	shown(o->dir, d, sizeof(d));
	shown(o->files_arg ? o->files_arg : "16", n, sizeof(n));
	fmt_bytes(b, sizeof(b), avail, 0);
	if (fbytes > avail) {
		fmt_bytes(a, sizeof(a), fbytes, 1);
		fprintf(stderr,
			"clyde: -n %s: the file tests need %s (each file's "
			"largest size rounded up to a block, plus 64 bytes), "
			"only %s free in '%s'\n",
			n, a, b, d);
		return -1;
	}
	if (vfs->f_files && finodes > (uint64_t)vfs->f_favail) {
		fprintf(stderr,
			"clyde: -n %s: the file tests need %llu inodes, only "
			"%llu free in '%s'\n",
			n, (unsigned long long)finodes,
			(unsigned long long)vfs->f_favail, d);
		return -1;
	}
	/* -c N: N data files; left is what each may take. */
	left = (avail - fbytes) / o->concurrency;
	if (o->size_chosen && o->size > left / 2) {
		o->size = left / 2 / (256 * UNITS_MIB) * (256 * UNITS_MIB);
		if (o->size < 256 * UNITS_MIB)
			o->size = 256 * UNITS_MIB;
		if (o->size > left) {
			suggest_size(c, sizeof(c), left);
			fmt_bytes(b, sizeof(b), left, 0);
			fprintf(
			    stderr,
			    "clyde: no -s given, and the smallest data size "
			    "clyde chooses, 256M, does not fit: only %s "
			    "free in '%s'%s; give a smaller size, e.g. "
			    "-s %s\n",
			    b, d, fbytes ? " besides the file tests" : "", c);
			return -1;
		}
	}
	if (o->size <= left)
		return 0;
	units_fmt_size(a, sizeof(a), o->size);
	suggest_size(c, sizeof(c), left);
	if (!o->size_set && !o->size_chosen)
		/* -r without -s: bonnie++'s rule chose the size. */
		fprintf(stderr,
			"clyde: -r %s: the data size for that RAM (twice it, "
			"as bonnie++), %s, is more than the %s free in "
			"'%s'%s; give -s, e.g. -s %s\n",
			shown(o->ram_arg, n, sizeof(n)), a, b, d,
			fbytes ? " with the file tests" : "", c);
	else if (fbytes)
		fprintf(stderr,
			"clyde: -s %s with -n %s: the data file and the file "
			"tests need %s and %s, only %s free in '%s'\n",
			a, n, a, (fmt_bytes(c, sizeof(c), fbytes, 1), c), b, d);
	else
		fprintf(stderr, "clyde: -s %s: only %s free in '%s'\n", a, b,
			d);
	return -1;
}

/* -d must be a directory with room for the data file and the files. */
static int check_dir(struct clyde_opts *o)
{
	struct stat st;
	struct statvfs vfs;
	char d[PATH_MAX * 4 + 1];

	if (stat(o->dir, &st) != 0) {
		fprintf(stderr, "clyde: -d '%s': %s\n",
			shown(o->dir, d, sizeof(d)), strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "clyde: -d '%s': not a directory\n",
			shown(o->dir, d, sizeof(d)));
		return -1;
	}
	/* f_blocks 0: a filesystem that keeps no count (ramfs). */
	if (statvfs(o->dir, &vfs) == 0 && vfs.f_blocks)
		return check_space(o, &vfs);
	return 0;
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
	fprintf(stderr, "clyde: --json: %s\n", shown(why, line, sizeof(line)));
	return -1;
}

/* One line on how the page cache is kept out, and the size when clyde
 * chose it. */
static void say_cache_method(const struct clyde_opts *o)
{
	char a[32];

	if (o->size == 0)
		return;
	units_fmt_size(a, sizeof(a), o->size);
	fprintf(stderr, "clyde: data %s%s, %s\n", a,
		o->size_chosen ? " (no -s given)" : "",
		o->direct	 ? "O_DIRECT: the page cache is not used"
		: o->drop_caches ? "page cache evicted and the machine's "
				   "caches dropped before each read test"
				 : "page cache evicted before each read "
				   "test");
}

/*
 * Under -D, find out before any phase whether the filesystem takes
 * O_DIRECT with this chunk. A filesystem that refuses it (EINVAL) or a
 * chunk its alignment forbids is the user's choice to change: usage,
 * exit 2. Any other error (EIO, ENOSPC) is the run failing: exit 1.
 * Returns 0 or the exit status.
 */
static int probe_direct(const struct clyde_opts *o, struct scratch *s,
			unsigned char *buf)
{
	struct target_align al;
	char d[PATH_MAX * 4 + 1], p[PATH_MAX * 4 + 1];
	const char *call;
	int e = target_probe_direct(s->dirfd, "direct-probe", buf,
				    (size_t)o->chunk, &al, &call);

	shown(o->dir, d, sizeof(d));
	if (e == 0)
		return 0;
	if (e == TARGET_MISALIGNED) {
		fprintf(stderr,
			"clyde: -D: chunk %llu is not a multiple of "
			"the %u-byte alignment O_DIRECT needs on '%s' "
			"(from %s)\n",
			(unsigned long long)o->chunk, al.offset, d, al.source);
		return EXIT_USAGE;
	}
	if (e == EINVAL) {
		fprintf(stderr,
			"clyde: -D: '%s' does not take O_DIRECT I/O of %llu "
			"bytes: %s\n",
			d, (unsigned long long)o->chunk, strerror(e));
		return EXIT_USAGE;
	}
	fprintf(stderr, "clyde: -D probe: %s %s/direct-probe: %s\n", call,
		shown(s->path, p, sizeof(p)), strerror(e));
	return 1;
}

/* r (all zeros, or a run before) afresh for a run of seed. */
static void result_settings(const struct clyde_opts *o, struct run_result *r,
			    uint64_t seed)
{
	result_free(r);
	result_init(r);
	snprintf(r->version, sizeof(r->version), "clyde-%s", PACKAGE_VERSION);
	snprintf(r->name, sizeof(r->name), "%.*s", (int)sizeof(r->name) - 1,
		 o->name);
	r->seed = seed;
	r->concurrency = o->concurrency;
	r->file_size = o->size;
	r->chunk = o->chunk;
	r->seeks = o->seeks;
	r->seek_procs = o->procs;
	r->num_files = o->files_num;
	r->max_size = o->files_max;
	r->min_size = o->files_min;
	r->num_dirs = o->files_dirs;
	/* Left empty at the default, like the other defaults. */
	r->file_chunk =
	    o->files_chunk == OPT_FILES_CHUNK_DEFAULT ? 0 : o->files_chunk;
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
	struct scratch *scratch;
	struct lockstep ls; /* -y: keeping in step before each test */
	unsigned char *buf;
	size_t buf_len;
	json_t *doc;
	double (*rates)[RT_COUNT]; /* per run, for the -x summary */
	unsigned done;
	int out_err; /* errno of a failed write to stdout: no more runs */
	int doc_err; /* a run could not be added to the document */
};

/* The -x runs into r, each afresh. Returns 0, or 1 when a run failed. */
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
		    .scratch = x->scratch,
		    .buf = x->buf,
		    .buf_len = x->buf_len,
		    .stop = &stop_signal,
		    .progress = o->quiet ? NULL : stderr,
		    .err = stderr,
		    .sync = lockstep_wait,
		    .sync_arg = &x->ls,
		};
		uint64_t seed = o->seed_set ? o->seed : rng_fresh_seed();
		enum runner_status st;

		result_settings(o, r, seed);
		st = runner_run(&env, r);
		if (st == RUNNER_STOPPED)
			break;
		if (st == RUNNER_FAILED) {
			if (x->doc && jsondoc_add_run(x->doc, r))
				x->doc_err = 1;
			return 1;
		}
		table_print(tables, r, o->layout);
		if (o->latency)
			table_print_latency(tables, r);
		csv_write(csv_out, r, o->csv);
		/* stdout is flushed once, here, so its errno is the one seen
		 * (a second fflush after a failed one reports nothing). */
		fflush(stderr);
		if ((x->out_err = flush_stdout()) != 0)
			break;
		if (x->doc && jsondoc_add_run(x->doc, r)) {
			x->doc_err = 1;
			return 1;
		}
		for (int t = 0; t < RT_COUNT; t++)
			x->rates[x->done][t] =
			    r->t[t].state == RS_OK
				? result_rate(&r->t[t], result_test_kind(t))
				: NAN;
		x->done++;
	}
	return 0;
}

/* The -x runs. Returns 0, or 1 when a run failed. */
static int run_all(struct runs *x)
{
	const struct clyde_opts *o = x->o;
	/* --json to stdout: stdout holds the document alone. */
	FILE *csv_out = o->json && !o->json_path ? stderr : stdout;
	/* stdout keeps to CSV under -q and with -x N > 1. */
	FILE *tables =
	    o->repeats == 1 && !o->quiet && csv_out == stdout ? stdout : stderr;
	struct run_result r = {0};
	int rc = run_each(x, &r, csv_out, tables);

	result_free(&r);
	return rc;
}

/*
 * The document, to its temporary file (renamed over FILE only when
 * whole) or to stdout. Returns 0 or 1 (after one line); a closed stdout
 * sets x->out_err instead.
 */
static int write_json(struct runs *x, struct outfile *json)
{
	const char *path = x->o->json_path;
	FILE *f = path ? outfile_stream(json) : stdout;
	char p[PATH_MAX * 4 + 1];
	int e = 0;

	if (x->doc_err) {
		fprintf(stderr, "clyde: --json: the document could not be "
				"built: out of memory\n");
		return 1;
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
	fprintf(stderr, "clyde: --json: cannot write '%s': %s\n",
		shown(path, p, sizeof(p)), strerror(e));
	return 1;
}

/*
 * The exit status once everything is cleaned up, and the last line:
 * a scratch directory left behind is named with why, and never called
 * removed (exit 1, even after a signal); then the first signal's status
 * (128 + signo); then a closed stdout (141, silent).
 */
static int finish(int status, const struct scratch *scratch, int rm_rc,
		  const char *rm_why, int out_err)
{
	char p[PATH_MAX * 4 + 1], w[PATH_MAX * 4 + 64];

	if (rm_rc) {
		shown(scratch->path, p, sizeof(p));
		shown(rm_why, w, sizeof(w));
		if (stop_signal)
			fprintf(stderr,
				"clyde: interrupted by signal %d; could not "
				"remove the scratch directory '%s': %s\n",
				(int)stop_signal, p, w);
		else
			fprintf(stderr,
				"clyde: could not remove the scratch directory "
				"'%s': %s\n",
				p, w);
		return 1;
	}
	if (stop_signal) {
		fprintf(stderr,
			"clyde: interrupted by signal %d; scratch files "
			"removed\n",
			(int)stop_signal);
		return 128 + stop_signal;
	}
	if (status)
		return status;
	if (out_err)
		return cli_stdout_failed("clyde", out_err);
	return cli_stdout_close("clyde");
}

int main(int argc, char **argv)
{
	struct clyde_opts o;
	struct scratch scratch = {"", -1};
	struct outfile json = {.fd = -1, .slot = -1};
	struct runs x = {.o = &o, .scratch = &scratch};
	char why[PATH_MAX * 2 + 64], d[PATH_MAX * 4 + 1];
	int status = 0, rc;

	cli_ignore_sigpipe();
	switch (opts_parse(argc, argv, &o, stdout, stderr)) {
	case OPT_EXIT_OK:
		return cli_stdout_close("clyde");
	case OPT_USAGE:
		return EXIT_USAGE;
	case OPT_RUN:
		break;
	}
	/* The first to run sets the status; a blocked write() returns so
	 * the phase can stop. A file-size limit is an error to report,
	 * after which the scratch directory is still removed. */
	cli_catch_signals(on_signal, NULL);
	if (o.drop_caches && (geteuid() != 0 || o.privs.drop)) {
		fprintf(stderr, "clyde: --drop-caches: only root can drop the "
				"machine's caches (and not with -u/-g)\n");
		return EXIT_USAGE;
	}
	/* A phase that is not valid is a bug, found before anything is
	 * made. */
	if (runner_init(stderr))
		return 1;
	if (drop_privileges(&o))
		return EXIT_USAGE;
	if ((rc = mpirank_start(&o, &stop_signal)) >= 0)
		return rc;
	if (o.sem_procs) /* makes or removes the semaphore set: no test */
		return lockstep_make(&o, stdout, stderr);
	if (lockstep_open(&x.ls, &o, &stop_signal, stderr) || check_dir(&o) ||
	    open_outputs(&o, &json))
		return EXIT_USAGE;
	x.buf_len = (size_t)(o.chunk > o.files_chunk ? o.chunk : o.files_chunk);
	if (posix_memalign((void **)&x.buf, 4096, x.buf_len) != 0) {
		fprintf(stderr, "clyde: out of memory for a %zu-byte buffer\n",
			x.buf_len);
		x.buf = NULL;
		status = 1;
		goto out;
	}
	rc = scratch_create(&scratch, o.dir);
	if (rc) {
		/* path holds the template: nothing of ours to remove. */
		scratch.path[0] = '\0';
		fprintf(stderr,
			"clyde: -d '%s': cannot make a scratch directory: %s\n",
			shown(o.dir, d, sizeof(d)), strerror(-rc));
		status = EXIT_USAGE;
		goto out;
	}
	if (o.direct && o.size && (rc = probe_direct(&o, &scratch, x.buf))) {
		status = rc;
		goto out;
	}
	if ((status = mpirank_agree(0)) != 0)
		goto out;
	if (!o.quiet)
		fprintf(stderr, "Using uid:%u, gid:%u.\n", (unsigned)getuid(),
			(unsigned)getgid());
	say_cache_method(&o);
	if (o.size && o.direct && !o.fast &&
	    (!o.only || (o.only & ((1u << RT_putc) | (1u << RT_getc)))))
		fprintf(stderr, "clyde: note: per-char tests skipped under -D "
				"(O_DIRECT takes whole aligned blocks only)\n");
	if (o.json && !(x.doc = jsondoc_new(&o, time(NULL)))) {
		fprintf(stderr, "clyde: --json: the document could not be "
				"built: out of memory\n");
		status = 1;
		goto out;
	}
	x.rates = calloc(o.repeats, sizeof(*x.rates));
	if (!x.rates) {
		fprintf(stderr, "clyde: out of memory for %u runs\n",
			o.repeats);
		status = 1;
		goto out;
	}
	status = run_all(&x);
	if (x.done > 1 && !x.doc)
		table_print_summary(stderr, x.done,
				    (const double(*)[RT_COUNT])x.rates);
	if (x.doc && !stop_signal && !x.out_err && write_json(&x, &json))
		status = 1;
out:
	rc = scratch_remove_why(&scratch, why, sizeof(why));
	/* Not committed (a failure, a signal, a closed stdout): the
	 * temporary document goes; FILE keeps what it held. */
	outfile_abort(&json);
	free(x.buf);
	free(x.rates);
	if (x.doc)
		json_decref(x.doc);
	return mpirank_end(finish(status, &scratch, rc, why, x.out_err));
}
