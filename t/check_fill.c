/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_fill: the write data of every mode has the properties it
 * promises (incompressible and never repeated, zeros, a compress ratio,
 * a dedupe share), whatever the calls that asked for it; the spec
 * parser's answers; the CRC. The verify format: check_fill_verify.c.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fill.h"
#include "check_fill.h"
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

/* zlib's compressed size over the input size, at a level. */
static double ratio_at(const void *buf, size_t len, int level)
{
	uLongf out_len = compressBound((uLong)len);
	Bytef *out = malloc(out_len);
	double r;

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(compress2(out, &out_len, buf, (uLong)len, level),
			 Z_OK);
	r = (double)out_len / (double)len;
	free(out);
	return r;
}

unsigned char *cf_stream(const struct fill_spec *spec, uint64_t seed,
			 int verify, uint64_t off, size_t len, uint32_t gen)
{
	enum { CHUNK = 8192 };
	struct fill *f = fill_new(spec, seed, verify, CHUNK);
	unsigned char *buf = malloc(len);

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(buf);
	/* Chunk by chunk, as a block writer asks for it. */
	for (size_t i = 0; i < len; i += CHUNK) {
		size_t n = len - i < CHUNK ? len - i : CHUNK;

		memcpy(buf + i, fill_at(f, off + i, n, gen), n);
	}
	fill_free(f);
	return buf;
}

static size_t sector_len;

static int cmp_sector(const void *a, const void *b)
{
	return memcmp(*(unsigned char *const *)a, *(unsigned char *const *)b,
		      sector_len);
}

/* How many of the n units of unit bytes in buf equal another before. */
static size_t repeats(const unsigned char *buf, size_t n, size_t unit)
{
	const unsigned char **v = malloc(n * sizeof(*v));
	size_t dup = 0;

	ck_assert_ptr_nonnull(v);
	for (size_t i = 0; i < n; i++)
		v[i] = buf + i * unit;
	sector_len = unit;
	qsort(v, n, sizeof(*v), cmp_sector);
	for (size_t i = 1; i < n; i++)
		dup += memcmp(v[i - 1], v[i], unit) == 0;
	free(v);
	return dup;
}

/* random: incompressible, no 512-byte sector twice in 8 MiB, and
 * another generation changes every sector. */
START_TEST(random_mode)
{
	enum { LEN = 8 << 20 };
	struct fill_spec s = {FILL_RANDOM, 0};
	unsigned char *a = cf_stream(&s, 5, 0, 0, LEN, 1);
	unsigned char *b = cf_stream(&s, 5, 0, 0, LEN, 2);

	ck_assert(ratio_at(a, LEN, 1) > 0.99);
	ck_assert_uint_eq(repeats(a, LEN / FILL_SECTOR, FILL_SECTOR), 0);
	for (size_t i = 0; i < LEN; i += FILL_SECTOR)
		ck_assert_int_ne(memcmp(a + i, b + i, 8), 0);
	free(a);
	free(b);
}
END_TEST

START_TEST(zero_mode)
{
	enum { LEN = 1 << 20 };
	struct fill_spec s;
	unsigned char *a;

	ck_assert_int_eq(fill_parse("zero", &s, NULL, 0), 0);
	a = cf_stream(&s, 5, 0, 12345, LEN, 3);
	for (size_t i = 0; i < LEN; i++)
		ck_assert_uint_eq(a[i], 0);
	free(a);
}
END_TEST

static const unsigned compress_pcts[] = {1, 10, 25, 37, 50, 63, 75, 90, 99};

/* compress:PCT lands within 5 points at zlib levels 1 and 6 over 8 MiB
 * (for PCT 10..90 the promise; 1 and 99 are held to it too), with and
 * without verify, and a single block is near it as well. */
START_TEST(compress_mode)
{
	enum { LEN = 8 << 20 };
	unsigned pct = compress_pcts[_i / 2];
	int verify = _i % 2;
	struct fill_spec s = {FILL_COMPRESS, pct};
	unsigned char *a = cf_stream(&s, 9, verify, 0, LEN, 1);
	double lo = (pct - 5.0) / 100.0, hi = (pct + 5.0) / 100.0;
	double r1 = ratio_at(a, LEN, 1), r6 = ratio_at(a, LEN, 6);

	ck_assert_msg(r1 >= lo && r1 <= hi, "pct %u verify %d level 1: %.3f",
		      pct, verify, r1);
	ck_assert_msg(r6 >= lo && r6 <= hi, "pct %u verify %d level 6: %.3f",
		      pct, verify, r6);
	/* Alone, a block carries deflate's headers too: a looser bound. */
	r6 = ratio_at(a + 77 * FILL_BLOCK, FILL_BLOCK, 6);
	ck_assert_msg(r6 >= lo && r6 <= hi + 0.05, "pct %u one block: %.3f",
		      pct, r6);
	free(a);
}
END_TEST

static const unsigned dedupe_pcts[] = {10, 30, 70};

/* dedupe:PCT: PCT% +- 3 of the 4 KiB blocks of 64 MiB repeat an earlier
 * one. */
START_TEST(dedupe_mode)
{
	enum { LEN = 64 << 20, N = LEN / FILL_BLOCK };
	unsigned pct = dedupe_pcts[_i];
	struct fill_spec s = {FILL_DEDUPE, pct};
	unsigned char *a = cf_stream(&s, 11, 0, 0, LEN, 1);
	double share = (double)repeats(a, N, FILL_BLOCK) / N;

	ck_assert_msg(share >= (pct - 3.0) / 100 && share <= (pct + 3.0) / 100,
		      "dedupe:%u: %.3f of blocks repeat", pct, share);
	free(a);
}
END_TEST

/* The copies are chosen by seed and block number: the same seed makes
 * the same stream, another seed another one. */
START_TEST(dedupe_seeded)
{
	enum { LEN = 2 << 20 };
	struct fill_spec s = {FILL_DEDUPE, 50};
	unsigned char *a = cf_stream(&s, 3, 0, 0, LEN, 1);
	unsigned char *b = cf_stream(&s, 3, 0, 0, LEN, 1);
	unsigned char *c = cf_stream(&s, 4, 0, 0, LEN, 1);
	size_t na = repeats(a, LEN / FILL_BLOCK, FILL_BLOCK);

	ck_assert_int_eq(memcmp(a, b, LEN), 0);
	ck_assert_int_ne(memcmp(a, c, LEN), 0);
	ck_assert(na > LEN / FILL_BLOCK / 3 && na < 2 * LEN / FILL_BLOCK / 3);
	free(a);
	free(b);
	free(c);
}
END_TEST

static const struct {
	struct fill_spec spec;
	int verify;
} boundary_cases[] = {
    {{FILL_RANDOM, 0}, 0},  {{FILL_RANDOM, 0}, 1},    {{FILL_ZERO, 0}, 0},
    {{FILL_ZERO, 0}, 1},    {{FILL_COMPRESS, 37}, 0}, {{FILL_COMPRESS, 37}, 1},
    {{FILL_DEDUPE, 40}, 0},
};

/* One 64 KiB fill_at, many odd-sized calls, fill_into and a fill with
 * another max_len give the same bytes, across the pool's wrap. */
START_TEST(call_boundaries)
{
	enum { LEN = 64 << 10 };
	static const size_t sizes[] = {1, 7, 511, 513, 4095, 4097, 3, 8192};
	const struct fill_spec *s = &boundary_cases[_i].spec;
	int verify = boundary_cases[_i].verify;
	uint64_t off = (1 << 20) - 20000; /* crosses FILL_POOL */
	struct fill *f = fill_new(s, 21, verify, LEN);
	struct fill *g = fill_new(s, 21, verify, 9000);
	unsigned char *one = malloc(LEN), *many = malloc(LEN);
	unsigned char *into = malloc(LEN);
	size_t i = 0, k = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(g);
	memcpy(one, fill_at(f, off, LEN, 4), LEN);
	while (i < LEN) {
		size_t n = sizes[k++ % 8];

		n = n < LEN - i ? n : LEN - i;
		memcpy(many + i, fill_at(g, off + i, n, 4), n);
		i += n;
	}
	ck_assert_int_eq(memcmp(one, many, LEN), 0);
	fill_into(g, into, off, LEN, 4); /* beyond g's max_len: in pieces */
	ck_assert_int_eq(memcmp(one, into, LEN), 0);
	fill_into(f, into, off + 1, LEN - 1, 4);
	ck_assert_int_eq(memcmp(one + 1, into, LEN - 1), 0);
	/* Another generation is other content, but zeros. */
	fill_into(f, into, off, LEN, 5);
	if (s->mode == FILL_ZERO && !verify)
		ck_assert_int_eq(memcmp(one, into, LEN), 0);
	else
		ck_assert_int_ne(memcmp(one, into, LEN), 0);
	fill_free(f);
	fill_free(g);
	free(one);
	free(many);
	free(into);
}
END_TEST

START_TEST(new_and_at_limits)
{
	struct fill_spec dd = {FILL_DEDUPE, 30}, bad = {FILL_COMPRESS, 0};
	struct fill_spec r = {FILL_RANDOM, 0};
	struct fill *f;

	errno = 0;
	ck_assert_ptr_null(fill_new(&dd, 1, 1, 8192)); /* dedupe + verify */
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(fill_new(&bad, 1, 0, 8192));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(fill_new(&r, 1, 0, 0));
	f = fill_new(&r, 1, 0, 8192);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq((uintptr_t)fill_at(f, 3 * 4096, 8192, 1) % 4096, 0);
	ck_assert_uint_eq((uintptr_t)fill_at(f, 4096 + 100, 8192, 1) % 4096,
			  100);
	errno = 0;
	ck_assert_ptr_null(fill_at(f, 0, 8193, 1));
	ck_assert_int_eq(errno, EINVAL);
	fill_free(f);
	fill_free(NULL);
}
END_TEST

START_TEST(parse_good)
{
	static const char *const good[] = {"random",	  "zero",
					   "compress:50", "dedupe:1",
					   "dedupe:99",	  "compress:7"};
	struct fill_spec s;
	char text[32];

	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		ck_assert_int_eq(fill_parse(good[i], &s, NULL, 0), 0);
		fill_spec_text(&s, text, sizeof(text));
		ck_assert_str_eq(text, good[i]);
	}
	ck_assert_int_eq(fill_parse("compress:050", &s, NULL, 0), 0);
	ck_assert_int_eq(s.mode, FILL_COMPRESS);
	ck_assert_uint_eq(s.pct, 50);
}
END_TEST

static const char *const bad_args[][2] = {
    {"compress:150", "PCT must be a whole number from 1 to 99"},
    {"compress:0", "PCT must be a whole number from 1 to 99"},
    {"dedupe:5.5", "PCT must be a whole number from 1 to 99"},
    {"dedupe:-5", "PCT must be a whole number from 1 to 99"},
    {"compress: 5", "PCT must be a whole number from 1 to 99"},
    {"compress:", "PCT must be a whole number from 1 to 99"},
    {"compress:99999999999", "PCT must be a whole number from 1 to 99"},
    {"compress", "needs :PCT, a whole number from 1 to 99"},
    {"random:5", "this mode takes no PCT"},
    {"foo", "not a data mode (random, zero, compress:PCT, dedupe:PCT)"},
    {"Random", "not a data mode (random, zero, compress:PCT, "
	       "dedupe:PCT)"},
    {"", "not a data mode (random, zero, compress:PCT, dedupe:PCT)"},
};

START_TEST(parse_bad)
{
	struct fill_spec s = {FILL_ZERO, 0};
	char why[128];

	ck_assert_int_eq(fill_parse(bad_args[_i][0], &s, why, sizeof(why)), -1);
	ck_assert_str_eq(why, bad_args[_i][1]);
	ck_assert_int_eq(s.mode, FILL_ZERO); /* untouched */
	ck_assert_int_eq(fill_parse(bad_args[_i][0], &s, NULL, 0), -1);
}
END_TEST

/* fill_crc32 is zlib's crc32, whole or chained, whichever computes it. */
START_TEST(crc_is_zlib)
{
	enum { LEN = 3 * FILL_BLOCK + 5 };
	unsigned char *a = malloc(LEN);
	uint32_t z, c;

	fill_random(a, LEN, 77);
	z = (uint32_t)crc32(0, a, LEN);
	ck_assert_uint_eq(fill_crc32(0, a, LEN), z);
	c = fill_crc32(0, a, 1000);
	ck_assert_uint_eq(fill_crc32(c, a + 1000, LEN - 1000), z);
	/* The check value of the CRC-32 every gzip implements. */
	ck_assert_uint_eq(fill_crc32(0, "123456789", 9), 0xcbf43926u);
	ck_assert_uint_eq(fill_crc32(0, a, 0), 0);
	free(a);
}
END_TEST

static Suite *fill_suite(void)
{
	Suite *s = suite_create("fill");
	TCase *tc = tcase_create("fill");
	TCase *tm = tcase_create("modes");

	tcase_add_test(tc, random_fill);
	tcase_add_test(tc, stamped_blocks);
	tcase_add_test(tc, new_and_at_limits);
	tcase_add_test(tc, parse_good);
	tcase_add_loop_test(tc, parse_bad, 0,
			    sizeof(bad_args) / sizeof(*bad_args));
	tcase_add_test(tc, crc_is_zlib);
	tcase_add_loop_test(tc, call_boundaries, 0,
			    sizeof(boundary_cases) / sizeof(*boundary_cases));
	suite_add_tcase(s, tc);
	/* 8 and 64 MiB streams through zlib and a sort: seconds each. */
	tcase_set_timeout(tm, 30);
	tcase_add_test(tm, random_mode);
	tcase_add_test(tm, zero_mode);
	tcase_add_loop_test(tm, compress_mode, 0,
			    2 * sizeof(compress_pcts) / sizeof(*compress_pcts));
	tcase_add_loop_test(tm, dedupe_mode, 0,
			    sizeof(dedupe_pcts) / sizeof(*dedupe_pcts));
	tcase_add_test(tm, dedupe_seeded);
	suite_add_tcase(s, tm);
	fill_verify_tcase(s);
	return s;
}

CHECK_MAIN(fill_suite)
