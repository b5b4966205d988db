/*
 * sweep: see sweep.h. A cell is " %7s %3s" wide, so a mode's group of
 * n block sizes is 12n characters and the dashed mode heading is
 * centred over exactly that.
 */
#include "config.h"

#include <string.h>

#include "clock.h"
#include "sweep.h"
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

/* "--- buffered ---" filling width characters. */
static void dashed(FILE *f, const char *name, unsigned width)
{
	unsigned n = (unsigned)strlen(name) + 2, left, right;

	if (n >= width) {
		fprintf(f, "%-*s", (int)width, name);
		return;
	}
	left = (width - n) / 2;
	right = width - n - left;
	for (unsigned i = 0; i < left; i++)
		fputc('-', f);
	fprintf(f, " %s ", name);
	for (unsigned i = 0; i < right; i++)
		fputc('-', f);
}

void sweep_print_table(FILE *f, const struct sweep_result *r)
{
	char size[32], bs[32];
	unsigned group = CELL * r->nbs;

	units_fmt_size(size, sizeof(size), r->size);
	fprintf(f, "%s, %s per cell\n", r->what, size);
	fputs("MB/s = 10^6 bytes/s (as dd), writes include fsync, the cache "
	      "is evicted before reads; %CP = CPU/elapsed; +++++ = under "
	      "0.5 s\n",
	      f);
	fprintf(f, LABEL, "", "");
	for (int m = 0; m < SWEEP_MODES; m++) {
		fputc(' ', f);
		dashed(f, sweep_mode_name((enum sweep_mode)m), group - 1);
	}
	fputc('\n', f);
	fprintf(f, LABEL, "", "");
	for (int m = 0; m < SWEEP_MODES; m++)
		for (unsigned b = 0; b < r->nbs; b++) {
			sweep_fmt_bs(bs, sizeof(bs), r->bs[b]);
			fprintf(f, " %7s    ", bs);
		}
	fputc('\n', f);
	fprintf(f, LABEL, "target", "op");
	for (int m = 0; m < SWEEP_MODES; m++)
		for (unsigned b = 0; b < r->nbs; b++)
			fprintf(f, " %7s %3s", "MB/s", "%CP");
	fputc('\n', f);
	for (unsigned s = 0; s < r->nstages; s++) {
		const struct sweep_stage *st = &r->stage[s];

		for (int o = 0; o < SWEEP_OPS; o++) {
			fprintf(f, LABEL, o == 0 ? st->label : "",
				sweep_op_name((enum sweep_op)o));
			for (int m = 0; m < SWEEP_MODES; m++)
				for (unsigned b = 0; b < r->nbs; b++) {
					const struct sweep_cell *c =
					    &st->cell[m][b][o];

					if (!c->done)
						fprintf(f, " %7s %3s", "", "");
					else if (clk_too_fast(c->seconds))
						fprintf(f, " %7s %3s", "+++++",
							"+++");
					else
						fprintf(f, " %7.1f %3d",
							sweep_mb_s(c),
							sweep_pcp(c));
				}
			fputc('\n', f);
		}
	}
}

/* A field as CSV: quoted (quotes doubled) only when it must be. */
static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
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
