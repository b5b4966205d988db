/*
 * clyde: options -> checks -> scratch directory -> runs -> tables and
 * CSV lines. Everything that can be refused is refused before the first
 * file is made; the scratch directory is removed on every path out,
 * SIGINT and SIGTERM included (their handlers only set a flag that the
 * phases check after every operation).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "csv.h"
#include "dio.h"
#include "jsondoc.h"
#include "options.h"
#include "rng.h"
#include "runner.h"
#include "scratch.h"
#include "table.h"
#include "units.h"

#define EXIT_USAGE 2

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocked write() returns so the phase can stop. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A closed stdout or a file-size limit is an error to report, after
	 * which the scratch directory is still removed. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
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

/* -d must be a directory with room for the data file. */
static int check_dir(struct clyde_opts *o)
{
	struct stat st;
	struct statvfs vfs;
	char a[32], b[32];

	if (stat(o->dir, &st) != 0) {
		fprintf(stderr, "clyde: -d '%s': %s\n", o->dir,
			strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "clyde: -d '%s': not a directory\n", o->dir);
		return -1;
	}
	/* f_blocks 0: a filesystem that keeps no count (ramfs). */
	if (statvfs(o->dir, &vfs) == 0 && vfs.f_blocks) {
		uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;

		/* A size clyde chose shrinks to half the free space (in
		 * 256 MiB steps, at least 256 MiB) rather than fail. */
		if (o->size_chosen && o->size > avail / 2) {
			o->size =
			    avail / 2 / (256 * UNITS_MIB) * (256 * UNITS_MIB);
			if (o->size < 256 * UNITS_MIB)
				o->size = 256 * UNITS_MIB;
		}
		if (o->size > avail) {
			units_fmt_size(a, sizeof(a), o->size);
			units_fmt_size(b, sizeof(b), avail);
			fprintf(stderr, "clyde: -s %s: only %s free in '%s'\n",
				a, b, o->dir);
			return -1;
		}
	}
	return 0;
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
 * O_DIRECT with this chunk, so a refusal is a usage error, not a
 * failure half-way through the run.
 */
static int probe_direct(const struct clyde_opts *o, struct scratch *s,
			unsigned char *buf)
{
	struct dio_align al;
	int fd, e = 0;

	/* The alignment comes from a plain file on the filesystem. */
	fd = openat(s->dirfd, "direct-probe",
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		e = errno;
		goto out;
	}
	close(fd);
	dio_alignment(s->dirfd, "direct-probe", &al);
	if (al.refused) {
		e = EINVAL;
		goto out;
	}
	if (o->chunk % al.offset || 4096 % al.mem) {
		unlinkat(s->dirfd, "direct-probe", 0);
		fprintf(stderr,
			"clyde: -D: chunk %llu is not a multiple of "
			"the %u-byte alignment O_DIRECT needs on '%s' "
			"(from %s)\n",
			(unsigned long long)o->chunk, al.offset, o->dir,
			al.source);
		return -1;
	}
	fd = openat(s->dirfd, "direct-probe",
		    O_WRONLY | O_NOFOLLOW | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
	} else {
		if (write(fd, buf, (size_t)o->chunk) != (ssize_t)o->chunk)
			e = errno ? errno : EIO;
		close(fd);
	}
out:
	unlinkat(s->dirfd, "direct-probe", 0);
	if (!e)
		return 0;
	fprintf(stderr,
		"clyde: -D: '%s' does not take O_DIRECT I/O of %llu "
		"bytes: %s\n",
		o->dir, (unsigned long long)o->chunk, strerror(e));
	return -1;
}

static void result_settings(const struct clyde_opts *o, struct run_result *r,
			    uint64_t seed)
{
	result_init(r);
	snprintf(r->version, sizeof(r->version), "clyde-%s", PACKAGE_VERSION);
	snprintf(r->name, sizeof(r->name), "%s", o->name);
	r->seed = seed;
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

/* The exit status for a stop by signal, after cleanup. */
static int signal_status(void)
{
	return 128 + stop_signal;
}

int main(int argc, char **argv)
{
	struct clyde_opts o;
	struct scratch scratch = {"", -1};
	struct run_result r;
	unsigned char *buf = NULL;
	double(*rates)[RT_COUNT] = NULL; /* per run, for the -x summary */
	unsigned done = 0;
	FILE *tables, *csv_out;
	json_t *doc = NULL;
	size_t buf_len;
	int status = 0;

	switch (opts_parse(argc, argv, &o, stdout, stderr)) {
	case OPT_EXIT_OK:
		return 0;
	case OPT_USAGE:
		return EXIT_USAGE;
	case OPT_RUN:
		break;
	}
	install_handlers();
	if (o.drop_caches && (geteuid() != 0 || o.privs.drop)) {
		fprintf(stderr, "clyde: --drop-caches: only root can drop the "
				"machine's caches (and not with -u/-g)\n");
		return EXIT_USAGE;
	}
	if (drop_privileges(&o) || check_dir(&o))
		return EXIT_USAGE;
	buf_len = (size_t)(o.chunk > o.files_chunk ? o.chunk : o.files_chunk);
	if (posix_memalign((void **)&buf, 4096, buf_len) != 0) {
		fprintf(stderr, "clyde: out of memory for a %zu-byte buffer\n",
			buf_len);
		return 1;
	}
	{
		int rc = scratch_create(&scratch, o.dir);

		if (rc) {
			fprintf(stderr,
				"clyde: -d '%s': cannot make a scratch "
				"directory: %s\n",
				o.dir, strerror(-rc));
			free(buf);
			return EXIT_USAGE;
		}
	}
	if (o.direct && o.size && probe_direct(&o, &scratch, buf)) {
		status = EXIT_USAGE;
		goto out;
	}
	if (!o.quiet)
		fprintf(stderr, "Using uid:%u, gid:%u.\n", (unsigned)getuid(),
			(unsigned)getgid());
	say_cache_method(&o);
	if (o.size && o.direct && !o.fast &&
	    (!o.only || (o.only & ((1u << RT_putc) | (1u << RT_getc)))))
		fprintf(stderr, "clyde: note: per-char tests skipped under -D "
				"(O_DIRECT takes whole aligned blocks only)\n");
	/* --json to stdout: stdout holds the document alone. */
	csv_out = o.json && !o.json_path ? stderr : stdout;
	if (o.repeats > 1) {
		csv_write_header(csv_out, o.csv);
		fflush(csv_out);
	}
	if (o.json)
		doc = jsondoc_new(&o, time(NULL));
	rates = calloc(o.repeats, sizeof(*rates));
	if (!rates) {
		fprintf(stderr, "clyde: out of memory for %u runs\n",
			o.repeats);
		status = 1;
		goto out;
	}
	for (unsigned run = 0; run < o.repeats && !stop_signal; run++) {
		struct runner_env env = {
		    .opt = &o,
		    .scratch = &scratch,
		    .buf = buf,
		    .buf_len = buf_len,
		    .stop = &stop_signal,
		    .progress = o.quiet ? NULL : stderr,
		    .err = stderr,
		};
		uint64_t seed = o.seed_set ? o.seed : rng_fresh_seed();
		enum runner_status st;

		result_settings(&o, &r, seed);
		st = runner_run(&env, &r);
		if (st == RUNNER_STOPPED)
			break;
		if (st == RUNNER_FAILED) {
			status = 1;
			if (doc)
				jsondoc_add_run(doc, &r);
			break;
		}
		/* stdout keeps to CSV under -q and with -x N > 1. */
		tables = o.repeats == 1 && !o.quiet && csv_out == stdout
			     ? stdout
			     : stderr;
		table_print(tables, &r, o.layout);
		if (o.latency)
			table_print_latency(tables, &r);
		csv_write(csv_out, &r, o.csv);
		fflush(csv_out);
		if (doc)
			jsondoc_add_run(doc, &r);
		for (int t = 0; t < RT_COUNT; t++)
			rates[done][t] =
			    r.t[t].state == RS_OK
				? result_rate(&r.t[t], result_test_kind(t))
				: NAN;
		done++;
	}
	if (done > 1 && !doc)
		table_print_summary(stderr, done,
				    (const double(*)[RT_COUNT])rates);
	if (doc && !stop_signal &&
	    jsondoc_write(doc, done, (const double(*)[RT_COUNT])rates,
			  o.json_path, stderr) &&
	    status == 0)
		status = 1;
out:
	if (scratch_remove(&scratch) != 0 && status == 0) {
		fprintf(stderr,
			"clyde: could not remove the scratch directory "
			"'%s'\n",
			scratch.path);
		status = 1;
	}
	free(buf);
	free(rates);
	if (doc)
		json_decref(doc);
	if (stop_signal) {
		fprintf(stderr,
			"clyde: interrupted by signal %d; scratch "
			"files removed\n",
			(int)stop_signal);
		return signal_status();
	}
	if (status == 0 && (ferror(stdout) || fflush(stdout) != 0)) {
		fprintf(stderr, "clyde: writing results: %s\n",
			strerror(errno));
		status = 1;
	}
	return status;
}
