/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sweep_opts: see sweep_opts.h. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "optable.h"
#include "optshared.h"
#include "outfile.h"
#include "sweep_opts.h"
#include "units.h"

#define MAX_BS	(64 * UNITS_MIB)
#define LISTMAX 512

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

/*
 * Split the value at single commas into buf; items[] point into buf.
 * An empty item (or one of blanks only) is refused, and more than max
 * items.
 */
static int split(struct opt_ctx *c, char *buf, size_t len, char **items,
		 unsigned max, const char *too_many, unsigned *n)
{
	const char *arg = c->arg;
	char *p;

	if (strlen(arg) >= len)
		return opt_refuse(c, "too long");
	strcpy(buf, arg);
	*n = 0;
	for (p = buf;; p++) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (p[strspn(p, " \t")] == '\0')
			return opt_refuse(c, *arg ? "an empty item (items are "
						    "separated by single "
						    "commas)"
						  : "empty value");
		if (*n == max)
			return opt_refuse(c, too_many);
		items[(*n)++] = p;
		if (!comma)
			return 0;
		p = comma;
	}
}

static int parse_bs_list(struct opt_ctx *c, uint64_t *bs, unsigned *nbs)
{
	char buf[LISTMAX], why[96], *items[SWEEP_MAX_BS];
	unsigned n;

	if (split(c, buf, sizeof(buf), items, SWEEP_MAX_BS,
		  "at most 16 block sizes", &n))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		const char *tok = items[i];
		uint64_t v;

		if (units_parse_size(tok, 1, &v, why, sizeof(why)))
			return opt_bad(c, "-B", tok, why);
		if (v == 0 || v % 4096)
			return opt_bad(c, "-B", tok,
				       "must be a multiple of 4k");
		if (v > MAX_BS)
			return opt_bad(c, "-B", tok, "must be at most 64m");
		for (unsigned j = 0; j < i; j++) {
			if (bs[j] != v)
				continue;
			if (!strcmp(items[j], tok))
				return opt_bad(c, "-B", tok, "given twice");
			snprintf(why, sizeof(why),
				 "given twice (the same size as '%.40s')",
				 items[j]);
			return opt_bad(c, "-B", tok, why);
		}
		bs[i] = v;
	}
	*nbs = n;
	return 0;
}

static int parse_fs_list(struct opt_ctx *c, const struct sweep_fs_kind **fs,
			 unsigned *nfs)
{
	char buf[LISTMAX], *items[SWEEP_MAX_STAGES];
	unsigned n;

	if (split(c, buf, sizeof(buf), items, SWEEP_MAX_STAGES, "too many", &n))
		return -1;
	for (unsigned i = 0; i < n; i++) {
		const struct sweep_fs_kind *k = NULL;

		for (unsigned j = 0; j < sweep_n_fs_kinds; j++)
			if (!strcmp(items[i], sweep_fs_kinds[j].name))
				k = &sweep_fs_kinds[j];
		if (!k)
			return opt_bad(c, "--filesystems", items[i],
				       "expected raw, ext2, ext3, ext4, xfs or "
				       "btrfs");
		for (unsigned j = 0; j < i; j++)
			if (fs[j] == k)
				return opt_bad(c, "--filesystems", items[i],
					       "given twice");
		fs[i] = k;
	}
	*nfs = n;
	return 0;
}

/* -s: a second one must be the same size. */
static int take_size(struct opt_ctx *c, const char *arg)
{
	struct sweep_opts *o = c->base;
	char why[96];
	uint64_t v;

	if (units_parse_size(arg, UNITS_MIB, &v, why, sizeof(why)))
		return opt_refuse(c, why);
	if (v == 0)
		return opt_refuse(c, "must be more than 0");
	if (o->size_arg && v != o->size)
		return opt_twice(c, o->size_arg);
	o->size = v;
	o->size_arg = arg;
	return 0;
}

/*
 * A list option's n items of size bytes into its slot (items, count and
 * the text given); given before, it must hold the same items.
 */
static int set_list(struct opt_ctx *c, const void *items, unsigned n,
		    size_t size, void *slot, unsigned *nslot,
		    const char **slot_arg)
{
	if (*slot_arg && (n != *nslot || memcmp(items, slot, n * size)))
		return opt_twice(c, *slot_arg);
	memcpy(slot, items, n * size);
	*nslot = n;
	*slot_arg = c->arg;
	return 0;
}

/* -B list */
static int take_bs(struct opt_ctx *c, const char *arg)
{
	struct sweep_opts *o = c->base;
	uint64_t bs[SWEEP_MAX_BS];
	unsigned n = 0;

	(void)arg;
	if (parse_bs_list(c, bs, &n))
		return -1;
	return set_list(c, bs, n, sizeof(bs[0]), o->bs, &o->nbs, &o->bs_arg);
}

/* --filesystems=LIST */
static int take_fs(struct opt_ctx *c, const char *arg)
{
	struct sweep_opts *o = c->base;
	const struct sweep_fs_kind *fs[SWEEP_MAX_STAGES];
	unsigned n = 0;

	(void)arg;
	if (parse_fs_list(c, fs, &n))
		return -1;
	return set_list(c, fs, n, sizeof(fs[0]), o->fs, &o->nfs, &o->fs_arg);
}

/* Whether two output names are one file (by name, or by what they
 * name when both exist). */
static int same_file(const char *a, const char *b)
{
	return !strcmp(a, b) || outfile_same(a, b);
}

/* The outputs: --json, --plot and --plot-script, three files. */
static int check_outputs(struct opt_ctx *c, struct sweep_opts *o)
{
	if (o->json_path && o->plot && !strcmp(o->json_path, o->plot))
		return opt_bad(c, "--json", o->json_path,
			       "the same file as --plot");
	if (opt_check_plot(c, o->plot, o->plot_script, &o->plot_fmt))
		return -1;
	if (o->plot_script && same_file(o->plot_script, o->plot))
		return opt_bad(c, "--plot-script", o->plot_script,
			       "the same file as --plot");
	if (o->plot_script && o->json_path &&
	    same_file(o->plot_script, o->json_path))
		return opt_bad(c, "--plot-script", o->plot_script,
			       "the same file as --json");
	return 0;
}

/* What needs all the options: the target, -s against -B, the
 * outputs. */
static int check_all(struct opt_ctx *c)
{
	struct sweep_opts *o = c->base;
	char why[128], b[32];

	if (c->next != c->argc - 1)
		return opt_error(c, "%s",
				 c->next == c->argc
				     ? "no target given (a directory or a "
				       "block device)"
				     : "one target at a time");
	o->target = c->argv[c->next];
	if (!*o->target)
		return opt_bad(c, "target", o->target, "empty name");
	if (!o->size_arg) {
		o->size = UNITS_GIB;
		o->size_arg = "1g";
	}
	for (unsigned i = 0; i < o->nbs; i++) {
		if (o->size % o->bs[i]) {
			units_fmt_small(b, sizeof(b), o->bs[i]);
			snprintf(why, sizeof(why),
				 "not a multiple of the block size %s", b);
			return opt_bad(c, "-s", o->size_arg, why);
		}
	}
	if (o->force && !o->destroy)
		return opt_error(c, "--force only goes with --destroy-data");
	return check_outputs(c, o);
}

#define F(field) offsetof(struct sweep_opts, field)

static const struct opt sweep_opts[] = {
    {.key = 's',
     .type = OPT_CALL,
     .call = take_size,
     .arg = "size",
     .help = "bytes per cell (bare number = MiB; default 1g)"},
    {.key = 'B',
     .type = OPT_CALL,
     .call = take_bs,
     .arg = "bs,bs,...",
     .help = "block sizes (bare number = bytes; default 4k,64k,1m,4m; each "
	     "a multiple of 4k, at most 64m)"},
    OPT_SHARED_SEED(F(seed), F(seed_set), "the data", ""),
    OPT_SHARED_QUIET(F(quiet)),
    OPT_SHARED_PLOT(F(plot), "grouped bars"),
    OPT_SHARED_PLOT_SCRIPT(F(plot_script)),
    OPT_SHARED_JSON(F(json_path), F(json),
		    "(the table and CSV then go to stderr)"),
    {.name = "filesystems",
     .type = OPT_CALL,
     .call = take_fs,
     .arg = "LIST",
     .help = "on a device: the raw device and/or filesystems made on it in "
	     "turn (raw, ext2, ext3, ext4, xfs, btrfs), each mounted on a "
	     "private mount point"},
    OPT_SHARED_DESTROY_DATA(F(destroy), "on a device: "),
    OPT_SHARED_FORCE(F(force), "with --destroy-data: "),
    OPT_END,
};

static const struct opt_table sweep_table = {NULL, sweep_opts, NULL};
static const struct opt_table *const sweep_tables[] = {&sweep_table, NULL};
static const struct opt_usage sweep_usage[] = {{0, "target"}, {0, NULL}};

const struct opt_parser sweep_parser = {
    .prog = "clyde-sweep",
    .tables = sweep_tables,
    .usage = sweep_usage,
    .about = "The dd matrix: for each mode (buffered, O_DIRECT) and block "
	     "size, write\n"
	     "size bytes of seeded random data (fsync inside the timing), "
	     "evict the\n"
	     "cache, read them back; MB/s (10^6 bytes/s, as dd) and %CP per "
	     "cell.\n"
	     "target is a directory (a file in a private directory made "
	     "there) or a\n"
	     "block device, which is overwritten and so must be named again "
	     "with\n"
	     "--destroy-data.\n",
    .epilogue = "Lists take single commas, each item once. An option given "
		"twice must\n"
		"have the same value both times.\n"
		"\n"
		"Exit status: 0 ok, 1 a run failed (or something it made "
		"could not be\n"
		"removed: named on stderr), 2 bad usage or a refusal, "
		"128+N\n"
		"stopped by signal N (129/130/143: SIGHUP/SIGINT/SIGTERM; "
		"any that\n"
		"ends a process; the first one received), 141 its standard "
		"output was\n"
		"closed; all after unmounting and removing what it made.\n",
    .check = check_all,
};

enum opt_result sweep_opts_parse(int argc, char **argv, struct sweep_opts *o,
				 FILE *out, FILE *err)
{
	static const uint64_t default_bs[] = {4096, 65536, UNITS_MIB,
					      4 * UNITS_MIB};

	memset(o, 0, sizeof(*o));
	memcpy(o->bs, default_bs, sizeof(default_bs));
	o->nbs = sizeof(default_bs) / sizeof(default_bs[0]);
	return opt_parse(&sweep_parser, argc, argv, o, out, err);
}
