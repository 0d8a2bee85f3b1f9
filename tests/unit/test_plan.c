// SPDX-License-Identifier: MIT
/*
 * test_plan.c - wm_plan(): a change judged before it is written.  The
 * machine is the Debian 6.1 guest of k61_after.h (DMA 3840, DMA32 765920,
 * Normal 232025 managed pages; min 31 + 6263 + 1897 = 8191 pages at
 * min_free_kbytes 32768), built from texts by wm_state_build().  Every
 * expected number is worked out here from the kernel's rules
 * (__setup_per_zone_wmarks(), set_recommended_min_free_kbytes(), 6.1),
 * never read back from the model.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/plan.h"
#include "k61_after.h"

#define MANAGED (3840 + 765920 + 232025)

struct fix {
	struct wm_state s;
	struct wm_plan p;
};

static void build(struct fix *f, const char *release, const char *zoneinfo, const char *mfk,
		  const char *wsf, const char *thp)
{
	struct wm_texts t = { .need = WM_NEED_ZONEINFO, .assumed_page_size = 4096 };
	enum wm_text which;

	memset(f, 0, sizeof(*f));
	t.text[WM_TEXT_KERNEL] = (struct wm_text_buf){ release, strlen(release) };
	t.text[WM_TEXT_ZONEINFO] = (struct wm_text_buf){ zoneinfo, strlen(zoneinfo) };
	if (mfk)
		t.text[WM_TEXT_MFK] = (struct wm_text_buf){ mfk, strlen(mfk) };
	t.text[WM_TEXT_WSF] = (struct wm_text_buf){ wsf, strlen(wsf) };
	if (thp)
		t.text[WM_TEXT_THP] = (struct wm_text_buf){ thp, strlen(thp) };
	assert_int_equal(wm_state_build(&t, &f->s, &which, NULL), WM_OK);
}

static void k61(struct fix *f, const char *wsf, const char *thp)
{
	build(f, "6.1.0-27-amd64", K61_AFTER, "32768\n", wsf, thp);
}

static void done(struct fix *f)
{
	wm_plan_free(&f->p);
	wm_state_free(&f->s);
}

static struct wm_change knob(unsigned have, int64_t v)
{
	struct wm_change ch = { .set = have };

	wm_sysctl_none(&ch.to);
	if (have == WM_HAVE_MFK)
		ch.to.min_free_kbytes = v;
	else if (have == WM_HAVE_WSF)
		ch.to.wsf = v;
	else if (have == WM_HAVE_BOOST)
		ch.to.boost_factor = v;
	return ch;
}

static int has(const struct wm_plan *p, enum wm_plan_warn code)
{
	int i;

	for (i = 0; i < p->nwarn; i++)
		if (p->warn[i].code == code)
			return i;
	return -1;
}

static void test_a_wsf_change_is_safe_and_moves_no_min(void **state)
{
	struct fix f;
	struct wm_change ch = knob(WM_HAVE_WSF, 200);

	(void)state;
	k61(&f, "1000\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_true(f.p.modelled);
	assert_int_equal(f.p.after.wsf, 200);
	assert_true(f.p.recomputes & WM_RECOMPUTE_WMARKS);
	assert_int_equal(f.p.safety, WM_PLAN_SAFE);
	assert_int_equal(f.p.min_now, 31 + 6263 + 1897);
	assert_int_equal(f.p.min_after, 31 + 6263 + 1897);
	assert_int_equal(f.p.managed, MANAGED);
	assert_int_equal(f.p.free_pages, 3712 + 700000 + 200000);
	/* DMA32's gap at wsf 200: floor(765920 * 200 / 10000) */
	assert_int_equal(f.p.pred[1].wm.gap, 15318);
	assert_int_equal(f.p.now[1].wm.gap, 76592);
	assert_int_equal(f.p.nwarn, 0);
	done(&f);
}

static void test_min_past_a_tenth_of_memory_is_unsafe(void **state)
{
	struct fix f;
	/* 409600 KiB = 102400 pages, shared by managed: 392 + 78290 + 23717 */
	struct wm_change ch = knob(WM_HAVE_MFK, 409600);

	(void)state;
	k61(&f, "1000\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_int_equal(f.p.min_after, 392 + 78290 + 23717);
	assert_true(f.p.min_after * 100 > (uint64_t)MANAGED * WM_PLAN_SAFE_MIN_PCT);
	assert_int_equal(f.p.safety, WM_PLAN_MIN_SHARE);
	done(&f);
	/* 380000 KiB = 95000 pages: within a tenth, and far below the free pages */
	ch = knob(WM_HAVE_MFK, 380000);
	k61(&f, "1000\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_int_equal(f.p.safety, WM_PLAN_SAFE);
	done(&f);
}

static void test_min_past_the_free_pages_is_unsafe(void **state)
{
	static const char low_free[] =
		K61_ZONE("     DMA", 300, 0, 31, 415, 799, 3840, "(0, 11967, 15592, 15592, 15592)")
		K61_ZONE("   DMA32", 20000, 0, 6263, 82855, 159447, 765920, "(0, 0, 3625, 3625, 3625)")
		K61_ZONE("  Normal", 7000, 0, 1897, 25099, 48301, 232025, "(0, 0, 0, 0, 0)");
	struct fix f;
	/* 131072 KiB = 32768 pages: 125 + 25052 + 7589, above 27300 free, below a tenth */
	struct wm_change ch = knob(WM_HAVE_MFK, 131072);

	(void)state;
	build(&f, "6.1.0-27-amd64", low_free, "32768\n", "1000\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_int_equal(f.p.free_pages, 27300);
	assert_int_equal(f.p.min_after, 125 + 25052 + 7589);
	assert_int_equal(f.p.safety, WM_PLAN_MIN_FREE);
	done(&f);
	/* a smaller min stays safe however little is free */
	ch = knob(WM_HAVE_MFK, 16384);
	build(&f, "6.1.0-27-amd64", low_free, "32768\n", "1000\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_int_equal(f.p.safety, WM_PLAN_SAFE);
	done(&f);
}

static void test_thp_on_khugepaged_sets_a_small_mfk_back(void **state)
{
	struct fix f;
	struct wm_change ch = knob(WM_HAVE_MFK, 1024);
	int i;

	(void)state;
	k61(&f, "1000\n", "always [madvise] never\n");
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_true((i = has(&f.p, WM_PLAN_WARN_THP_MFK)) >= 0);
	/* 3 zones up to Normal, 512-page pageblocks: 512 * 3 * (2 + 3 * 3) pages, in KiB */
	assert_int_equal(f.p.warn[i].a, 512 * 3 * 11 * 4);
	assert_int_equal(f.p.warn[i].b, 1);	/* 6.1 >= 5.9: memory hotplug too */
	/* hotplug's sqrt rule keeps 1024 KiB neither */
	assert_true((i = has(&f.p, WM_PLAN_WARN_HOTPLUG_MFK)) >= 0);
	/* int_sqrt(lowmem_kbytes * 16), lowmem under 3.9 GiB: about 7.9 MiB */
	assert_in_range(f.p.warn[i].a, 7800, 8010);
	assert_int_equal(f.p.warn[i].b, 0);	/* THP is on */
	done(&f);
	/* --refresh writes today's value again: nothing to warn of */
	{
		struct wm_plan_opts o = { .refresh = true };

		k61(&f, "1000\n", "always [madvise] never\n");
		assert_int_equal(wm_plan(&f.s, &ch, &o, &f.p, NULL), WM_OK);
		assert_int_equal(f.p.nwarn, 0);
		done(&f);
	}
}

static void test_thp_off_a_mode_change_recomputes_too(void **state)
{
	struct fix f;
	struct wm_change ch = knob(WM_HAVE_MFK, 1024);
	int i;

	(void)state;
	k61(&f, "1000\n", "always madvise [never]\n");
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_int_equal(has(&f.p, WM_PLAN_WARN_THP_MFK), -1);
	assert_true((i = has(&f.p, WM_PLAN_WARN_HOTPLUG_MFK)) >= 0);
	assert_int_equal(f.p.warn[i].b, 1);	/* 5.16+: THP off recomputes on a mode change */
	done(&f);
	/* a value above both rules: no warning */
	ch = knob(WM_HAVE_MFK, 90000);
	k61(&f, "1000\n", "always [madvise] never\n");
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_int_equal(f.p.nwarn, 0);
	done(&f);
}

static void test_android_init_rewrites_wsf(void **state)
{
	struct fix f;
	struct wm_change ch = knob(WM_HAVE_WSF, 200);
	struct wm_plan_opts o = { .android_init = true };

	(void)state;
	build(&f, "5.10.198-android12-9-00001-g0123456789ab", K61_AFTER, "32768\n", "1000\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_true(has(&f.p, WM_PLAN_WARN_ANDROID_WSF) >= 0);
	done(&f);
	/* a plain kernel: only when the root has the script */
	k61(&f, "1000\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_int_equal(has(&f.p, WM_PLAN_WARN_ANDROID_WSF), -1);
	wm_plan_free(&f.p);
	assert_int_equal(wm_plan(&f.s, &ch, &o, &f.p, NULL), WM_OK);
	assert_true(has(&f.p, WM_PLAN_WARN_ANDROID_WSF) >= 0);
	done(&f);
}

static void test_a_wsf_below_every_floor_moves_no_gap(void **state)
{
	struct fix f;
	struct wm_change ch = knob(WM_HAVE_WSF, 5);
	int i;

	(void)state;
	/*
	 * From wsf 10 to 5: every gap is a quarter of its min (7, 1565,
	 * 474).  The smallest wsf past them: floor(managed * w / 10000) >
	 * min / 4 first at w = 21 in each zone (DMA 8 > 7, DMA32 1608 >
	 * 1565, Normal 487 > 474).
	 */
	k61(&f, "10\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_true((i = has(&f.p, WM_PLAN_WARN_WSF_FLOORED)) >= 0);
	assert_int_equal(f.p.warn[i].a, 5);
	assert_int_equal(f.p.warn[i].b, 21);
	done(&f);
	/* 10 to 21 moves them: no warning */
	ch = knob(WM_HAVE_WSF, 21);
	k61(&f, "10\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_int_equal(f.p.nwarn, 0);
	done(&f);
}

static void test_a_wsf_step_too_small_for_a_page_moves_no_gap(void **state)
{
	/* one 5000-page zone, min 32 pages: floor at wsf 18, gap 50 at 100 and at 101 */
	static const char small[] =
		K61_ZONE("  Normal", 4000, 0, 32, 82, 132, 5000, "(0, 0, 0, 0, 0)");
	struct fix f;
	struct wm_change ch = knob(WM_HAVE_WSF, 101);
	size_t z, i;

	(void)state;
	build(&f, "6.1.0-27-amd64", small, "128\n", "100\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	for (z = 0; z < f.s.m.nzones && f.s.m.zones[z].managed != 5000; z++)
		;
	assert_true(z < f.s.m.nzones);
	assert_int_equal(f.p.pred[z].wm.gap, 50);
	assert_int_equal(f.p.now[z].wm.gap, 50);
	assert_int_equal(has(&f.p, WM_PLAN_WARN_WSF_FLOORED), -1);
	assert_true(has(&f.p, WM_PLAN_WARN_WSF_NO_GAP) >= 0);
	i = (size_t)has(&f.p, WM_PLAN_WARN_WSF_NO_GAP);
	assert_int_equal(f.p.warn[i].a, 101);
	done(&f);
}

static void test_boost_alone_moves_nothing_now(void **state)
{
	struct fix f;
	struct wm_change ch = knob(WM_HAVE_BOOST, 0);

	(void)state;
	k61(&f, "1000\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_int_equal(f.p.recomputes & WM_RECOMPUTE_WMARKS, 0);
	assert_int_equal(f.p.nwarn, 1);
	assert_int_equal(f.p.warn[0].code, WM_PLAN_WARN_BOOST_FUTURE);
	/* nothing recomputes: the zones stay as printed */
	assert_int_equal(f.p.pred[1].wm.high, 159447);
	done(&f);
}

static void test_a_value_the_kernel_refuses_fails_at_the_change(void **state)
{
	struct fix f;
	struct wm_change ch = knob(WM_HAVE_WSF, 3001);	/* 6.1 accepts 1..3000 */
	struct wm_diag d = { 0 };

	(void)state;
	k61(&f, "1000\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, &d), WM_EINVAL);
	assert_int_equal(f.p.stage, WM_PLAN_AT_CHANGE);
	assert_string_equal(d.key, "watermark_scale_factor");
	assert_false(f.p.modelled);
	done(&f);
}

static void test_nothing_to_model_from(void **state)
{
	static const char headers[] = "Node 0, zone   Normal\n  pages free     100\n";
	struct fix f;
	struct wm_change ch = knob(WM_HAVE_WSF, 200);
	struct wm_diag d = { 0 };

	(void)state;
	/* min_free_kbytes unknown: no prediction, no verdict, no warning */
	build(&f, "6.1.0-27-amd64", K61_AFTER, NULL, "1000\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, NULL), WM_OK);
	assert_false(f.p.modelled);
	assert_int_equal(f.p.safety, WM_PLAN_SAFE);
	assert_int_equal(f.p.nwarn, 0);
	done(&f);
	/* zone headers without a managed or present line */
	build(&f, "6.1.0-27-amd64", headers, "32768\n", "1000\n", NULL);
	assert_int_equal(wm_plan(&f.s, &ch, NULL, &f.p, &d), WM_ENODATA);
	assert_int_equal(f.p.stage, WM_PLAN_AT_MODEL);
	assert_non_null(strstr(d.msg, "no managed pages"));
	done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_wsf_change_is_safe_and_moves_no_min),
		cmocka_unit_test(test_min_past_a_tenth_of_memory_is_unsafe),
		cmocka_unit_test(test_min_past_the_free_pages_is_unsafe),
		cmocka_unit_test(test_thp_on_khugepaged_sets_a_small_mfk_back),
		cmocka_unit_test(test_thp_off_a_mode_change_recomputes_too),
		cmocka_unit_test(test_android_init_rewrites_wsf),
		cmocka_unit_test(test_a_wsf_below_every_floor_moves_no_gap),
		cmocka_unit_test(test_a_wsf_step_too_small_for_a_page_moves_no_gap),
		cmocka_unit_test(test_boost_alone_moves_nothing_now),
		cmocka_unit_test(test_a_value_the_kernel_refuses_fails_at_the_change),
		cmocka_unit_test(test_nothing_to_model_from),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
