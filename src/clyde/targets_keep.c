/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * targets_keep: see targets.h. A data file is kept by a move that never
 * replaces a name: renameat2 with RENAME_NOREPLACE, or where the
 * filesystem refuses rename flags (EINVAL: the Linux NFS client, FUSE
 * filesystems on libfuse 2), link then unlink, whose link fails with
 * EEXIST over any name there. A filesystem that refuses both is found
 * before the first test, by a probe in the scratch directory.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "targets.h"
#include "text.h"

#define shown text_shown

/* The probe's two names, inside a scratch directory. */
#define PROBE_FROM "keep-probe"
#define PROBE_TO   "keep-probe.moved"

/*
 * Move name under fromfd to to under tofd, never over a name there.
 * 0, or -1 with errno set (EEXIST: to is there).
 */
static int move_noreplace(int fromfd, const char *name, int tofd,
			  const char *to)
{
	int e;

	if (renameat2(fromfd, name, tofd, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
		return -1;
	if (linkat(fromfd, name, tofd, to, 0) != 0)
		return -1;
	if (unlinkat(fromfd, name, 0) == 0)
		return 0;
	/* Both names hold it now: the new one goes, the old stays. */
	e = errno;
	unlinkat(tofd, to, 0);
	errno = e;
	return -1;
}

/* The first scratch directory's filesystem: whether a file moves in it
 * without replacing. 0, or -errno of the move (the probe removed). */
static int probe_one(int dirfd)
{
	int fd = openat(dirfd, PROBE_FROM,
			O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int rc = 0;

	if (fd < 0)
		return -errno;
	close(fd);
	if (move_noreplace(dirfd, PROBE_FROM, dirfd, PROBE_TO))
		rc = -errno;
	unlinkat(dirfd, PROBE_FROM, 0);
	unlinkat(dirfd, PROBE_TO, 0);
	return rc;
}

int targets_probe_keep(struct targets *t, const struct clyde_opts *o)
{
	char d[PATH_MAX * 4 + 1];

	if (!o->keep && !o->journal)
		return 0;
	for (unsigned i = 0; i < t->n; i++) {
		int rc = probe_one(t->s[i].dirfd);

		if (!rc)
			continue;
		error("%s: -d '%s' cannot keep the data file: a move "
		      "that replaces no name failed (renameat2 with "
		      "RENAME_NOREPLACE, then a hard link): %s",
		      o->journal ? "--journal" : "--keep",
		      shown(o->dirs[i], d, sizeof(d)), strerror(-rc));
		return -1;
	}
	return 0;
}

/* Move scratch s's data file at name (under its dirfd) to dirfd (-d) as
 * to: 0, 1 when there is none, -1 after a line on err. */
static int keep_one(const struct scratch *s, const char *name, int dirfd,
		    const char *dir, const char *to, const char *journal,
		    FILE *err)
{
	char p[PATH_MAX * 2 + 64], q[PATH_MAX * 8 + 256];
	char jq[PATH_MAX * 8 + 256];
	const char *opt = journal ? "--journal" : "--keep";

	if (faccessat(s->dirfd, name, F_OK, AT_SYMLINK_NOFOLLOW) != 0)
		return 1;
	snprintf(p, sizeof(p), "%s/%s", dir, to);
	shown(p, q, sizeof(q));
	if (move_noreplace(s->dirfd, name, dirfd, to) != 0) {
		int e = errno;

		if (journal) {
			snprintf(p, sizeof(p), "%s/%s", s->path, name);
			shown(p, jq, sizeof(jq));
		}
		error_on(err,
			 "%s: could not keep the data file as "
			 "'%s': %s; %s%s%s",
			 opt, q, strerror(e),
			 journal ? "it stays as '" : "it is removed",
			 journal ? jq : "", journal ? "'" : "");
		return -1;
	}
	if (journal) {
		text_shown(journal, jq, sizeof(jq));
		error_on(err,
			 "--journal: the data file is '%s' (check it with "
			 "clyde --verify-only='%s' --journal='%s')",
			 q, q, jq);
		return 0;
	}
	error_on(err,
		 "--keep: the data file is '%s' (check it with clyde "
		 "--verify-only='%s')",
		 q, q);
	return 0;
}
int targets_keep(struct targets *t, const struct clyde_opts *o, uint64_t seed,
		 FILE *err)
{
	int bad = 0;

	for (unsigned i = 0; i < t->n; i++) {
		int dirfd =
		    open(o->dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		char name[32], to[64];
		int got = 0;

		if (dirfd < 0 || t->s[i].dirfd < 0) {
			bad = 1;
			if (dirfd >= 0)
				close(dirfd);
			continue;
		}
		snprintf(to, sizeof(to), "clyde-kept.%llu",
			 (unsigned long long)seed);
		got = keep_one(&t->s[i], "data", dirfd, o->dirs[i], to,
			       o->journal, err);
		for (unsigned k = 1; got == 1 && k <= OPT_CONCURRENCY_MAX;
		     k++) {
			int r;

			snprintf(name, sizeof(name), "w.%u/data", k);
			snprintf(to, sizeof(to), "clyde-kept.%llu.w.%u",
				 (unsigned long long)seed, k);
			r = keep_one(&t->s[i], name, dirfd, o->dirs[i], to,
				     o->journal, err);
			if (r < 0)
				bad = 1;
			if (r == 1 && k > 1)
				break;
		}
		if (got < 0)
			bad = 1;
		close(dirfd);
	}
	return bad ? -1 : 0;
}
