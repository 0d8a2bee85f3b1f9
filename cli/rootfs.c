// SPDX-License-Identifier: MIT
/*
 * rootfs.c - read files under a root tree (see rootfs.h): regular files
 * only, never waiting on a FIFO or device, bounded in size, and their
 * errors named by path in one wording.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "rootfs.h"

int root_path(const char *root, const char *rel, char *out, size_t n)
{
	size_t rl = strlen(root);
	int len;

	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (rl == 1 && root[0] == '/')
		rl = 0;
	len = snprintf(out, n, "%.*s/%s", (int)rl, root, rel);
	return len < 0 || (size_t)len >= n ? -1 : 0;
}

bool root_is_live(const char *root)
{
	struct stat r, top;

	/* the same directory as "/" (what realpath() == "/" meant, in two calls) */
	return stat(root, &r) == 0 && stat("/", &top) == 0 && r.st_dev == top.st_dev &&
	       r.st_ino == top.st_ino;
}

/*
 * Open path for reading without waiting for anything: O_NONBLOCK keeps a
 * FIFO's open from waiting for a writer (and makes a procfs file that
 * would wait, such as kmsg, fail with EAGAIN), O_NOCTTY keeps a terminal
 * from becoming ours.  Return the fd of a regular file, with *st, or
 * -errno: -EISDIR for a directory, -ENXIO for any other kind.
 */
int rootfs_open(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (S_ISREG(st->st_mode))
		return fd;
	close(fd);
	return S_ISDIR(st->st_mode) ? -EISDIR : -ENXIO;
}

/*
 * Read fd (a regular file, *st) to its end into a NUL-terminated malloc'd
 * buffer, at most max bytes.  A capture's size is known up front; procfs
 * and sysfs files say 0 or 4096 whatever they hold, so the cap is checked
 * while reading too.  Large reads: every read(2) of zoneinfo walks all
 * zones again.
 */
int rootfs_read_fd(int fd, const struct stat *st, size_t max, char **buf, size_t *len)
{
	size_t cap = 1 << 16, used = 0, room;
	char *b, *nb;
	ssize_t r;
	int err;

	*buf = NULL;
	*len = 0;
	if (st->st_size < 0 || (uint64_t)st->st_size > max)
		return -EFBIG;
	if ((size_t)st->st_size + 4096 > cap)
		cap = (size_t)st->st_size + 4096;
	if (cap > max + 2)
		cap = max + 2;		/* max bytes, one more to see it is past, NUL */
	b = malloc(cap);
	if (!b)
		return -ENOMEM;
	for (;;) {
		if (cap - used < 4096 && cap < max + 2) {
			size_t ncap = cap * 2 < max + 2 ? cap * 2 : max + 2;

			nb = realloc(b, ncap);
			if (!nb) {
				err = -ENOMEM;
				goto fail;
			}
			b = nb;
			cap = ncap;
		}
		room = cap - used - 1;
		if (room == 0)
			break;		/* used is max + 1 */
		r = read(fd, b + used, room);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto fail;
		}
		if (r == 0)
			break;
		used += (size_t)r;
		/*
		 * A captured file read whole in a short read is at its end: no
		 * read(2) more to see 0 (a verify of a fleet reads thousands).
		 * procfs and sysfs sizes are 0 or 4096, never what they hold.
		 */
		if ((size_t)r < room && st->st_size > 0 && used == (size_t)st->st_size &&
		    st->st_size % 4096 != 0)
			break;
	}
	if (used > max) {
		err = -EFBIG;
		goto fail;
	}
	b[used] = 0;
	*buf = b;
	*len = used;
	return 0;
fail:
	free(b);
	return err;
}

int read_path(const char *path, size_t max, char **buf, size_t *len)
{
	struct stat st;
	int fd, err;

	*buf = NULL;
	*len = 0;
	fd = rootfs_open(path, &st);
	if (fd < 0)
		return fd;
	err = rootfs_read_fd(fd, &st, max, buf, len);
	close(fd);
	return err;
}

size_t rootfs_max(const char *rel)
{
	if (strcmp(rel, P_ZONEINFO) == 0 || strcmp(rel, P_PAGETYPEINFO) == 0)
		return READ_MAX_ZONES;
	return READ_MAX;
}

int read_rooted(const char *root, const char *rel, char **buf, size_t *len)
{
	char path[4096];

	*buf = NULL;
	*len = 0;
	if (root_path(root, rel, path, sizeof(path)))
		return -ENAMETOOLONG;
	return read_path(path, rootfs_max(rel), buf, len);
}

/* What a file that is not regular is, for the message (stat follows the
 * symlink that usually put it there). */
static const char *file_kind(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return NULL;
	if (S_ISFIFO(st.st_mode))
		return "a FIFO";
	if (S_ISSOCK(st.st_mode))
		return "a socket";
	if (S_ISCHR(st.st_mode))
		return "a character device";
	if (S_ISBLK(st.st_mode))
		return "a block device";
	return NULL;
}

int read_error(const char *context, const char *path, size_t max, int err)
{
	const char *kind;

	switch (err) {
	case -EISDIR:
		return cli_err(EXIT_SYSTEM, context, "%s: is a directory, not a file", path);
	case -ENXIO:
		kind = file_kind(path);
		if (kind)
			return cli_err(EXIT_SYSTEM, context, "%s: is %s, not a regular file",
				       path, kind);
		break;		/* a regular file now: ENXIO from the device itself */
	case -EFBIG:
		return cli_err(EXIT_USAGE, context, "%s: too large (over %zu MiB)",
			       path, max >> 20);
	}
	return cli_err(EXIT_SYSTEM, context, "%s: %s", path, strerror(-err));
}

