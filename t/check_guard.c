/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_guard: the rules that keep clyde from writing where it should
 * not, on files in a private directory and made-up mount tables: two
 * names for one target, mountinfo parsing, what a refusal says, a file
 * behind a loop device (by a made-up sysfs). The block-device cases
 * (mounted, held, signatures) run as root in t/021-guards.sh, a real
 * loop device over a file in t/027-zcav-loop-file.sh. */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "guard.h"
#include "mounts.h"
#include "check_main.h"

static char dir[] = "/tmp/check_guard.XXXXXX";
static char a[256], b[256], link_a[256];

static void make_file(const char *path, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	char buf[4096];

	ck_assert_int_ge(fd, 0);
	/* Random-looking content: no signature for libblkid to find. */
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 2654435761u >> 13);
	for (size_t done = 0; done < len; done += sizeof(buf))
		ck_assert_int_eq(write(fd, buf, sizeof(buf)), sizeof(buf));
	close(fd);
}

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(link_a, sizeof(link_a), "%s/link-to-a", dir);
	make_file(a, 65536);
	make_file(b, 65536);
	ck_assert_int_eq(symlink("a", link_a), 0);
}

static void teardown(void)
{
	unlink(link_a);
	unlink(a);
	unlink(b);
	rmdir(dir);
	strcpy(dir, "/tmp/check_guard.XXXXXX");
}

START_TEST(same_target)
{
	char why[1024];

	ck_assert_int_eq(guard_same_target(a, a, why, sizeof(why)), 1);
	/* Another spelling of the same file is the same target. */
	ck_assert_int_eq(guard_same_target(a, link_a, why, sizeof(why)), 1);
	/* A typo in one of the two names stops it, and says both. */
	ck_assert_int_eq(guard_same_target(a, b, why, sizeof(why)), 0);
	ck_assert_ptr_nonnull(strstr(why, "--destroy-data="));
	ck_assert_ptr_nonnull(strstr(why, b));
	ck_assert_ptr_nonnull(strstr(why, "not the target"));
	ck_assert_int_eq(
	    guard_same_target(a, "/nonexistent/x", why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "/nonexistent/x"));
	/* Character devices are never "the same" device to write. */
	ck_assert_int_eq(
	    guard_same_target("/dev/null", "/dev/null", why, sizeof(why)), 0);
}
END_TEST

static const char table[] =
    "22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
    "30 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
    "garbage line without a separator\n"
    "41 30 7:3 / /mnt/with\\040space rw - ext4 /dev/loop3 rw\n"
    "42 30 0:55 / /mnt/btr rw - btrfs /dev/nonexistent-btrfs rw\n"
    "43 41 7:4 / /mnt/with\\040space/inner rw - xfs /dev/loop4 rw\n";

START_TEST(mountinfo)
{
	FILE *f = fmemopen((void *)table, sizeof(table) - 1, "r");
	dev_t loop3 = makedev(7, 3), loop9 = makedev(7, 9);
	dev_t some[] = {makedev(7, 9), makedev(7, 4), makedev(7, 3)};
	struct mounts_entry e;

	/* The garbage line is skipped: the entry after it is found. */
	ck_assert_int_eq(mounts_find_dev(f, &loop3, 1, &e), 1);
	ck_assert_str_eq(e.point, "/mnt/with space");
	ck_assert_str_eq(e.fstype, "ext4");
	ck_assert_str_eq(e.source, "/dev/loop3");
	rewind(f);
	ck_assert_int_eq(mounts_find_dev(f, &loop9, 1, &e), 0);
	/* Of several devices, the first entry that is a mount of one. */
	rewind(f);
	ck_assert_int_eq(mounts_find_dev(f, some, 3, &e), 1);
	ck_assert_str_eq(e.source, "/dev/loop3");
	rewind(f);
	ck_assert_int_eq(mounts_find_path(f, "/mnt/with space/inner/x", &e), 1);
	ck_assert_str_eq(e.fstype, "xfs");
	rewind(f);
	ck_assert_int_eq(mounts_find_path(f, "/mnt/with space/innerx", &e), 1);
	ck_assert_str_eq(e.fstype, "ext4");
	rewind(f);
	ck_assert_int_eq(mounts_find_path(f, "/srv", &e), 1);
	ck_assert_str_eq(e.point, "/");
	fclose(f);
}
END_TEST

START_TEST(mounted)
{
	FILE *f = fmemopen((void *)table, sizeof(table) - 1, "r");
	char where[512];

	ck_assert_int_eq(guard_mounted(f, makedev(7, 4), where, sizeof(where)),
			 1);
	ck_assert_str_eq(where, "/dev/loop4 on /mnt/with space/inner");
	rewind(f);
	ck_assert_int_eq(
	    guard_mounted(f, makedev(7, 200), where, sizeof(where)), 0);
	fclose(f);
}
END_TEST

START_TEST(describe)
{
	struct guard_sig s;
	char buf[256];

	memset(&s, 0, sizeof(s));
	strcpy(s.type, "ext4");
	strcpy(s.usage, "filesystem");
	strcpy(s.label, "data");
	guard_describe(&s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "holds an ext4 filesystem labelled data");
	memset(&s, 0, sizeof(s));
	strcpy(s.type, "xfs");
	strcpy(s.usage, "filesystem");
	guard_describe(&s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "holds an xfs filesystem");
	memset(&s, 0, sizeof(s));
	strcpy(s.type, "linux_raid_member");
	strcpy(s.usage, "raid");
	strcpy(s.label, "vm:0");
	guard_describe(&s, buf, sizeof(buf));
	ck_assert_str_eq(buf,
			 "holds a linux_raid_member RAID member labelled vm:0");
	memset(&s, 0, sizeof(s));
	strcpy(s.pttype, "gpt");
	guard_describe(&s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "holds a gpt partition table");
	memset(&s, 0, sizeof(s));
	strcpy(s.type, "vfat");
	strcpy(s.usage, "filesystem");
	strcpy(s.pttype, "dos");
	guard_describe(&s, buf, sizeof(buf));
	ck_assert_str_eq(buf,
			 "holds a vfat filesystem and a dos partition table");
	memset(&s, 0, sizeof(s));
	strcpy(s.type, "swap");
	strcpy(s.usage, "other");
	guard_describe(&s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "holds a swap signature");
	memset(&s, 0, sizeof(s));
	s.ambivalent = 1;
	guard_describe(&s, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "more than one signature"));
}
END_TEST

START_TEST(open_write_rules)
{
	char why[1024];
	struct guard_req r = {a, NULL, 0, 1, 0};
	int fd;

	/* Not named twice: refused, and the message says how to allow. */
	ck_assert_int_eq(guard_open_write(&r, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "--destroy-data="));
	/* Named twice, but two different files. */
	r.destroy = b;
	ck_assert_int_eq(guard_open_write(&r, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "not the target"));
	/* A file where only devices are taken. */
	r.destroy = a;
	r.allow_file = 0;
	ck_assert_int_eq(guard_open_write(&r, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "not a block device"));
	/* A directory never. */
	r.target = r.destroy = dir;
	r.allow_file = 1;
	ck_assert_int_eq(guard_open_write(&r, why, sizeof(why)), -1);
	/* The same file by two spellings, no signature: allowed. */
	r.target = a;
	r.destroy = link_a;
	fd = guard_open_write(&r, why, sizeof(why));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(r.for_device, 0);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & O_ACCMODE, O_WRONLY);
	ck_assert_uint_eq(guard_size(fd), 65536);
	close(fd);
}
END_TEST

START_TEST(probe_blank)
{
	struct guard_sig s;
	char why[256];

	ck_assert_int_eq(guard_probe(a, &s, why, sizeof(why)), 0);
	ck_assert_int_eq(guard_probe("/nonexistent/x", &s, why, sizeof(why)),
			 -1);
	ck_assert_ptr_nonnull(strstr(why, "/nonexistent/x"));
}
END_TEST

/* Write text into dir/rel, making its directories. */
static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	ck_assert_int_eq(system(cmd), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(loop_backing)
{
	/* dir is a fixed-length template: sys and dev have room for it and
	 * their names, line for either file's name or dev's loop7. */
	char sys[sizeof(dir) + sizeof("/sys")],
	    dev[sizeof(dir) + sizeof("/dev")];
	char line[300], name[512], cmd[400];
	struct stat sa, sb;
	dev_t rdev = 0;

	snprintf(sys, sizeof(sys), "%s/sys", dir);
	snprintf(dev, sizeof(dev), "%s/dev", dir);
	/* loop7 backs a (by the path sysfs gives: the fake nodes do not
	 * open, so the kernel's record cannot be asked); loop8 is free;
	 * loop9's file was deleted; vda is no loop device. */
	put("sys/loop7/dev", "7:7\n");
	snprintf(line, sizeof(line), "%s\n", a);
	put("sys/loop7/loop/backing_file", line);
	put("sys/loop8/dev", "7:8\n");
	put("sys/loop9/dev", "7:9\n");
	put("sys/loop9/loop/backing_file", "/nonexistent/gone (deleted)\n");
	put("sys/vda/dev", "254:0\n");
	snprintf(line, sizeof(line), "%s\n", b);
	put("sys/vda/loop/backing_file", line);
	ck_assert_int_eq(mkdir(dev, 0700), 0);
	ck_assert_int_eq(stat(a, &sa), 0);
	ck_assert_int_eq(stat(b, &sb), 0);

	ck_assert_int_eq(
	    guard_loop_backing(sys, dev, &sa, name, sizeof(name), &rdev), 1);
	snprintf(line, sizeof(line), "%s/loop7", dev);
	ck_assert_str_eq(name, line);
	ck_assert_uint_eq(major(rdev), 7);
	ck_assert_uint_eq(minor(rdev), 7);
	ck_assert_int_eq(
	    guard_loop_backing(sys, dev, &sb, name, sizeof(name), &rdev), 0);
	ck_assert_int_eq(guard_loop_backing("/nonexistent/sys", dev, &sa, name,
					    sizeof(name), &rdev),
			 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", sys, dev);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *guard_suite(void)
{
	Suite *s = suite_create("guard");
	TCase *tc = tcase_create("guard");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, same_target);
	tcase_add_test(tc, mountinfo);
	tcase_add_test(tc, mounted);
	tcase_add_test(tc, describe);
	tcase_add_test(tc, open_write_rules);
	tcase_add_test(tc, probe_blank);
	tcase_add_test(tc, loop_backing);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(guard_suite)
