/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * privs: bonnie++'s -u user[:group] and -g group, shared by clyde,
 * clyde-zcav and clyde-pgscan: names or numbers looked up once while the
 * options are read, and the switch made later, after whatever needs root
 * (opening a device) is done.
 *
 * The rule for every program that takes -u: the files named by its
 * output options are that user's, created, checked and renamed into
 * place as that user. clyde and clyde-zcav open them after privs_drop;
 * a program whose parent stays root (clyde-pgscan, which manages
 * children that run as the user) takes the user's filesystem identity
 * for those steps alone, with privs_fs_enter and privs_fs_leave.
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
	/* -u's and -g's values as given (into argv), or NULL: for the
	 * messages that name them, and a second -u or -g to compare with
	 * (optshared.h's entries set them). */
	const char *user, *group;
};

/*
 * -u user[:group]: a user name or number; its group unless one is named.
 * Returns 0, or -1 with why (the bad part quoted first, then the reason:
 * "'nosuch': no such user"; an empty part names the whole value: "':':
 * the user is empty").
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

/* The filesystem identity privs_fs_enter replaced, for privs_fs_leave. */
struct privs_fs {
	int entered; /* switched: leave has something to restore */
	uid_t fsuid;
	gid_t fsgid;
	int ngroups;
	gid_t *groups; /* the supplementary groups before (malloc'd) */
};

/*
 * As root with -u/-g: only the filesystem identity becomes p's user and
 * group (setgroups with that one group, as privs_drop does, setfsgid,
 * setfsuid, each checked to have taken effect), so files are created
 * and permissions checked as that user while the process stays root.
 * Nothing to do otherwise (not root: the process is already the one
 * user it may be). 0, or -1 with why and nothing changed.
 */
int privs_fs_enter(const struct privs *p, struct privs_fs *saved, char *why,
		   size_t whylen);

/*
 * Back to the identity saved by privs_fs_enter (nothing when it changed
 * nothing); saved's memory freed. 0, or -1 with why.
 */
int privs_fs_leave(struct privs_fs *saved, char *why, size_t whylen);

#endif
