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
	unsigned long min, low, high, promo;	/* pages, boost removed */
	long protection[WM_MAX_ZONES];
	int nprot;
};

/*
 * Find managed counts, each within 1% of m's current ones (empty zones
 * stay empty), from which wm_setup_wmarks() with sysctls s reproduces
 * every printed min/low/high/promo exactly.  On success fill
 * managed_out[m->nzones] and return 1; return 0 if none exists.
 */
int wm_stale_watermarks(const struct wm_profile *p, const struct wm_machine *m,
			const struct wm_sysctl *s, const struct wm_printed *pr,
			unsigned long *managed_out);

/* The same for the protection arrays (wm_protection()). */
int wm_stale_protection(const struct wm_profile *p, const struct wm_machine *m,
			const struct wm_sysctl *s, const struct wm_printed *pr,
			unsigned long *managed_out);

/* Sysctls recovered from printed watermarks. */
struct wm_inferred {
	long mfk_lo, mfk_hi;	/* KiB range of min_free_kbytes; -1 if none fits */
	long wsf_lo, wsf_hi;	/* range of watermark_scale_factor; -1 if none */
	bool wsf_hidden;	/* every zone's gap is min/4: only an upper bound */
	bool pre_4_6;		/* low = min + share/4, high = min + share/2 */
	bool equal_gaps;	/* every zone has low - min == high - low */
};

/*
 * Infer min_free_kbytes and watermark_scale_factor from the printed
 * watermarks of the lowmem zones and the managed counts of m.
 * Return WM_OK (ranges may still be -1 when nothing fits).
 */
int wm_infer_sysctls(const struct wm_profile *p, const struct wm_machine *m,
		     const struct wm_printed *pr, struct wm_inferred *out);

#endif /* WMARK_INFER_H */
