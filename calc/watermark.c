// SPDX-License-Identifier: MIT
/*
 * watermark.c - the kernel's zone watermarks, protection arrays and boot
 * min_free_kbytes, in its own integer arithmetic.
 *
 * Models, per docs/model.md:
 *  - __setup_per_zone_wmarks() (mm/page_alloc.c), 2.6 to 6.19: section 3;
 *  - setup_per_zone_lowmem_reserve(), rules A to E: section 4;
 *  - init_per_zone_wmark_min() / calculate_min_free_kbytes() and
 *    khugepaged's set_recommended_min_free_kbytes(): section 2;
 *  - the 2018 linux-mm RFC's sqrt-clamped high watermark: section 7;
 *  - Android's extra_free_kbytes patch (4.x common kernels).
 *
 * The subtle point: the min->low gap is floored at a quarter of the zone's
 * *proportional* share of pages_min, even where the printed min is the
 * 32..128 clamp of a HighMem or Movable zone (Movable: from 6.6, and
 * before 6.6 wherever is_highmem() counts it, see wm_movable_highmem()).
 * That floor is why a small watermark_scale_factor often changes nothing.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "wmark.h"

unsigned wm_page_shift(const struct wm_machine *m)
{
	unsigned s = 0;

	while (s < 31 && (1u << s) < m->page_size)
		s++;
	return s;
}

int wm_need_geometry(const struct wm_machine *m, bool pageblock, struct wm_diag *diag)
{
	if (m->page_size < 4096)
		return wm_fail(diag, WM_EINVAL, 0, "page_size",
			       m->page_size ? "page size %u: below 4096 bytes"
					    : "the machine's page size is unknown (%u)", m->page_size);
	if (pageblock && !m->pageblock_pages)
		return wm_fail(diag, WM_EINVAL, 0, "pageblock",
			       "the machine's pageblock is unknown (0 pages)");
	return WM_OK;
}

/* Zones above ZONE_NORMAL are not "lowmem" for nr_free_buffer_pages(). */
static bool is_lowmem_type(enum wm_zone_type t)
{
	return t == WM_ZONE_DMA || t == WM_ZONE_DMA32 || t == WM_ZONE_NORMAL ||
	       t == WM_ZONE_OTHER;
}

bool wm_movable_highmem(const struct wm_profile *p, const struct wm_machine *m)
{
	bool configured = false, pages = false, nodes = false;
	size_t i;

	if (m->movable_highmem)
		return true;
	for (i = 0; i < m->nzones; i++) {
		const struct wm_zone *z = &m->zones[i];

		nodes |= z->node != m->zones[0].node;
		if (z->type != WM_ZONE_HIGHMEM)
			continue;
		configured = true;
		pages |= z->present || z->managed;
	}
	return p->movable_highmem_by_index && !nodes ? configured : pages;
}

/* HighMem always, Movable from 6.6 or as highmem: clamp(managed/1024, 32, 128). */
bool wm_zone_capped(const struct wm_profile *p, bool movable_highmem,
		    enum wm_zone_type t)
{
	return t == WM_ZONE_HIGHMEM ||
	       (t == WM_ZONE_MOVABLE && (p->movable_capped || movable_highmem));
}

/*
 * For the long fields of the results.  Page counts are unsigned long, as in
 * the kernel, so a 32-bit build computes what a 32-bit kernel does; the
 * uint64_t values stored here pass INT64_MAX only where long has 32 bits
 * (e.g. a wsf floor over a lowmem of a few hundred pages).
 */
static int64_t to_long(uint64_t v)
{
	return v > INT64_MAX ? INT64_MAX : (int64_t)v;
}

static uint64_t clamp_ul(uint64_t v, uint64_t lo, uint64_t hi)
{
	/* The kernel's clamp(): min(max(v, lo), hi), so hi wins if lo > hi. */
	if (v < lo)
		v = lo;
	return v > hi ? hi : v;
}

int wm_setup_wmarks(const struct wm_profile *p, const struct wm_machine *m,
		    const struct wm_sysctl *s, struct wm_zone_wm *out,
		    struct wm_diag *diag)
{
	unsigned shift = wm_page_shift(m);
	uint64_t pages_min, pages_extra = 0, lowmem = 0, total = 0;
	bool mhm = wm_movable_highmem(p, m);
	size_t i;
	int rc;

	if (!m->nzones)
		return wm_fail(diag, WM_ENOZONE, 0, NULL, "no zones to compute");
	if ((rc = wm_need_geometry(m, false, diag)))
		return rc;
	if (s->min_free_kbytes < 0 || s->min_free_kbytes > 2147483647L)
		return wm_fail(diag, WM_EINVAL, 0, "min_free_kbytes",
			       "%" PRId64 " is outside 0..2147483647", s->min_free_kbytes);
	if (p->wsf && (s->wsf < 1 || s->wsf > p->wsf_max))
		return wm_fail(diag, WM_EINVAL, 0, "watermark_scale_factor",
			       "%" PRId64 " is outside the kernel's range 1..%" PRId64 "",
			       s->wsf, p->wsf_max);

	pages_min = (uint64_t)s->min_free_kbytes >> (shift - 10);
	if (s->extra_free_kbytes > 0)
		pages_extra = (uint64_t)s->extra_free_kbytes >> (shift - 10);
	for (i = 0; i < m->nzones; i++) {
		const struct wm_zone *z = &m->zones[i];

		total += z->managed;
		if (!wm_zone_capped(p, mhm, z->type))
			lowmem += z->managed;
	}
	if (m->vm_total_pages)
		total = m->vm_total_pages;

	for (i = 0; i < m->nzones; i++) {
		const struct wm_zone *z = &m->zones[i];
		struct wm_zone_wm *w = &out[i];
		uint64_t prop, min, gap, wsf_term, base;

		memset(w, 0, sizeof(*w));
		/* u64 product, floor division: wraps like the kernel's. */
		prop = lowmem ? (uint64_t)(pages_min * z->managed / lowmem) : 0;
		if (pages_extra && total)
			w->extra = (uint64_t)(pages_extra * z->managed / total);
		if (z->type == WM_ZONE_DEVICE)
			min = prop;	/* managed 0: everything 0 */
		else if (wm_zone_capped(p, mhm, z->type))
			min = clamp_ul(z->managed / 1024, WM_SWAP_CLUSTER_MAX, 128);
		else
			min = prop;
		w->prop = prop;
		w->min = min;

		/* 5.0 - 5.7: boost was cleared only after LOW/HIGH used it. */
		base = min + (p->boost_reset_late ? z->boost_at_setup : 0);
		if (!p->wsf) {
			/* Before 4.6: LOW = MIN + share/4, HIGH = MIN + share/2. */
			w->gap = prop >> 2;
			w->low = base + w->extra + (prop >> 2);
			w->high = base + w->extra + (prop >> 1);
		} else {
			wsf_term = (uint64_t)wm_mult_frac(z->managed,
							       (uint64_t)s->wsf, 10000);
			gap = prop >> 2 > wsf_term ? prop >> 2 : wsf_term;
			w->gap = gap;
			w->low = base + w->extra + gap;
		}

		/*
		 * The 2018 RFC: low->high = clamp(gap * isqrt(4*managed) /
		 * 10000, min/4, gap), min/4 from the printed (clamped) min.
		 */
		w->gap_sqrt = clamp_ul((uint64_t)wm_mult_frac(w->gap,
					wm_int_sqrt(4 * (uint64_t)z->managed), 10000),
				       min >> 2, w->gap);
		w->high_sqrt = w->low + w->gap_sqrt;
		if (p->wsf) {
			/* high by p's rule; promo stays one gap above it */
			w->high = w->low + (p->high_rule == WM_HIGH_SQRT ? w->gap_sqrt :
					    p->high_rule == WM_HIGH_QUARTER ? w->gap >> 2 :
					    w->gap);	/* = MIN + 2*gap before 5.18 */
			if (p->promo)
				w->promo = w->high + w->gap;	/* 5.18+ */
		}

		if (!p->wsf || !z->managed) {
			w->wsf_floor = -1;
			w->wsf_effective = -1;
		} else {
			/* smallest w with floor(managed*w/10000) > prop/4 */
			uint64_t need = 10000 * ((uint64_t)(prop >> 2) + 1);

			w->wsf_floor = to_long((need + z->managed - 1) / z->managed);
			/* the largest w with floor(managed*w/10000) <= gap */
			w->wsf_effective = to_long((((uint64_t)w->gap + 1) * 10000 - 1) /
						   z->managed);
		}
	}
	return WM_OK;
}

int wm_protection(const struct wm_profile *p, const struct wm_machine *m,
		  const struct wm_sysctl *s, struct wm_zone_wm *out,
		  struct wm_diag *diag)
{
	size_t first, n, i, j;

	for (first = 0; first < m->nzones; first += n) {
		const struct wm_zone *z = &m->zones[first];
		uint64_t managed[WM_MAX_ZONES];
		int64_t ratio[WM_MAX_ZONES], prot[WM_MAX_ZONES][WM_MAX_ZONES];

		for (n = 0; first + n < m->nzones &&
			    m->zones[first + n].node == z->node; n++) {
			if (n >= WM_MAX_ZONES || m->zones[first + n].idx != (int)n)
				return wm_fail(diag, WM_EINVAL, 0, NULL,
					       "node %d: zones must have indexes 0..%d in order",
					       z->node, WM_MAX_ZONES - 1);
			managed[n] = m->zones[first + n].managed;
		}
		for (i = 0; i < n; i++) {
			ratio[i] = (int)i < s->nlrr ? s->lrr[i] : 0;
			/* <= 4.16 forces a ratio < 1 to 1; later kernels to 0. */
			if (ratio[i] < 1)
				ratio[i] = p->lrr_rule == WM_LRR_A ? 1 : 0;
		}
		memset(prot, 0, sizeof(prot));

		switch (p->lrr_rule) {
		case WM_LRR_A:
		case WM_LRR_B:
		case WM_LRR_C:
			/* Downward from each upper zone j, summing as it goes. */
			for (j = 0; j < n; j++) {
				uint64_t acc = managed[j];

				for (i = j; i-- > 0;) {
					if (p->lrr_rule == WM_LRR_C &&
					    (!ratio[i] || !managed[i]))
						continue;	/* quirk: not summed */
					prot[i][j] = ratio[i] ? (int64_t)(acc / (uint64_t)ratio[i]) : 0;
					acc += managed[i];
				}
			}
			break;
		case WM_LRR_D:
		case WM_LRR_E:
			/* Upward from each lower zone i (5.11+). */
			for (i = 0; i + 1 < n; i++) {
				bool clear = !ratio[i] || !managed[i];
				uint64_t acc = 0;

				for (j = i + 1; j < n; j++) {
					acc += managed[j];
					if (clear || (p->lrr_rule == WM_LRR_E && !managed[j]))
						prot[i][j] = 0;
					else
						prot[i][j] = (int64_t)(acc / (uint64_t)ratio[i]);
				}
			}
			break;
		}
		for (i = 0; i < n; i++) {
			memset(out[first + i].protection, 0,
			       sizeof(out[first + i].protection));
			for (j = 0; j < n; j++)
				out[first + i].protection[j] = prot[i][j];
		}
	}
	return WM_OK;
}

const char *wm_mfk_rule_name(enum wm_mfk_rule r)
{
	switch (r) {
	case WM_MFK_SQRT: return "sqrt";
	case WM_MFK_SQRT_RERUN: return "sqrt-rerun";
	case WM_MFK_THP: return "thp";
	case WM_MFK_USER: return "user";
	}
	return "?";
}

/* nr_free_buffer_pages(): lowmem managed pages above each high watermark. */
static uint64_t free_buffer_pages(const struct wm_machine *m,
				  const struct wm_zone_wm *w)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < m->nzones; i++) {
		const struct wm_zone *z = &m->zones[i];
		uint64_t high = w ? w[i].high + z->boost : 0;

		if (is_lowmem_type(z->type) && z->managed > high)
			sum += z->managed - high;
	}
	return sum;
}

static int64_t sqrt_rule(const struct wm_profile *p, uint64_t lowmem_kb, int64_t *raw)
{
	uint64_t v = wm_int_sqrt(lowmem_kb * 16);

	*raw = v > 2147483647 ? 2147483647 : (int64_t)v;
	return (int64_t)clamp_ul((uint64_t)v, 128, (uint64_t)p->mfk_clamp_max);
}

static bool thp_on(enum wm_thp t)
{
	return t == WM_THP_ALWAYS || t == WM_THP_MADVISE;
}

static bool size_on(enum wm_thp_size z)
{
	return z == WM_THP_SIZE_ALWAYS || z == WM_THP_SIZE_MADVISE;
}

enum wm_thp wm_thp_for_mfk(const struct wm_profile *p, const struct wm_thp_controls *c)
{
	unsigned v = p->kver.major * 100 + p->kver.minor;
	bool on;

	if (c->global == WM_THP_UNSUPPORTED || !p->thp)
		return WM_THP_UNSUPPORTED;
	if (v < 611)
		return c->global;
	if (v < 700) {
		if (c->pmd == WM_THP_SIZE_ABSENT)
			return c->global;
		on = size_on(c->pmd) || (c->pmd == WM_THP_SIZE_INHERIT && thp_on(c->global));
	} else {
		/* a size at inherit is on exactly when the global control is */
		on = thp_on(c->global) || size_on(c->pmd) || c->other_on > 0;
	}
	if (!on)
		return WM_THP_NEVER;
	return thp_on(c->global) ? c->global : WM_THP_MADVISE;
}

bool wm_thp_sizes_matter(const struct wm_profile *p, const struct wm_thp_controls *c,
			 bool pmd_read)
{
	unsigned v = p->kver.major * 100 + p->kver.minor;

	if (v < 611 || c->global == WM_THP_UNSUPPORTED)
		return false;
	if (!pmd_read)
		return true;
	return v >= 700 && !thp_on(c->global) && !size_on(c->pmd) && !c->other_on;
}

int wm_boot_min_free_kbytes(const struct wm_profile *p,
			    const struct wm_machine *m,
			    const struct wm_sysctl *s, enum wm_thp thp,
			    struct wm_mfk *out, struct wm_diag *diag)
{
	unsigned shift = wm_page_shift(m);
	uint64_t kb_per_page, total = 0, lowmem;
	struct wm_zone_wm *w;
	struct wm_sysctl tmp = *s;
	size_t i;
	int rc, nz = 0;

	if (!m->nzones)
		return wm_fail(diag, WM_ENOZONE, 0, NULL, "no zones to compute");
	if ((rc = wm_need_geometry(m, false, diag)))
		return rc;
	kb_per_page = (uint64_t)1 << (shift - 10);
	memset(out, 0, sizeof(*out));
	out->rerun_kb = out->thp_kb = out->thp_uncapped_kb = -1;

	/* (1) init_per_zone_wmark_min(): watermarks are still 0. */
	lowmem = free_buffer_pages(m, NULL);
	out->lowmem_pages = (uint64_t)lowmem;
	out->sqrt_kb = sqrt_rule(p, lowmem * kb_per_page, &out->sqrt_raw_kb);
	out->value = out->sqrt_kb;
	out->rule = WM_MFK_SQRT;

	/* (2) hugepage_init(): THP support and at least 512 MiB of RAM. */
	for (i = 0; i < m->nzones; i++)
		total += m->zones[i].managed;
	if (!p->thp)
		thp = WM_THP_UNSUPPORTED;	/* before 2.6.38: no hugepage_init() */
	if (thp == WM_THP_UNSUPPORTED || total < ((uint64_t)512 << 20) >> shift)
		return WM_OK;
	if (thp == WM_THP_NEVER && !p->thp_off_recompute)
		return WM_OK;

	w = calloc(m->nzones, sizeof(*w));
	if (!w)
		return wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory");
	tmp.min_free_kbytes = out->value;
	rc = wm_setup_wmarks(p, m, &tmp, w, diag);
	if (rc)
		goto done;

	if (thp == WM_THP_NEVER) {
		/* 5.16+: stopping khugepaged re-runs the sqrt rule. */
		int64_t raw;

		out->rerun_kb = sqrt_rule(p, free_buffer_pages(m, w) * kb_per_page, &raw);
		out->value = out->rerun_kb;
		out->rule = WM_MFK_SQRT_RERUN;
		goto done;
	}

	/* 2 free pageblocks per zone plus 9 for the pcp migratetypes. */
	if ((rc = wm_need_geometry(m, true, diag)))
		goto done;
	for (i = 0; i < m->nzones; i++) {
		const struct wm_zone *z = &m->zones[i];

		if (z->present && (!p->thp_lowmem_zones || is_lowmem_type(z->type)))
			nz++;
	}
	out->thp_zones = nz;
	{
		uint64_t rec = (uint64_t)m->pageblock_pages * (uint64_t)nz * 11;
		uint64_t cap = free_buffer_pages(m, w) / 20;

		out->thp_uncapped_kb = (int64_t)(rec << (shift - 10));
		if (rec > cap)
			rec = cap;
		out->thp_kb = (int64_t)(rec << (shift - 10));
	}
	if (out->thp_kb > out->value) {
		out->value = out->thp_kb;
		out->rule = WM_MFK_THP;
	}
done:
	free(w);
	return rc;
}
