/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_figures: the registry of figures (lib/figures.h) walked at run
 * time: every field of each bonnie++ format used once (label fields and
 * figures), 50/48/27 fields, keys unique, a latency field for every
 * figure with a rate field,
 * csv_write -> csv_parse round trips in every format, the runner's
 * phase table against it, and for each figure bonnie++ has no field for
 * (none yet: the checks run when one is added) that it never changes a
 * bonnie++ line or table and shows in the extra table section, JSON and
 * clyde-report txt.
 */
#include "config.h"

#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "figures.h"
#include "fixture.h"
#include "json.h"
#include "phase.h"
#include "report.h"
#include "phase.h"
#include "result_shown.h"
#include "runner.h"
#include "table.h"
#include "check_main.h"

static const enum csv_format formats[] = {CSV_198, CSV_197, CSV_103};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static int rate_field(const struct figure *f, enum csv_format fmt)
{
	return fmt == CSV_198	? f->csv198
	       : fmt == CSV_197 ? f->csv197
				: f->csv103;
}

static int latency_field(const struct figure *f, enum csv_format fmt)
{
	return fmt == CSV_198 ? f->lat198 : fmt == CSV_197 ? f->lat197 : -1;
}

START_TEST(field_counts)
{
	ck_assert_int_eq(csv_field_count(CSV_198), 50);
	ck_assert_int_eq(csv_field_count(CSV_197), 48);
	ck_assert_int_eq(csv_field_count(CSV_103), 27);
}
END_TEST

/* Every field of each format holds one thing, and all are named. */
START_TEST(fields_used_once)
{
	for (size_t k = 0; k < NFORMATS; k++) {
		enum csv_format fmt = formats[k];
		int n = csv_field_count(fmt), used[64] = {0};
		char name[64];

		for (enum result_test t = 0; t < RT_COUNT; t++) {
			const struct figure *f = figure_of(t);
			int at = rate_field(f, fmt),
			    lat = latency_field(f, fmt);

			ck_assert_int_eq(csv_rate_at(t, fmt), at);
			ck_assert_int_eq(csv_latency_at(t, fmt), lat);
			if (at < 0)
				continue;
			ck_assert_int_lt(at + 1, n);
			ck_assert_int_lt(lat, n);
			used[at]++;
			used[at + 1]++;
			if (lat >= 0)
				used[lat]++;
		}
		for (int k = 0; k < CL_COUNT; k++)
			if (csv_label_at(k, fmt) >= 0)
				used[csv_label_at(k, fmt)]++;
		for (int i = 0; i < n; i++) {
			ck_assert_msg(used[i] == 1,
				      "format %d field %d used %d times",
				      (int)fmt, i, used[i]);
			csv_field_name(fmt, i, name, sizeof(name));
			ck_assert_str_ne(name, "?");
		}
		csv_field_name(fmt, n, name, sizeof(name));
		ck_assert_str_eq(name, "?");
	}
}
END_TEST

/* bonnie++ 2.00's own header line, whole. */
START_TEST(header_198)
{
	char *h = NULL;

	FX_CAPTURE(h, csv_write_header(out, CSV_198));
	ck_assert_str_eq(
	    h, "format_version,bonnie_version,name,concurrency,seed,file_size,"
	       "io_chunk_size,seeks,seek_proc_count,putc,putc_cpu,put_block,"
	       "put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,"
	       "get_block_cpu,seeks,seeks_cpu,num_files,max_size,min_size,"
	       "num_dirs,file_chunk_size,seq_create,seq_create_cpu,seq_stat,"
	       "seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,"
	       "ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,putc_latency,"
	       "put_block_latency,rewrite_latency,getc_latency,"
	       "get_block_latency,seeks_latency,seq_create_latency,"
	       "seq_stat_latency,seq_del_latency,ran_create_latency,"
	       "ran_stat_latency,ran_del_latency\n");
	free(h);
}
END_TEST

START_TEST(keys_unique)
{
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct figure *f = figure_of(t);

		ck_assert_int_eq(f->flags & FIGF_OTHER ? extfig_find(f->key)
						       : figure_find(f->key),
				 t);
		ck_assert_str_eq(result_test_name(t), f->key);
		ck_assert_ptr_nonnull(f->title);
		ck_assert_ptr_nonnull(f->head);
		ck_assert_ptr_nonnull(f->col);
		ck_assert_ptr_nonnull(f->tick);
		ck_assert_uint_le(strlen(f->cell), 9);
		for (enum result_test u = 0; u < t; u++) {
			ck_assert_str_ne(figure_of(u)->key, f->key);
			ck_assert_str_ne(figure_of(u)->title, f->title);
		}
	}
	ck_assert_int_eq(figure_find("seek"), -1);
	ck_assert_int_eq(figure_find(""), -1);
}
END_TEST

/* A figure with a rate field has one in every format, and a latency
 * field in 1.98 and 1.97; bonnie++'s figures keep its table's order. */
START_TEST(slots_whole)
{
	int last[NFORMATS] = {-1, -1, -1};

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		const struct figure *f = figure_of(t);
		int has = f->csv198 >= 0;

		ck_assert_int_eq(figure_bonnie(t), has);
		ck_assert_int_eq(f->csv197 >= 0, has);
		ck_assert_int_eq(f->csv103 >= 0, has);
		ck_assert_int_eq(f->lat198 >= 0, has);
		ck_assert_int_eq(f->lat197 >= 0, has);
		ck_assert_int_eq(figure_is_file(t), t >= RT_FIRST_FILE);
		if (!has)
			continue;
		for (size_t k = 0; k < NFORMATS; k++) {
			ck_assert_int_gt(rate_field(f, formats[k]), last[k]);
			last[k] = rate_field(f, formats[k]);
		}
	}
}
END_TEST

START_TEST(only_bits)
{
	unsigned seq = 0;

	for (enum result_test t = 0; t < RT_COUNT; t++)
		if (figure_of(t)->group == FG_SEQ)
			seq |= 1u << t;
	ck_assert_uint_eq(figure_only_bits(RT_putc), 1u << RT_putc);
	ck_assert_uint_eq(figure_only_bits(RT_seeks), 1u << RT_seeks);
	ck_assert_uint_eq(figure_only_bits(RT_seq_stat), seq);
	ck_assert_uint_eq(figure_only_bits(RT_seq_create), seq);
	ck_assert_uint_eq(figure_only_bits(RT_ran_del) & seq, 0);
	ck_assert_uint_ne(figure_only_bits(RT_ran_del) & (1u << RT_ran_create),
			  0);
}
END_TEST

/* --only's message lists every key clyde measures, in the registry's
 * order. */
START_TEST(keys_list)
{
	char buf[1024], want[1024] = "";

	for (enum result_test t = 0; t < RT_COUNT; t++) {
		if (figure_of(t)->flags & FIGF_OTHER)
			continue;
		if (*want)
			strcat(want, ", ");
		strcat(want, figure_of(t)->key);
	}
	figure_keys(buf, sizeof(buf), ", ");
	ck_assert_str_eq(buf, want);
	ck_assert_int_eq(strncmp(buf, "putc, put_block, rewrite, getc", 30), 0);
}
END_TEST

START_TEST(phases_match)
{
	const struct phase_ops *put[] = {&phase_put_block_ops};

	char *msg = NULL;
	size_t len = 0;
	FILE *err = open_memstream(&msg, &len);

	ck_assert_int_eq(runner_init(stderr), 0);
	/* A list without the other bonnie++ figures' phases is refused. */
	ck_assert_int_eq(runner_check_figures(put, 1, err), -1);
	fclose(err);
	ck_assert_ptr_nonnull(strstr(msg, "clyde: figure putc has no phase\n"));
	ck_assert_ptr_null(strstr(msg, "put_block"));
	free(msg);
}
END_TEST

static char *line(const struct run_result *r, enum csv_format f)
{
	char *buf = NULL;

	FX_CAPTURE(buf, csv_write(out, r, f));
	return buf;
}

/* What csv_parse reads of csv_write's line is what csv_cell_of says. */
static void round_trip(const struct run_result *r)
{
	for (size_t k = 0; k < NFORMATS; k++) {
		char *l = line(r, formats[k]), why[200] = "";
		struct run_result row;

		ck_assert_int_eq(
		    csv_parse(l, strlen(l), &row, why, sizeof(why)),
		    CSV_LINE_ROW);
		ck_assert_int_eq(row.fmt, formats[k]);
		ck_assert_str_eq(row.name, r->name);
		for (enum result_test t = 0; t < RT_COUNT; t++) {
			struct csv_cell c;

			csv_cell_of(r, t, &c);
			if (!figure_bonnie(t)) {
				ck_assert_int_eq(row.c[t].state, CSV_EMPTY);
				continue;
			}
			ck_assert_int_eq(row.c[t].state, c.state);
			ck_assert_str_eq(row.c[t].text, c.text);
			ck_assert_str_eq(row.c[t].cpu_text, c.cpu_text);
			ck_assert_int_eq(row.c[t].cpu, c.cpu);
			ck_assert_str_eq(row.c[t].lat_text,
					 formats[k] == CSV_103 ? ""
							       : c.lat_text);
		}
		free(l);
	}
}

START_TEST(round_trips)
{
	struct run_result r;

	fx_vm200(&r);
	round_trip(&r);
	result_free(&r);
	fx_convm103(&r);
	round_trip(&r);
	r.t[RT_rewrite].state = RS_FAILED;
	r.t[RT_seq_del].state = RS_NOT_RUN;
	fx_fast(&r, RT_seeks, 12);
	round_trip(&r);
	result_free(&r);
}
END_TEST

/* csv_cell_set writes a cell's texts as csv_write does. */
START_TEST(cell_set_as_written)
{
	struct run_result r;

	fx_vm200(&r);
	fx_set(&r, RT_seeks, 758.8, 2, 91);
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		struct csv_cell of, set;
		enum csv_cell_state st =
		    result_too_fast(&r.t[t]) ? CSV_FAST : CSV_VALUE;

		if (r.t[t].state != RS_OK)
			continue;
		csv_cell_of(&r, t, &of);
		csv_cell_set(&set, result_test_kind(t), st,
			     result_rate(&r.t[t], result_test_kind(t)),
			     result_pcp(&r.t[t]), r.t[t].max_latency_ns);
		ck_assert_str_eq(set.text, of.text);
		ck_assert_str_eq(set.cpu_text, of.cpu_text);
		ck_assert_str_eq(set.lat_text, of.lat_text);
	}
	result_free(&r);
}
END_TEST

static char *table(const struct run_result *r, enum table_layout layout)
{
	char *buf = NULL;

	FX_CAPTURE(buf, table_print(out, r, layout));
	return buf;
}

/* A result as a clyde JSON document read back by clyde-report. */
static struct run_result *json_rows(const struct run_result *r, int *n)
{
	json_t *doc =
	    json_pack("{s:i,s:s,s:[o]}", "schema_version", JSON_SCHEMA_VERSION,
		      "program", "clyde", "runs", json_run(r));
	char *text = json_dumps(doc, JSON_REAL_PRECISION(10)), why[300];
	struct run_result *rows = NULL;
	int line;

	ck_assert_ptr_nonnull(text);
	*n = json_read_rows(text, strlen(text), &rows, NULL, NULL, why,
			    sizeof(why), &line);
	ck_assert_msg(*n == 1, "%s", why);
	free(text);
	json_decref(doc);
	return rows;
}

/* Every figure clyde measures is a key of the JSON run, whatever its
 * fields; another program's (pg_scan) only when the run holds it. */
START_TEST(json_keys)
{
	struct run_result r;
	json_t *run, *tests;

	fx_vm200(&r);
	run = json_run(&r);
	tests = json_object_get(run, "tests");
	ck_assert_int_eq(json_object_size(tests), FIG_COUNT);
	for (enum result_test t = 0; t < RT_COUNT; t++)
		ck_assert_int_eq(!!json_object_get(tests, result_test_name(t)),
				 !(figure_of(t)->flags & FIGF_OTHER));
	json_decref(run);
	fx_set(&r, RT_pg_scan, 210000, 97, 0);
	run = json_run(&r);
	tests = json_object_get(run, "tests");
	ck_assert_int_eq(json_object_size(tests), FIG_COUNT + 1);
	ck_assert_ptr_nonnull(json_object_get(tests, "pg_scan"));
	/* Its record has no latency: clyde-pgscan times one query. */
	ck_assert_ptr_null(
	    json_object_get(json_object_get(tests, "pg_scan"), "latency"));
	ck_assert_ptr_nonnull(
	    json_object_get(json_object_get(tests, "pg_scan"), "cpu_percent"));
	json_decref(run);
	result_free(&r);
}
END_TEST

/* pg_scan is clyde-pgscan's (extfig.h): no phase, no --only name, no
 * CSV field, no latency, set beside block input; the rest are clyde's,
 * the registry's list in its order. */
START_TEST(external_figure)
{
	const struct figure *pg = figure_of(RT_pg_scan);
	char buf[1024];
	int n = 0;

	ck_assert_int_eq(extfig_find("pg_scan"), RT_pg_scan);
	ck_assert_int_eq(figure_find("pg_scan"), -1);
	ck_assert_int_eq(extfig_find("get_block"), -1);
	ck_assert_uint_ne(pg->flags & FIGF_OTHER, 0);
	ck_assert_int_eq(figure_bonnie(RT_pg_scan), 0);
	ck_assert_int_eq(figure_is_file(RT_pg_scan), 0);
	ck_assert_int_eq(result_test_kind(RT_pg_scan), RK_IO);
	ck_assert_str_eq(pg->program, "clyde-pgscan");
	ck_assert_str_eq(pg->title, "PostgreSQL seq scan");
	ck_assert_uint_eq(pg->keys & FK_LATENCY, 0);
	ck_assert_uint_eq(pg->keys & FK_CPU, FK_CPU);
	ck_assert_int_eq(pg->against, RT_get_block);
	ck_assert_uint_eq(figure_only_bits(RT_pg_scan), 1u << RT_pg_scan);
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		n += !(figure_of(t)->flags & FIGF_OTHER);
		if (t != RT_pg_scan) {
			ck_assert_str_eq(figure_of(t)->program, "clyde");
			ck_assert_uint_eq(figure_of(t)->keys, FK_ALL);
			ck_assert_int_eq(figure_of(t)->against, -1);
		}
	}
	ck_assert_int_eq(n, FIG_COUNT);
	ck_assert_int_eq(FIG_COUNT, RT_COUNT - 1);
	for (int i = 0; i < FIG_COUNT; i++) {
		ck_assert_int_ne(figure_list[i], RT_pg_scan);
		if (i)
			ck_assert_int_lt(figure_list[i - 1], figure_list[i]);
	}
	figure_keys(buf, sizeof(buf), ",");
	ck_assert_ptr_null(strstr(buf, "pg_scan"));
	ck_assert_int_eq(strncmp(buf, "putc,put_block,", 15), 0);
}
END_TEST

/* The per-char figures are those the registry flags, and the notes name
 * them from the flag; a row has them when one of them has a cell. */
START_TEST(per_char_flag)
{
	struct run_result r;
	char buf[96];

	for (enum result_test t = 0; t < RT_COUNT; t++)
		ck_assert_int_eq(!!(figure_of(t)->flags & FIGF_PER_CHAR),
				 t == RT_putc || t == RT_getc);
	result_per_char_figures(buf, sizeof(buf));
	ck_assert_str_eq(buf, "per-char figures (putc, getc)");
	result_init(&r);
	ck_assert_int_eq(result_has_per_char(&r), 0);
	r.c[RT_getc].state = CSV_FAST;
	ck_assert_int_eq(result_has_per_char(&r), 1);
	r.c[RT_getc].state = CSV_EMPTY;
	r.c[RT_put_block].state = CSV_VALUE;
	ck_assert_int_eq(result_has_per_char(&r), 0);
}
END_TEST

/*
 * Each figure bonnie++ has no field for: its value changes no line of
 * any format and no bonnie++ table, and shows after the table, in the
 * cells csv_shown gives, in JSON read back and in clyde-report txt.
 */
START_TEST(slotless_figures)
{
	for (enum result_test t = 0; t < RT_COUNT; t++) {
		struct run_result r;
		char *before[NFORMATS], *tb[2], *ta, *txt = NULL;
		struct run_result of, *rows;
		struct report_set set = {0};
		struct report_opts o = {.layout = TABLE_200};
		int n;

		if (figure_bonnie(t))
			continue;
		fx_vm200(&r);
		for (size_t k = 0; k < NFORMATS; k++)
			before[k] = line(&r, formats[k]);
		tb[0] = table(&r, TABLE_200);
		tb[1] = table(&r, TABLE_103);
		fx_set(&r, t, 4321, 7, 2345);
		for (size_t k = 0; k < NFORMATS; k++) {
			char *after = line(&r, formats[k]);

			ck_assert_str_eq(after, before[k]);
			free(after);
			free(before[k]);
		}
		for (int l = 0; l < 2; l++) {
			ta = table(&r, l ? TABLE_103 : TABLE_200);
			/* bonnie++'s table as it was, then a section. */
			ck_assert_int_eq(strncmp(ta, tb[l], strlen(tb[l])), 0);
			ck_assert_ptr_nonnull(
			    strstr(ta + strlen(tb[l]), result_test_name(t)));
			ck_assert_ptr_nonnull(
			    strstr(ta + strlen(tb[l]), "4321"));
			free(ta);
			free(tb[l]);
		}
		of = r;
		ck_assert_int_eq(csv_shown(&of), 0);
		ck_assert_int_eq(of.c[t].state, CSV_VALUE);
		ck_assert_str_eq(of.c[t].text, "4321");
		rows = json_rows(&r, &n);
		ck_assert_int_eq(rows[0].c[t].state, CSV_VALUE);
		ck_assert_str_eq(rows[0].c[t].text, "4321");
		ck_assert_str_eq(rows[0].c[t].cpu_text, "7");
		/* Another program's record has no latency (pg_scan). */
		ck_assert_str_eq(rows[0].c[t].lat_text,
				 figure_of(t)->keys & FK_LATENCY ? "2345us"
								 : "");
		set.rows = calloc(1, sizeof(*set.rows));
		set.rows[0].res = rows[0];
		set.rows[0].file = "run.json";
		set.n = set.cap = 1;
		FX_CAPTURE(txt, report_txt(out, &set, &o, stderr));
		ck_assert_ptr_nonnull(strstr(txt, result_test_name(t)));
		ck_assert_ptr_nonnull(strstr(txt, "4321"));
		free(txt);
		free(rows);
		report_free(&set);
		result_free(&r);
	}
}
END_TEST

static Suite *figures_suite(void)
{
	Suite *s = suite_create("figures");
	TCase *tc = tcase_create("figures");

	tcase_add_test(tc, field_counts);
	tcase_add_test(tc, fields_used_once);
	tcase_add_test(tc, header_198);
	tcase_add_test(tc, keys_unique);
	tcase_add_test(tc, slots_whole);
	tcase_add_test(tc, only_bits);
	tcase_add_test(tc, keys_list);
	tcase_add_test(tc, phases_match);
	tcase_add_test(tc, round_trips);
	tcase_add_test(tc, cell_set_as_written);
	tcase_add_test(tc, json_keys);
	tcase_add_test(tc, external_figure);
	tcase_add_test(tc, per_char_flag);
	tcase_add_test(tc, slotless_figures);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(figures_suite)
