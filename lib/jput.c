/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jput: see jput.h. */
#include "config.h"

#include "jput.h"

void jp_put(json_t *o, const char *key, json_t *v, int *bad)
{
	/* jansson frees v when it cannot take it. */
	if (json_object_set_new(o, key, v) != 0)
		*bad = 1;
}

void jp_append(json_t *a, json_t *v, int *bad)
{
	if (json_array_append_new(a, v) != 0)
		*bad = 1;
}

int jp_made(json_t *const v[], size_t n, int *bad)
{
	size_t i;

	for (i = 0; i < n && v[i]; i++)
		;
	if (i == n)
		return 0;
	for (i = 0; i < n; i++)
		json_decref(v[i]);
	*bad = 1;
	return -1;
}

json_t *jp_done(json_t *v, int bad)
{
	if (!bad)
		return v;
	json_decref(v);
	return NULL;
}
