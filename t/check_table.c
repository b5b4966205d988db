/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_table: golden tables in both layouts, labels, blank and +++++
 * cells, name truncation. The goldens are FORMATS.md's real bonnie++
 * tables (2.00a's file-test rates corrected). */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "result_shown.h"
#include "table.h"
#include "check_main.h"

static const char golden_200[] = "Version 2.00a       ------Sequential "
				 "Output------ --Sequential Input- --Random-\n"
				 "                    -Per Chr- --Block-- "
				 "-Rewrite- -Per Chr- --Block-- --Seeks--\n"
				 "Name:Size etc        /sec %CP  /sec %CP  "
				 "/sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
				 "vm               2G  604k  96  439m  71  "
				 "802m  62  571k  96  2.4g  98  9124  55\n"
				 "Latency             49052us    8094us    "
				 "4469us   41210us    4806us   19655us\n"
				 "Version 2.00a       ------Sequential "
				 "Create------ --------Random Create--------\n"
				 "vm                  -Create-- --Read--- "
				 "-Delete-- -Create-- --Read--- -Delete--\n"
				 "              files  /sec %CP  /sec %CP  "
				 "/sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
				 "                 16 28379  84 +++++ +++ "
				 "+++++ +++ 23869  97 +++++ +++ +++++ +++\n"
				 "Latency              4453us   51836us    "
				 "2357us    4282us     105us    2501us\n";

static const char golden_103[] = "Version  1.03       ------Sequential "
				 "Output------ --Sequential Input- --Random-\n"
				 "                    -Per Chr- --Block-- "
				 "-Rewrite- -Per Chr- --Block-- --Seeks--\n"
				 "Machine        Size K/sec %CP K/sec %CP "
				 "K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
				 "convm004        16G 51121  98 188347  76 "
				 "97426  28 58961  98 378240  38 732.5   2\n"
				 "                    ------Sequential "
				 "Create------ --------Random Create--------\n"
				 "                    -Create-- --Read--- "
				 "-Delete-- -Create-- --Read--- -Delete--\n"
				 "              files  /sec %CP  /sec %CP  "
				 "/sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
				 "                512 19599  94 257598 100  "
				 "8272  27 19270  91 331205  99  4879  17\n";

/* Real bonnie++ 2.00a, -s 64m:4k -f -n 0 -m myhostverylongname. */
static const char golden_fast_200[] =
    "Version 2.00a       ------Sequential Output------ --Sequential Input- "
    "--Random-\n"
    "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- "
    "--Seeks--\n"
    "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  "
    "/sec %CP\n"
    "myhostverylo 64M:4k           +++++ +++ +++++ +++           +++++ +++ "
    "+++++ +++\n"
    "Latency                         193us     239us               114us    "
    "7551us\n";

static char *render(const struct run_result *r, enum table_layout l)
{
	char *buf = NULL;

	FX_CAPTURE(buf, table_print(out, r, l));
	return buf;
}

START_TEST(golden_layout_200)
{
	struct run_result r;
	char *t;

	fx_vm200(&r);
	t = render(&r, TABLE_200);
	ck_assert_str_eq(t, golden_200);
	free(t);
}
END_TEST

START_TEST(golden_layout_103)
{
	struct run_result r;
	char *t;

	fx_convm103(&r);
	t = render(&r, TABLE_103);
	ck_assert_str_eq(t, golden_103);
	free(t);
}
END_TEST

START_TEST(golden_skipped_and_fast)
{
	struct run_result r;
	char *t;

	result_init(&r);
	strcpy(r.version, "2.00a");
	strcpy(r.name, "myhostverylongname");
	r.file_size = 64 * UNITS_MIB;
	r.chunk = 4096;
	fx_fast(&r, RT_put_block, 193);
	fx_fast(&r, RT_rewrite, 239);
	fx_fast(&r, RT_get_block, 114);
	fx_fast(&r, RT_seeks, 7551);
	t = render(&r, TABLE_200);
	ck_assert_str_eq(t, golden_fast_200);
	free(t);
}
END_TEST

START_TEST(nothing_ran_prints_nothing)
{
	struct run_result r;
	char *t;

	fx_vm200(&r);
	for (int i = 0; i < RT_COUNT; i++)
		r.t[i].state = RS_NOT_RUN;
	t = render(&r, TABLE_200);
	ck_assert_str_eq(t, "");
	free(t);
}
END_TEST

START_TEST(io_only_has_no_file_block)
{
	struct run_result r;
	char *t;

	fx_vm200(&r);
	for (int i = RT_FIRST_FILE; i < RT_COUNT; i++)
		r.t[i].state = RS_NOT_RUN;
	t = render(&r, TABLE_200);
	ck_assert_ptr_null(strstr(t, "Create"));
	{
		int lines = 0;

		for (const char *p = t; *p; p++)
			lines += *p == '\n';
		ck_assert_int_eq(lines, 5);
	}
	free(t);
}
END_TEST

START_TEST(size_labels)
{
	struct run_result r;
	char buf[128];

	result_init(&r);
	r.file_size = 2 * UNITS_GIB;
	result_size_label(&r, 1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "2G");
	r.file_size = 64 * UNITS_GIB;
	r.chunk = 4096;
	r.seeks = 65536;
	result_size_label(&r, 1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "64G:4k::65536");
	result_size_label(&r, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "64G:4k");
	r.chunk = RESULT_DEF_CHUNK;
	r.seek_procs = 2;
	r.seeks = 100000;
	r.file_size = 64 * UNITS_MIB;
	result_size_label(&r, 1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "64M:::100000:2");
	result_size_label(&r, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "64M");
	r.file_size = 1500 * UNITS_MIB;
	r.concurrency = 3;
	r.seeks = RESULT_DEF_SEEKS;
	r.seek_procs = RESULT_DEF_PROCS;
	result_size_label(&r, 1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1500M::3");
}
END_TEST

START_TEST(file_labels_and_headers)
{
	struct run_result r;
	char buf[64], *t;

	fx_vm200(&r);
	result_files_label(&r, buf, sizeof(buf));
	ck_assert_str_eq(buf, "16");
	r.num_files = 4;
	r.max_size = 2000;
	r.min_size = 100;
	r.num_dirs = 3;
	result_files_label(&r, buf, sizeof(buf));
	ck_assert_str_eq(buf, "4:2000:100/3");
	t = render(&r, TABLE_103);
	ck_assert_ptr_nonnull(strstr(t, "\nfiles:max:min        /sec %CP"));
	ck_assert_ptr_nonnull(strstr(t, "\n       4:2000:100/3 "));
	free(t);
	r.min_size = 0;
	r.num_dirs = 0;
	t = render(&r, TABLE_103);
	ck_assert_ptr_nonnull(strstr(t, "\nfiles:max            /sec %CP"));
	free(t);
	r.max_size = -1; /* hard links */
	result_files_label(&r, buf, sizeof(buf));
	ck_assert_str_eq(buf, "4:-1");
}
END_TEST

START_TEST(long_label_drops_name)
{
	struct run_result r;
	char *t;

	fx_vm200(&r);
	r.file_size = 1536 * UNITS_MIB;
	r.chunk = 1024 * 1024;
	r.seeks = 123456789;
	r.seek_procs = 17;
	t = render(&r, TABLE_200);
	/* "1536M:1m::123456789:17" is 22 characters: no room for a name. */
	ck_assert_ptr_nonnull(strstr(t, "\n1536M:1m::123456789:17 "));
	ck_assert_ptr_null(strstr(t, "vm 1536M"));
	free(t);
}
END_TEST

START_TEST(layout_names)
{
	enum table_layout l;

	ck_assert_int_eq(table_layout_parse("1.03", &l), 0);
	ck_assert_int_eq(l, TABLE_103);
	ck_assert_int_eq(table_layout_parse("2.00", &l), 0);
	ck_assert_int_eq(l, TABLE_200);
	ck_assert_int_eq(table_layout_parse("1.97", &l), -1);
	ck_assert_int_eq(table_layout_parse("", &l), -1);
}
END_TEST

static Suite *table_suite(void)
{
	Suite *s = suite_create("table");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, golden_layout_200);
	tcase_add_test(tc, golden_layout_103);
	tcase_add_test(tc, golden_skipped_and_fast);
	tcase_add_test(tc, nothing_ran_prints_nothing);
	tcase_add_test(tc, io_only_has_no_file_block);
	tcase_add_test(tc, size_labels);
	tcase_add_test(tc, file_labels_and_headers);
	tcase_add_test(tc, long_label_drops_name);
	tcase_add_test(tc, layout_names);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(table_suite)
