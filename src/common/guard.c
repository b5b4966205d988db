/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guard: see guard.h. The checks are redundant on purpose: mountinfo
 * catches a mount the exclusive open would also refuse, but names where
 * it is mounted; the exclusive open catches what mountinfo cannot see
 * (a swap area, a device-mapper table, another namespace's mount).
 */
#include "config.h"

#include <blkid.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#ifdef HAVE_LINUX_FS_H
#include <linux/fs.h>
#endif
#if defined(__has_include)
#if __has_include(<linux/loop.h>)
#include <linux/loop.h>
#endif
#endif

#include "guard.h"
#include "mounts.h"

/* At most this many partitions of one device are looked at. */
#define MAX_PARTS 256

int guard_same_target(const char *target, const char *named, char *why,
		      size_t whylen)
{
	char a[PATH_MAX], b[PATH_MAX];
	struct stat sa, sb;

	if (!realpath(target, a) || stat(a, &sa) != 0) {
		snprintf(why, whylen, "%s: %s", target, strerror(errno));
		return -1;
	}
	if (!realpath(named, b) || stat(b, &sb) != 0) {
		snprintf(why, whylen, "--destroy-data=%s: %s", named,
			 strerror(errno));
		return -1;
	}
	if (S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode) &&
	    sa.st_rdev == sb.st_rdev)
		return 1;
	if (S_ISREG(sa.st_mode) && S_ISREG(sb.st_mode) &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
		return 1;
	snprintf(why, whylen,
		 "--destroy-data=%s: names %s, not the target %s (%s); "
		 "nothing written",
		 named, b, target, a);
	return 0;
}

/* rdev and the partitions of it that sysfs lists; returns the count. */
static unsigned device_and_parts(dev_t rdev, dev_t *devs, unsigned max)
{
	char dir[64];
	unsigned n = 0;
	DIR *d;
	struct dirent *de;

	devs[n++] = rdev;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(rdev),
		 minor(rdev));
	d = opendir(dir);
	if (!d)
		return n;
	while (n < max && (de = readdir(d)) != NULL) {
		char path[PATH_MAX];
		unsigned ma, mi;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		/* A partition is a subdirectory with a "partition" file. */
		snprintf(path, sizeof(path), "%s/%s/partition", dir,
			 de->d_name);
		if (access(path, F_OK) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/dev", dir, de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fscanf(f, "%u:%u", &ma, &mi) == 2)
			devs[n++] = makedev(ma, mi);
		fclose(f);
	}
	closedir(d);
	return n;
}

int guard_mounted(FILE *f, dev_t rdev, char *where, size_t len)
{
	dev_t devs[MAX_PARTS];
	unsigned n = device_and_parts(rdev, devs, MAX_PARTS);
	struct mounts_entry e;

	if (!mounts_find_dev(f, devs, n, &e))
		return 0;
	/* A long source or mount point is cut to where[len]: the message
	 * still names the device. */
	return snprintf(where, len, "%s on %s", e.source, e.point) >= 0;
}

int guard_held(dev_t rdev, char *names, size_t len)
{
	dev_t devs[MAX_PARTS];
	unsigned n = device_and_parts(rdev, devs, MAX_PARTS);
	size_t used = 0;
	int found = 0;

	names[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		char dir[64];
		DIR *d;
		struct dirent *de;

		snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders",
			 major(devs[i]), minor(devs[i]));
		d = opendir(dir);
		if (!d)
			continue;
		while ((de = readdir(d)) != NULL) {
			int w;

			if (de->d_name[0] == '.')
				continue;
			w = snprintf(names + used, len - used, "%s%s",
				     found ? ", " : "", de->d_name);
			if (w > 0 && (size_t)w < len - used)
				used += (size_t)w;
			found = 1;
		}
		closedir(d);
	}
	return found;
}

/* The first line of a small sysfs file, without its newline. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ok;

	buf[0] = '\0';
	if (!f)
		return 0;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok && buf[0];
}

/*
 * The loop device node's record of its backing file: 1 it is st, 0 it
 * is not (or nothing is attached), -1 unknown (the node does not open
 * or is not the device rdev).
 */
static int loop_record(const char *node, dev_t rdev, const struct stat *st)
{
#ifdef LOOP_GET_STATUS64
	struct loop_info64 li;
	struct stat ns;
	int fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc, e;
	unsigned ma, mi;

	if (fd < 0)
		return -1;
	if (fstat(fd, &ns) != 0 || !S_ISBLK(ns.st_mode) || ns.st_rdev != rdev) {
		close(fd);
		return -1;
	}
	memset(&li, 0, sizeof(li));
	rc = ioctl(fd, LOOP_GET_STATUS64, &li);
	e = errno;
	close(fd);
	if (rc != 0)
		return e == ENXIO ? 0 : -1;
	/* lo_device is the kernel's new_encode_dev() of the filesystem. */
	ma = (unsigned)((li.lo_device & 0xfff00) >> 8);
	mi = (unsigned)((li.lo_device & 0xff) |
			((li.lo_device >> 12) & 0xfff00));
	return ma == major(st->st_dev) && mi == minor(st->st_dev) &&
	       li.lo_inode == (uint64_t)st->st_ino;
#else
	(void)node;
	(void)rdev;
	(void)st;
	return -1;
#endif
}

int guard_loop_backing(const char *sys_block, const char *dev_dir,
		       const struct stat *st, char *name, size_t len,
		       dev_t *rdev)
{
	DIR *d = opendir(sys_block);
	struct dirent *de;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d)) != NULL) {
		char path[PATH_MAX], node[PATH_MAX], line[PATH_MAX];
		unsigned ma, mi;
		struct stat bs;
		dev_t dev;
		int r;

		if (strncmp(de->d_name, "loop", 4) ||
		    !isdigit((unsigned char)de->d_name[4]))
			continue;
		snprintf(path, sizeof(path), "%s/%s/dev", sys_block,
			 de->d_name);
		if (!read_line(path, line, sizeof(line)) ||
		    sscanf(line, "%u:%u", &ma, &mi) != 2)
			continue;
		dev = makedev(ma, mi);
		snprintf(node, sizeof(node), "%s/%s", dev_dir, de->d_name);
		r = loop_record(node, dev, st);
		if (r < 0) {
			snprintf(path, sizeof(path), "%s/%s/loop/backing_file",
				 sys_block, de->d_name);
			r = read_line(path, line, sizeof(line)) &&
			    stat(line, &bs) == 0 && bs.st_dev == st->st_dev &&
			    bs.st_ino == st->st_ino;
		}
		if (r == 1) {
			snprintf(name, len, "%s", node);
			*rdev = dev;
			found = 1;
		}
	}
	closedir(d);
	return found;
}

static void copy_value(blkid_probe pr, const char *name, char *buf, size_t len)
{
	const char *v = NULL;

	buf[0] = '\0';
	if (blkid_probe_lookup_value(pr, name, &v, NULL) == 0 && v)
		snprintf(buf, len, "%s", v);
}

int guard_probe(const char *path, struct guard_sig *sig, char *why,
		size_t whylen)
{
	blkid_probe pr;
	int rc;

	memset(sig, 0, sizeof(*sig));
	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr) {
		snprintf(why, whylen, "%s: cannot probe for signatures: %s",
			 path, errno ? strerror(errno) : "libblkid failed");
		return -1;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(
	    pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		copy_value(pr, "TYPE", sig->type, sizeof(sig->type));
		copy_value(pr, "LABEL", sig->label, sizeof(sig->label));
		copy_value(pr, "USAGE", sig->usage, sizeof(sig->usage));
		copy_value(pr, "PTTYPE", sig->pttype, sizeof(sig->pttype));
	} else if (rc == -2) {
		sig->ambivalent = 1;
	}
	blkid_free_probe(pr);
	if (rc == -1) {
		snprintf(why, whylen, "%s: libblkid could not probe it", path);
		return -1;
	}
	return rc == 0 || rc == -2;
}

/* "an" before a vowel sound as these names are read: "an ext4", "an xfs". */
static const char *article(const char *word)
{
	return strchr("aeiouxAEIOUX", word[0]) && word[0] ? "an" : "a";
}

void guard_describe(const struct guard_sig *sig, char *buf, size_t len)
{
	size_t used;
	const char *t = sig->type;

	if (sig->ambivalent) {
		snprintf(buf, len,
			 "holds more than one signature (libblkid "
			 "cannot tell which is in use)");
		return;
	}
	used = (size_t)snprintf(buf, len, "holds");
	if (used >= len)
		return;
	if (*t) {
		if (!strcmp(sig->usage, "raid"))
			used += (size_t)snprintf(buf + used, len - used,
						 " %s %s RAID member",
						 article(t), t);
		else if (!strcmp(sig->usage, "crypto"))
			used += (size_t)snprintf(buf + used, len - used,
						 " %s %s encrypted volume",
						 article(t), t);
		else if (!strcmp(sig->usage, "filesystem"))
			used += (size_t)snprintf(buf + used, len - used,
						 " %s %s filesystem",
						 article(t), t);
		else
			used +=
			    (size_t)snprintf(buf + used, len - used,
					     " %s %s signature", article(t), t);
		if (used < len && sig->label[0])
			used += (size_t)snprintf(buf + used, len - used,
						 " labelled %s", sig->label);
	}
	if (used < len && sig->pttype[0])
		snprintf(buf + used, len - used, "%s %s %s partition table",
			 *t ? " and" : "", article(sig->pttype), sig->pttype);
}

unsigned long long guard_size(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return 0;
	if (S_ISBLK(st.st_mode)) {
#ifdef BLKGETSIZE64
		unsigned long long b = 0;

		if (ioctl(fd, BLKGETSIZE64, &b) != 0)
			return 0;
		return b;
#else
		off_t end = lseek(fd, 0, SEEK_END);

		return end < 0 ? 0 : (unsigned long long)end;
#endif
	}
	if (S_ISREG(st.st_mode))
		return (unsigned long long)st.st_size;
	errno = EINVAL;
	return 0;
}

/*
 * A file behind a loop device is in use as a mounted or claimed device
 * is: what the device holds is the file's content. 1 with why[] set.
 */
static int loop_backed(const char *target, const struct stat *st, char *why,
		       size_t whylen)
{
	char node[PATH_MAX], where[512];
	dev_t rdev;
	FILE *mi;
	int mounted = 0;

	if (!guard_loop_backing("/sys/block", "/dev", st, node, sizeof(node),
				&rdev))
		return 0;
	mi = mounts_open();
	if (mi) {
		mounted = guard_mounted(mi, rdev, where, sizeof(where));
		fclose(mi);
	}
	if (mounted)
		snprintf(why, whylen,
			 "%s: backs %s, mounted (%s); nothing written", target,
			 node, where);
	else
		snprintf(why, whylen,
			 "%s: backs %s (losetup -d %s first); nothing written",
			 target, node, node);
	return 1;
}

int guard_open_write(struct guard_req *r, char *why, size_t whylen)
{
	struct stat st, fst;
	struct guard_sig sig;
	char found[512];
	int fd, rc;
	FILE *mi;

	if (stat(r->target, &st) != 0) {
		snprintf(why, whylen, "%s: %s", r->target, strerror(errno));
		return -1;
	}
	if (!S_ISBLK(st.st_mode) && !(r->allow_file && S_ISREG(st.st_mode))) {
		snprintf(why, whylen, "%s: not a block device%s", r->target,
			 r->allow_file ? " or regular file" : "");
		return -1;
	}
	r->for_device = S_ISBLK(st.st_mode);
	if (!r->destroy) {
		snprintf(why, whylen,
			 "%s: writing destroys the data on it; name it again "
			 "with --destroy-data=%s to allow that",
			 r->target, r->target);
		return -1;
	}
	if (guard_same_target(r->target, r->destroy, why, whylen) != 1)
		return -1;
	if (r->for_device) {
		mi = mounts_open();
		if (mi) {
			rc =
			    guard_mounted(mi, st.st_rdev, found, sizeof(found));
			fclose(mi);
			if (rc) {
				snprintf(why, whylen,
					 "%s: mounted (%s); nothing written",
					 r->target, found);
				return -1;
			}
		}
		if (guard_held(st.st_rdev, found, sizeof(found))) {
			snprintf(why, whylen,
				 "%s: in use by %s (device-mapper, RAID or "
				 "LVM); nothing written",
				 r->target, found);
			return -1;
		}
		/* The kernel grants O_EXCL on a block device only when no
		 * one has it mounted or claimed; holding it keeps it so. */
		fd = open(r->target, O_WRONLY | O_EXCL | O_CLOEXEC);
	} else {
		if (loop_backed(r->target, &st, why, whylen))
			return -1;
		fd = open(r->target, O_WRONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		int e = errno;

		if (e == EBUSY)
			snprintf(why, whylen,
				 "%s: in use (mounted, a swap area, or part "
				 "of another device): the kernel refused an "
				 "exclusive open; nothing written",
				 r->target);
		else
			snprintf(why, whylen, "%s: cannot open for writing: %s",
				 r->target, strerror(e));
		return -1;
	}
	/* The name might have been replaced between stat and open. */
	if (fstat(fd, &fst) != 0 || fst.st_mode != st.st_mode ||
	    (r->for_device
		 ? fst.st_rdev != st.st_rdev
		 : fst.st_ino != st.st_ino || fst.st_dev != st.st_dev)) {
		close(fd);
		snprintf(why, whylen, "%s: changed while being checked",
			 r->target);
		return -1;
	}
	rc = guard_probe(r->target, &sig, why, whylen);
	if (rc < 0) {
		close(fd);
		return -1;
	}
	if (rc > 0 && !r->force) {
		guard_describe(&sig, found, sizeof(found));
		close(fd);
		snprintf(why, whylen,
			 "--destroy-data=%s: %s %s; nothing written (--force "
			 "writes over it)",
			 r->destroy, r->target, found);
		return -1;
	}
	return fd;
}
