/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultfs_rules: the fault rig's rules, independent of FUSE. A rule is
 * one line of the control language (faultfs --help):
 *
 *   fail OPS ERRNO [off=N] [len=N] [path=GLOB] [after=N] [times=N]
 *   flip [read] off=N [len=N] [xor=N] [path=GLOB] [after=N] [times=N]
 *   drop [write] [off=N] [len=N] [path=GLOB] [after=N] [times=N]
 *   remap [read] off=N len=N from=M [path=GLOB] [after=N] [times=N]
 *   delay OPS fixed=DUR | uniform=MIN,MAX | exp=MEAN | rate=N
 *         [grow=DUR] [cache=N] [skip=N] [match...]
 *   wcache honest|lying [path=GLOB] | wcache off | cut
 *   seed N | clear
 *
 * Every operation the filesystem serves calls ff_check first: it is
 * counted, delayed by every delay rule that matches, and failed by the
 * first fail rule that fires. A read's data then passes ff_remaps (the
 * bytes a remap rule covers are replaced by the file's bytes at from=,
 * a misdirected read) and ff_flip (corruption on the way); a write's
 * bytes that ff_drops covers never reach the backing file, yet the
 * write succeeds (a lost write).
 * The write cache (wcache, faultfs_file.h) keeps written data in the
 * daemon's memory instead, a disk's volatile cache, until an fsync (or
 * never, lying) writes it; a cut drops it and fails everything after.
 * Everything is behind one mutex (ff_lock), so any number of FUSE
 * threads may call.
 */
#ifndef FAULTFS_RULES_H
#define FAULTFS_RULES_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* The operations a rule can name (FUSE's high-level calls);
 * rename_flags is a rename with flags (RENAME_NOREPLACE, ...), checked
 * after rename: refused with EINVAL, it is NFS's and libfuse 2's. */
#define FF_OPS(X)                                                              \
	X(getattr)                                                             \
	X(readlink)                                                            \
	X(mknod)                                                               \
	X(mkdir)                                                               \
	X(unlink)                                                              \
	X(rmdir)                                                               \
	X(symlink)                                                             \
	X(rename)                                                              \
	X(rename_flags)                                                        \
	X(link)                                                                \
	X(chmod)                                                               \
	X(chown)                                                               \
	X(truncate)                                                            \
	X(open)                                                                \
	X(create)                                                              \
	X(read)                                                                \
	X(write)                                                               \
	X(statfs)                                                              \
	X(flush)                                                               \
	X(release)                                                             \
	X(fsync)                                                               \
	X(opendir)                                                             \
	X(readdir)                                                             \
	X(releasedir)                                                          \
	X(fsyncdir)                                                            \
	X(access)                                                              \
	X(utimens)                                                             \
	X(fallocate)

#define FF_OP_ENUM(name) FF_##name,
enum ff_op { FF_OPS(FF_OP_ENUM) FF_OP_COUNT };
#undef FF_OP_ENUM

/* What the write cache does with matching writes (wcache MODE). */
enum ff_wcache { FW_OFF, FW_HONEST, FW_LYING };

/* The rig's one mutex, for the cache's state beside the rules'. */
void ff_lock(void);
void ff_unlock(void);

/* No byte range: the operation is not a read, write or fallocate. */
#define FF_NO_RANGE UINT64_MAX

/*
 * Apply one command line (no newline needed). Returns 0, or -EINVAL
 * with why (a sentence naming the bad word) filled in.
 */
int ff_command(const char *line, char *why, size_t whylen);

/*
 * Count op on path (the path inside the mount, "/..."), covering
 * [off, off+len) or FF_NO_RANGE; sleep for the delay rules that match;
 * return 0 or the -errno of the first fail rule that fires; after a
 * cut, -EIO (counted, not delayed).
 */
int ff_check(enum ff_op op, const char *path, uint64_t off, uint64_t len);

/* XOR the bytes flip rules cover in n bytes read from path at off. */
void ff_flip(const char *path, uint64_t off, char *buf, size_t n);

/*
 * A part of one read or write that a drop or remap rule covers: the
 * file's bytes [off, off+len); for remap, the offset whose bytes take
 * their place (from for off, from+1 for off+1, ...).
 */
struct ff_span {
	uint64_t off, len, from;
};

/* The most spans one request gets; later rules are not tried on it. */
#define FF_SPANS_MAX 16

/*
 * The drop rules that fire on a write of n bytes at off on path (each
 * counted): the spans not to write, sorted by off (they may overlap).
 * Returns how many, 0 when none fired.
 */
size_t ff_drops(const char *path, uint64_t off, size_t n, struct ff_span *s);

/*
 * The remap rules that fire on a read that returned n bytes at off, in
 * rule order (where spans overlap the last one applied wins). Returns
 * how many.
 */
size_t ff_remaps(const char *path, uint64_t off, size_t n, struct ff_span *s);

/* The rules with their counts and the operation counts, as text
 * (malloc'd, *len bytes, NUL-terminated); NULL when out of memory. */
char *ff_status(size_t *len);

/* faultfs --help: the options and the control language. */
void ff_help(FILE *f);

/*
 * One open of the control file (faultfs_ctl.c): the status it reads, or
 * the input written to it that is not a whole line yet.
 */
struct ff_ctl {
	char *text;
	size_t len;
};

/* For reading: take the status now, so reads of one open agree. */
int ff_ctl_snapshot(struct ff_ctl *c);

/* Up to size bytes of the status at off; 0 at its end. */
int ff_ctl_read(const struct ff_ctl *c, char *buf, size_t size, uint64_t off);

/* Take size bytes of input and run each whole line; size, or -EINVAL
 * after a bad line (reported on stderr), or -ENOMEM. */
int ff_ctl_write(struct ff_ctl *c, const char *buf, size_t size);

/* At close: run a last line written without a newline. */
int ff_ctl_finish(struct ff_ctl *c);

void ff_ctl_free(struct ff_ctl *c);

#endif
