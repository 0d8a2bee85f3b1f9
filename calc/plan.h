/* SPDX-License-Identifier: MIT */
/*
 * plan.h - what writing sysctls will do to a machine, decided before
 * anything is written: the sysctls after the write, what the kernel
 * recomputes, every zone now and after (as wm_predict() gives them), the
 * safety verdict and the reasons the change may not last or not matter.
 * `wmark apply` writes only a plan that is safe (or forced), and words
 * the warnings; a library user can judge a change the same way.
 */
#ifndef WMARK_PLAN_H
#define WMARK_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "change.h"
#include "state.h"
#include "wmark.h"

/*
 * A change whose summed min watermarks exceed this share of managed
 * memory is unsafe: twice the 5% that khugepaged allows its own
 * recommendation (docs/model.md §2.2), well past any default.
 */
#define WM_PLAN_SAFE_MIN_PCT 10

enum wm_plan_safety {
	WM_PLAN_SAFE,		/* the summed min does not grow, or stays within bounds */
	WM_PLAN_MIN_SHARE,	/* the summed min passes WM_PLAN_SAFE_MIN_PCT of managed:
				 * the machine would reclaim or OOM constantly */
	WM_PLAN_MIN_FREE,	/* the summed min passes the pages free now: every
				 * allocation would enter direct reclaim */
};

/* Why a change may be undone, or do nothing; a and b as each code says. */
enum wm_plan_warn {
	WM_PLAN_WARN_THP_MFK,	/* THP on: khugepaged sets min_free_kbytes back to a KiB
				 * at the next write to THP's mode; b 1 when memory
				 * hotplug does too (5.9+) */
	WM_PLAN_WARN_HOTPLUG_MFK, /* memory hotplug recomputes min_free_kbytes (about a KiB)
				 * and keeps a smaller written value; b 1 when a change
				 * of THP's mode does too (THP off on 5.9+'s rules) */
	WM_PLAN_WARN_ANDROID_WSF, /* Android's init (extra_free_kbytes.sh) rewrites wsf */
	WM_PLAN_WARN_WSF_FLOORED, /* wsf a moves no gap: it is below every zone's floor
				 * (the gap is at least a quarter of the zone's min);
				 * b is the smallest wsf that moves one */
	WM_PLAN_WARN_WSF_NO_GAP, /* wsf a moves no gap, above the floors: a step too
				 * small to move a page of any zone */
	WM_PLAN_WARN_BOOST_FUTURE, /* watermark_boost_factor alone: no watermark moves now */
};

#define WM_PLAN_MAX_WARN 8

struct wm_plan_warning {
	enum wm_plan_warn code;
	int64_t a, b;
};

struct wm_plan_opts {
	bool refresh;		/* today's min_free_kbytes written again: no warning
				 * that something recomputes it */
	bool android_init;	/* the root has init's extra_free_kbytes.sh (an
				 * Android kernel release says so by itself) */
};

/* Where wm_plan() failed. */
enum wm_plan_stage {
	WM_PLAN_AT_CHANGE,	/* the change is not one the kernel accepts */
	WM_PLAN_AT_MODEL,	/* the model could not run over the machine */
};

struct wm_plan {
	struct wm_sysctl after;		/* the sysctls after the write */
	unsigned recomputes;		/* WM_RECOMPUTE_* */
	bool modelled;			/* now and pred hold m.nzones zones each: the
					 * machine has zones and min_free_kbytes is
					 * known before and after */
	size_t nzones;
	struct wm_predicted *now;	/* today's sysctls, recomputed */
	struct wm_predicted *pred;	/* after the write */
	enum wm_plan_safety safety;	/* WM_PLAN_SAFE when not modelled */
	uint64_t min_now, min_after;	/* pages: summed min watermarks */
	uint64_t managed;		/* pages: every zone */
	uint64_t free_pages;		/* pages: free in zoneinfo now */
	struct wm_plan_warning warn[WM_PLAN_MAX_WARN];
	int nwarn;
	enum wm_plan_stage stage;	/* on error: where */
};

/*
 * Plan change ch (the knobs in ch->set, their values in ch->to) on
 * machine s with options o (may be NULL).  Fill *out (free with
 * wm_plan_free) and return WM_OK; or an error with out->stage and diag:
 * WM_EINVAL at WM_PLAN_AT_CHANGE (a value the kernel refuses), WM_ENODATA
 * at WM_PLAN_AT_MODEL when zoneinfo has zones but no managed or present
 * line to size them, the model's error there otherwise, WM_ENOMEM.
 */
int wm_plan(const struct wm_state *s, const struct wm_change *ch, const struct wm_plan_opts *o,
	    struct wm_plan *out, struct wm_diag *diag);

void wm_plan_free(struct wm_plan *p);

#endif /* WMARK_PLAN_H */
