/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clyde-curve: latency against load, and the knee. The flow is clyde's
 * (options, checks, outputs, scratch directories, runs, cleanup on every
 * path out), its runs the steps of steps.c, -x N curves in turn. Unlike
 * clyde, a stop (SIGINT, SIGTERM, SIGHUP) still writes what was measured:
 * the steps done are printed and go to the JSON document, marked
 * incomplete, before the scratch directories are removed and the exit
 * status says the signal.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "curve_json.h"
#include "curvechart.h"
#include "gnuplot.h"
#include "cli.h"
#include "curve_prog.h"
#include "jsondoc.h"
#include "jsonput.h"
#include "live.h"
#include "outfile.h"
#include "plan.h"
#include "rng.h"
#include "runner.h"
#include "targets.h"
#include "text.h"
#include "units.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	cli_stop_first(&stop_signal, sig);
	/* A gnuplot drawing the chart is stopped, not waited for. */
	plot_signal_cleanup();
}

/* --plot's picture and --plot-script's script, made before the first
 * step. */
struct chart_files {
	struct outfile pic, script;
};

static int open_chart(const struct curve_opts *co, struct chart_files *c)
{
	char why[PATH_MAX * 2], line[PATH_MAX * 8 + 1];

	if (co->plot && outfile_open(&c->pic, co->plot, why, sizeof(why))) {
		error("--plot: %s", text_shown(why, line, sizeof(line)));
		return -1;
	}
	if (co->plot_script &&
	    outfile_open(&c->script, co->plot_script, why, sizeof(why))) {
		error("--plot-script: %s", text_shown(why, line, sizeof(line)));
		return -1;
	}
	return 0;
}

/* The chart of res drawn into --plot (and its script saved), both
 * renamed over their names. 0, or CLI_EXIT_FAILED after one line. */
static int draw_chart(const struct curve_opts *co,
		      const struct curve_result *res, struct chart_files *c)
{
	const struct curve_result *rs[1] = {res};
	char why[600], p[PATH_MAX * 4 + 1];
	size_t len = 0, slen = 0;
	char *script =
	    curvechart_script(rs, 1, curve_judged(res), &res->target, NULL,
			      co->log_y, co->plot_fmt, c->pic.tmp, &len);
	char *saved = script && co->plot_script
			  ? curvechart_script(rs, 1, curve_judged(res),
					      &res->target, NULL, co->log_y,
					      co->plot_fmt, co->plot, &slen)
			  : NULL;
	FILE *f = co->plot_script ? outfile_stream(&c->script) : NULL;
	int e = 0;

	if (!script || (co->plot_script && !saved))
		e = error("--plot: out of memory");
	else if (plot_run(script, len, why, sizeof(why)) < 0)
		/* A stop kills and reaps gnuplot (on_signal): the run's own
		 * line says so, not the wait that found no child. */
		e = stop_signal
			? -1
			: error("--plot '%s': %s",
				text_shown(co->plot, p, sizeof(p)), why);
	else if (co->plot_script && (!f || fwrite(saved, 1, slen, f) != slen ||
				     outfile_commit(&c->script)))
		e = error("--plot-script '%s': %s",
			  text_shown(co->plot_script, p, sizeof(p)),
			  strerror(errno ? errno : EIO));
	else if (outfile_commit(&c->pic))
		e = error("--plot '%s': %s", text_shown(co->plot, p, sizeof(p)),
			  strerror(errno ? errno : EIO));
	free(script);
	free(saved);
	return e ? CLI_EXIT_FAILED : 0;
}

/* --json=FILE checked and its temporary file made before the first
 * step, as the user the steps run as. */
static int open_json(const struct clyde_opts *o, struct outfile *json)
{
	char why[PATH_MAX * 2], line[PATH_MAX * 8 + 1];

	if (!o->json_path ||
	    outfile_open(json, o->json_path, why, sizeof(why)) == 0)
		return 0;
	error("--json: %s", text_shown(why, line, sizeof(line)));
	return -1;
}

/* The document of the curves done, to FILE or stdout. 0, or
 * CLI_EXIT_FAILED after one line; a closed stdout in *out_err. */
static int write_json(const struct clyde_opts *o, const struct run_plan *rp,
		      time_t start, const struct curve_result *res,
		      struct outfile *json, int *out_err)
{
	json_t *doc = jsondoc_new_as(rp, start, "clyde-curve");
	FILE *f = o->json_path ? outfile_stream(json) : stdout;
	char p[PATH_MAX * 4 + 1];
	int e = 0;

	if (!doc || curve_json_put(doc, res)) {
		if (doc)
			json_decref(doc);
		error("--json: the document could not be built: out of memory");
		return CLI_EXIT_FAILED;
	}
	if (!f || jp_write(doc, f, JSON_REAL_PRECISION(10)) != 0)
		e = errno ? errno : EIO;
	json_decref(doc);
	if (!o->json_path) {
		*out_err = e;
		return 0;
	}
	if (!e && (e = -outfile_commit(json)) == 0)
		return 0;
	error("--json: cannot write '%s': %s",
	      text_shown(o->json_path, p, sizeof(p)), strerror(e));
	return CLI_EXIT_FAILED;
}

/* The one line on the data and how the cache is kept out. */
static void say_setup(const struct run_plan *rp)
{
	const struct clyde_opts *o = rp->opt;
	char a[32];

	if (o->quiet)
		return;
	units_fmt_size(a, sizeof(a), rp->size);
	warning("data %s%s, %s", a, o->size_chosen ? " (no -s given)" : "",
		o->direct ? "O_DIRECT: the page cache is not used"
			  : "page cache evicted before each step");
}

/* The curves into res, each printed as it ends (res->n: those with a
 * step at least). Returns 0 or CLI_EXIT_FAILED. */
static int run_curves(struct curve_ctx *x, struct curve_result *res,
		      int *out_err)
{
	const struct clyde_opts *o = x->o;
	FILE *csv = o->json && !o->json_path ? stderr : stdout;
	FILE *tables = o->quiet || csv != stdout ? stderr : stdout;
	int rc = 0;

	res->n = 0;
	for (unsigned i = 0; i < o->repeats && !stop_signal && !rc; i++) {
		struct curve_one *c = &res->curves[i];

		c->seed = o->seed_set ? o->seed : rng_fresh_seed();
		if (x->live)
			live_run_begin(x->live, i);
		rc = curve_run(x, c);
		if (!c->n)
			break;
		res->n++;
		curve_print_table(tables, res, c);
		if (i == 0)
			curve_csv_header(csv);
		curve_csv_lines(csv, res, i, c);
		fflush(stderr);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			*out_err = errno ? errno : EIO;
			break;
		}
	}
	res->complete = !stop_signal && res->n == o->repeats &&
			res->curves[res->n - 1].complete;
	if (res->n > 1)
		curve_print_summary(tables, res);
	return rc;
}

/* With a target: a curve that met it nowhere fails the run (1). */
static int judge(const struct curve_result *res)
{
	char line[256];

	for (unsigned i = 0; i < res->n; i++)
		if (curve_missed(res, &res->curves[i])) {
			curve_knee_line(res, &res->curves[i], line,
					sizeof(line));
			error("%s", strstr(line, "no step")
					? strstr(line, "no step")
					: line);
			return CLI_EXIT_FAILED;
		}
	return 0;
}

/* The result's settings: the curve's, the machine's name, the figure. */
static void settings_of(struct curve_result *res, const struct clyde_opts *o,
			const struct curve_opts *co)
{
	snprintf(res->name, sizeof(res->name), "%s", o->name);
	res->test = curve_test();
	memcpy(res->pct, co->pct, sizeof(res->pct));
	res->nsteps = co->nsteps;
	res->step_time = co->step_time;
	res->target = co->target;
	res->refine = co->refine;
}

static int run(const struct clyde_opts *o, const struct curve_opts *co)
{
	static struct targets targets;
	struct outfile json = {.fd = -1, .slot = -1};
	struct chart_files chart = {{.fd = -1, .slot = -1},
				    {.fd = -1, .slot = -1}};
	struct run_plan plan;
	struct curve_result res = {.n = 0};
	struct curve_ctx x = {.o = o,
			      .co = co,
			      .plan = &plan,
			      .targets = &targets,
			      .stop = &stop_signal};
	char why[PATH_MAX * 2 + 64], left[PATH_MAX];
	time_t start = time(NULL);
	int status = 0, rc, out_err = 0;
	unsigned done = 0;

	settings_of(&res, o, co);
	/* No -s: 4g, halved to fit -d (targets_check); nothing probed. */
	plan_init(&plan, o);
	if (targets_check(&plan) || open_json(o, &json) ||
	    open_chart(co, &chart)) {
		status = CLI_EXIT_USAGE;
		goto out;
	}
	x.buf_len = (size_t)o->chunk;
	if (posix_memalign((void **)&x.buf, 4096, x.buf_len) != 0 ||
	    !(res.curves = calloc(o->repeats, sizeof(*res.curves))) ||
	    (o->ndirs > 1 && !(x.per = calloc(o->ndirs, sizeof(*x.per))))) {
		error("out of memory for %u curves", o->repeats);
		status = CLI_EXIT_FAILED;
		goto out;
	}
	if (targets_create(&targets, o)) {
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (o->direct && (rc = targets_probe_direct(&targets, o, x.buf))) {
		status = rc;
		goto out;
	}
	curve_steps_begin(&x);
	if ((status = plan_prepare(&plan)) != 0)
		goto out;
	say_setup(&plan);
	if (live_wanted(o, STDERR_FILENO))
		x.live = live_new(stderr, &plan);
	status = run_curves(&x, &res, &out_err);
	curve_steps_end(&x);
	live_free(x.live);
	if (!status)
		status = judge(&res);
	if (o->json && res.n && !out_err &&
	    (rc = write_json(o, &plan, start, &res, &json, &out_err)))
		status = rc;
	/* The chart of a curve that ran whole (a stop leaves none). */
	if (co->plot && res.n && !stop_signal &&
	    (rc = draw_chart(co, &res, &chart)) && !status)
		status = rc;
out:
	rc = targets_remove(&targets, &stop_signal, left, sizeof(left), why,
			    sizeof(why), stderr);
	outfile_abort(&json);
	outfile_abort(&chart.pic);
	outfile_abort(&chart.script);
	done = res.n;
	res.n = o->repeats; /* every curve begun */
	curve_result_free(&res);
	for (unsigned i = 0; x.per && i < o->ndirs; i++)
		result_free(&x.per[i]);
	free(x.per);
	free(x.buf);
	return targets_finish(status, stop_signal, left, rc, why, out_err,
			      done ? "the steps done were written, scratch "
				     "files removed"
				   : "no step was done; scratch files removed");
}

int main(int argc, char **argv)
{
	struct clyde_opts o;
	struct curve_opts co;
	char why[200];
	int rc;

	cli_set_prog("clyde-curve");
	cli_ignore_sigpipe();
	if ((rc = opt_exit(
		 curve_opts_parse(argc, argv, &o, &co, stdout, stderr))) >= 0)
		return rc;
	cli_catch_signals(on_signal, NULL);
	if (o.drop_caches && (geteuid() != 0 || o.privs.drop)) {
		error("--drop-caches: only root can drop the machine's caches "
		      "(and not with -u/-g)");
		return CLI_EXIT_USAGE;
	}
	if (runner_init(stderr))
		return CLI_EXIT_FAILED;
	if (privs_drop(&o.privs, why, sizeof(why)) != 0) {
		error("-u/-g: %s", why);
		return CLI_EXIT_USAGE;
	}
	return run(&o, &co);
}
