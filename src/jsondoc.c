/*
 * jsondoc: see jsondoc.h. The filesystem and device under the target come
 * from /proc/self/mountinfo (the longest mount point holding the target),
 * which names them as the system does: "ext4", "/dev/sdb1".
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "fill.h"
#include "json.h"
#include "jsondoc.h"
#include "mounts.h"
#include "units.h"

/* The mount holding dir, from /proc/self/mountinfo: 0, or -1. */
static int find_mount(const char *dir, struct mounts_entry *m)
{
	char path[PATH_MAX];
	FILE *f;
	int found;

	if (!realpath(dir, path))
		return -1;
	f = mounts_open();
	if (!f)
		return -1;
	found = mounts_find_path(f, path, m);
	fclose(f);
	return found ? 0 : -1;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *settings(const struct clyde_opts *o)
{
	json_t *s = json_object(), *files = json_object(), *only;
	char label[32];

	units_fmt_size(label, sizeof(label), o->size);
	json_object_set_new(s, "name", json_string(o->name));
	json_object_set_new(s, "file_size", json_integer((json_int_t)o->size));
	json_object_set_new(s, "file_size_label", json_string(label));
	json_object_set_new(s, "size_chosen", json_boolean(o->size_chosen));
	json_object_set_new(s, "chunk", json_integer((json_int_t)o->chunk));
	json_object_set_new(s, "seeks", json_integer((json_int_t)o->seeks));
	json_object_set_new(s, "seek_procs", json_integer(o->procs));
	json_object_set_new(s, "concurrency",
			    json_integer(RESULT_DEF_CONCURRENCY));
	json_object_set_new(files, "num",
			    json_integer((json_int_t)o->files_num));
	json_object_set_new(files, "count",
			    json_integer((json_int_t)(o->files_num * 1024)));
	json_object_set_new(files, "max_size", json_integer(o->files_max));
	json_object_set_new(files, "min_size",
			    json_integer((json_int_t)o->files_min));
	json_object_set_new(files, "dirs", json_integer(o->files_dirs));
	json_object_set_new(files, "chunk",
			    json_integer((json_int_t)o->files_chunk));
	json_object_set_new(s, "files", files);
	json_object_set_new(s, "direct", json_boolean(o->direct));
	json_object_set_new(s, "sync_each_write", json_boolean(o->sync_each));
	json_object_set_new(s, "cache_method",
			    json_string(o->direct	 ? "direct"
					: o->drop_caches ? "evict+drop_caches"
							 : "evict"));
	json_object_set_new(s, "per_char",
			    json_string(o->fast || o->direct ? "skipped"
					: o->per_char == PER_CHAR_SYSCALL
					    ? "syscall"
					    : "stdio"));
	json_object_set_new(s, "per_char_size",
			    json_integer((json_int_t)o->per_char_size));
	json_object_set_new(s, "repeats", json_integer(o->repeats));
	json_object_set_new(s, "seed_fixed", json_boolean(o->seed_set));
	json_object_set_new(s, "seeds", json_array());
	only = json_array();
	for (int t = 0; t < RT_COUNT; t++)
		if (o->only & (1u << t))
			json_array_append_new(only,
					      json_string(result_test_name(t)));
	json_object_set_new(s, "only",
			    o->only ? only : (json_decref(only), json_null()));
	json_object_set_new(s, "latency_recorded",
			    json_boolean(!o->no_latency));
	json_object_set_new(s, "uid", json_integer(getuid()));
	json_object_set_new(s, "gid", json_integer(getgid()));
	return s;
}

json_t *jsondoc_new(const struct clyde_opts *o, time_t start)
{
	json_t *doc = json_object(), *target = json_object();
	struct utsname un;
	struct mounts_entry m;
	char when[32], host[256] = "", dir[PATH_MAX];
	int have = find_mount(o->dir, &m) == 0;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&start));
	gethostname(host, sizeof(host) - 1);
	json_object_set_new(doc, "schema_version",
			    json_integer(JSON_SCHEMA_VERSION));
	json_object_set_new(doc, "program", json_string("clyde"));
	json_object_set_new(doc, "version", json_string(PACKAGE_VERSION));
	json_object_set_new(doc, "start_time", json_string(when));
	json_object_set_new(doc, "host", json_string(host));
	json_object_set_new(doc, "kernel",
			    uname(&un) == 0 ? json_string(un.release)
					    : json_null());
	json_object_set_new(target, "directory",
			    json_string(realpath(o->dir, dir) ? dir : o->dir));
	json_object_set_new(target, "mount_point",
			    str_or_null(have ? m.point : NULL));
	json_object_set_new(target, "filesystem",
			    str_or_null(have ? m.fstype : NULL));
	json_object_set_new(target, "device",
			    str_or_null(have ? m.source : NULL));
	json_object_set_new(doc, "target", target);
	json_object_set_new(doc, "settings", settings(o));
	json_object_set_new(doc, "runs", json_array());
	return doc;
}

/*
 * How far zlib shrinks the run's data (64 KiB of the fill): near 1.0 means
 * a compressing or deduplicating array cannot flatter the figures.
 */
static json_t *compress_ratio(uint64_t seed)
{
	enum { LEN = 64 * 1024 };
	unsigned char *buf = malloc(LEN);
	double ratio = -1.0;

	if (buf) {
		fill_random(buf, LEN, seed);
		ratio = fill_compress_ratio(buf, LEN);
		free(buf);
	}
	return ratio < 0 ? json_null() : json_real(ratio);
}

void jsondoc_add_run(json_t *doc, const struct run_result *r)
{
	json_t *run = json_run(r);

	json_object_set_new(run, "data_compress_ratio",
			    compress_ratio(r->seed));
	json_array_append_new(json_object_get(doc, "runs"), run);
	json_array_append_new(
	    json_object_get(json_object_get(doc, "settings"), "seeds"),
	    json_integer((json_int_t)r->seed));
}

int jsondoc_write(json_t *doc, unsigned nruns, const double (*rate)[RT_COUNT],
		  const char *path, FILE *err)
{
	int rc;

	json_object_set_new(doc, "summary", json_summary(nruns, rate));
	if (!path || !strcmp(path, "-")) {
		rc = json_dumpf(doc, stdout,
				JSON_INDENT(1) | JSON_REAL_PRECISION(10));
		fputc('\n', stdout);
		fflush(stdout);
	} else {
		rc = json_dump_file(doc, path,
				    JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	}
	if (rc) {
		fprintf(err, "clyde: --json: cannot write '%s': %s\n",
			path ? path : "-", strerror(errno));
		return -1;
	}
	return 0;
}
