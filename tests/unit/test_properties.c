// SPDX-License-Identifier: MIT
/*
 * test_properties.c - invariants of the model over many random machines
 * and every modelled kernel era: min <= low <= high <= promo, monotone in
 * min_free_kbytes and in watermark_scale_factor, the lowmem minima never
 * exceed pages_min, and the RFC high never exceeds the default high.
 * The generator is a fixed-seed xorshift, so a failure reproduces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/wmark.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const char *const releases[] = {
	"3.10.0", "4.5.0", "4.9.337", "4.19.0", "5.4.286", "5.10.186",
	"5.15.100", "5.18.12", "6.1.0", "6.6.9", "6.12.117", "6.18.44",
};

struct world {
	struct wm_profile p;
	struct wm_zone z[2 * WM_MAX_ZONES];
	struct wm_machine m;
	struct wm_sysctl s;
};

static void random_world(struct world *w)
{
	static const enum wm_zone_type x86[] = { WM_ZONE_DMA, WM_ZONE_DMA32,
		WM_ZONE_NORMAL, WM_ZONE_MOVABLE, WM_ZONE_DEVICE };
	static const enum wm_zone_type arm[] = { WM_ZONE_NORMAL,
		WM_ZONE_HIGHMEM, WM_ZONE_MOVABLE };
	struct wm_kver k;
	int nodes = 1 + (int)(next() % 2), per, n, i;
	const enum wm_zone_type *t;

	memset(w, 0, sizeof(*w));
	wm_kver_parse(releases[next() % (sizeof(releases) / sizeof(releases[0]))], &k, NULL);
	wm_profile_for(&k, &w->p);
	if (next() % 3) {
		t = x86;
		per = 5;
	} else {
		t = arm;
		per = 3;
	}
	for (n = 0, i = 0; n < nodes; n++) {
		int j;

		for (j = 0; j < per; j++, i++) {
			struct wm_zone *z = &w->z[i];
			uint64_t r = next();

			z->node = n;
			z->idx = j;
			z->type = t[j];
			if (t[j] == WM_ZONE_DEVICE || r % 4 == 0)
				z->managed = 0;
			else
				z->managed = (unsigned long)(next() % (1ull << (10 + r % 26)));
			z->present = z->managed;
		}
	}
	w->m = (struct wm_machine){ .zones = w->z, .nzones = (size_t)i,
				    .page_size = 4096, .pageblock_pages = 512 };
	wm_sysctl_defaults(&w->p, per, t, &w->s);
	w->s.min_free_kbytes = (long)(next() % 1000000);
	w->s.wsf = 1 + (long)(next() % (uint64_t)w->p.wsf_max);
}

static void test_watermarks_are_ordered_min_low_high_promo(void **state)
{
	int iter;

	for (iter = 0; iter < 20000; iter++) {
		struct world w;
		struct wm_zone_wm out[2 * WM_MAX_ZONES];
		size_t i;

		random_world(&w);
		assert_int_equal(wm_setup_wmarks(&w.p, &w.m, &w.s, out, NULL), WM_OK);
		for (i = 0; i < w.m.nzones; i++) {
			assert_true(out[i].min <= out[i].low);
			assert_true(out[i].low <= out[i].high);
			if (w.p.promo)
				assert_true(out[i].high <= out[i].promo);
			else
				assert_int_equal(out[i].promo, 0);
			assert_true(out[i].high_sqrt <= out[i].high);
			assert_true(out[i].high_sqrt >= out[i].low);
		}
	}
}

static void test_lowmem_minima_never_exceed_pages_min(void **state)
{
	int iter;

	for (iter = 0; iter < 20000; iter++) {
		struct world w;
		struct wm_zone_wm out[2 * WM_MAX_ZONES];
		unsigned long sum = 0;
		size_t i;

		bool hm_config = false, hm_pages = false, one_node = true;

		random_world(&w);
		assert_int_equal(wm_setup_wmarks(&w.p, &w.m, &w.s, out, NULL), WM_OK);
		for (i = 0; i < w.m.nzones; i++) {
			one_node &= w.z[i].node == 0;
			if (w.z[i].type == WM_ZONE_HIGHMEM) {
				hm_config = true;
				hm_pages |= w.z[i].present > 0;
			}
		}
		for (i = 0; i < w.m.nzones; i++) {
			enum wm_zone_type t = w.z[i].type;
			bool by_index = wm_kver_cmp(&w.p.kver, 5, 14, 0) < 0 && one_node;

			/* is_highmem(): Movable too where movable_zone is HighMem */
			if (t == WM_ZONE_HIGHMEM || t == WM_ZONE_DEVICE ||
			    (t == WM_ZONE_MOVABLE && (w.p.movable_capped ||
						      (by_index ? hm_config : hm_pages))))
				continue;
			sum += out[i].min;
		}
		assert_true(sum <= (unsigned long)w.s.min_free_kbytes / 4);
	}
}

static void test_watermarks_grow_with_min_free_kbytes_and_wsf(void **state)
{
	int iter;

	for (iter = 0; iter < 10000; iter++) {
		struct world w;
		struct wm_zone_wm a[2 * WM_MAX_ZONES], b[2 * WM_MAX_ZONES];
		struct wm_sysctl s2;
		size_t i;

		random_world(&w);
		s2 = w.s;
		s2.min_free_kbytes += 1 + (long)(next() % 100000);
		assert_int_equal(wm_setup_wmarks(&w.p, &w.m, &w.s, a, NULL), WM_OK);
		assert_int_equal(wm_setup_wmarks(&w.p, &w.m, &s2, b, NULL), WM_OK);
		for (i = 0; i < w.m.nzones; i++) {
			assert_true(a[i].min <= b[i].min);
			assert_true(a[i].low <= b[i].low);
			assert_true(a[i].high <= b[i].high);
			assert_true(a[i].promo <= b[i].promo);
		}
		s2 = w.s;
		if (s2.wsf < w.p.wsf_max)
			s2.wsf += 1 + (long)(next() % (uint64_t)(w.p.wsf_max - s2.wsf));
		assert_int_equal(wm_setup_wmarks(&w.p, &w.m, &s2, b, NULL), WM_OK);
		for (i = 0; i < w.m.nzones; i++) {
			assert_int_equal(a[i].min, b[i].min);
			assert_true(a[i].low <= b[i].low);
			assert_true(a[i].high <= b[i].high);
			assert_true(a[i].promo <= b[i].promo);
		}
	}
}

static void test_wsf_below_the_floor_changes_no_gap(void **state)
{
	int iter;

	for (iter = 0; iter < 5000; iter++) {
		struct world w;
		struct wm_zone_wm a[2 * WM_MAX_ZONES], b[2 * WM_MAX_ZONES];
		size_t i;

		random_world(&w);
		if (!w.p.wsf)
			continue;
		w.s.wsf = 1;
		assert_int_equal(wm_setup_wmarks(&w.p, &w.m, &w.s, a, NULL), WM_OK);
		for (i = 0; i < w.m.nzones; i++) {
			long f = a[i].wsf_floor;

			if (f < 2 || f > w.p.wsf_max)
				continue;
			w.s.wsf = f - 1;
			assert_int_equal(wm_setup_wmarks(&w.p, &w.m, &w.s, b, NULL), WM_OK);
			assert_int_equal(b[i].gap, a[i].gap);
			w.s.wsf = f;
			assert_int_equal(wm_setup_wmarks(&w.p, &w.m, &w.s, b, NULL), WM_OK);
			assert_true(b[i].gap > a[i].gap);
			w.s.wsf = 1;
		}
	}
}

static void test_boot_min_free_kbytes_is_one_of_its_candidates(void **state)
{
	int iter;

	for (iter = 0; iter < 5000; iter++) {
		struct world w;
		struct wm_mfk mfk;
		enum wm_thp thp = (enum wm_thp)(next() % 4);

		random_world(&w);
		assert_int_equal(wm_boot_min_free_kbytes(&w.p, &w.m, &w.s, thp, &mfk, NULL), WM_OK);
		assert_true(mfk.value >= 128 || mfk.rule == WM_MFK_THP);
		assert_true(mfk.sqrt_kb <= w.p.mfk_clamp_max);
		switch (mfk.rule) {
		case WM_MFK_SQRT: assert_int_equal(mfk.value, mfk.sqrt_kb); break;
		case WM_MFK_SQRT_RERUN: assert_int_equal(mfk.value, mfk.rerun_kb); break;
		case WM_MFK_THP: assert_true(mfk.value == mfk.thp_kb && mfk.thp_kb > mfk.sqrt_kb); break;
		default: fail();
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_watermarks_are_ordered_min_low_high_promo),
		cmocka_unit_test(test_lowmem_minima_never_exceed_pages_min),
		cmocka_unit_test(test_watermarks_grow_with_min_free_kbytes_and_wsf),
		cmocka_unit_test(test_wsf_below_the_floor_changes_no_gap),
		cmocka_unit_test(test_boot_min_free_kbytes_is_one_of_its_candidates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
