/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal: the writer (see journal.h).
 *
 * Records go into the file through a MAP_SHARED mapping rather than by
 * write(): a record is then a few stores, no system call, so a journal
 * costs the I/O it records next to nothing (a write() a record would be
 * one more system call for every I/O measured), and the stores are in
 * the page cache the moment they are made, so a writer that is
 * SIGKILLed loses none of them. Durability across a power cut is the
 * caller's choice, through jrnl_flush.
 */
#include "config.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "fill.h"
#include "journal.h"

/*
 * The file grows by this much at a time: 32768 records between system
 * calls, and no more than 1 MiB of zeros past the end of a killed
 * writer's journal.
 */
#define JRNL_CHUNK (1u << 20)

struct jrnl {
	int fd;
	unsigned char *map;
	size_t cap;	   /* bytes mapped, the file's size */
	size_t end;	   /* header and records written */
	size_t synced;	   /* end at the last waited flush */
	size_t page;	   /* msync takes page-aligned addresses */
	uint64_t n;	   /* records written */
	uint32_t last_gen; /* the highest gen recorded */
	uint64_t file_size;
	/* On tmpfs or ramfs: the page cache is the journal's storage, and
	 * a flush has nothing to make durable (a cut loses it all, a kill
	 * none): jrnl_flush returns at once, and a record costs its stores
	 * alone. */
	int in_memory;
};

static void put_le32(unsigned char *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static void put_le64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

void jrnl_rec_pack(unsigned char *out, char type, uint32_t gen, uint64_t off,
		   uint64_t len, uint32_t index)
{
	memset(out, 0, JRNL_REC);
	out[0] = (unsigned char)type;
	put_le32(out + 4, gen);
	put_le64(out + 8, off);
	put_le64(out + 16, len);
	put_le32(out + 24, index);
	put_le32(out + 28, fill_crc32(0, out, 28));
}

void jrnl_head_name(struct jrnl_head *h, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strnlen(base, JRNL_NAME);
	memcpy(h->name, base, n);
	h->name[n] = '\0';
}

static void head_pack(unsigned char *out, const struct jrnl_head *h)
{
	memset(out, 0, JRNL_HEAD);
	memcpy(out, JRNL_MAGIC, 8);
	put_le32(out + 8, JRNL_HEAD);
	put_le32(out + 12, JRNL_BLOCK);
	put_le64(out + 16, h->run_seed);
	put_le64(out + 24, h->content_seed);
	put_le64(out + 32, h->file_size);
	put_le64(out + 40, h->created_ns);
	memcpy(out + 48, h->name, strnlen(h->name, JRNL_NAME));
	put_le32(out + 60, fill_crc32(0, out, 60));
}

/*
 * Give the file CHUNK more bytes, zeros. fallocate rather than
 * ftruncate alone: a store into a hole of a full filesystem is a
 * SIGBUS, while a failed fallocate is an error returned; ftruncate only
 * where the filesystem cannot allocate ahead.
 */
static int extend(int fd, size_t from)
{
	if (!fallocate(fd, 0, (off_t)from, JRNL_CHUNK))
		return 0;
	if (errno != EOPNOTSUPP && errno != ENOSYS)
		return -errno;
	return ftruncate(fd, (off_t)(from + JRNL_CHUNK)) ? -errno : 0;
}

/* The next chunk, mapped (the pages already mapped keep their stores). */
static int grow(struct jrnl *j)
{
	size_t cap = j->cap + JRNL_CHUNK;
	void *p;
	int e = extend(j->fd, j->cap);

	if (e)
		return e;
	if (j->map)
		p = mremap(j->map, j->cap, cap, MREMAP_MAYMOVE);
	else
		p = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_SHARED, j->fd,
			 0);
	if (p == MAP_FAILED)
		return -errno;
#ifdef MADV_POPULATE_WRITE
	/* The chunk's pages mapped now, in one call: else the first store
	 * to each of them is a fault inside the timed loop (3% of ran_write
	 * -b on tmpfs). A kernel before 5.14 refuses it: faults, then. */
	madvise((char *)p + j->cap, JRNL_CHUNK, MADV_POPULATE_WRITE);
#endif
	j->map = p;
	j->cap = cap;
	return 0;
}

/*
 * One record. Built aside and copied in at once, so that a writer
 * killed half-way leaves a partial record only for the one copy's
 * stores, not for the packing's.
 */
static int put(struct jrnl *j, char type, uint32_t gen, uint64_t off,
	       uint64_t len)
{
	unsigned char r[JRNL_REC];
	int e;

	if (j->end + JRNL_REC > j->cap && (e = grow(j)))
		return e;
	jrnl_rec_pack(r, type, gen, off, len, (uint32_t)j->n);
	memcpy(j->map + j->end, r, JRNL_REC);
	j->end += JRNL_REC;
	j->n++;
	if (gen > j->last_gen)
		j->last_gen = gen;
	return 0;
}

/* A write's range: not empty, inside the data file. */
static int write_ok(const struct jrnl *j, uint32_t gen, uint64_t off,
		    uint64_t len)
{
	return gen && len && off < j->file_size && len <= j->file_size - off;
}

int jrnl_intent(struct jrnl *j, uint32_t gen, uint64_t off, uint64_t len)
{
	if (!write_ok(j, gen, off, len))
		return -EINVAL;
	return put(j, JR_INTENT, gen, off, len);
}

int jrnl_ack(struct jrnl *j, uint32_t gen, uint64_t off, uint64_t len)
{
	if (!write_ok(j, gen, off, len))
		return -EINVAL;
	return put(j, JR_ACK, gen, off, len);
}

int jrnl_sync_through(struct jrnl *j, uint32_t gen)
{
	return gen ? put(j, JR_SYNC, gen, 0, 0) : -EINVAL;
}

/*
 * Only a waited flush moves synced: under MS_ASYNC nothing is durable
 * yet, and a waited flush after it must still cover those records.
 */
int jrnl_flush(struct jrnl *j, int wait)
{
	size_t from = j->synced / j->page * j->page;

	if (j->end == j->synced || j->in_memory)
		return 0;
	if (msync(j->map + from, j->end - from, wait ? MS_SYNC : MS_ASYNC))
		return -errno;
	if (wait)
		j->synced = j->end;
	return 0;
}

/* fsync the directory holding path, so that the new name survives a
 * power cut as the file's contents do. */
static int sync_dir(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;
	int fd, e = 0;

	if (n >= sizeof(dir))
		return -ENAMETOOLONG;
	if (slash && n == 0)
		n = 1; /* "/name": the root */
	memcpy(dir, slash ? path : ".", slash ? n : 1);
	dir[slash ? n : 1] = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd))
		e = -errno;
	close(fd);
	return e;
}

/* Remove the file jrnl_create made, if path is still it. */
static void unmake(const char *path, int fd)
{
	struct stat a, b;

	if (!fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		unlink(path);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The header into the first chunk, durable with the name. */
static int start(struct jrnl *j, const char *path, const struct jrnl_head *h)
{
	struct jrnl_head hh = *h;
	int e;

	if (!hh.created_ns)
		hh.created_ns = now_ns();
	if ((e = grow(j)))
		return e;
	head_pack(j->map, &hh);
	j->end = JRNL_HEAD;
	if ((e = jrnl_flush(j, 1)))
		return e;
	return sync_dir(path);
}

struct jrnl *jrnl_create(const char *path, const struct jrnl_head *h, char *why,
			 size_t whylen)
{
	struct jrnl *j = calloc(1, sizeof(*j));
	long page = sysconf(_SC_PAGESIZE);
	struct statfs fs;
	int e;

	if (!j) {
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return NULL;
	}
	j->page = page > 0 ? (size_t)page : 4096;
	j->file_size = h->file_size;
	j->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (j->fd < 0) {
		e = errno;
		snprintf(why, whylen, "%s",
			 e == EEXIST ? "exists; a journal is never overwritten"
				     : strerror(e));
		free(j);
		return NULL;
	}
	if (fstatfs(j->fd, &fs) == 0)
		j->in_memory =
		    fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC;
	if ((e = start(j, path, h))) {
		snprintf(why, whylen, "%s", strerror(-e));
		if (j->map)
			munmap(j->map, j->cap);
		unmake(path, j->fd);
		close(j->fd);
		free(j);
		return NULL;
	}
	return j;
}

/* Keep the first error of several steps. */
static void first(int *e, int r)
{
	if (!*e && r)
		*e = r;
}

int jrnl_close(struct jrnl *j, int clean)
{
	int e = 0;

	if (!j)
		return 0;
	if (clean)
		e = put(j, JR_END, j->last_gen, 0, 0);
	first(&e, jrnl_flush(j, 1));
	if (munmap(j->map, j->cap))
		first(&e, -errno);
	if (clean && ftruncate(j->fd, (off_t)j->end))
		first(&e, -errno);
	if (clean && fsync(j->fd))
		first(&e, -errno);
	if (close(j->fd))
		first(&e, -errno);
	free(j);
	return e;
}
