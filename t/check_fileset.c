/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_fileset: file-test names (lengths, alphabet, index placement,
 * order), directories and sizes, the seeded shuffle, and the seek ticket
 * rule. */
#include "config.h"

#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileset.h"
#include "rng.h"
#include "seek.h"
#include "check_main.h"

static struct fileset set(uint64_t count, int random)
{
	struct fileset fs;

	memset(&fs, 0, sizeof(fs));
	fs.count = count;
	fs.seed = 12345;
	fs.random = random;
	return fs;
}

static int hex_index_at(const char *s, uint64_t i)
{
	char want[17];

	snprintf(want, sizeof(want), "%010llx", (unsigned long long)i);
	return strncmp(s, want, 10) == 0;
}

START_TEST(names_shape)
{
	unsigned seen_len[13] = {0};

	for (int random = 0; random < 2; random++) {
		struct fileset fs = set(20000, random);

		for (uint64_t i = 0; i < fs.count; i++) {
			char name[FILESET_NAME_MAX];
			size_t n = fileset_name(&fs, i, name), r;

			ck_assert_uint_eq(n, strlen(name));
			ck_assert(n >= 10 && n <= 22);
			r = n - 10;
			seen_len[r]++;
			/* Index first (sequential) or last (random). */
			ck_assert(hex_index_at(random ? name + r : name, i));
			for (size_t k = 0; k < r; k++) {
				char c = random ? name[k] : name[10 + k];

				ck_assert_msg(isalnum((unsigned char)c) &&
						  (unsigned char)c < 128,
					      "bad character in %s", name);
			}
		}
	}
	/* Every random-part length 0..12 occurs. */
	for (int k = 0; k <= 12; k++)
		ck_assert_msg(seen_len[k] > 1000, "length %d seen %u times", k,
			      seen_len[k]);
}
END_TEST

START_TEST(names_order_and_seed)
{
	struct fileset seq = set(5000, 0), ran = set(5000, 1), other = seq;
	char a[FILESET_NAME_MAX], b[FILESET_NAME_MAX];
	int unsorted = 0, differ = 0;

	other.seed = 54321;
	for (uint64_t i = 1; i < seq.count; i++) {
		fileset_name(&seq, i - 1, a);
		fileset_name(&seq, i, b);
		ck_assert_int_lt(strcmp(a, b), 0); /* creation order sorts */
		fileset_name(&ran, i - 1, a);
		fileset_name(&ran, i, b);
		unsorted += strcmp(a, b) > 0;
		fileset_name(&seq, i, a);
		fileset_name(&other, i, b);
		differ += strcmp(a, b) != 0;
		fileset_name(&seq, i, b); /* reproducible */
		ck_assert_str_eq(a, b);
	}
	ck_assert_int_gt(unsorted, 1000);
	ck_assert_int_gt(differ, 4000);
}
END_TEST

START_TEST(dirs_and_sizes)
{
	struct fileset fs = set(10000, 0);
	char path[FILESET_NAME_MAX + 8], dir[8];
	unsigned last = 0, hits[7] = {0};

	fs.dirs = 7;
	fs.max_size = 4096;
	fs.min_size = 1000;
	for (uint64_t i = 0; i < fs.count; i++) {
		unsigned d = fileset_dir(&fs, i);
		uint64_t sz = fileset_size(&fs, i);

		ck_assert_uint_lt(d, 7);
		ck_assert_uint_ge(d, last); /* sequential: in order */
		last = d;
		ck_assert(sz >= 1000 && sz <= 4096);
		fileset_path(&fs, i, path);
		fileset_dir_name(d, dir);
		ck_assert_int_eq(strncmp(path, dir, 5), 0);
		ck_assert_int_eq(path[5], '/');
	}
	fs.random = 1;
	for (uint64_t i = 0; i < fs.count; i++)
		hits[fileset_dir(&fs, i)]++;
	for (int d = 0; d < 7; d++) /* spread: about 1429 each */
		ck_assert(hits[d] > 1200 && hits[d] < 1650);
	fileset_dir_name(42, dir);
	ck_assert_str_eq(dir, "00042");
	fs.max_size = FILESET_LINK;
	ck_assert_uint_eq(fileset_size(&fs, 3), 0);
	fs.max_size = 100;
	fs.min_size = 0;
	fs.dirs = 0;
	fileset_path(&fs, 3, path);
	ck_assert_ptr_null(strchr(path, '/'));
}
END_TEST

START_TEST(shuffle_is_seeded_permutation)
{
	enum { N = 100000 };
	uint32_t *a = malloc(N * sizeof(*a)), *b = malloc(N * sizeof(*b));
	unsigned char *seen = calloc(N, 1);
	struct rng r;
	int moved = 0, same = 1;

	for (uint32_t i = 0; i < N; i++)
		a[i] = b[i] = i;
	rng_seed(&r, 7);
	rng_shuffle_u32(&r, a, N);
	rng_seed(&r, 7);
	rng_shuffle_u32(&r, b, N);
	for (uint32_t i = 0; i < N; i++) {
		ck_assert_uint_lt(a[i], N);
		ck_assert(!seen[a[i]]);
		seen[a[i]] = 1;
		moved += a[i] != i;
		same &= a[i] == b[i];
	}
	ck_assert(same); /* reproducible with the seed */
	ck_assert_int_gt(moved, N - 100);
	for (uint32_t i = 0; i < N; i++)
		b[i] = i;
	rng_seed(&r, 8);
	rng_shuffle_u32(&r, b, N);
	ck_assert(memcmp(a, b, N * sizeof(*a)) != 0); /* another seed */
	free(a);
	free(b);
	free(seen);
}
END_TEST

START_TEST(seek_ticket_rule)
{
	enum { N = 100000 };
	uint64_t nchunks = 32768, writes = 0, low = 0;
	struct rng r;

	rng_seed(&r, 42);
	for (int i = 0; i < N; i++) {
		uint64_t t = rng_next(&r);
		uint64_t c = seek_ticket_chunk(t, nchunks);

		ck_assert_uint_lt(c, nchunks);
		writes += seek_ticket_writes(t);
		low += c < nchunks / 2;
	}
	/* One in ten writes: 10000 +- 3 sigma (~285). */
	ck_assert_msg(writes > 9700 && writes < 10300, "writes %llu",
		      (unsigned long long)writes);
	ck_assert(low > 49000 && low < 51000); /* offsets spread evenly */
	ck_assert(seek_ticket_writes(20) && !seek_ticket_writes(21));
	ck_assert_uint_eq(seek_ticket_chunk(25, 100), 2);
}
END_TEST

START_TEST(seek_tickets_do_not_repeat)
{
	enum { N = 10007 };
	unsigned char *seen = calloc(N, 1);
	uint64_t writes = 0, same = 0;

	for (uint64_t k = 0; k < N; k++) {
		uint64_t t = seek_ticket(77, k, N);
		uint64_t c = seek_ticket_chunk(t, N);

		ck_assert_uint_lt(c, N);
		ck_assert_msg(!seen[c], "chunk %llu twice",
			      (unsigned long long)c);
		seen[c] = 1;
		writes += seek_ticket_writes(t);
		same += c == k;
		ck_assert_uint_eq(t, seek_ticket(77, k, N)); /* reproducible */
	}
	ck_assert(writes > 900 && writes < 1100);
	ck_assert_uint_lt(same, 10); /* shuffled, not the identity */
	/* A permutation for small and awkward sizes too. */
	for (uint64_t n = 1; n < 70; n++) {
		memset(seen, 0, N);
		for (uint64_t k = 0; k < n; k++) {
			uint64_t x = seek_perm(k, n, n * 31);

			ck_assert_uint_lt(x, n);
			ck_assert(!seen[x]);
			seen[x] = 1;
		}
	}
	free(seen);
}
END_TEST

static Suite *fileset_suite(void)
{
	Suite *s = suite_create("fileset");
	TCase *tc = tcase_create("fileset");

	tcase_add_test(tc, names_shape);
	tcase_add_test(tc, names_order_and_seed);
	tcase_add_test(tc, dirs_and_sizes);
	tcase_add_test(tc, shuffle_is_seeded_permutation);
	tcase_add_test(tc, seek_ticket_rule);
	tcase_add_test(tc, seek_tickets_do_not_repeat);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fileset_suite)
