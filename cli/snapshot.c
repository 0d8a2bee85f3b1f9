// SPDX-License-Identifier: MIT
/*
 * snapshot.c - read a root tree (the live machine or a capture) into one
 * consistent snapshot, and run the model over it.
 *
 * Two things make this more than reading files.  On some kernels reading
 * lowmem_reserve_ratio recomputes protection, so zoneinfo is read first.
 * And memory can change while we read (hotplug, balloons, the lazily
 * initialised memory of some VMs), so zoneinfo is read again after the
 * sysctls, and everything is read again while the zones' sizes and
 * watermarks moved in between.
 */
#include <inttypes.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../calc/change.h"
#include "../calc/reserve.h"
#include "../calc/procfs.h"
#include "opts.h"
#include "snapshot.h"

#define MAX_REREADS 20

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
static int open_input(const char *path, struct stat *st)
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
static int read_fd(int fd, const struct stat *st, size_t max, char **buf, size_t *len)
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
	fd = open_input(path, &st);
	if (fd < 0)
		return fd;
	err = read_fd(fd, &st, max, buf, len);
	close(fd);
	return err;
}

static size_t rooted_max(const char *rel)
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
	return read_path(path, rooted_max(rel), buf, len);
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

static int io_error(const struct snapshot *s, const char *rel, int err)
{
	char path[4096];

	root_path(s->root, rel, path, sizeof(path));
	return read_error(NULL, path, rooted_max(rel), err);
}

static int parse_error(const struct snapshot *s, const char *rel,
		       const struct wm_diag *d)
{
	char path[4096];

	root_path(s->root, rel, path, sizeof(path));
	if (d->line > 0)
		return cli_err(EXIT_USAGE, NULL, "%s:%d: %s", path, d->line, d->msg);
	return cli_err(EXIT_USAGE, NULL, "%s: %s", path, d->msg);
}

/*
 * An optional file: absent, or not readable by this user (pagetypeinfo is
 * root-only from 5.5), leaves *buf NULL and is EXIT_OK; one that is there
 * but is no input (a FIFO, a directory, too large, a symlink loop) is
 * refused like a required one, naming its path.
 */
static int read_optional(const struct snapshot *s, const char *rel, char **buf, size_t *len)
{
	int err = read_rooted(s->root, rel, buf, len);

	if (err == -ENOENT || err == -EACCES || err == -EPERM)
		return EXIT_OK;
	return err ? io_error(s, rel, err) : EXIT_OK;
}

/* A value the kernel cannot hold: FILE: what is wrong, exit 2. */
static int bad_value(const struct snapshot *s, const char *rel, const struct wm_diag *d)
{
	char path[4096];

	root_path(s->root, rel, path, sizeof(path));
	return cli_err(EXIT_USAGE, NULL, "%s:1: %s", path, d->msg);
}

/*
 * Read an optional one-number sysctl into *out and set its `have` bit; an
 * absent file leaves the bit clear.  The value must be one the running
 * kernel accepts (the one range rule of calc/change.c).
 */
static int read_knob(struct snapshot *s, const char *rel, enum wm_knob k, int64_t *out)
{
	struct wm_diag d = { 0 };
	char *buf;
	size_t len;
	int err = read_rooted(s->root, rel, &buf, &len);

	*out = -1;
	if (err == -ENOENT)
		return EXIT_OK;
	if (err)
		return io_error(s, rel, err);
	err = pf_parse_long(buf, len, out, &d);
	free(buf);
	if (err)
		return parse_error(s, rel, &d);
	/* the file itself says the kernel has the knob: check the value only */
	if (wm_knob_check_range(&s->prof, k, *out, &d))
		return bad_value(s, rel, &d);
	s->sysctl.have |= wm_knob_have(k);
	return EXIT_OK;
}

static int read_sysctls(struct snapshot *s)
{
	struct wm_diag d = { 0 };
	char *buf;
	size_t len;
	int rc, i;

	wm_sysctl_none(&s->sysctl);
	if ((rc = read_knob(s, P_MFK, WM_KNOB_MFK, &s->sysctl.min_free_kbytes)) ||
	    (rc = read_knob(s, P_WSF, WM_KNOB_WSF, &s->sysctl.wsf)) ||
	    (rc = read_knob(s, P_BOOST, WM_KNOB_BOOST, &s->sysctl.boost_factor)) ||
	    (rc = read_knob(s, P_EXTRA, WM_KNOB_EXTRA, &s->sysctl.extra_free_kbytes)))
		return rc;
	rc = read_rooted(s->root, P_LRR, &buf, &len);
	if (rc == -ENOENT)
		return EXIT_OK;
	if (rc)
		return io_error(s, P_LRR, rc);
	rc = pf_parse_long_list(buf, len, s->sysctl.lrr, WM_MAX_ZONES, &s->sysctl.nlrr, &d);
	free(buf);
	if (rc)
		return parse_error(s, P_LRR, &d);
	for (i = 0; i < s->sysctl.nlrr; i++)
		if (wm_knob_check_range(&s->prof, WM_KNOB_LRR, s->sysctl.lrr[i], &d))
			return bad_value(s, P_LRR, &d);
	s->sysctl.have |= WM_HAVE_LRR;
	return EXIT_OK;
}

/* The stable sublevel a Debian release string hides, from proc/version. */
static int debian_sublevel(struct snapshot *s, struct wm_kver *k)
{
	char *buf;
	size_t len;
	int rc;

	if (k->sub != 0)
		return EXIT_OK;
	if ((rc = read_optional(s, P_KVERSION, &buf, &len)) || !buf)
		return rc;
	wm_kver_debian_sublevel(buf, k);
	free(buf);
	return EXIT_OK;
}

static int read_kernel(const struct cli_ctx *ctx, struct snapshot *s)
{
	struct wm_diag d = { 0 };
	struct wm_kver k;
	char *buf;
	size_t len;
	int rc;

	s->osrelease[0] = 0;
	rc = read_rooted(s->root, P_OSRELEASE, &buf, &len);
	if (rc == 0) {
		if (pf_parse_line(buf, len, s->osrelease, sizeof(s->osrelease), &d)) {
			free(buf);
			return parse_error(s, P_OSRELEASE, &d);
		}
		free(buf);
	} else if (rc != -ENOENT) {
		return io_error(s, P_OSRELEASE, rc);
	}
	if (ctx->kernel) {
		if (wm_kver_parse(ctx->kernel, &k, &d))
			return cli_usage(NULL, "--kernel: %s", d.msg);
		s->kernel_known = true;
	} else if (s->osrelease[0]) {
		if (wm_kver_parse(s->osrelease, &k, &d))
			return parse_error(s, P_OSRELEASE, &d);
		if ((rc = debian_sublevel(s, &k)))
			return rc;
		s->kernel_known = true;
	} else {
		wm_profile_default(&s->prof);
		return EXIT_OK;
	}
	wm_profile_for(&k, &s->prof);
	return EXIT_OK;
}

int snapshot_reread_zones(const struct snapshot *s, const char *cmd, struct zi_info *zi)
{
	char *buf = NULL, path[4096];
	struct wm_diag d = { 0 };
	size_t len;
	int rc, e;

	memset(zi, 0, sizeof(*zi));
	root_path(s->root, P_ZONEINFO, path, sizeof(path));
	if ((e = read_rooted(s->root, P_ZONEINFO, &buf, &len)))
		return read_error(cmd, path, READ_MAX_ZONES, e);
	rc = zi_parse(buf, len, zi, &d);
	free(buf);
	if (rc) {
		zi_free(zi);
		return cli_diag(path, rc, &d);
	}
	if (zi->nzones != s->zi.nzones) {
		size_t now = zi->nzones;

		zi_free(zi);
		return cli_err(EXIT_SYSTEM, cmd, "%s: %zu zones now, %zu at the start", path, now,
			       s->zi.nzones);
	}
	return EXIT_OK;
}

int snapshot_thp_sizes(const char *root, struct thp_size *out, int max)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int n = 0;

	if (root_path(root, P_THP_DIR, path, sizeof(path)) || !(d = opendir(path)))
		return 0;
	while ((e = readdir(d)) && n < max) {
		uint64_t kb;
		char k;

		/* hugepages-<N>kB, nothing after */
		if (sscanf(e->d_name, "hugepages-%" SCNu64 "kB%c", &kb, &k) != 1 || !kb)
			continue;
		out[n].kb = kb;
		snprintf(out[n].rel, sizeof(out[n].rel), "%s/%s/enabled", P_THP_DIR, e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

/* One per-size control's word, as enum wm_thp_size. */
static enum wm_thp_size thp_size_word(const char *w)
{
	if (strcmp(w, "always") == 0)
		return WM_THP_SIZE_ALWAYS;
	if (strcmp(w, "madvise") == 0)
		return WM_THP_SIZE_MADVISE;
	if (strcmp(w, "inherit") == 0)
		return WM_THP_SIZE_INHERIT;
	return WM_THP_SIZE_NEVER;
}

static int thp_size_desc(const void *a, const void *b)
{
	uint64_t x = ((const struct thp_size *)a)->kb, y = ((const struct thp_size *)b)->kb;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * The THP mode min_free_kbytes follows: the global control and the
 * per-size anon controls (6.8+), decided by wm_thp_for_mfk().  The
 * largest anon size present is the PMD size (anon mTHP orders stop
 * there): 2 MiB with 4 KiB pages, 32 MiB with 16 KiB.  Only what the
 * kernel's rule looks at is read (wm_thp_sizes_matter).
 */
static int read_thp(struct snapshot *s)
{
	struct wm_thp_controls c = { .global = WM_THP_UNSUPPORTED, .pmd = WM_THP_SIZE_ABSENT };
	struct thp_size sz[32];
	char *buf, word[32];
	size_t len;
	enum wm_thp thp;
	bool have_pmd = false;
	int rc, i, n;

	s->thp = WM_THP_UNSUPPORTED;
	if ((rc = read_optional(s, P_THP, &buf, &len)) || !buf)
		return rc;
	if (pf_parse_thp(buf, len, &thp, NULL) == WM_OK)
		c.global = thp;
	free(buf);
	n = wm_thp_sizes_matter(&s->prof, &c, false) ? snapshot_thp_sizes(s->root, sz, 32) : 0;
	qsort(sz, (size_t)n, sizeof(*sz), thp_size_desc);
	for (i = 0; i < n && wm_thp_sizes_matter(&s->prof, &c, have_pmd); i++) {
		enum wm_thp_size z = WM_THP_SIZE_ABSENT;

		if ((rc = read_optional(s, sz[i].rel, &buf, &len)))
			return rc;
		if (!buf)
			continue;
		if (pf_parse_choice(buf, len, word, sizeof(word), NULL) == WM_OK)
			z = thp_size_word(word);
		free(buf);
		if (z == WM_THP_SIZE_ABSENT)
			continue;
		if (!have_pmd) {
			c.pmd = z;
			have_pmd = true;
		} else if (z == WM_THP_SIZE_ALWAYS || z == WM_THP_SIZE_MADVISE) {
			c.other_on++;
		}
	}
	s->thp = wm_thp_for_mfk(&s->prof, &c);
	return EXIT_OK;
}

/* The fields a recompute changes: sizes, watermarks and protection. */
static bool same_zones(const struct zi_info *a, const struct zi_info *b)
{
	size_t i;

	if (a->nzones != b->nzones)
		return false;
	for (i = 0; i < a->nzones; i++) {
		const struct zi_zone *x = &a->zones[i], *y = &b->zones[i];

		if (x->managed != y->managed || x->present != y->present ||
		    x->min != y->min || x->low != y->low || x->high != y->high ||
		    x->promo != y->promo || x->boost != y->boost ||
		    memcmp(x->protection, y->protection, sizeof(x->protection)))
			return false;
	}
	return true;
}

/*
 * A captured zoneinfo is a regular file, possibly tens of MiB for a big
 * NUMA machine: map it (page cache pages, no copy, no fault per page)
 * when its last page leaves room for the terminating NUL the kernel's
 * zero fill provides.  /proc files have no size and are read.  One open,
 * with read_path()'s checks and READ_MAX_ZONES as the limit either way.
 */
#define ZONEINFO_MAP_MIN (256 << 10)	/* bytes */

static int load_zoneinfo(const char *root, char **text, size_t *len, bool *mapped)
{
	char path[4096];
	struct stat st;
	int64_t pg = sysconf(_SC_PAGESIZE);
	void *p;
	int fd, err;

	*mapped = false;
	*text = NULL;
	*len = 0;
	if (root_path(root, P_ZONEINFO, path, sizeof(path)))
		return -ENAMETOOLONG;
	fd = open_input(path, &st);
	if (fd < 0)
		return fd;
	/* mapping and unmapping costs more than copying a small file */
	if (st.st_size >= ZONEINFO_MAP_MIN && (uint64_t)st.st_size <= READ_MAX_ZONES && pg > 0 &&
	    st.st_size % pg != 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (p != MAP_FAILED) {
			close(fd);
			*text = p;
			*len = (size_t)st.st_size;
			*mapped = true;
			return 0;
		}
	}
	err = read_fd(fd, &st, READ_MAX_ZONES, text, len);
	close(fd);
	return err;
}

static void unload_zoneinfo(char *text, size_t len, bool mapped)
{
	if (mapped)
		munmap(text, len);
	else
		free(text);
}

static int read_zoneinfo(struct snapshot *s, char **text, size_t *len,
			 bool *mapped, struct zi_info *zi)
{
	struct wm_diag d = { 0 };
	int rc = load_zoneinfo(s->root, text, len, mapped);

	if (rc)
		return io_error(s, P_ZONEINFO, rc);
	if (zi_parse(*text, *len, zi, &d)) {
		unload_zoneinfo(*text, *len, *mapped);
		*text = NULL;
		zi_free(zi);
		return parse_error(s, P_ZONEINFO, &d);
	}
	return EXIT_OK;
}

/*
 * MemTotal in kB from the root's meminfo into *total, 0 when it is absent
 * or says nothing usable; an exit code (a meminfo that is no input).
 */
static int read_memtotal(const struct snapshot *s, uint64_t *total)
{
	struct pf_kv mi = { 0 };
	char *buf;
	size_t len;
	int rc;

	*total = 0;
	if ((rc = read_optional(s, P_MEMINFO, &buf, &len)) || !buf)
		return rc;
	if (pf_parse_meminfo(buf, len, &mi, NULL) != WM_OK || !pf_kv_get(&mi, "MemTotal", total))
		*total = 0;
	pf_kv_free(&mi);
	free(buf);
	return EXIT_OK;
}

uint64_t snapshot_pmd_bytes(const char *root)
{
	char *buf;
	size_t len;
	int64_t pmd;
	bool ok;

	if (read_rooted(root, P_PMD_SIZE, &buf, &len))
		return 0;
	ok = pf_parse_long(buf, len, &pmd, NULL) == WM_OK && pmd > 0;
	free(buf);
	return ok ? (uint64_t)pmd : 0;
}

/*
 * The machine's architecture, for the page geometry: the root's
 * kernel/arch (`uname -m`, 6.1+ has it; from 5.x on for some), else the
 * architecture its kernel's release names (Debian's flavours), else, on
 * the live machine, uname(2)'s.  Never the architecture wmark was built
 * for: a capture of an s390x read on x86-64 is an s390x.
 */
static enum wm_arch machine_arch(const struct snapshot *s)
{
	enum wm_arch a = WM_ARCH_UNKNOWN;
	struct utsname u;
	char line[64];
	char *buf;
	size_t len;

	if (read_rooted(s->root, P_ARCH, &buf, &len) == 0) {
		bool ok = pf_parse_line(buf, len, line, sizeof(line), NULL) == WM_OK &&
			  wm_arch_parse(line, &a, NULL) == WM_OK;

		free(buf);
		if (ok)
			return a;
	}
	if (s->osrelease[0] && wm_arch_from_release(s->osrelease, &a))
		return a;
	if (s->live && uname(&u) == 0 && wm_arch_parse(u.machine, &a, NULL) == WM_OK)
		return a;
	return WM_ARCH_UNKNOWN;
}

/*
 * The live pageblock without pagetypeinfo, where the kernel fixes it when
 * it is built and hugetlb is configured (sys/kernel/mm/hugepages is
 * there) and the architecture's huge page is its PMD
 * (wm_arch_pmd_hugepage): the order of THP's PMD size capped by
 * buddyinfo's largest order (wm_pageblock_from_pmd).  Reading
 * pagetypeinfo costs milliseconds: the kernel walks every free list and
 * every pageblock of a node to print it, and this is all show needs of
 * it.  powerpc decides the order at boot, and an architecture not known
 * reads pagetypeinfo.  Fill *order and *pb, or leave *pb 0.
 */
static void live_pageblock(const struct snapshot *s, enum wm_arch arch, unsigned page_size,
			   unsigned *order, uint64_t *pb)
{
	struct stat st;
	char path[PATH_MAX], *buf;
	size_t len;
	uint64_t pmd;
	unsigned orders;
	bool ok;

	if (!wm_arch_pmd_hugepage(arch))
		return;
	if (root_path(s->root, P_HUGETLB_DIR, path, sizeof(path)) || stat(path, &st) ||
	    !S_ISDIR(st.st_mode))
		return;
	pmd = snapshot_pmd_bytes(s->root);
	if (!pmd || read_rooted(s->root, P_BUDDYINFO, &buf, &len))
		return;
	ok = wm_parse_buddyinfo_orders(buf, len, &orders, NULL) == WM_OK;
	free(buf);
	if (!ok || wm_pageblock_from_pmd(page_size, pmd, orders, order, pb, NULL))
		*pb = 0;
}

/*
 * The page geometry: the live machine's page size is this process's own;
 * a capture's comes from MemTotal and the managed counts together.  The
 * pageblock comes, on the live machine, from the PMD size where the
 * kernel allows (live_pageblock); else from pagetypeinfo (root-only on
 * the live machine from 5.5: unreadable there is fine); else from the
 * page size and the machine's architecture (machine_arch).
 */
static int read_geometry(struct snapshot *s)
{
	struct wm_diag d = { 0 };
	unsigned page_size = 0, order = 0;
	uint64_t pb = 0;
	int rec_order = -1;
	bool pb_recorded = false;
	uint64_t managed = 0, memtotal = 0;
	enum wm_arch arch = machine_arch(s);
	char *buf = NULL;
	size_t len, i;
	int rc;

	if (s->live) {
		int64_t ps = sysconf(_SC_PAGESIZE);

		page_size = ps > 0 ? (unsigned)ps : 0;
		live_pageblock(s, arch, page_size, &order, &pb);
		if (pb) {
			if (wm_geometry_settle_arch(arch, page_size, 0, 0, order, pb, &s->geo, &d))
				return parse_error(s, P_PMD_SIZE, &d);
			s->geo.pageblock_from = WM_GEO_SYSFS;
			return EXIT_OK;
		}
	} else {
		for (i = 0; i < s->layout.nzones; i++)
			managed += s->layout.zones[i].managed;
		if ((rc = read_memtotal(s, &memtotal)))
			return rc;
		/* what capture recorded beats MemTotal, which cannot always tell */
		if ((rc = read_optional(s, P_GEOMETRY, &buf, &len)))
			return rc;
		if (buf) {
			rc = wm_parse_geometry(buf, len, &page_size, &rec_order, &d);
			free(buf);
			buf = NULL;
			if (rc)
				return parse_error(s, P_GEOMETRY, &d);
		}
	}
	if ((rc = read_optional(s, P_PAGETYPEINFO, &buf, &len)))
		return rc;
	if (buf) {
		rc = wm_parse_pagetypeinfo(buf, len, &order, &pb, &d);
		free(buf);
		if (rc == WM_EPARSE)
			return parse_error(s, P_PAGETYPEINFO, &d);
		if (rc)
			pb = 0;
	}
	if (!pb && rec_order >= 0) {
		order = (unsigned)rec_order;
		pb = (uint64_t)1 << order;
		pb_recorded = true;
	}
	if (wm_geometry_settle_arch(arch, page_size, memtotal, managed, order, pb, &s->geo, &d))
		return parse_error(s, pb_recorded ? P_GEOMETRY : pb ? P_PAGETYPEINFO : P_MEMINFO,
				   &d);
	if (!s->live && page_size)
		s->geo.page_size_from = WM_GEO_CAPTURE;
	if (pb_recorded)
		s->geo.pageblock_from = WM_GEO_CAPTURE;
	return EXIT_OK;
}

static int build_zones(struct snapshot *s)
{
	struct wm_diag d = { 0 };
	int rc = wm_layout_from_zoneinfo(&s->zi, &s->layout, &d);

	if (rc)
		return cli_diag(P_ZONEINFO, rc, &d);
	s->zones = s->layout.zones;
	s->zone_map = s->layout.printed;
	s->used_present = s->layout.used_present;
	if ((rc = read_geometry(s)))
		return rc;
	s->m = (struct wm_machine){ .zones = s->zones, .nzones = s->layout.nzones,
				    .page_size = s->geo.page_size,
				    .pageblock_pages = s->geo.pageblock_pages };
	return EXIT_OK;
}

static int read_all(const struct cli_ctx *ctx, struct snapshot *s);

int snapshot_read(const struct cli_ctx *ctx, struct snapshot *s)
{
	int rc = read_all(ctx, s);

	/* nothing half-read is left to the caller */
	if (rc)
		snapshot_free(s);
	return rc;
}

static int read_all(const struct cli_ctx *ctx, struct snapshot *s)
{
	struct zi_info again;
	char *text2;
	size_t len2;
	bool mapped2;
	int rc;

	memset(s, 0, sizeof(*s));
	s->root = ctx->root;
	s->live = root_is_live(ctx->root);
	wm_sysctl_none(&s->sysctl);

	/* the kernel first: the sysctls are checked against its ranges */
	if ((rc = read_kernel(ctx, s)))
		return rc;
	if ((rc = read_zoneinfo(s, &s->zoneinfo, &s->zoneinfo_len, &s->zoneinfo_mapped, &s->zi)))
		return rc;
	for (;;) {
		if ((rc = read_sysctls(s)))
			return rc;
		if (!s->live)
			break;
		if ((rc = read_zoneinfo(s, &text2, &len2, &mapped2, &again)))
			return rc;
		if (same_zones(&s->zi, &again)) {
			unload_zoneinfo(text2, len2, mapped2);
			zi_free(&again);
			break;
		}
		/* It moved while we read: take the newer one and read again. */
		unload_zoneinfo(s->zoneinfo, s->zoneinfo_len, s->zoneinfo_mapped);
		zi_free(&s->zi);
		s->zoneinfo = text2;
		s->zoneinfo_len = len2;
		s->zoneinfo_mapped = mapped2;
		s->zi = again;
		if (++s->rereads >= MAX_REREADS)
			return cli_err(EXIT_SYSTEM, P_ZONEINFO,
				       "zones kept changing while being read (%d tries)", s->rereads);
	}
	if ((rc = read_thp(s)))
		return rc;
	return build_zones(s);
}

void snapshot_free(struct snapshot *s)
{
	if (s->zoneinfo)
		unload_zoneinfo(s->zoneinfo, s->zoneinfo_len, s->zoneinfo_mapped);
	zi_free(&s->zi);
	wm_layout_free(&s->layout);
	memset(s, 0, sizeof(*s));
}

int snapshot_model(const struct snapshot *s, const struct wm_sysctl *sc,
		   struct wm_zone_wm *out)
{
	struct wm_diag d = { 0 };

	if (wm_setup_wmarks(&s->prof, &s->m, sc, out, &d) ||
	    wm_protection(&s->prof, &s->m, sc, out, &d))
		return cli_diag("model", -1, &d);
	return EXIT_OK;
}

int snapshot_need(const struct snapshot *s, const char *cmd, const struct wm_sysctl *sc,
		  unsigned need, const char *also)
{
	static const struct { unsigned bit; const char *rel, *option; } knobs[] = {
		{ WM_HAVE_MFK, P_MFK, "--min-free-kbytes" },
		{ WM_HAVE_WSF, P_WSF, "--wsf" },
		{ WM_HAVE_BOOST, P_BOOST, "--boost-factor" },
		{ WM_HAVE_EXTRA, P_EXTRA, "--extra-free-kbytes" },
		{ WM_HAVE_LRR, P_LRR, "--lowmem-reserve-ratio" },
	};
	char path[4096];
	/* the running kernel lacks it; a capture that lacks it is incomplete input */
	int code = s->live ? EXIT_SYSTEM : EXIT_USAGE;
	size_t i;

	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		if (!(need & knobs[i].bit) || (sc->have & knobs[i].bit))
			continue;
		root_path(s->root, knobs[i].rel, path, sizeof(path));
		if (!also)
			return cli_err(code, cmd, "%s: not there, so its value is unknown", path);
		return cli_err(code, cmd, "%s: not there, so its value is unknown (give %s%s)",
			       path, knobs[i].option, also);
	}
	return EXIT_OK;
}

int snapshot_change(const struct snapshot *s, const char *cmd, const struct wm_change *ch,
		    struct wm_sysctl *after, unsigned *recomputes, const char *hint)
{
	struct wm_diag d = { 0 };
	char path[4096];

	/* a knob the change writes must be there to be written */
	if ((ch->set & WM_HAVE_EXTRA) && !(s->sysctl.have & WM_HAVE_EXTRA) && !s->prof.extra_free) {
		root_path(s->root, P_EXTRA, path, sizeof(path));
		return cli_err(EXIT_SYSTEM, cmd, "%s: no such sysctl on this kernel "
			       "(extra_free_kbytes is in Android kernels up to 5.4)", path);
	}
	if (wm_change_apply(&s->prof, &s->sysctl, ch, after, recomputes, &d))
		return opts_change_error(cmd, &d);
	return snapshot_need(s, cmd, after, WM_HAVE_MFK | (s->prof.wsf ? WM_HAVE_WSF : 0), hint);
}

int snapshot_predict(const struct snapshot *s, const struct wm_sysctl *sc, unsigned recomputes,
		     struct wm_predicted *out)
{
	struct wm_diag d = { 0 };
	char path[4096];
	bool sized = false;
	size_t i;
	int rc;

	/* zone headers alone (an excerpt, a cut file): every answer would be 0 */
	for (i = 0; i < s->zi.nzones; i++)
		if (s->zi.zones[i].flags & (ZI_HAS_MANAGED | ZI_HAS_PRESENT))
			sized = true;
	if (!sized || !s->m.nzones) {
		root_path(s->root, P_ZONEINFO, path, sizeof(path));
		return cli_err(EXIT_USAGE, NULL, "%s: no managed pages in zoneinfo (no zone has a "
			       "managed or present line): nothing to predict from", path);
	}
	rc = wm_predict(&s->prof, &s->m, &s->zi, &s->layout, sc, recomputes, out, &d);
	return rc ? cli_diag("model", rc, &d) : EXIT_OK;
}

void snapshot_reserve(const struct snapshot *s, const struct wm_predicted *after,
		      struct wm_reserve *out)
{
	struct wm_meminfo mi = { 0 };
	struct pf_kv kv = { 0 };
	char *buf;
	size_t len;

	if (read_rooted(s->root, P_MEMINFO, &buf, &len) == 0) {
		if (pf_parse_meminfo(buf, len, &kv, NULL) == WM_OK)
			wm_meminfo_from(&kv, &mi);
		pf_kv_free(&kv);
		free(buf);
	}
	wm_reserve_change(&s->m, &s->zi, &s->layout, after, &mi, out);
}
