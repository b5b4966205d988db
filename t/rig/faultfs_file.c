/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultfs_file: see faultfs_file.h.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "faultfs_file.h"

static struct ff_file *open_files;
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

struct ff_file *ff_file_new(const char *path)
{
	struct ff_file *f = calloc(1, sizeof(*f) + strlen(path) + 1);

	if (f) {
		f->fd = -1;
		strcpy(f->path, path);
		pthread_mutex_lock(&open_lock);
		f->next = open_files;
		if (open_files)
			open_files->prev = f;
		open_files = f;
		pthread_mutex_unlock(&open_lock);
	}
	return f;
}

void ff_file_free(struct ff_file *f)
{
	pthread_mutex_lock(&open_lock);
	if (f->prev)
		f->prev->next = f->next;
	else
		open_files = f->next;
	if (f->next)
		f->next->prev = f->prev;
	pthread_mutex_unlock(&open_lock);
	if (f->dir)
		closedir(f->dir);
	else if (f->fd >= 0)
		close(f->fd);
	ff_ctl_free(&f->ctl);
	free(f);
}

void ff_file_free_all(void)
{
	while (open_files)
		ff_file_free(open_files);
}
