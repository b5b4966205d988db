/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_docs: the clyde-zcav and clyde-sweep JSON documents round trip
 * (written from a result, read back, equal field by field, a path that
 * is not UTF-8 included; their targets and stages written again from
 * what was read are the ones written), and the readers refuse a bad
 * value in one line naming its key, a document of another program or
 * schema version. */
#include "config.h"

#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "docbody.h"
#include "sweep_json.h"
#include "sweep_prog.h"
#include "sweep_result.h"
#include "units.h"
#include "zcav_json.h"
#include "zcav_opts.h"
#include "zcav_result.h"
#include "check_main.h"

/* zcav_prog.h and sweep_prog.h both define PROG: one at a time. */
json_t *zcav_json_doc(const struct zcav_opts *o, const struct zcav_result *r,
		      time_t start);

static char *dump(json_t *doc)
{
	char *s;

	ck_assert_ptr_nonnull(doc);
	s = json_dumps(doc, JSON_INDENT(1));
	json_decref(doc);
	ck_assert_ptr_nonnull(s);
	return s;
}

/* A two-target zcav result: a file over two passes, a pipe named in
 * bytes that are not UTF-8. */
static void zcav_make(struct zcav_result *r, struct zcav_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->block = 8 * UNITS_MIB;
	o->chunk = UNITS_MIB;
	o->loops = 2;
	o->skip = 1;
	o->direct = -1;
	memset(r, 0, sizeof(*r));
	r->chunk = o->chunk;
	r->skip = 1;
	r->ntargets = 2;
	r->target = calloc(2, sizeof(*r->target));
	ck_assert_int_eq(
	    zcav_series_init(&r->target[0], "/tmp/f 40", 2, o->block), 0);
	ck_assert_int_eq(
	    zcav_series_init(&r->target[1], "pipe-\xff\xfe", 2, o->block), 0);
	r->target[0].kind = ZCAV_FILE;
	r->target[0].end = 20 * UNITS_MIB;
	r->target[0].size = 20 * UNITS_MIB;
	strcpy(r->target[0].model, "ATA Disk 9");
	r->target[1].kind = ZCAV_PIPE;
	for (unsigned t = 0; t < 2; t++) {
		struct zcav_series *s = &r->target[t];

		for (unsigned k = 0; k < 3; k++) {
			ck_assert_int_eq(
			    zcav_series_add(s, k * o->block,
					    k == 2 ? 4 * UNITS_MIB : o->block),
			    0);
			s->secs[k * 2] = 0.1 * (k + 1) + t / 3.0;
			s->secs[k * 2 + 1] = 0.7 / (k + 1);
		}
		s->done = 2;
		s->pass_bytes[0] = s->pass_bytes[1] = 20 * UNITS_MIB;
		s->pass_secs[0] = 1.0 / 3.0;
		s->pass_secs[1] = 2.5;
	}
}

START_TEST(zcav_round_trip)
{
	struct zcav_result a, b;
	struct zcav_opts o;
	char why[256] = "";
	char *s;

	zcav_make(&a, &o);
	s = dump(zcav_json_doc(&o, &a, 0));
	ck_assert_msg(zcav_json_read(s, strlen(s), &b, why, sizeof(why)) == 0,
		      "%s", why);
	ck_assert_int_eq(b.write, a.write);
	ck_assert_uint_eq(b.chunk, a.chunk);
	ck_assert_uint_eq(b.skip, a.skip);
	ck_assert_uint_eq(b.ntargets, a.ntargets);
	/* The start the document was written with, as the chart shows it. */
	ck_assert_str_eq(b.start_time, "1970-01-01T00:00:00Z");
	for (unsigned t = 0; t < a.ntargets; t++) {
		const struct zcav_series *x = &a.target[t], *y = &b.target[t];

		ck_assert_str_eq(y->name, x->name);
		ck_assert_int_eq(y->kind, x->kind);
		ck_assert_int_eq(y->direct, x->direct);
		ck_assert_uint_eq(y->block, x->block);
		ck_assert_uint_eq(y->passes, x->passes);
		ck_assert_uint_eq(y->done, x->done);
		ck_assert_uint_eq(y->start, x->start);
		ck_assert_uint_eq(y->end, x->end);
		ck_assert_str_eq(y->model, x->model);
		ck_assert_uint_eq(y->size, x->size);
		ck_assert_uint_eq(y->nblocks, x->nblocks);
		for (uint64_t k = 0; k < x->nblocks; k++) {
			ck_assert_uint_eq(y->offset[k], x->offset[k]);
			ck_assert_uint_eq(y->bytes[k], x->bytes[k]);
			for (unsigned p = 0; p < x->passes; p++)
				ck_assert(y->secs[k * 2 + p] ==
					  x->secs[k * 2 + p]);
		}
		for (unsigned p = 0; p < x->done; p++) {
			ck_assert_uint_eq(y->pass_bytes[p], x->pass_bytes[p]);
			ck_assert(y->pass_secs[p] == x->pass_secs[p]);
		}
	}
	free(s);
	zcav_result_free(&a);
	zcav_result_free(&b);
}
END_TEST

/* The document of a, with edit applied to its text, read: why. */
static void zcav_refused(const char *from, const char *to, const char *want)
{
	struct zcav_result a, b;
	struct zcav_opts o;
	char why[256] = "", *s, *at, *t;

	zcav_make(&a, &o);
	s = dump(zcav_json_doc(&o, &a, 0));
	at = strstr(s, from);
	ck_assert_msg(at != NULL, "%s not in the document", from);
	t = malloc(strlen(s) + strlen(to) + 1);
	sprintf(t, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	ck_assert_int_eq(zcav_json_read(t, strlen(t), &b, why, sizeof(why)),
			 -1);
	ck_assert_msg(strstr(why, want) != NULL, "why: %s", why);
	ck_assert_uint_eq(b.ntargets, 0);
	free(s);
	free(t);
	zcav_result_free(&a);
}

START_TEST(zcav_strict)
{
	zcav_refused("\"clyde-zcav\"", "\"clyde\"", "program \"clyde\"");
	zcav_refused("\"schema_version\": 1", "\"schema_version\": 2",
		     "schema_version 2");
	zcav_refused("\"passes\": 2,\n   \"start\"",
		     "\"passes\": 0,\n   \"start\"",
		     "targets[0].passes 0 is not a count of passes");
	zcav_refused("\"kind\": \"pipe\"", "\"kind\": \"tape\"",
		     "targets[1].kind \"tape\" is not one of device, file");
	zcav_refused("\"offset\": 0", "\"offset\": -1",
		     "targets[0].blocks[0].offset -1 is not an offset");
	zcav_refused("\"name_bytes\": \"", "\"name_bytes\": \"zz",
		     "targets[1].name_bytes");
	zcav_refused("\"operation\": \"read\"", "\"operation\": 1",
		     "settings.operation 1 is not one of read, write");
	zcav_refused("\"size_bytes\": 20971520", "\"size_bytes\": 0",
		     "targets[0].size_bytes 0 is not a size");
	zcav_refused("\"model\": \"ATA Disk 9\"", "\"model\": 9",
		     "targets[0].model 9 is not a name");
	zcav_refused("\"model\": \"ATA Disk 9\"", "\"model\": \"a\\nb\"",
		     "targets[0].model");
	zcav_refused("\"start_time\": \"1970-01-01T00:00:00Z\"",
		     "\"start_time\": \"yesterday\"",
		     "start_time \"yesterday\" is not a time");
}
END_TEST

static void sweep_make(struct sweep_result *r);

/* A document written before model, size_bytes (and start_time) were
 * kept still reads, each as unknown. */
START_TEST(older_documents)
{
	struct zcav_result a, b;
	struct zcav_opts o;
	static struct sweep_result sa, sb;
	struct sweep_opts so;
	char why[256] = "", *s;
	json_t *doc;

	zcav_make(&a, &o);
	doc = zcav_json_doc(&o, &a, 0);
	ck_assert_ptr_nonnull(doc);
	json_object_del(doc, "start_time");
	for (size_t i = 0; i < json_array_size(json_object_get(doc, "targets"));
	     i++) {
		json_t *t = json_array_get(json_object_get(doc, "targets"), i);

		json_object_del(t, "model");
		json_object_del(t, "size_bytes");
	}
	s = dump(doc);
	ck_assert_msg(zcav_json_read(s, strlen(s), &b, why, sizeof(why)) == 0,
		      "%s", why);
	ck_assert_str_eq(b.start_time, "");
	ck_assert_str_eq(b.target[0].model, "");
	ck_assert_uint_eq(b.target[0].size, 0);
	free(s);
	zcav_result_free(&a);
	zcav_result_free(&b);

	memset(&so, 0, sizeof(so));
	sweep_make(&sa);
	doc = sweep_json_doc(&so, &sa, 0);
	ck_assert_ptr_nonnull(doc);
	json_object_del(doc, "model");
	json_object_del(doc, "size_bytes");
	s = dump(doc);
	ck_assert_msg(sweep_json_read(s, strlen(s), &sb, why, sizeof(why)) == 0,
		      "%s", why);
	ck_assert_str_eq(sb.model, "");
	ck_assert_uint_eq(sb.dev_size, 0);
	free(s);
}
END_TEST

static void sweep_make(struct sweep_result *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->what, sizeof(r->what), "clyde-sweep x: /d\xe9 (ext4)");
	snprintf(r->target, sizeof(r->target), "/d\xe9");
	r->size = 256 * UNITS_MIB;
	strcpy(r->model, "NVMe Array 3");
	r->dev_size = 64 * UNITS_GIB;
	/* The start sweep_json_doc is given below (0), as the program
	 * keeps it. */
	strcpy(r->start_time, "1970-01-01T00:00:00Z");
	r->nbs = 2;
	r->bs[0] = 4096;
	r->bs[1] = UNITS_MIB;
	r->nstages = 2;
	strcpy(r->stage[0].label, "raw device");
	strcpy(r->stage[0].fs, "raw");
	strcpy(r->stage[0].target, "/dev/loop7");
	strcpy(r->stage[1].label, "ext4");
	strcpy(r->stage[1].fs, "ext4");
	strcpy(r->stage[1].target, "/dev/loop7");
	for (int s = 0; s < 2; s++)
		for (int m = 0; m < SWEEP_MODES; m++)
			for (int b = 0; b < 2; b++)
				for (int o = 0; o < SWEEP_OPS; o++) {
					struct sweep_cell *c =
					    &r->stage[s].cell[m][b][o];

					c->done = 1;
					c->bytes = r->size;
					c->seconds = 5.0 / 3.0 + s + b;
					c->cpu = 0.6 + o;
				}
	r->stage[1].cell[SWEEP_DIRECT][1][SWEEP_WRITE].done = 0;
	memset(&r->stage[1].cell[SWEEP_DIRECT][1][SWEEP_WRITE], 0,
	       sizeof(struct sweep_cell));
}

START_TEST(sweep_round_trip)
{
	static struct sweep_result a, b;
	struct sweep_opts o;
	char why[256] = "", *s;

	memset(&o, 0, sizeof(o));
	sweep_make(&a);
	s = dump(sweep_json_doc(&o, &a, 0));
	ck_assert_msg(sweep_json_read(s, strlen(s), &b, why, sizeof(why)) == 0,
		      "%s", why);
	ck_assert_str_eq(b.what, "clyde-sweep x: /d\\xe9 (ext4)");
	/* The title is text, escaped; the rest exact. */
	memcpy(b.what, a.what, sizeof(a.what));
	ck_assert(memcmp(&a, &b, sizeof(a)) == 0);
	free(s);
	/* A cell of a block size the settings do not list. */
	s = dump(sweep_json_doc(&o, &a, 0));
	strstr(s, "\"block_size\": 4096")[17] = '7';
	ck_assert_int_eq(sweep_json_read(s, strlen(s), &b, why, sizeof(why)),
			 -1);
	ck_assert_msg(strstr(why, "stages[0].cells[0].block_size") != NULL,
		      "why: %s", why);
	free(s);
}
END_TEST

/* key of a and b is one JSON value. */
static void same_key(json_t *a, json_t *b, const char *key)
{
	char *x = json_dumps(json_object_get(a, key), JSON_ENCODE_ANY);
	char *y = json_dumps(json_object_get(b, key), JSON_ENCODE_ANY);

	ck_assert_ptr_nonnull(x);
	ck_assert_ptr_nonnull(y);
	ck_assert_str_eq(y, x);
	free(x);
	free(y);
}

/*
 * The text of doc read back into *r by read, and its body made again
 * from *r by body into again, whole.
 */
#define MADE_AGAIN(doc, read, r, body, again)                                  \
	do {                                                                   \
		char why_[256] = "", *s_ = dump(json_incref(doc));             \
		int bad_ = 0,                                                  \
		    rc_ = read(s_, strlen(s_), r, why_, sizeof(why_));         \
                                                                               \
		ck_assert_msg(rc_ == 0, "%s", why_);                           \
		body(again, r, &bad_);                                         \
		ck_assert_int_eq(bad_, 0);                                     \
		free(s_);                                                      \
	} while (0)

/*
 * What clyde-report json writes of a document it read: the targets and
 * stages made again from the result read back are the ones written,
 * every digit and the _bytes key of a name that is not UTF-8 included.
 */
START_TEST(body_again)
{
	static struct sweep_result sa, sb;
	struct zcav_result a, b;
	struct zcav_opts o;
	struct sweep_opts so;
	json_t *doc, *again = json_object();

	zcav_make(&a, &o);
	doc = zcav_json_doc(&o, &a, 0);
	MADE_AGAIN(doc, zcav_json_read, &b, docbody_zcav, again);
	same_key(doc, again, "targets");
	ck_assert_ptr_nonnull(json_object_get(
	    json_array_get(json_object_get(again, "targets"), 1),
	    "name_bytes"));
	json_decref(doc);
	zcav_result_free(&a);
	zcav_result_free(&b);
	memset(&so, 0, sizeof(so));
	sweep_make(&sa);
	doc = sweep_json_doc(&so, &sa, 0);
	MADE_AGAIN(doc, sweep_json_read, &sb, docbody_sweep, again);
	same_key(doc, again, "title");
	same_key(doc, again, "stages");
	json_decref(doc);
	json_decref(again);
}
END_TEST

static Suite *docs_suite(void)
{
	Suite *s = suite_create("docs");
	TCase *tc = tcase_create("docs");

	tcase_add_test(tc, zcav_round_trip);
	tcase_add_test(tc, zcav_strict);
	tcase_add_test(tc, sweep_round_trip);
	tcase_add_test(tc, older_documents);
	tcase_add_test(tc, body_again);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(docs_suite)
