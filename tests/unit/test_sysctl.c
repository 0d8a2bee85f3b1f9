// SPDX-License-Identifier: MIT
/*
 * test_sysctl.c - path resolution of the knobs under a root with
 * symlinks refused, guarded reads and writes (a root tree's plain files
 * replaced atomically), and the escaping of values quoted in messages.  Their text (keys,
 * values, ranges, sysctl.d lines) is tested in test_sysctl_text.c.
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

static void test_knob_paths_resolve_under_the_root(void **state)
{
	const char *root = *state;
	char p[PATH_MAX], want[PATH_MAX + 64], rroot[PATH_MAX];

	assert_non_null(realpath(root, rroot));
	snprintf(want, sizeof(want), "%s/proc/sys/vm/min_free_kbytes", rroot);
	assert_int_equal(sc_path(root, WM_KNOB_MFK, p, sizeof(p)), 0);
	assert_string_equal(p, want);
	/* A trailing slash on the root changes nothing. */
	snprintf(want, sizeof(want), "%s/", root);
	assert_int_equal(sc_path(want, WM_KNOB_MFK, p, sizeof(p)), 0);
	assert_int_equal(sc_path(root, WM_KNOB_EXTRA, p, sizeof(p)), -ENOENT);
	assert_int_equal(sc_path("/nonexistent-wmark-root", WM_KNOB_MFK, p, sizeof(p)), -ENOENT);
	assert_int_equal(sc_path(root, WM_KNOB_MFK, p, 10), -ENAMETOOLONG);
}

static void test_a_symlinked_knob_is_refused_even_inside_the_root(void **state)
{
	const char *root = *state;
	char link[PATH_MAX], target[PATH_MAX], p[PATH_MAX];

	snprintf(target, sizeof(target), "%s/elsewhere", root);
	put_file(root, "elsewhere", "10\n");
	snprintf(link, sizeof(link), "%s/proc/sys/vm/watermark_boost_factor", root);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(sc_path(root, WM_KNOB_BOOST, p, sizeof(p)), -EXDEV);
	/* Dangling: no realpath, still a way out. */
	unlink(link);
	assert_int_equal(symlink("/nonexistent/x", link), 0);
	assert_int_equal(sc_path(root, WM_KNOB_BOOST, p, sizeof(p)), -EXDEV);
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
	assert_int_equal(sc_path(root, WM_KNOB_MFK, p, sizeof(p)), -EXDEV);
	snprintf(cmd, sizeof(cmd), "rm '%s' && mv '%s.real' '%s' && rm -rf '%s'", vm, vm, vm, outside);
	assert_int_equal(system(cmd), 0);
}

static void test_write_then_read_back_gives_the_written_text(void **state)
{
	const char *root = *state;
	char p[PATH_MAX], buf[64];

	assert_int_equal(sc_path(root, WM_KNOB_LRR, p, sizeof(p)), 0);
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

static void test_a_device_in_a_knobs_place_is_refused_unopened(void **state)
{
	/* /dev/full would take the open and fail the write: it is not opened */
	assert_int_equal(sc_write("/dev/full", "1\n", 2), -ENXIO);
}

static void test_a_plain_knob_file_is_replaced_whole_keeping_its_mode(void **state)
{
	const char *root = *state;
	char p[PATH_MAX], buf[64];
	struct stat a, b;

	assert_int_equal(sc_path(root, WM_KNOB_WSF, p, sizeof(p)), 0);
	assert_int_equal(chmod(p, 0640), 0);
	assert_int_equal(stat(p, &a), 0);
	assert_int_equal(sc_writable(p), 0);
	assert_int_equal(sc_write(p, "120\n", 4), 0);
	assert_int_equal(stat(p, &b), 0);
	/* a new inode: renamed into place, never truncated and rewritten */
	assert_true(a.st_ino != b.st_ino);
	assert_int_equal(b.st_mode & 07777, 0640);
	assert_int_equal(sc_read(p, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "120\n");
}

static void test_escape_keeps_a_quoted_value_on_one_line(void **state)
{
	char out[64];

	(void)state;
	assert_string_equal(sc_escape("7\n5\n", out, sizeof(out)), "7\\n5\\n");
	assert_string_equal(sc_escape("a\tb\\c\x01", out, sizeof(out)), "a\\tb\\\\c\\x01");
	/* cut whole: never half an escape */
	assert_string_equal(sc_escape("\n\n\n", out, 5), "\\n\\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
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
		cmocka_unit_test(test_a_device_in_a_knobs_place_is_refused_unopened),
		cmocka_unit_test_setup_teardown(test_a_plain_knob_file_is_replaced_whole_keeping_its_mode,
						setup_root, teardown_root),
		cmocka_unit_test(test_escape_keeps_a_quoted_value_on_one_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
