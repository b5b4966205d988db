/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_xfer: whole transfers (lib/xfer) on pipes and a file: short
 * reads joined, the end of data told apart, a write with no reader, an
 * interrupted transfer resumed without a stop and given up with one;
 * and lib/target on a file of a private directory: the alignment, the
 * O_DIRECT probe (which leaves nothing behind), the room. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "target.h"
#include "xfer.h"
#include "check_main.h"

static char dir[] = "/tmp/check_xfer.XXXXXX";

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	signal(SIGPIPE, SIG_IGN);
}

static void teardown(void)
{
	char path[64];

	snprintf(path, sizeof(path), "%s/f", dir);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
	strcpy(dir, "/tmp/check_xfer.XXXXXX");
}

/* A writer that feeds a pipe in small pieces, with pauses. */
struct feeder {
	int fd;
	size_t len, piece;
	unsigned pause_ms;
	pthread_t thread; /* the reader, poked before the data comes */
	int poke;
};

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {0, (long)ms * 1000000L};

	nanosleep(&ts, NULL);
}

static void *feed(void *arg)
{
	struct feeder *f = arg;
	char buf[256];

	if (f->poke) {
		sleep_ms(f->pause_ms);
		pthread_kill(f->thread, SIGUSR1);
	}
	for (size_t done = 0; done < f->len; done += f->piece) {
		size_t n = f->len - done < f->piece ? f->len - done : f->piece;

		for (size_t i = 0; i < n; i++)
			buf[i] = (char)(done + i);
		sleep_ms(f->pause_ms);
		if (write(f->fd, buf, n) != (ssize_t)n)
			break;
	}
	close(f->fd);
	return NULL;
}

START_TEST(pipe_pieces)
{
	int p[2];
	char buf[1000];
	struct feeder f = {0, 600, 100, 2, 0, 0};
	pthread_t t;

	ck_assert_int_eq(pipe(p), 0);
	f.fd = p[1];
	ck_assert_int_eq(pthread_create(&t, NULL, feed, &f), 0);
	/* Six writes of 100 joined into one read of 500 ... */
	ck_assert_int_eq(xfer_read_all(p[0], buf, 500, NULL), 500);
	for (int i = 0; i < 500; i++)
		ck_assert_int_eq(buf[i], (char)i);
	/* ... and the end of data told apart: 100 of 400. */
	ck_assert_int_eq(xfer_read_all(p[0], buf, 400, NULL), 100);
	ck_assert_int_eq(buf[99], (char)599);
	ck_assert_int_eq(xfer_read_all(p[0], buf, 400, NULL), 0);
	pthread_join(t, NULL);
	close(p[0]);
	/* No reader: the write fails, it does not kill. */
	ck_assert_int_eq(pipe(p), 0);
	close(p[0]);
	ck_assert_int_eq(xfer_write_all(p[1], buf, 10, NULL), -EPIPE);
	close(p[1]);
	ck_assert_int_eq(xfer_read_all(-1, buf, 10, NULL), -EBADF);
}
END_TEST

static volatile sig_atomic_t stop;
static volatile sig_atomic_t set_stop;

static void on_usr1(int sig)
{
	(void)sig;
	if (set_stop)
		stop = 1;
}

/* A read blocked in an empty pipe is interrupted by SIGUSR1 (no
 * SA_RESTART): it goes on without a stop, gives up with one. */
static ssize_t interrupted_read(int want_stop, char *buf, size_t len)
{
	struct sigaction sa;
	struct feeder f = {0, 300, 100, 50, 0, 1};
	pthread_t t;
	int p[2];
	ssize_t n;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	stop = 0;
	set_stop = want_stop;
	ck_assert_int_eq(pipe(p), 0);
	f.fd = p[1];
	f.thread = pthread_self();
	ck_assert_int_eq(pthread_create(&t, NULL, feed, &f), 0);
	n = xfer_read_all(p[0], buf, len, &stop);
	pthread_join(t, NULL);
	close(p[0]);
	signal(SIGUSR1, SIG_DFL);
	return n;
}

START_TEST(interrupted)
{
	char buf[300];

	ck_assert_int_eq(interrupted_read(0, buf, sizeof(buf)), 300);
	ck_assert_int_eq(buf[299], (char)299);
	ck_assert_int_eq(interrupted_read(1, buf, sizeof(buf)), -EINTR);
}
END_TEST

START_TEST(file_at_offsets)
{
	char path[64], buf[8192], back[8192];
	int fd;

	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7);
	ck_assert_int_eq(xfer_pwrite_all(fd, buf, 4096, 4096, NULL), 4096);
	ck_assert_int_eq(xfer_pwrite_all(fd, buf, 0, 0, NULL), 0);
	/* The file ends at 8192: a read past it is short, then empty. */
	ck_assert_int_eq(xfer_pread_all(fd, back, 8192, 4096, NULL), 4096);
	ck_assert_int_eq(memcmp(back, buf, 4096), 0);
	ck_assert_int_eq(xfer_pread_all(fd, back, 100, 8192, NULL), 0);
	ck_assert_int_eq(xfer_pread_all(fd, back, 100, 0, NULL), 100);
	ck_assert_int_eq(back[99], 0);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	ck_assert_int_eq(xfer_write_all(fd, buf, 10, NULL), 10);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	ck_assert_int_eq(xfer_read_all(fd, back, 10, NULL), 10);
	ck_assert_int_eq(memcmp(back, buf, 10), 0);
	close(fd);
}
END_TEST

static int power_of_two(unsigned v)
{
	return v && !(v & (v - 1));
}

START_TEST(target_file)
{
	struct target_align a;
	struct target_room r;
	const char *call = NULL;
	void *buf;
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY), fd, e;
	char path[64];

	ck_assert_int_ge(dirfd, 0);
	ck_assert_int_eq(posix_memalign(&buf, 4096, 8192), 0);
	memset(buf, 0x5a, 8192);
	snprintf(path, sizeof(path), "%s/f", dir);
	/* An open file: some alignment, from somewhere. */
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	target_align_fd(fd, &a);
	close(fd);
	unlink(path);
	ck_assert(power_of_two(a.offset) && power_of_two(a.mem));
	ck_assert_ptr_nonnull(a.source);
	/* The probe: taken, or refused as O_DIRECT refusals are (EINVAL);
	 * either way its file is gone. */
	e = target_probe_direct(dirfd, "f", buf, 8192, &a, &call);
	ck_assert_msg(e == 0 || e == EINVAL, "probe: %d (%s)", e, call);
	ck_assert_int_eq(access(path, F_OK), -1);
	if (e == 0 && a.offset > 1) {
		/* A length the alignment forbids, said before any write. */
		ck_assert_int_eq(
		    target_probe_direct(dirfd, "f", buf, 1, &a, &call),
		    TARGET_MISALIGNED);
		ck_assert_int_eq(access(path, F_OK), -1);
	}
	/* The name taken: the create is what failed. */
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(target_probe_direct(dirfd, "f", buf, 4096, &a, &call),
			 EEXIST);
	ck_assert_str_eq(call, "create");
	unlink(path);
	/* The room, by descriptor and by path: the same filesystem. */
	ck_assert_int_eq(target_room_fd(dirfd, &r), 0);
	ck_assert_int_eq(r.counted, 1);
	ck_assert_uint_gt(r.bytes, 0);
	ck_assert_uint_gt(r.block, 0);
	ck_assert_int_eq(target_room_path(dir, &r), 0);
	ck_assert_uint_gt(r.block, 0);
	ck_assert_int_eq(target_room_path("/nonexistent/x", &r), -ENOENT);
	free(buf);
	close(dirfd);
}
END_TEST

static Suite *xfer_suite(void)
{
	Suite *s = suite_create("xfer");
	TCase *tc = tcase_create("xfer");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, pipe_pieces);
	tcase_add_test(tc, interrupted);
	tcase_add_test(tc, file_at_offsets);
	tcase_add_test(tc, target_file);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(xfer_suite)
