// SPDX-License-Identifier: MIT
/*
 * test_sysctl_text.c - the vm.* allowlist, key and value syntax, the
 * kernel's accepted ranges (docs/model.md §5) and the sysctl.d
 * reader, all from strings (calc/sysctl_text.c).
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/sysctl_text.h"

#define BIG (70 * 1024)		/* a line longer than 64 KiB */

static struct wm_diag d;

static struct wm_profile prof(const char *s)
{
	struct wm_kver k;
	struct wm_profile p;

	assert_int_equal(wm_kver_parse(s, &k, NULL), WM_OK);
	wm_profile_for(&k, &p);
	return p;
}

/* buf[0..len) in a block of exactly len bytes: no NUL after it. */
static char *exact(const char *text, size_t len)
{
	char *b = malloc(len ? len : 1);

	assert_non_null(b);
	memcpy(b, text, len);
	return b;
}

/* ---- keys ------------------------------------------------------------ */

static void test_dotted_and_slashed_keys_name_the_same_knob(void **state)
{
	enum wm_knob k;

	assert_int_equal(sc_key_parse("vm.min_free_kbytes", &k), WM_OK);
	assert_int_equal(k, WM_KNOB_MFK);
	assert_int_equal(sc_key_parse("vm/min_free_kbytes", &k), WM_OK);
	assert_int_equal(k, WM_KNOB_MFK);
	assert_int_equal(sc_key_parse("vm.watermark_scale_factor", &k), WM_OK);
	assert_int_equal(k, WM_KNOB_WSF);
	assert_int_equal(sc_key_parse("vm.watermark_boost_factor", &k), WM_OK);
	assert_int_equal(k, WM_KNOB_BOOST);
	assert_int_equal(sc_key_parse("vm.lowmem_reserve_ratio", &k), WM_OK);
	assert_int_equal(k, WM_KNOB_LRR);
	assert_int_equal(sc_key_parse("vm/extra_free_kbytes", &k), WM_OK);
	assert_int_equal(k, WM_KNOB_EXTRA);
	assert_string_equal(wm_knob_name(WM_KNOB_LRR), "lowmem_reserve_ratio");
}

static void test_every_knob_parses_back_from_vm_dot_and_vm_slash_its_name(void **state)
{
	char key[64];
	enum wm_knob k;
	int i;

	for (i = 0; i < WM_NKNOBS; i++) {
		snprintf(key, sizeof(key), "vm.%s", wm_knob_name((enum wm_knob)i));
		k = WM_NKNOBS;
		assert_int_equal(sc_key_parse(key, &k), WM_OK);
		assert_int_equal(k, i);
		snprintf(key, sizeof(key), "vm/%s", wm_knob_name((enum wm_knob)i));
		k = WM_NKNOBS;
		assert_int_equal(sc_key_parse(key, &k), WM_OK);
		assert_int_equal(k, i);
	}
	assert_string_equal(wm_knob_name(WM_NKNOBS), "?");
	assert_string_equal(wm_knob_name((enum wm_knob)-1), "?");
}

static void test_keys_outside_the_allowlist_are_refused(void **state)
{
	enum wm_knob k;

	assert_int_equal(sc_key_parse("vm.drop_caches", &k), WM_EINVAL);
	assert_int_equal(sc_key_parse("vm.swappiness", &k), WM_EINVAL);
	assert_int_equal(sc_key_parse("kernel.min_free_kbytes", &k), WM_EINVAL);
	assert_int_equal(sc_key_parse("min_free_kbytes", &k), WM_EINVAL);
	assert_int_equal(sc_key_parse("vm.min_free_kbytes/../../kernel/x", &k), WM_EINVAL);
	assert_int_equal(sc_key_parse("vm/../kernel/min_free_kbytes", &k), WM_EINVAL);
	assert_int_equal(sc_key_parse("/proc/sys/vm/min_free_kbytes", &k), WM_EINVAL);
	assert_int_equal(sc_key_parse("vm.min_free_kbytes ", &k), WM_EINVAL);
	assert_int_equal(sc_key_parse("", &k), WM_EINVAL);
}

static void test_unknown_and_misspelled_keys_are_refused_and_leave_out_alone(void **state)
{
	static const char *const bad[] = {
		"vm.", "vm/", "vm", "v", "vm.min_free_kbytesx", "vm.min_free_kbyte",
		"VM.min_free_kbytes", "vm.MIN_FREE_KBYTES", "vm..min_free_kbytes",
		"vm./min_free_kbytes", "vm.min_free_kbytes\n", " vm.min_free_kbytes",
		"vm:min_free_kbytes", "vm\\min_free_kbytes", "vm.vm.min_free_kbytes",
		"-vm.min_free_kbytes", "vm.watermark_scale_factor.x", "vm.zone_reclaim_mode",
		"vm.overcommit_memory", "net.ipv4.ip_forward", "vm.?",
	};
	size_t i;
	enum wm_knob k;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		k = WM_NKNOBS;
		assert_int_equal(sc_key_parse(bad[i], &k), WM_EINVAL);
		assert_int_equal(k, WM_NKNOBS);
	}
}

/* ---- values ---------------------------------------------------------- */

static void test_values_must_be_plain_integers(void **state)
{
	struct sc_value v;

	assert_int_equal(sc_value_parse(WM_KNOB_WSF, " 120\n", &v, &d), WM_OK);
	assert_int_equal(v.n, 1);
	assert_int_equal(v.v[0], 120);
	assert_int_equal(sc_value_parse(WM_KNOB_WSF, "1.5", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "64M", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "0x10", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "  ", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "12 13", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "99999999999999999999", &v, &d), WM_ERANGE);
	/* INT_MAX + 1: the kernel's int would overflow. */
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "2147483648", &v, &d), WM_ERANGE);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "2147483647", &v, &d), WM_OK);
	assert_int_equal(sc_value_parse(WM_KNOB_WSF, "-3", &v, &d), WM_OK);
	assert_int_equal(v.v[0], -3);
}

static void test_errors_name_the_knob_and_quote_the_text(void **state)
{
	struct sc_value v;

	memset(&d, 0, sizeof(d));
	assert_int_equal(sc_value_parse(WM_KNOB_WSF, "1.5", &v, &d), WM_EPARSE);
	assert_string_equal(d.key, "watermark_scale_factor");
	assert_string_equal(d.msg, "'1.5' is not an integer");
	assert_int_equal(d.line, 0);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "12 13", &v, &d), WM_EPARSE);
	assert_string_equal(d.msg, "'12 13': one integer expected");
	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "1 2 3 4 5 6 7", &v, &d), WM_EPARSE);
	assert_string_equal(d.msg, "'1 2 3 4 5 6 7': too many entries");
	assert_int_equal(sc_value_parse(WM_KNOB_BOOST, "\n", &v, &d), WM_EPARSE);
	assert_string_equal(d.msg, "empty value");
	/* No diag: the code alone. */
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "x", &v, NULL), WM_EPARSE);
}

static void test_blanks_around_a_value_are_ignored(void **state)
{
	struct sc_value v;

	assert_int_equal(sc_value_parse(WM_KNOB_MFK, " \t 67584 \t\n", &v, &d), WM_OK);
	assert_int_equal(v.n, 1);
	assert_int_equal(v.v[0], 67584);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "\n\n5\n\n", &v, &d), WM_OK);
	assert_int_equal(v.v[0], 5);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "\r\v\f7\r\n", &v, &d), WM_OK);
	assert_int_equal(v.v[0], 7);
	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "  \t256 \t 32\t\t0 \n", &v, &d), WM_OK);
	assert_int_equal(v.n, 3);
	assert_int_equal(v.v[0], 256);
	assert_int_equal(v.v[1], 32);
	assert_int_equal(v.v[2], 0);
	assert_int_equal(sc_value_parse(WM_KNOB_LRR, " ,256, ,32,,\n", &v, &d), WM_OK);
	assert_int_equal(v.n, 2);
	/* Blanks separate numbers; commas only for the list. */
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, " 1 2 ", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "1,2", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "1,", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_LRR, " , \t,", &v, &d), WM_EPARSE);
}

static void test_negative_values_parse_and_the_range_check_refuses_them(void **state)
{
	struct wm_profile p = prof("6.1.0");
	struct sc_value v;

	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "-1", &v, &d), WM_OK);
	assert_int_equal(v.v[0], -1);
	assert_int_equal(sc_value_check(&p, WM_KNOB_MFK, &v, 0, &d), WM_EINVAL);
	assert_string_equal(d.key, "min_free_kbytes");
	assert_string_equal(d.msg, "min_free_kbytes -1 is out of range: kernel 6.1 accepts 0..2147483647");
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "-0", &v, &d), WM_OK);
	assert_int_equal(v.v[0], 0);
	assert_int_equal(sc_value_check(&p, WM_KNOB_MFK, &v, 0, &d), WM_OK);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "-2147483648", &v, &d), WM_OK);
	assert_int_equal(v.v[0], INT_MIN);
	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "256 -1 0", &v, &d), WM_OK);
	assert_int_equal(v.v[1], -1);
	assert_int_equal(sc_value_check(&p, WM_KNOB_LRR, &v, 3, &d), WM_EINVAL);
	/* A sign is one '-' right before a digit. */
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "-", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "--1", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "- 1", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "+1", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "1-", &v, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "1,-", &v, &d), WM_EPARSE);
}

static void test_values_outside_the_range_of_int_are_too_large(void **state)
{
	struct sc_value v;

	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "2147483648", &v, &d), WM_ERANGE);
	assert_string_equal(d.key, "min_free_kbytes");
	assert_string_equal(d.msg, "'2147483648' is too large");
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "-2147483649", &v, &d), WM_ERANGE);
	assert_int_equal(sc_value_parse(WM_KNOB_WSF, "9223372036854775807", &v, &d), WM_ERANGE);
	assert_int_equal(sc_value_parse(WM_KNOB_WSF, "9223372036854775808", &v, &d), WM_ERANGE);
	assert_int_equal(sc_value_parse(WM_KNOB_WSF, "-9223372036854775809", &v, &d), WM_ERANGE);
	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "256 4294967296 0", &v, &d), WM_ERANGE);
	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "2147483647,-2147483648", &v, &d), WM_OK);
	assert_int_equal(v.v[0], INT_MAX);
	assert_int_equal(v.v[1], INT_MIN);
	/* Leading zeros do not make a number large. */
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "000000000000000000000000010", &v, &d), WM_OK);
	assert_int_equal(v.v[0], 10);
}

static void test_a_value_longer_than_64_kib_is_refused_with_a_bounded_message(void **state)
{
	char *text = malloc(BIG + 1);
	struct sc_value v;

	assert_non_null(text);
	memset(text, '9', BIG);
	text[BIG] = '\0';
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, text, &v, &d), WM_ERANGE);
	assert_true(strlen(d.msg) < sizeof(d.msg));
	/* Blanks around a number do not count, however many. */
	memset(text, ' ', BIG);
	text[BIG / 2] = '4';
	assert_int_equal(sc_value_parse(WM_KNOB_WSF, text, &v, &d), WM_OK);
	assert_int_equal(v.v[0], 4);
	free(text);
}

static void test_lowmem_reserve_ratio_takes_tabs_spaces_or_commas(void **state)
{
	struct sc_value a, b, c;

	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "256\t256\t32\t0\t0\n", &a, &d), WM_OK);
	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "256 256 32 0 0", &b, &d), WM_OK);
	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "256,256,32,0,0", &c, &d), WM_OK);
	assert_int_equal(a.n, 5);
	assert_int_equal(a.v[2], 32);
	assert_true(sc_value_equal(&a, &b));
	assert_true(sc_value_equal(&a, &c));
	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "1 2 3 4 5 6 7", &a, &d), WM_EPARSE);
	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "256,x", &a, &d), WM_EPARSE);
}

static void test_lists_are_written_space_separated_with_a_newline(void **state)
{
	struct sc_value v;
	char buf[64];

	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "64\t64\t16\t0\t0\n", &v, &d), WM_OK);
	assert_int_equal(sc_value_format(&v, buf, sizeof(buf)), 13);
	assert_string_equal(buf, "64 64 16 0 0\n");
	assert_int_equal(sc_value_parse(WM_KNOB_MFK, "32768", &v, &d), WM_OK);
	assert_int_equal(sc_value_format(&v, buf, sizeof(buf)), 6);
	assert_string_equal(buf, "32768\n");
	assert_int_equal(sc_value_format(&v, buf, 6), WM_ERANGE);
}

static void test_equal_values_need_the_same_numbers_in_the_same_order(void **state)
{
	struct sc_value a = { .v = { 1, 2 }, .n = 2 }, b = a;

	assert_true(sc_value_equal(&a, &b));
	b.v[1] = 3;
	assert_false(sc_value_equal(&a, &b));
	b = a;
	b.n = 1;
	assert_false(sc_value_equal(&a, &b));
	b = (struct sc_value){ .v = { 2, 1 }, .n = 2 };
	assert_false(sc_value_equal(&a, &b));
}

/* ---- ranges ---------------------------------------------------------- */

/* docs/model.md §5 and §8 row 17: 1..1000, 1..3000 from 5.17. */
static void test_wsf_range_is_the_running_kernels(void **state)
{
	struct wm_profile old = prof("5.15.55"), backport = prof("5.15.58");
	struct wm_profile k419 = prof("4.19.0"), k61 = prof("6.1.0-18-amd64");
	struct sc_value v = { .v = { 1000 }, .n = 1 };

	assert_int_equal(sc_value_check(&old, WM_KNOB_WSF, &v, 0, &d), WM_OK);
	v.v[0] = 1001;
	assert_int_equal(sc_value_check(&old, WM_KNOB_WSF, &v, 0, &d), WM_EINVAL);
	assert_non_null(strstr(d.msg, "1..1000"));
	assert_int_equal(sc_value_check(&k419, WM_KNOB_WSF, &v, 0, &d), WM_EINVAL);
	assert_int_equal(sc_value_check(&backport, WM_KNOB_WSF, &v, 0, &d), WM_OK);
	v.v[0] = 3000;
	assert_int_equal(sc_value_check(&k61, WM_KNOB_WSF, &v, 0, &d), WM_OK);
	v.v[0] = 3001;
	assert_int_equal(sc_value_check(&k61, WM_KNOB_WSF, &v, 0, &d), WM_EINVAL);
	assert_non_null(strstr(d.msg, "1..3000"));
	v.v[0] = 0;
	assert_int_equal(sc_value_check(&k61, WM_KNOB_WSF, &v, 0, &d), WM_EINVAL);
}

static void test_a_refused_wsf_says_what_the_kernel_accepts(void **state)
{
	struct wm_profile k49 = prof("4.9.337");
	struct sc_value v = { .v = { 2000 }, .n = 1 };

	memset(&d, 0, sizeof(d));
	assert_int_equal(sc_value_check(&k49, WM_KNOB_WSF, &v, 0, &d), WM_EINVAL);
	assert_string_equal(d.key, "watermark_scale_factor");
	assert_string_equal(d.msg,
			    "watermark_scale_factor 2000 is out of range: kernel 4.9 accepts 1..1000");
	assert_int_equal(d.line, 0);
	/* Without a profile: the oldest limit. */
	assert_int_equal(sc_value_check(NULL, WM_KNOB_WSF, &v, 0, &d), WM_EINVAL);
	assert_non_null(strstr(d.msg, "accepts 1..1000"));
	v.v[0] = 1000;
	assert_int_equal(sc_value_check(NULL, WM_KNOB_WSF, &v, 0, NULL), WM_OK);
}

static void test_sizes_and_factors_must_not_be_negative(void **state)
{
	struct wm_profile p = prof("6.12.117+deb12-amd64");
	struct sc_value v = { .v = { 0 }, .n = 1 };

	assert_int_equal(sc_value_check(&p, WM_KNOB_MFK, &v, 0, &d), WM_OK);
	assert_int_equal(sc_value_check(&p, WM_KNOB_BOOST, &v, 0, &d), WM_OK);
	v.v[0] = INT_MAX;
	assert_int_equal(sc_value_check(&p, WM_KNOB_MFK, &v, 0, &d), WM_OK);
	v.v[0] = -1;
	assert_int_equal(sc_value_check(&p, WM_KNOB_MFK, &v, 0, &d), WM_EINVAL);
	assert_non_null(strstr(d.msg, "min_free_kbytes -1"));
	assert_int_equal(sc_value_check(&p, WM_KNOB_BOOST, &v, 0, &d), WM_EINVAL);
	assert_int_equal(sc_value_check(&p, WM_KNOB_EXTRA, &v, 0, &d), WM_EINVAL);
}

static void test_ratio_list_needs_as_many_entries_as_the_kernel_prints(void **state)
{
	struct wm_profile p = prof("6.1.0");
	struct sc_value v;

	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "64 64 16 0 0", &v, &d), WM_OK);
	assert_int_equal(sc_value_check(&p, WM_KNOB_LRR, &v, 5, &d), WM_OK);
	assert_int_equal(sc_value_check(&p, WM_KNOB_LRR, &v, 4, &d), WM_EINVAL);
	assert_non_null(strstr(d.msg, "needs 4 entries"));
	v.v[1] = -1;
	assert_int_equal(sc_value_check(&p, WM_KNOB_LRR, &v, 5, &d), WM_EINVAL);
}

/* docs/model.md §4, rule A: 4.9 forces a ratio below 1 to 1. */
static void test_a_zero_ratio_is_refused_where_the_kernel_would_make_it_one(void **state)
{
	struct wm_profile k49 = prof("4.9.337"), k419 = prof("4.19.0");
	struct sc_value v;

	assert_int_equal(sc_value_parse(WM_KNOB_LRR, "256 32 0", &v, &d), WM_OK);
	assert_int_equal(sc_value_check(&k49, WM_KNOB_LRR, &v, 3, &d), WM_EINVAL);
	assert_non_null(strstr(d.msg, "accepts 1.."));
	assert_int_equal(sc_value_check(&k419, WM_KNOB_LRR, &v, 3, &d), WM_OK);
	v.v[2] = 1;
	assert_int_equal(sc_value_check(&k49, WM_KNOB_LRR, &v, 3, &d), WM_OK);
}

/* ---- sysctl.d -------------------------------------------------------- */

static void test_sysctl_d_lines_parse_as_systemd_reads_them(void **state)
{
	const char *text =
		"# comment\n"
		"; also a comment\n"
		"\n"
		"vm.min_free_kbytes = 65536\n"
		"  vm/watermark_scale_factor=200  \n"
		"-vm.watermark_boost_factor = 0\n"
		"no equals sign here\n"
		"net/ipv4/conf/eth0.100/rp_filter = 1\n"
		"vm.lowmem_reserve_ratio = 256\t256\t32\t0\t0";
	struct sc_conf_line l;
	size_t pos = 0;
	int line = 0;

	assert_int_equal(sc_conf_next(text, strlen(text), &pos, &line, &l), 1);
	assert_int_equal(l.line, 4);
	assert_string_equal(l.key, "vm.min_free_kbytes");
	assert_string_equal(l.value, "65536");
	assert_false(l.ignore_failure);
	assert_int_equal(sc_conf_next(text, strlen(text), &pos, &line, &l), 1);
	assert_int_equal(l.line, 5);
	assert_string_equal(l.key, "vm.watermark_scale_factor");
	assert_string_equal(l.value, "200");
	assert_int_equal(sc_conf_next(text, strlen(text), &pos, &line, &l), 1);
	assert_true(l.ignore_failure);
	assert_string_equal(l.key, "vm.watermark_boost_factor");
	assert_int_equal(sc_conf_next(text, strlen(text), &pos, &line, &l), WM_EPARSE);
	assert_int_equal(l.line, 7);
	assert_int_equal(sc_conf_next(text, strlen(text), &pos, &line, &l), 1);
	/* A slashed key keeps its literal dots: the interface eth0.100. */
	assert_string_equal(l.key, "net.ipv4.conf.eth0/100.rp_filter");
	assert_int_equal(sc_conf_next(text, strlen(text), &pos, &line, &l), 1);
	assert_int_equal(l.line, 9);
	assert_string_equal(l.value, "256\t256\t32\t0\t0");
	assert_int_equal(sc_conf_next(text, strlen(text), &pos, &line, &l), 0);
}

static void test_comment_lines_are_skipped_but_counted(void **state)
{
	const char *text =
		"#vm.min_free_kbytes = 1\n"
		";vm.min_free_kbytes = 2\n"
		"   # indented = 3\n"
		"\t; tabbed = 4\n"
		"#\n"
		";\n"
		"   \t \r\n"
		"vm.watermark_scale_factor = 5 # not a comment here\n"
		"vm.watermark_boost_factor = 6\n"
		"# the last line, a comment without a newline = 7";
	struct sc_conf_line l;
	struct sc_value v;
	size_t pos = 0, len = strlen(text);
	int line = 0;

	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), 1);
	assert_int_equal(l.line, 8);
	assert_string_equal(l.key, "vm.watermark_scale_factor");
	/* systemd has no trailing comments: it is part of the value... */
	assert_string_equal(l.value, "5 # not a comment here");
	/* ...which is then no integer, so it is never half-applied. */
	assert_int_equal(sc_value_parse(WM_KNOB_WSF, l.value, &v, &d), WM_EPARSE);
	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), 1);
	assert_int_equal(l.line, 9);
	assert_string_equal(l.value, "6");
	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), 0);
	assert_int_equal(line, 10);
	assert_int_equal(pos, len);
	/* Only comments: nothing, and the end at once. */
	pos = 0;
	line = 0;
	assert_int_equal(sc_conf_next("# a\n; b\n", 8, &pos, &line, &l), 0);
	assert_int_equal(line, 2);
	pos = 0;
	line = 0;
	assert_int_equal(sc_conf_next("", 0, &pos, &line, &l), 0);
	assert_int_equal(line, 0);
}

static void test_a_leading_dash_marks_a_failure_to_ignore(void **state)
{
	const char *text =
		"-vm.min_free_kbytes = 1\n"
		"- vm.watermark_scale_factor = 2\n"
		"  -\tvm/watermark_boost_factor=3\n"
		"vm.extra_free_kbytes = -4\n"
		"-\n"
		"- = 5\n"
		"-=6\n"
		"vm.lowmem_reserve_ratio = 7\n";
	struct sc_conf_line l;
	size_t pos = 0, len = strlen(text);
	int line = 0;

	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), 1);
	assert_true(l.ignore_failure);
	assert_string_equal(l.key, "vm.min_free_kbytes");
	assert_string_equal(l.value, "1");
	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), 1);
	assert_true(l.ignore_failure);
	assert_string_equal(l.key, "vm.watermark_scale_factor");
	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), 1);
	assert_true(l.ignore_failure);
	assert_string_equal(l.key, "vm.watermark_boost_factor");
	assert_string_equal(l.value, "3");
	/* A minus on the value is a sign, not the marker. */
	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), 1);
	assert_false(l.ignore_failure);
	assert_string_equal(l.key, "vm.extra_free_kbytes");
	assert_string_equal(l.value, "-4");
	/* The marker alone, or with no key, is no assignment. */
	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), WM_EPARSE);
	assert_int_equal(l.line, 5);
	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), WM_EPARSE);
	assert_int_equal(l.line, 6);
	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), WM_EPARSE);
	assert_int_equal(l.line, 7);
	/* And the marker of one line does not carry to the next. */
	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), 1);
	assert_false(l.ignore_failure);
	assert_int_equal(l.line, 8);
	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), 0);
}

static void test_a_file_without_a_final_newline_keeps_its_last_assignment(void **state)
{
	static const char src[] = "vm.min_free_kbytes = 1\nvm.watermark_scale_factor = 20";
	size_t len = sizeof(src) - 1, pos = 0;
	char *buf = exact(src, len);	/* no NUL after the last byte */
	struct sc_conf_line l;
	int line = 0;

	assert_int_equal(sc_conf_next(buf, len, &pos, &line, &l), 1);
	assert_string_equal(l.value, "1");
	assert_int_equal(sc_conf_next(buf, len, &pos, &line, &l), 1);
	assert_int_equal(l.line, 2);
	assert_string_equal(l.key, "vm.watermark_scale_factor");
	assert_string_equal(l.value, "20");
	assert_int_equal(pos, len);
	assert_int_equal(sc_conf_next(buf, len, &pos, &line, &l), 0);
	assert_int_equal(line, 2);
	free(buf);
	/* The same when the last line ends in blanks or a CR. */
	buf = exact("vm.min_free_kbytes=9 \r", 22);
	pos = 0;
	line = 0;
	assert_int_equal(sc_conf_next(buf, 22, &pos, &line, &l), 1);
	assert_string_equal(l.key, "vm.min_free_kbytes");
	assert_string_equal(l.value, "9");
	assert_int_equal(sc_conf_next(buf, 22, &pos, &line, &l), 0);
	free(buf);
	/* And a last line cut before its '=' is malformed, not empty. */
	buf = exact("vm.min_free_kbytes", 18);
	pos = 0;
	line = 0;
	assert_int_equal(sc_conf_next(buf, 18, &pos, &line, &l), WM_EPARSE);
	assert_int_equal(l.line, 1);
	assert_int_equal(sc_conf_next(buf, 18, &pos, &line, &l), 0);
	free(buf);
}

static void test_lines_over_64_kib_are_skipped_or_refused_and_reading_goes_on(void **state)
{
	static const char tail[] = "\nvm.min_free_kbytes = 1\n";
	size_t len = BIG + sizeof(tail) - 1, pos, i;
	char *buf = malloc(len);
	struct sc_conf_line l;
	int line;

	assert_non_null(buf);
	/* A 70 KiB comment. */
	memset(buf, 'x', BIG);
	buf[0] = '#';
	memcpy(buf + BIG, tail, sizeof(tail) - 1);
	pos = 0;
	line = 0;
	assert_int_equal(sc_conf_next(buf, len, &pos, &line, &l), 1);
	assert_int_equal(l.line, 2);
	assert_string_equal(l.key, "vm.min_free_kbytes");
	assert_int_equal(sc_conf_next(buf, len, &pos, &line, &l), 0);
	/* A 70 KiB value: refused, and the next line is still read. */
	memcpy(buf, "vm.watermark_scale_factor = ", 28);
	pos = 0;
	line = 0;
	assert_int_equal(sc_conf_next(buf, len, &pos, &line, &l), WM_EPARSE);
	assert_int_equal(l.line, 1);
	assert_int_equal(sc_conf_next(buf, len, &pos, &line, &l), 1);
	assert_int_equal(l.line, 2);
	assert_string_equal(l.value, "1");
	/* A 70 KiB key. */
	memset(buf, 'k', BIG);
	buf[BIG - 2] = '=';
	buf[BIG - 1] = '1';
	pos = 0;
	line = 0;
	assert_int_equal(sc_conf_next(buf, len, &pos, &line, &l), WM_EPARSE);
	assert_int_equal(sc_conf_next(buf, len, &pos, &line, &l), 1);
	assert_int_equal(l.line, 2);
	/* 70 KiB of blanks around a short assignment do not count. */
	memset(buf, ' ', BIG);
	memcpy(buf + BIG / 2, "vm/watermark_boost_factor=0", 27);
	pos = 0;
	line = 0;
	assert_int_equal(sc_conf_next(buf, len, &pos, &line, &l), 1);
	assert_string_equal(l.key, "vm.watermark_boost_factor");
	assert_string_equal(l.value, "0");
	/* A 70 KiB line of blank lines: counted one by one. */
	for (i = 0; i < BIG; i++)
		buf[i] = i % 2 ? '\n' : ' ';
	pos = 0;
	line = 0;
	assert_int_equal(sc_conf_next(buf, len, &pos, &line, &l), 1);
	assert_int_equal(l.line, BIG / 2 + 2);
	free(buf);
}

static void test_keys_and_values_just_under_the_limits_are_kept_whole(void **state)
{
	struct sc_conf_line l;
	char buf[512];
	size_t pos, len;
	int line;

	/* 127-byte key and 255-byte value: the largest that fit. */
	memset(buf, 'k', 127);
	buf[127] = '=';
	memset(buf + 128, '7', 255);
	len = 128 + 255;
	pos = 0;
	line = 0;
	assert_int_equal(sc_conf_next(buf, len, &pos, &line, &l), 1);
	assert_int_equal(strlen(l.key), 127);
	assert_int_equal(strlen(l.value), 255);
	/* One byte more of either is refused, never cut. */
	buf[len++] = '7';
	pos = 0;
	line = 0;
	assert_int_equal(sc_conf_next(buf, len, &pos, &line, &l), WM_EPARSE);
	memmove(buf + 1, buf, len++);
	pos = 0;
	line = 0;
	assert_int_equal(sc_conf_next(buf, len - 1, &pos, &line, &l), WM_EPARSE);
}

static void test_a_nul_byte_makes_a_line_malformed(void **state)
{
	static const char text[] = "vm.min_free_kbytes = 1\0 2\n# \0 in a comment\nvm.watermark_scale_factor = 3\n";
	struct sc_conf_line l;
	size_t pos = 0, len = sizeof(text) - 1;
	int line = 0;

	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), WM_EPARSE);
	assert_int_equal(l.line, 1);
	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), 1);
	assert_int_equal(l.line, 3);
	assert_string_equal(l.value, "3");
	assert_int_equal(sc_conf_next(text, len, &pos, &line, &l), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dotted_and_slashed_keys_name_the_same_knob),
		cmocka_unit_test(test_every_knob_parses_back_from_vm_dot_and_vm_slash_its_name),
		cmocka_unit_test(test_keys_outside_the_allowlist_are_refused),
		cmocka_unit_test(test_unknown_and_misspelled_keys_are_refused_and_leave_out_alone),
		cmocka_unit_test(test_values_must_be_plain_integers),
		cmocka_unit_test(test_errors_name_the_knob_and_quote_the_text),
		cmocka_unit_test(test_blanks_around_a_value_are_ignored),
		cmocka_unit_test(test_negative_values_parse_and_the_range_check_refuses_them),
		cmocka_unit_test(test_values_outside_the_range_of_int_are_too_large),
		cmocka_unit_test(test_a_value_longer_than_64_kib_is_refused_with_a_bounded_message),
		cmocka_unit_test(test_lowmem_reserve_ratio_takes_tabs_spaces_or_commas),
		cmocka_unit_test(test_lists_are_written_space_separated_with_a_newline),
		cmocka_unit_test(test_equal_values_need_the_same_numbers_in_the_same_order),
		cmocka_unit_test(test_wsf_range_is_the_running_kernels),
		cmocka_unit_test(test_a_refused_wsf_says_what_the_kernel_accepts),
		cmocka_unit_test(test_sizes_and_factors_must_not_be_negative),
		cmocka_unit_test(test_ratio_list_needs_as_many_entries_as_the_kernel_prints),
		cmocka_unit_test(test_a_zero_ratio_is_refused_where_the_kernel_would_make_it_one),
		cmocka_unit_test(test_sysctl_d_lines_parse_as_systemd_reads_them),
		cmocka_unit_test(test_comment_lines_are_skipped_but_counted),
		cmocka_unit_test(test_a_leading_dash_marks_a_failure_to_ignore),
		cmocka_unit_test(test_a_file_without_a_final_newline_keeps_its_last_assignment),
		cmocka_unit_test(test_lines_over_64_kib_are_skipped_or_refused_and_reading_goes_on),
		cmocka_unit_test(test_keys_and_values_just_under_the_limits_are_kept_whole),
		cmocka_unit_test(test_a_nul_byte_makes_a_line_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
