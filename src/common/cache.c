/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cache: see cache.h. mincore is read in windows of 256 MiB so checking
 * a file of any size costs at most 64 KiB of vector.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"

#define WINDOW (256ull << 20)

int cache_evict_fd(int fd)
{
	int rc;

	/* Dirty pages cannot be dropped: write them back first. */
	if (fdatasync(fd) != 0)
		return -errno;
	rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return -rc;
}

double cache_resident(int fd, uint64_t size)
{
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t pages = 0, in = 0;
	unsigned char *vec;

	if (size == 0 || psz <= 0)
		return 0.0;
	vec = malloc(WINDOW / (uint64_t)psz);
	if (!vec)
		return -1.0;
	for (uint64_t off = 0; off < size; off += WINDOW) {
		size_t len =
		    (size_t)(size - off < WINDOW ? size - off : WINDOW);
		size_t n = (len + (size_t)psz - 1) / (size_t)psz;
		void *p =
		    mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);

		if (p == MAP_FAILED) {
			free(vec);
			return -1.0;
		}
		if (mincore(p, len, vec) != 0) {
			munmap(p, len);
			free(vec);
			return -1.0;
		}
		for (size_t i = 0; i < n; i++)
			in += vec[i] & 1;
		pages += n;
		munmap(p, len);
	}
	free(vec);
	return (double)in / (double)pages;
}

int cache_evict_tree(int dir)
{
	int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;
	struct dirent *de;
	int rc = 0;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		rc = -errno;
		close(fd);
		return rc;
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		int sub;

		if (de->d_name[0] == '.' &&
		    (!de->d_name[1] ||
		     (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISDIR(st.st_mode)) {
			sub = openat(dirfd(d), de->d_name,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					 O_CLOEXEC);
			if (sub >= 0) {
				int r2 = cache_evict_tree(sub);

				close(sub);
				if (r2 && !rc)
					rc = r2;
			}
		} else if (S_ISREG(st.st_mode) && st.st_size > 0) {
			sub = openat(dirfd(d), de->d_name,
				     O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0) {
				int r2 = cache_evict_fd(sub);

				close(sub);
				if (r2 && !rc)
					rc = r2;
			}
		}
	}
	closedir(d);
	return rc;
}

int cache_drop_all(void)
{
	int fd, rc = 0;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "3\n", 2) != 2)
		rc = -errno;
	close(fd);
	return rc;
}
