/* SPDX-License-Identifier: MIT */
/*
 * infer.h - work backwards from what a kernel printed: the managed page
 * counts stale watermarks were computed from, and the sysctls that
 * explain a zoneinfo file when they were not captured.
 */
#ifndef WMARK_INFER_H
#define WMARK_INFER_H

#include "wmark.h"

/* What zoneinfo printed for one model zone, raw (boost taken off). */
struct wm_printed {
	bool shown;			/* the zone is in the file */
	bool has_wm;			/* min/low/high printed */
	bool has_promo;
	bool has_prot;
	uint64_t min, low, high, promo;	/* pages, boost removed */
	int64_t protection[WM_MAX_ZONES];
	int nprot;
};

/*
 * Find managed counts, each within permille/1000 of m's current ones or
 * within floor pages, whichever is more (empty zones stay empty), from which wm_setup_wmarks() with sysctls s
 * reproduces every printed min/low/high/promo exactly; the counts nearest
 * today's are tried first.  On success fill managed_out[m->nzones] and
 * return 1; return 0 if none exists (and for a machine whose page size
 * is unknown).
 */
int wm_stale_watermarks(const struct wm_profile *p, const struct wm_machine *m,
			const struct wm_sysctl *s, const struct wm_printed *pr,
			unsigned permille, uint64_t floor,
			uint64_t *managed_out);

/* The same for the protection arrays (wm_protection()). */
int wm_stale_protection(const struct wm_profile *p, const struct wm_machine *m,
			const struct wm_sysctl *s, const struct wm_printed *pr,
			unsigned permille, uint64_t floor,
			uint64_t *managed_out);

/*
 * Kernels 5.0 to 5.15 print watermarks with the zone's boost added but
 * no boost line.  A zone whose printed min/4 exceeds its printed gap
 * cannot be unboosted (the gap is at least the share/4); take off the
 * smallest whole number of pageblocks that makes it consistent.  On
 * 5.0-5.7 a recompute during a boost leaves low and high (not min)
 * raised for good: a low-min step larger than high-low by whole
 * pageblocks is that.  Adjust pr and m's zones' boost_at_setup; return
 * the pages taken off each zone in boost_out (may be NULL).  A machine
 * whose pageblock is unknown (0) has nothing taken off.
 */
void wm_unboost(const struct wm_profile *p, struct wm_machine *m,
		struct wm_printed *pr, int64_t *boost_out);

/* Sysctls recovered from printed watermarks. */
struct wm_inferred {
	int64_t mfk_lo, mfk_hi;	/* KiB range of min_free_kbytes; -1 if none fits */
	int64_t wsf_lo, wsf_hi;	/* range of watermark_scale_factor; -1 if none */
	bool wsf_hidden;	/* every zone's gap is min/4: only an upper bound */
	bool pre_4_6;		/* low = min + share/4, high = min + share/2 */
	bool equal_gaps;	/* every zone has low - min == high - low */
	bool from_sum;		/* today's counts fit no value: ranges widened
				   to what counts within 1% allow (stale) */
};

/*
 * Infer min_free_kbytes and watermark_scale_factor from the printed
 * watermarks of the lowmem zones and the managed counts of m.
 * Return WM_OK (ranges may still be -1 when nothing fits), or WM_EINVAL
 * when m's page size is unknown.
 */
int wm_infer_sysctls(const struct wm_profile *p, const struct wm_machine *m,
		     const struct wm_printed *pr, struct wm_inferred *out);

#endif /* WMARK_INFER_H */
