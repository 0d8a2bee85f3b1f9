// SPDX-License-Identifier: MIT
/*
 * test_kver.c - release strings, the version edges of docs/model.md
 * §8, the arithmetic primitives and the size parser.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/wmark.h"

static struct wm_profile prof(const char *s)
{
	struct wm_kver k;
	struct wm_profile p;

	assert_int_equal(wm_kver_parse(s, &k, NULL), WM_OK);
	wm_profile_for(&k, &p);
	return p;
}

static void test_debian_sublevel_comes_from_the_version_string_of_the_same_series(void **state)
{
	struct wm_kver k;

	(void)state;
	assert_int_equal(wm_kver_parse("5.10.0-43-cloud-amd64", &k, NULL), WM_OK);
	assert_false(wm_kver_debian_sublevel(NULL, &k));
	assert_false(wm_kver_debian_sublevel("#1 SMP PREEMPT_DYNAMIC", &k));
	/* another series: not ours to take */
	assert_false(wm_kver_debian_sublevel("#1 SMP Debian 6.1.76-1 (2024-02-01)", &k));
	assert_int_equal(k.sub, 0);
	assert_false(wm_kver_debian_sublevel("#1 SMP Debian 5.10 (x)", &k));
	assert_true(wm_kver_debian_sublevel("#1 SMP Debian 5.10.251-5 (2026-05-15)\n", &k));
	assert_int_equal(k.sub, 251);
	/* 5.10.186+ took the 3000 wsf ceiling: the sublevel decides the range */
	{
		struct wm_profile p;

		wm_profile_for(&k, &p);
		assert_int_equal(p.wsf_max, 3000);
	}
	/* a release that names its sublevel keeps it */
	assert_int_equal(wm_kver_parse("6.1.76", &k, NULL), WM_OK);
	assert_false(wm_kver_debian_sublevel("#1 SMP Debian 6.1.80-1", &k));
	assert_int_equal(k.sub, 76);
}

static void test_release_strings_of_phones_distros_and_vms_parse(void **state)
{
	struct wm_kver k;

	assert_int_equal(wm_kver_parse("4.9.337", &k, NULL), WM_OK);
	assert_int_equal(k.major, 4);
	assert_int_equal(k.minor, 9);
	assert_int_equal(k.sub, 337);
	assert_false(k.android);
	assert_int_equal(wm_kver_parse("5.10.186-android12-9-00001-g1", &k, NULL), WM_OK);
	assert_int_equal(k.sub, 186);
	assert_true(k.android);
	assert_int_equal(wm_kver_parse("6.1.0-18-amd64", &k, NULL), WM_OK);
	assert_int_equal(k.sub, 0);
	assert_int_equal(wm_kver_parse("6.12.117+deb12-amd64\n", &k, NULL), WM_OK);
	assert_int_equal(k.minor, 12);
	assert_int_equal(k.sub, 117);
	assert_int_equal(wm_kver_parse("6.18.44-fc-v595", &k, NULL), WM_OK);
	assert_int_equal(wm_kver_parse("6.8", &k, NULL), WM_OK);
	assert_int_equal(k.sub, 0);
	assert_int_equal(wm_kver_parse("2.6.16", &k, NULL), WM_OK);
}

static void test_garbage_release_strings_are_errors(void **state)
{
	struct wm_kver k;
	struct wm_diag d;

	assert_int_equal(wm_kver_parse("", &k, &d), WM_EPARSE);
	assert_int_equal(wm_kver_parse("linux", &k, &d), WM_EPARSE);
	assert_int_equal(wm_kver_parse("6", &k, &d), WM_EPARSE);
	assert_int_equal(wm_kver_parse("6.", &k, &d), WM_EPARSE);
	assert_int_equal(wm_kver_parse("1.2.3", &k, &d), WM_EPARSE);
	assert_int_equal(wm_kver_parse("99999999999.1", &k, &d), WM_EPARSE);
	assert_string_equal(d.key, "kernel");
}

static void test_wsf_max_is_3000_from_5_17_and_its_backports(void **state)
{
	assert_int_equal(prof("5.16.20").wsf_max, 1000);
	assert_int_equal(prof("5.17.0").wsf_max, 3000);
	assert_int_equal(prof("5.15.55").wsf_max, 1000);
	assert_int_equal(prof("5.15.58").wsf_max, 3000);
	assert_int_equal(prof("5.10.185").wsf_max, 1000);
	assert_int_equal(prof("5.10.186-android12").wsf_max, 3000);
	assert_int_equal(prof("5.4.286").wsf_max, 1000);
	assert_int_equal(prof("6.1.0").wsf_max, 3000);
}

static void test_lowmem_reserve_rule_follows_each_version_edge(void **state)
{
	assert_int_equal(prof("4.9.337").lrr_rule, WM_LRR_A);
	assert_int_equal(prof("4.16.13").lrr_rule, WM_LRR_A);
	assert_int_equal(prof("4.17.0").lrr_rule, WM_LRR_B);
	assert_int_equal(prof("5.4.286").lrr_rule, WM_LRR_B);
	assert_int_equal(prof("5.8.18").lrr_rule, WM_LRR_C);
	assert_int_equal(prof("5.10.49").lrr_rule, WM_LRR_C);
	assert_int_equal(prof("5.10.50").lrr_rule, WM_LRR_D);
	assert_int_equal(prof("5.11.0").lrr_rule, WM_LRR_D);
	assert_int_equal(prof("6.9.12").lrr_rule, WM_LRR_D);
	assert_int_equal(prof("6.10.0").lrr_rule, WM_LRR_E);
	assert_int_equal(prof("6.12.18").lrr_rule, WM_LRR_E);
	assert_int_equal(prof("6.12.19").lrr_rule, WM_LRR_D);
	assert_int_equal(prof("6.13.6").lrr_rule, WM_LRR_E);
	assert_int_equal(prof("6.13.7").lrr_rule, WM_LRR_D);
	assert_int_equal(prof("6.14.0").lrr_rule, WM_LRR_D);
	assert_int_equal(prof("6.18.44").lrr_rule, WM_LRR_D);
}

static void test_feature_edges_match_the_version_table(void **state)
{
	assert_false(prof("4.5.7").wsf);
	assert_true(prof("4.6.0").wsf);
	assert_false(prof("4.19.0").boost);
	assert_true(prof("5.0.1").boost);
	assert_true(prof("5.7.14").boost_reset_late);
	assert_false(prof("5.8.0").boost_reset_late);
	assert_true(prof("5.4.286").boost_reset_late);
	assert_false(prof("5.15.100").boost_printed);
	assert_true(prof("5.16.0").boost_printed);
	assert_false(prof("5.17.0").promo);
	assert_true(prof("5.18.12").promo);
	assert_false(prof("6.11.0").promo_printed);
	assert_true(prof("6.12.0").promo_printed);
	assert_false(prof("6.5.0").movable_capped);
	assert_true(prof("6.6.9").movable_capped);
	assert_false(prof("4.16.13").thp_lowmem_zones);
	assert_true(prof("4.17.0").thp_lowmem_zones);
	assert_false(prof("4.11.0").empty_zones_printed);
	assert_true(prof("4.12.0").empty_zones_printed);
	assert_true(prof("4.9.186-android").extra_free);
	assert_false(prof("5.10.186-android12").extra_free);
	assert_false(prof("4.9.186").extra_free);
	assert_true(prof("5.4.210-android11-2").extra_free);
}

static void test_default_lowmem_reserve_ratios_per_era(void **state)
{
	static const enum wm_zone_type x86[] = { WM_ZONE_DMA, WM_ZONE_DMA32,
		WM_ZONE_NORMAL, WM_ZONE_MOVABLE, WM_ZONE_DEVICE };
	static const enum wm_zone_type arm[] = { WM_ZONE_NORMAL,
		WM_ZONE_HIGHMEM, WM_ZONE_MOVABLE };
	struct wm_profile p = prof("6.1.0");
	struct wm_sysctl s;

	wm_sysctl_defaults(&p, 5, x86, &s);
	assert_int_equal(s.nlrr, 5);
	assert_int_equal(s.lrr[0], 256);
	assert_int_equal(s.lrr[1], 256);
	assert_int_equal(s.lrr[2], 32);
	assert_int_equal(s.lrr[3], 0);
	assert_int_equal(s.lrr[4], 0);
	assert_int_equal(s.wsf, 10);
	assert_int_equal(s.boost_factor, 15000);
	p = prof("4.9.0");
	wm_sysctl_defaults(&p, 5, x86, &s);
	assert_int_equal(s.nlrr, 4);
	assert_int_equal(s.lrr[2], 32);
	assert_int_equal(s.lrr[3], 0);
	assert_int_equal(s.boost_factor, -1);
	wm_sysctl_defaults(&p, 3, arm, &s);
	assert_int_equal(s.nlrr, 2);
	assert_int_equal(s.lrr[0], 32);		/* Normal */
	assert_int_equal(s.lrr[1], 32);		/* HighMem */
}

static void test_int_sqrt_is_the_exact_floor(void **state)
{
	uint64_t x, r;

	for (x = 0; x < 200000; x++) {
		r = wm_int_sqrt(x);
		assert_true(r * r <= x && (r + 1) * (r + 1) > x);
	}
	assert_int_equal(wm_int_sqrt(UINT64_MAX), 4294967295u);
	assert_int_equal(wm_int_sqrt((uint64_t)4294967295u * 4294967295u), 4294967295u);
	assert_int_equal(wm_int_sqrt((uint64_t)4294967295u * 4294967295u - 1), 4294967294u);
	for (x = 1; x < (1ull << 62); x = x * 3 + 7) {
		r = wm_int_sqrt(x);
		assert_true(r * r <= x && (r + 1) * (r + 1) > x);
	}
}

static void test_mult_frac_is_floor_without_overflow(void **state)
{
	uint64_t x, n;

	for (x = 0; x < 3000; x += 7)
		for (n = 0; n < 3001; n += 13)
			assert_int_equal(wm_mult_frac(x, n, 10000), x * n / 10000);
	/* x * n would overflow 64 bits; the result does not. */
	assert_int_equal(wm_mult_frac((uint64_t)1 << 60, 3000, 10000),
			 (((uint64_t)1 << 60) / 10000) * 3000 + (((uint64_t)1 << 60) % 10000) * 3000 / 10000);
}

static void test_sizes_take_binary_units_and_plain_bytes(void **state)
{
	uint64_t b;
	struct wm_diag d;

	assert_int_equal(wm_parse_size("8G", &b, NULL), WM_OK);
	assert_true(b == 8ull << 30);
	assert_int_equal(wm_parse_size("512M", &b, NULL), WM_OK);
	assert_true(b == 512ull << 20);
	assert_int_equal(wm_parse_size("4096k", &b, NULL), WM_OK);
	assert_true(b == 4096ull << 10);
	assert_int_equal(wm_parse_size("140GiB", &b, NULL), WM_OK);
	assert_true(b == 140ull << 30);
	assert_int_equal(wm_parse_size("1.5G", &b, NULL), WM_OK);
	assert_true(b == 3ull << 29);
	assert_int_equal(wm_parse_size("1073741824", &b, NULL), WM_OK);
	assert_true(b == 1ull << 30);
	assert_int_equal(wm_parse_size("2T", &b, NULL), WM_OK);
	assert_true(b == 2ull << 40);
	assert_int_equal(wm_parse_size("", &b, &d), WM_EPARSE);
	assert_int_equal(wm_parse_size("G", &b, &d), WM_EPARSE);
	assert_int_equal(wm_parse_size("8X", &b, &d), WM_EPARSE);
	assert_int_equal(wm_parse_size("8GG", &b, &d), WM_EPARSE);
	assert_int_equal(wm_parse_size("-1G", &b, &d), WM_EPARSE);
	assert_int_equal(wm_parse_size("1.5", &b, &d), WM_EPARSE);
	assert_int_equal(wm_parse_size("99999999999999999999", &b, &d), WM_ERANGE);
	assert_int_equal(wm_parse_size("99999999T", &b, &d), WM_ERANGE);
}

static void test_whole_numbers_are_checked_against_a_range(void **state)
{
	long v;

	assert_int_equal(wm_parse_long("120", 1, 3000, &v, NULL), WM_OK);
	assert_int_equal(v, 120);
	assert_int_equal(wm_parse_long(" 7\n", 1, 3000, &v, NULL), WM_OK);
	assert_int_equal(wm_parse_long("0", 1, 3000, &v, NULL), WM_ERANGE);
	assert_int_equal(wm_parse_long("3001", 1, 3000, &v, NULL), WM_ERANGE);
	assert_int_equal(wm_parse_long("12abc", 1, 3000, &v, NULL), WM_EPARSE);
	assert_int_equal(wm_parse_long("abc", 1, 3000, &v, NULL), WM_EPARSE);
	assert_int_equal(wm_parse_long("", 1, 3000, &v, NULL), WM_EPARSE);
	assert_int_equal(wm_parse_long("99999999999999999999", 0, 2147483647, &v, NULL), WM_ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian_sublevel_comes_from_the_version_string_of_the_same_series),
		cmocka_unit_test(test_release_strings_of_phones_distros_and_vms_parse),
		cmocka_unit_test(test_garbage_release_strings_are_errors),
		cmocka_unit_test(test_wsf_max_is_3000_from_5_17_and_its_backports),
		cmocka_unit_test(test_lowmem_reserve_rule_follows_each_version_edge),
		cmocka_unit_test(test_feature_edges_match_the_version_table),
		cmocka_unit_test(test_default_lowmem_reserve_ratios_per_era),
		cmocka_unit_test(test_int_sqrt_is_the_exact_floor),
		cmocka_unit_test(test_mult_frac_is_floor_without_overflow),
		cmocka_unit_test(test_sizes_take_binary_units_and_plain_bytes),
		cmocka_unit_test(test_whole_numbers_are_checked_against_a_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
