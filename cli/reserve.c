// SPDX-License-Identifier: MIT
/*
 * reserve.c - what a watermark change takes from the memory the kernel
 * calls available: calculate_totalreserve_pages() and si_mem_available()
 * (mm/page_alloc.c, mm/show_mem.c in 6.x), today and after a change.
 * Shared by whatif and recommend.
 */
#include <stdlib.h>

#include "../calc/procfs.h"
#include "whatif.h"

/* calculate_totalreserve_pages(): per zone the largest protection plus high. */
static unsigned long totalreserve(const struct snapshot *s, const long *high,
				  const long (*prot)[WM_MAX_ZONES])
{
	unsigned long sum = 0;
	size_t i;
	int j;

	for (i = 0; i < s->m.nzones; i++) {
		unsigned long mx = 0;

		for (j = 0; j < WM_MAX_ZONES; j++)
			if (prot[i][j] > (long)mx)
				mx = (unsigned long)prot[i][j];
		mx += (unsigned long)high[i];
		if (mx > s->m.zones[i].managed)
			mx = s->m.zones[i].managed;
		sum += mx;
	}
	return sum;
}

/*
 * si_mem_available(): free - totalreserve + pagecache - min(pagecache/2,
 * low) + reclaimable - min(reclaimable/2, low), low = sum of low marks.
 */
static long mem_available(unsigned long free, unsigned long reserve, unsigned long pagecache,
			  unsigned long reclaimable, unsigned long low)
{
	long a = (long)free - (long)reserve;

	a += (long)pagecache - (long)(pagecache / 2 < low ? pagecache / 2 : low);
	a += (long)reclaimable - (long)(reclaimable / 2 < low ? reclaimable / 2 : low);
	return a < 0 ? 0 : a;
}

void whatif_reserve(const struct snapshot *s, const struct whatif_zone *after,
		    struct whatif_reserve *r)
{
	size_t i, n = s->m.nzones;
	long *hi_now = calloc(n ? n : 1, sizeof(*hi_now));
	long *hi_after = calloc(n ? n : 1, sizeof(*hi_after));
	long (*p_now)[WM_MAX_ZONES] = calloc(n ? n : 1, sizeof(*p_now));
	long (*p_after)[WM_MAX_ZONES] = calloc(n ? n : 1, sizeof(*p_after));
	unsigned long pb = s->m.page_size / 1024;	/* KiB per page */
	struct pf_kv mi = { 0 };
	char *mbuf = NULL;
	size_t mlen;
	int j;

	r->total_now = r->total_after = r->low_now = r->low_after = 0;
	r->have_meminfo = false;
	r->avail_now = r->avail_after = 0;
	r->hugetlb_kb = -1;
	if (!hi_now || !hi_after || !p_now || !p_after)
		goto out;
	for (i = 0; i < n; i++) {
		long k = s->zone_map[i];
		const struct zi_zone *z = k >= 0 ? &s->zi.zones[k] : NULL;

		hi_now[i] = z ? (long)z->high : 0;
		hi_after[i] = (long)(after[i].wm.high + after[i].boost);
		r->low_now += z ? z->low : 0;
		r->low_after += after[i].wm.low + after[i].boost;
		for (j = 0; j < WM_MAX_ZONES; j++) {
			p_now[i][j] = z && j < z->nprotection ? z->protection[j] : 0;
			p_after[i][j] = after[i].wm.protection[j];
		}
	}
	r->total_now = totalreserve(s, hi_now, (const long (*)[WM_MAX_ZONES])p_now);
	r->total_after = totalreserve(s, hi_after, (const long (*)[WM_MAX_ZONES])p_after);
	if (read_rooted(s->root, P_MEMINFO, &mbuf, &mlen) == 0 &&
	    pf_parse_meminfo(mbuf, mlen, &mi, NULL) == WM_OK) {
		uint64_t fr, af, inf_, sr, kr = 0, ht, hp, hs;

		if (pf_kv_get(&mi, "MemFree", &fr) && pf_kv_get(&mi, "Active(file)", &af) &&
		    pf_kv_get(&mi, "Inactive(file)", &inf_) && pf_kv_get(&mi, "SReclaimable", &sr)) {
			pf_kv_get(&mi, "KReclaimable", &kr);
			if (kr < sr)
				kr = sr;
			r->have_meminfo = true;
			r->avail_now = mem_available(fr / pb, r->total_now, (af + inf_) / pb,
						     kr / pb, r->low_now);
			r->avail_after = mem_available(fr / pb, r->total_after, (af + inf_) / pb,
						       kr / pb, r->low_after);
		}
		/* "Hugetlb:" (4.16+) counts every size; older kernels the default size only */
		if (pf_kv_get(&mi, "Hugetlb", &ht))
			r->hugetlb_kb = (long)ht;
		else if (pf_kv_get(&mi, "HugePages_Total", &hp) &&
			 pf_kv_get(&mi, "Hugepagesize", &hs))
			r->hugetlb_kb = (long)(hp * hs);
	}
out:
	pf_kv_free(&mi);
	free(mbuf);
	free(hi_now);
	free(hi_after);
	free(p_now);
	free(p_after);
}
