/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html_cmp: the page's parts for two sides or more. The comparison:
 * each side against the first (the baseline, as clyde-report compare
 * takes it), every figure with compare's numbers and verdict
 * (report_fig_of: mean +- the 95% CI's half-width, change, p, and
 * report_judge's word), and compare's note when the two sides' per-char
 * figures differ in meaning. The verdicts are words first; a better
 * one (faster, less CPU) is shaded light blue and a worse one light
 * orange, which colour-blind readers tell apart.
 *
 * Then the settings that differ: what a clyde JSON document records of
 * its run (host, kernel, program version, target, every key of
 * settings but the name and seeds), compared between the sides from
 * documents; a side of CSV lines shows "(CSV: not recorded)". Nothing
 * when they agree or no side is from a document; a line saying so when
 * only one side is, as there is nothing to compare it with.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

/* "134641 +- 8331" with HTML's plus-minus sign. */
static void value(FILE *out, const char *s)
{
	const char *pm = strstr(s, " +- ");
	char head[64];

	if (!pm) {
		html_esc(out, s);
		return;
	}
	snprintf(head, sizeof(head), "%.*s", (int)(pm - s), s);
	html_esc(out, head);
	fputs(" ±", out);
	html_esc(out, pm + 4);
}

/* The class of a verdict's cell: better, worse or none. */
static const char *verdict_class(const char *word)
{
	if (!strcmp(word, "faster") || !strcmp(word, "less CPU"))
		return " class=\"better\"";
	if (!strcmp(word, "slower") || !strcmp(word, "more CPU"))
		return " class=\"worse\"";
	return "";
}

static void fig_row(FILE *out, const struct report_fig *f)
{
	char name[40], va[64], vb[64], p[16];

	report_fig_name(name, sizeof(name), f->t, f->k);
	report_fig_value(va, sizeof(va), &f->sa, f->fa, f->t, f->k);
	report_fig_value(vb, sizeof(vb), &f->sb, f->fb, f->t, f->k);
	report_fig_p(p, sizeof(p), &f->v);
	fputs("<tr><td class=\"label\">", out);
	html_esc(out, name);
	fputs("</td><td class=\"label\">", out);
	html_esc(out, report_fig_unit(f->t, f->k));
	fputs("</td><td>", out);
	value(out, va);
	fputs("</td><td>", out);
	value(out, vb);
	if (isfinite(f->change))
		fprintf(out, "</td><td>%+.1f%%", f->change);
	else
		fputs("</td><td>-", out);
	fprintf(out, "</td><td>%s</td><td%s>", p, verdict_class(f->v.word));
	html_esc(out, f->v.word);
	fputs("</td></tr>\n", out);
}

/* "mirror-off (b.csv, 3 lines)": the input's base name, as the page
 * holds no path. */
static void side_name(FILE *out, const struct report_set *set,
		      const struct report_group *g)
{
	const char *file = set->rows[g->idx[0]].file;
	const char *slash = strrchr(file, '/');

	html_esc(out, g->name);
	fputs(" (", out);
	html_esc(out, slash && slash[1] ? slash + 1 : file);
	fprintf(out, ", %zu line%s)", g->n, g->n == 1 ? "" : "s");
}

/* The verdicts of a pair counted, in a line above its table, so the
 * gist is read first: "4 faster, 2 more CPU, 27 within noise", as
 * compare's text ends. */
static void tally(FILE *out, const struct html_page *p,
		  const struct report_group *base,
		  const struct report_group *other, double *xa, double *xb)
{
	struct report_tally n = {{0}};
	char line[256];

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		for (enum cmp_what k = CMP_RATE; k <= CMP_LATENCY; k++) {
			struct report_fig f;

			if (report_fig_of(p->set, base, other, t, k,
					  p->o->alpha, xa, xb, &f))
				report_tally_add(&n, &f.v);
		}
	}
	report_tally_text(line, sizeof(line), &n);
	fputs("<p class=\"note\">", out);
	html_esc(out, line);
	fputs("</p>\n", out);
}

/* A side's figures of another program against what they are measured
 * against, as compare's. */
static void ratios(FILE *out, const struct report_set *set,
		   const struct report_group *g, const char *which)
{
	char ratio[200];

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		if (!report_ratio(set, g->idx, g->n, t, ratio, sizeof(ratio)))
			continue;
		fprintf(out, "<p class=\"note %s\">%s: ", figure_of(t)->tag,
			which);
		html_esc(out, ratio);
		fputs("</p>\n", out);
	}
}

static void pair(FILE *out, const struct html_page *p,
		 const struct report_group *base,
		 const struct report_group *other, double *xa, double *xb)
{
	char note[512];
	int tested = 0;

	fputs("<h3>", out);
	side_name(out, p->set, other);
	fputs(" against baseline ", out);
	side_name(out, p->set, base);
	fputs("</h3>\n", out);
	if (report_per_char_sides(p->set, base, other, note, sizeof(note))) {
		fputs("<p class=\"warn\">Note: ", out);
		html_esc(out, note);
		fputs(".</p>\n", out);
	}
	tally(out, p, base, other, xa, xb);
	fputs("<table class=\"cmp\">\n<thead><tr><th>Figure</th><th>Unit</th>"
	      "<th>Baseline</th><th>This</th><th>Change</th><th>p</th>"
	      "<th>Verdict</th></tr></thead>\n<tbody>\n",
	      out);
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		for (enum cmp_what k = CMP_RATE; k <= CMP_LATENCY; k++) {
			struct report_fig f;

			if (!report_fig_of(p->set, base, other, t, k,
					   p->o->alpha, xa, xb, &f))
				continue;
			tested |= f.v.tested;
			fig_row(out, &f);
		}
	}
	fputs("</tbody>\n</table>\n", out);
	if (!tested)
		fputs("<p class=\"note\">One line a side: no repeats to test "
		      "the differences against.</p>\n",
		      out);
	ratios(out, p->set, base, "Baseline");
	ratios(out, p->set, other, "This");
}

int html_compare(FILE *out, const struct html_page *p)
{
	double *xa, *xb;

	if (p->nsides < 2)
		return 0;
	xa = malloc((p->set->n + 1) * sizeof(double));
	xb = malloc((p->set->n + 1) * sizeof(double));
	if (!xa || !xb) {
		free(xa);
		free(xb);
		return -ENOMEM;
	}
	fprintf(out,
		"<h2>Compared with the baseline</h2>\n<p class=\"note\">Each "
		"side against the first, as clyde-report compare does: the "
		"mean ± the half-width of its 95%% confidence interval, the "
		"change, and Welch's t-test (a one-sample test when only one "
		"side has repeats); the verdict names a direction only when "
		"p &lt; %g, else the difference is within noise.</p>\n",
		p->o->alpha);
	for (size_t s = 1; s < p->nsides; s++)
		pair(out, p, &p->sides[0], &p->sides[s], xa, xb);
	free(xa);
	free(xb);
	return 0;
}

/* A document's settings as key and text, in its order. */
#define HS_MAX 128
struct hs_kv {
	char key[96];
	char *val; /* malloc'd */
};
struct hs_flat {
	struct hs_kv kv[HS_MAX];
	size_t n;
	int json; /* from a document */
};

/* v under key, objects as dotted keys; the rest beyond HS_MAX left
 * out (no document has as many). */
static int flat_add(struct hs_flat *f, const char *key, json_t *v)
{
	const char *k;
	json_t *sub;

	if (json_is_object(v)) {
		json_object_foreach(v, k, sub)
		{
			char name[96];

			snprintf(name, sizeof(name), "%s%s%s", key,
				 key[0] ? "." : "", k);
			if (flat_add(f, name, sub) < 0)
				return -ENOMEM;
		}
		return 0;
	}
	if (f->n == HS_MAX)
		return 0;
	snprintf(f->kv[f->n].key, sizeof(f->kv[0].key), "%s", key);
	f->kv[f->n].val = json_is_string(v)
			      ? strdup(json_string_value(v))
			      : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	if (!f->kv[f->n].val)
		return -ENOMEM;
	f->n++;
	return 0;
}

/* What a document says of its run: host, kernel, the program's
 * version, the target, and the settings but the name (the side's) and
 * the seeds (each run's own). */
static int flat_of(json_t *head, struct hs_flat *f)
{
	static const char *const top[] = {"host", "kernel", "version"};
	json_t *set = json_object_get(head, "settings");
	json_t *target = json_object_get(head, "target");
	const char *k;
	json_t *v;

	f->json = 1;
	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		if (json_object_get(head, top[i]) &&
		    flat_add(f, top[i], json_object_get(head, top[i])) < 0)
			return -ENOMEM;
	if (target && flat_add(f, "target", target) < 0)
		return -ENOMEM;
	json_object_foreach(set, k, v)
	{
		if (strcmp(k, "name") && strcmp(k, "seeds") &&
		    flat_add(f, k, v) < 0)
			return -ENOMEM;
	}
	return 0;
}

static const char *flat_get(const struct hs_flat *f, const char *key)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->kv[i].key, key))
			return f->kv[i].val;
	return NULL;
}

/* Whether key has two values (or is set in one and not another) among
 * the sides from documents. */
static int differs(const struct hs_flat *f, size_t n, const char *key)
{
	const char *first = NULL;
	int seen = 0;

	for (size_t s = 0; s < n; s++) {
		const char *v = f[s].json ? flat_get(&f[s], key) : NULL;

		if (!f[s].json)
			continue;
		if (!seen++)
			first = v;
		else if (!first != !v || (v && strcmp(first, v)))
			return 1;
	}
	return 0;
}

static void settings_row(FILE *out, const struct hs_flat *f, size_t n,
			 const char *key)
{
	fputs("<tr><td class=\"label\">", out);
	html_esc(out, key);
	fputs("</td>", out);
	for (size_t s = 0; s < n; s++) {
		const char *v = flat_get(&f[s], key);

		fputs("<td>", out);
		html_esc(out, !f[s].json ? "(CSV: not recorded)"
			      : v	 ? v
					 : "(not set)");
		fputs("</td>", out);
	}
	fputs("</tr>\n", out);
}

/* The table of the keys that differ, in the order the sides name
 * them; nothing when none does. */
static void settings_table(FILE *out, const struct html_page *p,
			   const struct hs_flat *f)
{
	int head = 0;

	for (size_t s = 0; s < p->nsides; s++) {
		for (size_t i = 0; i < f[s].n; i++) {
			const char *key = f[s].kv[i].key;
			size_t e;

			/* Each key once: where it is first named. */
			for (e = 0; e < s && !flat_get(&f[e], key); e++)
				;
			if (e < s || !differs(f, p->nsides, key))
				continue;
			if (!head++) {
				fputs("<h2>Settings that differ</h2>\n<table "
				      "class=\"set\">\n<thead><tr><th>Setting"
				      "</th>",
				      out);
				for (size_t k = 0; k < p->nsides; k++) {
					fputs("<th>", out);
					html_esc(out, p->sides[k].name);
					fputs("</th>", out);
				}
				fputs("</tr></thead>\n<tbody>\n", out);
			}
			settings_row(out, f, p->nsides, key);
		}
	}
	if (head)
		fputs("</tbody>\n</table>\n", out);
}

int html_settings(FILE *out, const struct html_page *p)
{
	struct hs_flat *f;
	size_t json = 0, one = 0;
	int status = 0;

	if (p->nsides < 2)
		return 0;
	f = calloc(p->nsides, sizeof(*f));
	if (!f)
		return -ENOMEM;
	for (size_t s = 0; s < p->nsides && !status; s++) {
		json_t *head = p->set->rows[p->sides[s].idx[0]].head;

		if (!head)
			continue;
		status = flat_of(head, &f[s]);
		json++;
		one = s;
	}
	if (!status && json == 1) {
		fputs("<p class=\"note\">Settings: only ", out);
		html_esc(out, p->sides[one].name);
		fputs(" is from a clyde JSON document, which records them; "
		      "the other sides are CSV lines (CSV: not recorded), so "
		      "there is nothing to compare them with.</p>\n",
		      out);
	}
	if (!status && json > 1)
		settings_table(out, p, f);
	for (size_t s = 0; s < p->nsides; s++)
		for (size_t i = 0; i < f[s].n; i++)
			free(f[s].kv[i].val);
	free(f);
	return status;
}
