/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultfs_ctl: the control file's text, one struct ff_ctl per open: the
 * status a reader sees (taken once at open), or what a writer sent that
 * is not a whole line yet. Also the help text (--help).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "faultfs_rules.h"

static const char ff_language[] =
    "Control: write lines to MOUNTPOINT/.faultfs (one command a line);\n"
    "read it for every rule's counts, the operation counts and the\n"
    "write cache's state.\n"
    "\n"
    "  fail OPS ERRNO [MATCH]   fail matching operations with ERRNO\n"
    "                           (EIO, ENOSPC, EDQUOT, EROFS, ... or a "
    "number)\n"
    "  flip [read] off=N [len=N] [xor=N] [MATCH]\n"
    "                           XOR (default 0xff) the bytes at off..off+len\n"
    "                           in what matching reads return\n"
    "  drop [write] [off=N] [len=N] [MATCH]\n"
    "                           a lost write: the bytes of matching writes\n"
    "                           at off..off+len (without off=, all) never\n"
    "                           reach BACKING, yet the write succeeds\n"
    "  remap [read] off=N len=N from=M [MATCH]\n"
    "                           a misdirected read: matching reads return\n"
    "                           BACKING's bytes at M..M+len (zeros past its\n"
    "                           end) for those at off..off+len\n"
    "  delay OPS fixed=DUR | uniform=MIN,MAX | exp=MEAN | rate=N\n"
    "        [grow=DUR] [cache=N] [skip=N] [MATCH]\n"
    "                           sleep before each matching operation;\n"
    "                           rate=: N bytes a second, one device\n"
    "                           serving them in turn; grow=: DUR more for\n"
    "                           every second since the rule was set (a\n"
    "                           device that keeps slowing; not with\n"
    "                           rate=); cache=: the first N bytes pass\n"
    "                           undelayed, never refilled (a write-back\n"
    "                           cache in front of slow disks); skip=: N\n"
    "                           bytes before the rule starts\n"
    "  wcache honest|lying [path=GLOB]\n"
    "                           a volatile write cache: the data of\n"
    "                           matching writes stays in the rig's memory\n"
    "                           (whole 4 KiB blocks; reads and sizes see\n"
    "                           it), not in BACKING; honest: fsync,\n"
    "                           fdatasync and O_SYNC/O_DSYNC writes write\n"
    "                           their blocks to BACKING (and fdatasync it)\n"
    "                           before they return; lying: they return at\n"
    "                           once, the blocks acknowledged but kept\n"
    "  wcache off               write back what the cache holds, stop\n"
    "                           caching (an unmount writes back too)\n"
    "  cut                      the power goes: what the cache holds is\n"
    "                           lost, and every operation after it but on\n"
    "                           the control file fails with EIO; the\n"
    "                           status counts the blocks lost, by whether\n"
    "                           acknowledged, and lists the acknowledged\n"
    "                           (up to 1000: dropped_acked PATH OFFSET)\n"
    "  seed N                   seed of the delay distributions\n"
    "  clear                    drop every rule, zero the counts; the\n"
    "                           cache goes off, what it holds never\n"
    "                           written, and a cut ends\n"
    "\n"
    "OPS: any, or a comma list of getattr readlink mknod mkdir unlink\n"
    "rmdir symlink rename rename_flags (a rename with flags) link chmod\n"
    "chown truncate open create read write\n"
    "statfs flush release fsync opendir readdir releasedir fsyncdir "
    "access\n"
    "utimens fallocate. MATCH: off=N [len=N] (a read, write or "
    "fallocate\n"
    "overlapping those bytes; len 1 by default), path=GLOB (fnmatch on "
    "the\n"
    "path inside the mount, '*' matching '/' too), after=N (let the "
    "first\n"
    "N matches through), times=N (fire at most N times). Sizes take\n"
    "k/m/g/t (binary), durations ns/us/ms/s. The first fail rule that\n"
    "fires decides; later fail rules do not see that operation. A read\n"
    "is remapped, then flipped. With --cache, what a drop or remap rule\n"
    "did stays in the page cache until evicted, and the kernel's reads\n"
    "are of whole pages (a rule changes only the bytes it covers).\n"
    "A drop rule acts before the write cache. While the cache holds\n"
    "blocks of a file, fallocate other than to allocate is refused.\n"
    "Status lines: wcache MODE held=N acked=N; after a cut, cut\n"
    "dropped_acked=N dropped_unacked=N (blocks of unlinked files are\n"
    "not counted).\n";

void ff_help(FILE *f)
{
	fputs("usage: faultfs [--cache] [--sync] [-f] [-s] [-o opt,...] "
	      "BACKING MOUNTPOINT\n"
	      "\n"
	      "A passthrough of the directory BACKING on MOUNTPOINT that "
	      "fails, corrupts\n"
	      "or delays operations on command: the test rig of clyde's "
	      "`make check`.\n"
	      "Every operation reaches the daemon (no entry or attribute "
	      "caching, files\n"
	      "opened direct_io).\n"
	      "\n"
	      "  --cache   file data goes through the page cache and stays "
	      "there until\n"
	      "            evicted (POSIX_FADV_DONTNEED, drop_caches)\n"
	      "  --sync    fsync reaches BACKING (by default it is counted, "
	      "not passed)\n"
	      "  -f -s -o  FUSE's: foreground, single-threaded, mount "
	      "options\n"
	      "\n"
	      "Unmount with fusermount3 -u MOUNTPOINT.\n\n",
	      f);
	fputs(ff_language, f);
}

int ff_ctl_snapshot(struct ff_ctl *c)
{
	c->text = ff_status(&c->len);
	return c->text ? 0 : -ENOMEM;
}

int ff_ctl_read(const struct ff_ctl *c, char *buf, size_t size, uint64_t off)
{
	size_t n;

	if (!c->text || off >= c->len)
		return 0;
	n = c->len - (size_t)off < size ? c->len - (size_t)off : size;
	memcpy(buf, c->text + off, n);
	return (int)n;
}

/* Run every whole line (and with all, the rest too); keep the rest. */
static int run_lines(struct ff_ctl *c, int all)
{
	char why[256];
	char *nl, *start = c->text;
	int rc = 0;

	while (start < c->text + c->len) {
		nl = memchr(start, '\n', (size_t)(c->text + c->len - start));
		if (!nl && !all)
			break;
		if (nl)
			*nl = '\0';
		else
			c->text[c->len] = '\0';
		if (!rc && ff_command(start, why, sizeof(why)) != 0) {
			fprintf(stderr, "faultfs: '%s': %s\n", start, why);
			rc = -EINVAL;
		}
		start = nl ? nl + 1 : c->text + c->len;
	}
	c->len -= (size_t)(start - c->text);
	memmove(c->text, start, c->len);
	return rc;
}

int ff_ctl_write(struct ff_ctl *c, const char *buf, size_t size)
{
	char *t = realloc(c->text, c->len + size + 1);
	int rc;

	if (!t)
		return -ENOMEM;
	c->text = t;
	memcpy(c->text + c->len, buf, size);
	c->len += size;
	rc = run_lines(c, 0);
	return rc ? rc : (int)size;
}

int ff_ctl_finish(struct ff_ctl *c)
{
	return c->text ? run_lines(c, 1) : 0;
}

void ff_ctl_free(struct ff_ctl *c)
{
	free(c->text);
	c->text = NULL;
	c->len = 0;
}
