/* SPDX-License-Identifier: MIT */
/*
 * beneath.h - open a file for writing strictly inside a base directory:
 * every write wmark makes under a cgroup or a --root goes through here.
 * No component below the base may be a symbolic link or "..", and the
 * file must be a regular file (procfs, sysfs and cgroupfs files are): a
 * FIFO, socket or device in its place is refused without waiting on it.
 */
#ifndef WMARK_BENEATH_H
#define WMARK_BENEATH_H

/*
 * Open base/rel with flags (O_WRONLY or O_RDWR, optionally O_CREAT,
 * O_EXCL, O_TRUNC; mode for O_CREAT), walking rel one component at a
 * time with O_NOFOLLOW from base (which is trusted, links and all), so
 * that the file opened is the one the path names, inside base.  With
 * fdp NULL only check (the same walk, the file is not opened).  The open
 * does not wait on a FIFO; it may wait on a lease another process holds
 * (EINTR if a signal interrupts it).  Return 0 with *fdp an open,
 * blocking, close-on-exec descriptor; -EXDEV for a symbolic link or ".."
 * on the way (or a rel that is absolute or empty); -ENXIO for a FIFO,
 * socket or device; -EISDIR, -ENOTDIR, -ENOENT, or another -errno.
 */
int bn_open(const char *base, const char *rel, int flags, unsigned mode, int *fdp);

/* The words for bn_open()'s -EXDEV and -ENXIO, else strerror(-err). */
const char *bn_strerror(int err);

#endif /* WMARK_BENEATH_H */
