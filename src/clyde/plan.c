/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan: see plan.h. A unit is the first phase of the registry with its
 * unit name, and the later ones with that name are its members: they
 * share its run state, kept here in one slot per figure (the first
 * member's).
 */
#include "config.h"

#include <stdalign.h>
#include <stdio.h>
#include <string.h>

#include "jsonput.h"
#include "optable.h"
#include "plan.h"
#include "runner.h"

static alignas(max_align_t) unsigned char state[RT_COUNT][PHASE_STATE_MAX];
/* What plan_autosize did: the units that sized their work, and how. */
static int sized[RT_COUNT];
static char sized_words[RT_COUNT][96];

static const char *unit_name(const struct phase_ops *ph)
{
	return ph->unit ? ph->unit : ph->name;
}

/* The first figure of t's unit (t when it leads it); -1 when t has no
 * phase. */
static int unit_lead(enum result_test t)
{
	const struct phase_ops *ph = runner_phase_of(t), *q;

	if (!ph)
		return -1;
	for (int i = 0; i < (int)t; i++)
		if ((q = runner_phase_of((enum result_test)i)) &&
		    !strcmp(unit_name(q), unit_name(ph)))
			return i;
	return (int)t;
}

void plan_init(struct run_plan *rp, const struct clyde_opts *o)
{
	*rp = (struct run_plan){.opt = o,
				.size = o->size,
				.files_num = o->files_num,
				.seeks = o->seeks};
}

struct phase_plan plan_of(const struct run_plan *rp, enum result_test t)
{
	int lead = unit_lead(t);
	const struct phase_ops *ph =
	    lead < 0 ? NULL : runner_phase_of((enum result_test)lead);

	return (struct phase_plan){
	    .opt = rp->opt,
	    .run = rp,
	    .state = lead < 0 ? NULL : state[lead],
	    .options = ph && ph->options ? ph->options->table->base : NULL};
}

static int runs(const struct run_plan *rp, const struct phase_ops *ph)
{
	const struct clyde_opts *o = rp->opt;
	struct phase_plan p;

	if (runner_skip_reason(rp, ph->flags))
		return 0;
	if (o->only)
		return (o->only & (1u << ph->test)) != 0;
	if (!ph->wanted)
		return 1;
	p = plan_of(rp, ph->test);
	return ph->wanted(&p);
}

int plan_runs(const struct run_plan *rp, enum result_test t)
{
	const struct phase_ops *ph = runner_phase_of(t);

	return ph && runs(rp, ph);
}

int plan_unit_runs(const struct run_plan *rp, enum result_test t)
{
	int lead = unit_lead(t);

	if (lead < 0)
		return 0;
	for (int i = lead; i < RT_COUNT; i++)
		if (unit_lead((enum result_test)i) == lead &&
		    runs(rp, runner_phase_of((enum result_test)i)))
			return 1;
	return 0;
}

int plan_runs_any(const struct run_plan *rp, unsigned flags)
{
	for (int t = 0; t < RT_COUNT; t++) {
		const struct phase_ops *ph =
		    runner_phase_of((enum result_test)t);

		if (ph && (ph->flags & flags) && runs(rp, ph))
			return 1;
	}
	return 0;
}

/* Figure t's phase when it leads its unit, else NULL. */
static const struct phase_ops *lead_of(int t)
{
	const struct phase_ops *ph = runner_phase_of((enum result_test)t);

	return ph && unit_lead((enum result_test)t) == t ? ph : NULL;
}

int plan_prepare(const struct run_plan *rp)
{
	for (int t = 0; t < RT_COUNT; t++) {
		const struct phase_ops *ph = lead_of(t);
		struct phase_plan p;
		int rc;

		if (!ph || !ph->prepare || !plan_unit_runs(rp, t))
			continue;
		p = plan_of(rp, t);
		if ((rc = ph->prepare(&p)) != 0)
			return rc;
	}
	return 0;
}

size_t plan_buf_need(const struct run_plan *rp)
{
	size_t max = 0;

	for (int t = 0; t < RT_COUNT; t++) {
		const struct phase_ops *ph = lead_of(t);
		struct phase_plan p;
		size_t n;

		if (!ph || !ph->buf_need)
			continue;
		p = plan_of(rp, t);
		if ((n = ph->buf_need(&p)) > max)
			max = n;
	}
	return max;
}

void plan_settings(json_t *s, const struct run_plan *rp, const char *after,
		   int *bad)
{
	for (int t = 0; t < RT_COUNT; t++) {
		const struct phase_ops *ph = lead_of(t);
		const char *at;
		struct phase_plan p;

		if (!ph || !ph->settings)
			continue;
		at = ph->settings_after;
		if (after ? !at || strcmp(at, after)
			  : at && json_object_get(s, at))
			continue;
		p = plan_of(rp, t);
		jp_put(s, unit_name(ph), ph->settings(&p, bad), bad);
	}
}

unsigned plan_autosize(const struct run_plan *rp, double target)
{
	unsigned n = 0;

	for (int t = 0; t < RT_COUNT; t++) {
		const struct phase_ops *ph = lead_of(t);
		struct phase_plan p;

		sized[t] = 0;
		sized_words[t][0] = '\0';
		if (!ph || !ph->autosize || !rp->opt->size_chosen ||
		    !plan_unit_runs(rp, t))
			continue;
		p = plan_of(rp, t);
		sized[t] = ph->autosize(&p, target, sized_words[t],
					sizeof(sized_words[t])) != 0;
		n += (unsigned)sized[t];
	}
	return n;
}

size_t plan_sized_words(char *what, size_t len, size_t n)
{
	for (int t = 0; t < RT_COUNT; t++)
		if (sized[t] && n < len)
			n += (size_t)snprintf(what + n, len - n, "%s%s",
					      n ? ", " : "", sized_words[t]);
	return n;
}

void plan_auto(json_t *j, int *bad)
{
	for (int t = 0; t < RT_COUNT; t++) {
		const struct phase_ops *ph = lead_of(t);

		if (ph && ph->autosize)
			jp_put(j, unit_name(ph), json_boolean(sized[t]), bad);
	}
}

void plan_result(const struct run_plan *rp, struct run_result *r, uint64_t seed)
{
	const struct clyde_opts *o = rp->opt;

	result_free(r);
	result_init(r);
	snprintf(r->version, sizeof(r->version), "clyde-%s", PACKAGE_VERSION);
	snprintf(r->name, sizeof(r->name), "%.*s", (int)sizeof(r->name) - 1,
		 o->name);
	r->seed = seed;
	r->concurrency = o->concurrency;
	r->file_size = rp->size;
	r->chunk = o->chunk;
	r->seeks = rp->seeks;
	r->seek_procs = o->procs;
	r->num_files = rp->files_num;
	r->max_size = o->files_max;
	r->min_size = o->files_min;
	r->num_dirs = o->files_dirs;
	/* Left empty at the default, like the other defaults. */
	r->file_chunk =
	    o->files_chunk == OPT_FILES_CHUNK_DEFAULT ? 0 : o->files_chunk;
}
