/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpirank_err: a rank's standard error, a stdio stream of our own
 * (fopencookie) over file descriptor 2, so that every message of clyde's
 * code, wherever it is printed, says which rank and host it comes from
 * without any of that code knowing of ranks. Lines are put together and
 * judged whole; rank 0, once the ranks agreed, writes through as it
 * comes (its progress lines end with "done" only after the test).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mpirank.h"

#define PREFIX "clyde: "

static char line[4096];
static size_t have;

static void put(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* What every rank would print alike: rank 0 says it once. */
static int same_on_all(const char *s)
{
	return !strncmp(s, PREFIX "data ", sizeof(PREFIX "data ") - 1) ||
	       !strncmp(s, PREFIX "note: ", sizeof(PREFIX "note: ") - 1);
}

/* One whole line (or a full buffer of one). */
static void judge(const char *s, size_t n)
{
	const struct mpirank *me = &mpirank_me;
	char out[sizeof(line) + MPIRANK_HOST_MAX + 64];
	int len;

	if (me->rank == 0 && me->agreed) {
		put(s, n);
		return;
	}
	if (n < sizeof(PREFIX) - 1 || strncmp(s, PREFIX, sizeof(PREFIX) - 1)) {
		/* Not a message (progress, a table on stderr): rank 0's. */
		if (me->rank == 0)
			put(s, n);
		return;
	}
	if (me->rank != 0 && me->agreed && same_on_all(s))
		return;
	/* One write: the ranks' lines do not mix. */
	len = snprintf(out, sizeof(out), PREFIX "rank %d (%s): %.*s", me->rank,
		       me->host, (int)(n - (sizeof(PREFIX) - 1)),
		       s + sizeof(PREFIX) - 1);
	put(out, (size_t)len < sizeof(out) ? (size_t)len : sizeof(out) - 1);
}

static ssize_t err_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	if (!have && mpirank_me.rank == 0 && mpirank_me.agreed) {
		put(buf, size);
		return (ssize_t)size;
	}
	for (size_t i = 0; i < size; i++) {
		line[have++] = buf[i];
		if (buf[i] == '\n' || have == sizeof(line)) {
			judge(line, have);
			have = 0;
		}
	}
	return (ssize_t)size;
}

static int err_close(void *cookie)
{
	(void)cookie;
	if (have)
		judge(line, have);
	have = 0;
	return 0;
}

int mpirank_err_open(void)
{
	static const cookie_io_functions_t io = {.write = err_write,
						 .close = err_close};
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		return -1;
	setvbuf(f, NULL, _IOLBF, 0);
	fflush(stderr);
	stderr = f;
	return 0;
}
