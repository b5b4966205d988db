/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot_key: the key under a picture of plot_draw's bar charts, laid out
 * here rather than by gnuplot (whose key drops or clips entries that do
 * not fit its guess of their width): the series drawn in the charts,
 * then the marks drawn (CI bars, p99 dots, "+++++" hatching, the %CP
 * triangles), in columns of rows across the picture, each column as
 * wide as the longest entry. Its height is known before the picture is
 * set up, so the picture is made tall enough for every row.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "gnuplot.h"
#include "plot.h"

/* Pixels. */
#define PX_WIDTH  PLOT_PX_WIDTH
#define PX_KEYROW 19
#define PX_KEYPAD 10 /* above and under the key's rows */
#define PX_KEYX	  14 /* the key's left edge */
#define PX_SAMPLE 36 /* a key entry's sample and the gap to its text */
#define PX_CHAR	  8  /* a generous width of a character of the key */

/* The key's marks, after its series, in this order. */
enum { MK_CI, MK_P99, MK_FAST, MK_OVER, MK_OVER_CI };

/* Whether series s has something in any of the charts [first, last]. */
static int keyed(const struct plot *p, size_t s, int first, int last)
{
	for (int pi = first; pi <= last; pi++)
		if (p->pd[pi].slot[s])
			return 1;
	return 0;
}

/* Characters of UTF-8 text (plot_clean_text leaves it valid). */
static size_t text_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

void plot_key_of(const struct plot *p, int first, int last, struct plot_key *k)
{
	int ci = 0, p99 = 0, fast = 0, over = 0, over_ci = 0, series = 0;
	size_t chars = 0;
	int colpx;

	memset(k, 0, sizeof(*k));
	for (int pi = first; pi <= last; pi++) {
		ci |= p->pd[pi].any_ci;
		p99 |= p->pd[pi].any_p99;
		fast |= p->pd[pi].any_fast;
		over |= p->pd[pi].any_over;
		over_ci |= p->pd[pi].any_over_ci;
	}
	for (size_t s = 0; s < p->nseries; s++)
		if (keyed(p, s, first, last)) {
			series++;
			if (text_chars(p->series[s].label) > chars)
				chars = text_chars(p->series[s].label);
		}
	if (series) {
		k->mark[MK_CI] = ci ? "95% CI of the mean" : NULL;
		k->mark[MK_P99] = p99 ? "p99 latency" : NULL;
		if (fast)
			k->mark[MK_FAST] =
			    first == P_CPU && last == P_CPU
				? "+++: under 0.5 s, not timed"
			    : p->pd[P_CPU].any_fast && first <= P_CPU &&
				    last >= P_CPU
				? "+++++ (%CP: +++): under 0.5 s, not timed"
				: "+++++: under 0.5 s, not timed";
		k->mark[MK_OVER] =
		    over ? "%CP past 100 (several processes): capped at 100"
			 : NULL;
		k->mark[MK_OVER_CI] =
		    over_ci ? "95% CI past 100: capped at 100" : NULL;
	}
	k->entries = series;
	for (int m = 0; m < PLOT_KEY_MARKS; m++)
		if (k->mark[m]) {
			k->entries++;
			if (text_chars(k->mark[m]) > chars)
				chars = text_chars(k->mark[m]);
		}
	colpx = (int)chars * PX_CHAR + PX_SAMPLE + 2 * PX_CHAR;
	k->cols = (PX_WIDTH - 2 * PX_KEYX) / colpx;
	if (k->cols < 1)
		k->cols = 1;
	if (k->entries) {
		k->rows = (k->entries + k->cols - 1) / k->cols;
		/* As few columns as those rows need, spread over the
		 * width. */
		k->cols = (k->entries + k->rows - 1) / k->rows;
	}
	k->step = (double)(PX_WIDTH - 2 * PX_KEYX) / k->cols;
	if (k->step < colpx)
		k->step = colpx;
	k->px = k->rows * PX_KEYROW + 2 * PX_KEYPAD;
}

/* Key entry i's place: its sample's left edge and its row's middle, in
 * pixels from the key's bottom left. */
static void key_at(const struct plot_key *k, int i, double *x, double *y)
{
	*x = PX_KEYX + (i / k->rows) * k->step;
	*y = k->px - PX_KEYPAD - (i % k->rows + 0.5) * PX_KEYROW;
}

/* Mark m's sample at x, y, tag its own. */
static void key_sample(FILE *f, int m, int tag, double x, double y)
{
	switch (m) {
	case MK_CI:
		fprintf(f,
			"set arrow %d from %.1f, %.1f to %.1f, %.1f heads size "
			"first 5, 90 lt -1\n",
			tag, x + 11, y - 6, x + 11, y + 6);
		break;
	case MK_FAST:
		fprintf(f,
			"set object %d rect from %.1f, %.1f to %.1f, %.1f fc "
			"rgb '#404040' fs transparent pattern 4 border lc rgb "
			"'#404040'\n",
			tag, x, y - 5, x + 22, y + 5);
		break;
	default:
		fprintf(f,
			"set label %d '' at %.1f, %.1f point pt %s lc rgb "
			"'#000000'\n",
			tag, x + 11, y,
			m == MK_P99    ? "7 ps 0.8"
			: m == MK_OVER ? "9 ps 1.2"
				       : "8 ps 1.2");
		break;
	}
}

/* The key, laid out by plot_key_of, in the band of its height at the
 * bottom of a picture of height pixels. */
void plot_key_write(FILE *f, const struct plot *p, int first, int last,
		    const struct plot_key *k, int height)
{
	int i = 0, tag = 10;
	double x, y;

	fprintf(f,
		"\n# The key: the results drawn here, for every panel; %d "
		"row%s of %d column%s,\n# placed in pixels from its bottom "
		"left\n"
		"set lmargin at screen 0\nset rmargin at screen 1\n"
		"set bmargin at screen 0\nset tmargin at screen %.4f\n"
		"unset title\nunset ylabel\nunset border\nunset xtics\n"
		"unset ytics\nunset grid\nset xrange [0:%d]\nset yrange "
		"[0:%d]\n",
		k->rows, k->rows == 1 ? "" : "s", k->cols,
		k->cols == 1 ? "" : "s", (double)k->px / height, PX_WIDTH,
		k->px);
	for (size_t s = 0; s < p->nseries; s++) {
		if (!keyed(p, s, first, last))
			continue;
		key_at(k, i++, &x, &y);
		fprintf(f,
			"set object %d rect from %.1f, %.1f to %.1f, %.1f fc "
			"lt %zu fs solid 0.9 border lc rgb '#404040'\n"
			"set label %d name[%zu] at %.1f, %.1f left\n",
			tag, x, y - 5, x + 22, y + 5, s + 1, tag, s + 1,
			x + PX_SAMPLE, y);
		tag++;
	}
	for (int m = 0; m < PLOT_KEY_MARKS; m++) {
		if (!k->mark[m])
			continue;
		key_at(k, i++, &x, &y);
		key_sample(f, m, tag, x, y);
		fprintf(f, "set label %d ", tag + 1);
		plot_quote(f, k->mark[m]);
		fprintf(f, " at %.1f, %.1f left\n", x + PX_SAMPLE, y);
		tag += 2;
	}
	fputs("plot NaN notitle\nunset object\nunset arrow\nunset label\n"
	      "set border 3 front\n",
	      f);
}
