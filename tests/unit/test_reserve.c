// SPDX-License-Identifier: MIT
/*
 * test_reserve.c - totalreserve_pages and MemAvailable (calc/reserve.c)
 * worked by hand from calculate_totalreserve_pages() and
 * si_mem_available() (mm/page_alloc.c, mm/show_mem.c of 6.x).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/reserve.h"
#include "k61_after.h"

static void test_totalreserve_is_largest_protection_plus_high_capped_at_managed(void **state)
{
	/* the k61 guest after its writes: DMA 799 + 15592 > 3840 managed */
	struct wm_reserve_zone z[3] = {
		{ .managed = 3840, .high = 799, .protection = { 0, 11967, 15592, 15592, 15592 } },
		{ .managed = 765920, .high = 159447, .protection = { 0, 0, 3625, 3625, 3625 } },
		{ .managed = 232025, .high = 48301 },
	};

	assert_int_equal(wm_totalreserve(z, 3), 3840 + (159447 + 3625) + 48301);
	assert_int_equal(wm_totalreserve(z, 0), 0);
}

static void test_mem_available_takes_low_from_the_cache_and_reclaimable(void **state)
{
	struct wm_meminfo mi = { .known = true, .free_kb = 4000000, .file_kb = 800000,
				 .reclaimable_kb = 40000 };

	/*
	 * pages: free 1000000, cache 200000, reclaimable 10000; low 50000:
	 * 1000000 - 30000 + 200000 - min(100000, 50000) + 10000 - min(5000, 50000)
	 */
	assert_int_equal(wm_mem_available(&mi, 4096, 30000, 50000), 1125000);
	/* never below 0 */
	assert_int_equal(wm_mem_available(&mi, 4096, 5000000, 50000), 0);
	/* 16 KiB pages: a quarter of the pages */
	assert_int_equal(wm_mem_available(&mi, 16384, 0, 0), 250000 + 50000 + 2500);
}

static void test_meminfo_prefers_kreclaimable_and_the_hugetlb_total(void **state)
{
	static const char text[] = "MemTotal:  4010988 kB\nMemFree:   3000000 kB\n"
		"Active(file):  100000 kB\nInactive(file): 200000 kB\nSReclaimable: 30000 kB\n"
		"KReclaimable: 45000 kB\nHugePages_Total: 10\nHugepagesize: 2048 kB\n"
		"Hugetlb: 1048576 kB\n";
	struct pf_kv kv;
	struct wm_meminfo mi;

	assert_int_equal(pf_parse_meminfo(text, sizeof(text) - 1, &kv, NULL), WM_OK);
	wm_meminfo_from(&kv, &mi);
	assert_true(mi.known);
	assert_int_equal(mi.file_kb, 300000);
	assert_int_equal(mi.reclaimable_kb, 45000);
	assert_true(mi.hugetlb_known);
	assert_int_equal(mi.hugetlb_kb, 1048576);	/* every size, not 10 x 2048 */
	pf_kv_free(&kv);
}

static void test_meminfo_without_the_file_lrus_is_not_known(void **state)
{
	static const char text[] = "MemTotal: 100 kB\nMemFree: 50 kB\n";
	struct pf_kv kv;
	struct wm_meminfo mi;

	assert_int_equal(pf_parse_meminfo(text, sizeof(text) - 1, &kv, NULL), WM_OK);
	wm_meminfo_from(&kv, &mi);
	assert_false(mi.known);
	assert_false(mi.hugetlb_known);
	pf_kv_free(&kv);
}

static void test_a_change_moves_the_reserve_by_its_high_watermarks(void **state)
{
	static const char text[] = K61_AFTER;
	struct zi_info zi;
	struct wm_layout l;
	struct wm_machine m;
	struct wm_predicted after[5];
	struct wm_meminfo mi = { .known = true, .free_kb = 3600000, .file_kb = 0,
				 .reclaimable_kb = 0 };
	struct wm_reserve r;
	size_t i;

	assert_int_equal(zi_parse(text, sizeof(text) - 1, &zi, NULL), WM_OK);
	assert_int_equal(wm_layout_from_zoneinfo(&zi, &l, NULL), WM_OK);
	m = (struct wm_machine){ .zones = l.zones, .nzones = l.nzones, .page_size = 4096 };
	/* after: every high 100 pages lower, a 50-page boost on DMA32, no protection */
	memset(after, 0, sizeof(after));
	after[0].wm.high = 699;
	after[1].wm.high = 159297;
	after[1].boost = 50;
	after[2].wm.high = 48201;
	for (i = 0; i < 3; i++)
		after[i].wm.low = 10;
	wm_reserve_change(&(struct wm_state){ .zi = zi, .layout = l, .m = m }, after, &mi, &r);
	assert_int_equal(r.total_now, 3840 + 163072 + 48301);
	assert_int_equal(r.total_after, 699 + 159347 + 48201);
	assert_int_equal(r.low_now, 415 + 82855 + 25099);
	assert_int_equal(r.low_after, 10 + 60 + 10);
	assert_true(r.have_meminfo);
	assert_int_equal(r.avail_after - r.avail_now, (long)r.total_now - (long)r.total_after);
	assert_int_equal(r.hugetlb_kb, -1);
	wm_layout_free(&l);
	zi_free(&zi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_totalreserve_is_largest_protection_plus_high_capped_at_managed),
		cmocka_unit_test(test_mem_available_takes_low_from_the_cache_and_reclaimable),
		cmocka_unit_test(test_meminfo_prefers_kreclaimable_and_the_hugetlb_total),
		cmocka_unit_test(test_meminfo_without_the_file_lrus_is_not_known),
		cmocka_unit_test(test_a_change_moves_the_reserve_by_its_high_watermarks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
