/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch: see scratch.h. Removal walks the tree with openat/unlinkat and
 * O_NOFOLLOW, so a symbolic link inside (the file tests make some) is
 * removed, never followed out of the directory. What cannot be removed
 * (an immutable file, a mount inside, an I/O error) is named with its
 * errno; nothing is guessed from the errno.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"

int scratch_create(struct scratch *s, const char *parent)
{
	size_t n = strlen(parent);

	s->dirfd = -1;
	s->watch_pid = 0;
	s->watch_fd = -1;
	while (n > 1 && parent[n - 1] == '/')
		n--;
	if ((size_t)snprintf(s->path, sizeof(s->path), "%.*s/clyde.XXXXXX",
			     (int)n, parent) >= sizeof(s->path))
		return -ENAMETOOLONG;
	if (!mkdtemp(s->path))
		return -errno;
	s->dirfd =
	    open(s->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->dirfd < 0) {
		int e = errno;

		rmdir(s->path);
		return -e;
	}
	return 0;
}

/* Where the first failure of a removal is told. */
struct why {
	char *buf;
	size_t len;
	int set;
};

/* Record the first failure: call, then rel/name inside the scratch dir. */
static int failed(struct why *w, const char *call, const char *rel,
		  const char *name, int err)
{
	if (!w->set && w->len)
		snprintf(w->buf, w->len, "%s%s%s%s%s: %s", call,
			 rel[0] || name ? " " : "", rel,
			 rel[0] && name ? "/" : "", name ? name : "",
			 strerror(err));
	w->set = 1;
	return -err;
}

/* Whether the entry is a directory (not following a link). */
static int is_dir(int dirfd, const struct dirent *de)
{
	struct stat st;

	if (de->d_type != DT_UNKNOWN)
		return de->d_type == DT_DIR;
	return fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISDIR(st.st_mode);
}

/*
 * Empty the directory open on fd (consumed), rel being its path inside
 * the scratch directory ("" for the scratch directory itself). Goes on
 * past a failure, so as much as can go goes; returns the first. A
 * directory on another device (something mounted inside) is not
 * entered: what is there is not clyde's.
 */
static int empty_dir(struct why *s, int fd, const char *rel, dev_t dev)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		rc = failed(s, "opendir", rel, NULL, errno);
		close(fd);
		return rc;
	}
	while ((de = readdir(d)) != NULL) {
		const char *name = de->d_name;
		int r2 = 0;

		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		if (is_dir(dirfd(d), de)) {
			char sub_rel[PATH_MAX];
			struct stat st;
			int sub = openat(dirfd(d), name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					     O_CLOEXEC);

			snprintf(sub_rel, sizeof(sub_rel), "%s%s%s", rel,
				 rel[0] ? "/" : "", name);
			if (sub < 0) {
				r2 = failed(s, "open", rel, name, errno);
			} else if (fstat(sub, &st) != 0 || st.st_dev != dev) {
				r2 = failed(s, "rmdir", rel, name, EBUSY);
				close(sub);
			} else {
				r2 = empty_dir(s, sub, sub_rel, dev);
			}
			if (r2 == 0 &&
			    unlinkat(dirfd(d), name, AT_REMOVEDIR) != 0 &&
			    errno != ENOENT)
				r2 = failed(s, "rmdir", rel, name, errno);
		} else if (unlinkat(dirfd(d), name, 0) != 0 &&
			   errno != ENOENT) {
			r2 = failed(s, "unlink", rel, name, errno);
		}
		if (r2 && !rc)
			rc = r2;
	}
	closedir(d);
	return rc;
}

int scratch_remove_why(struct scratch *s, char *buf, size_t len)
{
	struct why w = {buf, len, 0};
	struct stat st;
	int rc = 0;

	if (len)
		buf[0] = '\0';
	if (s->dirfd >= 0) {
		if (fstat(s->dirfd, &st) != 0) {
			rc = failed(&w, "stat", "", NULL, errno);
			close(s->dirfd);
		} else {
			rc = empty_dir(&w, s->dirfd, "", st.st_dev);
		}
		s->dirfd = -1;
	}
	if (s->path[0] && rmdir(s->path) != 0 && errno != ENOENT && !rc)
		rc = failed(&w, "rmdir", "", NULL, errno);
	if (!rc)
		s->path[0] = '\0';
	return rc;
}

int scratch_remove(struct scratch *s)
{
	return scratch_remove_why(s, NULL, 0);
}
