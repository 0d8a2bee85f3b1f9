// SPDX-License-Identifier: MIT
/*
 * test_zoneinfo.c - the /proc/zoneinfo parser against real captures and
 * against every malformed input it must refuse.
 *
 * Expected numbers were read from the capture files themselves (the line
 * is quoted next to each), or come from the qemu captures' case.json,
 * which the capture harness wrote from the same files.  Captures live in
 * ../shared/corpus beside the repository ($WMARK_SRC/../shared/corpus);
 * where that is absent the corpus tests are skipped, saying so.
 */
#include <dirent.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "slurp.h"
#include <cjson/cJSON.h>

#include "../../calc/zoneinfo.h"

/* ---- helpers --------------------------------------------------------- */

static char corpus_dir[4096];

static const char *src_dir(void)
{
	const char *s = getenv("WMARK_SRC");

	return s && *s ? s : ".";
}

/* True when the corpus exists; else say why the test is skipped. */
static int have_corpus(void)
{
	struct stat st;

	snprintf(corpus_dir, sizeof(corpus_dir), "%s/../shared/corpus",
		 src_dir());
	if (stat(corpus_dir, &st) == 0 && S_ISDIR(st.st_mode))
		return 1;
	print_message("# SKIP: no capture corpus at %s (set WMARK_SRC to the repository root)\n",
		      corpus_dir);
	return 0;
}

#define NEED_CORPUS()                 \
	do {                          \
		if (!have_corpus()) { \
			skip();       \
			return;       \
		}                     \
	} while (0)


/* Parse the file at path (absolute); fail the test unless it parses. */
static void parse_path(const char *path, struct zi_info *zi)
{
	struct wm_diag d = { 0 };
	size_t len;
	char *buf = slurp_path(path, &len);
	int rc;

	if (!buf)
		fail_msg("cannot read %s", path);
	rc = zi_parse(buf, len, zi, &d);
	free(buf);
	if (rc != WM_OK)
		fail_msg("%s:%d: %s", path, d.line, d.msg);
}

/* Parse corpus/NAME/proc/zoneinfo. */
static void parse_capture(const char *name, struct zi_info *zi)
{
	char path[8192];

	snprintf(path, sizeof(path), "%s/%s/proc/zoneinfo", corpus_dir, name);
	parse_path(path, zi);
}

static const struct zi_zone *zone(const struct zi_info *zi, int node,
				  const char *name)
{
	size_t i;

	for (i = 0; i < zi->nzones; i++)
		if (zi->zones[i].node == node &&
		    strcmp(zi->zones[i].name, name) == 0)
			return &zi->zones[i];
	fail_msg("no zone %d/%s", node, name);
	return NULL;
}

static void assert_protection(const struct zi_zone *z, int n, ...)
{
	va_list ap;
	int i;

	assert_int_equal(z->nprotection, n);
	assert_true(z->flags & ZI_HAS_PROTECTION);
	va_start(ap, n);
	for (i = 0; i < n; i++)
		assert_int_equal(z->protection[i], va_arg(ap, long));
	va_end(ap);
}

/* Parse a string expected to parse. */
static void parse_ok(const char *s, struct zi_info *zi)
{
	struct wm_diag d = { 0 };
	int rc = zi_parse(s, strlen(s), zi, &d);

	if (rc != WM_OK)
		fail_msg("line %d: %s", d.line, d.msg);
}

/* Parse a string expected to fail with WM_EPARSE on line. */
static void parse_fails_on_line(const char *s, int line, const char *key)
{
	struct zi_info zi;
	struct wm_diag d;

	memset(&d, 0, sizeof(d));
	assert_int_equal(zi_parse(s, strlen(s), &zi, &d), WM_EPARSE);
	assert_int_equal(d.line, line);
	assert_true(d.msg[0] != '\0');
	if (key)
		assert_string_equal(d.key, key);
	zi_free(&zi);
}

#define HDR "Node 0, zone      DMA\n"

/* ---- real captures --------------------------------------------------- */

static void test_firecracker_6_18_reads_every_printed_field(void **state)
{
	struct zi_info zi;
	const struct zi_zone *z;

	NEED_CORPUS();
	parse_capture("vm-6.18-firecracker-A", &zi);
	assert_int_equal(zi.nzones, 5);
	assert_int_equal(zi.nnodes, 1);

	z = zone(&zi, 0, "DMA32");
	assert_int_equal(z->type, WM_ZONE_DMA32);
	assert_int_equal(z->line, 99);
	assert_int_equal(z->free, 772855);	/* "pages free     772855" */
	assert_int_equal(z->boost, 0);
	assert_int_equal(z->min, 6065);
	assert_int_equal(z->low, 7581);
	assert_int_equal(z->high, 9097);	/* not a pageset's "high:  3790" */
	assert_int_equal(z->promo, 10613);
	assert_int_equal(z->spanned, 1044480);
	assert_int_equal(z->present, 782336);
	assert_int_equal(z->managed, 772918);
	assert_int_equal(z->cma, 0);
	assert_protection(z, 5, 0L, 0L, 5376L, 5376L, 5376L);
	assert_int_equal(z->ncpus, 2);
	assert_int_equal(z->pcp_batch, 63);
	assert_int_equal(z->pcp_high_min, 3790);
	assert_int_equal(z->pcp_high_max, 48307);
	assert_int_equal(z->flags & 0xfff, 0xfff);

	z = zone(&zi, 0, "DMA");
	assert_int_equal(z->line, 1);
	assert_int_equal(z->min, 30);
	assert_int_equal(z->managed, 3840);
	assert_protection(z, 5, 0L, 3019L, 8395L, 8395L, 8395L);
	assert_int_equal(z->pcp_batch, 1);
	assert_int_equal(z->pcp_high_min, 18);
	assert_int_equal(z->pcp_high_max, 240);

	z = zone(&zi, 0, "Normal");
	assert_int_equal(z->line, 145);
	assert_int_equal(z->managed, 1376256);
	assert_int_equal(z->present, 5505024);
	assert_int_equal(z->min, 10800);
	assert_int_equal(z->promo, 18900);

	/* 6.6+: an empty Movable zone still gets min 32 */
	z = zone(&zi, 0, "Movable");
	assert_int_equal(z->type, WM_ZONE_MOVABLE);
	assert_int_equal(z->line, 191);
	assert_int_equal(z->min, 32);
	assert_int_equal(z->low, 32);
	assert_int_equal(z->high, 32);
	assert_int_equal(z->promo, 32);
	assert_int_equal(z->managed, 0);
	assert_int_equal(z->ncpus, 0);
	assert_int_equal(z->pcp_batch, -1);
	assert_int_equal(z->pcp_high_min, -1);
	assert_false(z->flags & ZI_HAS_HIGH_MIN);

	z = zone(&zi, 0, "Device");
	assert_int_equal(z->type, WM_ZONE_DEVICE);
	assert_int_equal(z->line, 203);
	assert_int_equal(z->min, 0);
	assert_protection(z, 5, 0L, 0L, 0L, 0L, 0L);
	zi_free(&zi);
}

static void test_2_6_16_layout_without_managed_reads(void **state)
{
	struct zi_info zi;
	const struct zi_zone *z;

	NEED_CORPUS();
	parse_capture("arm720t-2.6.16-legacy", &zi);
	assert_int_equal(zi.nzones, 1);
	z = zone(&zi, 0, "DMA");
	assert_int_equal(z->free, 5410);
	assert_int_equal(z->min, 181);
	assert_int_equal(z->low, 226);
	assert_int_equal(z->high, 271);
	assert_int_equal(z->spanned, 8192);
	assert_int_equal(z->present, 8192);
	assert_false(z->flags & ZI_HAS_MANAGED);
	assert_false(z->flags & ZI_HAS_BOOST);
	assert_int_equal(z->managed, 0);
	assert_protection(z, 4, 0L, 0L, 0L, 0L);
	/* "cpu: 0 pcp: 0" and "cpu: 0 pcp: 1": one CPU, hot list first */
	assert_int_equal(z->ncpus, 1);
	assert_int_equal(z->pcp_batch, 1);
	zi_free(&zi);
}

static void test_arm32_highmem_zone_is_typed_highmem(void **state)
{
	struct zi_info zi;
	const struct zi_zone *z;

	NEED_CORPUS();
	parse_capture("arm32-tablet-3.4-highmem", &zi);
	assert_int_equal(zi.nzones, 2);
	z = zone(&zi, 0, "Normal");
	assert_int_equal(z->min, 696);
	assert_int_equal(z->present, 121412);
	assert_protection(z, 3, 0L, 4038L, 4038L);
	z = zone(&zi, 0, "HighMem");
	assert_int_equal(z->type, WM_ZONE_HIGHMEM);
	assert_int_equal(z->line, 46);
	assert_int_equal(z->min, 126);
	assert_int_equal(z->low, 311);
	assert_int_equal(z->high, 496);
	assert_int_equal(z->present, 129238);
	assert_false(z->flags & ZI_HAS_MANAGED);
	assert_protection(z, 3, 0L, 0L, 0L);
	assert_int_equal(z->ncpus, 1);
	assert_int_equal(z->pcp_batch, 31);
	zi_free(&zi);
}

static void test_3_18_cma_zone_skips_scanned_and_alloc_batch(void **state)
{
	struct zi_info zi;
	const struct zi_zone *z;

	NEED_CORPUS();
	parse_capture("arm32-jmr540-3.18-cma", &zi);
	assert_int_equal(zi.nzones, 1);
	z = zone(&zi, 0, "Normal");
	assert_int_equal(z->free, 33393);
	assert_int_equal(z->min, 398);
	assert_int_equal(z->low, 497);
	assert_int_equal(z->high, 597);
	assert_int_equal(z->managed, 41146);
	/* "nr_free_cma  1582" is a counter, not the 5.x "cma" line */
	assert_false(z->flags & ZI_HAS_CMA);
	assert_protection(z, 2, 0L, 0L);
	assert_int_equal(z->ncpus, 1);
	assert_int_equal(z->pcp_batch, 7);
	zi_free(&zi);

	parse_capture("arm32-zynq-4.4-cma", &zi);
	z = zone(&zi, 0, "Normal");
	assert_int_equal(z->managed, 63077);
	assert_int_equal(z->min, 502);
	assert_protection(z, 3, 0L, 0L, 0L);
	assert_int_equal(z->ncpus, 2);
	zi_free(&zi);

	parse_capture("arm32-zte-f680-router-4.1", &zi);
	z = zone(&zi, 0, "Normal");
	assert_int_equal(z->free, 388);
	assert_int_equal(z->min, 306);
	assert_int_equal(z->managed, 23603);
	zi_free(&zi);
}

static void test_vendor_avg_age_keys_are_skipped(void **state)
{
	struct zi_info zi;
	const struct zi_zone *z;

	NEED_CORPUS();
	parse_capture("linuxmm-x86-2cpu-3.11-avgage", &zi);
	assert_int_equal(zi.nzones, 3);
	z = zone(&zi, 0, "DMA32");
	assert_int_equal(z->min, 27693);
	assert_int_equal(z->low, 34616);
	assert_int_equal(z->high, 41539);
	assert_int_equal(z->managed, 829295);
	assert_protection(z, 4, 0L, 0L, 697L, 697L);
	assert_int_equal(z->ncpus, 2);
	assert_int_equal(z->pcp_batch, 31);
	zi_free(&zi);
}

static void test_excerpt_with_elisions_reads_two_nodes_and_movable(void **state)
{
	struct zi_info zi;
	const struct zi_zone *z;

	NEED_CORPUS();
	parse_capture("lkml-qemu-2node-movable-5.6-excerpt", &zi);
	assert_int_equal(zi.nzones, 8);
	assert_int_equal(zi.nnodes, 2);
	z = zone(&zi, 0, "DMA");
	assert_protection(z, 4, 0L, 2961L, 4928L, 5440L);
	assert_int_equal(z->ncpus, 0);
	assert_int_equal(z->pcp_batch, -1);
	z = zone(&zi, 0, "Movable");
	assert_int_equal(z->type, WM_ZONE_MOVABLE);
	assert_int_equal(z->line, 33);
	assert_int_equal(z->managed, 131072);
	assert_int_equal(z->min, 195);
	assert_int_equal(z->spanned, 1966079);
	z = zone(&zi, 1, "DMA");
	assert_int_equal(z->line, 43);
	assert_int_equal(z->present, 0);
	assert_protection(z, 4, 0L, 0L, 1006L, 1006L);
	z = zone(&zi, 1, "Normal");
	assert_int_equal(z->line, 61);
	assert_int_equal(z->managed, 257744);
	assert_int_equal(z->min, 383);
	z = zone(&zi, 1, "Movable");
	assert_int_equal(z->spanned, 262144);
	assert_int_equal(z->present, 0);
	zi_free(&zi);
}

static void test_watermark_only_excerpt_has_no_protection(void **state)
{
	struct zi_info zi;
	const struct zi_zone *z;

	NEED_CORPUS();
	parse_capture("android-samsung-5.10-excerpt", &zi);
	assert_int_equal(zi.nzones, 2);
	z = zone(&zi, 0, "DMA32");
	assert_int_equal(z->min, 862);
	assert_int_equal(z->low, 9790);
	assert_int_equal(z->high, 18718);
	assert_int_equal(z->managed, 413348);
	assert_false(z->flags & ZI_HAS_PROTECTION);
	assert_int_equal(z->nprotection, 0);
	z = zone(&zi, 0, "Normal");
	assert_int_equal(z->spanned, 8388608);
	assert_int_equal(z->managed, 500548);
	zi_free(&zi);
}

static void test_a_value_with_no_name_is_skipped(void **state)
{
	struct zi_info zi;
	const struct zi_zone *z;

	NEED_CORPUS();
	/* line 30: "                   537792" inside the per-node stats */
	parse_capture("sosreport-coreos-x86-8g", &zi);
	assert_int_equal(zi.nzones, 5);
	z = zone(&zi, 0, "DMA");
	assert_int_equal(z->free, 3975);
	assert_int_equal(z->min, 33);
	assert_protection(z, 5, 0L, 3828L, 7894L, 7894L, 7894L);
	z = zone(&zi, 0, "DMA32");
	assert_int_equal(z->line, 71);
	assert_int_equal(z->managed, 995127);
	assert_int_equal(z->min, 8178);
	z = zone(&zi, 0, "Normal");
	assert_int_equal(z->min, 8684);
	zi_free(&zi);

	/* line 30: "                   176096" */
	parse_capture("pcp-x86-kvm-nehalem-4g", &zi);
	z = zone(&zi, 0, "DMA");
	assert_int_equal(z->min, 69);
	assert_int_equal(z->managed, 3977);
	zi_free(&zi);
}

static void test_pre_3_8_file_has_no_managed_anywhere(void **state)
{
	struct zi_info zi;
	size_t i;

	NEED_CORPUS();
	parse_capture("x86-ubuntu-3.2-8g-nomanaged", &zi);
	assert_int_equal(zi.nzones, 3);
	for (i = 0; i < zi.nzones; i++) {
		assert_false(zi.zones[i].flags & ZI_HAS_MANAGED);
		assert_true(zi.zones[i].flags & ZI_HAS_PRESENT);
	}
	assert_int_equal(zone(&zi, 0, "DMA32")->present, 828852);
	assert_int_equal(zone(&zi, 0, "Normal")->min, 10033);
	zi_free(&zi);
}

static void test_two_node_captures_keep_node_numbers(void **state)
{
	struct zi_info zi;
	const struct zi_zone *z;

	NEED_CORPUS();
	parse_capture("pcp-x86-2node-8g-numa", &zi);
	assert_int_equal(zi.nzones, 10);
	assert_int_equal(zi.nnodes, 2);
	z = zone(&zi, 1, "Normal");
	assert_int_equal(z->managed, 1020184);
	assert_int_equal(z->min, 11328);
	assert_int_equal(z->ncpus, 8);
	assert_int_equal(z->pcp_batch, 63);
	z = zone(&zi, 1, "DMA");
	assert_int_equal(z->present, 0);
	assert_int_equal(z->ncpus, 0);
	zi_free(&zi);

	parse_capture("pcp-x86-xeon-2node-128g", &zi);
	assert_int_equal(zi.nzones, 4);
	assert_int_equal(zi.nnodes, 2);
	z = &zi.zones[3];
	assert_int_equal(z->node, 1);
	assert_string_equal(z->name, "Normal");
	assert_int_equal(z->managed, 16514387);
	assert_int_equal(z->free, 11093906);
	assert_int_equal(z->ncpus, 32);
	zi_free(&zi);
}

static void test_boost_lines_and_boost_inside_min(void **state)
{
	struct zi_info zi;
	const struct zi_zone *z;

	NEED_CORPUS();
	/* RHEL 9 5.14 backport prints "boost    0" */
	parse_capture("x86-cs9-droplet-1cpu-boost", &zi);
	z = zone(&zi, 0, "DMA32");
	assert_true(z->flags & ZI_HAS_BOOST);
	assert_int_equal(z->boost, 0);
	assert_int_equal(z->min, 8446);
	assert_int_equal(z->low, 10557);
	assert_int_equal(z->ncpus, 1);
	assert_int_equal(z->managed, 193648);
	z = zone(&zi, 0, "Normal");
	assert_int_equal(z->present, 0);
	zi_free(&zi);

	/* No boost line; the printed min includes a boost of ~13314 pages */
	parse_capture("procfs-fixture", &zi);
	z = zone(&zi, 0, "DMA32");
	assert_false(z->flags & ZI_HAS_BOOST);
	assert_int_equal(z->min, 19510);
	assert_int_equal(z->low, 21059);
	assert_int_equal(z->high, 22608);
	assert_int_equal(z->ncpus, 8);
	zi_free(&zi);
}

static void test_last_line_without_newline_is_read(void **state)
{
	struct zi_info zi;

	NEED_CORPUS();
	/* ends in "protection: (0, 0, 0, 0, 0)" with no '\n' */
	parse_capture("node-exporter-fixture", &zi);
	assert_int_equal(zi.nzones, 5);
	assert_protection(zone(&zi, 0, "Device"), 5, 0L, 0L, 0L, 0L, 0L);
	assert_int_equal(zone(&zi, 0, "Normal")->managed, 7654794);
	assert_int_equal(zone(&zi, 0, "Normal")->ncpus, 8);
	zi_free(&zi);

	/* "   node_scanned  0" (3 spaces) is skipped */
	parse_capture("pcp-x86-kvm-4g", &zi);
	assert_int_equal(zone(&zi, 0, "DMA32")->min, 12709);
	assert_int_equal(zone(&zi, 0, "DMA32")->ncpus, 4);
	zi_free(&zi);
}

/* nftw() has no user pointer: the walk's results live here. */
static int walk_files, walk_failures;

static int check_one(const char *path, const struct stat *sb, int type,
		     struct FTW *ftw)
{
	struct zi_info zi;
	struct wm_diag d = { 0 };
	size_t len, i;
	char *buf;
	int rc;

	if (type != FTW_F || !strstr(path + ftw->base, "zoneinfo"))
		return 0;
	buf = slurp_path(path, &len);
	if (!buf)
		return 0;
	walk_files++;
	rc = zi_parse(buf, len, &zi, &d);
	free(buf);
	if (rc != WM_OK) {
		print_message("%s:%d: %s\n", path, d.line, d.msg);
		walk_failures++;
	}
	for (i = 0; rc == WM_OK && i < zi.nzones; i++) {
		const struct zi_zone *z = &zi.zones[i];
		unsigned need = ZI_HAS_FREE | ZI_HAS_MIN | ZI_HAS_LOW |
				ZI_HAS_HIGH | ZI_HAS_SPANNED | ZI_HAS_PRESENT;

		if ((z->flags & need) != need || z->min > z->low ||
		    z->low > z->high || z->present > z->spanned) {
			print_message("%s: zone %d/%s incomplete or inconsistent\n",
				      path, z->node, z->name);
			walk_failures++;
		}
	}
	zi_free(&zi);
	return 0;
}

static void test_every_zoneinfo_in_the_corpus_parses(void **state)
{
	NEED_CORPUS();
	walk_files = walk_failures = 0;
	assert_int_equal(nftw(corpus_dir, check_one, 16, FTW_PHYS), 0);
	print_message("# %d zoneinfo files parsed\n", walk_files);
	assert_true(walk_files >= 23);
	assert_int_equal(walk_failures, 0);
}

/* Compare one "N/Zone" object of case.json with the parsed zone. */
static void compare_case_zone(const char *what, const cJSON *jz,
			      const struct zi_zone *z)
{
	static const struct {
		const char *key;
		size_t off;
	} f[] = {
		{ "boost", offsetof(struct zi_zone, boost) },
		{ "cma", offsetof(struct zi_zone, cma) },
		{ "min", offsetof(struct zi_zone, min) },
		{ "low", offsetof(struct zi_zone, low) },
		{ "high", offsetof(struct zi_zone, high) },
		{ "promo", offsetof(struct zi_zone, promo) },
		{ "spanned", offsetof(struct zi_zone, spanned) },
		{ "present", offsetof(struct zi_zone, present) },
		{ "managed", offsetof(struct zi_zone, managed) },
	};
	const cJSON *v, *p;
	size_t i;
	int n = 0;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		unsigned long got;

		v = cJSON_GetObjectItemCaseSensitive(jz, f[i].key);
		if (!cJSON_IsNumber(v))
			continue;
		memcpy(&got, (const char *)z + f[i].off, sizeof(got));
		if ((double)got != v->valuedouble)
			fail_msg("%s %s: parsed %lu, case.json %.0f", what,
				 f[i].key, got, v->valuedouble);
	}
	p = cJSON_GetObjectItemCaseSensitive(jz, "protection");
	if (cJSON_IsArray(p)) {
		cJSON_ArrayForEach(v, p) {
			if (n >= z->nprotection ||
			    (double)z->protection[n] != v->valuedouble)
				fail_msg("%s protection[%d] differs", what, n);
			n++;
		}
		assert_int_equal(n, z->nprotection);
	}
}

static void test_qemu_captures_match_their_case_json(void **state)
{
	static const char *const states[] = { "before", "after" };
	char path[8192], what[512];
	struct dirent *de;
	int files = 0;
	DIR *dir;

	NEED_CORPUS();
	dir = opendir(corpus_dir);
	assert_non_null(dir);
	while ((de = readdir(dir))) {
		cJSON *root;
		size_t len, s;
		char *buf;

		if (strncmp(de->d_name, "qemu-", 5) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/case.json", corpus_dir,
			 de->d_name);
		buf = slurp_path(path, &len);
		if (!buf)
			continue;
		root = cJSON_Parse(buf);
		free(buf);
		assert_non_null(root);
		for (s = 0; s < 2; s++) {
			char key[32];
			const cJSON *wm, *jz;
			struct zi_info zi;
			struct stat st;
			int nj = 0;

			snprintf(key, sizeof(key), "watermarks_%s", states[s]);
			wm = cJSON_GetObjectItemCaseSensitive(root, key);
			snprintf(path, sizeof(path), "%s/%s/%s/zoneinfo",
				 corpus_dir, de->d_name, states[s]);
			if (!cJSON_IsObject(wm) || stat(path, &st) != 0)
				continue;
			parse_path(path, &zi);
			files++;
			cJSON_ArrayForEach(jz, wm) {
				char name[32];
				int node;
				size_t i;

				if (sscanf(jz->string, "%d/%31s", &node, name) != 2)
					fail_msg("odd key %s", jz->string);
				snprintf(what, sizeof(what), "%s %s %s",
					 de->d_name, states[s], jz->string);
				for (i = 0; i < zi.nzones; i++)
					if (zi.zones[i].node == node &&
					    strcmp(zi.zones[i].name, name) == 0)
						break;
				if (i == zi.nzones)
					fail_msg("%s: zone not parsed", what);
				compare_case_zone(what, jz, &zi.zones[i]);
				nj++;
			}
			assert_int_equal((size_t)nj, zi.nzones);
			zi_free(&zi);
		}
		cJSON_Delete(root);
	}
	closedir(dir);
	print_message("# %d qemu zoneinfo files compared with case.json\n",
		      files);
	assert_true(files > 0);
}

/* ---- generated input ------------------------------------------------- */

static void test_generated_64_node_file_parses(void **state)
{
	char cmd[8192];
	struct zi_info zi;
	struct wm_diag d = { 0 };
	size_t len = 0, cap = 1 << 20, r, i;
	unsigned long lowmem_min = 0;
	char *buf;
	FILE *p;
	int populated = 0;

	snprintf(cmd, sizeof(cmd),
		 "python3 '%s/tests/bench/gen-zoneinfo.py' 64 4 2>/dev/null",
		 src_dir());
	p = popen(cmd, "r");
	if (!p) {
		print_message("# SKIP: cannot run python3\n");
		skip();
		return;
	}
	buf = malloc(cap);
	assert_non_null(buf);
	while ((r = fread(buf + len, 1, cap - len, p)) > 0) {
		len += r;
		if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	if (pclose(p) != 0 || len == 0) {
		free(buf);
		print_message("# SKIP: python3 or tests/bench/gen-zoneinfo.py not available\n");
		skip();
		return;
	}
	assert_int_equal(zi_parse(buf, len, &zi, &d), WM_OK);
	free(buf);
	assert_int_equal(zi.nnodes, 64);
	assert_int_equal(zi.nzones, 64 * 5);
	for (i = 0; i < zi.nzones; i++) {
		const struct zi_zone *z = &zi.zones[i];

		assert_int_equal(z->node, (int)(i / 5));
		if (z->present) {
			populated++;
			assert_int_equal(z->ncpus, 4);
			assert_true(z->flags & ZI_HAS_HIGH_MIN);
			assert_true(z->pcp_high_min > 0);
		} else {
			assert_int_equal(z->ncpus, 0);
		}
		assert_int_equal(z->nprotection, 5);
		if (z->type != WM_ZONE_MOVABLE)
			lowmem_min += z->min;
	}
	/* node 0: DMA, DMA32, Normal; nodes 1-63: Normal */
	assert_int_equal(populated, 3 + 63);
	/* min_free_kbytes 67584 = 16896 pages, split with floor per zone */
	assert_true(lowmem_min <= 16896 && lowmem_min > 16896 - 66);
	zi_free(&zi);
}

/* ---- synthetic: what is accepted ------------------------------------- */

static void test_pageset_high_is_not_the_zone_high(void **state)
{
	struct zi_info zi;

	parse_ok(HDR
		 "  pages free     3840\n"
		 "        min      30\n"
		 "        low      37\n"
		 "        high     44\n"
		 "  pagesets\n"
		 "    cpu: 0\n"
		 "              count:    0\n"
		 "              high:     186\n"
		 "              batch:    31\n"
		 "  vm stats threshold: 4\n",
		 &zi);
	assert_int_equal(zi.zones[0].high, 44);
	assert_int_equal(zi.zones[0].pcp_batch, 31);
	zi_free(&zi);
}

static void test_unknown_keys_and_oddities_are_skipped(void **state)
{
	struct zi_info zi;
	const struct zi_zone *z;

	parse_ok("------ ZONEINFO (/proc/zoneinfo) ------\n"
		 HDR
		 "  per-node stats\n"
		 "      nr_inactive_anon 22725\n"
		 "                   537792\n"
		 "...\n"
		 "  pages free     3840\n"
		 "        boost    7\n"
		 "        min      30\n"
		 "        reserved_highatomic 0\n"
		 "        min:     x\n"
		 "        minimum  x\n"
		 "        pages    x\n"
		 "        scanned  0 (a: 0 i: 0)\n"
		 "        highest  y\n"
		 "        cpus     z\n"
		 "\n"
		 "  start_pfn:           1\n"
		 "  reserved_highatomic: 0\n"
		 "  free_highatomic:     0\n"
		 "  avg_age_active_anon:   5467648\n"
		 "  some vendor line with words\n",
		 &zi);
	z = &zi.zones[0];
	assert_int_equal(zi.nzones, 1);
	assert_int_equal(z->line, 2);
	assert_int_equal(z->free, 3840);
	assert_int_equal(z->boost, 7);
	assert_int_equal(z->min, 30);
	assert_int_equal(z->flags, ZI_HAS_FREE | ZI_HAS_BOOST | ZI_HAS_MIN);
	zi_free(&zi);
}

static void test_crlf_and_tabs_are_blanks(void **state)
{
	struct zi_info zi;

	parse_ok("Node 0, zone\tNormal\r\n"
		 "\tpages free\t12\r\n"
		 "\tmin\t5\r\n"
		 "\tprotection: (0,\t1)\r\n",
		 &zi);
	assert_string_equal(zi.zones[0].name, "Normal");
	assert_int_equal(zi.zones[0].free, 12);
	assert_int_equal(zi.zones[0].min, 5);
	assert_protection(&zi.zones[0], 2, 0L, 1L);
	zi_free(&zi);
}

/* Indentation of any width, blanks and tabs mixed, read eight bytes at a time or fewer. */
static void test_indentation_of_any_width_is_skipped(void **state)
{
	struct zi_info zi;
	const struct zi_zone *z;

	(void)state;
	parse_ok("Node 0, zone   Normal\n"
		 "       pages free 7\n"			/* 7 blanks */
		 "        min 8\n"				/* 8 */
		 "         low 9\n"				/* 9 */
		 "        \t       high 16\n"		/* 8, a tab, 7 */
		 "                spanned 32\n"		/* 16 */
		 "                 present 31\n"		/* 17 */
		 "\t\t\t\t\t\t\t\t\tmanaged 30\n"	/* tabs only */
		 "                \n"			/* blanks only */
		 "        ",				/* and at the very end */
		 &zi);
	z = &zi.zones[0];
	assert_int_equal(z->free, 7);
	assert_int_equal(z->min, 8);
	assert_int_equal(z->low, 9);
	assert_int_equal(z->high, 16);
	assert_int_equal(z->spanned, 32);
	assert_int_equal(z->present, 31);
	assert_int_equal(z->managed, 30);
	zi_free(&zi);
}

/* After a zone's first pageset its pageset lines are not read, so not judged. */
static void test_later_pagesets_are_not_read(void **state)
{
	struct zi_info zi;

	(void)state;
	parse_ok(HDR
		 "    cpu: 0\n"
		 "              count:    1\n"
		 "              high:     3\n"
		 "              batch:    2\n"
		 "              high_min: 3\n"
		 "              high_max: 480\n"
		 "    cpu: 1\n"
		 "              count:    many\n"
		 "              high:     x\n"
		 "              batch:    y\n"
		 "              high_min: z\n"
		 "              high_max:\n"
		 "  vm stats threshold: 4\n",
		 &zi);
	assert_int_equal(zi.zones[0].ncpus, 2);
	assert_int_equal(zi.zones[0].pcp_batch, 2);
	assert_int_equal(zi.zones[0].pcp_high_max, 480);
	zi_free(&zi);
}

static void test_protection_takes_any_count_and_negatives(void **state)
{
	struct zi_info zi;

	parse_ok(HDR "  protection: ()\n", &zi);
	assert_protection(&zi.zones[0], 0);
	zi_free(&zi);
	parse_ok(HDR "  protection: (7)\n", &zi);
	assert_protection(&zi.zones[0], 1, 7L);
	zi_free(&zi);
	parse_ok(HDR "  protection: (0, -5, 4503599627370496)\n", &zi);
	assert_protection(&zi.zones[0], 3, 0L, -5L, 4503599627370496L);
	zi_free(&zi);
	/* more than WM_MAX_ZONES: checked, the first six kept */
	parse_ok(HDR "  protection: (1, 2, 3, 4, 5, 6, 7, 8)\n", &zi);
	assert_protection(&zi.zones[0], 6, 1L, 2L, 3L, 4L, 5L, 6L);
	zi_free(&zi);
}

/*
 * A page count is at most 2^52: 2^64 bytes of 4 KiB pages, more than a
 * 64-bit kernel can address.  2^64-1 once read as "not printed"
 * downstream and LONG_MAX overflowed the sums of show (the limit is the
 * point).  Where a long has 32 bits the limit is LONG_MAX.
 */
static void test_page_counts_up_to_2_to_52_are_taken_and_more_is_too_large(void **state)
{
	static const char *const keys[] = { "pages free", "boost", "min", "low", "high",
					    "promo", "spanned", "present", "managed", "cma" };
	struct zi_info zi;
	struct wm_diag d = { 0 };
	char buf[128];
	size_t k;

	if (sizeof(long) < 8)
		skip();
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		snprintf(buf, sizeof(buf), HDR "  %s 4503599627370496\n", keys[k]);
		parse_ok(buf, &zi);
		zi_free(&zi);
		snprintf(buf, sizeof(buf), HDR "  %s 4503599627370497\n", keys[k]);
		assert_int_equal(zi_parse(buf, strlen(buf), &zi, &d), WM_EPARSE);
		assert_int_equal(d.line, 2);
		assert_non_null(strstr(d.msg, "too large"));
		zi_free(&zi);
	}
	snprintf(buf, sizeof(buf), HDR "  managed 9223372036854775807\n");
	assert_int_equal(zi_parse(buf, strlen(buf), &zi, &d), WM_EPARSE);
	assert_non_null(strstr(d.msg, "the value of 'managed' is too large"));
	zi_free(&zi);
	snprintf(buf, sizeof(buf), HDR "  protection: (0, -4503599627370496, 4503599627370497)\n");
	assert_int_equal(zi_parse(buf, strlen(buf), &zi, &d), WM_EPARSE);
	assert_non_null(strstr(d.msg, "the value of 'protection' is too large"));
	zi_free(&zi);
	snprintf(buf, sizeof(buf), HDR "  protection: (0, -4503599627370497)\n");
	assert_int_equal(zi_parse(buf, strlen(buf), &zi, &d), WM_EPARSE);
	zi_free(&zi);
}

/*
 * Each count summed over every zone is at most 2^52 too, so that no sum
 * of them (a node's total, vm_total_pages) can overflow a long: the line
 * that passes it is named.  A key printed twice in a zone counts once.
 */
static void test_counts_of_all_zones_together_are_at_most_2_to_52(void **state)
{
	static const char two[] = HDR "  managed 2251799813685248\n"
				  "Node 1, zone      DMA\n  managed 2251799813685248\n";
	static const char three[] = HDR "  managed 2251799813685248\n"
				    "Node 1, zone      DMA\n  managed 2251799813685248\n"
				    "Node 2, zone      DMA\n  present 1\n  managed 1\n";
	static const char again[] = HDR "  managed 4503599627370496\n  managed 1\n"
				    "Node 1, zone      DMA\n  managed 4503599627370495\n";
	struct zi_info zi;
	struct wm_diag d = { 0 };

	if (sizeof(long) < 8)
		skip();
	parse_ok(two, &zi);
	assert_int_equal(zi.nzones, 2);
	zi_free(&zi);
	assert_int_equal(zi_parse(three, sizeof(three) - 1, &zi, &d), WM_EPARSE);
	assert_int_equal(d.line, 7);
	assert_string_equal(d.key, "managed");
	assert_non_null(strstr(d.msg, "'managed' of all zones adds up to more than 2^52 pages"));
	zi_free(&zi);
	parse_ok(again, &zi);
	assert_int_equal(zi.zones[0].managed, 1);
	zi_free(&zi);
}

static void test_only_first_pageset_fills_pcp_fields(void **state)
{
	struct zi_info zi;
	const struct zi_zone *z;

	parse_ok(HDR
		 "    cpu: 3\n"
		 "              batch:    1\n"
		 "              high_min: 18\n"
		 "              high_max: 240\n"
		 "    cpu: 5\n"
		 "              batch:    63\n"
		 "              high_min: 99\n"
		 "              high_max: 999\n"
		 "Node 0, zone    DMA32\n"
		 "  pages free 1\n",
		 &zi);
	z = &zi.zones[0];
	assert_int_equal(z->ncpus, 2);
	assert_int_equal(z->pcp_batch, 1);
	assert_int_equal(z->pcp_high_min, 18);
	assert_int_equal(z->pcp_high_max, 240);
	assert_true(z->flags & ZI_HAS_HIGH_MIN);
	z = &zi.zones[1];
	assert_int_equal(z->ncpus, 0);
	assert_int_equal(z->pcp_batch, -1);
	assert_int_equal(z->line, 10);
	zi_free(&zi);
}

static void test_many_nodes_grow_the_zone_array(void **state)
{
	size_t cap = 1000 * 64, n = 0, i;
	struct zi_info zi;
	char *buf = malloc(cap);

	assert_non_null(buf);
	for (i = 0; i < 1000; i++)
		n += (size_t)snprintf(buf + n, cap - n,
				      "Node %zu, zone   Normal\n  min %zu\n",
				      i, i);
	parse_ok(buf, &zi);
	free(buf);
	assert_int_equal(zi.nzones, 1000);
	assert_int_equal(zi.nnodes, 1000);
	assert_int_equal(zi.zones[999].min, 999);
	assert_int_equal(zi.zones[999].line, 1999);
	assert_true(zi.cap >= zi.nzones);
	zi_free(&zi);
}

static void test_null_diag_and_unterminated_buffer_are_fine(void **state)
{
	static const char text[] = HDR "  min 12345";
	struct zi_info zi;

	/* cut inside the number: the parser must not read past len */
	assert_int_equal(zi_parse(text, sizeof(text) - 4, &zi, NULL), WM_OK);
	assert_int_equal(zi.zones[0].min, 12);
	zi_free(&zi);
	zi_free(NULL);
}

/* ---- synthetic: what is refused -------------------------------------- */

static void test_no_zone_header_is_an_error(void **state)
{
	struct zi_info zi;
	struct wm_diag d;

	parse_fails_on_line("", 0, NULL);
	parse_fails_on_line("hello\nworld\n", 0, NULL);
	parse_fails_on_line("...\n", 0, NULL);
	assert_int_equal(zi_parse(NULL, 0, &zi, &d), WM_EPARSE);
	zi_free(&zi);
}

static void test_zone_key_before_any_header_is_an_error(void **state)
{
	parse_fails_on_line("  pages free 5\n" HDR, 1, "pages free");
	parse_fails_on_line("\n\n        min 5\n" HDR, 3, "min");
	parse_fails_on_line("  protection: (0)\n", 1, "protection");
	parse_fails_on_line("    cpu: 0\n", 1, "cpu");
	parse_fails_on_line("      batch: 1\n", 1, "batch");
	parse_fails_on_line("      high_min: 1\n", 1, "high_min");
	parse_fails_on_line("  managed 1\n", 1, "managed");
}

static void test_watermark_with_a_non_number_is_an_error(void **state)
{
	parse_fails_on_line(HDR "  pages free 1\n        min abc\n", 3, "min");
	parse_fails_on_line(HDR "        low\n", 2, "low");
	parse_fails_on_line(HDR "        high -5\n", 2, "high");
	parse_fails_on_line(HDR "        boost 0x10\n", 2, "boost");
	parse_fails_on_line(HDR "  pages free\n", 2, "pages free");
	parse_fails_on_line(HDR "  pages free  one\n", 2, "pages free");
	parse_fails_on_line(HDR "        promo 5 6\n", 2, "promo");
	parse_fails_on_line(HDR "        spanned 5 pages\n", 2, "spanned");
	parse_fails_on_line(HDR "        present 1.5\n", 2, "present");
	parse_fails_on_line(HDR "        cma ?\n", 2, "cma");
}

static void test_number_overflow_is_an_error(void **state)
{
	parse_fails_on_line(HDR "        managed 18446744073709551616\n", 2,
			    "managed");
	parse_fails_on_line(HDR "        min 99999999999999999999999\n", 2,
			    "min");
	parse_fails_on_line(HDR "  protection: (0, 9223372036854775808)\n", 2,
			    "protection");
	parse_fails_on_line(HDR "    cpu: 99999999999\n", 2, "cpu");
	parse_fails_on_line(HDR "    cpu: 0\n      batch: 9223372036854775808\n",
			    3, "batch");
}

static void test_malformed_protection_is_an_error(void **state)
{
	parse_fails_on_line(HDR "  protection: 0, 1\n", 2, "protection");
	parse_fails_on_line(HDR "  protection: (0, x)\n", 2, "protection");
	parse_fails_on_line(HDR "  protection: (0, 1\n", 2, "protection");
	parse_fails_on_line(HDR "  protection: (0 1)\n", 2, "protection");
	parse_fails_on_line(HDR "  protection: (0, 1) 2\n", 2, "protection");
	parse_fails_on_line(HDR "  protection: (0,)\n", 2, "protection");
	parse_fails_on_line(HDR "  protection:\n", 2, "protection");
}

static void test_malformed_pageset_is_an_error(void **state)
{
	parse_fails_on_line(HDR "  pagesets\n    cpu: x\n", 3, "cpu");
	parse_fails_on_line(HDR "    cpu: 0 cold\n", 2, "cpu");
	parse_fails_on_line(HDR "    cpu: 0 pcp: x\n", 2, "pcp");
	parse_fails_on_line(HDR "    cpu: 0\n      batch: many\n", 3, "batch");
	parse_fails_on_line(HDR "    cpu: 0\n      high_min: 1 2\n", 3,
			    "high_min");
	parse_fails_on_line(HDR "    cpu: 0\n      high_max:\n", 3, "high_max");
}

static void test_malformed_zone_header_is_an_error(void **state)
{
	parse_fails_on_line("Node x, zone DMA\n", 1, "Node");
	parse_fails_on_line("Node 0 zone DMA\n", 1, "Node");
	parse_fails_on_line("Node 0, zone\n", 1, "Node");
	parse_fails_on_line("Node 0, zone   \n", 1, "Node");
	parse_fails_on_line("Node 0, zoneDMA\n", 1, "Node");
	parse_fails_on_line("Node 0, area DMA\n", 1, "Node");
	parse_fails_on_line("Node 0, zone DMA extra\n", 1, "Node");
	parse_fails_on_line("Node 0, zone ABCDEFGHIJKLMNOP\n", 1, "Node");
	parse_fails_on_line("Node 65536, zone DMA\n", 1, "Node");
	parse_fails_on_line("Node -1, zone DMA\n", 1, "Node");
	parse_fails_on_line("Node\n", 1, "Node");
	/* a NUL or control byte would end or garble the name */
	parse_fails_on_line("Node 0, zone \001DMA\n", 1, "Node");
	parse_fails_on_line("Node 0, zone DM\177A\n", 1, "Node");
	{
		static const char nul[] = "Node 0, zone \0DMA\n  min 1\n";
		struct zi_info zi;
		struct wm_diag d;

		assert_int_equal(zi_parse(nul, sizeof(nul) - 1, &zi, &d),
				 WM_EPARSE);
		assert_int_equal(d.line, 1);
		zi_free(&zi);
	}
}

static void test_nodes_out_of_order_or_repeated_zones_are_errors(void **state)
{
	parse_fails_on_line("Node 1, zone Normal\nNode 0, zone Normal\n", 2,
			    "Node");
	parse_fails_on_line(HDR "  min 1\n" HDR, 3, "Node");
	parse_fails_on_line("Node 0, zone A\nNode 0, zone B\nNode 0, zone C\n"
			    "Node 0, zone D\nNode 0, zone E\nNode 0, zone F\n"
			    "Node 0, zone G\n",
			    7, "Node");
}

static void test_error_leaves_zones_freeable(void **state)
{
	static const char text[] = HDR "  min 1\nNode 0, zone DMA32\n  min x\n";
	struct zi_info zi;
	struct wm_diag d;

	assert_int_equal(zi_parse(text, strlen(text), &zi, &d), WM_EPARSE);
	assert_int_equal(d.line, 4);
	assert_int_equal(zi.nzones, 2);
	zi_free(&zi);
	assert_null(zi.zones);
	assert_int_equal(zi.nzones, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_firecracker_6_18_reads_every_printed_field),
		cmocka_unit_test(test_2_6_16_layout_without_managed_reads),
		cmocka_unit_test(test_arm32_highmem_zone_is_typed_highmem),
		cmocka_unit_test(test_3_18_cma_zone_skips_scanned_and_alloc_batch),
		cmocka_unit_test(test_vendor_avg_age_keys_are_skipped),
		cmocka_unit_test(test_excerpt_with_elisions_reads_two_nodes_and_movable),
		cmocka_unit_test(test_watermark_only_excerpt_has_no_protection),
		cmocka_unit_test(test_a_value_with_no_name_is_skipped),
		cmocka_unit_test(test_pre_3_8_file_has_no_managed_anywhere),
		cmocka_unit_test(test_two_node_captures_keep_node_numbers),
		cmocka_unit_test(test_boost_lines_and_boost_inside_min),
		cmocka_unit_test(test_last_line_without_newline_is_read),
		cmocka_unit_test(test_every_zoneinfo_in_the_corpus_parses),
		cmocka_unit_test(test_qemu_captures_match_their_case_json),
		cmocka_unit_test(test_generated_64_node_file_parses),
		cmocka_unit_test(test_pageset_high_is_not_the_zone_high),
		cmocka_unit_test(test_unknown_keys_and_oddities_are_skipped),
		cmocka_unit_test(test_crlf_and_tabs_are_blanks),
		cmocka_unit_test(test_indentation_of_any_width_is_skipped),
		cmocka_unit_test(test_later_pagesets_are_not_read),
		cmocka_unit_test(test_protection_takes_any_count_and_negatives),
		cmocka_unit_test(test_page_counts_up_to_2_to_52_are_taken_and_more_is_too_large),
		cmocka_unit_test(test_counts_of_all_zones_together_are_at_most_2_to_52),
		cmocka_unit_test(test_only_first_pageset_fills_pcp_fields),
		cmocka_unit_test(test_many_nodes_grow_the_zone_array),
		cmocka_unit_test(test_null_diag_and_unterminated_buffer_are_fine),
		cmocka_unit_test(test_no_zone_header_is_an_error),
		cmocka_unit_test(test_zone_key_before_any_header_is_an_error),
		cmocka_unit_test(test_watermark_with_a_non_number_is_an_error),
		cmocka_unit_test(test_number_overflow_is_an_error),
		cmocka_unit_test(test_malformed_protection_is_an_error),
		cmocka_unit_test(test_malformed_pageset_is_an_error),
		cmocka_unit_test(test_malformed_zone_header_is_an_error),
		cmocka_unit_test(test_nodes_out_of_order_or_repeated_zones_are_errors),
		cmocka_unit_test(test_error_leaves_zones_freeable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
