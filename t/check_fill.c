/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_fill: the write data is seeded and incompressible. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fill.h"
#include "check_main.h"

START_TEST(random_fill)
{
	enum { LEN = 1 << 16 };
	unsigned char *a = malloc(LEN), *b = malloc(LEN), *z = calloc(LEN, 1);

	fill_random(a, LEN, 42);
	fill_random(b, LEN, 42);
	ck_assert_int_eq(memcmp(a, b, LEN), 0); /* the seed fixes it */
	fill_random(b, LEN, 43);
	ck_assert_int_ne(memcmp(a, b, LEN), 0);
	fill_random(b, 13, 42); /* odd lengths: the same prefix */
	ck_assert_int_eq(memcmp(a, b, 13), 0);
	ck_assert(fill_compress_ratio(a, LEN) > 0.99);
	ck_assert(fill_compress_ratio(z, LEN) < 0.05); /* zeros do shrink */
	free(a);
	free(b);
	free(z);
}
END_TEST

/* Stamps make every 4 KiB block of a stream distinct, wherever the
 * writes start and whatever their size, and only touch block heads. */
START_TEST(stamped_blocks)
{
	enum { BLK = 4096, LEN = 16 * BLK };
	unsigned char *a = malloc(LEN), *b = malloc(LEN), *c = malloc(LEN);

	fill_random(a, LEN, 7);
	memcpy(b, a, LEN);
	fill_stamp(a, LEN, 0, 7);
	for (int i = 0; i < LEN / BLK; i++) {
		/* Only the first 8 bytes of each block change. */
		ck_assert_int_eq(
		    memcmp(a + i * BLK + 8, b + i * BLK + 8, BLK - 8), 0);
		for (int j = 0; j < i; j++)
			ck_assert_int_ne(memcmp(a + i * BLK, a + j * BLK, 8),
					 0);
	}
	/* One buffer written in two halves at their offsets stamps the
	 * same as one write of the whole. */
	memcpy(c, b, LEN);
	fill_stamp(c, LEN / 2, 0, 7);
	fill_stamp(c + LEN / 2, LEN / 2, LEN / 2, 7);
	ck_assert_int_eq(memcmp(a, c, LEN), 0);
	/* The same buffer written at another offset differs. */
	memcpy(c, b, LEN);
	fill_stamp(c, LEN, LEN, 7);
	ck_assert_int_ne(memcmp(a, c, 8), 0);
	/* An unaligned start stamps the next block boundary only. */
	memcpy(c, b, LEN);
	fill_stamp(c + 100, 2 * BLK, 100, 7);
	ck_assert_int_eq(memcmp(c, b, BLK), 0);
	ck_assert_int_eq(memcmp(c + BLK, a + BLK, 8), 0);
	free(a);
	free(b);
	free(c);
}
END_TEST

static Suite *fill_suite(void)
{
	Suite *s = suite_create("fill");
	TCase *tc = tcase_create("fill");

	tcase_add_test(tc, random_fill);
	tcase_add_test(tc, stamped_blocks);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fill_suite)
