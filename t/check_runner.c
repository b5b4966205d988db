/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_runner: one pass of the suite over a small file: every phase
 * runs, does all its work and records a latency; -f and -D skip the
 * per-char phases; a stop request ends the pass; a missing data file is
 * reported with the phase and file; the registry refuses a phase or a
 * list of phases that is not valid. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options.h"
#include "phase.h"
#include "plan.h"
#include "runner.h"
#include "scratch.h"
#include "units.h"
#include "check_main.h"

static char parent[] = "/tmp/clyde-t-runner.XXXXXX";
static struct scratch scr;
static unsigned char *buf;
static volatile sig_atomic_t stop;
/* The command lines opts() split: the options point into them, so they
 * are freed when the test ends (teardown). */
static char *lines[8];
static int nlines;
/* The records of the results pass() filled (each run_result's t),
 * freed when the test ends (teardown). */
static struct result_test_rec *recs[8];
static int nrecs;

/*
 * The parent directory is made and removed in the runner process
 * (unchecked fixture), so even a failed test, whose forked process stops
 * at the failing assertion, leaves nothing behind.
 */
static void make_parent(void)
{
	if (!mkdtemp(parent))
		abort();
}

static void remove_parent(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", parent);
	if (system(cmd) != 0)
		abort();
}

static void setup(void)
{
	/* A test killed by its time limit leaves its directory: the next
	 * starts from an empty parent all the same. */
	remove_parent();
	ck_assert_int_eq(mkdir(parent, 0700), 0);
	ck_assert_int_eq(scratch_create(&scr, parent), 0);
	ck_assert_int_eq(posix_memalign((void **)&buf, 4096, UNITS_MIB), 0);
	stop = 0;
}

static void teardown(void)
{
	while (nlines)
		free(lines[--nlines]);
	while (nrecs) {
		struct result_test_rec *t = recs[--nrecs];

		for (int i = 0; i < RT_COUNT; i++)
			result_rec_free(&t[i]);
		free(t);
	}
	ck_assert_int_eq(scratch_remove(&scr), 0);
	/* Nothing left behind: the parent is empty again. */
	ck_assert_int_eq(rmdir(parent), 0);
	ck_assert_int_eq(mkdir(parent, 0700), 0);
	free(buf);
}

static void opts_sized(struct clyde_opts *o, const char *size,
		       const char *extra)
{
	char line[256], *copy, *argv[16], *save = NULL;
	int argc = 0;
	FILE *null = fopen("/dev/null", "w");

	/* At most 100 synchronous writes and 1024 random I/Os: sync_write's
	 * own second and the random tests' 65536 operations would otherwise
	 * be most of each pass's time. */
	snprintf(line, sizeof(line),
		 "clyde -s %s -r 0 -n 0 --sync-ops=100 --ran-ops=1024 %s", size,
		 extra);
	copy = strdup(line);
	ck_assert(copy && nlines < (int)(sizeof(lines) / sizeof(lines[0])));
	lines[nlines++] = copy;
	for (char *t = strtok_r(copy, " ", &save); t;
	     t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	ck_assert_int_eq(opts_parse(argc, argv, o, null, null), OPT_OK);
	fclose(null);
}

static void opts(struct clyde_opts *o, const char *extra)
{
	opts_sized(o, "4m:64k", extra);
}

static enum runner_status pass(struct clyde_opts *o, struct run_result *r,
			       char **errs)
{
	size_t len;
	FILE *err = open_memstream(errs, &len);
	struct run_plan plan;
	struct runner_env env = {.opt = o,
				 .plan = &plan,
				 .scratch = &scr,
				 .buf = buf,
				 .buf_len = UNITS_MIB,
				 .stop = &stop,
				 .progress = NULL,
				 .err = err};
	enum runner_status st;

	plan_init(&plan, o);
	result_init(r);
	r->seed = 1;
	st = runner_run(&env, r);
	if (result_has_records(r)) {
		ck_assert(nrecs < (int)(sizeof(recs) / sizeof(recs[0])));
		recs[nrecs++] = r->t;
	}
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
	for (int t = RT_putc; t <= RT_seeks; t++) {
		ck_assert_int_eq(r.t[t].state, RS_OK);
		ck_assert_uint_eq(r.t[t].work,
				  t == RT_seeks ? 8192 : 4 * UNITS_MIB);
		ck_assert(r.t[t].elapsed > 0.0);
		ck_assert(r.t[t].max_latency_ns > 0);
		ck_assert(r.t[t].max_latency_ns <= r.t[t].elapsed * 1e9 + 1);
	}
	/* The seekers' own CPU, not five times the whole process's. */
	ck_assert(r.t[RT_seeks].cpu <= 5 * r.t[RT_seeks].elapsed + 0.01);
	for (int t = RT_FIRST_FILE; t < RT_COUNT; t++)
		ck_assert_int_eq(r.t[t].state, RS_NOT_RUN);
	free(errs);
}
END_TEST

START_TEST(syscall_per_char_is_bounded)
{
	struct clyde_opts o;
	struct run_result r;
	char *errs;

	/* A 1 MiB file (a byte a system call: kept small, so a loaded or
	 * sanitized build stays within the time limit): the 20 MiB
	 * default is cut to the file... */
	opts_sized(&o, "1m:64k", "--per-char=syscall");
	ck_assert_uint_eq(phase_per_char_size(&o, 1ull << 30),
			  OPT_PER_CHAR_SYSCALL_DEFAULT);
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	ck_assert_uint_eq(r.t[RT_putc].work, UNITS_MIB);
	ck_assert_uint_eq(r.t[RT_getc].work, UNITS_MIB);
	free(errs);
	/* ... and -f SIZE sets it, in either mode. */
	opts_sized(&o, "1m:64k", "--per-char=syscall -f 256k");
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	ck_assert_uint_eq(r.t[RT_putc].work, 256 * 1024);
	ck_assert_uint_eq(r.t[RT_getc].work, 256 * 1024);
	ck_assert_uint_eq(r.t[RT_get_block].work, UNITS_MIB);
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
	struct run_plan plan;
	struct run_result r;
	char *errs;

	opts(&o, "-f");
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	ck_assert_int_eq(r.t[RT_putc].state, RS_NOT_RUN);
	ck_assert_int_eq(r.t[RT_getc].state, RS_NOT_RUN);
	ck_assert_int_eq(r.t[RT_put_block].state, RS_OK);
	free(errs);
	opts(&o, "-D");
	plan_init(&plan, &o);
	ck_assert_ptr_nonnull(runner_skip_reason(&plan, PHASE_PER_CHAR));
	ck_assert_ptr_null(runner_skip_reason(&plan, PHASE_DATA));
	ck_assert_ptr_nonnull(runner_skip_reason(&plan, PHASE_FILES));
	/* -D skips the per-char tests as a side effect: a note, unless
	 * --only leaves them out or -f skips them already. */
	ck_assert_ptr_nonnull(runner_skip_note(&plan));
	opts(&o, "-D --only=put_block");
	plan_init(&plan, &o);
	ck_assert_ptr_null(runner_skip_note(&plan));
	opts(&o, "-D -f");
	plan_init(&plan, &o);
	ck_assert_ptr_null(runner_skip_note(&plan));
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
	/* Every test of the data file or of -n; one that uses neither (a
	 * figure added beside them) may run. */
	for (int t = 0; t < RT_COUNT; t++) {
		const struct phase_ops *ph = runner_phase_of(t);

		if (!ph || (ph->flags & (PHASE_DATA | PHASE_FILES)))
			ck_assert_int_eq(r.t[t].state, RS_NOT_RUN);
	}
	free(errs);
}
END_TEST

/* Descriptors this process has open. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

START_TEST(seeks_and_files)
{
	struct clyde_opts o;
	struct run_result r;
	char *errs;
	int fds = open_fds();

	/* 2 seekers share 3000 seeks; 2048 files of 0-4 KiB in 3 dirs. */
	opts(&o, "-s 4m:64k:3000:2 -n 2:4k:0:3 -f");
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	ck_assert_str_eq(errs, "");
	/* The file tests' state went back through their release hook. */
	ck_assert_int_eq(open_fds(), fds);
	ck_assert_int_eq(r.t[RT_seeks].state, RS_OK);
	ck_assert_uint_eq(r.t[RT_seeks].work, 3000);
	ck_assert(r.t[RT_seeks].cpu <= 2 * r.t[RT_seeks].elapsed + 0.01);
	for (int t = RT_FIRST_FILE; t < RT_COUNT; t++) {
		ck_assert_int_eq(r.t[t].state, RS_OK);
		ck_assert_uint_eq(r.t[t].work, 2048);
		ck_assert(r.t[t].max_latency_ns > 0);
	}
	free(errs);
	/* Links: hard and symbolic, one target. */
	opts(&o, "-s 0 -n 1:-1");
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	ck_assert_uint_eq(r.t[RT_ran_del].work, 1024);
	ck_assert_int_eq(r.t[RT_seeks].state, RS_NOT_RUN);
	free(errs);
	opts(&o, "-s 0 -n 1:-2:0:2 -b");
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	ck_assert_uint_eq(r.t[RT_seq_stat].work, 1024);
	free(errs);
}
END_TEST

START_TEST(file_test_failure_names_phase)
{
	struct clyde_opts o;
	struct run_result r;
	char *errs, path[PATH_MAX + 16];

	/* A file where the test directory goes: create must fail. */
	opts(&o, "-s 0 -n 1");
	snprintf(path, sizeof(path), "%s/files", scr.path);
	ck_assert_int_eq(close(open(path, O_CREAT | O_WRONLY, 0600)), 0);
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_FAILED);
	ck_assert_msg(strstr(errs, "clyde: sequential create: mkdir ") &&
			  strstr(errs, "/files: File exists\n"),
		      "%s", errs);
	free(errs);
}
END_TEST

START_TEST(only_prepares_the_data_file)
{
	struct clyde_opts o;
	struct run_result r;
	char *errs;

	opts(&o, "--only=get_block,seeks");
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_OK);
	ck_assert_int_eq(r.t[RT_put_block].state, RS_NOT_RUN);
	ck_assert_int_eq(r.t[RT_rewrite].state, RS_NOT_RUN);
	ck_assert_int_eq(r.t[RT_get_block].state, RS_OK);
	ck_assert_uint_eq(r.t[RT_get_block].work, 4 * UNITS_MIB);
	ck_assert_int_eq(r.t[RT_seeks].state, RS_OK);
	/* Evicted before reading, and checked (-1 = never checked). */
	ck_assert(r.cache_left >= 0.0);
	ck_assert_int_eq(r.cache, RC_EVICT);
	free(errs);
}
END_TEST

/* Checks added with the hardening of the messages. */

#include <sys/resource.h>

/*
 * --only without block output writes the data file first; a failure
 * there names that step, not "block output", which did not run.
 */
START_TEST(prepare_failure_names_the_step)
{
	struct clyde_opts o;
	struct run_result r;
	struct rlimit lim, old;
	char *errs;

	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim.rlim_cur = 1024 * 1024;
	lim.rlim_max = old.rlim_max;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	opts(&o, "--only=get_block");
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_FAILED);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	ck_assert_msg(!strncmp(errs,
			       "clyde: preparing the data file for block "
			       "input: write ",
			       54) &&
			  strstr(errs, "/data: File too large\n"),
		      "%s", errs);
	ck_assert_ptr_null(strstr(errs, "block output"));
	ck_assert_int_eq(r.t[RT_put_block].state, RS_NOT_RUN);
	/* The test the data file was prepared for failed with it. */
	ck_assert_int_eq(r.t[RT_get_block].state, RS_FAILED);
	ck_assert(
	    !strncmp(r.error, "preparing the data file for block input", 39));
	free(errs);
}
END_TEST

/* The seekers' pipe cannot be made: the call is named, and no file. */
START_TEST(pipe_failure_names_no_file)
{
	struct clyde_opts o;
	struct run_result r;
	struct rlimit lim, old;
	char *errs;
	int fd;

	opts(&o, "--only=seeks");
	/* Room for the data file (and the memory stream), not a pipe: the
	 * lowest free descriptor plus two. */
	fd = dup(0);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
	lim.rlim_cur = (rlim_t)fd + 2;
	lim.rlim_max = old.rlim_max;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_FAILED);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &old), 0);
	ck_assert_str_eq(errs, "clyde: random seeks: pipe: Too many open "
			       "files\n");
	ck_assert_str_eq(r.error, "random seeks: pipe: Too many open files");
	free(errs);
}
END_TEST

/* A scratch path holding a line break: the error stays one line. */
START_TEST(error_is_one_line)
{
	struct clyde_opts o;
	struct run_result r;
	struct scratch odd;
	char *errs, dir[PATH_MAX];
	struct scratch keep = scr;

	snprintf(dir, sizeof(dir), "%s/a\nb", parent);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	ck_assert_int_eq(scratch_create(&odd, dir), 0);
	scr = odd;
	opts(&o, "-s 0 -n 1");
	/* The test directory is there already: its mkdir must fail. */
	ck_assert_int_eq(mkdirat(odd.dirfd, "files", 0700), 0);
	ck_assert_int_eq(pass(&o, &r, &errs), RUNNER_FAILED);
	scr = keep;
	ck_assert_msg(strstr(errs, "/a\\nb/clyde.") != NULL &&
			  strchr(errs, '\n') == errs + strlen(errs) - 1,
		      "%s", errs);
	ck_assert_ptr_null(strchr(r.error, '\n'));
	free(errs);
	ck_assert_int_eq(scratch_remove(&odd), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* The phases for the registry tests: none of them is ever run. */
/* The tick hook: called once an operation ends at or after tick_ns. */
static void count_tick(struct phase_out *out, uint64_t now)
{
	(*(int *)out->tick_arg)++;
	out->tick_ns = now + 1000000000000ull;
}

START_TEST(tick_runs_when_due)
{
	struct phase_out out = {.tick_ns = UINT64_MAX, .tick = count_tick};
	uint64_t t0 = clk_now_ns();
	int ticks = 0;

	out.tick_arg = &ticks;
	for (int i = 0; i < 3; i++)
		phase_op_done(&out, &t0);
	ck_assert_int_eq(ticks, 0);
	out.tick_ns = 0;
	for (int i = 0; i < 3; i++)
		phase_op_done(&out, &t0);
	/* Due once: the hook moved the next tick far off. */
	ck_assert_int_eq(ticks, 1);
	ck_assert_uint_eq(out.ops, 6);
}
END_TEST

static int fake_run(struct phase_ctx *ctx, struct phase_out *out)
{
	(void)ctx;
	(void)out;
	return 0;
}

#define FAKE(key, fl)                                                          \
	{                                                                      \
		.name = #key, .title = "t", .test = RT_##key, .flags = (fl),   \
		.progress = "p", .run = fake_run                               \
	}

/* Every phase of the table is valid; each fault of an entry is refused. */
START_TEST(registry_checks_each_phase)
{
	struct phase_ops ok = FAKE(put_block, PHASE_DATA | PHASE_MAKES_DATA);
	struct phase_ops bad;

	ck_assert_int_eq(runner_init(stderr), 0);
	ck_assert_ptr_null(runner_check_phase(&ok));
	bad = ok, bad.name = NULL;
	ck_assert_str_eq(runner_check_phase(&bad), "no name");
	bad = ok, bad.name = "getc";
	ck_assert_str_eq(runner_check_phase(&bad),
			 "its name is not the key of the figure it fills");
	bad = ok, bad.progress = NULL;
	ck_assert_ptr_nonnull(runner_check_phase(&bad));
	bad = ok, bad.run = NULL;
	ck_assert_str_eq(runner_check_phase(&bad), "no run hook");
	bad = ok, bad.test = RT_COUNT;
	ck_assert_str_eq(runner_check_phase(&bad), "no figure to fill");
	/* clyde-pgscan's figure: clyde has no phase for it. */
	bad = ok, bad.name = "pg_scan", bad.test = RT_pg_scan;
	ck_assert_str_eq(runner_check_phase(&bad),
			 "its figure is another program's");
	bad = ok, bad.flags |= (PHASE_FLAGS_KNOWN + 1u);
	ck_assert_str_eq(runner_check_phase(&bad), "unknown flags");
	bad = ok, bad.flags = PHASE_READS;
	ck_assert_ptr_nonnull(runner_check_phase(&bad));
	bad = ok, bad.flags = PHASE_DATA | PHASE_FILES;
	ck_assert_ptr_nonnull(runner_check_phase(&bad));
	/* The run's counts: the seek count is a data test's, -n a file
	 * test's. */
	bad = ok, bad.flags = PHASE_DATA | PHASE_FILE_COUNT;
	ck_assert_str_eq(runner_check_phase(&bad),
			 "PHASE_FILE_COUNT needs PHASE_FILES");
	bad = ok, bad.flags = PHASE_FILES | PHASE_SEEK_COUNT;
	ck_assert_str_eq(runner_check_phase(&bad),
			 "PHASE_SEEK_COUNT needs PHASE_DATA");
}
END_TEST

/* The list: one phase per figure, one maker of the data file for the
 * readers, not two; each fault is one line naming the phase. */
START_TEST(registry_checks_the_list)
{
	const struct phase_ops put =
	    FAKE(put_block, PHASE_DATA | PHASE_MAKES_DATA);
	const struct phase_ops put2 = FAKE(put_block, PHASE_DATA);
	const struct phase_ops rew =
	    FAKE(rewrite, PHASE_DATA | PHASE_MAKES_DATA);
	const struct phase_ops get = FAKE(get_block, PHASE_DATA | PHASE_READS);
	const struct phase_ops nameless = {.run = fake_run};
	const struct phase_ops *good[] = {&put, &get};
	const struct phase_ops *twice[] = {&put, &put2};
	const struct phase_ops *two_makers[] = {&put, &rew, &get};
	const struct phase_ops *no_maker[] = {&get};
	const struct phase_ops *no_name[] = {&put, &nameless};
	char *msg;
	size_t len;
	FILE *err = open_memstream(&msg, &len);

	ck_assert_int_eq(runner_check_phases(good, 2, err), 0);
	ck_assert_int_eq(runner_check_phases(twice, 2, err), -1);
	ck_assert_int_eq(runner_check_phases(two_makers, 3, err), -1);
	ck_assert_int_eq(runner_check_phases(no_maker, 1, err), -1);
	ck_assert_int_eq(runner_check_phases(no_name, 2, err), -1);
	fclose(err);
	ck_assert_str_eq(
	    msg, "clyde: phase 2 'put_block': a second phase for its figure\n"
		 "clyde: phase 1 'put_block': a second phase that makes the "
		 "data file\n"
		 "clyde: phase 2 'rewrite': a second phase that makes the "
		 "data file\n"
		 "clyde: phase 1 'get_block': it reads the data file and no "
		 "phase makes it\n"
		 "clyde: phase 2 '': no name\n");
	free(msg);
}
END_TEST

/* Every figure has its phase, and each phase is at its figure's place,
 * as the table made from FIGURES has them. */
START_TEST(registry_checks_places)
{
	const struct phase_ops *list[FIG_COUNT] = {
#define ALL(key, ...) &phase_##key##_ops,
	    FIGURES(ALL)
#undef ALL
	};
	const struct phase_ops *swap;
	char *msg;
	size_t len;
	FILE *err = open_memstream(&msg, &len);

	ck_assert_int_eq(runner_check_figures(list, FIG_COUNT, err), 0);
	swap = list[RT_putc];
	list[RT_putc] = list[RT_put_block];
	list[RT_put_block] = swap;
	ck_assert_int_eq(runner_check_phases(list, FIG_COUNT, err), 0);
	ck_assert_int_eq(runner_check_figures(list, FIG_COUNT, err), -1);
	fclose(err);
	ck_assert_str_eq(msg, "clyde: figure putc: the phase in its place "
			      "fills put_block\n"
			      "clyde: figure put_block: the phase in its "
			      "place fills putc\n");
	free(msg);
}
END_TEST

static Suite *runner_suite(void)
{
	Suite *s = suite_create("runner");
	TCase *tc = tcase_create("runner");

	tcase_set_timeout(tc, 60);
	tcase_add_unchecked_fixture(tc, make_parent, remove_parent);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, all_phases_run);
	tcase_add_test(tc, syscall_per_char_is_bounded);
	tcase_add_test(tc, fast_and_direct_skip_per_char);
	tcase_add_test(tc, stop_request_ends_pass);
	tcase_add_test(tc, size_zero_runs_nothing);
	tcase_add_test(tc, seeks_and_files);
	tcase_add_test(tc, only_prepares_the_data_file);
	tcase_add_test(tc, file_test_failure_names_phase);
	tcase_add_test(tc, prepare_failure_names_the_step);
	tcase_add_test(tc, pipe_failure_names_no_file);
	tcase_add_test(tc, error_is_one_line);
	tcase_add_test(tc, registry_checks_each_phase);
	tcase_add_test(tc, registry_checks_the_list);
	tcase_add_test(tc, registry_checks_places);
	tcase_add_test(tc, tick_runs_when_due);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(runner_suite)
