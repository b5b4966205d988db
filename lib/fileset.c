/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fileset: see fileset.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "fileset.h"
#include "rng.h"

static const char alphabet[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* Separate streams of the hash for names, sizes and directories. */
#define SALT_NAME 0x6e616d65ull
#define SALT_SIZE 0x73697a65ull
#define SALT_DIR  0x64697273ull

/* Ten lower-case hex digits of the index's low 40 bits. */
static void hex10(char *p, uint64_t v)
{
	for (int k = 9; k >= 0; k--) {
		p[k] = "0123456789abcdef"[v & 15];
		v >>= 4;
	}
}

size_t fileset_name(const struct fileset *fs, uint64_t i, char *buf)
{
	uint64_t h = rng_hash(fs->seed ^ SALT_NAME ^ (fs->random ? 1 : 0), i);
	unsigned nrand = (unsigned)(h % 13);
	char rnd[13];
	size_t n;

	h /= 13;
	for (unsigned k = 0; k < nrand; k++) {
		if (k == 8) /* 64 bits give 8 characters; draw more */
			h = rng_hash(fs->seed ^ SALT_NAME ^ 2, i);
		rnd[k] = alphabet[h % 62];
		h /= 62;
	}
	/* snprintf would cost a tenth of a tmpfs create. */
	if (fs->random) {
		memcpy(buf, rnd, nrand);
		hex10(buf + nrand, i);
	} else {
		hex10(buf, i);
		memcpy(buf + 10, rnd, nrand);
	}
	n = 10 + nrand;
	buf[n] = '\0';
	return n;
}

unsigned fileset_dir(const struct fileset *fs, uint64_t i)
{
	if (fs->dirs == 0)
		return 0;
	if (fs->random)
		return (unsigned)(rng_hash(fs->seed ^ SALT_DIR, i) % fs->dirs);
	/* Sequential: contiguous runs of indexes per directory, in order. */
	return (unsigned)(i * fs->dirs / fs->count);
}

void fileset_dir_name(unsigned d, char *buf)
{
	snprintf(buf, 6, "%05u", d % 100000u);
}

void fileset_path(const struct fileset *fs, uint64_t i, char *buf)
{
	size_t n = 0;

	if (fs->dirs) {
		fileset_dir_name(fileset_dir(fs, i), buf);
		buf[5] = '/';
		n = 6;
	}
	fileset_name(fs, i, buf + n);
}

uint64_t fileset_size(const struct fileset *fs, uint64_t i)
{
	uint64_t span;

	if (fs->max_size <= 0)
		return 0;
	if ((uint64_t)fs->max_size <= fs->min_size)
		return (uint64_t)fs->max_size;
	span = (uint64_t)fs->max_size - fs->min_size + 1;
	return fs->min_size + rng_hash(fs->seed ^ SALT_SIZE, i) % span;
}
