/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guard: what stands between clyde and data it did not create. Before
 * anything writes to a device (or to a file it did not make), the target
 * must be named twice (the target and --destroy-data=SAME, compared as
 * devices, not as strings), must not be mounted, held by another device
 * or claimed by anyone (an O_EXCL open the kernel grants), a file must
 * not be behind a loop device (mounted or not), and both must carry
 * no filesystem, RAID or partition-table signature (libblkid) unless
 * --force. Functions here never print or exit: they fill a one-line
 * reason for the caller to print.
 */
#ifndef CLYDE_GUARD_H
#define CLYDE_GUARD_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

/* What a signature probe found (empty strings: not present). */
struct guard_sig {
	char type[64];	 /* "ext4", "linux_raid_member", "swap" */
	char label[128]; /* the filesystem label */
	char usage[32];	 /* "filesystem", "raid", "crypto", "other" */
	char pttype[32]; /* partition table: "dos", "gpt" */
	int ambivalent;	 /* several signatures, none clearly in use */
};

/* A write request, as the options gave it. */
struct guard_req {
	const char *target;  /* the device (or file) to write */
	const char *destroy; /* --destroy-data's value, NULL when absent */
	int force;	     /* --force: write over a signature */
	int allow_file;	     /* a regular file may be the target */
	int for_device;	     /* as the result: 1 when target is a device */
};

/*
 * Do two names denote the same target? Both are resolved (realpath) and
 * stat'ed: two block devices must share st_rdev, two regular files
 * st_dev and st_ino. Returns 1 same, 0 different, -1 a name cannot be
 * resolved; why[] then says which and why.
 */
int guard_same_target(const char *target, const char *named, char *why,
		      size_t whylen);

/*
 * Is the block device rdev, or a partition of it, mounted, by the
 * mountinfo stream f? Returns 1 with "DEV on MOUNTPOINT" in where[], or 0.
 */
int guard_mounted(FILE *f, dev_t rdev, char *where, size_t len);

/*
 * Is rdev held by another block device (device-mapper, md), by sysfs?
 * Returns 1 with the holders' names in names[], or 0.
 */
int guard_held(dev_t rdev, char *names, size_t len);

/*
 * Is the file st (its st_dev and st_ino) the backing file of a loop
 * device? Every loopN under sys_block ("/sys/block") is asked: the
 * kernel's own record (LOOP_GET_STATUS64 on dev_dir/loopN, its device
 * and inode) when that node opens, else the path in loopN/loop/
 * backing_file, stat'ed (a path can be stale; the record cannot).
 * Returns 1 with the node ("/dev/loop3") in name[] and its number in
 * *rdev, or 0.
 */
int guard_loop_backing(const char *sys_block, const char *dev_dir,
		       const struct stat *st, char *name, size_t len,
		       dev_t *rdev);

/*
 * Probe path for filesystem, RAID and partition-table signatures with
 * libblkid. Returns 1 found (sig filled), 0 none, -1 the probe failed
 * (why[] says so).
 */
int guard_probe(const char *path, struct guard_sig *sig, char *why,
		size_t whylen);

/*
 * What a probe found, as a phrase after the device name: "holds an ext4
 * filesystem labelled data", "holds a linux_raid_member RAID member",
 * "holds a dos partition table".
 */
void guard_describe(const struct guard_sig *sig, char *buf, size_t len);

/*
 * Every check, in order, before writing to r->target; then the target
 * opened for writing (a device with O_EXCL, held until closed, so no one
 * can mount it meanwhile). Returns the descriptor, or -1 with why[] set
 * to one line (no program name) naming the option or device and what
 * was found. r->for_device is set on success.
 */
int guard_open_write(struct guard_req *r, char *why, size_t whylen);

/*
 * The size of the block device or file open on fd in bytes, or 0 with
 * errno set.
 */
unsigned long long guard_size(int fd);

#endif
