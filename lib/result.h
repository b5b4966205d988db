/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * result: the one result model of every program and every reader. A
 * run_result is what one run of the suite measured (its settings, and per
 * figure of the registry the work, times, CPU split and latencies: clyde's
 * own runs and the runs of a clyde JSON document) and how a bonnie++ line
 * shows it (the label fields and, per figure, a csv_cell: rate, %CP and
 * worst latency, each with its text as written). clyde fills the first
 * and shows it cell by cell (csv_cell_of); clyde-report reads a CSV line
 * into the second alone (csv_parse: a line has rates, not bytes and
 * seconds) and a JSON document into both (json_read_doc). One record per
 * figure of the registry (figures.h: the RT_x enum and what each figure
 * is), so renderers loop over the registry instead of naming tests.
 */
#ifndef CLYDE_RESULT_H
#define CLYDE_RESULT_H

#include <stdint.h>

#include "cliff.h"
#include "figures.h"
#include "hist.h"
#include "steady.h"

enum result_state {
	RS_NOT_RUN = 0, /* blank cell, empty CSV field */
	RS_OK,		/* a figure (or +++++ when under 0.5 s) */
	RS_FAILED,	/* stopped by an error: blank, like RS_NOT_RUN */
};

/* One of -c N's copies of a test, or one MPI rank's: its own figures. */
struct result_worker {
	uint64_t work;		 /* bytes, seeks or files */
	double start, end;	 /* seconds from the test's first start */
	double user, sys;	 /* its CPU seconds */
	uint64_t max_latency_ns; /* its worst single operation */
	unsigned target;	 /* its -d, from 0 (the document's
				  * "targets") */
	/* Under mpirun: which rank, on which host, in which -d (not owned:
	 * whoever fills them keeps them for the result's life). host NULL:
	 * not a rank. */
	int rank;
	const char *host, *dir;
};

/*
 * Several workers: elbencho's two figures. first: the work all of them
 * had done when the first one ended, over the time from the first start
 * to that end (first_exact 0: a worker that counted no operations was
 * scaled by time); last: all the work, from the first start to the last
 * end. on 0: not taken.
 */
struct result_spans {
	int on, first_exact;
	uint64_t first_work, last_work;
	double first_elapsed, last_elapsed;
};

/*
 * One interval of --log-interval: what a test (or one of its workers)
 * did from end - secs to end, seconds from its start. bytes 0: its
 * operations have no size (file tests, sync_write counts both). The
 * percentiles come from that interval's own latencies; 0 when not known
 * (the sum of several workers, whose own intervals have them).
 */
struct result_interval {
	double end, secs;
	uint64_t ops, bytes;
	uint64_t p50_ns, p99_ns, max_ns;
	/* A random-I/O figure's: the interval's service times (submission
	 * to completion) beside the response times above; 0: not known. */
	uint64_t svc_p50_ns, svc_p99_ns;
	unsigned worker; /* in wintervals: whose, as in workers[] */
};

/* The kinds of operation a random-I/O figure counts apart. */
enum result_io_kind { RESULT_READS = 0, RESULT_WRITES, RESULT_KINDS };

/* One kind's operations: how many, their bytes and their response
 * times (NULL: not recorded; malloc'd, result_free frees it). */
struct result_kind_rec {
	uint64_t ops, bytes;
	struct hist *lat;
};

/*
 * The schedule of an offered rate (clyde's --rate): rate 0, none (a
 * closed loop). Of the arrivals due before the test ended, issued were
 * submitted and late were submitted more than a millisecond after they
 * were due; due - issued never were. Of those late, late_held fell due
 * while every slot was in flight (the target held them up; the others,
 * the machine woke the issuer late; held_kept 0: not known, as in a
 * document written before it was kept). Several workers' add up.
 */
struct result_sched {
	uint64_t rate; /* operations a second offered */
	int fixed;     /* fixed gaps; else poisson */
	uint64_t due, issued, late, late_held;
	int held_kept;
};

/* --precondition: the data file written whole, untimed, before the
 * first test that writes in place; passes 0: not done. bytes and
 * seconds are the step's (every worker's bytes, first start to last
 * end). */
struct result_precondition {
	unsigned passes;
	uint64_t bytes, block_size;
	double seconds;
};

/* The longest settings text of a figure (result_test_rec.how), with
 * its terminating NUL. */
#define RESULT_HOW_MAX 128

struct result_test_rec {
	enum result_state state;
	uint64_t work;		  /* bytes (IO), seeks, or files */
	double elapsed;		  /* seconds, last end - first start */
	double cpu;		  /* user + system seconds */
	double user, sys;	  /* the two parts of cpu */
	uint64_t max_latency_ns;  /* worst single operation, 0 = unknown */
	uint64_t start_unix_ns;	  /* its timed window's start, CLOCK_REALTIME
				   * ns since the epoch; 0 = unknown */
	uint64_t op_bytes;	  /* bytes per operation of a figure whose
				   * operations have one size (ran_read):
				   * bandwidth = rate x this; 0 = none */
	char how[RESULT_HOW_MAX]; /* the settings it ran with, in a few
				   * words ("8k fdatasync"); "" = none */
	struct hist *lat;	  /* every operation; NULL: not recorded
				   * (malloc'd, result_free frees it) */
	unsigned nworkers;	  /* -c N > 1: N, else 0 */
	struct result_worker *workers; /* malloc'd, result_free frees it */
	struct result_spans spans;
	/* --log-interval: the test's intervals in time order and, with
	 * several workers, every worker's (by worker, then time); malloc'd,
	 * result_free frees them. 0/NULL: not logged. */
	unsigned nintervals, nwintervals;
	struct result_interval *intervals, *wintervals;
	/*
	 * A random-I/O figure's own parts (clyde's phase_op_io), lat then
	 * holding each operation's response time (from when it was due, or
	 * submitted): svc the service times, submission to completion
	 * (NULL: not recorded; malloc'd, result_free frees it); each kind's
	 * operations (io 0: none recorded); the schedule of its rate.
	 */
	struct hist *svc;
	int svc_same; /* svc holds the response times themselves (a closed
		       * loop's, where each is due when submitted) */
	int io;
	struct result_kind_rec kind[RESULT_KINDS];
	struct result_sched sched;
	/* A figure that writes (figures.h's FIGF_CLIFF): the write-cache
	 * cliff in its intervals (cliff.h); looked 0: not looked for. */
	struct cliff cliff;
	/* It ran after --precondition's step, in the same pass. */
	int preconditioned;
	/* --steady: its rounds and window (steady.h), its figure the
	 * window's; NULL when it ran without (result_free frees it). */
	struct steady_run *steady;
};

/* The bonnie++ CSV formats (csv.h writes and reads them). */
enum csv_format { CSV_198, CSV_197, CSV_103 };

/*
 * A figure as a bonnie++ line shows it: what csv_parse reads of a line,
 * what csv_cell_of derives from what clyde measured.
 */
enum csv_cell_state {
	CSV_EMPTY = 0, /* the test did not run: empty fields */
	CSV_FAST,      /* "+++++": ran for under 0.5 s */
	CSV_VALUE,     /* a figure */
};

struct csv_cell {
	enum csv_cell_state state;
	double rate;	 /* KiB/s, seeks/s or files/s (CSV_VALUE) */
	int cpu;	 /* %CP; -1 when empty or "+++" */
	uint64_t lat_ns; /* worst latency; 0 when the field is empty */
	/* The three fields as written ("758.8", "+++", "8094us"). */
	char text[20], cpu_text[20], lat_text[24];
	/*
	 * Only from what was measured (clyde's runs, JSON documents): the
	 * measured rate even when the line says "+++++" (exact_rate), and
	 * the latency percentiles (has_pct).
	 */
	int exact_rate, has_pct;
	uint64_t p50_ns, p90_ns, p99_ns, p999_ns;
	/* Bytes/s of a figure whose operations have one size (the rate
	 * times result_test_rec.op_bytes); 0 = none. Not in any line. */
	double bandwidth;
	/* The settings it ran with: its record's how (result_test_rec),
	 * which it points into, or "" (csv_cell_set). Not in any line. */
	const char *how;
};

#define CSV_TEXT_MAX 64

/* The label fields of a line as written ("2G", "" for a default chunk).
 * 1.03 lines carry the whole labels in size ("1500M:4k") and files. */
struct result_text {
	char concurrency[CSV_TEXT_MAX], seed[CSV_TEXT_MAX];
	char size[CSV_TEXT_MAX], chunk[CSV_TEXT_MAX];
	char seeks[CSV_TEXT_MAX], procs[CSV_TEXT_MAX];
	char files[CSV_TEXT_MAX], max_size[CSV_TEXT_MAX];
	char min_size[CSV_TEXT_MAX], dirs[CSV_TEXT_MAX];
	char file_chunk[CSV_TEXT_MAX];
};

#define RESULT_NAME_MAX	   256
#define RESULT_VERSION_MAX 32

/* What a result's per-char figures (putc, getc) measure. */
enum result_per_char {
	RPC_UNKNOWN = 0,
	RPC_STDIO,   /* putc()/getc() through stdio (bonnie++ 1.03) */
	RPC_SYSCALL, /* 1-byte read()/write() calls (bonnie++ 1.97 on) */
};

/* How that is known. */
enum result_per_char_from {
	RPF_NONE = 0,
	RPF_SETTINGS, /* a clyde JSON document's settings.per_char */
	RPF_BONNIE,   /* a 1.98/1.97 line of bonnie++ itself */
	RPF_FORMAT,   /* a 1.03 line: no version field; bonnie++ 1.03's
		       * meaning and clyde's default for it */
	RPF_CLYDE,    /* a clyde 1.98/1.97 line: clyde's default for the
		       * format, presumed (--per-char may have changed it) */
};

struct run_result {
	char version[RESULT_VERSION_MAX]; /* CSV field 1, e.g. "clyde-0.1";
					   * "" for a 1.03 line */
	char name[RESULT_NAME_MAX];	  /* -m, default host name */

	/*
	 * As a bonnie++ line shows the run: the format it came in (CSV_198
	 * for clyde's own), the label fields and one cell per figure; a
	 * figure without a bonnie++ field stays CSV_EMPTY unless what was
	 * measured gives it. The renderers of clyde-report read this part.
	 */
	enum csv_format fmt;
	struct result_text text;
	struct csv_cell c[RT_COUNT];

	/*
	 * What was measured, and with what settings: filled by clyde and
	 * from a JSON document (measured 1); a CSV line holds none of it
	 * (measured 0: the fields below keep result_init's values).
	 */
	int measured;
	unsigned concurrency; /* -c, 1 by default */
	uint64_t seed;	      /* -z or drawn */
	uint64_t file_size;   /* bytes; 0 = I/O tests skipped */
	uint64_t chunk;	      /* bytes */
	uint64_t seeks;	      /* seek count */
	unsigned seek_procs;  /* seeker processes */
	/* File tests (-n); num_files 0 = not run. */
	uint64_t num_files; /* in units of 1024 files, as -n */
	int64_t max_size;   /* -1 hard links, -2 symlinks, else bytes */
	uint64_t min_size;
	uint64_t num_dirs;
	uint64_t file_chunk;
	/* RT_COUNT records, one a figure. result_init points t at one
	 * shared set of empty records, read-only: a CSV line's, which
	 * measured nothing, costs no more than what it shows.
	 * result_measure gives r records of its own, to fill. */
	struct result_test_rec *t;
	/* How the page cache was kept out of the read figures. */
	enum result_cache { RC_NONE, RC_EVICT, RC_DIRECT } cache;
	double cache_left; /* most of the data file found cached before a
			    * read test, 0..1; -1 when never checked */
	char error[600];   /* the failed test's message, "" when none */
	/* What putc and getc mean, from the line (csv_parse) or the
	 * document's settings (json_read_settings). */
	enum result_per_char per_char;
	enum result_per_char_from per_char_from;
	struct result_precondition precondition;
};

/* Defaults that bonnie++ leaves out of labels and CSV fields. */
#define RESULT_DEF_CHUNK       8192u
#define RESULT_DEF_SEEKS       8192u
#define RESULT_DEF_PROCS       5u
#define RESULT_DEF_CONCURRENCY 1u
/* -n's file chunk by default: a result's file_chunk is 0 then. */
#define RESULT_DEF_FILE_CHUNK 8192u

/* Zero a result and set bonnie++'s defaults (no histogram held). */
void result_init(struct run_result *r);

/* Give r records of its own (r->t, all empty), unless it has them:
 * before anything is written into them. 0, or -1 without memory. */
int result_measure(struct run_result *r);

/* Whether r has records of its own (result_measure). */
int result_has_records(const struct run_result *r);

/* Free the records and histograms r holds (r stays valid, with the
 * shared empty records); r may be one result_init or csv_parse filled,
 * or all zeros. */
void result_free(struct run_result *r);

/* The same for one test's record. */
void result_rec_free(struct result_test_rec *rec);

/* A copy of h in its own allocation; NULL without memory. */
struct hist *result_hist_dup(const struct hist *h);

/* Whether rec's reads and writes are shown apart: both kinds did
 * operations (a figure of one kind is its own total). */
int result_kinds_shown(const struct result_test_rec *rec);

/* Whether rec's service times are shown beside its response times:
 * recorded, and not the very same times (a closed loop's are: each
 * operation is due when it is submitted). The JSON keeps both all the
 * same. */
int result_svc_shown(const struct result_test_rec *rec);

/* The operations a second of kind k: its ops over the test's time; with
 * several workers (spans.on), its share of the test's one rate (its
 * work over its time: under several -d the first-finished figure). */
double result_kind_iops(const struct result_test_rec *rec,
			enum result_io_kind k);

/* Of a schedule's arrivals issued, the share (0..1) issued over
 * PHASE_LATE_NS after they were due: late / issued; 0 without a
 * schedule. */
double result_late_share(const struct result_sched *s);
/* Of a schedule's arrivals due, the share (0..1) never issued, the
 * part of the offered rate the target did not take:
 * (due - issued) / due; 0 without a schedule. */
double result_behind_share(const struct result_sched *s);

/* sum += one: several workers' schedules (each offered its share of
 * the rate) add up; fixed is the same for all. */
void result_sched_add(struct result_sched *sum, const struct result_sched *one);

/* Free rec's service and kinds' histograms and empty its random-I/O
 * parts (io 0, no schedule). */
void result_io_free(struct result_test_rec *rec);

/* "read" or "write". */
const char *result_kind_name(enum result_io_kind k);

/*
 * The per-char meaning a line shows, from its format and version field
 * (enum result_per_char_from says which rule); csv_parse sets it.
 */
void result_per_char_of_line(struct run_result *r);

/* "stdio putc()/getc()" or "1-byte read()/write() calls"; "unknown". */
const char *result_per_char_name(enum result_per_char m);

/* Where a meaning comes from, to follow its name: "over the whole file
 * (bonnie++ 1.03)", "(bonnie++ 1.97 and 2.00)"; "" when unknown. */
const char *result_per_char_whence(enum result_per_char m);

/* The figures of that meaning (figures.h's FIGF_PER_CHAR) as a note
 * names them: "per-char figures (putc, getc)". */
void result_per_char_figures(char *buf, size_t len);

/* Whether r has a figure of that meaning (a value or "+++++"). */
int result_has_per_char(const struct run_result *r);

/* How r's per-char meaning is known, a few words for a note ("from its
 * JSON settings", "a bonnie++ 2.00a line", ...); "" when not known. */
void result_per_char_source(const struct run_result *r, char *buf, size_t len);

/* The CSV/JSON key of a test ("put_block"); "?" when out of range. */
const char *result_test_name(enum result_test t);
/* Its kind, from the registry. */
enum result_kind result_test_kind(enum result_test t);

/*
 * The rate of a test as bonnie++ prints it: KiB/s truncated for IO,
 * seeks/s for SEEK, files/s truncated for FILE. Only for RS_OK.
 */
double result_rate(const struct result_test_rec *rec, enum result_kind kind);

/* What a kind's work counts, as a JSON test record's unit: "bytes",
 * "seeks", "operations" or "files". */
const char *result_work_unit(enum result_kind kind);

/* "KiB/s", "seeks/s" or "files/s". */
const char *result_rate_unit(enum result_kind kind);

/*
 * The rates of test t over nruns runs (rate[i][t], NaN where run i lacks
 * it) into x (room for nruns); returns how many there were.
 */
unsigned result_rates_of(unsigned nruns, const double (*rate)[RT_COUNT],
			 enum result_test t, double *x);

/*
 * The repeat statistics of test t over nruns runs (rate[i][t], NaN where
 * run i lacks it): mean, sd, min, max and the 95% CI of the mean into *s.
 * Returns how many runs had it (0: *s untouched). The one place clyde's
 * -x summary is computed, for the table and for JSON alike.
 */
struct stats;
unsigned result_summary(unsigned nruns, const double (*rate)[RT_COUNT],
			enum result_test t, struct stats *s);

/* %CP, truncated. */
int result_pcp(const struct result_test_rec *rec);

/* True when the test ran but for under 0.5 s: "+++++" / "+++". */
int result_too_fast(const struct result_test_rec *rec);

/*
 * The size label "size:chunk:concurrency:seeks:procs" with default
 * values left empty and trailing colons dropped ("64G:4k::65536").
 * full = 0 gives the bonnie++ 1.03 form, size[:chunk].
 */
void result_size_label(const struct run_result *r, int full, char *buf,
		       size_t len);

/* The file-test label: "16", "4:2000:100/3" (num[:max[:min]][/dirs]). */
void result_files_label(const struct run_result *r, char *buf, size_t len);

/*
 * The one place labels are joined, from their fields' texts, for clyde's
 * tables and CSV lines (the two above) and for clyde-report's (fields as
 * a line wrote them). Size: the n fields joined by ':', trailing colons
 * dropped ("2G:64k"). Files: num[:max][:min][/dirs][:chunk], each part
 * only when its text is not empty.
 */
void result_join_size(char *buf, size_t len, const char *const *fields, int n);
void result_join_files(char *buf, size_t len, const char *num, const char *max,
		       const char *min, const char *dirs, const char *chunk);

#endif
