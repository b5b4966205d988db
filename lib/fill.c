/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fill: see fill.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_ISAL
#include <isa-l/crc.h>
#endif

#include "fill.h"
#include "fill_impl.h"
#include "rng.h"

void fill_random(void *buf, size_t len, uint64_t seed)
{
	struct rng r;
	unsigned char *p = buf;
	size_t i;

	rng_seed(&r, seed);
	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t x = rng_next(&r);

		memcpy(p + i, &x, 8);
	}
	if (i < len) {
		uint64_t x = rng_next(&r);

		memcpy(p + i, &x, len - i);
	}
}

#define STAMP_BLOCK 4096u

void fill_stamp(void *buf, size_t len, uint64_t off, uint64_t seed)
{
	unsigned char *p = buf;
	/* The first block start at or after off, relative to buf. */
	size_t i = (size_t)((STAMP_BLOCK - off % STAMP_BLOCK) % STAMP_BLOCK);

	for (; i < len; i += STAMP_BLOCK) {
		uint64_t x = rng_hash(seed, (off + i) / STAMP_BLOCK);
		size_t n = len - i < 8 ? len - i : 8;

		memcpy(p + i, &x, n);
	}
}

double fill_compress_ratio(const void *buf, size_t len)
{
	uLongf out_len = compressBound((uLong)len);
	Bytef *out = malloc(out_len);
	double ratio = -1.0;

	if (!out)
		return -1.0;
	if (compress2(out, &out_len, buf, (uLong)len, 1) == Z_OK && len)
		ratio = (double)out_len / (double)len;
	free(out);
	return ratio;
}

#ifdef HAVE_ISAL
/* vzeroupper may be run: the CPU has AVX (set once, before any CRC). */
static int avx_upper;

__attribute__((constructor)) static void fill_crc_init(void)
{
#if defined(__x86_64__) || defined(__i386__)
	avx_upper = __builtin_cpu_supports("avx");
#endif
}
#endif

uint32_t fill_crc32(uint32_t crc, const void *buf, size_t len)
{
#ifdef HAVE_ISAL
	/* The reflected gzip CRC, chained as zlib's is: same values, many
	 * times faster (folding with carry-less multiplies). */
	crc = crc32_gzip_refl(crc, buf, len);
	/* Its AVX-512 code leaves the vector registers' upper halves in
	 * use, and the SSE code after it (a struct copy) then runs slowly
	 * until they are cleared: the check of a block took 6 times its
	 * CRC's time. */
#if defined(__x86_64__) || defined(__i386__)
	if (avx_upper)
		__asm__ volatile("vzeroupper" ::: "memory");
#endif
	return crc;
#else
	const unsigned char *p = buf;

	/* zlib takes a uInt length: feed it in pieces that fit. */
	while (len > 0) {
		uInt n = len > (1u << 30) ? 1u << 30 : (uInt)len;

		crc = (uint32_t)crc32(crc, p, n);
		p += n;
		len -= n;
	}
	return crc;
#endif
}

uint32_t fill_block_crc(const unsigned char *blk)
{
	return fill_crc32(0, blk, FILL_CRC_AT);
}

void fill_run_crc_make(struct fill *f)
{
	/* Any sound block will do: zeros and their CRC. */
	static const unsigned char zeros[FILL_CRC_AT];
	unsigned char tail[4];

	fill_put_le32(tail, fill_crc32(0, zeros, sizeof(zeros)));
	f->run_crc[0] = 0;
	for (unsigned n = 1; n <= FILL_RUN; n++)
		f->run_crc[n] = fill_crc32(
		    fill_crc32(f->run_crc[n - 1], zeros, sizeof(zeros)), tail,
		    sizeof(tail));
}

#define FILL_MODES "random, zero, compress:PCT, dedupe:PCT"

static const char *const mode_names[] = {
    [FILL_RANDOM] = "random",
    [FILL_ZERO] = "zero",
    [FILL_COMPRESS] = "compress",
    [FILL_DEDUPE] = "dedupe",
};

static int parse_fail(char *why, size_t whylen, const char *arg,
		      const char *what)
{
	(void)arg; /* the caller's message names it */
	if (why && whylen)
		snprintf(why, whylen, "%s", what);
	return -1;
}

/* A whole number 1..99 in digits alone: no sign, space or fraction. */
static int parse_pct(const char *s, unsigned *pct)
{
	unsigned v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 99)
			return -1;
		v = v * 10 + (unsigned)(*s - '0');
	}
	if (v < 1 || v > 99)
		return -1;
	*pct = v;
	return 0;
}

int fill_parse(const char *arg, struct fill_spec *out, char *why, size_t whylen)
{
	struct fill_spec sp;
	const char *colon;
	size_t name_len;
	int mode = -1;

	if (!arg)
		arg = "";
	colon = strchr(arg, ':');
	name_len = colon ? (size_t)(colon - arg) : strlen(arg);
	for (int m = 0; m < (int)(sizeof(mode_names) / sizeof(*mode_names));
	     m++)
		if (strlen(mode_names[m]) == name_len &&
		    !strncmp(arg, mode_names[m], name_len))
			mode = m;
	if (mode < 0)
		return parse_fail(why, whylen, arg,
				  "not a data mode (" FILL_MODES ")");
	/* *out changes only on success. */
	sp.mode = (enum fill_mode)mode;
	sp.pct = 0;
	if (mode == FILL_RANDOM || mode == FILL_ZERO) {
		if (colon)
			return parse_fail(why, whylen, arg,
					  "this mode takes no PCT");
	} else if (!colon) {
		return parse_fail(why, whylen, arg,
				  "needs :PCT, a whole number from 1 to 99");
	} else if (parse_pct(colon + 1, &sp.pct)) {
		return parse_fail(why, whylen, arg,
				  "PCT must be a whole number from 1 to 99");
	}
	*out = sp;
	return 0;
}

void fill_spec_text(const struct fill_spec *s, char *buf, size_t len)
{
	const char *name = (unsigned)s->mode < 4 ? mode_names[s->mode] : "?";

	if (s->mode == FILL_COMPRESS || s->mode == FILL_DEDUPE)
		snprintf(buf, len, "%s:%u", name, s->pct);
	else
		snprintf(buf, len, "%s", name);
}
