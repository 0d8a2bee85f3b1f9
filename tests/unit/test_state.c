// SPDX-License-Identifier: MIT
/*
 * test_state.c - the machine as one value (calc/state.c): real captures
 * of Debian 5.10 (whose release string hides the sublevel), an arm64
 * kernel with 16 KiB pages and a ppc64le one with 64 KiB pages, read as
 * texts; and what each missing or wrong text gives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "slurp.h"

#include "../../calc/state.h"

/* The files of a root tree, as a reader would find them. */
static const char *const rel[WM_TEXT_COUNT] = {
	[WM_TEXT_OSRELEASE] = "proc/sys/kernel/osrelease",
	[WM_TEXT_VERSION] = "proc/sys/kernel/version",
	[WM_TEXT_ZONEINFO] = "proc/zoneinfo",
	[WM_TEXT_MFK] = "proc/sys/vm/min_free_kbytes",
	[WM_TEXT_WSF] = "proc/sys/vm/watermark_scale_factor",
	[WM_TEXT_BOOST] = "proc/sys/vm/watermark_boost_factor",
	[WM_TEXT_EXTRA] = "proc/sys/vm/extra_free_kbytes",
	[WM_TEXT_LRR] = "proc/sys/vm/lowmem_reserve_ratio",
	[WM_TEXT_THP] = "sys/kernel/mm/transparent_hugepage/enabled",
	[WM_TEXT_ARCH] = "proc/sys/kernel/arch",
	[WM_TEXT_MEMINFO] = "proc/meminfo",
	[WM_TEXT_GEOMETRY] = "wmark/geometry",
	[WM_TEXT_PAGETYPEINFO] = "proc/pagetypeinfo",
};

struct root {
	struct wm_texts t;
	char *buf[WM_TEXT_COUNT];
};

/* Read data/machines/NAME's texts into *r (a capture: not live). */
static void load(struct root *r, const char *name)
{
	const char *src = getenv("WMARK_SRC");
	char path[4096];
	size_t len;
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < WM_TEXT_COUNT; i++) {
		if (!rel[i])
			continue;
		snprintf(path, sizeof(path), "%s/data/machines/%s/%s", src && *src ? src : ".",
			 name, rel[i]);
		r->buf[i] = slurp_path(path, &len);
		if (r->buf[i])
			r->t.text[i] = (struct wm_text_buf){ r->buf[i], len };
	}
	assert_non_null(r->buf[WM_TEXT_ZONEINFO]);
	r->t.assumed_page_size = 4096;
	r->t.need = WM_NEED_ZONEINFO;
}

static void drop(struct root *r, enum wm_text id)
{
	r->t.text[id] = (struct wm_text_buf){ NULL, 0 };
}

static void set(struct root *r, enum wm_text id, const char *s)
{
	r->t.text[id] = (struct wm_text_buf){ s, strlen(s) };
}

static void unload(struct root *r)
{
	int i;

	for (i = 0; i < WM_TEXT_COUNT; i++)
		free(r->buf[i]);
}

/* ---- the kernel ------------------------------------------------------ */

static void test_a_debian_510_release_takes_its_sublevel_from_the_version_line(void **state)
{
	struct wm_kernel_id k;
	struct wm_state s;
	struct wm_diag d = { 0 };
	enum wm_text which;
	struct root r;

	/* osrelease 5.10.0-43-cloud-amd64; version "Debian 5.10.251-5" */
	load(&r, "qemu-k510-2g-server");
	assert_int_equal(wm_state_kernel(&r.t, &k, &which, &d), WM_OK);
	assert_string_equal(k.osrelease, "5.10.0-43-cloud-amd64");
	assert_true(k.known);
	assert_int_equal(k.kver.sub, 251);
	/* 5.10.186+ took 6.x's wsf ceiling by backport */
	assert_int_equal(k.prof.wsf_max, 3000);

	/* so a wsf of 2000 is one this kernel accepts */
	set(&r, WM_TEXT_WSF, "2000\n");
	assert_int_equal(wm_state_build(&r.t, &s, &which, &d), WM_OK);
	assert_int_equal(s.sysctl.wsf, 2000);
	assert_int_equal(s.kernel.kver.sub, 251);
	wm_state_free(&s);

	/* without the version line it is 5.10.0, whose ceiling is 1000 */
	drop(&r, WM_TEXT_VERSION);
	assert_int_equal(wm_state_build(&r.t, &s, &which, &d), WM_EINVAL);
	assert_int_equal(which, WM_TEXT_WSF);
	assert_int_equal(d.line, 1);
	assert_non_null(strstr(d.msg, "2000"));
	unload(&r);
}

static void test_a_given_release_wins_and_keeps_its_own_sublevel(void **state)
{
	struct wm_kernel_id k;
	enum wm_text which;
	struct root r;

	load(&r, "qemu-k510-2g-server");
	set(&r, WM_TEXT_KERNEL, "5.10.0-20-amd64");
	assert_int_equal(wm_state_kernel(&r.t, &k, &which, NULL), WM_OK);
	/* the root's version line is of the root's kernel, not of this one */
	assert_int_equal(k.kver.sub, 0);
	assert_int_equal(k.prof.wsf_max, 1000);
	/* the root's release is still said */
	assert_string_equal(k.osrelease, "5.10.0-43-cloud-amd64");
	unload(&r);
}

static void test_no_release_is_the_newest_rules_not_known(void **state)
{
	struct wm_texts t = { 0 };
	struct wm_kernel_id k;
	struct wm_profile p;

	assert_int_equal(wm_state_kernel(&t, &k, NULL, NULL), WM_OK);
	assert_false(k.known);
	assert_string_equal(k.osrelease, "");
	wm_profile_default(&p);
	assert_memory_equal(&k.prof, &p, sizeof(p));
}

/* ---- page geometry: 16 KiB and 64 KiB machines ------------------------ */

static void test_the_arm64_16k_capture_has_16k_pages_and_2048_page_blocks(void **state)
{
	struct wm_state s;
	struct wm_diag d = { 0 };
	enum wm_text which;
	struct root r;

	/* Debian 6.12.117 arm64-16k booted under qemu with 4 GiB */
	load(&r, "qemu-arm64-k612-16k-4g");
	assert_int_equal(wm_state_build(&r.t, &s, &which, &d), WM_OK);
	assert_int_equal(s.geo.page_size, 16384);
	assert_int_equal(s.geo.page_size_from, WM_GEO_MEMINFO);
	assert_int_equal(s.m.page_size, 16384);
	/* pagetypeinfo printed "Pages per block: 2048" */
	assert_int_equal(s.geo.pageblock_pages, 2048);
	assert_int_equal(s.m.pageblock_pages, 2048);
	assert_int_equal(s.geo.arch, WM_ARCH_ARM64);
	assert_int_equal(s.kernel.kver.sub, 117);
	wm_state_free(&s);

	/* without pagetypeinfo: arm64's PMD at 16K is 2048 pages all the same */
	drop(&r, WM_TEXT_PAGETYPEINFO);
	assert_int_equal(wm_state_build(&r.t, &s, &which, &d), WM_OK);
	assert_int_equal(s.geo.page_size, 16384);
	assert_int_equal(s.geo.pageblock_pages, 2048);
	assert_int_equal(s.geo.pageblock_from, WM_GEO_DERIVED);
	wm_state_free(&s);
	unload(&r);
}

static void test_the_ppc64le_64k_capture_has_64k_pages_and_32_page_blocks(void **state)
{
	struct wm_state s;
	struct wm_diag d = { 0 };
	enum wm_text which;
	struct root r;

	/* Debian 6.12.107 powerpc64le-64k under qemu pseries with 4 GiB (radix MMU) */
	load(&r, "qemu-ppc64le-k612-64k-4g");
	assert_int_equal(wm_state_build(&r.t, &s, &which, &d), WM_OK);
	assert_int_equal(s.geo.page_size, 65536);
	assert_int_equal(s.geo.page_size_from, WM_GEO_MEMINFO);
	/* the order powerpc set at boot, as pagetypeinfo printed it */
	assert_int_equal(s.geo.pageblock_pages, 32);
	assert_int_equal(s.geo.pageblock_order, 5);
	assert_int_equal(s.geo.pageblock_from, WM_GEO_GIVEN);
	assert_int_equal(s.geo.arch, WM_ARCH_PPC64);
	wm_state_free(&s);
	unload(&r);
}

static void test_a_recorded_geometry_beats_memtotal(void **state)
{
	struct wm_state s;
	enum wm_text which;
	struct root r;

	load(&r, "qemu-arm64-k612-16k-4g");
	drop(&r, WM_TEXT_MEMINFO);
	set(&r, WM_TEXT_GEOMETRY, "page_size 16384\npageblock_order 11\n");
	drop(&r, WM_TEXT_PAGETYPEINFO);
	assert_int_equal(wm_state_build(&r.t, &s, &which, NULL), WM_OK);
	assert_int_equal(s.geo.page_size, 16384);
	assert_int_equal(s.geo.page_size_from, WM_GEO_CAPTURE);
	assert_int_equal(s.geo.pageblock_pages, 2048);
	assert_int_equal(s.geo.pageblock_from, WM_GEO_CAPTURE);
	wm_state_free(&s);
	unload(&r);
}

static void test_the_live_page_size_and_the_pmd_give_the_geometry(void **state)
{
	static const char buddy[] =
		"Node 0, zone   Normal  1 1 1 1 1 1 1 1 1 1 1 1\n";	/* 12 orders */
	struct wm_state s;
	struct root r;

	load(&r, "qemu-arm64-k612-16k-4g");
	drop(&r, WM_TEXT_MEMINFO);
	drop(&r, WM_TEXT_PAGETYPEINFO);
	r.t.live = true;
	r.t.live_page_size = 16384;
	r.t.live_arch = "aarch64";
	r.t.hugetlb = true;
	set(&r, WM_TEXT_PMD_SIZE, "33554432\n");
	set(&r, WM_TEXT_BUDDYINFO, buddy);
	assert_true(wm_texts_pageblock_known(&r.t));
	assert_int_equal(wm_state_build(&r.t, &s, NULL, NULL), WM_OK);
	assert_int_equal(s.geo.page_size, 16384);
	assert_int_equal(s.geo.page_size_from, WM_GEO_GIVEN);
	assert_int_equal(s.geo.pageblock_pages, 2048);
	assert_int_equal(s.geo.pageblock_from, WM_GEO_SYSFS);
	wm_state_free(&s);

	/* without hugetlb the kernel does not fix it so: pagetypeinfo is read */
	r.t.hugetlb = false;
	assert_false(wm_texts_pageblock_known(&r.t));
	unload(&r);
}

/* ---- what is missing or wrong ---------------------------------------- */

static void test_a_missing_zoneinfo_is_an_error_naming_it_when_needed(void **state)
{
	struct wm_state s;
	struct wm_diag d = { 0 };
	enum wm_text which = WM_TEXT_COUNT;
	struct root r;

	load(&r, "qemu-arm64-k612-16k-4g");
	drop(&r, WM_TEXT_ZONEINFO);
	assert_int_equal(wm_state_build(&r.t, &s, &which, &d), WM_ENODATA);
	assert_int_equal(which, WM_TEXT_ZONEINFO);
	assert_string_equal(wm_text_name(which), "zoneinfo");
	assert_non_null(strstr(d.msg, "zoneinfo"));
	assert_int_equal(s.layout.nzones, 0);
	assert_null(s.view);

	/* not needed: the kernel, the sysctls and a geometry, no zones */
	r.t.need = 0;
	assert_int_equal(wm_state_build(&r.t, &s, &which, &d), WM_OK);
	assert_false(s.have_zones);
	assert_int_equal(s.m.nzones, 0);
	assert_int_equal(s.sysctl.min_free_kbytes, 202240);
	/* MemTotal alone cannot tell the page size: the caller's default */
	assert_int_equal(s.geo.page_size, 4096);
	assert_int_equal(s.geo.page_size_from, WM_GEO_ASSUMED);
	wm_state_free(&s);
	unload(&r);
}

static void test_an_unknown_page_size_without_a_default_names_the_meminfo(void **state)
{
	struct wm_state s;
	struct wm_diag d = { 0 };
	enum wm_text which = WM_TEXT_COUNT;
	struct root r;

	load(&r, "qemu-arm64-k612-16k-4g");
	drop(&r, WM_TEXT_MEMINFO);
	r.t.assumed_page_size = 0;
	assert_int_equal(wm_state_build(&r.t, &s, &which, &d), WM_ENODATA);
	assert_int_equal(which, WM_TEXT_MEMINFO);
	assert_non_null(strstr(d.msg, "page size is unknown"));
	unload(&r);
}

static void test_each_bad_text_is_named(void **state)
{
	static const struct {
		enum wm_text id;
		const char *text;
		int rc;
	} bad[] = {
		{ WM_TEXT_KERNEL, "banana", WM_EPARSE },
		{ WM_TEXT_OSRELEASE, "banana\n", WM_EPARSE },
		{ WM_TEXT_ZONEINFO, "no zones here\n", WM_EPARSE },
		{ WM_TEXT_MFK, "lots\n", WM_EPARSE },
		{ WM_TEXT_WSF, "0\n", WM_EINVAL },
		{ WM_TEXT_BOOST, "-1\n", WM_EINVAL },
		{ WM_TEXT_LRR, "256 x 32\n", WM_EPARSE },
		{ WM_TEXT_GEOMETRY, "page_size 5000\n", WM_EPARSE },
		{ WM_TEXT_PAGETYPEINFO, "Page block order: 5\nPages per block:  64\n", WM_EPARSE },
	};
	struct wm_state s;
	struct wm_diag d;
	enum wm_text which;
	struct root r;
	size_t i;

	load(&r, "qemu-arm64-k612-16k-4g");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct wm_text_buf keep = r.t.text[bad[i].id];

		memset(&d, 0, sizeof(d));
		which = WM_TEXT_COUNT;
		set(&r, bad[i].id, bad[i].text);
		assert_int_equal(wm_state_build(&r.t, &s, &which, &d), bad[i].rc);
		assert_int_equal(which, bad[i].id);
		assert_true(d.msg[0] != 0);
		r.t.text[bad[i].id] = keep;
	}
	unload(&r);
}

/* ---- the zone view ---------------------------------------------------- */

static void test_the_zone_view_takes_the_printed_boost_off_once(void **state)
{
	static const char zi[] =
		"Node 0, zone      DMA\n  pages free     3000\n        boost    512\n"
		"        min      1000\n        low      1200\n        high     1400\n"
		"        promo    1600\n        spanned  4095\n        present  3998\n"
		"        managed  3840\n        protection: (0, 0)\n"
		"Node 0, zone   Normal\n  pages free     9000\n        boost    900\n"
		"        min      800\n        low      1000\n        high     1200\n"
		"        promo    1400\n        spanned  262144\n        present  262144\n"
		"        managed  250000\n        protection: (0, 0)\n";
	struct wm_texts t = { .assumed_page_size = 4096, .need = WM_NEED_ZONEINFO };
	struct wm_state s;

	t.text[WM_TEXT_OSRELEASE] = (struct wm_text_buf){ "6.12.117+deb13-amd64\n", 21 };
	t.text[WM_TEXT_ZONEINFO] = (struct wm_text_buf){ zi, sizeof(zi) - 1 };
	assert_int_equal(wm_state_build(&t, &s, NULL, NULL), WM_OK);
	assert_int_equal(s.layout.nzones, 2);
	/* printed min 1000 with a 512-page boost: the kernel set 488 */
	assert_int_equal(s.view[0].printed, 0);
	assert_int_equal(s.view[0].boost, 512);
	assert_true(s.view[0].raw.has_wm);
	assert_int_equal(s.view[0].raw.min, 488);
	assert_int_equal(s.view[0].raw.high, 888);
	assert_int_equal(s.view[0].raw.promo, 1088);
	/* a boost above min is no boost of the kernel's: nothing to compare */
	assert_int_equal(s.view[1].boost, 900);
	assert_false(s.view[1].raw.has_wm);
	/* the model's zones carry the boost as the layout read it */
	assert_int_equal(s.layout.zones[0].boost, 512);
	wm_state_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_debian_510_release_takes_its_sublevel_from_the_version_line),
		cmocka_unit_test(test_a_given_release_wins_and_keeps_its_own_sublevel),
		cmocka_unit_test(test_no_release_is_the_newest_rules_not_known),
		cmocka_unit_test(test_the_arm64_16k_capture_has_16k_pages_and_2048_page_blocks),
		cmocka_unit_test(test_the_ppc64le_64k_capture_has_64k_pages_and_32_page_blocks),
		cmocka_unit_test(test_a_recorded_geometry_beats_memtotal),
		cmocka_unit_test(test_the_live_page_size_and_the_pmd_give_the_geometry),
		cmocka_unit_test(test_a_missing_zoneinfo_is_an_error_naming_it_when_needed),
		cmocka_unit_test(test_an_unknown_page_size_without_a_default_names_the_meminfo),
		cmocka_unit_test(test_each_bad_text_is_named),
		cmocka_unit_test(test_the_zone_view_takes_the_printed_boost_off_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
