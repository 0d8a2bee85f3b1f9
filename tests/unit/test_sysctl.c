// SPDX-License-Identifier: MIT
/*
 * test_sysctl.c - the vm.* allowlist, key and value syntax, the kernel's
 * accepted ranges (kernel-notes.md section 5), path resolution under a
 * root with symlinks refused, guarded writes and the sysctl.d reader.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../cli/sysctl.h"

static char err[256];

static struct wm_profile prof(const char *s)
{
	struct wm_kver k;
	struct wm_profile p;

	assert_int_equal(wm_kver_parse(s, &k, NULL), WM_OK);
	wm_profile_for(&k, &p);
	return p;
}

static void put_file(const char *dir, const char *rel, const char *text)
{
	char p[PATH_MAX], cmd[PATH_MAX + 32];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	assert_int_equal(system(cmd), 0);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int setup_root(void **state)
{
	char *dir = strdup("/tmp/wmark-test-sysctl.XXXXXX");

	assert_non_null(mkdtemp(dir));
	put_file(dir, "proc/sys/vm/min_free_kbytes", "67584\n");
	put_file(dir, "proc/sys/vm/watermark_scale_factor", "10\n");
	put_file(dir, "proc/sys/vm/lowmem_reserve_ratio", "256\t256\t32\t0\t0\n");
	*state = dir;
	return 0;
}

static int teardown_root(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", (char *)*state);
	assert_int_equal(system(cmd), 0);
	free(*state);
	return 0;
}

static void test_dotted_and_slashed_keys_name_the_same_knob(void **state)
{
	enum sc_key k;

	assert_int_equal(sc_key_parse("vm.min_free_kbytes", &k), 0);
	assert_int_equal(k, SC_MFK);
	assert_int_equal(sc_key_parse("vm/min_free_kbytes", &k), 0);
	assert_int_equal(k, SC_MFK);
	assert_int_equal(sc_key_parse("vm.watermark_scale_factor", &k), 0);
	assert_int_equal(k, SC_WSF);
	assert_int_equal(sc_key_parse("vm.watermark_boost_factor", &k), 0);
	assert_int_equal(k, SC_BOOST);
	assert_int_equal(sc_key_parse("vm.lowmem_reserve_ratio", &k), 0);
	assert_int_equal(k, SC_LRR);
	assert_int_equal(sc_key_parse("vm/extra_free_kbytes", &k), 0);
	assert_int_equal(k, SC_EXTRA);
	assert_string_equal(sc_key_name(SC_LRR), "lowmem_reserve_ratio");
}

static void test_keys_outside_the_allowlist_are_refused(void **state)
{
	enum sc_key k;

	assert_int_equal(sc_key_parse("vm.drop_caches", &k), -1);
	assert_int_equal(sc_key_parse("vm.swappiness", &k), -1);
	assert_int_equal(sc_key_parse("kernel.min_free_kbytes", &k), -1);
	assert_int_equal(sc_key_parse("min_free_kbytes", &k), -1);
	assert_int_equal(sc_key_parse("vm.min_free_kbytes/../../kernel/x", &k), -1);
	assert_int_equal(sc_key_parse("vm/../kernel/min_free_kbytes", &k), -1);
	assert_int_equal(sc_key_parse("/proc/sys/vm/min_free_kbytes", &k), -1);
	assert_int_equal(sc_key_parse("vm.min_free_kbytes ", &k), -1);
	assert_int_equal(sc_key_parse("", &k), -1);
}

static void test_values_must_be_plain_integers(void **state)
{
	struct sc_value v;

	assert_int_equal(sc_value_parse(SC_WSF, " 120\n", &v, err, sizeof(err)), 0);
	assert_int_equal(v.n, 1);
	assert_int_equal(v.v[0], 120);
	assert_int_equal(sc_value_parse(SC_WSF, "1.5", &v, err, sizeof(err)), -1);
	assert_int_equal(sc_value_parse(SC_MFK, "64M", &v, err, sizeof(err)), -1);
	assert_int_equal(sc_value_parse(SC_MFK, "0x10", &v, err, sizeof(err)), -1);
	assert_int_equal(sc_value_parse(SC_MFK, "", &v, err, sizeof(err)), -1);
	assert_int_equal(sc_value_parse(SC_MFK, "  ", &v, err, sizeof(err)), -1);
	assert_int_equal(sc_value_parse(SC_MFK, "12 13", &v, err, sizeof(err)), -1);
	assert_int_equal(sc_value_parse(SC_MFK, "99999999999999999999", &v, err, sizeof(err)), -1);
	/* INT_MAX + 1: the kernel's int would overflow. */
	assert_int_equal(sc_value_parse(SC_MFK, "2147483648", &v, err, sizeof(err)), -1);
	assert_int_equal(sc_value_parse(SC_MFK, "2147483647", &v, err, sizeof(err)), 0);
	assert_int_equal(sc_value_parse(SC_WSF, "-3", &v, err, sizeof(err)), 0);
	assert_int_equal(v.v[0], -3);
}

static void test_lowmem_reserve_ratio_takes_tabs_spaces_or_commas(void **state)
{
	struct sc_value a, b, c;

	assert_int_equal(sc_value_parse(SC_LRR, "256\t256\t32\t0\t0\n", &a, err, sizeof(err)), 0);
	assert_int_equal(sc_value_parse(SC_LRR, "256 256 32 0 0", &b, err, sizeof(err)), 0);
	assert_int_equal(sc_value_parse(SC_LRR, "256,256,32,0,0", &c, err, sizeof(err)), 0);
	assert_int_equal(a.n, 5);
	assert_int_equal(a.v[2], 32);
	assert_true(sc_value_equal(&a, &b));
	assert_true(sc_value_equal(&a, &c));
	assert_int_equal(sc_value_parse(SC_LRR, "1 2 3 4 5 6 7", &a, err, sizeof(err)), -1);
	assert_int_equal(sc_value_parse(SC_LRR, "256,x", &a, err, sizeof(err)), -1);
}

static void test_lists_are_written_space_separated_with_a_newline(void **state)
{
	struct sc_value v;
	char buf[64];

	assert_int_equal(sc_value_parse(SC_LRR, "64\t64\t16\t0\t0\n", &v, err, sizeof(err)), 0);
	assert_int_equal(sc_value_format(&v, buf, sizeof(buf)), 13);
	assert_string_equal(buf, "64 64 16 0 0\n");
	assert_int_equal(sc_value_parse(SC_MFK, "32768", &v, err, sizeof(err)), 0);
	assert_int_equal(sc_value_format(&v, buf, sizeof(buf)), 6);
	assert_string_equal(buf, "32768\n");
	assert_int_equal(sc_value_format(&v, buf, 6), -1);
}

/* kernel-notes.md section 5 and section 8 row 17: 1..1000, 1..3000 from 5.17. */
static void test_wsf_range_is_the_running_kernels(void **state)
{
	struct wm_profile old = prof("5.15.55"), backport = prof("5.15.58");
	struct wm_profile k419 = prof("4.19.0"), k61 = prof("6.1.0-18-amd64");
	struct sc_value v = { .v = { 1000 }, .n = 1 };

	assert_int_equal(sc_value_check(SC_WSF, &v, &old, 0, err, sizeof(err)), 0);
	v.v[0] = 1001;
	assert_int_equal(sc_value_check(SC_WSF, &v, &old, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "1..1000"));
	assert_int_equal(sc_value_check(SC_WSF, &v, &k419, 0, err, sizeof(err)), -1);
	assert_int_equal(sc_value_check(SC_WSF, &v, &backport, 0, err, sizeof(err)), 0);
	v.v[0] = 3000;
	assert_int_equal(sc_value_check(SC_WSF, &v, &k61, 0, err, sizeof(err)), 0);
	v.v[0] = 3001;
	assert_int_equal(sc_value_check(SC_WSF, &v, &k61, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "1..3000"));
	v.v[0] = 0;
	assert_int_equal(sc_value_check(SC_WSF, &v, &k61, 0, err, sizeof(err)), -1);
}

static void test_sizes_and_factors_must_not_be_negative(void **state)
{
	struct wm_profile p = prof("6.12.117+deb12-amd64");
	struct sc_value v = { .v = { 0 }, .n = 1 };

	assert_int_equal(sc_value_check(SC_MFK, &v, &p, 0, err, sizeof(err)), 0);
	assert_int_equal(sc_value_check(SC_BOOST, &v, &p, 0, err, sizeof(err)), 0);
	v.v[0] = INT_MAX;
	assert_int_equal(sc_value_check(SC_MFK, &v, &p, 0, err, sizeof(err)), 0);
	v.v[0] = -1;
	assert_int_equal(sc_value_check(SC_MFK, &v, &p, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "min_free_kbytes -1"));
	assert_int_equal(sc_value_check(SC_BOOST, &v, &p, 0, err, sizeof(err)), -1);
	assert_int_equal(sc_value_check(SC_EXTRA, &v, &p, 0, err, sizeof(err)), -1);
}

static void test_ratio_list_needs_as_many_entries_as_the_kernel_prints(void **state)
{
	struct wm_profile p = prof("6.1.0");
	struct sc_value v;

	assert_int_equal(sc_value_parse(SC_LRR, "64 64 16 0 0", &v, err, sizeof(err)), 0);
	assert_int_equal(sc_value_check(SC_LRR, &v, &p, 5, err, sizeof(err)), 0);
	assert_int_equal(sc_value_check(SC_LRR, &v, &p, 4, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "needs 4 entries"));
	v.v[1] = -1;
	assert_int_equal(sc_value_check(SC_LRR, &v, &p, 5, err, sizeof(err)), -1);
}

/* kernel-notes.md section 4, rule A: 4.9 forces a ratio below 1 to 1. */
static void test_a_zero_ratio_is_refused_where_the_kernel_would_make_it_one(void **state)
{
	struct wm_profile k49 = prof("4.9.337"), k419 = prof("4.19.0");
	struct sc_value v;

	assert_int_equal(sc_value_parse(SC_LRR, "256 32 0", &v, err, sizeof(err)), 0);
	assert_int_equal(sc_value_check(SC_LRR, &v, &k49, 3, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "accepts 1.."));
	assert_int_equal(sc_value_check(SC_LRR, &v, &k419, 3, err, sizeof(err)), 0);
	v.v[2] = 1;
	assert_int_equal(sc_value_check(SC_LRR, &v, &k49, 3, err, sizeof(err)), 0);
}

static void test_knob_paths_resolve_under_the_root(void **state)
{
	const char *root = *state;
	char p[PATH_MAX], want[PATH_MAX + 64], rroot[PATH_MAX];

	assert_non_null(realpath(root, rroot));
	snprintf(want, sizeof(want), "%s/proc/sys/vm/min_free_kbytes", rroot);
	assert_int_equal(sc_path(root, SC_MFK, p, sizeof(p)), 0);
	assert_string_equal(p, want);
	/* A trailing slash on the root changes nothing. */
	snprintf(want, sizeof(want), "%s/", root);
	assert_int_equal(sc_path(want, SC_MFK, p, sizeof(p)), 0);
	assert_int_equal(sc_path(root, SC_EXTRA, p, sizeof(p)), -ENOENT);
	assert_int_equal(sc_path("/nonexistent-wmark-root", SC_MFK, p, sizeof(p)), -ENOENT);
	assert_int_equal(sc_path(root, SC_MFK, p, 10), -ENAMETOOLONG);
}

static void test_a_symlinked_knob_is_refused_even_inside_the_root(void **state)
{
	const char *root = *state;
	char link[PATH_MAX], target[PATH_MAX], p[PATH_MAX];

	snprintf(target, sizeof(target), "%s/elsewhere", root);
	put_file(root, "elsewhere", "10\n");
	snprintf(link, sizeof(link), "%s/proc/sys/vm/watermark_boost_factor", root);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(sc_path(root, SC_BOOST, p, sizeof(p)), -EXDEV);
	/* Dangling: no realpath, still a way out. */
	unlink(link);
	assert_int_equal(symlink("/nonexistent/x", link), 0);
	assert_int_equal(sc_path(root, SC_BOOST, p, sizeof(p)), -EXDEV);
	unlink(link);
}

static void test_a_vm_directory_linked_out_of_the_root_is_refused(void **state)
{
	const char *root = *state;
	char outside[PATH_MAX], vm[PATH_MAX], cmd[5 * PATH_MAX], p[PATH_MAX];

	/* A capture whose proc/sys/vm points at another tree (the host's). */
	snprintf(outside, sizeof(outside), "%s-outside", root);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && echo 5 > '%s/min_free_kbytes'",
		 outside, outside);
	assert_int_equal(system(cmd), 0);
	snprintf(vm, sizeof(vm), "%s/proc/sys/vm", root);
	snprintf(cmd, sizeof(cmd), "mv '%s' '%s.real' && ln -s '%s' '%s'", vm, vm, outside, vm);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(sc_path(root, SC_MFK, p, sizeof(p)), -EXDEV);
	snprintf(cmd, sizeof(cmd), "rm '%s' && mv '%s.real' '%s' && rm -rf '%s'", vm, vm, vm, outside);
	assert_int_equal(system(cmd), 0);
}

static void test_write_then_read_back_gives_the_written_text(void **state)
{
	const char *root = *state;
	char p[PATH_MAX], buf[64];

	assert_int_equal(sc_path(root, SC_LRR, p, sizeof(p)), 0);
	assert_int_equal(sc_read(p, buf, sizeof(buf)), 15);
	assert_string_equal(buf, "256\t256\t32\t0\t0\n");
	assert_int_equal(sc_write(p, "64 64 16 0 0\n", 13), 0);
	assert_int_equal(sc_read_back(p, buf, sizeof(buf)), 13);
	assert_string_equal(buf, "64 64 16 0 0\n");
	/* A shorter value replaces the whole file. */
	assert_int_equal(sc_write(p, "1\n", 2), 0);
	assert_int_equal(sc_read(p, buf, sizeof(buf)), 2);
	assert_int_equal(sc_read(p, buf, 2), -EFBIG);
}

static void test_writes_never_create_a_missing_knob(void **state)
{
	const char *root = *state;
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/proc/sys/vm/extra_free_kbytes", root);
	assert_int_equal(sc_write(p, "0\n", 2), -ENOENT);
	assert_int_equal(stat(p, &st), -1);
}

static void test_a_write_the_device_refuses_is_an_error(void **state)
{
	/* /dev/full fails every write with ENOSPC, like a kernel EINVAL. */
	assert_int_equal(sc_write("/dev/full", "1\n", 2), -ENOSPC);
}

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
	assert_int_equal(sc_conf_next(text, strlen(text), &pos, &line, &l), -1);
	assert_int_equal(l.line, 7);
	assert_int_equal(sc_conf_next(text, strlen(text), &pos, &line, &l), 1);
	/* A slashed key keeps its literal dots: the interface eth0.100. */
	assert_string_equal(l.key, "net.ipv4.conf.eth0/100.rp_filter");
	assert_int_equal(sc_conf_next(text, strlen(text), &pos, &line, &l), 1);
	assert_int_equal(l.line, 9);
	assert_string_equal(l.value, "256\t256\t32\t0\t0");
	assert_int_equal(sc_conf_next(text, strlen(text), &pos, &line, &l), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dotted_and_slashed_keys_name_the_same_knob),
		cmocka_unit_test(test_keys_outside_the_allowlist_are_refused),
		cmocka_unit_test(test_values_must_be_plain_integers),
		cmocka_unit_test(test_lowmem_reserve_ratio_takes_tabs_spaces_or_commas),
		cmocka_unit_test(test_lists_are_written_space_separated_with_a_newline),
		cmocka_unit_test(test_wsf_range_is_the_running_kernels),
		cmocka_unit_test(test_sizes_and_factors_must_not_be_negative),
		cmocka_unit_test(test_ratio_list_needs_as_many_entries_as_the_kernel_prints),
		cmocka_unit_test(test_a_zero_ratio_is_refused_where_the_kernel_would_make_it_one),
		cmocka_unit_test_setup_teardown(test_knob_paths_resolve_under_the_root,
						setup_root, teardown_root),
		cmocka_unit_test_setup_teardown(test_a_symlinked_knob_is_refused_even_inside_the_root,
						setup_root, teardown_root),
		cmocka_unit_test_setup_teardown(test_a_vm_directory_linked_out_of_the_root_is_refused,
						setup_root, teardown_root),
		cmocka_unit_test_setup_teardown(test_write_then_read_back_gives_the_written_text,
						setup_root, teardown_root),
		cmocka_unit_test_setup_teardown(test_writes_never_create_a_missing_knob,
						setup_root, teardown_root),
		cmocka_unit_test(test_a_write_the_device_refuses_is_an_error),
		cmocka_unit_test(test_sysctl_d_lines_parse_as_systemd_reads_them),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
