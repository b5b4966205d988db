/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_workload: what its three files share. */
#ifndef CLYDE_T_CHECK_WORKLOAD_H
#define CLYDE_T_CHECK_WORKLOAD_H

#include <check.h>
#include <stddef.h>

#include "workload.h"

/* The draws a share or a fit is measured over. */
#define CW_DRAWS 1000000u

/* One of the wl_parse_* functions. */
typedef int (*cw_parse_fn)(struct wl_spec *w, const char *s, char *why,
			   size_t whylen);

/* s given to parse, which must take it (check_workload.c). */
void cw_ok(cw_parse_fn parse, struct wl_spec *w, const char *s);

/* The draws' tests: shares, zones and arrivals (check_workload_draws.c);
 * the ranks' fit to their distribution and their placement
 * (check_workload_fit.c). */
void workload_draws_tcase(Suite *s);
void workload_fit_tcase(Suite *s);

#endif
