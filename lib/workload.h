/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workload: what a random-I/O workload draws for each operation (read
 * or write, block size, block, when it is due) and the options that
 * describe it:
 *
 *   --mix=R            reads, in percent of the operations
 *   --ran-bs=SPLIT     one block size, or sizes with shares adding to 100
 *   --dist=DIST        where the operations land over the file's blocks
 *   --rate=IOPS        an offered rate, and --arrivals=poisson|fixed
 *
 * A struct wl_spec holds what was given. Each parser takes an option's
 * text, fills its part of the spec and sets its bit in .given; on a bad
 * value it leaves the spec as it was and returns -1 with a short reason
 * in why[whylen] ("shares add to 90, not 100"), which names the piece at
 * fault but not the option: the caller names that. Whether options go
 * together (--arrivals without --rate, a split under -D) is the caller's
 * to decide; wl_bs_sectors helps with the second.
 *
 * The draws take the caller's rng (rng.h): one seed gives the same
 * draws, offsets included, every time. Give each kind of draw an rng of
 * its own (seeded from the run's seed and a salt) where changing one
 * option must not move the draws of another.
 *
 * Percentages are kept in tenths (permille): an option takes a whole
 * percent or one decimal ("70", "33.3"). Nothing here prints or exits.
 */
#ifndef CLYDE_WORKLOAD_H
#define CLYDE_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

/* 100 percent, in the tenths every share here is kept in. */
#define WL_WHOLE 1000u

/* Block sizes: powers of two from 512 bytes to 16 MiB; at most
 * WL_SPLIT_MAX of them in a split. */
#define WL_BS_MIN    512u
#define WL_BS_MAX    (16u << 20)
#define WL_SPLIT_MAX 16u

/* Zones of --dist=zoned. */
#define WL_ZONES_MAX 32u

/*
 * The values of zipf:THETA and pareto:H, in millionths (six decimals at
 * most): theta above 0 and at most 10 (1 included, which fio refuses:
 * its closed form divides by 0 there, the exact draw here does not), h
 * above 0 and below 1. Without a value, fio's defaults.
 */
#define WL_PARAM_ONE	  1000000u
#define WL_ZIPF_MAX	  (10u * WL_PARAM_ONE)
#define WL_ZIPF_DEFAULT	  1100000u
#define WL_PARETO_DEFAULT 200000u

/* --rate: whole operations a second, 1 to 10^9 (a gap of 1 ns). */
#define WL_RATE_MAX 1000000000ull

/* The most blocks offsets are drawn over: every block number is exact
 * in a double (2^53 blocks of 512 bytes: 4 EiB). */
#define WL_BLOCKS_MAX (1ull << 53)

/* Room for any settings text wl_text writes, its NUL included. */
#define WL_TEXT_MAX 1024u

/* What was given: the bits of wl_spec.given. */
enum wl_given {
	WL_GIVEN_MIX = 1,
	WL_GIVEN_BS = 2,
	WL_GIVEN_DIST = 4,
	WL_GIVEN_RATE = 8,
	WL_GIVEN_ARRIVALS = 16,
};

enum wl_dist_kind { WL_UNIFORM, WL_ZIPF, WL_PARETO, WL_ZONED };

enum wl_arrivals { WL_POISSON, WL_FIXED };

/* The block sizes and their shares, in the order given. */
struct wl_bs {
	unsigned n;		      /* 1..WL_SPLIT_MAX */
	uint64_t size[WL_SPLIT_MAX];  /* bytes: distinct powers of two */
	unsigned share[WL_SPLIT_MAX]; /* tenths of a percent, each above 0,
					 adding to WL_WHOLE */
};

/* Where offsets land. A zeroed one is uniform. */
struct wl_dist {
	enum wl_dist_kind kind;
	uint32_t param; /* zipf: theta, pareto: h; in millionths */
	unsigned nzones;
	/* Zones from the start of the file, in order: zone_io of the
	 * operations (0 allowed) go to zone_size of the blocks (above 0);
	 * each adds to WL_WHOLE. */
	unsigned zone_io[WL_ZONES_MAX];
	unsigned zone_size[WL_ZONES_MAX];
};

/* A workload as given; zeroed, nothing is. */
struct wl_spec {
	unsigned given;		   /* enum wl_given bits */
	unsigned reads;		   /* --mix: tenths of a percent, 0..1000 */
	struct wl_bs bs;	   /* --ran-bs */
	struct wl_dist dist;	   /* --dist */
	uint64_t rate;		   /* --rate: operations a second */
	enum wl_arrivals arrivals; /* --arrivals; WL_POISSON unless given */
};

/*
 * The parsers. Each returns 0, or -1 with the reason in why[whylen] and
 * *w untouched. Every form is strict: the whole text is used, nothing
 * around a number (no sign, blank, '%' or trailing junk), no piece
 * empty.
 *
 * wl_parse_mix: "R", reads in percent, 0 to 100, a decimal at most.
 * wl_parse_bs: "SIZE" or "SIZE:PCT[,SIZE:PCT...]": sizes as units.h
 *   reads them ("8k", "1m", "4096"), each a power of two from WL_BS_MIN
 *   to WL_BS_MAX and given once; shares above 0 adding to exactly 100.
 * wl_parse_dist: "uniform", "zipf[:THETA]", "pareto[:H]" or
 *   "zoned:IO/SIZE[,IO/SIZE...]" (IO percent of the operations go to
 *   the next SIZE percent of the file; both columns add to 100).
 * wl_parse_rate: operations a second, "5000", "5k", "1.5k", "2m"
 *   (decimal multiples: k = 1000), whole, 1 to WL_RATE_MAX.
 * wl_parse_arrivals: "poisson" or "fixed".
 */
int wl_parse_mix(struct wl_spec *w, const char *s, char *why, size_t whylen);
int wl_parse_bs(struct wl_spec *w, const char *s, char *why, size_t whylen);
int wl_parse_dist(struct wl_spec *w, const char *s, char *why, size_t whylen);
int wl_parse_rate(struct wl_spec *w, const char *s, char *why, size_t whylen);
int wl_parse_arrivals(struct wl_spec *w, const char *s, char *why,
		      size_t whylen);

/*
 * The settings text of what was given, its pieces in this order, one
 * space between them, none for what was not given:
 *
 *   8k:70,64k:30  the block sizes: one size alone ("8k"), or the split
 *                 (sizes as units_fmt_small writes them, shares in
 *                 percent: whole, or one decimal as in "33.3")
 *   r70           reads in percent (r0: all writes)
 *   zipf:1.1      the distribution: uniform, zipf:THETA, pareto:H or
 *                 zoned:60/10,30/20,10/70 (values without trailing zeros)
 *   rate 5000 poisson
 *                 the rate in operations a second and its arrivals
 *                 (poisson unless --arrivals said fixed); arrivals given
 *                 without a rate show as the word alone
 *
 * e.g. "8k:70,64k:30 r70 zipf:1.1 rate 5000 poisson". Each piece parses
 * back to the same spec (the mix's after its r; the rate's number and
 * arrivals word each by their own parser). Writes at most len bytes,
 * NUL included (buf may be NULL when len is 0); returns the length of
 * the whole text, as snprintf does: never above WL_TEXT_MAX - 1.
 */
size_t wl_text(const struct wl_spec *w, char *buf, size_t len);

/* A share in tenths of a percent as the options write it: "70" for
 * 700, "33.3" for 333. */
void wl_fmt_pct(char *buf, size_t len, unsigned tenths);

/* Whether to read: 1 with a chance of reads tenths of a percent, else
 * 0 (write). One rng_below of 1000 a draw. */
int wl_draw_read(unsigned reads, struct rng *r);

/* A block size of the split, each with the chance of its share
 * (bs->n >= 1). One rng_below of 1000 a draw. */
uint64_t wl_draw_bs(const struct wl_bs *bs, struct rng *r);

/* The largest size of the split (the buffer an operation needs). */
uint64_t wl_bs_max(const struct wl_bs *bs);

/*
 * Whether every size of the split is whole sectors of sector bytes (> 0;
 * direct I/O needs it). Returns 0, or -1 naming the first size that is
 * not ("512 is not whole 4096-byte sectors").
 */
int wl_bs_sectors(const struct wl_bs *bs, uint64_t sector, char *why,
		  size_t whylen);

/*
 * A distribution made ready over n blocks. Its fields are the draws'
 * own: set by wl_offsets_init, read by wl_offsets_rank and
 * wl_offsets_place.
 */
struct wl_offsets {
	enum wl_dist_kind kind;
	uint64_t n;
	uint64_t key; /* where ranks land: from the seed */
	/* zipf (rejection-inversion): theta, H(1.5) - 1, H(n + 0.5) and
	 * the shortcut bound s */
	double theta, h_x1, h_n, s;
	double exponent; /* pareto: ln h / ln(1 - h) */
	unsigned nzones;
	unsigned zone_cum[WL_ZONES_MAX];       /* tenths up to zone i */
	uint64_t zone_start[WL_ZONES_MAX + 1]; /* its first block */
};

/*
 * Make d ready to draw blocks in [0, nblocks), the hot blocks of zipf
 * and pareto placed by seed. Returns 0, or -1 with the reason in
 * why[whylen]: no blocks or more than WL_BLOCKS_MAX, or a zone that
 * would get operations but holds no whole block ("zone 2 (10% of the
 * file) holds none of 5 blocks").
 */
int wl_offsets_init(struct wl_offsets *o, const struct wl_dist *d,
		    uint64_t nblocks, uint64_t seed, char *why, size_t whylen);

/* A block in [0, n): wl_offsets_place(o, wl_offsets_rank(o, r)). */
uint64_t wl_offsets_draw(const struct wl_offsets *o, struct rng *r);

/*
 * The rank of a draw, in [0, n):
 *   uniform   every rank alike (one rng_below);
 *   zipf      rank k (0 = hottest) with a chance in proportion to
 *             1/(k+1)^theta over the n ranks, as fio defines it, drawn
 *             exactly (rejection-inversion, Hörmann and Derflinger
 *             1996, where fio approximates: Gray et al. 1994);
 *   pareto    floor(n * U^p) for U uniform in [0, 1) and
 *             p = ln h / ln(1 - h) (fio's rule, over n where fio takes
 *             n - 1 and so never reaches the last block): the ranks
 *             below h * n get 1 - h of the operations (0.2: 80% of
 *             them go to the first 20% of the ranks);
 *   zoned     a zone by its I/O share, then any block of it alike.
 */
uint64_t wl_offsets_rank(const struct wl_offsets *o, struct rng *r);

/*
 * The block a rank lands on. zipf and pareto: a bijection of [0, n)
 * keyed by the seed (seek.h's seek_perm), so the hot blocks are spread
 * over the file rather than all at its start, and the same seed puts
 * them in the same places. uniform and zoned: the rank itself.
 */
uint64_t wl_offsets_place(const struct wl_offsets *o, uint64_t rank);

/*
 * The arrivals of an offered rate. Arrival k (1, 2, ...) is due at
 * .due ns after the start, where the start is the caller's: for fixed
 * arrivals floor(k * 10^9 / rate), so no gap's rounding adds up; for
 * poisson the sum of k exponential gaps of mean 10^9 / rate, kept in
 * a double and rounded down only for .due (within a ns for the first
 * hundred days: 2^53 ns).
 */
struct wl_sched {
	uint64_t rate;
	/* The rate is shared by per schedules alike (workers), this one the
	 * at-th (0..per-1): fixed, it takes every per-th arrival of the whole
	 * rate's from its at-th on, so that all of them together are the one
	 * schedule; poisson, a stream of rate / per. 1 and 0 unless shared. */
	uint64_t per, at;
	enum wl_arrivals arrivals;
	uint64_t k;   /* arrivals drawn */
	uint64_t due; /* ns from the start to arrival k */
	double t;     /* poisson: its due time unrounded */
};

/* Start a schedule of rate (1..WL_RATE_MAX) operations a second. */
void wl_sched_init(struct wl_sched *s, uint64_t rate, enum wl_arrivals a);

/* s, as started, made the at-th of per schedules that share its rate
 * (see struct wl_sched): a share below one a second stays an open loop. */
void wl_sched_share(struct wl_sched *s, uint64_t per, uint64_t at);

/* The gap in ns from the last arrival (or the start) to the next; moves
 * s->due on by it. Fixed: 10^9 / rate rounded down or up (no rng);
 * poisson: one rng_next a draw, 0 possible at a high rate. */
uint64_t wl_sched_next(struct wl_sched *s, struct rng *r);

#endif
