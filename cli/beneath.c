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
 * every kernel wmark runs on.  The file itself is pinned with O_PATH,
 * checked, and opened again through /proc/self/fd: what is opened is what
 * was checked, and an open that has to wait (a lease another process
 * holds) waits on that file, not on whatever takes its name meanwhile.
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

/*
 * Open the existing file name in directory dfd with flags: the inode is
 * pinned first with O_PATH (which neither waits on a FIFO nor breaks a
 * lease) and checked to be a regular file, then opened again through
 * /proc/self/fd, so the file opened is the file checked.  Without /proc,
 * by name, O_NONBLOCK first (a FIFO swapped in cannot make it wait), then
 * blocking if that said EWOULDBLOCK (a lease).  Return the descriptor or
 * -errno.
 */
static int reopen(int dfd, const char *name, int flags)
{
	char self[64];
	struct stat st;
	int pfd, fd, e, fl = flags | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC;

	pfd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	if (fstat(pfd, &st)) {
		e = -errno;
		close(pfd);
		return e;
	}
	if ((e = kind_error(&st))) {
		close(pfd);
		return e;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	/* O_NOFOLLOW would stop at the magic link itself */
	fd = open(self, (fl & ~(O_NOFOLLOW | O_CREAT | O_EXCL)));
	e = errno;
	close(pfd);
	if (fd >= 0)
		return fd;
	if (e != ENOENT)
		return -e;
	fd = openat(dfd, name, fl | O_NONBLOCK);
	if (fd < 0 && errno == EWOULDBLOCK)
		fd = openat(dfd, name, fl);
	if (fd < 0)
		return errno == ELOOP ? -EXDEV : -errno;
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && (fl & O_NONBLOCK))
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int bn_open(const char *base, const char *rel, int flags, unsigned mode, int *fdp)
{
	char buf[PATH_MAX], *p, *slash;
	struct stat st;
	int dfd, nfd, fd, err = 0;

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
		if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
			err = -EEXIST;
			goto out;
		}
	} else if (errno != ENOENT || !(flags & O_CREAT)) {
		err = -errno;
		goto out;
	} else {
		if (!fdp)
			goto out;
		/* a new file: O_EXCL or not, O_NOFOLLOW keeps a link planted since out */
		fd = openat(dfd, p, flags | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, mode);
		if (fd < 0) {
			err = errno == ELOOP ? -EXDEV : -errno;
			goto out;
		}
		goto check;
	}
	if (!fdp)
		goto out;
	fd = reopen(dfd, p, flags);
	if (fd < 0) {
		err = fd;
		goto out;
	}
check:
	if (fstat(fd, &st) || (err = kind_error(&st))) {
		err = err ? err : -errno;
		close(fd);
		goto out;
	}
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
