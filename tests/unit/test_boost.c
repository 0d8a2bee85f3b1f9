// SPDX-License-Identifier: MIT
/*
 * test_boost.c - boost_watermark()'s ceiling per kernel (6.12
 * mm/page_alloc.c; 5.7's small-zone rule; docs/model.md §3.1) and the
 * boost read from zoneinfo series: printed (5.16+) or recognised as a
 * uniform whole-pageblock rise of min, low and high (5.0-5.15).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/boost.h"

static struct wm_profile prof(const char *release)
{
	struct wm_profile p;
	struct wm_kver k;

	assert_int_equal(wm_kver_parse(release, &k, NULL), WM_OK);
	wm_profile_for(&k, &p);
	return p;
}

static void test_max_boost_is_high_times_factor_over_10000(void **state)
{
	struct wm_profile p = prof("6.12.117+deb13-amd64");

	(void)state;
	/* 12668 * 15000 / 10000 = 19002: 150% of high */
	assert_int_equal(wm_boost_max(&p, 193648, 12668, 15000, 512), 19002);
	/* quotient and remainder apart: 10001 * 3 / 10000 = 3, not 0 */
	assert_int_equal(wm_boost_max(&p, 1u << 20, 10001, 30000, 512), 30003);
	/* a factor that makes less than a pageblock still boosts one */
	assert_int_equal(wm_boost_max(&p, 193648, 12668, 100, 512), 512);
}

static void test_factor_zero_or_high_zero_never_boosts(void **state)
{
	struct wm_profile p = prof("6.12.117+deb13-amd64");

	(void)state;
	assert_int_equal(wm_boost_max(&p, 193648, 12668, 0, 512), 0);
	assert_int_equal(wm_boost_max(&p, 193648, 12668, -1, 512), 0);
	/* mult_frac gives 0: high not set up yet */
	assert_int_equal(wm_boost_max(&p, 193648, 0, 15000, 512), 0);
	assert_int_equal(wm_boost_max(&p, 193648, 1, 5000, 512), 0);
}

static void test_small_zones_boost_from_5_7_no_more(void **state)
{
	struct wm_profile p57 = prof("5.10.0-46-amd64"), p56 = prof("5.6.0");

	(void)state;
	/* 1500 managed < 4 * 512: 5.7+ leaves the zone alone */
	assert_int_equal(wm_boost_max(&p57, 1500, 284, 15000, 512), 0);
	/* 5.6: 284 * 1.5 = 426, raised to one pageblock */
	assert_int_equal(wm_boost_max(&p56, 1500, 284, 15000, 512), 512);
	/* exactly 4 pageblocks is enough */
	assert_int_equal(wm_boost_max(&p57, 2048, 284, 15000, 512), 512);
}

static void test_no_boost_before_5_0(void **state)
{
	struct wm_profile p = prof("4.19.0");

	(void)state;
	assert_int_equal(wm_boost_max(&p, 193648, 12668, 15000, 512), 0);
}

static void test_16k_pages_boost_by_2048_page_blocks(void **state)
{
	struct wm_profile p = prof("6.12.117+deb13-arm64-16k");

	(void)state;
	/* 32 MiB pageblocks: 2048 pages of 16 KiB */
	assert_int_equal(wm_boost_max(&p, 100000, 1000, 15000, 2048), 2048);
	assert_int_equal(wm_boost_max(&p, 8000, 1000, 15000, 2048), 0);
}

/* One zone, machine with the given managed pages and pageblock. */
static struct wm_zone zone1;
static struct wm_machine machine1(unsigned long managed, unsigned long pageblock)
{
	struct wm_machine m = { .zones = &zone1, .nzones = 1, .page_size = 4096,
				.pageblock_pages = pageblock };

	memset(&zone1, 0, sizeof(zone1));
	zone1.type = WM_ZONE_NORMAL;
	zone1.managed = managed;
	zone1.present = managed;
	return m;
}

static void test_a_machine_without_a_pageblock_is_an_error_not_512(void **state)
{
	struct wm_profile p = prof("5.10.251");
	struct wm_machine m = machine1(1000000, 0);
	struct wm_boost_obs o[2] = {
		{ 400000, 11000, 13750, 16500, -1 },
		{ 400000, 11512, 14262, 17012, -1 },
	};
	struct wm_boost_evidence ev;
	struct wm_diag d = { 0 };
	uint64_t peak;

	(void)state;
	assert_int_equal(wm_boost_evidence(&p, &m, NULL, o, NULL, 2, 15000, &peak, &ev, &d),
			 WM_EINVAL);
	assert_string_equal(d.key, "pageblock");
}

static void test_printed_boost_is_read_as_printed(void **state)
{
	struct wm_profile p = prof("6.12.117+deb13-amd64");
	struct wm_machine m = machine1(1000000, 512);
	/* raw 11000/13750/16500; the printed lines include the boost */
	struct wm_boost_obs o[3] = {
		{ 400000, 11000, 13750, 16500, 0 },
		{ 400000, 12024, 14774, 17524, 1024 },
		{ 400000, 11512, 14262, 17012, 512 },
	};
	struct wm_boost_evidence ev;
	unsigned long peak;

	(void)state;
	assert_int_equal(wm_boost_evidence(&p, &m, NULL, o, NULL, 3, 15000, &peak, &ev, NULL),
			 WM_OK);
	assert_int_equal(ev.boosted, 2);
	assert_int_equal(ev.rises, 1);
	assert_int_equal(peak, 1024);
	assert_int_equal(ev.peak_total, 1024);
	assert_false(ev.hidden);
	assert_int_equal(ev.odd_moves, 0);
	assert_int_equal(ev.over_max, 0);
}

static void test_5_10_boost_is_a_uniform_rise_by_whole_pageblocks(void **state)
{
	struct wm_profile p = prof("5.10.0-46-amd64");
	struct wm_machine m = machine1(1000000, 512);
	struct wm_zone_wm raw = { .min = 11000, .low = 13750, .high = 16500 };
	struct wm_boost_obs o[3] = {
		{ 400000, 11000, 13750, 16500, -1 },
		{ 400000, 12024, 14774, 17524, -1 },	/* +2 pageblocks */
		{ 400000, 11512, 14262, 17012, -1 },	/* +1 */
	};
	struct wm_boost_evidence ev;
	unsigned long peak;

	(void)state;
	assert_int_equal(wm_boost_evidence(&p, &m, &raw, o, NULL, 3, 15000, &peak, &ev, NULL),
			 WM_OK);
	assert_true(ev.hidden);
	assert_int_equal(ev.boosted, 2);
	assert_int_equal(ev.rises, 1);
	assert_int_equal(peak, 1024);
	assert_int_equal(ev.odd_moves, 0);
	/* without the model's raw values the lowest reading is the base */
	assert_int_equal(wm_boost_evidence(&p, &m, NULL, o, NULL, 3, 15000, &peak, &ev, NULL),
			 WM_OK);
	assert_int_equal(ev.boosted, 2);
	assert_int_equal(peak, 1024);
}

static void test_5_10_recompute_is_not_a_boost(void **state)
{
	struct wm_profile p = prof("5.10.0-46-amd64");
	struct wm_machine m = machine1(1000000, 512);
	struct wm_zone_wm raw = { .min = 11000, .low = 13750, .high = 16500 };
	struct wm_boost_obs o[3] = {
		{ 400000, 11000, 13750, 16500, -1 },
		{ 400000, 11100, 13875, 16650, -1 },	/* managed grew: gaps moved */
		{ 400000, 11100, 13850, 16600, -1 },	/* uniform, but not pageblocks */
	};
	struct wm_boost_evidence ev;

	(void)state;
	assert_int_equal(wm_boost_evidence(&p, &m, &raw, o, NULL, 3, 15000, NULL, &ev, NULL),
			 WM_OK);
	assert_int_equal(ev.boosted, 0);
	assert_int_equal(ev.odd_moves, 2);
	assert_false(ev.hidden);
}

static void test_before_5_0_nothing_is_boost(void **state)
{
	struct wm_profile p = prof("4.19.0");
	struct wm_machine m = machine1(1000000, 512);
	struct wm_zone_wm raw = { .min = 11000, .low = 13750, .high = 16500 };
	struct wm_boost_obs o[2] = {
		{ 400000, 11000, 13750, 16500, -1 },
		{ 400000, 12024, 14774, 17524, -1 },
	};
	struct wm_boost_evidence ev;

	(void)state;
	assert_int_equal(wm_boost_evidence(&p, &m, &raw, o, NULL, 2, 15000, NULL, &ev, NULL),
			 WM_OK);
	assert_int_equal(ev.boosted, 0);
}

static void test_kswapd_runs_above_low_and_stalls_during_a_boost_are_counted(void **state)
{
	struct wm_profile p = prof("6.12.117+deb13-amd64");
	struct wm_machine m = machine1(1000000, 512);
	struct wm_boost_obs o[4] = {
		{ 50000, 11000, 13750, 16500, 0 },
		{ 50000, 12024, 14774, 17524, 1024 },	/* kswapd woken by the boost */
		{ 12000, 12024, 14774, 17524, 1024 },	/* below the raised min */
		{ 60000, 11000, 13750, 16500, 0 },	/* boost reclaimed */
	};
	struct wm_rec_sample vm[4];
	unsigned have = (1u << WM_REC_PAGEOUTRUN) | (1u << WM_REC_ALLOCSTALL) |
			(1u << WM_REC_COMPACT_STALL) | (1u << WM_REC_PGSTEAL_KSWAPD) |
			(1u << WM_REC_REFAULT);
	const uint64_t runs[4] = { 10, 12, 13, 14 }, stalls[4] = { 0, 0, 5, 7 };
	const uint64_t comp[4] = { 1, 1, 3, 3 };
	const uint64_t steal[4] = { 100, 300, 700, 800 }, refaults[4] = { 0, 50, 80, 90 };
	struct wm_boost_evidence ev;
	size_t i;

	(void)state;
	memset(vm, 0, sizeof(vm));
	for (i = 0; i < 4; i++) {
		vm[i].t = (double)i;
		vm[i].have = have;
		vm[i].c[WM_REC_PAGEOUTRUN] = runs[i];
		vm[i].c[WM_REC_ALLOCSTALL] = stalls[i];
		vm[i].c[WM_REC_COMPACT_STALL] = comp[i];
		vm[i].c[WM_REC_PGSTEAL_KSWAPD] = steal[i];
		vm[i].c[WM_REC_REFAULT] = refaults[i];
	}
	assert_int_equal(wm_boost_evidence(&p, &m, NULL, o, vm, 4, 15000, NULL, &ev, NULL),
			 WM_OK);
	/* 0->1 only: in 1->2 and 2->3 free fell below the unboosted low */
	assert_int_equal(ev.kswapd_boost_runs, 1);
	/* what kswapd reclaimed in 0->1, and the refaults of 0->1 and 1->2 */
	assert_true(ev.refaults_counted);
	assert_int_equal(ev.boost_reclaimed, 200);
	assert_int_equal(ev.boost_refaults, 80);
	/* readings without the refault counter say so */
	for (i = 0; i < 4; i++)
		vm[i].have &= ~(1u << WM_REC_REFAULT);
	assert_int_equal(wm_boost_evidence(&p, &m, NULL, o, vm, 4, 15000, NULL, &ev, NULL),
			 WM_OK);
	assert_false(ev.refaults_counted);
	assert_int_equal(ev.boost_refaults, 0);
	assert_int_equal(ev.boost_reclaimed, 200);
	for (i = 0; i < 4; i++)
		vm[i].have |= 1u << WM_REC_REFAULT;
	assert_int_equal(wm_boost_evidence(&p, &m, NULL, o, vm, 4, 15000, NULL, &ev, NULL),
			 WM_OK);
	assert_int_equal(ev.stalls, 7);
	/* 1->2 (5) and 2->3 (2) had a boost at one end */
	assert_int_equal(ev.stalls_boosted, 7);
	assert_int_equal(ev.compact_stalls, 2);
}

static void test_a_boost_beyond_the_factor_is_flagged(void **state)
{
	struct wm_profile p = prof("6.12.117+deb13-amd64");
	struct wm_machine m = machine1(1000000, 512);
	/* 16500 * 1.5 = 24750 at most */
	struct wm_boost_obs o[1] = { { 400000, 41000, 43750, 46500, 30000 } };
	struct wm_boost_evidence ev;

	(void)state;
	assert_int_equal(wm_boost_evidence(&p, &m, NULL, o, NULL, 1, 15000, NULL, &ev, NULL),
			 WM_OK);
	assert_int_equal(ev.over_max, 1);
	/* unknown factor: not checked */
	assert_int_equal(wm_boost_evidence(&p, &m, NULL, o, NULL, 1, -1, NULL, &ev, NULL), WM_OK);
	assert_int_equal(ev.over_max, 0);
}

static void test_no_readings_is_an_error(void **state)
{
	struct wm_profile p = prof("6.12.117+deb13-amd64");
	struct wm_machine m = machine1(1000000, 512);
	struct wm_boost_evidence ev;
	struct wm_diag d = { 0 };

	(void)state;
	assert_int_equal(wm_boost_evidence(&p, &m, NULL, NULL, NULL, 0, 15000, NULL, &ev, &d),
			 WM_EINVAL);
	assert_string_equal(d.msg, "no readings");
}

static void test_recommend_leaves_boost_alone_without_evidence(void **state)
{
	struct wm_profile p = prof("6.12.117+deb13-amd64"), old = prof("4.19.0");
	struct wm_boost_evidence ev = { .nsamples = 10 };
	struct wm_rec_decision dec = { .verdict = WM_REC_RAISE, .deficit = 3000, .need = 5000 };
	struct wm_rec_boost b;

	(void)state;
	wm_rec_boost_decide(&p, 15000, &ev, 0, &dec, 2000, &b);
	assert_int_equal(b.action, WM_REC_BOOST_IDLE);
	assert_int_equal(b.factor, -1);
	assert_int_equal(b.need, 5000);
	wm_rec_boost_decide(&old, -1, &ev, 0, &dec, 2000, &b);
	assert_int_equal(b.action, WM_REC_BOOST_NONE);
	ev.boosted = 3;
	ev.stalls_boosted = 4;
	wm_rec_boost_decide(&p, 0, &ev, 0, &dec, 2000, &b);
	assert_int_equal(b.action, WM_REC_BOOST_OFF);
	/* boosts without a stall during one: harmless */
	ev.stalls_boosted = 0;
	ev.stalls = 9;
	wm_rec_boost_decide(&p, 15000, &ev, 1024, &dec, 2000, &b);
	assert_int_equal(b.action, WM_REC_BOOST_HARMLESS);
	assert_int_equal(b.need, 5000);
	/* a keep aims at today's gap */
	dec.verdict = WM_REC_KEEP;
	wm_rec_boost_decide(&p, 15000, &ev, 1024, &dec, 2000, &b);
	assert_int_equal(b.need, 2000);
}

static void test_stalls_during_boosts_turn_boost_off_and_shrink_the_gap_needed(void **state)
{
	struct wm_profile p = prof("6.12.117+deb13-amd64");
	struct wm_boost_evidence ev = { .nsamples = 10, .boosted = 4, .stalls = 7,
					.stalls_boosted = 7 };
	struct wm_rec_decision dec = { .verdict = WM_REC_RAISE, .deficit = 3000, .need = 5000 };
	struct wm_rec_boost b;

	(void)state;
	/* every stall during a boost: 1024 pages of the deficit were the raised min */
	wm_rec_boost_decide(&p, 15000, &ev, 1024, &dec, 2000, &b);
	assert_int_equal(b.action, WM_REC_BOOST_ZERO);
	assert_int_equal(b.factor, 0);
	assert_int_equal(b.need, 2000 + 3000 - 1024);
	/* a boost larger than the deficit: today's gap is enough */
	wm_rec_boost_decide(&p, 15000, &ev, 4096, &dec, 2000, &b);
	assert_int_equal(b.need, 2000);
	/* some stalls without a boost: the deficit stays whole */
	ev.stalls = 9;
	wm_rec_boost_decide(&p, 15000, &ev, 1024, &dec, 2000, &b);
	assert_int_equal(b.action, WM_REC_BOOST_ZERO);
	assert_int_equal(b.need, 5000);
}

/*
 * 6.12: a boost rarely outlives a 100 ms reading (kswapd clears it), so
 * zoneinfo shows none; the fallbacks counted by the tracepoint mark the
 * intervals in which boosts came.
 */
static void test_fallbacks_mark_intervals_as_boosted(void **state)
{
	struct wm_profile p = prof("6.12.117+deb12-cloud-amd64");
	struct wm_machine m = machine1(1000000, 512);
	struct wm_boost_obs o[5];
	struct wm_rec_sample vm[5];
	const uint64_t fb[5] = { 10, 10, 13, 13, 15 }, stalls[5] = { 0, 2, 6, 6, 9 };
	struct wm_boost_evidence ev;
	size_t i;

	(void)state;
	memset(vm, 0, sizeof(vm));
	for (i = 0; i < 5; i++) {
		o[i] = (struct wm_boost_obs){ 14000, 11000, 13750, 16500, 0 };
		vm[i].t = (double)i / 10;
		vm[i].have = (1u << WM_REC_ALLOCSTALL) | (1u << WM_REC_FALLBACK);
		vm[i].c[WM_REC_ALLOCSTALL] = stalls[i];
		vm[i].c[WM_REC_FALLBACK] = fb[i];
	}
	assert_int_equal(wm_boost_evidence(&p, &m, NULL, o, vm, 5, 15000, NULL, &ev, NULL),
			 WM_OK);
	assert_int_equal(ev.boosted, 0);
	assert_true(ev.fallbacks_counted);
	assert_int_equal(ev.fallbacks, 5);
	assert_int_equal(ev.fallback_intervals, 2);
	assert_int_equal(ev.fallback_peak, 3);
	assert_int_equal(ev.stalls, 9);
	/* 1->2 (4 stalls, 3 fallbacks) and 3->4 (3 stalls, 2 fallbacks); not 0->1 */
	assert_int_equal(ev.stalls_boosted, 7);

	/* without the counter (no tracefs, no CAP_PERFMON) nothing is inferred */
	for (i = 0; i < 5; i++)
		vm[i].have = 1u << WM_REC_ALLOCSTALL;
	assert_int_equal(wm_boost_evidence(&p, &m, NULL, o, vm, 5, 15000, NULL, &ev, NULL),
			 WM_OK);
	assert_false(ev.fallbacks_counted);
	assert_int_equal(ev.fallbacks, 0);
	assert_int_equal(ev.stalls_boosted, 0);
}

static void test_fallbacks_alone_are_boost_evidence(void **state)
{
	struct wm_profile p = prof("6.12.117+deb12-cloud-amd64");
	struct wm_boost_evidence ev = { .nsamples = 10, .fallbacks_counted = true,
					.fallbacks = 5, .stalls = 3 };
	struct wm_rec_decision dec = { .verdict = WM_REC_RAISE, .deficit = 3000, .need = 5000 };
	struct wm_rec_boost b;

	(void)state;
	/* fallbacks, but no stall in an interval with one: the factor stays */
	wm_rec_boost_decide(&p, 15000, &ev, 0, &dec, 2000, &b);
	assert_int_equal(b.action, WM_REC_BOOST_HARMLESS);
	/* counted and none: idle */
	ev.fallbacks = 0;
	wm_rec_boost_decide(&p, 15000, &ev, 0, &dec, 2000, &b);
	assert_int_equal(b.action, WM_REC_BOOST_IDLE);
	/* stalls in fallback intervals: boost 0 */
	ev.fallbacks = 5;
	ev.stalls_boosted = 3;
	wm_rec_boost_decide(&p, 15000, &ev, 1536, &dec, 2000, &b);
	assert_int_equal(b.action, WM_REC_BOOST_ZERO);
	assert_int_equal(b.need, 2000 + 3000 - 1536);
}

static void test_headroom_from_fallbacks_is_capped_by_the_factor(void **state)
{
	struct wm_profile p = prof("6.12.117+deb12-cloud-amd64");
	struct wm_zone zones[2] = { { .managed = 1000000 }, { .managed = 1000000 } };
	struct wm_machine m = { .zones = zones, .nzones = 2, .page_size = 4096,
				.pageblock_pages = 512 };
	const unsigned long peak[2] = { 1024, 0 };
	const bool usable[2] = { true, false };
	struct wm_boost_evidence ev = { .fallbacks_counted = true, .fallback_peak = 3 };
	/* 16500 * 15000 / 10000 = 24750 is the most one zone's boost reaches */
	unsigned long one = wm_boost_max(&p, zones[0].managed, 16500, 15000, 512);

	(void)state;
	assert_int_equal(one, 24750);
	/* 3 fallbacks in one interval: 3 pageblocks, more than the 1024 read */
	assert_int_equal(wm_boost_headroom(&m, usable, peak, one, &ev), 1536);
	/* fewer than the boost read: the reading wins */
	ev.fallback_peak = 1;
	assert_int_equal(wm_boost_headroom(&m, usable, peak, one, &ev), 1024);
	/* 100 pageblocks' worth, but the ceiling is the most */
	ev.fallback_peak = 100;
	assert_int_equal(wm_boost_headroom(&m, usable, peak, one, &ev), 24750);
	/* both zones usable: both ceilings */
	assert_int_equal(wm_boost_headroom(&m, NULL, peak, 2 * one, &ev), 49500);
	/* factor 0: no boost to give back beyond what was read */
	assert_int_equal(wm_boost_headroom(&m, usable, peak,
					   wm_boost_max(&p, zones[0].managed, 16500, 0, 512), &ev),
			 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_max_boost_is_high_times_factor_over_10000),
		cmocka_unit_test(test_factor_zero_or_high_zero_never_boosts),
		cmocka_unit_test(test_small_zones_boost_from_5_7_no_more),
		cmocka_unit_test(test_no_boost_before_5_0),
		cmocka_unit_test(test_16k_pages_boost_by_2048_page_blocks),
		cmocka_unit_test(test_a_machine_without_a_pageblock_is_an_error_not_512),
		cmocka_unit_test(test_printed_boost_is_read_as_printed),
		cmocka_unit_test(test_5_10_boost_is_a_uniform_rise_by_whole_pageblocks),
		cmocka_unit_test(test_5_10_recompute_is_not_a_boost),
		cmocka_unit_test(test_before_5_0_nothing_is_boost),
		cmocka_unit_test(test_kswapd_runs_above_low_and_stalls_during_a_boost_are_counted),
		cmocka_unit_test(test_a_boost_beyond_the_factor_is_flagged),
		cmocka_unit_test(test_no_readings_is_an_error),
		cmocka_unit_test(test_recommend_leaves_boost_alone_without_evidence),
		cmocka_unit_test(test_stalls_during_boosts_turn_boost_off_and_shrink_the_gap_needed),
		cmocka_unit_test(test_fallbacks_mark_intervals_as_boosted),
		cmocka_unit_test(test_fallbacks_alone_are_boost_evidence),
		cmocka_unit_test(test_headroom_from_fallbacks_is_capped_by_the_factor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
