// SPDX-License-Identifier: MIT
/*
 * test_scancount.c - get_scan_count() per era (calc/scancount.c) against
 * every worked example of docs/model.md §13.6, each number redone by hand
 * from the integer arithmetic in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/scancount.h"

/* B6.1: memcg reclaim, anon 60000 + 60000, file 1000 + 2000, swappiness 60 */
static struct wm_scan_in b61(void)
{
	return (struct wm_scan_in){
		.lru = { 60000, 60000, 1000, 2000 }, .page_size = 4096,
		.swappiness = 60, .memcg = true, .swap = true,
	};
}

static void expect(enum wm_scan_rule rule, const struct wm_scan_in *in, int prio,
		   unsigned long ia, unsigned long aa, unsigned long ifl, unsigned long af,
		   enum wm_scan_balance bal)
{
	struct wm_scan_out o;
	struct wm_diag d = { 0 };

	assert_int_equal(wm_scan_count(rule, in, prio, &o, &d), WM_OK);
	if (o.nr[0] != ia || o.nr[1] != aa || o.nr[2] != ifl || o.nr[3] != af ||
	    o.balance != bal)
		fail_msg("rule %s prio %d: got [%lu,%lu,%lu,%lu] %s, want [%lu,%lu,%lu,%lu] %s",
			 wm_scan_rule_name(rule), prio, o.nr[0], o.nr[1], o.nr[2], o.nr[3],
			 wm_scan_balance_name(o.balance), ia, aa, ifl, af,
			 wm_scan_balance_name(bal));
}

static void test_old_rule_forces_each_small_file_list_beside_big_anon(void **state)
{
	struct wm_scan_in in = b61();

	/* 60000 >> 12 = 14, 14 * 60 / 201 = 4; file >> 12 = 0, forced 32, 32 * 140 / 201 = 22 */
	expect(WM_RULE_314, &in, 12, 4, 4, 22, 22, WM_SCAN_FRACT);
	/* 29 * 60 / 201 = 8 */
	expect(WM_RULE_314, &in, 11, 8, 8, 22, 22, WM_SCAN_FRACT);
	/* 2000 >> 10 = 1 is not forced: 140 / 201 = 0; 1000 >> 10 = 0 is */
	expect(WM_RULE_314, &in, 10, 17, 17, 22, 0, WM_SCAN_FRACT);
	/* 117 * 60 / 201 = 34; 1 * 140 / 201 = 0; 3 * 140 / 201 = 2 */
	expect(WM_RULE_314, &in, 9, 34, 34, 0, 2, WM_SCAN_FRACT);
	/* 234 * 60 / 201 = 69; 3 * 140 / 201 = 2; 7 * 140 / 201 = 4 */
	expect(WM_RULE_314, &in, 8, 69, 69, 2, 4, WM_SCAN_FRACT);
	/* 30000 * 60 / 201 = 8955; 500 * 140 / 201 = 348; 1000 * 140 / 201 = 696 */
	expect(WM_RULE_314, &in, 1, 8955, 8955, 348, 696, WM_SCAN_FRACT);
	expect(WM_RULE_314, &in, 0, 60000, 60000, 1000, 2000, WM_SCAN_EQUAL);
}

static void test_315_does_not_force_file_while_anon_scans(void **state)
{
	struct wm_scan_in in = b61();

	expect(WM_RULE_315, &in, 12, 4, 4, 0, 0, WM_SCAN_FRACT);
	expect(WM_RULE_315, &in, 11, 8, 8, 0, 0, WM_SCAN_FRACT);
	expect(WM_RULE_315, &in, 10, 17, 17, 0, 0, WM_SCAN_FRACT);
	expect(WM_RULE_315, &in, 9, 34, 34, 0, 2, WM_SCAN_FRACT);
	expect(WM_RULE_315, &in, 8, 69, 69, 2, 4, WM_SCAN_FRACT);
	expect(WM_RULE_315, &in, 1, 8955, 8955, 348, 696, WM_SCAN_FRACT);
	expect(WM_RULE_315, &in, 0, 60000, 60000, 1000, 2000, WM_SCAN_EQUAL);
}

static void test_412_and_413_never_force_and_divide_by_201(void **state)
{
	struct wm_scan_in in = b61();
	enum wm_scan_rule r;

	for (r = WM_RULE_412; r <= WM_RULE_413; r++) {
		expect(r, &in, 12, 4, 4, 0, 0, WM_SCAN_FRACT);
		expect(r, &in, 10, 17, 17, 0, 0, WM_SCAN_FRACT);
		/* still 201: 117 * 60 / 201 = 34 */
		expect(r, &in, 9, 34, 34, 0, 2, WM_SCAN_FRACT);
		expect(r, &in, 1, 8955, 8955, 348, 696, WM_SCAN_FRACT);
	}
}

static void test_today_divides_by_200_with_zero_costs(void **state)
{
	struct wm_scan_in in = b61();
	enum wm_scan_rule r;

	for (r = WM_RULE_58; r <= WM_RULE_CURRENT; r++) {
		expect(r, &in, 12, 4, 4, 0, 0, WM_SCAN_FRACT);
		expect(r, &in, 11, 8, 8, 0, 0, WM_SCAN_FRACT);
		expect(r, &in, 10, 17, 17, 0, 0, WM_SCAN_FRACT);
		/* 117 * 60 / 200 = 35.1 -> 35 (34 with 201) */
		expect(r, &in, 9, 35, 35, 0, 2, WM_SCAN_FRACT);
		/* 234 * 60 / 200 = 70; 3 * 140 / 200 = 2; 7 * 140 / 200 = 4 */
		expect(r, &in, 8, 70, 70, 2, 4, WM_SCAN_FRACT);
		expect(r, &in, 1, 9000, 9000, 350, 700, WM_SCAN_FRACT);
		expect(r, &in, 0, 60000, 60000, 1000, 2000, WM_SCAN_EQUAL);
	}
}

static void test_fraction_denominator_is_plus_one_only_before_5_8(void **state)
{
	struct wm_scan_in in = b61();
	struct wm_scan_out o;
	struct wm_diag d = { 0 };

	assert_int_equal(wm_scan_count(WM_RULE_413, &in, 9, &o, &d), WM_OK);
	assert_int_equal(o.fraction[0], 60);
	assert_int_equal(o.fraction[1], 140);
	assert_int_equal(o.denominator, 201);
	assert_int_equal(wm_scan_count(WM_RULE_58, &in, 9, &o, &d), WM_OK);
	assert_int_equal(o.denominator, 200);
}

static void test_every_list_small_forces_all_in_the_second_pass(void **state)
{
	/* B6.2: 3000, 3000, 2000, 3000 */
	struct wm_scan_in in = b61();

	in.lru[0] = 3000, in.lru[1] = 3000, in.lru[2] = 2000, in.lru[3] = 3000;
	/* every >> 12 is 0: 32 * 60 / 201 = 9, 32 * 140 / 201 = 22 */
	expect(WM_RULE_314, &in, 12, 9, 9, 22, 22, WM_SCAN_FRACT);
	expect(WM_RULE_315, &in, 12, 9, 9, 22, 22, WM_SCAN_FRACT);
	expect(WM_RULE_412, &in, 12, 0, 0, 0, 0, WM_SCAN_FRACT);
	expect(WM_RULE_CURRENT, &in, 12, 0, 0, 0, 0, WM_SCAN_FRACT);
}

static void test_second_pass_runs_when_every_share_rounds_to_zero(void **state)
{
	/* B6.2 prio 11: 3000 >> 11 = 1 gives 60/201 = 0 and 140/201 = 0, so pass 1
	 * runs and forces only inactive_file (2000 >> 11 = 0) */
	struct wm_scan_in in = b61();
	struct wm_scan_out o;
	struct wm_diag d = { 0 };

	in.lru[0] = 3000, in.lru[1] = 3000, in.lru[2] = 2000, in.lru[3] = 3000;
	expect(WM_RULE_315, &in, 11, 0, 0, 22, 0, WM_SCAN_FRACT);
	expect(WM_RULE_314, &in, 11, 0, 0, 22, 0, WM_SCAN_FRACT);
	expect(WM_RULE_412, &in, 11, 0, 0, 0, 0, WM_SCAN_FRACT);
	assert_int_equal(wm_scan_count(WM_RULE_315, &in, 11, &o, &d), WM_OK);
	assert_true(o.forced);
}

/* B6.3: a node, file 3000 + 2000, free 4000, sum of high 9000 */
static struct wm_scan_in b63(void)
{
	return (struct wm_scan_in){
		.lru = { 200000, 100000, 3000, 2000 }, .page_size = 4096,
		.swappiness = 60, .swap = true, .node_file = 5000,
		.node_inactive_anon = 200000, .free = 4000, .high_sum = 9000,
	};
}

static void test_global_reclaim_scans_anon_only_when_file_plus_free_is_at_high(void **state)
{
	struct wm_scan_in in = b63();
	struct wm_scan_out o;
	struct wm_diag d = { 0 };
	enum wm_scan_rule r;

	for (r = WM_RULE_314; r < WM_NR_RULES; r++) {
		/* 200000 >> 12 = 48, 100000 >> 12 = 24 */
		expect(r, &in, 12, 48, 24, 0, 0, WM_SCAN_ANON);
		expect(r, &in, 0, 200000, 100000, 3000, 2000, WM_SCAN_EQUAL);
	}
	assert_int_equal(wm_scan_count(WM_RULE_CURRENT, &in, 12, &o, &d), WM_OK);
	assert_int_equal(o.why, WM_WHY_FILE_TINY);
	assert_int_equal(wm_anon_only_margin(5000, 4000, 9000), 0);
	/* one page above the line: file 3000 > 2000 is not low, 3000 >> 12 = 0,
	 * so no cache trim: the fraction */
	in.free = 4001;
	expect(WM_RULE_CURRENT, &in, 12, 48 * 60 / 200, 24 * 60 / 200, 0, 0, WM_SCAN_FRACT);
	assert_int_equal(wm_anon_only_margin(5000, 4001, 9000), 1);
}

static void test_413_guard_keeps_fraction_when_inactive_anon_is_low(void **state)
{
	struct wm_scan_in in = b63();
	struct wm_scan_out o;
	struct wm_diag d = { 0 };

	/* gb = 300000 >> 18 = 1, ratio 3: 50000 * 3 < 250000 is low */
	in.lru[0] = in.node_inactive_anon = 50000;
	in.lru[1] = 250000;
	expect(WM_RULE_412, &in, 12, 12, 61, 0, 0, WM_SCAN_ANON);
	assert_int_equal(wm_scan_count(WM_RULE_413, &in, 12, &o, &d), WM_OK);
	assert_int_equal(o.balance, WM_SCAN_FRACT);
	assert_true(o.tiny_guarded);
	assert_int_equal(wm_scan_count(WM_RULE_CURRENT, &in, 12, &o, &d), WM_OK);
	assert_int_equal(o.balance, WM_SCAN_FRACT);
	/* and inactive anon >> priority must scan: 4000 >> 12 = 0, 4000 >> 11 = 1 */
	in = b63();
	in.lru[0] = in.node_inactive_anon = 4000;
	in.lru[1] = 1000;
	assert_int_equal(wm_scan_count(WM_RULE_CURRENT, &in, 12, &o, &d), WM_OK);
	assert_int_equal(o.balance, WM_SCAN_FRACT);
	assert_int_equal(wm_scan_count(WM_RULE_413, &in, 12, &o, &d), WM_OK);
	assert_int_equal(o.balance, WM_SCAN_FRACT);
	expect(WM_RULE_CURRENT, &in, 11, 1, 0, 0, 0, WM_SCAN_ANON);
	expect(WM_RULE_413, &in, 11, 1, 0, 0, 0, WM_SCAN_ANON);
}

static void test_cost_fraction_matches_the_notes(void **state)
{
	struct wm_scan_in in = b61();
	struct wm_scan_out o;
	struct wm_diag d = { 0 };

	/* B6.4: total 1100, a 2100, f 1200, T 3300: 60*3301/2101 = 94, 140*3301/1201 = 384 */
	in.anon_cost = 1000, in.file_cost = 100;
	assert_int_equal(wm_scan_count(WM_RULE_CURRENT, &in, 6, &o, &d), WM_OK);
	assert_int_equal(o.fraction[0], 94);
	assert_int_equal(o.fraction[1], 384);
	assert_int_equal(o.denominator, 478);
	in.anon_cost = 100, in.file_cost = 1000;
	assert_int_equal(wm_scan_count(WM_RULE_58, &in, 6, &o, &d), WM_OK);
	assert_int_equal(o.fraction[0], 164);
	assert_int_equal(o.fraction[1], 219);
	assert_int_equal(o.denominator, 383);
	/* 60000 >> 6 = 937, 937 * 164 / 383 = 401 */
	assert_int_equal(o.nr[0], 937UL * 164 / 383);
}

static void test_history_fraction_before_5_8(void **state)
{
	struct wm_scan_in in = b61();
	struct wm_scan_out o;
	struct wm_diag d = { 0 };

	/* B6.4: 60 * 1001 / 901 = 66, 140 * 1001 / 101 = 1387, den 1454; file lists
	 * big enough (4000 / 4 = 1000) that 1000 scanned is not halved */
	in.lru[2] = 1000, in.lru[3] = 3000;
	in.recent_scanned[0] = 1000, in.recent_scanned[1] = 1000;
	in.recent_rotated[0] = 900, in.recent_rotated[1] = 100;
	assert_int_equal(wm_scan_count(WM_RULE_413, &in, 12, &o, &d), WM_OK);
	assert_int_equal(o.fraction[0], 66);
	assert_int_equal(o.fraction[1], 1387);
	assert_int_equal(o.denominator, 1454);
	/* 1001 > 4001 / 4: halved to 500 / 50: 140 * 501 / 51 = 1375 */
	in.recent_scanned[1] = 1001;
	assert_int_equal(wm_scan_count(WM_RULE_314, &in, 12, &o, &d), WM_OK);
	assert_int_equal(o.fraction[1], 140UL * 501 / 51);
}

static void test_protection_floor_of_32_comes_before_the_shift(void **state)
{
	struct wm_scan_in in = b61();
	struct wm_scan_out o;
	struct wm_diag d = { 0 };

	/* B6.4: 60000 - 60000 * 50000 / 123001 = 35610, >> 12 = 8, 8 * 60 / 200 = 2;
	 * file 1000 - 406 = 594 >> 12 = 0 */
	in.prot_min = 50000, in.usage = 123000;
	expect(WM_RULE_CURRENT, &in, 12, 2, 2, 0, 0, WM_SCAN_FRACT);
	/* a file list of 40: max(40 - 16, 32) = 32, >> 0 at priority 0 */
	in.lru[2] = 40;
	assert_int_equal(wm_scan_count(WM_RULE_CURRENT, &in, 0, &o, &d), WM_OK);
	assert_int_equal(o.nr[2], 32);
	/* at priority 0 the divisors differ: 5.8.18's usage gives
	 * 123000 - 50000 = 73000, usage + 1 gives 123000 - 49999 = 73001 */
	in.lru[0] = 123000;
	assert_int_equal(wm_scan_count(WM_RULE_58, &in, 0, &o, &d), WM_OK);
	assert_int_equal(o.nr[0], 123000 - 50000);
	assert_int_equal(wm_scan_count(WM_RULE_CURRENT, &in, 0, &o, &d), WM_OK);
	assert_int_equal(o.nr[0], 123000 - 123000UL * 50000 / 123001);
}

static void test_a_cgroup_at_or_below_its_protection_is_skipped(void **state)
{
	struct wm_scan_in in = b61();
	struct wm_scan_out o;
	struct wm_diag d = { 0 };
	int p;

	/* 6.12 shrink_node_memcgs(): emin >= usage is skipped, elow >= usage
	 * too unless memcg_low_reclaim; nothing of the lruvec is scanned */
	in.usage = 123000;
	in.prot_min = 123000;
	for (p = 12; p >= 0; p--) {
		assert_int_equal(wm_scan_count(WM_RULE_CURRENT, &in, p, &o, &d), WM_OK);
		assert_int_equal(o.nr[0] + o.nr[1] + o.nr[2] + o.nr[3], 0);
		assert_int_equal(o.why, WM_WHY_BELOW_MIN);
	}
	in.prot_min = 0;
	in.prot_low = 123001;
	assert_int_equal(wm_scan_count(WM_RULE_58, &in, 0, &o, &d), WM_OK);
	assert_int_equal(o.nr[0] + o.nr[1] + o.nr[2] + o.nr[3], 0);
	assert_int_equal(o.why, WM_WHY_BELOW_LOW);
	/* the low-reclaim pass: protection is memory.min, 0, so size - 0, and
	 * the floor of 32 still comes before the shift: 60000 >> 12 = 14,
	 * 14 * 60 / 200 = 4 (B6.1 unprotected) */
	in.memcg_low_reclaim = true;
	expect(WM_RULE_CURRENT, &in, 12, 4, 4, 0, 0, WM_SCAN_FRACT);
	/* 1 page above memory.low: scaled by low, 60000 - 60000 * 123001 / 123003
	 * = 1, max(1, 32) = 32 >> 12 = 0 */
	in.memcg_low_reclaim = false;
	in.usage = 123002;
	expect(WM_RULE_CURRENT, &in, 12, 0, 0, 0, 0, WM_SCAN_FRACT);
	/* the rules before 5.8 do not model protection: the lists as given */
	expect(WM_RULE_413, &in, 12, 14 * 60 / 201, 14 * 60 / 201, 0, 0, WM_SCAN_FRACT);
}

static void test_the_reclaim_targets_lists_decide_the_balance(void **state)
{
	struct wm_scan_in in = b61();

	/* B6.1's own lists: the fraction, [4,4,0,0] at priority 12 */
	expect(WM_RULE_CURRENT, &in, 12, 4, 4, 0, 0, WM_SCAN_FRACT);
	/* reclaim from a parent whose inactive file is not low and >> 12 is
	 * non-zero: cache trim mode (prepare_scan_control() reads the target
	 * lruvec), file only, of this cgroup's own file lists: 1000 >> 12 = 0 */
	in.have_target = true;
	in.target_lru[0] = 60000, in.target_lru[1] = 60000;
	in.target_lru[2] = 500000, in.target_lru[3] = 500000;
	expect(WM_RULE_CURRENT, &in, 12, 0, 0, 0, 0, WM_SCAN_FILE);
	expect(WM_RULE_CURRENT, &in, 9, 0, 0, 1000 >> 9, 2000 >> 9, WM_SCAN_FILE);
}

static void test_offline_cgroup_is_scraped_and_rounded_up(void **state)
{
	struct wm_scan_in in = b61();

	/* B6.4: 14 * 60 / 200 = 4.2 -> 5; file 0 -> 32, 32 * 140 / 200 = 22.4 -> 23 */
	in.offline = true;
	expect(WM_RULE_CURRENT, &in, 12, 5, 5, 23, 23, WM_SCAN_FRACT);
	/* 4.12 still floors */
	expect(WM_RULE_412, &in, 12, 4, 4, 22, 22, WM_SCAN_FRACT);
}

static void test_swappiness_zero_in_a_cgroup_scans_file_even_at_priority_0(void **state)
{
	struct wm_scan_in in = b61();
	struct wm_scan_out o;
	struct wm_diag d = { 0 };
	enum wm_scan_rule r;

	in.swappiness = 0;
	for (r = WM_RULE_314; r < WM_NR_RULES; r++)
		expect(r, &in, 0, 0, 0, 1000, 2000, WM_SCAN_FILE);
	/* global reclaim with swappiness 0: not SCAN_EQUAL, the fraction with ap 0 */
	in.memcg = false;
	in.node_file = 3000, in.free = 100000, in.high_sum = 1000;
	assert_int_equal(wm_scan_count(WM_RULE_CURRENT, &in, 0, &o, &d), WM_OK);
	assert_int_equal(o.balance, WM_SCAN_FRACT);
	assert_int_equal(o.nr[0], 0);
	assert_int_equal(o.nr[3], 2000);
}

static void test_no_swap_scans_file_only(void **state)
{
	struct wm_scan_in in = b61();

	in.swap = false;
	expect(WM_RULE_CURRENT, &in, 12, 0, 0, 0, 0, WM_SCAN_FILE);
	/* the old rule still forces the file lists */
	expect(WM_RULE_314, &in, 12, 0, 0, 32, 32, WM_SCAN_FILE);
	expect(WM_RULE_315, &in, 12, 0, 0, 32, 32, WM_SCAN_FILE);
}

static void test_plenty_of_inactive_file_is_file_only(void **state)
{
	struct wm_scan_in in = b61();

	/* 40000 inactive, 20000 active file: not low, 40000 >> 12 = 9 */
	in.lru[2] = 40000, in.lru[3] = 20000;
	expect(WM_RULE_CURRENT, &in, 12, 0, 0, 9, 4, WM_SCAN_FILE);
	expect(WM_RULE_315, &in, 12, 0, 0, 9, 4, WM_SCAN_FILE);
	/* inactive file not low: the active file list is not shrunk at all */
	{
		struct wm_scan_out o;
		struct wm_diag d = { 0 };

		assert_int_equal(wm_scan_count(WM_RULE_CURRENT, &in, 12, &o, &d), WM_OK);
		assert_false(o.deactivate[1]);
		in = b61();
		assert_int_equal(wm_scan_count(WM_RULE_CURRENT, &in, 12, &o, &d), WM_OK);
		assert_true(o.deactivate[1]);	/* 1000 < 2000 */
		assert_false(o.deactivate[0]);	/* 60000 < 60000 is false */
		in.lru[2] = 40000, in.lru[3] = 20000;
	}
	/* refaults deactivate (5.8+): no cache trim, the fraction */
	in.refault_file = true;
	expect(WM_RULE_CURRENT, &in, 12, 4, 4, 9 * 140 / 200, 4 * 140 / 200, WM_SCAN_FRACT);
}

static void test_swappiness_max_is_anon_only_and_only_today(void **state)
{
	struct wm_scan_in in = b61();
	struct wm_scan_out o;
	struct wm_diag d = { 0 };

	in.swappiness = 201;
	expect(WM_RULE_CURRENT, &in, 12, 14, 14, 0, 0, WM_SCAN_ANON);
	assert_int_equal(wm_scan_count(WM_RULE_58, &in, 12, &o, &d), WM_EINVAL);
	in.swappiness = 60;
	assert_int_equal(wm_scan_count(WM_RULE_58, &in, 13, &o, &d), WM_EINVAL);
}

static void test_rule_names_and_releases(void **state)
{
	enum wm_scan_rule r;

	assert_int_equal(wm_scan_rule_parse("3.15", &r), WM_OK);
	assert_int_equal(r, WM_RULE_315);
	assert_int_equal(wm_scan_rule_parse("3.1", &r), WM_EINVAL);
	assert_int_equal(wm_scan_rule_for(3, 14), WM_RULE_314);
	assert_int_equal(wm_scan_rule_for(4, 11), WM_RULE_315);
	assert_int_equal(wm_scan_rule_for(4, 12), WM_RULE_412);
	assert_int_equal(wm_scan_rule_for(4, 13), WM_RULE_413);
	assert_int_equal(wm_scan_rule_for(5, 7), WM_RULE_413);
	assert_int_equal(wm_scan_rule_for(5, 8), WM_RULE_58);
	assert_int_equal(wm_scan_rule_for(5, 9), WM_RULE_58);
	assert_int_equal(wm_scan_rule_for(5, 10), WM_RULE_CURRENT);
	assert_int_equal(wm_scan_rule_for(6, 12), WM_RULE_CURRENT);
	assert_int_equal(wm_scan_rule_for(7, 2), WM_RULE_CURRENT);
	assert_string_equal(wm_scan_rule_name(WM_RULE_CURRENT), "current");
}

static void test_targets_never_shrink_as_priority_drops(void **state)
{
	/* property: for a fixed balance, each list's target is monotone in priority */
	unsigned long sizes[] = { 0, 1, 31, 32, 4095, 4096, 60000, 1000000 };
	size_t a, f;
	enum wm_scan_rule r;
	int p;

	for (r = WM_RULE_412; r < WM_NR_RULES; r++)
		for (a = 0; a < 8; a++)
			for (f = 0; f < 8; f++) {
				struct wm_scan_in in = b61();
				unsigned long last[WM_NR_LRU] = { 0 };
				int l;

				in.lru[0] = in.lru[1] = sizes[a];
				in.lru[2] = sizes[f] / 2, in.lru[3] = sizes[f];
				for (p = 12; p >= 1; p--) {
					struct wm_scan_out o;
					struct wm_diag d = { 0 };

					assert_int_equal(wm_scan_count(r, &in, p, &o, &d), WM_OK);
					for (l = 0; l < WM_NR_LRU; l++) {
						assert_true(o.nr[l] >= last[l]);
						assert_true(o.nr[l] <= in.lru[l]);
						last[l] = o.nr[l];
					}
				}
			}
}

static void test_node_counts_come_from_the_per_node_block_and_managed_zones(void **state)
{
	/* 4.8+ layout: the per-node block under the first zone; a Movable zone
	 * with no managed pages keeps its high out of the sum; node 1 has
	 * pre-4.8 per-zone counters, summed */
	static const char text[] =
		"Node 0, zone      DMA\n"
		"  per-node stats\n"
		"      nr_inactive_anon 200000\n"
		"      nr_active_anon 100000\n"
		"      nr_inactive_file 3000\n"
		"      nr_active_file 2000\n"
		"      nr_inactive_anon_extra 7\n"
		"  pages free     1000\n"
		"        min      10\n"
		"        low      12\n"
		"        high     14\n"
		"        managed  3840\n"
		"      nr_zone_inactive_anon 5\n"
		"Node 0, zone   Normal\n"
		"  pages free     3000\n"
		"        high     8986\n"
		"        managed  500000\n"
		"Node 0, zone  Movable\n"
		"  pages free     0\n"
		"        high     32\n"
		"        managed  0\n"
		"Node 1, zone   Normal\n"
		"  pages free     50\n"
		"        high     40\n"
		"        managed  1000\n"
		"    nr_inactive_anon 11\n"
		"    nr_active_file 7\n"
		"Node 1, zone  HighMem\n"
		"  pages free     50\n"
		"        high     40\n"
		"        managed  1000\n"
		"    nr_inactive_anon 22\n"
		"    nr_active_file 8\n";
	struct zi_info zi;
	struct wm_diag d = { 0 };
	struct wm_scan_in in = { 0 };
	unsigned long high[5] = { 14, 20000, 32, 40, 40 };

	assert_int_equal(zi_parse(text, sizeof(text) - 1, &zi, &d), WM_OK);
	assert_true(wm_scan_node(&zi, 0, NULL, &in));
	assert_int_equal(in.lru[0], 200000);
	assert_int_equal(in.lru[1], 100000);
	assert_int_equal(in.lru[2], 3000);
	assert_int_equal(in.lru[3], 2000);
	assert_int_equal(in.node_file, 5000);
	assert_int_equal(in.free, 4000);
	/* B6.3's node: 14 + 8986 = 9000, Movable's 32 left out */
	assert_int_equal(in.high_sum, 9000);
	assert_int_equal(wm_anon_only_margin(in.node_file, in.free, in.high_sum), 0);
	/* a prediction's highs replace the printed ones */
	assert_true(wm_scan_node(&zi, 0, high, &in));
	assert_int_equal(in.high_sum, 20014);
	assert_true(wm_scan_node(&zi, 1, NULL, &in));
	assert_int_equal(in.lru[0], 33);
	assert_int_equal(in.lru[3], 15);
	assert_int_equal(in.high_sum, 80);
	assert_false(wm_scan_node(&zi, 2, NULL, &in));
	zi_free(&zi);
}

static void test_a_zoneinfo_without_lru_lines_has_no_node_counts(void **state)
{
	static const char text[] = "Node 0, zone   Normal\n  pages free 5\n        high 4\n";
	struct zi_info zi;
	struct wm_diag d = { 0 };
	struct wm_scan_in in = { 0 };

	assert_int_equal(zi_parse(text, sizeof(text) - 1, &zi, &d), WM_OK);
	assert_false(wm_scan_node(&zi, 0, NULL, &in));
	zi_free(&zi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_old_rule_forces_each_small_file_list_beside_big_anon),
		cmocka_unit_test(test_315_does_not_force_file_while_anon_scans),
		cmocka_unit_test(test_412_and_413_never_force_and_divide_by_201),
		cmocka_unit_test(test_today_divides_by_200_with_zero_costs),
		cmocka_unit_test(test_fraction_denominator_is_plus_one_only_before_5_8),
		cmocka_unit_test(test_every_list_small_forces_all_in_the_second_pass),
		cmocka_unit_test(test_second_pass_runs_when_every_share_rounds_to_zero),
		cmocka_unit_test(test_global_reclaim_scans_anon_only_when_file_plus_free_is_at_high),
		cmocka_unit_test(test_413_guard_keeps_fraction_when_inactive_anon_is_low),
		cmocka_unit_test(test_cost_fraction_matches_the_notes),
		cmocka_unit_test(test_history_fraction_before_5_8),
		cmocka_unit_test(test_protection_floor_of_32_comes_before_the_shift),
		cmocka_unit_test(test_a_cgroup_at_or_below_its_protection_is_skipped),
		cmocka_unit_test(test_the_reclaim_targets_lists_decide_the_balance),
		cmocka_unit_test(test_offline_cgroup_is_scraped_and_rounded_up),
		cmocka_unit_test(test_swappiness_zero_in_a_cgroup_scans_file_even_at_priority_0),
		cmocka_unit_test(test_no_swap_scans_file_only),
		cmocka_unit_test(test_plenty_of_inactive_file_is_file_only),
		cmocka_unit_test(test_swappiness_max_is_anon_only_and_only_today),
		cmocka_unit_test(test_rule_names_and_releases),
		cmocka_unit_test(test_targets_never_shrink_as_priority_drops),
		cmocka_unit_test(test_node_counts_come_from_the_per_node_block_and_managed_zones),
		cmocka_unit_test(test_a_zoneinfo_without_lru_lines_has_no_node_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
