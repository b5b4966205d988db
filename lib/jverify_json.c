/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jverify_json: see jverify_json.h. The verdict is derived from the
 * counts, so it is read only to be checked against them: a document
 * whose verdict and counts disagree was edited or is broken, and either
 * way cannot be shown as one.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jdoc.h"
#include "json.h"
#include "jverify_json.h"

#define AT	   "journal_verify"
#define PATH_BYTES 4096
#define MAX_SIZE   (1ULL << 62)
#define NOT_A_COUNT                                                            \
	"a count of blocks: expected a whole number from 0 to the "            \
	"file's blocks (file_size / 4096)"

/* "at value is not what"; -1. */
static int refuse(char *why, size_t len, const char *at, const json_t *v,
		  const char *what)
{
	char show[64];

	json_value_shown(v, show, sizeof(show));
	snprintf(why, len, "%s %s is not %s", at, show, what);
	return -1;
}

/* A seed: a string of 1 to 20 decimal digits, no leading zero, at most
 * 2^64 - 1 (jverify_doc.c says why a string). */
static int read_seed(const json_t *sec, const char *key, uint64_t *out,
		     char *why, size_t len)
{
	const json_t *v = json_object_get(sec, key);
	const char *s = json_string_value(v);
	size_t n = s ? strlen(s) : 0;
	char at[64], *end;
	int ok = n >= 1 && n <= 20 && json_string_length(v) == n &&
		 (n == 1 || s[0] != '0');

	for (size_t i = 0; ok && i < n; i++)
		ok = s[i] >= '0' && s[i] <= '9';
	if (ok) {
		errno = 0;
		*out = strtoull(s, &end, 10);
		if (errno == 0 && *end == '\0')
			return 0;
	}
	snprintf(at, sizeof(at), AT ".%s", key);
	return refuse(why, len, at, v,
		      "a seed: expected a string of decimal digits, 0 to "
		      "18446744073709551615");
}

/* counts.NAME for every verdict, adding up to the file's blocks. */
static int read_counts(const json_t *sec, struct jverify *r, char *why,
		       size_t len)
{
	const json_t *c = json_object_get(sec, "counts");
	uint64_t blocks = r->file_size / JRNL_BLOCK, sum = 0;

	if (!json_is_object(c))
		return refuse(why, len, AT ".counts", c,
			      "the counts: expected an object");
	for (int v = 0; v < JV_COUNT; v++) {
		if (jdoc_u64(c, AT ".counts", jrnl_verdict_name(v), 0, blocks,
			     NOT_A_COUNT, &r->tally.n[v], why, len))
			return -1;
		sum += r->tally.n[v];
	}
	if (sum == blocks)
		return 0;
	snprintf(why, len,
		 AT ".counts add up to %" PRIu64 " blocks: expected the "
		    "file's %" PRIu64 " (file_size / 4096)",
		 sum, blocks);
	return -1;
}

/* first_offsets.NAME of verdict v: its first min(count, 8) blocks'
 * offsets, rising, each a block of the file. */
static int read_first(const json_t *f, struct jverify *r, int v, char *why,
		      size_t len)
{
	const char *name = jrnl_verdict_name(v);
	uint64_t want =
	    r->tally.n[v] < JRNL_TALLY_FIRST ? r->tally.n[v] : JRNL_TALLY_FIRST;
	const json_t *a = jdoc_array(f, AT ".first_offsets", name,
				     JRNL_TALLY_FIRST, why, len);
	char at[96];

	if (!a)
		return -1;
	if (json_array_size(a) != want) {
		snprintf(why, len,
			 AT ".first_offsets.%s holds %zu offsets: expected "
			    "%" PRIu64 " (its count, at most 8)",
			 name, json_array_size(a), want);
		return -1;
	}
	for (size_t i = 0; i < want; i++) {
		const json_t *e = json_array_get(a, i);
		json_int_t o = json_integer_value(e);

		if (!json_is_integer(e) || o < 0 || o % JRNL_BLOCK ||
		    (uint64_t)o + JRNL_BLOCK > r->file_size ||
		    (i && (uint64_t)o <= r->tally.first[v][i - 1])) {
			snprintf(at, sizeof(at), AT ".first_offsets.%s[%zu]",
				 name, i);
			return refuse(why, len, at, e,
				      "an offset: expected a block's (a "
				      "multiple of 4096) inside the file, "
				      "above the one before");
		}
		r->tally.first[v][i] = (uint64_t)o;
	}
	return 0;
}

/* The verdict, which must be the counts'. */
static int read_verdict(const json_t *sec, const struct jverify *r, char *why,
			size_t len)
{
	static const char *const verdicts[] = {"pass", "fail"};
	int v = jdoc_name(sec, AT, "verdict", verdicts, 2, why, len);

	if (v < 0)
		return -1;
	if (v == (jverify_failed(r) > 0))
		return 0;
	snprintf(why, len,
		 AT ".verdict \"%s\" is not its counts' verdict, \"%s\" "
		    "(%" PRIu64 " lost, %" PRIu64 " corrupt)",
		 verdicts[v], verdicts[!v], r->tally.n[JV_LOST],
		 r->tally.n[JV_CORRUPT]);
	return -1;
}

/* data_size: the data file's bytes, at most file_size; file_size in a
 * document from before it was written. */
static int data_size(const json_t *sec, struct jverify *r, char *why,
		     size_t len)
{
	if (!json_object_get(sec, "data_size")) {
		r->data_size = r->file_size;
		return 0;
	}
	return jdoc_u64(sec, AT, "data_size", 0, r->file_size,
			"a size: expected a whole number of bytes from 0 to "
			"file_size",
			&r->data_size, why, len);
}

static int read_section(const json_t *sec, struct jverify *r, char *why,
			size_t len)
{
	const json_t *f;

	if (!json_is_object(sec))
		return refuse(why, len, AT, sec,
			      "a journal check: expected an object");
	if (jdoc_path(sec, AT, "data", PATH_BYTES, &r->data, why, len) ||
	    jdoc_path(sec, AT, "journal", PATH_BYTES, &r->journal, why, len) ||
	    read_seed(sec, "run_seed", &r->run_seed, why, len) ||
	    read_seed(sec, "content_seed", &r->content_seed, why, len) ||
	    jdoc_u64(sec, AT, "file_size", 0, MAX_SIZE,
		     "a size: expected a whole number of bytes from 0 to 2^62",
		     &r->file_size, why, len) ||
	    data_size(sec, r, why, len) ||
	    jdoc_bool(sec, AT, "journal_clean", &r->clean, why, len) ||
	    jdoc_u64(sec, AT, "journal_torn", 0, MAX_SIZE,
		     "records: expected a whole number from 0 to 2^62",
		     &r->torn, why, len) ||
	    read_counts(sec, r, why, len))
		return -1;
	f = json_object_get(sec, "first_offsets");
	if (!json_is_object(f))
		return refuse(why, len, AT ".first_offsets", f,
			      "the first offsets: expected an object");
	for (int v = 0; v < JV_COUNT; v++)
		if (read_first(f, r, v, why, len))
			return -1;
	return read_verdict(sec, r, why, len);
}

int jverify_json_read(const char *buf, size_t len, struct jverify *r, char *why,
		      size_t whylen)
{
	json_t *doc = jdoc_load(buf, len, "clyde", why, whylen);
	int rc;

	memset(r, 0, sizeof(*r));
	if (!doc)
		return -1;
	rc = read_section(json_object_get(doc, AT), r, why, whylen);
	json_decref(doc);
	if (rc)
		jverify_free(r);
	return rc;
}
