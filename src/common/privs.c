/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * privs: see privs.h. A number that is no known user or group is taken
 * as an id, as bonnie++ does, so a container without /etc/passwd
 * entries still works.
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <unistd.h>

#include "privs.h"
#include "units.h"

static int lookup_group(const char *s, gid_t *gid)
{
	uint64_t v;
	struct group *gr = getgrnam(s);

	if (gr) {
		*gid = gr->gr_gid;
		return 0;
	}
	if (units_parse_uint(s, UINT32_MAX - 1, &v, NULL, 0) == 0) {
		*gid = (gid_t)v;
		return 0;
	}
	return -1;
}

int privs_parse_group(const char *arg, struct privs *p, char *why,
		      size_t whylen)
{
	if (lookup_group(arg, &p->gid)) {
		snprintf(why, whylen, "'%s': no such group", arg);
		return -1;
	}
	p->group_given = 1;
	p->drop = 1;
	return 0;
}

int privs_parse_user(const char *arg, struct privs *p, char *why, size_t whylen)
{
	char buf[256];
	char *colon;
	struct passwd *pw;
	uint64_t v;

	if (strlen(arg) >= sizeof(buf) || !*arg) {
		snprintf(why, whylen, "'%s': expected user[:group]", arg);
		return -1;
	}
	strcpy(buf, arg);
	colon = strchr(buf, ':');
	/* An empty part is named with the whole value: "'' no such
	 * group" would not say which. */
	if (colon && (colon == buf || !colon[1])) {
		snprintf(why, whylen, "'%s': the %s is empty", arg,
			 colon == buf ? "user" : "group");
		return -1;
	}
	if (colon) {
		*colon++ = '\0';
		if (privs_parse_group(colon, p, why, whylen))
			return -1;
	}
	pw = getpwnam(buf);
	if (pw) {
		p->uid = pw->pw_uid;
		if (!p->group_given)
			p->gid = pw->pw_gid;
	} else if (units_parse_uint(buf, UINT32_MAX - 1, &v, NULL, 0) == 0) {
		p->uid = (uid_t)v;
		pw = getpwuid(p->uid);
		if (!p->group_given)
			p->gid = pw ? pw->pw_gid : (gid_t)v;
	} else {
		snprintf(why, whylen, "'%s': no such user", buf);
		return -1;
	}
	p->drop = 1;
	return 0;
}

int privs_drop(const struct privs *p, char *why, size_t whylen)
{
	if (!p->drop)
		return 0;
	if (geteuid() != 0) {
		if (p->uid == geteuid() && p->gid == getegid())
			return 0;
		snprintf(why, whylen,
			 "only root can change user or group "
			 "(running as uid %u)",
			 (unsigned)geteuid());
		return -1;
	}
	if (setgroups(1, &p->gid) != 0 || setgid(p->gid) != 0 ||
	    setuid(p->uid) != 0) {
		snprintf(why, whylen, "cannot become uid %u gid %u: %s",
			 (unsigned)p->uid, (unsigned)p->gid, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * setfsuid and setfsgid say nothing of a failure: each returns the id
 * before, so the id now is read back by asking for an invalid one (-1),
 * which changes nothing.
 */
static uid_t fsuid_now(void)
{
	return (uid_t)setfsuid((uid_t)-1);
}

static gid_t fsgid_now(void)
{
	return (gid_t)setfsgid((gid_t)-1);
}

/* saved's identity again, each step checked; 0, or -1 with why. */
static int fs_restore(struct privs_fs *saved, char *why, size_t whylen)
{
	int rc = 0;

	setfsuid(saved->fsuid);
	setfsgid(saved->fsgid);
	if (fsuid_now() != saved->fsuid || fsgid_now() != saved->fsgid) {
		snprintf(why, whylen,
			 "cannot return to filesystem uid %u gid %u",
			 (unsigned)saved->fsuid, (unsigned)saved->fsgid);
		rc = -1;
	} else if (setgroups((size_t)saved->ngroups, saved->groups) != 0) {
		snprintf(why, whylen, "cannot restore the groups: %s",
			 strerror(errno));
		rc = -1;
	}
	free(saved->groups);
	saved->groups = NULL;
	saved->entered = 0;
	return rc;
}

int privs_fs_enter(const struct privs *p, struct privs_fs *saved, char *why,
		   size_t whylen)
{
	char ignored[128];
	int n;

	memset(saved, 0, sizeof(*saved));
	if (!p->drop || geteuid() != 0)
		return 0;
	saved->fsuid = fsuid_now();
	saved->fsgid = fsgid_now();
	n = getgroups(0, NULL);
	if (n >= 0 &&
	    !(saved->groups = malloc((n ? (size_t)n : 1) * sizeof(gid_t))))
		errno = ENOMEM;
	if (!saved->groups ||
	    (saved->ngroups = getgroups(n, saved->groups)) < 0) {
		snprintf(why, whylen, "cannot read the groups: %s",
			 strerror(errno));
		free(saved->groups);
		saved->groups = NULL;
		return -1;
	}
	saved->entered = 1;
	if (setgroups(1, &p->gid) != 0) {
		snprintf(why, whylen, "cannot take group %u: %s",
			 (unsigned)p->gid, strerror(errno));
		fs_restore(saved, ignored, sizeof(ignored));
		return -1;
	}
	setfsgid(p->gid);
	setfsuid(p->uid);
	if (fsgid_now() != p->gid || fsuid_now() != p->uid) {
		snprintf(why, whylen, "cannot become filesystem uid %u gid %u",
			 (unsigned)p->uid, (unsigned)p->gid);
		fs_restore(saved, ignored, sizeof(ignored));
		return -1;
	}
	return 0;
}

int privs_fs_leave(struct privs_fs *saved, char *why, size_t whylen)
{
	if (!saved->entered)
		return 0;
	return fs_restore(saved, why, whylen);
}
