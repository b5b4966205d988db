/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * result_io: a random-I/O figure's own parts of a record (result.h): its
 * service times, its reads and writes apart, and the schedule of its
 * offered rate, with the few figures every writer derives from them the
 * same way.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "result.h"

int result_kinds_shown(const struct result_test_rec *rec)
{
	return rec->io && rec->kind[RESULT_READS].ops > 0 &&
	       rec->kind[RESULT_WRITES].ops > 0;
}

int result_svc_shown(const struct result_test_rec *rec)
{
	return rec->io && rec->svc && rec->svc->count && !rec->svc_same;
}

double result_kind_iops(const struct result_test_rec *rec,
			enum result_io_kind k)
{
	const uint64_t all =
	    rec->kind[RESULT_READS].ops + rec->kind[RESULT_WRITES].ops;

	if (rec->elapsed <= 0)
		return 0;
	/* With several workers the test has one rate, its work over its
	 * time (under several -d the first-finished one: while every
	 * target was busy), and each kind its share of it, so that the
	 * parts add up to that rate; the kinds count every operation, to
	 * the last end. */
	if (rec->spans.on && all)
		return (double)rec->work / rec->elapsed *
		       ((double)rec->kind[k].ops / (double)all);
	return (double)rec->kind[k].ops / rec->elapsed;
}

double result_late_share(const struct result_sched *s)
{
	if (!s->rate || !s->issued)
		return 0;
	return (double)s->late / (double)s->issued;
}

double result_behind_share(const struct result_sched *s)
{
	if (!s->rate || !s->due || s->issued >= s->due)
		return 0;
	return (double)(s->due - s->issued) / (double)s->due;
}

void result_sched_add(struct result_sched *sum, const struct result_sched *one)
{
	/* The arrivals' kind is the same for all; a worker without a rate
	 * (none offered it) says nothing of it. */
	if (one->rate)
		sum->fixed = one->fixed;
	sum->rate += one->rate;
	sum->due += one->due;
	sum->issued += one->issued;
	sum->late += one->late;
	sum->late_held += one->late_held;
	sum->held_kept |= one->held_kept;
}

const char *result_kind_name(enum result_io_kind k)
{
	return k == RESULT_READS ? "read" : "write";
}

void result_io_free(struct result_test_rec *rec)
{
	free(rec->svc);
	rec->svc = NULL;
	rec->svc_same = 0;
	for (int k = 0; k < RESULT_KINDS; k++) {
		free(rec->kind[k].lat);
		rec->kind[k].lat = NULL;
		rec->kind[k].ops = rec->kind[k].bytes = 0;
	}
	rec->io = 0;
	memset(&rec->sched, 0, sizeof(rec->sched));
}
