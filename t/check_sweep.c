/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_sweep: the sweep's table (columns line up, too-short cells are
 * "+++++", cells not run are blank, no trailing blanks), its CSV lines (nine
 * fields, decimal MB/s, a path with a comma quoted), and its command line
 * (empty items and options given twice with different values refused in
 * one line; parsing returns, and can be called again and again). */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_opts.h"
#include "sweep_result.h"
#include "units.h"
#include "check_main.h"

static struct sweep_result r;

static void setup(void)
{
	memset(&r, 0, sizeof(r));
	snprintf(r.what, sizeof(r.what), "clyde-sweep x: /dev/loop7 (512M)");
	r.size = 256 * UNITS_MIB;
	r.nbs = 2;
	r.bs[0] = 4096;
	r.bs[1] = UNITS_MIB;
	r.nstages = 2;
	strcpy(r.stage[0].label, "raw device");
	strcpy(r.stage[0].fs, "raw");
	strcpy(r.stage[0].target, "/dev/loop7");
	strcpy(r.stage[1].label, "ext4");
	strcpy(r.stage[1].fs, "ext4");
	strcpy(r.stage[1].target, "/dev/loop7");
	for (int s = 0; s < 2; s++)
		for (int m = 0; m < SWEEP_MODES; m++)
			for (int b = 0; b < 2; b++)
				for (int o = 0; o < SWEEP_OPS; o++) {
					struct sweep_cell *c =
					    &r.stage[s].cell[m][b][o];

					c->done = 1;
					c->bytes = r.size;
					/* 268.435456 MB in 5.0 s = 53.7 MB/s */
					c->seconds = 5.0 + s;
					c->cpu = 0.6;
				}
	/* One cell too short to time, one not run. */
	r.stage[1].cell[SWEEP_DIRECT][1][SWEEP_READ].seconds = 0.2;
	r.stage[1].cell[SWEEP_DIRECT][1][SWEEP_WRITE].done = 0;
}

static char *capture_table(size_t *len)
{
	char *s = NULL;
	FILE *f = open_memstream(&s, len);

	sweep_print_table(f, &r);
	fclose(f);
	return s;
}

START_TEST(rates)
{
	struct sweep_cell c = {1, 1000000000ull, 4.0, 1.0};

	/* dd's convention: 10^9 bytes in 4 s is 250 MB/s, not MiB/s. */
	ck_assert_double_eq_tol(sweep_mb_s(&c), 250.0, 1e-9);
	ck_assert_int_eq(sweep_pcp(&c), 25);
	c.seconds = 0;
	ck_assert_double_eq(sweep_mb_s(&c), 0.0);
}
END_TEST

START_TEST(table_layout)
{
	size_t len;
	char *s = capture_table(&len), *line, *save = NULL;
	const char *want[] = {
	    "clyde-sweep x: /dev/loop7 (512M), 256M per cell",
	    NULL, /* the units line */
	    "                   ------ buffered ------- ------- direct "
	    "--------",
	    "                        4k          1m          4k          1m",
	    "target       op       MB/s %CP    MB/s %CP    MB/s %CP    MB/s "
	    "%CP",
	    "raw device   write    53.7  12    53.7  12    53.7  12    53.7 "
	    " 12",
	    "             read     53.7  12    53.7  12    53.7  12    53.7 "
	    " 12",
	    "ext4         write    44.7  10    44.7  10    44.7  10",
	    "             read     44.7  10    44.7  10    44.7  10   +++++ "
	    "+++",
	};
	unsigned i = 0;

	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), i++) {
		ck_assert_uint_lt(i, sizeof(want) / sizeof(want[0]));
		if (want[i])
			ck_assert_str_eq(line, want[i]);
		else
			ck_assert_ptr_nonnull(strstr(line, "10^6 bytes"));
	}
	ck_assert_uint_eq(i, sizeof(want) / sizeof(want[0]));
	free(s);
}
END_TEST

/* One block size: the mode names alone, centred, no stray dashes. */
START_TEST(narrow_heading)
{
	size_t len;
	char *s, *line, *save = NULL;

	r.nbs = 1;
	s = capture_table(&len);
	line = strtok_r(s, "\n", &save);
	line = strtok_r(NULL, "\n", &save);
	line = strtok_r(NULL, "\n", &save);
	ck_assert_str_eq(line, "                    buffered     direct");
	free(s);
}
END_TEST

START_TEST(csv_lines)
{
	char *s = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	unsigned n = 0;

	sweep_print_csv(f, &r);
	fclose(f);
	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		unsigned commas = 0;

		for (char *p = line; *p; p++)
			commas += *p == ',';
		ck_assert_uint_eq(commas, 8);
		if (n == 0)
			ck_assert_str_eq(line,
					 "/dev/loop7,raw,buffered,4096,"
					 "write,268435456,5.000000,53.7,12");
	}
	/* 2 stages x 2 modes x 2 sizes x 2 ops, less the cell not run;
	 * the one too short to time keeps its measured figures. */
	ck_assert_uint_eq(n, 15);
	free(s);

	strcpy(r.stage[0].target, "/mnt/a,b");
	s = NULL;
	f = open_memstream(&s, &len);
	sweep_print_csv(f, &r);
	fclose(f);
	ck_assert_int_eq(strncmp(s, "\"/mnt/a,b\",raw,", 15), 0);
	ck_assert_ptr_nonnull(strstr(s, "ext4,direct,1048576,read,268435456,"
					"0.200000,1342.2,300\n"));
	free(s);
}
END_TEST

/* Parse a space-separated command line ("''" an empty argument); the
 * message lands in *msg (the caller frees it). */
static enum opt_result parse(const char *line, struct sweep_opts *o, char **msg)
{
	static char copy[1024];
	char *argv[32], *tok, *save = NULL;
	int argc = 0;
	size_t len;
	FILE *err = open_memstream(msg, &len);
	FILE *out = fopen("/dev/null", "w");
	enum opt_result st;

	/* o's strings point into copy: it outlives the call. */
	snprintf(copy, sizeof(copy), "%s", line);
	argv[argc++] = (char *)"clyde-sweep";
	for (tok = strtok_r(copy, " ", &save); tok && argc < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = strcmp(tok, "''") ? tok : (char *)"";
	argv[argc] = NULL;
	st = sweep_opts_parse(argc, argv, o, out, err);
	fclose(err);
	fclose(out);
	return st;
}

/* A refusal: status 2 and exactly one line, the expected one. */
static void refused(const char *line, const char *want)
{
	struct sweep_opts o;
	char *msg;

	ck_assert_int_eq(parse(line, &o, &msg), OPT_BAD);
	ck_assert_str_eq(msg, want);
	free(msg);
}

START_TEST(opts_defaults)
{
	struct sweep_opts o;
	char *msg;

	ck_assert_int_eq(parse("/srv", &o, &msg), OPT_OK);
	ck_assert_str_eq(msg, "");
	free(msg);
	ck_assert_str_eq(o.target, "/srv");
	ck_assert_uint_eq(o.size, UNITS_GIB);
	ck_assert_uint_eq(o.nbs, 4);
	ck_assert_uint_eq(o.bs[0], 4096);
	ck_assert_uint_eq(o.bs[3], 4 * UNITS_MIB);
	ck_assert_uint_eq(o.nfs, 0);
	ck_assert_ptr_null(o.destroy);
	ck_assert_int_eq(parse("--help", &o, &msg), OPT_DONE);
	free(msg);
	ck_assert_int_eq(parse("--version /srv", &o, &msg), OPT_DONE);
	free(msg);
}
END_TEST

START_TEST(opts_lists)
{
	struct sweep_opts o;
	char *msg;

	ck_assert_int_eq(parse("-s 8m -B 1m,4k --filesystems=raw,xfs "
			       "--destroy-data=/dev/sdz /dev/sdz",
			       &o, &msg),
			 OPT_OK);
	ck_assert_str_eq(msg, "");
	free(msg);
	ck_assert_uint_eq(o.nbs, 2);
	ck_assert_uint_eq(o.bs[0], UNITS_MIB);
	ck_assert_uint_eq(o.bs[1], 4096);
	ck_assert_uint_eq(o.nfs, 2);
	ck_assert_str_eq(o.fs[0]->name, "raw");
	ck_assert_str_eq(o.fs[1]->name, "xfs");
	ck_assert_str_eq(o.destroy, "/dev/sdz");

	refused("-B 4k,,8k /srv", "clyde-sweep: -B '4k,,8k': an empty item "
				  "(items are separated by single commas)\n");
	refused("-B 4k, /srv", "clyde-sweep: -B '4k,': an empty item (items "
			       "are separated by single commas)\n");
	refused("-B ,4k /srv", "clyde-sweep: -B ',4k': an empty item (items "
			       "are separated by single commas)\n");
	refused("-B '' /srv", "clyde-sweep: -B '': empty value\n");
	refused("--filesystems=raw,,ext4 /dev/sdz",
		"clyde-sweep: --filesystems 'raw,,ext4': an empty item "
		"(items are separated by single commas)\n");
	refused("--filesystems=ext4, /dev/sdz",
		"clyde-sweep: --filesystems 'ext4,': an empty item (items are "
		"separated by single commas)\n");
	refused("-B 4k,4096 /srv", "clyde-sweep: -B '4096': given twice (the "
				   "same size as '4k')\n");
	refused("-B 4k,4k /srv", "clyde-sweep: -B '4k': given twice\n");
	refused("--filesystems=xfs,xfs /dev/sdz",
		"clyde-sweep: --filesystems 'xfs': given twice\n");
	refused("--filesystems=zfs /dev/sdz",
		"clyde-sweep: --filesystems 'zfs': expected raw, ext2, ext3, "
		"ext4, xfs or btrfs\n");
}
END_TEST

START_TEST(opts_twice)
{
	struct sweep_opts o;
	char *msg;

	refused("--destroy-data=/dev/sdy --destroy-data=/dev/sdz /dev/sdz",
		"clyde-sweep: --destroy-data '/dev/sdz': given twice with "
		"different values ('/dev/sdy' first)\n");
	refused("-s 8m -s 16m /srv", "clyde-sweep: -s '16m': given twice with "
				     "different values ('8m' first)\n");
	refused("-B 4k -B 8k /srv", "clyde-sweep: -B '8k': given twice with "
				    "different values ('4k' first)\n");
	refused("-z 1 -z 2 /srv", "clyde-sweep: -z '2': given twice with "
				  "different values ('1' first)\n");
	refused("--filesystems=raw --filesystems=raw,xfs /dev/sdz",
		"clyde-sweep: --filesystems 'raw,xfs': given twice with "
		"different values ('raw' first)\n");
	refused("--plot a.png --plot b.png /srv",
		"clyde-sweep: --plot 'b.png': given twice with different "
		"values ('a.png' first)\n");
	/* The same value twice, however spelt, is that value. */
	ck_assert_int_eq(parse("-s 8m -s 8192k -B 4k,1m -B 4096,1024k -z 3 "
			       "-z 3 --destroy-data=/dev/sdz "
			       "--destroy-data=/dev/sdz -q -q /dev/sdz",
			       &o, &msg),
			 OPT_OK);
	ck_assert_str_eq(msg, "");
	free(msg);
	ck_assert_uint_eq(o.size, 8 * UNITS_MIB);
	ck_assert_uint_eq(o.nbs, 2);
	ck_assert_uint_eq(o.seed, 3);
}
END_TEST

START_TEST(opts_other_refusals)
{
	refused("/srv /tmp", "clyde-sweep: one target at a time\n");
	refused("-s 8m", "clyde-sweep: no target given (a directory or a "
			 "block device)\n");
	refused("-s 6m /srv", "clyde-sweep: -s '6m': not a multiple of the "
			      "block size 4m\n");
	refused("--force /srv",
		"clyde-sweep: --force only goes with --destroy-data\n");
	refused("--plot x.txt /srv", "clyde-sweep: --plot 'x.txt': the name "
				     "must end in .png or .svg\n");
	refused("--destroy-data '' /srv",
		"clyde-sweep: --destroy-data '': empty name\n");
}
END_TEST

/* Called again and again in one process, as a fuzz target would, it
 * starts afresh each time: no state carried over from a refusal, even
 * one in the middle of a cluster of short options (a refusal of
 * getopt's own, the option engine's line, goes to err like the rest). */
START_TEST(opts_again)
{
	for (int i = 0; i < 200; i++) {
		struct sweep_opts o;
		char *msg;

		if (i < 2) {
			ck_assert_int_eq(parse("-qs", &o, &msg), OPT_BAD);
			ck_assert_str_eq(msg,
					 "clyde-sweep: -qs: needs a value\n");
			free(msg);
		}
		ck_assert_int_eq(parse("-qz 1 -z 2 /srv", &o, &msg), OPT_BAD);
		free(msg);
		ck_assert_int_eq(parse("-B 4k,,1m /srv", &o, &msg), OPT_BAD);
		free(msg);
		ck_assert_int_eq(parse("-q -s 4m -B 64k /srv", &o, &msg),
				 OPT_OK);
		ck_assert_str_eq(msg, "");
		free(msg);
		ck_assert_uint_eq(o.size, 4 * UNITS_MIB);
		ck_assert_uint_eq(o.nbs, 1);
		ck_assert_int_eq(o.quiet, 1);
	}
}
END_TEST

static Suite *sweep_suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("sweep");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, rates);
	tcase_add_test(tc, table_layout);
	tcase_add_test(tc, narrow_heading);
	tcase_add_test(tc, csv_lines);
	suite_add_tcase(s, tc);
	tc = tcase_create("options");
	tcase_add_test(tc, opts_defaults);
	tcase_add_test(tc, opts_lists);
	tcase_add_test(tc, opts_twice);
	tcase_add_test(tc, opts_other_refusals);
	tcase_add_test(tc, opts_again);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(sweep_suite)
