/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_zcav: the trimmed mean of several passes and every line of
 * zcav's output, read back by a parser of zcav's lines (here: no program
 * reads them back); and clyde-zcav's command line, parsed many times in
 * one process. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "zcav_opts.h"
#include "zcav_result.h"
#include "check_main.h"

/* Run fn's printing into a string (freed by the caller). */
#define CAPTURE(buf, len, f, call)                                             \
	do {                                                                   \
		FILE *f = open_memstream(&(buf), &(len));                      \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

/* One line of the output, as zcav_parse_line reads it back. */
struct zcav_point {
	double gib;	/* offset of the block */
	double mib_s;	/* 0 for a commented-out block */
	double seconds; /* time for the block */
	int counted;	/* 0: faster than ZCAV_MIN_SECONDS ("#0.50 ++++ ...") */
};

/*
 * Parse a block line back. Returns 1 for a block line (counted or
 * commented out), 0 for any other line (header, summary, blank), -1 for
 * a line that starts like a block line but does not parse.
 */
static int zcav_parse_line(const char *line, struct zcav_point *p)
{
	char tail;

	memset(p, 0, sizeof(*p));
	if (line[0] == '#') {
		/* "#0.50 ++++ 0.412": a block too fast to count. */
		if (!strstr(line, "++++"))
			return 0;
		if (sscanf(line, "#%lf ++++ %lf %c", &p->gib, &p->seconds,
			   &tail) != 2)
			return -1;
		return 1;
	}
	if (line[0] == '\n' || line[0] == '\0')
		return 0;
	if (sscanf(line, "%lf %lf %lf %c", &p->gib, &p->mib_s, &p->seconds,
		   &tail) != 3)
		return -1;
	p->counted = 1;
	return 1;
}

START_TEST(trimmed_mean)
{
	double one[] = {4.0};
	double two[] = {1.0, 3.0};
	/* 3 values: the top and bottom third (one each) go. */
	double three[] = {9.0, 1.0, 5.0};
	/* 6 values: two dropped at each end, in any order given. */
	double six[] = {100.0, 2.0, 3.0, -50.0, 4.0, 1.0};
	double seven[] = {7, 6, 5, 4, 3, 2, 1};

	ck_assert_double_eq(zcav_trimmed_mean(one, 1), 4.0);
	ck_assert_double_eq(zcav_trimmed_mean(two, 2), 2.0);
	ck_assert_double_eq(zcav_trimmed_mean(three, 3), 5.0);
	ck_assert_double_eq(zcav_trimmed_mean(six, 6), 2.5);
	ck_assert_double_eq(zcav_trimmed_mean(seven, 7), 4.0);
	ck_assert_double_eq(zcav_trimmed_mean(NULL, 0), 0.0);
}
END_TEST

START_TEST(block_lines)
{
	char *s = NULL;
	size_t n = 0;
	int counted = -1;

	/* 512 MiB at 0.25 GiB in 2.279 s: 224.66 MiB/s. */
	CAPTURE(s, n, f,
		counted =
		    zcav_print_block(f, UNITS_GIB / 4, 512 * UNITS_MIB, 2.279));
	ck_assert_int_eq(counted, 1);
	ck_assert_str_eq(s, "0.25 224.66 2.279\n");
	free(s);
	/* Faster than 0.5 s: commented out, no rate. */
	CAPTURE(s, n, f,
		counted =
		    zcav_print_block(f, UNITS_GIB / 2, 512 * UNITS_MIB, 0.412));
	ck_assert_int_eq(counted, 0);
	ck_assert_str_eq(s, "#0.50 ++++ 0.412\n");
	free(s);
	/* Exactly the minimum counts. */
	CAPTURE(s, n, f, counted = zcav_print_block(f, 0, 32 * UNITS_MIB, 0.5));
	ck_assert_int_eq(counted, 1);
	ck_assert_str_eq(s, "0.00 64.00 0.500\n");
	free(s);
}
END_TEST

START_TEST(headers_and_summary)
{
	char *s = NULL;
	size_t n = 0;

	CAPTURE(s, n, f, zcav_print_loops(f, 3, "clyde-0.1"));
	ck_assert_str_eq(s, "#loops: 3, version: clyde-0.1\n");
	free(s);
	CAPTURE(s, n, f, zcav_print_columns(f));
	ck_assert_str_eq(s, "#block offset (GiB), MiB/s, time\n");
	free(s);
	/* bonnie++'s example: 1 GiB in 9.06 s. */
	CAPTURE(s, n, f, zcav_print_summary(f, "Read", UNITS_GIB, 9.06));
	ck_assert_str_eq(
	    s, "# Read 1 gigs in 9 seconds, 113 megabytes per second.\n");
	free(s);
	/* Under a GiB the count is in megs, as zcav 2.00 prints it. */
	CAPTURE(s, n, f, zcav_print_summary(f, "Read", 300 * UNITS_MIB, 0.25));
	ck_assert_str_eq(
	    s, "# Read 300 megs in 0 seconds, 1200 megabytes per second.\n");
	free(s);
	CAPTURE(s, n, f,
		zcav_print_summary(f, "Wrote", 5 * UNITS_GIB / 2, 25.6));
	ck_assert_str_eq(
	    s, "# Wrote 2 gigs in 25 seconds, 100 megabytes per second.\n");
	free(s);
	/* No time at all: no division by zero. */
	CAPTURE(s, n, f, zcav_print_summary(f, "Read", UNITS_MIB, 0.0));
	ck_assert_str_eq(
	    s, "# Read 1 megs in 0 seconds, 0 megabytes per second.\n");
	free(s);
}
END_TEST

START_TEST(parse_lines)
{
	struct zcav_point p;

	ck_assert_int_eq(zcav_parse_line("0.25 111.98 2.286\n", &p), 1);
	ck_assert(p.counted);
	ck_assert_double_eq_tol(p.gib, 0.25, 1e-9);
	ck_assert_double_eq_tol(p.mib_s, 111.98, 1e-9);
	ck_assert_double_eq_tol(p.seconds, 2.286, 1e-9);
	ck_assert_int_eq(zcav_parse_line("#0.50 ++++ 0.412\n", &p), 1);
	ck_assert(!p.counted);
	ck_assert_double_eq_tol(p.gib, 0.5, 1e-9);
	ck_assert_double_eq_tol(p.seconds, 0.412, 1e-9);
	ck_assert_int_eq(zcav_parse_line("#loops: 1, version: 1.03e\n", &p), 0);
	ck_assert_int_eq(
	    zcav_parse_line("#block offset (GiB), MiB/s, time\n", &p), 0);
	ck_assert_int_eq(
	    zcav_parse_line("# Read 1 gigs in 9 seconds, 113 megabytes "
			    "per second.\n",
			    &p),
	    0);
	ck_assert_int_eq(zcav_parse_line("\n", &p), 0);
	ck_assert_int_eq(zcav_parse_line("0.25 oops\n", &p), -1);
	ck_assert_int_eq(zcav_parse_line("0.25 1 2 3\n", &p), -1);
	ck_assert_int_eq(zcav_parse_line("#0.50 ++++\n", &p), -1);
}
END_TEST

/* What is printed parses back to what was measured. */
START_TEST(round_trip)
{
	char *s = NULL, *line, *save = NULL;
	size_t n = 0;
	struct zcav_point p;
	unsigned blocks = 0;

	CAPTURE(s, n, f, {
		zcav_print_loops(f, 1, "x");
		zcav_print_columns(f);
		for (unsigned i = 0; i < 8; i++)
			zcav_print_block(f, i * 32 * UNITS_MIB, 32 * UNITS_MIB,
					 0.3 + 0.1 * i);
		zcav_print_summary(f, "Read", 256 * UNITS_MIB, 5.2);
	});
	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int rc = zcav_parse_line(line, &p);

		ck_assert_int_ge(rc, 0);
		if (rc == 1) {
			ck_assert_double_eq_tol(p.gib, blocks / 32.0, 0.0051);
			ck_assert_double_eq_tol(p.seconds, 0.3 + 0.1 * blocks,
						0.0005);
			ck_assert_int_eq(p.counted, 0.3 + 0.1 * blocks >= 0.5);
			if (p.counted)
				ck_assert_double_eq_tol(
				    p.mib_s, 32 / (0.3 + 0.1 * blocks), 0.005);
			blocks++;
		}
	}
	ck_assert_uint_eq(blocks, 8);
	free(s);
}
END_TEST

/* A series of blocks of 32 MiB timed at secs[k * passes + p]. */
static void series_make(struct zcav_series *s, unsigned passes,
			const double *secs, unsigned nblocks)
{
	ck_assert_int_eq(zcav_series_init(s, "f", passes, 32 * UNITS_MIB), 0);
	for (unsigned k = 0; k < nblocks; k++) {
		ck_assert_int_eq(
		    zcav_series_add(s, k * 32 * UNITS_MIB, 32 * UNITS_MIB), 0);
		for (unsigned p = 0; p < passes; p++) {
			s->secs[k * passes + p] = secs[k * passes + p];
			s->pass_bytes[p] += 32 * UNITS_MIB;
			s->pass_secs[p] += secs[k * passes + p];
		}
	}
	s->done = passes;
}

/* zcav_print_series of s prints want. */
static void series_prints(const struct zcav_series *s, int write,
			  const char *want)
{
	char *out = NULL;
	size_t n = 0;

	CAPTURE(out, n, f, zcav_print_series(f, s, write, 1, "clyde-9"));
	ck_assert_str_eq(out, want);
	free(out);
}

/* A series' lines are the run's: one pass, blocks then its summary;
 * several, the summaries, then the trimmed means. */
START_TEST(series_lines)
{
	static const double one[] = {0.4, 1.0},
			    three[] = {1.0, 2.0, 9.0, 0.2, 0.3, 0.1};
	struct zcav_series s;

	series_make(&s, 1, one, 2);
	series_prints(&s, 0,
		      "#loops: 1, version: clyde-9\n"
		      "#block offset (GiB), MiB/s, time\n"
		      "#0.00 ++++ 0.400\n"
		      "0.03 32.00 1.000\n"
		      "# Read 64 megs in 1 seconds, 45 megabytes per "
		      "second.\n");
	zcav_series_free(&s);
	series_make(&s, 3, three, 2);
	series_prints(&s, 1,
		      "#loops: 3, version: clyde-9\n"
		      "# Wrote 64 megs in 1 seconds, 53 megabytes per second.\n"
		      "# Wrote 64 megs in 2 seconds, 27 megabytes per second.\n"
		      "# Wrote 64 megs in 9 seconds, 7 megabytes per second.\n"
		      "#no cliff: too few intervals to tell a drop from "
		      "noise: 1, where 7 are needed\n"
		      "#\n"
		      "#block offset (GiB), MiB/s, time\n"
		      "0.00 16.00 2.000\n"
		      "#0.03 ++++ 0.200\n");
	/* A run stopped before its last pass printed no means. */
	s.done = 1;
	series_prints(&s, 0,
		      "#loops: 3, version: clyde-9\n"
		      "# Read 64 megs in 1 seconds, 53 megabytes per "
		      "second.\n");
	zcav_series_free(&s);
}
END_TEST

/* Parse a NULL-terminated argument list (argv[0] added). */
#define PARSE(o, ...)                                                          \
	({                                                                     \
		char *av[] = {"clyde-zcav", __VA_ARGS__, NULL};                \
		zcav_opts_parse((int)(sizeof(av) / sizeof(av[0])) - 1, av,     \
				(o));                                          \
	})

START_TEST(opts_targets_and_logs)
{
	struct zcav_opts o;

	/* Twice in a row: the second call starts from scratch. */
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(PARSE(&o, "-b", "8:2", "-l", "a.log", "x",
				       "-l", "b.log", "-f", "y", "z"),
				 OPT_OK);
		ck_assert_int_eq(o.ntargets, 3);
		ck_assert_str_eq(o.target[0].path, "x");
		ck_assert_str_eq(o.target[0].log, "a.log");
		ck_assert_str_eq(o.target[1].path, "y");
		ck_assert_str_eq(o.target[1].log, "b.log");
		ck_assert_str_eq(o.target[2].path, "z");
		ck_assert_ptr_null(o.target[2].log);
		ck_assert_uint_eq(o.block, 8 * UNITS_MIB);
		ck_assert_uint_eq(o.chunk, 2 * UNITS_MIB);
	}
	ck_assert_int_eq(PARSE(&o, "-r", "4:8", "-"), OPT_OK);
	ck_assert_uint_eq(o.start, 4 * UNITS_MIB);
	ck_assert_uint_eq(o.end, 8 * UNITS_MIB);
	ck_assert_uint_eq(o.block, 512 * UNITS_MIB);
	ck_assert_int_eq(o.ntargets, 1);
	ck_assert_int_eq(PARSE(&o, "--version"), OPT_DONE);
}
END_TEST

START_TEST(opts_refused)
{
	struct zcav_opts o;
	static const char *const bad_b[] = {
	    "4:", ":4", "4::1", "4:1:", "-4", "4:-1", "", "4,1"};
	static const char *const bad_r[] = {":8",   "4:", "-4:8", "4:-8",
					    "4:8:", "::", "",	  "8:4"};

	for (size_t i = 0; i < sizeof(bad_b) / sizeof(bad_b[0]); i++)
		ck_assert_msg(PARSE(&o, "-b", (char *)bad_b[i], "x") == OPT_BAD,
			      "-b '%s' accepted", bad_b[i]);
	for (size_t i = 0; i < sizeof(bad_r) / sizeof(bad_r[0]); i++)
		ck_assert_msg(PARSE(&o, "-r", (char *)bad_r[i], "x") == OPT_BAD,
			      "-r '%s' accepted", bad_r[i]);
	/* Standard input twice, two logs to one name, a -l at the end. */
	ck_assert_int_eq(PARSE(&o, "-", "-l", "x", "-"), OPT_BAD);
	ck_assert_int_eq(PARSE(&o, "-l", "x", "a", "-l", "x", "b"), OPT_BAD);
	ck_assert_int_eq(PARSE(&o, "a", "-l", "x"), OPT_BAD);
	ck_assert_int_eq(PARSE(&o, "-l", "", "a"), OPT_BAD);
	ck_assert_int_eq(PARSE(&o, "-u", "root:", "a"), OPT_BAD);
	ck_assert_int_eq(PARSE(&o, "-u", ":root", "a"), OPT_BAD);
	ck_assert_int_eq(PARSE(&o, "a", "b"), OPT_BAD);
	ck_assert_int_eq(PARSE(&o, "--bogus", "a"), OPT_BAD);
	ck_assert_int_eq(PARSE(&o, "-b"), OPT_BAD);
	/* And after all that, a good line parses as the first time. */
	ck_assert_int_eq(PARSE(&o, "a"), OPT_OK);
	ck_assert_int_eq(o.ntargets, 1);
}
END_TEST

static Suite *zcav_suite(void)
{
	Suite *s = suite_create("zcav");
	TCase *tc = tcase_create("zcav");

	tcase_add_test(tc, trimmed_mean);
	tcase_add_test(tc, block_lines);
	tcase_add_test(tc, headers_and_summary);
	tcase_add_test(tc, parse_lines);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, series_lines);
	tcase_add_test(tc, opts_targets_and_logs);
	tcase_add_test(tc, opts_refused);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(zcav_suite)
