/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * privs: bonnie++'s -u user[:group] and -g group, shared by clyde and
 * clyde-zcav: names or numbers looked up once while the options are
 * read, and the switch made later, after whatever needs root (opening a
 * device) is done.
 */
#ifndef CLYDE_PRIVS_H
#define CLYDE_PRIVS_H

#include <stddef.h>
#include <sys/types.h>

struct privs {
	int drop;	 /* -u or -g given */
	int group_given; /* the group came from -g or user:group */
	uid_t uid;
	gid_t gid;
};

/*
 * -u user[:group]: a user name or number; its group unless one is named.
 * Returns 0, or -1 with why (the bad part first, then the reason).
 */
int privs_parse_user(const char *arg, struct privs *p, char *why,
		     size_t whylen);

/* -g group: a group name or number. Returns 0, or -1 with why. */
int privs_parse_group(const char *arg, struct privs *p, char *why,
		      size_t whylen);

/*
 * setgroups, setgid, setuid, in that order. Nothing to do without -u/-g,
 * or when not root and already that user and group. Returns 0, or -1
 * with why ("only root can change user or group (running as uid 1000)").
 */
int privs_drop(const struct privs *p, char *why, size_t whylen);

#endif
