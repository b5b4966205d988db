/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_live: the status line (src/clyde/live.c) drawn from made-up
 * operation counts and times: nothing at the first operation's end,
 * then the share done, the rates, the ETAs and the erase; the time limit
 * as the share when it is further on; the cut to the terminal's width;
 * --progress's values and when the line is wanted. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live.h"
#include "options.h"
#include "phase.h"
#include "plan.h"
#include "check_main.h"

#define MS 1000000ull

/* o from the line "clyde ARGS" (at most 15 words; args is kept). */
static enum opt_result parse(struct clyde_opts *o, char *args)
{
	char *argv[16] = {"clyde"}, *save = NULL;
	int argc = 1;
	FILE *null = fopen("/dev/null", "w");
	enum opt_result st;

	for (char *t = strtok_r(args, " ", &save); t && argc < 15;
	     t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	st = opts_parse(argc, argv, o, null, null);
	fclose(null);
	return st;
}

/* Whether s begins with p. */
static int starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* What the view wrote since the last look, from *seen on. */
static const char *since(FILE *f, char **text, size_t *len, size_t *seen)
{
	const char *s;

	fflush(f);
	s = *text + *seen;
	*seen = *len;
	return s;
}

START_TEST(draws_then_erases)
{
	char args[] = "-d . -s 1m:8k -r 0 -n 0 --only=put_block,get_block";
	struct clyde_opts o;
	struct run_plan plan;
	struct phase_out out = {.ops = 1};
	char *text = NULL;
	size_t len = 0, seen = 0;
	FILE *f = open_memstream(&text, &len);
	struct live *lv;
	uint64_t t0, due;
	const char *s;

	ck_assert_int_eq(parse(&o, args), OPT_OK);
	ck_assert_ptr_nonnull(f);
	plan_init(&plan, &o);
	ck_assert_ptr_nonnull(lv = live_new(f, &plan));
	live_run_begin(lv, 0);
	/* Due at once: the first operation's end starts the clock, and
	 * draws nothing. */
	ck_assert_uint_eq(
	    live_begin(lv, &phase_put_block_ops, "Writing intelligently", 1),
	    0);
	t0 = clk_now_ns();
	ck_assert_uint_eq(live_tick(lv, &out, t0), t0 + 250 * MS);
	ck_assert_str_eq(since(f, &text, &len, &seen), "");
	/* 64 more chunks of 8 KiB in 0.4 s: 65 of 128 done, 1.25 MiB/s,
	 * 63 left at 160 a second; then block input's 1 MiB at that rate
	 * (0.8 s): 1.2 s in all. Next due on the 250 ms grid, but not
	 * within 125 ms. */
	out.ops = 65;
	due = live_tick(lv, &out, t0 + 400 * MS);
	ck_assert_uint_eq(due, t0 + 525 * MS);
	s = since(f, &text, &len, &seen);
	ck_assert_msg(starts(s, "\rput_block 51% 1.25MiB/s avg 1.25MiB/s 0:00 "
				"eta 0:00 | all "),
		      "%s", s);
	ck_assert_msg(strstr(s, " eta 0:01\033[K") && s[strlen(s) - 1] == 'K' &&
			  !strchr(s, '\n'),
		      "%s", s);
	/* 48 more in the next 0.2 s: the rate now is over that 0.2 s,
	 * the average over 0.6 s; next due on the grid. */
	out.ops = 113;
	ck_assert_uint_eq(live_tick(lv, &out, t0 + 600 * MS), t0 + 750 * MS);
	s = since(f, &text, &len, &seen);
	ck_assert_msg(strstr(s, "put_block 88% 1.88MiB/s avg 1.46MiB/s "), "%s",
		      s);
	/* The end: erased, the progress text back, nothing else. */
	live_end(lv, &out, 1);
	ck_assert_str_eq(since(f, &text, &len, &seen),
			 "\r\033[KWriting intelligently...");
	/* Another prefix than the phase's own: the untimed maker. */
	live_begin(lv, &phase_put_block_ops, "Preparing the data file", 1);
	t0 = clk_now_ns();
	live_tick(lv, &out, t0);
	out.ops = 129;
	live_tick(lv, &out, t0 + 300 * MS);
	s = since(f, &text, &len, &seen);
	ck_assert_msg(starts(s, "\rpreparing 100% "), "%s", s);
	live_end(lv, &out, 1);
	ck_assert_str_eq(since(f, &text, &len, &seen),
			 "\r\033[KPreparing the data file...");
	/* Ended before it drew: nothing to erase. */
	live_begin(lv, &phase_get_block_ops, "Reading intelligently", 1);
	live_end(lv, &out, 1);
	ck_assert_str_eq(since(f, &text, &len, &seen), "");
	live_free(lv);
	fclose(f);
	free(text);
}
END_TEST

/* sync_write's time limit further on than its operations: the share and
 * the ETA by time; a test to come that nothing estimates: '+'. */
START_TEST(time_limit_and_unknown_tests)
{
	char args[] = "-d . -s 1m:8k -r 0 -n 1 --only=sync_write,seq_create "
		      "--sync-time=10 --sync-ops=1000000";
	struct clyde_opts o;
	struct run_plan plan;
	struct phase_out out = {.ops = 1};
	char *text = NULL;
	size_t len = 0, seen = 0;
	FILE *f = open_memstream(&text, &len);
	struct live *lv;
	uint64_t t0;
	const char *s;

	ck_assert_int_eq(parse(&o, args), OPT_OK);
	plan_init(&plan, &o);
	ck_assert_ptr_nonnull(lv = live_new(f, &plan));
	live_run_begin(lv, 0);
	live_begin(lv, &phase_sync_write_ops, "Writing synchronously", 1);
	t0 = clk_now_ns();
	live_tick(lv, &out, t0);
	out.ops = 1001;
	live_tick(lv, &out, t0 + 5000 * MS);
	s = since(f, &text, &len, &seen);
	ck_assert_msg(starts(s, "\rsync_write 50% 200 ops/s avg 200 ops/s "
				"0:05 eta 0:05 | all "),
		      "%s", s);
	ck_assert_msg(strstr(s, " eta 0:05+\033[K"), "%s", s);
	live_end(lv, &out, 0);
	live_free(lv);
	fclose(f);
	free(text);
}
END_TEST

START_TEST(format_cuts_to_width)
{
	struct live_figs fig = {.name = "ran_create 3/10",
				.pct = 42,
				.now_rate = 237000,
				.avg = 1234567,
				.unit = "files",
				.elapsed = 65,
				.eta = -1,
				.run_el = 3725,
				.run_eta = 7322,
				.run_more = 1};
	char buf[256];

	live_format(&fig, buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "ran_create 3/10 42% 237k files/s avg 1.23M "
			      "files/s 1:05 eta ? | all 1:02:05 eta 2:02:02+");
	live_format(&fig, buf, sizeof(buf), 40);
	ck_assert_uint_eq(strlen(buf), 39);
	fig.pct = -1;
	fig.bytes = 1;
	fig.now_rate = fig.avg = 5.5 * 1024 * 1024 * 1024;
	live_format(&fig, buf, sizeof(buf), 0);
	ck_assert_msg(
	    starts(buf, "ran_create 3/10 ?% 5.50GiB/s avg 5.50GiB/s "), "%s",
	    buf);
}
END_TEST

START_TEST(progress_option)
{
	char a0[] = "-d .", a1[] = "-d . --progress",
	     a2[] = "-d . --progress=none", a3[] = "-d . --progress=always",
	     a4[] = "-d . --progress=auto -q", a5[] = "-d . --progress=yes";
	struct clyde_opts o;
	FILE *devnull = fopen("/dev/null", "w");

	ck_assert_int_eq(parse(&o, a0), OPT_OK);
	ck_assert_int_eq(o.progress, PROGRESS_AUTO);
	/* Not a terminal: auto draws nothing. */
	ck_assert_int_eq(live_wanted(&o, fileno(devnull)), 0);
	ck_assert_int_eq(parse(&o, a1), OPT_OK);
	ck_assert_int_eq(o.progress, PROGRESS_ALWAYS);
	ck_assert_int_eq(live_wanted(&o, fileno(devnull)), 1);
	ck_assert_int_eq(parse(&o, a2), OPT_OK);
	ck_assert_int_eq(o.progress, PROGRESS_NONE);
	ck_assert_int_eq(live_wanted(&o, fileno(devnull)), 0);
	ck_assert_int_eq(parse(&o, a3), OPT_OK);
	ck_assert_int_eq(o.progress, PROGRESS_ALWAYS);
	ck_assert_int_eq(parse(&o, a4), OPT_OK);
	o.progress = PROGRESS_ALWAYS; /* -q wins even so */
	ck_assert_int_eq(live_wanted(&o, fileno(devnull)), 0);
	ck_assert_int_eq(parse(&o, a5), OPT_BAD);
	fclose(devnull);
}
END_TEST

static Suite *live_suite(void)
{
	Suite *s = suite_create("live");
	TCase *tc = tcase_create("live");

	tcase_add_test(tc, draws_then_erases);
	tcase_add_test(tc, time_limit_and_unknown_tests);
	tcase_add_test(tc, format_cuts_to_width);
	tcase_add_test(tc, progress_option);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(live_suite)
