/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_dirpat: mpirun's -d patterns: %r, %h (to the first dot) and %%
 * put in, any other % refused with why, a result that does not fit
 * refused, and which patterns name a directory per rank or host. */
#include "config.h"

#include <check.h>
#include <string.h>

#include "dirpat.h"
#include "check_main.h"

/* pat expanded for rank 3 on node7.example: the result, or NULL with
 * why in the static buffer. */
static const char *expand(const char *pat, size_t len)
{
	static char out[256], why[160];

	ck_assert(len <= sizeof(out));
	why[0] = '\0';
	if (dirpat_expand(pat, 3, "node7.example", out, len, why,
			  sizeof(why)) == 0) {
		ck_assert_str_eq(why, "");
		return out;
	}
	ck_assert(why[0] != '\0');
	return NULL;
}

START_TEST(expands_rank_host_percent)
{
	ck_assert_str_eq(expand("/mnt/lun/r%r", 256), "/mnt/lun/r3");
	ck_assert_str_eq(expand("/mnt/%h/%r", 256), "/mnt/node7/3");
	ck_assert_str_eq(expand("/mnt/100%%/x", 256), "/mnt/100%/x");
	ck_assert_str_eq(expand("/plain/dir", 256), "/plain/dir");
	ck_assert_str_eq(expand("%r%r%h", 256), "33node7");
}
END_TEST

START_TEST(refuses_what_is_not_a_pattern)
{
	char out[64], why[160];

	ck_assert_ptr_null(expand("/mnt/%x", 256));
	ck_assert_int_eq(dirpat_expand("/mnt/%q", 0, "h", out, sizeof(out), why,
				       sizeof(why)),
			 -1);
	ck_assert_ptr_nonnull(strstr(why, "%q is not a pattern"));
	ck_assert_int_eq(
	    dirpat_expand("/mnt/%", 0, "h", out, sizeof(out), why, sizeof(why)),
	    -1);
	ck_assert_ptr_nonnull(strstr(why, "at the end"));
	ck_assert_int_eq(dirpat_expand("/mnt/%\001", 0, "h", out, sizeof(out),
				       why, sizeof(why)),
			 -1);
	ck_assert_ptr_nonnull(strstr(why, "%\\x01"));
}
END_TEST

START_TEST(refuses_what_does_not_fit)
{
	/* "/a/3" needs 5 bytes with its NUL. */
	ck_assert_str_eq(expand("/a/%r", 5), "/a/3");
	ck_assert_ptr_null(expand("/a/%r", 4));
	ck_assert_ptr_null(expand("/a/%h", 8));
	ck_assert_str_eq(expand("/a/%h", 9), "/a/node7");
}
END_TEST

START_TEST(per_rank_or_not)
{
	ck_assert_int_eq(dirpat_per_rank("/mnt/r%r"), 1);
	ck_assert_int_eq(dirpat_per_rank("/mnt/%h"), 1);
	ck_assert_int_eq(dirpat_per_rank("/mnt/100%%r"), 0);
	ck_assert_int_eq(dirpat_per_rank("/mnt/plain"), 0);
	ck_assert_int_eq(dirpat_per_rank("/mnt/%"), 0);
	ck_assert_int_eq(dirpat_per_rank("/mnt/%%%r"), 1);
}
END_TEST

static Suite *dirpat_suite(void)
{
	Suite *s = suite_create("dirpat");
	TCase *tc = tcase_create("dirpat");

	tcase_add_test(tc, expands_rank_host_percent);
	tcase_add_test(tc, refuses_what_is_not_a_pattern);
	tcase_add_test(tc, refuses_what_does_not_fit);
	tcase_add_test(tc, per_rank_or_not);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(dirpat_suite)
