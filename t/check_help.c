/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_help: every option that the five programs declare (clyde's
 * phases' with clyde's) is in the --help their parser writes and in
 * their man page; an option added to a table without a word in the
 * man page fails here. And the help is the declarations': one changed,
 * --help changes.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optable.h"
#include "options.h"
#include "pgscan_prog.h"
#include "report.h"
#include "sweep_opts.h"
#include "zcav_opts.h"
#include "check_main.h"

/* The five parsers; clyde's is composed at run time from its phases. */
#define NPARSERS 5
static const struct opt_parser *parser_at(int i)
{
	static const struct opt_parser *const fixed[] = {
	    &report_parser, &zcav_parser, &sweep_parser, &pg_parser};

	return i < 4 ? fixed[i] : opts_parser();
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
	ck_assert_ptr_nonnull(strstr(before,
				     "Random I/O (ran_read, ran_write):\n"
				     "  --iodepth=N"));
	ck_assert_ptr_nonnull(strstr(before,
				     "Synchronous writes (sync_write):\n"
				     "  --sync-method=METHOD"));
	ck_assert_ptr_nonnull(strstr(before, "ran_read and ran_write keep N"));
	ck_assert_ptr_null(strstr(after, "ran_read and ran_write keep N"));
	ck_assert_ptr_nonnull(strstr(after,
				     "  --iodepth=N     a help changed in "
				     "its declaration\n"));
	free(before);
	free(after);
}
END_TEST

static Suite *help_suite(void)
{
	Suite *s = suite_create("help");
	TCase *tc = tcase_create("options");

	tcase_add_loop_test(tc, help_and_man_name_every_option, 0, NPARSERS);
	tcase_add_test(tc, clyde_help_follows_declarations);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(help_suite)
