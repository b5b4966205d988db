/*
 * dio: see dio.h. This file includes the kernel's <linux/stat.h> for
 * struct statx with the direct-I/O fields (glibc 2.36 lacks them), so it
 * must not include <sys/stat.h>.
 */
#include "config.h"

#include <fcntl.h>
#include <linux/stat.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dio.h"

#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x00002000U
#endif

/* /sys/dev/block/M:m/queue (a disk) or ../queue (a partition). */
static unsigned sysfs_block_size(unsigned maj, unsigned min)
{
	const char *fmt[] = {"/sys/dev/block/%u:%u/queue/logical_block_size",
			     "/sys/dev/block/%u:%u/../queue/logical_block_size"};
	char path[96];
	unsigned v = 0;

	for (int i = 0; i < 2 && !v; i++) {
		FILE *f;

		snprintf(path, sizeof(path), fmt[i], maj, min);
		f = fopen(path, "re");
		if (f) {
			if (fscanf(f, "%u", &v) != 1)
				v = 0;
			fclose(f);
		}
	}
	return v;
}

void dio_alignment(int dirfd, const char *name, struct dio_align *a)
{
	struct statx stx;
	unsigned bs;

	a->mem = a->offset = 4096;
	a->source = "a guess";
	a->refused = 0;
	if (syscall(SYS_statx, dirfd, name, AT_SYMLINK_NOFOLLOW,
		    STATX_DIOALIGN | STATX_BASIC_STATS, &stx) != 0)
		return;
	if (stx.stx_mask & STATX_DIOALIGN) {
		if (stx.stx_dio_offset_align == 0) {
			a->refused = 1;
		} else {
			a->mem = stx.stx_dio_mem_align;
			a->offset = stx.stx_dio_offset_align;
		}
		a->source = "statx";
		return;
	}
	bs = sysfs_block_size(stx.stx_dev_major, stx.stx_dev_minor);
	if (bs) {
		a->mem = a->offset = bs;
		a->source = "the device's logical block size";
	}
}
