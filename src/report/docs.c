/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_docs: the documents of clyde-zcav, clyde-sweep and clyde-curve,
 * and clyde's of a journal check (jverify.c), among clyde-report's
 * inputs. Their results are no bonnie++ figures, so they are kept
 * beside the rows, each with its place among them, and not made into
 * rows: txt prints what the program printed for the run, from the same
 * lib/ functions (zcav_print_series; sweep_print_table and
 * sweep_print_csv; curve_print_table, its CSV lines and summary;
 * jverify_print); json writes the document again as the program writes
 * it (common/docbody.c, lib/curve_json.c, common/jverify_doc.c); html,
 * compare and plot refuse zcav, sweep and journal check documents, and
 * draw and compare curve documents given alone (curve.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "curve_json.h"
#include "docbody.h"
#include "json.h"
#include "jsonput.h"
#include "report.h"
#include "sweep_json.h"
#include "zcav_json.h"

#define PROG "clyde-report"

/* The programs whose documents are docs, by kind; a journal check's is
 * clyde's, told by its section. */
static const char *const programs[] = {
    [REPORT_DOC_ZCAV] = "clyde-zcav",
    [REPORT_DOC_SWEEP] = "clyde-sweep",
    [REPORT_DOC_CURVE] = "clyde-curve",
};
#define NPROGRAMS (sizeof(programs) / sizeof(programs[0]))

/* What messages call each kind: "a clyde-zcav document". */
static const char *const kinds[] = {
    [REPORT_DOC_ZCAV] = "clyde-zcav",
    [REPORT_DOC_SWEEP] = "clyde-sweep",
    [REPORT_DOC_CURVE] = "clyde-curve",
    [REPORT_DOC_JVERIFY] = "clyde journal check",
};

/* The kind of document look by its "program" (and a clyde document's
 * "journal_verify"), or -1 for any other. */
static int kind_of(json_t *look)
{
	const char *p = json_string_value(json_object_get(look, "program"));

	for (int k = 0; p && k < (int)NPROGRAMS; k++)
		if (!strcmp(p, programs[k]))
			return k;
	if (p && !strcmp(p, "clyde") && json_object_get(look, "journal_verify"))
		return REPORT_DOC_JVERIFY;
	return -1;
}

/* The document's kind, and then the document in *doc; or -1 (*doc
 * NULL) for any other. The look is a thin one (json_load_thin): a clyde
 * result's intervals, most of a large one, cost no tree here. */
static int doc_kind(const char *buf, size_t len, json_t **doc)
{
	json_t *look = json_load_thin(buf, len);
	int k = kind_of(look);

	json_decref(look);
	*doc = k < 0 ? NULL : json_loadb(buf, len, 0, NULL);
	return *doc ? k : -1;
}

/* zcav's loops line names the writer's version: a short word. */
static int doc_version(const json_t *doc, char *out, size_t len, char *why,
		       size_t whylen)
{
	const json_t *v = json_object_get(doc, "version");
	const char *s = json_string_value(v);
	size_t n = s ? strlen(s) : 0;
	int ok = n > 0 && n < len && json_string_length(v) == n;
	char show[64];

	for (size_t i = 0; ok && i < n; i++)
		ok = s[i] > ' ' && s[i] <= '~';
	if (ok) {
		memcpy(out, s, n + 1);
		return 0;
	}
	json_value_shown(v, show, sizeof(show));
	snprintf(why, whylen,
		 "version %s is not a version: expected a string of 1 to %zu "
		 "printable characters",
		 show, len - 1);
	return -1;
}

/* buf read into d by its kind's reader: 0, or -1 with why said. */
static int doc_read(struct report_doc *d, const json_t *doc, const char *buf,
		    size_t len, char *why, size_t whylen)
{
	json_t *again;

	if (d->kind == REPORT_DOC_JVERIFY)
		return report_jverify_read(d, buf, len, why, whylen);
	if (d->kind == REPORT_DOC_ZCAV)
		return zcav_json_read(buf, len, &d->zcav, why, whylen) ||
		       doc_version(doc, d->version, sizeof(d->version), why,
				   whylen);
	if (d->kind == REPORT_DOC_CURVE) {
		if (!(d->curve = malloc(sizeof(*d->curve)))) {
			snprintf(why, whylen, "%s", strerror(ENOMEM));
			return -1;
		}
		again = curve_json_read(buf, len, d->curve, why, whylen);
		json_decref(again);
		return again ? 0 : -1;
	}
	d->sweep = malloc(sizeof(*d->sweep));
	if (!d->sweep) {
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return -1;
	}
	return sweep_json_read(buf, len, d->sweep, why, whylen);
}

static void doc_free(struct report_doc *d)
{
	zcav_result_free(&d->zcav);
	free(d->sweep);
	if (d->curve)
		curve_result_free(d->curve);
	free(d->curve);
	report_jverify_free(d);
	json_decref(d->doc);
	memset(d, 0, sizeof(*d));
}

int report_load_doc(struct report_set *set, const char *name, const char *buf,
		    size_t len, int skip_bad, FILE *err)
{
	struct report_doc *d;
	json_t *doc;
	int kind = doc_kind(buf, len, &doc);
	char why[400];

	if (kind < 0)
		return 1;
	if (set->ndocs == set->docs_cap) {
		size_t cap = set->docs_cap ? 2 * set->docs_cap : 4;

		d = realloc(set->docs, cap * sizeof(*d));
		if (!d) {
			json_decref(doc);
			error_on(err, "%s: out of memory", name);
			return -1;
		}
		set->docs = d;
		set->docs_cap = cap;
	}
	d = &set->docs[set->ndocs];
	memset(d, 0, sizeof(*d));
	d->kind = (enum report_doc_kind)kind;
	d->file = name;
	d->at = set->n;
	d->doc = doc;
	if (doc_read(d, doc, buf, len, why, sizeof(why))) {
		doc_free(d);
		error_on(err, "%s%s: %s", skip_bad ? "warning: " : "", name,
			 why);
		return skip_bad ? 0 : -1;
	}
	if (!set->keep_json) {
		json_decref(d->doc);
		d->doc = NULL;
	}
	set->ndocs++;
	return 0;
}

void report_docs_free(struct report_set *set)
{
	for (size_t i = 0; i < set->ndocs; i++)
		doc_free(&set->docs[i]);
	free(set->docs);
	set->docs = NULL;
	set->ndocs = set->docs_cap = 0;
}

void report_doc_txt(FILE *out, const struct report_doc *d)
{
	const struct zcav_result *z = &d->zcav;
	char version[sizeof(d->version) + 8];

	if (d->kind == REPORT_DOC_JVERIFY) {
		report_jverify_txt(out, d);
		return;
	}
	if (d->kind == REPORT_DOC_SWEEP) {
		sweep_print_table(out, d->sweep);
		sweep_print_csv(out, d->sweep);
		return;
	}
	if (d->kind == REPORT_DOC_CURVE) {
		const struct curve_result *r = d->curve;

		for (unsigned i = 0; i < r->n; i++)
			curve_print_table(out, r, &r->curves[i]);
		curve_csv_header(out);
		for (unsigned i = 0; i < r->n; i++)
			curve_csv_lines(out, r, i, &r->curves[i]);
		if (r->n > 1)
			curve_print_summary(out, r);
		return;
	}
	snprintf(version, sizeof(version), "clyde-%s", d->version);
	for (unsigned i = 0; i < z->ntargets; i++)
		zcav_print_series(out, &z->target[i], z->write, z->skip,
				  version);
}

/* Whether key holds what a document of d's kind is written again from
 * its result (or converted_by, which is put anew). */
static int made_again(const struct report_doc *d, const char *key)
{
	static const char *const made[][3] = {
	    [REPORT_DOC_ZCAV] = {"targets", "title", "stages"},
	    [REPORT_DOC_SWEEP] = {"targets", "title", "stages"},
	    [REPORT_DOC_CURVE] = {"complete", "curves", "summary"},
	    [REPORT_DOC_JVERIFY] = {"journal_verify"},
	};

	if (!strcmp(key, "converted_by"))
		return 1;
	for (int i = 0; i < 3; i++)
		if (made[d->kind][i] && !strcmp(key, made[d->kind][i]))
			return 1;
	return 0;
}

/*
 * The document again: the keys of the one read but its measurements, in
 * their order, converted_by after version, then the measurements made
 * from the result. NULL without memory.
 */
static json_t *doc_again(const struct report_doc *d)
{
	json_t *out = json_object(), *v;
	const char *key;
	int bad = !out, named = 0;

	json_object_foreach(d->doc, key, v)
	{
		if (made_again(d, key))
			continue;
		/* A curve's settings get its own again: a copy, so the
		 * document read stays as it was. */
		jp_put(out, key,
		       d->kind == REPORT_DOC_CURVE && !strcmp(key, "settings")
			   ? json_deep_copy(v)
			   : json_incref(v),
		       &bad);
		if (!strcmp(key, "version") && !named++)
			jp_put(out, "converted_by",
			       json_string(PROG " " PACKAGE_VERSION), &bad);
	}
	if (!named)
		jp_put(out, "converted_by",
		       json_string(PROG " " PACKAGE_VERSION), &bad);
	if (d->kind == REPORT_DOC_ZCAV)
		docbody_zcav(out, &d->zcav, &bad);
	else if (d->kind == REPORT_DOC_SWEEP)
		docbody_sweep(out, d->sweep, &bad);
	else if (d->kind == REPORT_DOC_JVERIFY)
		report_jverify_put(out, d, &bad);
	else if (!bad && curve_json_put(out, d->curve))
		bad = 1;
	if (bad) {
		json_decref(out);
		return NULL;
	}
	return out;
}

int report_docs_json(FILE *out, const struct report_set *set, FILE *err)
{
	const struct report_doc *d = &set->docs[0];
	json_t *doc;
	int rc;

	if (set->ndocs > 1 || set->n) {
		error_on(err,
			 "%s: a %s document beside other inputs: json "
			 "writes one document of one program; give it alone",
			 d->file, kinds[d->kind]);
		return CLI_EXIT_USAGE;
	}
	doc = doc_again(d);
	if (!doc) {
		error_on(err, "json: out of memory");
		return CLI_EXIT_FAILED;
	}
	/* As each program writes its reals. */
	rc =
	    jp_write(doc, out,
		     d->kind == REPORT_DOC_CURVE ? JSON_REAL_PRECISION(10) : 0);
	json_decref(doc);
	if (rc)
		return report_json_failed(out, errno, err);
	return 0;
}

int report_docs_refuse(const struct report_set *set, const char *cmd, FILE *err)
{
	const struct report_doc *d = &set->docs[0];

	error_on(err,
		 "%s: a %s document; %s reads clyde and bonnie++ results "
		 "(txt and json read this one)",
		 d->file, kinds[d->kind], cmd);
	return CLI_EXIT_USAGE;
}
