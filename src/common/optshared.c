/* SPDX-License-Identifier: GPL-2.0-or-later */
/* optshared: see optshared.h. */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "optshared.h"
#include "privs.h"
#include "text.h"
#include "units.h"

/* The int at the entry's .seen: whether it was given before this one. */
static int given_before(const struct opt_ctx *c)
{
	return *(const int *)((const char *)c->base + c->opt->seen);
}

int opt_take_json(struct opt_ctx *c, const char *arg)
{
	const char **path = opt_field(c);
	int out = !arg || !strcmp(arg, "-");

	if (arg && !*arg)
		return opt_refuse(c, "empty name");
	if (given_before(c) &&
	    (out ? *path != NULL : !*path || strcmp(*path, arg)))
		return opt_twice_as(c, out ? "-" : arg, *path ? *path : "-");
	*path = out ? NULL : arg;
	return 0;
}

/* privs_parse_*'s why, which quotes the part it could not take, after
 * the option's name. */
static int bad_privs(const struct opt_ctx *c, const char *why)
{
	char shown[1024];

	return opt_error(c, "%s %s", c->name,
			 text_shown(why, shown, sizeof(shown)));
}

/* -g 'group' with -u 'user:other': either order, one line. */
static int two_groups(const struct opt_ctx *c, const char *group,
		      const char *user)
{
	char a[1024], b[1024];

	return opt_error(c, "-g '%s' with -u '%s': two different groups",
			 text_shown(group, a, sizeof(a)),
			 text_shown(user, b, sizeof(b)));
}

int opt_take_user(struct opt_ctx *c, const char *arg)
{
	struct privs *p = opt_field(c), next = *p;
	char why[300];

	if (p->user && strcmp(p->user, arg))
		return opt_twice(c, p->user);
	if (privs_parse_user(arg, &next, why, sizeof(why)))
		return bad_privs(c, why);
	/* With a -g before it, p->gid is -g's group. */
	if (p->group && strchr(arg, ':') && next.gid != p->gid)
		return two_groups(c, p->group, arg);
	next.user = arg;
	*p = next;
	return 0;
}

int opt_take_group(struct opt_ctx *c, const char *arg)
{
	struct privs *p = opt_field(c), next = *p;
	char why[300];

	if (p->group && strcmp(p->group, arg))
		return opt_twice(c, p->group);
	if (privs_parse_group(arg, &next, why, sizeof(why)))
		return bad_privs(c, why);
	/* With a -u user:group before it, p->gid is that group. */
	if (p->user && strchr(p->user, ':') && next.gid != p->gid)
		return two_groups(c, arg, p->user);
	next.group = arg;
	*p = next;
	return 0;
}

int opt_take_seed(struct opt_ctx *c, const char *arg)
{
	uint64_t *seed = opt_field(c), v;
	char why[96], first[24];

	if (units_parse_uint(arg, UINT64_MAX, &v, why, sizeof(why)))
		return opt_refuse(c, why);
	if (given_before(c) && v != *seed) {
		snprintf(first, sizeof(first), "%" PRIu64, *seed);
		return opt_twice(c, first);
	}
	*seed = v;
	return 0;
}

int opt_check_plot(const struct opt_ctx *c, const char *plot,
		   const char *script, enum plot_format *fmt)
{
	char why[512];

	if (script && !plot)
		return opt_bad(c, "--plot-script", script,
			       "goes with --plot (the script draws its chart)");
	if (plot && plot_prepare(plot, fmt, why, sizeof(why)))
		return opt_error(c, "%s", why);
	return 0;
}
