/* SPDX-License-Identifier: MIT */
/*
 * boost.h - watermark boost (5.0+): how far a zone's boost can rise, and
 * what a series of zoneinfo and vmstat readings shows of boost at work.
 *
 * A fallback allocation that steals a pageblock of another migratetype
 * calls boost_watermark() (mm/page_alloc.c): the zone's watermark_boost
 * grows by one pageblock, up to high * watermark_boost_factor / 10000, and
 * kswapd is woken although free may be far above low.  While the boost
 * lasts, min, low and high all read as raw + boost, so allocations meet
 * the (raised) min sooner, and kswapd's boosted passes reclaim without
 * swap or writeback (6.12 balance_pgdat: may_swap = !nr_boost_reclaim):
 * clean page cache only.  Zoneinfo prints the boost from 5.16; on 5.0 to
 * 5.15 it shows only as min, low and high risen together by whole
 * pageblocks.
 */
#ifndef WMARK_BOOST_H
#define WMARK_BOOST_H

#include <stddef.h>
#include <stdint.h>

#include "recommend.h"
#include "wmark.h"

/*
 * The most pages boost_watermark() of profile p lets a zone's boost reach
 * with watermark_boost_factor factor: 0 on kernels without boost, for
 * factor <= 0, for a zone of fewer than 4 pageblocks of managed pages
 * (5.7+, 5.4.y) and where the raw high watermark gives a product of 0;
 * otherwise mult_frac(high, factor, 10000) (no overflow: quotient and
 * remainder apart, as the kernel's macro) but at least one pageblock.
 * managed, high and pageblock in pages (pageblock 0: 512).  Never fails.
 */
uint64_t wm_boost_max(const struct wm_profile *p, uint64_t managed,
			   uint64_t high, int64_t factor, uint64_t pageblock);

/* One zone in one reading of zoneinfo. */
struct wm_boost_obs {
	uint64_t free;		/* pages: "pages free" */
	uint64_t min, low, high;	/* pages, as printed (boost included, 5.0+) */
	int64_t boost;			/* pages: the "boost" line (5.16+), -1 if none */
};

/* What the readings show. */
struct wm_boost_evidence {
	size_t nsamples;
	size_t boosted;			/* readings in which some zone had a boost */
	size_t rises;			/* zone and interval pairs in which a boost grew */
	size_t kswapd_boost_runs;	/* intervals in which kswapd ran (pageoutrun
					 * moved) while boosted zones kept free
					 * pages above their unboosted low */
	uint64_t boost_reclaimed;	/* pages: pgsteal_kswapd in those intervals */
	bool refaults_counted;		/* the samples carry workingset_refault */
	uint64_t boost_refaults;	/* workingset_refault in those intervals and
					 * the one after each: what came back soon
					 * after kswapd reclaimed for a boost alone
					 * (at most; other reclaim refaults too) */
	uint64_t stalls;		/* allocstall over the readings */
	uint64_t stalls_boosted;	/* of those, in intervals with a boost */
	uint64_t compact_stalls;	/* compact_stall over the readings */
	bool fallbacks_counted;		/* the samples carry WM_REC_FALLBACK */
	uint64_t fallbacks;		/* pageblock fallbacks over the readings */
	size_t fallback_intervals;	/* intervals with one or more */
	uint64_t fallback_peak;		/* the most in one interval */
	bool hidden;			/* boost read from uniform rises (5.0-5.15) */
	size_t odd_moves;		/* 5.0-5.15: changes of min/low/high that
					 * are not one uniform whole-pageblock
					 * rise (a recompute, not a boost) */
	uint64_t peak_total;	/* pages: the largest summed boost of one reading */
	size_t over_max;		/* zone readings whose boost exceeds wm_boost_max */
};

/*
 * Read boost from readings obs[s * m->nzones + z] (nsamples readings of
 * every zone of m, in time order) and, when vm is not NULL, the vmstat
 * samples vm[0..nsamples) taken with them (pageoutrun, allocstall,
 * compact_stall, and the pageblock fallbacks where counted).  A boost
 * lasts only until kswapd has reclaimed it, often less than a sampling
 * interval; the fallbacks that cause it (every fallback that tries to
 * claim a pageblock calls boost_watermark(): 5.0-6.12 steal_suitable_
 * fallback(), 6.12.y and 6.15+ try_to_steal_block()) are counted
 * whatever the interval, so an interval with a fallback counts as one
 * with a boost.  A zone's boost in a reading is its boost line where
 * printed; on 5.0-5.15 kernels without one, the rise of min, low and
 * high over raw[z] (the model's raw watermarks; NULL: the lowest printed
 * value of each over the readings) when all three rose by the same
 * whole number of pageblocks; 0 before 5.0.  Fill *out, and peak[z]
 * (m->nzones entries, may be NULL) with each zone's largest boost.
 * factor is watermark_boost_factor, for over_max (negative: not checked).
 * Return WM_OK, WM_EINVAL (no readings, no zones, m's page size or
 * pageblock unknown) or WM_ENOMEM.
 */
int wm_boost_evidence(const struct wm_profile *p, const struct wm_machine *m,
		      const struct wm_zone_wm *raw, const struct wm_boost_obs *obs,
		      const struct wm_rec_sample *vm, size_t nsamples, int64_t factor,
		      uint64_t *peak, struct wm_boost_evidence *out,
		      struct wm_diag *diag);

/*
 * Pages: what a boost of the zones with usable[z] set took from the free
 * pages, to be given back by watermark_boost_factor 0.  The sum of the
 * largest boosts read (peak[z], from wm_boost_evidence) or, when the
 * fallbacks say more, their most in one interval times the pageblock, at
 * most allowed: those zones' wm_boost_max() summed for today's factor.
 * usable NULL: every zone.  A machine whose pageblock is unknown (0)
 * counts the boosts read alone.  Never fails.
 */
uint64_t wm_boost_headroom(const struct wm_machine *m, const bool *usable,
				const uint64_t *peak, uint64_t allowed,
				const struct wm_boost_evidence *ev);

/* What recommend does with watermark_boost_factor. */
enum wm_rec_boost_action {
	WM_REC_BOOST_NONE,	/* the kernel has no boost (before 5.0) */
	WM_REC_BOOST_OFF,	/* the factor is 0 already */
	WM_REC_BOOST_IDLE,	/* no zone was boosted, no pageblock fell back */
	WM_REC_BOOST_HARMLESS,	/* boosts came, no allocation stalled during one */
	WM_REC_BOOST_ZERO,	/* allocations stalled during boosts: write 0 */
};

/* The boost half of a recommendation. */
struct wm_rec_boost {
	enum wm_rec_boost_action action;
	int64_t factor;		/* to write, -1: leave it as it is */
	uint64_t headroom;	/* pages: the boost of the usable zones at its peak,
				 * what the raised min took from the free pages */
	uint64_t need;	/* pages: summed gap to aim for beside factor */
};

/*
 * Decide watermark_boost_factor from evidence ev (wm_boost_evidence),
 * today's factor (-1 unknown), headroom (the sum of the usable zones'
 * peak boosts) and the wsf decision dec with today's summed gap gap_now:
 *  - no boost on the kernel, the factor 0 already, or no zone boosted in
 *    the readings and no fallback counted: leave it; need is dec's
 *    (gap_now for a keep);
 *  - boosts came but no allocation stalled in an interval with one (or
 *    with a fallback):
 *    leave it (kswapd's boosted passes cost clean page cache only);
 *  - allocations stalled during boosts: factor 0.  A boost raises min
 *    with low and high, so while it lasts allocations stall that many
 *    pages sooner; when every stall fell in such an interval the deficit
 *    is first set against the headroom, and the gap need only hold the
 *    rest (need = gap_now + max(0, deficit - headroom)); otherwise need
 *    stays dec's.
 * Never fails.
 */
void wm_rec_boost_decide(const struct wm_profile *p, int64_t factor_now,
			 const struct wm_boost_evidence *ev, uint64_t headroom,
			 const struct wm_rec_decision *dec, uint64_t gap_now,
			 struct wm_rec_boost *out);

const char *wm_rec_boost_action_name(enum wm_rec_boost_action a);

#endif /* WMARK_BOOST_H */
