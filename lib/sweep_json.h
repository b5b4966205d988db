/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sweep_json: reading a clyde-sweep JSON document (doc/clyde-json.5,
 * "program": "clyde-sweep") back into the sweep_result it was written
 * from.
 */
#ifndef CLYDE_SWEEP_JSON_H
#define CLYDE_SWEEP_JSON_H

#include <stddef.h>

#include "sweep_result.h"

/*
 * buf (len bytes) into *r (zeroed first; nothing allocated), every value
 * read checked against doc/clyde-json.5. 0, or -1 with one line in why
 * naming the key and value at fault ("stages[0].cells[3].op \"x\" is
 * not one of write, read").
 */
int sweep_json_read(const char *buf, size_t len, struct sweep_result *r,
		    char *why, size_t whylen);

#endif
