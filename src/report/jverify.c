/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_jverify: the document of a journal check (clyde --verify-only
 * --journal --json; doc/clyde-json.5) among clyde-report's inputs: read
 * strictly by lib's reader, printed by txt with lib's printer (the
 * report clyde printed, paths escaped as clyde shows them), and written
 * again by json with the writer clyde's document was made by.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "jverify_doc.h"
#include "jverify_json.h"
#include "report.h"
#include "text.h"

int report_jverify_read(struct report_doc *d, const char *buf, size_t len,
			char *why, size_t whylen)
{
	if (!(d->jverify = calloc(1, sizeof(*d->jverify)))) {
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return -1;
	}
	return jverify_json_read(buf, len, d->jverify, why, whylen);
}

void report_jverify_txt(FILE *out, const struct report_doc *d)
{
	static char data[PATH_MAX * 4 + 1], journal[PATH_MAX * 4 + 1];
	const struct jverify *r = d->jverify;

	jverify_print(out, r, text_shown(r->data, data, sizeof(data)),
		      text_shown(r->journal, journal, sizeof(journal)));
}

void report_jverify_put(json_t *doc, const struct report_doc *d, int *bad)
{
	jverify_doc_put(doc, d->jverify, bad);
}

void report_jverify_free(struct report_doc *d)
{
	if (d->jverify)
		jverify_free(d->jverify);
	free(d->jverify);
	d->jverify = NULL;
}
