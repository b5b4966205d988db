/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fileset: the files of bonnie++'s file tests (-n), derived from an index
 * and the run's seed instead of stored, so a million files cost a few
 * bytes each (the shuffled orders) and no name search ever happens.
 *
 * Names follow bonnie++ 1.96+: ten hex digits of the index and 0-12
 * random characters from [a-zA-Z0-9]; the index comes first in the
 * sequential pass (so names sort in creation order) and last in the
 * random pass (so they do not).
 */
#ifndef CLYDE_FILESET_H
#define CLYDE_FILESET_H

#include <stddef.h>
#include <stdint.h>

#define FILESET_NAME_MAX 23 /* 10 + 12 + NUL */
#define FILESET_DIR_MAX	 99999u
#define FILESET_LINK	 (-1) /* max_size: hard links to one file */
#define FILESET_SYMLINK	 (-2) /* max_size: symbolic links to one file */

struct fileset {
	uint64_t count;	  /* files */
	int64_t max_size; /* bytes, or FILESET_LINK / FILESET_SYMLINK */
	uint64_t min_size;
	unsigned dirs; /* 0: all files in the test directory */
	uint64_t seed;
	int random; /* the random pass: names and directories */
};

/* The name of file i (buf holds FILESET_NAME_MAX). Returns its length. */
size_t fileset_name(const struct fileset *fs, uint64_t i, char *buf);

/* The subdirectory of file i, 0..dirs-1 (0 when dirs is 0). */
unsigned fileset_dir(const struct fileset *fs, uint64_t i);

/* "00042": the name of subdirectory d (buf holds 6). */
void fileset_dir_name(unsigned d, char *buf);

/*
 * "00042/name" or "name": file i relative to the test directory (buf
 * holds FILESET_NAME_MAX + 6).
 */
void fileset_path(const struct fileset *fs, uint64_t i, char *buf);

/* The data size of file i: uniform in [min, max]; 0 for links. */
uint64_t fileset_size(const struct fileset *fs, uint64_t i);

#endif
