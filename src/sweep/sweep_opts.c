/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep_opts: see sweep_opts.h. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "sweep_opts.h"
#include "units.h"

#define PROG	"clyde-sweep"
#define MAX_BS	(64 * UNITS_MIB)
#define LISTMAX 512

static const char usage_text[] =
    "usage: clyde-sweep [-s size] [-B bs,bs,...] [-z seed] [-q]\n"
    "                   [--plot FILE [--plot-script FILE]] [--json[=FILE]]\n"
    "                   [--filesystems=raw,ext4,xfs]\n"
    "                   [--destroy-data=DEVICE [--force]] target\n"
    "\n"
    "The dd matrix: for each mode (buffered, O_DIRECT) and block size, write\n"
    "size bytes of seeded random data (fsync inside the timing), evict the\n"
    "cache, read them back; MB/s (10^6 bytes/s, as dd) and %CP per cell.\n"
    "target is a directory (a file in a private directory made there) or a\n"
    "block device, which is overwritten and so must be named again with\n"
    "--destroy-data.\n"
    "\n"
    "  -s size         bytes per cell (bare number = MiB; default 1g)\n"
    "  -B list         block sizes (bare number = bytes; default\n"
    "                  4k,64k,1m,4m; each a multiple of 4k, at most 64m)\n"
    "  --filesystems=LIST  on a device: the raw device and/or filesystems\n"
    "                  made on it in turn (raw, ext2, ext3, ext4, xfs,\n"
    "                  btrfs), each mounted on a private mount point\n"
    "  --destroy-data=DEVICE  allow writing to the device (must name the\n"
    "                  target); refused when it is mounted or in use\n"
    "  --force         also write over a filesystem, RAID or partition-\n"
    "                  table signature found on it\n"
    "  --plot FILE     grouped bars with gnuplot (FILE.png or .svg)\n"
    "  --plot-script FILE  also save the chart's gnuplot script to FILE\n"
    "  --json[=FILE]   write the versioned JSON result (doc/clyde-json.5)\n"
    "                  to FILE, or to stdout (table and CSV then to stderr)\n"
    "  -q              quiet: the table to stderr, only CSV on stdout\n"
    "  -z seed         seed for the data (default: fresh)\n"
    "  --help          this text;  --version  the version\n"
    "\n"
    "Lists take single commas, each item once. An option given twice must\n"
    "have the same value both times.\n"
    "\n"
    "Exit status: 0 ok, 1 a run failed (or something it made could not be\n"
    "removed: named on stderr), 2 bad usage or a refusal, 129/130/143\n"
    "stopped by SIGHUP/SIGINT/SIGTERM (the first one received), 141 its\n"
    "standard output was closed; all after unmounting and removing what\n"
    "it made.\n";

const struct sweep_fs_kind sweep_fs_kinds[] = {
    {"raw", NULL, {NULL}, NULL},
    /* Inode tables and journal written now, not by a background
     * thread that would run during the measurement. */
    {"ext2",
     "mkfs.ext2",
     {"-F", "-q", "-E", "lazy_itable_init=0"},
     "e2fsprogs"},
    {"ext3",
     "mkfs.ext3",
     {"-F", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0"},
     "e2fsprogs"},
    {"ext4",
     "mkfs.ext4",
     {"-F", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0"},
     "e2fsprogs"},
    {"xfs", "mkfs.xfs", {"-f", "-q", NULL}, "xfsprogs"},
    {"btrfs", "mkfs.btrfs", {"-f", "-q", NULL}, "btrfs-progs"},
};
const unsigned sweep_n_fs_kinds =
    sizeof(sweep_fs_kinds) / sizeof(sweep_fs_kinds[0]);

enum { OPT_FS = 256, OPT_PLOT_SCRIPT };

/* A refused value: one line on err, -1. */
#define bad(err, o, val, why) cli_bad(err, PROG, o, val, why)

/* "-B '8k': given twice with different values ('4k' first)". */
static int twice(FILE *err, const char *o, const char *val, const char *first)
{
	char why[LISTMAX + 64];

	snprintf(why, sizeof(why),
		 "given twice with different values ('%s' first)", first);
	return bad(err, o, val, why);
}

/*
 * Split arg at single commas into buf; items[] point into buf. An empty
 * item (or one of blanks only) is refused, and more than max items.
 */
static int split(FILE *err, const char *o, const char *arg, char *buf,
		 size_t len, char **items, unsigned max, const char *too_many,
		 unsigned *n)
{
	char *p;

	if (strlen(arg) >= len)
		return bad(err, o, arg, "too long");
	strcpy(buf, arg);
	*n = 0;
	for (p = buf;; p++) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (p[strspn(p, " \t")] == '\0')
			return bad(err, o, arg,
				   *arg ? "an empty item (items are separated "
					  "by single commas)"
					: "empty value");
		if (*n == max)
			return bad(err, o, arg, too_many);
		items[(*n)++] = p;
		if (!comma)
			return 0;
		p = comma;
	}
}

static int parse_bs_list(const char *arg, uint64_t *bs, unsigned *nbs,
			 FILE *err)
{
	char buf[LISTMAX], why[96], *items[SWEEP_MAX_BS];
	unsigned n;

	if (split(err, "-B", arg, buf, sizeof(buf), items, SWEEP_MAX_BS,
		  "at most 16 block sizes", &n))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		const char *tok = items[i];
		uint64_t v;

		if (units_parse_size(tok, 1, &v, why, sizeof(why)))
			return bad(err, "-B", tok, why);
		if (v == 0 || v % 4096)
			return bad(err, "-B", tok, "must be a multiple of 4k");
		if (v > MAX_BS)
			return bad(err, "-B", tok, "must be at most 64m");
		for (unsigned j = 0; j < i; j++) {
			if (bs[j] != v)
				continue;
			if (!strcmp(items[j], tok))
				return bad(err, "-B", tok, "given twice");
			snprintf(why, sizeof(why),
				 "given twice (the same size as '%.40s')",
				 items[j]);
			return bad(err, "-B", tok, why);
		}
		bs[i] = v;
	}
	*nbs = n;
	return 0;
}

static int parse_fs_list(const char *arg, const struct sweep_fs_kind **fs,
			 unsigned *nfs, FILE *err)
{
	char buf[LISTMAX], *items[SWEEP_MAX_STAGES];
	unsigned n;

	if (split(err, "--filesystems", arg, buf, sizeof(buf), items,
		  SWEEP_MAX_STAGES, "too many", &n))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		const struct sweep_fs_kind *k = NULL;

		for (unsigned j = 0; j < sweep_n_fs_kinds; j++)
			if (!strcmp(items[i], sweep_fs_kinds[j].name))
				k = &sweep_fs_kinds[j];
		if (!k)
			return bad(err, "--filesystems", items[i],
				   "expected raw, ext2, ext3, ext4, xfs or "
				   "btrfs");
		for (unsigned j = 0; j < i; j++)
			if (fs[j] == k)
				return bad(err, "--filesystems", items[i],
					   "given twice");
		fs[i] = k;
	}
	*nfs = n;
	return 0;
}

/* -s: a second one must be the same size. */
static int opt_size(const char *arg, struct sweep_opts *o, FILE *err)
{
	char why[96];
	uint64_t v;

	if (units_parse_size(arg, UNITS_MIB, &v, why, sizeof(why)))
		return bad(err, "-s", arg, why);
	if (v == 0)
		return bad(err, "-s", arg, "must be more than 0");
	if (o->size_arg && v != o->size)
		return twice(err, "-s", arg, o->size_arg);
	o->size = v;
	o->size_arg = arg;
	return 0;
}

/*
 * A list option's n items of size bytes into its slot (items, count and
 * the text given); given before, it must hold the same items.
 */
static int set_list(FILE *err, const char *o, const char *arg,
		    const void *items, unsigned n, size_t size, void *slot,
		    unsigned *nslot, const char **slot_arg)
{
	if (*slot_arg && (n != *nslot || memcmp(items, slot, n * size)))
		return twice(err, o, arg, *slot_arg);
	memcpy(slot, items, n * size);
	*nslot = n;
	*slot_arg = arg;
	return 0;
}

static int opt_bs(const char *arg, struct sweep_opts *o, FILE *err)
{
	uint64_t bs[SWEEP_MAX_BS];
	unsigned n = 0;

	if (parse_bs_list(arg, bs, &n, err))
		return -1;
	return set_list(err, "-B", arg, bs, n, sizeof(bs[0]), o->bs, &o->nbs,
			&o->bs_arg);
}

static int opt_fs(const char *arg, struct sweep_opts *o, FILE *err)
{
	const struct sweep_fs_kind *fs[SWEEP_MAX_STAGES];
	unsigned n = 0;

	if (parse_fs_list(arg, fs, &n, err))
		return -1;
	return set_list(err, "--filesystems", arg, fs, n, sizeof(fs[0]), o->fs,
			&o->nfs, &o->fs_arg);
}

static int opt_seed(const char *arg, struct sweep_opts *o, FILE *err)
{
	char why[96];
	uint64_t v;

	if (units_parse_uint(arg, UINT64_MAX, &v, why, sizeof(why)))
		return bad(err, "-z", arg, why);
	if (o->seed_set && v != o->seed) {
		char first[32];

		snprintf(first, sizeof(first), "%llu",
			 (unsigned long long)o->seed);
		return twice(err, "-z", arg, first);
	}
	o->seed = v;
	o->seed_set = 1;
	return 0;
}

/* A string option given twice: the same text, or refused. */
static int opt_str(const char *name, const char *arg, const char **slot,
		   FILE *err)
{
	if (*slot && strcmp(*slot, arg))
		return twice(err, name, arg, *slot);
	*slot = arg;
	return 0;
}

/* What needs all the options: the target, -s against -B, --plot,
 * --json. */
static int check_all(int argc, char **argv, struct sweep_opts *o, FILE *err)
{
	char why[512];

	if (optind != argc - 1) {
		fprintf(err, "%s: %s\n", PROG,
			optind == argc ? "no target given (a directory or a "
					 "block device)"
				       : "one target at a time");
		return -1;
	}
	o->target = argv[optind];
	if (!*o->target)
		return bad(err, "target", o->target, "empty name");
	if (!o->size_arg) {
		o->size = UNITS_GIB;
		o->size_arg = "1g";
	}
	for (unsigned i = 0; i < o->nbs; i++) {
		char b[32];

		if (o->size % o->bs[i]) {
			units_fmt_small(b, sizeof(b), o->bs[i]);
			snprintf(why, sizeof(why),
				 "not a multiple of the block size %s", b);
			return bad(err, "-s", o->size_arg, why);
		}
	}
	if (o->force && !o->destroy) {
		fprintf(err, "%s: --force only goes with --destroy-data\n",
			PROG);
		return -1;
	}
	if (o->plot && !*o->plot)
		return bad(err, "--plot", o->plot, "empty name");
	if (o->json_path && !strcmp(o->json_path, "-"))
		o->json_path = NULL;
	if (o->json_path && o->plot && !strcmp(o->json_path, o->plot))
		return bad(err, "--json", o->json_path,
			   "the same file as --plot");
	if (o->plot_script && !o->plot)
		return bad(err, "--plot-script", o->plot_script,
			   "goes with --plot (the script draws its chart)");
	if (o->plot_script && (!strcmp(o->plot_script, o->plot) ||
			       outfile_same(o->plot_script, o->plot)))
		return bad(err, "--plot-script", o->plot_script,
			   "the same file as --plot");
	if (o->plot_script && o->json_path &&
	    (!strcmp(o->plot_script, o->json_path) ||
	     outfile_same(o->plot_script, o->json_path)))
		return bad(err, "--plot-script", o->plot_script,
			   "the same file as --json");
	if (o->plot && plot_prepare(o->plot, &o->plot_fmt, why, sizeof(why))) {
		fprintf(err, "%s: %s\n", PROG, why);
		return -1;
	}
	return 0;
}

enum sweep_opts_status sweep_opts_parse(int argc, char **argv,
					struct sweep_opts *o, FILE *out,
					FILE *err)
{
	static const struct option longs[] = {
	    {"filesystems", required_argument, NULL, OPT_FS},
	    CLI_LONG_DESTROY,
	    CLI_LONG_FORCE,
	    CLI_LONG_PLOT,
	    {"plot-script", required_argument, NULL, OPT_PLOT_SCRIPT},
	    CLI_LONG_JSON,
	    CLI_LONG_HELP,
	    CLI_LONG_VERSION,
	    {NULL, 0, NULL, 0},
	};
	static const uint64_t default_bs[] = {4096, 65536, UNITS_MIB,
					      4 * UNITS_MIB};
	int c, rc = 0;

	memset(o, 0, sizeof(*o));
	memcpy(o->bs, default_bs, sizeof(default_bs));
	o->nbs = sizeof(default_bs) / sizeof(default_bs[0]);
	opterr = 0;
	optind = 0; /* glibc: start afresh, whatever a last call left */
	while (!rc &&
	       (c = getopt_long(argc, argv, ":s:B:z:q", longs, NULL)) != -1) {
		switch (c) {
		case 's':
			rc = opt_size(optarg, o, err);
			break;
		case 'B':
			rc = opt_bs(optarg, o, err);
			break;
		case 'z':
			rc = opt_seed(optarg, o, err);
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_FS:
			rc = opt_fs(optarg, o, err);
			break;
		case CLI_OPT_DESTROY:
			rc = *optarg ? opt_str("--destroy-data", optarg,
					       &o->destroy, err)
				     : bad(err, "--destroy-data", optarg,
					   "empty name");
			break;
		case CLI_OPT_FORCE:
			o->force = 1;
			break;
		case CLI_OPT_PLOT:
			rc = opt_str("--plot", optarg, &o->plot, err);
			break;
		case OPT_PLOT_SCRIPT:
			rc = *optarg ? opt_str("--plot-script", optarg,
					       &o->plot_script, err)
				     : bad(err, "--plot-script", optarg,
					   "empty name");
			break;
		case CLI_OPT_JSON:
			o->json = 1;
			if (optarg)
				rc = *optarg ? opt_str("--json", optarg,
						       &o->json_path, err)
					     : bad(err, "--json", optarg,
						   "expected a file name");
			break;
		default:
			rc = cli_getopt_tail(c, argv, PROG, usage_text, out,
					     err);
			if (rc == CLI_DONE)
				return SWEEP_OPTS_DONE;
			break;
		}
	}
	if (rc || check_all(argc, argv, o, err))
		return SWEEP_OPTS_USAGE;
	return SWEEP_OPTS_RUN;
}
