/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zcav_json: reading a clyde-zcav JSON document (doc/clyde-json.5,
 * "program": "clyde-zcav") back into the result it was written from.
 */
#ifndef CLYDE_ZCAV_JSON_H
#define CLYDE_ZCAV_JSON_H

#include <stddef.h>

#include "zcav_result.h"

/*
 * buf (len bytes) into *r, every value read checked against
 * doc/clyde-json.5. 0, or -1 with one line in why naming the key and
 * value at fault ("targets[0].blocks[2].bytes 0 is not ..."), r empty.
 * zcav_result_free() frees r.
 */
int zcav_json_read(const char *buf, size_t len, struct zcav_result *r,
		   char *why, size_t whylen);

#endif
