/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scan: the table and the cold scans. pgbench_accounts is loaded at the
 * scale that makes it about the size asked for (pgbench -i -I dtgv: no
 * primary key, the scan needs none; VACUUM sets the hint bits and the
 * visibility map, so the timed scans write nothing), then checkpointed.
 * Each cold scan stops the server (a checkpoint), evicts the table's
 * files from the page cache (or drops the whole cache, as root), starts
 * the server and, in one psql session, reads the backend's own
 * /proc/self/stat and clock_timestamp() around `select count(*)`. The
 * elapsed time and the backend's CPU seconds are its figures.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "cli.h"
#include "pgscan_prog.h"

/* pg_relation_size of pgbench_accounts per scale unit in PostgreSQL 15
 * (1640 pages of 8 KiB), for the choice of the scale only: the real
 * size is read back and reported. */
#define BYTES_PER_SCALE (1640.0 * 8192)

/* The time and the backend's CPU ticks, one line "epoch utime stime":
 * fields 14 and 15 of /proc/self/stat, the 12th and 13th after the
 * command's closing parenthesis. */
#define STAMP                                                                  \
	"select extract(epoch from clock_timestamp()) || ' ' || s[12] || ' ' " \
	"|| s[13] from (select string_to_array(split_part("                    \
	"pg_read_file('/proc/self/stat'), ') ', 2), ' ') as s) as x"

/* A file of the scratch directory into buf (NUL-terminated). */
static void read_scratch(const struct pg_run *r, const char *name, char *buf,
			 size_t len)
{
	int fd = openat(r->scratch.dirfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? 0 : read(fd, buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

int pg_psql(struct pg_run *r, const struct pg_result *res,
	    const char *const *stmts, const char *name, char *outbuf,
	    size_t outlen)
{
	char psql[PATH_MAX], outn[64], errn[64], port[16], path[PATH_MAX];
	char *argv[40] = {
	    psql,      "-X",	"-A", "-t", "-q", "-v",	      "ON_ERROR_STOP=1",
	    "-h",      r->sock, "-p", port, "-U", "postgres", "-d",
	    "postgres"};
	int n = 15, st;

	pg_path(psql, sizeof(psql), res->bindir, "psql");
	snprintf(port, sizeof(port), "%d", PG_PORT);
	snprintf(outn, sizeof(outn), "%s.out", name);
	snprintf(errn, sizeof(errn), "%s.err", name);
	for (; *stmts && n < 38; stmts++) {
		argv[n++] = "-c";
		argv[n++] = (char *)*stmts;
	}
	argv[n] = NULL;
	st = pg_child(r, argv, outn, errn);
	if (st) {
		char why[512];

		if (st < 0 && pg_stop)
			return CLI_EXIT_FAILED;
		pg_path(path, sizeof(path), r->scratch.path, errn);
		pg_log_reason(path, why, sizeof(why));
		error("psql (%s) failed: %s", name,
		      st < 0   ? strerror(errno)
		      : why[0] ? why
			       : "no reason");
		return CLI_EXIT_FAILED;
	}
	read_scratch(r, outn, outbuf, outlen);
	return 0;
}

/* The relation's size, its file and the server's version. */
static int describe(struct pg_run *r, struct pg_result *res)
{
	static const char *const sql[] = {
	    "select current_setting('server_version'), "
	    "pg_relation_filepath('pgbench_accounts'), "
	    "pg_relation_size('pgbench_accounts')",
	    "checkpoint", NULL};
	char out[2 * PATH_MAX], *v, *f, *sz, *save;

	if (pg_psql(r, res, sql, "describe", out, sizeof(out)))
		return CLI_EXIT_FAILED;
	v = strtok_r(out, "|", &save);
	f = strtok_r(NULL, "|", &save);
	sz = strtok_r(NULL, "|\n", &save);
	if (!v || !f || !sz)
		return error("psql gave no relation size: '%s'", out),
		       CLI_EXIT_FAILED;
	/* "15.20 (Debian 15.20-0+deb12u1)": the number is the version. */
	snprintf(res->version, sizeof(res->version), "%.*s",
		 (int)strcspn(v, " "), v);
	pg_path(res->relpath, sizeof(res->relpath), r->data, f);
	res->rel_bytes = strtoull(sz, NULL, 10);
	return 0;
}

int pg_load(struct pg_run *r, struct pg_result *res, uint64_t size)
{
	char pgbench[PATH_MAX], scale[32], port[16], path[PATH_MAX];
	char *argv[] = {pgbench, "-i",	     "-I",	 "dtgv", "-s",
			scale,	 "-h",	     r->sock,	 "-p",	 port,
			"-U",	 "postgres", "postgres", NULL};
	double s = floor((double)size / BYTES_PER_SCALE + 0.5);
	int st;

	res->scale = s < 1 ? 1 : (unsigned)s;
	pg_path(pgbench, sizeof(pgbench), res->bindir, "pgbench");
	snprintf(scale, sizeof(scale), "%u", res->scale);
	snprintf(port, sizeof(port), "%d", PG_PORT);
	if (!r->o->quiet)
		warning("loading pgbench_accounts at scale %u", res->scale);
	st = pg_child(r, argv, "pgbench.log", "pgbench.log");
	if (st) {
		char why[512];

		if (st < 0 && pg_stop)
			return CLI_EXIT_FAILED;
		pg_path(path, sizeof(path), r->scratch.path, "pgbench.log");
		pg_log_reason(path, why, sizeof(why));
		error("pgbench -i failed: %s", st < 0	? strerror(errno)
					       : why[0] ? why
							: "no reason");
		return CLI_EXIT_FAILED;
	}
	return describe(r, res);
}

/* Evict one file of the relation; its size and resident bytes added.
 * 0, 1 when there is no such file, or -errno. */
static int evict_one(const char *path, int drop, uint64_t *bytes,
		     double *resident)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), e = 0;
	struct stat st;
	double f;

	if (fd < 0)
		return errno == ENOENT ? 1 : -errno;
	if (fstat(fd, &st))
		e = -errno;
	else if (!drop)
		e = cache_evict_fd(fd);
	if (!e && st.st_size > 0) {
		f = cache_resident(fd, (uint64_t)st.st_size);
		*bytes += (uint64_t)st.st_size;
		*resident += (f > 0 ? f : 0) * (double)st.st_size;
	}
	close(fd);
	return e;
}

/* Every fork and segment of the relation out of the page cache; the
 * share still resident in *share. 0, or the exit status after a line. */
static int evict(struct pg_run *r, struct pg_result *res, double *share)
{
	static const char *const forks[] = {"_fsm", "_vm"};
	char path[PATH_MAX + 32];
	uint64_t bytes = 0;
	double resident = 0;
	int e = 0;

	if (r->o->drop_caches && (e = cache_drop_all()) != 0)
		return error("dropping the page cache: %s", strerror(-e)),
		       CLI_EXIT_FAILED;
	for (unsigned seg = 0; e == 0; seg++) {
		if (seg)
			snprintf(path, sizeof(path), "%s.%u", res->relpath,
				 seg);
		else
			snprintf(path, sizeof(path), "%s", res->relpath);
		e = evict_one(path, r->o->drop_caches, &bytes, &resident);
		if (e == 1 && seg == 0)
			e = -ENOENT;
	}
	for (unsigned i = 0; i < 2 && e >= 0; i++) {
		snprintf(path, sizeof(path), "%s%s", res->relpath, forks[i]);
		e = evict_one(path, r->o->drop_caches, &bytes, &resident);
	}
	if (e < 0)
		return error("evicting %s: %s", path, strerror(-e)),
		       CLI_EXIT_FAILED;
	*share = bytes ? resident / (double)bytes : 0;
	return 0;
}

/* "epoch utime stime" into seconds and ticks. */
static int stamp(const char *line, double *t, double *u, double *s)
{
	return sscanf(line, "%lf %lf %lf", t, u, s) == 3 ? 0 : -1;
}

/* The timed session: the scan between two stamps. */
static int timed_scan(struct pg_run *r, struct pg_result *res,
		      struct pg_scan *sc)
{
	char set[64], out[1024], *l1, *l2, *l3, *save;
	const char *const sql[] = {
	    set, STAMP, "select count(*) from pgbench_accounts", STAMP, NULL};
	double t0, u0, s0, t1, u1, s1, tck = (double)sysconf(_SC_CLK_TCK);

	snprintf(set, sizeof(set), "set max_parallel_workers_per_gather = %u",
		 r->o->parallel);
	if (pg_psql(r, res, sql, "scan", out, sizeof(out)))
		return CLI_EXIT_FAILED;
	l1 = strtok_r(out, "\n", &save);
	l2 = strtok_r(NULL, "\n", &save);
	l3 = strtok_r(NULL, "\n", &save);
	if (!l1 || !l2 || !l3 || stamp(l1, &t0, &u0, &s0) ||
	    stamp(l3, &t1, &u1, &s1))
		return error("psql gave no scan times"), CLI_EXIT_FAILED;
	sc->elapsed = t1 - t0;
	sc->user = (u1 - u0) / tck;
	sc->sys = (s1 - s0) / tck;
	return 0;
}

int pg_cold_scan(struct pg_run *r, struct pg_result *res, unsigned i)
{
	struct pg_scan *sc = &res->scan[i];
	int st;

	if ((st = pg_server_stop(r, res, "fast")) != 0 ||
	    (st = evict(r, res, &sc->resident)) != 0)
		return st;
	if (sc->resident > res->resident_max)
		res->resident_max = sc->resident;
	if (sc->resident > 0.05 && !res->cannot_evict) {
		res->cannot_evict = 1;
		warning("warning: %.0f%% of the table stayed in the page "
			"cache (a filesystem that cannot evict, as tmpfs): "
			"the scans read memory",
			sc->resident * 100);
	}
	if ((st = pg_server_start(r, res)) != 0)
		return st;
	if (!r->o->quiet)
		warning("scan %u of %u started", i + 1, r->o->runs);
	if ((st = timed_scan(r, res, sc)) != 0)
		return st;
	res->nscans = i + 1;
	return 0;
}
