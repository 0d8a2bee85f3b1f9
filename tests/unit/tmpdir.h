/* SPDX-License-Identifier: MIT */
/*
 * tmpdir.h - a fresh directory per test, removed after it: cmocka setup
 * and teardown functions whose state is the directory's path.  Include
 * after cmocka.h.
 */
#ifndef WMARK_TEST_TMPDIR_H
#define WMARK_TEST_TMPDIR_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int setup_dir(void **state)
{
	char *dir = strdup("/tmp/wmark-test.XXXXXX");

	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	*state = dir;
	return 0;
}

static int teardown_dir(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", (char *)*state);
	assert_int_equal(system(cmd), 0);
	free(*state);
	return 0;
}

#endif /* WMARK_TEST_TMPDIR_H */
