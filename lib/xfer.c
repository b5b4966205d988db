/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xfer: see xfer.h. One loop for all four calls. */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "xfer.h"

enum xfer_op { XFER_READ, XFER_WRITE, XFER_PREAD, XFER_PWRITE };

static ssize_t once(enum xfer_op op, int fd, char *p, size_t n, off_t off)
{
	switch (op) {
	case XFER_READ:
		return read(fd, p, n);
	case XFER_WRITE:
		return write(fd, p, n);
	case XFER_PREAD:
		return pread(fd, p, n, off);
	default:
		return pwrite(fd, p, n, off);
	}
}

static ssize_t loop(enum xfer_op op, int fd, char *p, size_t len, off_t off,
		    const volatile sig_atomic_t *stop)
{
	int writes = op == XFER_WRITE || op == XFER_PWRITE;
	size_t done = 0;

	while (done < len) {
		ssize_t n =
		    once(op, fd, p + done, len - done, off + (off_t)done);

		if (n < 0 && errno != EINTR)
			return -errno;
		if (n == 0)
			return writes ? -ENOSPC : (ssize_t)done;
		if (n > 0)
			done += (size_t)n;
		/* Interrupted, or short: go on only while no stop is asked. */
		if (done < len && stop && *stop)
			return -EINTR;
	}
	return (ssize_t)done;
}

ssize_t xfer_read_all(int fd, void *buf, size_t len,
		      const volatile sig_atomic_t *stop)
{
	return loop(XFER_READ, fd, buf, len, 0, stop);
}

ssize_t xfer_write_all(int fd, const void *buf, size_t len,
		       const volatile sig_atomic_t *stop)
{
	return loop(XFER_WRITE, fd, (char *)buf, len, 0, stop);
}

ssize_t xfer_pread_all(int fd, void *buf, size_t len, off_t off,
		       const volatile sig_atomic_t *stop)
{
	return loop(XFER_PREAD, fd, buf, len, off, stop);
}

ssize_t xfer_pwrite_all(int fd, const void *buf, size_t len, off_t off,
			const volatile sig_atomic_t *stop)
{
	return loop(XFER_PWRITE, fd, (char *)buf, len, off, stop);
}
