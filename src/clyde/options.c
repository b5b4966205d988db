/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options: see options.h. The engine (optable.h) reads each option into
 * its field through the run's table (options_table.c) and the tables of
 * the units that have options of their own, composed from the registry
 * of phases; then the combinations are checked, the run's first and
 * each unit's after, and the default size chosen. Sizes follow bonnie++:
 * a bare -s or -r number is MiB; a bare chunk is bytes. Unlike bonnie++
 * 2.00a, "-r 1g" is 1 GiB.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options_impl.h"
#include "runner_phases.h"
#include "text.h"
#include "units.h"

#define shown text_shown

uint64_t opts_physical_ram(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long psize = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || psize <= 0)
		return 0;
	return (uint64_t)pages * (uint64_t)psize;
}

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
	o->dir = o->dirs[0] = ".";
	o->chunk = RESULT_DEF_CHUNK;
	o->seeks = RESULT_DEF_SEEKS;
	o->procs = RESULT_DEF_PROCS;
	o->repeats = 1;
	o->concurrency = 1;
	o->steady_round_s = OPT_STEADY_ROUND_DEFAULT;
	o->steady_max_s = OPT_STEADY_MAX_DEFAULT;
	o->files_num = OPT_FILES_NUM_DEFAULT;
	o->files_chunk = OPT_FILES_CHUNK_DEFAULT;
	o->ram = opts_physical_ram();
	o->csv = CSV_198;
	o->layout = TABLE_200;
	o->sync_timeout = OPT_SYNC_TIMEOUT_DEFAULT;
	o->barrier_timeout = OPT_BARRIER_TIMEOUT_DEFAULT;
	o->privs.uid = getuid();
	o->privs.gid = getgid();
	default_name(o->name, sizeof(o->name));
}

/* Whether --only names a test of mask (bits 1 << RT_x). */
static int only_named(const struct clyde_opts *o, unsigned mask)
{
	return (o->only & mask) != 0;
}

/*
 * Two options that contradict each other are refused rather than one
 * silently winning: the user asked for something that would not happen.
 */
static int check_conflicts(struct opt_ctx *c, const struct opts_parse *g)
{
	const struct clyde_opts *o = &g->o;
	unsigned per_char = 0;
	const unsigned data = (1u << RT_FIRST_FILE) - 1;
	const unsigned files = ((1u << RT_COUNT) - 1) & ~data;
	char size[32];

	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (figure_of(t)->flags & FIGF_PER_CHAR)
			per_char |= 1u << t;
	/* The intervals have no place but the document: without one
	 * they would be measured and thrown away without a word. */
	if (o->log_interval_ms && !o->json) {
		char ms[16];

		snprintf(ms, sizeof(ms), "%u", o->log_interval_ms);
		return opt_bad(c, "--log-interval", ms,
			       "the intervals are kept only in the JSON "
			       "document: give --json[=FILE] as well");
	}
	if (o->latency && o->no_latency) {
		return opt_error(c, "--no-latency with -v/--latency: the "
				    "percentiles need every latency recorded");
	}
	if (g->f_size && o->direct)
		return opt_bad(c, "-f", g->f_size,
			       "-D skips the per-char tests (O_DIRECT takes "
			       "whole aligned blocks only)");
	if (g->f_size && o->size_set && o->size == 0)
		return opt_bad(
		    c, "-f", g->f_size,
		    "-s 0 makes no data file for the per-char tests");
	if (g->f_size && o->size_set && o->per_char_size > o->size) {
		char why[96];

		units_fmt_size(size, sizeof(size), o->size);
		snprintf(why, sizeof(why),
			 "more than the data file (-s %s) holds", size);
		return opt_bad(c, "-f", g->f_size, why);
	}
	if (only_named(o, per_char) && (o->fast || o->direct))
		return opt_bad(c, "--only", g->only,
			       o->fast ? "-f skips the per-char tests named"
				       : "-D skips the per-char tests named");
	if (only_named(o, data) && o->size_set && o->size == 0)
		return opt_bad(c, "--only", g->only,
			       "-s 0 skips the I/O tests named");
	if (only_named(o, files) && o->files_num == 0)
		return opt_bad(c, "--only", g->only,
			       "-n 0 skips the file tests named");
	if (o->drop_caches && o->files_num == 0 &&
	    (o->direct || (o->size_set && o->size == 0))) {
		return opt_error(c,
				 "--drop-caches with %s and -n 0: no test "
				 "reads through the page cache",
				 o->direct ? "-D" : "-s 0");
	}
	return 0;
}

/* No -s: the size clyde chooses. */
static void default_size(struct clyde_opts *o, int ram_set)
{
	if (o->size_set)
		return;
	if (ram_set && o->ram) {
		/* -r without -s asks for bonnie++'s rule: twice that RAM,
		 * rounded up to whole GiB (down could fall under the rule). */
		uint64_t gib = (2 * o->ram + UNITS_GIB - 1) / UNITS_GIB;

		o->size = gib * UNITS_GIB;
		return;
	}
	/* Evicting the cache before each read test makes a data set of any
	 * size true; main.c may shrink this to fit -d. */
	o->size = OPT_DEFAULT_SIZE;
	o->size_chosen = 1;
}

/* The units with options of their own, in the registry's order, each
 * once (the phases of a unit share its options); NULL-terminated. */
static const struct phase_options *units[RT_COUNT + 1];
static const struct opt_table *tables[RT_COUNT + 2];

/*
 * The run's options whose help lists the tests of a phase flag: the
 * "%s" of the table's help becomes their keys (runner_flag_names), so
 * that the list follows the flags. Composed once into run_kept.
 */
static const struct {
	const char *name;
	unsigned flag;
	const char *last;
} flag_lists[] = {
    {"precondition", PHASE_PRECONDITION, ", "},
    {"steady", PHASE_STEADY, " and "},
};
#define NFLAG_LISTS (sizeof(flag_lists) / sizeof(flag_lists[0]))
static char flag_help[NFLAG_LISTS][512];
static struct opts_keep flag_keep[NFLAG_LISTS + 1];
static struct opt run_kept[128];
static const struct opt_table run_kept_table = {NULL, run_kept, NULL};

static void filter(const struct opt *in, const struct opts_keep *keep,
		   const struct opts_keep *drop, const struct opts_keep *help,
		   struct opt *out, size_t room);

/* The run's table with each flag list's help made. */
static void compose_run(void)
{
	for (size_t i = 0; i < NFLAG_LISTS; i++) {
		const struct opt *e = opts_run_table.opts;
		char names[256];
		const char *at;

		while ((e->name || e->key) &&
		       !(e->name && !strcmp(e->name, flag_lists[i].name)))
			e++;
		at = e->name && e->help ? strstr(e->help, "%s") : NULL;
		if (!at)
			continue;
		runner_flag_names(flag_lists[i].flag, flag_lists[i].last, names,
				  sizeof(names));
		snprintf(flag_help[i], sizeof(flag_help[i]), "%.*s%s%s",
			 (int)(at - e->help), e->help, names, at + 2);
		flag_keep[i].name = flag_lists[i].name;
		flag_keep[i].help = flag_help[i];
	}
	filter(opts_run_table.opts, NULL, NULL, flag_keep, run_kept,
	       sizeof(run_kept) / sizeof(run_kept[0]));
}

static void compose(void)
{
	size_t n = 0;

	if (tables[0])
		return;
	compose_run();
	for (int t = 0; t < RT_COUNT; t++) {
		const struct phase_ops *ph =
		    runner_phase_of((enum result_test)t);
		size_t k = 0;

		if (!ph || !ph->options)
			continue;
		while (k < n && units[k] != ph->options)
			k++;
		if (k == n)
			units[n++] = ph->options;
	}
	tables[0] = &run_kept_table;
	for (size_t k = 0; k < n; k++)
		tables[k + 1] = units[k]->table;
}

/* No -d: ".", one target. Several -d with -c: at most OPT_WORKERS_MAX
 * workers in all. */
static int check_targets(struct opt_ctx *c, struct clyde_opts *o)
{
	if (!o->ndirs)
		o->ndirs = 1;
	if (o->ndirs * o->concurrency <= OPT_WORKERS_MAX)
		return 0;
	return opt_error(c,
			 "-c %u with %u -d directories: %u workers, more than "
			 "the %u clyde runs at once",
			 o->concurrency, o->ndirs, o->ndirs * o->concurrency,
			 OPT_WORKERS_MAX);
}

/* No operand: 0, or -1 after one line. */
static int no_operands(struct opt_ctx *c)
{
	char why[96];

	if (c->next >= c->argc)
		return 0;
	snprintf(why, sizeof(why), "%s takes no operands (see %s --help)",
		 c->parser->prog, c->parser->prog);
	return opt_bad(c, "argument", c->argv[c->next], why);
}

/* --precondition and --steady where --only leaves out every test of
 * their phase flag: refused, as they would change nothing. */
static int check_flag_tests(struct opt_ctx *c, const struct clyde_opts *o)
{
	for (size_t i = 0; o->only && i < NFLAG_LISTS; i++) {
		unsigned given = flag_lists[i].flag == PHASE_STEADY
				     ? (unsigned)o->steady
				     : o->precondition;
		char names[256];
		int any = 0;

		for (int t = 0; given && t < RT_COUNT; t++) {
			const struct phase_ops *ph =
			    runner_phase_of((enum result_test)t);

			any |= ph && (ph->flags & flag_lists[i].flag) &&
			       (o->only & (1u << t));
		}
		if (given && !any)
			return opt_error(
			    c, "--%s: --only leaves out %s, the tests it sets",
			    flag_lists[i].name,
			    runner_flag_names(flag_lists[i].flag, " and ",
					      names, sizeof(names)));
	}
	return 0;
}

/* After the last option: the operands (none), the combinations, the
 * run's then each unit's, and the default size. */
static int check_all(struct opt_ctx *c)
{
	struct opts_parse *ps = c->parse_base;
	struct clyde_opts *o = &ps->o;

	opts_settle_per_char(o);
	if (no_operands(c))
		return -1;
	if (!o->ndirs)
		o->ndirs = 1;
	/* --journal turns --verify on: before the checks of --verify. */
	if (check_conflicts(c, ps) || opts_check_journal(c, ps) ||
	    opts_check_lockstep(c, o) || opts_check_data(c, o))
		return -1;
	for (size_t k = 0; units[k]; k++)
		if (units[k]->check && units[k]->check(c, o))
			return -1;
	if (check_targets(c, o) || opts_check_steady(c, ps) ||
	    check_flag_tests(c, o))
		return -1;
	default_size(o, ps->ram_set);
	return 0;
}

/* getopt's mistakes in clyde's words: "option '-s' needs a value". */
static void mistake(struct opt_ctx *c, int missing)
{
	char v[1024];

	if (missing)
		opt_error(c, "option '%s' needs a value",
			  shown(c->arg, v, sizeof(v)));
	else
		opt_error(c, "unknown option '%s' (see %s --help)",
			  shown(c->arg, v, sizeof(v)), c->parser->prog);
}

static const struct opt_parser parser = {
    .prog = "clyde",
    .tables = tables,
    .about = opts_about,
    .epilogue = opts_epilogue,
    .check = check_all,
    .mistake = mistake,
};

const struct opt_parser *opts_parser(void)
{
	compose();
	return &parser;
}

enum opt_result opts_parse(int argc, char **argv, struct clyde_opts *o,
			   FILE *out, FILE *err)
{
	struct opts_parse ps;
	enum opt_result r;

	compose();
	memset(&ps, 0, sizeof(ps));
	set_defaults(&ps.o);
	for (size_t k = 0; units[k]; k++)
		memcpy(units[k]->table->base, units[k]->defaults,
		       units[k]->size);
	r = opt_parse(&parser, argc, argv, &ps, out, err);
	*o = ps.o;
	return r;
}

/* A program on clyde's runner (opts_parse_prog): its description, the
 * unit whose options it takes, and the entries it keeps of the run's
 * table and of the unit's. */
static const struct opts_prog *prog;
static const struct phase_options *prog_unit;
static struct opt prog_kept[64], prog_unit_kept[32];
static const struct opt_table prog_kept_table = {NULL, prog_kept, NULL};
static struct opt_table prog_unit_table;
static const struct opt_table *prog_tables[4];

static int check_prog(struct opt_ctx *c)
{
	struct opts_parse *ps = c->parse_base;
	struct clyde_opts *o = &ps->o;

	opts_settle_per_char(o);
	if (no_operands(c) || check_conflicts(c, ps) || opts_check_data(c, o))
		return -1;
	if (prog->check && prog->check(c, o))
		return -1;
	if (prog_unit && prog_unit->check && prog_unit->check(c, o))
		return -1;
	if (check_targets(c, o) || opts_check_steady(c, ps))
		return -1;
	default_size(o, ps->ram_set);
	return 0;
}

/* Entry e's line in list k (by letter, or by long name), or NULL. */
static const struct opts_keep *listed(const struct opt *e,
				      const struct opts_keep *k)
{
	for (; k && (k->name || k->key); k++)
		if (k->key ? e->key == k->key
			   : e->name && !strcmp(e->name, k->name))
			return k;
	return NULL;
}

/* Into out (room entries, OPT_END last): the entries of in that keep
 * lists (all when keep is NULL) and drop does not, with keep's or
 * help's words where they give them. */
static void filter(const struct opt *in, const struct opts_keep *keep,
		   const struct opts_keep *drop, const struct opts_keep *help,
		   struct opt *out, size_t room)
{
	size_t n = 0;

	for (const struct opt *e = in; e->name || e->key; e++) {
		const struct opts_keep *k = keep ? listed(e, keep) : NULL;
		const struct opts_keep *h = listed(e, help);

		if ((keep && !k) || listed(e, drop) || n + 1 >= room)
			continue;
		out[n] = *e;
		if (k && k->help)
			out[n].help = k->help;
		if (k && k->arg)
			out[n].arg = k->arg;
		if (h && h->help)
			out[n].help = h->help;
		n++;
	}
	out[n] = (struct opt)OPT_END;
}

const struct opt_parser *opts_prog_parser(const struct opts_prog *g)
{
	static struct opt_parser parser;
	size_t n = 0;

	prog = g;
	prog_unit = NULL;
	for (int t = 0; t < RT_COUNT && g->unit; t++) {
		const struct phase_ops *ph =
		    runner_phase_of((enum result_test)t);

		if (ph && ph->options && ph->unit && !strcmp(ph->unit, g->unit))
			prog_unit = ph->options;
	}
	compose();
	filter(run_kept, g->keep, NULL, NULL, prog_kept,
	       sizeof(prog_kept) / sizeof(prog_kept[0]));
	prog_tables[n++] = g->own;
	prog_tables[n++] = &prog_kept_table;
	if (prog_unit) {
		filter(prog_unit->table->opts, NULL, g->unit_drop, g->unit_help,
		       prog_unit_kept,
		       sizeof(prog_unit_kept) / sizeof(prog_unit_kept[0]));
		prog_unit_table = *prog_unit->table;
		prog_unit_table.opts = prog_unit_kept;
		if (g->unit_title)
			prog_unit_table.title = g->unit_title;
		prog_tables[n++] = &prog_unit_table;
	}
	prog_tables[n] = NULL;
	parser = (struct opt_parser){
	    .prog = g->prog,
	    .tables = prog_tables,
	    .about = g->about,
	    .epilogue = g->epilogue,
	    .check = check_prog,
	    .mistake = mistake,
	};
	return &parser;
}

enum opt_result opts_parse_prog(const struct opts_prog *g, int argc,
				char **argv, struct clyde_opts *o, FILE *out,
				FILE *err)
{
	const struct opt_parser *parser = opts_prog_parser(g);
	struct opts_parse ps;
	enum opt_result r;

	memset(&ps, 0, sizeof(ps));
	set_defaults(&ps.o);
	if (prog_unit)
		memcpy(prog_unit->table->base, prog_unit->defaults,
		       prog_unit->size);
	r = opt_parse(parser, argc, argv, &ps, out, err);
	*o = ps.o;
	return r;
}
