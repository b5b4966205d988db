/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_io: a random-I/O figure's own figures for compare, from what
 * its runs measured (a clyde JSON document's): the service times' p99,
 * and when a test did both kinds of operation, each kind's IOPS and
 * response p99; and a figure that writes, its write-cache cliff's burst
 * and sustained rates and the bytes absorbed, when one was found. A test
 * without them has no samples, so compare shows no row for it and every
 * other output stays as it was.
 */
#include "config.h"

#include <math.h>

#include "report.h"

/* The cliff's figures, when one was found. */
static double cliff_sample(const struct result_test_rec *rec, enum cmp_what k)
{
	const struct cliff *c = &rec->cliff;

	if (rec->state != RS_OK || !c->found)
		return NAN;
	switch (k) {
	case CMP_BURST:
		return c->burst / 1048576.0;
	case CMP_SUSTAINED:
		return c->sustained / 1048576.0;
	default:
		return c->absorbed / 1048576.0;
	}
}

double report_io_sample(const struct result_test_rec *rec, enum cmp_what k)
{
	enum result_io_kind kind = k == CMP_READ_IOPS || k == CMP_READ_P99
				       ? RESULT_READS
				       : RESULT_WRITES;
	const struct hist *h;

	if (k >= CMP_BURST)
		return cliff_sample(rec, k);
	if (rec->state != RS_OK || !rec->io)
		return NAN;
	if (k == CMP_SVC_P99)
		h = result_svc_shown(rec) ? rec->svc : NULL;
	else if (!result_kinds_shown(rec))
		return NAN;
	else if (report_io_is_rate(k))
		return result_kind_iops(rec, kind);
	else
		h = rec->kind[kind].lat;
	/* Microseconds, as the worst latency's row. */
	return h && h->count ? (double)hist_percentile(h, 99) / 1e3 : NAN;
}

int report_io_is_rate(enum cmp_what k)
{
	return k == CMP_READ_IOPS || k == CMP_WRITE_IOPS || k == CMP_BURST ||
	       k == CMP_SUSTAINED;
}

const char *report_io_suffix(enum cmp_what k)
{
	switch (k) {
	case CMP_SVC_P99:
		return " svc p99";
	case CMP_READ_IOPS:
		return " read";
	case CMP_READ_P99:
		return " read p99";
	case CMP_WRITE_IOPS:
		return " write";
	case CMP_WRITE_P99:
		return " write p99";
	case CMP_BURST:
		return " burst";
	case CMP_SUSTAINED:
		return " sustained";
	case CMP_ABSORBED:
		return " absorbed";
	default:
		return "";
	}
}

const char *report_io_unit(enum cmp_what k)
{
	if (k >= CMP_BURST)
		return k == CMP_ABSORBED ? "MiB" : "MiB/s";
	return report_io_is_rate(k) ? "IOPS" : "us";
}
