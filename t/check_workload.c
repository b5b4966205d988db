/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_workload: the workload options: every bad form refused with a
 * reason and the spec left as it was; good ones back in the settings
 * text, which parses back to the same spec. The draws:
 * check_workload_draws.c and check_workload_fit.c. */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "workload.h"
#include "check_main.h"
#include "check_workload.h"

enum which { MIX, BS, DIST, RATE, ARRIVALS };

static int parse(struct wl_spec *w, enum which k, const char *s, char *why,
		 size_t len)
{
	switch (k) {
	case MIX:
		return wl_parse_mix(w, s, why, len);
	case BS:
		return wl_parse_bs(w, s, why, len);
	case DIST:
		return wl_parse_dist(w, s, why, len);
	case RATE:
		return wl_parse_rate(w, s, why, len);
	case ARRIVALS:
		break;
	}
	return wl_parse_arrivals(w, s, why, len);
}

/* A spec from one option's text, which must be good. */
static void parse_ok(struct wl_spec *w, enum which k, const char *s)
{
	char why[128] = "";

	ck_assert_msg(parse(w, k, s, why, sizeof(why)) == 0, "'%s' refused: %s",
		      s, why);
}

void cw_ok(cw_parse_fn parse, struct wl_spec *w, const char *s)
{
	char why[128] = "";

	ck_assert_msg(parse(w, s, why, sizeof(why)) == 0, "'%s' refused: %s", s,
		      why);
}

static const struct {
	enum which k;
	const char *in, *text;
} good[] = {
    {MIX, "70", "r70"},
    {MIX, "70.5", "r70.5"},
    {MIX, "0", "r0"},
    {MIX, "100", "r100"},
    {MIX, "100.0", "r100"},
    {MIX, "007", "r7"},
    {BS, "8k", "8k"},
    {BS, "8K:100", "8k"},
    {BS, "8192", "8k"},
    {BS, "512", "512"},
    {BS, "16m", "16m"},
    {BS, "8k:70,64k:30", "8k:70,64k:30"},
    {BS, "64KiB:30,8k:70", "64k:30,8k:70"},
    {BS, "4k:33.3,8k:33.3,1m:33.4", "4k:33.3,8k:33.3,1m:33.4"},
    {BS, "512:10.0,4k:90", "512:10,4k:90"},
    {DIST, "uniform", "uniform"},
    {DIST, "zipf:1.1", "zipf:1.1"},
    {DIST, "zipf", "zipf:1.1"},
    {DIST, "zipf:1.10", "zipf:1.1"},
    {DIST, "zipf:1", "zipf:1"},
    {DIST, "zipf:0.000001", "zipf:0.000001"},
    {DIST, "zipf:10", "zipf:10"},
    {DIST, "zipf:2.25", "zipf:2.25"},
    {DIST, "pareto:0.2", "pareto:0.2"},
    {DIST, "pareto", "pareto:0.2"},
    {DIST, "pareto:0.999999", "pareto:0.999999"},
    {DIST, "zoned:60/10,30/20,10/70", "zoned:60/10,30/20,10/70"},
    {DIST, "zoned:100/100", "zoned:100/100"},
    {DIST, "zoned:0/50,99.5/49.5,0.5/0.5", "zoned:0/50,99.5/49.5,0.5/0.5"},
    {RATE, "5000", "rate 5000 poisson"},
    {RATE, "5k", "rate 5000 poisson"},
    {RATE, "1.5K", "rate 1500 poisson"},
    {RATE, "2m", "rate 2000000 poisson"},
    {RATE, "0.25M", "rate 250000 poisson"},
    {RATE, "1", "rate 1 poisson"},
    {RATE, "1000m", "rate 1000000000 poisson"},
    {ARRIVALS, "fixed", "fixed"},
    {ARRIVALS, "poisson", "poisson"},
};

static int same_spec(const struct wl_spec *a, const struct wl_spec *b)
{
	if (a->given != b->given || a->reads != b->reads ||
	    a->bs.n != b->bs.n || a->dist.kind != b->dist.kind ||
	    a->dist.param != b->dist.param ||
	    a->dist.nzones != b->dist.nzones || a->rate != b->rate ||
	    a->arrivals != b->arrivals)
		return 0;
	for (unsigned i = 0; i < a->bs.n; i++)
		if (a->bs.size[i] != b->bs.size[i] ||
		    a->bs.share[i] != b->bs.share[i])
			return 0;
	for (unsigned i = 0; i < a->dist.nzones; i++)
		if (a->dist.zone_io[i] != b->dist.zone_io[i] ||
		    a->dist.zone_size[i] != b->dist.zone_size[i])
			return 0;
	return 1;
}

/* Each good form gives its settings text, and that text (after the r
 * of the mix, the rate's number alone) gives the same spec again. */
START_TEST(parse_good)
{
	struct wl_spec w = {0}, back = {0};
	char text[WL_TEXT_MAX], again[WL_TEXT_MAX];
	const char *piece = text;

	parse_ok(&w, good[_i].k, good[_i].in);
	ck_assert_uint_eq(wl_text(&w, text, sizeof(text)),
			  strlen(good[_i].text));
	ck_assert_str_eq(text, good[_i].text);
	if (good[_i].k == MIX)
		piece = text + 1;
	if (good[_i].k == RATE) {
		snprintf(again, sizeof(again), "%s", text + strlen("rate "));
		*strchr(again, ' ') = '\0';
		piece = again;
	}
	parse_ok(&back, good[_i].k, piece);
	ck_assert_msg(same_spec(&w, &back), "'%s' read back differs", piece);
}
END_TEST

/* All the options in one text, in its order whatever theirs. */
START_TEST(parse_all)
{
	struct wl_spec w = {0};
	char text[WL_TEXT_MAX];

	parse_ok(&w, RATE, "5k");
	parse_ok(&w, DIST, "zipf:1.1");
	parse_ok(&w, MIX, "70");
	parse_ok(&w, BS, "8k:70,64k:30");
	wl_text(&w, text, sizeof(text));
	ck_assert_str_eq(text, "8k:70,64k:30 r70 zipf:1.1 rate 5000 poisson");
	parse_ok(&w, ARRIVALS, "fixed");
	wl_text(&w, text, sizeof(text));
	ck_assert_str_eq(text, "8k:70,64k:30 r70 zipf:1.1 rate 5000 fixed");
	/* A later option replaces an earlier one. */
	parse_ok(&w, BS, "4k");
	parse_ok(&w, MIX, "0");
	wl_text(&w, text, sizeof(text));
	ck_assert_str_eq(text, "4k r0 zipf:1.1 rate 5000 fixed");
	w = (struct wl_spec){0};
	ck_assert_uint_eq(wl_text(&w, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "");
}
END_TEST

static const struct {
	enum which k;
	const char *in;
	const char *why; /* what the reason must say */
} bad[] = {
    {MIX, "", "empty"},
    {MIX, "101", "'101' is above 100"},
    {MIX, "100.1", "above 100"},
    {MIX, "-1", "'-1' is negative"},
    {MIX, "70.55", "one decimal at most"},
    {MIX, "abc", "not a number"},
    {MIX, "70%", "not a number"},
    {MIX, " 70", "not a number"},
    {MIX, "70 ", "not a number"},
    {MIX, "+70", "not a number"},
    {MIX, "70.", "not a number"},
    {MIX, ".5", "not a number"},
    {MIX, "99999999999999999999999", "too large"},
    {BS, "", "empty"},
    {BS, "8k:70,64k:20", "shares add to 90, not 100"},
    {BS, "8k:70.5,64k:30", "shares add to 100.5, not 100"},
    {BS, "8k:50", "shares add to 50, not 100"},
    {BS, "8k:110", "share '110' is above 100"},
    {BS, "8k:-10,64k:110", "share '-10' is negative"},
    {BS, "8k:0,64k:100", "share of 0"},
    {BS, "12k", "'12k' is not a power of two"},
    {BS, "8k:50,3000:50", "'3000' is not a power of two"},
    {BS, "0", "not a power of two"},
    {BS, "256", "not from 512 bytes to 16m"},
    {BS, "32m", "not from 512 bytes to 16m"},
    {BS, "8x", "unknown suffix"},
    {BS, "-8k", "negative"},
    {BS, "8k:70,,64k:30", "empty piece"},
    {BS, ",8k", "empty piece"},
    {BS, "8k:70,64k:30,", "empty piece"},
    {BS, ",", "empty piece"},
    {BS, "8k:", "share missing"},
    {BS, ":70", "block size is missing"},
    {BS, "8k:70x,64k:30", "share '70x' is not a number"},
    {BS, "8k:70,64k:30 ", "share '30 ' is not a number"},
    {BS, "8k:70,64k:30junk", "not a number"},
    {BS, "8k:70,8K:30", "'8K' given twice"},
    {BS, "8k,64k:30", "'8k' has no share"},
    {BS, "8k:70,64k", "'64k' has no share"},
    {BS, "8k:70:1,64k:30", "not a number"},
    {BS,
     "512:5,1k:5,2k:5,4k:5,8k:5,16k:5,32k:5,64k:5,128k:5,256k:5,512k:5,"
     "1m:5,2m:5,4m:5,8m:5,16m:20,512:5",
     "more than 16"},
    {DIST, "", "empty"},
    {DIST, "zipf:0", "zipf theta '0' is not above 0"},
    {DIST, "zipf:0.0", "not above 0"},
    {DIST, "zipf:0.0000001", "6 decimals at most"},
    {DIST, "zipf:-1", "theta '-1' is negative"},
    {DIST, "zipf:10.5", "zipf theta '10.5' is above 10"},
    {DIST, "zipf:10.000001", "above 10"},
    {DIST, "zipf:1000", "too large"},
    {DIST, "zipf:abc", "not a number"},
    {DIST, "zipf:1.1x", "theta '1.1x' is not a number"},
    {DIST, "zipf:1.1:2", "not a number"},
    {DIST, "zipf:", "theta missing"},
    {DIST, "zipf:1e3", "without an exponent"},
    {DIST, "zipf:1e-300", "theta '1e-300': write it in plain decimals"},
    {DIST, "zipf:1.0000001", "6 decimals at most"},
    {DIST, "pareto:0", "pareto h '0' is not between 0 and 1"},
    {DIST, "pareto:1", "not between 0 and 1"},
    {DIST, "pareto:1.5", "not between 0 and 1"},
    {DIST, "pareto:-0.2", "negative"},
    {DIST, "pareto:", "h missing"},
    {DIST, "gauss", "'gauss' is not uniform, zipf:THETA"},
    {DIST, "Zipf:1.1", "not uniform"},
    {DIST, "uniform:1", "uniform takes no value"},
    {DIST, "uniform ", "not uniform"},
    {DIST, "zoned", "zoned needs its zones"},
    {DIST, "zoned:", "zoned needs its zones"},
    {DIST, "zoned:60/10,30/20", "I/O shares add to 90, not 100"},
    {DIST, "zoned:60/10,40/20", "file shares add to 30, not 100"},
    {DIST, "zoned:60/10,,40/90", "empty zone"},
    {DIST, "zoned:60/10,40/90,", "empty zone"},
    {DIST, "zoned:60,40/100", "zone '60' is not IO/SIZE"},
    {DIST, "zoned:100/0,0/100", "zone 1 holds 0% of the file"},
    {DIST, "zoned:110/50,-10/50", "I/O share '110' is above 100"},
    {DIST, "zoned:60/10,40/-90", "file share '-90' is negative"},
    {DIST, "zoned:60/10,40/90x", "file share '90x' is not a number"},
    {DIST, "zoned:60/10,40/90/", "not a number"},
    {RATE, "", "empty"},
    {RATE, "0", "rate '0' is not above 0"},
    {RATE, "0k", "not above 0"},
    {RATE, "0.0001k", "not whole"},
    {RATE, "-5", "rate '-5' is negative"},
    {RATE, "-5k", "negative"},
    {RATE, "abc", "not a number"},
    {RATE, "k", "not a number"},
    {RATE, "5x", "rate '5x': unknown suffix (use k or m)"},
    {RATE, "5k ", "unknown suffix"},
    {RATE, "5000 ", "unknown suffix"},
    {RATE, "5kk", "not a number"},
    {RATE, "5g", "unknown suffix"},
    {RATE, "1.5", "rate '1.5' is not whole operations a second"},
    {RATE, "1e6", "without an exponent"},
    {RATE, "2000m", "above 1000m"},
    {RATE, "99999999999999999999", "too large"},
    {ARRIVALS, "", "empty"},
    {ARRIVALS, "uniform", "'uniform' is not poisson or fixed"},
    {ARRIVALS, "Poisson", "not poisson or fixed"},
    {ARRIVALS, "fixed ", "not poisson or fixed"},
};

/* Each bad form: -1, the reason, the spec as it was. */
START_TEST(parse_bad)
{
	struct wl_spec w = {0}, before;
	char why[128] = "", text[WL_TEXT_MAX];

	parse_ok(&w, BS, "4k");
	parse_ok(&w, MIX, "50");
	parse_ok(&w, DIST, "pareto:0.3");
	parse_ok(&w, RATE, "100");
	before = w;
	ck_assert_int_eq(parse(&w, bad[_i].k, bad[_i].in, why, sizeof(why)),
			 -1);
	ck_assert_msg(strstr(why, bad[_i].why), "'%s': reason '%s' lacks '%s'",
		      bad[_i].in, why, bad[_i].why);
	ck_assert_msg(same_spec(&w, &before), "'%s' changed the spec",
		      bad[_i].in);
	wl_text(&w, text, sizeof(text));
	ck_assert_str_eq(text, "4k r50 pareto:0.3 rate 100 poisson");
	/* A NULL text is an empty one. */
	ck_assert_int_eq(parse(&w, bad[_i].k, NULL, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "empty"));
}
END_TEST

/* The longest texts fit WL_TEXT_MAX, and a short buffer is cut with
 * the whole length returned. */
START_TEST(text_room)
{
	struct wl_spec w = {0};
	char in[600], text[WL_TEXT_MAX], small[8];
	size_t n = 0, len;

	for (unsigned i = 0; i < WL_SPLIT_MAX; i++)
		n += (size_t)snprintf(in + n, sizeof(in) - n, "%s%llu:%s",
				      i ? "," : "", 512ull << i,
				      i < 15 ? "6.1" : "8.5");
	parse_ok(&w, BS, in);
	n = (size_t)snprintf(in, sizeof(in), "zoned:");
	for (unsigned i = 0; i < WL_ZONES_MAX; i++)
		n += (size_t)snprintf(in + n, sizeof(in) - n, "%s%s/%s",
				      i ? "," : "", i < 31 ? "3.1" : "3.9",
				      i < 31 ? "3.2" : "0.8");
	parse_ok(&w, DIST, in);
	parse_ok(&w, MIX, "33.3");
	parse_ok(&w, RATE, "999999999");
	parse_ok(&w, ARRIVALS, "poisson");
	len = wl_text(&w, text, sizeof(text));
	ck_assert_uint_lt(len, WL_TEXT_MAX);
	ck_assert_uint_eq(strlen(text), len);
	ck_assert_uint_eq(wl_text(&w, small, sizeof(small)), len);
	ck_assert_str_eq(small, "512:6.1");
	ck_assert_uint_eq(wl_text(&w, NULL, 0), len);
}
END_TEST

static Suite *workload_suite(void)
{
	Suite *s = suite_create("workload");
	TCase *p = tcase_create("parse");

	tcase_add_loop_test(p, parse_good, 0, sizeof(good) / sizeof(good[0]));
	tcase_add_test(p, parse_all);
	tcase_add_loop_test(p, parse_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(p, text_room);
	suite_add_tcase(s, p);
	workload_draws_tcase(s);
	workload_fit_tcase(s);
	return s;
}

CHECK_MAIN(workload_suite)
