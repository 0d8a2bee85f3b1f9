// SPDX-License-Identifier: MIT
/*
 * test_knob.c - the table of watermark sysctls (calc/knob.c): every row
 * names its knob, bit and field, a write recomputes what the kernel's
 * handler recomputes, and the kernels that have a knob are the versions
 * that brought it.  The facts are the kernel's (mm/page_alloc.c's
 * handlers; watermark_scale_factor since 4.6, boost since 5.0,
 * extra_free_kbytes in Android kernels before 5.10), not the table's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/change.h"
#include "../../calc/knob.h"

static void test_every_knob_has_a_row_of_its_own(void **state)
{
	unsigned seen = 0;
	int k;

	(void)state;
	for (k = 0; k < WM_NKNOBS; k++) {
		const struct wm_knob_def *d = wm_knob_def((enum wm_knob)k);
		enum wm_knob back;
		char key[64];

		assert_non_null(d);
		assert_int_equal(d->knob, k);
		assert_non_null(d->name);
		/* one bit each, no two rows the same */
		assert_int_equal(__builtin_popcount(d->have), 1);
		assert_int_equal(seen & d->have, 0);
		seen |= d->have;
		assert_int_equal(wm_knob_have((enum wm_knob)k), d->have);
		/* the key sysctl(8) takes comes back to the row */
		strcpy(key, "vm.");
		strcat(key, d->name);
		assert_int_equal(sc_key_parse(key, &back), WM_OK);
		assert_int_equal(back, k);
		assert_string_equal(wm_knob_name((enum wm_knob)k), d->name);
	}
	assert_null(wm_knob_def(WM_NKNOBS));
	assert_string_equal(wm_knob_name(WM_NKNOBS), "?");
}

static void test_the_rows_point_at_their_fields(void **state)
{
	struct wm_sysctl s;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.min_free_kbytes = 11;
	s.wsf = 22;
	s.boost_factor = 33;
	s.extra_free_kbytes = 44;
	assert_int_equal(*wm_knob_value(&s, WM_KNOB_MFK), 11);
	assert_int_equal(*wm_knob_value(&s, WM_KNOB_WSF), 22);
	assert_int_equal(*wm_knob_value(&s, WM_KNOB_BOOST), 33);
	assert_int_equal(*wm_knob_value(&s, WM_KNOB_EXTRA), 44);
	assert_null(wm_knob_value(&s, WM_KNOB_LRR));
	assert_int_equal(wm_knob_def(WM_KNOB_MFK)->have, WM_HAVE_MFK);
	assert_int_equal(wm_knob_def(WM_KNOB_WSF)->have, WM_HAVE_WSF);
	assert_int_equal(wm_knob_def(WM_KNOB_BOOST)->have, WM_HAVE_BOOST);
	assert_int_equal(wm_knob_def(WM_KNOB_EXTRA)->have, WM_HAVE_EXTRA);
	assert_int_equal(wm_knob_def(WM_KNOB_LRR)->have, WM_HAVE_LRR);
}

static void test_a_write_recomputes_what_its_handler_does(void **state)
{
	(void)state;
	/* min_free_kbytes, wsf, extra_free_kbytes: setup_per_zone_wmarks() */
	assert_int_equal(wm_change_recomputes(WM_HAVE_MFK), WM_RECOMPUTE_WMARKS);
	assert_int_equal(wm_change_recomputes(WM_HAVE_WSF), WM_RECOMPUTE_WMARKS);
	assert_int_equal(wm_change_recomputes(WM_HAVE_EXTRA), WM_RECOMPUTE_WMARKS);
	/* lowmem_reserve_ratio: setup_per_zone_lowmem_reserve() */
	assert_int_equal(wm_change_recomputes(WM_HAVE_LRR), WM_RECOMPUTE_PROT);
	/* watermark_boost_factor: a plain int, nothing now */
	assert_int_equal(wm_change_recomputes(WM_HAVE_BOOST), 0);
	assert_int_equal(wm_change_recomputes(WM_HAVE_BOOST | WM_HAVE_LRR | WM_HAVE_WSF),
			 WM_RECOMPUTE_WMARKS | WM_RECOMPUTE_PROT);
	assert_int_equal(wm_change_recomputes(0), 0);
}

static int exists(const char *release, enum wm_knob k, struct wm_diag *d)
{
	struct wm_profile p;
	struct wm_kver v;

	assert_int_equal(wm_kver_parse(release, &v, NULL), WM_OK);
	wm_profile_for(&v, &p);
	memset(d, 0, sizeof(*d));
	return wm_knob_exists(&p, k, d);
}

static void test_the_kernels_that_have_a_knob(void **state)
{
	struct wm_diag d;

	(void)state;
	assert_int_equal(exists("4.5.0", WM_KNOB_WSF, &d), WM_EINVAL);
	assert_string_equal(d.msg, "kernel 4.5 has no watermark_scale_factor (4.6+)");
	assert_string_equal(d.key, "watermark_scale_factor");
	assert_int_equal(exists("4.6.0", WM_KNOB_WSF, &d), WM_OK);
	assert_int_equal(exists("4.19.0", WM_KNOB_BOOST, &d), WM_EINVAL);
	assert_string_equal(d.msg, "kernel 4.19 has no watermark boost (5.0+)");
	assert_int_equal(exists("5.0.0", WM_KNOB_BOOST, &d), WM_OK);
	assert_int_equal(exists("4.19.191-android", WM_KNOB_EXTRA, &d), WM_OK);
	assert_int_equal(exists("5.10.0", WM_KNOB_EXTRA, &d), WM_EINVAL);
	assert_string_equal(d.msg,
			    "kernel 5.10 has no extra_free_kbytes (Android kernels before 5.10)");
	/* every kernel modelled has these */
	assert_int_equal(exists("4.6.0", WM_KNOB_MFK, &d), WM_OK);
	assert_int_equal(exists("4.6.0", WM_KNOB_LRR, &d), WM_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_knob_has_a_row_of_its_own),
		cmocka_unit_test(test_the_rows_point_at_their_fields),
		cmocka_unit_test(test_a_write_recomputes_what_its_handler_does),
		cmocka_unit_test(test_the_kernels_that_have_a_knob),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
