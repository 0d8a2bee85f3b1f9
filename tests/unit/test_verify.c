// SPDX-License-Identifier: MIT
/*
 * test_verify.c - verify's judgement (calc/verify.c) on the Debian 6.1
 * qemu guest after its writes, and on that zoneinfo moved or bent: exact,
 * stale, mismatch, and what it cannot judge.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/verify.h"
#include "k61_after.h"

struct box {
	struct wm_state st;		/* zi, layout, m, sysctl, kernel, geo filled here */
	struct wm_verify_opts o;
	struct wm_verify v;
};

static void load(struct box *b, const char *text, const char *release)
{
	static const long lrr[] = { 64, 64, 16, 0, 0 };
	struct wm_kver k;

	memset(b, 0, sizeof(*b));
	assert_int_equal(zi_parse(text, strlen(text), &b->st.zi, NULL), WM_OK);
	assert_int_equal(wm_layout_from_zoneinfo(&b->st.zi, &b->st.layout, NULL), WM_OK);
	b->st.m = (struct wm_machine){ .zones = b->st.layout.zones, .nzones = b->st.layout.nzones,
				    .page_size = 4096, .pageblock_pages = 512 };
	wm_sysctl_none(&b->st.sysctl);
	b->st.sysctl.min_free_kbytes = K61_MFK;
	b->st.sysctl.wsf = K61_WSF;
	b->st.sysctl.boost_factor = 15000;
	memcpy(b->st.sysctl.lrr, lrr, sizeof(lrr));
	b->st.sysctl.nlrr = 5;
	b->st.sysctl.have = WM_HAVE_MFK | WM_HAVE_WSF | WM_HAVE_BOOST | WM_HAVE_LRR;
	if (release) {
		assert_int_equal(wm_kver_parse(release, &k, NULL), WM_OK);
		wm_profile_for(&k, &b->st.kernel.prof);
		b->st.kernel.known = true;
	}
	wm_geometry_settle(4096, 0, 0, 0, 0, &b->st.geo, NULL);
}

static int run(struct box *b)
{
	return wm_verify(&b->st, &b->o, &b->v, NULL);
}

static void unload(struct box *b)
{
	wm_verify_free(&b->v);
	wm_layout_free(&b->st.layout);
	zi_free(&b->st.zi);
}

static void test_the_guest_after_its_writes_is_exact(void **state)
{
	struct box b;
	size_t i;

	load(&b, K61_AFTER, "6.1.192");
	assert_int_equal(run(&b), WM_OK);
	assert_int_equal(b.v.verdict, WM_VERDICT_EXACT);
	assert_true(b.v.prot_known);
	for (i = 0; i < b.v.nzones; i++) {
		assert_false(b.v.bad_wm[i]);
		assert_false(b.v.bad_prot[i]);
	}
	assert_int_equal(b.v.w[1].low, 82855);
	unload(&b);
}

static void test_managed_pages_grown_since_the_recompute_are_stale(void **state)
{
	/* Normal grew by 300 pages after the kernel computed its numbers */
	static const char grown[] =
		K61_ZONE("     DMA", 3712, 0, 31, 415, 799, 3840, "(0, 11967, 15592, 15592, 15592)")
		K61_ZONE("   DMA32", 700000, 0, 6263, 82855, 159447, 765920, "(0, 0, 3625, 3625, 3625)")
		K61_ZONE("  Normal", 200000, 0, 1897, 25099, 48301, 232325, "(0, 0, 0, 0, 0)")
		K61_ZONE(" Movable", 0, 0, 0, 0, 0, 0, "(0, 0, 0, 0, 0)")
		K61_ZONE("  Device", 0, 0, 0, 0, 0, 0, "(0, 0, 0, 0, 0)");
	struct box b;

	load(&b, grown, "6.1.192");
	assert_int_equal(run(&b), WM_OK);
	assert_int_equal(b.v.verdict, WM_VERDICT_STALE);
	assert_true(b.v.bad_wm[2]);
	assert_true(b.v.moved > 0 && b.v.moved <= 300);
	assert_true(b.v.then[2] < 232325 && b.v.then[2] >= 232025);
	unload(&b);
}

static void test_a_low_watermark_one_page_off_is_a_mismatch(void **state)
{
	static const char off[] =
		K61_ZONE("     DMA", 3712, 0, 31, 415, 799, 3840, "(0, 11967, 15592, 15592, 15592)")
		K61_ZONE("   DMA32", 700000, 0, 6263, 82856, 159447, 765920, "(0, 0, 3625, 3625, 3625)")
		K61_ZONE("  Normal", 200000, 0, 1897, 25099, 48301, 232025, "(0, 0, 0, 0, 0)")
		K61_ZONE(" Movable", 0, 0, 0, 0, 0, 0, "(0, 0, 0, 0, 0)")
		K61_ZONE("  Device", 0, 0, 0, 0, 0, 0, "(0, 0, 0, 0, 0)");
	struct box b;
	int i, distance = 0;

	load(&b, off, "6.1.192");
	assert_int_equal(run(&b), WM_OK);
	assert_int_equal(b.v.verdict, WM_VERDICT_MISMATCH);
	assert_true(b.v.bad_wm[1]);
	assert_false(b.v.bad_wm[0]);
	for (i = 0; i < b.v.nnotes; i++)
		distance += b.v.notes[i].kind == WM_NOTE_DISTANCE;
	assert_int_equal(distance, 1);
	unload(&b);
}

static void test_a_printed_boost_is_taken_off_before_comparing(void **state)
{
	static const char boosted[] =
		K61_ZONE("     DMA", 3712, 0, 31, 415, 799, 3840, "(0, 11967, 15592, 15592, 15592)")
		K61_ZONE("   DMA32", 700000, 512, 6775, 83367, 159959, 765920, "(0, 0, 3625, 3625, 3625)")
		K61_ZONE("  Normal", 200000, 0, 1897, 25099, 48301, 232025, "(0, 0, 0, 0, 0)")
		K61_ZONE(" Movable", 0, 0, 0, 0, 0, 0, "(0, 0, 0, 0, 0)")
		K61_ZONE("  Device", 0, 0, 0, 0, 0, 0, "(0, 0, 0, 0, 0)");
	struct box b;

	load(&b, boosted, "6.1.192");
	assert_int_equal(run(&b), WM_OK);
	assert_int_equal(b.v.verdict, WM_VERDICT_EXACT);
	assert_int_equal(b.v.boost[1], 512);
	unload(&b);
}

static void test_an_unknown_kernel_is_judged_by_the_era_that_fits(void **state)
{
	struct box b;

	load(&b, K61_AFTER, NULL);
	assert_int_equal(run(&b), WM_OK);
	/* a boost line, no promo: 6.6, 5.16, 6.10 are tried; 6.6 caps the empty Movable */
	assert_int_equal(b.v.verdict, WM_VERDICT_EXACT);
	assert_string_equal(b.v.assumed, "5.16");
	assert_int_equal(b.v.notes[0].kind, WM_NOTE_ERA);
	unload(&b);
}

static void test_without_min_free_kbytes_it_cannot_judge_unless_it_infers(void **state)
{
	struct box b;

	load(&b, K61_AFTER, "6.1.192");
	b.st.sysctl.have &= ~(unsigned)WM_HAVE_MFK;
	assert_int_equal(run(&b), WM_OK);
	assert_int_equal(b.v.verdict, WM_VERDICT_CANNOT);
	assert_int_equal(b.v.cannot, WM_CANNOT_MFK);
	wm_verify_free(&b.v);
	b.o.infer = true;
	assert_int_equal(run(&b), WM_OK);
	assert_int_equal(b.v.verdict, WM_VERDICT_EXACT);
	assert_true(b.v.sc.min_free_kbytes >= 32768 && b.v.sc.min_free_kbytes < 32768 + 64);
	unload(&b);
}

static void test_a_given_wsf_the_kernel_refuses_is_an_error_not_a_verdict(void **state)
{
	struct box b;
	struct wm_diag d = { 0 };

	load(&b, K61_AFTER, "4.9.337");
	b.o.given.set = WM_HAVE_WSF;
	b.o.given.to.wsf = 2000;
	assert_int_equal(wm_verify(&b.st, &b.o, &b.v, &d), WM_EINVAL);
	assert_string_equal(d.msg, "watermark_scale_factor 2000 is out of range: kernel 4.9 accepts 1..1000");
	unload(&b);
}

static void test_a_machine_of_unknown_geometry_is_refused(void **state)
{
	struct box b;

	load(&b, K61_AFTER, "6.1.192");
	b.st.m.page_size = 0;
	assert_int_equal(run(&b), WM_EINVAL);
	b.st.m.page_size = 4096;
	b.st.m.pageblock_pages = 0;
	assert_int_equal(run(&b), WM_EINVAL);
	unload(&b);
}

static void test_an_assumed_page_size_is_noted(void **state)
{
	struct box b;
	int i, geo = 0;

	load(&b, K61_AFTER, "6.1.192");
	wm_geometry_assume(WM_ARCH_UNKNOWN, 4096, false, 0, 0, &b.st.geo, NULL);
	assert_int_equal(run(&b), WM_OK);
	for (i = 0; i < b.v.nnotes; i++)
		geo += b.v.notes[i].kind == WM_NOTE_GEOMETRY;
	assert_int_equal(geo, 1);
	unload(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_guest_after_its_writes_is_exact),
		cmocka_unit_test(test_managed_pages_grown_since_the_recompute_are_stale),
		cmocka_unit_test(test_a_low_watermark_one_page_off_is_a_mismatch),
		cmocka_unit_test(test_a_printed_boost_is_taken_off_before_comparing),
		cmocka_unit_test(test_an_unknown_kernel_is_judged_by_the_era_that_fits),
		cmocka_unit_test(test_without_min_free_kbytes_it_cannot_judge_unless_it_infers),
		cmocka_unit_test(test_a_given_wsf_the_kernel_refuses_is_an_error_not_a_verdict),
		cmocka_unit_test(test_a_machine_of_unknown_geometry_is_refused),
		cmocka_unit_test(test_an_assumed_page_size_is_noted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
