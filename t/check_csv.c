/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_csv: field count and order of all three formats against
 * FORMATS.md's real lines, header lines, empty fields for tests that did
 * not run. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "fixture.h"
#include "check_main.h"

static const char line_198[] =
    "1.98,2.00a,vm,1,1795989744,2G,,8192,5,604,96,449755,71,821393,62,571,"
    "96,2527078,98,9124,55,16,,,,,28379,84,+++++,+++,+++++,+++,23869,97,"
    "+++++,+++,+++++,+++,49052us,8094us,4469us,41210us,4806us,19655us,"
    "4453us,51836us,2357us,4282us,105us,2501us\n";

static const char line_197[] =
    "1.97,2.00a,vm,1,1795989744,2G,,604,96,449755,71,821393,62,571,"
    "96,2527078,98,9124,55,16,,,,,28379,84,+++++,+++,+++++,+++,23869,97,"
    "+++++,+++,+++++,+++,49052us,8094us,4469us,41210us,4806us,19655us,"
    "4453us,51836us,2357us,4282us,105us,2501us\n";

static const char line_103[] =
    "convm004,16G,51121,98,188347,76,97426,28,58961,98,378240,38,732.5,2,"
    "512,19599,94,257598,100,8272,27,19270,91,331205,99,4879,17\n";

static char *line(const struct run_result *r, enum csv_format f)
{
	char *buf = NULL;

	FX_CAPTURE(buf, csv_write(out, r, f));
	return buf;
}

static int count_fields(const char *s)
{
	int n = 1;

	for (; *s && *s != '\n'; s++)
		n += *s == ',';
	return n;
}

START_TEST(real_line_198)
{
	struct run_result r;
	char *l;

	fx_vm200(&r);
	l = line(&r, CSV_198);
	ck_assert_str_eq(l, line_198);
	ck_assert_int_eq(count_fields(l), 50);
	ck_assert_int_eq(csv_field_count(CSV_198), 50);
	free(l);
	result_free(&r);
}
END_TEST

START_TEST(real_line_197)
{
	struct run_result r;
	char *l;

	fx_vm200(&r);
	l = line(&r, CSV_197);
	ck_assert_str_eq(l, line_197);
	ck_assert_int_eq(count_fields(l), 48);
	ck_assert_int_eq(csv_field_count(CSV_197), 48);
	free(l);
	result_free(&r);
}
END_TEST

START_TEST(real_line_103)
{
	struct run_result r;
	char *l;

	fx_convm103(&r);
	l = line(&r, CSV_103);
	ck_assert_str_eq(l, line_103);
	ck_assert_int_eq(count_fields(l), 27);
	ck_assert_int_eq(csv_field_count(CSV_103), 27);
	free(l);
	result_free(&r);
}
END_TEST

START_TEST(chunk_and_labels)
{
	struct run_result r;
	char *l;

	fx_convm103(&r);
	r.file_size = 1500 * UNITS_MIB;
	r.chunk = 4096;
	l = line(&r, CSV_103);
	ck_assert_int_eq(strncmp(l, "convm004,1500M:4k,", 18), 0);
	free(l);
	l = line(&r, CSV_198);
	/* 1.98 keeps size and chunk in their own fields. */
	ck_assert_ptr_nonnull(strstr(l, ",1500M,4k,8192,5,"));
	free(l);
	result_free(&r);
}
END_TEST

START_TEST(not_run_is_empty)
{
	struct run_result r;
	char *l;

	result_init(&r);
	if (result_measure(&r) < 0)
		abort();
	strcpy(r.version, "clyde-x");
	strcpy(r.name, "h");
	r.seed = 7;
	r.file_size = 64 * UNITS_MIB;
	fx_fast(&r, RT_put_block, 617);
	l = line(&r, CSV_198);
	ck_assert_str_eq(l, "1.98,clyde-x,h,1,7,64M,,8192,5,,,+++++,+++,,,,,,,"
			    ",,,,,,,,,,,,,,,,,,,,617us,,,,,,,,,,\n");
	ck_assert_int_eq(count_fields(l), 50);
	free(l);
	for (int i = 0; i < RT_COUNT; i++)
		r.t[i].state = RS_NOT_RUN;
	l = line(&r, CSV_103);
	ck_assert_str_eq(l, "h,64M,,,,,,,,,,,,,,,,,,,,,,,,,\n");
	free(l);
	result_free(&r);
}
END_TEST

START_TEST(headers)
{
	char *h = NULL;

	FX_CAPTURE(h, csv_write_header(out, CSV_198));
	ck_assert_int_eq(count_fields(h), 50);
	{
		const char *pre = "format_version,bonnie_version,name,"
				  "concurrency,seed,file_size,io_chunk_size,"
				  "seeks,seek_proc_count,putc,";

		ck_assert_int_eq(strncmp(h, pre, strlen(pre)), 0);
	}
	ck_assert_ptr_nonnull(strstr(h, ",ran_del_latency\n"));
	free(h);
	FX_CAPTURE(h, csv_write_header(out, CSV_197));
	ck_assert_int_eq(count_fields(h), 48);
	ck_assert_ptr_nonnull(strstr(h, "io_chunk_size,putc,putc_cpu,"));
	free(h);
	FX_CAPTURE(h, csv_write_header(out, CSV_103));
	ck_assert_int_eq(count_fields(h), 27);
	ck_assert_str_eq(h, "name,file_size,putc,putc_cpu,put_block,"
			    "put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,"
			    "get_block,get_block_cpu,seeks,seeks_cpu,num_files,"
			    "seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,"
			    "seq_del,seq_del_cpu,ran_create,ran_create_cpu,"
			    "ran_stat,ran_stat_cpu,ran_del,ran_del_cpu\n");
	free(h);
}
END_TEST

START_TEST(format_names)
{
	enum csv_format f;

	ck_assert_int_eq(csv_format_parse("1.98", &f), 0);
	ck_assert_int_eq(f, CSV_198);
	ck_assert_int_eq(csv_format_parse("1.97", &f), 0);
	ck_assert_int_eq(f, CSV_197);
	ck_assert_int_eq(csv_format_parse("1.03", &f), 0);
	ck_assert_int_eq(f, CSV_103);
	ck_assert_int_eq(csv_format_parse("2.00", &f), -1);
	ck_assert_int_eq(csv_format_parse("", &f), -1);
}
END_TEST

static Suite *csv_suite(void)
{
	Suite *s = suite_create("csv");
	TCase *tc = tcase_create("csv");

	tcase_add_test(tc, real_line_198);
	tcase_add_test(tc, real_line_197);
	tcase_add_test(tc, real_line_103);
	tcase_add_test(tc, chunk_and_labels);
	tcase_add_test(tc, not_run_is_empty);
	tcase_add_test(tc, headers);
	tcase_add_test(tc, format_names);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(csv_suite)
