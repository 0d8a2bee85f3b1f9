// SPDX-License-Identifier: MIT
/*
 * infer.c - from printed watermarks back to their inputs.
 *
 * A kernel computes watermarks and protection from the managed counts of
 * the moment, and does not recompute them when managed changes (freeing
 * init memory after boot, balloons, hugetlb; docs/model.md §10.4).  So
 * a freshly booted machine usually prints "stale" numbers.  The printed
 * values pin the old counts down to narrow intervals:
 *
 *   min_i = floor(P * m_i / L)          P = pages_min, L = sum of lowmem m
 *   gap_i = max(min_i / 4, floor(m_i * wsf / 10000))
 *   prot[i][j] = floor(sum of m over the zones i+1..j / ratio_i)
 *
 * For each candidate L the first two give an interval per zone; a vector
 * inside the intervals that sums to L reproduces every lowmem zone.  The
 * protection sums are solved zone by zone, upward.  Nothing is searched
 * farther from the current counts than the caller allows (verify: 1%).
 *
 * Counts are unsigned long, as in the kernel; sums and products are taken
 * in uint64_t and the 128-bit ones with wm_mul_div(), so a 32-bit build
 * finds the same counts as a 64-bit one.
 */
#include <limits.h>
#include <string.h>

#include "infer.h"
#include "internal.h"

/* ceil(a * b / d) modulo 2^64, exact: the 128-bit products of the search. */
static uint64_t mul_div_up(uint64_t a, uint64_t b, uint64_t d)
{
	uint64_t r, q = wm_mul_div(a, b, d, &r);

	return q + (r != 0);
}

static void window(uint64_t cur, unsigned permille, uint64_t floor,
		   uint64_t *lo, uint64_t *hi)
{
	uint64_t d = (uint64_t)((uint64_t)cur * permille / 1000);

	if (cur && d < floor)
		d = floor;
	if (d > cur)
		d = cur;	/* an empty zone stays empty; none goes below 0 */

	*lo = cur - d;
	/* saturated: cur + d wraps above UINT64_MAX / 2 (2^31 pages on 32-bit) */
	*hi = d > UINT64_MAX - cur ? UINT64_MAX : cur + d;
}

/* The printed watermarks follow the kernel's shape for this profile. */
static bool shape_ok(const struct wm_profile *p, const struct wm_printed *w)
{
	uint64_t gap;

	if (w->low < w->min || w->high < w->low)
		return false;
	gap = w->low - w->min;
	if (!p->wsf)
		return true;	/* checked against the share later */
	switch (p->high_rule) {
	case WM_HIGH_QUARTER:
		if (w->high - w->low != gap >> 2)
			return false;
		break;
	case WM_HIGH_SQRT:
		/* clamp(..., min/4, gap): the managed count decides where */
		if (w->high - w->low > gap ||
		    w->high - w->low < (w->min >> 2 < gap ? w->min >> 2 : gap))
			return false;
		break;
	case WM_HIGH_STOCK:
		if (w->high - w->low != gap)
			return false;
		break;
	}
	return !w->has_promo || (w->promo >= w->high && w->promo - w->high == gap);
}

/*
 * The counts whose gap (low - min) comes out as printed, whatever L is:
 * [*a, *b]; false when no count gives it.
 */
static bool gap_interval(const struct wm_profile *p, const struct wm_sysctl *s,
			 const struct wm_printed *w, uint64_t *a, uint64_t *b)
{
	uint64_t mn = w->min, gap = w->low - w->min, q = mn >> 2;

	*a = 0;
	*b = UINT64_MAX;
	if (!p->wsf)
		return gap == q && w->high - w->min == (mn >> 1);
	if (gap == q) {
		/* the wsf term did not beat the floor */
		*b = ((q + 1) * 10000 - 1) / (uint64_t)s->wsf;
	} else if (gap > q) {
		*a = (gap * 10000 + (uint64_t)s->wsf - 1) / (uint64_t)s->wsf;
		*b = ((gap + 1) * 10000 - 1) / (uint64_t)s->wsf;
	} else {
		return false;
	}
	return true;
}

/* Narrow [*lo, *hi] to the counts whose min and gap come out as printed. */
static bool lowmem_interval(const struct wm_profile *p, const struct wm_sysctl *s,
			    uint64_t P, uint64_t L, const struct wm_printed *w,
			    uint64_t *lo, uint64_t *hi)
{
	uint64_t mn = w->min, a, b, ga, gb;

	if (P == 0) {
		if (mn != 0)
			return false;
		a = 0;
		b = UINT64_MAX;
	} else {
		/* floor(P * m / L) == mn for m in [ceil(mn*L/P), ceil((mn+1)*L/P) - 1] */
		a = mul_div_up(mn, L, P);
		b = mul_div_up(mn + 1, L, P) - 1;
	}
	if (!gap_interval(p, s, w, &ga, &gb))
		return false;
	if (ga > a)
		a = ga;
	if (gb < b)
		b = gb;
	/* narrowed in 64 bits: on a 32-bit build a may not fit a long */
	if (a < *lo)
		a = *lo;
	if (b > *hi)
		b = *hi;
	if (a > b)
		return false;
	*lo = (uint64_t)a;
	*hi = (uint64_t)b;
	return true;
}

static bool watermarks_match(const struct wm_profile *p, const struct wm_machine *m,
			     const struct wm_sysctl *s, const struct wm_printed *pr,
			     struct wm_zone_wm *w)
{
	size_t i;

	if (wm_setup_wmarks(p, m, s, w, NULL))
		return false;
	for (i = 0; i < m->nzones; i++) {
		if (!pr[i].shown || !pr[i].has_wm)
			continue;
		if (w[i].min != pr[i].min || w[i].low != pr[i].low ||
		    w[i].high != pr[i].high ||
		    (pr[i].has_promo && w[i].promo != pr[i].promo))
			return false;
	}
	return true;
}

/*
 * The search below visits L (the lowmem total) nearest today's first, as
 * a walk L, L+1, L-1, L+2, ... would, but jumps over every L that the
 * intervals above already rule out, so its work does not grow with the
 * size of the window: a 64 TiB machine takes as long as a 4 GiB one.
 * The jumps only ever pass over L at which the walk would have found
 * nothing, so the counts found are the walk's.  STALE_STEPS bounds the
 * L (and capped-zone counts) that are tried one by one all the same.
 */
#define STALE_STEPS (1L << 22)

/* min(floor(a * b / d), UINT64_MAX), for d > 0. */
static uint64_t mul_div_sat(uint64_t a, uint64_t b, uint64_t d)
{
	uint64_t q = a / d, r;

	if (b && q > UINT64_MAX / b)
		return UINT64_MAX;
	q *= b;
	r = wm_mul_div(a % d, b, d, NULL);	/* < b: no wrap */
	return q > UINT64_MAX - r ? UINT64_MAX : q + r;
}

/* Up to two intervals of L: a zone's L outside all of them never fits. */
struct lset {
	int n;
	uint64_t lo[2], hi[2];
};

struct stale {
	const struct wm_profile *p;
	const struct wm_machine *m;
	const struct wm_sysctl *s;
	const struct wm_printed *pr;
	size_t n;
	bool mhm;			/* wm_movable_highmem(p, m) */
	uint64_t P;			/* pages_min */
	bool exact_shape;		/* no wrap, no extra share: see plain() */
	uint64_t wlo[64], whi[64];	/* each zone's window */
	bool pinned[64];		/* lowmem, printed, not empty: lowmem_interval() */
	size_t npinned;
	uint64_t r0, r1;		/* sums of min and min + 1 over pinned zones */
	struct lset cap[64];		/* capped zones: the L their printed values allow */
	struct wm_zone zones[64];
	struct wm_zone_wm w[64];
	struct wm_machine mm;
	int64_t steps;			/* left of STALE_STEPS */
};

/*
 * Whether each zone's watermarks are a function of its own count and L
 * alone, nondecreasing in the count: true without an extra_free share
 * (which brings in the total of all zones) and when P * count cannot wrap
 * in the model's u64 product, nor the share floor(P * count / L) pass an
 * unsigned long at the smallest L, Llo (a 32-bit build: the product
 * itself may pass 2^32 there, as on any i386 with HighMem).
 */
static bool plain(const struct stale *st, uint64_t pages_extra, uint64_t Llo)
{
	uint64_t top = 0;
	size_t i;

	for (i = 0; i < st->n; i++)
		if (st->whi[i] > top)
			top = st->whi[i];
	if (pages_extra != 0)
		return false;
	if (st->P == 0)
		return true;
	return top <= UINT64_MAX / st->P &&
	       st->P * top / (Llo ? Llo : 1) <= ULONG_MAX;
}

/*
 * The L at which capped zone i (min clamp(count / 1024, 32, 128), gap
 * max(floor(P * count / L) / 4, floor(count * wsf / 10000))) can print
 * what it printed, as a superset; false when no L can.  With the counts
 * [v1, v2] that give the printed min and a wsf term at most the gap g:
 * either floor(P v / L) is in [4g, 4g + 3] for some such v, or the wsf
 * term is g (v >= v3) and floor(P v / L) <= 4g + 3.
 */
static bool capped_lset(const struct stale *st, size_t i, struct lset *out)
{
	const struct wm_printed *w = &st->pr[i];
	uint64_t v1 = st->wlo[i], v2 = st->whi[i], g, vw, v3, c;

	out->n = 1;
	out->lo[0] = 0;
	out->hi[0] = UINT64_MAX;
	if (!st->p->wsf || st->P == 0)
		return true;	/* not narrowed: tried L by L */
	if (w->has_promo && !st->p->promo)
		return false;	/* printed a promo the model has not */
	if (w->min < WM_SWAP_CLUSTER_MAX || w->min > 128)
		return false;
	if (w->min > WM_SWAP_CLUSTER_MAX && v1 < (uint64_t)w->min * 1024)
		v1 = (uint64_t)w->min * 1024;
	if (w->min < 128 && v2 > (uint64_t)w->min * 1024 + 1023)
		v2 = (uint64_t)w->min * 1024 + 1023;
	g = w->low - w->min;
	vw = ((g + 1) * 10000 - 1) / (uint64_t)st->s->wsf;
	if (v2 > vw)
		v2 = vw;
	if (v1 > v2)
		return false;
	c = 4 * g + 4;
	out->lo[0] = mul_div_sat(v1, st->P, c) + 1;
	out->hi[0] = g ? mul_div_sat(v2, st->P, 4 * g) : UINT64_MAX;
	v3 = (g * 10000 + (uint64_t)st->s->wsf - 1) / (uint64_t)st->s->wsf;
	if (v3 < v1)
		v3 = v1;
	if (v3 <= v2) {
		out->lo[1] = mul_div_sat(v3, st->P, c) + 1;
		out->hi[1] = UINT64_MAX;
		out->n = 2;
	}
	return true;
}

/* The nearest L' >= L (up) or <= L (down) in ls; false if none. */
static bool lset_next(const struct lset *ls, uint64_t L, bool up, uint64_t *next)
{
	bool any = false;
	int k;

	for (k = 0; k < ls->n; k++) {
		uint64_t c;

		if (ls->lo[k] > ls->hi[k])
			continue;
		if (L >= ls->lo[k] && L <= ls->hi[k])
			c = L;
		else if (up ? ls->lo[k] > L : ls->hi[k] < L)
			c = up ? ls->lo[k] : ls->hi[k];
		else
			continue;
		if (!any || (up ? c < *next : c > *next))
			*next = c;
		any = true;
	}
	return any;
}

static bool zone_matches(const struct wm_printed *pr, const struct wm_zone_wm *w)
{
	return !pr->shown || !pr->has_wm ||
	       (w->min == pr->min && w->low == pr->low && w->high == pr->high &&
		(!pr->has_promo || w->promo == pr->promo));
}

static bool zone_reaches(const struct wm_printed *pr, const struct wm_zone_wm *w)
{
	return w->min >= pr->min && w->low >= pr->low && w->high >= pr->high &&
	       (!pr->has_promo || w->promo >= pr->promo);
}

/*
 * Capped zone i: the smallest count in its window at which every zone
 * prints what it printed, as trying them upward from the window's bottom
 * finds; with plain() watermarks it is found by bisection.
 */
static bool fit_capped(struct stale *st, size_t i)
{
	uint64_t lo = st->wlo[i], hi = st->whi[i], v;

	if (st->exact_shape) {
		st->zones[i].managed = hi;
		if (wm_setup_wmarks(st->p, &st->mm, st->s, st->w, NULL) ||
		    !zone_reaches(&st->pr[i], &st->w[i]))
			return false;
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;

			st->steps--;
			st->zones[i].managed = mid;
			if (wm_setup_wmarks(st->p, &st->mm, st->s, st->w, NULL))
				return false;
			if (zone_reaches(&st->pr[i], &st->w[i]))
				hi = mid;
			else
				lo = mid + 1;
		}
		st->zones[i].managed = lo;
		return watermarks_match(st->p, &st->mm, st->s, st->pr, st->w);
	}
	for (v = lo;; v++) {	/* whi may be UINT64_MAX */
		if (--st->steps < 0)
			return false;
		st->zones[i].managed = v;
		if (watermarks_match(st->p, &st->mm, st->s, st->pr, st->w))
			return true;
		if (v == hi)
			return false;
	}
}

/*
 * The intervals of every zone at L, as the walk computes them: false when
 * some pinned zone has none.  *sumlo and *sumhi add up the lowmem ones.
 */
static bool intervals_at(const struct stale *st, uint64_t L, uint64_t *lo,
			 uint64_t *hi, uint64_t *sumlo, uint64_t *sumhi)
{
	size_t i;

	*sumlo = *sumhi = 0;
	for (i = 0; i < st->n; i++) {
		lo[i] = st->wlo[i];
		hi[i] = st->whi[i];
		if (wm_zone_capped(st->p, st->mhm, st->zones[i].type))
			continue;
		if (st->pinned[i] &&
		    !lowmem_interval(st->p, st->s, st->P, L, &st->pr[i], &lo[i], &hi[i]))
			return false;
		*sumlo += lo[i];
		*sumhi += hi[i];
	}
	return true;
}

/*
 * Try L as the walk does: 1 when counts summing to L reproduce every
 * printed number (managed_out filled), 0 when not, -1 when no L can
 * (a lowmem zone that its interval does not explain).
 */
static int try_at(struct stale *st, uint64_t L, const uint64_t *lo,
		  const uint64_t *hi, uint64_t *managed_out)
{
	const struct wm_profile *p = st->p;
	struct wm_zone *zones = st->zones;
	uint64_t sum = 0;
	size_t i, n = st->n;

	/* Each zone as near today's count as its interval allows... */
	for (i = 0; i < n; i++) {
		uint64_t cur = st->m->zones[i].managed;

		zones[i].managed = cur < lo[i] ? lo[i] : cur > hi[i] ? hi[i] : cur;
		if (!wm_zone_capped(p, st->mhm, zones[i].type))
			sum += zones[i].managed;
	}
	/* ...then moved within it until they add up to L. */
	for (i = 0; i < n && sum != L; i++) {
		uint64_t room;

		if (wm_zone_capped(p, st->mhm, zones[i].type))
			continue;
		if (sum < L) {
			room = hi[i] - zones[i].managed;
			room = room < L - sum ? room : L - sum;
			zones[i].managed += (uint64_t)room;
			sum += room;
		} else {
			room = zones[i].managed - lo[i];
			room = room < sum - L ? room : sum - L;
			zones[i].managed -= (uint64_t)room;
			sum -= room;
		}
	}
	if (st->exact_shape) {
		/* a lowmem zone's values depend on L only through its interval */
		if (wm_setup_wmarks(p, &st->mm, st->s, st->w, NULL))
			return -1;
		for (i = 0; i < n; i++)
			if (!wm_zone_capped(p, st->mhm, zones[i].type) &&
			    !zone_matches(&st->pr[i], &st->w[i]))
				return -1;
	}
	/* Capped zones take no part in L: each takes its lowest fitting count. */
	for (i = 0; i < n; i++)
		if (wm_zone_capped(p, st->mhm, zones[i].type) && st->pr[i].shown && st->pr[i].has_wm &&
		    !fit_capped(st, i))
			return 0;
	if (!watermarks_match(p, &st->mm, st->s, st->pr, st->w))
		return 0;
	for (i = 0; i < n; i++)
		managed_out[i] = zones[i].managed;
	return 1;
}

/*
 * The L in [from, to] nearest `from` (upward when up, else downward) at
 * which try_at() succeeds: 1 (counts in managed_out, L in *found), 0 none
 * in the range, -1 none at all.
 */
static int search(struct stale *st, uint64_t from, uint64_t to, bool up,
		  uint64_t *managed_out, uint64_t *found)
{
	uint64_t L = from, np = st->npinned;

	while (up ? L <= to : L >= to) {
		uint64_t lo[64], hi[64];
		uint64_t sumlo, sumhi, next = L, k, d;
		size_t i;
		int rc;

		if (--st->steps < 0)
			return -1;
		if (!intervals_at(st, L, lo, hi, &sumlo, &sumhi)) {
			next = up ? L + 1 : L - 1;	/* only below L = P */
		} else if (up ? sumlo > L : sumhi < L) {
			/* the sums only grow with L: the first L that could fit */
			next = up ? sumlo : sumhi;
		} else if (sumlo > L || sumhi < L) {
			/*
			 * Going the other way the sum can catch up by at most
			 * ceil(c * d / P) per zone in d steps (c: its min, or
			 * min + 1), i.e. less than d * c / P + 1.
			 */
			uint64_t c = up ? st->r1 : st->r0;

			k = up ? L - sumhi : sumlo - L;
			if (st->P == 0)
				return 0;	/* the sums do not move with L */
			if (c <= st->P) {
				if (k > np)
					return 0;
				d = 1;
			} else {
				d = k > np ? mul_div_sat(k - np, st->P, c - st->P) + 1 : 1;
			}
			if (up ? d > UINT64_MAX - L : d > L)
				return 0;
			next = up ? L + d : L - d;
		} else {
			for (i = 0; i < st->n && next == L; i++)
				if (st->cap[i].n && !lset_next(&st->cap[i], L, up, &next))
					return 0;
			if (next == L) {
				rc = try_at(st, L, lo, hi, managed_out);
				if (rc) {
					*found = L;
					return rc;
				}
				next = up ? L + 1 : L - 1;
			}
		}
		if (up ? next < L || next == UINT64_MAX : next > L)
			return 0;
		if (!up && L == 0)
			return 0;
		L = next;
	}
	return 0;
}

int wm_stale_watermarks(const struct wm_profile *p, const struct wm_machine *m,
			const struct wm_sysctl *s, const struct wm_printed *pr,
			unsigned permille, uint64_t floor,
			uint64_t *managed_out)
{
	struct stale st;
	uint64_t Llo = 0, Lhi = 0, Lcur = 0, A = 1, B = UINT64_MAX, span;
	uint64_t up_lo, up_hi, dn_lo, dn_hi, pages_extra = 0, L = 0, Ld;
	uint64_t out_up[64];
	size_t i, n = m->nzones;
	int rc, found = 0;

	if (m->page_size < 4096)
		return 0;	/* nothing fits a machine of unknown geometry */

	if (n > 64 || s->min_free_kbytes < 0 || (p->wsf && s->wsf < 1))
		return 0;
	memset(&st, 0, sizeof(st));
	st.p = p;
	st.m = m;
	st.s = s;
	st.pr = pr;
	st.n = n;
	st.steps = STALE_STEPS;
	st.P = (uint64_t)s->min_free_kbytes >> (wm_page_shift(m) - 10);
	if (s->extra_free_kbytes > 0)
		pages_extra = (uint64_t)s->extra_free_kbytes >> (wm_page_shift(m) - 10);
	st.mm = *m;
	st.mhm = wm_movable_highmem(p, m);
	st.mm.zones = st.zones;
	for (i = 0; i < n; i++) {
		const struct wm_printed *w = &pr[i];

		st.zones[i] = m->zones[i];
		st.zones[i].boost_at_setup = 0;
		window(m->zones[i].managed, permille, floor, &st.wlo[i], &st.whi[i]);
		if (st.whi[i] > m->zones[i].present && m->zones[i].present >= m->zones[i].managed)
			st.whi[i] = m->zones[i].present;	/* managed never exceeds present */
		if (w->shown && w->has_wm && !shape_ok(p, w))
			return 0;
		if (wm_zone_capped(p, st.mhm, st.zones[i].type))
			continue;
		if (Lhi + st.whi[i] < Lhi)
			return 0;	/* windows past 2^64 pages: no machine's */
		Llo += st.wlo[i];
		Lhi += st.whi[i];
		Lcur += m->zones[i].managed;
		st.pinned[i] = w->shown && w->has_wm && m->zones[i].managed;
	}
	st.exact_shape = plain(&st, pages_extra, Llo);

	/*
	 * A pinned zone's interval at L is [max(K, ceil(mn L / P)),
	 * min(H, ceil((mn + 1) L / P) - 1)], with [K, H] its window narrowed
	 * by the gap: not empty only for L in [floor(K P / (mn + 1)) + 1,
	 * floor(H P / mn)].
	 */
	for (i = 0; i < n; i++) {
		uint64_t mn = pr[i].min, K, H;

		if (!st.pinned[i])
			continue;
		if (!gap_interval(p, s, &pr[i], &K, &H) || (st.P == 0 && mn != 0))
			return 0;	/* at no L */
		K = K > st.wlo[i] ? K : st.wlo[i];
		H = H < st.whi[i] ? H : st.whi[i];
		if (K > H)
			return 0;
		st.npinned++;
		st.r0 += mn;
		st.r1 += mn + 1;
		if (st.P == 0)
			continue;
		if (mul_div_sat(K, st.P, mn + 1) + 1 > A)
			A = mul_div_sat(K, st.P, mn + 1) + 1;
		if (mn && mul_div_sat(H, st.P, mn) < B)
			B = mul_div_sat(H, st.P, mn);
	}
	for (i = 0; i < n; i++)
		if (st.exact_shape && wm_zone_capped(p, st.mhm, st.zones[i].type) && pr[i].shown &&
		    pr[i].has_wm && !capped_lset(&st, i, &st.cap[i]))
			return 0;

	/*
	 * The walk took Lhi - Llo steps, alternating up and down: up to
	 * ceil(span / 2) above today's L, floor(span / 2) below, never 0.
	 */
	span = Lhi - Llo;
	up_lo = Lcur > A ? Lcur : A;
	up_hi = Lcur + (span - span / 2) < Lhi ? Lcur + (span - span / 2) : Lhi;
	if (up_hi > B)
		up_hi = B;
	if (up_lo <= up_hi) {
		rc = search(&st, up_lo, up_hi, true, out_up, &L);
		if (rc < 0)
			return 0;
		found = rc;
	}
	/* Below today's L, only what is nearer than that (a tie goes up). */
	dn_lo = Lcur - (span / 2 < Lcur ? span / 2 : Lcur);
	dn_lo = dn_lo > Llo ? dn_lo : Llo;
	dn_lo = dn_lo > A ? dn_lo : A;
	if (found)
		dn_lo = L == Lcur ? Lcur : dn_lo > Lcur - (L - Lcur) + 1 ? dn_lo :
		      Lcur - (L - Lcur) + 1;
	dn_hi = Lcur - 1 < B ? Lcur - 1 : B;
	if (Lcur >= 1 && dn_lo <= dn_hi) {
		rc = search(&st, dn_hi, dn_lo, false, managed_out, &Ld);
		if (rc > 0)
			return 1;
		if (rc < 0 && !found)
			return 0;
	}
	if (found)
		memcpy(managed_out, out_up, n * sizeof(*managed_out));
	return found;
}

/* ---- protection ------------------------------------------------------ */

struct prot_search {
	const struct wm_profile *p;
	const struct wm_printed *pr;	/* the node's zones */
	int64_t ratio[WM_MAX_ZONES];
	uint64_t wlo[WM_MAX_ZONES], whi[WM_MAX_ZONES];
	uint64_t v[WM_MAX_ZONES];
	uint64_t cur[WM_MAX_ZONES];	/* today's counts */
	size_t n;
	int64_t budget;
};

/* Is prot[i][j] forced to 0 whatever the sums are? */
static bool cleared(const struct prot_search *ps, size_t i, size_t j)
{
	bool empty_i = ps->whi[i] == 0, empty_j = ps->whi[j] == 0;

	switch (ps->p->lrr_rule) {
	case WM_LRR_A: return false;
	case WM_LRR_B: return ps->ratio[i] == 0;
	case WM_LRR_C:
	case WM_LRR_D: return ps->ratio[i] == 0 || empty_i;
	case WM_LRR_E: return ps->ratio[i] == 0 || empty_i || empty_j;
	}
	return false;
}

/* Does zone t count in the sum behind prot[i][j]?  (t in i+1..j) */
static bool summed(const struct prot_search *ps, size_t t, size_t j)
{
	if (t == j || ps->p->lrr_rule != WM_LRR_C)
		return true;
	return ps->ratio[t] != 0 && ps->whi[t] != 0;	/* rule C's skip */
}

static bool prot_dfs(struct prot_search *ps, size_t k)
{
	uint64_t lo, hi, v;
	size_t i, t;

	if (k == ps->n)
		return true;
	lo = ps->wlo[k];
	hi = ps->whi[k];
	for (i = 0; i < k; i++) {
		int64_t want = ps->pr[i].protection[k];
		uint64_t r;
		uint64_t a = 0;	/* a node's sum: past 2^32 on a 32-bit build */
		long long l2, h2;

		if (!ps->pr[i].has_prot)
			continue;
		if (cleared(ps, i, k)) {
			if (want != 0)
				return false;
			continue;
		}
		r = (uint64_t)ps->ratio[i];
		for (t = i + 1; t < k; t++)
			if (summed(ps, t, k))
				a += ps->v[t];
		l2 = (long long)want * (long long)r - (long long)a;
		h2 = l2 + (long long)r - 1;
		if (h2 < 0)
			return false;
		if (l2 > (long long)lo)
			lo = (uint64_t)l2;
		if (h2 < (long long)hi)
			hi = (uint64_t)h2;
		if (lo > hi)
			return false;
	}
	{
		uint64_t cur = ps->cur[k], v0 = cur < lo ? lo : cur > hi ? hi : cur;
		uint64_t d;

		/* nearest to today's count first: v0, v0-1, v0+1, ... */
		for (d = 0; v0 - lo >= d || hi - v0 >= d; d++) {
			int side;

			for (side = 0; side < 2; side++) {
				if (side == 0 ? v0 - lo < d : (d == 0 || hi - v0 < d))
					continue;
				v = side == 0 ? v0 - d : v0 + d;
				if (--ps->budget < 0)
					return false;
				ps->v[k] = v;
				if (prot_dfs(ps, k + 1))
					return true;
			}
		}
	}
	return false;
}

int wm_stale_protection(const struct wm_profile *p, const struct wm_machine *m,
			const struct wm_sysctl *s, const struct wm_printed *pr,
			unsigned permille, uint64_t floor,
			uint64_t *managed_out)
{
	size_t first, n, i, j;

	for (first = 0; first < m->nzones; first += n) {
		struct prot_search ps = { .p = p, .pr = &pr[first], .budget = 2000000 };

		for (n = 0; first + n < m->nzones &&
			    m->zones[first + n].node == m->zones[first].node; n++)
			;
		if (n > WM_MAX_ZONES)
			return 0;
		ps.n = n;
		for (i = 0; i < n; i++) {
			ps.ratio[i] = (int)i < s->nlrr ? s->lrr[i] : 0;
			if (ps.ratio[i] < 1)
				ps.ratio[i] = p->lrr_rule == WM_LRR_A ? 1 : 0;
			window(m->zones[first + i].managed, permille, floor, &ps.wlo[i],
			       &ps.whi[i]);
			if (ps.whi[i] > m->zones[first + i].present &&
			    m->zones[first + i].present >= m->zones[first + i].managed)
				ps.whi[i] = m->zones[first + i].present;
			ps.cur[i] = m->zones[first + i].managed;
			/* entries at or left of the diagonal are always 0 */
			for (j = 0; j <= i && pr[first + i].has_prot; j++)
				if (pr[first + i].protection[j] != 0)
					return 0;
		}
		ps.v[0] = m->zones[first].managed;
		if (!prot_dfs(&ps, 1))
			return 0;
		for (i = 0; i < n; i++)
			managed_out[first + i] = ps.v[i];
	}
	return 1;
}

/* ---- sysctls --------------------------------------------------------- */

int wm_infer_sysctls(const struct wm_profile *p, const struct wm_machine *m,
		     const struct wm_printed *pr, struct wm_inferred *out)
{
	unsigned shift = wm_page_shift(m);
	uint64_t L = 0, Plo = 0, Phi = UINT64_MAX, summin = 0;
	int64_t wlo = 1, whi = 1000000, slo = 1, shi = 1000000;	/* long may be 32 bits */
	int nz = 0;
	bool any_wsf = false, any = false, pre = true, mhm = wm_movable_highmem(p, m);
	size_t i;

	memset(out, 0, sizeof(*out));
	if (wm_need_geometry(m, false, NULL))
		return WM_EINVAL;
	out->equal_gaps = true;
	for (i = 0; i < m->nzones; i++)
		if (!wm_zone_capped(p, mhm, m->zones[i].type))
			L += m->zones[i].managed;

	for (i = 0; i < m->nzones; i++) {
		const struct wm_printed *w = &pr[i];
		uint64_t mg = m->zones[i].managed, mn, a, b, gap, q;

		if (!w->shown || !w->has_wm || !mg || wm_zone_capped(p, mhm, m->zones[i].type))
			continue;
		if (w->low < w->min || w->high < w->low)
			continue;
		any = true;
		mn = w->min;
		summin += mn;
		nz++;
		/* min = floor(P * mg / L): P in [ceil(mn*L/mg), ceil((mn+1)*L/mg) - 1] */
		a = mul_div_up(mn, L, mg);
		b = mul_div_up(mn + 1, L, mg) - 1;
		if (a > Plo)
			Plo = a;
		if (b < Phi)
			Phi = b;
		gap = w->low - w->min;
		q = mn >> 2;
		if (w->high - w->low != gap)
			out->equal_gaps = false;
		if (gap != q || w->high - w->min != (mn >> 1))
			pre = false;
		if (gap > q) {
			int64_t lo2 = (int64_t)((gap * 10000 + mg - 1) / mg);
			int64_t hi2 = (int64_t)(((gap + 1) * 10000 - 1) / mg);

			any_wsf = true;
			if (lo2 > wlo)
				wlo = lo2;
			if (hi2 < whi)
				whi = hi2;
			/* the same with managed anywhere within 1% (stale) */
			lo2 = (int64_t)((gap * 10000 + mg + mg / 100 - 1) / (mg + mg / 100));
			hi2 = (int64_t)(((gap + 1) * 10000 - 1) / (mg - mg / 100));
			if (lo2 > slo)
				slo = lo2;
			if (hi2 < shi)
				shi = hi2;
		} else if (gap == q) {
			int64_t top = (int64_t)(((q + 1) * 10000 - 1) / mg);

			if (top < whi)
				whi = top;
			top = (int64_t)(((q + 1) * 10000 - 1) / (mg - mg / 100));
			if (top < shi)
				shi = top;
		} else {
			slo = 1;
			shi = 0;
			wlo = 1;
			whi = 0;	/* no wsf explains a gap below min/4 */
		}
	}
	if (!any) {
		out->mfk_lo = out->mfk_hi = out->wsf_lo = out->wsf_hi = -1;
		return WM_OK;
	}
	/*
	 * Stale watermarks fit no pages_min with today's counts; but the
	 * floored shares always add up to pages_min less at most one page
	 * per zone, whatever the counts were.
	 */
	if (Plo > Phi) {
		Plo = summin;
		Phi = summin + (uint64_t)nz - 1;
		out->from_sum = true;
	}
	if (wlo > whi && slo <= shi) {
		wlo = slo;
		whi = shi;
		out->from_sum = true;
	}
	if (Plo <= Phi && Phi < ((uint64_t)1 << 40) &&
	    ((Phi + 1) << (shift - 10)) - 1 <= INT64_MAX) {	/* always with 64-bit long */
		out->mfk_lo = (int64_t)(Plo << (shift - 10));
		out->mfk_hi = (int64_t)(((Phi + 1) << (shift - 10)) - 1);
	} else {
		out->mfk_lo = out->mfk_hi = -1;
	}
	if (whi > p->wsf_max)
		whi = p->wsf_max;
	if (wlo <= whi) {
		out->wsf_lo = (int64_t)wlo;	/* whi <= wsf_max: fits */
		out->wsf_hi = (int64_t)whi;
	} else {
		out->wsf_lo = out->wsf_hi = -1;
	}
	out->wsf_hidden = !any_wsf;
	out->pre_4_6 = pre && !out->equal_gaps;
	return WM_OK;
}

void wm_unboost(const struct wm_profile *p, struct wm_machine *m,
		struct wm_printed *pr, int64_t *boost_out)
{
	uint64_t pb = m->pageblock_pages;
	bool mhm = wm_movable_highmem(p, m);
	size_t i;

	for (i = 0; i < m->nzones; i++) {
		struct wm_printed *w = &pr[i];
		uint64_t gap, b, t;

		if (boost_out)
			boost_out[i] = 0;
		/* a boost moves by whole pageblocks: with none known, none is told */
		if (!pb || !p->boost || p->boost_printed || !w->shown || !w->has_wm ||
		    w->low < w->min || w->high < w->low)
			continue;
		gap = w->low - w->min;
		if (p->boost_reset_late && gap > w->high - w->low &&
		    (gap - (w->high - w->low)) % pb == 0) {
			m->zones[i].boost_at_setup = gap - (w->high - w->low);
			continue;
		}
		if (wm_zone_capped(p, mhm, m->zones[i].type) || (w->min >> 2) <= gap)
			continue;
		/*
		 * The fewest whole pageblocks b with (min - b) / 4 <= gap, i.e.
		 * b >= min - 4 * gap - 3 (here min >= 4 * gap + 4): a division,
		 * not a walk of min / pageblock steps, so a zone of any size
		 * takes no longer than a small one.
		 */
		t = w->min - 4 * gap - 3;
		b = t / pb + (t % pb != 0);
		if (b > w->min / pb)
			continue;	/* more than min itself */
		b *= pb;
		w->min -= b;
		w->low -= b;
		w->high -= b;
		if (w->has_promo)
			w->promo -= b;
		if (boost_out)
			boost_out[i] = (int64_t)b;
	}
}
