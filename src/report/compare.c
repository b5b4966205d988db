/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_compare: every figure of each side against the baseline. A side
 * is the rows of one name in one input, so three lines of "mirror-off"
 * are three repeats of one setup; a clyde JSON document with -x runs is
 * one side of several repeats. Each figure shows the value (the mean,
 * +- the half-width of its 95% confidence interval when there are
 * repeats), the change in percent and, when repeats allow it, a t-test:
 * Welch's when both sides have repeats, a one-sample test of the
 * repeated side against the single value when only one has. A random-I/O
 * figure adds its service p99 and, when it did both kinds, each kind's
 * IOPS and p99 (compare_io.c). The verdict
 * names the direction only when p < alpha; otherwise the difference is
 * "within noise".
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"

unsigned report_samples(const struct report_set *set, const size_t *idx,
			size_t nidx, enum result_test t, enum cmp_what k,
			double *x, unsigned *fast)
{
	unsigned n = 0;

	*fast = 0;
	for (size_t i = 0; i < nidx; i++) {
		const struct csv_cell *c = &set->rows[idx[i]].res.c[t];
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
		default:
			v = report_io_sample(&set->rows[idx[i]].res.t[t], k);
			break;
		}
		if (!isnan(v))
			x[n++] = v;
	}
	return n;
}

void report_judge(const struct stats *a, const struct stats *b, enum cmp_what k,
		  double alpha, struct verdict *v)
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
	if (k == CMP_ABSORBED) {
		v->word = up ? "larger" : "smaller";
		return;
	}
	if (k > CMP_LATENCY) {
		v->word = up == report_io_is_rate(k) ? "faster" : "slower";
		return;
	}
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

/* The tally's words in the order its line names them; the last counts
 * the untested. */
static const char *const tally_words[REPORT_TALLY_WORDS] = {
    "faster", "slower",	 "less CPU",	 "more CPU",
    "larger", "smaller", "within noise", "not tested"};

void report_tally_add(struct report_tally *t, const struct verdict *v)
{
	size_t w = REPORT_TALLY_WORDS - 1;

	if (v->tested)
		for (w = 0; w + 1 < REPORT_TALLY_WORDS &&
			    strcmp(v->word, tally_words[w]);
		     w++)
			;
	t->n[w]++;
}

void report_tally_text(char *buf, size_t len, const struct report_tally *t)
{
	size_t n = (size_t)snprintf(buf, len, "Verdicts:");
	const char *sep = " ";

	for (size_t w = 0; w < REPORT_TALLY_WORDS && n < len; w++) {
		if (!t->n[w])
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%u %s%s", sep,
				      t->n[w], tally_words[w],
				      w + 1 < REPORT_TALLY_WORDS
					  ? ""
					  : " (no repeats, or a figure one "
					    "side lacks)");
		sep = ", ";
	}
	if (n < len)
		snprintf(buf + n, len - n, "%s.", *sep == ' ' ? " none" : "");
}

const char *report_fig_unit(enum result_test t, enum cmp_what k)
{
	if (k == CMP_CPU)
		return "%CP";
	if (k == CMP_LATENCY)
		return "us";
	if (k > CMP_LATENCY)
		return report_io_unit(k);
	return result_rate_unit(result_test_kind(t));
}

void report_fig_name(char *buf, size_t len, enum result_test t, enum cmp_what k)
{
	static const char *const suffix[] = {"", " cpu", " latency"};

	snprintf(buf, len, "%s%s", result_test_name(t),
		 k > CMP_LATENCY ? report_io_suffix(k) : suffix[k]);
}

/* "134822", "758.8", "134822 +- 1234": the mean and CI half-width. */
void report_fig_value(char *buf, size_t len, const struct stats *s,
		      unsigned fast, enum result_test t, enum cmp_what k)
{
	int seeks = (k == CMP_RATE && (result_test_kind(t) == RK_SEEK ||
				       result_test_kind(t) == RK_OPS)) ||
		    report_io_is_rate(k);
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

void report_fig_p(char *buf, size_t len, const struct verdict *v)
{
	if (!v->tested)
		snprintf(buf, len, "-");
	else if (v->w.p < 0.0001)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.4f", v->w.p);
}

static void text_header(FILE *out, const struct report_set *set,
			const struct report_group *base,
			const struct report_group *other, int width,
			const char *note)
{
	fprintf(out,
		"%s (%s, %zu line%s) against baseline %s (%s, %zu "
		"line%s)\n",
		other->name, set->rows[other->idx[0]].file, other->n,
		other->n == 1 ? "" : "s", base->name,
		set->rows[base->idx[0]].file, base->n, base->n == 1 ? "" : "s");
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

int report_per_char_sides(const struct report_set *set,
			  const struct report_group *base,
			  const struct report_group *other, char *note,
			  size_t len)
{
	struct report_pc a, b;

	report_per_char_of(set, base->idx, base->n, &a);
	report_per_char_of(set, other->idx, other->n, &b);
	return report_per_char_note(note, len, &a, &b);
}

int report_fig_of(const struct report_set *set, const struct report_group *base,
		  const struct report_group *other, enum result_test t,
		  enum cmp_what k, double alpha, double *xa, double *xb,
		  struct report_fig *f)
{
	memset(f, 0, sizeof(*f));
	f->t = t;
	f->k = k;
	f->v.word = "-";
	f->change = NAN;
	f->na = report_samples(set, base->idx, base->n, t, k, xa, &f->fa);
	f->nb = report_samples(set, other->idx, other->n, t, k, xb, &f->fb);
	if (!f->na && !f->nb && !f->fa && !f->fb)
		return 0;
	if (f->na)
		stats_compute(xa, f->na, &f->sa);
	if (f->nb)
		stats_compute(xb, f->nb, &f->sb);
	if (f->na && f->nb) {
		if (f->sa.mean != 0)
			f->change =
			    (f->sb.mean - f->sa.mean) / f->sa.mean * 100.0;
		report_judge(&f->sa, &f->sb, k, alpha, &f->v);
	}
	return 1;
}

static void csv_fig(FILE *out, const struct report_group *base,
		    const struct report_group *other,
		    const struct report_fig *f)
{
	char name[40];

	report_fig_name(name, sizeof(name), f->t, f->k);
	fprintf(out, "%s,%s", name, report_fig_unit(f->t, f->k));
	csv_text(out, base->name);
	csv_text(out, other->name);
	fprintf(out, ",%u", f->na);
	csv_num(out, f->na ? f->sa.mean : NAN);
	csv_num(out, f->na ? f->sa.ci_low : NAN);
	csv_num(out, f->na ? f->sa.ci_high : NAN);
	fprintf(out, ",%u", f->nb);
	csv_num(out, f->nb ? f->sb.mean : NAN);
	csv_num(out, f->nb ? f->sb.ci_low : NAN);
	csv_num(out, f->nb ? f->sb.ci_high : NAN);
	csv_num(out, f->change);
	csv_num(out, f->v.tested ? f->v.w.t : NAN);
	csv_num(out, f->v.tested ? f->v.w.df : NAN);
	csv_num(out, f->v.tested ? f->v.w.p : NAN);
	fprintf(out, ",%s\n", strcmp(f->v.word, "-") ? f->v.word : "");
}

static void text_fig(FILE *out, int width, const struct report_fig *f)
{
	char name[40], va[64], vb[64], ch[16], p[16];

	report_fig_name(name, sizeof(name), f->t, f->k);
	report_fig_value(va, sizeof(va), &f->sa, f->fa, f->t, f->k);
	report_fig_value(vb, sizeof(vb), &f->sb, f->fb, f->t, f->k);
	if (isfinite(f->change))
		snprintf(ch, sizeof(ch), "%+.1f%%", f->change);
	else
		snprintf(ch, sizeof(ch), "-");
	report_fig_p(p, sizeof(p), &f->v);
	fprintf(out, "%-20s %-7s %*s %*s %8s %8s  %s\n", name,
		report_fig_unit(f->t, f->k), width, va, width, vb, ch, p,
		f->v.word);
}

/* Each side's figures of another program against what they are
 * measured against. */
static void ratios(FILE *out, const struct report_set *set,
		   const struct report_group *base,
		   const struct report_group *other)
{
	char ratio[200];

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		if (report_ratio(set, base->idx, base->n, t, ratio,
				 sizeof(ratio)))
			fprintf(out, "baseline: %s\n", ratio);
		if (report_ratio(set, other->idx, other->n, t, ratio,
				 sizeof(ratio)))
			fprintf(out, "this:     %s\n", ratio);
	}
}

static void compare_pair(FILE *out, const struct report_set *set,
			 const struct report_group *base,
			 const struct report_group *other,
			 const struct report_opts *o, double *xa, double *xb,
			 FILE *err)
{
	int width = 18, tested = 0;
	struct report_tally tally = {{0}};
	char note[512], line[256];
	int noted = report_per_char_sides(set, base, other, note, sizeof(note));

	/* Under the heading; with --csv on err, so the CSV stays one
	 * table. */
	if (o->csv && noted)
		warning_on(err, "compare: note: %s against %s: %s", other->name,
			   base->name, note);
	if (!o->csv)
		text_header(out, set, base, other, width, noted ? note : NULL);
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		for (enum cmp_what k = CMP_RATE; k <= CMP_LAST; k++) {
			struct report_fig f;

			if (!report_fig_of(set, base, other, t, k, o->alpha, xa,
					   xb, &f))
				continue;
			if (o->csv) {
				csv_fig(out, base, other, &f);
				continue;
			}
			tested |= f.v.tested;
			report_tally_add(&tally, &f.v);
			text_fig(out, width, &f);
		}
	}
	if (o->csv)
		return;
	if (!tested)
		fprintf(out, "(one line a side: no repeats to test the "
			     "differences against)\n");
	ratios(out, set, base, other);
	report_tally_text(line, sizeof(line), &tally);
	fprintf(out, "%s\n", line);
}

size_t report_sides(const struct report_set *set, const size_t *inputs,
		    size_t ninputs, struct report_group **sides)
{
	struct report_group *all = NULL;
	size_t n = 0;

	/* Each input's names, in order of first appearance. */
	for (size_t i = 0; i < ninputs; i++) {
		size_t last = i + 1 < ninputs ? inputs[i + 1] : set->n;
		struct report_group *g, *na;
		size_t ng = report_group(set, inputs[i], last, &g);

		na = ng ? realloc(all, (n + ng) * sizeof(*all)) : all;
		if (ng && !na) {
			report_groups_free(g, ng);
			goto oom;
		}
		all = na;
		/* The index arrays move to all; only g itself is freed. */
		memcpy(all + n, g, ng * sizeof(*g));
		n += ng;
		free(g);
		if (inputs[i] < last && !ng)
			goto oom;
	}
	*sides = all;
	return n;
oom:
	report_groups_free(all, n);
	*sides = NULL;
	return (size_t)-1;
}

int report_compare(FILE *out, const struct report_set *set,
		   const size_t *inputs, size_t ninputs,
		   const struct report_opts *o, FILE *err)
{
	struct report_group *sides = NULL;
	size_t nsides = report_sides(set, inputs, ninputs, &sides);
	double *xa = malloc((set->n + 1) * sizeof(double));
	double *xb = malloc((set->n + 1) * sizeof(double));
	int status = 0;

	if (!xa || !xb || nsides == (size_t)-1) {
		error_on(err, "compare: out of memory");
		status = CLI_EXIT_FAILED;
		goto out;
	}
	if (nsides < 2) {
		error_on(err,
			 "compare: only one side (%s); "
			 "give a second input or an input with a second "
			 "name",
			 nsides ? sides[0].name : "none");
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (o->csv)
		csv_header(out);
	for (size_t s = 1; s < nsides; s++) {
		if (s > 1 && !o->csv)
			fputc('\n', out);
		compare_pair(out, set, &sides[0], &sides[s], o, xa, xb, err);
	}
out:
	if (nsides != (size_t)-1)
		report_groups_free(sides, nsides);
	free(xa);
	free(xb);
	return status;
}
