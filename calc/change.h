/* SPDX-License-Identifier: MIT */
/*
 * change.h - what a sysctl write does: which knobs the kernel accepts,
 * what it recomputes, and the zones it leaves behind.  One rule each, for
 * every command that predicts (whatif, apply, recommend) and for programs
 * that link libwmark.
 */
#ifndef WMARK_CHANGE_H
#define WMARK_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

#include "knob.h"
#include "machine.h"
#include "state.h"
#include "sysctl_text.h"
#include "wmark.h"
#include "zoneinfo.h"

/* The WM_HAVE_* bit of struct wm_sysctl that holds knob k. */
unsigned wm_knob_have(enum wm_knob k);

/*
 * Whether a kernel of profile p has knob k at all: watermark_scale_factor
 * from 4.6, watermark_boost_factor from 5.0, extra_free_kbytes only in
 * Android kernels before 5.10 (a root that has the file has it anyway:
 * the caller knows that).  Return WM_OK, or WM_EINVAL with diag naming
 * the kernel and the version that brought the knob.
 */
int wm_knob_exists(const struct wm_profile *p, enum wm_knob k, struct wm_diag *diag);

/*
 * The range of one value of knob k that a kernel of profile p accepts
 * (proc_dointvec_minmax's extra1/extra2, docs/model.md §5):
 * min_free_kbytes, watermark_boost_factor and extra_free_kbytes 0 to
 * INT_MAX; watermark_scale_factor 1 to p->wsf_max; a lowmem_reserve_ratio
 * entry any int.  Fill *lo and *hi.
 */
void wm_knob_range(const struct wm_profile *p, enum wm_knob k, int64_t *lo, int64_t *hi);

/*
 * The part of that range the kernel also prints back as written: the
 * same, but a lowmem_reserve_ratio entry below 1 is kept as 0 (before
 * 4.17, rule A: as 1), so 0 (1) to INT_MAX.  What apply writes.
 */
void wm_knob_clean_range(const struct wm_profile *p, enum wm_knob k, int64_t *lo, int64_t *hi);

/* wm_knob_check_range() for wm_knob_clean_range(). */
int wm_knob_check_clean(const struct wm_profile *p, enum wm_knob k, int64_t v,
			struct wm_diag *diag);

/*
 * Check that value v of knob k is in the range of profile p (the knob's
 * existence aside: a root whose file holds v has the knob).  Return WM_OK
 * or WM_EINVAL with diag, worded as wm_knob_check's.
 */
int wm_knob_check_range(const struct wm_profile *p, enum wm_knob k, int64_t v,
			struct wm_diag *diag);

/*
 * Check value v of knob k against profile p: the knob exists and v is in
 * its range.  Return WM_OK or WM_EINVAL with diag->msg such as
 * "watermark_scale_factor 2000 is out of range: kernel 4.9 accepts
 * 1..1000" and diag->key the knob's name.
 */
int wm_knob_check(const struct wm_profile *p, enum wm_knob k, int64_t v,
		  struct wm_diag *diag);

/* A requested change: the knobs in `set` (WM_HAVE_* bits) take new values. */
struct wm_change {
	unsigned set;			/* WM_HAVE_* bits */
	struct wm_sysctl to;		/* the values of the knobs in set */
};

/* What a change makes the kernel recompute. */

/*
 * What writing the knobs in `set` (WM_HAVE_* bits) makes the kernel
 * recompute (docs/model.md §5): min_free_kbytes,
 * watermark_scale_factor and extra_free_kbytes every zone's watermarks
 * (resetting boost), lowmem_reserve_ratio the protection arrays,
 * watermark_boost_factor nothing.  WM_RECOMPUTE_* bits.
 */
unsigned wm_change_recomputes(unsigned set);

/*
 * The sysctls after change ch on a kernel of profile p that has sysctls
 * now (now->nlrr entries of lowmem_reserve_ratio; 0 when unknown), and
 * what the write recomputes (docs/model.md §5): min_free_kbytes,
 * watermark_scale_factor and extra_free_kbytes recompute every zone's
 * watermarks (and reset boost); lowmem_reserve_ratio recomputes
 * protection (reading it does too); watermark_boost_factor recomputes
 * nothing.  Every value must be in the kernel's range, and a knob the
 * machine was not seen to have (its `have` bit in now is clear) must
 * exist on the kernel (wm_knob_exists), watermark_scale_factor always
 * (the model of a kernel before 4.6 has no use for it); a ratio list must have as many
 * entries as the kernel's.  Return WM_OK, or WM_EINVAL
 * with diag.
 */
int wm_change_apply(const struct wm_profile *p, const struct wm_sysctl *now,
		    const struct wm_change *ch, struct wm_sysctl *after,
		    unsigned *recomputes, struct wm_diag *diag);

/* One zone after a change. */
struct wm_predicted {
	bool shown;			/* zoneinfo prints the zone */
	bool promo_printed;		/* and its promo line (6.12+) */
	struct wm_zone_wm wm;		/* raw: the model, or what stays as printed */
	uint64_t boost;		/* pages of boost that stay (0 after a recompute) */
};

/*
 * Predict every zone of machine s after sysctls `after` were written,
 * given what the write recomputes: recomputed watermarks are the model's
 * (s's kernel rules), with boost reset; otherwise they stay as zoneinfo
 * printed them (the printed boost taken off into .boost, so wm + boost is
 * what zoneinfo will print).  Protection is the model's when after->nlrr
 * is known, else as printed.  The sqrt-formula and wsf-floor fields are
 * always the model's.  out has s->m.nzones entries.  after->min_free_kbytes
 * must be known.  Return WM_OK or the model's error (WM_EINVAL,
 * WM_ENOZONE) with diag.
 */
int wm_predict(const struct wm_state *s, const struct wm_sysctl *after, unsigned recomputes,
	       struct wm_predicted *out, struct wm_diag *diag);

/* A difference between what a kernel printed and what was predicted. */
struct wm_diff {
	size_t zone;			/* model zone index */
	char field[24];			/* "min", "low", "high", "promo", "protection[2]" */
	int64_t predicted, kernel;		/* raw pages (boost taken off) */
};

/*
 * Compare what machine s2 (read again after a write) printed with the
 * prediction pred[npred]: min/low/high/promo minus the printed boost
 * (kswapd may have boosted again since) when wmarks is set, protection
 * always.  Store up to max differences in out and return how many there
 * were (more than max when they did not fit); a zone count that changed
 * is one difference with field "zones".
 */
size_t wm_compare(const struct wm_state *s2, const struct wm_predicted *pred, size_t npred,
		  bool wmarks, struct wm_diff *out, size_t max);

#endif /* WMARK_CHANGE_H */
