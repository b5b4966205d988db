/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clock: see clock.h. The system source reads CLOCK_MONOTONIC (vDSO, no
 * system call) for wall time, and getrusage for CPU; only marks pay for
 * getrusage, per-operation latency uses clk_now_ns alone.
 */
#include "config.h"

#include <stddef.h>
#include <sys/resource.h>
#include <time.h>

#include "clock.h"

static const struct clk_source *clk_src;

void clk_set_source(const struct clk_source *src)
{
	clk_src = src;
}

static uint64_t sys_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u +
	       (uint64_t)tv->tv_usec * 1000u;
}

static void sys_cpu_ns(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user = tv_ns(&ru.ru_utime);
	*sys = tv_ns(&ru.ru_stime);
}

uint64_t clk_now_ns(void)
{
	if (clk_src && clk_src->wall_ns)
		return clk_src->wall_ns();
	return sys_wall_ns();
}

uint64_t clk_unix_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void clk_mark(struct clk_mark *m)
{
	if (clk_src && clk_src->cpu_ns)
		clk_src->cpu_ns(&m->user_ns, &m->sys_ns);
	else
		sys_cpu_ns(&m->user_ns, &m->sys_ns);
	m->unix_ns = clk_unix_ns();
	m->wall_ns = clk_now_ns();
}

double clk_elapsed(const struct clk_mark *start, const struct clk_mark *end)
{
	return (double)(end->wall_ns - start->wall_ns) / 1e9;
}

double clk_user(const struct clk_mark *start, const struct clk_mark *end)
{
	return (double)(end->user_ns - start->user_ns) / 1e9;
}

double clk_sys(const struct clk_mark *start, const struct clk_mark *end)
{
	return (double)(end->sys_ns - start->sys_ns) / 1e9;
}

double clk_cpu(const struct clk_mark *start, const struct clk_mark *end)
{
	return (double)((end->user_ns - start->user_ns) +
			(end->sys_ns - start->sys_ns)) /
	       1e9;
}

int clk_pcp(double cpu, double elapsed)
{
	if (elapsed <= 0.0 || cpu < 0.0)
		return 0;
	/* The epsilon keeps 0.29 s / 1 s from truncating to 28. */
	return (int)(cpu * 100.0 / elapsed + 1e-9);
}

int clk_too_fast(double elapsed)
{
	return elapsed < CLK_MIN_SECONDS;
}
