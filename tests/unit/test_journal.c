// SPDX-License-Identifier: MIT
/*
 * test_journal.c - apply's state journal: what goes in comes back out
 * byte for byte, a commit replaces the old journal whole and leaves no
 * temporary file, and files that are not our journal are refused.
 */
#include <dirent.h>
#include <errno.h>
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

#include "tmpdir.h"

#include "../../cli/journal.h"

static void sample(struct journal *j)
{
	memset(j, 0, sizeof(*j));
	j->state = JR_PENDING;
	strcpy(j->root, "/tmp/some root");
	strcpy(j->kernel, "6.12.117+deb12-amd64");
	strcpy(j->boot_id, "6a1c0f3e-0000-4000-8000-000000000001");
	j->time = 1700000000;
	strcpy(j->command, "wmark apply --wsf 120 --lowmem-reserve-ratio \"64 64 16 0 0\"");
	j->n = 2;
	j->e[0].key = WM_KNOB_WSF;
	strcpy(j->e[0].previous, "10\n");
	strcpy(j->e[0].written, "120\n");
	j->e[1].key = WM_KNOB_LRR;
	strcpy(j->e[1].previous, "256\t256\t32\t0\t0\n");
	strcpy(j->e[1].written, "64 64 16 0 0\n");
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_a_saved_journal_loads_back_byte_for_byte(void **state)
{
	char path[PATH_MAX];
	struct wm_diag err = { 0 };
	struct journal in, out;
	const char *failed = NULL;
	int i;

	snprintf(path, sizeof(path), "%s/state.json", (char *)*state);
	sample(&in);
	assert_int_equal(jr_save(path, &in, &failed), 0);
	assert_int_equal(jr_load(path, &out, &err), 0);
	assert_int_equal(out.state, JR_PENDING);
	assert_string_equal(out.root, in.root);
	assert_string_equal(out.kernel, in.kernel);
	assert_string_equal(out.boot_id, in.boot_id);
	assert_string_equal(out.command, in.command);
	assert_true(out.time == in.time);
	assert_int_equal(out.n, 2);
	for (i = 0; i < 2; i++) {
		assert_int_equal(out.e[i].key, in.e[i].key);
		assert_string_equal(out.e[i].previous, in.e[i].previous);
		assert_string_equal(out.e[i].written, in.e[i].written);
	}
	/* The tab-separated list the kernel printed survives the JSON. */
	assert_memory_equal(out.e[1].previous, "256\t256\t32\t0\t0\n", 16);
}

static void test_a_commit_replaces_the_journal_and_leaves_no_temporary(void **state)
{
	char path[PATH_MAX];
	struct wm_diag err = { 0 };
	struct journal j, out;
	struct stat st;

	snprintf(path, sizeof(path), "%s/state.json", (char *)*state);
	sample(&j);
	assert_int_equal(jr_save(path, &j, NULL), 0);
	j.state = JR_APPLIED;
	assert_int_equal(jr_save(path, &j, NULL), 0);
	assert_int_equal(count_entries(*state), 1);
	assert_int_equal(jr_load(path, &out, &err), 0);
	assert_int_equal(out.state, JR_APPLIED);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
}

static void test_every_state_round_trips_by_name(void **state)
{
	char path[PATH_MAX];
	struct wm_diag err = { 0 };
	struct journal j, out;
	int s;

	snprintf(path, sizeof(path), "%s/state.json", (char *)*state);
	for (s = JR_PENDING; s <= JR_ROLLED_BACK; s++) {
		sample(&j);
		j.state = (enum jr_state)s;
		assert_int_equal(jr_save(path, &j, NULL), 0);
		assert_int_equal(jr_load(path, &out, &err), 0);
		assert_int_equal(out.state, s);
	}
	assert_string_equal(jr_state_name(JR_ROLLED_BACK), "rolled-back");
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_files_that_are_not_our_journal_are_refused(void **state)
{
	char path[PATH_MAX];
	struct wm_diag err = { 0 };
	struct journal j;

	snprintf(path, sizeof(path), "%s/state.json", (char *)*state);
	assert_int_equal(jr_load(path, &j, &err), -ENOENT);
	put(path, "not json at all");
	assert_int_equal(jr_load(path, &j, &err), -EINVAL);
	put(path, "{\"format\": \"something-else\"}");
	assert_int_equal(jr_load(path, &j, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not a wmark journal"));
	put(path, "{\"format\": \"wmark-journal-1\", \"state\": \"applied\", \"root\": \"/\","
		  " \"previous\": {\"swappiness\": \"60\\n\"}, \"written\": {}}");
	assert_int_equal(jr_load(path, &j, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "swappiness"));
	put(path, "{\"format\": \"wmark-journal-1\", \"state\": \"applied\", \"root\": \"/\","
		  " \"previous\": {\"min_free_kbytes\": \"1\\n\"}, \"written\": {}}");
	assert_int_equal(jr_load(path, &j, &err), -EINVAL);
	put(path, "{\"format\": \"wmark-journal-1\", \"state\": \"half-done\", \"root\": \"/\","
		  " \"previous\": {}, \"written\": {}}");
	assert_int_equal(jr_load(path, &j, &err), -EINVAL);
}

static void test_default_journal_lives_under_the_root(void **state)
{
	char p[PATH_MAX];

	assert_int_equal(jr_default_path("/", p, sizeof(p)), 0);
	assert_string_equal(p, "/var/lib/wmark/state.json");
	assert_int_equal(jr_default_path("/tmp/t", p, sizeof(p)), 0);
	assert_string_equal(p, "/tmp/t/var/lib/wmark/state.json");
	assert_int_equal(jr_default_path("/tmp/t//", p, sizeof(p)), 0);
	assert_string_equal(p, "/tmp/t/var/lib/wmark/state.json");
	assert_int_equal(jr_default_path("/tmp/t", p, 10), -ENAMETOOLONG);
}

static void test_the_journal_directory_is_created_or_its_refusal_named(void **state)
{
	char path[PATH_MAX], file[PATH_MAX];
	const char *failed = NULL;
	struct stat st;

	snprintf(path, sizeof(path), "%s/var/lib/wmark/state.json", (char *)*state);
	assert_int_equal(jr_prepare_dir(path, &failed), 0);
	snprintf(file, sizeof(file), "%s/var/lib/wmark", (char *)*state);
	assert_int_equal(stat(file, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* A file where a directory should be. */
	snprintf(file, sizeof(file), "%s/plain", (char *)*state);
	put(file, "x");
	snprintf(path, sizeof(path), "%s/plain/state.json", (char *)*state);
	assert_int_equal(jr_prepare_dir(path, &failed), -ENOTDIR);
	assert_non_null(failed);
	assert_int_equal(jr_save(path, &(struct journal){ 0 }, &failed), -ENOTDIR);
	assert_string_equal(failed, "create");
}

static void test_atomic_write_replaces_content_whole(void **state)
{
	char path[PATH_MAX], buf[64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/f.conf", (char *)*state);
	put(path, "old content that is longer than the new one\n");
	assert_int_equal(jr_write_atomic(path, "new\n", 4, 0600, NULL, NULL), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(n, 4);
	assert_memory_equal(buf, "new\n", 4);
	assert_int_equal(count_entries(*state), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_saved_journal_loads_back_byte_for_byte,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_a_commit_replaces_the_journal_and_leaves_no_temporary,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_every_state_round_trips_by_name,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_files_that_are_not_our_journal_are_refused,
						setup_dir, teardown_dir),
		cmocka_unit_test(test_default_journal_lives_under_the_root),
		cmocka_unit_test_setup_teardown(test_the_journal_directory_is_created_or_its_refusal_named,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_atomic_write_replaces_content_whole,
						setup_dir, teardown_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
