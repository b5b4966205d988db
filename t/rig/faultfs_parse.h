/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultfs_parse: a rule as the rig keeps it, and the parser that makes
 * one from the words of a control line (faultfs_rules.c keeps the list,
 * matches and counts).
 */
#ifndef FAULTFS_PARSE_H
#define FAULTFS_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "faultfs_rules.h"

enum ff_kind { FK_FAIL, FK_FLIP, FK_DELAY, FK_DROP, FK_REMAP };
enum ff_dist { FD_FIXED, FD_UNIFORM, FD_EXP, FD_RATE };

struct ff_rule {
	struct ff_rule *next;
	unsigned id;
	enum ff_kind kind;
	uint32_t ops; /* bit per enum ff_op */
	int err;
	int ranged;
	uint64_t off, len;
	int have_from;
	uint64_t from; /* remap: where the data of off comes from */
	char *glob;
	uint64_t after, times;
	unsigned char xor ;
	enum ff_dist dist;
	uint64_t d1, d2; /* ns: fixed/min/mean, max; FD_RATE: d1 bytes/s */
	/* A delay rule's cache=: the bytes of matching operations let
	 * through before it delays any (never refilled but by clear), and
	 * those taken so far. */
	uint64_t cache, cached;
	/* skip=: the bytes of matching operations before the rule starts
	 * (neither delayed nor cached: what a program writes before the
	 * part a test times), and those passed so far. */
	uint64_t skip, skipped;
	/* grow=: ns added to each delay for every second since the rule
	 * was set (set_ns, CLOCK_MONOTONIC): a device that keeps slowing. */
	uint64_t grow, set_ns;
	uint64_t busy_until_ns; /* FD_RATE: when the last one is done */
	uint64_t matched, fired, slept_ns;
	char *text;
};

/* The operations' names, in enum ff_op's order. */
extern const char *const ff_op_names[FF_OP_COUNT];

/* Fill why (printf-style) and return -EINVAL. */
int ff_bad(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A decimal or 0x number with an optional k/m/g/t; 0, or -1. */
int ff_parse_u64(const char *s, uint64_t *v);

/*
 * A rule from words[0..n) (words[0] its kind), shown in the status as
 * line: 0 and *out, or -EINVAL with why filled in, or -ENOMEM.
 */
int ff_parse_rule(char **words, int n, const char *line, struct ff_rule **out,
		  char *why, size_t whylen);

void ff_rule_free(struct ff_rule *r);

/*
 * wcache honest|lying [path=GLOB] | wcache off, from words[0..n): 0 with
 * *mode and *glob (malloc'd; NULL: every file), or -EINVAL with why
 * filled in, or -ENOMEM.
 */
int ff_parse_wcache(char **words, int n, enum ff_wcache *mode, char **glob,
		    char *why, size_t whylen);

#endif
