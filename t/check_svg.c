/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_svg: the html page's inline SVG charts (src/report/svg*.c) of
 * the fixtures: one <section> naming nothing outside (no script, no URL),
 * bars whose heights keep the ratio of the means, "+++++" as a hatched
 * marker and never a bar, %CP drawn no higher than 100 (a mark where it
 * is cut), labels escaped, the same bytes twice, a write error reported;
 * over time, one chart per test with intervals and nothing without. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "svg.h"
#include "check_main.h"

/* Input names: the rows of one input share the pointer (main.c's argv
 * entry), so each input gets its own string. */
static const char *const in_names[] = {"in-0", "in-1", "in-2"};

static void load_buf(struct report_set *set, int k, const char *buf, size_t len)
{
	ck_assert_int_eq(report_load(set, in_names[k], buf, len, 0, stderr), 0);
}

static void load_file(struct report_set *set, int k, const char *name)
{
	const char *dir = getenv("T_SRCDIR");
	char path[4096], *buf;
	size_t len;
	FILE *f;

	if (dir)
		snprintf(path, sizeof(path), "%s/data/%s", dir, name);
	else
		snprintf(path, sizeof(path), "%s/%s", T_DATA, name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	buf = malloc(1 << 20);
	ck_assert_ptr_nonnull(buf);
	len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	load_buf(set, k, buf, len);
	free(buf);
}

/* What a renderer writes, as a string (malloc'd). */
static char *render(const struct report_set *set, int over_time, size_t *len)
{
	char *s = NULL;
	FILE *f = open_memstream(&s, len);

	ck_assert_ptr_nonnull(f);
	if (over_time)
		ck_assert_int_eq(report_svg_over_time(f, set), 0);
	else
		ck_assert_int_eq(report_svg_bars(f, set, 0.05), 0);
	ck_assert_int_eq(fclose(f), 0);
	return s;
}

/* Nothing that fetches or runs: no script, no URL of any kind. */
static void self_contained(const char *s)
{
	ck_assert_msg(!strncmp(s, "<section", 8), "starts %.20s", s);
	ck_assert_ptr_nonnull(strstr(s, "<svg"));
	ck_assert_ptr_null(strcasestr(s, "script"));
	ck_assert_ptr_null(strcasestr(s, "http"));
	ck_assert_ptr_null(strcasestr(s, "url"));
	ck_assert_ptr_null(strcasestr(s, "href"));
	ck_assert_ptr_null(strstr(s, "xmlns"));
}

/* The element of class cls with these data attributes; NULL if none. */
static const char *find_el(const char *s, const char *el, const char *cls,
			   const char *fig, int series, const char *panel)
{
	char key[160];

	snprintf(key, sizeof(key),
		 "<%s class=\"%s\" data-fig=\"%s\" data-series=\"%d\" "
		 "data-panel=\"%s\"",
		 el, cls, fig, series, panel);
	return strstr(s, key);
}

/* Attribute name's number in the element starting at el. */
static double attr(const char *el, const char *name)
{
	char key[40];
	const char *end = strchr(el, '>'), *a;

	snprintf(key, sizeof(key), " %s=\"", name);
	a = strstr(el, key);
	ck_assert_msg(a && a < end, "no %s in %.80s", name, el);
	return strtod(a + strlen(key), NULL);
}

static double bar_height(const char *s, const char *fig, int series,
			 const char *panel)
{
	const char *el = find_el(s, "rect", "bar", fig, series, panel);

	ck_assert_msg(el != NULL, "no %s bar %d of %s", panel, series, fig);
	return attr(el, "height");
}

/* The mirroring repeats: block output 134822/131200/137900 against
 * 168000/171300/165800 KiB/s, the bars as tall as their means say. */
START_TEST(bars_keep_ratio_of_means)
{
	struct report_set set = {0};
	const double on = (134822.0 + 131200 + 137900) / 3;
	const double off = (168000.0 + 171300 + 165800) / 3;
	const double rw_on = (69414.0 + 70100 + 68900) / 3;
	const double rw_off = (86600.0 + 87900 + 85700) / 3;
	size_t len, len2;
	char *s, *again;
	double h0, h1;

	load_file(&set, 0, "compare-repeats.csv");
	s = render(&set, 0, &len);
	self_contained(s);
	h0 = bar_height(s, "put_block", 0, "rate");
	h1 = bar_height(s, "put_block", 1, "rate");
	ck_assert_msg(fabs(h1 / h0 - off / on) < 1e-3, "%g / %g, not %g", h1,
		      h0, off / on);
	h0 = bar_height(s, "rewrite", 0, "rate");
	h1 = bar_height(s, "rewrite", 1, "rate");
	ck_assert_msg(fabs(h1 / h0 - rw_off / rw_on) < 1e-3, "%g / %g", h1, h0);
	/* The verdicts beside the bars: compare's words. */
	ck_assert_ptr_nonnull(
	    strstr(find_el(s, "g", "verdict", "put_block", 1, "rate"),
		   ">+25.0% faster<"));
	ck_assert_ptr_nonnull(
	    strstr(find_el(s, "g", "verdict", "putc", 1, "rate"),
		   ">-0.2% within noise<"));
	/* A CI whisker for repeats, a hover text with mean, CI and n. */
	ck_assert_ptr_nonnull(strstr(s, "<path class=\"ci\""));
	ck_assert_ptr_nonnull(strstr(s, "<title>mirror-off (mean of 3), "
					"block output: 164.4 &#177; "));
	ck_assert_ptr_nonnull(strstr(s, "#0072B2"));
	ck_assert_ptr_nonnull(strstr(s, "#E69F00"));
	/* The same bytes again. */
	again = render(&set, 0, &len2);
	ck_assert_uint_eq(len, len2);
	ck_assert_mem_eq(s, again, len);
	free(again);
	free(s);
	report_free(&set);
}
END_TEST

/* seq_stat is "+++++" in every line: a hatched marker, no bar, and the
 * note; the timed figures beside it are bars. */
START_TEST(fast_cell_is_hatched)
{
	struct report_set set = {0};
	size_t len;
	char *s;

	load_file(&set, 0, "compare-repeats.csv");
	s = render(&set, 0, &len);
	for (int i = 0; i < 2; i++) {
		const char *g = find_el(s, "g", "fast", "seq_stat", i, "rate");

		ck_assert_ptr_nonnull(g);
		ck_assert_ptr_null(
		    find_el(s, "rect", "bar", "seq_stat", i, "rate"));
		ck_assert_ptr_null(
		    find_el(s, "rect", "bar", "seq_stat", i, "cpu"));
		ck_assert_ptr_nonnull(
		    find_el(s, "g", "fast", "seq_stat", i, "cpu"));
		/* Hatched: lines inside, and its label. */
		ck_assert_ptr_nonnull(strstr(g, "<line "));
		ck_assert(strstr(g, "+++++</text>") < strstr(g, "</g>"));
		/* A worst latency was timed: that one is a bar. */
		ck_assert_ptr_nonnull(
		    find_el(s, "rect", "bar", "seq_stat", i, "lat"));
	}
	ck_assert_ptr_nonnull(strstr(s, "+++++: under 0.5 s, not timed"));
	free(s);
	report_free(&set);

	/* A JSON run's "+++++" knows its exact rate, and is still no bar. */
	memset(&set, 0, sizeof(set));
	load_file(&set, 0, "run.json");
	s = render(&set, 0, &len);
	self_contained(s);
	ck_assert_ptr_nonnull(find_el(s, "g", "fast", "put_block", 0, "rate"));
	ck_assert_ptr_null(find_el(s, "rect", "bar", "put_block", 0, "rate"));
	free(s);
	report_free(&set);
}
END_TEST

/* A 1.98 line of the fixtures' shape, named name, put_block's %CP cpu. */
static int line(char *buf, size_t len, const char *name, int cpu, int rate)
{
	return snprintf(buf, len,
			"1.98,2.00a,%s,1,1,16G,,8192,5,51346,98,%d,%d,69414,17,"
			"58651,97,251779,23,758.8,1,16,,,,,20048,91,+++++,+++,"
			"5846,18,18707,84,+++++,+++,2935,9,20ms,400ms,500ms,"
			"30ms,90ms,600ms,3000us,200us,9000us,3100us,150us,"
			"8000us\n",
			name, rate, cpu);
}

/* The plot area's top and bottom: the panel's vertical axis line. */
static void cpu_area(const char *s, double *top, double *base)
{
	const char *p = strstr(s, "<svg class=\"panel\" data-panel=\"cpu\"");

	ck_assert_ptr_nonnull(p);
	while ((p = strstr(p, "<line ")) != NULL) {
		if (attr(p, "x1") == attr(p, "x2")) {
			*top = attr(p, "y1");
			*base = attr(p, "y2");
			return;
		}
		p++;
	}
	ck_abort_msg("no axis in the %%CP panel");
}

/* %CP above 100 (several processes) is drawn up to 100 with a mark; a
 * CI reaching past 100 is cut there, with the mark too. */
START_TEST(cpu_capped_at_100)
{
	struct report_set set = {0};
	char buf[4096];
	int n = 0;
	size_t len;
	double top, base;
	char *s;
	const char *p;

	n += line(buf + n, sizeof(buf) - n, "one", 56, 134822);
	n += line(buf + n, sizeof(buf) - n, "many", 150, 400000);
	n += line(buf + n, sizeof(buf) - n, "near", 90, 130000);
	n += line(buf + n, sizeof(buf) - n, "near", 100, 131000);
	n += line(buf + n, sizeof(buf) - n, "near", 108, 132000);
	load_buf(&set, 0, buf, (size_t)n);
	s = render(&set, 0, &len);
	self_contained(s);
	cpu_area(s, &top, &base);
	ck_assert(base - top > 50);
	for (p = s; (p = strstr(p, "<rect class=\"bar\"")) != NULL; p++) {
		if (!strstr(p, "data-panel=\"cpu\"") ||
		    strstr(p, "data-panel=\"cpu\"") > strchr(p, '>'))
			continue;
		ck_assert_msg(attr(p, "y") >= top - 0.01, "%.120s", p);
		ck_assert(fabs(attr(p, "y") + attr(p, "height") - base) < 0.01);
	}
	/* many's 150 is a full bar; its mark; near's CI is cut too. */
	ck_assert(fabs(bar_height(s, "put_block", 1, "cpu") - (base - top)) <
		  0.01);
	p = strstr(s, "<polygon class=\"cap\"");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(p, "<title>150: drawn up to 100</title>"));
	p = strstr(p + 1, "<polygon class=\"cap\"");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(p, "<title>95% CI up to "));
	free(s);
	report_free(&set);
}
END_TEST

/* Names come from the input: every special character escaped. */
START_TEST(labels_escaped)
{
	struct report_set set = {0};
	char buf[1024];
	int n = line(buf, sizeof(buf), "a<b>&\"c'", 56, 134822);
	size_t len;
	char *s;

	load_buf(&set, 0, buf, (size_t)n);
	s = render(&set, 0, &len);
	self_contained(s);
	ck_assert_ptr_nonnull(strstr(s, ">a&lt;b&gt;&amp;&quot;c&#39;<"));
	ck_assert_ptr_null(strstr(s, "a<b"));
	free(s);
	report_free(&set);
}
END_TEST

/* No rows: nothing; a write error: -1 with the stream's errno. */
START_TEST(empty_and_write_error)
{
	struct report_set set = {0};
	size_t len;
	char *s = render(&set, 0, &len);
	FILE *f;

	ck_assert_uint_eq(len, 0);
	free(s);
	s = render(&set, 1, &len);
	ck_assert_uint_eq(len, 0);
	free(s);
	load_file(&set, 0, "compare-repeats.csv");
	f = fopen("/dev/full", "w");
	ck_assert_ptr_nonnull(f);
	errno = 0;
	ck_assert_int_eq(report_svg_bars(f, &set, 0.05), -1);
	ck_assert_int_eq(errno, ENOSPC);
	fclose(f);
	report_free(&set);
}
END_TEST

/* t/data/intervals.json: clyde --log-interval=200 of putc, put_block and
 * rewrite: a chart each, a step per interval; run.json has none. */
START_TEST(over_time_charts)
{
	static const char *const tests[] = {"putc", "put_block", "rewrite"};
	struct report_set set = {0};
	size_t len, charts = 0;
	const char *p;
	char *s, key[96];

	load_file(&set, 0, "intervals.json");
	s = render(&set, 1, &len);
	self_contained(s);
	for (p = s; (p = strstr(p, "<svg class=\"time\"")) != NULL; p++)
		charts++;
	ck_assert_uint_eq(charts, 3);
	for (int i = 0; i < 3; i++) {
		snprintf(key, sizeof(key),
			 "<svg class=\"time\" data-fig=\"%s\" data-row=\"0\"",
			 tests[i]);
		ck_assert_msg(strstr(s, key) != NULL, "no chart of %s",
			      tests[i]);
	}
	/* putc has 29 intervals: 29 steps and a p99 dot each. */
	p = strstr(s, "data-fig=\"putc\"");
	{
		const char *end = strstr(p, "</svg>");
		const char *path = strstr(p, "<path class=\"rate\"");
		size_t steps = 0, dots = 0;

		ck_assert(path && path < end);
		end = strstr(path, "\"/>");
		for (const char *q = path; (q = strchr(q, 'H')) && q < end; q++)
			steps++;
		end = strstr(p, "</svg>");
		for (const char *q = p;
		     (q = strstr(q, "<circle class=\"p99\"")) && q < end; q++)
			dots++;
		ck_assert_uint_eq(steps, 29);
		ck_assert_uint_eq(dots, 29);
	}
	free(s);
	report_free(&set);

	memset(&set, 0, sizeof(set));
	load_file(&set, 0, "run.json");
	load_file(&set, 1, "compare-repeats.csv");
	s = render(&set, 1, &len);
	ck_assert_uint_eq(len, 0);
	free(s);
	report_free(&set);
}
END_TEST

static Suite *svg_suite(void)
{
	Suite *s = suite_create("svg");
	TCase *tc = tcase_create("svg");

	tcase_add_test(tc, bars_keep_ratio_of_means);
	tcase_add_test(tc, fast_cell_is_hatched);
	tcase_add_test(tc, cpu_capped_at_100);
	tcase_add_test(tc, labels_escaped);
	tcase_add_test(tc, empty_and_write_error);
	tcase_add_test(tc, over_time_charts);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(svg_suite)
