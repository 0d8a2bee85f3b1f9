/* SPDX-License-Identifier: MIT */
/*
 * sysctl.h - the vm sysctls wmark may write, and safe access to them
 * under a root tree.
 *
 * Only the watermark knobs are allowed (an allowlist, never a path from
 * the user).  A knob's file must resolve to exactly
 * <realpath(root)>/proc/sys/vm/<name>: a symlink anywhere on the way
 * (a capture tree whose proc/sys/vm points at the host's /proc) is
 * refused.  Writes check write() and close(); every write is read back.
 * The knobs' names and the syntax of their values are in
 * calc/sysctl_text.h, included here.
 */
#ifndef WMARK_SYSCTL_H
#define WMARK_SYSCTL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "../calc/sysctl_text.h"

/*
 * Resolve knob k under root into out (size n), which becomes
 * "<realpath(root)>/proc/sys/vm/<name>".  Return 0; -ENOENT if the knob
 * (or the root) does not exist; -EXDEV if the file resolves anywhere
 * else (a symlink); -ENAMETOOLONG; or another -errno from realpath.
 */
int sc_path(const char *root, enum wm_knob k, char *out, size_t n);

/*
 * Read a knob file (a path from sc_path) into buf (size n), NUL
 * terminated, exactly as the kernel prints it.  Only a regular file is
 * read, and nothing waits: -EISDIR for a directory, -ENXIO for a FIFO or
 * device, -ELOOP for a symlink.  Return the length or -errno (-EFBIG if it
 * does not fit).
 */
int sc_read(const char *path, char *buf, size_t n);

/*
 * Read a knob back after writing it: sc_read, plus the test hook below.
 */
int sc_read_back(const char *path, char *buf, size_t n);

/*
 * Write text (length len) to a knob file.  A proc sysctl (or any file
 * that is not a regular file outside procfs) gets one write() at offset
 * 0, as the kernel wants it (a proc sysctl ignores writes at a non-zero
 * offset), then close; a short write, a write error or a close error all
 * fail.  A regular file outside procfs (a root tree that is not the
 * running kernel) is replaced atomically (jr_write_atomic, keeping its
 * mode), so a crash leaves its old text or its new one, never an empty
 * file.  Does not create files.  Return 0 or -errno.
 */
int sc_write(const char *path, const char *text, size_t len);

/*
 * May this process write knob file path with sc_write?  Write access to
 * the file, and for a file sc_write replaces, to its directory too.
 * Return 0 or -errno (-EACCES, -EPERM for an immutable file, ...).
 */
int sc_writable(const char *path);

/*
 * Copy text into out (size n, always NUL terminated, cut if it does not
 * fit) with control characters escaped as C writes them ("\\n", "\\t",
 * "\\r", else "\\xHH") and a backslash doubled, so that a value quoted
 * in a message keeps the message on one line.  Return out.
 */
char *sc_escape(const char *text, char *out, size_t n);

/*
 * Test aid: a step boundary that a crash or stop can be injected at
 * (see WMARK_FAULT in sysctl.c).  Called before every sysctl write and
 * by the journal before it renames a new state into place.
 */
void sc_fault_step(void);

#endif /* WMARK_SYSCTL_H */
