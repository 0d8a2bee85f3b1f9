// SPDX-License-Identifier: MIT
/*
 * test_reclaim.c - the memory.reclaim loop per kernel version against
 * docs/model.md §12.1 and §12.2.1 (1 GiB of 4 KiB pages on 6.9+: 31 calls,
 * 16 pages over; 6.6 - 6.8: 8192 calls of 32; 6.1: one call), the retry
 * rule (EAGAIN on the 17th zero-progress call, a drain before it), the
 * version edges of the keys, and wmark's own batching.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/reclaim.h"

static struct wm_reclaim_profile rprof(const char *s)
{
	struct wm_kver k;
	struct wm_reclaim_profile p;

	assert_int_equal(wm_kver_parse(s, &k, NULL), WM_OK);
	wm_reclaim_profile_for(&k, &p);
	return p;
}

static void test_each_kernel_series_has_its_batch_rule(void **state)
{
	assert_int_equal(rprof("5.10.0-46-amd64").rule, WM_RECLAIM_NONE);
	assert_int_equal(rprof("5.18.19").rule, WM_RECLAIM_NONE);
	assert_int_equal(rprof("5.19.0").rule, WM_RECLAIM_FULL);
	assert_int_equal(rprof("6.1.0-57-amd64").rule, WM_RECLAIM_FULL);
	assert_int_equal(rprof("6.5.13").rule, WM_RECLAIM_FULL);
	assert_int_equal(rprof("6.6.9").rule, WM_RECLAIM_CAP32);
	assert_int_equal(rprof("6.8.0").rule, WM_RECLAIM_CAP32);
	assert_int_equal(rprof("6.9.0").rule, WM_RECLAIM_QUARTER);
	assert_int_equal(rprof("6.12.117+deb12-amd64").rule, WM_RECLAIM_QUARTER);
	assert_int_equal(rprof("7.2.13+deb14-amd64").rule, WM_RECLAIM_QUARTER);
}

static void test_keys_and_counters_follow_their_version_edges(void **state)
{
	struct wm_reclaim_profile p;

	p = rprof("6.10.14");
	assert_false(p.swappiness);
	p = rprof("6.11.0");
	assert_true(p.swappiness);
	assert_false(p.swappiness_max);
	p = rprof("6.12.117");
	assert_true(p.swappiness);
	assert_false(p.swappiness_max);
	assert_false(p.node_file);
	assert_false(p.pgsteal_proactive);
	p = rprof("6.16.0");
	assert_true(p.swappiness_max);
	assert_false(p.node_file);
	p = rprof("6.17.0");
	assert_true(p.node_file);
	assert_true(p.restarts);
	assert_false(p.pgsteal_proactive);
	p = rprof("6.19.0");
	assert_true(p.pgsteal_proactive);
	p = rprof("7.2.13");
	assert_true(p.swappiness_max && p.node_file && p.pgsteal_proactive);
}

static void test_one_gib_on_6_9_plus_is_31_calls_16_pages_over(void **state)
{
	struct wm_reclaim_model m;
	uint64_t sum = 0;
	size_t i;

	assert_int_equal(wm_reclaim_model(WM_RECLAIM_QUARTER, 262144, &m, NULL), WM_OK);
	assert_int_equal(m.calls, 31);
	assert_int_equal(m.overshoot, 16);
	/* rem 262144 -> 196608 -> 147456: the first targets are quarters */
	assert_int_equal(m.runs[0].target, 65536);
	assert_int_equal(m.runs[1].target, 49152);
	assert_int_equal(m.runs[2].target, 36864);
	/* and the tail is 32-page calls, once the remainder is below 128 */
	assert_int_equal(m.runs[m.nruns - 1].target, 32);
	for (i = 0; i < m.nruns; i++) {
		assert_true(m.runs[i].target >= 32);
		sum += m.runs[i].target * m.runs[i].count;
	}
	assert_int_equal(sum, 262144 + 16);
}

static void test_one_gib_on_6_6_to_6_8_is_8192_calls_of_32(void **state)
{
	struct wm_reclaim_model m;

	assert_int_equal(wm_reclaim_model(WM_RECLAIM_CAP32, 262144, &m, NULL), WM_OK);
	assert_int_equal(m.calls, 8192);
	assert_int_equal(m.nruns, 1);
	assert_int_equal(m.runs[0].target, 32);
	assert_int_equal(m.runs[0].count, 8192);
	assert_int_equal(m.overshoot, 0);
	/* ceil(R / 32) calls: 100 pages take 4, the last one 28 over */
	assert_int_equal(wm_reclaim_model(WM_RECLAIM_CAP32, 100, &m, NULL), WM_OK);
	assert_int_equal(m.calls, 4);
	assert_int_equal(m.overshoot, 28);
}

static void test_one_gib_on_6_1_is_one_call_of_the_whole_request(void **state)
{
	struct wm_reclaim_model m;

	assert_int_equal(wm_reclaim_model(WM_RECLAIM_FULL, 262144, &m, NULL), WM_OK);
	assert_int_equal(m.calls, 1);
	assert_int_equal(m.nruns, 1);
	assert_int_equal(m.runs[0].target, 262144);
	assert_int_equal(m.overshoot, 0);
	/* below 32 pages the floor still asks for 32 */
	assert_int_equal(wm_reclaim_model(WM_RECLAIM_FULL, 5, &m, NULL), WM_OK);
	assert_int_equal(m.runs[0].target, 32);
	assert_int_equal(m.overshoot, 27);
}

static void test_100_pages_on_6_9_plus_are_four_calls_of_32(void **state)
{
	struct wm_reclaim_model m;

	assert_int_equal(wm_reclaim_model(WM_RECLAIM_QUARTER, 100, &m, NULL), WM_OK);
	assert_int_equal(m.calls, 4);
	assert_int_equal(m.nruns, 1);
	assert_int_equal(m.runs[0].target, 32);
	assert_int_equal(m.overshoot, 28);
}

static void test_a_zero_request_makes_no_call_on_any_kernel(void **state)
{
	struct wm_reclaim_model m;

	assert_int_equal(wm_reclaim_model(WM_RECLAIM_FULL, 0, &m, NULL), WM_OK);
	assert_int_equal(m.calls, 0);
	assert_int_equal(wm_reclaim_model(WM_RECLAIM_QUARTER, 0, &m, NULL), WM_OK);
	assert_int_equal(m.calls, 0);
	assert_int_equal(m.nruns, 0);
}

static void test_kernels_before_5_19_cannot_be_modelled(void **state)
{
	struct wm_reclaim_model m;
	struct wm_diag d;

	assert_int_equal(wm_reclaim_model(WM_RECLAIM_NONE, 100, &m, &d), WM_EINVAL);
	assert_non_null(strstr(d.msg, "5.19"));
}

/* Property: the idealised quarter loop ends within 32 pages over, never
 * needs more than the min32 loop's calls, and its targets never grow. */
static void test_quarter_loop_overshoots_less_than_32_and_targets_shrink(void **state)
{
	struct wm_reclaim_model q, c;
	uint64_t r;
	size_t i;

	for (r = 1; r < 300000; r = r * 3 / 2 + 7) {
		assert_int_equal(wm_reclaim_model(WM_RECLAIM_QUARTER, r, &q, NULL), WM_OK);
		assert_int_equal(wm_reclaim_model(WM_RECLAIM_CAP32, r, &c, NULL), WM_OK);
		assert_true(q.overshoot < 32);
		assert_true(q.calls <= c.calls);
		assert_int_equal(c.calls, (r + 31) / 32);
		for (i = 1; i < q.nruns; i++)
			assert_true(q.runs[i].target < q.runs[i - 1].target);
	}
	/* the largest request fits in the runs */
	assert_int_equal(wm_reclaim_model(WM_RECLAIM_QUARTER, UINT64_MAX / 2, &q, NULL), WM_OK);
	assert_true(q.nruns < WM_RECLAIM_MAX_RUNS);
}

static void test_the_17th_zero_progress_call_gives_eagain_after_a_drain(void **state)
{
	struct wm_reclaim_loop l;
	uint64_t t;
	bool drain;
	int i;

	wm_reclaim_loop_init(&l, WM_RECLAIM_QUARTER, 1000);
	/* progress does not refill the budget: spend 10, make progress, spend 6 */
	for (i = 0; i < 10; i++) {
		assert_int_equal(wm_reclaim_loop_next(&l, &t, &drain), WM_RECLAIM_MORE);
		assert_false(drain);
		assert_int_equal(wm_reclaim_loop_done(&l, 0), WM_RECLAIM_MORE);
	}
	assert_int_equal(wm_reclaim_loop_next(&l, &t, &drain), WM_RECLAIM_MORE);
	assert_int_equal(t, 250);
	assert_int_equal(wm_reclaim_loop_done(&l, 100), WM_RECLAIM_MORE);
	assert_int_equal(wm_reclaim_loop_next(&l, &t, &drain), WM_RECLAIM_MORE);
	assert_int_equal(t, 225);	/* (1000 - 100) / 4 */
	for (i = 0; i < 6; i++) {
		assert_int_equal(wm_reclaim_loop_next(&l, &t, &drain), WM_RECLAIM_MORE);
		assert_false(drain);
		assert_int_equal(wm_reclaim_loop_done(&l, 0), WM_RECLAIM_MORE);
	}
	/* the 17th zero-progress call: drained first, then EAGAIN */
	assert_int_equal(wm_reclaim_loop_next(&l, &t, &drain), WM_RECLAIM_MORE);
	assert_true(drain);
	assert_int_equal(wm_reclaim_loop_done(&l, 0), WM_RECLAIM_EAGAIN);
	assert_int_equal(l.calls, 18);
	assert_int_equal(l.zero_calls, 17);
	assert_int_equal(l.reclaimed, 100);
}

static void test_the_last_call_after_the_budget_may_still_succeed(void **state)
{
	struct wm_reclaim_loop l;
	uint64_t t;
	bool drain;
	int i;

	wm_reclaim_loop_init(&l, WM_RECLAIM_FULL, 64);
	for (i = 0; i < 16; i++)
		assert_int_equal(wm_reclaim_loop_done(&l, 0), WM_RECLAIM_MORE);
	assert_int_equal(wm_reclaim_loop_next(&l, &t, &drain), WM_RECLAIM_MORE);
	assert_true(drain);
	assert_int_equal(t, 64);
	assert_int_equal(wm_reclaim_loop_done(&l, 64), WM_RECLAIM_DONE);
	assert_int_equal(wm_reclaim_loop_next(&l, &t, &drain), WM_RECLAIM_DONE);
}

static void test_over_reclaim_bound_is_twice_one_call(void **state)
{
	/* 5.19 - 6.5: one call of the whole request, [R, 2R) */
	assert_int_equal(wm_reclaim_over_bound(WM_RECLAIM_FULL, 65536), 65535);
	/* a floored call of 32 for 5 pages: up to 63 reclaimed, 58 over */
	assert_int_equal(wm_reclaim_over_bound(WM_RECLAIM_FULL, 5), 58);
	assert_int_equal(wm_reclaim_over_bound(WM_RECLAIM_QUARTER, 65536), 63);
	assert_int_equal(wm_reclaim_over_bound(WM_RECLAIM_CAP32, 65536), 63);
	assert_int_equal(wm_reclaim_over_bound(WM_RECLAIM_QUARTER, 0), 0);
}

/*
 * A batch takes whole folios until its pages reach the target (7.2
 * isolate_lru_folios()): the finishing one may pass it by a folio less a
 * page.  7.2 with file pages in large folios: 230 over for 8192 pages,
 * within 63 + 511.
 */
static void test_large_folios_widen_the_over_reclaim_bound(void **state)
{
	(void)state;
	assert_int_equal(wm_reclaim_over_bound_folios(WM_RECLAIM_QUARTER, 8192, 512), 574);
	assert_true(230 <= wm_reclaim_over_bound_folios(WM_RECLAIM_QUARTER, 8192, 512));
	assert_int_equal(wm_reclaim_over_bound_folios(WM_RECLAIM_QUARTER, 8192, 1), 63);
	assert_int_equal(wm_reclaim_over_bound_folios(WM_RECLAIM_FULL, 65536, 256), 65535 + 255);
	assert_int_equal(wm_reclaim_over_bound_folios(WM_RECLAIM_QUARTER, 0, 512), 0);
	/* the PMD size in pages: 2 MiB of 4 KiB, 32 MiB of 16 KiB, 512 MiB of 64 KiB */
	assert_int_equal(wm_reclaim_largest_folio(2u << 20, 4096), 512);
	assert_int_equal(wm_reclaim_largest_folio(32u << 20, 16384), 2048);
	assert_int_equal(wm_reclaim_largest_folio(512u << 20, 65536), 8192);
	/* no THP: the page cache's order 8 */
	assert_int_equal(wm_reclaim_largest_folio(0, 4096), 256);
}

static void test_wmark_batches_split_what_is_left(void **state)
{
	assert_int_equal(wm_batch_next(WM_BATCH_KERNEL, 1000, 0), 1000);
	assert_int_equal(wm_batch_next(WM_BATCH_QUARTER, 1000, 0), 250);
	assert_int_equal(wm_batch_next(WM_BATCH_QUARTER, 100, 0), 32);
	assert_int_equal(wm_batch_next(WM_BATCH_QUARTER, 10, 0), 32);
	assert_int_equal(wm_batch_next(WM_BATCH_FIXED, 1000, 256), 256);
	assert_int_equal(wm_batch_next(WM_BATCH_FIXED, 100, 256), 100);
}

static void test_quarter_writes_on_6_1_take_what_6_9_does_inside(void **state)
{
	struct wm_batch_plan p;
	struct wm_reclaim_model m;

	/* 6.1 driven from outside with quarters: as many writes as 6.9+ makes calls */
	assert_int_equal(wm_batch_plan(WM_RECLAIM_FULL, WM_BATCH_QUARTER, 262144, 0, &p, NULL), WM_OK);
	assert_int_equal(wm_reclaim_model(WM_RECLAIM_QUARTER, 262144, &m, NULL), WM_OK);
	assert_int_equal(p.writes, m.calls);
	assert_int_equal(p.calls, m.calls);
	assert_int_equal(p.overshoot, m.overshoot);
	assert_int_equal(p.first, 65536);
	/* one kernel write on 6.12 is the whole quarter loop */
	assert_int_equal(wm_batch_plan(WM_RECLAIM_QUARTER, WM_BATCH_KERNEL, 262144, 0, &p, NULL), WM_OK);
	assert_int_equal(p.writes, 1);
	assert_int_equal(p.calls, 31);
	/* fixed 4 MiB steps on 6.6: 256 writes of 32 calls each */
	assert_int_equal(wm_batch_plan(WM_RECLAIM_CAP32, WM_BATCH_FIXED, 262144, 1024, &p, NULL), WM_OK);
	assert_int_equal(p.writes, 256);
	assert_int_equal(p.calls, 8192);
	assert_int_equal(wm_batch_plan(WM_RECLAIM_NONE, WM_BATCH_KERNEL, 100, 0, &p, NULL), WM_EINVAL);
}

/*
 * The plan as the writes happen, one model per write: the reference the
 * closed form must equal wherever this loop is short enough to run.
 */
static void plan_by_writes(enum wm_reclaim_rule r, enum wm_batch_mode mode, uint64_t request,
			   uint64_t fixed, struct wm_batch_plan *p)
{
	struct wm_reclaim_model m;
	uint64_t done = 0, w;

	memset(p, 0, sizeof(*p));
	while (done < request) {
		w = wm_batch_next(mode, request - done, fixed);
		assert_int_equal(wm_reclaim_model(r, w, &m, NULL), WM_OK);
		if (!p->writes)
			p->first = w;
		p->writes++;
		p->calls += m.calls;
		done += w + m.overshoot;
	}
	p->overshoot = done - request;
}

static void test_fixed_plans_equal_the_write_by_write_loop(void **state)
{
	static const enum wm_reclaim_rule rules[] = {
		WM_RECLAIM_FULL, WM_RECLAIM_CAP32, WM_RECLAIM_QUARTER,
	};
	static const uint64_t steps[] = { 1, 2, 5, 31, 32, 33, 100, 127, 128, 129, 256, 1000, 4096 };
	struct wm_batch_plan want, got;
	uint64_t req;
	size_t i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < sizeof(steps) / sizeof(steps[0]); j++)
			for (req = 0; req < 5000; req += 1 + req / 7) {
				plan_by_writes(rules[i], WM_BATCH_FIXED, req, steps[j], &want);
				assert_int_equal(wm_batch_plan(rules[i], WM_BATCH_FIXED, req, steps[j],
							       &got, NULL), WM_OK);
				assert_int_equal(got.writes, want.writes);
				assert_int_equal(got.calls, want.calls);
				assert_int_equal(got.overshoot, want.overshoot);
				assert_int_equal(got.first, want.first);
			}
}

static void test_a_huge_fixed_plan_is_computed_not_walked(void **state)
{
	struct wm_batch_plan p;
	/* 16000 TiB in 4 KiB pages: 16000 * 2^28 */
	uint64_t req = 16000ULL << 28;

	/*
	 * Writes of one page on 6.9+: each call aims at the 32-page floor,
	 * so each write reclaims 32 and the plan is req / 32 writes of one
	 * call, nothing over (req is a multiple of 32).
	 */
	assert_int_equal(wm_batch_plan(WM_RECLAIM_QUARTER, WM_BATCH_FIXED, req, 1, &p, NULL), WM_OK);
	assert_int_equal(p.writes, req / 32);
	assert_int_equal(p.calls, req / 32);
	assert_int_equal(p.overshoot, 0);
	assert_int_equal(p.first, 1);
	/* 16 pages (64 KiB) on 6.1: one call of 32 per write too */
	assert_int_equal(wm_batch_plan(WM_RECLAIM_FULL, WM_BATCH_FIXED, 1ULL << 50, 16, &p, NULL), WM_OK);
	assert_int_equal(p.writes, (1ULL << 50) / 32);
	assert_int_equal(p.calls, (1ULL << 50) / 32);
	assert_int_equal(p.overshoot, 0);
	/* 2^62 - 1 pages in steps of 1000 on 6.6: 32 calls (1024 pages) a write */
	assert_int_equal(wm_batch_plan(WM_RECLAIM_CAP32, WM_BATCH_FIXED, (1ULL << 62) - 1, 1000, &p,
				       NULL), WM_OK);
	assert_int_equal(p.writes, 1ULL << 52);
	assert_int_equal(p.calls, 1ULL << 57);
	/* the last of them found 1023 pages left and reclaimed 1024 */
	assert_int_equal(p.overshoot, 1);
	/* quarter and kernel plans of any size are short loops */
	assert_int_equal(wm_batch_plan(WM_RECLAIM_CAP32, WM_BATCH_QUARTER, 1ULL << 62, 0, &p, NULL), WM_OK);
	assert_true(p.writes < 200);
	assert_int_equal(wm_batch_plan(WM_RECLAIM_QUARTER, WM_BATCH_KERNEL, 1ULL << 62, 0, &p, NULL), WM_OK);
	assert_int_equal(p.writes, 1);
	/* past 2^63 pages (no machine has them) the sums could wrap: refused */
	assert_int_equal(wm_batch_plan(WM_RECLAIM_QUARTER, WM_BATCH_FIXED, UINT64_MAX, 1, &p, NULL),
			 WM_ERANGE);
	assert_int_equal(wm_batch_plan(WM_RECLAIM_QUARTER, WM_BATCH_KERNEL, UINT64_MAX, 0, &p, NULL),
			 WM_ERANGE);
}

static void test_swappiness_is_refused_where_the_kernel_has_no_key(void **state)
{
	struct wm_kver k;
	struct wm_reclaim_profile p;
	struct wm_diag d;

	assert_int_equal(wm_kver_parse("6.1.0-57-amd64", &k, NULL), WM_OK);
	wm_reclaim_profile_for(&k, &p);
	assert_int_equal(wm_reclaim_check_swappiness(&p, &k, 60, &d), WM_EINVAL);
	assert_non_null(strstr(d.msg, "6.1"));
	assert_int_equal(wm_kver_parse("6.12.117", &k, NULL), WM_OK);
	wm_reclaim_profile_for(&k, &p);
	assert_int_equal(wm_reclaim_check_swappiness(&p, &k, 60, &d), WM_OK);
	assert_int_equal(wm_reclaim_check_swappiness(&p, &k, 200, &d), WM_OK);
	assert_int_equal(wm_reclaim_check_swappiness(&p, &k, -1, &d), WM_EINVAL);
	assert_non_null(strstr(d.msg, "6.16"));
	assert_int_equal(wm_reclaim_check_swappiness(&p, &k, 201, &d), WM_EINVAL);
	assert_int_equal(wm_kver_parse("7.2.13", &k, NULL), WM_OK);
	wm_reclaim_profile_for(&k, &p);
	assert_int_equal(wm_reclaim_check_swappiness(&p, &k, -1, &d), WM_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_kernel_series_has_its_batch_rule),
		cmocka_unit_test(test_keys_and_counters_follow_their_version_edges),
		cmocka_unit_test(test_one_gib_on_6_9_plus_is_31_calls_16_pages_over),
		cmocka_unit_test(test_one_gib_on_6_6_to_6_8_is_8192_calls_of_32),
		cmocka_unit_test(test_one_gib_on_6_1_is_one_call_of_the_whole_request),
		cmocka_unit_test(test_100_pages_on_6_9_plus_are_four_calls_of_32),
		cmocka_unit_test(test_a_zero_request_makes_no_call_on_any_kernel),
		cmocka_unit_test(test_kernels_before_5_19_cannot_be_modelled),
		cmocka_unit_test(test_quarter_loop_overshoots_less_than_32_and_targets_shrink),
		cmocka_unit_test(test_the_17th_zero_progress_call_gives_eagain_after_a_drain),
		cmocka_unit_test(test_the_last_call_after_the_budget_may_still_succeed),
		cmocka_unit_test(test_over_reclaim_bound_is_twice_one_call),
		cmocka_unit_test(test_wmark_batches_split_what_is_left),
		cmocka_unit_test(test_quarter_writes_on_6_1_take_what_6_9_does_inside),
		cmocka_unit_test(test_swappiness_is_refused_where_the_kernel_has_no_key),
		cmocka_unit_test(test_large_folios_widen_the_over_reclaim_bound),
		cmocka_unit_test(test_fixed_plans_equal_the_write_by_write_loop),
		cmocka_unit_test(test_a_huge_fixed_plan_is_computed_not_walked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
