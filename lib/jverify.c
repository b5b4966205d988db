/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jverify: see jverify.h. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "jverify.h"

/* Said to whoever answers for the storage, not to clyde's authors: the
 * two that fail in capitals, so they stand out of a long report. */
static const char *const words[JV_COUNT] = {
    [JV_INTACT] = "acknowledged, intact",
    [JV_LOST] = "ACKNOWLEDGED BUT LOST: the storage acknowledged a write "
		"it did not keep",
    [JV_INFLIGHT_OLD] = "in flight at the cut: old content (allowed)",
    [JV_INFLIGHT_NEW] = "in flight at the cut: new content (allowed)",
    [JV_TORN] = "torn, inside a write in flight (allowed)",
    [JV_CORRUPT] = "CORRUPT outside any write in flight",
    [JV_UNWRITTEN] = "never written by the run",
};

const char *jverify_words(enum jrnl_verdict v)
{
	return (unsigned)v < JV_COUNT ? words[v] : "?";
}

uint64_t jverify_failed(const struct jverify *r)
{
	uint64_t n = 0;

	for (int v = 0; v < JV_COUNT; v++)
		if (jrnl_verdict_fails((enum jrnl_verdict)v))
			n += r->tally.n[v];
	return n;
}

/* "; at offset 8192" or "; at offsets 8192, 12288" (the first few). */
static void print_offsets(FILE *out, const struct jrnl_tally *t,
			  enum jrnl_verdict v)
{
	uint64_t k = t->n[v] < JRNL_TALLY_FIRST ? t->n[v] : JRNL_TALLY_FIRST;

	fprintf(out, "; at offset%s", t->n[v] > 1 ? "s" : "");
	for (uint64_t i = 0; i < k; i++)
		fprintf(out, "%s %" PRIu64, i ? "," : "", t->first[v][i]);
	if (t->n[v] > k)
		fprintf(out, " (the first %" PRIu64 ")", k);
}

void jverify_print(FILE *out, const struct jverify *r, const char *data,
		   const char *journal)
{
	const struct jrnl_tally *t = &r->tally;

	char torn[96] = "", cut[160] = "";

	if (r->torn)
		snprintf(torn, sizeof(torn),
			 ", its last %" PRIu64 " records torn by the cut and "
			 "dropped",
			 r->torn);
	if (r->data_size < r->file_size)
		snprintf(cut, sizeof(cut),
			 "; the data file %" PRIu64
			 " bytes of them, cut while it was made: the blocks "
			 "past its end judged as missing",
			 r->data_size);
	fprintf(out,
		"'%s' against journal '%s' (%s%s): %" PRIu64
		" blocks of 4 KiB%s, run seed %" PRIu64
		", content seed %" PRIu64 "\n",
		data, journal,
		r->clean ? "the journal ended cleanly"
			 : "the journal was cut before its end",
		torn, r->file_size / JRNL_BLOCK, cut, r->run_seed,
		r->content_seed);
	for (int i = 0; i < JV_COUNT; i++) {
		enum jrnl_verdict v = (enum jrnl_verdict)i;

		if (!t->n[v])
			continue;
		fprintf(out, "%12" PRIu64 "  %s", t->n[v], jverify_words(v));
		/* Where to look: what failed, and what a cut tore. */
		if (jrnl_verdict_fails(v) || v == JV_TORN)
			print_offsets(out, t, v);
		fputc('\n', out);
	}
	if (!jverify_failed(r))
		fprintf(out, "verdict: PASS\n");
	else
		fprintf(out,
			"verdict: FAIL (%" PRIu64
			" acknowledged blocks lost, %" PRIu64 " corrupt)\n",
			t->n[JV_LOST], t->n[JV_CORRUPT]);
}

void jverify_free(struct jverify *r)
{
	free(r->data);
	free(r->journal);
	memset(r, 0, sizeof(*r));
}
