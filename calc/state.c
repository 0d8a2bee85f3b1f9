// SPDX-License-Identifier: MIT
/*
 * state.c - the machine as one value, assembled from a root's texts: how
 * calc's pieces fit together, in one place.
 *
 * The order matters.  The kernel comes first: its release decides which
 * sysctl values it accepts, whether it has THP and per-size THP controls
 * (6.8+), and whether zoneinfo's watermarks carry a boost (5.0+).  The
 * zones come next, then the geometry, which on a capture is found from
 * MemTotal against the zones' managed pages.
 *
 * The subtle point is the Debian release string: "5.10.0-43-amd64" says
 * sublevel 0, while the kernel is 5.10.251 (its version line, "Debian
 * 5.10.251-1", says so), and stable backports change the rules by
 * sublevel: watermark_scale_factor up to 3000 from 5.10.186, the
 * lowmem_reserve_ratio rule from 5.10.50 (calc/kver.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "change.h"
#include "procfs.h"
#include "state.h"

const char *wm_text_name(enum wm_text t)
{
	static const char *const names[WM_TEXT_COUNT] = {
		[WM_TEXT_KERNEL] = "kernel",
		[WM_TEXT_OSRELEASE] = "osrelease",
		[WM_TEXT_VERSION] = "version",
		[WM_TEXT_ZONEINFO] = "zoneinfo",
		[WM_TEXT_MFK] = "min_free_kbytes",
		[WM_TEXT_WSF] = "watermark_scale_factor",
		[WM_TEXT_BOOST] = "watermark_boost_factor",
		[WM_TEXT_EXTRA] = "extra_free_kbytes",
		[WM_TEXT_LRR] = "lowmem_reserve_ratio",
		[WM_TEXT_THP] = "transparent_hugepage/enabled",
		[WM_TEXT_ARCH] = "arch",
		[WM_TEXT_MEMINFO] = "meminfo",
		[WM_TEXT_GEOMETRY] = "geometry",
		[WM_TEXT_PMD_SIZE] = "hpage_pmd_size",
		[WM_TEXT_BUDDYINFO] = "buddyinfo",
		[WM_TEXT_PAGETYPEINFO] = "pagetypeinfo",
	};

	return (unsigned)t < WM_TEXT_COUNT ? names[t] : "?";
}

static const struct wm_text_buf *text(const struct wm_texts *t, enum wm_text id)
{
	return t->text[id].buf ? &t->text[id] : NULL;
}

/* Set *which and pass rc (with diag already filled) on. */
static int at(enum wm_text *which, enum wm_text id, int rc)
{
	if (which)
		*which = id;
	return rc;
}

int wm_state_kernel(const struct wm_texts *t, struct wm_kernel_id *out, enum wm_text *which,
		    struct wm_diag *diag)
{
	const struct wm_text_buf *rel = text(t, WM_TEXT_OSRELEASE), *given = text(t, WM_TEXT_KERNEL);
	const struct wm_text_buf *ver;
	char release[128];
	struct wm_kver k;

	memset(out, 0, sizeof(*out));
	if (rel && pf_parse_line(rel->buf, rel->len, out->osrelease, sizeof(out->osrelease), diag))
		return at(which, WM_TEXT_OSRELEASE, WM_EPARSE);
	if (given) {
		size_t n = given->len < sizeof(release) - 1 ? given->len : sizeof(release) - 1;

		memcpy(release, given->buf, n);
		release[n] = 0;
		if (wm_kver_parse(release, &k, diag))
			return at(which, WM_TEXT_KERNEL, WM_EPARSE);
	} else if (out->osrelease[0]) {
		if (wm_kver_parse(out->osrelease, &k, diag))
			return at(which, WM_TEXT_OSRELEASE, WM_EPARSE);
		/* the version line is a text of its own: bounded, no NUL needed */
		ver = text(t, WM_TEXT_VERSION);
		if (ver && k.sub == 0) {
			char *v = malloc(ver->len + 1);

			if (!v)
				return at(which, WM_TEXT_VERSION,
					  wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory"));
			memcpy(v, ver->buf, ver->len);
			v[ver->len] = 0;
			wm_kver_debian_sublevel(v, &k);
			free(v);
		}
	} else {
		wm_profile_default(&out->prof);
		out->kver = out->prof.kver;
		return WM_OK;
	}
	out->known = true;
	out->kver = k;
	wm_profile_for(&k, &out->prof);
	return WM_OK;
}

/* ---- sysctls --------------------------------------------------------- */

/* A value the kernel refuses: the text's one line. */
static int refused(enum wm_text *which, enum wm_text id, struct wm_diag *diag)
{
	if (diag)
		diag->line = 1;
	return at(which, id, WM_EINVAL);
}

/* One optional one-number sysctl: an absent text leaves its have bit clear. */
static int knob(const struct wm_texts *t, const struct wm_profile *p, enum wm_text id,
		enum wm_knob k, int64_t *v, unsigned *have, enum wm_text *which,
		struct wm_diag *diag)
{
	const struct wm_text_buf *b = text(t, id);

	*v = -1;
	if (!b)
		return WM_OK;
	if (pf_parse_long(b->buf, b->len, v, diag))
		return at(which, id, WM_EPARSE);
	/* the file itself says the kernel has the knob: check the value only */
	if (wm_knob_check_range(p, k, *v, diag))
		return refused(which, id, diag);
	*have |= wm_knob_have(k);
	return WM_OK;
}

static int sysctls(const struct wm_texts *t, const struct wm_profile *p, struct wm_sysctl *s,
		   enum wm_text *which, struct wm_diag *diag)
{
	const struct wm_text_buf *b;
	int rc, i;

	wm_sysctl_none(s);
	if ((rc = knob(t, p, WM_TEXT_MFK, WM_KNOB_MFK, &s->min_free_kbytes, &s->have, which,
		       diag)) ||
	    (rc = knob(t, p, WM_TEXT_WSF, WM_KNOB_WSF, &s->wsf, &s->have, which, diag)) ||
	    (rc = knob(t, p, WM_TEXT_BOOST, WM_KNOB_BOOST, &s->boost_factor, &s->have, which,
		       diag)) ||
	    (rc = knob(t, p, WM_TEXT_EXTRA, WM_KNOB_EXTRA, &s->extra_free_kbytes, &s->have,
		       which, diag)))
		return rc;
	if (!(b = text(t, WM_TEXT_LRR)))
		return WM_OK;
	if (pf_parse_long_list(b->buf, b->len, s->lrr, WM_MAX_ZONES, &s->nlrr, diag))
		return at(which, WM_TEXT_LRR, WM_EPARSE);
	for (i = 0; i < s->nlrr; i++)
		if (wm_knob_check_range(p, WM_KNOB_LRR, s->lrr[i], diag))
			return refused(which, WM_TEXT_LRR, diag);
	s->have |= WM_HAVE_LRR;
	return WM_OK;
}

/* ---- THP ------------------------------------------------------------- */

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
	uint64_t x = (*(const struct wm_thp_size_text *const *)a)->kb;
	uint64_t y = (*(const struct wm_thp_size_text *const *)b)->kb;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The global control, parsed; WM_THP_UNSUPPORTED when absent or not one of its words. */
static enum wm_thp thp_global(const struct wm_texts *t)
{
	const struct wm_text_buf *b = text(t, WM_TEXT_THP);
	enum wm_thp thp = WM_THP_UNSUPPORTED;

	if (b && pf_parse_thp(b->buf, b->len, &thp, NULL) != WM_OK)
		thp = WM_THP_UNSUPPORTED;
	return thp;
}

bool wm_texts_want_thp_sizes(const struct wm_texts *t)
{
	struct wm_thp_controls c = { .global = thp_global(t), .pmd = WM_THP_SIZE_ABSENT };
	struct wm_kernel_id k;

	if (!text(t, WM_TEXT_THP) || wm_state_kernel(t, &k, NULL, NULL))
		return false;
	return wm_thp_sizes_matter(&k.prof, &c, false);
}

/*
 * The THP mode min_free_kbytes follows: the global control and the
 * per-size anon controls (6.8+), decided by wm_thp_for_mfk().  The
 * largest anon size present is the PMD size (anon mTHP orders stop
 * there): 2 MiB with 4 KiB pages, 32 MiB with 16 KiB.  Only what the
 * kernel's rule looks at counts (wm_thp_sizes_matter).
 */
static int thp_mode(const struct wm_texts *t, const struct wm_profile *p, enum wm_thp *out)
{
	struct wm_thp_controls c = { .global = thp_global(t), .pmd = WM_THP_SIZE_ABSENT };
	const struct wm_thp_size_text **sz = NULL;
	bool have_pmd = false;
	char word[32];
	size_t i, n = 0;

	*out = WM_THP_UNSUPPORTED;
	if (!text(t, WM_TEXT_THP))
		return WM_OK;
	if (t->nthp_sizes && wm_thp_sizes_matter(p, &c, false)) {
		sz = malloc(t->nthp_sizes * sizeof(*sz));
		if (!sz)
			return WM_ENOMEM;
		for (n = 0; n < t->nthp_sizes; n++)
			sz[n] = &t->thp_sizes[n];
		qsort(sz, n, sizeof(*sz), thp_size_desc);
	}
	for (i = 0; i < n && wm_thp_sizes_matter(p, &c, have_pmd); i++) {
		enum wm_thp_size z = WM_THP_SIZE_ABSENT;

		if (!sz[i]->enabled.buf)
			continue;
		if (pf_parse_choice(sz[i]->enabled.buf, sz[i]->enabled.len, word, sizeof(word),
				    NULL) == WM_OK)
			z = thp_size_word(word);
		if (z == WM_THP_SIZE_ABSENT)
			continue;
		if (!have_pmd) {
			c.pmd = z;
			have_pmd = true;
		} else if (z == WM_THP_SIZE_ALWAYS || z == WM_THP_SIZE_MADVISE) {
			c.other_on++;
		}
	}
	free(sz);
	*out = wm_thp_for_mfk(p, &c);
	return WM_OK;
}

/* ---- geometry -------------------------------------------------------- */

/*
 * The machine's architecture, for the page geometry: the root's
 * kernel/arch (`uname -m`, 6.1+ has it), else the architecture its
 * kernel's release names (Debian's flavours), else, on the live machine,
 * uname(2)'s.  Never the architecture wmark was built for: a capture of
 * an s390x read on x86-64 is an s390x.
 */
static enum wm_arch machine_arch(const struct wm_texts *t, const char *osrelease)
{
	const struct wm_text_buf *b = text(t, WM_TEXT_ARCH);
	enum wm_arch a = WM_ARCH_UNKNOWN;
	char line[64];

	if (b && pf_parse_line(b->buf, b->len, line, sizeof(line), NULL) == WM_OK &&
	    wm_arch_parse(line, &a, NULL) == WM_OK)
		return a;
	if (osrelease[0] && wm_arch_from_release(osrelease, &a))
		return a;
	if (t->live && t->live_arch && wm_arch_parse(t->live_arch, &a, NULL) == WM_OK)
		return a;
	return WM_ARCH_UNKNOWN;
}

/*
 * The live pageblock without pagetypeinfo, where the kernel fixes it when
 * it is built and hugetlb is configured and the architecture's huge page
 * is its PMD (wm_arch_pmd_hugepage): the order of THP's PMD size capped
 * by buddyinfo's largest order (wm_pageblock_from_pmd).  powerpc decides
 * the order at boot.  Fill *order and *pb, or leave *pb 0.
 */
static void live_pageblock(const struct wm_texts *t, enum wm_arch arch, unsigned *order,
			   uint64_t *pb)
{
	const struct wm_text_buf *pmd_t = text(t, WM_TEXT_PMD_SIZE), *bi = text(t, WM_TEXT_BUDDYINFO);
	unsigned orders;
	int64_t pmd;

	*pb = 0;
	if (!t->live || !wm_arch_pmd_hugepage(arch) || !t->hugetlb || !pmd_t || !bi)
		return;
	if (pf_parse_long(pmd_t->buf, pmd_t->len, &pmd, NULL) != WM_OK || pmd <= 0)
		return;
	if (wm_parse_buddyinfo_orders(bi->buf, bi->len, &orders, NULL) != WM_OK ||
	    wm_pageblock_from_pmd(t->live_page_size, (uint64_t)pmd, orders, order, pb, NULL))
		*pb = 0;
}

bool wm_texts_pageblock_known(const struct wm_texts *t)
{
	struct wm_kernel_id k;
	unsigned order = 0;
	uint64_t pb = 0;

	if (!t->live || wm_state_kernel(t, &k, NULL, NULL))
		return false;
	live_pageblock(t, machine_arch(t, k.osrelease), &order, &pb);
	return pb != 0;
}

/* MemTotal in kB from meminfo, 0 when it is absent or says nothing usable. */
static uint64_t memtotal(const struct wm_texts *t)
{
	const struct wm_text_buf *b = text(t, WM_TEXT_MEMINFO);
	struct pf_kv mi = { 0 };
	uint64_t total = 0;

	if (!b)
		return 0;
	if (pf_parse_meminfo(b->buf, b->len, &mi, NULL) != WM_OK ||
	    !pf_kv_get(&mi, "MemTotal", &total))
		total = 0;
	pf_kv_free(&mi);
	return total;
}

/*
 * The page geometry: the live machine's page size is the one given; a
 * capture's is what it recorded, else MemTotal against the managed
 * counts.  The pageblock comes, on the live machine, from the PMD size
 * where the kernel allows (live_pageblock); else from pagetypeinfo; else
 * what the capture recorded; else from the page size and the
 * architecture.
 */
static int geometry(const struct wm_texts *t, struct wm_state *s, enum wm_text *which,
		    struct wm_diag *diag)
{
	const struct wm_text_buf *b;
	enum wm_arch arch = machine_arch(t, s->kernel.osrelease);
	unsigned page_size = 0, order = 0;
	uint64_t pb = 0, managed = 0;
	int rec_order = -1, rc;
	bool pb_recorded = false;
	size_t i;

	s->memtotal_kb = memtotal(t);
	if (t->live) {
		page_size = t->live_page_size;
		live_pageblock(t, arch, &order, &pb);
		if (pb) {
			if (wm_geometry_settle_arch(arch, page_size, 0, 0, order, pb, &s->geo, diag))
				return at(which, WM_TEXT_PMD_SIZE, WM_EINVAL);
			s->geo.pageblock_from = WM_GEO_SYSFS;
			return WM_OK;
		}
	} else {
		for (i = 0; i < s->layout.nzones; i++)
			managed += s->layout.zones[i].managed;
		/* what capture recorded beats MemTotal, which cannot always tell */
		if ((b = text(t, WM_TEXT_GEOMETRY)) &&
		    wm_parse_geometry(b->buf, b->len, &page_size, &rec_order, diag))
			return at(which, WM_TEXT_GEOMETRY, WM_EPARSE);
	}
	if ((b = text(t, WM_TEXT_PAGETYPEINFO))) {
		rc = wm_parse_pagetypeinfo(b->buf, b->len, &order, &pb, diag);
		if (rc == WM_EPARSE)
			return at(which, WM_TEXT_PAGETYPEINFO, rc);
		if (rc)
			pb = 0;
	}
	if (!pb && rec_order >= 0) {
		order = (unsigned)rec_order;
		pb = (uint64_t)1 << order;
		pb_recorded = true;
	}
	rc = wm_geometry_settle_arch(arch, page_size, t->live ? 0 : s->memtotal_kb, managed,
				     order, pb, &s->geo, diag);
	if (rc == WM_ENODATA && t->assumed_page_size)
		rc = wm_geometry_assume(arch, t->assumed_page_size, !t->live && s->memtotal_kb,
					order, pb, &s->geo, diag);
	if (rc)
		return at(which, rc == WM_ENODATA ? WM_TEXT_MEMINFO : pb_recorded ? WM_TEXT_GEOMETRY
				 : pb ? WM_TEXT_PAGETYPEINFO : WM_TEXT_MEMINFO, rc);
	if (!t->live && page_size)
		s->geo.page_size_from = WM_GEO_CAPTURE;
	if (pb_recorded)
		s->geo.pageblock_from = WM_GEO_CAPTURE;
	return WM_OK;
}

/* ---- the state ------------------------------------------------------- */

static int zones(const struct wm_texts *t, struct wm_state *s, enum wm_text *which,
		 struct wm_diag *diag)
{
	const struct wm_text_buf *b = text(t, WM_TEXT_ZONEINFO);
	int rc;

	if (!b) {
		if (t->need & WM_NEED_ZONEINFO)
			return at(which, WM_TEXT_ZONEINFO,
				  wm_fail(diag, WM_ENODATA, 0, "zoneinfo",
					  "no zoneinfo: the zones are unknown"));
		return WM_OK;
	}
	s->have_zones = true;
	if ((rc = zi_parse(b->buf, b->len, &s->zi, diag)))
		return at(which, WM_TEXT_ZONEINFO, rc);
	return WM_OK;
}

static int view(struct wm_state *s, struct wm_diag *diag)
{
	struct wm_printed *pr;
	uint64_t *boost;
	size_t i, n = s->layout.nzones;

	s->view = calloc(n + 1, sizeof(*s->view));
	pr = calloc(n + 1, sizeof(*pr));
	boost = calloc(n + 1, sizeof(*boost));
	if (!s->view || !pr || !boost) {
		free(pr);
		free(boost);
		return wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory");
	}
	wm_printed_from_zoneinfo(&s->zi, &s->layout, pr, boost);
	for (i = 0; i < n; i++)
		s->view[i] = (struct wm_zone_view){ .printed = s->layout.printed[i],
						    .boost = boost[i], .raw = pr[i] };
	free(pr);
	free(boost);
	return WM_OK;
}

static int build(const struct wm_texts *t, struct wm_state *s, enum wm_text *which,
		 struct wm_diag *diag)
{
	int rc;

	/* the kernel first: the sysctls are checked against its ranges */
	if ((rc = wm_state_kernel(t, &s->kernel, which, diag)) ||
	    (rc = zones(t, s, which, diag)) ||
	    (rc = sysctls(t, &s->kernel.prof, &s->sysctl, which, diag)))
		return rc;
	if ((rc = thp_mode(t, &s->kernel.prof, &s->thp)))
		return at(which, WM_TEXT_THP, wm_fail(diag, rc, 0, NULL, "out of memory"));
	if ((rc = wm_layout_from_zoneinfo(&s->zi, &s->layout, diag)))
		return at(which, WM_TEXT_ZONEINFO, rc);
	if ((rc = geometry(t, s, which, diag)))
		return rc;
	if ((rc = view(s, diag)))
		return at(which, WM_TEXT_ZONEINFO, rc);
	s->m = (struct wm_machine){ .zones = s->layout.zones, .nzones = s->layout.nzones,
				    .page_size = s->geo.page_size,
				    .pageblock_pages = s->geo.pageblock_pages };
	return WM_OK;
}

int wm_state_build(const struct wm_texts *t, struct wm_state *out, enum wm_text *which,
		   struct wm_diag *diag)
{
	int rc;

	memset(out, 0, sizeof(*out));
	wm_sysctl_none(&out->sysctl);
	out->thp = WM_THP_UNSUPPORTED;
	rc = build(t, out, which, diag);
	/* nothing half-built is left to the caller */
	if (rc)
		wm_state_free(out);
	return rc;
}

void wm_state_free(struct wm_state *s)
{
	if (!s)
		return;
	zi_free(&s->zi);
	wm_layout_free(&s->layout);
	free(s->view);
	memset(s, 0, sizeof(*s));
	wm_sysctl_none(&s->sysctl);
	s->thp = WM_THP_UNSUPPORTED;
}
