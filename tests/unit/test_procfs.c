// SPDX-License-Identifier: MIT
/*
 * test_procfs.c - the sysctl, osrelease, THP, meminfo, vmstat and PSI
 * parsers, on real captures and on malformed input.
 *
 * Expected values were read from the capture files (the line is quoted
 * where it helps).  Captures live in $WMARK_SRC/../shared/corpus; where
 * that is absent the capture tests are skipped, saying so.
 */
#include <dirent.h>
#include <limits.h>
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

#include "../../calc/procfs.h"

static char corpus_dir[4096];

static int have_corpus(void)
{
	const char *src = getenv("WMARK_SRC");
	struct stat st;

	snprintf(corpus_dir, sizeof(corpus_dir), "%s/../shared/corpus",
		 src && *src ? src : ".");
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

/* Read corpus/REL (or an absolute path); NULL if absent. */
static char *slurp(const char *rel, size_t *len)
{
	char path[8192];

	if (rel[0] == '/')
		snprintf(path, sizeof(path), "%s", rel);
	else
		snprintf(path, sizeof(path), "%s/%s", corpus_dir, rel);
	return slurp_path(path, len);
}

static char *must_slurp(const char *rel, size_t *len)
{
	char *buf = slurp(rel, len);

	if (!buf)
		fail_msg("cannot read %s/%s", corpus_dir, rel);
	return buf;
}

#define FC "vm-6.18-firecracker-A/"

/* A string literal and its length without the NUL. */
#define LIT(s) (s), (sizeof(s) - 1)

/* ---- sysctl integers -------------------------------------------------- */

static long capture_long(const char *rel)
{
	struct wm_diag d = { 0 };
	size_t len;
	char *buf = must_slurp(rel, &len);
	long v = -12345;

	if (pf_parse_long(buf, len, &v, &d) != WM_OK)
		fail_msg("%s:%d: %s", rel, d.line, d.msg);
	free(buf);
	return v;
}

static void test_captured_sysctls_read_as_numbers(void **state)
{
	NEED_CORPUS();
	assert_int_equal(capture_long(FC "proc/sys/vm/min_free_kbytes"), 67584);
	assert_int_equal(capture_long(FC "proc/sys/vm/watermark_scale_factor"), 10);
	assert_int_equal(capture_long(FC "proc/sys/vm/watermark_boost_factor"), 15000);
	assert_int_equal(capture_long(FC "proc/sys/vm/percpu_pagelist_high_fraction"), 0);
}

static void test_sysctl_integer_shapes_that_are_accepted(void **state)
{
	long v;

	assert_int_equal(pf_parse_long(LIT("67584\n"), &v, NULL), WM_OK);
	assert_int_equal(v, 67584);
	assert_int_equal(pf_parse_long(LIT("10"), &v, NULL), WM_OK);
	assert_int_equal(v, 10);
	assert_int_equal(pf_parse_long(LIT("  -1 \r\n\n"), &v, NULL), WM_OK);
	assert_int_equal(v, -1);
	assert_int_equal(pf_parse_long(LIT("+7\n"), &v, NULL), WM_OK);
	assert_int_equal(v, 7);
	assert_int_equal(pf_parse_long(LIT("-9223372036854775808"), &v, NULL),
			 WM_OK);
	assert_true(v == LONG_MIN);
	assert_int_equal(pf_parse_long(LIT("9223372036854775807\n"), &v, NULL),
			 WM_OK);
	assert_true(v == LONG_MAX);
	/* len cuts the buffer: "123" of "12345" */
	assert_int_equal(pf_parse_long("12345", 3, &v, NULL), WM_OK);
	assert_int_equal(v, 123);
}

static void long_fails(const char *s, int line)
{
	struct wm_diag d = { 0 };
	long v = 42;

	assert_int_equal(pf_parse_long(s, strlen(s), &v, &d), WM_EPARSE);
	assert_int_equal(d.line, line);
	assert_true(d.msg[0] != '\0');
	assert_int_equal(v, 42);
}

static void test_malformed_sysctl_integers_are_errors(void **state)
{
	struct wm_diag d;
	long v;

	long_fails("", 1);
	long_fails("\n", 1);
	long_fails("abc\n", 1);
	long_fails("12abc\n", 1);
	long_fails("1 2\n", 1);
	long_fails("1\n2\n", 2);
	long_fails("1\n\n\nx", 4);
	long_fails("-\n", 1);
	long_fails("0x10\n", 1);
	long_fails("9223372036854775808\n", 1);
	long_fails("-9223372036854775809\n", 1);
	long_fails("99999999999999999999999\n", 1);
	assert_int_equal(pf_parse_long(NULL, 0, &v, &d), WM_EPARSE);
}

/* ---- lists: lowmem_reserve_ratio ------------------------------------- */

static void test_lowmem_reserve_ratio_is_read_with_tabs_or_spaces(void **state)
{
	struct wm_diag d = { 0 };
	long v[WM_MAX_ZONES];
	size_t len;
	char *buf;
	int n = -1;

	assert_int_equal(pf_parse_long_list(LIT("256\t256\t32\t0\t0\n"), v,
					    WM_MAX_ZONES, &n, NULL), WM_OK);
	assert_int_equal(n, 5);
	assert_int_equal(v[0], 256);
	assert_int_equal(v[2], 32);
	assert_int_equal(v[4], 0);
	assert_int_equal(pf_parse_long_list(LIT("256 256  32"), v,
					    WM_MAX_ZONES, &n, NULL), WM_OK);
	assert_int_equal(n, 3);
	assert_int_equal(v[1], 256);
	assert_int_equal(v[2], 32);
	assert_int_equal(pf_parse_long_list(LIT(" -1\t 7 \n"), v, WM_MAX_ZONES,
					    &n, NULL), WM_OK);
	assert_int_equal(n, 2);
	assert_int_equal(v[0], -1);
	assert_int_equal(v[1], 7);
	assert_int_equal(pf_parse_long_list(LIT("32\n"), v, WM_MAX_ZONES, &n,
					    NULL), WM_OK);
	assert_int_equal(n, 1);

	if (!have_corpus())
		return;
	buf = must_slurp(FC "proc/sys/vm/lowmem_reserve_ratio", &len);
	assert_non_null(memchr(buf, '\t', len));	/* "256\t256\t32\t0\t0" */
	assert_int_equal(pf_parse_long_list(buf, len, v, WM_MAX_ZONES, &n, &d),
			 WM_OK);
	free(buf);
	assert_int_equal(n, 5);
	assert_int_equal(v[0], 256);
	assert_int_equal(v[1], 256);
	assert_int_equal(v[2], 32);
	assert_int_equal(v[3], 0);
	assert_int_equal(v[4], 0);
}

static void list_fails(const char *s, int max, int line)
{
	struct wm_diag d = { 0 };
	long v[8];
	int n = -1;

	assert_int_equal(pf_parse_long_list(s, strlen(s), v, max, &n, &d),
			 WM_EPARSE);
	assert_int_equal(d.line, line);
	assert_true(d.msg[0] != '\0');
	assert_int_equal(n, -1);
}

static void test_malformed_lists_are_errors(void **state)
{
	list_fails("", 6, 1);
	list_fails(" \t\n", 6, 1);
	list_fails("256,256,32\n", 6, 1);
	list_fails("256 x 32\n", 6, 1);
	list_fails("1 2 3 4 5 6 7\n", 6, 1);
	list_fails("1 2 3\n", 2, 1);
	list_fails("1 2\n3\n", 6, 2);
	list_fails("1 99999999999999999999\n", 6, 1);
}

/* ---- one-line strings and choices ------------------------------------ */

static void test_osrelease_is_its_first_line_trimmed(void **state)
{
	struct wm_diag d = { 0 };
	char s[65];
	size_t len;
	char *buf;

	assert_int_equal(pf_parse_line(LIT("6.1.0-18-amd64\n"), s, sizeof(s),
				       NULL), WM_OK);
	assert_string_equal(s, "6.1.0-18-amd64");
	assert_int_equal(pf_parse_line(LIT("  4.9.337 \r\n\n"), s, sizeof(s),
				       NULL), WM_OK);
	assert_string_equal(s, "4.9.337");
	assert_int_equal(pf_parse_line(LIT("\n"), s, sizeof(s), &d), WM_EPARSE);
	assert_int_equal(pf_parse_line(LIT("6.1\nmore\n"), s, sizeof(s), &d),
			 WM_EPARSE);
	assert_int_equal(d.line, 2);
	assert_int_equal(pf_parse_line(LIT("6.1.0-18-amd64"), s, 8, &d),
			 WM_EPARSE);
	assert_int_equal(pf_parse_line(LIT("6.1\0x"), s, sizeof(s), &d),
			 WM_EPARSE);

	if (!have_corpus())
		return;
	buf = must_slurp(FC "proc/sys/kernel/osrelease", &len);
	assert_int_equal(pf_parse_line(buf, len, s, sizeof(s), &d), WM_OK);
	free(buf);
	assert_string_equal(s, "6.18.44-fc-v595");
}

static void test_thp_bracket_marks_the_active_mode(void **state)
{
	enum wm_thp t = WM_THP_UNSUPPORTED;
	struct wm_diag d = { 0 };
	char w[16];
	size_t len;
	char *buf;

	assert_int_equal(pf_parse_thp(LIT("[always] madvise never\n"), &t, NULL),
			 WM_OK);
	assert_int_equal(t, WM_THP_ALWAYS);
	assert_int_equal(pf_parse_thp(LIT("always [madvise] never"), &t, NULL),
			 WM_OK);
	assert_int_equal(t, WM_THP_MADVISE);
	assert_int_equal(pf_parse_thp(LIT("always madvise [never]\n"), &t, NULL),
			 WM_OK);
	assert_int_equal(t, WM_THP_NEVER);
	/* 2.6.38-era kernels offered two modes only */
	assert_int_equal(pf_parse_thp(LIT("[always] never\n"), &t, NULL), WM_OK);
	assert_int_equal(t, WM_THP_ALWAYS);

	if (!have_corpus())
		return;
	buf = must_slurp(FC "sys/kernel/mm/transparent_hugepage/enabled", &len);
	assert_int_equal(pf_parse_thp(buf, len, &t, &d), WM_OK);
	free(buf);
	assert_int_equal(t, WM_THP_MADVISE);

	/* "always [inherit] madvise never": a choice, but not a THP mode */
	buf = must_slurp(FC "sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled",
			 &len);
	assert_int_equal(pf_parse_choice(buf, len, w, sizeof(w), &d), WM_OK);
	assert_string_equal(w, "inherit");
	assert_int_equal(pf_parse_thp(buf, len, &t, &d), WM_EPARSE);
	assert_int_equal(d.line, 1);
	free(buf);
}

static void choice_fails(const char *s, int line)
{
	struct wm_diag d = { 0 };
	enum wm_thp t;

	assert_int_equal(pf_parse_thp(s, strlen(s), &t, &d), WM_EPARSE);
	assert_int_equal(d.line, line);
	assert_true(d.msg[0] != '\0');
}

static void test_malformed_choices_are_errors(void **state)
{
	char w[4];

	choice_fails("", 1);
	choice_fails("always madvise never\n", 1);
	choice_fails("[always] [madvise] never\n", 1);
	choice_fails("[always madvise never\n", 1);
	choice_fails("always] madvise never\n", 1);
	choice_fails("al[way]s madvise never\n", 1);
	choice_fails("[] madvise never\n", 1);
	choice_fails("[[always]] never\n", 1);
	choice_fails("[sometimes] never\n", 1);
	choice_fails("[always] never\nmore\n", 2);
	/* the active word must fit the caller's buffer */
	assert_int_equal(pf_parse_choice(LIT("[madvise]"), w, sizeof(w), NULL),
			 WM_EPARSE);
	assert_int_equal(pf_parse_choice(LIT("[abc]"), w, sizeof(w), NULL), WM_OK);
	assert_string_equal(w, "abc");
}

/* ---- meminfo and vmstat ---------------------------------------------- */

static void kv_of(const char *rel, bool meminfo, struct pf_kv *kv)
{
	struct wm_diag d = { 0 };
	size_t len;
	char *buf = must_slurp(rel, &len);
	int rc;

	rc = meminfo ? pf_parse_meminfo(buf, len, kv, &d) :
		       pf_parse_vmstat(buf, len, kv, &d);
	free(buf);
	if (rc != WM_OK)
		fail_msg("%s:%d: %s", rel, d.line, d.msg);
}

static uint64_t get(const struct pf_kv *kv, const char *key)
{
	uint64_t v = 0;

	if (!pf_kv_get(kv, key, &v))
		fail_msg("no %s", key);
	return v;
}

static void test_captured_meminfo_keys_and_units(void **state)
{
	const struct pf_kv_item *it;
	struct pf_kv kv;
	uint64_t v = 99;

	NEED_CORPUS();
	kv_of(FC "proc/meminfo", true, &kv);
	assert_int_equal(kv.n, 54);
	assert_int_equal(get(&kv, "MemTotal"), 24684096);	/* line 1 */
	assert_int_equal(get(&kv, "Active(anon)"), 1524);	/* line 9 */
	it = pf_kv_find(&kv, "HugePages_Total");		/* no unit */
	assert_non_null(it);
	assert_int_equal(it->value, 0);
	assert_false(it->kb);
	assert_int_equal(it->line, 46);
	it = pf_kv_find(&kv, "Hugepagesize");
	assert_non_null(it);
	assert_int_equal(it->value, 2048);
	assert_true(it->kb);
	assert_int_equal(it->line, 50);
	assert_null(pf_kv_find(&kv, "MemTotal:"));
	assert_false(pf_kv_get(&kv, "NoSuchKey", &v));
	assert_int_equal(v, 99);
	pf_kv_free(&kv);

	kv_of("pcp-x86-i7-16g-movable-device/proc/meminfo", true, &kv);
	assert_int_equal(kv.n, 48);
	assert_int_equal(get(&kv, "MemTotal"), 16050940);
	pf_kv_free(&kv);

	kv_of("pcp-x86-2node-8g-numa/proc/meminfo", true, &kv);
	assert_int_equal(get(&kv, "MemTotal"), 8141728);
	assert_int_equal(get(&kv, "CmaTotal"), 0);
	pf_kv_free(&kv);

	kv_of("qemu-k612-4g/meminfo", true, &kv);
	assert_int_equal(get(&kv, "MemTotal"), 4014148);
	assert_int_equal(get(&kv, "MemFree"), 3974972);
	pf_kv_free(&kv);
}

static void test_captured_vmstat_counters(void **state)
{
	struct pf_kv kv;

	NEED_CORPUS();
	kv_of(FC "proc/vmstat", false, &kv);
	assert_int_equal(kv.n, 192);
	assert_int_equal(get(&kv, "nr_free_pages"), 1980044);
	assert_int_equal(get(&kv, "pgscan_direct"), 0);
	assert_int_equal(pf_kv_find(&kv, "nr_unstable")->line, 192);
	pf_kv_free(&kv);

	kv_of("pcp-x86-i7-16g-movable-device/proc/vmstat", false, &kv);
	assert_int_equal(kv.n, 133);
	assert_int_equal(get(&kv, "allocstall_movable"), 125);
	assert_int_equal(get(&kv, "pgscan_direct"), 39699);
	assert_int_equal(get(&kv, "pgsteal_kswapd"), 5435316);
	pf_kv_free(&kv);

	kv_of("qemu-k612-4g/before/vmstat", false, &kv);
	assert_int_equal(kv.n, 185);
	assert_int_equal(get(&kv, "nr_free_pages"), 993743);
	pf_kv_free(&kv);
}

static void test_every_captured_meminfo_and_vmstat_parses(void **state)
{
	static const char *const files[] = {
		"proc/meminfo", "proc/vmstat", "meminfo", "after/meminfo",
		"before/vmstat",
	};
	struct wm_diag d;
	struct dirent *de;
	int parsed = 0;
	DIR *dir;

	NEED_CORPUS();
	dir = opendir(corpus_dir);
	assert_non_null(dir);
	while ((de = readdir(dir))) {
		size_t i;

		if (de->d_name[0] == '.')
			continue;
		for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			char rel[1024];
			struct pf_kv kv;
			size_t len;
			char *buf;
			bool mi = strstr(files[i], "meminfo") != NULL;
			int rc;

			snprintf(rel, sizeof(rel), "%s/%s", de->d_name, files[i]);
			buf = slurp(rel, &len);
			if (!buf)
				continue;
			rc = mi ? pf_parse_meminfo(buf, len, &kv, &d) :
				  pf_parse_vmstat(buf, len, &kv, &d);
			free(buf);
			if (rc != WM_OK)
				fail_msg("%s:%d: %s", rel, d.line, d.msg);
			if (mi)
				assert_true(get(&kv, "MemTotal") > 0);
			else
				assert_non_null(pf_kv_find(&kv, "nr_free_pages"));
			pf_kv_free(&kv);
			parsed++;
		}
	}
	closedir(dir);
	print_message("# %d meminfo/vmstat files parsed\n", parsed);
	assert_true(parsed >= 14);
}

static void test_kv_shapes_that_are_accepted(void **state)
{
	static const char mi[] = "MemTotal:  100 kB\r\n\n"
				 "HugePages_Free:  18446744073709551615\n"
				 "Odd Key (x):7kB";
	static const char vm[] = "nr_free_pages 5\n\n  pgscan_kswapd\t7  \n"
				 "nr_free_pages 6";
	const struct pf_kv_item *it;
	struct pf_kv kv;

	assert_int_equal(pf_parse_meminfo(mi, sizeof(mi) - 1, &kv, NULL), WM_OK);
	assert_int_equal(kv.n, 3);
	assert_int_equal(get(&kv, "MemTotal"), 100);
	assert_true(get(&kv, "HugePages_Free") == UINT64_MAX);
	it = pf_kv_find(&kv, "Odd Key (x)");
	assert_non_null(it);
	assert_int_equal(it->value, 7);
	assert_true(it->kb);
	assert_int_equal(it->line, 4);
	pf_kv_free(&kv);

	assert_int_equal(pf_parse_vmstat(vm, sizeof(vm) - 1, &kv, NULL), WM_OK);
	assert_int_equal(kv.n, 3);
	assert_int_equal(get(&kv, "pgscan_kswapd"), 7);
	assert_int_equal(get(&kv, "nr_free_pages"), 5);	/* the first */
	assert_int_equal(kv.items[2].value, 6);
	assert_int_equal(kv.items[2].line, 4);
	pf_kv_free(&kv);
	pf_kv_free(NULL);
}

static void kv_fails(const char *s, bool meminfo, int line)
{
	struct wm_diag d = { 0 };
	struct pf_kv kv;
	int rc;

	rc = meminfo ? pf_parse_meminfo(s, strlen(s), &kv, &d) :
		       pf_parse_vmstat(s, strlen(s), &kv, &d);
	assert_int_equal(rc, WM_EPARSE);
	assert_int_equal(d.line, line);
	assert_true(d.msg[0] != '\0');
	pf_kv_free(&kv);
}

static void test_malformed_meminfo_is_an_error(void **state)
{
	kv_fails("", true, 0);
	kv_fails("\n\n", true, 0);
	kv_fails("MemTotal 5 kB\n", true, 1);
	kv_fails("MemTotal: 5 kB\n: 7 kB\n", true, 2);
	kv_fails("MemTotal: x kB\n", true, 1);
	kv_fails("MemTotal:\n", true, 1);
	kv_fails("MemTotal: 5 MB\n", true, 1);
	kv_fails("MemTotal: 5 kB extra\n", true, 1);
	kv_fails("MemTotal: -5 kB\n", true, 1);
	kv_fails("MemTotal: 1\nMemFree: 18446744073709551616 kB\n", true, 2);
}

static void test_malformed_vmstat_is_an_error(void **state)
{
	kv_fails("", false, 0);
	kv_fails("nr_free_pages\n", false, 1);
	kv_fails("nr_free_pages 5\npgscan 1 2\n", false, 2);
	kv_fails("nr_free_pages five\n", false, 1);
	kv_fails("nr_free_pages -1\n", false, 1);
	kv_fails("a 1\nb 2\nc 99999999999999999999\n", false, 3);
	kv_fails("nr_free_pages: 5\n", false, 1);
}

/* ---- pressure -------------------------------------------------------- */

static void test_pressure_lines_read_averages_and_totals(void **state)
{
	static const char s[] =
		"some avg10=1.50 avg60=0.25 avg300=12.00 total=123456\n"
		"full avg10=0.00 avg60=0.07 avg300=100.00 total=18446744073709551615\n";
	struct wm_diag d = { 0 };
	struct pf_psi p;
	size_t len;
	char *buf;

	assert_int_equal(pf_parse_psi(s, sizeof(s) - 1, &p, NULL), WM_OK);
	assert_true(p.some.present);
	assert_true(p.some.avg10 > 1.4999 && p.some.avg10 < 1.5001);
	assert_true(p.some.avg60 > 0.2499 && p.some.avg60 < 0.2501);
	assert_true(p.some.avg300 > 11.9999 && p.some.avg300 < 12.0001);
	assert_int_equal(p.some.total, 123456);
	assert_true(p.full.present);
	assert_true(p.full.avg60 > 0.0699 && p.full.avg60 < 0.0701);
	assert_true(p.full.avg300 > 99.9999 && p.full.avg300 < 100.0001);
	assert_true(p.full.total == UINT64_MAX);

	/* fields in any order, unknown fields and lines skipped */
	assert_int_equal(pf_parse_psi(LIT("x y\nsome total=5 avg300=3 new=1 avg10=1 avg60=2"),
				      &p, NULL), WM_OK);
	assert_true(p.some.present);
	assert_false(p.full.present);
	assert_int_equal(p.some.total, 5);
	assert_true(p.some.avg60 == 2.0);

	if (!have_corpus())
		return;
	buf = must_slurp(FC "proc/pressure/memory", &len);
	assert_int_equal(pf_parse_psi(buf, len, &p, &d), WM_OK);
	free(buf);
	assert_true(p.some.present && p.full.present);
	assert_true(p.some.avg10 == 0 && p.full.avg300 == 0);
	assert_int_equal(p.some.total, 0);
	assert_int_equal(p.full.total, 0);
}

static void psi_fails(const char *s, int line)
{
	struct wm_diag d = { 0 };
	struct pf_psi p;

	assert_int_equal(pf_parse_psi(s, strlen(s), &p, &d), WM_EPARSE);
	assert_int_equal(d.line, line);
	assert_true(d.msg[0] != '\0');
}

static void test_malformed_pressure_is_an_error(void **state)
{
	psi_fails("", 0);
	psi_fails("cpu avg10=0.00\n", 0);
	psi_fails("some avg10=0.00 avg60=0.00 avg300=0.00\n", 1);
	psi_fails("some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
		  "full avg10=x avg60=0.00 avg300=0.00 total=0\n", 2);
	psi_fails("some avg10=1. avg60=0.00 avg300=0.00 total=0\n", 1);
	psi_fails("some avg10=.5 avg60=0.00 avg300=0.00 total=0\n", 1);
	psi_fails("some avg10=0.00 avg60=0.00 avg300=0.00 total=-1\n", 1);
	psi_fails("some avg10=0.00 avg60=0.00 avg300=0.00 total=1x\n", 1);
	psi_fails("some avg10 avg60=0.00 avg300=0.00 total=0\n", 1);
	psi_fails("some avg10=0.00 avg60=0.00 avg300=0.00 total=18446744073709551616\n",
		  1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_captured_sysctls_read_as_numbers),
		cmocka_unit_test(test_sysctl_integer_shapes_that_are_accepted),
		cmocka_unit_test(test_malformed_sysctl_integers_are_errors),
		cmocka_unit_test(test_lowmem_reserve_ratio_is_read_with_tabs_or_spaces),
		cmocka_unit_test(test_malformed_lists_are_errors),
		cmocka_unit_test(test_osrelease_is_its_first_line_trimmed),
		cmocka_unit_test(test_thp_bracket_marks_the_active_mode),
		cmocka_unit_test(test_malformed_choices_are_errors),
		cmocka_unit_test(test_captured_meminfo_keys_and_units),
		cmocka_unit_test(test_captured_vmstat_counters),
		cmocka_unit_test(test_every_captured_meminfo_and_vmstat_parses),
		cmocka_unit_test(test_kv_shapes_that_are_accepted),
		cmocka_unit_test(test_malformed_meminfo_is_an_error),
		cmocka_unit_test(test_malformed_vmstat_is_an_error),
		cmocka_unit_test(test_pressure_lines_read_averages_and_totals),
		cmocka_unit_test(test_malformed_pressure_is_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
