/*
 * dio: the alignment O_DIRECT needs on a file: from statx
 * (STATX_DIOALIGN, Linux 6.1+), else the logical block size of the
 * device under it (sysfs), else 4096.
 */
#ifndef CLYDE_DIO_H
#define CLYDE_DIO_H

struct dio_align {
	unsigned mem;    /* buffer address alignment */
	unsigned offset; /* file offset and length alignment */
	const char *source; /* "statx", "the device's logical block size", "a guess" */
	int refused;     /* statx says the file takes no O_DIRECT */
};

/* The alignment for the file name at dirfd (a regular file). */
void dio_alignment(int dirfd, const char *name, struct dio_align *a);

#endif
