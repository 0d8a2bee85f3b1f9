// SPDX-License-Identifier: MIT
/*
 * test_change.c - what a sysctl write is allowed, recomputes and leaves
 * behind (calc/change.c), against docs/model.md §5 and the
 * Debian 6.1 qemu guest's zoneinfo after its writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/change.h"
#include "k61_after.h"

static struct wm_profile prof(const char *release)
{
	struct wm_profile p;
	struct wm_kver k;

	assert_int_equal(wm_kver_parse(release, &k, NULL), WM_OK);
	wm_profile_for(&k, &p);
	return p;
}

/* The k61 guest after its writes, as the model reads it. */
struct k61 {
	struct zi_info zi;
	struct wm_layout l;
	struct wm_machine m;
	struct wm_sysctl sc;
	struct wm_profile p;
};

/* k's parts as the machine value the model takes (nothing copied is freed through it) */
#define STATE(k) (&(struct wm_state){ .kernel.prof = (k).p, .kernel.known = true, \
				      .zi = (k).zi, .layout = (k).l, .m = (k).m, .sysctl = (k).sc })

static void k61_load(struct k61 *k, const char *text)
{
	static const long lrr[] = { 64, 64, 16, 0, 0 };

	assert_int_equal(zi_parse(text, strlen(text), &k->zi, NULL), WM_OK);
	assert_int_equal(wm_layout_from_zoneinfo(&k->zi, &k->l, NULL), WM_OK);
	k->m = (struct wm_machine){ .zones = k->l.zones, .nzones = k->l.nzones,
				    .page_size = 4096, .pageblock_pages = 512 };
	k->p = prof("6.1.192");
	wm_sysctl_defaults(&k->p, 5, (enum wm_zone_type[]){ WM_ZONE_DMA, WM_ZONE_DMA32,
			   WM_ZONE_NORMAL, WM_ZONE_MOVABLE, WM_ZONE_DEVICE }, &k->sc);
	k->sc.min_free_kbytes = K61_MFK;
	k->sc.wsf = K61_WSF;
	k->sc.have |= WM_HAVE_MFK;
	memcpy(k->sc.lrr, lrr, sizeof(lrr));
}

static void k61_free(struct k61 *k)
{
	wm_layout_free(&k->l);
	zi_free(&k->zi);
}

static void test_wsf_2000_is_refused_on_4_9_and_taken_on_5_10_186(void **state)
{
	struct wm_profile p49 = prof("4.9.337"), p510 = prof("5.10.186"), p5100 = prof("5.10.0");
	struct wm_diag d = { 0 };

	assert_int_equal(wm_knob_check(&p49, WM_KNOB_WSF, 2000, &d), WM_EINVAL);
	assert_string_equal(d.key, "watermark_scale_factor");
	assert_string_equal(d.msg, "watermark_scale_factor 2000 is out of range: kernel 4.9 accepts 1..1000");
	assert_int_equal(wm_knob_check(&p510, WM_KNOB_WSF, 3000, NULL), WM_OK);
	assert_int_equal(wm_knob_check(&p510, WM_KNOB_WSF, 3001, NULL), WM_EINVAL);
	assert_int_equal(wm_knob_check(&p5100, WM_KNOB_WSF, 2000, NULL), WM_EINVAL);
	assert_int_equal(wm_knob_check(&p510, WM_KNOB_WSF, 0, NULL), WM_EINVAL);
}

static void test_a_knob_the_kernel_lacks_is_refused_with_the_version_that_brought_it(void **state)
{
	struct wm_profile p45 = prof("4.5"), p419 = prof("4.19.100");
	struct wm_diag d = { 0 };

	assert_int_equal(wm_knob_check(&p45, WM_KNOB_WSF, 10, &d), WM_EINVAL);
	assert_non_null(strstr(d.msg, "(4.6+)"));
	assert_int_equal(wm_knob_check(&p419, WM_KNOB_BOOST, 0, &d), WM_EINVAL);
	assert_non_null(strstr(d.msg, "(5.0+)"));
	/* but a range check alone does not ask: a root with the file has it */
	assert_int_equal(wm_knob_check_range(&p419, WM_KNOB_BOOST, 0, NULL), WM_OK);
}

static void test_a_wsf_change_before_4_6_is_refused_even_where_the_file_is(void **state)
{
	struct wm_profile p24 = prof("2.4.37");
	struct wm_sysctl now, after;
	struct wm_change ch = { 0 };
	struct wm_diag d = { 0 };
	unsigned rec;

	wm_sysctl_none(&now);
	now.min_free_kbytes = 1024;
	now.wsf = 10;
	now.extra_free_kbytes = 0;
	now.have = WM_HAVE_MFK | WM_HAVE_WSF | WM_HAVE_EXTRA;
	ch.set = WM_HAVE_WSF;
	ch.to.wsf = 200;
	assert_int_equal(wm_change_apply(&p24, &now, &ch, &after, &rec, &d), WM_EINVAL);
	assert_string_equal(d.msg, "kernel 2.4 has no watermark_scale_factor (4.6+)");
	/* a file the root has still stands for a knob the model uses anyway */
	ch.set = WM_HAVE_EXTRA;
	ch.to.extra_free_kbytes = 4096;
	assert_int_equal(wm_change_apply(&p24, &now, &ch, &after, &rec, NULL), WM_OK);
	assert_int_equal(after.extra_free_kbytes, 4096);
}

static void test_negative_values_are_refused_but_a_ratio_takes_any_int(void **state)
{
	struct wm_profile p = prof("6.12.117"), p414 = prof("4.14.180");

	assert_int_equal(wm_knob_check(&p, WM_KNOB_MFK, -1, NULL), WM_EINVAL);
	assert_int_equal(wm_knob_check(&p, WM_KNOB_MFK, 0, NULL), WM_OK);
	assert_int_equal(wm_knob_check(&p, WM_KNOB_BOOST, -1, NULL), WM_EINVAL);
	assert_int_equal(wm_knob_check(&p, WM_KNOB_EXTRA, -5, NULL), WM_EINVAL);
	/* the 6.12 guest took lowmem_reserve_ratio -5 (and printed 0) */
	assert_int_equal(wm_knob_check(&p, WM_KNOB_LRR, -5, NULL), WM_OK);
	/* what apply writes must read back: 0.. from 4.17, 1.. before */
	assert_int_equal(wm_knob_check_clean(&p, WM_KNOB_LRR, -5, NULL), WM_EINVAL);
	assert_int_equal(wm_knob_check_clean(&p, WM_KNOB_LRR, 0, NULL), WM_OK);
	assert_int_equal(wm_knob_check_clean(&p414, WM_KNOB_LRR, 0, NULL), WM_EINVAL);
	assert_int_equal(wm_knob_check_clean(&p414, WM_KNOB_LRR, 1, NULL), WM_OK);
}

static void test_only_mfk_wsf_and_extra_recompute_the_watermarks(void **state)
{
	assert_int_equal(wm_change_recomputes(WM_HAVE_MFK), WM_RECOMPUTE_WMARKS);
	assert_int_equal(wm_change_recomputes(WM_HAVE_WSF), WM_RECOMPUTE_WMARKS);
	assert_int_equal(wm_change_recomputes(WM_HAVE_EXTRA), WM_RECOMPUTE_WMARKS);
	assert_int_equal(wm_change_recomputes(WM_HAVE_BOOST), 0);
	assert_int_equal(wm_change_recomputes(WM_HAVE_LRR), WM_RECOMPUTE_PROT);
	assert_int_equal(wm_change_recomputes(WM_HAVE_BOOST | WM_HAVE_LRR), WM_RECOMPUTE_PROT);
}

static void test_a_change_sets_its_values_and_says_what_recomputes(void **state)
{
	struct wm_profile p = prof("6.1.192");
	struct wm_sysctl now, after;
	struct wm_change ch = { .set = WM_HAVE_BOOST };
	unsigned rec = 99;

	wm_sysctl_defaults(&p, 5, (enum wm_zone_type[]){ WM_ZONE_DMA, WM_ZONE_DMA32,
			   WM_ZONE_NORMAL, WM_ZONE_MOVABLE, WM_ZONE_DEVICE }, &now);
	ch.to.boost_factor = 0;
	assert_int_equal(wm_change_apply(&p, &now, &ch, &after, &rec, NULL), WM_OK);
	assert_int_equal(after.boost_factor, 0);
	assert_int_equal(after.wsf, 10);
	assert_int_equal(rec, 0);
	ch = (struct wm_change){ .set = WM_HAVE_LRR };
	ch.to.nlrr = 3;
	assert_int_equal(wm_change_apply(&p, &now, &ch, &after, &rec, NULL), WM_EINVAL);
	ch.to.nlrr = 5;
	ch.to.lrr[0] = 64;
	assert_int_equal(wm_change_apply(&p, &now, &ch, &after, &rec, NULL), WM_OK);
	assert_int_equal(after.lrr[0], 64);
	assert_int_equal(rec, WM_RECOMPUTE_PROT);
}

static void test_the_prediction_from_its_own_sysctls_is_what_the_kernel_printed(void **state)
{
	struct k61 k;
	struct wm_predicted pr[5];

	k61_load(&k, K61_AFTER);
	assert_int_equal(wm_predict(STATE(k), &k.sc, WM_RECOMPUTE_WMARKS, pr, NULL),
			 WM_OK);
	assert_int_equal(pr[0].wm.min, 31);
	assert_int_equal(pr[0].wm.low, 415);
	assert_int_equal(pr[0].wm.high, 799);
	assert_int_equal(pr[0].wm.protection[1], 11967);
	assert_int_equal(pr[0].wm.protection[2], 15592);
	assert_int_equal(pr[1].wm.min, 6263);
	assert_int_equal(pr[1].wm.low, 82855);
	assert_int_equal(pr[1].wm.high, 159447);
	assert_int_equal(pr[1].wm.protection[2], 3625);
	assert_int_equal(pr[2].wm.high, 48301);
	assert_true(pr[0].shown);
	assert_false(pr[0].promo_printed);
	assert_int_equal(wm_compare(STATE(k), pr, 5, true, NULL, 0), 0);
	k61_free(&k);
}

static void test_a_boost_factor_write_leaves_the_printed_watermarks_and_boost(void **state)
{
	static const char boosted[] =
		K61_ZONE("     DMA", 3712, 0, 31, 415, 799, 3840, "(0, 11967, 15592, 15592, 15592)")
		K61_ZONE("   DMA32", 700000, 1024, 7287, 83879, 160471, 765920, "(0, 0, 3625, 3625, 3625)")
		K61_ZONE("  Normal", 200000, 0, 1897, 25099, 48301, 232025, "(0, 0, 0, 0, 0)")
		K61_ZONE(" Movable", 0, 0, 0, 0, 0, 0, "(0, 0, 0, 0, 0)")
		K61_ZONE("  Device", 0, 0, 0, 0, 0, 0, "(0, 0, 0, 0, 0)");
	struct k61 k;
	struct wm_predicted pr[5];

	k61_load(&k, boosted);
	/* nothing recomputes: printed minus boost, the boost kept */
	assert_int_equal(wm_predict(STATE(k), &k.sc, 0, pr, NULL), WM_OK);
	assert_int_equal(pr[1].boost, 1024);
	assert_int_equal(pr[1].wm.min + pr[1].boost, 7287);
	assert_int_equal(pr[1].wm.high + pr[1].boost, 160471);
	/* a recompute resets it: the model's numbers, no boost */
	assert_int_equal(wm_predict(STATE(k), &k.sc, WM_RECOMPUTE_WMARKS, pr, NULL),
			 WM_OK);
	assert_int_equal(pr[1].boost, 0);
	assert_int_equal(pr[1].wm.min, 6263);
	/* and kswapd boosting again after the write is not a difference */
	assert_int_equal(wm_compare(STATE(k), pr, 5, true, NULL, 0), 0);
	k61_free(&k);
}

static void test_a_watermark_one_page_off_is_one_named_difference(void **state)
{
	static const char off[] =
		K61_ZONE("     DMA", 3712, 0, 31, 415, 799, 3840, "(0, 11967, 15592, 15592, 15592)")
		K61_ZONE("   DMA32", 700000, 0, 6263, 82856, 159447, 765920, "(0, 0, 3625, 3625, 3625)")
		K61_ZONE("  Normal", 200000, 0, 1897, 25099, 48301, 232025, "(0, 0, 0, 0, 1)")
		K61_ZONE(" Movable", 0, 0, 0, 0, 0, 0, "(0, 0, 0, 0, 0)")
		K61_ZONE("  Device", 0, 0, 0, 0, 0, 0, "(0, 0, 0, 0, 0)");
	struct k61 k, k2;
	struct wm_predicted pr[5];
	struct wm_diff d[4];

	k61_load(&k, K61_AFTER);
	k61_load(&k2, off);
	assert_int_equal(wm_predict(STATE(k), &k.sc, WM_RECOMPUTE_WMARKS, pr, NULL),
			 WM_OK);
	assert_int_equal(wm_compare(STATE(k2), pr, 5, true, d, 4), 2);
	assert_int_equal(d[0].zone, 1);
	assert_string_equal(d[0].field, "low");
	assert_int_equal(d[0].predicted, 82855);
	assert_int_equal(d[0].kernel, 82856);
	assert_string_equal(d[1].field, "protection[4]");
	/* without the watermarks compared, only protection */
	assert_int_equal(wm_compare(STATE(k2), pr, 5, false, d, 4), 1);
	k61_free(&k);
	k61_free(&k2);
}

static void test_predicting_without_min_free_kbytes_is_refused(void **state)
{
	struct k61 k;
	struct wm_predicted pr[5];
	struct wm_diag d = { 0 };

	k61_load(&k, K61_AFTER);
	k.sc.have &= ~(unsigned)WM_HAVE_MFK;
	assert_int_equal(wm_predict(STATE(k), &k.sc, 0, pr, &d), WM_EINVAL);
	assert_string_equal(d.key, "min_free_kbytes");
	k61_free(&k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wsf_2000_is_refused_on_4_9_and_taken_on_5_10_186),
		cmocka_unit_test(test_a_knob_the_kernel_lacks_is_refused_with_the_version_that_brought_it),
		cmocka_unit_test(test_a_wsf_change_before_4_6_is_refused_even_where_the_file_is),
		cmocka_unit_test(test_negative_values_are_refused_but_a_ratio_takes_any_int),
		cmocka_unit_test(test_only_mfk_wsf_and_extra_recompute_the_watermarks),
		cmocka_unit_test(test_a_change_sets_its_values_and_says_what_recomputes),
		cmocka_unit_test(test_the_prediction_from_its_own_sysctls_is_what_the_kernel_printed),
		cmocka_unit_test(test_a_boost_factor_write_leaves_the_printed_watermarks_and_boost),
		cmocka_unit_test(test_a_watermark_one_page_off_is_one_named_difference),
		cmocka_unit_test(test_predicting_without_min_free_kbytes_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
