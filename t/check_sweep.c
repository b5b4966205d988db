/* check_sweep: the sweep's table (columns line up, too-short cells are
 * "+++++", cells not run are blank, no trailing blanks) and its CSV lines (nine
 * fields, decimal MB/s, a path with a comma quoted). */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"
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
	return s;
}

CHECK_MAIN(sweep_suite)
