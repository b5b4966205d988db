/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options: see options.h. Sizes follow bonnie++: a bare -s or -r number
 * is MiB; a bare chunk is bytes. Unlike bonnie++ 2.00a, "-r 1g" is 1 GiB.
 *
 * Over 600 lines on purpose: the help text, every value's check and
 * every refused combination are here together, so one file says all
 * that clyde's command line accepts.
 */
#include "config.h"

#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "text.h"
#include "units.h"

#define MIN_CHUNK 256u
#define MAX_CHUNK (1024u * 1024u)

static const char usage_text[] =
    "usage: clyde [-d dir] [-s size[:chunk[:seeks[:procs]]]] [-m name]\n"
    "             [-r ram] [-x repeats] [-z seed] [-u user[:group]]\n"
    "             [-g group] [-q] [-f [size]] [-b] [-D] [--csv=FMT]\n"
    "             [-n num[:max[:min[:dirs[:chunk]]]]]\n"
    "             [--format=FMT] [--per-char=MODE] [--only=TESTS]\n"
    "             [--drop-caches] [-v|--latency] [--no-latency]\n"
    "             [--json[=FILE]]\n"
    "\n"
    "A storage benchmark in the bonnie++ tradition: sequential per-char and\n"
    "block output, rewrite, per-char and block input and random seeks on one\n"
    "data file, then file creation, stat+read and deletion in sequential and\n"
    "random order, all in a private scratch directory removed on every exit.\n"
    "\n"
    "  -d dir          where to make the scratch directory (default: .)\n"
    "  -s size[:chunk[:seeks[:procs]]]\n"
    "                  data file size (bare number = MiB; k/m/g/t suffixes),\n"
    "                  I/O chunk (bytes, power of two, 256..1m, default 8k),\n"
    "                  seek count (8192) and seeker processes (5);\n"
    "                  -s 0 skips the I/O tests (default: 4g, the page\n"
    "                  cache being emptied before each read test; with -r,\n"
    "                  twice that RAM as bonnie++)\n"
    "  -n num[:max[:min[:dirs[:chunk]]]]\n"
    "                  file tests with num*1024 files (m suffix: *1024 more;\n"
    "                  default 16; 0 = none), sizes in [min,max] (k/m/g;\n"
    "                  max -1 = hard links, -2 = symlinks), spread over dirs\n"
    "                  subdirectories, data written in chunk-sized writes\n"
    "  -m name         machine name for the results (default: host name)\n"
    "  -r ram          RAM size for the size check (bare number = MiB;\n"
    "                  0 turns the check off)\n"
    "  -x N            run the whole suite N times; N > 1 prints a CSV\n"
    "                  header line, one CSV line per run, then (stderr)\n"
    "                  each figure's mean, sd, min, max and 95% CI\n"
    "  -z seed         seed for the data and random choices (default: fresh)\n"
    "  -u user[:group] run as this user (and group); -g group: this group\n"
    "  -q              quiet: table to stderr, only CSV on stdout\n"
    "  -f [size]       fast: skip the per-char tests; with a size, run them\n"
    "                  over that many bytes instead (bare number = MiB)\n"
    "  -b              fsync after every write\n"
    "  -D              O_DIRECT on every open of the data file\n"
    "  --csv=FMT       CSV format: 1.98 (default, bonnie++ 2.00), 1.97, 1.03\n"
    "  --format=FMT    table layout: 2.00 (default) or 1.03\n"
    "  --per-char=MODE stdio (default: putc/getc over the whole file, as\n"
    "                  bonnie++ 1.03) or syscall (1-byte write/read over\n"
    "                  20 MiB, as bonnie++ 2.00)\n"
    "  --only=TESTS    run only these tests (CSV names, comma-separated:\n"
    "                  putc,put_block,rewrite,getc,get_block,seeks,\n"
    "                  seq_create,...); a file test brings its whole pass\n"
    "  -v, --latency   print every test's latency percentiles (min, mean,\n"
    "                  p50, p90, p99, p99.9, max) under the table\n"
    "  --no-latency    record only each test's worst operation\n"
    "  --json[=FILE]   write the versioned JSON result (doc/clyde-json.5)\n"
    "                  to FILE, or to stdout (tables and CSV then go to\n"
    "                  stderr); with -x the summary goes there, not stderr\n"
    "  --drop-caches   as root, also drop the machine's page, dentry and\n"
    "                  inode caches before each read test\n"
    "  --help          this text;  --version  the version\n"
    "\n"
    "Exit status: 0 ok, 1 a run failed (or its scratch directory could not\n"
    "be removed), 2 bad usage, 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM\n"
    "(the first received; after removing the scratch directory), 141 when\n"
    "the reader of standard output went away.\n";

/* A value as the user gave it, on one line (text.h). */
static const char *shown(const char *val, char *buf, size_t len)
{
	text_escape(val, buf, len, TEXT_LINE);
	return buf;
}

static enum opt_status bad(FILE *err, const char *opt, const char *val,
			   const char *why)
{
	char v[1024];

	cli_bad(err, "clyde", opt, shown(val, v, sizeof(v)), why);
	return OPT_USAGE;
}

uint64_t opts_physical_ram(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long psize = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || psize <= 0)
		return 0;
	return (uint64_t)pages * (uint64_t)psize;
}

/*
 * Split arg at colons into buf (256 bytes) and f[max + 1]. Returns the
 * field count, or -1 (one line printed) when arg is too long or has more
 * than max fields.
 */
static int split_fields(const char *opt, const char *arg, const char *form,
			char *buf, char **f, int max, FILE *err)
{
	int n = 0;

	if (strlen(arg) >= 256) {
		bad(err, opt, arg, "too long");
		return -1;
	}
	strcpy(buf, arg);
	for (char *p = buf; n <= max;) {
		f[n++] = p;
		p = strchr(p, ':');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n > max) {
		bad(err, opt, arg, form);
		return -1;
	}
	return n;
}

/* A chunk: a size in bytes, a power of two from 256 to 1 MiB. */
static enum opt_status parse_chunk(const char *opt, const char *s,
				   uint64_t *out, FILE *err)
{
	char why[96];
	uint64_t v;

	if (units_parse_size(s, 1, &v, why, sizeof(why)))
		return bad(err, opt, s, why);
	if (v < MIN_CHUNK || v > MAX_CHUNK)
		return bad(err, opt, s,
			   "chunk must be between 256 and 1m bytes");
	if (v & (v - 1))
		return bad(err, opt, s, "chunk must be a power of two");
	*out = v;
	return OPT_RUN;
}

/* -s size[:chunk[:seeks[:procs]]] */
static enum opt_status parse_size(const char *arg, struct clyde_opts *o,
				  FILE *err)
{
	char buf[256], why[96];
	char *fields[5] = {0};
	int n = split_fields("-s", arg, "expected size[:chunk[:seeks[:procs]]]",
			     buf, fields, 4, err);
	uint64_t v;

	if (n < 0)
		return OPT_USAGE;
	if (units_parse_size(fields[0], UNITS_MIB, &v, why, sizeof(why)))
		return bad(err, "-s", fields[0], why);
	if (v % UNITS_MIB)
		return bad(err, "-s", fields[0],
			   "size must be a whole number of MiB");
	o->size = v;
	o->size_set = 1;
	for (int i = 1; v == 0 && i < n; i++)
		if (*fields[i])
			return bad(err, "-s", arg,
				   "-s 0 skips the I/O tests: it takes no "
				   "chunk, seeks or procs");
	if (n > 1 && *fields[1] &&
	    parse_chunk("-s", fields[1], &o->chunk, err) != OPT_RUN)
		return OPT_USAGE;
	if (n > 2 && *fields[2]) {
		if (units_parse_uint(fields[2], UINT32_MAX, &v, why,
				     sizeof(why)))
			return bad(err, "-s", fields[2], why);
		if (v == 0)
			return bad(err, "-s", fields[2],
				   "seek count must be at least 1");
		o->seeks = v;
	}
	if (n > 3 && *fields[3]) {
		if (units_parse_uint(fields[3], 1000, &v, why, sizeof(why)))
			return bad(err, "-s", fields[3],
				   "seeker processes must be 1..1000");
		if (v == 0)
			return bad(err, "-s", fields[3],
				   "seeker processes must be 1..1000");
		o->procs = (unsigned)v;
	}
	if (o->size && o->size % o->chunk)
		return bad(err, "-s", arg,
			   "size must be a multiple of the chunk");
	return OPT_RUN;
}

/* -n num[:max[:min[:dirs[:chunk]]]] */
static enum opt_status parse_files(const char *arg, struct clyde_opts *o,
				   FILE *err)
{
	char buf[256], why[96];
	char *f[6] = {0};
	int n =
	    split_fields("-n", arg, "expected num[:max[:min[:dirs[:chunk]]]]",
			 buf, f, 5, err);
	uint64_t v;
	size_t len;

	if (n < 0)
		return OPT_USAGE;
	/* num: a count of 1024 files; an m suffix multiplies by 1024. */
	len = strlen(f[0]);
	if (len && (f[0][len - 1] == 'm' || f[0][len - 1] == 'M')) {
		f[0][len - 1] = '\0';
		if (units_parse_uint(f[0], OPT_FILES_NUM_MAX / 1024, &v, why,
				     sizeof(why)) ||
		    !*f[0]) {
			f[0][len - 1] = 'm';
			return bad(err, "-n", f[0],
				   *why ? why : "not a number");
		}
		v *= 1024;
	} else if (units_parse_uint(f[0], OPT_FILES_NUM_MAX, &v, why,
				    sizeof(why))) {
		return bad(err, "-n", f[0], why);
	}
	for (int i = 1; v == 0 && i < n; i++)
		if (*f[i])
			return bad(
			    err, "-n", arg,
			    "-n 0 runs no file tests: it takes no sizes, "
			    "directories or chunk");
	o->files_num = v;
	o->files_max = 0;
	o->files_min = 0;
	o->files_dirs = 0;
	o->files_chunk = OPT_FILES_CHUNK_DEFAULT;
	if (n > 1 && *f[1]) {
		if (!strcmp(f[1], "-1") || !strcmp(f[1], "-2")) {
			o->files_max = -(f[1][1] - '0');
		} else {
			if (units_parse_size(f[1], 1, &v, why, sizeof(why)))
				return bad(err, "-n", f[1], why);
			if (v > INT64_MAX)
				return bad(err, "-n", f[1], "too large");
			o->files_max = (int64_t)v;
		}
	}
	if (n > 2 && *f[2]) {
		if (units_parse_size(f[2], 1, &v, why, sizeof(why)))
			return bad(err, "-n", f[2], why);
		if (o->files_max < 0 && v)
			return bad(err, "-n", arg,
				   "links (max -1 or -2) take no min size");
		if (o->files_max >= 0 && v > (uint64_t)o->files_max)
			return bad(err, "-n", arg,
				   "min size is larger than max size");
		o->files_min = v;
	}
	if (n > 3 && *f[3]) {
		if (units_parse_uint(f[3], UINT32_MAX, &v, why, sizeof(why)))
			return bad(err, "-n", f[3], why);
		if (v > 99999)
			return bad(err, "-n", f[3],
				   "at most 99999 directories");
		o->files_dirs = (unsigned)v;
	}
	if (n > 4 && *f[4]) {
		if (o->files_max <= 0)
			return bad(err, "-n", arg,
				   "empty files and links (max 0, -1 or -2) "
				   "write no data: no chunk");
		if (parse_chunk("-n", f[4], &o->files_chunk, err) != OPT_RUN)
			return OPT_USAGE;
	}
	return OPT_RUN;
}

/* --only=a,b,c: the registry's keys (figures.h); a file test brings its
 * pass. */
static enum opt_status parse_only(const char *arg, struct clyde_opts *o,
				  FILE *err)
{
	const char *p = arg;

	if (arg[strspn(arg, ",")] == '\0')
		return bad(err, "--only", arg, "expected a list of test names");
	o->only = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		char tok[32];
		int t = RT_COUNT;

		/* "a,,b", ",a", "a,": an empty name is a typo, not "all". */
		if (len == 0)
			return bad(err, "--only", arg,
				   "an empty test name (a comma too many)");
		if (len < sizeof(tok)) {
			memcpy(tok, p, len);
			tok[len] = '\0';
			t = figure_find(tok);
		}
		if (t < 0 || t == RT_COUNT) {
			char name[1024], why[RT_COUNT * 24];

			snprintf(name, sizeof(name), "%.*s", (int)len, p);
			snprintf(why, sizeof(why), "not a test (");
			figure_keys(why + strlen(why), sizeof(why) - strlen(why),
				    ", ");
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 ")");
			return bad(err, "--only", name, why);
		}
		o->only |= figure_only_bits(t);
		if (!p[len])
			break;
		p += len + 1;
	}
	return OPT_RUN;
}

enum {
	LONG_HELP = 256,
	LONG_VERSION,
	LONG_CSV,
	LONG_FORMAT,
	LONG_PER_CHAR,
	LONG_ONLY,
	LONG_DROP_CACHES,
	LONG_LATENCY,
	LONG_NO_LATENCY,
	LONG_JSON,
};

static const struct option long_opts[] = {
    {"help", no_argument, NULL, LONG_HELP},
    {"version", no_argument, NULL, LONG_VERSION},
    {"csv", required_argument, NULL, LONG_CSV},
    {"format", required_argument, NULL, LONG_FORMAT},
    {"per-char", required_argument, NULL, LONG_PER_CHAR},
    {"only", required_argument, NULL, LONG_ONLY},
    {"drop-caches", no_argument, NULL, LONG_DROP_CACHES},
    {"latency", no_argument, NULL, LONG_LATENCY},
    {"no-latency", no_argument, NULL, LONG_NO_LATENCY},
    {"json", optional_argument, NULL, LONG_JSON},
    {NULL, 0, NULL, 0},
};

/*
 * The host name as the default -m: a byte that is not UTF-8 text, or
 * that -m would refuse (CSV's comma and quote, control characters),
 * becomes '?', so the CSV line and the JSON document stay whole.
 */
static void default_name(char *name, size_t len)
{
	char *p;

	if (gethostname(name, len - 1) != 0 || !name[0]) {
		strcpy(name, "localhost");
		return;
	}
	name[len - 1] = '\0';
	for (p = name; *p;) {
		size_t n = text_utf8_len(p);

		if (!n || (unsigned char)*p < 0x20 || *p == 0x7f || *p == ',' ||
		    *p == '"') {
			*p++ = '?';
			continue;
		}
		p += n;
	}
}

static void set_defaults(struct clyde_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->dir = ".";
	o->chunk = RESULT_DEF_CHUNK;
	o->seeks = RESULT_DEF_SEEKS;
	o->procs = RESULT_DEF_PROCS;
	o->repeats = 1;
	o->files_num = OPT_FILES_NUM_DEFAULT;
	o->files_chunk = OPT_FILES_CHUNK_DEFAULT;
	o->ram = opts_physical_ram();
	o->csv = CSV_198;
	o->layout = TABLE_200;
	o->per_char = PER_CHAR_STDIO;
	o->privs.uid = getuid();
	o->privs.gid = getgid();
	default_name(o->name, sizeof(o->name));
}

/* -m: text (UTF-8, no control characters), or CSV and JSON break. */
static enum opt_status check_name(const char *name, FILE *err)
{
	if (!text_utf8_valid(name))
		return bad(err, "-m", name, "name must be UTF-8 text");
	for (const char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return bad(err, "-m", name,
				   "name must not contain control characters");
	return OPT_RUN;
}

/* Options whose combination is refused; what was given, as given. */
struct given {
	const char *f_size;  /* -f SIZE */
	const char *u_group; /* -u user:group */
	const char *g_group; /* -g group */
	const char *only;    /* --only=TESTS */
	gid_t u_gid, g_gid;
};

/* Whether --only names a test of mask (bits 1 << RT_x). */
static int only_named(const struct clyde_opts *o, unsigned mask)
{
	return (o->only & mask) != 0;
}

/*
 * Two options that contradict each other are refused rather than one
 * silently winning: the user asked for something that would not happen.
 */
static enum opt_status check_conflicts(const struct clyde_opts *o,
				       const struct given *g, FILE *err)
{
	const unsigned per_char = (1u << RT_putc) | (1u << RT_getc);
	const unsigned data = (1u << RT_FIRST_FILE) - 1;
	const unsigned files = ((1u << RT_COUNT) - 1) & ~data;
	char size[32];

	if (o->latency && o->no_latency) {
		fprintf(err, "clyde: --no-latency with -v/--latency: the "
			     "percentiles need every latency recorded\n");
		return OPT_USAGE;
	}
	if (g->f_size && o->direct)
		return bad(err, "-f", g->f_size,
			   "-D skips the per-char tests (O_DIRECT takes "
			   "whole aligned blocks only)");
	if (g->f_size && o->size_set && o->size == 0)
		return bad(err, "-f", g->f_size,
			   "-s 0 makes no data file for the per-char tests");
	if (g->f_size && o->size_set && o->per_char_size > o->size) {
		char why[96];

		units_fmt_size(size, sizeof(size), o->size);
		snprintf(why, sizeof(why),
			 "more than the data file (-s %s) holds", size);
		return bad(err, "-f", g->f_size, why);
	}
	if (only_named(o, per_char) && (o->fast || o->direct))
		return bad(err, "--only", g->only,
			   o->fast ? "-f skips the per-char tests named"
				   : "-D skips the per-char tests named");
	if (only_named(o, data) && o->size_set && o->size == 0)
		return bad(err, "--only", g->only,
			   "-s 0 skips the I/O tests named");
	if (only_named(o, files) && o->files_num == 0)
		return bad(err, "--only", g->only,
			   "-n 0 skips the file tests named");
	if (g->u_group && g->g_group && g->u_gid != g->g_gid) {
		char a[1024], b[1024];

		fprintf(err,
			"clyde: -g '%s' with -u '%s': two different "
			"groups\n",
			shown(g->g_group, a, sizeof(a)),
			shown(g->u_group, b, sizeof(b)));
		return OPT_USAGE;
	}
	if (o->drop_caches && o->files_num == 0 &&
	    (o->direct || (o->size_set && o->size == 0))) {
		fprintf(err,
			"clyde: --drop-caches with %s and -n 0: no test "
			"reads through the page cache\n",
			o->direct ? "-D" : "-s 0");
		return OPT_USAGE;
	}
	return OPT_RUN;
}

enum opt_status opts_parse(int argc, char **argv, struct clyde_opts *o,
			   FILE *out, FILE *err)
{
	char why[96], val[1024];
	uint64_t v;
	int c, ram_set = 0;
	enum opt_status st;
	struct given g = {0};

	set_defaults(o);
	opterr = 0;
	/* 0, not 1: glibc then forgets a previous parse entirely (a scan
	 * that stopped inside "-qk" would otherwise resume in the old
	 * argv), so opts_parse can be called any number of times. */
	optind = 0;
	while ((c = getopt_long(argc, argv, ":d:s:n:m:r:x:z:u:g:qf::bDvhV",
				long_opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (!*optarg)
				return bad(err, "-d", optarg,
					   "empty directory");
			o->dir = optarg;
			break;
		case 's':
			if ((st = parse_size(optarg, o, err)) != OPT_RUN)
				return st;
			o->size_arg = optarg;
			break;
		case 'n':
			if ((st = parse_files(optarg, o, err)) != OPT_RUN)
				return st;
			o->files_arg = optarg;
			break;
		case 'm':
			if (!*optarg || strlen(optarg) >= sizeof(o->name))
				return bad(err, "-m", optarg,
					   "name must be 1..255 characters");
			if (strpbrk(optarg, ",\n\r\""))
				return bad(err, "-m", optarg,
					   "name must not contain a comma, "
					   "quote or line break (CSV)");
			if ((st = check_name(optarg, err)) != OPT_RUN)
				return st;
			strcpy(o->name, optarg);
			break;
		case 'r':
			if (units_parse_size(optarg, UNITS_MIB, &v, why,
					     sizeof(why)))
				return bad(err, "-r", optarg, why);
			o->ram = v;
			o->ram_arg = optarg;
			ram_set = 1;
			break;
		case 'x':
			if (units_parse_uint(optarg, 100000, &v, why,
					     sizeof(why)))
				return bad(err, "-x", optarg, why);
			if (v == 0)
				return bad(err, "-x", optarg,
					   "repeat count must be at least 1");
			o->repeats = (unsigned)v;
			break;
		case 'z':
			if (units_parse_uint(optarg, UINT64_MAX, &v, why,
					     sizeof(why)))
				return bad(err, "-z", optarg, why);
			o->seed = v;
			o->seed_set = 1;
			break;
		case 'u':
			if (privs_parse_user(optarg, &o->privs, why,
					     sizeof(why))) {
				fprintf(err, "clyde: -u %s\n",
					shown(why, val, sizeof(val)));
				return OPT_USAGE;
			}
			if (strchr(optarg, ':')) {
				g.u_group = optarg;
				g.u_gid = o->privs.gid;
			}
			break;
		case 'g':
			if (privs_parse_group(optarg, &o->privs, why,
					      sizeof(why))) {
				fprintf(err, "clyde: -g %s\n",
					shown(why, val, sizeof(val)));
				return OPT_USAGE;
			}
			g.g_group = optarg;
			g.g_gid = o->privs.gid;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'f':
			/* bonnie++ 2.00: "-f" skips per-char, "-f 20" sizes it.
			 */
			if (!optarg && optind < argc && argv[optind][0] &&
			    argv[optind][0] != '-')
				optarg = argv[optind++];
			if (!optarg) {
				o->fast = 1;
				o->per_char_size = 0;
				g.f_size = NULL;
				break;
			}
			if (units_parse_size(optarg, UNITS_MIB, &v, why,
					     sizeof(why)))
				return bad(err, "-f", optarg, why);
			if (v == 0)
				return bad(err, "-f", optarg,
					   "per-char size must be above 0");
			g.f_size = optarg;
			o->fast = 0;
			o->per_char_size = v;
			break;
		case 'b':
			o->sync_each = 1;
			break;
		case 'D':
			o->direct = 1;
			break;
		case 'h':
		case LONG_HELP:
			fputs(usage_text, out);
			return OPT_EXIT_OK;
		case 'V':
		case LONG_VERSION:
			fprintf(out, "clyde %s\n", PACKAGE_VERSION);
			return OPT_EXIT_OK;
		case LONG_CSV:
			if (csv_format_parse(optarg, &o->csv))
				return bad(err, "--csv", optarg,
					   "expected 1.98, 1.97 or 1.03");
			break;
		case LONG_FORMAT:
			if (table_layout_parse(optarg, &o->layout))
				return bad(err, "--format", optarg,
					   "expected 2.00 or 1.03");
			break;
		case LONG_ONLY:
			if ((st = parse_only(optarg, o, err)) != OPT_RUN)
				return st;
			g.only = optarg;
			break;
		case LONG_DROP_CACHES:
			o->drop_caches = 1;
			break;
		case 'v':
		case LONG_LATENCY:
			o->latency = 1;
			break;
		case LONG_JSON:
			if (optarg && !*optarg)
				return bad(err, "--json", optarg,
					   "expected a file name");
			o->json = 1;
			o->json_path =
			    optarg && strcmp(optarg, "-") ? optarg : NULL;
			break;
		case LONG_NO_LATENCY:
			o->no_latency = 1;
			break;
		case LONG_PER_CHAR:
			if (!strcmp(optarg, "stdio"))
				o->per_char = PER_CHAR_STDIO;
			else if (!strcmp(optarg, "syscall"))
				o->per_char = PER_CHAR_SYSCALL;
			else
				return bad(err, "--per-char", optarg,
					   "expected stdio or syscall");
			break;
		case ':':
			fprintf(err, "clyde: option '%s' needs a value\n",
				shown(argv[optind - 1], val, sizeof(val)));
			return OPT_USAGE;
		case '?':
		default:
			if (optopt) {
				char opt[2] = {(char)optopt, '\0'};

				fprintf(err,
					"clyde: unknown option '-%s' "
					"(see clyde --help)\n",
					shown(opt, val, sizeof(val)));
			} else
				fprintf(
				    err,
				    "clyde: unknown option '%s' "
				    "(see clyde --help)\n",
				    shown(argv[optind - 1], val, sizeof(val)));
			return OPT_USAGE;
		}
	}
	if (optind < argc)
		return bad(err, "argument", argv[optind],
			   "clyde takes no operands (see clyde --help)");
	if ((st = check_conflicts(o, &g, err)) != OPT_RUN)
		return st;
	if (!o->size_set && ram_set && o->ram) {
		/* -r without -s asks for bonnie++'s rule: twice that RAM,
		 * rounded up to whole GiB (down could fall under the rule). */
		uint64_t gib = (2 * o->ram + UNITS_GIB - 1) / UNITS_GIB;

		o->size = gib * UNITS_GIB;
	} else if (!o->size_set) {
		/* Evicting the cache before each read test makes a data set
		 * of any size true; main.c may shrink this to fit -d. */
		o->size = OPT_DEFAULT_SIZE;
		o->size_chosen = 1;
	}
	return OPT_RUN;
}
