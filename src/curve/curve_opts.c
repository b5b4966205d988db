/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * curve_opts: clyde-curve's command line. Its own options (--steps,
 * --step-time, --target, --refine) in a table over struct curve_opts;
 * clyde's options that mean the same here (-d, -s, -m, -r, -c, -x, -z,
 * -u, -g, -q, -D, --json, --progress, --data, --drop-caches,
 * --barrier-timeout) and the random-I/O unit's workload options through
 * clyde's parser (opts_parse_prog), so each is read, checked and
 * refused in the very words clyde uses. The curve sets the rate of each
 * step and runs them for --step-time, so --rate, --ran-time and
 * --ran-ops are refused.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "curve_prog.h"
#include "optable.h"
#include "optshared.h"
#include "outfile.h"
#include "ran_io.h"
#include "runner_phases.h"
#include "units.h"

static struct curve_opts given;

/* An option of the curve's given before: the same value again is
 * taken, another refused (as clyde's -z and --json are). */
static int again(struct opt_ctx *c, const char *first, const char *arg)
{
	if (!first || !strcmp(first, arg))
		return 0;
	return opt_twice(c, first);
}

static int take_steps(struct opt_ctx *c, const char *arg)
{
	char why[160];

	if (again(c, given.steps_arg, arg))
		return -1;
	if (curve_parse_steps(arg, given.pct, &given.nsteps, why, sizeof(why)))
		return opt_refuse(c, why);
	given.steps_arg = arg;
	return 0;
}

static int take_target(struct opt_ctx *c, const char *arg)
{
	char why[160];

	if (again(c, given.target_arg, arg))
		return -1;
	if (curve_parse_target(arg, &given.target, why, sizeof(why)))
		return opt_refuse(c, why);
	given.target_arg = arg;
	return 0;
}

static int take_refine(struct opt_ctx *c, const char *arg)
{
	uint64_t v;
	char why[96];

	if (again(c, given.refine_arg, arg))
		return -1;
	if (units_parse_uint(arg, CURVE_REFINE_MAX, &v, why, sizeof(why)))
		return opt_refuse(c, "expected a count of bisection steps "
				     "from 0 to 20");
	given.refine = (unsigned)v;
	given.refine_set = 1;
	given.refine_arg = arg;
	return 0;
}

static int take_step_time(struct opt_ctx *c, const char *arg)
{
	uint64_t v;
	char why[96];

	if (again(c, given.step_time_arg, arg))
		return -1;
	if (units_parse_uint(arg, CURVE_STEP_TIME_MAX, &v, why, sizeof(why)) ||
	    v < 1)
		return opt_refuse(c, "expected whole seconds from 1 to 3600");
	given.step_time = (unsigned)v;
	given.step_time_arg = arg;
	return 0;
}

/* What the curve decides and clyde's unit would take from the user. */
static int take_not_here(struct opt_ctx *c, const char *arg)
{
	(void)arg;
	return opt_refuse(c,
			  strcmp(c->name, "--rate") == 0
			      ? "clyde-curve offers each step its own rate "
				"(--steps, percentages of the maximum)"
			      : "clyde-curve runs each step for --step-time");
}

static const struct opt curve_entries[] = {
    {.name = "steps",
     .type = OPT_CALL,
     .call = take_steps,
     .arg = "PCT,...",
     .help =
	 "the loads offered, in percent of the maximum that a closed "
	 "loop reached first, rising, 0.1 to 200 (default " CURVE_STEPS_DEFAULT
	 ")"},
    {.name = "step-time",
     .type = OPT_CALL,
     .call = take_step_time,
     .arg = "SECONDS",
     .help = "how long each step runs (1 to 3600, default 10)"},
    {.name = "target",
     .type = OPT_CALL,
     .call = take_target,
     .arg = "STAT:TIME",
     .help = "find the knee: the highest load whose response time STAT "
	     "(p50, p90, p99, p99.9, mean, max) stays within TIME (ns, us, "
	     "ms, s), as p99:5ms"},
    {.name = "refine",
     .type = OPT_CALL,
     .call = take_refine,
     .arg = "N",
     .help = "with --target, N more steps (default 3, 0 to 20) bisect the "
	     "load between the last step within the target and the first "
	     "beyond it"},
    OPT_SHARED_PLOT(offsetof(struct curve_opts, plot),
		    "draw the curve (-x: each step's mean) and the knee"),
    OPT_SHARED_PLOT_SCRIPT(offsetof(struct curve_opts, plot_script)),
    {.name = "log-y",
     .type = OPT_FLAG,
     .off = offsetof(struct curve_opts, log_y),
     .help = "--plot: the latency on a log scale (default linear, up to "
	     "five times the target)"},
    {.name = "rate",
     .type = OPT_CALL,
     .flags = OPT_HIDDEN,
     .call = take_not_here,
     .arg = "IOPS"},
    {.name = "ran-time",
     .type = OPT_CALL,
     .flags = OPT_HIDDEN,
     .call = take_not_here,
     .arg = "S"},
    {.name = "ran-ops",
     .type = OPT_CALL,
     .flags = OPT_HIDDEN,
     .call = take_not_here,
     .arg = "N"},
    OPT_END,
};

static const struct opt_table curve_table = {"Curve:", curve_entries, &given};

static const struct opts_keep kept[] = {
    {.key = 'd'},
    {.key = 's',
     .help = "the data file's size (bare number = MiB; k/m/g/t; default 4g, "
	     "halved to fit -d)",
     .arg = "size"},
    {.key = 'm'},
    {.key = 'r'},
    {.key = 'x',
     .help =
	 "run the whole curve N times: each step's mean and 95% CI, and the "
	 "knee's"},
    {.key = 'c',
     .help = "N workers on each -d at once, each on its own data file; each "
	     "step's rate is split over them and the figures are their "
	     "aggregate"},
    {.key = 'z'},
    {.key = 'u'},
    {.key = 'g'},
    {.key = 'q'},
    {.key = 'D'},
    {.name = "json",
     .help = "write the versioned JSON result (doc/clyde-json.5: each "
	     "step's test, the knee, the summary of -x) to FILE, or to "
	     "stdout (the table and CSV then go to stderr)"},
    {.name = "progress"},
    {.name = "data"},
    {.name = "drop-caches"},
    {.name = "precondition",
     .help = "before the first step that writes, write the whole data "
	     "files N times (default 2, as SNIA's PTS) in the workload's "
	     "block size, untimed; each step's test then says "
	     "preconditioned"},
    {.name = "steady",
     .help = "run each step, the closed loop's too, in rounds until the "
	     "last ROUNDS meet SNIA PTS's steady-state rule (default 5:20:10, "
	     "with :iops, :bw or :p99 for what is measured), instead of for "
	     "--step-time; each step's figures are the window's"},
    {.name = "round"},
    {.name = "steady-max"},
    {.name = "barrier-timeout"},
    {.name = NULL},
};

/* The unit's options the curve sets itself (its own hidden entries
 * refuse them), and the unit's help in the curve's words. */
static const struct opts_keep unit_drop[] = {
    {.name = "rate"},
    {.name = "ran-ops"},
    {.name = "ran-time"},
    {.name = NULL},
};

static const struct opts_keep unit_help[] = {
    {.name = "iodepth",
     .help = "operations in flight: the closed loop's, and the slots of each "
	     "step (1..1024, default 32, through io_uring; 1 with a warning "
	     "where it is not available)"},
    {.name = "mix",
     .help = "R percent of the operations are reads, the rest writes (0..100, "
	     "one decimal at most); without it all are reads"},
    {.name = "arrivals",
     .help = "the steps' gaps: exponential (poisson, the default) or equal"},
    {.name = NULL},
};

/* Whether two output names are one file (by name, or by what they
 * name when both exist). */
static int same_file(const char *a, const char *b)
{
	return a && b && (!strcmp(a, b) || outfile_same(a, b));
}

/* The outputs: --json, --plot and --plot-script, three files. */
static int check_outputs(struct opt_ctx *c, const struct clyde_opts *o)
{
	if (opt_check_plot(c, given.plot, given.plot_script, &given.plot_fmt))
		return -1;
	if (same_file(o->json_path, given.plot))
		return opt_bad(c, "--json", o->json_path,
			       "the same file as --plot");
	if (same_file(given.plot_script, given.plot))
		return opt_bad(c, "--plot-script", given.plot_script,
			       "the same file as --plot");
	if (same_file(given.plot_script, o->json_path))
		return opt_bad(c, "--plot-script", given.plot_script,
			       "the same file as --json");
	return 0;
}

/* Whether the workload names a mix: ran_mix's wanted hook. */
static int mix_given;

/* --refine needs --target; the figure: ran_mix when its wanted hook
 * says the options ask for it (--mix), else ran_read. */
static int check(struct opt_ctx *c, struct clyde_opts *o)
{
	const struct phase_ops *mix = runner_phase_of(RT_ran_mix);
	struct phase_plan pp = {.opt = o};

	if (given.refine_set && !given.target.on)
		return opt_bad(c, "--refine", given.refine_arg,
			       "needs --target: it narrows the knee");
	if (check_outputs(c, o))
		return -1;
	if (o->steady && given.step_time_arg)
		return opt_bad(c, "--step-time", given.step_time_arg,
			       "with --steady each step runs in rounds until "
			       "steady (--round, --steady-max)");
	if (given.log_y && !given.plot)
		return opt_error(c, "--log-y goes with --plot (it scales the "
				    "chart's latency)");
	if (o->size_arg && strchr(o->size_arg, ':'))
		return opt_bad(c, "-s", o->size_arg,
			       "clyde-curve takes the data file's size alone "
			       "(--ran-bs sets the block size)");
	if (o->size_set && o->size == 0)
		return opt_bad(c, "-s", o->size_arg,
			       "clyde-curve needs a data file");
	if (o->drop_caches && o->direct)
		return opt_error(c, "--drop-caches with -D: no step reads "
				    "through the page cache");
	/* No file tests: none runs, and the room check counts none. */
	o->files_num = 0;
	if (o->repeats > CURVE_REPEATS_MAX) {
		char v[16];

		snprintf(v, sizeof(v), "%u", o->repeats);
		return opt_bad(c, "-x", v,
			       "clyde-curve repeats a curve at "
			       "most 100 times");
	}
	pp.options = mix->options->table->base;
	mix_given = mix->wanted && mix->wanted(&pp);
	o->only = 1u << curve_test();
	o->rate_stepped = 1;
	return 0;
}

static const char about[] =
    "Latency against load on one data file: a closed loop at --iodepth\n"
    "finds the most operations a second the target gives, then each step\n"
    "offers a share of it (Poisson arrivals; each response time counted\n"
    "from when the operation was due), and with --target the knee: the\n"
    "highest load whose response time stays within the bound.\n";

static const char epilogue[] =
    "Exit status: 0 ok, 1 a step failed or no step met --target (the curve\n"
    "is still written), 2 bad usage, 128+N stopped by signal N\n"
    "(129/130/143: SIGHUP/SIGINT/SIGTERM; any that ends a process; the\n"
    "steps done written, the scratch directory removed), 141 when the\n"
    "reader of standard output went away.\n";

static const struct opts_prog prog = {
    .prog = "clyde-curve",
    .own = &curve_table,
    .keep = kept,
    .unit = "random_io",
    .unit_drop = unit_drop,
    .unit_help = unit_help,
    .unit_title = "Workload:",
    .about = about,
    .epilogue = epilogue,
    .check = check,
};

const struct opt_parser *curve_parser(void)
{
	return opts_prog_parser(&prog);
}

enum result_test curve_test(void)
{
	return mix_given ? RT_ran_mix : RT_ran_read;
}

enum opt_result curve_opts_parse(int argc, char **argv, struct clyde_opts *o,
				 struct curve_opts *c, FILE *out, FILE *err)
{
	enum opt_result r;

	memset(&given, 0, sizeof(given));
	given.step_time = CURVE_STEP_TIME_DEFAULT;
	given.refine = CURVE_REFINE_DEFAULT;
	mix_given = 0;
	r = opts_parse_prog(&prog, argc, argv, o, out, err);
	if (!given.nsteps) {
		char why[64];

		curve_parse_steps(CURVE_STEPS_DEFAULT, given.pct, &given.nsteps,
				  why, sizeof(why));
	}
	if (!given.target.on)
		given.refine = 0;
	*c = given;
	return r;
}
