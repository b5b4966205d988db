/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report: clyde-report's shared pieces. Every input (CSV lines of any
 * bonnie++ format, clyde JSON documents) becomes a list of rows in input
 * order; the renderers (txt, html, compare, plot) read that list and
 * nothing else. clyde-zcav, clyde-sweep and clyde-curve documents, and
 * clyde's of a journal check, are kept beside the rows, each with its
 * place among them (struct report_doc).
 */
#ifndef CLYDE_REPORT_H
#define CLYDE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "cli.h"
#include "curve_result.h"
#include "csv.h"
#include "jverify.h"
#include "optable.h"
#include "outfile.h"
#include "stats.h"
#include "sweep_result.h"
#include "table.h"
#include "zcav_result.h"

struct report_row {
	struct run_result res; /* the shown part; a JSON run's measured too */
	const char *file;      /* as named on the command line; "-" for stdin */
	int line;     /* 1-based line of the CSV line or JSON document */
	json_t *run;  /* keep_runs: the run object it was read from;
		       * NULL for a CSV line */
	json_t *head; /* keep_json: its document without the runs
		       * (host, kernel, target, settings); shared by
		       * the document's rows; NULL for a CSV line */
	/* keep_runs: the intervals arrays run was read without, each one's
	 * place in text (its document's, held in report_set.bufs). */
	const char *text;
	struct json_text *texts; /* malloc'd, ntexts of them */
	size_t ntexts;
};

/*
 * A clyde-zcav, clyde-sweep or clyde-curve document, or clyde's of a
 * journal check (docs.c). It has no rows: txt prints what the program
 * printed, json writes it again, the other renderers refuse it (but a
 * curve's: curve.h).
 */
enum report_doc_kind {
	REPORT_DOC_ZCAV,
	REPORT_DOC_SWEEP,
	REPORT_DOC_CURVE,
	REPORT_DOC_JVERIFY
};

struct report_doc {
	enum report_doc_kind kind;
	const char *file; /* as named on the command line; "-" for stdin */
	size_t at;	  /* the rows loaded before it: its place among them */
	char version[64]; /* zcav: the writer's version, for the loops line */
	json_t *doc;	  /* keep_json: the document as read */
	struct zcav_result zcav;
	struct sweep_result *sweep; /* malloc'd */
	struct curve_result *curve; /* malloc'd */
	struct jverify *jverify;    /* malloc'd */
};

struct report_set {
	struct report_row *rows;
	size_t n, cap;
	struct report_doc *docs; /* in input order */
	size_t ndocs, docs_cap;
	/* Set before loading for json and html: keep each row's document
	 * head (report_row.head), the first document's head here
	 * (json_read_doc) and the other programs' documents whole. */
	int keep_json;
	/* Set before loading for json, which writes them again: keep each
	 * run object read, whole (the others read a document thin, its
	 * intervals costing their bytes, json_thin.c). */
	int keep_runs;
	/* The texts of the documents whose rows hold places in them
	 * (report_row.text), nbufs of them; report_load sets hold_buf
	 * when the buffer it was given must be kept (report_keep_buf). */
	char **bufs;
	size_t nbufs;
	int hold_buf;
	/* Set before loading for txt --latency: keep each JSON run's
	 * histograms (8 KiB each, at most REPORT_HISTS_MAX in all). */
	int keep_hist;
	size_t nhist; /* histograms kept */
	json_t *head;
	size_t njson, ncsv; /* documents and CSV rows loaded */
	size_t dropped;	    /* runs of documents left out (--skip-bad) */
};

/*
 * A group of rows: one side of a comparison, one bar group of a plot.
 * Rows of one input with the same name are repeats of one setup.
 */
struct report_group {
	const char *name;
	size_t *idx; /* indexes into the set's rows */
	size_t n;
};

/* html's shading of the cells (--colours): a colour-blind-safe blue
 * scale, or bon_csv2html's red to green. */
enum report_palette { REPORT_PAL_SAFE, REPORT_PAL_BONNIE };

struct report_opts {
	enum table_layout layout; /* txt: --format */
	int latency;		  /* txt: --latency */
	const char *output;	  /* -o FILE ("-" stdout; plot: the picture) */
	const char *script;	  /* plot: --script FILE */
	const char *title;	  /* html, plot: --title */
	int page;		  /* plot: --page, all charts in one file
				   * (the default) */
	int split;		  /* plot: --split, a file per chart */
	int over_time;		  /* plot: --over-time (plot_time.c) */
	int csv;		  /* compare: --csv */
	double alpha;		  /* compare: --alpha, 0.05 */
	enum report_palette palette; /* html: --colours */
	int log_y;		     /* html, plot of curves: --log-y */
};

enum report_cmd {
	REPORT_TXT,
	REPORT_HTML,
	REPORT_COMPARE,
	REPORT_PLOT,
	REPORT_JSON,
	REPORT_NCMDS
};

/* The command line. */
struct report_args {
	enum report_cmd cmd;
	int skip_bad; /* --skip-bad */
	struct report_opts o;
	char **inputs; /* into argv; ninputs 0: standard input */
	int ninputs;
	/* parsing: per subcommand, the first option given it does not take */
	const char *misfit[REPORT_NCMDS];
};

/* clyde-report's options, declared (args.c): its parser. */
extern const struct opt_parser report_parser;

/*
 * Reads clyde-report's command line into a. Returns OPT_OK to run,
 * OPT_DONE when done (--help or --version printed on out), OPT_BAD for
 * bad usage (one line on err). It exits nothing and allocates nothing
 * (a->inputs points into argv, which getopt may reorder), and starts
 * getopt afresh, so it may be called again with another argv.
 */
enum opt_result report_parse_args(int argc, char **argv, struct report_args *a,
				  FILE *out, FILE *err);

/*
 * The files a run writes, checked and made under temporary names before
 * any input is read, renamed over their final names only when all of
 * the output was made (outfile.h). plot: the pictures, then the script.
 */
#define REPORT_OUTS_MAX 4
struct report_outs {
	struct outfile f[REPORT_OUTS_MAX];
	int n;
};

/*
 * The most rows all inputs together give. A row takes some 4 KiB and a
 * 1.03 line can be 27 bytes, so without a bound a large input of short
 * lines would ask for a hundred and fifty times its size in memory.
 * Histograms (keep_hist) take 8 KiB each and a bucket can be written in
 * a dozen bytes: they have a bound of their own, 512 MiB of them.
 */
#define REPORT_ROWS_MAX	 200000
#define REPORT_HISTS_MAX 65536

/*
 * Append the rows of one input (a whole file's bytes). name is used in
 * messages. With skip_bad a bad line is a warning on err; else the first
 * bad line is reported and -1 returned. More than REPORT_ROWS_MAX rows
 * is an error either way. Returns 0 or -1.
 */
int report_load(struct report_set *set, const char *name, const char *buf,
		size_t len, int skip_bad, FILE *err);

/* After report_load of buf (malloc'd): buf freed, or kept in set until
 * report_free when its rows hold places in it (hold_buf). 0, or -1 when
 * it cannot be kept (out of memory; set is then only to be freed). */
int report_keep_buf(struct report_set *set, char *buf);

void report_free(struct report_set *set);

/*
 * report_load's part for a JSON document of clyde-zcav, clyde-sweep or
 * clyde-curve, told by its "program", or of a journal check, told by
 * its "journal_verify": read strictly (zcav_json_read, sweep_json_read,
 * curve_json_read, jverify_json_read) into a report_doc. A bad one is
 * one line naming the file and the key and -1, or with skip_bad a
 * warning and the document left out (0). Returns 1, having read
 * nothing, for any other document (or bytes that are not JSON), which
 * are clyde's to read.
 */
int report_load_doc(struct report_set *set, const char *name, const char *buf,
		    size_t len, int skip_bad, FILE *err);
void report_docs_free(struct report_set *set);

/* txt of a document: the lines clyde-zcav printed, or clyde-sweep's
 * table and CSV lines, clyde-curve's, or clyde's report of the journal
 * check. */
void report_doc_txt(FILE *out, const struct report_doc *d);

/*
 * A journal check's document (jverify.c): read into d->jverify (0, or -1
 * with why naming the key), its report printed again as clyde printed
 * it, its "journal_verify" section put again into a document, freed.
 */
int report_jverify_read(struct report_doc *d, const char *buf, size_t len,
			char *why, size_t whylen);
void report_jverify_txt(FILE *out, const struct report_doc *d);
void report_jverify_put(json_t *doc, const struct report_doc *d, int *bad);
void report_jverify_free(struct report_doc *d);

/*
 * json of a set with documents: the one document again, its head and
 * settings as read, its targets or stages made from the result as the
 * program makes them (common/docbody.c), converted_by added. Any other
 * input beside it is refused: CLI_EXIT_USAGE after one line.
 */
int report_docs_json(FILE *out, const struct report_set *set, FILE *err);

/* The set's first document refused by cmd (html, compare, plot): one
 * line naming it, and CLI_EXIT_USAGE. */
int report_docs_refuse(const struct report_set *set, const char *cmd,
		       FILE *err);

/*
 * Which of a test's figures is compared: the three of every test, then
 * a random-I/O figure's own (compare_io.c), from what was measured: its
 * service times' p99, and when it did both kinds, each kind's IOPS and
 * response p99. CMP_LAST: the last.
 */
enum cmp_what {
	CMP_RATE,
	CMP_CPU,
	CMP_LATENCY,
	CMP_SVC_P99,
	CMP_READ_IOPS,
	CMP_READ_P99,
	CMP_WRITE_IOPS,
	CMP_WRITE_P99,
	/* A figure that writes: its write-cache cliff (cliff.h), when
	 * found: burst and sustained MiB/s, absorbed MiB. */
	CMP_BURST,
	CMP_SUSTAINED,
	CMP_ABSORBED,
	CMP_LAST = CMP_ABSORBED
};

/* A random-I/O figure's sample k (CMP_SVC_P99 and after) of rec: IOPS,
 * or microseconds; or its cliff's (CMP_BURST and after): MiB/s, MiB.
 * NaN when rec has none. */
double report_io_sample(const struct result_test_rec *rec, enum cmp_what k);

/* Whether figure k is a rate (higher is faster), and its name's suffix
 * and unit: " svc p99" and "us", " read" and "IOPS". */
int report_io_is_rate(enum cmp_what k);
const char *report_io_suffix(enum cmp_what k);
const char *report_io_unit(enum cmp_what k);

struct verdict {
	int tested;	      /* a test was possible */
	struct stats_welch w; /* t, df, p */
	const char *word;     /* "faster", "slower", "within noise", ... */
};

/*
 * The test between base a and other b (compare.c), and the word for it:
 * higher rates are faster, lower latencies are faster, %CP is "more
 * CPU" or "less CPU", and a cache's absorbed bytes "larger" or
 * "smaller". Welch's test when both have repeats, a one-sample
 * test when one has; the word names a direction only when p < alpha.
 * Untested (word "-") when neither has repeats.
 */
void report_judge(const struct stats *a, const struct stats *b, enum cmp_what k,
		  double alpha, struct verdict *v);

/*
 * The verdicts of a comparison counted, for the one line that sums them
 * up under compare's text, above each table of the page, and under the
 * curves' comparisons: report_tally_add each verdict shown, then
 * report_tally_text: "Verdicts: 5 slower, 4 less CPU, 12 within noise."
 * (the words in one order, those of no figure left out, and the
 * untested ones last).
 */
#define REPORT_TALLY_WORDS 8
struct report_tally {
	unsigned n[REPORT_TALLY_WORDS];
};
void report_tally_add(struct report_tally *t, const struct verdict *v);
void report_tally_text(char *buf, size_t len, const struct report_tally *t);

/*
 * The sides of a comparison: each input's names (report_group), input
 * by input; the first is the baseline. Returns how many (*sides
 * malloc'd, free with report_groups_free), (size_t)-1 when out of
 * memory. inputs[i] is the first row of input i.
 */
size_t report_sides(const struct report_set *set, const size_t *inputs,
		    size_t ninputs, struct report_group **sides);

/* The samples of figure t (what k says) of rows idx[0..nidx) into x;
 * returns how many; *fast counts the "+++++" cells without a number. */
unsigned report_samples(const struct report_set *set, const size_t *idx,
			size_t nidx, enum result_test t, enum cmp_what k,
			double *x, unsigned *fast);

/* One figure of a side against the baseline, as compare shows it. */
struct report_fig {
	enum result_test t;
	enum cmp_what k;
	unsigned na, nb; /* samples of the baseline and the side */
	unsigned fa, fb; /* "+++++" cells without a number */
	struct stats sa, sb;
	struct verdict v;
	double change; /* percent; NaN when there is none */
};

/*
 * Figure t, k of other against base (compare's rule: mean, 95% CI,
 * change, report_judge); xa and xb hold set->n doubles each. 0 when
 * neither side has the figure (nothing to show), else 1.
 */
int report_fig_of(const struct report_set *set, const struct report_group *base,
		  const struct report_group *other, enum result_test t,
		  enum cmp_what k, double alpha, double *xa, double *xb,
		  struct report_fig *f);
/* "put_block cpu"; "KiB/s", "%CP", "us"; "134822 +- 1234" (the mean and
 * its CI's half-width; "+++++" when only such cells); "0.0032". */
void report_fig_name(char *buf, size_t len, enum result_test t,
		     enum cmp_what k);
const char *report_fig_unit(enum result_test t, enum cmp_what k);
void report_fig_value(char *buf, size_t len, const struct stats *s,
		      unsigned fast, enum result_test t, enum cmp_what k);
void report_fig_p(char *buf, size_t len, const struct verdict *v);
/* report_per_char_note of two sides. */
int report_per_char_sides(const struct report_set *set,
			  const struct report_group *base,
			  const struct report_group *other, char *note,
			  size_t len);

/* A subcommand's name: "txt", "html", ... */
const char *report_cmd_name(enum report_cmd cmd);

/*
 * Group the rows of rows [first, last) by name, in order of first
 * appearance. Returns the number of groups (*groups malloc'd, free with
 * report_groups_free).
 */
size_t report_group(const struct report_set *set, size_t first, size_t last,
		    struct report_group **groups);
void report_groups_free(struct report_group *groups, size_t n);

/*
 * The per-char meaning of rows idx[0..n) that have per-char figures
 * (perchar.c): the one they share (m; from: a row of it), mixed when
 * they disagree; from NULL when none is known.
 */
struct report_pc {
	enum result_per_char m;
	const struct run_result *from;
	int mixed;
};
void report_per_char_of(const struct report_set *set, const size_t *idx,
			size_t n, struct report_pc *pc);
/* When base's and other's per-char figures differ in meaning, the note
 * saying so into buf and 1; else 0. */
int report_per_char_note(char *buf, size_t len, const struct report_pc *base,
			 const struct report_pc *other);
/* When the set's rows hold per-char figures of both meanings, the note
 * naming which rows mean what (names written by put), between pre and
 * post, on out and 1; else nothing and 0. */
int report_per_char_rows_note(FILE *out, const struct report_set *set,
			      void (*put)(FILE *out, const char *s),
			      const char *pre, const char *post);

/*
 * The figure of a cell as a number for comparing and plotting: the
 * exact rate when known (JSON), else the line's rate; NaN for an empty
 * cell or a "+++++" without an exact rate.
 */
double report_rate(const struct csv_cell *c);

/*
 * The labels of a row as the tables show them: "2G::8192:5" (size,
 * chunk, seeks, procs; "2G:64k" in the 1.03 layout) and "4:2000:100/3"
 * (num_files[:max][:min][/dirs][:chunk]).
 */
void report_io_label(const struct run_result *r, enum table_layout layout,
		     char *buf, size_t len);
void report_file_label(const struct run_result *r, char *buf, size_t len);

/*
 * The renderers; each returns the exit status: 0, CLI_EXIT_FAILED when
 * the output could not be made, CLI_EXIT_USAGE for a usage error (after
 * one line on err).
 */
/*
 * The ratio line of figure t over rows idx[0..n) (ratio.c): its mean
 * rate against the mean of the figure it is measured against
 * (figure_of(t)->against), over the rows that have both, with its mean
 * CPU share, into buf: 1, or 0 when t has no such figure or no row has
 * both.
 */
int report_ratio(const struct report_set *set, const size_t *idx, size_t n,
		 enum result_test t, char *buf, size_t len);

int report_txt(FILE *out, const struct report_set *set,
	       const struct report_opts *o, FILE *err);
/* inputs[i] is the first row of input i; ninputs of them (the sides
 * of its compare section, as compare's). */
int report_html(FILE *out, const struct report_set *set, const size_t *inputs,
		size_t ninputs, const struct report_opts *o, FILE *err);
/* inputs[i] is the first row of input i; ninputs of them. */
int report_compare(FILE *out, const struct report_set *set,
		   const size_t *inputs, size_t ninputs,
		   const struct report_opts *o, FILE *err);
/* One clyde JSON document of every row (json.c says how each is made). */
int report_json(FILE *out, const struct report_set *set,
		const struct report_opts *o, FILE *err);
/* The status after writing json's document on out failed with errno e:
 * on standard output as any command's (cli_stdout_failed: 141, quietly,
 * for a reader gone); on a file, one line with the reason. */
int report_json_failed(FILE *out, int e, FILE *err);
/*
 * plot's files, before any work: the pictures' names (one, the page;
 * with --split one per chart), then --script's, into names[] (malloc'd; *n of
 * them, at most REPORT_OUTS_MAX). Checks the names and that gnuplot is
 * there. 0, or CLI_EXIT_USAGE after one line on err (CLI_EXIT_FAILED:
 * out of memory).
 */
int report_plot_files(const struct report_opts *o, char **names, int *n,
		      FILE *err);
/*
 * Draws into the temporary files of outs, opened on report_plot_files'
 * names in order; the caller commits or aborts them.
 */
/* plot --over-time (plot_time.c): each test's rate and p99 per
 * interval, into outs' one picture (and script). 0, CLI_EXIT_FAILED, or
 * CLI_EXIT_USAGE when no input has intervals. */
int report_plot_time(const struct report_set *set, const struct report_opts *o,
		     struct report_outs *outs, FILE *err);
int report_plot(const struct report_set *set, const struct report_opts *o,
		struct report_outs *outs, FILE *err);

#endif
