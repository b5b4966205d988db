/* SPDX-License-Identifier: GPL-2.0-or-later */
/* journal: the reader, the map of the data file's blocks and the
 * verdict on each (see journal.h). */
#include "config.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fill.h"
#include "journal.h"

/* Records read at a time: a whole number of them. */
#define JRNL_READ_RECS 2048u

static uint32_t get_le32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static uint64_t get_le64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

/* Up to len bytes, fewer only at the end of the file; -1 on an error. */
static ssize_t read_full(int fd, unsigned char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static int head_parse(const unsigned char *p, struct jrnl_head *h, char *why,
		      size_t whylen)
{
	if (memcmp(p, JRNL_MAGIC, 8)) {
		snprintf(why, whylen, "not a clyde journal");
		return -1;
	}
	if (get_le32(p + 60) != fill_crc32(0, p, 60)) {
		snprintf(why, whylen, "header: bad CRC");
		return -1;
	}
	if (get_le32(p + 8) != JRNL_HEAD) {
		snprintf(why, whylen, "header length %" PRIu32 ", expected %u",
			 get_le32(p + 8), JRNL_HEAD);
		return -1;
	}
	if (get_le32(p + 12) != JRNL_BLOCK) {
		snprintf(why, whylen, "block size %" PRIu32 ", expected %u",
			 get_le32(p + 12), JRNL_BLOCK);
		return -1;
	}
	h->run_seed = get_le64(p + 16);
	h->content_seed = get_le64(p + 24);
	h->file_size = get_le64(p + 32);
	h->created_ns = get_le64(p + 40);
	memcpy(h->name, p + 48, JRNL_NAME);
	h->name[JRNL_NAME] = '\0';
	return 0;
}

static int all_zero(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

static int append(struct jrnl_view *v, const struct jrnl_rec *r, size_t *cap)
{
	if (v->nrecs == *cap) {
		size_t n = *cap ? *cap * 2 : 1024;
		struct jrnl_rec *p = reallocarray(v->recs, n, sizeof(*p));

		if (!p)
			return -1;
		v->recs = p;
		*cap = n;
	}
	v->recs[v->nrecs++] = *r;
	return 0;
}

/*
 * What a record of a known type may hold: 0, or -1 with what is wrong
 * in what[len].
 */
static int rec_check(const struct jrnl_rec *r, const unsigned char *p,
		     uint64_t file_size, char *what, size_t len)
{
	switch (r->type) {
	case JR_INTENT:
	case JR_ACK:
		if (!r->gen) {
			snprintf(what, len, "generation 0");
			return -1;
		}
		if (r->off > file_size || r->len > file_size - r->off) {
			snprintf(what, len,
				 "range beyond the data file's %" PRIu64
				 " bytes",
				 file_size);
			return -1;
		}
		return 0;
	case JR_SYNC:
	case JR_END:
		return 0;
	}
	snprintf(what, len, "unknown type 0x%02x", p[0]);
	return -1;
}

static void decode(const unsigned char *p, struct jrnl_rec *r)
{
	r->type = (char)p[0];
	r->gen = get_le32(p + 4);
	r->off = get_le64(p + 8);
	r->len = get_le64(p + 16);
	r->index = get_le32(p + 24);
}

/*
 * Record n, at p, checked: 0; -1 when it is not whole (a bad CRC, or
 * another record's index: what a cut can leave), -2 when it is whole
 * and wrong (what no cut makes); what is wrong in what[len].
 */
static int rec_sound(const struct jrnl_view *v, const unsigned char *p,
		     uint64_t n, struct jrnl_rec *r, char *what, size_t len)
{
	if (get_le32(p + 28) != fill_crc32(0, p, 28)) {
		snprintf(what, len, "bad CRC");
		return -1;
	}
	decode(p, r);
	if (r->index != (uint32_t)n) {
		snprintf(what, len, "out of order");
		return -1;
	}
	return rec_check(r, p, v->head.file_size, what, len) ? -2 : 0;
}

/*
 * A cut while records were written leaves the pages written since the
 * writer's last waited flush whole, half written or zero, in any order.
 * The writer waits before each write it submits, so only the records
 * of the last few writes are at risk: a record that is not whole, or
 * one after zeros, is taken for the start of such a torn tail when no
 * whole record lies more than JRNL_TORN_SPAN records (8 KiB) past it.
 * The tail is dropped (jrnl_view.torn): what it said of acknowledgements
 * is lost, which the verdict treats as writes in flight, never as
 * failures. Damage with whole records far past it is no cut's: refused.
 */
#define JRNL_TORN_SPAN 256u

/* The state of the pass over the records. */
struct scan {
	size_t cap;	  /* v->recs' room */
	int ended;	  /* a zero record was seen, at end_at */
	uint64_t end_at;  /* the first zero record */
	int torn;	  /* in a torn tail, from torn_at */
	uint64_t torn_at; /* the first record of the tail */
	uint64_t last;	  /* one past the last non-zero record */
	char why[128];	  /* what started the tail */
};

/* Record n, at p, inside a torn tail: 0, or -1 when it is whole and too
 * far past the damage for a cut. */
static int in_tail(struct jrnl_view *v, const unsigned char *p, uint64_t n,
		   struct scan *sc, char *why, size_t whylen)
{
	struct jrnl_rec r;
	char what[80];

	sc->last = n + 1;
	if (n - sc->torn_at > JRNL_TORN_SPAN &&
	    rec_sound(v, p, n, &r, what, sizeof(what)) == 0) {
		snprintf(why, whylen,
			 "%s, with whole records after it (record %" PRIu64 ")",
			 sc->why, n);
		return -1;
	}
	return 0;
}

/* A torn tail from record n, for the reason why. */
static void tail_starts(struct scan *sc, uint64_t n, const char *why)
{
	sc->torn = 1;
	sc->torn_at = n;
	snprintf(sc->why, sizeof(sc->why), "%s", why);
}

/* Record n, at p: checked, and kept unless it is the end's zeros. */
static int one(struct jrnl_view *v, const unsigned char *p, uint64_t n,
	       struct scan *sc, char *why, size_t whylen)
{
	struct jrnl_rec r;
	char what[80], whole[128];
	int bad;

	if (all_zero(p, JRNL_REC)) {
		if (!sc->ended)
			sc->end_at = n;
		sc->ended = 1;
		return 0;
	}
	if (sc->torn)
		return in_tail(v, p, n, sc, why, whylen);
	/* After 'E': a clean end is the last thing written. */
	if (v->clean) {
		snprintf(why, whylen,
			 "record %" PRIu64 " after the journal's end", n);
		return -1;
	}
	if (sc->ended) {
		snprintf(whole, sizeof(whole),
			 "record %" PRIu64 " after the journal's end", n);
		tail_starts(sc, sc->end_at, whole);
		return in_tail(v, p, n, sc, why, whylen);
	}
	if ((bad = rec_sound(v, p, n, &r, what, sizeof(what))) != 0) {
		snprintf(whole, sizeof(whole),
			 "record %" PRIu64 " at byte %" PRIu64 ": %s", n,
			 JRNL_HEAD + n * JRNL_REC, what);
		if (bad == -2) {
			snprintf(why, whylen, "%s", whole);
			return -1;
		}
		tail_starts(sc, n, whole);
		return in_tail(v, p, n, sc, why, whylen);
	}
	if (append(v, &r, &sc->cap)) {
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return -1;
	}
	v->clean |= r.type == JR_END;
	if (r.gen > v->last_gen)
		v->last_gen = r.gen;
	return 0;
}

/* The bytes of a record the file ends inside: zeros after the end are
 * the end's; anything else is a cut record or one past the end. */
static int tail(const unsigned char *p, size_t len, uint64_t n, int ended,
		char *why, size_t whylen)
{
	if (ended && all_zero(p, len))
		return 0;
	if (ended)
		snprintf(why, whylen,
			 "record %" PRIu64 " after the journal's end", n);
	else
		snprintf(why, whylen, "truncated inside record %" PRIu64, n);
	return -1;
}

static int records(int fd, struct jrnl_view *v, char *why, size_t whylen)
{
	unsigned char *buf = malloc(JRNL_READ_RECS * JRNL_REC);
	struct scan sc = {0};
	uint64_t n = 0;
	int e = 0;

	if (!buf) {
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return -1;
	}
	for (;;) {
		ssize_t got = read_full(fd, buf, JRNL_READ_RECS * JRNL_REC);
		size_t whole = (size_t)got / JRNL_REC * JRNL_REC;

		if (got < 0) {
			snprintf(why, whylen, "%s", strerror(errno));
			e = -1;
			break;
		}
		for (size_t i = 0; !e && i < whole; i += JRNL_REC, n++)
			e = one(v, buf + i, n, &sc, why, whylen);
		if (!e && whole < (size_t)got)
			e = tail(buf + whole, (size_t)got - whole, n,
				 sc.ended || sc.torn, why, whylen);
		if (e || (size_t)got < JRNL_READ_RECS * JRNL_REC)
			break;
	}
	free(buf);
	if (!e && sc.torn)
		v->torn = sc.last - sc.torn_at;
	return e;
}

int jrnl_read(const char *path, struct jrnl_view *v, char *why, size_t whylen)
{
	unsigned char hb[JRNL_HEAD];
	ssize_t got;
	int fd, e = -1;

	memset(v, 0, sizeof(*v));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return -1;
	}
	got = read_full(fd, hb, sizeof(hb));
	if (got < 0)
		snprintf(why, whylen, "%s", strerror(errno));
	else if (got < (ssize_t)sizeof(hb))
		snprintf(
		    why, whylen,
		    "truncated: %zd bytes, shorter than the %u-byte header",
		    got, JRNL_HEAD);
	else if (!head_parse(hb, &v->head, why, whylen))
		e = records(fd, v, why, whylen);
	close(fd);
	if (e)
		jrnl_view_free(v);
	return e;
}

void jrnl_view_free(struct jrnl_view *v)
{
	free(v->recs);
	v->recs = NULL;
	v->nrecs = 0;
}

/*
 * The map. Per block: its acknowledged gen, and the gens [lo, hi] of
 * the intents in flight over it; all three 0: no record covers it (a
 * gen is never 0).
 */
struct jrnl_block {
	uint32_t acked, lo, hi;
};

struct jrnl_map {
	uint64_t nblocks;
	struct jrnl_block *b;
};

/*
 * The intents not yet known acknowledged, in gen order (gens grow with
 * submission order, so an intent is nearly always appended): an 'A'
 * finds its intent by bisection, an 'S' acknowledges a prefix.
 * [first, n) is live; the acknowledged ones inside it wait for the
 * prefix to pass them.
 */
struct pend {
	uint64_t off, len;
	uint32_t gen;
	int acked;
};

struct pending {
	struct pend *p;
	size_t first, n, cap;
};

/* The blocks [*b0, *b1) a range touches, inside the map. */
static void span(const struct jrnl_map *m, uint64_t off, uint64_t len,
		 uint64_t *b0, uint64_t *b1)
{
	*b0 = off / JRNL_BLOCK;
	*b1 = len ? (off + len - 1) / JRNL_BLOCK + 1 : *b0;
	if (*b1 > m->nblocks)
		*b1 = m->nblocks;
	if (*b0 > *b1)
		*b0 = *b1;
}

static void mark_acked(struct jrnl_map *m, uint64_t off, uint64_t len,
		       uint32_t gen)
{
	uint64_t b0, b1;

	span(m, off, len, &b0, &b1);
	for (uint64_t b = b0; b < b1; b++)
		if (m->b[b].acked < gen)
			m->b[b].acked = gen;
}

static void mark_flight(struct jrnl_map *m, const struct pend *p)
{
	uint64_t b0, b1;

	span(m, p->off, p->len, &b0, &b1);
	for (uint64_t b = b0; b < b1; b++) {
		struct jrnl_block *k = &m->b[b];

		if (!k->lo || p->gen < k->lo)
			k->lo = p->gen;
		if (p->gen > k->hi)
			k->hi = p->gen;
	}
}

/* Drop the acknowledged prefix, and move the live part down once the
 * dead part is the larger, so the array stays as long as the flight. */
static void settle(struct pending *q)
{
	while (q->first < q->n && q->p[q->first].acked)
		q->first++;
	if (q->first > 1024 && q->first > q->n - q->first) {
		memmove(q->p, q->p + q->first,
			(q->n - q->first) * sizeof(*q->p));
		q->n -= q->first;
		q->first = 0;
	}
}

static int intent(struct pending *q, const struct jrnl_rec *r)
{
	size_t i;

	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 1024;
		struct pend *p = reallocarray(q->p, cap, sizeof(*p));

		if (!p)
			return -1;
		q->p = p;
		q->cap = cap;
	}
	/* In gen order, should a writer ever submit out of it. */
	for (i = q->n; i > q->first && q->p[i - 1].gen > r->gen; i--)
		q->p[i] = q->p[i - 1];
	q->p[i] = (struct pend){r->off, r->len, r->gen, 0};
	q->n++;
	return 0;
}

/* The first live intent of gen >= gen. */
static size_t lower(const struct pending *q, uint32_t gen)
{
	size_t lo = q->first, hi = q->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (q->p[mid].gen < gen)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* 'A': its own range is acknowledged, and its intent leaves the flight. */
static void ack(struct jrnl_map *m, struct pending *q, const struct jrnl_rec *r)
{
	mark_acked(m, r->off, r->len, r->gen);
	for (size_t i = lower(q, r->gen); i < q->n && q->p[i].gen == r->gen;
	     i++)
		q->p[i].acked = 1;
	settle(q);
}

/* 'S': every intent up to its gen is acknowledged. */
static void sync_through(struct jrnl_map *m, struct pending *q, uint32_t gen)
{
	for (; q->first < q->n && q->p[q->first].gen <= gen; q->first++) {
		struct pend *p = &q->p[q->first];

		if (!p->acked)
			mark_acked(m, p->off, p->len, p->gen);
		p->acked = 1;
	}
	settle(q);
}

static int replay(struct jrnl_map *m, const struct jrnl_view *v)
{
	struct pending q = {0};
	int e = 0;

	for (size_t i = 0; !e && i < v->nrecs; i++) {
		const struct jrnl_rec *r = &v->recs[i];

		if (r->type == JR_INTENT)
			e = intent(&q, r);
		else if (r->type == JR_ACK)
			ack(m, &q, r);
		else if (r->type == JR_SYNC)
			sync_through(m, &q, r->gen);
	}
	for (size_t i = q.first; !e && i < q.n; i++)
		if (!q.p[i].acked)
			mark_flight(m, &q.p[i]);
	free(q.p);
	return e;
}

struct jrnl_map *jrnl_map_new(const struct jrnl_view *v)
{
	struct jrnl_map *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->nblocks = (v->head.file_size + JRNL_BLOCK - 1) / JRNL_BLOCK;
	/* calloc: the zeros of a large map cost nothing until touched. */
	m->b = calloc(m->nblocks ? m->nblocks : 1, sizeof(*m->b));
	if (!m->b || replay(m, v)) {
		jrnl_map_free(m);
		return NULL;
	}
	return m;
}

void jrnl_map_free(struct jrnl_map *m)
{
	if (!m)
		return;
	free(m->b);
	free(m);
}

uint64_t jrnl_map_blocks(const struct jrnl_map *m)
{
	return m->nblocks;
}

int jrnl_map_block(const struct jrnl_map *m, uint64_t block, uint32_t *acked,
		   uint32_t *lo, uint32_t *hi)
{
	const struct jrnl_block *k;

	*acked = *lo = *hi = 0;
	if (block >= m->nblocks)
		return -1;
	k = &m->b[block];
	*acked = k->acked;
	*lo = k->lo;
	*hi = k->hi;
	return k->acked || k->hi ? 0 : -1;
}

/* A sound block under a write in flight. */
static enum jrnl_verdict in_flight(uint32_t acked, uint32_t lo, uint32_t hi,
				   uint32_t gen)
{
	if (gen == acked)
		return JV_INFLIGHT_OLD;
	if (gen >= lo && gen <= hi)
		return JV_INFLIGHT_NEW;
	if (gen < acked)
		return JV_LOST;
	/* Nothing acknowledged: older than the flight is what was there
	 * before the journal began. */
	if (!acked && gen < lo)
		return JV_INFLIGHT_OLD;
	return JV_INFLIGHT_NEW;
}

enum jrnl_verdict jrnl_judge(const struct jrnl_map *m, uint64_t block,
			     int sound, uint32_t gen)
{
	uint32_t acked, lo, hi;

	if (jrnl_map_block(m, block, &acked, &lo, &hi))
		return JV_UNWRITTEN;
	if (!sound)
		return hi ? JV_TORN : JV_CORRUPT;
	if (hi)
		return in_flight(acked, lo, hi, gen);
	if (gen == acked)
		return JV_INTACT;
	return gen < acked ? JV_LOST : JV_INFLIGHT_NEW;
}

enum jrnl_verdict jrnl_judge_missing(const struct jrnl_map *m, uint64_t block)
{
	uint32_t acked, lo, hi;

	if (jrnl_map_block(m, block, &acked, &lo, &hi))
		return JV_UNWRITTEN;
	return acked ? JV_LOST : JV_INFLIGHT_OLD;
}

static const struct {
	const char *name, *text;
} verdicts[JV_COUNT] = {
    [JV_INTACT] = {"intact", "holds the write the storage acknowledged"},
    [JV_LOST] = {"lost", "the storage acknowledged a write it did not keep"},
    [JV_INFLIGHT_OLD] = {"in-flight-old",
			 "a write was in flight; holds the content before it"},
    [JV_INFLIGHT_NEW] = {"in-flight-new",
			 "holds a write in flight or never acknowledged"},
    [JV_TORN] = {"torn", "torn by a write in flight at the end"},
    [JV_CORRUPT] = {"corrupt", "corrupt, with no write in flight over it"},
    [JV_UNWRITTEN] = {"unwritten", "no write of the run covers it"},
};

const char *jrnl_verdict_name(enum jrnl_verdict v)
{
	return (unsigned)v < JV_COUNT ? verdicts[v].name : "?";
}

const char *jrnl_verdict_text(enum jrnl_verdict v)
{
	return (unsigned)v < JV_COUNT ? verdicts[v].text : "?";
}

int jrnl_verdict_fails(enum jrnl_verdict v)
{
	return v == JV_LOST || v == JV_CORRUPT;
}

void jrnl_tally_add(struct jrnl_tally *t, enum jrnl_verdict v, uint64_t off)
{
	if ((unsigned)v >= JV_COUNT)
		return;
	if (t->n[v] < JRNL_TALLY_FIRST)
		t->first[v][t->n[v]] = off;
	t->n[v]++;
}
