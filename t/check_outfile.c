/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_outfile: an output is written under a temporary name and only
 * renamed over its final name when complete; a failure leaves what was
 * there untouched, and what is refused (device nodes, links, FIFOs,
 * directories) is refused before anything is made. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "check_main.h"

static char dir[] = "/tmp/clyde-t-outfile.XXXXXX";

static void setup(void)
{
	if (!mkdtemp(dir))
		abort();
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		abort();
	strcpy(dir, "/tmp/clyde-t-outfile.XXXXXX");
}

static char *in_dir(const char *name)
{
	static char p[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

/* How many entries the directory holds, not counting . and .. */
static int entries(void)
{
	char cmd[160];
	FILE *f;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%d", &n), 1);
	pclose(f);
	return n;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void expect(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	ck_assert_str_eq(buf, text);
}

START_TEST(commit_replaces)
{
	struct outfile of;
	char why[512];
	FILE *f;

	put(in_dir("out"), "old\n");
	chmod(in_dir("out"), 0640);
	ck_assert_int_eq(outfile_open(&of, in_dir("out"), why, sizeof(why)), 0);
	/* The old content stays until the commit. */
	expect(in_dir("out"), "old\n");
	ck_assert_int_eq(entries(), 2);
	f = outfile_stream(&of);
	ck_assert_ptr_nonnull(f);
	fputs("new\n", f);
	ck_assert_int_eq(outfile_commit(&of), 0);
	expect(in_dir("out"), "new\n");
	ck_assert_int_eq(entries(), 1);
	{
		struct stat st;

		ck_assert_int_eq(stat(in_dir("out"), &st), 0);
		ck_assert_int_eq(st.st_mode & 0777, 0640);
	}
}
END_TEST

START_TEST(abort_keeps_old)
{
	struct outfile of;
	char why[512];

	put(in_dir("out"), "old\n");
	ck_assert_int_eq(outfile_open(&of, in_dir("out"), why, sizeof(why)), 0);
	fputs("half", outfile_stream(&of));
	outfile_abort(&of);
	expect(in_dir("out"), "old\n");
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(abort_spares_a_replacement)
{
	struct outfile of;
	char why[512];

	ck_assert_int_eq(outfile_open(&of, in_dir("new"), why, sizeof(why)), 0);
	/* Someone puts another file where the temporary one was. */
	ck_assert_int_eq(unlink(of.tmp), 0);
	put(of.tmp, "theirs\n");
	outfile_abort(&of);
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(refuses_non_regular)
{
	struct outfile of;
	char why[512];

	ck_assert_int_eq(mkdir(in_dir("d"), 0700), 0);
	ck_assert_int_eq(mkfifo(in_dir("p"), 0600), 0);
	put(in_dir("target"), "keep\n");
	ck_assert_int_eq(symlink(in_dir("target"), in_dir("l")), 0);
	ck_assert_int_eq(outfile_open(&of, in_dir("d"), why, sizeof(why)),
			 -EEXIST);
	ck_assert_ptr_nonnull(strstr(why, "a directory"));
	ck_assert_int_eq(outfile_open(&of, in_dir("p"), why, sizeof(why)),
			 -EEXIST);
	ck_assert_ptr_nonnull(strstr(why, "a FIFO"));
	ck_assert_int_eq(outfile_open(&of, in_dir("l"), why, sizeof(why)),
			 -EEXIST);
	ck_assert_ptr_nonnull(strstr(why, "a symbolic link"));
	ck_assert_int_eq(outfile_open(&of, "/dev/null", why, sizeof(why)),
			 -EEXIST);
	ck_assert_ptr_nonnull(strstr(why, "a character device"));
	ck_assert_int_eq(outfile_open(&of, in_dir("x/"), why, sizeof(why)),
			 -EISDIR);
	/* Nothing was made, nothing was changed. */
	ck_assert_int_eq(entries(), 4);
	expect(in_dir("target"), "keep\n");
}
END_TEST

START_TEST(refuses_missing_dir)
{
	struct outfile of;
	char why[512];

	ck_assert_int_eq(outfile_open(&of, in_dir("no/such"), why, sizeof(why)),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(why, "no/such"));
	ck_assert_int_eq(entries(), 0);
}
END_TEST

START_TEST(signal_cleanup_removes_temporaries)
{
	struct outfile a, b;
	char why[512];

	ck_assert_int_eq(outfile_open(&a, in_dir("a"), why, sizeof(why)), 0);
	ck_assert_int_eq(outfile_open(&b, in_dir("b"), why, sizeof(why)), 0);
	ck_assert_int_eq(entries(), 2);
	outfile_signal_cleanup();
	ck_assert_int_eq(entries(), 0);
	outfile_abort(&a);
	outfile_abort(&b);
}
END_TEST

START_TEST(same_file)
{
	put(in_dir("f"), "x");
	ck_assert_int_eq(link(in_dir("f"), in_dir("h")), 0);
	put(in_dir("g"), "x");
	ck_assert(outfile_same(in_dir("f"), in_dir("h")));
	ck_assert(!outfile_same(in_dir("f"), in_dir("g")));
	ck_assert(!outfile_same(in_dir("f"), in_dir("none")));
}
END_TEST

static Suite *outfile_suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, commit_replaces);
	tcase_add_test(tc, abort_keeps_old);
	tcase_add_test(tc, abort_spares_a_replacement);
	tcase_add_test(tc, refuses_non_regular);
	tcase_add_test(tc, refuses_missing_dir);
	tcase_add_test(tc, signal_cleanup_removes_temporaries);
	tcase_add_test(tc, same_file);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(outfile_suite)
