/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_curve: compare of clyde-curve documents. Each document is a
 * side, the first the baseline, each of its curves (-x N) a repeat. Per
 * row: the maximum (IOPS), each step of the baseline's list (the
 * statistic its target bounds, p99 without one, at each side's share of
 * its own maximum, in microseconds) and the knee (IOPS): both sides'
 * means with their 95% CIs, the change, and compare's verdict (Welch's
 * test over the repeats, report_judge); then one line of verdicts.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "curve.h"

int report_curves_alone(const struct report_set *set)
{
	size_t curves = 0;

	for (size_t i = 0; i < set->ndocs; i++)
		curves += set->docs[i].kind == REPORT_DOC_CURVE;
	if (!curves)
		return 0;
	return curves == set->ndocs && !set->n ? 1 : -1;
}

enum curve_stat report_curve_stat(const struct curve_result *base)
{
	return curve_judged(base);
}

/* One row from samples xa[na] and xb[nb]. */
static void row_of(struct curve_cmp_row *row, const char *name, int rate,
		   const double *xa, unsigned na, const double *xb, unsigned nb,
		   double alpha)
{
	snprintf(row->name, sizeof(row->name), "%s", name);
	row->rate = rate;
	stats_compute(xa, na, &row->a);
	stats_compute(xb, nb, &row->b);
	row->change = row->a.mean != 0
			  ? (row->b.mean - row->a.mean) / row->a.mean * 100
			  : NAN;
	report_judge(&row->a, &row->b, rate ? CMP_RATE : CMP_LATENCY, alpha,
		     &row->v);
}

static double mean_of(const double *x, unsigned n)
{
	double s = 0;

	for (unsigned i = 0; i < n; i++)
		s += x[i];
	return n ? s / n : NAN;
}

size_t report_curve_rows(const struct curve_result *base,
			 const struct curve_result *other, double alpha,
			 struct curve_cmp_row *rows, size_t max)
{
	double aa[CURVE_REPEATS_MAX], va[CURVE_REPEATS_MAX];
	double ab[CURVE_REPEATS_MAX], vb[CURVE_REPEATS_MAX];
	enum curve_stat st = report_curve_stat(base);
	unsigned na, nb;
	size_t n = 0;

	na = curve_gather(base, 0, CURVE_STEP_MAX, st, aa, va);
	nb = curve_gather(other, 0, CURVE_STEP_MAX, st, ab, vb);
	if (na && nb && n < max)
		row_of(&rows[n++], "max", 1, aa, na, ab, nb, alpha);
	for (unsigned i = 0; i < base->nsteps; i++) {
		/* The target's statistic, then p99 when it is another. */
		enum curve_stat sts[2] = {st, CURVE_P99};

		for (unsigned j = 0; j < (st == CURVE_P99 ? 1u : 2u) && n < max;
		     j++) {
			char name[24];

			na = curve_gather(base, base->pct[i], CURVE_STEP_LIST,
					  sts[j], aa, va);
			nb = curve_gather(other, base->pct[i], CURVE_STEP_LIST,
					  sts[j], ab, vb);
			if (!na || !nb)
				continue;
			for (unsigned k = 0; k < na; k++)
				va[k] /= 1e3;
			for (unsigned k = 0; k < nb; k++)
				vb[k] /= 1e3;
			curve_pct_text(base->pct[i], name, 12);
			snprintf(name + strlen(name),
				 sizeof(name) - strlen(name), "%% %s",
				 curve_stat_name(sts[j]));
			row_of(&rows[n], name, 0, va, na, vb, nb, alpha);
			rows[n].ach_a = mean_of(aa, na);
			rows[n].ach_b = mean_of(ab, nb);
			n++;
		}
	}
	na = curve_knees(base, aa);
	nb = curve_knees(other, ab);
	if (na && nb && n < max)
		row_of(&rows[n++], "knee", 1, aa, na, ab, nb, alpha);
	return n;
}

int report_curve_note(const struct curve_result *base,
		      const struct curve_result *other, char *buf, size_t len)
{
	const struct curve_target *a = &base->target, *b = &other->target;
	double ach[CURVE_REPEATS_MAX], val[CURVE_REPEATS_MAX];
	size_t n = 0;
	int missing = 0;

	buf[0] = '\0';
	if (a->on != b->on ||
	    (a->on && (a->stat != b->stat || a->ns != b->ns))) {
		char ta[64] = "none", tb[64] = "none";

		if (a->on)
			curve_target_text(a, ta, sizeof(ta));
		if (b->on)
			curve_target_text(b, tb, sizeof(tb));
		n += (size_t)snprintf(buf, len,
				      "the targets differ (%s; the baseline's "
				      "%s): each knee is at its own",
				      tb, ta);
	}
	for (unsigned i = 0; i < base->nsteps && n < len; i++) {
		char p[16];

		if (curve_gather(other, base->pct[i], CURVE_STEP_LIST,
				 CURVE_P99, ach, val))
			continue;
		curve_pct_text(base->pct[i], p, sizeof(p));
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s%%",
				      !missing && n ? "; " : "",
				      missing ? ", "
					      : "steps of the baseline "
						"this did not run: ",
				      p);
		missing = 1;
	}
	return n > 0;
}

/* "194.8 +- 1.2", "7364": the mean and its CI's half-width. */
static void value(char *buf, size_t len, const struct stats *s, int rate)
{
	int dec = fabs(s->mean) < 1000;

	(void)rate;
	if (s->n < 2)
		snprintf(buf, len, "%.*f", dec, s->mean);
	else
		snprintf(buf, len, "%.*f +- %.*f", dec, s->mean, dec,
			 s->ci_high - s->mean);
}

static void csv_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, ",%.6g", v);
	else
		fputs(",", out);
}

/* A side as the heading names it: its machine and file. */
static void side(FILE *out, const struct report_doc *d)
{
	fprintf(out, "%s (%s, %u curve%s)", d->curve->name, d->file,
		d->curve->n, d->curve->n == 1 ? "" : "s");
}

static void pair(FILE *out, const struct report_doc *base,
		 const struct report_doc *other, const struct report_opts *o)
{
	struct curve_cmp_row rows[2 + 2 * CURVE_STEPS_MAX];
	size_t n = report_curve_rows(base->curve, other->curve, o->alpha, rows,
				     sizeof(rows) / sizeof(rows[0]));
	struct report_tally tally = {{0}};
	char va[64], vb[64], ch[16], p[16], unit[16], note[400], line[256];

	if (o->csv) {
		for (size_t i = 0; i < n; i++) {
			const struct curve_cmp_row *r = &rows[i];

			fprintf(out, "%s,%s,%s,%s,%u", r->name,
				r->rate ? "IOPS" : "us", base->curve->name,
				other->curve->name, r->a.n);
			csv_num(out, r->a.mean);
			csv_num(out, r->a.ci_low);
			csv_num(out, r->a.ci_high);
			fprintf(out, ",%u", r->b.n);
			csv_num(out, r->b.mean);
			csv_num(out, r->b.ci_low);
			csv_num(out, r->b.ci_high);
			csv_num(out, r->change);
			csv_num(out, r->v.tested ? r->v.w.t : NAN);
			csv_num(out, r->v.tested ? r->v.w.df : NAN);
			csv_num(out, r->v.tested ? r->v.w.p : NAN);
			fprintf(out, ",%s\n", r->v.word);
		}
		return;
	}
	side(out, other);
	fputs(" against baseline ", out);
	side(out, base);
	if (report_curve_note(base->curve, other->curve, note, sizeof(note)))
		fprintf(out, "\nnote: %s", note);
	fprintf(out,
		"\nEach step at its share of each side's own maximum; "
		"the maximum's and the knee's IOPS; a verdict names a "
		"direction only when p < %g\n",
		o->alpha);
	fprintf(out, "%-12s %-5s %20s %20s %8s %8s  %s\n", "figure", "unit",
		"baseline", "this", "change", "p", "verdict");
	for (size_t i = 0; i < n; i++) {
		const struct curve_cmp_row *r = &rows[i];
		snprintf(unit, sizeof(unit), "%s", r->rate ? "IOPS" : "us");
		value(va, sizeof(va), &r->a, r->rate);
		value(vb, sizeof(vb), &r->b, r->rate);
		if (isfinite(r->change))
			snprintf(ch, sizeof(ch), "%+.1f%%", r->change);
		else
			snprintf(ch, sizeof(ch), "-");
		report_fig_p(p, sizeof(p), &r->v);
		fprintf(out, "%-12s %-5s %20s %20s %8s %8s  %s\n", r->name,
			unit, va, vb, ch, p, r->v.word);
		report_tally_add(&tally, &r->v);
	}
	if (tally.n[REPORT_TALLY_WORDS - 1] == n)
		fprintf(out, "(one curve a side: no repeats to test the "
			     "differences against; run clyde-curve -x 3)\n");
	report_tally_text(line, sizeof(line), &tally);
	fprintf(out, "%s\n", line);
}

int report_curve_compare(FILE *out, const struct report_set *set,
			 const struct report_opts *o, FILE *err)
{
	if (set->ndocs < 2) {
		error_on(err,
			 "compare: one curve document (%s); give a second "
			 "to compare it with",
			 set->docs[0].file);
		return CLI_EXIT_USAGE;
	}
	if (o->csv)
		fputs("figure,unit,baseline,name,baseline_n,baseline_mean,"
		      "baseline_ci_low,baseline_ci_high,n,mean,ci_low,ci_high,"
		      "change_percent,t,df,p,verdict\n",
		      out);
	for (size_t s = 1; s < set->ndocs; s++) {
		if (s > 1 && !o->csv)
			fputc('\n', out);
		pair(out, &set->docs[0], &set->docs[s], o);
	}
	return 0;
}
