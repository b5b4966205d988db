/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mounts: see mounts.h. libmount, the util-linux library behind mount,
 * findmnt and umount, parses the table: the optional fields, the " - "
 * separator, an empty source and the octal escapes (\040 for a space) are
 * its business, and it names a /dev/root source as the device it is.
 * Only mountinfo entries count, and nothing is canonicalised: the
 * table is not given a path cache, so a lookup compares strings and
 * never touches a mounted filesystem.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <libmount.h>

#include "mounts.h"

#define MOUNTS_PATH "/proc/self/mountinfo"

FILE *mounts_open(void)
{
	return fopen(MOUNTS_PATH, "re");
}

/*
 * The rest of stream f as a table (NULL when memory runs out). Lines
 * that do not parse are skipped; entries read before an I/O error
 * count, as they did line by line. libmount takes the format from the
 * first line: a table that is not mountinfo is left empty.
 */
static struct libmnt_table *table_read(FILE *f)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_fs *fs;

	if (!tb)
		return NULL;
	/* The name is for libmount's debug messages. */
	(void)mnt_table_parse_stream(tb, f, MOUNTS_PATH);
	if (mnt_table_first_fs(tb, &fs) == 0 && !mnt_fs_is_kernel(fs))
		mnt_reset_table(tb);
	return tb;
}

static void copy(char *dst, size_t len, const char *src)
{
	size_t n = src ? strlen(src) : 0;

	if (n >= len)
		n = len - 1;
	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
}

static void entry_of(struct libmnt_fs *fs, struct mounts_entry *e)
{
	dev_t dev = mnt_fs_get_devno(fs);

	e->major = major(dev);
	e->minor = minor(dev);
	copy(e->point, sizeof(e->point), mnt_fs_get_target(fs));
	copy(e->fstype, sizeof(e->fstype), mnt_fs_get_fstype(fs));
	copy(e->source, sizeof(e->source), mnt_fs_get_source(fs));
}

/* The devices mounts_find_dev looks for. */
struct dev_set {
	const dev_t *devs;
	unsigned n;
};

/* mnt_table_find_next_fs's test: is fs a mount of a device of *data? */
static int holds_dev(struct libmnt_fs *fs, void *data)
{
	const struct dev_set *set = data;
	const char *src = mnt_fs_get_srcpath(fs);
	dev_t dev = mnt_fs_get_devno(fs);
	struct stat st;

	for (unsigned i = 0; i < set->n; i++)
		if (dev == set->devs[i])
			return 1;
	if (!src || src[0] != '/' || stat(src, &st) != 0 ||
	    !S_ISBLK(st.st_mode))
		return 0;
	for (unsigned i = 0; i < set->n; i++)
		if (st.st_rdev == set->devs[i])
			return 1;
	return 0;
}

int mounts_find_dev(FILE *f, const dev_t *devs, unsigned n,
		    struct mounts_entry *e)
{
	struct libmnt_table *tb = table_read(f);
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct dev_set set = {devs, n};
	struct libmnt_fs *fs;
	int found = 0;

	if (tb && it &&
	    mnt_table_find_next_fs(tb, it, holds_dev, &set, &fs) == 0) {
		entry_of(fs, e);
		found = 1;
	}
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return found;
}

/*
 * The path itself, then each parent up to "/", as a mount point: the
 * first that is one is the longest prefix. Searching backwards finds
 * the last of equal mount points, the one mounted over the others.
 */
int mounts_find_path(FILE *f, const char *path, struct mounts_entry *e)
{
	struct libmnt_table *tb;
	struct libmnt_fs *fs = NULL;
	char *p, *slash;

	if (path[0] != '/')
		return 0;
	tb = table_read(f);
	p = strdup(path);
	while (tb && p) {
		fs = mnt_table_find_target(tb, p, MNT_ITER_BACKWARD);
		if (fs || strcmp(p, "/") == 0)
			break;
		slash = strrchr(p, '/');
		if (slash == p)
			p[1] = '\0';
		else
			*slash = '\0';
	}
	if (fs)
		entry_of(fs, e);
	free(p);
	mnt_unref_table(tb);
	return fs != NULL;
}
