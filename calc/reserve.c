// SPDX-License-Identifier: MIT
/*
 * reserve.c - what the watermarks take from the memory the kernel calls
 * available: calculate_totalreserve_pages() and si_mem_available()
 * (mm/page_alloc.c; si_mem_available() in mm/show_mem.c from 6.2).
 *
 * The subtle point: both use the watermarks as zoneinfo prints them,
 * boost included (high_wmark_pages() adds watermark_boost), and
 * totalreserve caps a zone at its managed pages, so a tiny DMA zone
 * whose protection exceeds its size counts only its size.
 */
#include <stdlib.h>
#include <string.h>

#include "reserve.h"

void wm_meminfo_from(const struct pf_kv *mi, struct wm_meminfo *out)
{
	uint64_t af, inf, sr, kr = 0, ht, hp, hs;

	memset(out, 0, sizeof(*out));
	if (pf_kv_get(mi, "MemFree", &out->free_kb) && pf_kv_get(mi, "Active(file)", &af) &&
	    pf_kv_get(mi, "Inactive(file)", &inf) && pf_kv_get(mi, "SReclaimable", &sr)) {
		pf_kv_get(mi, "KReclaimable", &kr);
		out->known = true;
		out->file_kb = af + inf;
		out->reclaimable_kb = kr < sr ? sr : kr;
	}
	/* "Hugetlb:" (4.16+) counts every size; older kernels the default size only */
	if (pf_kv_get(mi, "Hugetlb", &ht)) {
		out->hugetlb_known = true;
		out->hugetlb_kb = ht;
	} else if (pf_kv_get(mi, "HugePages_Total", &hp) && pf_kv_get(mi, "Hugepagesize", &hs)) {
		out->hugetlb_known = true;
		out->hugetlb_kb = hp * hs;
	}
}

uint64_t wm_totalreserve(const struct wm_reserve_zone *z, size_t n)
{
	uint64_t sum = 0;
	size_t i;
	int j;

	for (i = 0; i < n; i++) {
		uint64_t mx = 0;

		for (j = 0; j < WM_MAX_ZONES; j++)
			if (z[i].protection[j] > (int64_t)mx)
				mx = (uint64_t)z[i].protection[j];
		mx += z[i].high;
		if (mx > z[i].managed)
			mx = z[i].managed;
		sum += mx;
	}
	return sum;
}

static uint64_t min_ul(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

int64_t wm_mem_available(const struct wm_meminfo *mi, unsigned page_size,
		      uint64_t totalreserve, uint64_t low_sum)
{
	uint64_t kbpp = page_size >= 1024 ? page_size / 1024 : 4;
	uint64_t free_ = (uint64_t)(mi->free_kb / kbpp);
	uint64_t cache = (uint64_t)(mi->file_kb / kbpp);
	uint64_t recl = (uint64_t)(mi->reclaimable_kb / kbpp);
	int64_t a = (int64_t)free_ - (int64_t)totalreserve;

	a += (int64_t)cache - (int64_t)min_ul(cache / 2, low_sum);
	a += (int64_t)recl - (int64_t)min_ul(recl / 2, low_sum);
	return a < 0 ? 0 : a;
}

void wm_reserve_change(const struct wm_state *s, const struct wm_predicted *after,
		       const struct wm_meminfo *mi, struct wm_reserve *out)
{
	const struct wm_machine *m = &s->m;
	const struct zi_info *zi = &s->zi;
	const struct wm_layout *l = &s->layout;
	size_t i, n = m->nzones;
	struct wm_reserve_zone *now = calloc(n ? n : 1, sizeof(*now));
	struct wm_reserve_zone *aft = calloc(n ? n : 1, sizeof(*aft));
	int j;

	memset(out, 0, sizeof(*out));
	out->hugetlb_kb = mi && mi->hugetlb_known ? (int64_t)mi->hugetlb_kb : -1;
	if (!now || !aft)
		goto done;
	for (i = 0; i < n; i++) {
		const struct zi_zone *z = wm_layout_zone(l, zi, i);

		now[i].managed = aft[i].managed = m->zones[i].managed;
		now[i].high = z ? z->high : 0;
		now[i].low = z ? z->low : 0;
		aft[i].high = after[i].wm.high + after[i].boost;
		aft[i].low = after[i].wm.low + after[i].boost;
		for (j = 0; j < WM_MAX_ZONES; j++) {
			now[i].protection[j] = z && j < z->nprotection ? z->protection[j] : 0;
			aft[i].protection[j] = after[i].wm.protection[j];
		}
		out->low_now += now[i].low;
		out->low_after += aft[i].low;
	}
	out->total_now = wm_totalreserve(now, n);
	out->total_after = wm_totalreserve(aft, n);
	if (mi && mi->known) {
		out->have_meminfo = true;
		out->avail_now = wm_mem_available(mi, m->page_size, out->total_now, out->low_now);
		out->avail_after = wm_mem_available(mi, m->page_size, out->total_after,
						    out->low_after);
	}
done:
	free(now);
	free(aft);
}
