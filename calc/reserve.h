/* SPDX-License-Identifier: MIT */
/*
 * reserve.h - the memory the watermarks hold back: the kernel's
 * totalreserve_pages and MemAvailable, today and after a change.
 */
#ifndef WMARK_RESERVE_H
#define WMARK_RESERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "change.h"
#include "procfs.h"
#include "state.h"
#include "wmark.h"

/* What si_mem_available() reads besides the watermarks, from meminfo. */
struct wm_meminfo {
	bool known;			/* MemFree, the file LRUs and SReclaimable were there */
	uint64_t free_kb;		/* MemFree */
	uint64_t file_kb;		/* Active(file) + Inactive(file) */
	uint64_t reclaimable_kb;	/* KReclaimable (4.20+), else SReclaimable */
	bool hugetlb_known;
	uint64_t hugetlb_kb;		/* Hugetlb (4.16+, every size), else the default size's pool */
};

/* Fill *out from a parsed /proc/meminfo (known false where keys are missing). */
void wm_meminfo_from(const struct pf_kv *mi, struct wm_meminfo *out);

/* One zone's reserve inputs, as zoneinfo prints them (boost included). */
struct wm_reserve_zone {
	uint64_t managed;		/* pages */
	uint64_t low, high;	/* pages */
	int64_t protection[WM_MAX_ZONES];	/* pages; lowmem_reserve[] */
};

/*
 * calculate_totalreserve_pages() (mm/page_alloc.c, 4.x to 7.x): per zone
 * the largest protection entry plus the high watermark, at most the
 * zone's managed pages; summed.
 */
uint64_t wm_totalreserve(const struct wm_reserve_zone *z, size_t n);

/*
 * si_mem_available() (mm/show_mem.c in 6.x, mm/page_alloc.c before):
 * free - totalreserve + pagecache - min(pagecache / 2, low) +
 * reclaimable - min(reclaimable / 2, low), at least 0, with low the sum
 * of the low watermarks.  Everything in pages of page_size bytes.
 */
int64_t wm_mem_available(const struct wm_meminfo *mi, unsigned page_size,
		      uint64_t totalreserve, uint64_t low_sum);

/* What a change does to the memory the kernel holds back. */
struct wm_reserve {
	uint64_t total_now, total_after;	/* pages: totalreserve_pages */
	uint64_t low_now, low_after;	/* pages: sums of the low watermarks */
	bool have_meminfo;			/* the avail fields are known */
	int64_t avail_now, avail_after;		/* pages: MemAvailable */
	int64_t hugetlb_kb;			/* KiB in the HugeTLB pool, -1 unknown */
};

/*
 * totalreserve_pages, the low sums and MemAvailable of machine s as
 * zoneinfo printed it today and after the predicted zones
 * after[s->m.nzones] (wm + boost as zoneinfo will print them), with
 * meminfo mi (may be NULL).
 */
void wm_reserve_change(const struct wm_state *s, const struct wm_predicted *after,
		       const struct wm_meminfo *mi, struct wm_reserve *out);

#endif /* WMARK_RESERVE_H */
