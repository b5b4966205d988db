/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_units: size parsing (accept and reject tables) and every cell
 * formatting boundary of the bonnie++ tables. */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "units.h"
#include "check_main.h"

static const struct {
	const char *in;
	uint64_t plain;
	uint64_t want;
} accept[] = {
    {"512", UNITS_MIB, 512 * UNITS_MIB},
    {"512m", UNITS_MIB, 512 * UNITS_MIB},
    {"512M", 1, 512 * UNITS_MIB},
    {"2G", UNITS_MIB, 2 * UNITS_GIB},
    {"2g", UNITS_MIB, 2 * UNITS_GIB},
    {"1.5g", UNITS_MIB, 3 * UNITS_GIB / 2},
    {"1.5G", 1, 3 * UNITS_GIB / 2},
    {"4k", 1, 4096},
    {"4K", UNITS_MIB, 4096},
    {"1t", UNITS_MIB, UNITS_TIB},
    {"1T", UNITS_MIB, UNITS_TIB},
    {"8192", 1, 8192},
    {"0", UNITS_MIB, 0},
    {"1.5", UNITS_MIB, 3 * UNITS_MIB / 2},
    {"2GiB", 1, 2 * UNITS_GIB},
    {"2gb", 1, 2 * UNITS_GIB},
    {".5k", 1, 512},
    {"16383t", 1, 16383 * UNITS_TIB},
};

static const struct {
	const char *in;
	uint64_t plain;
	const char *why; /* a word the reason must contain */
} reject[] = {
    {"12x", UNITS_MIB, "suffix"}, {"-5", UNITS_MIB, "negative"},
    {"", UNITS_MIB, "empty"},	  {"1gg", UNITS_MIB, "suffix"},
    {"g", UNITS_MIB, "number"},	  {"abc", UNITS_MIB, "number"},
    {".", UNITS_MIB, "number"},	  {"99999999999999999999", 1, "large"},
    {"16777216t", 1, "large"},	  {"20000000000000", UNITS_MIB, "large"},
    {"1.5", 1, "whole"},	  {"1.0000000001g", 1, "decimal"},
    {" 5", UNITS_MIB, "number"},  {"5 ", UNITS_MIB, "suffix"},
    {"1k2", 1, "suffix"},
};

START_TEST(parse_accepts)
{
	uint64_t v = 12345;
	char why[96] = "";

	ck_assert_msg(units_parse_size(accept[_i].in, accept[_i].plain, &v, why,
				       sizeof(why)) == 0,
		      "'%s' refused: %s", accept[_i].in, why);
	ck_assert_uint_eq(v, accept[_i].want);
}
END_TEST

START_TEST(parse_rejects)
{
	uint64_t v = 777;
	char why[96] = "";

	ck_assert_int_eq(units_parse_size(reject[_i].in, reject[_i].plain, &v,
					  why, sizeof(why)),
			 -1);
	ck_assert_msg(strstr(why, reject[_i].why),
		      "'%s': reason '%s' lacks '%s'", reject[_i].in, why,
		      reject[_i].why);
	ck_assert_uint_eq(v, 777); /* untouched on failure */
}
END_TEST

START_TEST(parse_uint)
{
	uint64_t v;
	char why[96];

	ck_assert_int_eq(units_parse_uint("42", 100, &v, why, sizeof(why)), 0);
	ck_assert_uint_eq(v, 42);
	ck_assert_int_eq(units_parse_uint("101", 100, &v, why, sizeof(why)),
			 -1);
	ck_assert_int_eq(units_parse_uint("-1", 100, &v, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "must not be negative");
	ck_assert_int_eq(units_parse_uint("4x", 100, &v, why, sizeof(why)), -1);
	ck_assert_int_eq(units_parse_uint("", 100, &v, why, sizeof(why)), -1);
	ck_assert_int_eq(units_parse_uint("18446744073709551616", UINT64_MAX,
					  &v, why, sizeof(why)),
			 -1);
	ck_assert_int_eq(units_parse_uint("18446744073709551615", UINT64_MAX,
					  &v, why, sizeof(why)),
			 0);
	ck_assert_uint_eq(v, UINT64_MAX);
}
END_TEST

static const struct {
	uint64_t kib;
	const char *cell;
} rates[] = {
    {0, "   0k"},
    {604, " 604k"},
    {9999, "9999k"},
    {10000, " 9.8m"},
    {102297, "99.9m"},
    {102348, "99.9m"},
    {102350, " 100m"},
    {102400, " 100m"},
    {449755, " 439m"},
    {821393, " 802m"},
    {1022976, " 999m"},
    {1023487, " 999m"},
    {1023488, " 1.0g"},
    {1024000, " 1.0g"},
    {1048576, " 1.0g"},
    {2527078, " 2.4g"},
    {10485760, "10.0g"},
    {104805171, "99.9g"},
    {104805172, " 100g"},
    /* Past an int's range of GiB/s: a read-back line may say so. */
    {2251799813685248ull, "2147483648g"},
    {UINT64_MAX, "17592186044416g"},
};

START_TEST(rate_cells)
{
	char buf[32];

	units_fmt_rate(buf, sizeof(buf), rates[_i].kib);
	ck_assert_str_eq(buf, rates[_i].cell);
}
END_TEST

static const struct {
	uint64_t ns;
	const char *cell;
} lats[] = {
    {0, ""},
    {999, "0us"},
    {1000, "1us"},
    {8094000, "8094us"},
    {99999999, "99999us"},
    {100000000, "100ms"},
    {100000999, "100ms"},
    {49052000000ull, "49052ms"},
    {99999999999ull, "99999ms"},
    {100000000000ull, "100s"},
    {3600000000000ull, "3600s"},
};

START_TEST(latency_cells)
{
	char buf[32];

	units_fmt_latency(buf, sizeof(buf), lats[_i].ns);
	ck_assert_str_eq(buf, lats[_i].cell);
}
END_TEST

START_TEST(size_labels)
{
	char buf[32];

	units_fmt_size(buf, sizeof(buf), 2 * UNITS_GIB);
	ck_assert_str_eq(buf, "2G");
	units_fmt_size(buf, sizeof(buf), 256 * UNITS_MIB);
	ck_assert_str_eq(buf, "256M");
	units_fmt_size(buf, sizeof(buf), 1536 * UNITS_MIB);
	ck_assert_str_eq(buf, "1536M");
	units_fmt_size(buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "0M");
	units_fmt_small(buf, sizeof(buf), 4096);
	ck_assert_str_eq(buf, "4k");
	units_fmt_small(buf, sizeof(buf), UNITS_MIB);
	ck_assert_str_eq(buf, "1m");
	units_fmt_small(buf, sizeof(buf), 100);
	ck_assert_str_eq(buf, "100");
	units_fmt_small(buf, sizeof(buf), 2 * UNITS_GIB);
	ck_assert_str_eq(buf, "2g");
}
END_TEST

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static Suite *units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, parse_accepts, 0, N(accept));
	tcase_add_loop_test(tc, parse_rejects, 0, N(reject));
	tcase_add_test(tc, parse_uint);
	suite_add_tcase(s, tc);
	tc = tcase_create("format");
	tcase_add_loop_test(tc, rate_cells, 0, N(rates));
	tcase_add_loop_test(tc, latency_cells, 0, N(lats));
	tcase_add_test(tc, size_labels);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(units_suite)
