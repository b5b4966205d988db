/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch_watch: see scratch.h. The watcher learns of the run's end by
 * its pipe alone: a byte means the run saw to the directory itself; end
 * of file with no byte means every process that held the write end (the
 * run, its -c workers, their seekers) is gone without a word. It then
 * removes the directory through the descriptor it holds, after checking
 * that the path still names that directory (device and inode), so it
 * never removes what the run did not make.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "scratch.h"

/* The watcher's descriptors, once the others are closed. */
enum { W_PIPE = 3, W_DIR = 4 };

/* Whether path still names the directory open as fd. */
static int same_dir(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && lstat(path, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static void watcher(struct scratch *s, int rd)
{
	struct scratch left = *s;
	int null = open("/dev/null", O_RDWR), dir;
	struct stat st;
	ssize_t n;
	char c;

	/* Out of the run's process group and terminal: a ^C or a kill of
	 * the group meant for the run leaves it to clean up after. */
	setsid();
	cli_stops_ignore();
	signal(SIGPIPE, SIG_IGN);
	/* Above every descriptor first: either may be 3 or 4 now. */
	rd = fcntl(rd, F_DUPFD, 64);
	dir = fcntl(s->dirfd, F_DUPFD, 64);
	if (rd < 0 || dir < 0 || dup2(rd, W_PIPE) < 0 || dup2(dir, W_DIR) < 0)
		_exit(1);
	for (int fd = 0; fd < 3 && null >= 0; fd++)
		dup2(null, fd);
	close_range(W_DIR + 1, ~0u, 0);
	while ((n = read(W_PIPE, &c, 1)) < 0 && errno == EINTR)
		;
	if (n != 0)
		_exit(0); /* the run's word, or an error: nothing to do */
	left.dirfd = W_DIR;
	if (!same_dir(W_DIR, left.path))
		left.path[0] = '\0'; /* emptied through the fd only */
	scratch_remove(&left);
	if (left.made[0] && lstat(left.made, &st) == 0 &&
	    st.st_dev == left.made_dev && st.st_ino == left.made_ino)
		rmdir(left.made); /* only when empty */
	_exit(0);
}

int scratch_watch(struct scratch *s, const char *made)
{
	struct stat st;
	int p[2];
	pid_t pid;

	s->watch_pid = 0;
	s->watch_fd = -1;
	s->made[0] = '\0';
	if (s->dirfd < 0)
		return -EBADF;
	if (made && lstat(made, &st) == 0 &&
	    (size_t)snprintf(s->made, sizeof(s->made), "%s", made) <
		sizeof(s->made)) {
		s->made_dev = st.st_dev;
		s->made_ino = st.st_ino;
	} else {
		s->made[0] = '\0';
	}
	if (pipe2(p, O_CLOEXEC) != 0)
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(p[0]);
		close(p[1]);
		return -e;
	}
	if (pid == 0) {
		close(p[1]);
		watcher(s, p[0]);
	}
	close(p[0]);
	s->watch_pid = pid;
	s->watch_fd = p[1];
	return 0;
}

/* Whether the watcher is gone (reaped now, or not ours to wait for). */
static int watcher_gone(pid_t pid)
{
	pid_t r = waitpid(pid, NULL, WNOHANG);

	return r == pid || (r < 0 && errno != EINTR);
}

int scratch_unwatch(struct scratch *s, const volatile sig_atomic_t *stop)
{
	struct timespec tick = {0, SCRATCH_UNWATCH_TICK_NS};
	long ticks = 0, bound = SCRATCH_UNWATCH_WAIT_MS * 1000000L /
				SCRATCH_UNWATCH_TICK_NS;
	int killed = 0;

	if (s->watch_pid <= 0)
		return 0;
	(void)!write(s->watch_fd, "d", 1);
	close(s->watch_fd);
	/* Told, it leaves at once; one stopped (SIGSTOP) or stuck must
	 * not hold the run: after the bound, or at once on a stop once it
	 * had a moment, it is killed. The run removed the directory
	 * itself (or said why not) before this: there is nothing left for
	 * the watcher to do. */
	while (!watcher_gone(s->watch_pid)) {
		if (ticks >= bound || (stop && *stop && ticks >= 10)) {
			kill(s->watch_pid, SIGKILL);
			while (waitpid(s->watch_pid, NULL, 0) < 0 &&
			       errno == EINTR)
				; /* SIGKILL ends even a stopped process */
			killed = 1;
			break;
		}
		nanosleep(&tick, NULL);
		ticks++;
	}
	s->watch_pid = 0;
	s->watch_fd = -1;
	return killed;
}
