/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mounts: see mounts.h. Fields 3 (major:minor) and 5 (mount point), and
 * after the " - " separator the filesystem type and source; octal
 * escapes (\040 for a space) undone.
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "mounts.h"

static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

FILE *mounts_open(void)
{
	return fopen("/proc/self/mountinfo", "re");
}

int mounts_next(FILE *f, struct mounts_entry *e)
{
	char line[3 * PATH_MAX];

	while (fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");

		if (!sep ||
		    sscanf(line, "%*s %*s %u:%u %*s %4095s", &e->major,
			   &e->minor, e->point) != 3 ||
		    sscanf(sep + 3, "%63s %4095s", e->fstype, e->source) != 2)
			continue;
		unescape(e->point);
		unescape(e->source);
		return 1;
	}
	return 0;
}

int mounts_find_dev(FILE *f, dev_t rdev, struct mounts_entry *e)
{
	while (mounts_next(f, e)) {
		struct stat st;

		if (e->major == major(rdev) && e->minor == minor(rdev))
			return 1;
		if (e->source[0] == '/' && stat(e->source, &st) == 0 &&
		    S_ISBLK(st.st_mode) && st.st_rdev == rdev)
			return 1;
	}
	return 0;
}

int mounts_find_path(FILE *f, const char *path, struct mounts_entry *e)
{
	struct mounts_entry cur;
	size_t best = 0;

	while (mounts_next(f, &cur)) {
		size_t n = strlen(cur.point);

		if (strncmp(path, cur.point, n) != 0)
			continue;
		/* "/mnt/a" holds "/mnt/a/x", not "/mnt/ab"; "/" holds all. */
		if (n > 1 && path[n] != '/' && path[n] != '\0')
			continue;
		if (n >= best) {
			best = n;
			*e = cur;
		}
	}
	return best > 0;
}
