// SPDX-License-Identifier: MIT
/*
 * snapshot.c - read a root tree (the live machine or a capture) into one
 * consistent snapshot, and run the model over it.
 *
 * This file reads; calc/state.c decides.  A table of paths fills a
 * struct wm_texts, and wm_state_build() turns the texts into the machine
 * (kernel, geometry, THP, zones, sysctls); an error it returns names the
 * text, and this file names the path.  Two things make reading more than
 * reading files.  On some kernels reading lowmem_reserve_ratio
 * recomputes protection, so zoneinfo is read first.  And memory can
 * change while we read (hotplug, balloons, the lazily initialised memory
 * of some VMs), so zoneinfo is read again after the sysctls, and
 * everything is read again while the zones' sizes and watermarks moved in
 * between.
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
#include "../calc/state.h"
#include "opts.h"
#include "snapshot.h"

#define MAX_REREADS 20

static int io_error(const struct snapshot *s, const char *rel, int err)
{
	char path[4096];

	root_path(s->root, rel, path, sizeof(path));
	return read_error(NULL, path, rootfs_max(rel), err);
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
	if (zi->nzones != s->st.zi.nzones) {
		size_t now = zi->nzones;

		zi_free(zi);
		return cli_err(EXIT_SYSTEM, cmd, "%s: %zu zones now, %zu at the start", path, now,
			       s->st.zi.nzones);
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
	fd = rootfs_open(path, &st);
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
	err = rootfs_read_fd(fd, &st, READ_MAX_ZONES, text, len);
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

/* Load the zoneinfo text, and parse it into *zi unless zi is NULL. */
static int read_zoneinfo(struct snapshot *s, char **text, size_t *len,
			 bool *mapped, struct zi_info *zi)
{
	struct wm_diag d = { 0 };
	int rc = load_zoneinfo(s->root, text, len, mapped);

	if (rc)
		return io_error(s, P_ZONEINFO, rc);
	if (zi && zi_parse(*text, *len, zi, &d)) {
		unload_zoneinfo(*text, *len, *mapped);
		*text = NULL;
		zi_free(zi);
		return parse_error(s, P_ZONEINFO, &d);
	}
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
 * Where each text of struct wm_texts is in a root, and how its absence
 * is taken: KNOB files may be absent (the have bit stays clear) but any
 * other error names the file; OPTIONAL ones may also be unreadable by
 * this user (pagetypeinfo is root-only from 5.5); QUIET ones are hints
 * whose every error leaves them out.  LIVE and CAPTURE: read only on the
 * live machine, only from a capture.  Read in this order.
 */
enum how { KNOB, OPTIONAL, QUIET };
enum when { ANY, LIVE, CAPTURE };

static const struct text_path {
	enum wm_text id;
	const char *rel;
	enum how how;
	enum when when;
} text_paths[] = {
	{ WM_TEXT_MFK, P_MFK, KNOB, ANY },
	{ WM_TEXT_WSF, P_WSF, KNOB, ANY },
	{ WM_TEXT_BOOST, P_BOOST, KNOB, ANY },
	{ WM_TEXT_EXTRA, P_EXTRA, KNOB, ANY },
	{ WM_TEXT_LRR, P_LRR, KNOB, ANY },
	{ WM_TEXT_THP, P_THP, OPTIONAL, ANY },
	{ WM_TEXT_ARCH, P_ARCH, QUIET, ANY },
	{ WM_TEXT_PMD_SIZE, P_PMD_SIZE, QUIET, LIVE },
	{ WM_TEXT_BUDDYINFO, P_BUDDYINFO, QUIET, LIVE },
	{ WM_TEXT_MEMINFO, P_MEMINFO, OPTIONAL, CAPTURE },
	{ WM_TEXT_GEOMETRY, P_GEOMETRY, OPTIONAL, CAPTURE },
};

/* The path of text id inside a root, for messages. */
static const char *text_rel(enum wm_text id)
{
	static const char *const rel[WM_TEXT_COUNT] = {
		[WM_TEXT_OSRELEASE] = P_OSRELEASE, [WM_TEXT_VERSION] = P_KVERSION,
		[WM_TEXT_ZONEINFO] = P_ZONEINFO, [WM_TEXT_MFK] = P_MFK, [WM_TEXT_WSF] = P_WSF,
		[WM_TEXT_BOOST] = P_BOOST, [WM_TEXT_EXTRA] = P_EXTRA, [WM_TEXT_LRR] = P_LRR,
		[WM_TEXT_THP] = P_THP, [WM_TEXT_ARCH] = P_ARCH, [WM_TEXT_MEMINFO] = P_MEMINFO,
		[WM_TEXT_GEOMETRY] = P_GEOMETRY, [WM_TEXT_PMD_SIZE] = P_PMD_SIZE,
		[WM_TEXT_BUDDYINFO] = P_BUDDYINFO, [WM_TEXT_PAGETYPEINFO] = P_PAGETYPEINFO,
	};

	return (unsigned)id < WM_TEXT_COUNT && rel[id] ? rel[id] : P_ZONEINFO;
}

/* A root's texts as read, and the buffers behind them. */
struct reader {
	struct wm_texts t;
	char *buf[WM_TEXT_COUNT];
	struct thp_size sizes[32];
	struct wm_thp_size_text size_text[32];
	char *size_buf[32];
	struct utsname uts;
};

static void reader_free(struct reader *r)
{
	size_t i;

	for (i = 0; i < WM_TEXT_COUNT; i++)
		free(r->buf[i]);
	for (i = 0; i < r->t.nthp_sizes; i++)
		free(r->size_buf[i]);
	memset(r, 0, sizeof(*r));
}

/* Read rel as text id, absent or an error as `how` takes it. */
static int read_text(const struct snapshot *s, struct reader *r, enum wm_text id,
		     const char *rel, enum how how)
{
	size_t len = 0;
	int err = read_rooted(s->root, rel, &r->buf[id], &len);

	if (err == 0) {
		r->t.text[id] = (struct wm_text_buf){ r->buf[id], len };
		return EXIT_OK;
	}
	if (err == -ENOENT || how == QUIET ||
	    (how == OPTIONAL && (err == -EACCES || err == -EPERM)))
		return EXIT_OK;
	return io_error(s, rel, err);
}

/* What wm_state_kernel() or wm_state_build() said was wrong, as one line. */
static int state_error(const struct snapshot *s, enum wm_text which, int rc,
		       const struct wm_diag *d)
{
	if (which == WM_TEXT_KERNEL)
		return cli_usage(NULL, "--kernel: %s", d->msg);
	if (rc == WM_ENOMEM)
		return cli_diag(text_rel(which), rc, d);
	if (rc == WM_ENODATA && which == WM_TEXT_ZONEINFO)
		return io_error(s, P_ZONEINFO, -ENOENT);
	return parse_error(s, text_rel(which), d);
}

/*
 * The kernel's texts: osrelease, its version line and --kernel; with
 * quiet, an osrelease that cannot be read is left out without a word.
 */
static int read_kernel_texts(const struct cli_ctx *ctx, const struct snapshot *s,
			     struct reader *r, bool quiet)
{
	int rc;

	if (ctx->kernel)
		r->t.text[WM_TEXT_KERNEL] = (struct wm_text_buf){ ctx->kernel, strlen(ctx->kernel) };
	if ((rc = read_text(s, r, WM_TEXT_OSRELEASE, P_OSRELEASE, quiet ? QUIET : KNOB)) ||
	    (rc = read_text(s, r, WM_TEXT_VERSION, P_KVERSION, quiet ? QUIET : OPTIONAL)))
		return rc;
	return EXIT_OK;
}

int snapshot_kernel(const struct cli_ctx *ctx, struct wm_kernel_id *id)
{
	struct snapshot s = { .root = ctx->root };
	struct reader r = { 0 };
	struct wm_diag d = { 0 };
	int rc = read_kernel_texts(ctx, &s, &r, true);

	if (rc == EXIT_OK && wm_state_kernel(&r.t, id, NULL, &d))
		rc = EXIT_USAGE;
	reader_free(&r);
	return rc;
}

/* The per-size THP controls, where they can change the THP mode. */
static int read_thp_sizes(const struct snapshot *s, struct reader *r)
{
	int n, i;
	size_t len;

	if (!wm_texts_want_thp_sizes(&r->t))
		return EXIT_OK;
	n = snapshot_thp_sizes(s->root, r->sizes, 32);
	for (i = 0; i < n; i++) {
		struct wm_thp_size_text *st = &r->size_text[r->t.nthp_sizes];
		int err = read_rooted(s->root, r->sizes[i].rel, &r->size_buf[r->t.nthp_sizes], &len);

		st->kb = r->sizes[i].kb;
		st->enabled = (struct wm_text_buf){ NULL, 0 };
		if (err == 0)
			st->enabled = (struct wm_text_buf){ r->size_buf[r->t.nthp_sizes], len };
		else if (err != -ENOENT && err != -EACCES && err != -EPERM)
			return io_error(s, r->sizes[i].rel, err);
		r->t.nthp_sizes++;
	}
	r->t.thp_sizes = r->size_text;
	return EXIT_OK;
}

/* Forget text id, read before (the live machine's texts are read again). */
static void drop_text(struct reader *r, enum wm_text id)
{
	free(r->buf[id]);
	r->buf[id] = NULL;
	r->t.text[id] = (struct wm_text_buf){ NULL, 0 };
}

/* Every text but the kernel's and zoneinfo, by the table, afresh. */
static int read_texts(const struct snapshot *s, struct reader *r)
{
	char path[PATH_MAX];
	struct stat st;
	size_t i;
	int rc;

	for (i = 0; i < r->t.nthp_sizes; i++) {
		free(r->size_buf[i]);
		r->size_buf[i] = NULL;
	}
	r->t.nthp_sizes = 0;
	drop_text(r, WM_TEXT_PAGETYPEINFO);
	for (i = 0; i < sizeof(text_paths) / sizeof(text_paths[0]); i++) {
		const struct text_path *p = &text_paths[i];

		if ((p->when == LIVE && !s->live) || (p->when == CAPTURE && s->live))
			continue;
		drop_text(r, p->id);
		if ((rc = read_text(s, r, p->id, p->rel, p->how)))
			return rc;
	}
	if (s->live) {
		int64_t ps = sysconf(_SC_PAGESIZE);

		r->t.live_page_size = ps > 0 ? (unsigned)ps : 0;
		if (uname(&r->uts) == 0)
			r->t.live_arch = r->uts.machine;
		r->t.hugetlb = root_path(s->root, P_HUGETLB_DIR, path, sizeof(path)) == 0 &&
			       stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	}
	if ((rc = read_thp_sizes(s, r)))
		return rc;
	/* the kernel walks every free list to print it: only when it is needed */
	if (!wm_texts_pageblock_known(&r->t))
		return read_text(s, r, WM_TEXT_PAGETYPEINFO, P_PAGETYPEINFO, OPTIONAL);
	return EXIT_OK;
}

/*
 * zoneinfo first (reading lowmem_reserve_ratio recomputes protection on
 * some kernels), then the other texts, then on the live machine zoneinfo
 * again, repeating while the zones moved in between (hotplug, balloons,
 * the lazily initialised memory of some VMs).
 */
static int read_zones_and_texts(struct snapshot *s, struct reader *r)
{
	struct zi_info zi = { 0 }, again;
	char *text2;
	size_t len2;
	bool mapped2;
	int rc;

	if ((rc = read_zoneinfo(s, &s->zoneinfo, &s->zoneinfo_len, &s->zoneinfo_mapped,
				s->live ? &zi : NULL)))
		return rc;
	for (;;) {
		if ((rc = read_texts(s, r)) || !s->live)
			break;
		if ((rc = read_zoneinfo(s, &text2, &len2, &mapped2, &again)))
			break;
		if (same_zones(&zi, &again)) {
			unload_zoneinfo(text2, len2, mapped2);
			zi_free(&again);
			break;
		}
		/* It moved while we read: take the newer one and read again. */
		unload_zoneinfo(s->zoneinfo, s->zoneinfo_len, s->zoneinfo_mapped);
		zi_free(&zi);
		s->zoneinfo = text2;
		s->zoneinfo_len = len2;
		s->zoneinfo_mapped = mapped2;
		zi = again;
		if (++s->rereads >= MAX_REREADS) {
			rc = cli_err(EXIT_SYSTEM, P_ZONEINFO,
				     "zones kept changing while being read (%d tries)", s->rereads);
			break;
		}
	}
	zi_free(&zi);
	r->t.text[WM_TEXT_ZONEINFO] = (struct wm_text_buf){ s->zoneinfo, s->zoneinfo_len };
	return rc;
}

static int read_all(const struct cli_ctx *ctx, struct snapshot *s, struct reader *r,
		    unsigned need)
{
	struct wm_kernel_id id;
	struct wm_diag d = { 0 };
	enum wm_text which = WM_TEXT_KERNEL;
	char path[4096];
	bool zones;
	int rc;

	s->root = ctx->root;
	s->live = root_is_live(ctx->root);
	r->t.live = s->live;
	r->t.need = need;
	r->t.assumed_page_size = SNAPSHOT_ASSUMED_PAGE_SIZE;

	/* the kernel first: its errors before any other file's */
	if ((rc = read_kernel_texts(ctx, s, r, false)))
		return rc;
	if ((rc = wm_state_kernel(&r->t, &id, &which, &d)))
		return state_error(s, which, rc, &d);
	/* a zoneinfo not needed is read where it can be */
	zones = (need & WM_NEED_ZONEINFO) ||
		(root_path(s->root, P_ZONEINFO, path, sizeof(path)) == 0 && access(path, R_OK) == 0);
	if ((rc = zones ? read_zones_and_texts(s, r) : read_texts(s, r)))
		return rc;
	if ((rc = wm_state_build(&r->t, &s->st, &which, &d)))
		return state_error(s, which, rc, &d);
	return EXIT_OK;
}

int snapshot_read_need(const struct cli_ctx *ctx, struct snapshot *s, unsigned need)
{
	struct reader r;
	int rc;

	memset(s, 0, sizeof(*s));
	memset(&r, 0, sizeof(r));
	wm_sysctl_none(&s->st.sysctl);
	rc = read_all(ctx, s, &r, need);
	reader_free(&r);
	/* nothing half-read is left to the caller */
	if (rc)
		snapshot_free(s);
	return rc;
}

int snapshot_read(const struct cli_ctx *ctx, struct snapshot *s)
{
	return snapshot_read_need(ctx, s, WM_NEED_ZONEINFO);
}

void snapshot_free(struct snapshot *s)
{
	if (s->zoneinfo)
		unload_zoneinfo(s->zoneinfo, s->zoneinfo_len, s->zoneinfo_mapped);
	wm_state_free(&s->st);
	memset(s, 0, sizeof(*s));
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
	if ((ch->set & WM_HAVE_EXTRA) && !(s->st.sysctl.have & WM_HAVE_EXTRA) && !s->st.kernel.prof.extra_free) {
		root_path(s->root, P_EXTRA, path, sizeof(path));
		return cli_err(EXIT_SYSTEM, cmd, "%s: no such sysctl on this kernel "
			       "(extra_free_kbytes is in Android kernels up to 5.4)", path);
	}
	if (wm_change_apply(&s->st.kernel.prof, &s->st.sysctl, ch, after, recomputes, &d))
		return opts_change_error(cmd, &d);
	return snapshot_need(s, cmd, after, WM_HAVE_MFK | (s->st.kernel.prof.wsf ? WM_HAVE_WSF : 0), hint);
}

int snapshot_predict(const struct snapshot *s, const struct wm_sysctl *sc, unsigned recomputes,
		     struct wm_predicted *out)
{
	struct wm_diag d = { 0 };
	char path[4096];
	int rc;

	/* zone headers alone (an excerpt, a cut file): every answer would be 0 */
	if (!zi_sized(&s->st.zi) || !s->st.m.nzones) {
		root_path(s->root, P_ZONEINFO, path, sizeof(path));
		return cli_err(EXIT_USAGE, NULL, "%s: no managed pages in zoneinfo (no zone has a "
			       "managed or present line): nothing to predict from", path);
	}
	rc = wm_predict(&s->st, sc, recomputes, out, &d);
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
	wm_reserve_change(&s->st, after, &mi, out);
}
