// SPDX-License-Identifier: MIT
/*
 * beneath.c - bn_open(): a write that cannot leave its base directory.
 *
 * A path checked with stat() and then opened can change between the two,
 * and open(O_NOFOLLOW) checks the last component only: a symbolic link
 * for memory.reclaim, or for the cgroup directory above it, would send
 * the write to whatever file it points at.  So the walk opens each
 * directory itself, relative to the one before, without following links,
 * and the last open is relative to the last directory.  openat2()'s
 * RESOLVE_BENEATH (5.6+) would do the same in one call; this works on
 * every kernel wmark runs on.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "beneath.h"

/* -errno for a component that must be a directory and is not one. */
static int not_dir(const struct stat *st)
{
	return S_ISLNK(st->st_mode) ? -EXDEV : -ENOTDIR;
}

/* Regular file, or the error for what is there instead. */
static int kind_error(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return 0;
	if (S_ISLNK(st->st_mode))
		return -EXDEV;
	if (S_ISDIR(st->st_mode))
		return -EISDIR;
	return -ENXIO;
}

int bn_open(const char *base, const char *rel, int flags, unsigned mode, int *fdp)
{
	char buf[PATH_MAX], *p, *slash;
	struct stat st;
	int dfd, nfd, fd, err = 0, fl;

	if (fdp)
		*fdp = -1;
	if (!rel[0] || rel[0] == '/')
		return -EXDEV;
	if (snprintf(buf, sizeof(buf), "%s", rel) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	dfd = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	for (p = buf; (slash = strchr(p, '/')); p = slash + 1) {
		*slash = '\0';
		if (!*p || strcmp(p, ".") == 0)
			continue;
		if (strcmp(p, "..") == 0) {
			err = -EXDEV;
			goto out;
		}
		/* O_PATH | O_NOFOLLOW opens a link as itself: fstat tells */
		nfd = openat(dfd, p, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0) {
			err = -errno;
			goto out;
		}
		close(dfd);
		dfd = nfd;
		if (fstat(dfd, &st)) {
			err = -errno;
			goto out;
		}
		if (!S_ISDIR(st.st_mode)) {
			err = not_dir(&st);
			goto out;
		}
	}
	if (!*p || strcmp(p, ".") == 0 || strcmp(p, "..") == 0) {
		err = strcmp(p, "..") == 0 ? -EXDEV : -EISDIR;
		goto out;
	}
	/* look before opening: a device's open may act, a FIFO's may wait */
	if (fstatat(dfd, p, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if ((err = kind_error(&st)))
			goto out;
	} else if (errno != ENOENT || !(flags & O_CREAT)) {
		err = -errno;
		goto out;
	}
	if (!fdp)
		goto out;
	fl = flags | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC;
	/* O_NONBLOCK: a FIFO swapped in after the look cannot make it wait */
	fd = openat(dfd, p, fl | O_NONBLOCK, mode);
	if (fd < 0 && errno == EWOULDBLOCK)
		fd = openat(dfd, p, fl, mode);	/* a lease: wait, interruptibly */
	if (fd < 0) {
		err = errno == ELOOP ? -EXDEV : -errno;
		goto out;
	}
	if (fstat(fd, &st) || (err = kind_error(&st))) {
		err = err ? err : -errno;
		close(fd);
		goto out;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && (fl & O_NONBLOCK))
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	*fdp = fd;
out:
	close(dfd);
	return err;
}

const char *bn_strerror(int err)
{
	if (err == -EXDEV)
		return "a symbolic link or '..' on the way: refusing to write outside the tree";
	if (err == -ENXIO)
		return "not a regular file (a FIFO, socket or device): refusing";
	if (err == -EISDIR)
		return "is a directory, not a file";
	return strerror(-err);
}
