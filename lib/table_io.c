/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table_io: a random-I/O figure's own parts in the text tables: its
 * service times beside its response times, its reads and writes apart
 * (when it did both) and the schedule of an offered rate. A test
 * without them prints nothing here, so every other table stays as it
 * was.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "table.h"
#include "units.h"

/* The name column of the More figures section (table.c's). */
#define NAME_WIDTH 19

/* Whether rec has anything for this section. */
static int has_io(const struct result_test_rec *rec)
{
	return rec->state == RS_OK && rec->io &&
	       (result_svc_shown(rec) || result_kinds_shown(rec) ||
		rec->sched.rate);
}

/* The p50, p99, p99.9 and max of h into v; zeros when h holds nothing. */
static void figures_of(const struct hist *h, uint64_t v[4])
{
	static const double ps[] = {50, 99, 99.9};

	memset(v, 0, 4 * sizeof(*v));
	if (!h || !h->count)
		return;
	for (unsigned k = 0; k < 3; k++)
		v[k] = hist_percentile(h, ps[k]);
	v[3] = h->max_ns;
}

/* The response row: its operations a second, and its percentiles as
 * its cell has them (a document read without histograms has them
 * there too). */
static void response_row(const struct table_io_sink *k, void *arg,
			 const struct result_test_rec *rec,
			 const struct csv_cell *c, enum result_test t)
{
	uint64_t ops =
	    rec->kind[RESULT_READS].ops + rec->kind[RESULT_WRITES].ops;
	uint64_t v[4] = {0};
	double iops = -1;

	if (ops)
		iops = result_kind_iops(rec, RESULT_READS) +
		       result_kind_iops(rec, RESULT_WRITES);
	else if (result_test_kind(t) == RK_OPS)
		iops = result_rate(rec, RK_OPS);
	if (c->has_pct) {
		v[0] = c->p50_ns;
		v[1] = c->p99_ns;
		v[2] = c->p999_ns;
	}
	v[3] = c->lat_ns;
	k->row(arg, t, "response", iops, v);
}

void table_io_walk(const struct run_result *r, const struct csv_cell *c,
		   const struct table_io_sink *k, void *arg)
{
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct result_test_rec *rec = &r->t[t];
		uint64_t v[4];

		if (!has_io(rec))
			continue;
		response_row(k, arg, rec, &c[t], t);
		if (result_svc_shown(rec)) {
			figures_of(rec->svc, v);
			k->row(arg, t, "service", -1, v);
		}
		for (int i = 0; result_kinds_shown(rec) && i < RESULT_KINDS;
		     i++) {
			figures_of(rec->kind[i].lat, v);
			k->row(arg, t, result_kind_name(i),
			       result_kind_iops(rec, i), v);
		}
		if (rec->sched.rate)
			k->sched(arg, t, &rec->sched);
	}
}

void table_io_sched_text(char *buf, size_t len, const struct result_sched *s)
{
	int n = snprintf(
	    buf, len,
	    "%s: %llu due, %llu issued (%.1f%% never), %llu late (%.1f%% "
	    "of issued)",
	    s->fixed ? "fixed" : "poisson", (unsigned long long)s->due,
	    (unsigned long long)s->issued, result_behind_share(s) * 100.0,
	    (unsigned long long)s->late, result_late_share(s) * 100.0);

	/* Of those late, the ones the target held up (the rest woke late). */
	if (s->late && s->held_kept && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", %llu held for a slot",
			 (unsigned long long)s->late_held);
}

/* The text section's state: where, for which run, and whether its head
 * is out. */
struct text_io {
	FILE *out;
	const char *name;
	int *head;
};

static void text_head(struct text_io *x)
{
	if (*x->head)
		return;
	fprintf(x->out, "%-*s %-16s %-9s %10s %9s %9s %9s %9s\n", NAME_WIDTH,
		"Random I/O", "test", "part", "IOPS", "p50", "p99", "p99.9",
		"max");
	*x->head = 1;
}

/* One row: name, test, part, IOPS (negative: none), then p50, p99,
 * p99.9 and max from v ("-" for 0: not known). */
static void text_row(void *arg, enum result_test t, const char *part,
		     double iops, const uint64_t v[4])
{
	struct text_io *x = arg;
	char rate[32], cell[32];

	text_head(x);
	if (iops >= 0)
		snprintf(rate, sizeof(rate), "%.1f", iops);
	else
		snprintf(rate, sizeof(rate), "-");
	fprintf(x->out, "%-*.*s %-16s %-9s %10s", NAME_WIDTH, NAME_WIDTH,
		x->name, result_test_name(t), part, rate);
	for (unsigned k = 0; k < 4; k++) {
		if (v[k])
			units_fmt_latency(cell, sizeof(cell), v[k]);
		else
			snprintf(cell, sizeof(cell), "-");
		fprintf(x->out, " %9s", cell);
	}
	fputc('\n', x->out);
}

/* The schedule's line: what was offered and how much of it was kept. */
static void text_sched(void *arg, enum result_test t,
		       const struct result_sched *s)
{
	struct text_io *x = arg;
	char what[160];

	text_head(x);
	table_io_sched_text(what, sizeof(what), s);
	fprintf(x->out, "%-*.*s %-16s %-9s %10llu IOPS %s\n", NAME_WIDTH,
		NAME_WIDTH, x->name, result_test_name(t), "offered",
		(unsigned long long)s->rate, what);
}

void table_print_io(FILE *out, const char *name, const struct run_result *r,
		    const struct csv_cell *c, int *head)
{
	static const struct table_io_sink text = {text_row, text_sched};
	struct text_io x = {out, name, head};

	table_io_walk(r, c, &text, &x);
}

void table_latency_io_rows(FILE *out, const struct result_test_rec *rec)
{
	static const char *const kinds[] = {"  read", "  write"};

	if (result_svc_shown(rec))
		table_latency_row(out, "  service", rec->svc);
	for (int k = 0; result_kinds_shown(rec) && k < RESULT_KINDS; k++)
		if (rec->kind[k].lat && rec->kind[k].lat->count)
			table_latency_row(out, kinds[k], rec->kind[k].lat);
}
