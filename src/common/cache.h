/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cache: keep the page cache out of the figures. Before a test reads
 * what an earlier test wrote, the runner evicts it (outside the timed
 * window) and checks with mincore that it is really gone, so a small
 * data set measures the device, not RAM.
 */
#ifndef CLYDE_CACHE_H
#define CLYDE_CACHE_H

#include <stdint.h>

/*
 * Write back and evict the file open on fd (size bytes): fdatasync, then
 * posix_fadvise(DONTNEED). Returns 0 or -errno.
 */
int cache_evict_fd(int fd);

/*
 * The fraction (0..1) of the first size bytes of fd that are in the page
 * cache, by mincore over a read-only mapping; -1 when it cannot be told.
 */
double cache_resident(int fd, uint64_t size);

/*
 * Evict every regular file with data under the directory dirfd (data
 * only: inodes and directory entries stay cached). Returns 0 or -errno.
 */
int cache_evict_tree(int dirfd);

/*
 * As root: sync, then drop the page cache, dentries and inodes of the
 * whole machine (/proc/sys/vm/drop_caches). Returns 0 or -errno.
 */
int cache_drop_all(void);

#endif
