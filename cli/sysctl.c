// SPDX-License-Identifier: MIT
/*
 * sysctl.c - guarded reads and writes of the watermark sysctls' files
 * under <root>/proc/sys/vm.  Their text (the allowlist, key and value
 * syntax, ranges per kernel profile, sysctl.d lines) is calc/sysctl_text.c.
 *
 * The kernel side (docs/model.md §5): every knob here is a
 * proc_dointvec_minmax table entry.  Such a handler parses the whole value
 * from one write at offset 0 (with sysctl_writes_strict, the default since
 * 4.5, a write at another offset is ignored), takes blanks - space, tab,
 * newline - between list entries, and rejects an out-of-range value with
 * EINVAL, keeping the old one.  So a write either takes effect whole or
 * not at all, which is what lets apply promise all-or-nothing per knob.
 *
 * A root tree that is not the running kernel (a capture, a test fixture)
 * holds plain files, where open(O_TRUNC) and then write() can be cut
 * between the two by a crash and leave an empty file.  There the same
 * write goes to a temporary file that is renamed over the knob, so a
 * plain file, too, holds its old text or its new one.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>

#include "beneath.h"
#include "journal.h"
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

static int64_t fault_at(int kind)
{
	static const char *const kinds[F_NKINDS] = {
		"write:", "readback:", "crash:", "stop:"
	};
	const char *s = getenv("WMARK_FAULT"), *p;
	size_t l = strlen(kinds[kind]);

	for (p = s; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, kinds[kind], l) == 0)
			return strtoll(p + l, NULL, 10);
	return 0;
}

static bool fault_hits(int kind)
{
	static int64_t count[F_NKINDS];
	int64_t at = fault_at(kind);

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

char *sc_escape(const char *text, char *out, size_t n)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t o = 0;

	if (!n)
		return out;
	for (; *p; p++) {
		char e[5];
		size_t l;

		if (*p == '\n' || *p == '\t' || *p == '\r' || *p == '\\') {
			e[0] = '\\';
			e[1] = *p == '\n' ? 'n' : *p == '\t' ? 't' : *p == '\r' ? 'r' : '\\';
			e[2] = '\0';
		} else if (*p < 0x20 || *p == 0x7f) {
			snprintf(e, sizeof(e), "\\x%02x", *p);
		} else {
			e[0] = (char)*p;
			e[1] = '\0';
		}
		l = strlen(e);
		if (o + l >= n)
			break;
		memcpy(out + o, e, l);
		o += l;
	}
	out[o] = '\0';
	return out;
}

int sc_read(const char *path, char *buf, size_t n)
{
	struct stat st;
	size_t off = 0;
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

/*
 * A regular file outside procfs: a root tree's copy of a knob, written by
 * replacing it (see the top of this file).  Proc files are regular too,
 * but a rename cannot stand in for the kernel's write handler.
 */
static bool plain_file(const char *path, struct stat *st)
{
	struct statfs fs;

	if (lstat(path, st) != 0 || !S_ISREG(st->st_mode))
		return false;
	return statfs(path, &fs) == 0 && fs.f_type != PROC_SUPER_MAGIC;
}

int sc_writable(const char *path)
{
	char dir[PATH_MAX];
	const char *slash;
	struct stat st;

	/* AT_EACCESS: the effective ids decide, as they will for the write. */
	if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0)
		return -errno;
	if (!plain_file(path, &st))
		return 0;
	slash = strrchr(path, '/');
	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return 0;	/* "name": the current directory, as for any file */
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	if (faccessat(AT_FDCWD, dir[0] ? dir : "/", W_OK | X_OK, AT_EACCESS) != 0)
		return -errno;
	return 0;
}

int sc_write(const char *path, const char *text, size_t len)
{
	struct stat st;
	ssize_t w;
	int fd, e;

	sc_fault_step();
	if (fault_hits(F_WRITE))
		return -EIO;
	if (plain_file(path, &st))
		return jr_write_atomic(path, text, len, st.st_mode & 07777, NULL, NULL);
	/*
	 * procfs: one write at offset 0, as the kernel wants it.  path is
	 * sc_path()'s, canonical, so it is walked from / with no link
	 * allowed anywhere (bn_open), and must be a regular file.
	 */
	if (path[0] != '/')
		return -EXDEV;
	e = bn_open("/", path + 1, O_WRONLY, 0, &fd);
	if (e)
		return e;
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
