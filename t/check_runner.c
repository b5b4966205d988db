/* check_runner: one pass of the suite over a small file: every phase
 * runs, does all its work and records a latency; -f and -D skip the
 * per-char phases; a stop request ends the pass; a missing data file is
 * reported with the phase and file. */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "phase.h"
#include "runner.h"
#include "scratch.h"
#include "units.h"
#include "check_main.h"

static char parent[] = "/tmp/clyde-t-runner.XXXXXX";
static struct scratch scr;
static unsigned char *buf;
static volatile sig_atomic_t stop;

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(parent));
	ck_assert_int_eq(scratch_create(&scr, parent), 0);
	ck_assert_int_eq(posix_memalign((void **)&buf, 4096, UNITS_MIB), 0);
	stop = 0;
}

static void teardown(void)
{
	ck_assert_int_eq(scratch_remove(&scr), 0);
	ck_assert_int_eq(rmdir(parent), 0); /* empty: nothing left behind */
	strcpy(parent, "/tmp/clyde-t-runner.XXXXXX");
	free(buf);
}

static void opts(struct clyde_opts *o, const char *extra)
{
	char line[256], *argv[16], *save = NULL;
	int argc = 0;
	FILE *null = fopen("/dev/null", "w");

	snprintf(line, sizeof(line), "clyde -s 4m:64k -r 0 %s", extra);
	for (char *t = strtok_r(line, " ", &save); t;
	     t = strtok_r(NULL, " ", &save))
		argv[argc++] = strdup(t);
	argv[argc] = NULL;
	ck_assert_int_eq(opts_parse(argc, argv, o, null, null), OPT_RUN);
	fclose(null);
}

static enum runner_status pass(struct clyde_opts *o, struct run_result *r,
			       char **errs)
{
	size_t len;
	FILE *err = open_memstream(errs, &len);
	struct runner_env env = {o, &scr, buf, &stop, NULL, err};
	enum runner_status st;

	result_init(r);
	r->seed = 1;
	st = runner_run(&env, r);
	fclose(err);
	return st;
}

START_TEST(all_phases_run)
{
	struct clyde_opts o;
	struct run_result r;
	char *errs;

	opts(&o, "");
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	ck_assert_str_eq(errs, "");
	for (int t = RT_putc; t <= RT_get_block; t++) {
		ck_assert_int_eq(r.t[t].state, RS_OK);
		ck_assert_uint_eq(r.t[t].work, 4 * UNITS_MIB);
		ck_assert(r.t[t].elapsed > 0.0);
		ck_assert(r.t[t].max_latency_ns > 0);
		ck_assert(r.t[t].max_latency_ns <= r.t[t].elapsed * 1e9 + 1);
	}
	for (int t = RT_seeks; t < RT_COUNT; t++)
		ck_assert_int_eq(r.t[t].state, RS_NOT_RUN);
	free(errs);
}
END_TEST

START_TEST(syscall_per_char_is_bounded)
{
	struct clyde_opts o;
	struct run_result r;
	char *errs;

	/* 4 MiB file: the 20 MiB default is cut to the file... */
	opts(&o, "--per-char=syscall");
	ck_assert_uint_eq(phase_per_char_size(&(struct phase_ctx){
				  .opt = &o, .size = 1ull << 30}),
			  OPT_PER_CHAR_SYSCALL_DEFAULT);
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	ck_assert_uint_eq(r.t[RT_putc].work, 4 * UNITS_MIB);
	ck_assert_uint_eq(r.t[RT_getc].work, 4 * UNITS_MIB);
	free(errs);
	/* ... and -f SIZE sets it, in either mode. */
	opts(&o, "--per-char=syscall -f 1m");
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	ck_assert_uint_eq(r.t[RT_putc].work, UNITS_MIB);
	ck_assert_uint_eq(r.t[RT_getc].work, UNITS_MIB);
	ck_assert_uint_eq(r.t[RT_get_block].work, 4 * UNITS_MIB);
	free(errs);
	opts(&o, "-f3m");
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	ck_assert_uint_eq(r.t[RT_putc].work, 3 * UNITS_MIB);
	free(errs);
}
END_TEST

START_TEST(fast_and_direct_skip_per_char)
{
	struct clyde_opts o;
	struct run_result r;
	char *errs;

	opts(&o, "-f");
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	ck_assert_int_eq(r.t[RT_putc].state, RS_NOT_RUN);
	ck_assert_int_eq(r.t[RT_getc].state, RS_NOT_RUN);
	ck_assert_int_eq(r.t[RT_put_block].state, RS_OK);
	free(errs);
	opts(&o, "-D");
	ck_assert_ptr_nonnull(runner_skip_reason(&o, 0x1));
	ck_assert_ptr_null(runner_skip_reason(&o, 0));
	opts(&o, "-b");
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	ck_assert_uint_eq(r.t[RT_rewrite].work, 4 * UNITS_MIB);
	free(errs);
}
END_TEST

START_TEST(stop_request_ends_pass)
{
	struct clyde_opts o;
	struct run_result r;
	char *errs;

	opts(&o, "");
	stop = SIGINT;
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_STOPPED);
	ck_assert_int_eq(r.t[RT_putc].state, RS_NOT_RUN);
	free(errs);
}
END_TEST

START_TEST(size_zero_runs_nothing)
{
	struct clyde_opts o;
	struct run_result r;
	char *errs;

	opts(&o, "-s 0");
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	for (int t = 0; t < RT_COUNT; t++)
		ck_assert_int_eq(r.t[t].state, RS_NOT_RUN);
	free(errs);
}
END_TEST

static Suite *runner_suite(void)
{
	Suite *s = suite_create("runner");
	TCase *tc = tcase_create("runner");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, all_phases_run);
	tcase_add_test(tc, syscall_per_char_is_bounded);
	tcase_add_test(tc, fast_and_direct_skip_per_char);
	tcase_add_test(tc, stop_request_ends_pass);
	tcase_add_test(tc, size_zero_runs_nothing);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(runner_suite)
