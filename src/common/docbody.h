/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * docbody: the measurements of the clyde-zcav and clyde-sweep documents
 * (doc/clyde-json.5), built from their results alone. clyde-zcav and
 * clyde-sweep put them after the head and settings of their run;
 * clyde-report puts them after the head and settings of a document it
 * read, so a document it writes again is what the program would have
 * written.
 */
#ifndef CLYDE_DOCBODY_H
#define CLYDE_DOCBODY_H

#include <jansson.h>

#include "sweep_result.h"
#include "zcav_result.h"

/* "targets": every block and pass of each target. */
void docbody_zcav(json_t *doc, const struct zcav_result *r, int *bad);

/* "title", the table's first line, and "stages": every cell that ran. */
void docbody_sweep(json_t *doc, const struct sweep_result *r, int *bad);

#endif
