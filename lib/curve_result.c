/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * curve_result: see curve_result.h. The table: one row per step in order
 * of the load offered (the maximum first, a bisection's steps marked
 * '*'), then the knee's line. The CSV lines: a header, then one line per
 * step, each whole (the machine, the curve's number, the step), so a
 * spreadsheet plots achieved IOPS against p99 at once.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve_result.h"
#include "hist.h"
#include "stats.h"

void curve_result_free(struct curve_result *r)
{
	for (unsigned i = 0; r->curves && i < r->n; i++)
		for (unsigned j = 0; j < r->curves[i].n; j++)
			result_rec_free(&r->curves[i].step[j].rec);
	free(r->curves);
	r->curves = NULL;
	r->n = 0;
}

double curve_achieved(const struct curve_step *s)
{
	const struct result_test_rec *rec = &s->rec;

	return rec->state == RS_OK && rec->elapsed > 0
		   ? (double)rec->work / rec->elapsed
		   : 0;
}

double curve_mbps(const struct curve_step *s)
{
	const struct result_test_rec *rec = &s->rec;
	double bytes = 0;

	if (rec->state != RS_OK || rec->elapsed <= 0)
		return 0;
	/* Each kind's bytes when both ran (a split has no one size), else
	 * the operations of the one size. */
	for (int k = 0; rec->io && k < RESULT_KINDS; k++)
		bytes += (double)rec->kind[k].bytes;
	if (!bytes)
		bytes = (double)rec->work * (double)rec->op_bytes;
	return bytes / rec->elapsed / 1e6;
}

/* A latency in three digits and its unit: "812us", "1.23ms", "14.2s";
 * "-" for none. */
static void fmt_ns(char *buf, size_t len, double ns)
{
	static const struct {
		double scale;
		const char *unit;
	} u[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
	unsigned k = 0;

	if (!(ns > 0)) {
		snprintf(buf, len, "-");
		return;
	}
	while (k < 3 && ns < u[k].scale)
		k++;
	ns /= u[k].scale;
	snprintf(buf, len, "%.*f%s",
		 ns >= 100  ? 0
		 : ns >= 10 ? 1
			    : 2,
		 ns, u[k].unit);
}

/* The step's name: "max", "30%", "47.5%*" (bisection). */
static void step_name(char *buf, size_t len, const struct curve_step *s)
{
	char p[16];

	if (s->kind == CURVE_STEP_MAX) {
		snprintf(buf, len, "max");
		return;
	}
	curve_pct_text(s->pct, p, sizeof(p));
	snprintf(buf, len, "%s%%%s", p,
		 s->kind == CURVE_STEP_REFINE ? "*" : "");
}

/* The service time's percentile p, ns: the response time's in a closed
 * loop. */
static uint64_t svc_pct(const struct result_test_rec *rec, double p)
{
	const struct hist *h = rec->svc && !rec->svc_same ? rec->svc : rec->lat;

	return h ? hist_percentile(h, p) : 0;
}

static uint64_t lat_pct(const struct result_test_rec *rec, double p)
{
	return rec->lat ? hist_percentile(rec->lat, p) : 0;
}

void curve_print_table(FILE *f, const struct curve_result *r,
		       const struct curve_one *c)
{
	char knee[256];

	const struct steady_run *sr = c->n ? c->step[0].rec.steady : NULL;
	char how[RESULT_HOW_MAX], each[96];
	const char *how_of = "";
	int failed = 0;

	if (!c->n)
		return;
	/* The settings' words are a step's that ran (a failed one has
	 * none). */
	for (unsigned i = 0; i < c->n; i++) {
		if (!how_of[0])
			how_of = c->step[i].rec.how;
		failed |= c->step[i].rec.state == RS_FAILED;
	}
	snprintf(how, sizeof(how), "%s", how_of);
	snprintf(each, sizeof(each), "%u s a step", r->step_time);
	if (sr) {
		char words[64];
		size_t n = strlen(how), w;

		/* The step's own words on its rounds go in its row. */
		steady_run_text(sr, words, sizeof(words));
		w = strlen(words);
		if (n > w && !strcmp(how + n - w, words))
			how[n - w - 1] = '\0';
		snprintf(each, sizeof(each),
			 "each step in rounds of %.0f s until steady "
			 "(%u:%g:%g on %s), %.0f s at most",
			 sr->round_s, sr->rule.rounds, sr->rule.range_pct,
			 sr->rule.slope_pct, steady_on_name(sr->rule.on),
			 sr->max_s);
	}
	fprintf(f, "%s: %s%s%s%s\n", r->name, how, how[0] ? ", " : "", each,
		c->complete ? ""
		: failed    ? " (a step failed: the steps done)"
			    : " (stopped: the steps done)");
	fprintf(f, "%-8s %9s %9s %8s %6s %7s %7s %7s %7s %7s %7s %7s %4s%s\n",
		"step", "offered", "achieved", "MB/s", "late%", "p50", "p90",
		"p99", "p99.9", "max", "svc p50", "svc p99", "%CP",
		sr ? "  rounds" : "");
	for (unsigned i = 0; i < c->n; i++) {
		const struct curve_step *s = &c->step[i];
		const struct result_test_rec *rec = &s->rec;
		char name[24], off[24], v[7][16], late[16];

		step_name(name, sizeof(name), s);
		if (rec->state != RS_OK) {
			fprintf(f, "%-8s failed\n", name);
			continue;
		}
		snprintf(off, sizeof(off), s->offered ? "%llu" : "-",
			 (unsigned long long)s->offered);
		fmt_ns(v[0], sizeof(v[0]), (double)lat_pct(rec, 50));
		fmt_ns(v[1], sizeof(v[1]), (double)lat_pct(rec, 90));
		fmt_ns(v[2], sizeof(v[2]), (double)lat_pct(rec, 99));
		fmt_ns(v[3], sizeof(v[3]), (double)lat_pct(rec, 99.9));
		fmt_ns(v[4], sizeof(v[4]), (double)rec->max_latency_ns);
		fmt_ns(v[5], sizeof(v[5]), (double)svc_pct(rec, 50));
		fmt_ns(v[6], sizeof(v[6]), (double)svc_pct(rec, 99));
		if (s->offered)
			snprintf(late, sizeof(late), "%.2f",
				 100 * result_late_share(&rec->sched));
		else
			snprintf(late, sizeof(late), "-");
		fprintf(f,
			"%-8s %9s %9.0f %8.1f %6s %7s %7s %7s %7s %7s %7s "
			"%7s %4d",
			name, off, curve_achieved(s), curve_mbps(s), late, v[0],
			v[1], v[2], v[3], v[4], v[5], v[6], result_pcp(rec));
		if (rec->steady) {
			char words[64];

			steady_run_text(rec->steady, words, sizeof(words));
			fprintf(f, "  %s", words);
		}
		fputc('\n', f);
	}
	/* A failed maximum has no curve to sum up. */
	if (c->step[0].rec.state != RS_OK)
		return;
	curve_knee_line(r, c, knee, sizeof(knee));
	fprintf(f, "%s\n", knee);
}

int curve_missed(const struct curve_result *r, const struct curve_one *c)
{
	return r->target.on && c->complete && c->knee < 0;
}

void curve_knee_line(const struct curve_result *r, const struct curve_one *c,
		     char *buf, size_t len)
{
	double max = c->n ? curve_achieved(&c->step[0]) : 0;
	char t[64], v[16];
	int n = snprintf(buf, len, "max %.0f IOPS", max);

	if (n < 0 || (size_t)n >= len || !r->target.on)
		return;
	curve_target_text(&r->target, t, sizeof(t));
	if (c->knee >= 0 && (unsigned)c->knee < c->n) {
		double k = curve_achieved(&c->step[c->knee]);

		snprintf(buf + n, len - (size_t)n,
			 "; %.0f IOPS (%.0f%% of max) with %s", k,
			 max > 0 ? 100 * k / max : 0, t);
		return;
	}
	if (!c->complete || c->n < 2) {
		snprintf(buf + n, len - (size_t)n,
			 "; no knee: the curve stopped before %s was judged",
			 t);
		return;
	}
	fmt_ns(v, sizeof(v),
	       (double)curve_stat_of(&c->step[1].rec, r->target.stat));
	snprintf(buf + n, len - (size_t)n,
		 "; no step met %s (the lightest, %.0f IOPS, had %s %s)", t,
		 curve_achieved(&c->step[1]), curve_stat_name(r->target.stat),
		 v);
}

void curve_csv_header(FILE *f)
{
	fprintf(f, "name,curve,step,percent,offered_iops,achieved_iops,mb_s,"
		   "late_share,behind_share,p50_us,p90_us,p99_us,p999_us,"
		   "max_us,mean_us,svc_p50_us,svc_p99_us,cpu_percent\n");
}

void curve_csv_lines(FILE *f, const struct curve_result *r, unsigned k,
		     const struct curve_one *c)
{
	static const char *const kinds[] = {"max", "step", "refine"};

	for (unsigned i = 0; i < c->n; i++) {
		const struct curve_step *s = &c->step[i];
		const struct result_test_rec *rec = &s->rec;

		if (rec->state != RS_OK)
			continue;
		fprintf(f, "%s,%u,%s,", r->name, k + 1, kinds[s->kind]);
		if (s->kind == CURVE_STEP_MAX)
			fprintf(f, ",,");
		else
			fprintf(f, "%u.%u,%llu,", s->pct / 10, s->pct % 10,
				(unsigned long long)s->offered);
		fprintf(f,
			"%.1f,%.2f,%.6f,%.6f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,"
			"%.1f,%.1f,%d\n",
			curve_achieved(s), curve_mbps(s),
			result_late_share(&rec->sched),
			result_behind_share(&rec->sched),
			lat_pct(rec, 50) / 1e3, lat_pct(rec, 90) / 1e3,
			lat_pct(rec, 99) / 1e3, lat_pct(rec, 99.9) / 1e3,
			rec->max_latency_ns / 1e3,
			rec->lat ? hist_mean(rec->lat) / 1e3 : 0,
			svc_pct(rec, 50) / 1e3, svc_pct(rec, 99) / 1e3,
			result_pcp(rec));
	}
}

enum curve_stat curve_judged(const struct curve_result *r)
{
	return r->target.on ? r->target.stat : CURVE_P99;
}

unsigned curve_gather(const struct curve_result *r, unsigned pct,
		      enum curve_kind kind, enum curve_stat st, double *ach,
		      double *val)
{
	unsigned m = 0;

	for (unsigned i = 0; i < r->n; i++)
		for (unsigned j = 0; j < r->curves[i].n; j++) {
			const struct curve_step *s = &r->curves[i].step[j];

			if (s->kind != kind || s->pct != pct ||
			    s->rec.state != RS_OK || m == CURVE_REPEATS_MAX)
				continue;
			ach[m] = curve_achieved(s);
			val[m++] = (double)curve_stat_of(&s->rec, st);
		}
	return m;
}

unsigned curve_knees(const struct curve_result *r, double *k)
{
	unsigned m = 0;

	for (unsigned i = 0; i < r->n && m < CURVE_REPEATS_MAX; i++) {
		const struct curve_one *c = &r->curves[i];

		if (c->knee >= 0 && (unsigned)c->knee < c->n)
			k[m++] = curve_achieved(&c->step[c->knee]);
	}
	return m;
}

void curve_print_summary(FILE *f, const struct curve_result *r)
{
	double ach[CURVE_REPEATS_MAX], val[CURVE_REPEATS_MAX];
	struct stats a, v;
	unsigned m;
	char lo[16], hi[16], mean[16];

	fprintf(f, "Over %u curves: mean [95%% CI]\n", r->n);
	fprintf(f, "%-8s %26s %32s\n", "step", "achieved IOPS",
		curve_stat_name(curve_judged(r)));
	for (int i = -1; i < (int)r->nsteps; i++) {
		unsigned pct = i < 0 ? 0 : r->pct[i];
		char name[24];

		m = curve_gather(r, pct,
				 i < 0 ? CURVE_STEP_MAX : CURVE_STEP_LIST,
				 curve_judged(r), ach, val);
		if (!m)
			continue;
		stats_compute(ach, m, &a);
		stats_compute(val, m, &v);
		if (i < 0) {
			snprintf(name, sizeof(name), "max");
		} else {
			curve_pct_text(pct, name, sizeof(name) - 1);
			strcat(name, "%");
		}
		fmt_ns(mean, sizeof(mean), v.mean);
		fmt_ns(lo, sizeof(lo), v.ci_low);
		fmt_ns(hi, sizeof(hi), v.ci_high);
		fprintf(f, "%-8s %9.0f [%7.0f, %7.0f] %10s [%8s, %8s]\n", name,
			a.mean, a.ci_low, a.ci_high, mean, lo, hi);
	}
	if (r->target.on && (m = curve_knees(r, ach)) > 0) {
		stats_compute(ach, m, &a);
		fprintf(f, "knee     %9.0f [%7.0f, %7.0f] (%u of %u curves)\n",
			a.mean, a.ci_low, a.ci_high, m, r->n);
	}
}

static double mean_of(const double *x, unsigned n)
{
	double s = 0;

	for (unsigned i = 0; i < n; i++)
		s += x[i];
	return n ? s / n : NAN;
}

void curve_line_of(const struct curve_result *r, enum curve_stat st,
		   struct curve_line *l)
{
	double ach[CURVE_REPEATS_MAX], val[CURVE_REPEATS_MAX];
	unsigned m;

	l->n = 0;
	if (r->n == 1) {
		const struct curve_one *c = &r->curves[0];

		for (unsigned i = 1; i < c->n; i++)
			if (c->step[i].rec.state == RS_OK) {
				l->x[l->n] = curve_achieved(&c->step[i]);
				l->y[l->n++] =
				    (double)curve_stat_of(&c->step[i].rec, st);
			}
	} else {
		for (unsigned i = 0; i < r->nsteps; i++) {
			m = curve_gather(r, r->pct[i], CURVE_STEP_LIST, st, ach,
					 val);
			if (!m)
				continue;
			l->x[l->n] = mean_of(ach, m);
			l->y[l->n++] = mean_of(val, m);
		}
	}
	m = curve_knees(r, ach);
	l->knee = m ? mean_of(ach, m) : NAN;
}
