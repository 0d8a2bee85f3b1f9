// SPDX-License-Identifier: MIT
/*
 * boost.c - watermark boost: boost_watermark()'s ceiling (6.12
 * mm/page_alloc.c, the same rule since 5.0 but for the small-zone check
 * of 5.7) and the reading of boost from zoneinfo series.
 *
 * The subtle point: before 5.16 zoneinfo has no boost line, and a boost
 * is told from a recompute only by its shape: boost_watermark() adds
 * whole pageblocks to one number that min, low and high all include,
 * while a recompute (min_free_kbytes, wsf, managed pages moving) changes
 * the gaps between them.
 */
#include <stdlib.h>
#include <string.h>

#include "boost.h"
#include "internal.h"

uint64_t wm_boost_max(const struct wm_profile *p, uint64_t managed,
			   uint64_t high, int64_t factor, uint64_t pageblock)
{
	uint64_t f, max;

	if (!pageblock)
		pageblock = 512;
	if (!p->boost || factor <= 0)
		return 0;
	if (p->boost_small_zone && (uint64_t)pageblock * 4 > managed)
		return 0;
	/* mult_frac(): (x / d) * n + (x % d) * n / d, so x * n never forms. */
	f = (uint64_t)factor;
	max = (uint64_t)(high / 10000) * f + (uint64_t)(high % 10000) * f / 10000;
	if (!max)
		return 0;	/* high not set up yet: the kernel does not boost */
	return max > pageblock ? (uint64_t)max : pageblock;
}

/* What the readings say of one zone's boost in one reading. */
struct zone_read {
	uint64_t boost;	/* pages */
	bool odd;		/* 5.0-5.15: moved, but not as a boost moves */
};

static struct zone_read zone_boost(const struct wm_profile *p, const struct wm_machine *m,
				   const struct wm_boost_obs *o, const struct wm_boost_obs *base)
{
	uint64_t pb = m->pageblock_pages;	/* known: wm_boost_evidence checked it */
	struct zone_read r = { 0, false };
	uint64_t rise;

	if (o->boost >= 0) {
		r.boost = (uint64_t)o->boost;
		return r;
	}
	if (!p->boost || p->boost_printed)
		return r;
	if (o->min == base->min && o->low == base->low && o->high == base->high)
		return r;
	rise = o->min - base->min;
	if (o->min < base->min || o->low - base->low != rise || o->high - base->high != rise ||
	    o->low < base->low || o->high < base->high || rise % pb != 0) {
		r.odd = true;
		return r;
	}
	r.boost = rise;
	return r;
}

/* Low without the boost; printed low includes it, but input may not be sane. */
static uint64_t unboosted_low(const struct wm_boost_obs *o, uint64_t boost)
{
	return o->low > boost ? o->low - boost : 0;
}

int wm_boost_evidence(const struct wm_profile *p, const struct wm_machine *m,
		      const struct wm_zone_wm *raw, const struct wm_boost_obs *obs,
		      const struct wm_rec_sample *vm, size_t nsamples, int64_t factor,
		      uint64_t *peak, struct wm_boost_evidence *out,
		      struct wm_diag *diag)
{
	const unsigned run = 1u << WM_REC_PAGEOUTRUN, stall = 1u << WM_REC_ALLOCSTALL;
	const unsigned comp = 1u << WM_REC_COMPACT_STALL, fb = 1u << WM_REC_FALLBACK;
	const unsigned steal = 1u << WM_REC_PGSTEAL_KSWAPD, refault = 1u << WM_REC_REFAULT;
	struct wm_boost_obs *base;
	size_t s, z, nz = m->nzones;
	int after = 0;		/* intervals left whose refaults follow a boost-only run */
	int rc;

	memset(out, 0, sizeof(*out));
	if (!nsamples || !nz)
		return wm_fail(diag, WM_EINVAL, 0, NULL, !nsamples ? "no readings" : "no zones");
	if ((rc = wm_need_geometry(m, true, diag)))
		return rc;
	base = calloc(nz, sizeof(*base));
	if (!base)
		return wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory");
	out->nsamples = nsamples;
	if (peak)
		memset(peak, 0, nz * sizeof(*peak));

	/* The unboosted watermarks each reading is held against. */
	for (z = 0; z < nz; z++) {
		struct wm_boost_obs *b = &base[z];

		if (raw) {
			b->min = raw[z].min;
			b->low = raw[z].low;
			b->high = raw[z].high;
			continue;
		}
		*b = obs[z];
		for (s = 1; s < nsamples; s++) {
			const struct wm_boost_obs *o = &obs[s * nz + z];

			if (o->min < b->min)
				b->min = o->min;
			if (o->low < b->low)
				b->low = o->low;
			if (o->high < b->high)
				b->high = o->high;
		}
	}

	for (s = 0; s < nsamples; s++) {
		uint64_t total = 0;
		bool boosted = false, prev_boosted = false, above = true;

		for (z = 0; z < nz; z++) {
			const struct wm_boost_obs *o = &obs[s * nz + z];
			struct zone_read r = zone_boost(p, m, o, &base[z]);
			uint64_t max;

			if (r.odd)
				out->odd_moves++;
			if (o->boost < 0 && r.boost)
				out->hidden = true;
			if (r.boost) {
				boosted = true;
				total += r.boost;
				if (peak && r.boost > peak[z])
					peak[z] = r.boost;
				/* the ceiling comes from the raw high, boost not included */
				max = wm_boost_max(p, m->zones[z].managed,
						   o->high > r.boost ? o->high - r.boost : 0,
						   factor, m->pageblock_pages);
				if (factor >= 0 && r.boost > max)
					out->over_max++;
			}
			if (m->zones[z].managed && o->free < unboosted_low(o, r.boost))
				above = false;
			if (s > 0) {
				const struct wm_boost_obs *q = &obs[(s - 1) * nz + z];
				struct zone_read pr = zone_boost(p, m, q, &base[z]);

				if (r.boost > pr.boost)
					out->rises++;
				if (pr.boost)
					prev_boosted = true;
				if (m->zones[z].managed && q->free < unboosted_low(q, pr.boost))
					above = false;
			}
		}
		if (boosted)
			out->boosted++;
		if (total > out->peak_total)
			out->peak_total = total;
		if (!vm || s == 0)
			continue;
		/* The interval from reading s - 1 to s. */
		/* wm_ctr_delta(): a counter that went backwards adds nothing */
		if (vm[s].have & vm[s - 1].have & fb) {
			uint64_t d;

			out->fallbacks_counted = true;
			if (wm_ctr_delta(vm[s - 1].c[WM_REC_FALLBACK], vm[s].c[WM_REC_FALLBACK], &d) &&
			    d) {
				out->fallbacks += d;
				out->fallback_intervals++;
				if (d > out->fallback_peak)
					out->fallback_peak = d;
				prev_boosted = true;	/* a boost came and may be gone */
			}
		}
		if (vm[s].have & vm[s - 1].have & stall) {
			uint64_t d;

			wm_ctr_delta(vm[s - 1].c[WM_REC_ALLOCSTALL], vm[s].c[WM_REC_ALLOCSTALL], &d);
			out->stalls += d;
			if (boosted || prev_boosted)
				out->stalls_boosted += d;
		}
		if (vm[s].have & vm[s - 1].have & comp) {
			uint64_t d;

			wm_ctr_delta(vm[s - 1].c[WM_REC_COMPACT_STALL], vm[s].c[WM_REC_COMPACT_STALL],
				     &d);
			out->compact_stalls += d;
		}
		if ((boosted || prev_boosted) && above && (vm[s].have & vm[s - 1].have & run) &&
		    vm[s].c[WM_REC_PAGEOUTRUN] > vm[s - 1].c[WM_REC_PAGEOUTRUN]) {
			uint64_t d;

			out->kswapd_boost_runs++;
			if (vm[s].have & vm[s - 1].have & steal) {
				wm_ctr_delta(vm[s - 1].c[WM_REC_PGSTEAL_KSWAPD],
					     vm[s].c[WM_REC_PGSTEAL_KSWAPD], &d);
				out->boost_reclaimed += d;
			}
			after = 2;	/* this interval and the next */
		}
		if (vm[s].have & vm[s - 1].have & refault) {
			uint64_t d;

			out->refaults_counted = true;
			wm_ctr_delta(vm[s - 1].c[WM_REC_REFAULT], vm[s].c[WM_REC_REFAULT], &d);
			if (after > 0)
				out->boost_refaults += d;
		}
		if (after > 0)
			after--;
	}
	free(base);
	return WM_OK;
}

void wm_rec_boost_decide(const struct wm_profile *p, int64_t factor_now,
			 const struct wm_boost_evidence *ev, uint64_t headroom,
			 const struct wm_rec_decision *dec, uint64_t gap_now,
			 struct wm_rec_boost *out)
{
	out->factor = -1;
	out->headroom = headroom;
	out->need = dec->verdict == WM_REC_KEEP ? gap_now : dec->need;
	if (!p->boost)
		out->action = WM_REC_BOOST_NONE;
	else if (factor_now == 0)
		out->action = WM_REC_BOOST_OFF;
	else if (!ev->boosted && !ev->kswapd_boost_runs && !ev->fallbacks)
		out->action = WM_REC_BOOST_IDLE;
	else if (!ev->stalls_boosted)
		out->action = WM_REC_BOOST_HARMLESS;
	else {
		out->action = WM_REC_BOOST_ZERO;
		out->factor = 0;
		if (dec->verdict == WM_REC_RAISE && ev->stalls_boosted == ev->stalls)
			out->need = gap_now + (dec->deficit > headroom ?
					       (uint64_t)(dec->deficit - headroom) : 0);
	}
}

uint64_t wm_boost_headroom(const struct wm_machine *m, const bool *usable,
				const uint64_t *peak, uint64_t allowed,
				const struct wm_boost_evidence *ev)
{
	uint64_t read = 0, pb = m->pageblock_pages;	/* 0 unknown: no fallback counted */
	uint64_t est;
	size_t z;

	for (z = 0; peak && z < m->nzones; z++)
		if (!usable || usable[z])
			read += peak[z];
	/* each fallback that boosts adds one pageblock, up to the ceiling */
	est = ev->fallback_peak * (uint64_t)pb;
	if (est > allowed)
		est = allowed;
	return est > read ? (uint64_t)est : read;
}

const char *wm_rec_boost_action_name(enum wm_rec_boost_action a)
{
	static const char *const name[] = {
		[WM_REC_BOOST_NONE] = "none",
		[WM_REC_BOOST_OFF] = "off",
		[WM_REC_BOOST_IDLE] = "idle",
		[WM_REC_BOOST_HARMLESS] = "harmless",
		[WM_REC_BOOST_ZERO] = "zero",
	};

	return (unsigned)a < sizeof(name) / sizeof(name[0]) ? name[a] : "?";
}
