// SPDX-License-Identifier: MIT
/*
 * machine.c - read a root tree (the live machine or a capture) into one
 * consistent snapshot, and run the model over it.
 *
 * Two things make this more than reading files.  On some kernels reading
 * lowmem_reserve_ratio recomputes protection, so zoneinfo is read first.
 * And memory can change while we read (hotplug, balloons, the lazily
 * initialised memory of some VMs), so zoneinfo is read again after the
 * sysctls, and everything is read again while the zones' sizes and
 * watermarks moved in between.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../calc/procfs.h"
#include "machine.h"

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

int read_rooted(const char *root, const char *rel, char **buf, size_t *len)
{
	char path[4096];
	size_t cap = 1 << 16, used = 0;
	char *b, *nb;
	ssize_t r;
	int fd, err;

	*buf = NULL;
	*len = 0;
	if (root_path(root, rel, path, sizeof(path)))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	b = malloc(cap);
	if (!b) {
		close(fd);
		return -ENOMEM;
	}
	/* Large reads: every read(2) of zoneinfo walks all zones again. */
	for (;;) {
		if (cap - used < 4096) {
			nb = realloc(b, cap * 2);
			if (!nb) {
				err = -ENOMEM;
				goto fail;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + used, cap - used - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto fail;
		}
		if (r == 0)
			break;
		used += (size_t)r;
	}
	close(fd);
	b[used] = 0;
	*buf = b;
	*len = used;
	return 0;
fail:
	close(fd);
	free(b);
	return err;
}

static int io_error(const struct snapshot *s, const char *rel, int err)
{
	char path[4096];

	root_path(s->root, rel, path, sizeof(path));
	return cli_err(EXIT_SYSTEM, path, "%s", strerror(-err));
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

/* Read an optional one-number sysctl; *out stays -1 if the file is absent. */
static int read_long(struct snapshot *s, const char *rel, long *out)
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
	return err ? parse_error(s, rel, &d) : EXIT_OK;
}

static int read_sysctls(struct snapshot *s)
{
	struct wm_diag d = { 0 };
	char *buf;
	size_t len;
	int rc;

	if ((rc = read_long(s, P_MFK, &s->sysctl.min_free_kbytes)) ||
	    (rc = read_long(s, P_WSF, &s->sysctl.wsf)) ||
	    (rc = read_long(s, P_BOOST, &s->sysctl.boost_factor)) ||
	    (rc = read_long(s, P_EXTRA, &s->sysctl.extra_free_kbytes)))
		return rc;
	s->sysctl.nlrr = 0;
	rc = read_rooted(s->root, P_LRR, &buf, &len);
	if (rc == -ENOENT)
		return EXIT_OK;
	if (rc)
		return io_error(s, P_LRR, rc);
	rc = pf_parse_long_list(buf, len, s->sysctl.lrr, WM_MAX_ZONES, &s->sysctl.nlrr, &d);
	free(buf);
	return rc ? parse_error(s, P_LRR, &d) : EXIT_OK;
}

/*
 * A Debian release string hides the stable sublevel ("6.1.0-18-amd64");
 * the kernel's version string has it ("... Debian 6.1.76-1 ...").
 */
static void debian_sublevel(struct snapshot *s, struct wm_kver *k)
{
	char *buf, *p;
	size_t len;
	unsigned ma, mi, sub;

	if (k->sub != 0 || read_rooted(s->root, P_KVERSION, &buf, &len))
		return;
	p = strstr(buf, "Debian ");
	if (p && sscanf(p + 7, "%u.%u.%u", &ma, &mi, &sub) == 3 &&
	    ma == k->major && mi == k->minor)
		k->sub = sub;
	free(buf);
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
		debian_sublevel(s, &k);
		s->kernel_known = true;
	} else {
		wm_profile_default(&s->prof);
		return EXIT_OK;
	}
	wm_profile_for(&k, &s->prof);
	return EXIT_OK;
}

static void read_thp(struct snapshot *s)
{
	char *buf, word[32];
	size_t len;
	enum wm_thp thp;

	s->thp = WM_THP_UNSUPPORTED;
	if (read_rooted(s->root, P_THP, &buf, &len))
		return;
	if (pf_parse_thp(buf, len, &thp, NULL) == WM_OK)
		s->thp = thp;
	free(buf);
	/* 6.11+: the PMD-size control decides unless it says "inherit". */
	if (read_rooted(s->root, "sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled",
			&buf, &len))
		return;
	if (pf_parse_choice(buf, len, word, sizeof(word), NULL) == WM_OK &&
	    s->prof.kver.major * 100 + s->prof.kver.minor >= 611) {
		if (strcmp(word, "always") == 0)
			s->thp = WM_THP_ALWAYS;
		else if (strcmp(word, "madvise") == 0)
			s->thp = WM_THP_MADVISE;
		else if (strcmp(word, "never") == 0)
			s->thp = WM_THP_NEVER;
	}
	free(buf);
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
 * zero fill provides.  /proc files have no size and are read.
 */
static int load_zoneinfo(const char *root, char **text, size_t *len, bool *mapped)
{
	char path[4096];
	struct stat st;
	long pg = sysconf(_SC_PAGESIZE);
	void *p;
	int fd;

	*mapped = false;
	if (root_path(root, P_ZONEINFO, path, sizeof(path)))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && pg > 0 &&
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
	close(fd);
	return read_rooted(root, P_ZONEINFO, text, len);
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
 * Kernels before 4.12 print populated zones only, but every zone's
 * protection array has one entry per configured zone: put the missing
 * zones back, empty, where the kernel's zone order has them.
 */
static int configured_types(const struct zi_info *zi, enum wm_zone_type *types)
{
	bool have[WM_ZONE_OTHER + 1] = { false };
	int want = 0, n = 0, i, t;
	size_t k;
	static const enum wm_zone_type fill[] = { WM_ZONE_NORMAL, WM_ZONE_MOVABLE,
		WM_ZONE_HIGHMEM, WM_ZONE_DEVICE, WM_ZONE_DMA32, WM_ZONE_DMA };

	for (k = 0; k < zi->nzones; k++) {
		have[zi->zones[k].type] = true;
		if (zi->zones[k].nprotection > want)
			want = zi->zones[k].nprotection;
	}
	for (t = 0; t <= WM_ZONE_OTHER; t++)
		n += have[t];
	if (want > WM_MAX_ZONES)
		want = WM_MAX_ZONES;
	for (i = 0; n < want && i < (int)(sizeof(fill) / sizeof(fill[0])); i++) {
		if (have[fill[i]])
			continue;
		/* x86-64 has no HighMem; 32-bit has no DMA32 */
		if (fill[i] == WM_ZONE_HIGHMEM && have[WM_ZONE_DMA32])
			continue;
		have[fill[i]] = true;
		n++;
	}
	for (n = 0, t = 0; t <= WM_ZONE_OTHER; t++)
		if (have[t] && n < WM_MAX_ZONES)
			types[n++] = (enum wm_zone_type)t;
	return n;
}

static int build_zones(struct snapshot *s)
{
	const struct zi_info *zi = &s->zi;
	enum wm_zone_type types[WM_MAX_ZONES];
	int ntypes = configured_types(zi, types), node, t;
	size_t k, n = 0;
	bool any_managed = false;

	for (k = 0; k < zi->nzones; k++)
		if (zi->zones[k].flags & ZI_HAS_MANAGED)
			any_managed = true;
	s->used_present = !any_managed;
	s->zones = calloc((size_t)(zi->nnodes ? zi->nnodes : 1) * (size_t)ntypes + 1,
			  sizeof(*s->zones));
	s->zone_map = calloc((size_t)(zi->nnodes ? zi->nnodes : 1) * (size_t)ntypes + 1,
			     sizeof(*s->zone_map));
	if (!s->zones || !s->zone_map)
		return cli_err(EXIT_SYSTEM, "zoneinfo", "out of memory");
	/* One pass: which printed zone is each (node, type). */
	{
		int pos[WM_ZONE_OTHER + 1];
		long *at = malloc((size_t)(zi->nnodes ? zi->nnodes : 1) * (size_t)ntypes * sizeof(*at));
		bool *seen = calloc((size_t)(zi->nnodes ? zi->nnodes : 1), sizeof(*seen));

		if (!at || !seen) {
			free(at);
			free(seen);
			return cli_err(EXIT_SYSTEM, "zoneinfo", "out of memory");
		}
		for (t = 0; t <= WM_ZONE_OTHER; t++)
			pos[t] = -1;
		for (t = 0; t < ntypes; t++)
			pos[types[t]] = t;
		for (k = 0; k < (size_t)(zi->nnodes ? zi->nnodes : 1) * (size_t)ntypes; k++)
			at[k] = -1;
		for (k = 0; k < zi->nzones; k++) {
			const struct zi_zone *q = &zi->zones[k];

			seen[q->node] = true;
			if (pos[q->type] >= 0)
				at[(size_t)q->node * (size_t)ntypes + (size_t)pos[q->type]] = (long)k;
		}
		for (node = 0; node < zi->nnodes; node++) {
			if (!seen[node])
				continue;
			for (t = 0; t < ntypes; t++) {
				struct wm_zone *z = &s->zones[n];
				long kk = at[(size_t)node * (size_t)ntypes + (size_t)t];

				*z = (struct wm_zone){ .node = node, .idx = t, .type = types[t] };
				s->zone_map[n] = kk;
				if (kk >= 0) {
					const struct zi_zone *q = &zi->zones[kk];

					z->managed = any_managed ? q->managed : q->present;
					z->present = q->present;
					if (!(q->flags & ZI_HAS_PRESENT))
						z->present = z->managed;
					z->boost = q->boost;
				}
				n++;
			}
		}
		free(at);
		free(seen);
	}
	s->m = (struct wm_machine){ .zones = s->zones, .nzones = n,
				    .page_size = 4096, .pageblock_pages = 512 };
	return EXIT_OK;
}

int snapshot_read(const struct cli_ctx *ctx, struct snapshot *s)
{
	struct zi_info again;
	char *text2;
	size_t len2;
	bool mapped2;
	int rc;

	memset(s, 0, sizeof(*s));
	s->root = ctx->root;
	s->live = strcmp(ctx->root, "/") == 0;
	memset(&s->sysctl, 0xff, sizeof(s->sysctl));	/* every field -1 */
	s->sysctl.nlrr = 0;

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
	if ((rc = read_kernel(ctx, s)))
		return rc;
	read_thp(s);
	return build_zones(s);
}

void snapshot_free(struct snapshot *s)
{
	if (s->zoneinfo)
		unload_zoneinfo(s->zoneinfo, s->zoneinfo_len, s->zoneinfo_mapped);
	zi_free(&s->zi);
	free(s->zones);
	free(s->zone_map);
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
