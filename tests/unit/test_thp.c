// SPDX-License-Identifier: MIT
/*
 * test_thp.c - which THP controls make khugepaged raise min_free_kbytes,
 * per kernel: the global control before 6.11, the PMD size's control on
 * 6.11 to 6.x (6.12's hugepage_pmd_enabled()), any anon size's from 7.0
 * (7.2's hugepage_enabled(), docs/model.md §11.4).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../calc/wmark.h"

static enum wm_thp decide(const char *release, enum wm_thp global, enum wm_thp_size pmd,
			  unsigned other_on)
{
	struct wm_thp_controls c = { .global = global, .pmd = pmd, .other_on = other_on };
	struct wm_profile p;
	struct wm_kver k;

	assert_int_equal(wm_kver_parse(release, &k, NULL), WM_OK);
	wm_profile_for(&k, &p);
	return wm_thp_for_mfk(&p, &c);
}

static void test_before_6_11_only_the_global_control_counts(void **state)
{
	(void)state;
	assert_int_equal(decide("6.1.0-57-amd64", WM_THP_NEVER, WM_THP_SIZE_ALWAYS, 3),
			 WM_THP_NEVER);
	assert_int_equal(decide("6.1.0-57-amd64", WM_THP_MADVISE, WM_THP_SIZE_NEVER, 0),
			 WM_THP_MADVISE);
}

static void test_on_6_12_the_pmd_size_decides(void **state)
{
	(void)state;
	/* global never, 2 MiB always: khugepaged runs */
	assert_int_equal(decide("6.12.117+deb13-amd64", WM_THP_NEVER, WM_THP_SIZE_ALWAYS, 0),
			 WM_THP_MADVISE);
	/* global madvise, 2 MiB never: it does not */
	assert_int_equal(decide("6.12.117+deb13-amd64", WM_THP_MADVISE, WM_THP_SIZE_NEVER, 0),
			 WM_THP_NEVER);
	/* inherit follows the global control */
	assert_int_equal(decide("6.12.117+deb13-amd64", WM_THP_ALWAYS, WM_THP_SIZE_INHERIT, 0),
			 WM_THP_ALWAYS);
	assert_int_equal(decide("6.12.117+deb13-amd64", WM_THP_NEVER, WM_THP_SIZE_INHERIT, 0),
			 WM_THP_NEVER);
	/* a smaller size on does not start khugepaged on 6.12 */
	assert_int_equal(decide("6.12.117+deb13-amd64", WM_THP_NEVER, WM_THP_SIZE_NEVER, 2),
			 WM_THP_NEVER);
}

static void test_from_7_0_any_anon_size_starts_khugepaged(void **state)
{
	(void)state;
	/* transparent_hugepage=never with 64 KiB mTHP at always */
	assert_int_equal(decide("7.2.13+deb14-amd64", WM_THP_NEVER, WM_THP_SIZE_INHERIT, 1),
			 WM_THP_MADVISE);
	assert_int_equal(decide("7.2.13+deb14-amd64", WM_THP_NEVER, WM_THP_SIZE_INHERIT, 0),
			 WM_THP_NEVER);
	/* the global control on is enough, whatever the PMD size says */
	assert_int_equal(decide("7.2.13+deb14-arm64-16k", WM_THP_MADVISE, WM_THP_SIZE_NEVER, 0),
			 WM_THP_MADVISE);
	assert_int_equal(decide("7.2.13+deb14-amd64", WM_THP_NEVER, WM_THP_SIZE_MADVISE, 0),
			 WM_THP_MADVISE);
}

static void test_no_thp_file_is_no_thp_support(void **state)
{
	(void)state;
	assert_int_equal(decide("7.2.13+deb14-amd64", WM_THP_UNSUPPORTED, WM_THP_SIZE_ALWAYS, 1),
			 WM_THP_UNSUPPORTED);
	/* no per-size files (before 6.8, or a capture without them) */
	assert_int_equal(decide("6.12.117+deb13-amd64", WM_THP_NEVER, WM_THP_SIZE_ABSENT, 0),
			 WM_THP_NEVER);
}

static bool matter(const char *release, enum wm_thp global, enum wm_thp_size pmd,
		   unsigned other_on, bool pmd_read)
{
	struct wm_thp_controls c = { .global = global, .pmd = pmd, .other_on = other_on };
	struct wm_profile p;
	struct wm_kver k;

	assert_int_equal(wm_kver_parse(release, &k, NULL), WM_OK);
	wm_profile_for(&k, &p);
	return wm_thp_sizes_matter(&p, &c, pmd_read);
}

/* Reading the per-size controls stops where the answer above cannot move. */
static void test_per_size_controls_are_read_only_while_they_matter(void **state)
{
	(void)state;
	/* before 6.11: none */
	assert_false(matter("6.1.0-57-amd64", WM_THP_NEVER, WM_THP_SIZE_ABSENT, 0, false));
	/* 6.12: the PMD size's, then no more */
	assert_true(matter("6.12.117+deb13-amd64", WM_THP_NEVER, WM_THP_SIZE_ABSENT, 0, false));
	assert_false(matter("6.12.117+deb13-amd64", WM_THP_NEVER, WM_THP_SIZE_NEVER, 0, true));
	/* 7.2: the others while the global and the PMD size's are off */
	assert_true(matter("7.2.13+deb14-amd64", WM_THP_NEVER, WM_THP_SIZE_NEVER, 0, true));
	assert_true(matter("7.2.13+deb14-amd64", WM_THP_NEVER, WM_THP_SIZE_INHERIT, 0, true));
	assert_false(matter("7.2.13+deb14-amd64", WM_THP_MADVISE, WM_THP_SIZE_NEVER, 0, true));
	assert_false(matter("7.2.13+deb14-amd64", WM_THP_NEVER, WM_THP_SIZE_ALWAYS, 0, true));
	assert_false(matter("7.2.13+deb14-amd64", WM_THP_NEVER, WM_THP_SIZE_NEVER, 1, true));
	/* no THP at all */
	assert_false(matter("7.2.13+deb14-amd64", WM_THP_UNSUPPORTED, WM_THP_SIZE_ABSENT, 0,
			    false));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_before_6_11_only_the_global_control_counts),
		cmocka_unit_test(test_on_6_12_the_pmd_size_decides),
		cmocka_unit_test(test_from_7_0_any_anon_size_starts_khugepaged),
		cmocka_unit_test(test_no_thp_file_is_no_thp_support),
		cmocka_unit_test(test_per_size_controls_are_read_only_while_they_matter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
