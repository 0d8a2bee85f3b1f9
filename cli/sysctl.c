// SPDX-License-Identifier: MIT
/*
 * sysctl.c - guarded reads and writes of the watermark sysctls' files
 * under <root>/proc/sys/vm.  Their text (the allowlist, key and value
 * syntax, ranges per kernel profile, sysctl.d lines) is calc/sysctl_text.c.
 *
 * The kernel side (kernel-notes.md section 5): every knob here is a
 * proc_dointvec_minmax table entry.  Such a handler parses the whole value
 * from one write at offset 0 (with sysctl_writes_strict, the default since
 * 4.5, a write at another offset is ignored), takes blanks - space, tab,
 * newline - between list entries, and rejects an out-of-range value with
 * EINVAL, keeping the old one.  So a write either takes effect whole or
 * not at all, which is what lets apply promise all-or-nothing per knob.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysctl.h"

int sc_path(const char *root, enum wm_knob k, char *out, size_t n)
{
	char rroot[PATH_MAX], want[PATH_MAX], got[PATH_MAX];
	struct stat st;
	int r;

	if ((unsigned)k >= WM_NKNOBS)
		return -EINVAL;
	if (!realpath(root, rroot))
		return -errno;
	r = snprintf(want, sizeof(want), "%s/proc/sys/vm/%s",
		     strcmp(rroot, "/") == 0 ? "" : rroot, wm_knob_name(k));
	if (r < 0 || (size_t)r >= sizeof(want) || (size_t)r >= n)
		return -ENAMETOOLONG;
	/* A dangling link has no realpath; it is still a link out. */
	if (lstat(want, &st) == 0 && S_ISLNK(st.st_mode))
		return -EXDEV;
	if (!realpath(want, got))
		return -errno;
	if (strcmp(got, want) != 0)
		return -EXDEV;
	memcpy(out, want, (size_t)r + 1);
	return 0;
}

/*
 * Test aid, read here and nowhere else.  WMARK_FAULT="KIND:N[,KIND:N]"
 * injects failures so tests/sh/apply.sh can show that apply and
 * rollback leave either the old values or the new ones:
 *   write:N     the Nth sc_write fails with EIO and leaves the file alone
 *   readback:N  the Nth sc_read_back returns a different value
 *   crash:N     SIGKILL at the Nth step boundary (sc_fault_step)
 *   stop:N      SIGSTOP at the Nth step, so the test can kill -9 it
 * Steps are counted over the process: each journal rename and each
 * sysctl write (restores included) is one.
 */
enum { F_WRITE, F_READBACK, F_CRASH, F_STOP, F_NKINDS };

static long fault_at(int kind)
{
	static const char *const kinds[F_NKINDS] = {
		"write:", "readback:", "crash:", "stop:"
	};
	const char *s = getenv("WMARK_FAULT"), *p;
	size_t l = strlen(kinds[kind]);

	for (p = s; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, kinds[kind], l) == 0)
			return strtol(p + l, NULL, 10);
	return 0;
}

static bool fault_hits(int kind)
{
	static long count[F_NKINDS];
	long at = fault_at(kind);

	return ++count[kind] == at && at > 0;
}

void sc_fault_step(void)
{
	/* Both counters advance at every step, so crash:N and stop:N agree. */
	bool crash = fault_hits(F_CRASH), stop = fault_hits(F_STOP);

	if (crash)
		raise(SIGKILL);
	if (stop)
		raise(SIGSTOP);
}

int sc_read(const char *path, char *buf, size_t n)
{
	size_t off = 0;
	struct stat st;
	ssize_t r;
	int fd, e;

	/* O_NONBLOCK: a FIFO in a knob's or the journal's place must not wait */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		e = errno;
	else
		e = S_ISREG(st.st_mode) ? 0 : S_ISDIR(st.st_mode) ? EISDIR : ENXIO;
	if (e) {
		close(fd);
		return -e;
	}
	for (;;) {
		if (off + 1 >= n) {
			close(fd);
			return -EFBIG;
		}
		r = read(fd, buf + off, n - 1 - off);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		off += (size_t)r;
	}
	close(fd);
	buf[off] = '\0';
	return (int)off;
}

int sc_read_back(const char *path, char *buf, size_t n)
{
	int r = sc_read(path, buf, n);

	if (r >= 0 && fault_hits(F_READBACK) && (size_t)r + 2 < n) {
		memmove(buf + 1, buf, (size_t)r + 1);
		buf[0] = '1';
		r++;
	}
	return r;
}

int sc_write(const char *path, const char *text, size_t len)
{
	ssize_t w;
	int fd, e;

	sc_fault_step();
	if (fault_hits(F_WRITE))
		return -EIO;
	/* O_TRUNC matters for plain files under --root; proc ignores it. */
	fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		w = write(fd, text, len);
	while (w < 0 && errno == EINTR);
	if (w < 0) {
		e = errno;
		close(fd);
		return -e;
	}
	if ((size_t)w != len) {
		close(fd);
		return -EIO;
	}
	if (close(fd) != 0)
		return -errno;
	return 0;
}
