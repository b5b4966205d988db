/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner_phases: see runner_phases.h.
 *
 * The table of phases is made from the registry of figures: in the order
 * of the figures, each one's phase phase_<key>_ops (none for a figure of
 * group EXT, which another program measures). The registry of phases is
 * built from it once (runner_init): every entry is checked, as fio
 * checks an engine's ops when it loads it, and copied with its absent
 * optional hooks filled in by no-ops, so a pass calls every hook of
 * every phase alike and names none. Phase-private state (ctx->priv) is
 * kept in one slot per release hook: the phases sharing a hook share the
 * slot, and the hook frees it when the pass ends.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fill.h"
#include "phase.h"
#include "plan.h"
#include "runner_phases.h"
#include "text.h"

/* The phases in the registry's order, which is the run order: one for
 * each figure clyde measures. */
#define NPHASES ((size_t)FIG_COUNT)
static const struct phase_ops *const phase_list[NPHASES] = {
#define PHASE_PTR(key, ...) &phase_##key##_ops,
    FIGURES(PHASE_PTR)
#undef PHASE_PTR
};

static struct runner_phase registry[NPHASES];
static void (*slot_release[NPHASES])(struct phase_ctx *);
static unsigned nslots;
static const struct runner_phase *maker; /* PHASE_MAKES_DATA, or NULL */
static int built;

static int no_setup(struct phase_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static void no_hook(struct phase_ctx *ctx)
{
	(void)ctx;
}

const char *runner_check_phase(const struct phase_ops *ph)
{
	const unsigned f = ph->flags;

	if (!ph->name || !*ph->name)
		return "no name";
	if (!ph->title || !*ph->title || !ph->progress || !*ph->progress)
		return "no title or no progress line";
	if (!ph->run)
		return "no run hook";
	if ((unsigned)ph->test >= RT_COUNT)
		return "no figure to fill";
	if (figure_find(result_test_name(ph->test)) != (int)ph->test)
		return "its figure is another program's";
	if (strcmp(ph->name, result_test_name(ph->test)) != 0)
		return "its name is not the key of the figure it fills";
	if (f & ~PHASE_FLAGS_KNOWN)
		return "unknown flags";
	if ((f & (PHASE_READS | PHASE_MAKES_DATA | PHASE_PER_CHAR)) &&
	    !(f & PHASE_DATA))
		return "PHASE_READS, PHASE_MAKES_DATA and PHASE_PER_CHAR need "
		       "PHASE_DATA";
	if ((f & PHASE_DATA) && (f & PHASE_FILES))
		return "both PHASE_DATA and PHASE_FILES";
	if ((f & PHASE_SEEK_COUNT) && !(f & PHASE_DATA))
		return "PHASE_SEEK_COUNT needs PHASE_DATA";
	if ((f & PHASE_FILE_COUNT) && !(f & PHASE_FILES))
		return "PHASE_FILE_COUNT needs PHASE_FILES";
	if (ph->state_size > PHASE_STATE_MAX)
		return "a run state larger than PHASE_STATE_MAX";
	return NULL;
}

/* Why the list as a whole cannot be a registry, or NULL. */
static const char *check_list(const struct phase_ops *const *list, size_t n,
			      size_t i)
{
	const struct phase_ops *ph = list[i];
	int makers = 0, readers = 0;

	for (size_t k = 0; k < n; k++) {
		makers += !!(list[k]->flags & PHASE_MAKES_DATA);
		readers += !!(list[k]->flags & PHASE_READS);
		if (k < i && list[k]->test == ph->test)
			return "a second phase for its figure";
	}
	if ((ph->flags & PHASE_MAKES_DATA) && makers > 1)
		return "a second phase that makes the data file";
	if ((ph->flags & PHASE_READS) && !makers)
		return "it reads the data file and no phase makes it";
	return NULL;
}

int runner_check_phases(const struct phase_ops *const *list, size_t n,
			FILE *err)
{
	char name[256];
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		const char *why = runner_check_phase(list[i]);

		if (!why)
			why = check_list(list, n, i);
		if (!why)
			continue;
		text_escape(list[i]->name ? list[i]->name : "", name,
			    sizeof(name), TEXT_LINE);
		error_on(err, "phase %zu '%s': %s", i + 1, name, why);
		rc = -1;
	}
	return rc;
}

int runner_check_figures(const struct phase_ops *const *list, size_t n,
			 FILE *err)
{
	const enum result_test *at = figure_list;
	size_t nat = FIG_COUNT;
	int rc = 0;

	for (size_t i = 0; i < FIG_COUNT; i++) {
		enum result_test t = figure_list[i];
		size_t k = 0;

		while (k < n && list[k]->test != t)
			k++;
		if (k == n) {
			error_on(err, "figure %s has no phase",
				 result_test_name(t));
			rc = -1;
		}
	}
	if (rc)
		return rc;
	/* Each one there: then each in its figure's place among the
	 * figures clyde measures, as the table made from FIGURES puts
	 * phase_<key>_ops. */
	for (size_t k = 0; k < n && k < nat; k++) {
		if (list[k]->test == at[k])
			continue;
		error_on(err, "figure %s: the phase in its place fills %s",
			 result_test_name(at[k]),
			 result_test_name(list[k]->test));
		rc = -1;
	}
	return rc;
}

const struct phase_ops *runner_phase_of(enum result_test t)
{
	for (size_t i = 0; i < NPHASES; i++)
		if (phase_list[i]->test == t)
			return phase_list[i];
	return NULL;
}

const char *runner_flag_names(unsigned flag, const char *last, char *buf,
			      size_t len)
{
	size_t n = 0, k = 0, at = 0;

	for (size_t i = 0; i < NPHASES; i++)
		n += !!(phase_list[i]->flags & flag);
	buf[0] = '\0';
	for (size_t i = 0; i < NPHASES && at < len; i++) {
		if (!(phase_list[i]->flags & flag))
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       !k	    ? ""
				       : k + 1 == n ? last
						    : ", ",
				       phase_list[i]->name);
		k++;
	}
	return buf;
}

int runner_init(FILE *err)
{
	if (built)
		return 0;
	if (runner_check_phases(phase_list, NPHASES, err) ||
	    runner_check_figures(phase_list, NPHASES, err))
		return -1;
	nslots = 0;
	for (size_t i = 0; i < NPHASES; i++) {
		struct runner_phase *rp = &registry[i];
		struct phase_ops *o = &rp->ops;

		*o = *phase_list[i];
		if (!o->setup)
			o->setup = no_setup;
		if (!o->teardown)
			o->teardown = no_hook;
		if (!o->release)
			o->release = no_hook;
		for (rp->slot = 0; rp->slot < nslots; rp->slot++)
			if (slot_release[rp->slot] == o->release)
				break;
		if (rp->slot == nslots)
			slot_release[nslots++] = o->release;
		if (o->flags & PHASE_MAKES_DATA)
			maker = rp;
	}
	built = 1;
	return 0;
}

/* Why a phase of flags is skipped in rp, or NULL; *note: the line to
 * say when an option given for something else skips it, or NULL. */
static const char *skip_why(const struct run_plan *rp, unsigned flags,
			    const char **note)
{
	const struct clyde_opts *o = rp->opt;

	*note = NULL;
	if ((flags & PHASE_DATA) && rp->size == 0)
		return "-s 0";
	if ((flags & PHASE_FILES) && rp->files_num == 0)
		return "no -n";
	if ((flags & PHASE_PER_CHAR) && o->fast)
		return "-f";
	if ((flags & PHASE_PER_CHAR) && o->direct) {
		*note = "per-char tests skipped under -D (O_DIRECT takes "
			"whole aligned blocks only)";
		return "-D";
	}
	if ((flags & PHASE_FORKED_WRITES) && o->journal) {
		static char forked[256];
		char names[160];

		snprintf(forked, sizeof(forked),
			 "%s skipped under --journal (written from processes "
			 "of their own, which the journal does not follow)",
			 runner_flag_names(PHASE_FORKED_WRITES, " and ", names,
					   sizeof(names)));
		*note = forked;
		return "--journal";
	}
	return NULL;
}

const char *runner_skip_reason(const struct run_plan *rp, unsigned flags)
{
	const char *note;

	return skip_why(rp, flags, &note);
}

const char *runner_skip_note(const struct run_plan *rp)
{
	const struct clyde_opts *o = rp->opt;
	const char *note;

	for (size_t i = 0; i < NPHASES; i++) {
		const struct phase_ops *ph = phase_list[i];

		if (o->only && !(o->only & (1u << ph->test)))
			continue;
		if (skip_why(rp, ph->flags, &note) && note)
			return note;
	}
	return NULL;
}

void runner_room(const struct run_plan *rp, struct runner_room *r)
{
	*r = (struct runner_room){0};
	for (size_t i = 0; i < NPHASES; i++) {
		const struct phase_ops *ph = phase_list[i];
		uint64_t b;

		if (!plan_runs(rp, ph->test))
			continue;
		if (ph->flags & PHASE_FILES)
			r->files = 1;
		else if (!ph->room)
			r->data = 1;
		else {
			struct phase_plan pl = plan_of(rp, ph->test);

			if ((b = ph->room(&pl)) > r->own) {
				r->own = b;
				r->own_by = ph->name;
			}
		}
	}
}

size_t runner_nphases(void)
{
	return NPHASES;
}

const struct runner_phase *runner_phase_at(size_t i)
{
	return &registry[i];
}

const struct runner_phase *runner_maker(void)
{
	return maker;
}

void runner_release(struct phase_ctx *ctx, void *const *priv)
{
	for (unsigned s = 0; s < nslots; s++) {
		ctx->priv = priv[s];
		if (ctx->priv)
			slot_release[s](ctx);
	}
}

struct fill *runner_fill_new(const struct run_plan *rp, uint64_t seed)
{
	const struct clyde_opts *o = rp->opt;
	size_t max = (size_t)o->chunk, need = plan_buf_need(rp);

	/* The largest single write that takes its content from the fill:
	 * a chunk, or what a phase needs (buf_need); a block at least. */
	if (need > max)
		max = need;
	if (max < FILL_BLOCK)
		max = FILL_BLOCK;
	/* Under --journal each header says so (fill.h), so that a check
	 * without the journal refuses the file. */
	return fill_new(&o->data, seed,
			(o->verify ? FILL_VERIFY : 0) |
			    (o->journal ? FILL_JOURNALED : 0),
			max);
}
