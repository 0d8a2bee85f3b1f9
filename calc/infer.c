// SPDX-License-Identifier: MIT
/*
 * infer.c - from printed watermarks back to their inputs.
 *
 * A kernel computes watermarks and protection from the managed counts of
 * the moment, and does not recompute them when managed changes (freeing
 * init memory after boot, balloons, hugetlb; kernel-notes.md 10.4).  So
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

static void window(unsigned long cur, unsigned permille, unsigned long floor,
		   unsigned long *lo, unsigned long *hi)
{
	unsigned long d = (unsigned long)((uint64_t)cur * permille / 1000);

	if (cur && d < floor)
		d = floor;
	if (d > cur)
		d = cur;	/* an empty zone stays empty; none goes below 0 */

	*lo = cur - d;
	/* saturated: cur + d wraps above ULONG_MAX / 2 (2^31 pages on 32-bit) */
	*hi = d > ULONG_MAX - cur ? ULONG_MAX : cur + d;
}

/* The printed watermarks follow the kernel's shape for this profile. */
static bool shape_ok(const struct wm_profile *p, const struct wm_printed *w)
{
	unsigned long gap;

	if (w->low < w->min || w->high < w->low)
		return false;
	gap = w->low - w->min;
	if (!p->wsf)
		return true;	/* checked against the share later */
	if (w->high - w->low != gap)
		return false;
	return !w->has_promo || (w->promo >= w->high && w->promo - w->high == gap);
}

/* Narrow [*lo, *hi] to the counts whose min and gap come out as printed. */
static bool lowmem_interval(const struct wm_profile *p, const struct wm_sysctl *s,
			    uint64_t P, uint64_t L, const struct wm_printed *w,
			    unsigned long *lo, unsigned long *hi)
{
	uint64_t mn = w->min, gap = w->low - w->min, q = mn >> 2, a, b;

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
	if (!p->wsf) {
		if (gap != q || w->high - w->min != (mn >> 1))
			return false;
	} else if (gap == q) {
		/* the wsf term did not beat the floor */
		uint64_t top = ((q + 1) * 10000 - 1) / (uint64_t)s->wsf;

		if (top < b)
			b = top;
	} else if (gap > q) {
		uint64_t lo2 = (gap * 10000 + (uint64_t)s->wsf - 1) / (uint64_t)s->wsf;
		uint64_t hi2 = ((gap + 1) * 10000 - 1) / (uint64_t)s->wsf;

		if (lo2 > a)
			a = lo2;
		if (hi2 < b)
			b = hi2;
	} else {
		return false;
	}
	/* narrowed in 64 bits: on a 32-bit build a may not fit a long */
	if (a < *lo)
		a = *lo;
	if (b > *hi)
		b = *hi;
	if (a > b)
		return false;
	*lo = (unsigned long)a;
	*hi = (unsigned long)b;
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

int wm_stale_watermarks(const struct wm_profile *p, const struct wm_machine *m,
			const struct wm_sysctl *s, const struct wm_printed *pr,
			unsigned permille, unsigned long floor,
			unsigned long *managed_out)
{
	struct wm_zone zones[64];
	struct wm_zone_wm w[64];
	struct wm_machine mm = *m;
	unsigned long wlo[64], whi[64];
	uint64_t P, Llo = 0, Lhi = 0, Lcur = 0, L;
	size_t i, n = m->nzones;

	if (n > 64 || s->min_free_kbytes < 0 || (p->wsf && s->wsf < 1))
		return 0;
	P = (uint64_t)s->min_free_kbytes >> (wm_page_shift(m) - 10);
	for (i = 0; i < n; i++) {
		zones[i] = m->zones[i];
		zones[i].boost_at_setup = 0;
		window(m->zones[i].managed, permille, floor, &wlo[i], &whi[i]);
		if (whi[i] > m->zones[i].present && m->zones[i].present >= m->zones[i].managed)
			whi[i] = m->zones[i].present;	/* managed never exceeds present */
		if (pr[i].shown && pr[i].has_wm && !shape_ok(p, &pr[i]))
			return 0;
		if (!wm_zone_capped(p, zones[i].type)) {
			Llo += wlo[i];
			Lhi += whi[i];
			Lcur += m->zones[i].managed;
		}
	}
	mm.zones = zones;

	/* L nearest today's first: the smallest move that explains it all. */
	for (uint64_t step = 0; step <= Lhi - Llo; step++) {
		unsigned long lo[64], hi[64];
		uint64_t sumlo = 0, sumhi = 0, sum = 0;
		bool ok = true;

		if (step % 2 == 0 ? Lcur < step / 2 : Lcur + (step + 1) / 2 > Lhi)
			continue;
		L = step % 2 == 0 ? Lcur - step / 2 : Lcur + (step + 1) / 2;
		if (L < Llo || L > Lhi || L == 0)
			continue;
		for (i = 0; i < n && ok; i++) {
			lo[i] = wlo[i];
			hi[i] = whi[i];
			if (wm_zone_capped(p, zones[i].type))
				continue;
			if (pr[i].shown && pr[i].has_wm && m->zones[i].managed)
				ok = lowmem_interval(p, s, P, L, &pr[i], &lo[i], &hi[i]);
			sumlo += lo[i];
			sumhi += hi[i];
		}
		if (!ok || L < sumlo || L > sumhi)
			continue;
		/* Each zone as near today's count as its interval allows... */
		for (i = 0; i < n; i++) {
			unsigned long cur = m->zones[i].managed;

			zones[i].managed = cur < lo[i] ? lo[i] : cur > hi[i] ? hi[i] : cur;
			if (!wm_zone_capped(p, zones[i].type))
				sum += zones[i].managed;
		}
		/* ...then moved within it until they add up to L. */
		for (i = 0; i < n && sum != L; i++) {
			uint64_t room;

			if (wm_zone_capped(p, zones[i].type))
				continue;
			if (sum < L) {
				room = hi[i] - zones[i].managed;
				room = room < L - sum ? room : L - sum;
				zones[i].managed += (unsigned long)room;
				sum += room;
			} else {
				room = zones[i].managed - lo[i];
				room = room < sum - L ? room : sum - L;
				zones[i].managed -= (unsigned long)room;
				sum -= room;
			}
		}
		/* Capped zones take no part in L: try each count in their window. */
		for (i = 0; i < n && ok; i++) {
			unsigned long v;

			if (!wm_zone_capped(p, zones[i].type) || !pr[i].shown || !pr[i].has_wm)
				continue;
			ok = false;
			for (v = wlo[i];; v++) {	/* whi may be ULONG_MAX */
				zones[i].managed = v;
				if (watermarks_match(p, &mm, s, pr, w)) {
					ok = true;
					break;
				}
				if (v == whi[i])
					break;
			}
		}
		if (ok && watermarks_match(p, &mm, s, pr, w)) {
			for (i = 0; i < n; i++)
				managed_out[i] = zones[i].managed;
			return 1;
		}
	}
	return 0;
}

/* ---- protection ------------------------------------------------------ */

struct prot_search {
	const struct wm_profile *p;
	const struct wm_printed *pr;	/* the node's zones */
	long ratio[WM_MAX_ZONES];
	unsigned long wlo[WM_MAX_ZONES], whi[WM_MAX_ZONES];
	unsigned long v[WM_MAX_ZONES];
	unsigned long cur[WM_MAX_ZONES];	/* today's counts */
	size_t n;
	long budget;
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
	unsigned long lo, hi, v;
	size_t i, t;

	if (k == ps->n)
		return true;
	lo = ps->wlo[k];
	hi = ps->whi[k];
	for (i = 0; i < k; i++) {
		long want = ps->pr[i].protection[k];
		unsigned long r;
		uint64_t a = 0;	/* a node's sum: past 2^32 on a 32-bit build */
		long long l2, h2;

		if (!ps->pr[i].has_prot)
			continue;
		if (cleared(ps, i, k)) {
			if (want != 0)
				return false;
			continue;
		}
		r = (unsigned long)ps->ratio[i];
		for (t = i + 1; t < k; t++)
			if (summed(ps, t, k))
				a += ps->v[t];
		l2 = (long long)want * (long long)r - (long long)a;
		h2 = l2 + (long long)r - 1;
		if (h2 < 0)
			return false;
		if (l2 > (long long)lo)
			lo = (unsigned long)l2;
		if (h2 < (long long)hi)
			hi = (unsigned long)h2;
		if (lo > hi)
			return false;
	}
	{
		unsigned long cur = ps->cur[k], v0 = cur < lo ? lo : cur > hi ? hi : cur;
		unsigned long d;

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
			unsigned permille, unsigned long floor,
			unsigned long *managed_out)
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
	bool any_wsf = false, any = false, pre = true;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->equal_gaps = true;
	for (i = 0; i < m->nzones; i++)
		if (!wm_zone_capped(p, m->zones[i].type))
			L += m->zones[i].managed;

	for (i = 0; i < m->nzones; i++) {
		const struct wm_printed *w = &pr[i];
		uint64_t mg = m->zones[i].managed, mn, a, b, gap, q;

		if (!w->shown || !w->has_wm || !mg || wm_zone_capped(p, m->zones[i].type))
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
	    ((Phi + 1) << (shift - 10)) - 1 <= LONG_MAX) {	/* always with 64-bit long */
		out->mfk_lo = (long)(Plo << (shift - 10));
		out->mfk_hi = (long)(((Phi + 1) << (shift - 10)) - 1);
	} else {
		out->mfk_lo = out->mfk_hi = -1;
	}
	if (whi > p->wsf_max)
		whi = p->wsf_max;
	if (wlo <= whi) {
		out->wsf_lo = (long)wlo;	/* whi <= wsf_max: fits */
		out->wsf_hi = (long)whi;
	} else {
		out->wsf_lo = out->wsf_hi = -1;
	}
	out->wsf_hidden = !any_wsf;
	out->pre_4_6 = pre && !out->equal_gaps;
	return WM_OK;
}

void wm_unboost(const struct wm_profile *p, struct wm_machine *m,
		struct wm_printed *pr, long *boost_out)
{
	unsigned long pb = m->pageblock_pages ? m->pageblock_pages : 512;
	size_t i;

	for (i = 0; i < m->nzones; i++) {
		struct wm_printed *w = &pr[i];
		unsigned long gap, b, t;

		if (boost_out)
			boost_out[i] = 0;
		if (!p->boost || p->boost_printed || !w->shown || !w->has_wm ||
		    w->low < w->min || w->high < w->low)
			continue;
		gap = w->low - w->min;
		if (p->boost_reset_late && gap > w->high - w->low &&
		    (gap - (w->high - w->low)) % pb == 0) {
			m->zones[i].boost_at_setup = gap - (w->high - w->low);
			continue;
		}
		if (wm_zone_capped(p, m->zones[i].type) || (w->min >> 2) <= gap)
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
			boost_out[i] = (long)b;
	}
}
