/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * curvechart: the gnuplot script of clyde-curve's chart, for its --plot
 * and for clyde-report plot of curve documents: one statistic of the
 * response time against the achieved IOPS, a line with points per
 * result, the target as a dashed line and each knee as a diamond on it;
 * linear axes from 0, the y axis up to five times the target (log_y: a
 * log scale). The figures go inline as datablocks, so a saved script
 * draws the same picture again.
 */
#ifndef CLYDE_CURVECHART_H
#define CLYDE_CURVECHART_H

#include <stddef.h>

#include "curve_result.h"
#include "gnuplot.h"

/*
 * The script drawing rs[n] (named by their machines' names) into path
 * as fmt (the format of the name asked for: path may be its temporary
 * file's), titled title (NULL: "latency against load"): the
 * statistic st, target t (t->on 0: none). Malloc'd, *len its bytes;
 * NULL when out of memory.
 */
char *curvechart_script(const struct curve_result *const *rs, size_t n,
			enum curve_stat st, const struct curve_target *t,
			const char *title, int log_y, enum plot_format fmt,
			const char *path, size_t *len);

#endif
