/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify_only: see verify_only.h. One pass over the file, read only (it
 * is never opened for writing), in reads of VO_READ bytes. Every whole
 * 4 KiB block must have a sound header and CRC (lib/fill's
 * fill_header_read), its own offset and the seed of the file's first
 * block; the generations are gathered as it goes, and a block older
 * than the newest one seen is a lost write, told once the pass is done,
 * since the newest may come last. The first fault of another kind ends
 * the pass at once.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "fill.h"
#include "options.h"
#include "text.h"
#include "verify_only.h"
#include "xfer.h"

#define VO_READ (1u << 20)

/* What the pass found so far. */
struct vo {
	uint64_t blocks, seed;
	uint32_t newest, oldest;
	uint64_t oldest_off; /* the first block of the oldest generation */
	struct fill_bad bad; /* the first fault that ends the pass */
	int failed;
	int journaled;	/* a block was written under --journal: the pass
			 * ends, refused */
	uint32_t *gens; /* per block, for the count of lost ones */
	uint64_t ngens;
};

/* One block at off: 0, or 1 with v->bad set. */
static int vo_block(struct vo *v, const unsigned char *b, uint64_t off)
{
	uint64_t at, seed;
	uint32_t gen;

	if (fill_header_read(b, &at, &seed, &gen, NULL) != 0) {
		v->bad = (struct fill_bad){.fault = FILL_CORRUPT, .off = off};
		return 1;
	}
	/* Its generations are the journal's: only it can judge them. */
	if (fill_header_flags(b) & FILL_HDR_JOURNALED) {
		v->journaled = 1;
		return 1;
	}
	if (v->blocks == 0)
		v->seed = seed;
	if (seed != v->seed) {
		v->bad = (struct fill_bad){.fault = FILL_FOREIGN,
					   .off = off,
					   .want = v->seed,
					   .got = seed};
		return 1;
	}
	if (at != off) {
		v->bad = (struct fill_bad){.fault = FILL_MISPLACED,
					   .off = off,
					   .want = off,
					   .got = at};
		return 1;
	}
	if (v->blocks == 0 || gen > v->newest)
		v->newest = gen;
	if (v->blocks == 0 || gen < v->oldest) {
		v->oldest = gen;
		v->oldest_off = off;
	}
	if (v->gens && v->blocks < v->ngens)
		v->gens[v->blocks] = gen;
	v->blocks++;
	return 0;
}

/* Read fd whole, block by block: 0, or -errno (why set). */
static int vo_pass(struct vo *v, int fd, unsigned char *buf, char *why,
		   size_t wlen)
{
	uint64_t off = 0;

	for (;;) {
		ssize_t n = xfer_read_all(fd, buf, VO_READ, NULL);

		if (n < 0) {
			snprintf(why, wlen, "read at offset %" PRIu64, off);
			return (int)n;
		}
		for (size_t i = 0; i + FILL_BLOCK <= (size_t)n; i += FILL_BLOCK)
			if (vo_block(v, buf + i, off + i)) {
				v->failed = 1;
				return 0;
			}
		off += (uint64_t)n;
		if ((size_t)n < VO_READ)
			return 0;
	}
}

int verify_open(const char *path, const char *what, const char *whose,
		struct stat *st, FILE *err)
{
	const char *why = NULL;
	struct stat lst;
	int fd = -1;

	if (lstat(path, &lst) != 0)
		why = strerror(errno);
	else if (S_ISLNK(lst.st_mode))
		why = "a symbolic link, not followed: name the file itself";
	else if (!S_ISREG(lst.st_mode))
		why = "not a regular file";
	else if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
				      O_CLOEXEC)) < 0)
		why = strerror(errno);
	else if (fstat(fd, st) != 0)
		why = strerror(errno);
	else if (st->st_dev != lst.st_dev || st->st_ino != lst.st_ino)
		why = "replaced while it was opened";
	if (!why)
		return fd;
	error_on(err, "%s: %s%s", what, whose, why);
	if (fd >= 0)
		close(fd);
	return -1;
}

/*
 * The seed the line names: a -c worker's file (kept as
 * clyde-kept.SEED.w.K, SEED the run's) carries a seed derived from the
 * run's (fill_worker_seed); when the name's SEED gives the file's seed
 * for some worker, the line names the run's seed and the worker, as the
 * user gave and saw them, and the content's seed beside.
 */
static void vo_seed_text(const char *path, uint64_t seed, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	unsigned long long run;
	unsigned k;
	int end = 0;

	base = base ? base + 1 : path;
	if (sscanf(base, "clyde-kept.%llu.w.%u%n", &run, &k, &end) == 2 &&
	    base[end] == '\0' && k > 0)
		for (unsigned n = 1; n <= OPT_CONCURRENCY_MAX * OPT_TARGETS_MAX;
		     n++)
			if (fill_worker_seed(run, n) == seed) {
				snprintf(buf, len,
					 "run seed %llu, worker %u's content "
					 "seed %" PRIu64,
					 run, k, seed);
				return;
			}
	snprintf(buf, len, "seed %" PRIu64, seed);
}

/* The line of a pass without a fault of the ending kind. */
static int vo_report(const struct vo *v, const char *path, const char *shown,
		     FILE *out, FILE *err)
{
	uint64_t lost = 0;
	char text[256];

	if (v->journaled) {
		error_on(err,
			 "--verify-only '%s': written under --journal: give "
			 "it (--journal=FILE, the journal of its run)",
			 shown);
		return CLI_EXIT_USAGE;
	}
	for (uint64_t i = 0; v->gens && i < v->blocks && i < v->ngens; i++)
		lost += v->gens[i] < v->newest;
	if (v->failed && v->bad.fault == FILL_CORRUPT) {
		/* fill_header_read tells no more than that it failed. */
		error_on(err,
			 "--verify-only '%s': block at offset %" PRIu64
			 ": bad magic or CRC (%s)",
			 shown, v->bad.off,
			 v->blocks ? "corrupt data"
				   : "corrupt, or not a data file a --keep "
				     "--verify run left");
		return CLI_EXIT_FAILED;
	}
	if (v->failed) {
		fill_bad_text(&v->bad, text, sizeof(text));
		error_on(err, "--verify-only '%s': %s", shown, text);
		return CLI_EXIT_FAILED;
	}
	if (v->blocks == 0) {
		error_on(err,
			 "--verify-only '%s': no whole 4 KiB block to "
			 "check",
			 shown);
		return CLI_EXIT_FAILED;
	}
	if (lost) {
		error_on(err,
			 "--verify-only '%s': %" PRIu64 " of %" PRIu64
			 " blocks are of an older generation than the newest, "
			 "%" PRIu32
			 " (lost writes); the first at offset %" PRIu64
			 " is generation %" PRIu32,
			 shown, lost, v->blocks, v->newest, v->oldest_off,
			 v->oldest);
		return CLI_EXIT_FAILED;
	}
	vo_seed_text(path, v->seed, text, sizeof(text));
	fprintf(out,
		"%s: %" PRIu64 " blocks of 4 KiB checked, all sound (%s, "
		"generation %" PRIu32 ")\n",
		shown, v->blocks, text, v->newest);
	return 0;
}

int verify_only(const char *path, FILE *out, FILE *err)
{
	char shown[PATH_MAX * 4 + 1], what[PATH_MAX * 4 + 32], why[96] = "";
	struct vo v = {0};
	unsigned char *buf = NULL;
	struct stat st;
	int fd, rc, status;

	text_shown(path, shown, sizeof(shown));
	snprintf(what, sizeof(what), "--verify-only '%s'", shown);
	if ((fd = verify_open(path, what, "", &st, err)) < 0)
		return CLI_EXIT_USAGE;
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	v.ngens = (uint64_t)st.st_size / FILL_BLOCK;
	v.gens = v.ngens ? calloc(v.ngens, sizeof(*v.gens)) : NULL;
	if (posix_memalign((void **)&buf, 4096, VO_READ) != 0 ||
	    (v.ngens && !v.gens)) {
		error_on(err, "--verify-only '%s': out of memory", shown);
		status = CLI_EXIT_FAILED;
	} else if ((rc = vo_pass(&v, fd, buf, why, sizeof(why))) != 0) {
		error_on(err, "--verify-only '%s': %s: %s", shown, why,
			 strerror(-rc));
		status = CLI_EXIT_FAILED;
	} else {
		status = vo_report(&v, path, shown, out, err);
	}
	free(buf);
	free(v.gens);
	close(fd);
	return status;
}
