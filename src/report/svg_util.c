/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * svg_util: what the inline SVG charts (svg.c, svg_time.c) share: the
 * palette, text escaping, round linear axes from 0 with their gridlines
 * and labels, and the hatched "+++++" outline. Numbers are written with
 * a fixed small precision so the same input gives the same bytes.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "svg.h"

const char *const svg_palette[SVG_COLOURS] = {
    "#0072B2", "#E69F00", "#009E73", "#CC79A7",
    "#56B4E9", "#D55E00", "#F0E442", "#000000",
};

void svg_esc(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			/* Control characters are not allowed in XML text. */
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				fputs("&#xFFFD;", out);
			else
				fputc(*s, out);
		}
	}
}

void svg_axis_of(double max, struct svg_axis *a)
{
	static const double mult[] = {1, 2, 2.5, 5, 10};
	double mag;

	if (!(max > 0) || !isfinite(max))
		max = 1;
	/*
	 * From a step of at most max / 5 (5 or more steps) up: each next
	 * one is at most twice the last, so the first giving 5 steps or
	 * fewer gives at least 3.
	 */
	mag = pow(10, floor(log10(max / 5)));
	a->step = mag;
	for (int k = 0; k < 5; k++) {
		a->step = mult[k] * mag;
		a->n = (int)ceil(max / a->step - 1e-9);
		if (a->n <= 5)
			break;
	}
	if (a->n < 1)
		a->n = 1;
	a->top = a->n * a->step;
}

void svg_thousands(char *buf, size_t len, double v, int dec)
{
	char digits[64];
	const char *dot;
	size_t o = 0, ni;
	const char *p = digits;

	snprintf(digits, sizeof(digits), "%.*f", dec, v);
	if (*p == '-') {
		if (o + 1 < len)
			buf[o++] = '-';
		p++;
	}
	dot = strchr(p, '.');
	ni = dot ? (size_t)(dot - p) : strlen(p);
	for (size_t i = 0; i < ni && o + 2 < len; i++) {
		if (i && (ni - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = p[i];
	}
	if (dot)
		for (; *dot && o + 1 < len; dot++)
			buf[o++] = *dot;
	buf[o < len ? o : len - 1] = '\0';
}

void svg_axis_label(char *buf, size_t len, double v, double step)
{
	int dec = 0;

	/* As many decimals as the step has: 0.25 two, 2.5 one. */
	while (dec < 4 &&
	       fabs(step * pow(10, dec) - round(step * pow(10, dec))) > 1e-6)
		dec++;
	if (fabs(v) >= 10000)
		svg_thousands(buf, len, v, dec);
	else
		snprintf(buf, len, "%.*f", dec, v);
}

void svg_grid(FILE *out, double x, double y, double w, double h,
	      const struct svg_axis *a, int right)
{
	char label[48];

	for (int i = 0; i <= a->n; i++) {
		double gy = y + h - h * i / a->n;

		if (!right && i)
			fprintf(out,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
				x, gy, x + w, gy);
		svg_axis_label(label, sizeof(label), a->step * i, a->step);
		fprintf(out,
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s"
			"</text>\n",
			right ? x + w + 4 : x - 4, gy + 4,
			right ? "start" : "end", label);
	}
	/* The axes over the gridlines. */
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#000000\"/>\n",
		right ? x + w : x, y, right ? x + w : x, y + h);
	if (!right)
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#000000\"/>\n",
			x, y + h, x + w, y + h);
}

void svg_hatch(FILE *out, double x, double y, double w, double h,
	       const char *colour)
{
	const double gap = 5;

	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"#ffffff\" stroke=\"#555555\"/>\n",
		x, y, w, h);
	/*
	 * Lines x + y' = c (y' down from y), each cut to the outline: it
	 * enters at x' = max(0, c - h) and leaves at min(w, c).
	 */
	for (double c = gap; c < w + h; c += gap) {
		double x0 = c - h > 0 ? c - h : 0, x1 = c < w ? c : w;

		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\"/>\n",
			x + x0, y + (c - x0), x + x1, y + (c - x1), colour);
	}
}

double svg_text_width(const char *s)
{
	size_t chars = 0;

	/* A character per byte that does not continue a UTF-8 sequence. */
	for (; *s; s++)
		chars += ((unsigned char)*s & 0xc0) != 0x80;
	return 7.0 * (double)chars;
}

int svg_done(FILE *out)
{
	if (fflush(out) == EOF || ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
