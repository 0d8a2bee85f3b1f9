// SPDX-License-Identifier: MIT
/*
 * test_machine.c - the page geometry and zoneinfo -> model glue
 * (calc/machine.c), against the arm64 16 KiB and ppc64le 64 KiB boots of
 * docs/model.md §11.1 and small zoneinfo files of each era.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "slurp.h"

#include "../../calc/machine.h"
#include "../../calc/procfs.h"

static void profile(const char *release, struct wm_profile *p)
{
	struct wm_kver k;

	assert_int_equal(wm_kver_parse(release, &k, NULL), WM_OK);
	wm_profile_for(&k, p);
}

/* One node of the five x86-64/arm64 zone types, as 6.x configures them. */
static void five_zones(struct wm_zone *z, unsigned long dma, unsigned long dma32,
		       unsigned long normal)
{
	static const enum wm_zone_type t[] = { WM_ZONE_DMA, WM_ZONE_DMA32, WM_ZONE_NORMAL,
					       WM_ZONE_MOVABLE, WM_ZONE_DEVICE };
	unsigned long mg[] = { dma, dma32, normal, 0, 0 };
	int i;

	for (i = 0; i < 5; i++)
		z[i] = (struct wm_zone){ .idx = i, .type = t[i], .managed = mg[i], .present = mg[i] };
}

static void defaults(const struct wm_profile *p, const struct wm_machine *m, struct wm_sysctl *s)
{
	enum wm_zone_type types[WM_MAX_ZONES];
	size_t i;

	for (i = 0; i < m->nzones; i++)
		types[i] = m->zones[i].type;
	wm_sysctl_defaults(p, (int)m->nzones, types, s);
}

/* ---- geometry -------------------------------------------------------- */

static void test_pageblock_is_pmd_order_of_the_page_size(void **state)
{
	unsigned long pages;
	unsigned order;

	assert_int_equal(wm_pageblock_default(4096, &pages, &order, NULL), WM_OK);
	assert_int_equal(order, 9);
	assert_int_equal(pages, 512);
	assert_int_equal(wm_pageblock_default(16384, &pages, &order, NULL), WM_OK);
	assert_int_equal(order, 11);
	assert_int_equal(pages, 2048);
	assert_int_equal(wm_pageblock_default(65536, &pages, &order, NULL), WM_OK);
	assert_int_equal(order, 13);
	assert_int_equal(pages, 8192);
	assert_int_equal(wm_pageblock_default(12288, &pages, &order, NULL), WM_EINVAL);
	assert_int_equal(wm_pageblock_default(2048, &pages, &order, NULL), WM_EINVAL);
}

static void test_pageblock_from_pmd_is_its_order_capped_by_the_largest_buddy_order(void **state)
{
	unsigned long pages;
	unsigned order;

	/* x86-64 and arm64 4K: 2 MiB PMD, orders 0..10 */
	assert_int_equal(wm_pageblock_from_pmd(4096, 2097152, 11, &order, &pages, NULL), WM_OK);
	assert_int_equal(order, 9);
	assert_int_equal(pages, 512);
	/* arm64 16K: 32 MiB PMD, orders 0..11 (docs/model.md §11.1) */
	assert_int_equal(wm_pageblock_from_pmd(16384, 32u << 20, 12, &order, &pages, NULL), WM_OK);
	assert_int_equal(order, 11);
	assert_int_equal(pages, 2048);
	/* arm64 64K: 512 MiB PMD, orders 0..13 */
	assert_int_equal(wm_pageblock_from_pmd(65536, 512u << 20, 14, &order, &pages, NULL), WM_OK);
	assert_int_equal(order, 13);
	/* MAX_PAGE_ORDER below the PMD order caps the block */
	assert_int_equal(wm_pageblock_from_pmd(65536, 512u << 20, 12, &order, &pages, NULL), WM_OK);
	assert_int_equal(order, 11);
	assert_int_equal(pages, 2048);
	assert_int_equal(wm_pageblock_from_pmd(4096, 3u << 20, 11, &order, &pages, NULL), WM_EINVAL);
	assert_int_equal(wm_pageblock_from_pmd(4096, 1000, 11, &order, &pages, NULL), WM_EINVAL);
	assert_int_equal(wm_pageblock_from_pmd(4096, 2097152, 0, &order, &pages, NULL), WM_EINVAL);
	assert_int_equal(wm_pageblock_from_pmd(0, 2097152, 11, &order, &pages, NULL), WM_EINVAL);
}

static void test_buddyinfo_orders_are_the_counts_of_the_first_zone_line(void **state)
{
	static const char six12[] =
		"Node 0, zone      DMA      0      0      0      0      0      0      0      1      0      1      3 \n"
		"Node 0, zone    DMA32      2      2      1      1      0      2      2      3      2      3    734 \n";
	static const char short_line[] = "Node 0, zone   Normal\n";
	static const char junk[] = "Node 0, zone   Normal  1 2 x\n";
	struct wm_diag d = { 0 };
	unsigned n = 0;

	assert_int_equal(wm_parse_buddyinfo_orders(six12, sizeof(six12) - 1, &n, NULL), WM_OK);
	assert_int_equal(n, 11);
	assert_int_equal(wm_parse_buddyinfo_orders(short_line, sizeof(short_line) - 1, &n, &d),
			 WM_EPARSE);
	assert_int_equal(d.line, 1);
	assert_int_equal(wm_parse_buddyinfo_orders(junk, sizeof(junk) - 1, &n, NULL), WM_EPARSE);
	assert_int_equal(wm_parse_buddyinfo_orders("", 0, &n, NULL), WM_ENOZONE);
}

/* ---- against real kernels: the capture corpus ------------------------- */

static char *slurp(const char *dir, const char *rel, size_t *len)
{
	char path[8192];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return slurp_path(path, len);
}

/*
 * Every capture of the corpus that kept pagetypeinfo beside buddyinfo,
 * THP's hpage_pmd_size (thp.txt) and meminfo: where the kernel has
 * hugetlb (meminfo prints Hugepagesize) and THP, the rule gives the order
 * pagetypeinfo printed; a kernel without THP (no hpage_pmd_size: the RT
 * flavour) leaves the rule nothing to go on, and wmark reads pagetypeinfo
 * there.  The page size is MemTotal over the managed pages.
 */
static void test_pageblock_from_pmd_is_what_every_captured_kernel_printed(void **state)
{
	const char *src = getenv("WMARK_SRC");
	char corpus[4096], dir[8192];
	struct dirent *e;
	DIR *dp;
	int checked = 0, declined = 0;

	snprintf(corpus, sizeof(corpus), "%s/../shared/corpus", src && *src ? src : ".");
	if (!(dp = opendir(corpus))) {
		print_message("# SKIP: no capture corpus at %s (set WMARK_SRC to the repository root)\n",
			      corpus);
		skip();
		return;
	}
	while ((e = readdir(dp))) {
		char *pti, *bi, *thp, *mi, *zi_text, *p;
		size_t lpti, lbi, lthp, lmi, lzi, i;
		unsigned want_order = 0, orders = 0, page_size = 0, order = 0;
		unsigned long want_pages = 0, pages = 0;
		uint64_t memtotal = 0, managed = 0;
		struct pf_kv kv = { 0 };
		struct zi_info zi;
		bool hugetlb;

		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", corpus, e->d_name);
		pti = slurp(dir, "before/pagetypeinfo", &lpti);
		bi = slurp(dir, "before/buddyinfo", &lbi);
		thp = slurp(dir, "thp.txt", &lthp);
		mi = slurp(dir, "meminfo", &lmi);
		zi_text = slurp(dir, "before/zoneinfo", &lzi);
		if (!pti || !bi || !thp || !mi || !zi_text) {
			free(pti), free(bi), free(thp), free(mi), free(zi_text);
			continue;
		}
		assert_int_equal(wm_parse_pagetypeinfo(pti, lpti, &want_order, &want_pages, NULL), WM_OK);
		assert_int_equal(wm_parse_buddyinfo_orders(bi, lbi, &orders, NULL), WM_OK);
		assert_int_equal(pf_parse_meminfo(mi, lmi, &kv, NULL), WM_OK);
		assert_true(pf_kv_get(&kv, "MemTotal", &memtotal));
		hugetlb = pf_kv_get(&kv, "Hugepagesize", &(uint64_t){ 0 });
		pf_kv_free(&kv);
		assert_int_equal(zi_parse(zi_text, lzi, &zi, NULL), WM_OK);
		for (i = 0; i < zi.nzones; i++)
			managed += zi.zones[i].managed;
		zi_free(&zi);
		assert_int_equal(wm_page_size_from_meminfo(memtotal, managed, &page_size), WM_OK);
		p = strstr(thp, "hpage_pmd_size: ");
		if (!p || !hugetlb) {
			declined++;
		} else {
			assert_int_equal(wm_pageblock_from_pmd(page_size, strtoull(p + 16, NULL, 10),
							       orders, &order, &pages, NULL), WM_OK);
			if (order != want_order || pages != want_pages)
				fail_msg("%s: the rule gives order %u (%lu pages), pagetypeinfo says %u (%lu)",
					 e->d_name, order, pages, want_order, want_pages);
			checked++;
		}
		free(pti), free(bi), free(thp), free(mi), free(zi_text);
	}
	closedir(dp);
	print_message("# %d captures agree with their pagetypeinfo, %d without THP left to it\n",
		      checked, declined);
	assert_true(checked > 0);
}

/*
 * pageblock_order is HUGETLB_PAGE_ORDER capped at the largest buddy order
 * (include/linux/pageblock-flags.h): the order of HPAGE_SHIFT - PAGE_SHIFT,
 * which is 20 - 12 on s390x (arch/s390/include/asm/page.h), 21 - 12 on
 * x86 PAE and riscv64 (PMD_SHIFT 21), and 22 - 12 = 10 on i386's two-level
 * tables (PGDIR_SHIFT 22), the largest order there.
 */
static void test_pageblock_comes_from_the_machines_architecture(void **state)
{
	static const struct {
		enum wm_arch arch;
		unsigned page_size;
		unsigned long pages;
	} want[] = {
		{ WM_ARCH_UNKNOWN, 4096, 512 }, { WM_ARCH_X86_64, 4096, 512 },
		{ WM_ARCH_ARM64, 16384, 2048 }, { WM_ARCH_ARM64, 65536, 8192 },
		{ WM_ARCH_S390X, 4096, 256 }, { WM_ARCH_RISCV64, 4096, 512 },
		{ WM_ARCH_I386_PAE, 4096, 512 }, { WM_ARCH_I386, 4096, 1024 },
	};
	unsigned long pages;
	unsigned order;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(wm_pageblock_of_arch(want[i].arch, want[i].page_size, &pages,
						      &order, NULL), WM_OK);
		assert_int_equal(pages, want[i].pages);
		assert_int_equal(1ul << order, pages);
	}
	assert_int_equal(wm_pageblock_of_arch(WM_ARCH_S390X, 16384, &pages, &order, NULL),
			 WM_EINVAL);
	assert_true(wm_arch_pmd_hugepage(WM_ARCH_S390X));
	assert_false(wm_arch_pmd_hugepage(WM_ARCH_PPC64));
	assert_false(wm_arch_pmd_hugepage(WM_ARCH_UNKNOWN));
}

static void test_architecture_names_are_uname_m_debian_and_release_suffixes(void **state)
{
	enum wm_arch a = WM_ARCH_UNKNOWN;

	(void)state;
	assert_int_equal(wm_arch_parse("s390x", &a, NULL), WM_OK);
	assert_int_equal(a, WM_ARCH_S390X);
	assert_int_equal(wm_arch_parse("amd64", &a, NULL), WM_OK);
	assert_int_equal(a, WM_ARCH_X86_64);
	assert_int_equal(wm_arch_parse("i686", &a, NULL), WM_OK);
	assert_int_equal(a, WM_ARCH_I386);
	assert_int_equal(wm_arch_parse("i686-pae", &a, NULL), WM_OK);
	assert_int_equal(a, WM_ARCH_I386_PAE);
	assert_int_equal(wm_arch_parse("sparc64", &a, NULL), WM_EINVAL);
	assert_true(wm_arch_from_release("6.12.107+deb13-s390x", &a));
	assert_int_equal(a, WM_ARCH_S390X);
	assert_true(wm_arch_from_release("6.1.0-57-686-pae", &a));
	assert_int_equal(a, WM_ARCH_I386_PAE);
	assert_true(wm_arch_from_release("6.1.0-57-686", &a));
	assert_int_equal(a, WM_ARCH_I386);
	assert_true(wm_arch_from_release("6.12.117+deb13-riscv64", &a));
	assert_int_equal(a, WM_ARCH_RISCV64);
	assert_true(wm_arch_from_release("6.12.117+deb13-arm64-16k", &a));
	assert_int_equal(a, WM_ARCH_ARM64);
	assert_true(wm_arch_from_release("6.1.0-18-cloud-amd64", &a));
	assert_int_equal(a, WM_ARCH_X86_64);
	assert_false(wm_arch_from_release("6.18.44-fc-v595", &a));
	assert_false(wm_arch_from_release("5.10.186-android12-9", &a));
	assert_false(wm_arch_from_release("s390x", &a));
}

static void test_geometry_of_an_s390x_without_pagetypeinfo_is_256_pages(void **state)
{
	struct wm_geometry g;

	(void)state;
	/* qemu-s390x-k612-4g: MemTotal 4090660 kB = 1022665 managed pages */
	assert_int_equal(wm_geometry_settle_arch(WM_ARCH_S390X, 0, 4090660, 1022665, 0, 0,
						 &g, NULL), WM_OK);
	assert_int_equal(g.page_size, 4096);
	assert_int_equal(g.pageblock_pages, 256);
	assert_int_equal(g.pageblock_order, 8);
	assert_int_equal(g.pageblock_from, WM_GEO_DERIVED);
	/* pagetypeinfo still wins */
	assert_int_equal(wm_geometry_settle_arch(WM_ARCH_S390X, 0, 4090660, 1022665, 9, 512,
						 &g, NULL), WM_OK);
	assert_int_equal(g.pageblock_pages, 512);
	assert_int_equal(wm_geometry_settle_arch(WM_ARCH_S390X, 65536, 0, 0, 0, 0, &g, NULL),
			 WM_EINVAL);
}

/*
 * set_recommended_min_free_kbytes() (mm/khugepaged.c, 6.12): 2 pageblocks
 * per counted zone plus MIGRATE_PCPTYPES^2 = 9, i.e. pageblock_nr_pages x
 * zones x 11, in KiB: 256 x 2 x 11 x 4 on an s390x with DMA and Normal.
 */
static void test_s390x_thp_min_free_kbytes_is_eleven_256_page_blocks_per_zone(void **state)
{
	struct wm_profile p;
	struct wm_zone z[3] = {
		{ .idx = 0, .type = WM_ZONE_DMA, .managed = 518657, .present = 524288 },
		{ .idx = 1, .type = WM_ZONE_NORMAL, .managed = 504008, .present = 524288 },
		{ .idx = 2, .type = WM_ZONE_MOVABLE },
	};
	struct wm_machine m = { .zones = z, .nzones = 3, .page_size = 4096 };
	struct wm_sysctl s;
	struct wm_mfk mfk;
	unsigned order;

	(void)state;
	profile("6.12.107+deb13-s390x", &p);
	assert_int_equal(wm_pageblock_of_arch(WM_ARCH_S390X, 4096, &m.pageblock_pages, &order,
					      NULL), WM_OK);
	defaults(&p, &m, &s);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_ALWAYS, &mfk, NULL), WM_OK);
	assert_int_equal(mfk.thp_uncapped_kb, 256L * 2 * 11 * 4);
	assert_int_equal(mfk.thp_kb, 22528);
	/*
	 * int_sqrt(4090660 * 16) = 8090 from the managed pages of now; the
	 * kernel counted before the initramfs was freed and booted with 8087
	 */
	assert_int_equal(mfk.sqrt_kb, 8090);
	assert_int_equal(mfk.value, 22528);
	assert_int_equal(mfk.rule, WM_MFK_THP);
	/* without THP (qemu's s390x CPU has no EDAT-1: no THP at all) */
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_UNSUPPORTED, &mfk, NULL),
			 WM_OK);
	assert_int_equal(mfk.value, 8090);
}

static void test_page_size_is_memtotal_over_managed(void **state)
{
	unsigned ps = 0;

	/* 11.1: arm64 16K 4 GiB, MemTotal 4066048 kB over 254128 managed pages */
	assert_int_equal(wm_page_size_from_meminfo(4066048, 254128, &ps), WM_OK);
	assert_int_equal(ps, 16384);
	/* ppc64le 64K: 4127616 kB over 64494 pages */
	assert_int_equal(wm_page_size_from_meminfo(4127616, 64494, &ps), WM_OK);
	assert_int_equal(ps, 65536);
	/* the 6.1 qemu capture: 4 KiB pages */
	assert_int_equal(wm_page_size_from_meminfo(4010988, 1002747, &ps), WM_OK);
	assert_int_equal(ps, 4096);
}

static void test_page_size_tolerates_memory_moving_between_reads(void **state)
{
	unsigned ps = 0;

	/* 0.5% more managed pages than MemTotal said a moment before */
	assert_int_equal(wm_page_size_from_meminfo(4066048, 255398, &ps), WM_OK);
	assert_int_equal(ps, 16384);
}

static void test_page_size_no_power_of_two_fits_is_refused(void **state)
{
	unsigned ps = 0;

	assert_int_equal(wm_page_size_from_meminfo(4066048, 190000, &ps), WM_ENOZONE);
	assert_int_equal(wm_page_size_from_meminfo(4066048, 0, &ps), WM_ENOZONE);
	assert_int_equal(wm_page_size_from_meminfo(0, 254128, &ps), WM_ENOZONE);
	assert_int_equal(wm_page_size_from_meminfo(UINT64_MAX, UINT64_MAX / 2, &ps), WM_ENOZONE);
}

static void test_pagetypeinfo_gives_order_and_pages(void **state)
{
	static const char ppc[] = "Page block order: 5\nPages per block:  32\n\n"
				  "Free pages count per migrate type at order       0      1\n"
				  "Node    0, zone   Normal, type    Unmovable     12     3\n";
	static const char arm[] = "Page block order: 11\nPages per block:  2048\n";
	unsigned order = 0;
	unsigned long pages = 0;

	assert_int_equal(wm_parse_pagetypeinfo(ppc, sizeof(ppc) - 1, &order, &pages, NULL), WM_OK);
	assert_int_equal(order, 5);
	assert_int_equal(pages, 32);
	assert_int_equal(wm_parse_pagetypeinfo(arm, sizeof(arm) - 1, &order, &pages, NULL), WM_OK);
	assert_int_equal(order, 11);
	assert_int_equal(pages, 2048);
}

static void test_pagetypeinfo_that_contradicts_itself_is_refused(void **state)
{
	static const char bad[] = "Page block order: 9\nPages per block:  1024\n";
	static const char junk[] = "Page block order: nine\n";
	static const char none[] = "Free pages count per migrate type at order 0\n";
	struct wm_diag d = { 0 };
	unsigned order;
	unsigned long pages;

	assert_int_equal(wm_parse_pagetypeinfo(bad, sizeof(bad) - 1, &order, &pages, &d), WM_EPARSE);
	assert_int_equal(d.line, 2);
	assert_int_equal(wm_parse_pagetypeinfo(junk, sizeof(junk) - 1, &order, &pages, &d), WM_EPARSE);
	assert_int_equal(d.line, 1);
	assert_int_equal(wm_parse_pagetypeinfo(none, sizeof(none) - 1, &order, &pages, &d),
			 WM_ENOZONE);
}

static void test_geometry_says_where_each_value_came_from(void **state)
{
	struct wm_geometry g;

	/* nothing says the page size: an error, not a guess */
	assert_int_equal(wm_geometry_settle(0, 0, 0, 0, 0, &g, NULL), WM_ENODATA);
	assert_int_equal(wm_geometry_settle(0, 4066048, 1, 0, 0, &g, NULL), WM_ENODATA);
	/* the caller's default, said to be one */
	assert_int_equal(wm_geometry_assume(WM_ARCH_UNKNOWN, 4096, false, 0, 0, &g, NULL), WM_OK);
	assert_int_equal(g.page_size, 4096);
	assert_int_equal(g.page_size_from, WM_GEO_ASSUMED);
	assert_int_equal(g.pageblock_pages, 512);
	assert_int_equal(g.pageblock_from, WM_GEO_DERIVED);
	assert_int_equal(wm_geometry_assume(WM_ARCH_UNKNOWN, 0, false, 0, 0, &g, NULL), WM_EINVAL);

	assert_int_equal(wm_geometry_settle(0, 4066048, 254128, 0, 0, &g, NULL), WM_OK);
	assert_int_equal(g.page_size, 16384);
	assert_int_equal(g.page_size_from, WM_GEO_MEMINFO);
	assert_int_equal(g.pageblock_pages, 2048);

	/* ppc64le: the pageblock is the machine's word, not the page size's */
	assert_int_equal(wm_geometry_settle(65536, 0, 0, 5, 32, &g, NULL), WM_OK);
	assert_int_equal(g.page_size_from, WM_GEO_GIVEN);
	assert_int_equal(g.pageblock_pages, 32);
	assert_int_equal(g.pageblock_order, 5);
	assert_int_equal(g.pageblock_from, WM_GEO_GIVEN);

	assert_int_equal(wm_geometry_settle(65536, 0, 0, 5, 48, &g, NULL), WM_EINVAL);
}

/* ---- the model at other page sizes (docs/model.md §11.1) ------------- */

static void test_arm64_16k_after_wsf_120_matches_the_kernel(void **state)
{
	struct wm_profile p;
	struct wm_zone z[5];
	struct wm_machine m = { .zones = z, .nzones = 5, .page_size = 16384,
				.pageblock_pages = 2048 };
	struct wm_sysctl s;
	struct wm_zone_wm w[5];

	profile("6.12.117", &p);
	five_zones(z, 189223, 0, 64905);
	defaults(&p, &m, &s);
	s.min_free_kbytes = 202272;
	s.wsf = 120;
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	/* pages_min = 202272 >> 4 = 12642 */
	assert_int_equal(w[0].min, 9413);
	assert_int_equal(w[0].low, 11766);
	assert_int_equal(w[0].high, 14119);
	assert_int_equal(w[0].promo, 16472);
	assert_int_equal(w[2].min, 3228);
	assert_int_equal(w[2].low, 4035);
	assert_int_equal(w[2].high, 4842);
	assert_int_equal(w[2].promo, 5649);
	/* wsf 120 changes nothing here: the floor wins in both zones */
	assert_true(w[0].wsf_floor > 120);
	assert_true(w[2].wsf_floor > 120);
}

/*
 * The 4 GiB boot printed 202272 with THP and 8045 with THP never.  Both
 * come from one nr_free_buffer_pages(), so one machine must give both:
 * DMA 273 pages (4.3 MiB) below the post-boot 189223, the init memory
 * freed after the boot computation.
 */
static void test_arm64_16k_4g_boot_gives_202272_with_thp_and_8045_without(void **state)
{
	struct wm_profile p;
	struct wm_zone z[5];
	struct wm_machine m = { .zones = z, .nzones = 5, .page_size = 16384,
				.pageblock_pages = 2048 };
	struct wm_sysctl s;
	struct wm_mfk mfk;

	profile("6.12.117", &p);
	five_zones(z, 188950, 0, 64905);
	defaults(&p, &m, &s);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_MADVISE, &mfk, NULL), WM_OK);
	assert_int_equal(mfk.value, 202272);
	assert_int_equal(mfk.rule, WM_MFK_THP);
	/* the 5% cap: pageblock x zones x 11 would be 2048 x 2 x 11 pages */
	assert_int_equal(mfk.thp_uncapped_kb, 2048L * 2 * 11 * 16);
	assert_true(mfk.thp_kb < mfk.thp_uncapped_kb);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_NEVER, &mfk, NULL), WM_OK);
	assert_int_equal(mfk.value, 8045);
}

static void test_arm64_16k_boot_figures_are_the_5_percent_cap(void **state)
{
	/* 1 GiB 49680, 8 GiB 410160: (nr_free_buffer_pages / 20) << 4 */
	/* 1 GiB: all of it DMA; 8 GiB: DMA up to 4 GiB, the rest Normal */
	static const struct { unsigned long dma, nfbp_lo, nfbp_hi; long kb; } seen[] = {
		{ 0, 62100, 62119, 49680 },
		{ 258000, 512700, 512719, 410160 },
	};
	size_t i;

	for (i = 0; i < sizeof(seen) / sizeof(seen[0]); i++) {
		struct wm_profile p;
		struct wm_zone z[5];
		struct wm_machine m = { .zones = z, .nzones = 5, .page_size = 16384,
					.pageblock_pages = 2048 };
		struct wm_sysctl s;
		struct wm_mfk mfk;
		struct wm_zone_wm w[5];
		unsigned long v, free_buffers = 0;
		int j, hits = 0;

		profile("6.12.117", &p);
		/* every size whose nr_free_buffer_pages() lands in the window */
		for (v = seen[i].nfbp_lo - seen[i].dma; v < seen[i].nfbp_hi - seen[i].dma + 4000; v += 7) {
			if (seen[i].dma)
				five_zones(z, seen[i].dma, 0, v);
			else
				five_zones(z, v, 0, 0);
			defaults(&p, &m, &s);
			assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_MADVISE, &mfk, NULL),
					 WM_OK);
			s.min_free_kbytes = mfk.sqrt_kb;
			assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
			for (free_buffers = 0, j = 0; j < 3; j++)
				free_buffers += z[j].managed - w[j].high;
			if (free_buffers < seen[i].nfbp_lo || free_buffers > seen[i].nfbp_hi)
				continue;
			assert_int_equal(mfk.value, seen[i].kb);
			hits++;
		}
		assert_true(hits > 0);
	}
}

/* 16 GiB on 2 nodes booted with 827296: (51706 pages << 4), the cap again */
static void test_arm64_16k_16g_on_two_nodes_is_the_cap_of_both_nodes(void **state)
{
	struct wm_profile p;
	struct wm_zone z[10];
	struct wm_machine m = { .zones = z, .nzones = 10, .page_size = 16384,
				.pageblock_pages = 2048 };
	struct wm_sysctl s;
	struct wm_mfk mfk;
	struct wm_zone_wm w[10];
	unsigned long v, free_buffers;
	int j, hits = 0;

	profile("6.12.117", &p);
	for (v = 515000; v < 535000; v += 5) {
		five_zones(z, 258000, 0, 258000);
		five_zones(z + 5, 0, 0, v);
		for (j = 5; j < 10; j++)
			z[j].node = 1;
		m.nzones = 5;	/* the defaults are per node */
		defaults(&p, &m, &s);
		m.nzones = 10;
		assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_MADVISE, &mfk, NULL), WM_OK);
		s.min_free_kbytes = mfk.sqrt_kb;
		s.have |= WM_HAVE_MFK;
		assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
		for (free_buffers = 0, j = 0; j < 10; j++)
			if (z[j].type <= WM_ZONE_NORMAL)
				free_buffers += z[j].managed - w[j].high;
		if (free_buffers < 1034120 || free_buffers > 1034139)
			continue;
		/* three populated lowmem zones: 2048 x 3 x 11 pages is above the cap */
		assert_int_equal(mfk.thp_zones, 3);
		assert_int_equal(mfk.value, 827296);
		hits++;
	}
	assert_true(hits > 0);
}

static void test_ppc64le_64k_uses_the_32_page_pageblock_it_reports(void **state)
{
	struct wm_profile p;
	/* zones Normal, Movable, Device: lowmem_reserve_ratio "32 0 0" */
	struct wm_zone z[3] = {
		{ .idx = 0, .type = WM_ZONE_NORMAL, .managed = 64494, .present = 64494 },
		{ .idx = 1, .type = WM_ZONE_MOVABLE },
		{ .idx = 2, .type = WM_ZONE_DEVICE },
	};
	struct wm_machine m = { .zones = z, .nzones = 3, .page_size = 65536,
				.pageblock_pages = 32 };
	struct wm_sysctl s;
	struct wm_mfk mfk;
	struct wm_zone_wm w[3];

	profile("6.12.107", &p);
	defaults(&p, &m, &s);
	assert_int_equal(s.nlrr, 3);
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_ALWAYS, &mfk, NULL), WM_OK);
	/* 32 pages x 1 zone x 11 x 64 KiB */
	assert_int_equal(mfk.value, 22528);
	assert_int_equal(mfk.rule, WM_MFK_THP);
	s.min_free_kbytes = mfk.value;
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[0].min, 352);
	assert_int_equal(w[0].low, 440);
	assert_int_equal(w[0].high, 528);
	assert_int_equal(w[0].promo, 616);
	s.wsf = 120;
	assert_int_equal(wm_setup_wmarks(&p, &m, &s, w, NULL), WM_OK);
	assert_int_equal(w[0].low, 1125);
	assert_int_equal(w[0].high, 1898);
	assert_int_equal(w[0].promo, 2671);

	/* the pageblock derived from the page size would be 256 times larger */
	m.pageblock_pages = 8192;
	assert_int_equal(wm_boot_min_free_kbytes(&p, &m, &s, WM_THP_ALWAYS, &mfk, NULL), WM_OK);
	assert_int_not_equal(mfk.value, 22528);
}

/* ---- zoneinfo -> model ----------------------------------------------- */

static void layout_of(const char *text, struct zi_info *zi, struct wm_layout *l)
{
	assert_int_equal(zi_parse(text, strlen(text), zi, NULL), WM_OK);
	assert_int_equal(wm_layout_from_zoneinfo(zi, l, NULL), WM_OK);
}

static void test_layout_puts_back_zones_a_pre_4_12_kernel_did_not_print(void **state)
{
	/* 4.9 prints populated zones only; protection has 4 entries */
	static const char zi49[] =
		"Node 0, zone      DMA\n  pages free     3977\n        min      33\n"
		"        low      41\n        high     49\n        spanned  4095\n"
		"        present  3998\n        managed  3977\n"
		"        protection: (0, 2983, 7958, 7958)\n"
		"Node 0, zone    DMA32\n  pages free     700000\n        min      6224\n"
		"        low      7780\n        high     9336\n        spanned  1044480\n"
		"        present  782304\n        managed  764000\n"
		"        protection: (0, 0, 4975, 4975)\n"
		"Node 0, zone   Normal\n  pages free     1000\n        min      10400\n"
		"        low      13000\n        high     15600\n        spanned  1310720\n"
		"        present  1310720\n        managed  1273600\n"
		"        protection: (0, 0, 0, 0)\n";
	struct zi_info zi;
	struct wm_layout l;

	layout_of(zi49, &zi, &l);
	assert_int_equal(l.nzones, 4);
	assert_int_equal(l.zones[0].type, WM_ZONE_DMA);
	assert_int_equal(l.zones[1].type, WM_ZONE_DMA32);
	assert_int_equal(l.zones[2].type, WM_ZONE_NORMAL);
	assert_int_equal(l.zones[3].type, WM_ZONE_MOVABLE);
	assert_int_equal(l.zones[3].managed, 0);
	assert_int_equal(l.printed[3], -1);
	assert_int_equal(l.printed[2], 2);
	assert_int_equal(l.zones[1].managed, 764000);
	assert_int_equal(l.zones[1].present, 782304);
	assert_false(l.used_present);
	assert_null(wm_layout_zone(&l, &zi, 3));
	assert_ptr_equal(wm_layout_zone(&l, &zi, 1), &zi.zones[1]);
	wm_layout_free(&l);
	zi_free(&zi);
}

static void test_layout_before_3_8_uses_present_pages(void **state)
{
	static const char zi32[] =
		"Node 0, zone   Normal\n  pages free     1000\n        min      1400\n"
		"        low      1750\n        high     2100\n        present  225280\n"
		"        protection: (0, 0)\n"
		"Node 0, zone  HighMem\n  pages free     100\n        min      128\n"
		"        low      500\n        high     800\n        present  300000\n"
		"        protection: (0, 0)\n";
	struct zi_info zi;
	struct wm_layout l;

	layout_of(zi32, &zi, &l);
	assert_true(l.used_present);
	assert_int_equal(l.nzones, 2);
	assert_int_equal(l.zones[0].managed, 225280);
	assert_int_equal(l.zones[1].type, WM_ZONE_HIGHMEM);
	assert_int_equal(l.zones[1].managed, 300000);
	wm_layout_free(&l);
	zi_free(&zi);
}

static void test_layout_gives_every_node_the_same_zone_list(void **state)
{
	static const char two[] =
		"Node 0, zone      DMA\n        min 1\n        low 2\n        high 3\n"
		"        present 3998\n        managed 3977\n"
		"        protection: (0, 1, 2, 3, 3)\n"
		"Node 0, zone   Normal\n        min 1\n        low 2\n        high 3\n"
		"        present 100\n        managed 100\n"
		"        protection: (0, 0, 0, 0, 0)\n"
		"Node 1, zone   Normal\n        min 1\n        low 2\n        high 3\n"
		"        present 200\n        managed 200\n"
		"        protection: (0, 0, 0, 0, 0)\n";
	struct zi_info zi;
	struct wm_layout l;
	size_t i;

	layout_of(two, &zi, &l);
	/* five entries of protection: five zone types on each node */
	assert_int_equal(l.nzones, 10);
	for (i = 0; i < 5; i++) {
		assert_int_equal(l.zones[i].node, 0);
		assert_int_equal(l.zones[5 + i].node, 1);
		assert_int_equal(l.zones[i].type, l.zones[5 + i].type);
		assert_int_equal(l.zones[i].idx, (int)i);
	}
	assert_int_equal(l.zones[5].type, WM_ZONE_DMA);
	assert_int_equal(l.zones[5].managed, 0);	/* node 1 has no DMA */
	assert_int_equal(l.printed[5], -1);
	assert_int_equal(l.zones[6].type, WM_ZONE_NORMAL);
	assert_int_equal(l.zones[6].managed, 200);
	assert_int_equal(l.printed[6], 2);
	wm_layout_free(&l);
	zi_free(&zi);
}

static void test_printed_values_have_a_printed_boost_taken_off(void **state)
{
	static const char boosted[] =
		"Node 0, zone   Normal\n  pages free     500\n        boost    1024\n"
		"        min      1424\n        low      1524\n        high     1624\n"
		"        promo    1724\n        present 100000\n        managed 90000\n"
		"        protection: (0, 0, 0, 0, 0)\n";
	struct zi_info zi;
	struct wm_layout l;
	struct wm_printed pr[WM_MAX_ZONES];
	unsigned long boost[WM_MAX_ZONES];
	size_t i;

	layout_of(boosted, &zi, &l);
	wm_printed_from_zoneinfo(&zi, &l, pr, boost);
	for (i = 0; i < l.nzones; i++) {
		if (l.zones[i].type != WM_ZONE_NORMAL) {
			assert_false(pr[i].shown);
			continue;
		}
		assert_true(pr[i].shown);
		assert_true(pr[i].has_wm);
		assert_true(pr[i].has_promo);
		assert_int_equal(boost[i], 1024);
		assert_int_equal(pr[i].min, 400);
		assert_int_equal(pr[i].low, 500);
		assert_int_equal(pr[i].high, 600);
		assert_int_equal(pr[i].promo, 700);
		assert_int_equal(pr[i].nprot, 5);
	}
	wm_layout_free(&l);
	zi_free(&zi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pageblock_is_pmd_order_of_the_page_size),
		cmocka_unit_test(test_pageblock_from_pmd_is_its_order_capped_by_the_largest_buddy_order),
		cmocka_unit_test(test_buddyinfo_orders_are_the_counts_of_the_first_zone_line),
		cmocka_unit_test(test_pageblock_from_pmd_is_what_every_captured_kernel_printed),
		cmocka_unit_test(test_pageblock_comes_from_the_machines_architecture),
		cmocka_unit_test(test_architecture_names_are_uname_m_debian_and_release_suffixes),
		cmocka_unit_test(test_geometry_of_an_s390x_without_pagetypeinfo_is_256_pages),
		cmocka_unit_test(test_s390x_thp_min_free_kbytes_is_eleven_256_page_blocks_per_zone),
		cmocka_unit_test(test_page_size_is_memtotal_over_managed),
		cmocka_unit_test(test_page_size_tolerates_memory_moving_between_reads),
		cmocka_unit_test(test_page_size_no_power_of_two_fits_is_refused),
		cmocka_unit_test(test_pagetypeinfo_gives_order_and_pages),
		cmocka_unit_test(test_pagetypeinfo_that_contradicts_itself_is_refused),
		cmocka_unit_test(test_geometry_says_where_each_value_came_from),
		cmocka_unit_test(test_arm64_16k_after_wsf_120_matches_the_kernel),
		cmocka_unit_test(test_arm64_16k_4g_boot_gives_202272_with_thp_and_8045_without),
		cmocka_unit_test(test_arm64_16k_boot_figures_are_the_5_percent_cap),
		cmocka_unit_test(test_arm64_16k_16g_on_two_nodes_is_the_cap_of_both_nodes),
		cmocka_unit_test(test_ppc64le_64k_uses_the_32_page_pageblock_it_reports),
		cmocka_unit_test(test_layout_puts_back_zones_a_pre_4_12_kernel_did_not_print),
		cmocka_unit_test(test_layout_before_3_8_uses_present_pages),
		cmocka_unit_test(test_layout_gives_every_node_the_same_zone_list),
		cmocka_unit_test(test_printed_values_have_a_printed_boost_taken_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
