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

static Suite *fill_suite(void)
{
	Suite *s = suite_create("fill");
	TCase *tc = tcase_create("fill");

	tcase_add_test(tc, random_fill);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fill_suite)
