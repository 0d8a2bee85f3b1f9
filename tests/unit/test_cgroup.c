// SPDX-License-Identifier: MIT
/* calc/cgroup.c: the one-value cgroup files and memory.stat lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../calc/cgroup.h"

static int value(const char *s, uint64_t *v, bool *max)
{
	struct wm_diag d = { 0 };
	int rc = wm_cg_parse_value(s, strlen(s), v, max, &d);

	if (rc)
		assert_true(d.msg[0] != '\0');
	return rc;
}

static void test_a_value_is_digits_or_max_with_one_newline(void **state)
{
	uint64_t v;
	bool max;

	(void)state;
	assert_int_equal(value("314572800\n", &v, &max), WM_OK);
	assert_true(v == 314572800 && !max);
	assert_int_equal(value("18446744073709551615", &v, &max), WM_OK);
	assert_true(v == UINT64_MAX && !max);
	assert_int_equal(value("max\n", &v, &max), WM_OK);
	assert_true(max && v == UINT64_MAX);
	assert_int_equal(value("0\n", &v, &max), WM_OK);
	assert_true(v == 0);
}

static void test_a_value_that_would_wrap_or_is_not_a_number_is_refused(void **state)
{
	static const char *const bad[] = {
		"-5\n", "18446744073709551616\n", "garbage\n", "", "\n", " 5\n", "+5\n",
		"5 \n", "5\n\n", "maxi\n", "0x10\n", "1e6\n",
	};
	uint64_t v;
	bool max;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(value(bad[i], &v, &max), WM_EPARSE);
}

static void test_a_stat_key_is_read_from_its_first_line_as_digits_only(void **state)
{
	static const char stat[] = "anon 104857600\nfile_mapped 3\nfile 209715200\n"
				   "pgsteal_direct -5\nworkingset_refault_anon 99999999999999999999\n"
				   "pgsteal 7\npgsteal 8\n";
	static const char mi[] = "MemTotal:       4000000 kB\nMemFree:\t1000000 kB\n";
	uint64_t v = 0;

	(void)state;
	assert_true(wm_cg_stat_get(stat, strlen(stat), "anon", &v) && v == 104857600);
	assert_true(wm_cg_stat_get(stat, strlen(stat), "file", &v) && v == 209715200);
	assert_true(wm_cg_stat_get(stat, strlen(stat), "pgsteal", &v) && v == 7);
	/* a negative count was 2^64 - 5 through sscanf("%lu") */
	assert_false(wm_cg_stat_get(stat, strlen(stat), "pgsteal_direct", &v));
	assert_false(wm_cg_stat_get(stat, strlen(stat), "workingset_refault_anon", &v));
	assert_false(wm_cg_stat_get(stat, strlen(stat), "workingset_refault_file", &v));
	assert_true(wm_cg_stat_get(mi, strlen(mi), "MemTotal:", &v) && v == 4000000);
	assert_true(wm_cg_stat_get(mi, strlen(mi), "MemFree:", &v) && v == 1000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_value_is_digits_or_max_with_one_newline),
		cmocka_unit_test(test_a_value_that_would_wrap_or_is_not_a_number_is_refused),
		cmocka_unit_test(test_a_stat_key_is_read_from_its_first_line_as_digits_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
