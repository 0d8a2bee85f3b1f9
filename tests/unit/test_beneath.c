// SPDX-License-Identifier: MIT
/*
 * test_beneath.c - bn_open(), the one way wmark opens a file to write
 * under a cgroup or a --root: the file inside its base, reached without a
 * symbolic link, and a regular file, refused (not waited on) otherwise.
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

#include "../../cli/beneath.h"

static char outside[PATH_MAX];

/* base/cg/memory.reclaim (empty), and outside/victim beside base */
static int setup_tree(void **state)
{
	char *dir = strdup("/tmp/wmark-test-beneath.XXXXXX"), p[PATH_MAX];
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/base", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/base/cg", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/base/cg/memory.reclaim", dir);
	assert_non_null(f = fopen(p, "w"));
	fclose(f);
	snprintf(outside, sizeof(outside), "%s/victim", dir);
	assert_non_null(f = fopen(outside, "w"));
	fputs("precious\n", f);
	fclose(f);
	*state = dir;
	return 0;
}

static int teardown_tree(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", (char *)*state);
	assert_int_equal(system(cmd), 0);
	free(*state);
	return 0;
}

static void victim_is_intact(void)
{
	char buf[64] = "";
	FILE *f = fopen(outside, "r");

	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "precious\n");
}

static void test_a_regular_file_inside_opens_for_writing(void **state)
{
	char base[PATH_MAX];
	int fd;

	snprintf(base, sizeof(base), "%s/base", (char *)*state);
	assert_int_equal(bn_open(base, "cg/memory.reclaim", O_WRONLY, 0, &fd), 0);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "1M", 2), 2);
	/* blocking again once open, close-on-exec */
	assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	/* the check alone: the same walk, nothing opened */
	assert_int_equal(bn_open(base, "cg/memory.reclaim", O_WRONLY, 0, NULL), 0);
	/* "." components and doubled slashes are harmless */
	assert_int_equal(bn_open(base, "./cg//memory.reclaim", O_WRONLY, 0, NULL), 0);
	/* O_CREAT | O_EXCL: a new file is made, an existing one refused */
	assert_int_equal(bn_open(base, "cg/new", O_WRONLY | O_CREAT | O_EXCL, 0600, &fd), 0);
	close(fd);
	assert_int_equal(bn_open(base, "cg/new", O_WRONLY | O_CREAT | O_EXCL, 0600, &fd), -EEXIST);
	assert_int_equal(bn_open(base, "cg/memory.reclaim", O_WRONLY | O_CREAT | O_EXCL, 0600, &fd),
			 -EEXIST);
}

static void test_a_linked_file_is_refused_and_its_target_untouched(void **state)
{
	char base[PATH_MAX], p[PATH_MAX + 64];
	int fd = 123;

	snprintf(base, sizeof(base), "%s/base", (char *)*state);
	snprintf(p, sizeof(p), "%s/cg/memory.reclaim", base);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink(outside, p), 0);
	assert_int_equal(bn_open(base, "cg/memory.reclaim", O_WRONLY, 0, &fd), -EXDEV);
	assert_int_equal(fd, -1);
	assert_int_equal(bn_open(base, "cg/memory.reclaim", O_WRONLY | O_CREAT, 0644, &fd), -EXDEV);
	victim_is_intact();
}

static void test_a_linked_directory_on_the_way_is_refused(void **state)
{
	char base[PATH_MAX], p[PATH_MAX + 128], out[PATH_MAX + 64];
	FILE *f;

	snprintf(base, sizeof(base), "%s/base", (char *)*state);
	/* base/out -> a directory beside base, holding its own memory.reclaim */
	snprintf(out, sizeof(out), "%s/elsewhere", (char *)*state);
	assert_int_equal(mkdir(out, 0755), 0);
	snprintf(p, sizeof(p), "%s/memory.reclaim", out);
	assert_non_null(f = fopen(p, "w"));
	fclose(f);
	snprintf(p, sizeof(p), "%s/out", base);
	assert_int_equal(symlink(out, p), 0);
	assert_int_equal(bn_open(base, "out/memory.reclaim", O_WRONLY, 0, NULL), -EXDEV);
	/* and a ".." that would climb out of base */
	assert_int_equal(bn_open(base, "cg/../../victim", O_WRONLY, 0, NULL), -EXDEV);
	assert_int_equal(bn_open(base, "/etc/passwd", O_WRONLY, 0, NULL), -EXDEV);
	assert_int_equal(bn_open(base, "", O_WRONLY, 0, NULL), -EXDEV);
	victim_is_intact();
}

static void test_a_fifo_is_refused_without_waiting(void **state)
{
	char base[PATH_MAX], p[PATH_MAX + 64];
	int fd;

	snprintf(base, sizeof(base), "%s/base", (char *)*state);
	snprintf(p, sizeof(p), "%s/cg/memory.reclaim", base);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkfifo(p, 0600), 0);
	/* no reader: an open(O_WRONLY) would wait for one for ever */
	assert_int_equal(bn_open(base, "cg/memory.reclaim", O_WRONLY, 0, &fd), -ENXIO);
	assert_int_equal(bn_open(base, "cg/memory.reclaim", O_WRONLY, 0, NULL), -ENXIO);
}

static void test_directories_and_devices_are_not_files(void **state)
{
	char base[PATH_MAX];
	int fd;

	snprintf(base, sizeof(base), "%s/base", (char *)*state);
	assert_int_equal(bn_open(base, "cg", O_WRONLY, 0, &fd), -EISDIR);
	assert_int_equal(bn_open(base, "cg/missing", O_WRONLY, 0, &fd), -ENOENT);
	assert_int_equal(bn_open(base, "cg/memory.reclaim/x", O_WRONLY, 0, &fd), -ENOTDIR);
	assert_int_equal(bn_open("/", "dev/null", O_WRONLY, 0, &fd), -ENXIO);
	assert_string_equal(bn_strerror(-ENXIO),
			    "not a regular file (a FIFO, socket or device): refusing");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_regular_file_inside_opens_for_writing,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_a_linked_file_is_refused_and_its_target_untouched,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_a_linked_directory_on_the_way_is_refused,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_a_fifo_is_refused_without_waiting,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_directories_and_devices_are_not_files,
						setup_tree, teardown_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
