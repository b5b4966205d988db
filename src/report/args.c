/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_args: clyde-report's command line, declared in one table for
 * the option engine (optable.h), which reads it and writes --help. Kept
 * apart from main so a fuzz target can parse many command lines in one
 * process: nothing here exits, allocates or keeps state between calls.
 * Each option is tagged with the subcommands it applies to: the tags
 * draw a usage line per subcommand and refuse an option given to one
 * that does not take it.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "extfig.h"
#include "figures.h"
#include "optable.h"
#include "report.h"
#include "text.h"

static const char *const cmd_names[REPORT_NCMDS + 1] = {
    "txt", "html", "compare", "plot", "json", NULL};

const char *report_cmd_name(enum report_cmd cmd)
{
	return (unsigned)cmd < REPORT_NCMDS ? cmd_names[cmd] : "?";
}

/* Which subcommands an option applies to (a bit per enum report_cmd). */
#define ONLY(c) (1u << (c))

/* clyde-report's voice: every refusal ends in "(try --help)". */
#define TRY " (try --help)"

/* --format=2.00|1.03 (lib/table.c reads it; the words for completion) */
static const char *const format_words[] = {"2.00", "1.03", NULL};

static int take_format(struct opt_ctx *c, const char *arg)
{
	struct report_args *a = c->base;

	if (table_layout_parse(arg, &a->o.layout) < 0)
		return opt_error(c,
				 "--format=%s: the layouts are 2.00 and "
				 "1.03" TRY,
				 arg);
	return 0;
}

/* -o FILE, --script=FILE: a name, not empty. */
static int take_file(struct opt_ctx *c, const char *arg)
{
	const char **field = opt_field(c);

	if (!*arg)
		return opt_error(c, "%s%s: an empty file name" TRY, c->name,
				 c->opt->key ? "" : "=");
	*field = arg;
	return 0;
}

/* --alpha=P, a level in (0, 0.5). */
static int take_alpha(struct opt_ctx *c, const char *arg)
{
	struct report_args *a = c->base;
	char *end;

	errno = 0;
	a->o.alpha = strtod(arg, &end);
	if (errno || end == arg || *end || !(a->o.alpha > 0) ||
	    !(a->o.alpha < 0.5))
		return opt_error(c,
				 "--alpha=%s: expected a level between 0 and "
				 "0.5, e.g. 0.05" TRY,
				 arg);
	return 0;
}

/* --colours=safe|bonnie (--colors too) */
static const char *const palette_words[] = {
    [REPORT_PAL_SAFE] = "safe", [REPORT_PAL_BONNIE] = "bonnie", NULL};

static int take_palette(struct opt_ctx *c, const char *arg)
{
	struct report_args *a = c->base;

	for (int k = 0; palette_words[k]; k++)
		if (!strcmp(arg, palette_words[k])) {
			a->o.palette = (enum report_palette)k;
			return 0;
		}
	return opt_error(c,
			 "--colours=%s: the palettes are safe and "
			 "bonnie" TRY,
			 arg);
}

/* After each option: note, for each subcommand that does not take it,
 * the first such option given, so the message can name it. */
static int taken(struct opt_ctx *c)
{
	struct report_args *a = c->base;

	for (int k = 0; k < REPORT_NCMDS; k++)
		if (c->opt->tags && !(c->opt->tags & ONLY(k)) && !a->misfit[k])
			a->misfit[k] = c->opt->name;
	return 0;
}

/* An unknown option or a missing value, in clyde-report's words. */
static void mistake(struct opt_ctx *c, int missing)
{
	char shown[1024];

	(void)missing;
	opt_error(c, "%s: unknown option or missing value" TRY,
		  text_shown(c->arg, shown, sizeof(shown)));
}

/* The subcommand, and what needs all the options. */
static int check_all(struct opt_ctx *c)
{
	struct report_args *a = c->base;
	int cmd = -1;

	if (c->next >= c->argc)
		return opt_error(c, "no subcommand: txt, html, compare, plot "
				    "or json" TRY);
	for (int k = 0; k < REPORT_NCMDS; k++)
		if (!strcmp(c->argv[c->next], cmd_names[k]))
			cmd = k;
	if (cmd < 0)
		return opt_error(c,
				 "%s: unknown subcommand; the subcommands are "
				 "txt, html, compare, plot and json" TRY,
				 c->argv[c->next]);
	if (a->misfit[cmd])
		return opt_error(c, "--%s does not apply to %s" TRY,
				 a->misfit[cmd], cmd_names[cmd]);
	/* --page is one picture, as --over-time's is: only --split is
	 * not that. */
	if (a->o.split && (a->o.page || a->o.over_time)) {
		const char *one = a->o.page ? "--page" : "--over-time";

		return opt_error(c,
				 "plot: --split %s: --split writes a file per "
				 "chart, %s one picture",
				 one, one);
	}
	a->cmd = (enum report_cmd)cmd;
	a->ninputs = c->argc - c->next - 1;
	a->inputs = c->argv + c->next + 1;
	if (cmd == REPORT_COMPARE && a->ninputs < 1)
		return opt_error(c, "compare: name the baseline input" TRY);
	return 0;
}

#define F(field) offsetof(struct report_args, field)
#define TXT	 ONLY(REPORT_TXT)
#define HTML	 ONLY(REPORT_HTML)
#define COMPARE	 ONLY(REPORT_COMPARE)
#define PLOT	 ONLY(REPORT_PLOT)

static const struct opt report_opts[] = {
    {.name = "skip-bad",
     .type = OPT_FLAG,
     .off = F(skip_bad),
     .help = "warn about a malformed line (or JSON run) and go on (default: "
	     "stop, exit 2)"},
    {.name = "format",
     .type = OPT_CALL,
     .call = take_format,
     .words = format_words,
     .tags = TXT,
     .arg = "2.00|1.03",
     .help = "txt layout: 2.00 (default) or 1.03"},
    {.name = "latency",
     .type = OPT_FLAG,
     .off = F(o.latency),
     .tags = TXT,
     .help = "txt: then each JSON run's latency distribution (min, mean, "
	     "p50, p90, p99, p99.9, max, operations), from its histograms, "
	     "as clyde -v prints it"},
    {.key = 'o',
     .name = "output",
     .type = OPT_CALL,
     .call = take_file,
     .off = F(o.output),
     .arg = "F",
     .help = "txt, html, compare, json: the file (default stdout); plot: "
	     "the picture, .png or .svg (default clyde-report.png). Written "
	     "under a temporary name, renamed when whole; an existing F that "
	     "is not a regular file is refused"},
    {.name = "title",
     .type = OPT_STRING,
     .flags = OPT_EMPTY_OK,
     .off = F(o.title),
     .tags = HTML | PLOT,
     .arg = "T",
     .help = "html and plot title"},
    {.name = "colours",
     .type = OPT_CALL,
     .call = take_palette,
     .words = palette_words,
     .tags = HTML,
     .arg = "safe|bonnie",
     .help = "html: the cells' shading, safe (default: a blue scale "
	     "colour-blind readers can tell) or bonnie (bon_csv2html's red "
	     "to green)"},
    {.name = "colors",
     .type = OPT_CALL,
     .call = take_palette,
     .flags = OPT_HIDDEN,
     .tags = HTML},
    {.name = "page",
     .type = OPT_FLAG,
     .off = F(o.page),
     .tags = PLOT,
     .help = "plot: all three charts on one page, F (the default)"},
    {.name = "split",
     .type = OPT_FLAG,
     .off = F(o.split),
     .tags = PLOT,
     .help = "plot: one file per chart instead, F-throughput.png, "
	     "F-cpu.png, F-latency.png (and no F)"},
    {.name = "over-time",
     .type = OPT_FLAG,
     .off = F(o.over_time),
     .tags = PLOT,
     .help = "plot: instead, one picture F of each test's rate over time "
	     "with its p99 latency on the right axis, from the intervals of "
	     "clyde --log-interval in JSON inputs"},
    {.name = "log-y",
     .type = OPT_FLAG,
     .off = F(o.log_y),
     .tags = HTML | PLOT,
     .help = "html and plot of clyde-curve documents: the latency on a "
	     "log scale (default linear, up to five times the target)"},
    {.name = "script",
     .type = OPT_CALL,
     .call = take_file,
     .off = F(o.script),
     .tags = PLOT,
     .arg = "FILE",
     .help = "plot: also save the gnuplot script to FILE"},
    {.name = "csv",
     .type = OPT_FLAG,
     .off = F(o.csv),
     .tags = COMPARE,
     .help = "compare: CSV lines for spreadsheets"},
    {.name = "alpha",
     .type = OPT_CALL,
     .call = take_alpha,
     .tags = COMPARE | HTML,
     .arg = "P",
     .help = "compare, html: significance level (default 0.05)"},
    OPT_END,
};

static const struct opt_table report_table = {NULL, report_opts, NULL};
static const struct opt_table *const report_tables[] = {&report_table, NULL};

static const struct opt_usage report_usage[] = {
    {TXT, "txt [FILE...]"},
    {HTML, "html [FILE...]"},
    {COMPARE, "compare BASELINE [OTHER...]"},
    {PLOT, "plot [FILE...]"},
    {ONLY(REPORT_JSON), "json [FILE...]"},
    {0, NULL},
};

/* printf onto buf[len] after the *n bytes it holds; cut at len - 1. */
static void add(char *buf, size_t len, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(buf + *n, len - *n, fmt, ap);
	va_end(ap);
	if (k > 0)
		*n = *n + (size_t)k < len ? *n + (size_t)k : len - 1;
}

/* The subcommands, under the about's first paragraph. */
static const char about_commands[] =
    "  txt      the tables as bon_csv2txt prints them (+++++ kept as such);\n"
    "           "
    "a clyde-zcav, clyde-sweep or clyde-curve document as its program\n"
    "           printed it\n"
    "  html     one self-contained HTML page: bon_csv2html's table (repeats\n"
    "           as mean +- 95% CI, the runs behind it), latency percentiles\n"
    "           from JSON inputs; with two sides or more, compare's verdicts\n"
    "           and the JSON settings that differ between the sides. Of\n"
    "           clyde-curve documents: latency against achieved IOPS, a\n"
    "           line per document, the target and each knee, compare's rows\n"
    "  compare  each figure side by side with the baseline: value, change\n"
    "           in percent and, where a side has repeats (lines of one name\n"
    "           in one input, or several runs in a JSON document), mean,\n"
    "           95% CI and a Welch t-test verdict: faster, slower or\n"
    "           within noise. Sides are the names of each input in order;\n"
    "           the first is the baseline. clyde-curve documents, given\n"
    "           alone: each step's latency and the maximum's and knee's\n"
    "           IOPS, each document a side, its -x curves the repeats\n"
    "  plot     bar charts of throughput, %CP and latency, drawn by gnuplot:\n"
    "           a small panel per figure on a linear axis from 0; of\n"
    "           clyde-curve documents, html's chart of their curves\n"
    "  json     one clyde JSON document (clyde-json(5)) of every input: a\n"
    "           clyde document's runs as read, histograms and all; a CSV\n"
    "           line as what it holds (csv key: the line as 1.98, fields as\n"
    "           written; no work, times, CPU split or histograms); the\n"
    "           settings of a sole input document, else null. A clyde-zcav,\n"
    "           clyde-sweep or clyde-curve document, given alone, is written\n"
    "           again\n";

/*
 * --help's about: what is read, with what another program's document
 * holds beside clyde's figures said from lib/extfig.h's table (this
 * file names no figure), then the subcommands.
 */
static void write_about(FILE *out)
{
	char para[2048];
	size_t n = 0;

	add(para, sizeof(para), &n,
	    "Reads bonnie++ and clyde result lines (CSV formats 1.98, 1.97 "
	    "and 1.03, header and # comment lines, clyde JSON documents) from "
	    "the FILEs or standard input (no FILE, or -) and renders them");
	for (int t = 0; t < RT_COUNT; t++) {
		const struct figure *f = extfig_of(t);

		if (!f)
			continue;
		add(para, sizeof(para), &n,
		    "; a %s document is clyde's with a %s (%s) per run",
		    f->program, f->title, f->key);
		if (f->against >= 0)
			add(para, sizeof(para), &n, ", set beside its %s",
			    figure_of((enum result_test)f->against)->title);
	}
	add(para, sizeof(para), &n,
	    ". clyde-zcav and clyde-sweep JSON documents are read by txt and "
	    "json only; clyde-curve documents by every subcommand, given "
	    "without other inputs.");
	opt_wrap(out, para, 0, 0);
	fputs("\n\n", out);
	fputs(about_commands, out);
}

const struct opt_parser report_parser = {
    .prog = "clyde-report",
    .tables = report_tables,
    .usage = report_usage,
    .write_about = write_about,
    .epilogue =
	"Exit status: 0 ok, 1 output could not be written, 2 bad usage, a "
	"bad\n"
	"output name or a malformed input line, 141 standard output closed\n"
	"(| head), 128+N stopped by signal N (129/130/143:\n"
	"SIGHUP/SIGINT/SIGTERM; any that ends a process).\n",
    .taken = taken,
    .check = check_all,
    .mistake = mistake,
    .commands = cmd_names,
};

enum opt_result report_parse_args(int argc, char **argv, struct report_args *a,
				  FILE *out, FILE *err)
{
	memset(a, 0, sizeof(*a));
	a->o.layout = TABLE_200;
	a->o.alpha = 0.05;
	/* Options may come before or after the subcommand: getopt moves
	 * the operands (the subcommand first) after them. */
	return opt_parse(&report_parser, argc, argv, a, out, err);
}
