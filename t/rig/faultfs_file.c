/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultfs_file: see faultfs_file.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "faultfs_file.h"

static struct ff_file *open_files;
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

struct ff_file *ff_file_new(const char *path)
{
	struct ff_file *f = calloc(1, sizeof(*f) + strlen(path) + 1);

	if (f) {
		f->fd = -1;
		strcpy(f->path, path);
		pthread_mutex_lock(&open_lock);
		f->next = open_files;
		if (open_files)
			open_files->prev = f;
		open_files = f;
		pthread_mutex_unlock(&open_lock);
	}
	return f;
}

void ff_file_free(struct ff_file *f)
{
	pthread_mutex_lock(&open_lock);
	if (f->prev)
		f->prev->next = f->next;
	else
		open_files = f->next;
	if (f->next)
		f->next->prev = f->prev;
	pthread_mutex_unlock(&open_lock);
	if (f->dir)
		closedir(f->dir);
	else if (f->fd >= 0)
		close(f->fd);
	ff_ctl_free(&f->ctl);
	free(f);
}

void ff_file_free_all(void)
{
	while (open_files)
		ff_file_free(open_files);
}

/* All of n bytes at off, or -errno; zeros for what is past the end. */
static int pread_full(int fd, char *buf, size_t n, uint64_t off)
{
	while (n) {
		ssize_t got = pread(fd, buf, n, (off_t)off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (got == 0) {
			memset(buf, 0, n);
			return 0;
		}
		buf += got;
		n -= (size_t)got;
		off += (uint64_t)got;
	}
	return 0;
}

static int pwrite_full(int fd, const char *buf, size_t n, uint64_t off)
{
	while (n) {
		ssize_t put = pwrite(fd, buf, n, (off_t)off);

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0)
			return put < 0 ? -errno : -EIO;
		buf += put;
		n -= (size_t)put;
		off += (uint64_t)put;
	}
	return 0;
}

/*
 * The write cache (faultfs_file.h). Files are known by their backing
 * inode, so a second open or a rename finds the same blocks. A write
 * past the end does not extend the backing file (no ftruncate): the
 * file's size is kept here, and getattr and reads report the larger of
 * it and the backing file's, so a cut leaves the backing file as it
 * was, size and all.
 */
#define BLOCK 4096u
/* The acknowledged blocks a cut lost that the status lists. */
#define LOST_MAX 1000

struct cblock {
	uint64_t idx; /* offset / BLOCK */
	/* An fsync or a sync write said it was stored. Once acknowledged
	 * a block stays so until written back: what it held then was never
	 * stored, whatever was written over it after. */
	int acked;
	char data[BLOCK];
};

struct centry {
	struct centry *next;
	dev_t dev;
	ino_t ino;
	/* The backing file opened again read-write and without O_APPEND
	 * (the caller's may be write-only or appending), for the reads
	 * that fill a partial block and the write-back. */
	int fd;
	uint64_t size;
	struct cblock **b; /* sorted by idx */
	size_t nb, cap;
	char *path; /* the last write's, for the status */
};

static struct {
	enum ff_wcache mode;
	char *glob; /* NULL: every file */
	struct centry *files;
	int cut;
	uint64_t dropped_acked, dropped_unacked;
	struct {
		char *path;
		uint64_t off;
	} lost[LOST_MAX];
	size_t nlost;
} wc;

static struct centry *find(dev_t dev, ino_t ino)
{
	struct centry *e = wc.files;

	while (e && (e->dev != dev || e->ino != ino))
		e = e->next;
	return e;
}

static void entry_free(struct centry *e)
{
	struct centry **p = &wc.files;

	while (*p != e)
		p = &(*p)->next;
	*p = e->next;
	for (size_t i = 0; i < e->nb; i++)
		free(e->b[i]);
	free(e->b);
	close(e->fd);
	free(e->path);
	free(e);
}

/* The file has no name left: its blocks can never be read again. */
static int entry_gone(const struct centry *e)
{
	struct stat st;

	return fstat(e->fd, &st) == 0 && st.st_nlink == 0;
}

static int set_path(struct centry *e, const char *path)
{
	char *p;

	if (e->path && !strcmp(e->path, path))
		return 0;
	if (!(p = strdup(path)))
		return -ENOMEM;
	free(e->path);
	e->path = p;
	return 0;
}

static struct centry *entry_new(const struct ff_file *f, const char *path,
				int *err)
{
	struct centry *e = calloc(1, sizeof(*e));
	char proc[64];
	struct stat st;

	if (!e || set_path(e, path)) {
		free(e);
		*err = -ENOMEM;
		return NULL;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", f->fd);
	e->fd = open(proc, O_RDWR | O_CLOEXEC);
	if (e->fd < 0 || fstat(e->fd, &st)) {
		*err = -errno;
		if (e->fd >= 0)
			close(e->fd);
		free(e->path);
		free(e);
		return NULL;
	}
	e->dev = f->dev;
	e->ino = f->ino;
	e->size = (uint64_t)st.st_size;
	e->next = wc.files;
	wc.files = e;
	return e;
}

/* The index of the first block at or after idx (e->nb when none). */
static size_t block_at(const struct centry *e, uint64_t idx)
{
	size_t lo = 0, hi = e->nb;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->b[mid]->idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Block idx of e, made from the backing file's bytes when not held. */
static struct cblock *block_get(struct centry *e, uint64_t idx, int *err)
{
	size_t i = block_at(e, idx);
	struct cblock *b;

	if (i < e->nb && e->b[i]->idx == idx)
		return e->b[i];
	if (e->nb == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 16;
		struct cblock **nb = realloc(e->b, cap * sizeof(*nb));

		if (!nb) {
			*err = -ENOMEM;
			return NULL;
		}
		e->b = nb;
		e->cap = cap;
	}
	if (!(b = calloc(1, sizeof(*b)))) {
		*err = -ENOMEM;
		return NULL;
	}
	b->idx = idx;
	if ((*err = pread_full(e->fd, b->data, BLOCK, idx * BLOCK))) {
		free(b);
		return NULL;
	}
	memmove(e->b + i + 1, e->b + i, (e->nb - i) * sizeof(*e->b));
	e->b[i] = b;
	e->nb++;
	return b;
}

/* Blocks lo..hi: acknowledged (lying), all of them held now. */
static void ack(struct centry *e, uint64_t lo, uint64_t hi)
{
	for (size_t i = block_at(e, lo); i < e->nb && e->b[i]->idx <= hi; i++)
		e->b[i]->acked = 1;
}

/*
 * Write blocks lo..hi of e to the backing file (up to the file's size,
 * no further), fdatasync it, and let them go. 0, or -errno with the
 * blocks not written still held.
 */
static int flush(struct centry *e, uint64_t lo, uint64_t hi)
{
	size_t first = block_at(e, lo), i = first, kept;
	int rc = 0;

	for (; i < e->nb && e->b[i]->idx <= hi && !rc; i++) {
		uint64_t at = e->b[i]->idx * BLOCK;
		uint64_t n = e->size - at < BLOCK ? e->size - at : BLOCK;

		if (at < e->size)
			rc = pwrite_full(e->fd, e->b[i]->data, (size_t)n, at);
	}
	if (rc)
		i--;
	if (i > first && fdatasync(e->fd) && !rc)
		rc = -errno;
	for (size_t j = first; j < i; j++)
		free(e->b[j]);
	kept = e->nb - i;
	memmove(e->b + first, e->b + i, kept * sizeof(*e->b));
	e->nb = first + kept;
	return rc;
}

/* After a flush: an entry with nothing held is the backing file's. */
static void entry_settle(struct centry *e)
{
	struct stat st;

	if (!e->nb && !fstat(e->fd, &st) && (uint64_t)st.st_size >= e->size)
		entry_free(e);
}

/* Write back every file (but those unlinked) and forget them. */
static int writeback_all(char *why, size_t whylen)
{
	while (wc.files) {
		struct centry *e = wc.files;
		int rc = entry_gone(e) ? 0 : flush(e, 0, UINT64_MAX);

		if (rc) {
			snprintf(why, whylen, "wcache off: writing back %s: %s",
				 e->path, strerror(-rc));
			return -EIO;
		}
		entry_free(e);
	}
	return 0;
}

static void forget_all(void)
{
	while (wc.files)
		entry_free(wc.files);
}

int ff_cache_set(enum ff_wcache mode, char *glob, char *why, size_t whylen)
{
	int rc = 0;

	ff_lock();
	if (mode == FW_OFF)
		rc = writeback_all(why, whylen);
	if (!rc) {
		wc.mode = mode;
		free(wc.glob);
		wc.glob = glob;
		glob = NULL;
	}
	ff_unlock();
	free(glob);
	return rc;
}

/* A cut's count of one file's blocks, its acknowledged ones listed. */
static void count_lost(const struct centry *e)
{
	for (size_t i = 0; i < e->nb; i++) {
		if (!e->b[i]->acked) {
			wc.dropped_unacked++;
			continue;
		}
		wc.dropped_acked++;
		if (wc.nlost < LOST_MAX &&
		    (wc.lost[wc.nlost].path = strdup(e->path)))
			wc.lost[wc.nlost++].off = e->b[i]->idx * BLOCK;
	}
}

void ff_cache_cut(void)
{
	ff_lock();
	/* An unlinked file's blocks are lost to no one. */
	for (struct centry *e = wc.files; e; e = e->next)
		if (!entry_gone(e))
			count_lost(e);
	forget_all();
	wc.cut = 1;
	ff_unlock();
}

int ff_cache_is_cut(void)
{
	int cut;

	ff_lock();
	cut = wc.cut;
	ff_unlock();
	return cut;
}

void ff_cache_clear(void)
{
	ff_lock();
	forget_all();
	for (size_t i = 0; i < wc.nlost; i++)
		free(wc.lost[i].path);
	free(wc.glob);
	memset(&wc, 0, sizeof(wc));
	ff_unlock();
}

void ff_cache_shutdown(void)
{
	char why[256];

	ff_lock();
	if (writeback_all(why, sizeof(why)))
		fprintf(stderr, "faultfs: at unmount: %s\n", why);
	ff_unlock();
	ff_cache_clear();
}

void ff_cache_status(FILE *out)
{
	static const char *const modes[] = {"off", "honest", "lying"};
	uint64_t held = 0, acked = 0;

	ff_lock();
	for (const struct centry *e = wc.files; e; e = e->next) {
		held += e->nb;
		for (size_t i = 0; i < e->nb; i++)
			acked += (uint64_t)e->b[i]->acked;
	}
	if (wc.mode != FW_OFF || held)
		fprintf(out, "wcache %s held=%llu acked=%llu\n", modes[wc.mode],
			(unsigned long long)held, (unsigned long long)acked);
	if (wc.cut)
		fprintf(out, "cut dropped_acked=%llu dropped_unacked=%llu\n",
			(unsigned long long)wc.dropped_acked,
			(unsigned long long)wc.dropped_unacked);
	for (size_t i = 0; i < wc.nlost; i++)
		fprintf(out, "dropped_acked %s %llu\n", wc.lost[i].path,
			(unsigned long long)wc.lost[i].off);
	ff_unlock();
}

void ff_cache_stat(struct stat *st)
{
	struct centry *e;

	ff_lock();
	e = find(st->st_dev, st->st_ino);
	if (e && e->size > (uint64_t)st->st_size)
		st->st_size = (off_t)e->size;
	ff_unlock();
}

void ff_cache_truncate(dev_t dev, ino_t ino, uint64_t size)
{
	struct centry *e;
	size_t keep;

	ff_lock();
	e = find(dev, ino);
	if (e) {
		e->size = size;
		keep = block_at(e, (size + BLOCK - 1) / BLOCK);
		for (size_t i = keep; i < e->nb; i++)
			free(e->b[i]);
		e->nb = keep;
		/* What a later extension shows of the cut block is zeros. */
		if (keep && e->b[keep - 1]->idx == size / BLOCK)
			memset(e->b[keep - 1]->data + size % BLOCK, 0,
			       BLOCK - size % BLOCK);
	}
	ff_unlock();
}

int ff_cache_fallocate(const struct ff_file *f, int mode)
{
	struct centry *e;
	int rc = 0;

	/* Punching, zeroing, collapsing or inserting under held blocks
	 * would have to move or zero them too: not done, refused. */
	ff_lock();
	e = find(f->dev, f->ino);
	if (e && e->nb && (mode & ~FALLOC_FL_KEEP_SIZE))
		rc = -EOPNOTSUPP;
	ff_unlock();
	return rc;
}

int ff_cache_fsync(const struct ff_file *f)
{
	struct centry *e;
	int rc = 1;

	ff_lock();
	e = find(f->dev, f->ino);
	if (wc.cut) {
		rc = -EIO;
	} else if (wc.mode == FW_LYING &&
		   (e || !wc.glob || !fnmatch(wc.glob, f->path, 0))) {
		if (e)
			ack(e, 0, UINT64_MAX);
		rc = 0;
	} else if (e) {
		rc = flush(e, 0, UINT64_MAX);
		entry_settle(e);
	}
	ff_unlock();
	return rc;
}

/* The bytes of a write into held blocks (filled first from the file). */
static int cache_put(struct centry *e, const char *buf, size_t n, uint64_t off)
{
	while (n) {
		int err = 0;
		struct cblock *b = block_get(e, off / BLOCK, &err);
		size_t at = (size_t)(off % BLOCK);
		size_t k = BLOCK - at < n ? BLOCK - at : n;

		if (!b)
			return err;
		memcpy(b->data + at, buf, k);
		buf += k;
		n -= k;
		off += k;
		if (off > e->size)
			e->size = off;
	}
	return 0;
}

/*
 * n bytes at off of a write to f into the cache: 0, or -errno, or 1
 * when they are not the cache's (it is off, the path does not match,
 * and it holds nothing of the file). A sync write is acknowledged (lying)
 * or written through (honest) as it returns.
 */
static int cache_write(struct ff_file *f, const char *path, const char *buf,
		       size_t n, uint64_t off, int sync)
{
	struct centry *e;
	uint64_t lo = off / BLOCK, hi = (off + n - 1) / BLOCK;
	int rc = 0;

	if (n == 0)
		return 1;
	ff_lock();
	e = find(f->dev, f->ino);
	if (wc.cut) {
		rc = -EIO;
	} else if (!e && (wc.mode == FW_OFF ||
			  (wc.glob && fnmatch(wc.glob, path, 0)))) {
		rc = 1;
	} else if (e || (e = entry_new(f, path, &rc))) {
		rc = set_path(e, path);
		if (!rc)
			rc = cache_put(e, buf, n, off);
		if (!rc && sync && wc.mode == FW_LYING)
			ack(e, lo, hi);
		else if (!rc && sync) {
			rc = flush(e, lo, hi);
			entry_settle(e);
		}
	}
	ff_unlock();
	return rc;
}

/* The bytes [off, off+n) of a write: to the cache when it takes them,
 * else to the backing file. */
static int put(struct ff_file *f, const char *path, const char *buf, size_t n,
	       uint64_t off, int sync)
{
	int rc = cache_write(f, path, buf, n, off, sync);

	return rc == 1 ? pwrite_full(f->fd, buf, n, off) : rc;
}

/*
 * Of a read of size bytes at off that got n from the backing file: the
 * held blocks' bytes over them, and past the backing file's end up to
 * the cached size (zeros where no block is held). The bytes now read.
 */
static size_t cache_read(const struct ff_file *f, char *buf, size_t size,
			 uint64_t off, size_t n)
{
	struct centry *e;

	ff_lock();
	e = find(f->dev, f->ino);
	if (e && n < size && e->size > off + n) {
		uint64_t end = off + size < e->size ? off + size : e->size;

		memset(buf + n, 0, (size_t)(end - off) - n);
		n = (size_t)(end - off);
	}
	for (size_t i = e && n ? block_at(e, off / BLOCK) : 0;
	     e && n && i < e->nb && e->b[i]->idx * BLOCK < off + n; i++) {
		uint64_t from = e->b[i]->idx * BLOCK, to = from + BLOCK;

		from = from > off ? from : off;
		to = to < off + n ? to : off + n;
		memcpy(buf + (from - off), e->b[i]->data + (from % BLOCK),
		       (size_t)(to - from));
	}
	ff_unlock();
	return n;
}

ssize_t ff_file_read(struct ff_file *f, const char *path, char *buf,
		     size_t size, uint64_t off)
{
	struct ff_span s[FF_SPANS_MAX];
	ssize_t n = pread(f->fd, buf, size, (off_t)off);
	size_t k;

	if (n < 0)
		return -errno;
	n = (ssize_t)cache_read(f, buf, size, off, (size_t)n);
	k = ff_remaps(path, off, (size_t)n, s);
	for (size_t i = 0; i < k; i++) {
		char *to = buf + (s[i].off - off);
		int rc = pread_full(f->fd, to, (size_t)s[i].len, s[i].from);

		if (rc)
			return rc;
		cache_read(f, to, (size_t)s[i].len, s[i].from,
			   (size_t)s[i].len);
	}
	ff_flip(path, off, buf, (size_t)n);
	return n;
}

ssize_t ff_file_write(struct ff_file *f, const char *path, const char *buf,
		      size_t size, uint64_t off, int sync)
{
	struct ff_span s[FF_SPANS_MAX];
	size_t k = ff_drops(path, off, size, s);
	uint64_t at = off, end = off + size;
	ssize_t n;

	if (k == 0) {
		int rc = cache_write(f, path, buf, size, off, sync);

		if (rc != 1)
			return rc ? rc : (ssize_t)size;
		n = pwrite(f->fd, buf, size, (off_t)off);
		return n < 0 ? -errno : n;
	}
	/* The gaps between the dropped spans, and what is after the last. */
	for (size_t i = 0; i <= k; i++) {
		uint64_t to = i < k ? s[i].off : end;
		int rc = 0;

		if (to > at)
			rc = put(f, path, buf + (at - off), (size_t)(to - at),
				 at, sync);
		if (rc)
			return rc;
		if (i < k && s[i].off + s[i].len > at)
			at = s[i].off + s[i].len;
	}
	return (ssize_t)size;
}
