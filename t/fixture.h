/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fixture: results whose figures are those of FORMATS.md's real bonnie++
 * lines, built from work and time chosen so each rate comes out exact.
 */
#ifndef CLYDE_T_FIXTURE_H
#define CLYDE_T_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "units.h"

/* A test that ran for 10 s at `rate` per second with `pcp` %CP. */
static inline void fx_set(struct run_result *r, enum result_test t, double rate,
			  int pcp, uint64_t lat_us)
{
	struct result_test_rec *rec = &r->t[t];
	int io = result_test_kind(t) == RK_IO;

	rec->state = RS_OK;
	rec->elapsed = 10.0;
	rec->work = (uint64_t)(rate * 10.0 * (io ? 1024.0 : 1.0) + 0.5);
	/* A hair over pcp so truncation lands on it. */
	rec->cpu = (pcp + 0.4) / 10.0;
	rec->max_latency_ns = lat_us * 1000;
}

/* A test that ran, but for under 0.5 s. */
static inline void fx_fast(struct run_result *r, enum result_test t,
			   uint64_t lat_us)
{
	struct result_test_rec *rec = &r->t[t];

	rec->state = RS_OK;
	rec->elapsed = 0.3;
	rec->work = 1000;
	rec->cpu = 0.2;
	rec->max_latency_ns = lat_us * 1000;
}

/* bonnie++ 2.00a on a 24 GiB VM (FORMATS.md, the 2.00 table and line). */
static inline void fx_vm200(struct run_result *r)
{
	result_init(r);
	if (result_measure(r) < 0)
		abort();
	strcpy(r->version, "2.00a");
	strcpy(r->name, "vm");
	r->seed = 1795989744u;
	r->file_size = 2 * UNITS_GIB;
	fx_set(r, RT_putc, 604, 96, 49052);
	fx_set(r, RT_put_block, 449755, 71, 8094);
	fx_set(r, RT_rewrite, 821393, 62, 4469);
	fx_set(r, RT_getc, 571, 96, 41210);
	fx_set(r, RT_get_block, 2527078, 98, 4806);
	fx_set(r, RT_seeks, 9124, 55, 19655);
	r->num_files = 16;
	fx_set(r, RT_seq_create, 28379, 84, 4453);
	fx_fast(r, RT_seq_stat, 51836);
	fx_fast(r, RT_seq_del, 2357);
	fx_set(r, RT_ran_create, 23869, 97, 4282);
	fx_fast(r, RT_ran_stat, 105);
	fx_fast(r, RT_ran_del, 2501);
}

/* The 2007 SAN array of FORMATS.md's 1.03 table (RAID10). */
static inline void fx_convm103(struct run_result *r)
{
	result_init(r);
	if (result_measure(r) < 0)
		abort();
	strcpy(r->version, "1.03");
	strcpy(r->name, "convm004");
	r->file_size = 16 * UNITS_GIB;
	fx_set(r, RT_putc, 51121, 98, 0);
	fx_set(r, RT_put_block, 188347, 76, 0);
	fx_set(r, RT_rewrite, 97426, 28, 0);
	fx_set(r, RT_getc, 58961, 98, 0);
	fx_set(r, RT_get_block, 378240, 38, 0);
	fx_set(r, RT_seeks, 732.5, 2, 0);
	r->num_files = 512;
	fx_set(r, RT_seq_create, 19599, 94, 0);
	fx_set(r, RT_seq_stat, 257598, 100, 0);
	fx_set(r, RT_seq_del, 8272, 27, 0);
	fx_set(r, RT_ran_create, 19270, 91, 0);
	fx_set(r, RT_ran_stat, 331205, 99, 0);
	fx_set(r, RT_ran_del, 4879, 17, 0);
}

/* Render with fn into a string (caller frees). */
#define FX_CAPTURE(buf, call)                                                  \
	do {                                                                   \
		size_t fx_len_;                                                \
		FILE *out = open_memstream(&(buf), &fx_len_);                  \
		call;                                                          \
		fclose(out);                                                   \
	} while (0)

#endif
