/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * interval: see interval.h. An interval ends at the first operation
 * that ends at or after its due time, so its length is what it really
 * covered (longer than asked when one operation took longer) and the
 * next one is due at the next multiple of the period from the test's
 * start, so a slow operation does not shift the grid. Its percentiles
 * come from a histogram of its own, emptied at each tick: the test's
 * histogram keeps every operation as before. Logging off, phase_out
 * has no interval histogram and the hook is never due: one pointer
 * test and one compare an operation.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "interval.h"
#include "phase.h"

/* A worker's array in the shared mapping. */
struct ilog_slot {
	unsigned n;
	struct result_interval v[ILOG_MAX];
};

static struct ilog_slot *shared;
static unsigned nshared;

struct ilog *ilog_new(unsigned ms, int worker)
{
	struct ilog *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->period_ns = (uint64_t)ms * 1000000u;
	l->worker = worker;
	if (worker >= 0 && shared && (unsigned)worker < nshared)
		l->v = shared[worker].v;
	else if (!(l->v = malloc(ILOG_MAX * sizeof(*l->v)))) {
		free(l);
		return NULL;
	}
	return l;
}

static void free_targets(struct ilog *l)
{
	for (unsigned t = 0; l->tsum && t < l->ntargets; t++)
		free(l->tsum[t]);
	free(l->tsum);
	free(l->ntsum);
	l->tsum = NULL;
	l->ntsum = NULL;
	l->ntargets = 0;
}

void ilog_free(struct ilog *l)
{
	if (!l)
		return;
	if (l->worker < 0 || !shared)
		free(l->v);
	free(l->sum);
	free(l->each);
	free_targets(l);
	free(l);
}

/* The bytes a random-I/O figure's operations moved so far, each at its
 * own size (phase_op_io): under a --ran-bs split no single size does. */
static uint64_t io_bytes(const struct phase_out *out)
{
	uint64_t b = 0;

	for (int k = 0; k < PHASE_KINDS; k++)
		b += out->kind[k].bytes;
	return b;
}

void ilog_begin(struct ilog *l, struct phase_out *out, uint64_t op_bytes,
		uint64_t now)
{
	l->start_ns = l->last_ns = now;
	l->next_ns = now + l->period_ns;
	l->ops0 = out->ops;
	l->op_bytes = op_bytes;
	l->bytes = 0;
	l->io_bytes0 = io_bytes(out);
	l->n = 0;
	hist_init(&l->h);
	hist_init(&l->hs);
	out->ilat = &l->h;
	out->isvc = &l->hs;
}

/* The interval from the last tick to now, kept while there is room. */
static void close_interval(struct ilog *l, const struct phase_out *out,
			   uint64_t now)
{
	const uint64_t ops = out->ops - l->ops0;
	uint64_t bytes = ops * l->op_bytes;
	struct result_interval *iv;

	if (out->io) {
		bytes = io_bytes(out) - l->io_bytes0;
		l->io_bytes0 += bytes;
	}

	if (l->n < ILOG_MAX) {
		iv = &l->v[l->n++];
		*iv = (struct result_interval){
		    .ops = ops,
		    .p50_ns = l->h.count ? hist_percentile(&l->h, 50) : 0,
		    .p99_ns = l->h.count ? hist_percentile(&l->h, 99) : 0,
		    .svc_p50_ns = l->hs.count ? hist_percentile(&l->hs, 50) : 0,
		    .svc_p99_ns = l->hs.count ? hist_percentile(&l->hs, 99) : 0,
		    .worker = l->worker < 0 ? 0 : (unsigned)l->worker};
	} else {
		/* Full: the last one takes the rest of the test, so the
		 * log still adds up; its percentiles are not known. */
		iv = &l->v[l->n - 1];
		iv->ops += ops;
		iv->p50_ns = iv->p99_ns = 0;
		iv->svc_p50_ns = iv->svc_p99_ns = 0;
	}
	iv->end = (double)(now - l->start_ns) / 1e9;
	iv->secs += (double)(now - l->last_ns) / 1e9;
	iv->bytes += bytes;
	if (l->h.count && l->h.max_ns > iv->max_ns)
		iv->max_ns = l->h.max_ns;
	l->bytes += bytes;
	l->ops0 = out->ops;
	l->last_ns = now;
	hist_init(&l->h);
	if (l->hs.count)
		hist_init(&l->hs);
}

uint64_t ilog_tick(struct ilog *l, struct phase_out *out, uint64_t now)
{
	uint64_t k;

	if (now < l->next_ns)
		return l->next_ns;
	close_interval(l, out, now);
	k = (now - l->start_ns) / l->period_ns + 1;
	return l->next_ns = l->start_ns + k * l->period_ns;
}

void ilog_skip(struct ilog *l)
{
	l->n = 0;
	if (l->worker >= 0 && shared && (unsigned)l->worker < nshared)
		__atomic_store_n(&shared[l->worker].n, 0u, __ATOMIC_RELEASE);
}

void ilog_end(struct ilog *l, struct phase_out *out, uint64_t now, int io)
{
	out->ilat = NULL;
	out->isvc = NULL;
	/* No operation counted here (the seekers count in their own
	 * processes): nothing to log. */
	if (out->ops == 0) {
		l->n = 0;
	} else if (out->ops > l->ops0 || l->n == 0) {
		close_interval(l, out, now);
	}
	/* The per-char tests' last operation may be short of a chunk:
	 * the bytes add up to the test's work. */
	if (io && l->n && l->op_bytes) {
		struct result_interval *last = &l->v[l->n - 1];
		uint64_t before = l->bytes - last->bytes;

		if (out->work >= before)
			last->bytes = out->work - before;
	}
	if (l->worker >= 0 && shared && (unsigned)l->worker < nshared)
		__atomic_store_n(&shared[l->worker].n, l->n, __ATOMIC_RELEASE);
}

int ilog_share(unsigned n)
{
	size_t len = (size_t)n * sizeof(struct ilog_slot);
	void *map;

	if (shared)
		ilog_unshare();
	/* Untouched pages cost nothing: only the intervals written are. */
	map = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED)
		return -errno;
	shared = map;
	nshared = n;
	return 0;
}

void ilog_unshare(void)
{
	if (shared)
		munmap(shared, (size_t)nshared * sizeof(struct ilog_slot));
	shared = NULL;
	nshared = 0;
}

/* Workers [lo, hi)'s intervals summed by index into *out (malloc'd);
 * percentiles unknown, the worst max kept. 0 or -ENOMEM. */
static int sum_range(unsigned lo, unsigned hi, const double *offset,
		     struct result_interval **out, unsigned *nout)
{
	unsigned most = 0;

	for (unsigned i = lo; i < hi; i++)
		if (shared[i].n > most)
			most = shared[i].n;
	free(*out);
	*nout = 0;
	if (!(*out = calloc(most ? most : 1, sizeof(**out))))
		return -ENOMEM;
	for (unsigned i = lo; i < hi; i++)
		for (unsigned k = 0; k < shared[i].n; k++) {
			const struct result_interval *a = &shared[i].v[k];
			struct result_interval *s = &(*out)[k];
			double end = a->end + offset[i];

			s->ops += a->ops;
			s->bytes += a->bytes;
			if (end > s->end)
				s->end = end;
			if (a->secs > s->secs)
				s->secs = a->secs;
			if (a->max_ns > s->max_ns)
				s->max_ns = a->max_ns;
		}
	*nout = most;
	return 0;
}

int ilog_collect(struct ilog *l, unsigned n, const double *offset,
		 unsigned ntargets, unsigned copies)
{
	unsigned total = 0, at = 0;

	l->nsum = l->neach = 0;
	if (!shared || n > nshared)
		return 0;
	for (unsigned i = 0; i < n; i++)
		total += shared[i].n;
	free(l->each);
	if (!(l->each = calloc(total ? total : 1, sizeof(*l->each))))
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < shared[i].n; k++) {
			l->each[at] = shared[i].v[k];
			l->each[at].end += offset[i];
			l->each[at++].worker = i;
		}
	l->neach = total;
	if (sum_range(0, n, offset, &l->sum, &l->nsum) < 0)
		return -ENOMEM;
	if (ntargets < 2)
		return 0;
	if (!l->tsum) {
		l->tsum = calloc(ntargets, sizeof(*l->tsum));
		l->ntsum = calloc(ntargets, sizeof(*l->ntsum));
		l->ntargets = ntargets;
		if (!l->tsum || !l->ntsum) {
			free_targets(l);
			return -ENOMEM;
		}
	}
	for (unsigned t = 0; t < ntargets && t < l->ntargets; t++)
		if (sum_range(t * copies, (t + 1) * copies, offset, &l->tsum[t],
			      &l->ntsum[t]) < 0)
			return -ENOMEM;
	return 0;
}
