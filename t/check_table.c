/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_table: golden tables in both layouts, labels, blank and +++++
 * cells, names kept whole (clyde's table) or cut (bon_csv2txt's style),
 * the size label's legend. The goldens are FORMATS.md's real bonnie++
 * tables (2.00a's file-test rates corrected). */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
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

/* Real bonnie++ 2.00a, -s 64m:4k -f -n 0 -m myhostverylongname: its
 * row (the name cut to fit 19 columns), as bon_csv2txt's style keeps it. */
static const char golden_fast_row_200[] =
    "myhostverylo 64M:4k           +++++ +++ +++++ +++           +++++ +++ "
    "+++++ +++\n"
    "Latency                         193us     239us               114us    "
    "7551us\n";

/* The same in clyde's table: the name whole, six columns wider. */
static const char golden_fast_200[] =
    "Version 2.00a             ------Sequential Output------ --Sequential "
    "Input- --Random-\n"
    "                          -Per Chr- --Block-- -Rewrite- -Per Chr- "
    "--Block-- --Seeks--\n"
    "Name:Size etc              /sec %CP  /sec %CP  /sec %CP  /sec %CP  "
    "/sec %CP  /sec %CP\n"
    "myhostverylongname 64M:4k           +++++ +++ +++++ +++           +++++ "
    "+++ +++++ +++\n"
    "Latency                               193us     239us               "
    "114us    7551us\n";

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
	result_free(&r);
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
	result_free(&r);
}
END_TEST

static void fx_fast_long(struct run_result *r)
{
	result_init(r);
	if (result_measure(r) < 0)
		abort();
	strcpy(r->version, "2.00a");
	strcpy(r->name, "myhostverylongname");
	r->file_size = 64 * UNITS_MIB;
	r->chunk = 4096;
	fx_fast(r, RT_put_block, 193);
	fx_fast(r, RT_rewrite, 239);
	fx_fast(r, RT_get_block, 114);
	fx_fast(r, RT_seeks, 7551);
}

START_TEST(golden_skipped_and_fast)
{
	struct run_result r;
	char *t;

	fx_fast_long(&r);
	t = render(&r, TABLE_200);
	ck_assert_str_eq(t, golden_fast_200);
	free(t);
	result_free(&r);
}
END_TEST

/* A style of bonnie++'s 19 columns (clyde-report txt's, bon_csv2txt's)
 * cuts the name as bonnie++ 2.00a did. */
START_TEST(bonnie_style_cuts_name)
{
	static const struct table_style st = {.io_version = "",
					      .always_latency = 1};
	struct csv_cell c[RT_COUNT];
	struct run_result r;
	struct table_row row = {"myhostverylongname", "64M:4k", c};
	char *t = NULL;

	fx_fast_long(&r);
	for (enum result_test i = 0; i < RT_COUNT; i++)
		csv_cell_of(&r, i, &c[i]);
	FX_CAPTURE(t, table_block_row(out, &row, 0, TABLE_200, &st));
	ck_assert_str_eq(t, golden_fast_row_200);
	free(t);
	result_free(&r);
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
	result_free(&r);
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
	result_free(&r);
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
	result_free(&r);
}
END_TEST

/* The length of the line of t that starts with start. */
static size_t line_len(const char *t, const char *start)
{
	const char *p = strstr(t, start);

	ck_assert_ptr_nonnull(p);
	return strcspn(p + (*start == '\n'), "\n");
}

START_TEST(long_label_keeps_name)
{
	struct run_result r;
	size_t row;
	char *t;

	fx_vm200(&r);
	r.file_size = 1536 * UNITS_MIB;
	r.chunk = 1024 * 1024;
	r.seeks = 123456789;
	r.seek_procs = 17;
	t = render(&r, TABLE_200);
	/* "1536M:1m::123456789:17" is 22 characters: bonnie++ would leave
	 * no room for the name; the columns widen by 6 instead. */
	row = line_len(t, "\nvm 1536M:1m::123456789:17 ");
	ck_assert_uint_eq(row, 79 + 6);
	ck_assert_uint_eq(line_len(t, "Version"), row);
	ck_assert_uint_eq(line_len(t, "\nName:Size etc"), row);
	ck_assert_uint_eq(line_len(t, "\nLatency"), row - 2);
	/* The file block as wide, its label under "files". */
	ck_assert_ptr_nonnull(
	    strstr(t, "\nvm                        -Create--"));
	ck_assert_ptr_nonnull(strstr(t, "\n                    files  /sec"));
	ck_assert_ptr_nonnull(strstr(t, "\n                       16 28379"));
	free(t);
	result_free(&r);
}
END_TEST

/* The size label explained once, under the blocks, when it holds more
 * than the size; never without a legend to keep. */
START_TEST(size_label_legend)
{
	static const char line[] = "Size label: size:chunk:concurrency:seeks:"
				   "seek procs (empty: the default)\n";
	struct run_result r;
	const struct run_result *rp = &r;
	char *t = NULL;
	int legend = 0;

	fx_vm200(&r);
	FX_CAPTURE(t, table_print_rows(out, &rp, 1, TABLE_200, &legend));
	ck_assert_ptr_null(strstr(t, "Size label"));
	ck_assert_int_eq(legend, 0);
	free(t);
	r.seeks = 163056;
	FX_CAPTURE(t, table_print_rows(out, &rp, 1, TABLE_200, &legend));
	ck_assert_ptr_nonnull(strstr(t, "\nvm      2G:::163056 "));
	ck_assert_int_eq(legend, 1);
	/* Under both blocks: the file block's Latency line just before. */
	ck_assert_ptr_nonnull(strstr(t, "2501us\n"));
	ck_assert_str_eq(strstr(t, "2501us\n") + 7, line);
	free(t);
	FX_CAPTURE(t, table_print_rows(out, &rp, 1, TABLE_200, &legend));
	ck_assert_ptr_null(strstr(t, "Size label"));
	free(t);
	FX_CAPTURE(t, table_print_rows(out, &rp, 1, TABLE_200, NULL));
	ck_assert_ptr_null(strstr(t, "Size label"));
	free(t);
	legend = 0;
	r.chunk = 4096;
	FX_CAPTURE(t, table_print_rows(out, &rp, 1, TABLE_103, &legend));
	ck_assert_ptr_nonnull(strstr(t, "\nvm            2G:4k "));
	ck_assert_ptr_nonnull(
	    strstr(t, "\nSize label: size:chunk (empty: the default)\n"));
	free(t);
	result_free(&r);
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
	tcase_add_test(tc, bonnie_style_cuts_name);
	tcase_add_test(tc, nothing_ran_prints_nothing);
	tcase_add_test(tc, io_only_has_no_file_block);
	tcase_add_test(tc, size_labels);
	tcase_add_test(tc, file_labels_and_headers);
	tcase_add_test(tc, long_label_keeps_name);
	tcase_add_test(tc, size_label_legend);
	tcase_add_test(tc, layout_names);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(table_suite)
