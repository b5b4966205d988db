/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep_result: see sweep_result.h. A cell is " %7s %3s" wide, so a
 * mode's group of n block sizes is 12n characters and the dashed mode
 * heading is centred over exactly that.
 */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "clock.h"
#include "quoted.h"
#include "sweep_result.h"
#include "units.h"

#define CELL  12
#define LABEL "%-12s %-5s"

const char *sweep_mode_name(enum sweep_mode m)
{
	return m == SWEEP_DIRECT ? "direct" : "buffered";
}

const char *sweep_op_name(enum sweep_op o)
{
	return o == SWEEP_READ ? "read" : "write";
}

double sweep_mb_s(const struct sweep_cell *c)
{
	if (c->seconds <= 0)
		return 0.0;
	return (double)c->bytes / 1e6 / c->seconds;
}

int sweep_pcp(const struct sweep_cell *c)
{
	return clk_pcp(c->cpu, c->seconds);
}

void sweep_fmt_bs(char *buf, size_t len, uint64_t bs)
{
	units_fmt_small(buf, len, bs);
}

/* Lines are built whole so trailing blanks (a blank last cell, the
 * block-size heading) can be cut before they are printed. */
struct line {
	char buf[SWEEP_MODES * SWEEP_MAX_BS * CELL + 64];
	size_t len;
};

static void add(struct line *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < sizeof(l->buf) - l->len
			      ? (size_t)n
			      : sizeof(l->buf) - l->len - 1;
}

static void put(FILE *f, struct line *l)
{
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	l->buf[l->len] = '\0';
	fprintf(f, "%s\n", l->buf);
	l->len = 0;
}

/* "--- buffered ---" filling width characters. */
static void dashed(struct line *l, const char *name, unsigned width)
{
	unsigned n = (unsigned)strlen(name) + 2, left, right;

	/* Too narrow for dashes on both sides: the name, centred. */
	if (n + 4 > width) {
		left = n - 2 < width ? (width - (n - 2)) / 2 : 0;
		add(l, "%*s%-*s", (int)left, "", (int)(width - left), name);
		return;
	}
	left = (width - n) / 2;
	right = width - n - left;
	for (unsigned i = 0; i < left; i++)
		add(l, "-");
	add(l, " %s ", name);
	for (unsigned i = 0; i < right; i++)
		add(l, "-");
}

void sweep_print_table(FILE *f, const struct sweep_result *r)
{
	char size[32], bs[32];
	unsigned group = CELL * r->nbs;
	struct line l = {.len = 0};

	units_fmt_size(size, sizeof(size), r->size);
	fprintf(f, "%s, %s per cell\n", r->what, size);
	fputs("MB/s = 10^6 bytes/s (as dd), writes include fsync, the cache "
	      "is evicted before reads; %CP = CPU/elapsed; +++++ = under "
	      "0.5 s\n",
	      f);
	add(&l, LABEL, "", "");
	for (int m = 0; m < SWEEP_MODES; m++) {
		add(&l, " ");
		dashed(&l, sweep_mode_name((enum sweep_mode)m), group - 1);
	}
	put(f, &l);
	add(&l, LABEL, "", "");
	for (int m = 0; m < SWEEP_MODES; m++)
		for (unsigned b = 0; b < r->nbs; b++) {
			sweep_fmt_bs(bs, sizeof(bs), r->bs[b]);
			add(&l, " %7s    ", bs);
		}
	put(f, &l);
	add(&l, LABEL, "target", "op");
	for (int m = 0; m < SWEEP_MODES; m++)
		for (unsigned b = 0; b < r->nbs; b++)
			add(&l, " %7s %3s", "MB/s", "%CP");
	put(f, &l);
	for (unsigned s = 0; s < r->nstages; s++) {
		const struct sweep_stage *st = &r->stage[s];

		for (int o = 0; o < SWEEP_OPS; o++) {
			add(&l, LABEL, o == 0 ? st->label : "",
			    sweep_op_name((enum sweep_op)o));
			for (int m = 0; m < SWEEP_MODES; m++)
				for (unsigned b = 0; b < r->nbs; b++) {
					const struct sweep_cell *c =
					    &st->cell[m][b][o];

					if (!c->done)
						add(&l, " %7s %3s", "", "");
					else if (clk_too_fast(c->seconds))
						add(&l, " %7s %3s", "+++++",
						    "+++");
					else
						add(&l, " %7.1f %3d",
						    sweep_mb_s(c),
						    sweep_pcp(c));
				}
			put(f, &l);
		}
	}
}

/* A field as CSV: quoted (quotes doubled) only when it must be. */
static void csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\n"))
		quoted_put(f, s, '"');
	else
		fputs(s, f);
}

void sweep_print_csv(FILE *f, const struct sweep_result *r)
{
	for (unsigned s = 0; s < r->nstages; s++) {
		const struct sweep_stage *st = &r->stage[s];

		for (int m = 0; m < SWEEP_MODES; m++)
			for (unsigned b = 0; b < r->nbs; b++)
				for (int o = 0; o < SWEEP_OPS; o++) {
					const struct sweep_cell *c =
					    &st->cell[m][b][o];

					if (!c->done)
						continue;
					csv_field(f, st->target);
					fprintf(
					    f,
					    ",%s,%s,%llu,%s,%llu,%.6f,"
					    "%.1f,%d\n",
					    st->fs,
					    sweep_mode_name((enum sweep_mode)m),
					    (unsigned long long)r->bs[b],
					    sweep_op_name((enum sweep_op)o),
					    (unsigned long long)c->bytes,
					    c->seconds, sweep_mb_s(c),
					    sweep_pcp(c));
				}
	}
}
