/* SPDX-License-Identifier: MIT */
/*
 * tune.h - the closed-loop law behind `wmark tune` (libwmark).
 *
 * recommend sizes the min->low gap from one sampled load; how much gap
 * kswapd needs is a property of the machine and the load together, so
 * tune measures it instead: it moves the gap a step at a time and watches
 * direct reclaim.  The law is a pure function of (state, sample): the CLI
 * reads zoneinfo, vmstat and PSI, hands them over, and writes what the
 * decision says.  Replaying the same samples gives the same decisions.
 *
 * The law, in pages of gap (the min->low gaps summed over the zones a
 * user allocation can use), turned into a watermark_scale_factor by the
 * kernel's own watermark arithmetic (wm_setup_wmarks), never by a ratio:
 *
 *  - Back off fast.  A period in which allocations entered direct reclaim
 *    raises the gap at once by the larger of the pages direct reclaim had
 *    to find (pgsteal_direct: what the gap lacked, measured) and the gap
 *    times the stall rate over stall_ref stalls/s (a guess, at most
 *    raise_max_pct percent of the gap); at least one probe step.  No rate
 *    limit on a raise: a short burst is over before a capped climb would
 *    reach what it lacked.
 *  - Only load tests a gap.  A period in which kswapd reclaimed nothing
 *    and nothing stalled (pgsteal_kswapd, pgscan_direct and allocstall
 *    all still) is idle: it counts toward no probe, no hold and no
 *    forgetting below.  So the quiet between the bursts of a periodic load
 *    does not walk the gap down before the next burst.
 *  - Probe slowly.  Only after quiet_periods loaded periods in a row
 *    without a stall, and hold_after_raise loaded periods after the last
 *    raise, the gap goes down by probe_pct percent.  It never goes below
 *    the gap that last stalled plus one probe step until that memory
 *    expires after forget_periods loaded periods without a stall.  If the
 *    gap then stalls again near where it did before, the load has not changed and the memory is
 *    kept twice as long next time (up to 64 times); a probe that passes
 *    that gap without a stall means the load shrank, and the memory's
 *    lifetime goes back to forget_periods.  So on a steady load probes
 *    into a stall come ever more rarely, and the setting stays one step
 *    above the gap that was too small.
 *  - Dead band.  A probe that moves the summed gap by less than
 *    deadband_pct percent of it is not written.  A wsf whose gaps are
 *    today's (below the floor every wsf gives min_free_kbytes's gaps) is
 *    never written.
 *  - Bounds.  The kernel's wsf range (1..wsf_max of the kernel); the
 *    reserve, the sum of every zone's high watermark (what kswapd keeps
 *    free), at most max_reserve pages in any write (a boost lifts it for a
 *    while, by at most boost's ceiling: reported as the peak, not
 *    bounded); and no raise that plans more high watermark on a node
 *    than what kswapd can free there pays for: its free pages, its file
 *    cache and, while swap space is free, its anonymous pages up to that
 *    space (the kernel's zone_reclaimable_pages() counts anon whenever any
 *    swap is free; anon beyond the free space cannot leave).  kswapd
 *    reclaims up to high: past what it can reclaim it would fail.
 *  - Boost.  A stall in a period during which a zone was boosted (a boost
 *    line above 0, or 5.0-5.15's hidden boost the CLI reads from uniform
 *    rises) sets watermark_boost_factor to 0, as recommend does: a boost
 *    raises min, low and high together, so allocations stall that much
 *    sooner.  tune never raises boost.
 */
#ifndef WMARK_TUNE_H
#define WMARK_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "recommend.h"
#include "wmark.h"

/* The law's constants; wm_tune_defaults() fills them. */
struct wm_tune_params {
	unsigned quiet_periods;		/* stall-free periods before a probe */
	unsigned hold_after_raise;	/* periods after a raise with no probe */
	unsigned forget_periods;	/* quiet periods before the gap that
					 * stalled no longer bounds a probe */
	unsigned probe_pct;		/* % of the gap a probe removes */
	unsigned deadband_pct;		/* probes moving the gap less are not written */
	unsigned raise_max_pct;		/* the stall-rate term adds at most this % of the gap */
	double stall_ref;		/* stalls/s that raise the gap by 100% */
	uint64_t max_reserve;		/* pages: reserve bound of every write; 0 none */
	bool boost;			/* may set watermark_boost_factor to 0 */
};

/*
 * The defaults: probe 5% after 6 quiet periods, hold 12 periods after a
 * raise, forget after 60, dead band 2%, the rate term at most 100%,
 * 10 stalls/s doubles the gap; no reserve bound (the CLI sets one), boost
 * tuned.
 */
void wm_tune_defaults(struct wm_tune_params *p);

/*
 * The default reserve bound for memory of managed pages of page_size
 * bytes: 20% of it, at most 4 GiB and at least 64 MiB (but never more
 * than half of it).  20% is about the high watermarks wsf 1000 gives
 * (low a tenth of memory above min, high a tenth above low), the most
 * any kernel before 5.17 accepts; 4 GiB keeps a 1 TiB server's free
 * memory a small share.  A page_size of 0 (unknown) gives the 20% without
 * the byte bounds, never bounds computed for a page size guessed.  Never
 * fails.
 */
uint64_t wm_tune_default_max_reserve(uint64_t managed, unsigned page_size);

/* One zone in one sample, as zoneinfo printed it. */
struct wm_tune_zone {
	uint64_t free;			/* pages: "pages free" */
	uint64_t file;			/* pages: nr_inactive_file + nr_active_file
					 * as printed under the zone (the node's,
					 * under its first populated zone) */
	uint64_t anon;			/* pages: nr_inactive_anon + nr_active_anon,
					 * printed as file is */
	bool boosted;			/* a boost was above 0 */
};

/* One sample: vmstat counters and PSI, and every zone of the machine. */
struct wm_tune_sample {
	struct wm_rec_sample vm;	/* t, counters, PSI */
	const struct wm_tune_zone *zones;	/* m->nzones entries */
	bool have_file;			/* the LRU lines were there */
	uint64_t swap_free;		/* pages: free swap space (meminfo's
					 * SwapFree); 0 none or not known */
};

/* What the machine is, besides the samples; constant over a run. */
struct wm_tune_env {
	const struct wm_profile *prof;
	const struct wm_machine *m;
	struct wm_sysctl sysctl;	/* today's values: mfk, wsf, boost, ratios */
};

enum wm_tune_action {
	WM_TUNE_HOLD,		/* nothing written */
	WM_TUNE_RAISE,		/* wsf up */
	WM_TUNE_PROBE,		/* wsf down */
	WM_TUNE_BOOST_OFF,	/* watermark_boost_factor to 0 (wsf may move too) */
};

/* Why a decision is what it is; one reason per decision. */
enum wm_tune_why {
	WM_TUNE_FIRST,		/* the first sample: nothing to compare yet */
	WM_TUNE_RESET,		/* a counter went backwards: period skipped */
	WM_TUNE_STALLED,	/* direct reclaim: raise */
	WM_TUNE_BOOST_STALL,	/* a stall while boosted: boost off */
	WM_TUNE_AT_TOP,		/* would raise, but at the kernel's wsf_max */
	WM_TUNE_AT_BOUND,	/* would raise, but at max_reserve */
	WM_TUNE_NO_CACHE,	/* would raise, but the cache cannot pay for it */
	WM_TUNE_WAIT,		/* quiet, not yet quiet_periods in a row */
	WM_TUNE_HOLD_OFF,	/* quiet, but a raise was too recent */
	WM_TUNE_PROBED,		/* quiet long enough: probe */
	WM_TUNE_STALL_MEMORY,	/* a probe would go below the gap that stalled */
	WM_TUNE_DEADBAND,	/* a probe would move the gap too little */
	WM_TUNE_FLOOR,		/* no smaller wsf changes a gap */
	WM_TUNE_OVER_BOUND,	/* above max_reserve: back down to it */
	WM_TUNE_IDLE,		/* no reclaim at all: the period tested nothing */
};

const char *wm_tune_action_name(enum wm_tune_action a);
const char *wm_tune_why_name(enum wm_tune_why w);
/* One sentence for a reason, for the text output. */
const char *wm_tune_why_text(enum wm_tune_why w);

/* The law's memory between samples. */
struct wm_tune_state {
	bool started;
	struct wm_rec_sample prev;	/* the last sample's counters */
	long wsf;			/* what the knob holds now */
	long boost;			/* the same; -1 where the kernel has none */
	unsigned quiet;			/* stall-free periods in a row */
	unsigned since_raise;		/* periods since the last raise */
	uint64_t stalled_gap;		/* pages: the largest gap that stalled, 0 none */
	unsigned since_stall;		/* periods since the last stall */
	unsigned forget_after;		/* periods: when stalled_gap is dropped */
	uint64_t forgotten_gap;		/* pages: the last stalled_gap dropped, 0 none */
	unsigned writes;		/* decisions that changed a knob */
	size_t periods;
};

/*
 * Start a run at the knobs' values in env->sysctl (wsf required; boost
 * when WM_HAVE_BOOST).  Return WM_OK or WM_EINVAL (no wsf, a kernel
 * without watermark_scale_factor).
 */
int wm_tune_start(const struct wm_tune_env *env, struct wm_tune_state *st,
		  struct wm_diag *diag);

/* A decision, with the evidence of its period and the model's numbers. */
struct wm_tune_decision {
	enum wm_tune_action action;
	enum wm_tune_why why;
	double t, dt;			/* seconds: the sample's time, the period */
	/* the period's evidence (counter deltas) */
	uint64_t stalls;		/* allocstall */
	uint64_t scan_direct, steal_direct, steal_kswapd;
	uint64_t refaults, compact_stalls;
	bool psi;
	uint64_t psi_some_us, psi_full_us;
	bool boosted;			/* a zone was boosted in the sample */
	uint64_t free;			/* pages: free in the usable zones */
	/* the knobs and what the model gives for them */
	long wsf_old, wsf_new;
	long boost_old, boost_new;	/* -1: no boost on this kernel */
	uint64_t gap_old, gap_new;	/* pages: summed usable min->low gaps */
	uint64_t gap_target;		/* pages: what the law aimed for */
	uint64_t min_sum, low_old, low_new, high_old, high_new;	/* pages, usable zones */
	uint64_t reserve_old, reserve_new;	/* pages: every zone's high watermark */
	uint64_t peak_old, peak_new;	/* pages: the same with each zone's boost ceiling */
	uint64_t lmk_old, lmk_new;	/* pages: every zone's low + largest protection */
};

/*
 * Decide from one sample s (time after the previous one): update *st and
 * fill *out.  The knobs in out->wsf_new and out->boost_new are what to
 * write when out->action is not HOLD; st then assumes they were written
 * (wm_tune_written() corrects it when a write did not take).  Return
 * WM_OK, WM_EINVAL (time not ascending, a zone count that is not env's)
 * or WM_ENOMEM.
 */
int wm_tune_step(const struct wm_tune_params *p, const struct wm_tune_env *env,
		 struct wm_tune_state *st, const struct wm_tune_sample *s,
		 struct wm_tune_decision *out, struct wm_diag *diag);

/* After a write: the knobs now hold wsf and boost (-1: unchanged). */
void wm_tune_written(struct wm_tune_state *st, long wsf, long boost);

#endif /* WMARK_TUNE_H */
