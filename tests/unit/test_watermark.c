// SPDX-License-Identifier: MIT
/*
 * test_watermark.c - the watermark model against numbers real kernels
 * printed (docs/model.md §9, the qemu captures) and the worked
 * examples of the 2018 RFC and of the 4.6 commit (§7, §3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/wmark.h"

#define MiB_PAGES(p) ((unsigned long)(p) * 4096ul >> 20)	/* truncated, as quoted */
#define GiB_PAGES(g) ((unsigned long)(g) << 18)

static void profile(const char *release, struct wm_profile *p)
{
	struct wm_kver k;

	assert_int_equal(wm_kver_parse(release, &k, NULL), WM_OK);
	wm_profile_for(&k, p);
}

static void machine(struct wm_machine *m, struct wm_zone *z, size_t n)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->zones = z;
	m->nzones = n;
	m->page_size = 4096;
	m->pageblock_pages = 512;
	for (i = 0; i < n; i++)
		if (!z[i].present)
			z[i].present = z[i].managed;
}

static void sysctl(struct wm_sysctl *s, long mfk, long wsf)
{
	static const long lrr[] = { 256, 256, 32, 0, 0 };

	memset(s, 0, sizeof(*s));
	s->min_free_kbytes = mfk;
	s->wsf = wsf;
	s->boost_factor = 15000;
	s->extra_free_kbytes = -1;
	memcpy(s->lrr, lrr, sizeof(lrr));
	s->nlrr = 5;
}

/* One Normal zone of the given size, boot min_free_kbytes of 4.9, no THP. */
static void rfc_zone(unsigned long managed, long wsf, struct wm_zone_wm *out)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z = { .type = WM_ZONE_NORMAL, .managed = managed };
	struct wm_sysctl s;
	struct wm_mfk mfk;

	profile("4.9.337", &p);
	machine(&m, &z, 1);
	sysctl(&s, 0, wsf);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_UNSUPPORTED, &mfk, NULL), WM_OK);
	s.min_free_kbytes = mfk.value;
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, out, NULL), WM_OK);
}

static void test_a_machine_without_a_page_size_is_an_error_not_4096(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z = { .type = WM_ZONE_NORMAL, .managed = 1048576 };
	struct wm_zone_wm out;
	struct wm_sysctl s;
	struct wm_mfk mfk;
	struct wm_diag d = { 0 };

	profile("6.12.117", &p);
	machine(&m, &z, 1);
	sysctl(&s, 65536, 10);
	m.page_size = 0;
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, &out, &d), WM_EINVAL);
	assert_string_equal(d.key, "page_size");
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_ALWAYS, &mfk, NULL), WM_EINVAL);
	/* THP's rule counts pageblocks: without one it is an error too */
	m.page_size = 4096;
	m.pageblock_pages = 0;
	memset(&d, 0, sizeof(d));
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_ALWAYS, &mfk, &d), WM_EINVAL);
	assert_string_equal(d.key, "pageblock");
	/* the sqrt rule alone needs none */
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_UNSUPPORTED, &mfk, NULL), WM_OK);
}

static void test_rfc_64g_gap_shrinks_65M_to_53M_at_wsf_10(void **state)
{
	struct wm_zone_wm w;

	rfc_zone(GiB_PAGES(64), 10, &w);
	assert_int_equal(w.min, 8192);		/* mfk 32768 */
	assert_int_equal(w.gap, 16777);
	assert_int_equal(w.gap_sqrt, 13743);
	assert_int_equal(MiB_PAGES(w.gap), 65);
	assert_int_equal(MiB_PAGES(w.gap_sqrt), 53);
}

static void test_rfc_64g_gap_shrinks_786M_to_644M_at_wsf_120(void **state)
{
	struct wm_zone_wm w;

	rfc_zone(GiB_PAGES(64), 120, &w);
	assert_int_equal(w.gap, 201326);
	assert_int_equal(w.gap_sqrt, 164926);
	assert_int_equal(MiB_PAGES(w.gap), 786);
	assert_int_equal(MiB_PAGES(w.gap_sqrt), 644);
	assert_int_equal(w.high_sqrt, w.low + 164926);
}

static void test_rfc_4g_gap_shrinks_49M_to_10M_at_wsf_120(void **state)
{
	struct wm_zone_wm w;

	rfc_zone(GiB_PAGES(4), 120, &w);
	assert_int_equal(w.min, 2048);		/* mfk 8192 */
	assert_int_equal(w.gap, 12582);
	assert_int_equal(w.gap_sqrt, 2576);
	assert_int_equal(MiB_PAGES(w.gap), 49);
	assert_int_equal(MiB_PAGES(w.gap_sqrt), 10);
}

static void test_rfc_4g_at_wsf_10_is_clamped_up_to_quarter_min(void **state)
{
	struct wm_zone_wm w;

	/* 1048*2048/10000 = 214 is below min/4 = 512: the RFC's "2M". */
	rfc_zone(GiB_PAGES(4), 10, &w);
	assert_int_equal(w.gap, 1048);
	assert_int_equal(w.gap_sqrt, 512);
}

static void test_rfc_140g_is_unchanged(void **state)
{
	struct wm_zone_wm w;

	rfc_zone(GiB_PAGES(140), 10, &w);
	assert_int_equal(w.min, 12116);		/* mfk 48464 */
	assert_int_equal(w.gap, 36700);
	assert_int_equal(w.gap_sqrt, 36700);
	assert_int_equal(MiB_PAGES(w.gap), 143);
	rfc_zone(GiB_PAGES(140), 120, &w);
	assert_int_equal(w.gap, 440401);
	assert_int_equal(w.gap_sqrt, 440401);
}

static void test_rfc_patch_table_rows_match(void **state)
{
	/* [PATCH] 2018-03-15, wsf 10, managed size -> default -> RFC gap. */
	static const struct { unsigned mib; unsigned long def, rfc; } rows[] = {
		{ 1024, 262, 256 }, { 2048, 524, 362 }, { 4096, 1048, 512 },
		{ 8192, 2097, 724 }, { 16384, 4194, 1717 }, { 32768, 8388, 4858 },
		{ 65536, 16777, 13743 }, { 102400, 26214, 26214 },
		{ 143360, 36700, 36700 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct wm_zone_wm w;

		rfc_zone((unsigned long)rows[i].mib << 8, 10, &w);
		assert_int_equal(w.gap, rows[i].def);
		assert_int_equal(w.gap_sqrt, rows[i].rfc);
	}
}

static void test_commit_4_6_140g_gap_goes_from_16M_to_143M(void **state)
{
	struct wm_profile before, after;
	struct wm_machine m;
	struct wm_zone z = { .type = WM_ZONE_NORMAL, .managed = GiB_PAGES(140) };
	struct wm_sysctl s;
	struct wm_zone_wm w;

	profile("4.5.7", &before);
	profile("4.6.0", &after);
	assert_false(before.wsf);
	assert_true(after.wsf);
	machine(&m, &z, 1);
	sysctl(&s, 67584, 10);
	assert_int_equal(wm_setup_wmarks(&before, &m, &s, &w, NULL), WM_OK);
	assert_int_equal(w.low - w.min, 4224);
	assert_int_equal(MiB_PAGES(w.low - w.min), 16);
	assert_int_equal(wm_setup_wmarks(&after, &m, &s, &w, NULL), WM_OK);
	assert_int_equal(w.low - w.min, 36700);
	assert_int_equal(MiB_PAGES(w.low - w.min), 143);
}

/* The 6.18 VM of docs/model.md §9. */
static void vm618(struct wm_zone *z, unsigned long normal)
{
	static const enum wm_zone_type t[] = { WM_ZONE_DMA, WM_ZONE_DMA32,
		WM_ZONE_NORMAL, WM_ZONE_MOVABLE, WM_ZONE_DEVICE };
	const unsigned long managed[] = { 3840, 772918, normal, 0, 0 };
	int i;

	for (i = 0; i < 5; i++) {
		memset(&z[i], 0, sizeof(z[i]));
		z[i].idx = i;
		z[i].type = t[i];
		z[i].managed = managed[i];
		z[i].present = managed[i];
	}
}

static void assert_wm(const struct wm_zone_wm *w, unsigned long min,
		      unsigned long low, unsigned long high, unsigned long promo)
{
	assert_int_equal(w->min, min);
	assert_int_equal(w->low, low);
	assert_int_equal(w->high, high);
	assert_int_equal(w->promo, promo);
}

static void assert_prot(const struct wm_zone_wm *w, long a, long b, long c,
			long d, long e)
{
	assert_int_equal(w->protection[0], a);
	assert_int_equal(w->protection[1], b);
	assert_int_equal(w->protection[2], c);
	assert_int_equal(w->protection[3], d);
	assert_int_equal(w->protection[4], e);
}

static void test_vm_6_18_snapshot_a_matches_zoneinfo(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[5];
	struct wm_sysctl s;
	struct wm_zone_wm w[5];

	profile("6.18.44-fc-v595", &p);
	vm618(z, 163840);
	machine(&m, z, 5);
	sysctl(&s, 67584, 10);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(wm_protection(&p, &m, &s, w, NULL), WM_OK);
	assert_wm(&w[0], 68, 85, 102, 119);
	assert_wm(&w[1], 13883, 17353, 20823, 24293);
	assert_wm(&w[2], 2943, 3678, 4413, 5148);
	assert_wm(&w[3], 32, 32, 32, 32);
	assert_wm(&w[4], 0, 0, 0, 0);
	assert_prot(&w[0], 0, 3019, 3659, 3659, 3659);
	assert_prot(&w[1], 0, 0, 640, 640, 640);
	assert_prot(&w[2], 0, 0, 0, 0, 0);
	assert_prot(&w[3], 0, 0, 0, 0, 0);
	assert_prot(&w[4], 0, 0, 0, 0, 0);
}

static void test_vm_6_18_snapshot_b_matches_zoneinfo(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[5];
	struct wm_sysctl s;
	struct wm_zone_wm w[5];

	profile("6.18.44-fc-v595", &p);
	vm618(z, 1376256);
	machine(&m, z, 5);
	sysctl(&s, 67584, 10);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(wm_protection(&p, &m, &s, w, NULL), WM_OK);
	assert_wm(&w[0], 30, 37, 44, 51);
	assert_wm(&w[1], 6065, 7581, 9097, 10613);
	assert_wm(&w[2], 10800, 13500, 16200, 18900);
	assert_wm(&w[3], 32, 32, 32, 32);
	assert_wm(&w[4], 0, 0, 0, 0);
	assert_prot(&w[0], 0, 3019, 8395, 8395, 8395);
	assert_prot(&w[1], 0, 0, 5376, 5376, 5376);
}

static void test_vm_6_18_boot_min_free_kbytes_is_thp_recommendation(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[5];
	struct wm_sysctl s;
	struct wm_mfk mfk;

	profile("6.18.44", &p);
	vm618(z, 163840);
	machine(&m, z, 5);
	sysctl(&s, 0, 10);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_MADVISE, &mfk, NULL), WM_OK);
	assert_int_equal(mfk.value, 67584);
	assert_int_equal(mfk.rule, WM_MFK_THP);
	assert_int_equal(mfk.sqrt_kb, 7758);
	assert_int_equal(mfk.thp_zones, 3);

	vm618(z, 1376256);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_ALWAYS, &mfk, NULL), WM_OK);
	assert_int_equal(mfk.value, 67584);
	assert_int_equal(mfk.sqrt_kb, 11738);
}

static void test_thp_never_on_5_16_plus_takes_the_second_sqrt_pass(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[5];
	struct wm_sysctl s;
	struct wm_mfk mfk;

	profile("6.18.44", &p);
	vm618(z, 163840);
	machine(&m, z, 5);
	sysctl(&s, 0, 10);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_NEVER, &mfk, NULL), WM_OK);
	assert_int_equal(mfk.value, 7743);
	assert_int_equal(mfk.rule, WM_MFK_SQRT_RERUN);

	/* 5.15 leaves the first pass in place. */
	profile("5.15.100", &p);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_NEVER, &mfk, NULL), WM_OK);
	assert_int_equal(mfk.value, 7758);
	assert_int_equal(mfk.rule, WM_MFK_SQRT);
}

static void test_thp_counts_two_nodes_normal_zones_as_four(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[4] = {
		{ .node = 0, .idx = 0, .type = WM_ZONE_DMA, .managed = 3840 },
		{ .node = 0, .idx = 1, .type = WM_ZONE_DMA32, .managed = 700000 },
		{ .node = 0, .idx = 2, .type = WM_ZONE_NORMAL, .managed = 1000000 },
		{ .node = 1, .idx = 2, .type = WM_ZONE_NORMAL, .managed = 2000000 },
	};
	struct wm_sysctl s;
	struct wm_mfk mfk;

	profile("6.1.0-18-amd64", &p);
	machine(&m, z, 4);
	sysctl(&s, 0, 10);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_ALWAYS, &mfk, NULL), WM_OK);
	assert_int_equal(mfk.value, 90112);
}

static void test_thp_is_skipped_below_512_mib(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z = { .type = WM_ZONE_NORMAL, .managed = (256u << 20) >> 12 };
	struct wm_sysctl s;
	struct wm_mfk mfk;

	profile("6.12.117+deb12-amd64", &p);
	machine(&m, &z, 1);
	sysctl(&s, 0, 10);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_ALWAYS, &mfk, NULL), WM_OK);
	assert_int_equal(mfk.rule, WM_MFK_SQRT);
	assert_int_equal(mfk.value, 2048);	/* isqrt(262144 KiB * 16) */
}

static void test_sqrt_rule_clamp_moved_from_65536_to_262144_at_5_7(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z = { .type = WM_ZONE_NORMAL, .managed = GiB_PAGES(2048) };
	struct wm_sysctl s;
	struct wm_mfk mfk;

	machine(&m, &z, 1);
	sysctl(&s, 0, 10);
	profile("5.6.4", &p);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_UNSUPPORTED, &mfk, NULL), WM_OK);
	assert_int_equal(mfk.value, 65536);
	assert_int_equal(mfk.sqrt_raw_kb, 185363);	/* isqrt(2 TiB in KiB * 16) */
	profile("5.7.14", &p);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_UNSUPPORTED, &mfk, NULL), WM_OK);
	assert_int_equal(mfk.value, 185363);
	profile("5.4.286", &p);
	assert_int_equal(p.mfk_clamp_max, 65536);
}

static void test_kernel_comment_table_8192mb_is_11585_not_11584(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z = { .type = WM_ZONE_NORMAL, .managed = GiB_PAGES(8) };
	struct wm_sysctl s;
	struct wm_mfk mfk;

	profile("6.1.0", &p);
	machine(&m, &z, 1);
	sysctl(&s, 0, 10);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_UNSUPPORTED, &mfk, NULL), WM_OK);
	assert_int_equal(mfk.value, 11585);
}

/* qemu-k61-4g: Debian 6.1 under qemu, after wsf 1000, mfk 32768, lrr 64 64 16 0 0. */
static void test_debian_6_1_4g_after_writes_matches_zoneinfo(void **state)
{
	static const enum wm_zone_type t[] = { WM_ZONE_DMA, WM_ZONE_DMA32,
		WM_ZONE_NORMAL, WM_ZONE_MOVABLE, WM_ZONE_DEVICE };
	static const unsigned long managed[] = { 3840, 765920, 232025, 0, 0 };
	static const long lrr[] = { 64, 64, 16, 0, 0 };
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[5];
	struct wm_sysctl s;
	struct wm_zone_wm w[5];
	int i;

	for (i = 0; i < 5; i++)
		z[i] = (struct wm_zone){ .idx = i, .type = t[i], .managed = managed[i] };
	profile("6.1.0-57-amd64", &p);
	machine(&m, z, 5);
	sysctl(&s, 32768, 1000);
	memcpy(s.lrr, lrr, sizeof(lrr));
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(wm_protection(&p, &m, &s, w, NULL), WM_OK);
	/* 6.1 has promo but does not print it. */
	assert_wm(&w[0], 31, 415, 799, 1183);
	assert_int_equal(w[1].min, 6263);
	assert_int_equal(w[1].low, 82855);
	assert_int_equal(w[1].high, 159447);
	assert_int_equal(w[2].min, 1897);
	assert_int_equal(w[2].low, 25099);
	assert_int_equal(w[2].high, 48301);
	assert_wm(&w[3], 0, 0, 0, 0);	/* 6.1: Movable not capped yet */
	assert_prot(&w[0], 0, 11967, 15592, 15592, 15592);
	assert_prot(&w[1], 0, 0, 3625, 3625, 3625);
	assert_prot(&w[2], 0, 0, 0, 0, 0);
}

static void test_gap_is_floored_at_quarter_of_min_share(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[5];
	struct wm_sysctl s;
	struct wm_zone_wm w[5];
	long wsf;

	profile("6.18.44", &p);
	vm618(z, 163840);
	machine(&m, z, 5);
	/* DMA32: prop 13883, prop/4 = 3470; 772918*w/10000 > 3470 from w = 45. */
	sysctl(&s, 67584, 10);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[1].wsf_floor, 45);
	assert_int_equal(w[1].wsf_effective, 44);
	for (wsf = 1; wsf < 45; wsf++) {
		s.wsf = wsf;
		assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
		assert_int_equal(w[1].gap, 3470);
	}
	s.wsf = 45;
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[1].gap, 3478);
}

static void test_highmem_gap_uses_the_share_not_the_clamped_min(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[2] = {
		{ .idx = 0, .type = WM_ZONE_NORMAL, .managed = 190000 },
		{ .idx = 1, .type = WM_ZONE_HIGHMEM, .managed = 60000 },
	};
	struct wm_sysctl s;
	struct wm_zone_wm w[2];

	profile("4.9.0", &p);
	machine(&m, z, 2);
	sysctl(&s, 4000, 10);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	/* pages_min 1000; lowmem excludes HighMem: share = 1000*60000/190000 = 315 */
	assert_int_equal(w[0].min, 1000);
	assert_int_equal(w[1].prop, 315);
	assert_int_equal(w[1].min, 58);		/* 60000/1024 */
	assert_int_equal(w[1].low, 58 + 78);	/* max(315/4, 60) */
}

static void test_movable_is_proportional_before_6_6_and_capped_after(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[2] = {
		{ .idx = 0, .type = WM_ZONE_NORMAL, .managed = 786432 },
		{ .idx = 1, .type = WM_ZONE_MOVABLE, .managed = 262144 },
	};
	struct wm_sysctl s;
	struct wm_zone_wm w[2];

	machine(&m, z, 2);
	sysctl(&s, 16384, 10);
	profile("6.5.0", &p);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[0].min, 3072);	/* 4096 * 3/4 */
	assert_int_equal(w[1].min, 1024);
	profile("6.6.9", &p);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[0].min, 4096);
	assert_int_equal(w[1].min, 128);	/* clamp(256, 32, 128) */
	/* share 4096*262144/786432 = 1365: the gap still floors at 1365/4 */
	assert_int_equal(w[1].prop, 1365);
	assert_int_equal(w[1].gap, 341);
}

/*
 * Before 6.6, __setup_per_zone_wmarks() caps min for every zone
 * is_highmem() accepts, and is_highmem_idx() accepts ZONE_MOVABLE when
 * movable_zone is ZONE_HIGHMEM: when HighMem has pages (5.10 and 6.1
 * mm/page_alloc.c, include/linux/mmzone.h).  The zones are a 3 GiB i386
 * PAE guest's shape: DMA, Normal, HighMem and an empty Movable.
 */
static void test_empty_movable_is_capped_before_6_6_where_highmem_has_pages(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[4] = {
		{ .idx = 0, .type = WM_ZONE_DMA, .managed = 3973 },
		{ .idx = 1, .type = WM_ZONE_NORMAL, .managed = 185000 },
		{ .idx = 2, .type = WM_ZONE_HIGHMEM, .managed = 560000 },
		{ .idx = 3, .type = WM_ZONE_MOVABLE, .managed = 0 },
	};
	struct wm_sysctl s;
	struct wm_zone_wm w[4];

	(void)state;
	machine(&m, z, 4);
	sysctl(&s, 8192, 10);
	profile("6.1.0-40-686-pae", &p);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	/* clamp(0 / 1024, 32, 128); share 0 and 0 * wsf: no gap */
	assert_wm(&w[3], 32, 32, 32, 32);
	/* lowmem is DMA + Normal: pages_min 2048 * 3973 / 188973 = 43 */
	assert_int_equal(w[0].min, 43);
	assert_int_equal(w[1].min, 2004);
	assert_int_equal(w[2].min, 128);	/* clamp(546, 32, 128) */
	profile("5.10.0-30-686-pae", &p);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_wm(&w[3], 32, 32, 32, 0);	/* no promo before 5.18 */
	profile("4.9.0", &p);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[3].min, 32);
	assert_int_equal(w[3].low, 32);
	assert_int_equal(w[3].high, 32);
}

static void test_populated_movable_is_capped_and_left_out_of_lowmem_with_highmem(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[4] = {
		{ .idx = 0, .type = WM_ZONE_DMA, .managed = 3973 },
		{ .idx = 1, .type = WM_ZONE_NORMAL, .managed = 185000 },
		{ .idx = 2, .type = WM_ZONE_HIGHMEM, .managed = 300000 },
		{ .idx = 3, .type = WM_ZONE_MOVABLE, .managed = 262144 },
	};
	struct wm_sysctl s;
	struct wm_zone_wm w[4];

	(void)state;
	machine(&m, z, 4);
	sysctl(&s, 8192, 10);
	profile("6.1.0-40-686-pae", &p);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	/* Movable is not in lowmem_pages: Normal keeps 2048 * 185000 / 188973 */
	assert_int_equal(w[1].min, 2004);
	assert_int_equal(w[3].min, 128);	/* clamp(256, 32, 128) */
	/* share 2048 * 262144 / 188973 = 2840, gap max(710, 262) */
	assert_int_equal(w[3].prop, 2840);
	assert_int_equal(w[3].gap, 710);
	assert_int_equal(w[3].low, 128 + 710);
}

/*
 * With HighMem configured but empty, movable_zone is Normal: from 5.14 to
 * 6.5 Movable is then lowmem.  Before 5.14 a one-node kernel compared
 * zone indexes instead (5.10's zone_movable_is_highmem()): highmem all
 * the same; a kernel built for several nodes went by movable_zone.
 */
static void test_movable_with_empty_highmem_is_lowmem_from_5_14_highmem_before(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[8] = {
		{ .idx = 0, .type = WM_ZONE_DMA, .managed = 3973 },
		{ .idx = 1, .type = WM_ZONE_NORMAL, .managed = 120000 },
		{ .idx = 2, .type = WM_ZONE_HIGHMEM, .managed = 0 },
		{ .idx = 3, .type = WM_ZONE_MOVABLE, .managed = 60000 },
		{ .node = 1, .idx = 0, .type = WM_ZONE_DMA, .managed = 0 },
		{ .node = 1, .idx = 1, .type = WM_ZONE_NORMAL, .managed = 0 },
		{ .node = 1, .idx = 2, .type = WM_ZONE_HIGHMEM, .managed = 0 },
		{ .node = 1, .idx = 3, .type = WM_ZONE_MOVABLE, .managed = 0 },
	};
	struct wm_sysctl s;
	struct wm_zone_wm w[8];

	(void)state;
	machine(&m, z, 4);
	sysctl(&s, 4096, 10);
	profile("6.1.0-40-686-pae", &p);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	/* lowmem 183973 pages: Movable's min is 1024 * 60000 / 183973 */
	assert_int_equal(w[3].min, 333);
	assert_int_equal(w[2].min, 32);
	profile("5.14.0", &p);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[3].min, 333);
	profile("5.10.0-30-686-pae", &p);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[3].min, 58);		/* clamp(58, 32, 128) */
	assert_int_equal(w[1].min, 991);	/* 1024 * 120000 / 123973 */
	/* two nodes: a NUMA build, movable_zone decides again */
	machine(&m, z, 8);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[3].min, 333);
	assert_int_equal(w[7].min, 0);
	/* a stand-in machine that lists no HighMem zone says so itself */
	machine(&m, z, 4);
	profile("6.1.0-40-686-pae", &p);
	m.movable_highmem = true;
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[3].min, 58);
	assert_int_equal(w[1].min, 991);
}

static void test_boost_reset_late_inflates_low_and_high_on_5_4(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z = { .type = WM_ZONE_NORMAL, .managed = 1000000,
			     .boost_at_setup = 512 };
	struct wm_sysctl s;
	struct wm_zone_wm w;

	machine(&m, &z, 1);
	sysctl(&s, 4000, 10);
	profile("5.4.286", &p);
	assert_true(p.boost_reset_late);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, &w, NULL), WM_OK);
	assert_int_equal(w.min, 1000);
	assert_int_equal(w.low, 1000 + 512 + 1000);
	assert_int_equal(w.high, 1000 + 512 + 2000);
	profile("5.8.18", &p);
	assert_false(p.boost_reset_late);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, &w, NULL), WM_OK);
	assert_int_equal(w.low, 2000);
}

static void test_pre_4_6_rule_is_quarter_and_half_of_share(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z = { .type = WM_ZONE_NORMAL, .managed = 23603 };
	struct wm_sysctl s;
	struct wm_zone_wm w;

	/* arm32-zte-f680-router-4.1: mfk 1227 -> min 306, gap 76. */
	profile("4.1.25", &p);
	machine(&m, &z, 1);
	sysctl(&s, 1227, 10);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, &w, NULL), WM_OK);
	assert_int_equal(w.min, 306);
	assert_int_equal(w.low, 306 + 76);
	assert_int_equal(w.high, 306 + 153);
}

static void test_wsf_outside_kernel_range_is_rejected(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z = { .type = WM_ZONE_NORMAL, .managed = 1000 };
	struct wm_sysctl s;
	struct wm_zone_wm w;
	struct wm_diag d;

	machine(&m, &z, 1);
	profile("5.16.0", &p);
	sysctl(&s, 1024, 1001);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, &w, &d), WM_EINVAL);
	assert_string_equal(d.key, "watermark_scale_factor");
	profile("5.17.0", &p);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, &w, NULL), WM_OK);
	s.wsf = 3001;
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, &w, NULL), WM_EINVAL);
	s.wsf = 0;
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, &w, NULL), WM_EINVAL);
	s.wsf = 10;
	s.min_free_kbytes = -1;
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, &w, NULL), WM_EINVAL);
}

static void test_android_extra_free_adds_to_low_and_high(void **state)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[2] = {
		{ .idx = 0, .type = WM_ZONE_NORMAL, .managed = 750000 },
		{ .idx = 1, .type = WM_ZONE_MOVABLE, .managed = 0 },
	};
	struct wm_sysctl s;
	struct wm_zone_wm w[2];

	profile("4.9.186-android-g1234", &p);
	assert_true(p.extra_free);
	machine(&m, z, 2);
	sysctl(&s, 8000, 10);
	s.extra_free_kbytes = 40000;
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[0].extra, 10000);
	assert_int_equal(w[0].min, 2000);
	assert_int_equal(w[0].low, 2000 + 10000 + 750);
	assert_int_equal(w[0].high, 2000 + 10000 + 1500);
}

/*
 * One 4 GiB Normal zone (1048576 pages) of 6.12 with min_free_kbytes 8192
 * under each high-watermark rule.  By hand: min = 8192 KiB / 4 = 2048
 * pages; at wsf 120 the gap is max(2048/4, 1048576*120/10000 = 12582.9)
 * = 12582, low = 2048 + 12582 = 14630.
 */
static void rule_zone(enum wm_high_rule rule, const char *release, long wsf,
		      struct wm_zone_wm *out)
{
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z = { .type = WM_ZONE_NORMAL, .managed = GiB_PAGES(4) };
	struct wm_sysctl s;

	profile(release, &p);
	p.high_rule = rule;
	machine(&m, &z, 1);
	sysctl(&s, 8192, wsf);
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, out, NULL), WM_OK);
}

static void test_quarter_rule_high_is_low_plus_a_quarter_gap(void **state)
{
	struct wm_zone_wm w;

	(void)state;
	rule_zone(WM_HIGH_QUARTER, "6.12.118", 120, &w);
	assert_int_equal(w.min, 2048);
	assert_int_equal(w.low, 14630);
	/* 12582 / 4 = 3145.5, floored as gap >> 2 */
	assert_int_equal(w.high, 14630 + 3145);
	/* promo stays one whole gap above the new high */
	assert_int_equal(w.promo, 14630 + 3145 + 12582);
	/* the RFC columns are the RFC's whatever the rule */
	assert_int_equal(w.gap_sqrt, 2576);
}

static void test_quarter_rule_at_wsf_10_and_1(void **state)
{
	struct wm_zone_wm w;

	(void)state;
	/* wsf 10: gap max(512, 1048.576) = 1048, quarter 262 */
	rule_zone(WM_HIGH_QUARTER, "6.12.118", 10, &w);
	assert_int_equal(w.low, 2048 + 1048);
	assert_int_equal(w.high, 2048 + 1048 + 262);
	/* wsf 1: the gap is min/4 = 512 and its quarter 128, below min/4 (the RFC's floor) */
	rule_zone(WM_HIGH_QUARTER, "6.12.118", 1, &w);
	assert_int_equal(w.low, 2048 + 512);
	assert_int_equal(w.high, 2048 + 512 + 128);
	assert_int_equal(w.gap_sqrt, 512);
}

static void test_sqrt_rule_moves_high_and_promo(void **state)
{
	struct wm_zone_wm w;

	(void)state;
	/* isqrt(4 * 1048576) = 2048; 12582 * 2048 / 10000 = 2576.8 -> 2576 */
	rule_zone(WM_HIGH_SQRT, "6.12.118", 120, &w);
	assert_int_equal(w.high, 14630 + 2576);
	assert_int_equal(w.high, w.high_sqrt);
	assert_int_equal(w.promo, 14630 + 2576 + 12582);
	/* wsf 10: 1048 * 2048 / 10000 = 214, raised to min/4 = 512 */
	rule_zone(WM_HIGH_SQRT, "6.12.118", 10, &w);
	assert_int_equal(w.high, 2048 + 1048 + 512);
}

static void test_stock_rule_is_unchanged_and_old_kernels_have_no_promo(void **state)
{
	struct wm_zone_wm w;

	(void)state;
	rule_zone(WM_HIGH_STOCK, "6.12.118", 120, &w);
	assert_int_equal(w.high, 14630 + 12582);
	assert_int_equal(w.promo, 14630 + 2 * 12582);
	/* 4.9: no promo watermark under any rule */
	rule_zone(WM_HIGH_QUARTER, "4.9.337", 120, &w);
	assert_int_equal(w.high, 14630 + 3145);
	assert_int_equal(w.promo, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_machine_without_a_page_size_is_an_error_not_4096),
		cmocka_unit_test(test_rfc_64g_gap_shrinks_65M_to_53M_at_wsf_10),
		cmocka_unit_test(test_rfc_64g_gap_shrinks_786M_to_644M_at_wsf_120),
		cmocka_unit_test(test_rfc_4g_gap_shrinks_49M_to_10M_at_wsf_120),
		cmocka_unit_test(test_rfc_4g_at_wsf_10_is_clamped_up_to_quarter_min),
		cmocka_unit_test(test_rfc_140g_is_unchanged),
		cmocka_unit_test(test_quarter_rule_high_is_low_plus_a_quarter_gap),
		cmocka_unit_test(test_quarter_rule_at_wsf_10_and_1),
		cmocka_unit_test(test_sqrt_rule_moves_high_and_promo),
		cmocka_unit_test(test_stock_rule_is_unchanged_and_old_kernels_have_no_promo),
		cmocka_unit_test(test_rfc_patch_table_rows_match),
		cmocka_unit_test(test_commit_4_6_140g_gap_goes_from_16M_to_143M),
		cmocka_unit_test(test_vm_6_18_snapshot_a_matches_zoneinfo),
		cmocka_unit_test(test_vm_6_18_snapshot_b_matches_zoneinfo),
		cmocka_unit_test(test_vm_6_18_boot_min_free_kbytes_is_thp_recommendation),
		cmocka_unit_test(test_thp_never_on_5_16_plus_takes_the_second_sqrt_pass),
		cmocka_unit_test(test_thp_counts_two_nodes_normal_zones_as_four),
		cmocka_unit_test(test_thp_is_skipped_below_512_mib),
		cmocka_unit_test(test_sqrt_rule_clamp_moved_from_65536_to_262144_at_5_7),
		cmocka_unit_test(test_kernel_comment_table_8192mb_is_11585_not_11584),
		cmocka_unit_test(test_debian_6_1_4g_after_writes_matches_zoneinfo),
		cmocka_unit_test(test_gap_is_floored_at_quarter_of_min_share),
		cmocka_unit_test(test_highmem_gap_uses_the_share_not_the_clamped_min),
		cmocka_unit_test(test_movable_is_proportional_before_6_6_and_capped_after),
		cmocka_unit_test(test_empty_movable_is_capped_before_6_6_where_highmem_has_pages),
		cmocka_unit_test(test_populated_movable_is_capped_and_left_out_of_lowmem_with_highmem),
		cmocka_unit_test(test_movable_with_empty_highmem_is_lowmem_from_5_14_highmem_before),
		cmocka_unit_test(test_boost_reset_late_inflates_low_and_high_on_5_4),
		cmocka_unit_test(test_pre_4_6_rule_is_quarter_and_half_of_share),
		cmocka_unit_test(test_wsf_outside_kernel_range_is_rejected),
		cmocka_unit_test(test_android_extra_free_adds_to_low_and_high),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
