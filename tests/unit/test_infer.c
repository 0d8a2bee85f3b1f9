// SPDX-License-Identifier: MIT
/*
 * test_infer.c - working back from printed watermarks, against the 6.18 VM
 * of docs/model.md §9.2 (snapshots A and B), the worked examples of
 * §11.1 and the formulas of §3 inverted by hand; and the
 * exact 64x64/64 division the search rests on.
 *
 * Snapshot A: managed DMA 3840, DMA32 772918, Normal 163840, Movable 0,
 * Device 0; min_free_kbytes 67584, wsf 10, ratios 256 256 32 0 0.
 * Snapshot B: the same VM after Normal grew to 1376256.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/infer.h"
#include "../../calc/internal.h"
#include "../../calc/wmark.h"

#define STALE 10	/* permille: verify's "within 1%" */
#define NZ 5

static const enum wm_zone_type vm_types[NZ] = { WM_ZONE_DMA, WM_ZONE_DMA32,
	WM_ZONE_NORMAL, WM_ZONE_MOVABLE, WM_ZONE_DEVICE };
static const unsigned long snap_a[NZ] = { 3840, 772918, 163840, 0, 0 };
static const unsigned long snap_b[NZ] = { 3840, 772918, 1376256, 0, 0 };

/* Section 9.2: min/low/high/promo as 6.18.44 printed them. */
static const unsigned long wm_a[NZ][4] = {
	{ 68, 85, 102, 119 }, { 13883, 17353, 20823, 24293 },
	{ 2943, 3678, 4413, 5148 }, { 32, 32, 32, 32 }, { 0, 0, 0, 0 },
};
static const unsigned long wm_b[NZ][4] = {
	{ 30, 37, 44, 51 }, { 6065, 7581, 9097, 10613 },
	{ 10800, 13500, 16200, 18900 }, { 32, 32, 32, 32 }, { 0, 0, 0, 0 },
};
static const long prot_a[NZ][NZ] = {
	{ 0, 3019, 3659, 3659, 3659 }, { 0, 0, 640, 640, 640 },
};

struct vm {
	struct wm_profile p;
	struct wm_zone z[NZ];
	struct wm_machine m;
	struct wm_sysctl s;
	struct wm_printed pr[NZ];
	unsigned long out[NZ];
};

static void profile(const char *release, struct wm_profile *p)
{
	struct wm_kver k;

	assert_int_equal(wm_kver_parse(release, &k, NULL), WM_OK);
	wm_profile_for(&k, p);
}

/*
 * The section 9 VM with today's managed counts `managed`.  Normal's present
 * is snapshot B's managed (the same VM later: managed never exceeds
 * present); the other zones' present is their managed.
 */
static void vm_init(struct vm *v, const char *release, const unsigned long *managed)
{
	static const long lrr[NZ] = { 256, 256, 32, 0, 0 };
	int i;

	memset(v, 0, sizeof(*v));
	profile(release, &v->p);
	for (i = 0; i < NZ; i++)
		v->z[i] = (struct wm_zone){ .idx = i, .type = vm_types[i],
					    .managed = managed[i],
					    .present = i == 2 ? snap_b[2] : managed[i] };
	v->m = (struct wm_machine){ .zones = v->z, .nzones = NZ, .page_size = 4096,
				    .pageblock_pages = 512 };
	v->s.min_free_kbytes = 67584;
	v->s.wsf = 10;
	v->s.boost_factor = 15000;
	v->s.extra_free_kbytes = -1;
	memcpy(v->s.lrr, lrr, sizeof(lrr));
	v->s.nlrr = NZ;
	v->s.have = WM_HAVE_MFK | WM_HAVE_WSF | WM_HAVE_BOOST | WM_HAVE_LRR;
}

static void print_wm(struct wm_printed *pr, const unsigned long w[4], bool promo)
{
	pr->shown = pr->has_wm = true;
	pr->min = w[0];
	pr->low = w[1];
	pr->high = w[2];
	pr->has_promo = promo;
	pr->promo = promo ? w[3] : 0;
}

static void print_all_wm(struct vm *v, const unsigned long w[NZ][4])
{
	int i;

	for (i = 0; i < NZ; i++)
		print_wm(&v->pr[i], w[i], v->p.promo_printed);
}

static void print_prot_a(struct vm *v)
{
	int i;

	for (i = 0; i < NZ; i++) {
		v->pr[i].shown = v->pr[i].has_prot = true;
		v->pr[i].nprot = NZ;
		memcpy(v->pr[i].protection, prot_a[i], sizeof(prot_a[i]));
	}
}

/* The model, fed counts c, prints exactly what pr says. */
static void assert_counts_reproduce(struct vm *v, const unsigned long *c)
{
	struct wm_zone z[NZ];
	struct wm_machine m = v->m;
	struct wm_zone_wm w[NZ];
	int i, j;

	memcpy(z, v->z, sizeof(z));
	for (i = 0; i < NZ; i++)
		z[i].managed = c[i];
	m.zones = z;
	assert_int_equal(wm_setup_wmarks(&v->p, &m, &v->s, w, NULL), WM_OK);
	assert_int_equal(wm_protection(&v->p, &m, &v->s, w, NULL), WM_OK);
	for (i = 0; i < NZ; i++) {
		if (v->pr[i].has_wm) {
			assert_int_equal(w[i].min, v->pr[i].min);
			assert_int_equal(w[i].low, v->pr[i].low);
			assert_int_equal(w[i].high, v->pr[i].high);
			if (v->pr[i].has_promo)
				assert_int_equal(w[i].promo, v->pr[i].promo);
		}
		for (j = 0; v->pr[i].has_prot && j < NZ; j++)
			assert_int_equal(w[i].protection[j], v->pr[i].protection[j]);
	}
}

/* ---- wm_mul_div ------------------------------------------------------ */

#define U64_MAX UINT64_MAX
#define P2(n) ((uint64_t)1 << (n))

static void test_mul_div_squares_2_to_64_minus_1_exactly(void **state)
{
	uint64_t r = 7;

	/* (2^64 - 1)^2 = 2^128 - 2^65 + 1 */
	assert_true(wm_mul_div(U64_MAX, U64_MAX, U64_MAX, &r) == U64_MAX);
	assert_true(r == 0);
	/* / 3 = (2^64 - 1) * 0x5555555555555555, exactly: low half 2^64 - 0x55..55 */
	assert_true(wm_mul_div(U64_MAX, U64_MAX, 3, &r) == 0xaaaaaaaaaaaaaaabu);
	assert_true(r == 0);
	/* / 2^32 = 2^96 - 2^33 rest 1: low 64 bits 2^64 - 2^33 */
	assert_true(wm_mul_div(U64_MAX, U64_MAX, P2(32), &r) == 0xfffffffe00000000u);
	assert_true(r == 1);
	/* / 2^63 = 2^65 - 4 rest 1: low 64 bits 2^64 - 4 */
	assert_true(wm_mul_div(U64_MAX, U64_MAX, P2(63), &r) == 0xfffffffffffffffcu);
	assert_true(r == 1);
	/* / 1: the low half of the square itself */
	assert_true(wm_mul_div(U64_MAX, U64_MAX, 1, &r) == 1);
	assert_true(r == 0);
}

static void test_mul_div_keeps_the_low_64_bits_of_a_quotient_of_2_to_64(void **state)
{
	uint64_t r = 7;

	/* x = 2^64 - 2: (x + 1)^2 = x * (x + 2) + 1, and x + 2 = 2^64 */
	assert_true(wm_mul_div(U64_MAX, U64_MAX, U64_MAX - 1, &r) == 0);
	assert_true(r == 1);
}

static void test_mul_div_is_exact_where_the_product_crosses_2_to_64(void **state)
{
	uint64_t r = 7;

	/* (2^32 + 1)(2^32 - 1) = 2^64 - 1: still one word */
	assert_true(wm_mul_div(P2(32) + 1, P2(32) - 1, 1, &r) == U64_MAX);
	assert_true(r == 0);
	/* 2^32 * 2^32 = 2^64: the first product with a high word */
	assert_true(wm_mul_div(P2(32), P2(32), 2, &r) == P2(63));
	assert_true(r == 0);
	assert_true(wm_mul_div(P2(32), P2(32), 3, &r) == 6148914691236517205u);
	assert_true(r == 1);	/* 2^64 = 3 * 6148914691236517205 + 1 */
	assert_true(wm_mul_div(P2(32), P2(32), U64_MAX, &r) == 1);
	assert_true(r == 1);
	/* divisors above 2^63: the partial remainder needs a 65th bit */
	assert_true(wm_mul_div(U64_MAX, 2, U64_MAX, &r) == 2);
	assert_true(r == 0);
	assert_true(wm_mul_div(P2(63) + 1, 4, U64_MAX, &r) == 2);
	assert_true(r == 6);	/* 2^65 + 4 = 2 * (2^64 - 1) + 6 */
	assert_true(wm_mul_div(P2(63) + 1, 4, U64_MAX, NULL) == 2);
}

static void test_mul_div_gives_snapshot_a_proportional_shares(void **state)
{
	uint64_t r;

	/* section 9.2: prop = floor(16896 * managed / 940598) */
	assert_true(wm_mul_div(16896, 3840, 940598, &r) == 68);
	assert_true(r == 64880640ull - 68ull * 940598);
	assert_true(wm_mul_div(16896, 772918, 940598, &r) == 13883);
	assert_true(r == 13059222528ull - 13883ull * 940598);
	assert_true(wm_mul_div(16896, 163840, 940598, &r) == 2943);
	assert_true(r == 2768240640ull - 2943ull * 940598);
}

/* ---- wm_stale_watermarks ---------------------------------------------- */

static void test_stale_watermarks_returns_todays_counts_when_they_fit(void **state)
{
	struct vm v;

	vm_init(&v, "6.18.44", snap_a);
	print_all_wm(&v, wm_a);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, STALE, 0, v.out), 1);
	assert_memory_equal(v.out, snap_a, sizeof(snap_a));

	vm_init(&v, "6.18.44", snap_b);
	print_all_wm(&v, wm_b);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, STALE, 0, v.out), 1);
	assert_memory_equal(v.out, snap_b, sizeof(snap_b));
}

static void test_stale_watermarks_explains_a_normal_zone_grown_by_300_pages(void **state)
{
	const unsigned long today[NZ] = { 3840, 772918, 163840 + 300, 0, 0 };
	uint64_t sum = 0, now = 3840 + 772918 + 163840 + 300;
	struct vm v;
	int i;

	vm_init(&v, "6.18.44", today);
	print_all_wm(&v, wm_a);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, STALE, 0, v.out), 1);
	assert_counts_reproduce(&v, v.out);
	for (i = 0; i < NZ; i++) {
		unsigned long d = today[i] / 100;

		assert_in_range(v.out[i], today[i] - d, today[i] + d);
		sum += v.out[i];
	}
	/* nearest first: no farther from today's total than snapshot A's */
	assert_in_range(sum, now - 300, now + 300);
	assert_int_equal(v.out[3], 0);	/* empty zones stay empty */
	assert_int_equal(v.out[4], 0);
}

static void test_stale_watermarks_refuses_a_normal_zone_grown_eightfold(void **state)
{
	struct vm v;

	/* B's counts cannot have printed A's watermarks: it was recomputed. */
	vm_init(&v, "6.18.44", snap_b);
	print_all_wm(&v, wm_a);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, STALE, 0, v.out), 0);
}

static void test_a_single_watermark_one_page_off_is_never_stale(void **state)
{
	static const int delta[] = { -1, 1 };
	struct vm v;
	int i, f, d;

	for (i = 0; i < 4; i++) {		/* DMA, DMA32, Normal, Movable */
		for (f = 0; f < 4; f++) {	/* min, low, high, promo */
			for (d = 0; d < 2; d++) {
				unsigned long w[NZ][4];

				memcpy(w, wm_a, sizeof(w));
				if (w[i][f] == 0 && delta[d] < 0)
					continue;
				w[i][f] += (unsigned long)delta[d];
				vm_init(&v, "6.18.44", snap_a);
				print_all_wm(&v, w);
				assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr,
								     STALE, 0, v.out), 0);
			}
		}
	}
}

/*
 * Section 11.1, ppc64le 64K: Normal managed 64494 of 4 GiB (65536 pages
 * present), min_free_kbytes 22528, wsf 120: min 352, gap 773, so low 1125,
 * high 1898, promo 2671.  One lowmem zone: min is pages_min whatever the
 * count; only floor(managed * 120 / 10000) = 773 pins it, to
 * [ceil(7730000 / 120), floor(7739999 / 120)] = [64417, 64499].
 */
static void ppc64le(struct vm *v, unsigned long today)
{
	static const unsigned long w[4] = { 352, 1125, 1898, 2671 };

	memset(v, 0, sizeof(*v));
	profile("6.12.107", &v->p);
	v->z[0] = (struct wm_zone){ .type = WM_ZONE_NORMAL, .managed = today,
				    .present = 65536 };
	v->m = (struct wm_machine){ .zones = v->z, .nzones = 1, .page_size = 65536,
				    .pageblock_pages = 32 };
	v->s = (struct wm_sysctl){ .min_free_kbytes = 22528, .wsf = 120,
				   .boost_factor = 15000, .extra_free_kbytes = -1,
				   .lrr = { 32, 0, 0 }, .nlrr = 3,
				   .have = WM_HAVE_MFK | WM_HAVE_WSF | WM_HAVE_BOOST |
					   WM_HAVE_LRR };
	print_wm(&v->pr[0], w, true);
}

static void test_stale_watermarks_moves_a_lone_zone_to_its_wsf_step_edge(void **state)
{
	struct vm v;

	ppc64le(&v, 64494 + 300);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, STALE, 0, v.out), 1);
	assert_int_equal(v.out[0], 64499);
	ppc64le(&v, 64494 - 300);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, STALE, 0, v.out), 1);
	assert_int_equal(v.out[0], 64417);
	/* 1% of 63780 is 637 pages: just reaches 64417... */
	ppc64le(&v, 63780);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, STALE, 0, v.out), 1);
	assert_int_equal(v.out[0], 64417);
	/* ...and 63779 + 637 stops one page short, unless the floor is 638 */
	ppc64le(&v, 63779);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, STALE, 0, v.out), 0);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, STALE, 637, v.out), 0);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, STALE, 638, v.out), 1);
	assert_int_equal(v.out[0], 64417);
}

/*
 * The walk wm_stale_watermarks() replaces, kept here as its reference:
 * every L in turn, nearest today's first, and every count of a capped
 * zone in turn.  Exact, and linear in the size of the window.
 */
static uint64_t walk_up(uint64_t a, uint64_t b, uint64_t d)
{
	uint64_t r, q = wm_mul_div(a, b, d, &r);

	return q + (r != 0);
}

static bool walk_interval(const struct wm_profile *p, const struct wm_sysctl *s, uint64_t P,
			  uint64_t L, const struct wm_printed *w, unsigned long *lo,
			  unsigned long *hi)
{
	uint64_t mn = w->min, gap = w->low - w->min, q = mn >> 2, a, b;

	if (P == 0) {
		if (mn != 0)
			return false;
		a = 0;
		b = UINT64_MAX;
	} else {
		a = walk_up(mn, L, P);
		b = walk_up(mn + 1, L, P) - 1;
	}
	if (!p->wsf) {
		if (gap != q || w->high - w->min != (mn >> 1))
			return false;
	} else if (gap == q) {
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

static bool walk_matches(const struct wm_profile *p, const struct wm_machine *m,
			 const struct wm_sysctl *s, const struct wm_printed *pr)
{
	struct wm_zone_wm w[8];
	size_t i;

	if (wm_setup_wmarks(p, m, s, w, NULL))
		return false;
	for (i = 0; i < m->nzones; i++)
		if (pr[i].shown && pr[i].has_wm &&
		    (w[i].min != pr[i].min || w[i].low != pr[i].low || w[i].high != pr[i].high ||
		     (pr[i].has_promo && w[i].promo != pr[i].promo)))
			return false;
	return true;
}

static bool walk_shape(const struct wm_profile *p, const struct wm_printed *w)
{
	unsigned long gap;

	if (w->low < w->min || w->high < w->low)
		return false;
	gap = w->low - w->min;
	if (!p->wsf)
		return true;
	if (w->high - w->low != gap)
		return false;
	return !w->has_promo || (w->promo >= w->high && w->promo - w->high == gap);
}

static int stale_by_walking(const struct wm_profile *p, const struct wm_machine *m,
			    const struct wm_sysctl *s, const struct wm_printed *pr,
			    unsigned permille, unsigned long floor, unsigned long *out)
{
	struct wm_zone zones[8];
	struct wm_machine mm = *m;
	unsigned long wlo[8], whi[8];
	uint64_t P, Llo = 0, Lhi = 0, Lcur = 0, L;
	size_t i, n = m->nzones;
	unsigned shift = 0;
	bool mhm = wm_movable_highmem(p, m);

	while ((1u << shift) < m->page_size)
		shift++;
	P = (uint64_t)s->min_free_kbytes >> (shift - 10);
	for (i = 0; i < n; i++) {
		unsigned long cur = m->zones[i].managed;
		unsigned long d = (unsigned long)((uint64_t)cur * permille / 1000);

		if (cur && d < floor)
			d = floor;
		if (d > cur)
			d = cur;
		wlo[i] = cur - d;
		whi[i] = cur + d;
		zones[i] = m->zones[i];
		zones[i].boost_at_setup = 0;
		if (whi[i] > m->zones[i].present && m->zones[i].present >= cur)
			whi[i] = m->zones[i].present;
		if (pr[i].shown && pr[i].has_wm && !walk_shape(p, &pr[i]))
			return 0;
		if (!wm_zone_capped(p, mhm, zones[i].type)) {
			Llo += wlo[i];
			Lhi += whi[i];
			Lcur += cur;
		}
	}
	mm.zones = zones;
	for (uint64_t step = 0; step <= Lhi - Llo; step++) {
		unsigned long lo[8], hi[8];
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
			if (wm_zone_capped(p, mhm, zones[i].type))
				continue;
			if (pr[i].shown && pr[i].has_wm && m->zones[i].managed)
				ok = walk_interval(p, s, P, L, &pr[i], &lo[i], &hi[i]);
			sumlo += lo[i];
			sumhi += hi[i];
		}
		if (!ok || L < sumlo || L > sumhi)
			continue;
		for (i = 0; i < n; i++) {
			unsigned long cur = m->zones[i].managed;

			zones[i].managed = cur < lo[i] ? lo[i] : cur > hi[i] ? hi[i] : cur;
			if (!wm_zone_capped(p, mhm, zones[i].type))
				sum += zones[i].managed;
		}
		for (i = 0; i < n && sum != L; i++) {
			uint64_t room;

			if (wm_zone_capped(p, mhm, zones[i].type))
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
		for (i = 0; i < n && ok; i++) {
			unsigned long v;

			if (!wm_zone_capped(p, mhm, zones[i].type) || !pr[i].shown || !pr[i].has_wm)
				continue;
			ok = false;
			for (v = wlo[i];; v++) {
				zones[i].managed = v;
				if (walk_matches(p, &mm, s, pr)) {
					ok = true;
					break;
				}
				if (v == whi[i])
					break;
			}
		}
		if (ok && walk_matches(p, &mm, s, pr)) {
			for (i = 0; i < n; i++)
				out[i] = zones[i].managed;
			return 1;
		}
	}
	return 0;
}

static uint64_t rnd(uint64_t *seed, uint64_t n)
{
	*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
	return n ? (*seed >> 17) % n : 0;
}

/*
 * Small machines of every shape: zones of a few thousand pages, HighMem
 * and Movable among them, printed values from counts near today's (stale),
 * or nudged, or another machine's, pages_min above lowmem at times, an
 * extra_free share at times.  The search finds what the walk finds.
 */
static void test_stale_watermarks_finds_what_walking_every_total_finds(void **state)
{
	static const char *const releases[] = { "6.18.44", "6.1.0-57-amd64", "5.10.218",
						"5.4.286", "4.9.337", "4.4.0", "3.10.0" };
	static const enum wm_zone_type kinds[] = { WM_ZONE_DMA, WM_ZONE_DMA32, WM_ZONE_NORMAL,
						   WM_ZONE_HIGHMEM, WM_ZONE_MOVABLE,
						   WM_ZONE_DEVICE };
	uint64_t seed = 977;
	int k, found = 0, cases = 2500;

	for (k = 0; k < cases; k++) {
		struct wm_profile p;
		struct wm_zone z[8], then[8];
		struct wm_machine m, mt;
		struct wm_sysctl sc = { 0 };
		struct wm_printed pr[8];
		struct wm_zone_wm w[8];
		unsigned long got[8], want[8];
		unsigned permille = (unsigned)(5 + rnd(&seed, 200));
		unsigned long floor = (unsigned long)rnd(&seed, 3) ? (unsigned long)rnd(&seed, 300) : 0;
		size_t n = 1 + (size_t)rnd(&seed, 5), i;
		int a, b;

		profile(releases[rnd(&seed, sizeof(releases) / sizeof(releases[0]))], &p);
		memset(z, 0, sizeof(z));
		memset(pr, 0, sizeof(pr));
		for (i = 0; i < n; i++) {
			unsigned long cur = rnd(&seed, 8) == 0 ? 0 : 1 + (unsigned long)rnd(&seed, 4000);

			z[i].idx = (int)i;
			z[i].type = kinds[rnd(&seed, sizeof(kinds) / sizeof(kinds[0]))];
			z[i].managed = cur;
			z[i].present = cur + (unsigned long)rnd(&seed, 3) * (unsigned long)rnd(&seed, 60);
		}
		m = (struct wm_machine){ .zones = z, .nzones = n, .page_size = 4096,
					 .pageblock_pages = 512 };
		sc.min_free_kbytes = (long)(rnd(&seed, 4) == 0 ? rnd(&seed, 40000) : rnd(&seed, 4000));
		sc.wsf = 1 + (long)rnd(&seed, 3) * (long)rnd(&seed, 300);
		sc.extra_free_kbytes = rnd(&seed, 6) == 0 ? (long)rnd(&seed, 5000) : -1;
		sc.boost_factor = 15000;
		/* the counts the kernel computed from: near today's, or not */
		memcpy(then, z, sizeof(z));
		for (i = 0; i < n; i++) {
			long d = (long)rnd(&seed, 2 * (permille * z[i].managed / 1000 + floor) + 3) -
				 (long)(permille * z[i].managed / 1000 + floor) - 1;

			if (z[i].managed && rnd(&seed, 2) && (long)z[i].managed + d > 0)
				then[i].managed = (unsigned long)((long)z[i].managed + d);
		}
		mt = m;
		mt.zones = then;
		if (wm_setup_wmarks(&p, &mt, &sc, w, NULL))
			continue;
		for (i = 0; i < n; i++) {
			if (rnd(&seed, 10) == 0)
				continue;	/* not printed */
			pr[i].shown = pr[i].has_wm = true;
			pr[i].min = w[i].min;
			pr[i].low = w[i].low;
			pr[i].high = w[i].high;
			pr[i].has_promo = p.promo_printed;
			pr[i].promo = w[i].promo;
			switch (rnd(&seed, 12)) {
			case 0: pr[i].min++; break;
			case 1: pr[i].low++; pr[i].high++; pr[i].promo++; break;
			case 2: pr[i].high += 3; pr[i].promo += 3; break;
			default: break;
			}
		}
		a = wm_stale_watermarks(&p, &m, &sc, pr, permille, floor, got);
		b = stale_by_walking(&p, &m, &sc, pr, permille, floor, want);
		if (a != b || (a && memcmp(got, want, n * sizeof(got[0]))))
			fail_msg("case %d (%s, %zu zones, mfk %ld, wsf %ld, extra %ld): search %d, walk %d",
				 k, p.kver.major >= 6 ? "6.x" : "older", n, sc.min_free_kbytes, sc.wsf,
				 sc.extra_free_kbytes, a, b);
		found += a;
	}
	/* both kinds of answer were tried */
	assert_in_range(found, cases / 10, cases - cases / 10);
}

/*
 * A 64 TiB Normal zone (2^34 pages) whose watermarks fit no counts: the
 * walk went through every total within 1% of it, one page at a time.
 */
static void test_stale_watermarks_gives_up_on_64_tib_without_walking(void **state)
{
	const unsigned long big[NZ] = { 3840, 772918, 1ul << 34, 0, 0 };
	struct vm v;

	if (sizeof(long) < 8)
		skip();
	vm_init(&v, "6.18.44", big);
	v.z[2].present = big[2];
	print_all_wm(&v, wm_b);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, STALE, 16384, v.out), 0);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, 200, 0, v.out), 0);
	/* managed 2^53 + 1 */
	v.z[2].managed = v.z[2].present = (1ul << 53) + 1;
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, STALE, 16384, v.out), 0);
}

/*
 * The same zone, printed when it had 2^34 - 2^30 pages (60 TiB): 6.25%
 * below.  Today's counts are the zones' present, so the window reaches
 * half its width below them: 5% at 10%, not enough; 10% at 20%.
 */
static void test_stale_watermarks_finds_the_60_tib_a_64_tib_zone_had_within_20_percent(void **state)
{
	const unsigned long big[NZ] = { 3840, 772918, 1ul << 34, 0, 0 };
	unsigned long then[NZ];
	struct wm_zone_wm w[NZ];
	struct vm v, t;
	int i;

	if (sizeof(long) < 8)
		skip();
	memcpy(then, big, sizeof(then));
	then[2] -= 1ul << 30;
	vm_init(&t, "6.18.44", then);
	assert_int_equal(wm_setup_wmarks(&t.p, &t.m, &t.s, w, NULL), WM_OK);
	vm_init(&v, "6.18.44", big);
	v.z[2].present = big[2];
	for (i = 0; i < NZ; i++) {
		const unsigned long x[4] = { w[i].min, w[i].low, w[i].high, w[i].promo };

		print_wm(&v.pr[i], x, true);
	}
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, STALE, 16384, v.out), 0);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, 100, 0, v.out), 0);
	assert_int_equal(wm_stale_watermarks(&v.p, &v.m, &v.s, v.pr, 200, 0, v.out), 1);
	assert_counts_reproduce(&v, v.out);
	/* the nearest total that fits: Normal at the top of its interval */
	assert_int_equal(v.out[2], 16106127999ul);
	assert_int_equal(v.out[1], big[1]);
}

/* ---- wm_stale_protection ---------------------------------------------- */

static void test_stale_protection_returns_todays_counts_when_they_fit(void **state)
{
	struct vm v;

	vm_init(&v, "6.18.44", snap_a);
	print_prot_a(&v);
	assert_int_equal(wm_stale_protection(&v.p, &v.m, &v.s, v.pr, STALE, 0, v.out), 1);
	assert_memory_equal(v.out, snap_a, sizeof(snap_a));
}

static void test_stale_protection_pulls_dma32_back_to_3020_times_256_less_1(void **state)
{
	const unsigned long today[NZ] = { 3840, 772918 + 400, 163840 - 30, 0, 0 };
	/*
	 * DMA32 goes to the largest count printing 3019, 3020 * 256 - 1; DMA's
	 * 3659 then allows Normal up to 3660 * 256 - 1 - 773119 = 163840, and
	 * DMA32's 640 needs 640 * 256 = 163840 at least.
	 */
	const unsigned long want[NZ] = { 3840, 3020 * 256 - 1, 640 * 256, 0, 0 };
	struct vm v;

	vm_init(&v, "6.18.44", today);
	print_prot_a(&v);
	assert_int_equal(wm_stale_protection(&v.p, &v.m, &v.s, v.pr, STALE, 0, v.out), 1);
	assert_memory_equal(v.out, want, sizeof(want));
	assert_counts_reproduce(&v, v.out);
}

static void test_stale_protection_explains_one_page_less_but_not_one_more(void **state)
{
	const unsigned long want[NZ] = {
		3840,
		3019 * 256 - 1,			/* DMA's 3018: DMA32 <= 772863 */
		3659 * 256 - (3019 * 256 - 1),	/* DMA's 3659: sum >= 936704 */
		0, 0,
	};
	struct vm v;

	vm_init(&v, "6.18.44", snap_a);
	print_prot_a(&v);
	v.pr[0].protection[1] = 3018;
	assert_int_equal(wm_stale_protection(&v.p, &v.m, &v.s, v.pr, STALE, 0, v.out), 1);
	assert_memory_equal(v.out, want, sizeof(want));

	/*
	 * 3020 needs DMA32 >= 773120, DMA32's 640 needs Normal >= 163840, and
	 * DMA's 3659 allows a sum of 936959 at most: 773120 + 163840 is 936960.
	 */
	v.pr[0].protection[1] = 3020;
	assert_int_equal(wm_stale_protection(&v.p, &v.m, &v.s, v.pr, STALE, 0, v.out), 0);
}

/* ---- wm_infer_sysctls ------------------------------------------------- */

static void infer(struct vm *v, struct wm_inferred *inf)
{
	assert_int_equal(wm_infer_sysctls(&v->p, &v->m, v->pr, inf), WM_OK);
}

static void test_infer_pins_snapshot_a_to_pages_min_16896(void **state)
{
	struct wm_inferred inf;
	struct vm v;

	vm_init(&v, "6.18.44", snap_a);
	print_all_wm(&v, wm_a);
	infer(&v, &inf);
	/*
	 * min = floor(P * m / 940598): DMA32's 13883 needs P in
	 * [ceil(13883 * 940598 / 772918), ceil(13884 * 940598 / 772918) - 1] =
	 * [16895, 16896], Normal's 2943 needs [16896, 16901]: P = 16896 pages,
	 * 67584..67587 KiB.
	 */
	assert_int_equal(inf.mfk_lo, 67584);
	assert_int_equal(inf.mfk_hi, 67587);
	/*
	 * Every gap is min/4, so wsf only has an upper bound: the largest w
	 * with floor(m * w / 10000) <= gap, floor(34709999 / 772918) = 44 for
	 * DMA32 and floor(7359999 / 163840) = 44 for Normal.
	 */
	assert_true(inf.wsf_hidden);
	assert_int_equal(inf.wsf_lo, 1);
	assert_int_equal(inf.wsf_hi, 44);
	assert_true(inf.equal_gaps);
	assert_false(inf.pre_4_6);
	assert_false(inf.from_sum);
}

static void test_infer_brackets_snapshot_b(void **state)
{
	struct wm_inferred inf;
	struct vm v;

	vm_init(&v, "6.18.44", snap_b);
	print_all_wm(&v, wm_b);
	infer(&v, &inf);
	/* DMA32 6065 of 2153014: [16895, 16897]; Normal 10800: [16896, 16897] */
	assert_int_equal(inf.mfk_lo, 16896 * 4);
	assert_int_equal(inf.mfk_hi, 16898 * 4 - 1);
	/* floor(15169999 / 772918) = 19, floor(27009999 / 1376256) = 19 */
	assert_true(inf.wsf_hidden);
	assert_int_equal(inf.wsf_lo, 1);
	assert_int_equal(inf.wsf_hi, 19);
	assert_false(inf.from_sum);
}

static void test_infer_finds_wsf_120_on_ppc64le_64k(void **state)
{
	struct wm_inferred inf;
	struct vm v;

	ppc64le(&v, 64494);
	infer(&v, &inf);
	/* [ceil(7730000 / 64494), floor(7739999 / 64494)] = [120, 120] */
	assert_false(inf.wsf_hidden);
	assert_int_equal(inf.wsf_lo, 120);
	assert_int_equal(inf.wsf_hi, 120);
	/* one zone: pages_min = min = 352, 64 KiB each */
	assert_int_equal(inf.mfk_lo, 352 * 64);
	assert_int_equal(inf.mfk_hi, 353 * 64 - 1);
}

static void test_infer_sees_only_a_bound_on_arm64_16k_at_wsf_120(void **state)
{
	const unsigned long w[2][4] = { { 9413, 11766, 14119, 16472 },
					{ 3228, 4035, 4842, 5649 } };
	struct wm_inferred inf;
	struct vm v;

	/* section 11.1: DMA 189223, Normal 64905; mfk 202272 is 12642 pages */
	memset(&v, 0, sizeof(v));
	profile("6.12.117", &v.p);
	v.z[0] = (struct wm_zone){ .idx = 0, .type = WM_ZONE_DMA, .managed = 189223 };
	v.z[1] = (struct wm_zone){ .idx = 1, .type = WM_ZONE_NORMAL, .managed = 64905 };
	v.m = (struct wm_machine){ .zones = v.z, .nzones = 2, .page_size = 16384,
				   .pageblock_pages = 2048 };
	print_wm(&v.pr[0], w[0], true);
	print_wm(&v.pr[1], w[1], true);
	infer(&v, &inf);
	/* DMA: [12642, 12643], Normal: [12639, 12642]; 16 KiB pages */
	assert_int_equal(inf.mfk_lo, 202272);
	assert_int_equal(inf.mfk_hi, 12643 * 16 - 1);
	/* "wsf 120 changes nothing here": floor(23539999 / 189223) = 124 */
	assert_true(inf.wsf_hidden);
	assert_int_equal(inf.wsf_lo, 1);
	assert_int_equal(inf.wsf_hi, 124);
}

static void test_infer_widens_to_the_sum_of_minima_when_counts_moved(void **state)
{
	const unsigned long today[NZ] = { 3840, 772918, 163840 + 300, 0, 0 };
	struct wm_inferred inf;
	struct vm v;

	vm_init(&v, "6.18.44", today);
	print_all_wm(&v, wm_a);
	infer(&v, &inf);
	/*
	 * With Normal 300 pages larger no P fits every zone (DMA32 needs
	 * P = 16901, Normal P <= 16875); the floored shares add up to
	 * pages_min less at most one page per zone: 68 + 13883 + 2943 = 16894
	 * to 16896.
	 */
	assert_true(inf.from_sum);
	assert_int_equal(inf.mfk_lo, 16894 * 4);
	assert_int_equal(inf.mfk_hi, 16897 * 4 - 1);
	assert_in_range(67584, inf.mfk_lo, inf.mfk_hi);
}

static void test_infer_ranges_contain_the_sysctls_that_made_the_watermarks(void **state)
{
	static const long mfk[] = { 1024, 7758, 11738, 67584, 262144, 1048575 };
	static const long wsf[] = { 1, 10, 44, 45, 120, 1000, 3000 };
	size_t i, j;

	for (i = 0; i < sizeof(mfk) / sizeof(mfk[0]); i++) {
		for (j = 0; j < sizeof(wsf) / sizeof(wsf[0]); j++) {
			struct wm_zone_wm w[NZ];
			struct wm_inferred inf;
			struct vm v;
			int z;

			vm_init(&v, "6.18.44", snap_a);
			v.s.min_free_kbytes = mfk[i];
			v.s.wsf = wsf[j];
			assert_int_equal(wm_setup_wmarks(&v.p, &v.m, &v.s, w, NULL), WM_OK);
			for (z = 0; z < NZ; z++) {
				const unsigned long p[4] = { w[z].min, w[z].low, w[z].high,
							     w[z].promo };

				print_wm(&v.pr[z], p, true);
			}
			infer(&v, &inf);
			assert_false(inf.from_sum);
			assert_in_range(mfk[i], inf.mfk_lo, inf.mfk_hi);
			assert_in_range(wsf[j], inf.wsf_lo, inf.wsf_hi);
		}
	}
}

static void test_infer_finds_no_wsf_for_a_gap_below_a_quarter_of_min(void **state)
{
	const unsigned long w[4] = { 2943, 2943 + 700, 2943 + 1400, 0 };
	struct wm_inferred inf;
	struct vm v;

	/* section 3: gap >= prop/4 = 735 on every kernel since 4.6 */
	vm_init(&v, "6.18.44", snap_a);
	print_all_wm(&v, wm_a);
	print_wm(&v.pr[2], w, false);
	infer(&v, &inf);
	assert_int_equal(inf.wsf_lo, -1);
	assert_int_equal(inf.wsf_hi, -1);
}

static void test_infer_recognises_the_pre_4_6_low_and_high(void **state)
{
	/* before 4.6: low = min + min/4, high = min + min/2 (2943: 735, 1471) */
	const unsigned long w[4] = { 2943, 2943 + 735, 2943 + 1471, 0 };
	struct wm_inferred inf;
	struct vm v;

	vm_init(&v, "4.4.0", snap_a);
	print_wm(&v.pr[2], w, false);
	infer(&v, &inf);
	assert_true(inf.pre_4_6);
	assert_false(inf.equal_gaps);
}

static void test_infer_reports_nothing_without_printed_watermarks(void **state)
{
	struct wm_inferred inf;
	struct vm v;

	vm_init(&v, "6.18.44", snap_a);
	infer(&v, &inf);
	assert_int_equal(inf.mfk_lo, -1);
	assert_int_equal(inf.mfk_hi, -1);
	assert_int_equal(inf.wsf_lo, -1);
	assert_int_equal(inf.wsf_hi, -1);
}

/* ---- wm_unboost ------------------------------------------------------- */

/* Snapshot A's min/low/high with `boost` pages added to each (5.0-5.15). */
static void boosted(struct vm *v, const char *release, const unsigned long boost[NZ])
{
	int i;

	vm_init(v, release, snap_a);
	for (i = 0; i < 3; i++) {	/* DMA, DMA32, Normal */
		unsigned long w[4] = { wm_a[i][0] + boost[i], wm_a[i][1] + boost[i],
				       wm_a[i][2] + boost[i], 0 };

		print_wm(&v->pr[i], w, false);
	}
}

static void test_unboost_takes_whole_pageblocks_off_on_5_10(void **state)
{
	const unsigned long boost[NZ] = { 512, 3 * 512, 2 * 512, 0, 0 };
	const long want[NZ] = { 512, 3 * 512, 2 * 512, 0, 0 };
	long out[NZ];
	struct vm v;
	int i;

	boosted(&v, "5.10.218", boost);
	wm_unboost(&v.p, &v.m, v.pr, out);
	assert_memory_equal(out, want, sizeof(want));
	for (i = 0; i < 3; i++) {
		assert_int_equal(v.pr[i].min, wm_a[i][0]);
		assert_int_equal(v.pr[i].low, wm_a[i][1]);
		assert_int_equal(v.pr[i].high, wm_a[i][2]);
		assert_int_equal(v.z[i].boost_at_setup, 0);
	}
}

static void test_unboost_takes_a_whole_pageblock_where_less_would_fit(void **state)
{
	/*
	 * wsf 46: DMA32's gap is floor(772918 * 46 / 10000) = 3555, 85 pages
	 * over min/4 = 3470.  A boost of 512 lifts min/4 by 128, past the gap;
	 * 256 pages would be enough to undo that, but a boost grows by whole
	 * pageblocks (section 3.1).
	 */
	const unsigned long w[4] = { 13883 + 512, 13883 + 3555 + 512,
				     13883 + 2 * 3555 + 512, 0 };
	long out[NZ];
	struct vm v;

	vm_init(&v, "5.10.218", snap_a);
	print_wm(&v.pr[1], w, false);
	wm_unboost(&v.p, &v.m, v.pr, out);
	assert_int_equal(out[1], 512);
	assert_int_equal(v.pr[1].min, 13883);
	assert_int_equal(v.pr[1].low, 13883 + 3555);
	assert_int_equal(v.pr[1].high, 13883 + 2 * 3555);
}

static void test_unboost_leaves_a_boost_that_a_wide_gap_hides(void **state)
{
	const unsigned long w[4] = { 13883 + 512, 13883 + 77291 + 512,
				     13883 + 2 * 77291 + 512, 0 };
	long out[NZ];
	struct vm v;

	/* wsf 1000: DMA32's gap is floor(772918 * 1000 / 10000) = 77291 */
	vm_init(&v, "5.10.218", snap_a);
	print_wm(&v.pr[1], w, false);
	wm_unboost(&v.p, &v.m, v.pr, out);
	assert_int_equal(out[1], 0);
	assert_int_equal(v.pr[1].min, 13883 + 512);
	assert_int_equal(v.pr[1].low, 13883 + 77291 + 512);
}

static void test_unboost_does_nothing_where_zoneinfo_prints_the_boost(void **state)
{
	const unsigned long boost[NZ] = { 512, 512, 512, 0, 0 };
	long out[NZ];
	struct vm v;

	boosted(&v, "5.16.0", boost);
	wm_unboost(&v.p, &v.m, v.pr, out);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 0);
	assert_int_equal(v.pr[1].min, 13883 + 512);

	boosted(&v, "4.19.0", boost);	/* no boost before 5.0 */
	wm_unboost(&v.p, &v.m, v.pr, out);
	assert_int_equal(out[1], 0);
}

/* One zone's boost as whole pageblocks found by walking them: the rule itself. */
static unsigned long unboost_by_walking(unsigned long min, unsigned long gap, unsigned long pb)
{
	unsigned long b;

	for (b = pb; b <= min; b += pb)
		if (((min - b) >> 2) <= gap)
			return b;
	return 0;
}

static void test_unboost_takes_what_walking_the_pageblocks_takes(void **state)
{
	static const unsigned long pbs[] = { 1, 3, 32, 512, 2048 };
	unsigned long min, gap;
	size_t k;

	for (k = 0; k < sizeof(pbs) / sizeof(pbs[0]); k++) {
		for (min = 0; min < 3000; min += 7) {
			for (gap = 0; gap < min / 4 && gap < 800; gap += 13) {
				const unsigned long w[4] = { min, min + gap, min + 2 * gap, 0 };
				long out[NZ];
				struct vm v;

				vm_init(&v, "5.10.218", snap_a);
				v.m.pageblock_pages = pbs[k];
				print_wm(&v.pr[1], w, false);
				wm_unboost(&v.p, &v.m, v.pr, out);
				assert_int_equal(out[1], unboost_by_walking(min, gap, pbs[k]));
			}
		}
	}
}

static void test_unboost_of_a_2_to_52_page_min_takes_no_walk(void **state)
{
	/*
	 * min 2^52 with a gap of 1000: (2^52 - b) / 4 <= 1000 needs b >=
	 * 2^52 - 4003, i.e. 2^43 - 7 pageblocks of 512; walking them one
	 * by one took hours.
	 */
	const unsigned long min = 1ul << 52;
	const unsigned long w[4] = { min, min + 1000, min + 2000, 0 };
	long out[NZ];
	struct vm v;

	vm_init(&v, "5.10.218", snap_a);
	print_wm(&v.pr[1], w, false);
	wm_unboost(&v.p, &v.m, v.pr, out);
	assert_int_equal(out[1], min - 7 * 512);
	assert_int_equal(v.pr[1].min, 7 * 512);
	assert_int_equal(v.pr[1].low, 7 * 512 + 1000);
}

static void test_unboost_finds_a_boost_frozen_into_low_and_high_on_5_4(void **state)
{
	/* 5.0-5.7: low = min + boost + gap, high = min + boost + 2 * gap */
	const unsigned long w[4] = { 13883, 17353 + 512, 20823 + 512, 0 };
	struct wm_zone_wm out[NZ];
	long ub[NZ];
	struct vm v;

	vm_init(&v, "5.4.286", snap_a);
	print_wm(&v.pr[0], wm_a[0], false);
	print_wm(&v.pr[1], w, false);
	print_wm(&v.pr[2], wm_a[2], false);
	wm_unboost(&v.p, &v.m, v.pr, ub);
	assert_int_equal(v.z[1].boost_at_setup, 512);
	assert_int_equal(ub[1], 0);
	assert_int_equal(v.pr[1].low, 17353 + 512);	/* printed values kept */
	assert_int_equal(wm_setup_wmarks(&v.p, &v.m, &v.s, out, NULL), WM_OK);
	assert_int_equal(out[1].low, 17353 + 512);
	assert_int_equal(out[1].high, 20823 + 512);
	assert_int_equal(v.z[0].boost_at_setup, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mul_div_squares_2_to_64_minus_1_exactly),
		cmocka_unit_test(test_mul_div_keeps_the_low_64_bits_of_a_quotient_of_2_to_64),
		cmocka_unit_test(test_mul_div_is_exact_where_the_product_crosses_2_to_64),
		cmocka_unit_test(test_mul_div_gives_snapshot_a_proportional_shares),
		cmocka_unit_test(test_stale_watermarks_returns_todays_counts_when_they_fit),
		cmocka_unit_test(test_stale_watermarks_explains_a_normal_zone_grown_by_300_pages),
		cmocka_unit_test(test_stale_watermarks_refuses_a_normal_zone_grown_eightfold),
		cmocka_unit_test(test_a_single_watermark_one_page_off_is_never_stale),
		cmocka_unit_test(test_stale_watermarks_moves_a_lone_zone_to_its_wsf_step_edge),
		cmocka_unit_test(test_stale_watermarks_finds_what_walking_every_total_finds),
		cmocka_unit_test(test_stale_watermarks_gives_up_on_64_tib_without_walking),
		cmocka_unit_test(test_stale_watermarks_finds_the_60_tib_a_64_tib_zone_had_within_20_percent),
		cmocka_unit_test(test_stale_protection_returns_todays_counts_when_they_fit),
		cmocka_unit_test(test_stale_protection_pulls_dma32_back_to_3020_times_256_less_1),
		cmocka_unit_test(test_stale_protection_explains_one_page_less_but_not_one_more),
		cmocka_unit_test(test_infer_pins_snapshot_a_to_pages_min_16896),
		cmocka_unit_test(test_infer_brackets_snapshot_b),
		cmocka_unit_test(test_infer_finds_wsf_120_on_ppc64le_64k),
		cmocka_unit_test(test_infer_sees_only_a_bound_on_arm64_16k_at_wsf_120),
		cmocka_unit_test(test_infer_widens_to_the_sum_of_minima_when_counts_moved),
		cmocka_unit_test(test_infer_ranges_contain_the_sysctls_that_made_the_watermarks),
		cmocka_unit_test(test_infer_finds_no_wsf_for_a_gap_below_a_quarter_of_min),
		cmocka_unit_test(test_infer_recognises_the_pre_4_6_low_and_high),
		cmocka_unit_test(test_infer_reports_nothing_without_printed_watermarks),
		cmocka_unit_test(test_unboost_takes_whole_pageblocks_off_on_5_10),
		cmocka_unit_test(test_unboost_takes_a_whole_pageblock_where_less_would_fit),
		cmocka_unit_test(test_unboost_leaves_a_boost_that_a_wide_gap_hides),
		cmocka_unit_test(test_unboost_does_nothing_where_zoneinfo_prints_the_boost),
		cmocka_unit_test(test_unboost_finds_a_boost_frozen_into_low_and_high_on_5_4),
		cmocka_unit_test(test_unboost_takes_what_walking_the_pageblocks_takes),
		cmocka_unit_test(test_unboost_of_a_2_to_52_page_min_takes_no_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
