/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outfile: an output file (a JSON document, a chart, a script, a log)
 * written under a temporary name beside its final name and renamed over
 * it only when complete. So a run that fails, is cut short by a signal
 * or hits a full disk leaves no half-written file and never touches what
 * the user already had under that name; and what is removed on failure
 * is only the temporary file this process made, checked to be the same
 * file (device and inode) before it is unlinked.
 *
 * outfile_open() is called before the first test: it refuses a final
 * name that exists and is not a regular file (a device node, a FIFO, a
 * directory, a symbolic link), and a directory that cannot take a new
 * file, so a bad output path costs nothing. The temporary file gets the
 * mode the final file would have had (an existing file's mode, else
 * 0666 less the umask).
 */
#ifndef CLYDE_OUTFILE_H
#define CLYDE_OUTFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct outfile {
	char *path; /* the final name, as given */
	char *tmp;  /* the temporary name beside it; NULL once settled */
	int fd;	    /* open on tmp, or -1 */
	FILE *f;    /* the stream over fd, once asked for */
	dev_t dev;  /* the temporary file's identity */
	ino_t ino;
	int slot; /* its place in the signal-cleanup table, or -1 */
};

/*
 * Checks path and makes its temporary file. 0, or -errno with a reason
 * of the form "<path>: <why>" in why[len] (EEXIST-class refusals say
 * what the path is instead). The outfile is registered for
 * outfile_signal_cleanup().
 */
int outfile_open(struct outfile *of, const char *path, char *why, size_t len);

/*
 * The temporary file as a stdio stream for writing (the descriptor
 * passes to the stream; outfile_commit() flushes and closes it). NULL
 * and errno on failure.
 */
FILE *outfile_stream(struct outfile *of);

/*
 * Flushes, syncs and closes what was written, then renames the
 * temporary file over the final name. 0, or -errno (the temporary file
 * is then removed, as by outfile_abort()).
 */
int outfile_commit(struct outfile *of);

/* Removes the temporary file if it is still the one made; frees of. */
void outfile_abort(struct outfile *of);

/*
 * For a signal handler: unlinks every temporary file still open (only
 * async-signal-safe calls, lstat and unlink, each checked against the
 * device and inode recorded). Nothing else is freed.
 */
void outfile_signal_cleanup(void);

/*
 * Whether two paths name the same file (device and inode), following
 * links; 0 when either does not exist.
 */
int outfile_same(const char *a, const char *b);

#endif
