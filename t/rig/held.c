/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * held DEVICE SECONDS: wait until DEVICE can be opened exclusively
 * (O_EXCL on a block device: no mount and no other exclusive user holds
 * it), trying every 100 ms for up to SECONDS. Exit 0 when it could,
 * 1 with the last errno named when it never could, 2 for bad arguments.
 *
 * A filesystem the tests mount in the shared namespace can be pinned for
 * a while after its umount by a mount namespace another test's
 * clyde-sweep made meanwhile (a copy of every mount; on a machine whose
 * mounts are not shared, no umount reaches it). A test that uses the
 * device exclusively after such an umount waits here first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	long secs;
	int err = 0;

	if (argc != 3 || (secs = strtol(argv[2], &end, 10)) < 0 || *end) {
		fprintf(stderr, "usage: held DEVICE SECONDS\n");
		return 2;
	}
	for (long i = 0; i <= secs * 10; i++) {
		struct timespec ts = {0, 100 * 1000 * 1000};
		int fd = open(argv[1], O_RDONLY | O_EXCL | O_CLOEXEC);

		if (fd >= 0) {
			close(fd);
			return 0;
		}
		err = errno;
		if (err != EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "held: %s: %s\n", argv[1], strerror(err));
	return 1;
}
