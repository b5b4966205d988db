/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chart: clyde-zcav's --plot (and --plot-script). Throughput by position,
 * one curve per target: counted blocks as a line (the trimmed mean of the
 * passes, as the lines print it), blocks under 0.5 s as points marked
 * "not counted", and with several passes a band from the slowest to the
 * fastest pass of each counted block, so the spread the mean hides is in
 * sight. The title says what was measured: each target with its model
 * and size where known, the block size, the passes and the date of the
 * run.
 *
 * Everything drawn comes from the result (what a JSON document holds
 * too), so a chart drawn again from the document is this one. The data
 * go inline as datablocks and the script is fed to gnuplot on a pipe
 * (gnuplot.h); --plot-script saves the same script, drawing to --plot's
 * own name.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gnuplot.h"
#include "units.h"
#include "zcav_prog.h"
#include "zcav_result.h"

/* The most targets the title names one by one (the key names all). */
#define TITLE_TARGETS 4

/* "name (model, size)", or as much of it as is known, into buf[len]. */
static void describe(const struct zcav_series *t, char *buf, size_t len)
{
	char size[32] = "";

	if (t->size)
		units_fmt_size(size, sizeof(size), t->size);
	snprintf(buf, len, "%s%s%s%s%s%s", t->name,
		 t->model[0] || size[0] ? " (" : "", t->model,
		 t->model[0] && size[0] ? ", " : "", size,
		 t->model[0] || size[0] ? ")" : "");
}

/* The bytes t's lines cover: its longest line but the last (which may
 * be short, or hold the rest of the range), or its block. */
static uint64_t line_size(const struct zcav_series *t)
{
	uint64_t v = 0;

	for (uint64_t k = 0; k + 1 < t->nblocks; k++)
		if (t->bytes[k] > v)
			v = t->bytes[k];
	return v ? v : t->block;
}

static void title(FILE *f, const struct zcav_result *r)
{
	const struct zcav_series *t = r->target;
	char buf[(TITLE_TARGETS + 1) * (PATH_MAX + 200)], one[PATH_MAX + 200];
	uint64_t lo = line_size(&t[0]), hi = lo;
	size_t n;

	/* Without -b each target's lines grow to its own size. */
	for (unsigned i = 1; i < r->ntargets; i++) {
		uint64_t v = line_size(&t[i]);

		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	n = (size_t)snprintf(buf, sizeof(buf),
			     "clyde-zcav: %s throughput by position, ",
			     r->write ? "write" : "read");
	if (lo != hi)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%llu to ",
				      (unsigned long long)(lo / UNITS_MIB));
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%llu MiB blocks",
			      (unsigned long long)(hi / UNITS_MIB));
	if (t[0].passes > 1)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      ", trimmed mean of %u passes", t[0].done);
	for (unsigned i = 0; i < r->ntargets && i < TITLE_TARGETS; i++) {
		describe(&t[i], one, sizeof(one));
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\n%s", one);
	}
	if (r->ntargets > TITLE_TARGETS)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      "\nand %u more targets (see the key)",
				      r->ntargets - TITLE_TARGETS);
	if (r->start_time[0])
		snprintf(buf + n, sizeof(buf) - n, "\nrun %.10s %.8s UTC",
			 r->start_time, r->start_time + 11);
	else
		snprintf(buf + n, sizeof(buf) - n, "\ndate not recorded");
	fputs("set title ", f);
	plot_quote_lines(f, buf);
	fputc('\n', f);
}

/* Block k's slowest and fastest pass in MiB/s; 0 when it has no time. */
static int spread(const struct zcav_series *t, uint64_t k, double *lo,
		  double *hi)
{
	int any = 0;

	for (unsigned p = 0; p < t->done; p++) {
		double s = t->secs[k * t->passes + p];
		double v = (double)t->bytes[k] / (double)UNITS_MIB / s;

		if (s <= 0)
			continue;
		if (!any || v < *lo)
			*lo = v;
		if (!any || v > *hi)
			*hi = v;
		any = 1;
	}
	return any;
}

/*
 * Target i's datablocks: $d<i>c counted blocks (GiB, MiB/s), $d<i>f
 * blocks under 0.5 s, $d<i>b the band (GiB, slowest, fastest) of the
 * counted ones. Which hold rows goes to *have: bit 0 c, 1 f, 2 b.
 */
static void target_data(FILE *f, const struct zcav_series *t, unsigned i,
			unsigned *have)
{
	*have = 0;
	for (int part = 0; part < 3; part++) {
		fprintf(f, "$d%u%c << EOD\n", i, "cfb"[part]);
		for (uint64_t k = 0; k < t->nblocks; k++) {
			double s = zcav_series_seconds(t, k), lo = 0, hi = 0;
			double gib = (double)t->offset[k] / (double)UNITS_GIB;
			int fast = s < ZCAV_MIN_SECONDS;

			if (s <= 0 || fast != (part == 1))
				continue;
			if (part == 2) {
				if (t->done < 2 || !spread(t, k, &lo, &hi))
					continue;
				fprintf(f, "%.4f %.2f %.2f\n", gib, lo, hi);
			} else {
				fprintf(f, "%.4f %.2f\n", gib,
					(double)t->bytes[k] /
					    (double)UNITS_MIB / s);
			}
			*have |= 1u << part;
		}
		fputs("EOD\n", f);
	}
}

/* Target i's curves in the plot command; whether any was drawn. */
static int target_plot(FILE *f, const struct zcav_series *t, unsigned i,
		       unsigned have, int any)
{
	char what[PATH_MAX + 300];

	describe(t, what, sizeof(what));
	if (have & 4) {
		fprintf(f,
			"%s $d%ub using 1:2:3 with filledcurves fs "
			"transparent solid 0.25 noborder lc %u title ",
			any ? "," : "", i, i + 1);
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 ": slowest to fastest of %u passes", t->done);
		plot_quote(f, what);
		describe(t, what, sizeof(what));
		any = 1;
	}
	if (have & 1) {
		fprintf(f,
			"%s $d%uc using 1:2 with linespoints pt 7 ps 0.6 lc "
			"%u title ",
			any ? "," : "", i, i + 1);
		plot_quote(f, what);
		any = 1;
	}
	if (have & 2) {
		fprintf(f, "%s $d%uf using 1:2 with points pt 6 lc %u title ",
			any ? "," : "", i, i + 1);
		snprintf(what, sizeof(what),
			 "%s: blocks under 0.5 s (not counted)", t->name);
		plot_quote(f, what);
		any = 1;
	}
	return any;
}

/* The script drawing to out, malloc'd into *script; -errno, or 0 with
 * *any 0 when there is nothing to draw. */
static int script_make(const struct zcav_result *r, enum plot_format fmt,
		       const char *out, char **script, size_t *len, int *any)
{
	FILE *f = open_memstream(script, len);
	unsigned have[ZCAV_MAX_TARGETS];

	*any = 0;
	if (!f)
		return -errno;
	plot_begin(f, out, fmt, 1000, 640);
	title(f, r);
	fputs("set xlabel 'offset (GiB)'\nset ylabel 'MiB/s'\n"
	      "set grid\nset yrange [0:*]\nset key below\n",
	      f);
	for (unsigned i = 0; i < r->ntargets; i++)
		target_data(f, &r->target[i], i, &have[i]);
	fputs("plot", f);
	for (unsigned i = 0; i < r->ntargets; i++)
		*any = target_plot(f, &r->target[i], i, have[i], *any);
	fputc('\n', f);
	if (fclose(f) != 0) {
		free(*script);
		*script = NULL;
		return -EIO;
	}
	return 0;
}

/* The script drawing to --plot's own name, written to --plot-script's
 * temporary file. 0, or -errno. */
static int save_script(const struct zcav_opts *o, const struct zcav_result *r,
		       struct outfile *of)
{
	char *script = NULL;
	size_t len = 0;
	FILE *f = outfile_stream(of);
	int any,
	    e = f ? script_make(r, o->plot_fmt, o->plot, &script, &len, &any)
		  : -errno;

	if (!e && (fwrite(script, 1, len, f) != len || fflush(f) != 0))
		e = errno ? -errno : -EIO;
	free(script);
	return e;
}

/* Drawn into the picture's temporary file, the script written. 0, or
 * -1 after one line (none for a stop). */
static int draw(const struct zcav_opts *o, const struct zcav_result *r,
		struct zcav_chart_files *c, const volatile sig_atomic_t *stop)
{
	char *script = NULL, why[512];
	size_t len = 0;
	int any,
	    e = script_make(r, o->plot_fmt, c->pic.tmp, &script, &len, &any);

	if (e)
		return error("--plot '%s': %s", o->plot, strerror(-e));
	e = any ? plot_run(script, len, why, sizeof(why)) : 0;
	free(script);
	if (e && !*stop)
		return error("--plot '%s': %s", o->plot, why);
	if (e)
		return -1;
	if (o->plot_script && (e = save_script(o, r, &c->script)) != 0)
		return error("--plot-script '%s': %s", o->plot_script,
			     strerror(-e));
	return 0;
}

int chart_finish(const struct zcav_opts *o, const struct zcav_result *r,
		 struct zcav_chart_files *c, int status,
		 const volatile sig_atomic_t *stop)
{
	int e, bad_draw = status || draw(o, r, c, stop);

	if (*stop) {
		/* A stop while gnuplot drew: it was killed, nothing kept. */
		chart_abort(c);
		return cli_exit_stop(*stop);
	}
	if (bad_draw) {
		chart_abort(c);
		return CLI_EXIT_FAILED;
	}
	e = outfile_commit(&c->pic);
	if (e) {
		chart_abort(c);
		bad("--plot", o->plot, strerror(-e));
		return CLI_EXIT_FAILED;
	}
	e = o->plot_script ? outfile_commit(&c->script) : 0;
	if (e) {
		bad("--plot-script", o->plot_script, strerror(-e));
		return CLI_EXIT_FAILED;
	}
	return 0;
}

void chart_abort(struct zcav_chart_files *c)
{
	outfile_abort(&c->pic);
	outfile_abort(&c->script);
}
