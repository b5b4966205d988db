/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_fill_verify: blocks written with verify on check out as they
 * were written, and each way of going wrong (a flipped byte, a block in
 * another's place, an old or a newer generation, another run's file) is
 * caught, named with the right block and put in words.
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fill.h"
#include "check_fill.h"

#define SEED 0x1234abcdull
#define BASE (8ull << 20) /* the stream offset the tests read at */
enum { LEN = 64 * FILL_BLOCK };

static const struct fill_spec verify_specs[] = {
    {FILL_RANDOM, 0},
    {FILL_ZERO, 0},
    {FILL_COMPRESS, 50},
};

static struct fill *new_verify(const struct fill_spec *s, uint64_t seed)
{
	struct fill *f = fill_new(s, seed, 1, LEN);

	ck_assert_ptr_nonnull(f);
	return f;
}

/* What fill_at gives checks out, and each header reads back. */
START_TEST(round_trip)
{
	const struct fill_spec *s = &verify_specs[_i];
	struct fill *f = new_verify(s, SEED);
	const unsigned char *p = fill_at(f, BASE, LEN, 2);
	struct fill_bad bad;
	struct fill_spec hs;
	uint64_t off, seed;
	uint32_t gen, crc;
	unsigned char blk[FILL_BLOCK];

	ck_assert_int_eq(fill_check(f, p, BASE, LEN, 2, &bad), FILL_OK);
	ck_assert_int_eq(bad.fault, FILL_OK);
	ck_assert_int_eq(fill_check(f, p, BASE, LEN, 2, NULL), FILL_OK);
	for (size_t i = 0; i < LEN; i += FILL_BLOCK) {
		ck_assert_int_eq(
		    fill_header_read(p + i, &off, &seed, &gen, &hs), 0);
		ck_assert_uint_eq(off, BASE + i);
		ck_assert_uint_eq(seed, SEED);
		ck_assert_uint_eq(gen, 2);
		ck_assert_int_eq(hs.mode, s->mode);
		ck_assert_uint_eq(hs.pct, s->pct);
	}
	/* The block's CRC, in its last 4 bytes, is zlib's of the others. */
	memcpy(blk, p + 5 * FILL_BLOCK, FILL_BLOCK);
	crc = (uint32_t)blk[4092] | (uint32_t)blk[4093] << 8 |
	      (uint32_t)blk[4094] << 16 | (uint32_t)blk[4095] << 24;
	ck_assert_uint_eq(crc, (uint32_t)crc32(0, blk, FILL_BLOCK - 4));
	ck_assert_uint_eq(blk[0], 'C');
	ck_assert_uint_eq(blk[3], 'D');
	fill_free(f);
}
END_TEST

/* A copy of a verified stream, to be damaged. */
static unsigned char *stream(struct fill *f, uint64_t off, uint32_t gen)
{
	unsigned char *b = malloc(LEN);

	ck_assert_ptr_nonnull(b);
	fill_into(f, b, off, LEN, gen);
	return b;
}

START_TEST(corrupt)
{
	struct fill *f = new_verify(&verify_specs[_i], SEED);
	unsigned char *b = stream(f, BASE, 1);
	struct fill_bad bad;
	char text[160], want[160];

	b[5 * FILL_BLOCK + 1000] ^= 0x10;
	b[9 * FILL_BLOCK + 7] ^= 0x01; /* a later one: not the first */
	ck_assert_int_eq(fill_check(f, b, BASE, LEN, 1, &bad), FILL_CORRUPT);
	ck_assert_uint_eq(bad.off, BASE + 5 * FILL_BLOCK);
	ck_assert_int_eq(bad.bad_magic, 0);
	ck_assert_uint_ne(bad.want, bad.got);
	fill_bad_text(&bad, text, sizeof(text));
	snprintf(want, sizeof(want),
		 "block at offset %llu: bad CRC (corrupt data): "
		 "expected 0x%08llx, found 0x%08llx",
		 (unsigned long long)(BASE + 5 * FILL_BLOCK),
		 (unsigned long long)bad.want, (unsigned long long)bad.got);
	ck_assert_str_eq(text, want);
	/* A bad magic is said as such, before the CRC. */
	b[2 * FILL_BLOCK] ^= 0xff;
	ck_assert_int_eq(fill_check(f, b, BASE, LEN, 1, &bad), FILL_CORRUPT);
	ck_assert_uint_eq(bad.off, BASE + 2 * FILL_BLOCK);
	ck_assert_int_eq(bad.bad_magic, 1);
	ck_assert_uint_eq(bad.want, FILL_MAGIC);
	fill_bad_text(&bad, text, sizeof(text));
	ck_assert_ptr_nonnull(strstr(text, ": bad magic (corrupt data)"));
	ck_assert_int_eq(
	    fill_header_read(b + 2 * FILL_BLOCK, NULL, NULL, NULL, NULL), -1);
	ck_assert_int_eq(
	    fill_header_read(b + 5 * FILL_BLOCK, NULL, NULL, NULL, NULL), -1);
	free(b);
	fill_free(f);
}
END_TEST

/* Block B copied over block A: the header names B. */
START_TEST(misplaced)
{
	struct fill *f = new_verify(&verify_specs[_i], SEED);
	unsigned char *b = stream(f, BASE, 1);
	struct fill_bad bad;
	char text[160], want[160];
	uint64_t a_off = BASE + 3 * FILL_BLOCK, b_off = BASE + 40 * FILL_BLOCK;

	memcpy(b + 3 * FILL_BLOCK, b + 40 * FILL_BLOCK, FILL_BLOCK);
	ck_assert_int_eq(fill_check(f, b, BASE, LEN, 1, &bad), FILL_MISPLACED);
	ck_assert_uint_eq(bad.off, a_off);
	ck_assert_uint_eq(bad.want, a_off);
	ck_assert_uint_eq(bad.got, b_off);
	fill_bad_text(&bad, text, sizeof(text));
	snprintf(want, sizeof(want),
		 "block at offset %llu holds the block of offset %llu "
		 "(misplaced write)",
		 (unsigned long long)a_off, (unsigned long long)b_off);
	ck_assert_str_eq(text, want);
	free(b);
	fill_free(f);
}
END_TEST

/* Generation 1's data where 2 was written: a lost write; 3: newer. */
START_TEST(lost_and_newer)
{
	struct fill *f = new_verify(&verify_specs[_i], SEED);
	unsigned char *b = stream(f, 0, 1);
	struct fill_bad bad;
	char text[160];

	ck_assert_int_eq(fill_check(f, b, 0, LEN, 2, &bad), FILL_LOST);
	ck_assert_uint_eq(bad.off, 0);
	ck_assert_uint_eq(bad.want, 2);
	ck_assert_uint_eq(bad.got, 1);
	/* Only block 2 is old: it is the one named. */
	fill_into(f, b, 0, LEN, 2);
	fill_into(f, b + 2 * FILL_BLOCK, 2 * FILL_BLOCK, FILL_BLOCK, 1);
	ck_assert_int_eq(fill_check(f, b, 0, LEN, 2, &bad), FILL_LOST);
	fill_bad_text(&bad, text, sizeof(text));
	ck_assert_str_eq(text,
			 "block at offset 8192 is generation 1, expected 2 "
			 "(lost write)");
	fill_into(f, b, 0, LEN, 3);
	ck_assert_int_eq(fill_check(f, b, 0, LEN, 2, &bad), FILL_NEWER);
	ck_assert_uint_eq(bad.want, 2);
	ck_assert_uint_eq(bad.got, 3);
	free(b);
	fill_free(f);
}
END_TEST

/* Another run's file: its seed, whatever else is right. */
START_TEST(foreign)
{
	struct fill *f = new_verify(&verify_specs[_i], SEED);
	struct fill *g = new_verify(&verify_specs[_i], SEED + 1);
	unsigned char *b = stream(g, BASE, 1);
	struct fill_bad bad;
	char text[160], want[160];

	ck_assert_int_eq(fill_check(f, b, BASE, LEN, 1, &bad), FILL_FOREIGN);
	ck_assert_uint_eq(bad.off, BASE);
	ck_assert_uint_eq(bad.want, SEED);
	ck_assert_uint_eq(bad.got, SEED + 1);
	fill_bad_text(&bad, text, sizeof(text));
	snprintf(want, sizeof(want),
		 "block at offset %llu belongs to another run "
		 "(seed 0x%llx, expected 0x%llx)",
		 (unsigned long long)BASE, (unsigned long long)SEED + 1,
		 (unsigned long long)SEED);
	ck_assert_str_eq(text, want);
	free(b);
	fill_free(f);
	fill_free(g);
}
END_TEST

/* Only whole blocks are checked: damage in a block cut by the buffer's
 * ends goes unseen, damage one block in does not. */
START_TEST(partial_blocks)
{
	struct fill *f = new_verify(&verify_specs[_i], SEED);
	unsigned char *b = stream(f, BASE + 100, 1);
	struct fill_bad bad;

	b[10] ^= 1;	  /* the block cut at the start */
	b[LEN - 10] ^= 1; /* the one cut at the end */
	ck_assert_int_eq(fill_check(f, b, BASE + 100, LEN, 1, &bad), FILL_OK);
	b[FILL_BLOCK] ^= 1; /* in the first whole block, BASE + 4096 */
	ck_assert_int_eq(fill_check(f, b, BASE + 100, LEN, 1, &bad),
			 FILL_CORRUPT);
	ck_assert_uint_eq(bad.off, BASE + FILL_BLOCK);
	ck_assert_int_eq(fill_check(f, b, BASE + 100, 4000, 1, &bad), FILL_OK);
	free(b);
	fill_free(f);
}
END_TEST

/* A rewrite: read generation 1 back, change a byte, re-mark as 2: it
 * checks at 2, keeps the change, and is newer than 1. */
START_TEST(remark_verify)
{
	struct fill *f = new_verify(&verify_specs[_i], SEED);
	unsigned char *b = stream(f, BASE, 1);
	struct fill_bad bad;

	b[3 * FILL_BLOCK + 2000] ^= 0x5a;
	fill_remark(f, b, BASE, LEN, 2);
	ck_assert_int_eq(fill_check(f, b, BASE, LEN, 2, &bad), FILL_OK);
	ck_assert_int_eq(fill_check(f, b, BASE, LEN, 1, &bad), FILL_NEWER);
	ck_assert_uint_eq(b[3 * FILL_BLOCK + 2000] ^ 0x5a,
			  ((const unsigned char *)fill_at(
			      f, BASE, LEN, 1))[3 * FILL_BLOCK + 2000]);
	free(b);
	fill_free(f);
}
END_TEST

static const struct {
	struct fill_spec spec;
	int verify;
} remark_cases[] = {
    {{FILL_RANDOM, 0}, 0},    {{FILL_RANDOM, 0}, 1},  {{FILL_COMPRESS, 30}, 0},
    {{FILL_COMPRESS, 30}, 1}, {{FILL_DEDUPE, 50}, 0}, {{FILL_ZERO, 0}, 1},
};

/* Re-marking generation 1's content as 2 gives exactly generation 2's
 * content, cut anywhere (a partial block without verify too). */
START_TEST(remark_is_generation)
{
	const struct fill_spec *s = &remark_cases[_i].spec;
	int verify = remark_cases[_i].verify;
	uint64_t off = verify ? BASE : BASE + 1234;
	size_t len = verify ? LEN : LEN - 3000;
	struct fill *f = fill_new(s, SEED, verify, LEN);
	unsigned char *b = malloc(LEN), *want = malloc(LEN);

	ck_assert_ptr_nonnull(f);
	fill_into(f, b, off, len, 1);
	fill_into(f, want, off, len, 2);
	ck_assert(memcmp(b, want, len) != 0 || s->mode == FILL_ZERO);
	fill_remark(f, b, off, len, 2);
	ck_assert_int_eq(memcmp(b, want, len), 0);
	free(b);
	free(want);
	fill_free(f);
}
END_TEST

/* Check without verify has nothing to go on: everything passes. */
START_TEST(check_without_verify)
{
	struct fill_spec s = {FILL_RANDOM, 0};
	struct fill *f = fill_new(&s, SEED, 0, LEN);
	unsigned char *b = stream(f, 0, 1);
	struct fill_bad bad;

	ck_assert_int_eq(fill_check(f, b, 0, LEN, 1, &bad), FILL_OK);
	ck_assert_int_eq(fill_header_read(b, NULL, NULL, NULL, NULL), -1);
	free(b);
	fill_free(f);
}
END_TEST

void fill_verify_tcase(Suite *s)
{
	TCase *tc = tcase_create("verify");
	int n = (int)(sizeof(verify_specs) / sizeof(*verify_specs));

	tcase_add_loop_test(tc, round_trip, 0, n);
	tcase_add_loop_test(tc, corrupt, 0, n);
	tcase_add_loop_test(tc, misplaced, 0, n);
	tcase_add_loop_test(tc, lost_and_newer, 0, n);
	tcase_add_loop_test(tc, foreign, 0, n);
	tcase_add_loop_test(tc, partial_blocks, 0, n);
	tcase_add_loop_test(tc, remark_verify, 0, n);
	tcase_add_loop_test(tc, remark_is_generation, 0,
			    sizeof(remark_cases) / sizeof(*remark_cases));
	tcase_add_test(tc, check_without_verify);
	suite_add_tcase(s, tc);
}
