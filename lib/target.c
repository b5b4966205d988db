/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * target: see target.h. This file includes the kernel's <linux/stat.h>
 * for struct statx with the direct-I/O fields (glibc 2.36 lacks them), so
 * it must not include <sys/stat.h>; the file type comes from statx too.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/stat.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef HAVE_LINUX_FS_H
#include <linux/fs.h>
#endif

#include "target.h"

#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x00002000U
#endif

/* /sys/dev/block/M:m/queue (a disk) or ../queue (a partition). */
static unsigned sysfs_block_size(unsigned maj, unsigned min)
{
	const char *fmt[] = {
	    "/sys/dev/block/%u:%u/queue/logical_block_size",
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

/* The first line of path, blanks trimmed, into buf[len]; "" if none. */
static void sysfs_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;
	char *p;

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	for (p = buf; *p == ' ' || *p == '\t'; p++)
		;
	memmove(buf, p, strlen(p) + 1);
	n = strlen(buf);
	while (n &&
	       (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	/* Only printable ASCII reaches a title. */
	for (p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
}

void target_model(unsigned maj, unsigned min, char *buf, size_t len)
{
	const char *up[] = {"", "../"};
	char path[128], vendor[64], model[96];

	buf[0] = '\0';
	for (int i = 0; i < 2 && !buf[0]; i++) {
		snprintf(path, sizeof(path),
			 "/sys/dev/block/%u:%u/%sdevice/vendor", maj, min,
			 up[i]);
		sysfs_line(path, vendor, sizeof(vendor));
		/* virtio's "0x1af4" is a PCI vendor number, not a name. */
		if (!strncmp(vendor, "0x", 2))
			vendor[0] = '\0';
		snprintf(path, sizeof(path),
			 "/sys/dev/block/%u:%u/%sdevice/model", maj, min,
			 up[i]);
		sysfs_line(path, model, sizeof(model));
		snprintf(buf, len, "%s%s%s", vendor,
			 *vendor && *model ? " " : "", model);
	}
}

static void guess(struct target_align *a, unsigned v)
{
	a->mem = a->offset = v;
	a->source = "a guess";
	a->refused = 0;
}

/* A block device: its logical block size, else 512. */
static void device_align(int fd, struct target_align *a)
{
	guess(a, 512);
#ifdef BLKSSZGET
	int ssz = 0;

	if (ioctl(fd, BLKSSZGET, &ssz) == 0 && ssz > 0) {
		a->mem = a->offset = (unsigned)ssz;
		a->source = "the device's logical block size";
	}
#endif
}

void target_align_fd(int fd, struct target_align *a)
{
	struct statx stx;
	unsigned bs;

	guess(a, 4096);
	if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH,
		    STATX_DIOALIGN | STATX_BASIC_STATS, &stx) != 0)
		return;
	if ((stx.stx_mode & S_IFMT) == S_IFBLK) {
		device_align(fd, a);
		return;
	}
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

/* Open name with O_DIRECT and write len bytes of buf. 0 or errno. */
static int direct_write(int dirfd, const char *name, const void *buf,
			size_t len, const char **call)
{
	ssize_t w;
	int fd, e = 0;

	*call = "open (O_DIRECT)";
	fd = openat(dirfd, name, O_WRONLY | O_NOFOLLOW | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (len) {
		*call = "write (O_DIRECT)";
		errno = 0;
		w = write(fd, buf, len);
		if (w != (ssize_t)len)
			e = w < 0 && errno ? errno : ENOSPC;
	}
	close(fd);
	return e;
}

int target_probe_direct(int dirfd, const char *name, const void *buf,
			size_t len, struct target_align *a, const char **call)
{
	int fd, e;

	/* The alignment comes from a plain file on the filesystem. */
	*call = "create";
	fd = openat(dirfd, name,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno;
	target_align_fd(fd, a);
	close(fd);
	if (a->refused) {
		e = EINVAL;
		*call = "statx";
	} else if (len % a->offset || 4096 % a->mem) {
		e = TARGET_MISALIGNED;
	} else {
		e = direct_write(dirfd, name, buf, len, call);
	}
	unlinkat(dirfd, name, 0);
	return e;
}

static void room_of(const struct statvfs *v, struct target_room *r)
{
	r->counted = v->f_blocks != 0;
	r->bytes = (uint64_t)v->f_bavail * v->f_frsize;
	r->block = v->f_frsize;
	r->inodes_counted = v->f_files != 0;
	r->inodes = v->f_favail;
}

int target_room_fd(int fd, struct target_room *r)
{
	struct statvfs v;

	if (fstatvfs(fd, &v) != 0)
		return -errno;
	room_of(&v, r);
	return 0;
}

int target_room_path(const char *path, struct target_room *r)
{
	struct statvfs v;

	if (statvfs(path, &v) != 0)
		return -errno;
	room_of(&v, r);
	return 0;
}
