/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cells: clyde-sweep's cell runner. A cell writes a fixed amount of
 * seeded data in one block size, buffered or O_DIRECT, with fsync inside
 * the timed window, or evicts the cache and reads it back. A file run
 * writes a fresh file in its private directory each time, as dd of=FILE
 * makes one; a raw run writes through the guard's descriptor and reads
 * through a read-only one. The I/O loops stop at the stop flag (xfer).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#ifdef HAVE_LINUX_FS_H
#include <linux/fs.h>
#endif

#include "cache.h"
#include "clock.h"
#include "fill.h"
#include "sweep_prog.h"
#include "target.h"
#include "units.h"
#include "xfer.h"

#define DATA_NAME "sweep.data"

static int set_direct(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	fl = on ? fl | O_DIRECT : fl & ~O_DIRECT;
	return fcntl(fd, F_SETFL, fl);
}

static int cell_fail(char *what, size_t len, const char *call, int err)
{
	snprintf(what, len, "%s: %s", call, strerror(err));
	return -err;
}

/* The cell's figures from the two marks around its transfers. */
static void cell_done(struct sweep_cell *c, uint64_t bytes,
		      const struct clk_mark *a, const struct clk_mark *b)
{
	c->done = 1;
	c->bytes = bytes;
	c->seconds = clk_elapsed(a, b);
	c->cpu = clk_cpu(a, b);
}

/* Write the cell's bytes in bs-sized writes, then fsync; all timed. */
static int cell_write(const struct sweep_opts *o, const struct cells_place *p,
		      int direct, uint64_t bs, unsigned char *buf,
		      struct sweep_cell *c, char *what, size_t wlen)
{
	struct clk_mark a, b;
	int fd, rc = 0;

	if (p->is_dev) {
		fd = p->dev_fd;
		if (set_direct(fd, direct))
			return cell_fail(what, wlen, "O_DIRECT", errno);
	} else {
		/* A fresh file each time, as dd of=FILE makes one. */
		if (unlinkat(p->dirfd, DATA_NAME, 0) && errno != ENOENT)
			return cell_fail(what, wlen, "unlink", errno);
		fd = openat(p->dirfd, DATA_NAME,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				O_CLOEXEC | (direct ? O_DIRECT : 0),
			    0600);
		if (fd < 0)
			return cell_fail(what, wlen, "create", errno);
	}
	clk_mark(&a);
	for (uint64_t off = 0; off < o->size && !rc; off += bs) {
		ssize_t n;

		fill_stamp(buf, (size_t)bs, off, o->seed);
		n = xfer_pwrite_all(fd, buf, (size_t)bs, (off_t)off, p->stop);
		if (n < 0 && !*p->stop)
			rc = cell_fail(what, wlen, "write", (int)-n);
		if (*p->stop)
			rc = -EINTR;
	}
	if (!rc && fsync(fd) != 0)
		rc = *p->stop ? -EINTR : cell_fail(what, wlen, "fsync", errno);
	clk_mark(&b);
	if (!p->is_dev)
		close(fd);
	if (rc)
		return rc;
	cell_done(c, o->size, &a, &b);
	return 0;
}

/* Open what the write left, with the cache evicted. fd, or -errno. */
static int open_evicted(const struct cells_place *p, int direct, char *what,
			size_t wlen)
{
	int fd, rc;

	/* Read-only work opens read-only. */
	if (p->is_dev)
		fd = open(p->dev, O_RDONLY | O_CLOEXEC);
	else
		fd = openat(p->dirfd, DATA_NAME,
			    O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return cell_fail(what, wlen, "open", errno);
	if (p->is_dev) {
		/* The device's own cache: written back by the write's
		 * fsync; dropped here. */
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
#ifdef BLKFLSBUF
		ioctl(fd, BLKFLSBUF, 0);
#endif
	} else if ((rc = cache_evict_fd(fd)) != 0) {
		close(fd);
		return cell_fail(what, wlen, "evicting the cache", -rc);
	}
	if (direct && set_direct(fd, 1)) {
		rc = cell_fail(what, wlen, "O_DIRECT", errno);
		close(fd);
		return rc;
	}
	return fd;
}

/* Evict what the write left cached, then read it back, timed. */
static int cell_read(const struct sweep_opts *o, const struct cells_place *p,
		     int direct, uint64_t bs, unsigned char *buf,
		     struct sweep_cell *c, char *what, size_t wlen)
{
	struct clk_mark a, b;
	int fd = open_evicted(p, direct, what, wlen), rc = 0;

	if (fd < 0)
		return fd;
	clk_mark(&a);
	for (uint64_t off = 0; off < o->size && !rc; off += bs) {
		ssize_t n =
		    xfer_pread_all(fd, buf, (size_t)bs, (off_t)off, p->stop);

		if (n < 0 && !*p->stop)
			rc = cell_fail(what, wlen, "read", (int)-n);
		else if (n >= 0 && (uint64_t)n < bs)
			rc = cell_fail(what, wlen, "read", ENODATA);
		if (*p->stop)
			rc = -EINTR;
	}
	clk_mark(&b);
	close(fd);
	if (rc)
		return rc;
	cell_done(c, o->size, &a, &b);
	return 0;
}

int cells_run_matrix(const struct sweep_opts *o, const struct cells_place *p,
		     struct sweep_stage *st, unsigned char *buf, char *what,
		     size_t wlen)
{
	for (int m = 0; m < SWEEP_MODES; m++) {
		for (unsigned b = 0; b < o->nbs; b++) {
			char bs[32];
			int rc;

			sweep_fmt_bs(bs, sizeof(bs), o->bs[b]);
			for (int op = 0; op < SWEEP_OPS; op++) {
				struct sweep_cell *c = &st->cell[m][b][op];

				rc = op == SWEEP_WRITE
					 ? cell_write(o, p, m, o->bs[b], buf, c,
						      what, wlen)
					 : cell_read(o, p, m, o->bs[b], buf, c,
						     what, wlen);
				if (rc) {
					char tmp[256];

					snprintf(tmp, sizeof(tmp), "%.200s",
						 what);
					snprintf(what, wlen, "%s: %s %s %s: %s",
						 st->label, sweep_mode_name(m),
						 bs, sweep_op_name(op), tmp);
					return rc;
				}
				if (p->progress)
					fprintf(p->progress,
						"%s: %s: %s %s %s: %.1f MB/s, "
						"%d%% CPU, %.2f s\n",
						PROG, st->label,
						sweep_mode_name(m), bs,
						sweep_op_name(op),
						sweep_mb_s(c), sweep_pcp(c),
						c->seconds);
			}
		}
	}
	return 0;
}

/* The O_DIRECT alignment of a file made in the private dir s. */
static int file_alignment(struct cells_place *p, const struct scratch *s,
			  const struct sweep_opts *o, char *what, size_t wlen)
{
	struct target_align a;
	const char *call;
	int e = target_probe_direct(p->dirfd, DATA_NAME, NULL, 0, &a, &call);

	if (e > 0 && !strcmp(call, "create")) {
		snprintf(what, wlen, "create %s/%s: %s", s->path, DATA_NAME,
			 strerror(e));
		return -1;
	}
	if (e > 0) {
		snprintf(what, wlen, "%s does not take O_DIRECT: %s", s->path,
			 a.refused ? "statx says so" : strerror(e));
		return -1;
	}
	p->align = a.offset;
	/* The buffer is 4k-aligned. */
	if (e == TARGET_MISALIGNED) {
		snprintf(what, wlen,
			 "O_DIRECT on %s needs %u-byte memory alignment "
			 "(from %s)",
			 s->path, a.mem, a.source);
		return -1;
	}
	for (unsigned i = 0; i < o->nbs; i++)
		if (o->bs[i] % p->align) {
			char bs[32];

			sweep_fmt_bs(bs, sizeof(bs), o->bs[i]);
			snprintf(what, wlen,
				 "-B '%s': O_DIRECT on %s needs %u-byte "
				 "alignment (from %s)",
				 bs, s->path, p->align, a.source);
			return -1;
		}
	return 0;
}

int cells_file_place(const struct sweep_opts *o, struct scratch *s,
		     const char *dir, struct cells_place *p, char *what,
		     size_t wlen)
{
	struct target_room room;
	char b[32];
	int rc = scratch_create(s, dir);

	if (rc) {
		snprintf(what, wlen,
			 "cannot make a private directory in %s: "
			 "%s",
			 dir, strerror(-rc));
		s->path[0] = '\0';
		return -1;
	}
	p->dirfd = s->dirfd;
	if (target_room_fd(p->dirfd, &room) == 0 && room.counted &&
	    room.bytes < o->size + 16 * UNITS_MIB) {
		units_fmt_size(b, sizeof(b), room.bytes);
		snprintf(what, wlen, "-s '%s': only %s free in %s", o->size_arg,
			 b, dir);
		return -1;
	}
	return file_alignment(p, s, o, what, wlen);
}
