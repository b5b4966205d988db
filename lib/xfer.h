/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xfer: whole transfers. A read or write may move fewer bytes than asked
 * (a pipe, a signal, the end of a file) or be interrupted before it moved
 * any (EINTR); these functions call again for the rest until every byte
 * moved, the data ended (reads), an error came, or a stop was asked for.
 *
 * A stop is a flag a signal handler sets (volatile sig_atomic_t, NULL
 * for none): once it is set, an interrupted or short transfer is not
 * continued and the call returns -EINTR, so a program that installed its
 * handlers without SA_RESTART stops inside a blocked transfer. The flag
 * is only read here; a caller that wants to stop between whole transfers
 * checks it itself.
 *
 * Each returns the bytes moved (len when all of them were), or -errno.
 * A read returns fewer than len only at the end of the data (an early
 * EOF: the caller decides whether that is an error); a write that moves
 * nothing returns -ENOSPC.
 */
#ifndef CLYDE_XFER_H
#define CLYDE_XFER_H

#include <signal.h>
#include <sys/types.h>

/* read() or write() on a pipe, stream or file at its current offset. */
ssize_t xfer_read_all(int fd, void *buf, size_t len,
		      const volatile sig_atomic_t *stop);
ssize_t xfer_write_all(int fd, const void *buf, size_t len,
		       const volatile sig_atomic_t *stop);

/* pread() or pwrite() of len bytes at off. */
ssize_t xfer_pread_all(int fd, void *buf, size_t len, off_t off,
		       const volatile sig_atomic_t *stop);
ssize_t xfer_pwrite_all(int fd, const void *buf, size_t len, off_t off,
			const volatile sig_atomic_t *stop);

#endif
