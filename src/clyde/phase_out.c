/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_out: what a test's output holds, made empty in one place, and a
 * random-I/O figure's own parts of it (phase_op_io: service times, each
 * kind's operations, the schedule of an offered rate) carried on: into a
 * worker's slot or a rank's figures (struct workers_io, which lib/workers
 * merges), back into the output of the whole group, and into the record.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phase.h"
#include "workers.h"

/* The two enums must count the same kinds: the record's is the lib's. */
_Static_assert((int)PHASE_READ == (int)RESULT_READS &&
		   (int)PHASE_WRITE == (int)RESULT_WRITES &&
		   (int)PHASE_KINDS == (int)RESULT_KINDS,
	       "phase_kind and result_io_kind differ");

void phase_out_io_reset(struct phase_out *out)
{
	out->io = 0;
	hist_init(&out->svc);
	for (int k = 0; k < PHASE_KINDS; k++) {
		out->kind[k].ops = out->kind[k].bytes = 0;
		hist_init(&out->kind[k].lat);
	}
	memset(&out->sched, 0, sizeof(out->sched));
}

void phase_out_init(struct phase_out *out, int record)
{
	memset(out, 0, sizeof(*out));
	hist_init(&out->lat);
	phase_out_io_reset(out);
	out->record = record;
	out->tick_ns = UINT64_MAX;
	out->until_ns = UINT64_MAX;
}

/* The phase's schedule as the record keeps it. */
static struct result_sched sched_of(const struct phase_sched *s)
{
	return (struct result_sched){.rate = s->rate,
				     .fixed = s->fixed,
				     .due = s->due,
				     .issued = s->issued,
				     .late = s->late,
				     .late_held = s->late_held,
				     .held_kept = 1};
}

void phase_out_io_put(const struct phase_out *out, struct workers_io *io)
{
	struct result_sched mine = sched_of(&out->sched);

	if (!out->io)
		return;
	io->on = 1;
	hist_merge(&io->svc, &out->svc);
	for (int k = 0; k < PHASE_KINDS; k++) {
		io->ops[k] += out->kind[k].ops;
		io->bytes[k] += out->kind[k].bytes;
		hist_merge(&io->lat[k], &out->kind[k].lat);
	}
	result_sched_add(&io->sched, &mine);
}

void phase_out_io_add(struct phase_out *out, const struct workers_io *io)
{
	struct result_sched sum = sched_of(&out->sched);

	if (!io->on)
		return;
	out->io = 1;
	hist_merge(&out->svc, &io->svc);
	for (int k = 0; k < PHASE_KINDS; k++) {
		out->kind[k].ops += io->ops[k];
		out->kind[k].bytes += io->bytes[k];
		hist_merge(&out->kind[k].lat, &io->lat[k]);
	}
	result_sched_add(&sum, &io->sched);
	out->sched = (struct phase_sched){.rate = sum.rate,
					  .fixed = sum.fixed,
					  .due = sum.due,
					  .issued = sum.issued,
					  .late = sum.late,
					  .late_held = sum.late_held};
}

/* A copy of h when it holds anything; *dup NULL otherwise. -1: no
 * memory. */
static int dup_of(const struct hist *h, struct hist **dup)
{
	*dup = h->count ? result_hist_dup(h) : NULL;
	return h->count && !*dup ? -1 : 0;
}

int phase_out_io_record(const struct phase_out *out,
			struct result_test_rec *rec)
{
	result_io_free(rec);
	if (!out->io)
		return 0;
	rec->io = 1;
	if (dup_of(&out->svc, &rec->svc) < 0)
		return -1;
	rec->svc_same = hist_same(&out->svc, &out->lat);
	for (int k = 0; k < PHASE_KINDS; k++) {
		rec->kind[k].ops = out->kind[k].ops;
		rec->kind[k].bytes = out->kind[k].bytes;
		if (dup_of(&out->kind[k].lat, &rec->kind[k].lat) < 0)
			return -1;
	}
	rec->sched = sched_of(&out->sched);
	return 0;
}

int phase_sched_behind(const struct result_sched *s, const char *key, char *buf,
		       size_t len)
{
	double behind = result_behind_share(s), late = result_late_share(s);

	/* A share under PHASE_BEHIND_WARN is the clock's jitter and the
	 * schedule's last arrival, not the target: the table still says
	 * it. */
	if (!s->rate ||
	    (behind < PHASE_BEHIND_WARN && late < PHASE_BEHIND_WARN))
		return 0;
	snprintf(buf, len,
		 "%s: the target did not keep up with %llu IOPS: %.1f%% of "
		 "the %llu I/Os due were never issued, %.1f%% of those issued "
		 "went over 1 ms late",
		 key, (unsigned long long)s->rate, behind * 100.0,
		 (unsigned long long)s->due, late * 100.0);
	return 1;
}
