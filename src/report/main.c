/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clyde-report: reads result lines (bonnie++ 1.03, 1.97 and 1.98 CSV,
 * clyde's CSV and JSON documents) from files or standard input and
 * renders them: txt (bon_csv2txt's tables), html (bon_csv2html's page,
 * with latency percentiles), compare (side by side, with a verdict) and
 * plot (gnuplot bar charts); and clyde-zcav's and clyde-sweep's
 * documents, which txt prints as their programs did and json writes
 * again. This file holds main: the output files,
 * checked and made under temporary names before any input is read and
 * renamed only when whole; the reading of each input's bytes; the
 * signals. args.c reads the command line, load.c makes
 * rows of the inputs.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "curve.h"
#include "gnuplot.h"
#include "report.h"

#define PROG "clyde-report"

/* Inputs larger than this are refused: no result file comes near it. */
#define INPUT_MAX (256u * 1024u * 1024u)

/* Read a whole file (or stdin for "-") into memory. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		char *nb;
		size_t got;

		if (n + 65536 > cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > INPUT_MAX + 65536) {
				errno = EFBIG;
				goto fail;
			}
			nb = realloc(buf, cap);
			if (!nb)
				goto fail;
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		errno = errno ? errno : EIO;
		goto fail;
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf ? buf : calloc(1, 1);
fail:
	free(buf);
	if (f != stdin) {
		int e = errno;

		fclose(f);
		errno = e;
	}
	return NULL;
}

/*
 * SIGHUP, SIGINT, SIGTERM: gnuplot is stopped, the temporary files are
 * removed, and the program dies of the first signal, as it would have
 * without the handler (so its status is 128 + the signal's number).
 */
static void on_signal(int sig)
{
	static volatile sig_atomic_t first;

	if (first)
		return;
	first = sig;
	plot_signal_cleanup();
	outfile_signal_cleanup();
	cli_die_of_signal(sig);
}

/* Whether path is one of the inputs: an output there would replace
 * what is being read. */
static int is_input(const struct report_args *a, const char *path)
{
	for (int k = 0; k < a->ninputs; k++)
		if (strcmp(a->inputs[k], "-") &&
		    outfile_same(a->inputs[k], path))
			return 1;
	return 0;
}

/*
 * Every output file, before any input is read: refused (exit 2, one
 * line naming it) when it cannot be made or is not a regular file,
 * else made under a temporary name.
 */
static int open_outputs(const struct report_args *a, struct report_outs *outs)
{
	char *names[REPORT_OUTS_MAX] = {NULL};
	char why[PATH_MAX + 200];
	int n = 0, status = 0;

	outs->n = 0;
	if (a->cmd == REPORT_PLOT) {
		status = report_plot_files(&a->o, names, &n, stderr);
	} else if (a->o.output && strcmp(a->o.output, "-")) {
		names[n++] = strdup(a->o.output);
		if (!names[0]) {
			error("out of memory");
			status = CLI_EXIT_FAILED;
		}
	}
	for (int k = 0; k < n && !status; k++) {
		if (is_input(a, names[k])) {
			error("'%s' is an input; name another file for the "
			      "output",
			      names[k]);
			status = CLI_EXIT_USAGE;
		} else if (outfile_open(&outs->f[k], names[k], why,
					sizeof(why)) < 0) {
			error("%s", why);
			status = CLI_EXIT_USAGE;
		} else {
			outs->n++;
		}
	}
	for (int k = 0; k < n; k++)
		free(names[k]);
	return status;
}

/*
 * With status 0 every output is renamed over its final name; else, or
 * when one cannot be, the temporary files are removed. The status.
 */
static int close_outputs(struct report_outs *outs, int status)
{
	for (int k = 0; k < outs->n; k++) {
		char name[PATH_MAX];
		int e;

		if (status) {
			outfile_abort(&outs->f[k]);
			continue;
		}
		snprintf(name, sizeof(name), "%s", outs->f[k].path);
		e = outfile_commit(&outs->f[k]);
		if (e < 0) {
			error("'%s': %s", name, strerror(-e));
			status = CLI_EXIT_FAILED;
		}
	}
	outs->n = 0;
	return status;
}

/* Every input into set; inputs[i] is the first row of input i. */
static int load_inputs(const struct report_args *a, struct report_set *set,
		       size_t *inputs)
{
	for (int k = 0; k < (a->ninputs ? a->ninputs : 1); k++) {
		const char *path = a->ninputs ? a->inputs[k] : "-";
		size_t len;
		char *buf = slurp(path, &len);
		int r;

		inputs[k] = set->n;
		if (!buf) {
			error("%s: %s", path, strerror(errno));
			return CLI_EXIT_USAGE;
		}
		r = report_load(set, path, buf, len, a->skip_bad, stderr);
		if (report_keep_buf(set, buf) < 0) {
			error("%s: out of memory", path);
			return CLI_EXIT_FAILED;
		}
		if (r < 0)
			return CLI_EXIT_USAGE;
	}
	if (!set->n && !set->ndocs) {
		error("no result lines in the input");
		return CLI_EXIT_USAGE;
	}
	return 0;
}

static int render(const struct report_args *a, const struct report_set *set,
		  const size_t *inputs, struct report_outs *outs)
{
	FILE *out = stdout;
	/* clyde-curve documents alone: every subcommand has its own. */
	int curves = report_curves_alone(set);

	if (curves < 0 && a->cmd != REPORT_TXT) {
		const char *file = "";

		for (size_t i = 0; i < set->ndocs && !*file; i++)
			if (set->docs[i].kind == REPORT_DOC_CURVE)
				file = set->docs[i].file;
		error("%s: a clyde-curve document beside other inputs: %s",
		      file,
		      a->cmd == REPORT_JSON
			  ? "json writes one document of one program; give it "
			    "alone"
			  : "curves are drawn and compared with curves alone");
		return CLI_EXIT_USAGE;
	}
	/* What only one kind of page has. */
	if (a->cmd == REPORT_HTML && a->o.log_y && curves != 1) {
		error(
		    "html --log-y: the latency axis of clyde-curve documents; "
		    "these inputs have none");
		return CLI_EXIT_USAGE;
	}
	if (a->cmd == REPORT_HTML && a->o.palette != REPORT_PAL_SAFE &&
	    curves == 1) {
		error("html --colours: the shading of result cells; a page of "
		      "curves has none");
		return CLI_EXIT_USAGE;
	}
	if (a->cmd == REPORT_PLOT && a->o.log_y && curves != 1) {
		error(
		    "plot --log-y: the latency axis of clyde-curve documents; "
		    "these inputs have none");
		return CLI_EXIT_USAGE;
	}
	/* clyde-zcav and clyde-sweep documents: txt and json only. */
	if (set->ndocs && !curves && a->cmd != REPORT_TXT &&
	    a->cmd != REPORT_JSON)
		return report_docs_refuse(set, report_cmd_name(a->cmd), stderr);
	if (a->cmd == REPORT_PLOT)
		return curves ? report_curve_plot(set, &a->o, outs, stderr)
			      : report_plot(set, &a->o, outs, stderr);
	if (outs->n) {
		out = outfile_stream(&outs->f[0]);
		if (!out) {
			error("'%s': %s", outs->f[0].path, strerror(errno));
			return CLI_EXIT_FAILED;
		}
	}
	switch (a->cmd) {
	case REPORT_TXT:
		return report_txt(out, set, &a->o, stderr);
	case REPORT_HTML:
		if (curves)
			return report_curve_html(out, set, &a->o, stderr);
		return report_html(out, set, inputs, (size_t)a->ninputs, &a->o,
				   stderr);
	case REPORT_JSON:
		if (set->ndocs)
			return report_docs_json(out, set, stderr);
		return report_json(out, set, &a->o, stderr);
	case REPORT_COMPARE:
	default:
		if (curves)
			return report_curve_compare(out, set, &a->o, stderr);
		return report_compare(out, set, inputs, (size_t)a->ninputs,
				      &a->o, stderr);
	}
}

int main(int argc, char **argv)
{
	struct report_args a;
	struct report_outs outs = {.n = 0};
	struct report_set set = {0};
	size_t *inputs;
	int status;

	cli_set_prog(PROG);
	cli_ignore_sigpipe();
	if ((status = opt_exit(
		 report_parse_args(argc, argv, &a, stdout, stderr))) >= 0)
		return status;
	cli_catch_stops(on_signal);
	inputs = calloc(a.ninputs ? (size_t)a.ninputs : 1, sizeof(*inputs));
	if (!inputs) {
		error("out of memory");
		return CLI_EXIT_FAILED;
	}
	/* html: the settings that differ between sides. */
	set.keep_json = a.cmd == REPORT_JSON || a.cmd == REPORT_HTML;
	set.keep_runs = a.cmd == REPORT_JSON;
	set.keep_hist = a.cmd == REPORT_TXT && a.o.latency;
	status = open_outputs(&a, &outs);
	if (!status)
		status = load_inputs(&a, &set, inputs);
	if (!status)
		status = render(&a, &set, inputs, &outs);
	status = close_outputs(&outs, status);
	/* A reader gone from standard output: 141, silently. */
	if (!status)
		status = cli_stdout_close();
	free(inputs);
	report_free(&set);
	return status;
}
