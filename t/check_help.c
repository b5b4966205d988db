/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_help: every option that the six programs declare (clyde's
 * phases' with clyde's) is in the --help their parser writes and in
 * their man page; an option added to a table without a word in the
 * man page fails here. And the help is the declarations': one changed,
 * --help changes. The man page's SYNOPSIS names each option too. An
 * option several programs share (optshared.h) is refused for the same
 * mistake with the same line in each. clyde-report says what other
 * programs' documents hold from lib/extfig.h's table.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "figures.h"
#include "optable.h"
#include "options.h"
#include "pgscan_prog.h"
#include "phase.h"
#include "runner_phases.h"
#include "report.h"
#include "sweep_opts.h"
#include "zcav_opts.h"
#include "curve_prog.h"
#include "check_main.h"

/* The six parsers; clyde's and clyde-curve's are composed at run time
 * from clyde's phases. */
#define NPARSERS 6
static const struct opt_parser *parser_at(int i)
{
	static const struct opt_parser *const fixed[] = {
	    &report_parser, &zcav_parser, &sweep_parser, &pg_parser};

	return i < 4 ? fixed[i] : i == 4 ? opts_parser() : curve_parser();
}

/* p's --help, malloc'd. */
static char *help_of(const struct opt_parser *p)
{
	char *help = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&help, &len);

	ck_assert_ptr_nonnull(out);
	opt_help(p, out);
	fclose(out);
	return help;
}

/* The text of path, with roff's "\-" read as "-"; malloc'd. */
static char *man_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf, *out;
	long len;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fread(buf, 1, (size_t)len, f), len);
	buf[len] = '\0';
	fclose(f);
	out = buf;
	for (char *s = buf; *s; s++)
		if (!(s[0] == '\\' && s[1] == '-'))
			*out++ = *s;
	*out = '\0';
	return buf;
}

/* Whether text names the option spelt as opt ("--json", "-b"): opt not
 * followed by another letter of a name. */
static int names(const char *text, const char *opt)
{
	size_t n = strlen(opt);

	for (const char *s = strstr(text, opt); s; s = strstr(s + 1, opt)) {
		char next = s[n];

		if (s > text &&
		    (s[-1] == '-' || (s[-1] >= 'a' && s[-1] <= 'z')))
			continue;
		if (!(next == '-' || (next >= 'a' && next <= 'z') ||
		      (next >= '0' && next <= '9')))
			return 1;
	}
	return 0;
}

START_TEST(help_and_man_name_every_option)
{
	const struct opt_parser *p = parser_at(_i);
	char path[512], *help = help_of(p), *man;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s.1", T_DOC, p->prog);
	man = man_text(path);
	for (int t = 0; p->tables[t]; t++) {
		for (const struct opt *e = p->tables[t]->opts;
		     e->name || e->key; e++) {
			char spelt[80];

			if (e->flags & OPT_HIDDEN)
				continue;
			if (e->name)
				snprintf(spelt, sizeof(spelt), "--%s", e->name);
			else
				snprintf(spelt, sizeof(spelt), "-%c", e->key);
			ck_assert_msg(names(help, spelt),
				      "%s --help does not name %s", p->prog,
				      spelt);
			ck_assert_msg(names(man, spelt),
				      "%s.1 does not name %s", p->prog, spelt);
			ck_assert_msg(e->help && *e->help, "%s %s: no help",
				      p->prog, spelt);
			n++;
		}
	}
	ck_assert_int_gt(n, 5);
	free(help);
	free(man);
}
END_TEST

/* Whether e is one of a clyde phase's own options (by its name): a
 * phase's man page section is its option's entry, not a SYNOPSIS line
 * (t/036-add-phase.sh adds one so). */
static int phase_option(const struct opt *e)
{
	for (int t = 0; t < RT_COUNT && e->name; t++) {
		const struct phase_ops *ph =
		    runner_phase_of((enum result_test)t);

		if (!ph || !ph->options)
			continue;
		for (const struct opt *u = ph->options->table->opts;
		     u->name || u->key; u++)
			if (u->name && !strcmp(u->name, e->name))
				return 1;
	}
	return 0;
}

/*
 * The man page's SYNOPSIS, as --help's usage lines, names every option
 * the program shows in its help, by its letter or its long name; of
 * clyde's phases' options, those there are (a phase adds its own in
 * its entry).
 */
START_TEST(man_synopsis_names_every_option)
{
	const struct opt_parser *p = parser_at(_i);
	char path[512], *man, *syn, *end;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s.1", T_DOC, p->prog);
	man = man_text(path);
	syn = strstr(man, ".SH SYNOPSIS");
	ck_assert_msg(syn != NULL, "%s.1: no SYNOPSIS", p->prog);
	if ((end = strstr(syn + 1, "\n.SH ")))
		*end = '\0';
	for (int t = 0; p->tables[t]; t++) {
		for (const struct opt *e = p->tables[t]->opts;
		     e->name || e->key; e++) {
			char lng[80] = "", shrt[4] = "";

			if ((e->flags & OPT_HIDDEN) || !e->help ||
			    phase_option(e))
				continue;
			if (e->name)
				snprintf(lng, sizeof(lng), "--%s", e->name);
			if (e->key)
				snprintf(shrt, sizeof(shrt), "-%c", e->key);
			ck_assert_msg((*lng && names(syn, lng)) ||
					  (*shrt && names(syn, shrt)),
				      "%s.1's SYNOPSIS does not name %s",
				      p->prog, *shrt ? shrt : lng);
			n++;
		}
	}
	ck_assert_int_gt(n, 5);
	free(man);
}
END_TEST

/*
 * clyde's --help is written from its tables: the same parser over a copy
 * of each table, one entry's help changed in the copy, writes the new
 * help and not the old; each unit's entries are under its title.
 */
START_TEST(clyde_help_follows_declarations)
{
	const struct opt_parser *p = opts_parser();
	struct opt_parser copy = *p;
	const struct opt_table *tables[64];
	struct opt_table table[64];
	struct opt entries[128];
	char *before = help_of(p), *after;
	const char *old = NULL;
	size_t k = 0, t;

	for (t = 0; p->tables[t]; t++) {
		size_t first = k;

		ck_assert_uint_lt(t, 63);
		for (const struct opt *e = p->tables[t]->opts;
		     e->name || e->key; e++) {
			ck_assert_uint_lt(k, 126);
			entries[k] = *e;
			if (e->name && !strcmp(e->name, "iodepth")) {
				old = e->help;
				entries[k].help = "a help changed in its "
						  "declaration";
			}
			k++;
		}
		memset(&entries[k++], 0, sizeof(entries[0]));
		table[t] = *p->tables[t];
		table[t].opts = &entries[first];
		tables[t] = &table[t];
	}
	tables[t] = NULL;
	copy.tables = tables;
	ck_assert_ptr_nonnull(old);
	after = help_of(&copy);
	ck_assert_ptr_nonnull(
	    strstr(before, "Random I/O (ran_read, ran_write, ran_mix):\n"
			   "  --iodepth=N"));
	ck_assert_ptr_nonnull(strstr(before,
				     "Synchronous writes (sync_write):\n"
				     "  --sync-method=METHOD"));
	ck_assert_ptr_nonnull(
	    strstr(before, "ran_read, ran_write and ran_mix keep N"));
	ck_assert_ptr_null(
	    strstr(after, "ran_read, ran_write and ran_mix keep N"));
	ck_assert_ptr_nonnull(strstr(after,
				     "  --iodepth=N     a help changed in "
				     "its declaration\n"));
	free(before);
	free(after);
}
END_TEST

/*
 * clyde-report's --help says, for each figure of another program's
 * document (extfig.h), what that document is and what the figure is set
 * beside, in its table's words (the help's line breaks read as blanks).
 */
START_TEST(report_help_from_extfig)
{
	char *help = help_of(&report_parser), want[512];
	int n = 0;

	for (char *s = help; *s; s++)
		if (*s == '\n')
			*s = ' ';
	for (int t = 0; t < RT_COUNT; t++) {
		const struct figure *f = extfig_of(t);

		if (!f)
			continue;
		snprintf(want, sizeof(want),
			 "a %s document is clyde's with a %s (%s) per run%s%s",
			 f->program, f->title, f->key,
			 f->against < 0 ? "" : ", set beside its ",
			 f->against < 0
			     ? ""
			     : figure_of((enum result_test)f->against)->title);
		ck_assert_msg(strstr(help, want), "--help lacks '%s'", want);
		n++;
	}
	ck_assert_int_gt(n, 0);
	free(help);
}
END_TEST

/* The programs that take shared options, by their parse functions. */
enum prog { P_CLYDE, P_ZCAV, P_SWEEP, P_PGSCAN, NPROGS };
static const char *const prog_name[NPROGS] = {"clyde", "clyde-zcav",
					      "clyde-sweep", "clyde-pgscan"};

/* What program k writes to its err stream for args (blank-separated),
 * after its name; malloc'd. clyde-zcav's parse says it on stderr. */
static char *said(enum prog k, const char *args)
{
	char buf[256], *argv[16], *out = NULL, *err = NULL, *save, *tok;
	size_t olen = 0, elen = 0;
	FILE *o = open_memstream(&out, &olen), *e;
	int argc = 0;

	ck_assert_ptr_nonnull(o);
	snprintf(buf, sizeof(buf), "%s", args);
	argv[argc++] = (char *)prog_name[k];
	for (tok = strtok_r(buf, " ", &save); tok && argc < 15;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	if (k == P_ZCAV) {
		int saved = dup(STDERR_FILENO);
		struct zcav_opts z;

		e = tmpfile();
		ck_assert_ptr_nonnull(e);
		fflush(stderr);
		dup2(fileno(e), STDERR_FILENO);
		ck_assert_int_eq(zcav_opts_parse(argc, argv, &z), OPT_BAD);
		fflush(stderr);
		dup2(saved, STDERR_FILENO);
		close(saved);
		elen = (size_t)ftell(e);
		rewind(e);
		err = calloc(1, elen + 1);
		ck_assert_uint_eq(fread(err, 1, elen, e), elen);
		fclose(e);
	} else {
		struct clyde_opts c;
		struct sweep_opts s;
		struct pg_opts p;
		enum opt_result r;

		e = open_memstream(&err, &elen);
		ck_assert_ptr_nonnull(e);
		r = k == P_CLYDE   ? opts_parse(argc, argv, &c, o, e)
		    : k == P_SWEEP ? sweep_opts_parse(argc, argv, &s, o, e)
				   : pg_opts_parse(argc, argv, &p, o, e);
		ck_assert_int_eq(r, OPT_BAD);
		fclose(e);
	}
	fclose(o);
	free(out);
	return err;
}

/*
 * Each shared option's mistakes, in every program that takes it: the
 * same line but for the program's name (the arguments stop at the
 * mistake, so no program goes on to its own checks).
 */
START_TEST(shared_options_same_line)
{
	static const struct {
		unsigned progs; /* bits of enum prog */
		const char *args, *line;
	} cases[] = {
#define ALL_JSON                                                               \
	((1u << P_CLYDE) | (1u << P_ZCAV) | (1u << P_SWEEP) | (1u << P_PGSCAN))
#define PRIVS  ((1u << P_CLYDE) | (1u << P_ZCAV) | (1u << P_PGSCAN))
#define GROUP  ((1u << P_CLYDE) | (1u << P_ZCAV))
#define SEED   ((1u << P_CLYDE) | (1u << P_SWEEP))
#define DEVICE ((1u << P_ZCAV) | (1u << P_SWEEP))
	    {ALL_JSON, "--json=", "--json '': empty name"},
	    {ALL_JSON, "--json=a --json=b",
	     "--json 'b': given twice with different values ('a' first)"},
	    {ALL_JSON, "--json --json=b",
	     "--json 'b': given twice with different values ('-' first)"},
	    {ALL_JSON, "--json=a --json",
	     "--json '-': given twice with different values ('a' first)"},
	    {PRIVS, "-u no-such-user-here",
	     "-u 'no-such-user-here': no such user"},
	    {PRIVS, "-u 0:no-such-group-here",
	     "-u 'no-such-group-here': no such group"},
	    {PRIVS, "-u :0", "-u ':0': the user is empty"},
	    {PRIVS, "-u 0:", "-u '0:': the group is empty"},
	    {PRIVS, "-u 0 -u 1",
	     "-u '1': given twice with different values ('0' first)"},
	    {GROUP, "-g 0 -u 0:1",
	     "-g '0' with -u '0:1': two different groups"},
	    {GROUP, "-u 0:1 -g 0",
	     "-g '0' with -u '0:1': two different groups"},
	    {GROUP, "-g 0 -g 1",
	     "-g '1': given twice with different values ('0' first)"},
	    {SEED, "-z 1.5", "-z '1.5': not a whole number"},
	    {SEED, "-z 1 -z 2",
	     "-z '2': given twice with different values ('1' first)"},
	    {DEVICE, "--plot=a.png --plot=b.png",
	     "--plot 'b.png': given twice with different values ('a.png' "
	     "first)"},
	    {DEVICE, "--plot-script=a --plot-script=b",
	     "--plot-script 'b': given twice with different values ('a' "
	     "first)"},
	    {DEVICE, "--destroy-data=a --destroy-data=b",
	     "--destroy-data 'b': given twice with different values ('a' "
	     "first)"},
	    {DEVICE, "--destroy-data=", "--destroy-data '': empty name"},
	    {DEVICE, "--force=1", "--force: takes no value"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int k = 0; k < NPROGS; k++) {
			char want[512], *got;

			if (!(cases[i].progs & (1u << k)))
				continue;
			snprintf(want, sizeof(want), "%s: %s\n", prog_name[k],
				 cases[i].line);
			got = said((enum prog)k, cases[i].args);
			ck_assert_str_eq(got, want);
			free(got);
		}
	}
}
END_TEST

static Suite *help_suite(void)
{
	Suite *s = suite_create("help");
	TCase *tc = tcase_create("options");

	tcase_add_loop_test(tc, help_and_man_name_every_option, 0, NPARSERS);
	tcase_add_loop_test(tc, man_synopsis_names_every_option, 0, NPARSERS);
	tcase_add_test(tc, clyde_help_follows_declarations);
	tcase_add_test(tc, shared_options_same_line);
	tcase_add_test(tc, report_help_from_extfig);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(help_suite)
