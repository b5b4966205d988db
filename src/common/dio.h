/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dio: the alignment O_DIRECT needs on a file: from statx
 * (STATX_DIOALIGN, Linux 6.1+), else the logical block size of the
 * device under it (sysfs), else 4096.
 */
#ifndef CLYDE_DIO_H
#define CLYDE_DIO_H

#include <stddef.h>

struct dio_align {
	unsigned mem;    /* buffer address alignment */
	unsigned offset; /* file offset and length alignment */
	const char *source; /* "statx", "the device's logical block size", "a guess" */
	int refused;     /* statx says the file takes no O_DIRECT */
};

/* The alignment for the file name at dirfd (a regular file). */
void dio_alignment(int dirfd, const char *name, struct dio_align *a);

/* dio_probe()'s answer when len is no multiple of the alignment. */
#define DIO_MISALIGNED (-1)

/*
 * Whether the filesystem of dirfd takes O_DIRECT writes of len bytes
 * from buf (4096-aligned): makes the file name there, reads its
 * alignment into *a, writes len bytes with O_DIRECT and removes name
 * again. Returns 0; DIO_MISALIGNED (a says which alignment); or the
 * errno that stopped it, with *call naming the call ("create", "open
 * (O_DIRECT)", "write (O_DIRECT)"): EINVAL when O_DIRECT is refused.
 */
int dio_probe(int dirfd, const char *name, const void *buf, size_t len,
	      struct dio_align *a, const char **call);

#endif
