/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsmake: the filesystems of clyde-sweep --filesystems. mkfs runs as a
 * child with its standard error in a memory file (its first line is the
 * message when it fails) and is stopped by a stop signal; each
 * filesystem is mounted on a mkdtemp mount point, in a private mount
 * namespace where one can be had, and unmounted (detached when it stays
 * busy) and its mount point removed after its stage.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "sweep_prog.h"

/* A running mkfs (0 if none): stopped by the signal waiter. It is not
 * reaped before this is cleared (under child_lock, which the waiter
 * holds while it signals), so its pid cannot be someone else's. */
static _Atomic pid_t mkfs_child;
static pthread_mutex_t child_lock = PTHREAD_MUTEX_INITIALIZER;

void fsmake_stop_child(void)
{
	pid_t child = atomic_load(&mkfs_child);

	if (child > 0)
		kill(child, SIGTERM);
}

void fsmake_lock(void)
{
	pthread_mutex_lock(&child_lock);
}

void fsmake_unlock(void)
{
	pthread_mutex_unlock(&child_lock);
}

char *fsmake_find(const char *mkfs_name)
{
	/* mkfs.* live in sbin, which a user's PATH may lack. */
	static const char *const sbin[] = {"/usr/sbin", "/sbin", NULL};

	return cli_find_program(mkfs_name, sbin);
}

/* The first line of what the child said on its stderr (fd); 0 when it
 * said nothing. */
static int first_line(int fd, char *msg, size_t len)
{
	ssize_t n = fd >= 0 ? pread(fd, msg, len - 1, 0) : -1;
	char *nl;

	msg[n > 0 ? n : 0] = '\0';
	nl = strchr(msg, '\n');
	if (nl)
		*nl = '\0';
	return n > 0;
}

/* The child: stdin and stdout on /dev/null, stderr into err_fd. */
static void exec_child(const char *path, const char *const *argv, int err_fd)
{
	int null = open("/dev/null", O_RDWR);

	cli_stops_default();
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
	}
	if (err_fd >= 0)
		dup2(err_fd, 2);
	execv(path, (char *const *)argv);
	_exit(127);
}

/* Waits for child, stopped by a stop from now on; its status or -1. */
static int wait_child(pid_t child, const volatile sig_atomic_t *stop)
{
	siginfo_t info;
	int status = 0;

	/* A stop for us is a stop for mkfs too: the waiter stops it from
	 * now on, and a stop that came before is passed on here. */
	atomic_store(&mkfs_child, child);
	if (*stop)
		kill(child, SIGTERM);
	/* Waited for without reaping, so the pid stays its own until the
	 * waiter can no longer signal it. */
	while (waitid(P_PID, (id_t)child, &info, WEXITED | WNOWAIT) != 0 &&
	       errno == EINTR)
		;
	pthread_mutex_lock(&child_lock);
	atomic_store(&mkfs_child, 0);
	pthread_mutex_unlock(&child_lock);
	return waitpid(child, &status, 0) < 0 ? -1 : status;
}

/* Run argv (argv[0] found at path). Returns 0 or -1 with what[] set. */
static int run_cmd(const char *path, const char *const *argv,
		   const volatile sig_atomic_t *stop, char *what, size_t wlen)
{
	/* stderr of the child into an anonymous memory file. */
	int err_fd = memfd_create("clyde-sweep-mkfs", MFD_CLOEXEC), status;
	char msg[256];
	pid_t child = fork();

	if (child == 0)
		exec_child(path, argv, err_fd);
	if (child < 0) {
		snprintf(what, wlen, "fork: %s", strerror(errno));
		status = -1;
	} else if ((status = wait_child(child, stop)) < 0) {
		snprintf(what, wlen, "waitpid: %s", strerror(errno));
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		int said = first_line(err_fd, msg, sizeof(msg));

		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			snprintf(what, wlen, "%s: cannot run it", argv[0]);
		else
			snprintf(what, wlen, "%s failed%s%s", argv[0],
				 said ? ": " : "", msg);
		status = -1;
	}
	if (err_fd >= 0)
		close(err_fd);
	return status ? -1 : 0;
}

int fsmake_make(const struct sweep_fs_kind *k, const char *dev,
		const volatile sig_atomic_t *stop, char *what, size_t wlen)
{
	const char *argv[8];
	char *path = fsmake_find(k->mkfs);
	int n = 0, rc;

	argv[n++] = k->mkfs;
	for (int i = 0; i < 4 && k->args[i]; i++)
		argv[n++] = k->args[i];
	argv[n++] = dev;
	argv[n] = NULL;
	/* Not found (any more): exec fails, 127, "cannot run it". */
	rc = run_cmd(path ? path : k->mkfs, argv, stop, what, wlen);
	free(path);
	return rc;
}

/* Unmount m, detached if it stays busy. 0, or -1 after saying why. */
static int unmount_point(struct fsmake_mount *m)
{
	int tries = 0;

	/* Something may still hold it briefly (writeback). */
	while (umount2(m->mnt, 0) != 0) {
		int e = errno;

		if (e == EBUSY && ++tries < 50) {
			usleep(100 * 1000);
			continue;
		}
		if (umount2(m->mnt, MNT_DETACH) != 0) {
			error("cannot unmount %s: %s; it is left mounted",
			      m->mnt, strerror(e));
			/* Nothing more to try: not again. */
			m->mounted = 0;
			m->mnt[0] = '\0';
			return -1;
		}
		error("cannot unmount %s: %s; detached it (unmounted when "
		      "no longer busy)",
		      m->mnt, strerror(e));
		m->mounted = 0;
		return -1;
	}
	m->mounted = 0;
	return 0;
}

int fsmake_unmount(struct fsmake_mount *m)
{
	int rc = 0;

	if (m->mounted && unmount_point(m))
		rc = -1;
	if (m->mnt[0]) {
		if (rmdir(m->mnt) != 0)
			rc = error("cannot remove the mount point %s: %s",
				   m->mnt, strerror(errno));
		m->mnt[0] = '\0';
	}
	return rc;
}

void fsmake_private_ns(void)
{
	if (unshare(CLONE_NEWNS) != 0)
		return;
	mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL);
}

int fsmake_mount(struct fsmake_mount *m, const struct sweep_fs_kind *k,
		 const char *dev, char *what, size_t wlen)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(m->mnt, sizeof(m->mnt), "%s/clyde-sweep.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(m->mnt)) {
		snprintf(what, wlen, "mkdtemp %s: %s", m->mnt, strerror(errno));
		m->mnt[0] = '\0';
		return -1;
	}
	if (mount(dev, m->mnt, k->name, 0, NULL) != 0) {
		snprintf(what, wlen, "mount %s (%s) on %s: %s", dev, k->name,
			 m->mnt, strerror(errno));
		return -1;
	}
	m->mounted = 1;
	return 0;
}
