/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options_table: the run's own options, declared for the option engine
 * (optable.h): bonnie++'s letters with bonnie++'s meanings (doc/GUIDE.md's
 * option table is the contract), then clyde's long options. --help is
 * written from these entries and from each unit's (phase_ops.options).
 */
#include "config.h"

#include "options_impl.h"
#include "optshared.h"

static const char *const per_char_words[] = {
    [PER_CHAR_STDIO] = "stdio", [PER_CHAR_SYSCALL] = "syscall", NULL};

/* The values of options read by lib/ (csv.c, table.c, fill.c), for
 * completion; t/086-completion.sh runs clyde with each. */
static const char *const csv_words[] = {"1.98", "1.97", "1.03", NULL};
static const char *const format_words[] = {"2.00", "1.03", NULL};
static const char *const data_words[] = {"random", "zero",
					 "compress:", "dedupe:", NULL};

static const struct opt run_entries[] = {
    {.key = 'd',
     .type = OPT_CALL,
     .call = opts_take_dir,
     .arg = "dir",
     .help = "where to make the scratch directory (default: .); again for "
	     "more targets, all loaded at once"},
    {.key = 's',
     .type = OPT_CALL,
     .call = opts_take_size,
     .arg = "size[:chunk[:seeks[:procs]]]",
     .help = "data file size (bare number = MiB; k/m/g/t suffixes), I/O "
	     "chunk (bytes, power of two, 256..1m, default 8k), seek count "
	     "(default: the seeks made in 3 s) and seeker processes (5); -s "
	     "0 skips the I/O tests (default size: chosen by a short probe "
	     "so each test runs about 3 s, the page cache being emptied "
	     "before each read test; with -r, twice that RAM as bonnie++)"},
    {.key = 'n',
     .type = OPT_CALL,
     .call = opts_take_files,
     .arg = "num[:max[:min[:dirs[:chunk]]]]",
     .help = "file tests with num*1024 files (m suffix: *1024 more; "
	     "default: the files created in about 3 s; 0 = none), sizes in "
	     "[min,max] (k/m/g; max -1 = hard links, -2 = symlinks), spread "
	     "over dirs subdirectories, data written in chunk-sized writes"},
    {.key = 'm',
     .type = OPT_CALL,
     .call = opts_take_name,
     .arg = "name",
     .help = "machine name for the results (default: host name)"},
    {.key = 'r',
     .type = OPT_CALL,
     .call = opts_take_ram,
     .arg = "ram",
     .help = "RAM size for the size check (bare number = MiB; 0 turns the "
	     "check off)"},
    {.key = 'x',
     .type = OPT_CALL,
     .call = opts_take_repeats,
     .arg = "N",
     .help = "run the whole suite N times; N > 1 prints a CSV header line, "
	     "one CSV line per run, then (stderr) each figure's mean, sd, "
	     "min, max and 95% CI"},
    {.key = 'c',
     .type = OPT_CALL,
     .call = opts_take_concurrency,
     .arg = "N",
     .help = "run N copies of each test at once, each on its own files; "
	     "the figures are their aggregate (1 to 200)"},
    OPT_SHARED_SEED(OPTS_F(seed), OPTS_F(seed_set),
		    "the data and random choices",
		    "; bonnie++'s -Z file is refused: -z repeats a run"),
    {.key = 'Z',
     .type = OPT_CALL,
     .flags = OPT_HIDDEN,
     .call = opts_take_random_file,
     .arg = "file"},
    OPT_SHARED_USER(OPTS_F(privs), "", ""),
    OPT_SHARED_GROUP(OPTS_F(privs), ""),
    OPT_SHARED_QUIET(OPTS_F(quiet)),
    {.name = "progress",
     .type = OPT_CALL,
     .flags = OPT_ARG_OPTIONAL,
     .call = opts_take_progress,
     .words = opts_progress_words,
     .arg = "WHEN",
     .help = "a status line on stderr while a test runs (test, % done, rate "
	     "now and on average, time and ETA of the test and of the whole "
	     "run): auto (default: when stderr is a terminal), always (bare "
	     "--progress), none; never under -q"},
    {.key = 'f',
     .type = OPT_CALL,
     .flags = OPT_ARG_OPTIONAL | OPT_ARG_NEXT,
     .call = opts_take_fast,
     .arg = "size",
     .help = "fast: skip the per-char tests; with a size, run them over "
	     "that many bytes instead (bare number = MiB)"},
    {.key = 'b',
     .type = OPT_FLAG,
     .off = OPTS_F(sync_each),
     .help = "fsync after every write"},
    {.key = 'D',
     .type = OPT_FLAG,
     .off = OPTS_F(direct),
     .help = "O_DIRECT on every open of the data file"},
    {.name = "csv",
     .type = OPT_CALL,
     .call = opts_take_csv,
     .words = csv_words,
     .arg = "FMT",
     .help = "CSV format: 1.98 (default, bonnie++ 2.00), 1.97, 1.03"},
    {.name = "format",
     .type = OPT_CALL,
     .call = opts_take_format,
     .words = format_words,
     .arg = "FMT",
     .help = "table layout: 2.00 (default) or 1.03"},
    {.name = "per-char",
     .type = OPT_ENUM,
     .flags = OPT_SEEN,
     .words = per_char_words,
     .off = OPTS_F(per_char),
     .seen = OPTS_F(per_char_set),
     .arg = "MODE",
     .help = "syscall (1-byte write/read over 20 MiB, as bonnie++ 2.00) or "
	     "stdio (putc/getc over the whole file, as bonnie++ 1.03); "
	     "default: the meaning of the format asked for, so lines "
	     "compare with bonnie++'s: stdio with --csv=1.03 or "
	     "--format=1.03, else syscall"},
    {.name = "only",
     .type = OPT_CALL,
     .call = opts_take_only,
     .arg = "TESTS",
     .help = "run only these tests (CSV names, comma-separated: "
	     "putc,put_block,rewrite,getc,get_block,seeks, "
	     "ran_read,ran_write,sync_write,seq_create,...); a file test "
	     "brings its whole pass"},
    {.name = "latency",
     .key = 'v',
     .type = OPT_FLAG,
     .off = OPTS_F(latency),
     .help = "print every test's latency percentiles (min, mean, p50, p90, "
	     "p99, p99.9, max) under the table"},
    {.name = "no-latency",
     .type = OPT_FLAG,
     .off = OPTS_F(no_latency),
     .help = "record only each test's worst operation"},
    OPT_SHARED_JSON(OPTS_F(json_path), OPTS_F(json),
		    "(tables and CSV then go to stderr); it holds the -x "
		    "summary too (which stderr still gets)"),
    {.name = "log-interval",
     .type = OPT_CALL,
     .call = opts_take_log_interval,
     .arg = "MS",
     .help = "every MS milliseconds (10 to 3600000) of each test, its "
	     "operations, bytes and p50/p99/max latency in the JSON's "
	     "intervals (each -c worker's too; not the seeks, nor under "
	     "mpirun); clyde-report plot --over-time draws them"},
    {.name = "precondition",
     .type = OPT_CALL,
     .flags = OPT_ARG_OPTIONAL,
     .call = opts_take_precondition,
     .arg = "N",
     .help = "before the first test that writes in place (%s), write "
	     "the whole data file N times "
	     "(default 2, as SNIA's PTS) in the workload's block size, "
	     "untimed, so the storage is measured as it runs, not fresh"},
    {.name = "steady",
     .type = OPT_CALL,
     .flags = OPT_ARG_OPTIONAL,
     .call = opts_take_steady,
     .arg = "RULE",
     .help = "run %s in rounds "
	     "until the last ROUNDS meet SNIA PTS's steady-state rule, and "
	     "give the mean of that window; RULE is ROUNDS:RANGE:SLOPE "
	     "(default 5:20:10: a range within 20% and a slope within 10% "
	     "of the window's average), with :iops, :bw or :p99 for what "
	     "is measured (default the test's rate)"},
    {.name = "round",
     .type = OPT_CALL,
     .call = opts_take_round,
     .arg = "S",
     .help = "--steady's rounds last S seconds (default 10)"},
    {.name = "steady-max",
     .type = OPT_CALL,
     .call = opts_take_steady_max,
     .arg = "S",
     .help = "--steady gives a test S seconds at most (default 600), "
	     "then says it was NOT steady"},
    {.name = "drop-caches",
     .type = OPT_FLAG,
     .off = OPTS_F(drop_caches),
     .help = "as root, also drop the machine's page, dentry and inode "
	     "caches before each read test"},
    {.key = 'p',
     .type = OPT_CALL,
     .call = opts_take_sem_procs,
     .arg = "N",
     .help = "make bonnie++'s semaphores (key 0x1267) for N processes to "
	     "run in step, then exit; -p -1 removes them"},
    {.key = 'y',
     .type = OPT_CALL,
     .call = opts_take_sync,
     .words = opts_sync_words,
     .arg = "s|p",
     .help = "before each test, wait until the N processes (clyde or "
	     "bonnie++ -y s) are all there (s), or print a prompt and read a "
	     "line (p)"},
    {.name = "sync-timeout",
     .type = OPT_CALL,
     .call = opts_take_sync_timeout,
     .arg = "SECONDS",
     .help = "the longest -y s waits at one test (default 600)"},
    {.name = "barrier-timeout",
     .type = OPT_CALL,
     .call = opts_take_barrier_timeout,
     .arg = "SECONDS",
     .help = "with several workers (-c, several -d, mpirun's ranks), the "
	     "longest one waits for the others at a test, or all go without "
	     "an operation (default 600, 0: no limit); under mpirun -d takes "
	     "%r, %h, %%"},
    {.name = "data",
     .type = OPT_CALL,
     .call = opts_take_data,
     .words = data_words,
     .arg = "MODE",
     .help = "what the data file's writes carry: random (default; no array "
	     "can compress or deduplicate it), zero, compress:PCT (zlib "
	     "keeps about PCT%), dedupe:PCT (about PCT% of 4 KiB blocks "
	     "repeat earlier ones)"},
    {.name = "verify",
     .type = OPT_FLAG,
     .off = OPTS_F(verify),
     .help = "every 4 KiB block written carries its offset, a generation "
	     "and a CRC-32; every block read is checked, and the first bad "
	     "one ends the run"},
    {.name = "keep",
     .type = OPT_FLAG,
     .off = OPTS_F(keep),
     .help = "the data file of a run that ended well stays, as "
	     "DIR/clyde-kept.SEED"},
    {.name = "verify-only",
     .type = OPT_CALL,
     .call = opts_take_verify_only,
     .arg = "FILE",
     .help = "run no test: check every block of a file that a --keep "
	     "--verify run left"},
    {.name = "journal",
     .type = OPT_CALL,
     .call = opts_take_journal,
     .arg = "FILE",
     .help = "record in FILE (on another filesystem than every -d) each "
	     "write to the data file as it goes out and once the storage "
	     "acknowledged it (turns --verify on; the data file stays); "
	     "with --verify-only, check the file against the journal its "
	     "run left: an acknowledged write lost fails, one in flight "
	     "may be old or new"},
    {.name = "until-killed",
     .type = OPT_FLAG,
     .off = OPTS_F(until_killed),
     .help = "with --journal: the tests that write loop until clyde is "
	     "killed or the machine goes down; then check the data file "
	     "with --verify-only and --journal"},
    {.key = 'h',
     .type = OPT_CALL,
     .flags = OPT_HIDDEN | OPT_NO_VALUE,
     .call = opts_take_help},
    {.key = 'V',
     .type = OPT_CALL,
     .flags = OPT_HIDDEN | OPT_NO_VALUE,
     .call = opts_take_version},
    OPT_END,
};

const struct opt_table opts_run_table = {NULL, run_entries, NULL};

const char opts_about[] =
    "A storage benchmark in the bonnie++ tradition: sequential per-char and\n"
    "block output, rewrite, per-char and block input, random seeks and\n"
    "random reads and writes at a queue depth on one data file, synchronous\n"
    "writes (the latency of a commit), then file\n"
    "creation, stat+read and deletion in sequential and random order, all\n"
    "in a private scratch directory removed on every exit.\n";

const char opts_epilogue[] =
    "Exit status: 0 ok, 1 a run failed (or its scratch directory could not\n"
    "be removed), 2 bad usage, 128+N stopped by signal N (129/130/143:\n"
    "SIGHUP/SIGINT/SIGTERM; any that ends a process, the first received;\n"
    "after removing the scratch directory), 141 when the reader of\n"
    "standard output went away.\n";
