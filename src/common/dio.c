/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dio: see dio.h. This file includes the kernel's <linux/stat.h> for
 * struct statx with the direct-I/O fields (glibc 2.36 lacks them), so it
 * must not include <sys/stat.h>.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/stat.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dio.h"

#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x00002000U
#endif

/* /sys/dev/block/M:m/queue (a disk) or ../queue (a partition). */
static unsigned sysfs_block_size(unsigned maj, unsigned min)
{
	const char *fmt[] = {"/sys/dev/block/%u:%u/queue/logical_block_size",
			     "/sys/dev/block/%u:%u/../queue/logical_block_size"};
	char path[96];
	unsigned v = 0;

	for (int i = 0; i < 2 && !v; i++) {
		FILE *f;

		snprintf(path, sizeof(path), fmt[i], maj, min);
		f = fopen(path, "re");
		if (f) {
			if (fscanf(f, "%u", &v) != 1)
				v = 0;
			fclose(f);
		}
	}
	return v;
}

void dio_alignment(int dirfd, const char *name, struct dio_align *a)
{
	struct statx stx;
	unsigned bs;

	a->mem = a->offset = 4096;
	a->source = "a guess";
	a->refused = 0;
	if (syscall(SYS_statx, dirfd, name, AT_SYMLINK_NOFOLLOW,
		    STATX_DIOALIGN | STATX_BASIC_STATS, &stx) != 0)
		return;
	if (stx.stx_mask & STATX_DIOALIGN) {
		if (stx.stx_dio_offset_align == 0) {
			a->refused = 1;
		} else {
			a->mem = stx.stx_dio_mem_align;
			a->offset = stx.stx_dio_offset_align;
		}
		a->source = "statx";
		return;
	}
	bs = sysfs_block_size(stx.stx_dev_major, stx.stx_dev_minor);
	if (bs) {
		a->mem = a->offset = bs;
		a->source = "the device's logical block size";
	}
}

int dio_probe(int dirfd, const char *name, const void *buf, size_t len,
	      struct dio_align *a, const char **call)
{
	ssize_t w;
	int fd, e = 0;

	/* The alignment comes from a plain file on the filesystem. */
	*call = "create";
	fd = openat(dirfd, name,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno;
	close(fd);
	dio_alignment(dirfd, name, a);
	if (a->refused) {
		e = EINVAL;
		*call = "statx";
	} else if (len % a->offset || 4096 % a->mem) {
		e = DIO_MISALIGNED;
	} else {
		*call = "open (O_DIRECT)";
		fd = openat(dirfd, name,
			    O_WRONLY | O_NOFOLLOW | O_DIRECT | O_CLOEXEC);
		if (fd < 0) {
			e = errno;
		} else {
			*call = "write (O_DIRECT)";
			errno = 0;
			w = write(fd, buf, len);
			if (w != (ssize_t)len)
				e = w < 0 && errno ? errno : ENOSPC;
			close(fd);
		}
	}
	unlinkat(dirfd, name, 0);
	return e;
}
