/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_compare: every figure of each side against the baseline. A side
 * is the rows of one name in one input, so three lines of "mirror-off"
 * are three repeats of one setup; a clyde JSON document with -x runs is
 * one side of several repeats. Each figure shows the value (the mean,
 * +- the half-width of its 95% confidence interval when there are
 * repeats), the change in percent and, when repeats allow it, a t-test:
 * Welch's when both sides have repeats, a one-sample test of the
 * repeated side against the single value when only one has. The verdict
 * names the direction only when p < alpha; otherwise the difference is
 * "within noise".
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"

struct side {
	const char *name, *file;
	size_t *idx, n;
};

/* The samples of one figure of a side into x; returns how many. */
static unsigned samples(const struct report_set *set, const struct side *s,
			enum result_test t, enum cmp_what k, double *x,
			unsigned *fast)
{
	unsigned n = 0;

	*fast = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct csv_cell *c = &set->rows[s->idx[i]].res.c[t];
		double v = NAN;

		if (c->state == CSV_EMPTY)
			continue;
		switch (k) {
		case CMP_RATE:
			v = report_rate(c);
			*fast += c->state == CSV_FAST && isnan(v);
			break;
		case CMP_CPU:
			v = c->cpu >= 0 ? c->cpu : NAN;
			*fast += c->state == CSV_FAST && c->cpu < 0;
			break;
		case CMP_LATENCY:
			/* Microseconds: the unit of bonnie++'s cells. */
			v = c->lat_ns ? c->lat_ns / 1e3 : NAN;
			break;
		}
		if (!isnan(v))
			x[n++] = v;
	}
	return n;
}

void report_judge(const struct stats *a, const struct stats *b,
		  enum cmp_what k, double alpha, struct verdict *v)
{
	int up;

	memset(v, 0, sizeof(*v));
	v->word = "-";
	if (a->n >= 2 && b->n >= 2) {
		stats_welch(a, b, &v->w);
	} else if (a->n >= 2 || b->n >= 2) {
		/* One side is a single value: test the other's mean
		 * against it. */
		const struct stats *rep = a->n >= 2 ? a : b;
		const struct stats *one = a->n >= 2 ? b : a;
		double se = rep->sd / sqrt((double)rep->n);
		double d = b->mean - a->mean;

		(void)one;
		v->w.df = rep->n - 1.0;
		if (se == 0.0) {
			v->w.t = d == 0 ? 0.0 : d > 0 ? INFINITY : -INFINITY;
			v->w.p = d == 0 ? 1.0 : 0.0;
		} else {
			v->w.t = d / se;
			v->w.p = stats_t_p2(v->w.t, v->w.df);
		}
	} else {
		return;
	}
	v->tested = 1;
	if (!(v->w.p < alpha)) {
		v->word = "within noise";
		return;
	}
	up = v->w.t > 0;
	switch (k) {
	case CMP_RATE:
		v->word = up ? "faster" : "slower";
		break;
	case CMP_LATENCY:
		v->word = up ? "slower" : "faster";
		break;
	case CMP_CPU:
	default:
		v->word = up ? "more CPU" : "less CPU";
		break;
	}
}

static const char *fig_unit(enum result_test t, enum cmp_what k)
{
	if (k == CMP_CPU)
		return "%CP";
	if (k == CMP_LATENCY)
		return "us";
	return result_rate_unit(result_test_kind(t));
}

static void fig_name(char *buf, size_t len, enum result_test t,
		     enum cmp_what k)
{
	static const char *const suffix[] = {"", " cpu", " latency"};

	snprintf(buf, len, "%s%s", result_test_name(t), suffix[k]);
}

/* "134822", "758.8", "134822 +- 1234": the mean and CI half-width. */
static void fmt_value(char *buf, size_t len, const struct stats *s,
		      unsigned fast, int seeks)
{
	double half = s->ci_high - s->mean;
	/* Single values as their cells show them; means get a decimal
	 * while they are small. */
	int dec = s->n < 2 ? seeks : fabs(s->mean) < 1000;

	if (!s->n) {
		snprintf(buf, len, "%s", fast ? "+++++" : "");
		return;
	}
	if (s->n < 2)
		snprintf(buf, len, "%.*f", dec, s->mean);
	else
		snprintf(buf, len, "%.*f +- %.*f", dec, s->mean, dec, half);
}

static void fmt_p(char *buf, size_t len, const struct verdict *v)
{
	if (!v->tested)
		snprintf(buf, len, "-");
	else if (v->w.p < 0.0001)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.4f", v->w.p);
}

static void text_header(FILE *out, const struct side *base,
			const struct side *other, int width, const char *note)
{
	fprintf(out,
		"%s (%s, %zu line%s) against baseline %s (%s, %zu "
		"line%s)\n",
		other->name, other->file, other->n, other->n == 1 ? "" : "s",
		base->name, base->file, base->n, base->n == 1 ? "" : "s");
	if (note)
		fprintf(out, "note: %s\n", note);
	fprintf(out, "%-20s %-7s %*s %*s %8s %8s  %s\n", "figure", "unit",
		width, "baseline", width, "this", "change", "p", "verdict");
}

static void csv_header(FILE *out)
{
	fputs("figure,unit,baseline,name,baseline_n,baseline_mean,"
	      "baseline_ci_low,baseline_ci_high,n,mean,ci_low,ci_high,"
	      "change_percent,t,df,p,verdict\n",
	      out);
}

/* A CSV number: empty when not a number; C locale. */
static void csv_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, ",%.6g", v);
	else if (isinf(v))
		fprintf(out, ",%s", v > 0 ? "inf" : "-inf");
	else
		fputs(",", out);
}

/* A name in a CSV field: commas and quotes would break the line. */
static void csv_text(FILE *out, const char *s)
{
	fputc(',', out);
	if (!strpbrk(s, ",\"")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/*
 * When the two sides' putc and getc mean different things, the line
 * saying so into note and 1; else 0.
 */
static int per_char_note(const struct report_set *set,
			 const struct side *base, const struct side *other,
			 char *note, size_t len)
{
	struct report_pc a, b;

	report_per_char_of(set, base->idx, base->n, &a);
	report_per_char_of(set, other->idx, other->n, &b);
	return report_per_char_note(note, len, &a, &b);
}

static void compare_pair(FILE *out, const struct report_set *set,
			 const struct side *base, const struct side *other,
			 const struct report_opts *o, double *xa, double *xb,
			 FILE *err)
{
	int width = 18, tested = 0;
	char note[512];
	int noted = per_char_note(set, base, other, note, sizeof(note));

	/* Under the heading; with --csv on err, so the CSV stays one
	 * table. */
	if (o->csv && noted)
		fprintf(err, "clyde-report: compare: note: %s against %s: %s\n",
			other->name, base->name, note);
	if (!o->csv)
		text_header(out, base, other, width, noted ? note : NULL);
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		for (enum cmp_what k = CMP_RATE; k <= CMP_LATENCY; k++) {
			unsigned fa, fb;
			unsigned na = samples(set, base, t, k, xa, &fa);
			unsigned nb = samples(set, other, t, k, xb, &fb);
			struct stats sa = {0}, sb = {0};
			struct verdict v = {.word = "-"};
			double change = NAN;
			char name[40], va[64], vb[64], ch[16], p[16];
			int seeks;

			if (!na && !nb && !fa && !fb)
				continue;
			if (na)
				stats_compute(xa, na, &sa);
			if (nb)
				stats_compute(xb, nb, &sb);
			if (na && nb) {
				if (sa.mean != 0)
					change = (sb.mean - sa.mean) / sa.mean *
						 100.0;
				report_judge(&sa, &sb, k, o->alpha, &v);
			}
			fig_name(name, sizeof(name), t, k);
			if (o->csv) {
				fprintf(out, "%s,%s", name, fig_unit(t, k));
				csv_text(out, base->name);
				csv_text(out, other->name);
				fprintf(out, ",%u", na);
				csv_num(out, na ? sa.mean : NAN);
				csv_num(out, na ? sa.ci_low : NAN);
				csv_num(out, na ? sa.ci_high : NAN);
				fprintf(out, ",%u", nb);
				csv_num(out, nb ? sb.mean : NAN);
				csv_num(out, nb ? sb.ci_low : NAN);
				csv_num(out, nb ? sb.ci_high : NAN);
				csv_num(out, change);
				csv_num(out, v.tested ? v.w.t : NAN);
				csv_num(out, v.tested ? v.w.df : NAN);
				csv_num(out, v.tested ? v.w.p : NAN);
				fprintf(out, ",%s\n",
					strcmp(v.word, "-") ? v.word : "");
				continue;
			}
			seeks = k == CMP_RATE &&
				(result_test_kind(t) == RK_SEEK ||
				 result_test_kind(t) == RK_OPS);
			fmt_value(va, sizeof(va), &sa, fa, seeks);
			fmt_value(vb, sizeof(vb), &sb, fb, seeks);
			tested |= v.tested;
			if (isfinite(change))
				snprintf(ch, sizeof(ch), "%+.1f%%", change);
			else
				snprintf(ch, sizeof(ch), "-");
			fmt_p(p, sizeof(p), &v);
			fprintf(out, "%-20s %-7s %*s %*s %8s %8s  %s\n", name,
				fig_unit(t, k), width, va, width, vb, ch, p,
				v.word);
		}
	}
	if (!o->csv && !tested)
		fprintf(out, "(one line a side: no repeats to test the "
			     "differences against)\n");
}

int report_compare(FILE *out, const struct report_set *set,
		   const size_t *inputs, size_t ninputs,
		   const struct report_opts *o, FILE *err)
{
	struct side *sides = NULL;
	size_t nsides = 0;
	double *xa = malloc((set->n + 1) * sizeof(double));
	double *xb = malloc((set->n + 1) * sizeof(double));
	struct report_group **groups = calloc(ninputs, sizeof(*groups));
	size_t *ngroups = calloc(ninputs, sizeof(*ngroups));
	int status = 0;

	if (!xa || !xb || !groups || !ngroups)
		goto oom;
	/* The sides: each input's names, in order of first appearance. */
	for (size_t i = 0; i < ninputs; i++) {
		size_t last = i + 1 < ninputs ? inputs[i + 1] : set->n;

		ngroups[i] = report_group(set, inputs[i], last, &groups[i]);
		nsides += ngroups[i];
	}
	sides = calloc(nsides ? nsides : 1, sizeof(*sides));
	if (!sides)
		goto oom;
	nsides = 0;
	for (size_t i = 0; i < ninputs; i++) {
		for (size_t g = 0; g < ngroups[i]; g++) {
			struct side *s = &sides[nsides++];

			s->name = groups[i][g].name;
			s->idx = groups[i][g].idx;
			s->n = groups[i][g].n;
			s->file = set->rows[s->idx[0]].file;
		}
	}
	if (nsides < 2) {
		fprintf(err,
			"clyde-report: compare: only one side (%s); "
			"give a second input or an input with a second "
			"name\n",
			nsides ? sides[0].name : "none");
		status = 2;
		goto out;
	}
	if (o->csv)
		csv_header(out);
	for (size_t s = 1; s < nsides; s++) {
		if (s > 1 && !o->csv)
			fputc('\n', out);
		compare_pair(out, set, &sides[0], &sides[s], o, xa, xb, err);
	}
	goto out;
oom:
	fprintf(err, "clyde-report: compare: out of memory\n");
	status = 1;
out:
	for (size_t i = 0; groups && i < ninputs; i++)
		report_groups_free(groups[i], ngroups[i]);
	free(groups);
	free(ngroups);
	free(sides);
	free(xa);
	free(xb);
	return status;
}
