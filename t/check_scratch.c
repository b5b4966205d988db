/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_scratch: the private directory is made under the parent with
 * mode 0700, and removal takes everything inside (nested directories,
 * links) without following a link out of it. */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"
#include "check_main.h"

static char parent[] = "/tmp/clyde-t-scratch.XXXXXX";

/* Unchecked: made and removed in the runner process, so a failing test
 * (whose process stops at the assertion) leaves nothing behind. */
static void setup(void)
{
	if (!mkdtemp(parent))
		abort();
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", parent);
	if (system(cmd) != 0)
		abort();
}

static void touch(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "x", 1), 1);
	close(fd);
}

START_TEST(create_and_remove_tree)
{
	struct scratch s;
	struct stat st;
	char outside[PATH_MAX], link_target[PATH_MAX + 8];
	int sub;

	ck_assert_int_eq(scratch_create(&s, parent), 0);
	ck_assert_int_eq(strncmp(s.path, parent, strlen(parent)), 0);
	ck_assert_ptr_nonnull(strstr(s.path, "/clyde."));
	ck_assert_int_eq(stat(s.path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0700);

	/* A file outside that a link inside points at: must survive. */
	snprintf(outside, sizeof(outside), "%s/keep", parent);
	touch(AT_FDCWD, outside);
	touch(s.dirfd, "data");
	ck_assert_int_eq(mkdirat(s.dirfd, "00000", 0700), 0);
	sub = openat(s.dirfd, "00000", O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(sub, 0);
	touch(sub, "f1");
	ck_assert_int_eq(mkdirat(sub, "deeper", 0700), 0);
	snprintf(link_target, sizeof(link_target), "%s", outside);
	ck_assert_int_eq(symlinkat(link_target, sub, "link-out"), 0);
	ck_assert_int_eq(symlinkat(parent, sub, "link-dir-out"), 0);
	ck_assert_int_eq(linkat(s.dirfd, "data", sub, "hard", 0), 0);
	close(sub);

	ck_assert_int_eq(scratch_remove(&s), 0);
	ck_assert_int_eq(stat(s.path[0] ? s.path : "/nonexistent-x", &st), -1);
	ck_assert_int_eq(stat(outside, &st), 0); /* not followed */
	ck_assert_int_eq(scratch_remove(&s), 0); /* twice is harmless */
}
END_TEST

START_TEST(parent_missing)
{
	struct scratch s;

	ck_assert_int_lt(scratch_create(&s, "/nonexistent/dir"), 0);
	ck_assert_int_eq(s.dirfd, -1);
}
END_TEST

START_TEST(trailing_slashes)
{
	struct scratch s;
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s//", parent);
	ck_assert_int_eq(scratch_create(&s, p), 0);
	ck_assert_ptr_null(strstr(s.path, "//"));
	ck_assert_int_eq(scratch_remove(&s), 0);
}
END_TEST

static Suite *scratch_suite(void)
{
	Suite *s = suite_create("scratch");
	TCase *tc = tcase_create("scratch");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_add_test(tc, create_and_remove_tree);
	tcase_add_test(tc, parent_missing);
	tcase_add_test(tc, trailing_slashes);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(scratch_suite)
