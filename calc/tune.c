// SPDX-License-Identifier: MIT
/*
 * tune.c - the closed-loop law of `wmark tune` (see tune.h for the law).
 *
 * Every candidate wsf is run through wm_setup_wmarks(), the model of
 * __setup_per_zone_wmarks(), so a step in pages of gap lands on the wsf
 * the kernel turns into that gap, floors and truncations included; the
 * summed gap, the summed high watermark and the reserve all grow with
 * wsf, so each bound is a binary search.
 */
#include <stdlib.h>
#include <string.h>

#include "boost.h"
#include "tune.h"

void wm_tune_defaults(struct wm_tune_params *p)
{
	memset(p, 0, sizeof(*p));
	p->quiet_periods = 6;
	p->hold_after_raise = 12;
	p->forget_periods = 60;
	p->probe_pct = 5;
	p->deadband_pct = 2;
	p->raise_max_pct = 100;
	p->stall_ref = 10.0;
	p->max_reserve = 0;
	p->boost = true;
}

uint64_t wm_tune_default_max_reserve(uint64_t managed, unsigned page_size)
{
	uint64_t r = managed / 5;

	/* the byte bounds need the page size: without one, 20% alone */
	if (page_size) {
		uint64_t lo = ((uint64_t)64 << 20) / page_size, hi = ((uint64_t)4 << 30) / page_size;

		if (r > hi)
			r = hi;
		if (r < lo)
			r = lo;
	}
	if (r > managed / 2)
		r = managed / 2;
	return r;
}

const char *wm_tune_action_name(enum wm_tune_action a)
{
	switch (a) {
	case WM_TUNE_HOLD: return "hold";
	case WM_TUNE_RAISE: return "raise";
	case WM_TUNE_PROBE: return "probe";
	case WM_TUNE_BOOST_OFF: return "boost-off";
	}
	return "?";
}

static const struct {
	const char *name, *text;
} whys[] = {
	[WM_TUNE_FIRST] = { "first", "first sample: nothing to compare yet" },
	[WM_TUNE_RESET] = { "reset", "a counter went backwards: period skipped" },
	[WM_TUNE_STALLED] = { "stalled", "allocations entered direct reclaim: gap raised" },
	[WM_TUNE_BOOST_STALL] = { "boost-stall", "allocations stalled while a zone was boosted: boost off" },
	[WM_TUNE_AT_TOP] = { "at-top", "stalls, but wsf is at the kernel's maximum" },
	[WM_TUNE_AT_BOUND] = { "at-bound", "stalls, but a larger gap would pass the reserve bound" },
	[WM_TUNE_NO_CACHE] = { "no-cache", "stalls, but free pages, file cache and swappable anon cannot pay for a higher high watermark" },
	[WM_TUNE_WAIT] = { "wait", "no stall: waiting for enough quiet periods" },
	[WM_TUNE_HOLD_OFF] = { "hold-off", "no stall: too soon after a raise to probe" },
	[WM_TUNE_PROBED] = { "probed", "quiet long enough: gap lowered one step" },
	[WM_TUNE_STALL_MEMORY] = { "stall-memory", "a smaller gap stalled recently" },
	[WM_TUNE_DEADBAND] = { "deadband", "the next step would move the gap too little" },
	[WM_TUNE_FLOOR] = { "floor", "no smaller wsf changes any gap (min_free_kbytes alone sets them)" },
	[WM_TUNE_OVER_BOUND] = { "over-bound", "the reserve is above the bound: lowered to it" },
	[WM_TUNE_IDLE] = { "idle", "no reclaim: nothing tested the gap, the period does not count" },
};

const char *wm_tune_why_name(enum wm_tune_why w)
{
	return (size_t)w < sizeof(whys) / sizeof(whys[0]) ? whys[w].name : "?";
}

const char *wm_tune_why_text(enum wm_tune_why w)
{
	return (size_t)w < sizeof(whys) / sizeof(whys[0]) ? whys[w].text : "?";
}

int wm_tune_start(const struct wm_tune_env *env, struct wm_tune_state *st,
		  struct wm_diag *diag)
{
	memset(st, 0, sizeof(*st));
	if (!env->prof->wsf || !(env->sysctl.have & WM_HAVE_WSF))
		return wm_fail(diag, WM_EINVAL, 0, "watermark_scale_factor",
			       "tune needs watermark_scale_factor (4.6+) and its value");
	if (!(env->sysctl.have & WM_HAVE_MFK) || env->sysctl.min_free_kbytes < 0)
		return wm_fail(diag, WM_EINVAL, 0, "min_free_kbytes",
			       "tune needs min_free_kbytes's value");
	if (!env->m->nzones)
		return wm_fail(diag, WM_ENOZONE, 0, NULL, "no zones");
	st->wsf = env->sysctl.wsf;
	st->since_raise = UINT32_MAX;	/* no raise to wait after */
	st->since_stall = UINT32_MAX;
	st->forget_after = 0;		/* set from the params at the first period */
	st->boost = env->prof->boost && (env->sysctl.have & WM_HAVE_BOOST) ?
		    env->sysctl.boost_factor : -1;
	return WM_OK;
}

void wm_tune_written(struct wm_tune_state *st, long wsf, long boost)
{
	if (wsf > 0)
		st->wsf = wsf;
	if (boost >= 0)
		st->boost = boost;
}

/* ---- the model at one wsf ---------------------------------------------- */

/* What the watermarks are at one wsf, summed. */
struct at {
	uint64_t gap, min, low, high;	/* usable zones */
	uint64_t reserve;		/* every zone: high */
	uint64_t peak;			/* every zone: high + boost ceiling */
	uint64_t lmk;			/* every zone: low + largest protection */
	bool cache_ok;			/* every node's high fits free + file */
};

struct ctx {
	const struct wm_tune_env *env;
	const struct wm_tune_sample *s;	/* for the cache test; NULL: none */
	struct wm_zone_wm *w;		/* m->nzones scratch */
	const bool *usable;
	const long *maxprot;		/* per zone: largest protection entry */
	long boost;
};

static int model_at(struct ctx *c, long wsf, struct at *a, struct wm_diag *diag)
{
	const struct wm_machine *m = c->env->m;
	struct wm_sysctl sc = c->env->sysctl;
	size_t i, j;
	int rc;

	sc.wsf = wsf;
	if ((rc = wm_setup_wmarks(c->env->prof, m, &sc, c->w, diag)))
		return rc;
	memset(a, 0, sizeof(*a));
	a->cache_ok = true;
	for (i = 0; i < m->nzones; i++) {
		const struct wm_zone_wm *w = &c->w[i];

		a->reserve += w->high;
		a->peak += w->high + wm_boost_max(c->env->prof, m->zones[i].managed, w->high,
						  c->boost, m->pageblock_pages);
		a->lmk += w->low + (uint64_t)(c->maxprot[i] > 0 ? c->maxprot[i] : 0);
		if (!c->usable[i])
			continue;
		a->gap += w->low - w->min;
		a->min += w->min;
		a->low += w->low;
		a->high += w->high;
	}
	if (!c->s || !c->s->have_file)
		return WM_OK;
	/*
	 * Node by node: the high watermarks against what kswapd can free
	 * there: free pages, file cache and anon up to the free swap space.
	 */
	for (i = 0; i < m->nzones; i = j) {
		uint64_t high = 0, pay = 0, anon = 0;

		for (j = i; j < m->nzones && m->zones[j].node == m->zones[i].node; j++) {
			high += c->w[j].high;
			pay += c->s->zones[j].free + c->s->zones[j].file;
			anon += c->s->zones[j].anon;
		}
		pay += anon < c->s->swap_free ? anon : c->s->swap_free;
		if (high > pay)
			a->cache_ok = false;
	}
	return WM_OK;
}

/*
 * The summed gap, the high watermarks and the reserve all grow with wsf,
 * so each question below is a monotone test over [lo, hi]: find where it
 * turns.  With last, the largest wsf that passes (tests true up to a
 * point); else the smallest (true from a point).  dflt when none passes.
 */
struct probe {
	enum { P_GAP_AT_LEAST, P_GAP_AT_MOST, P_BOUNDS, P_BOUNDS_CACHE } what;
	uint64_t pages;
	uint64_t max_reserve;		/* 0: none */
};

static bool passes(const struct probe *q, const struct at *a)
{
	switch (q->what) {
	case P_GAP_AT_LEAST:
		return a->gap >= q->pages;
	case P_GAP_AT_MOST:
		return a->gap <= q->pages;
	case P_BOUNDS_CACHE:
		if (!a->cache_ok)
			return false;
		/* fall through */
	case P_BOUNDS:
		return !q->max_reserve || a->reserve <= q->max_reserve;
	}
	return false;
}

static int search(struct ctx *c, const struct probe *q, bool last, long lo, long hi, long dflt,
		  long *out, struct wm_diag *diag)
{
	long best = dflt;
	struct at a;
	int rc;

	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;

		if ((rc = model_at(c, mid, &a, diag)))
			return rc;
		if (passes(q, &a) == last) {
			if (last)
				best = mid;
			lo = mid + 1;
		} else {
			if (!last)
				best = mid;
			hi = mid - 1;
		}
	}
	*out = best;
	return WM_OK;
}

/* The smallest wsf in [lo, hi] whose summed gap reaches need; hi if none. */
static int wsf_for_gap(struct ctx *c, long lo, long hi, uint64_t need, long *out,
		       struct wm_diag *diag)
{
	struct probe q = { P_GAP_AT_LEAST, need, 0 };

	return search(c, &q, false, lo, hi, hi, out, diag);
}

/* The largest wsf in [1, hi] whose summed gap is at most target; 1 if none. */
static int wsf_at_most(struct ctx *c, long hi, uint64_t target, long *out,
		       struct wm_diag *diag)
{
	struct probe q = { P_GAP_AT_MOST, target, 0 };

	return search(c, &q, true, 1, hi, 1, out, diag);
}

/*
 * The largest wsf in [1, hi] within the reserve bound and, with cache,
 * the cache test; 0 when even wsf 1 is not.
 */
static int wsf_ceiling(struct ctx *c, const struct wm_tune_params *p, long hi, bool cache,
		       long *out, struct wm_diag *diag)
{
	struct probe q = { cache ? P_BOUNDS_CACHE : P_BOUNDS, 0, p->max_reserve };

	return search(c, &q, true, 1, hi, 0, out, diag);
}

/* ---- evidence ----------------------------------------------------------- */

/* b - a of counter k into *d; false when k is missing or went backwards. */
static bool delta(const struct wm_rec_sample *a, const struct wm_rec_sample *b,
		  enum wm_rec_ctr k, uint64_t *d, bool *back)
{
	*d = 0;
	if (!(a->have & b->have & (1u << k)))
		return false;
	if (b->c[k] < a->c[k]) {
		*back = true;
		return false;
	}
	*d = b->c[k] - a->c[k];
	return true;
}

static uint64_t pct_of(uint64_t x, unsigned pct)
{
	return (uint64_t)wm_mul_div(x, pct, 100, NULL);
}

/* What the two branches of a step share. */
struct step {
	struct ctx *c;
	struct at now;			/* the model at today's wsf */
	struct at next;			/* at the wsf decided */
	long want;			/* the wsf decided */
	long wsf_max;
	bool idle;			/* nothing reclaimed: the period tested nothing */
};

/* A period with direct reclaim: boost off, or the gap raised (*write). */
static int stalled(const struct wm_tune_params *p, struct wm_tune_state *st, struct step *x,
		   struct wm_tune_decision *out, bool *write, struct wm_diag *diag)
{
	uint64_t add, by_rate, lim;
	long top;
	int rc = WM_OK;

	st->quiet = 0;
	st->since_stall = 0;
	/* Stalled again near the gap it forgot: remember longer. */
	if (st->forgotten_gap &&
	    x->now.gap + pct_of(st->forgotten_gap, 2 * p->probe_pct) >= st->forgotten_gap) {
		unsigned most = p->forget_periods * 64u;

		st->forget_after = st->forget_after < most / 2 ? 2 * st->forget_after : most;
	}
	st->forgotten_gap = 0;
	if (x->now.gap > st->stalled_gap)
		st->stalled_gap = x->now.gap;
	if (p->boost && out->boosted && st->boost > 0) {
		out->action = WM_TUNE_BOOST_OFF;
		out->why = WM_TUNE_BOOST_STALL;
		out->boost_new = 0;
		x->c->boost = 0;
		if ((rc = model_at(x->c, st->wsf, &x->next, diag)))
			return rc;
		out->reserve_new = x->next.reserve;
		out->peak_new = x->next.peak;
		st->boost = 0;
		if (p->max_reserve && x->next.reserve > p->max_reserve) {
			long bound;

			if ((rc = wsf_ceiling(x->c, p, st->wsf, false, &bound, diag)))
				return rc;
			if (bound >= 1) {
				x->want = bound;
				if ((rc = model_at(x->c, x->want, &x->next, diag)))
					return rc;
				out->wsf_new = st->wsf = x->want;
				out->gap_new = x->next.gap;
				out->low_new = x->next.low;
				out->high_new = x->next.high;
				out->reserve_new = x->next.reserve;
				out->peak_new = x->next.peak;
				out->lmk_new = x->next.lmk;
			}
		}
		st->since_raise = 0;
		st->writes++;
		return rc;
	}
	/*
	 * The pages the gap lacked, measured, or the stall rate's share
	 * of the gap, a guess: only the guess is capped, the bounds
	 * below hold both.
	 */
	by_rate = (uint64_t)((double)x->now.gap * (double)out->stalls /
			     (out->dt * p->stall_ref));
	lim = pct_of(x->now.gap, p->raise_max_pct);
	if (by_rate > lim)
		by_rate = lim;
	add = out->steal_direct > by_rate ? out->steal_direct : by_rate;
	if (add < pct_of(x->now.gap, p->probe_pct))
		add = pct_of(x->now.gap, p->probe_pct);
	if (add == 0)
		add = 1;
	out->gap_target = x->now.gap + add;
	if (st->wsf >= x->wsf_max) {
		out->why = WM_TUNE_AT_TOP;
		return rc;
	}
	if ((rc = wsf_for_gap(x->c, st->wsf + 1, x->wsf_max, out->gap_target, &x->want, diag)))
		return rc;
	/* The bounds: reserve, then the cache. */
	if ((rc = wsf_ceiling(x->c, p, x->want, false, &top, diag)))
		return rc;
	if (top <= st->wsf) {
		out->why = WM_TUNE_AT_BOUND;
		return rc;
	}
	x->want = top;
	if ((rc = wsf_ceiling(x->c, p, x->want, true, &top, diag)))
		return rc;
	if (top <= st->wsf) {
		out->why = WM_TUNE_NO_CACHE;
		return rc;
	}
	x->want = top;
	if ((rc = model_at(x->c, x->want, &x->next, diag)))
		return rc;
	if (x->next.gap == x->now.gap) {
		/* every wsf up to want gives today's gaps: go past the floor */
		long up;

		if ((rc = wsf_for_gap(x->c, x->want, x->wsf_max, x->now.gap + 1, &up, diag)))
			return rc;
		if ((rc = wsf_ceiling(x->c, p, up, true, &top, diag)))
			return rc;
		if (top <= x->want) {
			out->why = p->max_reserve ? WM_TUNE_AT_BOUND : WM_TUNE_AT_TOP;
			return rc;
		}
		x->want = top;
		if ((rc = model_at(x->c, x->want, &x->next, diag)))
			return rc;
	}
	out->action = WM_TUNE_RAISE;
	out->why = WM_TUNE_STALLED;
	st->since_raise = 0;
	*write = true;
	return WM_OK;
}

/* A period without direct reclaim: wait, hold, or a probe down (*write). */
static int quiet(const struct wm_tune_params *p, struct wm_tune_state *st, struct step *x,
		 struct wm_tune_decision *out, bool *write, struct wm_diag *diag)
{
	int rc = WM_OK;
	long top;

	if (!x->idle && st->quiet < UINT32_MAX)
		st->quiet++;
	if (st->stalled_gap && st->since_stall >= st->forget_after) {
		st->forgotten_gap = st->stalled_gap;
		st->stalled_gap = 0;
	}
	/* Two steps under the forgotten gap without a stall: the load shrank. */
	if (st->forgotten_gap &&
	    x->now.gap + pct_of(st->forgotten_gap, 2 * p->probe_pct) < st->forgotten_gap) {
		st->forgotten_gap = 0;
		st->forget_after = p->forget_periods;
	}
	/* Above the bound (a value set before tune): down to it. */
	if (p->max_reserve && x->now.reserve > p->max_reserve) {
		if ((rc = wsf_ceiling(x->c, p, st->wsf, false, &top, diag)))
			return rc;
		if (top >= 1 && top < st->wsf) {
			x->want = top;
			if ((rc = model_at(x->c, x->want, &x->next, diag)))
				return rc;
			out->action = WM_TUNE_PROBE;
			out->why = WM_TUNE_OVER_BOUND;
			*write = true;
				return WM_OK;
		}
	}
	if (x->idle) {
		out->why = WM_TUNE_IDLE;
		return rc;
	}
	if (st->quiet < p->quiet_periods) {
		out->why = WM_TUNE_WAIT;
		return rc;
	}
	if (st->since_raise < p->hold_after_raise) {
		out->why = WM_TUNE_HOLD_OFF;
		return rc;
	}
	{
		uint64_t step = pct_of(x->now.gap, p->probe_pct), keep = 0, target;
		struct at one;

		if (step == 0)
			step = 1;
		target = x->now.gap > step ? x->now.gap - step : 0;
		if (st->stalled_gap)
			keep = st->stalled_gap + pct_of(st->stalled_gap, p->probe_pct);
		if ((rc = model_at(x->c, 1, &one, diag)))
			return rc;
		if (x->now.gap <= one.gap || st->wsf <= 1) {
			out->why = WM_TUNE_FLOOR;
			return rc;
		}
		if (keep >= x->now.gap) {
			out->why = WM_TUNE_STALL_MEMORY;
			return rc;
		}
		if (target < keep)
			target = keep;
		if (target < one.gap)
			target = one.gap;
		out->gap_target = target;
		/* A probe rounds down: the largest wsf whose gap is at most target... */
		if ((rc = wsf_at_most(x->c, st->wsf - 1, target, &x->want, diag)))
			return rc;
		if ((rc = model_at(x->c, x->want, &x->next, diag)))
			return rc;
		/* ...but never under the gap that stalled. */
		if (x->next.gap < keep) {
			if ((rc = wsf_for_gap(x->c, x->want, st->wsf, keep, &x->want, diag)) ||
			    (rc = model_at(x->c, x->want, &x->next, diag)))
				return rc;
			if (x->want >= st->wsf || x->next.gap >= x->now.gap) {
				out->why = WM_TUNE_STALL_MEMORY;
				return rc;
			}
		}
		if (x->now.gap - x->next.gap < pct_of(x->now.gap, p->deadband_pct)) {
			out->why = target == keep ? WM_TUNE_STALL_MEMORY : WM_TUNE_DEADBAND;
			return rc;
		}
	}
	out->action = WM_TUNE_PROBE;
	out->why = WM_TUNE_PROBED;
	st->quiet = 0;
	*write = true;
	return WM_OK;
}

/* ---- the step ----------------------------------------------------------- */

int wm_tune_step(const struct wm_tune_params *p, const struct wm_tune_env *env,
		 struct wm_tune_state *st, const struct wm_tune_sample *s,
		 struct wm_tune_decision *out, struct wm_diag *diag)
{
	const struct wm_machine *m = env->m;
	const struct wm_rec_sample *a = &st->prev, *b = &s->vm;
	struct wm_zone_wm *w = NULL;
	bool *usable = NULL, back = false, write = false;
	long *maxprot = NULL;
	struct ctx c = { env, s, NULL, NULL, NULL, st->boost };
	struct step x = { .c = &c, .want = st->wsf, .wsf_max = env->prof->wsf_max };
	const struct at *now = &x.now, *next = &x.next;
	size_t i;
	int rc, cls;

	memset(out, 0, sizeof(*out));
	out->t = b->t;
	out->wsf_old = out->wsf_new = st->wsf;
	out->boost_old = out->boost_new = st->boost;
	if (st->started && !(b->t > a->t))
		return wm_fail(diag, WM_EINVAL, 0, "t", "samples must be in time order");

	w = calloc(m->nzones, sizeof(*w));
	usable = calloc(m->nzones, sizeof(*usable));
	maxprot = calloc(m->nzones, sizeof(*maxprot));
	if (!w || !usable || !maxprot) {
		rc = wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory");
		goto out;
	}
	c.w = w;
	c.usable = usable;
	c.maxprot = maxprot;

	/* Protection does not move with wsf: once, for usable and lmk. */
	{
		struct wm_sysctl sc = env->sysctl;

		sc.wsf = st->wsf;
		if ((rc = wm_setup_wmarks(env->prof, m, &sc, w, diag)) ||
		    (rc = wm_protection(env->prof, m, &sc, w, diag)))
			goto out;
		cls = wm_rec_class_idx(m);
		wm_rec_usable(m, w, cls, usable);
		for (i = 0; i < m->nzones; i++) {
			int k;

			for (k = 0; k < WM_MAX_ZONES; k++)
				if (w[i].protection[k] > maxprot[i])
					maxprot[i] = w[i].protection[k];
			if (s->zones[i].boosted)
				out->boosted = true;
			if (usable[i])
				out->free += s->zones[i].free;
		}
	}
	/* From here rc is WM_OK unless a call below fails: a hold just leaves. */
	if ((rc = model_at(&c, st->wsf, &x.now, diag)))
		goto out;
	out->gap_old = out->gap_new = out->gap_target = now->gap;
	out->min_sum = now->min;
	out->low_old = out->low_new = now->low;
	out->high_old = out->high_new = now->high;
	out->reserve_old = out->reserve_new = now->reserve;
	out->peak_old = out->peak_new = now->peak;
	out->lmk_old = out->lmk_new = now->lmk;

	if (!st->started) {
		st->started = true;
		st->prev = *b;
		out->why = WM_TUNE_FIRST;
		goto out;
	}
	out->dt = b->t - a->t;
	delta(a, b, WM_REC_ALLOCSTALL, &out->stalls, &back);
	delta(a, b, WM_REC_PGSCAN_DIRECT, &out->scan_direct, &back);
	delta(a, b, WM_REC_PGSTEAL_DIRECT, &out->steal_direct, &back);
	delta(a, b, WM_REC_PGSTEAL_KSWAPD, &out->steal_kswapd, &back);
	delta(a, b, WM_REC_REFAULT, &out->refaults, &back);
	delta(a, b, WM_REC_COMPACT_STALL, &out->compact_stalls, &back);
	if (a->psi && b->psi) {
		if (b->psi_some < a->psi_some || b->psi_full < a->psi_full) {
			back = true;
		} else {
			out->psi = true;
			out->psi_some_us = b->psi_some - a->psi_some;
			out->psi_full_us = b->psi_full - a->psi_full;
		}
	}
	st->prev = *b;
	st->periods++;
	if (back) {
		/* A reboot, a counter reset: this period says nothing. */
		st->quiet = 0;
		out->why = WM_TUNE_RESET;
		goto out;
	}
	if (!st->forget_after)
		st->forget_after = p->forget_periods;
	/*
	 * A period in which kswapd reclaimed nothing and nothing stalled
	 * tested no gap: it counts toward no probe, hold or forgetting.
	 * Without pgsteal_kswapd in both samples every period counts.
	 */
	x.idle = !out->stalls && !out->scan_direct && !out->steal_kswapd &&
		 (a->have & b->have & (1u << WM_REC_PGSTEAL_KSWAPD));
	if (!x.idle) {
		if (st->since_raise < UINT32_MAX)
			st->since_raise++;
		if (st->since_stall < UINT32_MAX)
			st->since_stall++;
	}

	rc = out->stalls || out->scan_direct ? stalled(p, st, &x, out, &write, diag)
					     : quiet(p, st, &x, out, &write, diag);
	if (rc || !write)
		goto out;
	out->wsf_new = x.want;
	out->gap_new = next->gap;
	out->low_new = next->low;
	out->high_new = next->high;
	out->reserve_new = next->reserve;
	out->peak_new = next->peak;
	out->lmk_new = next->lmk;
	st->wsf = x.want;
	st->writes++;
out:
	free(w);
	free(usable);
	free(maxprot);
	return rc;
}
