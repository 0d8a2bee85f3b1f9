// SPDX-License-Identifier: MIT
/*
 * test_protection.c - the five lowmem_reserve rules of docs/model.md
 * §4, worked by hand on one node with an empty zone between two
 * populated ones and a populated zone whose ratio is 0.
 *
 * Node: DMA 1000, DMA32 0 (empty), Normal 8000, Movable 4000, Device 0;
 * ratios 256 256 32 0 0.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/wmark.h"

static struct wm_zone_wm w[5];

static void run(const char *release)
{
	static const enum wm_zone_type t[] = { WM_ZONE_DMA, WM_ZONE_DMA32,
		WM_ZONE_NORMAL, WM_ZONE_MOVABLE, WM_ZONE_DEVICE };
	static const unsigned long managed[] = { 1000, 0, 8000, 4000, 0 };
	struct wm_zone z[5];
	struct wm_machine m = { .zones = z, .nzones = 5, .page_size = 4096 };
	struct wm_sysctl s = { .nlrr = 5, .lrr = { 256, 256, 32, 0, 0 } };
	struct wm_kver k;
	struct wm_profile p;
	int i;

	for (i = 0; i < 5; i++)
		z[i] = (struct wm_zone){ .idx = i, .type = t[i], .managed = managed[i],
					 .present = managed[i] };
	assert_int_equal(wm_kver_parse(release, &k, NULL), WM_OK);
	wm_profile_for(&k, &p);
	assert_int_equal(wm_protection(&p, &m, &s, w, NULL), WM_OK);
}

#define ROW(z, a, b, c, d, e) do {					\
	const long want[5] = { a, b, c, d, e };				\
	assert_memory_equal(w[z].protection, want, sizeof(want));	\
} while (0)

static void test_rule_b_sums_every_zone_and_fills_empty_lower_zones(void **state)
{
	run("5.4.286");
	ROW(0, 0, 0, 31, 46, 46);
	ROW(1, 0, 0, 31, 46, 46);	/* the empty DMA32 still gets values */
	ROW(2, 0, 0, 0, 125, 125);
	ROW(3, 0, 0, 0, 0, 0);
}

static void test_rule_c_skips_ratio_zero_and_empty_zones_in_its_sums(void **state)
{
	run("5.10.49");
	/* Movable (ratio 0) is missing from the Device column below it. */
	ROW(0, 0, 0, 31, 46, 31);
	ROW(1, 0, 0, 0, 0, 0);
	ROW(2, 0, 0, 0, 125, 0);
}

static void test_rule_d_clears_empty_or_ratio_zero_lower_zones_only(void **state)
{
	run("6.18.44");
	ROW(0, 0, 0, 31, 46, 46);
	ROW(1, 0, 0, 0, 0, 0);
	ROW(2, 0, 0, 0, 125, 125);
	ROW(3, 0, 0, 0, 0, 0);
	ROW(4, 0, 0, 0, 0, 0);
	run("5.10.50");
	ROW(0, 0, 0, 31, 46, 46);
}

static void test_rule_e_also_zeroes_columns_of_empty_upper_zones(void **state)
{
	run("6.10.0");
	ROW(0, 0, 0, 31, 46, 0);
	ROW(2, 0, 0, 0, 125, 0);
	run("6.12.18");
	ROW(0, 0, 0, 31, 46, 0);
	run("6.12.19");	/* the revert reached 6.12.y */
	ROW(0, 0, 0, 31, 46, 46);
}

static void test_rule_a_forces_a_zero_ratio_to_one(void **state)
{
	/* 32-bit: Normal 1000, HighMem 5000, Movable 3000; ratios 32 0. */
	static const enum wm_zone_type t[] = { WM_ZONE_NORMAL, WM_ZONE_HIGHMEM,
		WM_ZONE_MOVABLE };
	struct wm_zone z[3];
	struct wm_machine m = { .zones = z, .nzones = 3, .page_size = 4096 };
	struct wm_sysctl s = { .nlrr = 2, .lrr = { 32, 0 } };
	struct wm_kver k;
	struct wm_profile p;
	const unsigned long managed[] = { 1000, 5000, 3000 };
	int i;

	for (i = 0; i < 3; i++)
		z[i] = (struct wm_zone){ .idx = i, .type = t[i], .managed = managed[i] };
	assert_int_equal(wm_kver_parse("4.9.0", &k, NULL), WM_OK);
	wm_profile_for(&k, &p);
	assert_int_equal(wm_protection(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[0].protection[1], 5000 / 32);
	assert_int_equal(w[0].protection[2], 8000 / 32);
	assert_int_equal(w[1].protection[2], 3000);	/* ratio 0 -> 1 */
	assert_int_equal(wm_kver_parse("4.19.0", &k, NULL), WM_OK);
	wm_profile_for(&k, &p);
	assert_int_equal(wm_protection(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[1].protection[2], 0);	/* rule B: no reserve */
}

static void test_zones_out_of_index_order_are_refused(void **state)
{
	struct wm_zone z[2] = {
		{ .idx = 1, .type = WM_ZONE_NORMAL, .managed = 10 },
		{ .idx = 0, .type = WM_ZONE_DMA, .managed = 10 },
	};
	struct wm_machine m = { .zones = z, .nzones = 2, .page_size = 4096 };
	struct wm_sysctl s = { .nlrr = 2, .lrr = { 256, 32 } };
	struct wm_profile p;
	struct wm_diag d;

	wm_profile_default(&p);
	assert_int_equal(wm_protection(&p, &m, &s, w, &d), WM_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_b_sums_every_zone_and_fills_empty_lower_zones),
		cmocka_unit_test(test_rule_c_skips_ratio_zero_and_empty_zones_in_its_sums),
		cmocka_unit_test(test_rule_d_clears_empty_or_ratio_zero_lower_zones_only),
		cmocka_unit_test(test_rule_e_also_zeroes_columns_of_empty_upper_zones),
		cmocka_unit_test(test_rule_a_forces_a_zero_ratio_to_one),
		cmocka_unit_test(test_zones_out_of_index_order_are_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
