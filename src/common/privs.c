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
#include <string.h>
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
