/*
 * clyde-report: reads result lines (bonnie++ 1.03, 1.97 and 1.98 CSV,
 * clyde's CSV and JSON documents) from files or standard input and
 * renders them: txt (bon_csv2txt's tables), html (bon_csv2html's page,
 * with latency percentiles), compare (side by side, with a verdict) and
 * plot (gnuplot bar charts). This file holds main: the options and the
 * reading of each input's bytes; report_load.c makes rows of them.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

#define PROG "clyde-report"

static const char usage_text[] =
    "usage: clyde-report [--skip-bad] txt [--format=2.00|1.03] [FILE...]\n"
    "       clyde-report [--skip-bad] html [-o FILE] [--title=T] [FILE...]\n"
    "       clyde-report [--skip-bad] compare [--csv] [--alpha=P] BASELINE "
    "[OTHER...]\n"
    "       clyde-report [--skip-bad] plot [-o FILE.png|FILE.svg] [--page]\n"
    "                    [--script=FILE] [--title=T] [FILE...]\n"
    "\n"
    "Reads bonnie++ and clyde result lines (CSV formats 1.98, 1.97 and 1.03,\n"
    "header and # comment lines, clyde JSON documents) from the FILEs or\n"
    "standard input (no FILE, or -) and renders them.\n"
    "\n"
    "  txt      the tables as bon_csv2txt prints them (+++++ kept as such)\n"
    "  html     one self-contained HTML page, bon_csv2html's colours,\n"
    "           latency percentiles from JSON inputs\n"
    "  compare  each figure side by side with the baseline: value, change\n"
    "           in percent and, where a side has repeats (lines of one name\n"
    "           in one input, or several runs in a JSON document), mean,\n"
    "           95% CI and a Welch t-test verdict: faster, slower or\n"
    "           within noise. Sides are the names of each input in order;\n"
    "           the first is the baseline\n"
    "  plot     grouped bar charts of throughput, %CP and latency, drawn by\n"
    "           gnuplot\n"
    "\n"
    "  --skip-bad      warn about a malformed line and go on (default: stop,\n"
    "                  exit 2)\n"
    "  --format=FMT    txt layout: 2.00 (default) or 1.03\n"
    "  -o, --output=F  html: the page (default stdout); plot: the picture,\n"
    "                  .png or .svg (default clyde-report.png)\n"
    "  --title=T       html and plot title\n"
    "  --page          plot: all three charts on one page (default: one file\n"
    "                  each, F-throughput.png, F-cpu.png, F-latency.png)\n"
    "  --script=FILE   plot: also save the gnuplot script to FILE\n"
    "  --csv           compare: CSV lines for spreadsheets\n"
    "  --alpha=P       compare: significance level (default 0.05)\n"
    "  --help          this text;  --version  the version\n"
    "\n"
    "Exit status: 0 ok, 1 output could not be written, 2 bad usage or a\n"
    "malformed input line.\n";

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
 * html goes to -o FILE when given: a page that could not be written
 * whole is removed, so no half page is left behind.
 */
static int html_to(const struct report_set *set, const struct report_opts *o)
{
	FILE *f;
	struct stat st;
	int status, regular;

	if (!o->output || !strcmp(o->output, "-"))
		return report_html(stdout, set, o, stderr);
	f = fopen(o->output, "w");
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", PROG, o->output,
			strerror(errno));
		return 1;
	}
	/* Only a page of our own may go: -o /dev/full must not remove the
	 * device. */
	regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
	status = report_html(f, set, o, stderr);
	if (fflush(f) == EOF || ferror(f)) {
		if (!status)
			fprintf(stderr, "%s: %s: %s\n", PROG, o->output,
				strerror(errno ? errno : EIO));
		status = status ? status : 1;
	}
	if (fclose(f) == EOF && !status) {
		fprintf(stderr, "%s: %s: %s\n", PROG, o->output,
			strerror(errno));
		status = 1;
	}
	if (status && regular)
		unlink(o->output);
	return status;
}

enum cmd { CMD_TXT, CMD_HTML, CMD_COMPARE, CMD_PLOT };

static const char *const cmd_names[] = {"txt", "html", "compare", "plot"};

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", PROG);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (try --help)\n");
	return 2;
}

/* Which subcommands an option applies to (a bit per enum cmd). */
#define ONLY(c) (1u << (c))

/* Note, for each subcommand, the first option given that it does not
 * take, so the message can name it. */
static void only_for(const char *misfit[], unsigned mask, const char *name)
{
	for (int k = 0; k < 4; k++)
		if (!(mask & ONLY(k)) && !misfit[k])
			misfit[k] = name;
}

int main(int argc, char **argv)
{
	enum {
		O_SKIP = 256,
		O_FORMAT,
		O_TITLE,
		O_PAGE,
		O_SCRIPT,
		O_CSV,
		O_ALPHA,
		O_HELP,
		O_VERSION
	};
	static const struct option longs[] = {
	    {"skip-bad", no_argument, NULL, O_SKIP},
	    {"format", required_argument, NULL, O_FORMAT},
	    {"output", required_argument, NULL, 'o'},
	    {"title", required_argument, NULL, O_TITLE},
	    {"page", no_argument, NULL, O_PAGE},
	    {"script", required_argument, NULL, O_SCRIPT},
	    {"csv", no_argument, NULL, O_CSV},
	    {"alpha", required_argument, NULL, O_ALPHA},
	    {"help", no_argument, NULL, O_HELP},
	    {"version", no_argument, NULL, O_VERSION},
	    {NULL, 0, NULL, 0},
	};
	struct report_opts o = {.layout = TABLE_200, .alpha = 0.05};
	struct report_set set = {0};
	size_t *inputs = NULL;
	int skip_bad = 0, c, status = 0, ninputs;
	int cmd = -1;
	const char *misfit[4] = {NULL};
	char *end;

	/* Options may come before or after the subcommand. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
		switch (c) {
		case O_SKIP:
			skip_bad = 1;
			break;
		case O_FORMAT:
			if (table_layout_parse(optarg, &o.layout) < 0)
				return usage_error("--format=%s: the layouts "
						   "are 2.00 and 1.03",
						   optarg);
			only_for(misfit, ONLY(CMD_TXT), "--format");
			break;
		case 'o':
			if (!*optarg)
				return usage_error("-o%s: an empty file name",
						   "");
			o.output = optarg;
			only_for(misfit, ONLY(CMD_HTML) | ONLY(CMD_PLOT), "-o");
			break;
		case O_TITLE:
			o.title = optarg;
			only_for(misfit, ONLY(CMD_HTML) | ONLY(CMD_PLOT),
				 "--title");
			break;
		case O_PAGE:
			o.page = 1;
			only_for(misfit, ONLY(CMD_PLOT), "--page");
			break;
		case O_SCRIPT:
			if (!*optarg)
				return usage_error("--script=%s: an empty file "
						   "name",
						   "");
			o.script = optarg;
			only_for(misfit, ONLY(CMD_PLOT), "--script");
			break;
		case O_CSV:
			o.csv = 1;
			only_for(misfit, ONLY(CMD_COMPARE), "--csv");
			break;
		case O_ALPHA:
			errno = 0;
			o.alpha = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o.alpha > 0) ||
			    !(o.alpha < 0.5))
				return usage_error("--alpha=%s: expected a "
						   "level between 0 and 0.5, "
						   "e.g. 0.05",
						   optarg);
			only_for(misfit, ONLY(CMD_COMPARE), "--alpha");
			break;
		case O_HELP:
			fputs(usage_text, stdout);
			return 0;
		case O_VERSION:
			printf("%s %s\n", PROG, PACKAGE_VERSION);
			return 0;
		case '?':
		default:
			if (optopt && optopt < 256)
				fprintf(stderr,
					"%s: -%c: unknown option or "
					"missing value (try --help)\n",
					PROG, optopt);
			else
				fprintf(stderr,
					"%s: %s: unknown option or "
					"bad value (try --help)\n",
					PROG, argv[optind - 1]);
			return 2;
		}
	}
	if (optind >= argc)
		return usage_error("%sno subcommand: txt, html, compare or "
				   "plot",
				   "");
	for (int k = 0; k < 4; k++)
		if (!strcmp(argv[optind], cmd_names[k]))
			cmd = k;
	if (cmd < 0)
		return usage_error("%s: unknown subcommand; the subcommands "
				   "are txt, html, compare and plot",
				   argv[optind]);
	if (misfit[cmd]) {
		fprintf(stderr, "%s: %s does not apply to %s (try --help)\n",
			PROG, misfit[cmd], cmd_names[cmd]);
		return 2;
	}
	optind++;
	ninputs = argc - optind;
	if (cmd == CMD_COMPARE && ninputs < 1)
		return usage_error("compare%s: name the baseline input", "");
	inputs = calloc(ninputs ? ninputs : 1, sizeof(*inputs));
	if (!inputs)
		return 1;
	for (int k = 0; k < (ninputs ? ninputs : 1); k++) {
		const char *path = ninputs ? argv[optind + k] : "-";
		size_t len;
		char *buf = slurp(path, &len);

		inputs[k] = set.n;
		if (!buf) {
			fprintf(stderr, "%s: %s: %s\n", PROG, path,
				strerror(errno));
			status = 2;
			goto out;
		}
		if (report_load(&set, path, buf, len, skip_bad, stderr) < 0) {
			free(buf);
			status = 2;
			goto out;
		}
		free(buf);
	}
	if (!set.n) {
		fprintf(stderr, "%s: no result lines in the input\n", PROG);
		status = 2;
		goto out;
	}
	switch (cmd) {
	case CMD_TXT:
		status = report_txt(stdout, &set, &o, stderr);
		break;
	case CMD_HTML:
		status = html_to(&set, &o);
		break;
	case CMD_COMPARE:
		status = report_compare(stdout, &set, inputs, (size_t)ninputs,
					&o, stderr);
		break;
	case CMD_PLOT:
	default:
		status = report_plot(&set, &o, stderr);
		break;
	}
	if (!status && (fflush(stdout) == EOF || ferror(stdout))) {
		fprintf(stderr, "%s: standard output: %s\n", PROG,
			strerror(errno));
		status = 1;
	}
out:
	free(inputs);
	report_free(&set);
	return status;
}
