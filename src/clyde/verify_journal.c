/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify_journal: see verify_journal.h. The data file is opened as
 * --verify-only opens one (verify_open) and read once, in reads of
 * VJ_READ bytes; the journal is looked at the same way, then read whole
 * by jrnl_read. A block is sound when its header and CRC hold, with its
 * own offset and the journal's content seed; lib/journal's map judges
 * it. A journal of another data file is refused before the pass (the
 * size), one of another run after it: a block of another seed may be a
 * write the storage put in the wrong file, which is corruption to
 * count, so only a file with no block of the journal's seed and some of
 * another is another run's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fill.h"
#include "journal.h"
#include "jsonput.h"
#include "jverify_doc.h"
#include "outfile.h"
#include "text.h"
#include "verify_journal.h"
#include "verify_only.h"
#include "xfer.h"

#define VJ_READ	 (1u << 20)
#define VJ_SHOWN (PATH_MAX * 4 + 1)

/* The pass: the map judging, and the seeds the blocks carry. */
struct vj {
	const struct jrnl_map *map;
	uint64_t seed;	       /* the journal's content seed */
	uint64_t own;	       /* blocks of that seed at their own offset */
	uint64_t foreign;      /* blocks of another seed at their own */
	uint64_t foreign_seed; /* the first of those's */
	struct jrnl_tally *tally;
};

/* The names as one line shows them, and the prefix of every line. */
struct vj_names {
	char data[VJ_SHOWN], journal[VJ_SHOWN];
	char what[2 * VJ_SHOWN + 48];
};

static void vj_block(struct vj *v, const unsigned char *b, uint64_t off)
{
	uint64_t at, seed;
	uint32_t gen = 0;
	int sound =
	    fill_header_read(b, &at, &seed, &gen, NULL) == 0 && at == off;

	if (sound && seed != v->seed) {
		if (!v->foreign++)
			v->foreign_seed = seed;
		sound = 0;
	}
	v->own += sound;
	jrnl_tally_add(v->tally,
		       jrnl_judge(v->map, off / FILL_BLOCK, sound, gen), off);
}

/* Every whole block of fd: 0, or -errno with *off where the read failed. */
static int vj_pass(struct vj *v, int fd, unsigned char *buf, uint64_t *off)
{
	for (*off = 0;;) {
		ssize_t n = xfer_read_all(fd, buf, VJ_READ, NULL);

		if (n < 0)
			return (int)n;
		for (size_t i = 0; i + FILL_BLOCK <= (size_t)n; i += FILL_BLOCK)
			vj_block(v, buf + i, *off + i);
		*off += (uint64_t)n;
		if ((size_t)n < VJ_READ)
			return 0;
	}
}

/* The blocks the journal holds from end on (a file cut short while it
 * was made; a partial last block is no whole one): each judged as
 * missing. */
static void vj_past_end(struct vj *v, uint64_t end)
{
	uint64_t n = jrnl_map_blocks(v->map);

	for (uint64_t b = end / FILL_BLOCK; b < n; b++)
		jrnl_tally_add(v->tally, jrnl_judge_missing(v->map, b),
			       b * FILL_BLOCK);
}

/* A signal during a long pass: the --json temporary file goes, then the
 * signal's own end (128 + its number). */
static void vj_on_signal(int sig)
{
	static volatile sig_atomic_t first;

	if (first)
		return;
	first = sig;
	outfile_signal_cleanup();
	cli_die_of_signal(sig);
}

/*
 * Both files looked at, the journal read and matched to the data file
 * by size: the data file's descriptor, or -1 after one line with the
 * exit status in *status. The journal is opened by verify_open only to
 * refuse what it refuses (a FIFO would hang jrnl_read), then read by
 * its path.
 */
static int vj_open(const struct clyde_opts *o, const struct vj_names *nm,
		   struct jrnl_view *view, int *status, FILE *err)
{
	struct stat st, jst;
	char why[160];
	int fd, jfd;

	*status = CLI_EXIT_USAGE;
	if ((fd = verify_open(o->verify_only, nm->what, "the data file: ", &st,
			      err)) < 0)
		return -1;
	if ((jfd = verify_open(o->journal, nm->what, "the journal: ", &jst,
			       err)) < 0) {
		close(fd);
		return -1;
	}
	close(jfd);
	if (jrnl_read(o->journal, view, why, sizeof(why))) {
		/* It is there, but unreadable or damaged. */
		error_on(err, "%s: the journal: %s", nm->what, why);
		*status = CLI_EXIT_FAILED;
		close(fd);
		return -1;
	}
	/* A cut while the file was being made (the untimed preparation)
	 * leaves it short: the journal, cut too, still judges its blocks,
	 * those past the end included. */
	if ((uint64_t)st.st_size == view->head.file_size ||
	    (!view->clean && (uint64_t)st.st_size < view->head.file_size))
		return fd;
	error_on(err,
		 "%s: a journal of another data file: the file is %" PRIu64
		 " bytes, the journal's %" PRIu64,
		 nm->what, (uint64_t)st.st_size, view->head.file_size);
	jrnl_view_free(view);
	close(fd);
	return -1;
}

/* --json=FILE made before the pass, as every output is. 0, or -1. */
static int vj_open_json(const struct clyde_opts *o, struct outfile *json,
			FILE *err)
{
	char why[PATH_MAX * 2], line[PATH_MAX * 8 + 1];

	if (!o->json_path)
		return 0;
	if (outfile_open(json, o->json_path, why, sizeof(why)) == 0) {
		cli_catch_stops(vj_on_signal);
		return 0;
	}
	error_on(err, "--json: %s", text_shown(why, line, sizeof(line)));
	return -1;
}

/* What the report tells of the files, beside the tally: 0, or -1
 * without memory. */
static int vj_fill(const struct clyde_opts *o, const struct jrnl_view *view,
		   struct jverify *r)
{
	r->data = strdup(o->verify_only);
	r->journal = strdup(o->journal);
	r->run_seed = view->head.run_seed;
	r->content_seed = view->head.content_seed;
	r->file_size = view->head.file_size;
	r->clean = view->clean;
	r->torn = view->torn;
	return r->data && r->journal ? 0 : -1;
}

/* The pass over fd into r, and what r tells of the files: 0, or an
 * exit status after one line. */
static int vj_check(const struct clyde_opts *o, int fd,
		    const struct jrnl_view *view, const struct vj_names *nm,
		    struct jverify *r, FILE *err)
{
	struct vj v = {.seed = view->head.content_seed, .tally = &r->tally};
	unsigned char *buf = NULL;
	struct jrnl_map *map = jrnl_map_new(view);
	uint64_t off = 0;
	int rc, status = 0;

	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	v.map = map;
	if (!map || posix_memalign((void **)&buf, 4096, VJ_READ) != 0) {
		error_on(err, "%s: out of memory", nm->what);
		status = CLI_EXIT_FAILED;
	} else if ((rc = vj_pass(&v, fd, buf, &off)) != 0) {
		error_on(err,
			 "%s: the data file: read at offset %" PRIu64 ": %s",
			 nm->what, off, strerror(-rc));
		status = CLI_EXIT_FAILED;
	} else if (!v.own && v.foreign) {
		error_on(err,
			 "%s: a journal of another run: its blocks' seed is "
			 "%" PRIu64 ", the journal's %" PRIu64,
			 nm->what, v.foreign_seed, v.seed);
		status = CLI_EXIT_USAGE;
	} else if (vj_fill(o, view, r)) {
		error_on(err, "%s: out of memory", nm->what);
		status = CLI_EXIT_FAILED;
	} else {
		vj_past_end(&v, off);
		r->data_size = off;
	}
	free(buf);
	jrnl_map_free(map);
	return status;
}

/* The report, then the document: the exit status. */
static int vj_finish(const struct clyde_opts *o, const struct jverify *r,
		     const struct vj_names *nm, struct outfile *json,
		     time_t start, FILE *out, FILE *err)
{
	/* A document on stdout has it alone. */
	FILE *rep = o->json && !o->json_path ? err : out;
	int status = jverify_failed(r) ? CLI_EXIT_FAILED : 0, rc;

	jverify_print(rep, r, nm->data, nm->journal);
	if (rep == stdout && fflush(rep) != 0)
		return cli_stdout_failed(errno);
	if (!o->json)
		return status;
	rc = jp_finish(jverify_doc(r, start), o->json_path ? json : NULL, 0);
	return rc ? rc : status;
}

int verify_journal(const struct clyde_opts *o, FILE *out, FILE *err)
{
	struct outfile json = {.fd = -1, .slot = -1};
	struct jverify r = {0};
	struct jrnl_view view;
	struct vj_names *nm = malloc(sizeof(*nm));
	time_t start = time(NULL);
	int fd, status;

	if (!nm) {
		error_on(err, "--verify-only: out of memory");
		return CLI_EXIT_FAILED;
	}
	text_shown(o->verify_only, nm->data, sizeof(nm->data));
	text_shown(o->journal, nm->journal, sizeof(nm->journal));
	snprintf(nm->what, sizeof(nm->what),
		 "--verify-only '%s' --journal '%s'", nm->data, nm->journal);
	if ((fd = vj_open(o, nm, &view, &status, err)) < 0) {
		free(nm);
		return status;
	}
	if (vj_open_json(o, &json, err))
		status = CLI_EXIT_USAGE;
	else if ((status = vj_check(o, fd, &view, nm, &r, err)) == 0)
		status = vj_finish(o, &r, nm, &json, start, out, err);
	outfile_abort(&json);
	jverify_free(&r);
	jrnl_view_free(&view);
	close(fd);
	free(nm);
	return status;
}
