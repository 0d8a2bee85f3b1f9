// SPDX-License-Identifier: MIT
/*
 * test_recommend.c - recommend's arithmetic against cases worked by hand
 * from docs/model.md: the single 4 GiB zone of §7.1 (mfk 8192,
 * min 2048, gap floor 512 pages), the 6.18 VM of §9.2 snapshot B
 * (DMA 3840, DMA32 772918, Normal 1376256 managed; mfk 67584, wsf 10),
 * AOSP's extra_free_kbytes.sh run over that VM's zoneinfo, and vmstat
 * series whose bursts are summed by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/procfs.h"
#include "../../calc/recommend.h"
#include "../../calc/wmark.h"

struct fixture {
	struct wm_profile p;
	struct wm_machine m;
	struct wm_zone z[5];
	struct wm_sysctl s;
	struct wm_rec_input in;
};

static void profile(const char *release, struct wm_profile *p)
{
	struct wm_kver k;

	assert_int_equal(wm_kver_parse(release, &k, NULL), WM_OK);
	wm_profile_for(&k, p);
}

static void setup(struct fixture *f, const char *release, const unsigned long *managed,
		  const enum wm_zone_type *types, size_t n, long mfk, long wsf)
{
	static const long lrr[] = { 256, 256, 32, 0, 0 };
	size_t i;

	memset(f, 0, sizeof(*f));
	profile(release, &f->p);
	for (i = 0; i < n; i++) {
		f->z[i].idx = (int)i;
		f->z[i].type = types[i];
		f->z[i].managed = managed[i];
		f->z[i].present = managed[i];
	}
	f->m.zones = f->z;
	f->m.nzones = n;
	f->m.page_size = 4096;
	f->m.pageblock_pages = 512;
	f->s.min_free_kbytes = mfk;
	f->s.wsf = wsf;
	f->s.boost_factor = 15000;
	f->s.extra_free_kbytes = -1;
	memcpy(f->s.lrr, lrr, sizeof(lrr));
	f->s.nlrr = 5;
	f->in.prof = &f->p;
	f->in.m = &f->m;
	f->in.now = &f->s;
}

/* docs/model.md §7.1: one 4 GiB Normal zone, mfk 8192 -> min 2048, floor gap 512. */
static void one_4g_zone(struct fixture *f, const char *release)
{
	static const unsigned long managed[] = { 1048576 };
	static const enum wm_zone_type types[] = { WM_ZONE_NORMAL };

	setup(f, release, managed, types, 1, 8192, 10);
}

/* docs/model.md §9.2 snapshot B. */
static void vm618(struct fixture *f)
{
	static const unsigned long managed[] = { 3840, 772918, 1376256, 0, 0 };
	static const enum wm_zone_type types[] = {
		WM_ZONE_DMA, WM_ZONE_DMA32, WM_ZONE_NORMAL, WM_ZONE_MOVABLE, WM_ZONE_DEVICE,
	};

	setup(f, "6.18.44", managed, types, 5, 67584, 10);
}

/* ---- a wsf for a gap -------------------------------------------------- */

static void test_floor_makes_wsf_below_5_useless_on_a_4g_zone(void **state)
{
	struct fixture f;
	struct wm_rec_answer a;

	one_4g_zone(&f, "4.9.337");
	/* 512 pages are the quarter of min 2048: wsf 1 already holds them */
	assert_int_equal(wm_rec_for_gap(&f.in, NULL, 512, &a, NULL), WM_OK);
	assert_int_equal(a.wanted, 1);
	assert_int_equal(a.gap_floor, 512);
	/* floor(1048576*4/10000) = 419 < 512; floor(1048576*5/10000) = 524 */
	assert_int_equal(a.floor_first, 5);
	assert_int_equal(a.floor_all, 5);
	/* today's wsf 10: floor(1048576*10/10000) = 1048 (docs/model.md §7.1) */
	assert_int_equal(a.gap_now, 1048);
}

static void test_burst_of_538_pages_needs_wsf_6_not_5(void **state)
{
	struct fixture f;
	struct wm_rec_answer a;

	one_4g_zone(&f, "4.9.337");
	/* wsf 5 gives 524 pages, wsf 6 gives floor(629.1) = 629 */
	assert_int_equal(wm_rec_for_gap(&f.in, NULL, 538, &a, NULL), WM_OK);
	assert_int_equal(a.wsf, 6);
	assert_int_equal(a.gap_after, 629);
	assert_false(a.capped);
}

static void test_burst_beyond_1000_is_capped_on_4_9(void **state)
{
	struct fixture f;
	struct wm_rec_answer a;

	one_4g_zone(&f, "4.9.337");
	/* 1.5 GiB = 393216 pages = 1048576 * 3750 / 10000 exactly */
	assert_int_equal(wm_rec_for_gap(&f.in, NULL, 393216, &a, NULL), WM_OK);
	assert_true(a.capped);
	assert_int_equal(a.wanted, 3750);
	assert_int_equal(a.wsf, 1000);
	assert_int_equal(a.gap_after, 104857);	/* floor(1048576 * 1000 / 10000) */
}

static void test_burst_beyond_3000_is_capped_on_6_1(void **state)
{
	struct fixture f;
	struct wm_rec_answer a;

	one_4g_zone(&f, "6.1.0-57-amd64");
	assert_int_equal(wm_rec_for_gap(&f.in, NULL, 393216, &a, NULL), WM_OK);
	assert_true(a.capped);
	assert_int_equal(a.wanted, 3750);
	assert_int_equal(a.wsf, 3000);
	assert_int_equal(a.gap_after, 314572);	/* floor(1048576 * 3000 / 10000) */
}

static void test_burst_larger_than_memory_has_no_wsf(void **state)
{
	struct fixture f;
	struct wm_rec_answer a;

	one_4g_zone(&f, "6.1.0-57-amd64");
	assert_int_equal(wm_rec_for_gap(&f.in, NULL, 1048577, &a, NULL), WM_OK);
	assert_true(a.capped);
	assert_int_equal(a.wanted, -1);
	assert_int_equal(a.wsf, 3000);
}

static void test_burst_of_100m_on_vm618_needs_wsf_120(void **state)
{
	struct fixture f;
	struct wm_rec_answer a;
	struct wm_zone_wm w[5];
	bool usable[5];

	vm618(&f);
	assert_int_equal(wm_setup_wmarks(&f.p, &f.m, &f.s, w, NULL), WM_OK);
	assert_int_equal(wm_protection(&f.p, &f.m, &f.s, w, NULL), WM_OK);
	/* Movable (index 3) is the class; DMA's protection 8395 > 3840 managed */
	assert_int_equal(wm_rec_class_idx(&f.m), 3);
	assert_int_equal(wm_rec_usable(&f.m, w, 3, usable), 2);
	assert_false(usable[0]);
	assert_true(usable[1]);
	assert_true(usable[2]);
	/*
	 * 25600 pages over DMA32 + Normal: wsf 119 gives 9197 + 16377 =
	 * 25574, wsf 120 gives 9275 + 16515 = 25790.  Today: 1516 + 2700.
	 */
	assert_int_equal(wm_rec_for_gap(&f.in, usable, 25600, &a, NULL), WM_OK);
	assert_int_equal(a.wsf, 120);
	assert_int_equal(a.gap_after, 25790);
	assert_int_equal(a.gap_now, 4216);
	assert_int_equal(a.gap_floor, 4216);
	assert_int_equal(a.floor_first, 20);
	assert_int_equal(a.floor_all, 20);
}

static void test_no_wsf_on_kernels_before_4_6(void **state)
{
	struct fixture f;
	struct wm_rec_answer a;
	struct wm_diag d = { 0 };

	one_4g_zone(&f, "4.4.0");
	assert_int_equal(wm_rec_for_gap(&f.in, NULL, 1000, &a, &d), WM_EINVAL);
	assert_non_null(strstr(d.msg, "4.6"));
}

/* ---- extra_free_kbytes ------------------------------------------------ */

static void test_extra_free_29615k_on_vm618_needs_wsf_55(void **state)
{
	struct fixture f;
	struct wm_rec_efk_zone z[5];
	struct wm_rec_answer a;

	vm618(&f);
	/*
	 * 29615 KiB = 7403 pages over vm_total 2153014.  Shares: DMA
	 * floor(7403*3840/2153014) = 13, DMA32 2657, Normal 4732.  Targets:
	 * 30+7+13 = 50, 6065+1516+2657 = 10238, 10800+2700+4732 = 18232.
	 * DMA: floor(3840w/10000) >= 20 from w = 53; DMA32: >= 4173 from
	 * 54 (4173.7); Normal: >= 7432 from 55 (54 gives 7431).
	 */
	assert_int_equal(wm_rec_extra_free(&f.in, 29615, z, &a, NULL), WM_OK);
	assert_int_equal(z[0].extra, 13);
	assert_int_equal(z[1].extra, 2657);
	assert_int_equal(z[2].extra, 4732);
	assert_int_equal(z[0].target_low, 50);
	assert_int_equal(z[1].target_low, 10238);
	assert_int_equal(z[2].target_low, 18232);
	assert_int_equal(z[0].need_wsf, 53);
	assert_int_equal(z[1].need_wsf, 54);
	assert_int_equal(z[2].need_wsf, 55);
	assert_int_equal(z[3].need_wsf, 1);	/* empty Movable: 32 either way */
	assert_int_equal(a.wsf, 55);
	assert_int_equal(z[2].low_at, 18369);	/* 10800 + floor(7569.4) */
	assert_false(a.capped);
}

static void test_extra_free_uses_the_given_vm_total_pages(void **state)
{
	struct fixture f;
	struct wm_rec_efk_zone z[5];
	struct wm_rec_answer a;

	vm618(&f);
	/* a boot-time divisor twice as large halves every share */
	f.m.vm_total_pages = 4306028;
	assert_int_equal(wm_rec_extra_free(&f.in, 29615, z, &a, NULL), WM_OK);
	assert_int_equal(z[2].extra, 2366);	/* floor(7403*1376256/4306028) */
	/* Normal: 2700 + 2366 = 5066 <= floor(1376256w/10000) from w = 37 (36.8) */
	assert_int_equal(z[2].need_wsf, 37);
}

static void test_extra_free_beyond_30_percent_is_capped(void **state)
{
	struct fixture f;
	struct wm_rec_efk_zone z[1];
	struct wm_rec_answer a;

	one_4g_zone(&f, "6.1.0-57-amd64");
	/*
	 * 2 GiB of extra_free on a 4 GiB zone: target low = 2048 + 1048 +
	 * 524288; floor(1048576w/10000) >= 525336 from w = 5010 (5009.99).
	 */
	assert_int_equal(wm_rec_extra_free(&f.in, 2097152, z, &a, NULL), WM_OK);
	assert_int_equal(z[0].target_low, 527384);
	assert_int_equal(a.wanted, 5010);
	assert_true(a.capped);
	assert_int_equal(a.wsf, 3000);
}

/* ---- the AOSP script -------------------------------------------------- */

/* A 6.18 zoneinfo reduced to the lines the script greps, 2 CPUs. */
#define PCP(hmin, hmax) \
	"  pagesets\n" \
	"    cpu: 0\n              count:    0\n              high:     0\n" \
	"              batch:    1\n              high_min: " #hmin "\n" \
	"              high_max: " #hmax "\n  vm stats threshold: 4\n" \
	"    cpu: 1\n              count:    0\n              high:     0\n" \
	"              batch:    1\n              high_min: " #hmin "\n" \
	"              high_max: " #hmax "\n  vm stats threshold: 4\n"
#define ZONE(name, min, low, high, managed) \
	"Node 0, zone " name "\n  pages free     100\n        boost    0\n" \
	"        min      " #min "\n        low      " #low "\n" \
	"        high     " #high "\n        spanned  " #managed "\n" \
	"        present  " #managed "\n        managed  " #managed "\n" \
	"        cma      0\n        protection: (0, 0, 0, 0, 0)\n" \
	"      nr_free_pages 100\n"

static const char zi_618[] =
	ZONE("     DMA", 30, 37, 44, 3840) PCP(18, 240)
	ZONE("   DMA32", 6065, 7581, 9097, 772918) PCP(3790, 48307)
	ZONE("  Normal", 10800, 13500, 16200, 1376256) PCP(6750, 86016)
	ZONE(" Movable", 32, 32, 32, 0)
	ZONE("  Device", 0, 0, 0, 0);

/* The same zones as a 6.12 kernel prints them: no high_min lines. */
#define PCP_OLD \
	"  pagesets\n    cpu: 0\n              count:    0\n              high:     0\n" \
	"              batch:    1\n  vm stats threshold: 4\n"
static const char zi_612[] =
	ZONE("     DMA", 30, 37, 44, 3840) PCP_OLD
	ZONE("   DMA32", 6065, 7581, 9097, 772918) PCP_OLD
	ZONE("  Normal", 10800, 13500, 16200, 1376256) PCP_OLD
	ZONE(" Movable", 32, 32, 32, 0)
	ZONE("  Device", 0, 0, 0, 0);

static const long true_min_618[] = { 30, 6065, 10800, 32, 0 };

/*
 * Each zone's smallest wsf, searched with the model over every zone at
 * every step: what wm_rec_extra_free() answered when it did just that.
 */
static long need_by_whole_machine(const struct fixture *f, size_t i, unsigned long target)
{
	struct wm_profile p = f->p;
	struct wm_sysctl s = f->s;
	struct wm_zone_wm w[5];
	long lo = 1, hi = WM_REC_WSF_CEILING, need = -1;

	p.wsf_max = WM_REC_WSF_CEILING;
	s.extra_free_kbytes = 0;
	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;

		s.wsf = mid;
		assert_int_equal(wm_setup_wmarks(&p, &f->m, &s, w, NULL), WM_OK);
		if (w[i].low >= target) {
			need = mid;
			hi = mid - 1;
		} else {
			lo = mid + 1;
		}
	}
	return need;
}

static void test_extra_free_per_zone_answers_are_the_whole_machines(void **state)
{
	static const char *const releases[] = { "4.9.337", "5.4.286", "6.1.0-57-amd64",
						"6.18.44" };
	static const enum wm_zone_type types[] = {
		WM_ZONE_DMA, WM_ZONE_NORMAL, WM_ZONE_HIGHMEM, WM_ZONE_MOVABLE, WM_ZONE_DEVICE,
	};
	static const long extra[] = { 0, 1, 29615, 1048576, 2147483647L };
	unsigned long managed[5];
	uint64_t seed = 12345;
	size_t r, e, i, k;

	for (k = 0; k < 200; k++) {
		for (i = 0; i < 5; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			/* 0, a few pages, or up to 2^40 pages */
			managed[i] = (unsigned long)((seed >> 11) % (k % 3 == 0 ? 40 :
								k % 3 == 1 ? 5000000 :
								(1ull << 40)));
		}
		for (r = 0; r < sizeof(releases) / sizeof(releases[0]); r++) {
			for (e = 0; e < sizeof(extra) / sizeof(extra[0]); e++) {
				struct fixture f;
				struct wm_rec_efk_zone z[5];
				struct wm_rec_answer a;

				setup(&f, releases[r], managed, types, 5, 1024 + (long)(k * 977), 10 + (long)k);
				f.m.vm_total_pages = k % 4 == 0 ? (unsigned long)(seed >> 30) : 0;
				assert_int_equal(wm_rec_extra_free(&f.in, extra[e], z, &a, NULL), WM_OK);
				for (i = 0; i < 5; i++)
					assert_int_equal(z[i].need_wsf,
							 need_by_whole_machine(&f, i, z[i].target_low));
			}
		}
	}
}

static void test_script_on_6_18_reads_high_min_as_min_and_writes_44(void **state)
{
	struct wm_rec_script sc;

	assert_int_equal(wm_rec_script(zi_618, sizeof(zi_618) - 1, true_min_618, 5, 10,
				       29615, 4096, &sc, NULL), WM_OK);
	assert_int_equal(sc.nzones, 5);
	/* min 30, 18, 18, 6065, 3790, 3790, 10800, 6750, 6750, 32, 0 */
	assert_int_equal(sc.nmin, 11);
	assert_int_equal(sc.vm_total, 2153014);
	assert_int_equal(sc.extra_pages, 7403);
	assert_int_equal(sc.delta, 34);		/* round(34.38) */
	assert_true(sc.misread);
	/* DMA: 3*... calc 3 <= base 7, case B, 3840/10000 = 0: bc fails */
	assert_int_equal(sc.z[0].branch, 'B');
	assert_true(sc.z[0].div_zero);
	assert_int_equal(sc.z[0].result, -1);
	/* DMA32 and Normal read min 18: base 4 < 772 and 1376, case A */
	assert_int_equal(sc.z[1].min_read, 18);
	assert_int_equal(sc.z[1].branch, 'A');
	assert_int_equal(sc.z[1].result, 44);
	assert_int_equal(sc.z[2].min_read, 18);
	assert_int_equal(sc.z[2].result, 44);
	assert_int_equal(sc.z[3].branch, '-');
	assert_int_equal(sc.result, 44);
	/* with the real mins: case B, 1516/77 = 19 and 2700/137 = 19, + 34 */
	assert_int_equal(sc.result_true, 53);
}

static void test_exact_answer_differs_from_the_script_on_6_18(void **state)
{
	struct fixture f;
	struct wm_rec_efk_zone z[5];
	struct wm_rec_answer a;
	struct wm_rec_script sc;
	struct wm_zone_wm w[5];

	vm618(&f);
	assert_int_equal(wm_rec_extra_free(&f.in, 29615, z, &a, NULL), WM_OK);
	assert_int_equal(wm_rec_script(zi_618, sizeof(zi_618) - 1, true_min_618, 5, 10,
				       29615, 4096, &sc, NULL), WM_OK);
	assert_int_equal(a.wsf, 55);
	assert_int_equal(sc.result, 44);
	/* at 44 Normal's low is 10800 + 6055 = 16855, 1377 short of 18232 */
	f.s.wsf = sc.result;
	assert_int_equal(wm_setup_wmarks(&f.p, &f.m, &f.s, w, NULL), WM_OK);
	assert_int_equal(z[2].target_low - w[2].low, 1377);
}

static void test_script_on_6_12_text_reads_every_min(void **state)
{
	struct wm_rec_script sc;

	assert_int_equal(wm_rec_script(zi_612, sizeof(zi_612) - 1, true_min_618, 5, 10,
				       29615, 4096, &sc, NULL), WM_OK);
	assert_int_equal(sc.nmin, 5);
	assert_false(sc.misread);
	assert_int_equal(sc.z[1].branch, 'B');
	assert_int_equal(sc.result, 53);
	assert_int_equal(sc.result_true, 53);
}

static void test_script_refuses_managed_words_past_2_to_52(void **state)
{
	static const char big[] =
		ZONE("     DMA", 30, 37, 44, 9223372036854775807) PCP_OLD
		ZONE("   DMA32", 6065, 7581, 9097, 9223372036854775807);
	static const char neg[] =
		ZONE("     DMA", 30, 37, 44, -4503599627370497);
	static const char most[] =
		ZONE("     DMA", 30, 37, 44, 4503599627370496) PCP_OLD
		ZONE("   DMA32", 6065, 7581, 9097, 4503599627370496);
	struct wm_rec_script sc;
	struct wm_diag d = { 0 };

	if (sizeof(long) < 8)
		skip();
	/* two LONG_MAX words once overflowed vm_total */
	assert_int_equal(wm_rec_script(big, sizeof(big) - 1, NULL, 0, 10, 29615, 4096, &sc, &d),
			 WM_ERANGE);
	assert_string_equal(d.key, "managed");
	assert_int_equal(wm_rec_script(neg, sizeof(neg) - 1, NULL, 0, 10, 29615, 4096, &sc, &d),
			 WM_ERANGE);
	assert_int_equal(wm_rec_script(most, sizeof(most) - 1, NULL, 0, 10, 29615, 4096, &sc, &d),
			 WM_OK);
	assert_int_equal(sc.vm_total, 9007199254740992L);
}

static void test_script_writes_past_the_kernel_maximum_unclamped(void **state)
{
	struct wm_rec_script sc;

	/* 2000000 pages: delta round(2000000*10000/2153014) = round(9289.3) */
	assert_int_equal(wm_rec_script(zi_612, sizeof(zi_612) - 1, NULL, 0, 10,
				       8000000, 4096, &sc, NULL), WM_OK);
	assert_int_equal(sc.delta, 9289);
	assert_int_equal(sc.result, 19 + 9289);
}

static void test_script_on_the_6_18_capture_file(void **state)
{
	const char *src = getenv("WMARK_SRC");
	char path[4096], *buf;
	struct wm_rec_script sc;
	FILE *fp;
	size_t n;

	if (!src) {
		print_message("# SKIP: set WMARK_SRC to the repository root\n");
		skip();
	}
	snprintf(path, sizeof(path), "%s/data/machines/vm-6.18-firecracker-A/proc/zoneinfo", src);
	fp = fopen(path, "r");
	assert_non_null(fp);
	buf = malloc(1 << 20);
	assert_non_null(buf);
	n = fread(buf, 1, 1 << 20, fp);
	fclose(fp);
	assert_int_equal(wm_rec_script(buf, n, true_min_618, 5, 10, 29615, 4096, &sc, NULL),
			 WM_OK);
	assert_int_equal(sc.nmin, 11);
	assert_int_equal(sc.result, 44);
	assert_int_equal(sc.result_true, 53);
	free(buf);
}

/* ---- measured reclaim activity ---------------------------------------- */

static void parse(const char *text, struct wm_rec_sample *s)
{
	struct pf_kv kv;

	assert_int_equal(pf_parse_vmstat(text, strlen(text), &kv, NULL), WM_OK);
	wm_rec_sample_vmstat(&kv, s);
	pf_kv_free(&kv);
}

static void test_vmstat_counters_are_summed_over_zones_and_kinds(void **state)
{
	struct wm_rec_sample s;

	parse("pgalloc_dma 1\npgalloc_dma32 5\npgalloc_normal 10\npgalloc_movable 0\n"
	      "allocstall_dma 0\nallocstall_dma32 2\nallocstall_normal 5\nallocstall_movable 1\n"
	      "pgscan_direct 100\npgscan_direct_throttle 7\npgsteal_kswapd 40\n"
	      "workingset_refault_anon 1\nworkingset_refault_file 2\n"
	      "workingset_activate_file 99\nnr_free_pages 1234\n", &s);
	assert_int_equal(s.c[WM_REC_PGALLOC], 16);
	assert_int_equal(s.c[WM_REC_ALLOCSTALL], 8);
	assert_int_equal(s.c[WM_REC_PGSCAN_DIRECT], 100);	/* not the throttle count */
	assert_int_equal(s.c[WM_REC_PGSTEAL_KSWAPD], 40);
	assert_int_equal(s.c[WM_REC_REFAULT], 3);
	assert_int_equal(s.c[WM_REC_NR_FREE], 1234);
	assert_false(s.have & (1u << WM_REC_COMPACT_STALL));
}

static void test_old_per_zone_vmstat_names_count_too(void **state)
{
	struct wm_rec_sample s;

	/* before 4.8: per-zone scan counters, one allocstall, one refault */
	parse("allocstall 4\npgscan_direct_dma32 5\npgscan_direct_normal 10\n"
	      "pgsteal_kswapd_normal 3\nworkingset_refault 9\n", &s);
	assert_int_equal(s.c[WM_REC_ALLOCSTALL], 4);
	assert_int_equal(s.c[WM_REC_PGSCAN_DIRECT], 15);
	assert_int_equal(s.c[WM_REC_PGSTEAL_KSWAPD], 3);
	assert_int_equal(s.c[WM_REC_REFAULT], 9);
}

/* Samples every 0.1 s from per-interval deltas (alloc, kswapd, direct, stall, scan). */
static void series(struct wm_rec_sample *s, const long (*iv)[5], size_t n)
{
	size_t i;

	memset(s, 0, sizeof(*s) * (n + 1));
	for (i = 0; i <= n; i++) {
		s[i].t = 0.1 * (double)i;
		s[i].have = (1u << WM_REC_NCTR) - 1;
		if (!i)
			continue;
		s[i].c[WM_REC_PGALLOC] = s[i - 1].c[WM_REC_PGALLOC] + (uint64_t)iv[i - 1][0];
		s[i].c[WM_REC_PGSTEAL_KSWAPD] = s[i - 1].c[WM_REC_PGSTEAL_KSWAPD] + (uint64_t)iv[i - 1][1];
		s[i].c[WM_REC_PGSTEAL_DIRECT] = s[i - 1].c[WM_REC_PGSTEAL_DIRECT] + (uint64_t)iv[i - 1][2];
		s[i].c[WM_REC_ALLOCSTALL] = s[i - 1].c[WM_REC_ALLOCSTALL] + (uint64_t)iv[i - 1][3];
		s[i].c[WM_REC_PGSCAN_DIRECT] = s[i - 1].c[WM_REC_PGSCAN_DIRECT] + (uint64_t)iv[i - 1][4];
	}
}

static void test_burst_deficit_is_what_direct_reclaim_stole(void **state)
{
	static const long iv[][5] = {
		{ 1000, 0, 0, 0, 0 },		/* 1: quiet */
		{ 5000, 1000, 500, 2, 600 },	/* 2: direct, a-k 4000 */
		{ 5000, 2000, 1000, 3, 900 },	/* 3: direct, 3000 */
		{ 100, 3000, 0, 0, 0 },		/* 4: quiet, bridged, -2900 */
		{ 3000, 1000, 50, 1, 100 },	/* 5: direct, 2000 */
		{ 4000, 1000, 0, 0, 0 },	/* 6: kswapd only, 3000 */
		{ 1000, 2000, 0, 0, 0 },	/* 7: kswapd only, -1000 */
	};
	struct wm_rec_sample s[8];
	struct wm_rec_measure ms;
	struct wm_rec_decision dc;

	series(s, iv, 7);
	assert_int_equal(wm_rec_analyze(s, 8, &ms, NULL), WM_OK);
	assert_true(ms.time_resolved);
	assert_int_equal(ms.nbursts, 1);
	/* run 2..5: direct reclaim stole 500 + 1000 + 0 + 50 */
	assert_int_equal(ms.worst.deficit, 1550);
	/* best consecutive allocation beyond kswapd: 4000 + 3000 */
	assert_int_equal(ms.worst.drawdown, 7000);
	assert_int_equal(ms.worst.alloc, 13100);
	assert_int_equal(ms.worst.kswapd_steal, 7000);
	assert_int_equal(ms.worst.direct_steal, 1550);
	assert_int_equal(ms.worst.stalls, 6);
	assert_float_equal(ms.worst.peak_alloc_rate, 50000, 1e-6);
	assert_float_equal(ms.worst.seconds, 0.4, 1e-9);
	assert_int_equal(ms.kswapd_deficit, 3000);
	assert_int_equal(ms.d[WM_REC_ALLOCSTALL], 6);
	/* vm618's usable gap 4216 pages + 1550 */
	wm_rec_decide(&ms, 4216, &dc);
	assert_int_equal(dc.verdict, WM_REC_RAISE);
	assert_int_equal(dc.need, 5766);
}

static void test_separate_bursts_keep_the_worst(void **state)
{
	static const long iv[][5] = {
		{ 3000, 0, 900, 1, 900 },	/* 1: burst A, stole 900 */
		{ 0, 0, 0, 0, 0 },
		{ 0, 0, 0, 0, 0 },
		{ 0, 0, 0, 0, 0 },
		{ 9000, 1000, 800, 1, 800 },	/* 5: burst B, stole 800, drawdown 8000 */
	};
	struct wm_rec_sample s[6];
	struct wm_rec_measure ms;

	series(s, iv, 5);
	assert_int_equal(wm_rec_analyze(s, 6, &ms, NULL), WM_OK);
	assert_int_equal(ms.nbursts, 2);
	/* the worst is the one direct reclaim paid most for, not the largest */
	assert_int_equal(ms.worst.deficit, 900);
	assert_int_equal(ms.worst.drawdown, 3000);
	assert_float_equal(ms.worst.start, 0.0, 1e-9);
}

static void test_two_readings_take_pgsteal_direct_as_the_deficit(void **state)
{
	static const long iv[][5] = { { 900000, 800000, 6400, 15, 9000 } };
	struct wm_rec_sample s[2];
	struct wm_rec_measure ms;
	struct wm_rec_decision dc;

	series(s, iv, 1);
	assert_int_equal(wm_rec_analyze(s, 2, &ms, NULL), WM_OK);
	assert_false(ms.time_resolved);
	assert_int_equal(ms.worst.deficit, 6400);
	wm_rec_decide(&ms, 4216, &dc);
	assert_int_equal(dc.verdict, WM_REC_RAISE);
	assert_int_equal(dc.need, 10616);
}

static void test_raise_from_vmstat_on_vm618_is_wsf_50(void **state)
{
	struct fixture f;
	struct wm_rec_answer a;
	struct wm_zone_wm w[5];
	bool usable[5];

	vm618(&f);
	assert_int_equal(wm_setup_wmarks(&f.p, &f.m, &f.s, w, NULL), WM_OK);
	assert_int_equal(wm_protection(&f.p, &f.m, &f.s, w, NULL), WM_OK);
	wm_rec_usable(&f.m, w, 3, usable);
	/* 10616 pages: wsf 49 gives 3787 + 6743 = 10530, wsf 50 3864 + 6881 */
	assert_int_equal(wm_rec_for_gap(&f.in, usable, 10616, &a, NULL), WM_OK);
	assert_int_equal(a.wsf, 50);
	assert_int_equal(a.gap_after, 10745);
}

static void test_refaults_from_25_percent_lower_the_gap(void **state)
{
	struct wm_rec_measure ms;
	struct wm_rec_decision dc;

	memset(&ms, 0, sizeof(ms));
	ms.d[WM_REC_PGSTEAL_KSWAPD] = 10000;
	ms.d[WM_REC_REFAULT] = 5000;	/* no workingset_activate: plain refaults */
	ms.kswapd_deficit = 100;
	wm_rec_decide(&ms, 4216, &dc);
	assert_int_equal(dc.verdict, WM_REC_LOWER);
	assert_float_equal(dc.refault_pct, 50, 1e-9);
	assert_int_equal(dc.need, 2108);
	/* a drawdown kswapd had to absorb is never given up */
	ms.kswapd_deficit = 3000;
	wm_rec_decide(&ms, 4216, &dc);
	assert_int_equal(dc.need, 3000);
	/* 24% is not over-reclaim */
	ms.d[WM_REC_REFAULT] = 2400;
	wm_rec_decide(&ms, 4216, &dc);
	assert_int_equal(dc.verdict, WM_REC_KEEP);
}

static void test_streaming_refaults_are_not_over_reclaim(void **state)
{
	struct wm_rec_measure ms;
	struct wm_rec_decision dc;

	memset(&ms, 0, sizeof(ms));
	ms.have = (1u << WM_REC_NCTR) - 1;
	ms.d[WM_REC_PGSTEAL_KSWAPD] = 10000;
	ms.d[WM_REC_REFAULT] = 10000;	/* every page a stream read again */
	ms.d[WM_REC_ACTIVATE] = 200;	/* 2% were working set */
	wm_rec_decide(&ms, 4216, &dc);
	assert_int_equal(dc.verdict, WM_REC_KEEP);
	assert_float_equal(dc.refault_pct, 2, 1e-9);
	ms.d[WM_REC_ACTIVATE] = 3000;
	wm_rec_decide(&ms, 4216, &dc);
	assert_int_equal(dc.verdict, WM_REC_LOWER);
	assert_int_equal(dc.need, 2951);	/* 4216 * 0.7, truncated */
}

static void test_nothing_seen_keeps_the_value(void **state)
{
	struct wm_rec_measure ms;
	struct wm_rec_decision dc;

	memset(&ms, 0, sizeof(ms));
	ms.d[WM_REC_PGALLOC] = 123456;
	wm_rec_decide(&ms, 4216, &dc);
	assert_int_equal(dc.verdict, WM_REC_KEEP);
	assert_false(dc.direct);
	assert_true(dc.refault_pct < 0);
}

static void test_direct_scan_without_steal_keeps_the_value(void **state)
{
	static const long iv[][5] = { { 100, 0, 0, 1, 64 } };
	struct wm_rec_sample s[2];
	struct wm_rec_measure ms;
	struct wm_rec_decision dc;

	series(s, iv, 1);
	assert_int_equal(wm_rec_analyze(s, 2, &ms, NULL), WM_OK);
	wm_rec_decide(&ms, 4216, &dc);
	assert_true(dc.direct);
	assert_int_equal(dc.verdict, WM_REC_KEEP);
}

static void test_samples_must_move_forward_in_time(void **state)
{
	struct wm_rec_sample s[2];
	struct wm_rec_measure ms;

	memset(s, 0, sizeof(s));
	assert_int_equal(wm_rec_analyze(s, 2, &ms, NULL), WM_EINVAL);
	assert_int_equal(wm_rec_analyze(s, 1, &ms, NULL), WM_EINVAL);
}

static void test_a_measured_keep_is_todays_wsf_with_todays_gaps(void **state)
{
	struct wm_rec_answer a = { .wsf = 37, .wanted = 40, .capped = true, .gap_now = 900,
				   .gap_after = 1200 };

	wm_rec_keep(&a, 10);
	assert_int_equal(a.wsf, 10);
	assert_int_equal(a.wanted, 10);
	assert_false(a.capped);
	assert_int_equal(a.gap_after, 900);
}

static void test_lowering_below_the_floor_keeps_todays_wsf(void **state)
{
	struct wm_rec_answer a = { .wsf = 3, .gap_now = 900, .gap_after = 900 };
	struct wm_rec_answer b = { .wsf = 3, .gap_now = 900, .gap_after = 700 };
	struct wm_rec_answer c = { .wsf = 50, .gap_now = 900, .gap_after = 900 };

	assert_int_equal(wm_rec_keep_below_floor(&a, 10), 3);
	assert_int_equal(a.wsf, 10);
	assert_int_equal(wm_rec_keep_below_floor(&b, 10), -1);	/* the gaps move: lower */
	assert_int_equal(b.wsf, 3);
	assert_int_equal(wm_rec_keep_below_floor(&c, 10), -1);	/* a raise is left alone */
	assert_int_equal(c.wsf, 50);
}

static void test_the_verdict_follows_the_measurement_unless_it_lowers(void **state)
{
	struct wm_rec_answer up = { .wsf = 40 }, same = { .wsf = 10 }, down = { .wsf = 5 };

	assert_int_equal(wm_rec_final_verdict(true, WM_REC_KEEP, &up, 10), WM_REC_KEEP);
	assert_int_equal(wm_rec_final_verdict(true, WM_REC_RAISE, &same, 10), WM_REC_RAISE);
	assert_int_equal(wm_rec_final_verdict(true, WM_REC_LOWER, &same, 10), WM_REC_KEEP);
	assert_int_equal(wm_rec_final_verdict(true, WM_REC_LOWER, &down, 10), WM_REC_LOWER);
	assert_int_equal(wm_rec_final_verdict(false, WM_REC_KEEP, &up, 10), WM_REC_RAISE);
	assert_int_equal(wm_rec_final_verdict(false, WM_REC_KEEP, &down, 10), WM_REC_LOWER);
}

static void test_a_counter_delta_going_backwards_is_refused_not_wrapped(void **state)
{
	uint64_t d = 99;

	(void)state;
	assert_true(wm_ctr_delta(5, 7, &d));
	assert_int_equal(d, 2);
	assert_true(wm_ctr_delta(UINT64_MAX, UINT64_MAX, &d));
	assert_int_equal(d, 0);
	assert_true(wm_ctr_delta(0, UINT64_MAX, &d));
	assert_true(d == UINT64_MAX);
	/* 3 then 1: not 2^64 - 2 */
	assert_false(wm_ctr_delta(3, 1, &d));
	assert_int_equal(d, 0);
}

static void test_samples_whose_counters_go_backwards_are_refused(void **state)
{
	struct wm_rec_sample s[3];
	struct wm_rec_measure m;
	struct wm_diag d = { 0 };
	int i;

	(void)state;
	memset(s, 0, sizeof(s));
	for (i = 0; i < 3; i++) {
		s[i].t = i;
		s[i].have = (1u << WM_REC_PGALLOC) | (1u << WM_REC_NR_FREE);
		s[i].c[WM_REC_PGALLOC] = 1000u * (unsigned)(i + 1);
		s[i].c[WM_REC_NR_FREE] = 500u - (unsigned)i;	/* a level may fall */
	}
	assert_int_equal(wm_rec_backwards(&s[0], &s[1]), -1);
	assert_int_equal(wm_rec_analyze(s, 3, &m, &d), WM_OK);
	s[2].c[WM_REC_PGALLOC] = 5;
	assert_int_equal(wm_rec_backwards(&s[1], &s[2]), WM_REC_PGALLOC);
	assert_int_equal(wm_rec_analyze(s, 3, &m, &d), WM_ERANGE);
	assert_string_equal(d.key, "pgalloc");
	s[2].c[WM_REC_PGALLOC] = 3000;
	s[1].psi = s[2].psi = true;
	s[1].psi_some = 10;
	s[2].psi_some = 9;
	assert_int_equal(wm_rec_backwards(&s[1], &s[2]), WM_REC_NCTR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_counter_delta_going_backwards_is_refused_not_wrapped),
		cmocka_unit_test(test_samples_whose_counters_go_backwards_are_refused),
		cmocka_unit_test(test_a_measured_keep_is_todays_wsf_with_todays_gaps),
		cmocka_unit_test(test_lowering_below_the_floor_keeps_todays_wsf),
		cmocka_unit_test(test_the_verdict_follows_the_measurement_unless_it_lowers),
		cmocka_unit_test(test_floor_makes_wsf_below_5_useless_on_a_4g_zone),
		cmocka_unit_test(test_burst_of_538_pages_needs_wsf_6_not_5),
		cmocka_unit_test(test_burst_beyond_1000_is_capped_on_4_9),
		cmocka_unit_test(test_burst_beyond_3000_is_capped_on_6_1),
		cmocka_unit_test(test_burst_larger_than_memory_has_no_wsf),
		cmocka_unit_test(test_burst_of_100m_on_vm618_needs_wsf_120),
		cmocka_unit_test(test_no_wsf_on_kernels_before_4_6),
		cmocka_unit_test(test_extra_free_29615k_on_vm618_needs_wsf_55),
		cmocka_unit_test(test_extra_free_uses_the_given_vm_total_pages),
		cmocka_unit_test(test_extra_free_beyond_30_percent_is_capped),
		cmocka_unit_test(test_script_on_6_18_reads_high_min_as_min_and_writes_44),
		cmocka_unit_test(test_exact_answer_differs_from_the_script_on_6_18),
		cmocka_unit_test(test_script_on_6_12_text_reads_every_min),
		cmocka_unit_test(test_script_writes_past_the_kernel_maximum_unclamped),
		cmocka_unit_test(test_script_refuses_managed_words_past_2_to_52),
		cmocka_unit_test(test_extra_free_per_zone_answers_are_the_whole_machines),
		cmocka_unit_test(test_script_on_the_6_18_capture_file),
		cmocka_unit_test(test_vmstat_counters_are_summed_over_zones_and_kinds),
		cmocka_unit_test(test_old_per_zone_vmstat_names_count_too),
		cmocka_unit_test(test_burst_deficit_is_what_direct_reclaim_stole),
		cmocka_unit_test(test_separate_bursts_keep_the_worst),
		cmocka_unit_test(test_two_readings_take_pgsteal_direct_as_the_deficit),
		cmocka_unit_test(test_raise_from_vmstat_on_vm618_is_wsf_50),
		cmocka_unit_test(test_refaults_from_25_percent_lower_the_gap),
		cmocka_unit_test(test_streaming_refaults_are_not_over_reclaim),
		cmocka_unit_test(test_nothing_seen_keeps_the_value),
		cmocka_unit_test(test_direct_scan_without_steal_keeps_the_value),
		cmocka_unit_test(test_samples_must_move_forward_in_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
