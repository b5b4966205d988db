/*
 * scratch: see scratch.h. Removal walks the tree with openat/unlinkat and
 * O_NOFOLLOW, so a symbolic link inside (the file tests make some) is
 * removed, never followed out of the directory.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scratch.h"

int scratch_create(struct scratch *s, const char *parent)
{
	size_t n = strlen(parent);

	s->dirfd = -1;
	while (n > 1 && parent[n - 1] == '/')
		n--;
	if ((size_t)snprintf(s->path, sizeof(s->path), "%.*s/clyde.XXXXXX",
			     (int)n, parent) >= sizeof(s->path))
		return -ENAMETOOLONG;
	if (!mkdtemp(s->path))
		return -errno;
	s->dirfd = open(s->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					 O_CLOEXEC);
	if (s->dirfd < 0) {
		int e = errno;

		rmdir(s->path);
		return -e;
	}
	return 0;
}

/* Empty the directory open on fd (consumed). */
static int empty_dir(int fd)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		rc = -errno;
		close(fd);
		return rc;
	}
	while ((de = readdir(d)) != NULL) {
		const char *name = de->d_name;

		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		if (unlinkat(dirfd(d), name, 0) == 0)
			continue;
		if (errno == EISDIR || errno == EPERM) {
			int sub = openat(dirfd(d), name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
						 O_CLOEXEC);
			int r2 = sub < 0 ? -errno : empty_dir(sub);

			if (r2 == 0 && unlinkat(dirfd(d), name, AT_REMOVEDIR))
				r2 = -errno;
			if (r2 && !rc)
				rc = r2;
		} else if (errno != ENOENT && !rc) {
			rc = -errno;
		}
	}
	closedir(d);
	return rc;
}

int scratch_remove(struct scratch *s)
{
	int rc = 0;

	if (s->dirfd >= 0) {
		rc = empty_dir(s->dirfd);
		s->dirfd = -1;
	}
	if (s->path[0]) {
		if (rmdir(s->path) != 0 && errno != ENOENT && !rc)
			rc = -errno;
		s->path[0] = '\0';
	}
	return rc;
}
