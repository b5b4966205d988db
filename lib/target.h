/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * target: what a program must know about the file or device it measures
 * before the first timed transfer: the alignment O_DIRECT needs there,
 * whether the filesystem takes O_DIRECT at all, and the room left.
 * Nothing here prints: each answer is a code, with the alignment's
 * source or the failing call for the caller's message.
 */
#ifndef CLYDE_TARGET_H
#define CLYDE_TARGET_H

#include <stddef.h>
#include <stdint.h>

struct target_align {
	unsigned mem;	    /* buffer address alignment */
	unsigned offset;    /* file offset and length alignment */
	const char *source; /* "statx", "the device's logical block size",
			       "a guess" */
	int refused;	    /* statx says the file takes no O_DIRECT */
};

/*
 * The alignment O_DIRECT needs on the open fd. A block device: its
 * logical block size (BLKSSZGET), else a guess of 512. A file: statx
 * (STATX_DIOALIGN, Linux 6.1+), else the logical block size of the
 * device under it (sysfs), else a guess of 4096.
 */
void target_align_fd(int fd, struct target_align *a);

/* target_probe_direct()'s answer when the alignment forbids len. */
#define TARGET_MISALIGNED (-1)

/*
 * Whether the filesystem of dirfd takes O_DIRECT writes of len bytes from
 * buf (4096-aligned): makes the file name there, reads its alignment
 * into *a, opens it with O_DIRECT, writes len bytes (none when len is 0:
 * the open alone is probed) and removes name again. Returns 0;
 * TARGET_MISALIGNED when len is no multiple of the offset alignment or a
 * 4096-aligned buffer is not aligned enough (*a says which); or the
 * errno that stopped it, with *call naming the call ("create", "statx",
 * "open (O_DIRECT)", "write (O_DIRECT)"): EINVAL when O_DIRECT is
 * refused.
 */
int target_probe_direct(int dirfd, const char *name, const void *buf,
			size_t len, struct target_align *a, const char **call);

/* The room on a filesystem, as an unprivileged user may use it. */
struct target_room {
	int counted;	    /* 0: the filesystem keeps no count (ramfs) */
	uint64_t bytes;	    /* free bytes (f_bavail x f_frsize) */
	uint64_t block;	    /* its block size (f_frsize) */
	int inodes_counted; /* 0: no inode count (f_files 0) */
	uint64_t inodes;    /* free inodes (f_favail) */
};

/* The room on the filesystem of fd, or of path. 0, or -errno. */
int target_room_fd(int fd, struct target_room *r);
int target_room_path(const char *path, struct target_room *r);

/*
 * What sysfs says the block device maj:min is (a partition: its disk),
 * for a chart's title: "VENDOR MODEL" from device/vendor and
 * device/model, each trimmed, or whichever of them there is. buf[len]
 * "" when neither is there (a loop device, a file's tmpfs).
 */
void target_model(unsigned maj, unsigned min, char *buf, size_t len);

#endif
