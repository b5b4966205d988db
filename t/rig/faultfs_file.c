/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultfs_file: see faultfs_file.h.
 */
#define _GNU_SOURCE
#include <errno.h>
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

ssize_t ff_file_read(struct ff_file *f, const char *path, char *buf,
		     size_t size, uint64_t off)
{
	struct ff_span s[FF_SPANS_MAX];
	ssize_t n = pread(f->fd, buf, size, (off_t)off);
	size_t k;

	if (n < 0)
		return -errno;
	k = ff_remaps(path, off, (size_t)n, s);
	for (size_t i = 0; i < k; i++) {
		int rc = pread_full(f->fd, buf + (s[i].off - off),
				    (size_t)s[i].len, s[i].from);

		if (rc)
			return rc;
	}
	ff_flip(path, off, buf, (size_t)n);
	return n;
}

ssize_t ff_file_write(struct ff_file *f, const char *path, const char *buf,
		      size_t size, uint64_t off)
{
	struct ff_span s[FF_SPANS_MAX];
	size_t k = ff_drops(path, off, size, s);
	uint64_t at = off, end = off + size;
	ssize_t n;

	if (k == 0) {
		n = pwrite(f->fd, buf, size, (off_t)off);
		return n < 0 ? -errno : n;
	}
	/* The gaps between the dropped spans, and what is after the last. */
	for (size_t i = 0; i <= k; i++) {
		uint64_t to = i < k ? s[i].off : end;
		int rc = 0;

		if (to > at)
			rc = pwrite_full(f->fd, buf + (at - off),
					 (size_t)(to - at), at);
		if (rc)
			return rc;
		if (i < k && s[i].off + s[i].len > at)
			at = s[i].off + s[i].len;
	}
	return (ssize_t)size;
}
