// SPDX-License-Identifier: MIT
/*
 * test_persist.c - sysctl.d and init .rc texts, and the procps/systemd
 * precedence that decides which sysctl.d file wins at boot.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../cli/persist.h"

static void put_file(const char *dir, const char *rel, const char *text)
{
	char p[PATH_MAX], cmd[2 * PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	assert_int_equal(system(cmd), 0);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int setup_root(void **state)
{
	char *dir = strdup("/tmp/wmark-test-persist.XXXXXX");

	assert_non_null(mkdtemp(dir));
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

static const enum wm_knob both[] = { WM_KNOB_MFK, WM_KNOB_WSF };

static void scan(const char *root, const char *file, struct ps_report *rep)
{
	char t[PATH_MAX];

	assert_int_equal(ps_target(root, file, t, sizeof(t)), 0);
	assert_int_equal(ps_scan(root, t, both, 2, rep), 0);
}

static void test_sysctl_d_text_has_the_header_then_one_line_per_knob(void **state)
{
	struct ps_item it[2] = {
		{ WM_KNOB_WSF, { .v = { 120 }, .n = 1 } },
		{ WM_KNOB_LRR, { .v = { 64, 64, 16, 0, 0 }, .n = 5 } },
	};
	char *s = ps_sysctl_d_text("Written by wmark\n\nwhy: a reason", it, 2);

	assert_non_null(s);
	assert_string_equal(s, "# Written by wmark\n#\n# why: a reason\n\n"
			       "vm.watermark_scale_factor = 120\n"
			       "vm.lowmem_reserve_ratio = 64 64 16 0 0\n");
	free(s);
	s = ps_sysctl_d_text(NULL, it, 1);
	assert_string_equal(s, "vm.watermark_scale_factor = 120\n");
	free(s);
}

static void test_initrc_writes_after_boot_completed_and_quotes_lists(void **state)
{
	struct ps_item it[2] = {
		{ WM_KNOB_WSF, { .v = { 57 }, .n = 1 } },
		{ WM_KNOB_LRR, { .v = { 32, 32, 0 }, .n = 3 } },
	};
	char *s = ps_initrc_text("wmark", it, 2);

	assert_non_null(s);
	assert_string_equal(s, "# wmark\n\n"
			       "on property:sys.boot_completed=1\n"
			       "    write /proc/sys/vm/watermark_scale_factor 57\n"
			       "    write /proc/sys/vm/lowmem_reserve_ratio \"32 32 0\"\n");
	free(s);
}

static void test_an_absolute_file_lies_inside_the_root(void **state)
{
	char t[PATH_MAX];

	assert_int_equal(ps_target("/tmp/r", "/etc/sysctl.d/90-wmark.conf", t, sizeof(t)), 0);
	assert_string_equal(t, "/tmp/r/etc/sysctl.d/90-wmark.conf");
	assert_int_equal(ps_target("/", "/etc/sysctl.d/90-wmark.conf", t, sizeof(t)), 0);
	assert_string_equal(t, "/etc/sysctl.d/90-wmark.conf");
}

static void test_a_relative_or_dotted_file_is_refused(void **state)
{
	char t[PATH_MAX];

	/* relative to the cwd would be outside the machine at root */
	assert_int_equal(ps_target("/tmp/r", "here.conf", t, sizeof(t)), -EINVAL);
	assert_int_equal(ps_target("/tmp/r", "../../x.conf", t, sizeof(t)), -EINVAL);
	assert_int_equal(ps_target("/tmp/r", "/etc/../../x.conf", t, sizeof(t)), -EINVAL);
	assert_int_equal(ps_target("/tmp/r", "/etc/./x.conf", t, sizeof(t)), -EINVAL);
	assert_int_equal(ps_target("/tmp/r", "/etc/sysctl.d/", t, sizeof(t)), -EISDIR);
	/* a name that merely starts with dots is a name */
	assert_int_equal(ps_target("/tmp/r", "/etc/..x.conf", t, sizeof(t)), 0);
}

static void test_later_names_win_and_earlier_ones_lose(void **state)
{
	const char *root = *state;
	struct ps_report rep;

	put_file(root, "/usr/lib/sysctl.d/10-early.conf", "vm.min_free_kbytes = 1000\n");
	put_file(root, "/usr/lib/sysctl.d/99-vendor.conf",
		 "# vendor tuning\nvm/min_free_kbytes=2000\nvm.swappiness = 10\n");
	put_file(root, "/run/sysctl.d/95-runtime.conf", "-vm.watermark_scale_factor = 30\n");
	put_file(root, "/etc/sysctl.d/README", "vm.min_free_kbytes = 3\n");
	scan(root, "/etc/sysctl.d/90-wmark.conf", &rep);
	assert_true(rep.read_at_boot);
	assert_string_equal(rep.masked_by, "");
	assert_int_equal(rep.nov, 2);
	assert_string_equal(rep.ov[0].file, "/run/sysctl.d/95-runtime.conf");
	assert_int_equal(rep.ov[0].key, WM_KNOB_WSF);
	assert_string_equal(rep.ov[0].value, "30");
	assert_string_equal(rep.ov[1].file, "/usr/lib/sysctl.d/99-vendor.conf");
	assert_int_equal(rep.ov[1].line, 2);
	assert_int_equal(rep.ov[1].key, WM_KNOB_MFK);
	assert_string_equal(rep.ov[1].value, "2000");
	ps_report_free(&rep);
}

static void test_a_same_name_file_in_etc_masks_the_vendor_one(void **state)
{
	const char *root = *state;
	struct ps_report rep;

	put_file(root, "/usr/lib/sysctl.d/99-vendor.conf", "vm.min_free_kbytes = 2000\n");
	put_file(root, "/etc/sysctl.d/99-vendor.conf", "");
	scan(root, "/etc/sysctl.d/90-wmark.conf", &rep);
	assert_int_equal(rep.nov, 0);
	ps_report_free(&rep);
}

static void test_ours_is_masked_by_the_same_name_in_an_earlier_directory(void **state)
{
	const char *root = *state;
	struct ps_report rep;

	put_file(root, "/etc/sysctl.d/90-wmark.conf", "vm.min_free_kbytes = 5\n");
	put_file(root, "/lib/sysctl.d/50-default.conf", "vm.min_free_kbytes = 6\n");
	scan(root, "/usr/lib/sysctl.d/90-wmark.conf", &rep);
	assert_true(rep.read_at_boot);
	assert_string_equal(rep.masked_by, "/etc/sysctl.d/90-wmark.conf");
	/* Never read, so everything that sets the knob wins over it. */
	assert_int_equal(rep.nov, 2);
	ps_report_free(&rep);
}

static void test_sysctl_conf_applies_last_and_counts_once(void **state)
{
	const char *root = *state;
	char link[PATH_MAX];
	struct ps_report rep;

	put_file(root, "/etc/sysctl.conf", "vm.watermark_scale_factor = 200\n");
	snprintf(link, sizeof(link), "%s/etc/sysctl.d/99-sysctl.conf", root);
	put_file(root, "/etc/sysctl.d/00-placeholder.conf", "");
	assert_int_equal(symlink("../sysctl.conf", link), 0);
	scan(root, "/etc/sysctl.d/zz-wmark.conf", &rep);
	assert_int_equal(rep.nov, 1);
	assert_string_equal(rep.ov[0].file, "/etc/sysctl.conf");
	ps_report_free(&rep);
}

static void test_a_file_outside_the_sysctl_directories_is_not_read_at_boot(void **state)
{
	const char *root = *state;
	char t[PATH_MAX];
	struct ps_report rep;

	snprintf(t, sizeof(t), "%s/wmark.conf", root);
	put_file(root, "/etc/sysctl.d/10-x.conf", "vm.min_free_kbytes = 1\n");
	assert_int_equal(ps_scan(root, t, both, 2, &rep), 0);
	assert_false(rep.read_at_boot);
	assert_int_equal(rep.nov, 1);
	ps_report_free(&rep);
	/* Right directory, wrong suffix: sysctl --system skips it too. */
	scan(root, "/etc/sysctl.d/90-wmark", &rep);
	assert_false(rep.read_at_boot);
	ps_report_free(&rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysctl_d_text_has_the_header_then_one_line_per_knob),
		cmocka_unit_test(test_initrc_writes_after_boot_completed_and_quotes_lists),
		cmocka_unit_test(test_an_absolute_file_lies_inside_the_root),
		cmocka_unit_test(test_a_relative_or_dotted_file_is_refused),
		cmocka_unit_test_setup_teardown(test_later_names_win_and_earlier_ones_lose,
						setup_root, teardown_root),
		cmocka_unit_test_setup_teardown(test_a_same_name_file_in_etc_masks_the_vendor_one,
						setup_root, teardown_root),
		cmocka_unit_test_setup_teardown(test_ours_is_masked_by_the_same_name_in_an_earlier_directory,
						setup_root, teardown_root),
		cmocka_unit_test_setup_teardown(test_sysctl_conf_applies_last_and_counts_once,
						setup_root, teardown_root),
		cmocka_unit_test_setup_teardown(test_a_file_outside_the_sysctl_directories_is_not_read_at_boot,
						setup_root, teardown_root),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
