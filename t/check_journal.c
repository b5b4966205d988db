/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_journal: the write journal (lib/journal.h): its file written,
 * read back and refused when damaged, a killed writer's records kept,
 * and the verdict on blocks in each case a power cut leaves. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "journal.h"
#include "check_main.h"

#define B JRNL_BLOCK

static char dir[64];
static char path[128];

static void setup(void)
{
	strcpy(dir, "/tmp/check_journal.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/j", dir);
}

static void teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[512];

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

static struct jrnl_head head_of(uint64_t file_size)
{
	struct jrnl_head h = {
	    .run_seed = 0x1122334455667788ull,
	    .content_seed = 0x99aabbccddeeff00ull,
	    .file_size = file_size,
	    .created_ns = 1700000000123456789ull,
	};

	strcpy(h.name, "data");
	return h;
}

static struct jrnl *create(uint64_t file_size)
{
	struct jrnl_head h = head_of(file_size);
	char why[200] = "";
	struct jrnl *j = jrnl_create(path, &h, why, sizeof(why));

	ck_assert_msg(j != NULL, "jrnl_create: %s", why);
	return j;
}

/* Write gen over block blk, acknowledged or not. */
static void wr(struct jrnl *j, uint32_t gen, uint64_t blk, int acked)
{
	ck_assert_int_eq(jrnl_intent(j, gen, blk * B, B), 0);
	if (acked)
		ck_assert_int_eq(jrnl_ack(j, gen, blk * B, B), 0);
}

static void read_ok(const char *p, struct jrnl_view *v)
{
	char why[200] = "";

	ck_assert_msg(jrnl_read(p, v, why, sizeof(why)) == 0, "%s: %s", p, why);
}

/* Read path, which must be refused with why. */
static void refused(const char *p, const char *want)
{
	struct jrnl_view v;
	char why[200] = "";

	ck_assert_int_eq(jrnl_read(p, &v, why, sizeof(why)), -1);
	ck_assert_str_eq(why, want);
	ck_assert_ptr_null(v.recs);
}

static struct jrnl_map *map_of(const char *p)
{
	struct jrnl_view v;
	struct jrnl_map *m;

	read_ok(p, &v);
	m = jrnl_map_new(&v);
	ck_assert_ptr_nonnull(m);
	jrnl_view_free(&v);
	return m;
}

static off_t size_of(const char *p)
{
	struct stat st;

	ck_assert_int_eq(stat(p, &st), 0);
	return st.st_size;
}

static void patch(const char *p, off_t at, const void *bytes, size_t n)
{
	int fd = open(p, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, bytes, n, at), (ssize_t)n);
	close(fd);
}

/* Record n of the journal at p replaced by one of our own. */
static void put_rec(const char *p, uint64_t n, char type, uint32_t gen,
		    uint64_t off, uint64_t len, uint32_t index)
{
	unsigned char r[JRNL_REC];

	jrnl_rec_pack(r, type, gen, off, len, index);
	patch(p, (off_t)(JRNL_HEAD + n * JRNL_REC), r, sizeof(r));
}

static void expect_block(const struct jrnl_map *m, uint64_t blk, uint32_t acked,
			 uint32_t lo, uint32_t hi)
{
	uint32_t a, l, h;

	jrnl_map_block(m, blk, &a, &l, &h);
	ck_assert_msg(a == acked && l == lo && h == hi,
		      "block %llu: acked %u [%u, %u], expected %u [%u, %u]",
		      (unsigned long long)blk, a, l, h, acked, lo, hi);
}

/* The header's fields and the records come back as written; a clean
 * close ends with 'E' and cuts the file to its records. */
START_TEST(round_trip)
{
	struct jrnl_head h = head_of(1 << 20);
	struct jrnl_view v;
	char why[200];
	struct jrnl *j;

	jrnl_head_name(&h, "/x/y/clyde.data.0001");
	j = jrnl_create(path, &h, why, sizeof(why));
	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(size_of(path), 1 << 20);
	ck_assert_int_eq(jrnl_intent(j, 1, 0, 2 * B), 0);
	ck_assert_int_eq(jrnl_ack(j, 1, 0, 2 * B), 0);
	ck_assert_int_eq(jrnl_intent(j, 2, 5 * B, 3 * B), 0);
	ck_assert_int_eq(jrnl_sync_through(j, 2), 0);
	ck_assert_int_eq(jrnl_close(j, 1), 0);
	ck_assert_int_eq(size_of(path), 64 + 5 * 32);

	read_ok(path, &v);
	ck_assert_uint_eq(v.head.run_seed, 0x1122334455667788ull);
	ck_assert_uint_eq(v.head.content_seed, 0x99aabbccddeeff00ull);
	ck_assert_uint_eq(v.head.file_size, 1 << 20);
	ck_assert_uint_eq(v.head.created_ns, 1700000000123456789ull);
	ck_assert_str_eq(v.head.name, "clyde.data.0"); /* 12 bytes */
	ck_assert_uint_eq(v.nrecs, 5);
	ck_assert_int_eq(v.clean, 1);
	ck_assert_uint_eq(v.last_gen, 2);
	ck_assert_int_eq(v.recs[1].type, 'A');
	ck_assert_uint_eq(v.recs[1].gen, 1);
	ck_assert_uint_eq(v.recs[1].len, 2 * B);
	ck_assert_uint_eq(v.recs[1].index, 1);
	ck_assert_int_eq(v.recs[2].type, 'I');
	ck_assert_uint_eq(v.recs[2].off, 5 * B);
	ck_assert_uint_eq(v.recs[2].len, 3 * B);
	ck_assert_int_eq(v.recs[3].type, 'S');
	ck_assert_uint_eq(v.recs[3].gen, 2);
	ck_assert_int_eq(v.recs[4].type, 'E');
	ck_assert_uint_eq(v.recs[4].gen, 2);
	ck_assert_uint_eq(v.recs[4].index, 4);
	jrnl_view_free(&v);
}
END_TEST

/* No creation time given: now. Not clean: the size stays a chunk. */
START_TEST(now_and_unclean)
{
	struct jrnl_head h = head_of(1 << 20);
	struct timespec t0, t1;
	struct jrnl_view v;
	char why[200];
	struct jrnl *j;

	h.created_ns = 0;
	clock_gettime(CLOCK_REALTIME, &t0);
	j = jrnl_create(path, &h, why, sizeof(why));
	clock_gettime(CLOCK_REALTIME, &t1);
	ck_assert_ptr_nonnull(j);
	wr(j, 1, 3, 1);
	ck_assert_int_eq(jrnl_flush(j, 0), 0);
	wr(j, 2, 4, 0);
	ck_assert_int_eq(jrnl_flush(j, 1), 0);
	ck_assert_int_eq(jrnl_flush(j, 1), 0);
	ck_assert_int_eq(jrnl_close(j, 0), 0);
	ck_assert_int_eq(size_of(path), 1 << 20);
	read_ok(path, &v);
	ck_assert_uint_ge(v.head.created_ns,
			  (uint64_t)t0.tv_sec * 1000000000u + t0.tv_nsec);
	ck_assert_uint_le(v.head.created_ns,
			  (uint64_t)t1.tv_sec * 1000000000u + t1.tv_nsec);
	ck_assert_uint_eq(v.nrecs, 3);
	ck_assert_int_eq(v.clean, 0);
	ck_assert_uint_eq(v.last_gen, 2);
	jrnl_view_free(&v);
}
END_TEST

/* An existing file is never overwritten; a failed create leaves none. */
START_TEST(create_refused)
{
	struct jrnl_head h = head_of(1 << 20);
	char why[200] = "", buf[16] = "", missing[200];
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "precious", 8), 8);
	close(fd);
	ck_assert_ptr_null(jrnl_create(path, &h, why, sizeof(why)));
	ck_assert_str_eq(why, "exists; a journal is never overwritten");
	fd = open(path, O_RDONLY);
	ck_assert_int_eq(read(fd, buf, sizeof(buf) - 1), 8);
	close(fd);
	ck_assert_str_eq(buf, "precious");

	snprintf(missing, sizeof(missing), "%s/no/j", dir);
	ck_assert_ptr_null(jrnl_create(missing, &h, why, sizeof(why)));
	ck_assert_str_eq(why, strerror(ENOENT));
}
END_TEST

/* What is not a write is refused and not recorded. */
START_TEST(bad_calls)
{
	struct jrnl *j = create(16 * B);
	struct jrnl_view v;

	ck_assert_int_eq(jrnl_intent(j, 0, 0, B), -EINVAL);
	ck_assert_int_eq(jrnl_intent(j, 1, 0, 0), -EINVAL);
	ck_assert_int_eq(jrnl_intent(j, 1, 15 * B, 2 * B), -EINVAL);
	ck_assert_int_eq(jrnl_ack(j, 1, 16 * B, B), -EINVAL);
	ck_assert_int_eq(jrnl_ack(j, 1, B, UINT64_MAX), -EINVAL);
	ck_assert_int_eq(jrnl_sync_through(j, 0), -EINVAL);
	ck_assert_int_eq(jrnl_intent(j, 1, 15 * B, B), 0);
	ck_assert_int_eq(jrnl_close(j, 1), 0);
	read_ok(path, &v);
	ck_assert_uint_eq(v.nrecs, 2);
	ck_assert_int_eq(v.recs[1].type, 'E');
	ck_assert_uint_eq(v.recs[1].gen, 1);
	jrnl_view_free(&v);
}
END_TEST

/* Each verdict of a journal without syncs. */
START_TEST(verdicts)
{
	struct jrnl *j = create(16 * B);
	struct jrnl_map *m;

	wr(j, 1, 0, 1);
	wr(j, 2, 1, 1);
	wr(j, 3, 1, 1);
	wr(j, 4, 2, 0);
	/* Not aligned: blocks 6 and 7 (bytes 24676 .. 32675). */
	ck_assert_int_eq(jrnl_intent(j, 5, 6 * B + 100, 8000), 0);
	ck_assert_int_eq(jrnl_ack(j, 5, 6 * B + 100, 8000), 0);
	ck_assert_int_eq(jrnl_close(j, 1), 0);
	m = map_of(path);
	ck_assert_uint_eq(jrnl_map_blocks(m), 16);

	ck_assert_int_eq(jrnl_judge(m, 0, 1, 1), JV_INTACT);
	ck_assert_int_eq(jrnl_judge(m, 1, 1, 3), JV_INTACT);
	ck_assert_int_eq(jrnl_judge(m, 1, 1, 2), JV_LOST);
	ck_assert_int_eq(jrnl_judge(m, 1, 1, 4), JV_INFLIGHT_NEW);
	ck_assert_int_eq(jrnl_judge(m, 1, 0, 0), JV_CORRUPT);
	ck_assert_int_eq(jrnl_judge(m, 2, 1, 4), JV_INFLIGHT_NEW);
	ck_assert_int_eq(jrnl_judge(m, 2, 1, 1), JV_INFLIGHT_OLD);
	ck_assert_int_eq(jrnl_judge(m, 2, 0, 0), JV_TORN);
	ck_assert_int_eq(jrnl_judge(m, 3, 1, 1), JV_UNWRITTEN);
	ck_assert_int_eq(jrnl_judge(m, 3, 0, 0), JV_UNWRITTEN);
	ck_assert_int_eq(jrnl_judge(m, 5, 1, 5), JV_UNWRITTEN);
	ck_assert_int_eq(jrnl_judge(m, 6, 1, 5), JV_INTACT);
	ck_assert_int_eq(jrnl_judge(m, 7, 1, 5), JV_INTACT);
	ck_assert_int_eq(jrnl_judge(m, 7, 1, 1), JV_LOST);
	ck_assert_int_eq(jrnl_judge(m, 8, 1, 5), JV_UNWRITTEN);
	ck_assert_int_eq(jrnl_judge(m, 100, 1, 5), JV_UNWRITTEN);
	expect_block(m, 1, 3, 0, 0);
	expect_block(m, 2, 0, 4, 4);
	ck_assert_int_eq(jrnl_map_block(m, 3, &(uint32_t){0}, &(uint32_t){0},
					&(uint32_t){0}),
			 -1);
	jrnl_map_free(m);
}
END_TEST

/* Buffered writes, acknowledged by an 'S' after them only. */
START_TEST(buffered_sync)
{
	struct jrnl *j = create(16 * B);
	struct jrnl_map *m;

	wr(j, 1, 0, 0);
	wr(j, 2, 1, 0);
	wr(j, 3, 2, 0);
	wr(j, 4, 3, 0);
	ck_assert_int_eq(jrnl_sync_through(j, 3), 0);
	wr(j, 5, 4, 0);
	/* A block rewritten twice under one fsync, and twice with none. */
	wr(j, 6, 5, 0);
	wr(j, 7, 5, 0);
	ck_assert_int_eq(jrnl_sync_through(j, 7), 0);
	wr(j, 8, 6, 0);
	wr(j, 9, 6, 0);
	ck_assert_int_eq(jrnl_close(j, 1), 0);
	m = map_of(path);

	expect_block(m, 0, 1, 0, 0);
	expect_block(m, 2, 3, 0, 0);
	expect_block(m, 3, 4, 0, 0); /* the second 'S' */
	expect_block(m, 4, 5, 0, 0);
	expect_block(m, 5, 7, 0, 0);
	expect_block(m, 6, 0, 8, 9);
	ck_assert_int_eq(jrnl_judge(m, 2, 1, 3), JV_INTACT);
	ck_assert_int_eq(jrnl_judge(m, 4, 1, 5), JV_INTACT);
	ck_assert_int_eq(jrnl_judge(m, 5, 1, 6), JV_LOST);
	ck_assert_int_eq(jrnl_judge(m, 5, 1, 7), JV_INTACT);
	ck_assert_int_eq(jrnl_judge(m, 6, 1, 8), JV_INFLIGHT_NEW);
	ck_assert_int_eq(jrnl_judge(m, 6, 1, 9), JV_INFLIGHT_NEW);
	ck_assert_int_eq(jrnl_judge(m, 6, 1, 2), JV_INFLIGHT_OLD);
	ck_assert_int_eq(jrnl_judge(m, 6, 0, 0), JV_TORN);
	ck_assert_int_eq(jrnl_judge(m, 0, 0, 0), JV_CORRUPT);
	jrnl_map_free(m);

	/* The same without the second 'S': 4 to 7 in flight. */
	teardown();
	setup();
	j = create(16 * B);
	wr(j, 1, 0, 0);
	wr(j, 4, 3, 0);
	ck_assert_int_eq(jrnl_sync_through(j, 3), 0);
	wr(j, 5, 4, 0);
	ck_assert_int_eq(jrnl_close(j, 1), 0);
	m = map_of(path);
	expect_block(m, 0, 1, 0, 0);
	expect_block(m, 3, 0, 4, 4);
	expect_block(m, 4, 0, 5, 5);
	jrnl_map_free(m);
}
END_TEST

/* Gen 5 acknowledged, then gen 7 in flight over the same block: 5 or 7
 * allowed, 3 lost. */
START_TEST(ack_then_flight)
{
	struct jrnl *j = create(16 * B);
	struct jrnl_map *m;

	wr(j, 3, 0, 1);
	wr(j, 5, 0, 1);
	wr(j, 7, 0, 0);
	ck_assert_int_eq(jrnl_close(j, 1), 0);
	m = map_of(path);
	expect_block(m, 0, 5, 7, 7);
	ck_assert_int_eq(jrnl_judge(m, 0, 1, 5), JV_INFLIGHT_OLD);
	ck_assert_int_eq(jrnl_judge(m, 0, 1, 7), JV_INFLIGHT_NEW);
	ck_assert_int_eq(jrnl_judge(m, 0, 1, 3), JV_LOST);
	ck_assert_int_eq(jrnl_judge(m, 0, 1, 6), JV_INFLIGHT_NEW);
	ck_assert_int_eq(jrnl_judge(m, 0, 1, 9), JV_INFLIGHT_NEW);
	ck_assert_int_eq(jrnl_judge(m, 0, 0, 0), JV_TORN);
	jrnl_map_free(m);
}
END_TEST

/* Acknowledgements out of order at depth 4. */
START_TEST(acks_out_of_order)
{
	struct jrnl *j = create(16 * B);
	struct jrnl_map *m;

	for (uint32_t g = 1; g <= 4; g++)
		wr(j, g, g - 1, 0);
	ck_assert_int_eq(jrnl_ack(j, 3, 2 * B, B), 0);
	ck_assert_int_eq(jrnl_ack(j, 1, 0, B), 0);
	wr(j, 5, 4, 0);
	ck_assert_int_eq(jrnl_ack(j, 5, 4 * B, B), 0);
	ck_assert_int_eq(jrnl_ack(j, 4, 3 * B, B), 0);
	wr(j, 6, 0, 0);
	ck_assert_int_eq(jrnl_ack(j, 6, 0, B), 0);
	ck_assert_int_eq(jrnl_close(j, 1), 0);
	m = map_of(path);
	expect_block(m, 0, 6, 0, 0);
	expect_block(m, 1, 0, 2, 2);
	expect_block(m, 2, 3, 0, 0);
	expect_block(m, 3, 4, 0, 0);
	expect_block(m, 4, 5, 0, 0);
	ck_assert_int_eq(jrnl_judge(m, 0, 1, 1), JV_LOST);
	ck_assert_int_eq(jrnl_judge(m, 1, 1, 2), JV_INFLIGHT_NEW);
	ck_assert_int_eq(jrnl_judge(m, 1, 0, 0), JV_TORN);
	ck_assert_int_eq(jrnl_judge(m, 3, 1, 4), JV_INTACT);
	ck_assert_int_eq(jrnl_judge(m, 3, 0, 0), JV_CORRUPT);
	jrnl_map_free(m);
}
END_TEST

/*
 * 5000 writes at depth 32, each window's acks in a scrambled order, the
 * last window's odd gens never acknowledged (past the map's compaction
 * of its list of intents).
 */
START_TEST(deep_queue)
{
	enum { N = 5000, D = 32 };
	struct jrnl *j = create((uint64_t)N * B);
	struct jrnl_map *m;
	uint32_t w0;

	for (w0 = 0; w0 < N; w0 += D) {
		uint32_t n = N - w0 < D ? N - w0 : D;

		for (uint32_t i = 0; i < n; i++)
			wr(j, w0 + i + 1, w0 + i, 0);
		for (uint32_t k = 0; k < n; k++) {
			uint32_t i = (k * 13 + 5) % n; /* n is not 13's */
			uint32_t g = w0 + i + 1;

			if (w0 + D >= N && g % 2)
				continue;
			ck_assert_int_eq(
			    jrnl_ack(j, g, (uint64_t)(g - 1) * B, B), 0);
		}
	}
	ck_assert_int_eq(jrnl_close(j, 1), 0);
	m = map_of(path);
	for (uint32_t b = 0; b < N; b++) {
		uint32_t g = b + 1;

		if (b >= N / D * D && g % 2)
			expect_block(m, b, 0, g, g);
		else
			expect_block(m, b, g, 0, 0);
	}
	ck_assert_int_eq(jrnl_judge(m, N - 1, 1, N), JV_INTACT);
	ck_assert_int_eq(jrnl_judge(m, N - 2, 1, N - 1), JV_INFLIGHT_NEW);
	ck_assert_int_eq(jrnl_judge(m, N - 2, 1, N - 2), JV_INFLIGHT_OLD);
	jrnl_map_free(m);
}
END_TEST

/* A journal of 9 records and 'E' (10), closed cleanly. */
static void ten(void)
{
	struct jrnl *j = create(16 * B);

	for (uint32_t g = 1; g <= 4; g++)
		wr(j, g, g, 1);
	wr(j, 5, 9, 0);
	ck_assert_int_eq(jrnl_close(j, 1), 0);
	ck_assert_int_eq(size_of(path), 64 + 10 * 32);
}

START_TEST(truncated)
{
	struct jrnl_view v;

	ten();
	ck_assert_int_eq(truncate(path, 64 + 4 * 32 + 10), 0);
	refused(path, "truncated inside record 4");
	ck_assert_int_eq(truncate(path, 64 + 4 * 32), 0);
	read_ok(path, &v);
	ck_assert_uint_eq(v.nrecs, 4);
	ck_assert_int_eq(v.clean, 0);
	ck_assert_uint_eq(v.last_gen, 2);
	jrnl_view_free(&v);
	ck_assert_int_eq(truncate(path, 64), 0);
	read_ok(path, &v);
	ck_assert_uint_eq(v.nrecs, 0);
	ck_assert_uint_eq(v.last_gen, 0);
	jrnl_view_free(&v);
	ck_assert_int_eq(truncate(path, 30), 0);
	refused(path, "truncated: 30 bytes, shorter than the 64-byte header");
	ck_assert_int_eq(truncate(path, 0), 0);
	refused(path, "truncated: 0 bytes, shorter than the 64-byte header");
}
END_TEST

/* A zero record ends the journal; past it only zeros, even a part of
 * a record. */
START_TEST(zero_end)
{
	static const unsigned char zero[JRNL_REC];
	struct jrnl_view v;

	ten();
	/* Zeros, then records: a cut's torn tail, dropped. */
	patch(path, 64 + 6 * 32, zero, sizeof(zero));
	read_ok(path, &v);
	ck_assert_uint_eq(v.nrecs, 6);
	ck_assert_uint_eq(v.torn, 4);
	jrnl_view_free(&v);
	patch(path, 64 + 7 * 32, zero, sizeof(zero));
	patch(path, 64 + 8 * 32, zero, sizeof(zero));
	patch(path, 64 + 9 * 32, zero, sizeof(zero));
	patch(path, 64 + 10 * 32, zero, 7);
	read_ok(path, &v);
	ck_assert_uint_eq(v.nrecs, 6);
	ck_assert_uint_eq(v.torn, 0);
	ck_assert_int_eq(v.clean, 0);
	jrnl_view_free(&v);
	patch(path, 64 + 10 * 32 + 6, "x", 1);
	refused(path, "record 10 after the journal's end");
}
END_TEST

/* Flip a bit of record n's byte 9. */
static void flip(uint64_t n)
{
	unsigned char c;
	int fd;

	fd = open(path, O_RDONLY);
	ck_assert_int_eq(pread(fd, &c, 1, 64 + n * 32 + 9), 1);
	close(fd);
	c ^= 0x10;
	patch(path, 64 + n * 32 + 9, &c, 1);
}

/* A record not whole near the end: a cut's torn tail, dropped. */
START_TEST(torn_tail)
{
	struct jrnl_view v;

	ten();
	flip(3);
	read_ok(path, &v);
	ck_assert_uint_eq(v.nrecs, 3);
	ck_assert_uint_eq(v.torn, 7);
	ck_assert_int_eq(v.clean, 0);
	jrnl_view_free(&v);
	ck_assert_int_eq(unlink(path), 0);
	ten();
	put_rec(path, 3, 'A', 2, 2 * B, B, 4);
	read_ok(path, &v);
	ck_assert_uint_eq(v.nrecs, 3);
	ck_assert_uint_eq(v.torn, 7);
	jrnl_view_free(&v);
}
END_TEST

/* The same damage with whole records far past it: no cut made it. */
START_TEST(damaged_far)
{
	struct jrnl *j = create(16 * B);

	for (uint32_t g = 1; g <= 200; g++)
		wr(j, g, g % 16, 1);
	ck_assert_int_eq(jrnl_close(j, 1), 0);
	flip(3);
	refused(path, "record 3 at byte 160: bad CRC, with whole records "
		      "after it (record 260)");
	put_rec(path, 3, 'A', 2, 2 * B, B, 4);
	refused(path, "record 3 at byte 160: out of order, with whole "
		      "records after it (record 260)");
}
END_TEST

START_TEST(damaged_record)
{
	ten();
	/* Records whole in themselves, wrong in the journal: refused
	 * wherever they are. */
	put_rec(path, 3, 'X', 2, 2 * B, B, 3);
	refused(path, "record 3 at byte 160: unknown type 0x58");
	put_rec(path, 3, 'A', 0, 2 * B, B, 3);
	refused(path, "record 3 at byte 160: generation 0");
	put_rec(path, 3, 'I', 2, 15 * B, 2 * B, 3);
	refused(path,
		"record 3 at byte 160: range beyond the data file's 65536 "
		"bytes");
	put_rec(path, 3, 'A', 2, 2 * B, B, 3);
	put_rec(path, 9, 'I', 6, 0, B, 9);
	put_rec(path, 8, 'E', 5, 0, 0, 8);
	refused(path, "record 9 after the journal's end");
}
END_TEST

START_TEST(damaged_header)
{
	unsigned char h[JRNL_HEAD];
	int fd;

	ten();
	fd = open(path, O_RDONLY);
	ck_assert_int_eq(read(fd, h, sizeof(h)), 64);
	close(fd);
	h[20] ^= 1;
	patch(path, 0, h, sizeof(h));
	refused(path, "header: bad CRC");
	h[0] = 'X';
	patch(path, 0, h, sizeof(h));
	refused(path, "not a clyde journal");
}
END_TEST

/*
 * A writer that dies without jrnl_close (SIGKILL, or _exit) keeps its
 * records: they went to the page cache with the stores.
 */
static void killed(int sig)
{
	struct jrnl_view v;
	struct jrnl_map *m;
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct jrnl_head h = head_of(1000 * B);
		char why[200];
		struct jrnl *j = jrnl_create(path, &h, why, sizeof(why));

		for (uint32_t g = 1; j && g <= 500; g++)
			if (jrnl_intent(j, g, (g - 1) * B, B) ||
			    jrnl_ack(j, g, (g - 1) * B, B))
				_exit(2);
		if (!j)
			_exit(3);
		if (sig)
			kill(getpid(), sig);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	if (sig)
		ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == sig);
	else
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(size_of(path), 1 << 20);
	read_ok(path, &v);
	ck_assert_uint_eq(v.nrecs, 1000);
	ck_assert_int_eq(v.clean, 0);
	ck_assert_uint_eq(v.last_gen, 500);
	ck_assert_uint_eq(v.recs[999].index, 999);
	ck_assert_int_eq(v.recs[999].type, 'A');
	m = jrnl_map_new(&v);
	ck_assert_ptr_nonnull(m);
	expect_block(m, 0, 1, 0, 0);
	expect_block(m, 499, 500, 0, 0);
	ck_assert_int_eq(jrnl_judge(m, 500, 1, 1), JV_UNWRITTEN);
	jrnl_map_free(m);
	jrnl_view_free(&v);
	ck_assert_int_eq(unlink(path), 0);
}

START_TEST(killed_writer)
{
	killed(SIGKILL);
	killed(0);
}
END_TEST

/*
 * 2^20 blocks (a 4 GiB file) written by 2^16 writes of 16 blocks, the
 * last ten never synced, block 0 rewritten: more records than one chunk
 * holds, a file cut to them on close, and every block judged.
 */
START_TEST(large_map)
{
	enum { W = 1 << 16, PER = 16 };
	struct jrnl *j = create((uint64_t)W * PER * B);
	struct jrnl_tally t = {0};
	struct jrnl_map *m;

	for (uint32_t g = 1; g <= W; g++)
		ck_assert_int_eq(
		    jrnl_intent(j, g, (uint64_t)(g - 1) * PER * B, PER * B), 0);
	ck_assert_int_eq(jrnl_sync_through(j, W - 10), 0);
	wr(j, W + 1, 0, 1);
	ck_assert_int_eq(jrnl_close(j, 1), 0);
	ck_assert_int_eq(size_of(path), 64 + (W + 4) * 32);
	m = map_of(path);
	ck_assert_uint_eq(jrnl_map_blocks(m), 1 << 20);
	expect_block(m, 0, W + 1, 0, 0);
	expect_block(m, 1, 1, 0, 0);
	expect_block(m, (W - 10) * PER - 1, W - 10, 0, 0);
	expect_block(m, (W - 10) * PER, 0, W - 9, W - 9);
	expect_block(m, (1 << 20) - 1, 0, W, W);
	for (uint64_t b = 1; b < 1u << 20; b++)
		jrnl_tally_add(&t, jrnl_judge(m, b, 1, (uint32_t)(b / PER + 1)),
			       b * B);
	ck_assert_uint_eq(t.n[JV_INTACT], (W - 10) * PER - 1);
	ck_assert_uint_eq(t.n[JV_INFLIGHT_NEW], 10 * PER);
	ck_assert_uint_eq(t.first[JV_INFLIGHT_NEW][0],
			  (uint64_t)(W - 10) * PER * B);
	jrnl_map_free(m);
}
END_TEST

START_TEST(tally_and_words)
{
	struct jrnl_tally t = {0};

	for (uint64_t i = 0; i < 10; i++)
		jrnl_tally_add(&t, JV_LOST, i * B);
	jrnl_tally_add(&t, JV_TORN, 77 * B);
	ck_assert_uint_eq(t.n[JV_LOST], 10);
	ck_assert_uint_eq(t.n[JV_TORN], 1);
	ck_assert_uint_eq(t.n[JV_INTACT], 0);
	ck_assert_uint_eq(t.first[JV_LOST][0], 0);
	ck_assert_uint_eq(t.first[JV_LOST][7], 7 * B);
	ck_assert_uint_eq(t.first[JV_TORN][0], 77 * B);
	ck_assert_uint_eq(t.first[JV_TORN][1], 0);
	ck_assert_str_eq(jrnl_verdict_text(JV_LOST),
			 "the storage acknowledged a write it did not keep");
	for (int a = 0; a < JV_COUNT; a++) {
		ck_assert_int_eq(jrnl_verdict_fails(a),
				 a == JV_LOST || a == JV_CORRUPT);
		ck_assert_int_gt(strlen(jrnl_verdict_text(a)), 10);
		for (int b = 0; b < a; b++)
			ck_assert_str_ne(jrnl_verdict_name(a),
					 jrnl_verdict_name(b));
	}
	ck_assert_str_eq(jrnl_verdict_name(JV_INFLIGHT_OLD), "in-flight-old");
	ck_assert_str_eq(jrnl_verdict_name(JV_COUNT), "?");
}
END_TEST

static Suite *journal_suite(void)
{
	Suite *s = suite_create("journal");
	TCase *tc = tcase_create("journal");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, now_and_unclean);
	tcase_add_test(tc, create_refused);
	tcase_add_test(tc, bad_calls);
	tcase_add_test(tc, verdicts);
	tcase_add_test(tc, buffered_sync);
	tcase_add_test(tc, ack_then_flight);
	tcase_add_test(tc, acks_out_of_order);
	tcase_add_test(tc, deep_queue);
	tcase_add_test(tc, truncated);
	tcase_add_test(tc, zero_end);
	tcase_add_test(tc, torn_tail);
	tcase_add_test(tc, damaged_far);
	tcase_add_test(tc, damaged_record);
	tcase_add_test(tc, damaged_header);
	tcase_add_test(tc, killed_writer);
	tcase_add_test(tc, large_map);
	tcase_add_test(tc, tally_and_words);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(journal_suite)
