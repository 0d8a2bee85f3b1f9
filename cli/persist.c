// SPDX-License-Identifier: MIT
/*
 * persist.c - sysctl.d and Android init fragments, and the sysctl.d
 * precedence that decides whether ours wins at boot.
 *
 * The order is the one procps' `sysctl --system` and systemd-sysctl both
 * use: collect *.conf from /etc/sysctl.d, /run/sysctl.d,
 * /usr/local/lib/sysctl.d, /usr/lib/sysctl.d and /lib/sysctl.d; a file
 * name seen in an earlier directory hides the same name in later ones
 * (that is how an admin masks a vendor file, often with a link to
 * /dev/null); apply the survivors sorted by file name, so for one key the
 * last name wins; procps then applies /etc/sysctl.conf, which on Debian
 * systemd also reads through the link /etc/sysctl.d/99-sysctl.conf.
 */
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "persist.h"

static const char *const conf_dirs[] = {
	"/etc/sysctl.d", "/run/sysctl.d", "/usr/local/lib/sysctl.d",
	"/usr/lib/sysctl.d", "/lib/sysctl.d",
};
#define NDIRS (sizeof(conf_dirs) / sizeof(conf_dirs[0]))

struct buf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void put(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (b->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		r = vsnprintf(b->s ? b->s + b->len : NULL,
			      b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (r < 0) {
			b->oom = true;
			return;
		}
		if (b->s && b->len + (size_t)r < b->cap) {
			b->len += (size_t)r;
			return;
		}
		b->cap = (b->len + (size_t)r + 1) * 2;
		char *n = realloc(b->s, b->cap);

		if (!n) {
			b->oom = true;
			return;
		}
		b->s = n;
	}
}

static char *done(struct buf *b)
{
	if (b->oom) {
		free(b->s);
		return NULL;
	}
	return b->s;
}

static void put_header(struct buf *b, const char *header)
{
	const char *p = header, *nl;

	while (p && *p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		put(b, "#%s%.*s\n", nl > p ? " " : "", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
	if (header && *header)
		put(b, "\n");
}

/* "64 64 16 0 0" without the newline sc_value_format adds. */
static void value_text(const struct sc_value *v, char *s, size_t n)
{
	int l = sc_value_format(v, s, n);

	if (l > 0)
		s[l - 1] = '\0';
	else if (n)
		s[0] = '\0';
}

char *ps_sysctl_d_text(const char *header, const struct ps_item *it, int n)
{
	struct buf b = { 0 };
	char v[128];
	int i;

	put(&b, "%s", "");
	put_header(&b, header);
	for (i = 0; i < n; i++) {
		value_text(&it[i].val, v, sizeof(v));
		put(&b, "vm.%s = %s\n", wm_knob_name(it[i].key), v);
	}
	return done(&b);
}

char *ps_initrc_text(const char *header, const struct ps_item *it, int n)
{
	struct buf b = { 0 };
	char v[128];
	int i;

	put(&b, "%s", "");
	put_header(&b, header);
	/*
	 * After boot_completed: vendor init scripts (and, on Android 10+,
	 * extra_free_kbytes.sh) have run by then, so ours is the last word.
	 */
	put(&b, "on property:sys.boot_completed=1\n");
	for (i = 0; i < n; i++) {
		value_text(&it[i].val, v, sizeof(v));
		put(&b, it[i].val.n > 1 ? "    write /proc/sys/vm/%s \"%s\"\n" :
		    "    write /proc/sys/vm/%s %s\n", wm_knob_name(it[i].key), v);
	}
	return done(&b);
}

int ps_target(const char *root, const char *file, char *out, size_t n)
{
	const char *p;
	size_t l;
	int r;

	/* relative to what?  The cwd is no part of the machine at root. */
	if (file[0] != '/')
		return -EINVAL;
	for (p = file; *p; p += l) {
		while (*p == '/')
			p++;
		l = strcspn(p, "/");
		if ((l == 1 && p[0] == '.') || (l == 2 && p[0] == '.' && p[1] == '.'))
			return -EINVAL;
	}
	if (file[strlen(file) - 1] == '/')
		return -EISDIR;
	if (strcmp(root, "/") != 0)
		r = snprintf(out, n, "%s%s", root, file);
	else
		r = snprintf(out, n, "%s", file);
	return r < 0 || (size_t)r >= n ? -ENAMETOOLONG : 0;
}

int ps_inspect(const char *root, const char *target, enum ps_kind *kind,
	       char *buf, size_t n)
{
	char rroot[PATH_MAX], dir[PATH_MAX], real[PATH_MAX];
	struct stat st;
	size_t rl, len = 0;
	ssize_t r;
	char *slash;
	int fd, e;

	*kind = PS_ABSENT;
	if (n)
		buf[0] = '\0';
	if (!realpath(root, rroot))
		return -errno;
	rl = strcmp(rroot, "/") == 0 ? 0 : strlen(rroot);
	if (snprintf(dir, sizeof(dir), "%s", target) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	/* The deepest directory on the way that exists; the rest is created. */
	do {
		slash = strrchr(dir, '/');
		if (!slash)
			return -EINVAL;
		slash[slash == dir] = '\0';
	} while (lstat(dir, &st) != 0 && errno == ENOENT && strcmp(dir, "/") != 0);
	if (!realpath(dir, real))
		return -errno;
	if (rl && (strncmp(real, rroot, rl) != 0 || (real[rl] != '/' && real[rl] != '\0')))
		return -EXDEV;
	if (stat(real, &st) != 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (lstat(target, &st) != 0)
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -ENXIO;
	fd = open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (len + 1 >= n) {
			close(fd);
			return -EFBIG;
		}
		r = read(fd, buf + len, n - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	if (strlen(buf) != len)
		return -EILSEQ;
	*kind = strncmp(buf, PS_MARK, strlen(PS_MARK)) == 0 ? PS_OURS : PS_FOREIGN;
	return 0;
}

struct conf {
	char name[256];		/* base name, the sort key */
	char shown[PATH_MAX];	/* path as the machine names it */
	char path[PATH_MAX];	/* path to read here */
	bool ours;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct conf *)a)->name, ((const struct conf *)b)->name);
}

static bool same_dir(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	if (realpath(a, ra) && realpath(b, rb))
		return strcmp(ra, rb) == 0;
	/* Not there yet (ours will create it): compare the names. */
	return strcmp(a, b) == 0;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *s = NULL;
	size_t cap = 0, r;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (*len + 4096 > cap) {
			char *n = realloc(s, cap = cap * 2 + 8192);

			if (!n)
				break;
			s = n;
		}
		r = fread(s + *len, 1, cap - *len - 1, f);
		*len += r;
	} while (r > 0);
	fclose(f);
	if (s)
		s[*len] = '\0';
	return s;
}

static int add_override(struct ps_report *rep, const struct conf *c,
			const struct sc_conf_line *l, enum wm_knob k)
{
	struct ps_override *o, *n;

	n = realloc(rep->ov, (rep->nov + 1) * sizeof(*rep->ov));
	if (!n)
		return -ENOMEM;
	rep->ov = n;
	o = &rep->ov[rep->nov++];
	snprintf(o->file, sizeof(o->file), "%s", c->shown);
	o->line = l->line;
	o->key = k;
	snprintf(o->value, sizeof(o->value), "%s", l->value);
	return 0;
}

/* Report c's assignments of any of keys. */
static int scan_file(const struct conf *c, const enum wm_knob *keys, int nkeys,
		     struct ps_report *rep)
{
	struct sc_conf_line l;
	size_t len, pos = 0;
	char *text = read_all(c->path, &len);
	int line = 0, r, i;
	enum wm_knob k;

	if (!text)
		return 0;	/* unreadable or empty (/dev/null): sets nothing */
	while ((r = sc_conf_next(text, len, &pos, &line, &l)) != 0) {
		if (r < 0 || sc_key_parse(l.key, &k) != 0)
			continue;
		for (i = 0; i < nkeys; i++)
			if (keys[i] == k && add_override(rep, c, &l, k) < 0) {
				free(text);
				return -ENOMEM;
			}
	}
	free(text);
	return 0;
}

int ps_scan(const char *root, const char *target, const enum wm_knob *keys,
	    int nkeys, struct ps_report *rep)
{
	struct conf *cs = NULL, *n;
	size_t nc = 0, i, j, d;
	const char *tname = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	char tdir[PATH_MAX], p[PATH_MAX], etc_conf[PATH_MAX], etc_real[PATH_MAX];
	int r = 0, tdir_idx = -1;
	bool after = false;

	memset(rep, 0, sizeof(*rep));
	snprintf(tdir, sizeof(tdir), "%.*s", (int)(tname - target), target);
	while (strlen(tdir) > 1 && tdir[strlen(tdir) - 1] == '/')
		tdir[strlen(tdir) - 1] = '\0';
	if (!tdir[0])
		snprintf(tdir, sizeof(tdir), ".");
	for (d = 0; d < NDIRS; d++) {
		ps_target(root, conf_dirs[d], p, sizeof(p));
		if (tdir_idx < 0 && same_dir(tdir, p))
			tdir_idx = (int)d;
	}
	rep->read_at_boot = tdir_idx >= 0 && strlen(tname) > 5 &&
			    strcmp(tname + strlen(tname) - 5, ".conf") == 0;

	for (d = 0; d < NDIRS; d++) {
		DIR *dir;
		struct dirent *e;

		ps_target(root, conf_dirs[d], p, sizeof(p));
		dir = opendir(p);
		while (dir && (e = readdir(dir))) {
			size_t l = strlen(e->d_name);
			bool ours = (int)d == tdir_idx && strcmp(e->d_name, tname) == 0;

			if (e->d_name[0] == '.' || l <= 5 || l >= sizeof(cs->name) ||
			    strcmp(e->d_name + l - 5, ".conf") != 0)
				continue;
			for (j = 0; j < nc; j++)
				if (strcmp(cs[j].name, e->d_name) == 0)
					break;
			if (j < nc) {
				continue;	/* masked by an earlier directory */
			}
			n = realloc(cs, (nc + 1) * sizeof(*cs));
			if (!n) {
				r = -ENOMEM;
				closedir(dir);
				goto out;
			}
			cs = n;
			memset(&cs[nc], 0, sizeof(cs[nc]));
			snprintf(cs[nc].name, sizeof(cs[nc].name), "%s", e->d_name);
			snprintf(cs[nc].shown, sizeof(cs[nc].shown), "%s/%s", conf_dirs[d], e->d_name);
			if (snprintf(cs[nc].path, sizeof(cs[nc].path), "%s/%s", p,
				     e->d_name) >= (int)sizeof(cs[nc].path))
				continue;	/* cannot be read: cannot matter */
			cs[nc].ours = ours;
			nc++;
		}
		if (dir)
			closedir(dir);
		/* Ours may not exist yet: it joins where its directory is. */
		if ((int)d == tdir_idx && rep->read_at_boot) {
			for (j = 0; j < nc; j++)
				if (strcmp(cs[j].name, tname) == 0)
					break;
			if (j < nc && !cs[j].ours) {
				snprintf(rep->masked_by, sizeof(rep->masked_by), "%s", cs[j].shown);
			} else if (j == nc) {
				n = realloc(cs, (nc + 1) * sizeof(*cs));
				if (!n) {
					r = -ENOMEM;
					goto out;
				}
				cs = n;
				memset(&cs[nc], 0, sizeof(cs[nc]));
				snprintf(cs[nc].name, sizeof(cs[nc].name), "%s", tname);
				snprintf(cs[nc].shown, sizeof(cs[nc].shown), "%s/%s", conf_dirs[d], tname);
				cs[nc].ours = true;
				nc++;
			}
		}
	}
	if (nc)
		qsort(cs, nc, sizeof(*cs), by_name);

	/* Not in a read directory: everything that sets our keys wins. */
	after = !rep->read_at_boot || rep->masked_by[0];
	ps_target(root, "/etc/sysctl.conf", etc_conf, sizeof(etc_conf));
	if (!realpath(etc_conf, etc_real))
		etc_real[0] = '\0';
	for (i = 0; i < nc && r == 0; i++) {
		char real[PATH_MAX];

		if (cs[i].ours) {
			after = true;
			continue;
		}
		/* Debian's 99-sysctl.conf is /etc/sysctl.conf: count it once. */
		if (etc_real[0] && realpath(cs[i].path, real) && strcmp(real, etc_real) == 0)
			continue;
		if (after)
			r = scan_file(&cs[i], keys, nkeys, rep);
	}
	if (r == 0 && etc_real[0]) {
		struct conf c = { .shown = "/etc/sysctl.conf" };

		snprintf(c.path, sizeof(c.path), "%s", etc_conf);
		r = scan_file(&c, keys, nkeys, rep);
	}
out:
	free(cs);
	if (r < 0)
		ps_report_free(rep);
	return r;
}

void ps_report_free(struct ps_report *rep)
{
	free(rep->ov);
	rep->ov = NULL;
	rep->nov = 0;
}
