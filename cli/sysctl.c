// SPDX-License-Identifier: MIT
/*
 * sysctl.c - the watermark sysctls: the allowlist, key and value syntax,
 * range checks per kernel profile, and guarded reads and writes of the
 * files under <root>/proc/sys/vm.
 *
 * The kernel side (kernel-notes.md section 5): every knob here is a
 * proc_dointvec_minmax table entry.  Such a handler parses the whole value
 * from one write at offset 0 (with sysctl_writes_strict, the default since
 * 4.5, a write at another offset is ignored), takes blanks - space, tab,
 * newline - between list entries, and rejects an out-of-range value with
 * EINVAL, keeping the old one.  So a write either takes effect whole or
 * not at all, which is what lets apply promise all-or-nothing per knob.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysctl.h"

static const char *const names[SC_NKEYS] = {
	[SC_MFK] = "min_free_kbytes",
	[SC_WSF] = "watermark_scale_factor",
	[SC_BOOST] = "watermark_boost_factor",
	[SC_EXTRA] = "extra_free_kbytes",
	[SC_LRR] = "lowmem_reserve_ratio",
};

const char *sc_key_name(enum sc_key k)
{
	return (unsigned)k < SC_NKEYS ? names[k] : "?";
}

int sc_key_parse(const char *s, enum sc_key *out)
{
	int i;

	/* Only the vm. prefix: the allowlist is what keeps us off other knobs. */
	if (strncmp(s, "vm.", 3) != 0 && strncmp(s, "vm/", 3) != 0)
		return -1;
	for (i = 0; i < SC_NKEYS; i++) {
		if (strcmp(s + 3, names[i]) == 0) {
			*out = (enum sc_key)i;
			return 0;
		}
	}
	return -1;
}

int sc_value_parse(enum sc_key k, const char *text, struct sc_value *out,
		   char *err, size_t errn)
{
	const char *p = text;
	int max = k == SC_LRR ? WM_MAX_ZONES : 1;

	memset(out, 0, sizeof(*out));
	for (;;) {
		char *end;
		long v;

		while (isspace((unsigned char)*p) || (k == SC_LRR && *p == ','))
			p++;
		if (!*p)
			break;
		if (!(isdigit((unsigned char)*p) ||
		      (*p == '-' && isdigit((unsigned char)p[1])))) {
			snprintf(err, errn, "'%s' is not an integer", text);
			return -1;
		}
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno == ERANGE || v > INT_MAX || v < INT_MIN) {
			snprintf(err, errn, "'%s' is too large", text);
			return -1;
		}
		if (*end && !isspace((unsigned char)*end) &&
		    !(k == SC_LRR && *end == ',')) {
			snprintf(err, errn, "'%s' is not an integer", text);
			return -1;
		}
		if (out->n == max) {
			snprintf(err, errn, max == 1 ?
				 "'%s': one integer expected" :
				 "'%s': too many entries", text);
			return -1;
		}
		out->v[out->n++] = v;
		p = end;
	}
	if (out->n == 0) {
		snprintf(err, errn, "empty value");
		return -1;
	}
	return 0;
}

int sc_value_check(enum sc_key k, const struct sc_value *v,
		   const struct wm_profile *p, int want_n, char *err,
		   size_t errn)
{
	long lo = 0, hi = INT_MAX;
	int i;

	if (k == SC_WSF) {
		lo = 1;
		hi = p && p->wsf_max > 0 ? p->wsf_max : 1000;
	}
	/* <= 4.16 (rule A) turns a ratio below 1 into 1 and prints that back. */
	if (k == SC_LRR && p && p->lrr_rule == WM_LRR_A)
		lo = 1;
	if (k == SC_LRR && want_n > 0 && v->n != want_n) {
		snprintf(err, errn, "%s needs %d entries (one per zone type, as the kernel prints it), got %d",
			 names[k], want_n, v->n);
		return -1;
	}
	for (i = 0; i < v->n; i++) {
		if (v->v[i] >= lo && v->v[i] <= hi)
			continue;
		if (k == SC_WSF || lo > 0)
			snprintf(err, errn, "%s %ld is out of range: kernel %u.%u accepts %ld..%ld",
				 names[k], v->v[i], p ? p->kver.major : 0,
				 p ? p->kver.minor : 0, lo, hi);
		else
			snprintf(err, errn, "%s %ld is out of range: it must be %ld or more",
				 names[k], v->v[i], lo);
		return -1;
	}
	return 0;
}

int sc_value_format(const struct sc_value *v, char *buf, size_t n)
{
	size_t off = 0;
	int i, r;

	for (i = 0; i < v->n; i++) {
		r = snprintf(buf + off, n - off, "%s%ld", i ? " " : "", v->v[i]);
		if (r < 0 || (size_t)r >= n - off)
			return -1;
		off += (size_t)r;
	}
	if (off + 2 > n)
		return -1;
	buf[off++] = '\n';
	buf[off] = '\0';
	return (int)off;
}

bool sc_value_equal(const struct sc_value *a, const struct sc_value *b)
{
	int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->v[i] != b->v[i])
			return false;
	return true;
}

int sc_path(const char *root, enum sc_key k, char *out, size_t n)
{
	char rroot[PATH_MAX], want[PATH_MAX], got[PATH_MAX];
	struct stat st;
	int r;

	if ((unsigned)k >= SC_NKEYS)
		return -EINVAL;
	if (!realpath(root, rroot))
		return -errno;
	r = snprintf(want, sizeof(want), "%s/proc/sys/vm/%s",
		     strcmp(rroot, "/") == 0 ? "" : rroot, names[k]);
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
	ssize_t r;
	int fd, e;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
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

static const char *skip_blank(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

static const char *trim_end(const char *start, const char *end)
{
	while (end > start && isspace((unsigned char)end[-1]))
		end--;
	return end;
}

int sc_conf_next(const char *buf, size_t len, size_t *pos, int *line,
		 struct sc_conf_line *out)
{
	const char *end = buf + len;

	while (*pos < len) {
		const char *p = buf + *pos, *eol, *eq, *k, *ke, *v, *ve;
		size_t kl, vl, i;
		char first_sep = 0;

		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		*pos = (size_t)(eol - buf) + (eol < end);
		++*line;
		memset(out, 0, sizeof(*out));
		out->line = *line;
		p = skip_blank(p, eol);
		if (p == eol || *p == '#' || *p == ';' || *p == '\n')
			continue;
		if (*p == '-') {
			out->ignore_failure = true;
			p = skip_blank(p + 1, eol);
		}
		eq = memchr(p, '=', (size_t)(eol - p));
		if (!eq || memchr(p, '\0', (size_t)(eol - p)))
			return -1;	/* no '=', or a NUL byte: not text */
		k = p;
		ke = trim_end(k, eq);
		v = skip_blank(eq + 1, eol);
		ve = trim_end(v, eol);
		kl = (size_t)(ke - k);
		vl = (size_t)(ve - v);
		if (kl == 0 || kl >= sizeof(out->key) || vl >= sizeof(out->value))
			return -1;
		memcpy(out->key, k, kl);
		memcpy(out->value, v, vl);
		/*
		 * systemd-sysctl: if the first separator is '/', the key is a
		 * path and its dots are literal, so swap the two.
		 */
		for (i = 0; i < kl && !first_sep; i++)
			if (out->key[i] == '.' || out->key[i] == '/')
				first_sep = out->key[i];
		for (i = 0; first_sep == '/' && i < kl; i++) {
			if (out->key[i] == '/')
				out->key[i] = '.';
			else if (out->key[i] == '.')
				out->key[i] = '/';
		}
		return 1;
	}
	return 0;
}
