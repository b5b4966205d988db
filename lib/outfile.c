/* SPDX-License-Identifier: GPL-2.0-or-later */
/* outfile: see outfile.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* Temporary files still to be removed if a signal ends the program. */
#define OUTFILE_SLOTS 32
static struct {
	volatile sig_atomic_t used;
	char tmp[PATH_MAX];
	dev_t dev;
	ino_t ino;
} slots[OUTFILE_SLOTS];

static int slot_take(const struct outfile *of)
{
	for (int i = 0; i < OUTFILE_SLOTS; i++) {
		if (slots[i].used)
			continue;
		if (strlen(of->tmp) >= sizeof(slots[i].tmp))
			return -1;
		strcpy(slots[i].tmp, of->tmp);
		slots[i].dev = of->dev;
		slots[i].ino = of->ino;
		slots[i].used = 1;
		return i;
	}
	return -1;
}

static void slot_drop(struct outfile *of)
{
	if (of->slot >= 0)
		slots[of->slot].used = 0;
	of->slot = -1;
}

void outfile_signal_cleanup(void)
{
	struct stat st;

	for (int i = 0; i < OUTFILE_SLOTS; i++)
		if (slots[i].used && lstat(slots[i].tmp, &st) == 0 &&
		    st.st_dev == slots[i].dev && st.st_ino == slots[i].ino)
			unlink(slots[i].tmp);
}

/* What an existing path is, for a refusal. */
static const char *kind_of(mode_t m)
{
	static const struct {
		mode_t type;
		const char *kind;
	} kinds[] = {
	    {S_IFDIR, "a directory"},
	    {S_IFLNK, "a symbolic link"},
	    {S_IFCHR, "a character device"},
	    {S_IFBLK, "a block device"},
	    {S_IFIFO, "a FIFO"},
	    {S_IFSOCK, "a socket"},
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if ((m & S_IFMT) == kinds[i].type)
			return kinds[i].kind;
	return "not a regular file";
}

static mode_t default_mode(void)
{
	mode_t mask = umask(022);

	umask(mask);
	return 0666 & ~mask;
}

int outfile_open(struct outfile *of, const char *path, char *why, size_t len)
{
	struct stat st;
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dlen = slash ? (int)(slash - path) + 1 : 0;
	mode_t mode = default_mode();
	sigset_t all, old;
	int e;

	memset(of, 0, sizeof(*of));
	of->fd = -1;
	of->slot = -1;
	if (!*base) {
		snprintf(why, len, "'%s': names a directory, not a file", path);
		return -EISDIR;
	}
	if (lstat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			snprintf(why, len,
				 "'%s' is %s; name a regular file or a new "
				 "one",
				 path, kind_of(st.st_mode));
			return -EEXIST;
		}
		/* As the effective (and filesystem) user, who will write
		 * it, rather than the real one that access() asks about. */
		if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0) {
			e = errno;
			snprintf(why, len, "'%s': %s", path, strerror(e));
			return -e;
		}
		mode = st.st_mode & 07777;
	} else if (errno != ENOENT) {
		e = errno;
		snprintf(why, len, "'%s': %s", path, strerror(e));
		return -e;
	}
	if (asprintf(&of->tmp, "%.*s.%s.XXXXXX", dlen, path, base) < 0 ||
	    !(of->path = strdup(path))) {
		free(of->tmp);
		of->tmp = NULL;
		snprintf(why, len, "'%s': %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	/* A signal between making the file and taking its slot would leave
	 * it behind: none is taken until the slot holds it. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	of->fd = mkostemp(of->tmp, O_CLOEXEC);
	if (of->fd < 0) {
		e = errno;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		snprintf(why, len, "'%s': cannot make a file there: %s", path,
			 strerror(e));
		free(of->tmp);
		free(of->path);
		memset(of, 0, sizeof(*of));
		of->fd = -1;
		of->slot = -1;
		return -e;
	}
	if (fstat(of->fd, &st) == 0) {
		of->dev = st.st_dev;
		of->ino = st.st_ino;
	}
	fchmod(of->fd, mode);
	of->slot = slot_take(of);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return 0;
}

FILE *outfile_stream(struct outfile *of)
{
	if (of->f)
		return of->f;
	if (of->fd < 0) {
		errno = EBADF;
		return NULL;
	}
	of->f = fdopen(of->fd, "w");
	return of->f;
}

/* Whether tmp is still the file this outfile made. */
static int still_ours(const struct outfile *of)
{
	struct stat st;

	return of->tmp && lstat(of->tmp, &st) == 0 && st.st_dev == of->dev &&
	       st.st_ino == of->ino;
}

static int close_it(struct outfile *of)
{
	int e = 0;

	if (of->f) {
		if (fflush(of->f) != 0 || ferror(of->f))
			e = errno ? errno : EIO;
		if (!e && fsync(fileno(of->f)) != 0 && errno != EINVAL)
			e = errno;
		if (fclose(of->f) != 0 && !e)
			e = errno;
	} else if (of->fd >= 0) {
		if (fsync(of->fd) != 0 && errno != EINVAL)
			e = errno;
		if (close(of->fd) != 0 && !e)
			e = errno;
	}
	of->f = NULL;
	of->fd = -1;
	return e;
}

static void release(struct outfile *of)
{
	slot_drop(of);
	free(of->tmp);
	free(of->path);
	of->tmp = NULL;
	of->path = NULL;
}

void outfile_abort(struct outfile *of)
{
	if (!of->tmp && !of->path)
		return;
	close_it(of);
	if (still_ours(of))
		unlink(of->tmp);
	release(of);
}

int outfile_commit(struct outfile *of)
{
	int e = close_it(of);

	if (!e && !still_ours(of))
		e = ESTALE;
	if (!e && rename(of->tmp, of->path) != 0)
		e = errno;
	if (e) {
		outfile_abort(of);
		return -e;
	}
	release(of);
	return 0;
}

int outfile_same(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
