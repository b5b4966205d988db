/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_args: clyde-report's command line. Kept apart from main so a
 * fuzz target can parse many command lines in one process: nothing here
 * exits, allocates or keeps state between calls.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

#define PROG "clyde-report"

static const char usage_text[] =
    "usage: clyde-report [--skip-bad] txt [--format=2.00|1.03] [--latency]\n"
    "                    [-o FILE] [FILE...]\n"
    "       clyde-report [--skip-bad] html [-o FILE] [--title=T]\n"
    "                    [--colours=safe|bonnie] [--alpha=P] [FILE...]\n"
    "       clyde-report [--skip-bad] compare [--csv] [--alpha=P] [-o FILE]\n"
    "                    BASELINE [OTHER...]\n"
    "       clyde-report [--skip-bad] plot [-o FILE.png|FILE.svg]\n"
    "                    [--page|--split|--over-time] [--script=FILE]\n"
    "                    [--title=T] [FILE...]\n"
    "       clyde-report [--skip-bad] json [-o FILE] [FILE...]\n"
    "\n"
    "Reads bonnie++ and clyde result lines (CSV formats 1.98, 1.97 and 1.03,\n"
    "header and # comment lines, clyde JSON documents) from the FILEs or\n"
    "standard input (no FILE, or -) and renders them; a clyde-pgscan\n"
    "document is clyde's with a PostgreSQL seq scan (pg_scan) per run,\n"
    "set beside its block input. clyde-zcav and clyde-sweep JSON\n"
    "documents are read by txt and json only.\n"
    "\n"
    "  txt      the tables as bon_csv2txt prints them (+++++ kept as such);\n"
    "           a clyde-zcav or clyde-sweep document as its program printed "
    "it\n"
    "  html     one self-contained HTML page: bon_csv2html's table (repeats\n"
    "           as mean +- 95% CI, the runs behind it), latency percentiles\n"
    "           from JSON inputs; with two sides or more, compare's verdicts\n"
    "           and the JSON settings that differ between the sides\n"
    "  compare  each figure side by side with the baseline: value, change\n"
    "           in percent and, where a side has repeats (lines of one name\n"
    "           in one input, or several runs in a JSON document), mean,\n"
    "           95% CI and a Welch t-test verdict: faster, slower or\n"
    "           within noise. Sides are the names of each input in order;\n"
    "           the first is the baseline\n"
    "  plot     bar charts of throughput, %CP and latency, drawn by gnuplot:\n"
    "           a small panel per figure on a linear axis from 0\n"
    "  json     one clyde JSON document (clyde-json(5)) of every input: a\n"
    "           clyde document's runs as read, histograms and all; a CSV\n"
    "           line as what it holds (csv key: the line as 1.98, fields as\n"
    "           written; no work, times, CPU split or histograms); the\n"
    "           settings of a sole input document, else null. A clyde-zcav\n"
    "           or clyde-sweep document, given alone, is written again\n"
    "\n"
    "  --skip-bad      warn about a malformed line (or JSON run) and go on\n"
    "                  (default: stop, exit 2)\n"
    "  --format=FMT    txt layout: 2.00 (default) or 1.03\n"
    "  --latency       txt: then each JSON run's latency distribution (min,\n"
    "                  mean, p50, p90, p99, p99.9, max, operations), from its\n"
    "                  histograms, as clyde -v prints it\n"
    "  -o, --output=F  txt, html, compare, json: the file (default stdout); "
    "plot:\n"
    "                  the picture, .png or .svg (default clyde-report.png).\n"
    "                  Written under a temporary name, renamed when whole;\n"
    "                  an existing F that is not a regular file is refused\n"
    "  --title=T       html and plot title\n"
    "  --colours=PAL   html: the cells' shading, safe (default: a blue scale\n"
    "                  colour-blind readers can tell) or bonnie "
    "(bon_csv2html's\n"
    "                  red to green)\n"
    "  --page          plot: all three charts on one page, F (the default)\n"
    "  --split         plot: one file per chart instead, F-throughput.png,\n"
    "                  F-cpu.png, F-latency.png (and no F)\n"
    "  --over-time     plot: instead, one picture F of each test's rate over\n"
    "                  time with its p99 latency on the right axis, from the\n"
    "                  intervals of clyde --log-interval in JSON inputs\n"
    "  --script=FILE   plot: also save the gnuplot script to FILE\n"
    "  --csv           compare: CSV lines for spreadsheets\n"
    "  --alpha=P       compare, html: significance level (default 0.05)\n"
    "  --help          this text;  --version  the version\n"
    "\n"
    "Exit status: 0 ok, 1 output could not be written, 2 bad usage, a bad\n"
    "output name or a malformed input line, 141 standard output closed\n"
    "(| head), 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM.\n";

static const char *const cmd_names[REPORT_NCMDS] = {"txt", "html", "compare",
						    "plot", "json"};

const char *report_cmd_name(enum report_cmd cmd)
{
	return (unsigned)cmd < REPORT_NCMDS ? cmd_names[cmd] : "?";
}

static int usage_error(FILE *err, const char *fmt, const char *arg)
{
	fprintf(err, "%s: ", PROG);
	fprintf(err, fmt, arg);
	fprintf(err, " (try --help)\n");
	return 2;
}

/* Which subcommands an option applies to (a bit per enum report_cmd). */
#define ONLY(c) (1u << (c))

/* Note, for each subcommand, the first option given that it does not
 * take, so the message can name it. */
static void only_for(const char *misfit[], unsigned mask, const char *name)
{
	for (int k = 0; k < REPORT_NCMDS; k++)
		if (!(mask & ONLY(k)) && !misfit[k])
			misfit[k] = name;
}

enum {
	O_SKIP = 256,
	O_FORMAT,
	O_TITLE,
	O_PAGE,
	O_SPLIT,
	O_SCRIPT,
	O_CSV,
	O_ALPHA,
	O_LATENCY,
	O_OVER_TIME,
	O_COLOURS,
};

static const struct option longs[] = {
    {"skip-bad", no_argument, NULL, O_SKIP},
    {"format", required_argument, NULL, O_FORMAT},
    {"output", required_argument, NULL, 'o'},
    {"title", required_argument, NULL, O_TITLE},
    {"page", no_argument, NULL, O_PAGE},
    {"split", no_argument, NULL, O_SPLIT},
    {"script", required_argument, NULL, O_SCRIPT},
    {"csv", no_argument, NULL, O_CSV},
    {"alpha", required_argument, NULL, O_ALPHA},
    {"latency", no_argument, NULL, O_LATENCY},
    {"over-time", no_argument, NULL, O_OVER_TIME},
    {"colours", required_argument, NULL, O_COLOURS},
    {"colors", required_argument, NULL, O_COLOURS},
    CLI_LONG_HELP,
    CLI_LONG_VERSION,
    {NULL, 0, NULL, 0},
};

/* One option into a; 0, 1 (done) or 2 (usage). */
static int one_option(int c, char **argv, struct report_args *a,
		      const char *misfit[], FILE *out, FILE *err)
{
	struct report_opts *o = &a->o;
	char *end;

	switch (c) {
	case O_SKIP:
		a->skip_bad = 1;
		return 0;
	case O_FORMAT:
		if (table_layout_parse(optarg, &o->layout) < 0)
			return usage_error(err,
					   "--format=%s: the layouts are "
					   "2.00 and 1.03",
					   optarg);
		only_for(misfit, ONLY(REPORT_TXT), "--format");
		return 0;
	case 'o':
		if (!*optarg)
			return usage_error(err, "-o%s: an empty file name", "");
		o->output = optarg;
		return 0;
	case O_TITLE:
		o->title = optarg;
		only_for(misfit, ONLY(REPORT_HTML) | ONLY(REPORT_PLOT),
			 "--title");
		return 0;
	case O_PAGE:
		o->page = 1;
		only_for(misfit, ONLY(REPORT_PLOT), "--page");
		return 0;
	case O_SPLIT:
		o->split = 1;
		only_for(misfit, ONLY(REPORT_PLOT), "--split");
		return 0;
	case O_OVER_TIME:
		o->over_time = 1;
		only_for(misfit, ONLY(REPORT_PLOT), "--over-time");
		return 0;
	case O_SCRIPT:
		if (!*optarg)
			return usage_error(
			    err, "--script=%s: an empty file name", "");
		o->script = optarg;
		only_for(misfit, ONLY(REPORT_PLOT), "--script");
		return 0;
	case O_CSV:
		o->csv = 1;
		only_for(misfit, ONLY(REPORT_COMPARE), "--csv");
		return 0;
	case O_ALPHA:
		errno = 0;
		o->alpha = strtod(optarg, &end);
		if (errno || end == optarg || *end || !(o->alpha > 0) ||
		    !(o->alpha < 0.5))
			return usage_error(err,
					   "--alpha=%s: expected a level "
					   "between 0 and 0.5, e.g. 0.05",
					   optarg);
		only_for(misfit, ONLY(REPORT_COMPARE) | ONLY(REPORT_HTML),
			 "--alpha");
		return 0;
	case O_COLOURS:
		if (!strcmp(optarg, "safe"))
			o->palette = REPORT_PAL_SAFE;
		else if (!strcmp(optarg, "bonnie"))
			o->palette = REPORT_PAL_BONNIE;
		else
			return usage_error(err,
					   "--colours=%s: the palettes are "
					   "safe and bonnie",
					   optarg);
		only_for(misfit, ONLY(REPORT_HTML), "--colours");
		return 0;
	case O_LATENCY:
		o->latency = 1;
		only_for(misfit, ONLY(REPORT_TXT), "--latency");
		return 0;
	case CLI_OPT_HELP:
		fputs(usage_text, out);
		return 1;
	case CLI_OPT_VERSION:
		fprintf(out, "%s %s\n", PROG, PACKAGE_VERSION);
		return 1;
	case '?':
	default:
		if (optopt && optopt < 256)
			fprintf(err,
				"%s: -%c: unknown option or missing value "
				"(try --help)\n",
				PROG, optopt);
		else
			fprintf(err,
				"%s: %s: unknown option or bad value (try "
				"--help)\n",
				PROG, argv[optind - 1]);
		return 2;
	}
}

int report_parse_args(int argc, char **argv, struct report_args *a, FILE *out,
		      FILE *err)
{
	const char *misfit[REPORT_NCMDS] = {NULL};
	int c, cmd = -1, r;

	memset(a, 0, sizeof(*a));
	a->o.layout = TABLE_200;
	a->o.alpha = 0.05;
	/* Options may come before or after the subcommand. optind 0 makes
	 * glibc's getopt start afresh, for a second call. */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
		r = one_option(c, argv, a, misfit, out, err);
		if (r)
			return r;
	}
	if (optind >= argc)
		return usage_error(err,
				   "%sno subcommand: txt, html, compare, "
				   "plot or json",
				   "");
	for (int k = 0; k < REPORT_NCMDS; k++)
		if (!strcmp(argv[optind], cmd_names[k]))
			cmd = k;
	if (cmd < 0)
		return usage_error(err,
				   "%s: unknown subcommand; the subcommands "
				   "are txt, html, compare, plot and json",
				   argv[optind]);
	if (misfit[cmd]) {
		fprintf(err, "%s: %s does not apply to %s (try --help)\n", PROG,
			misfit[cmd], cmd_names[cmd]);
		return 2;
	}
	/* --page is one picture, as --over-time's is: only --split is
	 * not that. */
	if (a->o.split && (a->o.page || a->o.over_time)) {
		fprintf(
		    err,
		    "%s: plot: --split %s: --split writes a file per chart, "
		    "%s one picture\n",
		    PROG, a->o.page ? "--page" : "--over-time",
		    a->o.page ? "--page" : "--over-time");
		return 2;
	}
	a->cmd = (enum report_cmd)cmd;
	optind++;
	a->ninputs = argc - optind;
	a->inputs = argv + optind;
	if (cmd == REPORT_COMPARE && a->ninputs < 1)
		return usage_error(err, "compare%s: name the baseline input",
				   "");
	return 0;
}
