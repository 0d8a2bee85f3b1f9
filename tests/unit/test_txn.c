// SPDX-License-Identifier: MIT
/*
 * test_txn.c - the write-with-undo of apply, rollback and tune
 * (cli/txn.c): where a journaled knob stands, and the one commit
 * sequence: the journal pending before any write, applied after, and on a
 * failure every write put back and the journal as it was before.
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"

#include "../../cli/txn.h"

static struct sc_value val(enum wm_knob k, const char *text)
{
	struct sc_value v;

	assert_int_equal(sc_value_parse(k, text, &v, NULL), 0);
	return v;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void get(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t len;

	assert_non_null(f);
	len = fread(buf, 1, n - 1, f);
	buf[len] = '\0';
	fclose(f);
}

static void test_where_a_knob_stands(void **state)
{
	struct jr_entry e = { .key = WM_KNOB_WSF };
	struct jr_entry l = { .key = WM_KNOB_LRR };
	struct sc_value v;

	(void)state;
	strcpy(e.previous, "10\n");
	strcpy(e.written, "120\n");
	v = val(WM_KNOB_WSF, "10");
	assert_int_equal(txn_where(&e, &v), TXN_AT_PREVIOUS);
	v = val(WM_KNOB_WSF, "120\n");
	assert_int_equal(txn_where(&e, &v), TXN_AT_WRITTEN);
	v = val(WM_KNOB_WSF, "50");
	assert_int_equal(txn_where(&e, &v), TXN_CHANGED);
	assert_int_equal(txn_where(&e, NULL), TXN_CHANGED);
	/* a write killed before it reached this knob: it holds "before" */
	strcpy(e.before, "50\n");
	assert_int_equal(txn_where(&e, &v), TXN_AT_WRITTEN);
	/* arrays compare by value, whatever the spacing */
	strcpy(l.previous, "256\t256\t32\t0\t0\n");
	strcpy(l.written, "64 64 16 0 0\n");
	v = val(WM_KNOB_LRR, "64\t64\t16\t0\t0\n");
	assert_int_equal(txn_where(&l, &v), TXN_AT_WRITTEN);
	v = val(WM_KNOB_LRR, "256 256 32 0 0");
	assert_int_equal(txn_where(&l, &v), TXN_AT_PREVIOUS);
	v = val(WM_KNOB_LRR, "256 256 32 0 1");
	assert_int_equal(txn_where(&l, &v), TXN_CHANGED);
}

/* A journal of one wsf entry 10 -> 120, "before" 77, and its step. */
static void one_write(const char *dir, char *knob, struct journal *j, struct txn_step *st)
{
	snprintf(knob, PATH_MAX, "%s/watermark_scale_factor", dir);
	put(knob, "10\n");
	txn_journal_head(j, dir, "6.12.118+deb12-amd64", "wmark apply --wsf 120");
	j->n = 1;
	j->e[0].key = WM_KNOB_WSF;
	strcpy(j->e[0].previous, "10\n");
	strcpy(j->e[0].written, "120\n");
	strcpy(j->e[0].before, "77\n");
	*st = (struct txn_step){ .key = WM_KNOB_WSF, .path = knob, .to = "120\n",
				 .back = "10\n", .want = val(WM_KNOB_WSF, "120") };
}

static void test_a_commit_writes_and_saves_the_journal_applied(void **state)
{
	char knob[PATH_MAX], jpath[PATH_MAX], text[64], real[PATH_MAX];
	struct wm_diag err = { 0 };
	struct txn_outcome out;
	struct txn_step st;
	struct journal j, back;

	snprintf(jpath, sizeof(jpath), "%s/state.json", (char *)*state);
	one_write(*state, knob, &j, &st);
	assert_non_null(realpath(*state, real));
	assert_string_equal(j.root, real);
	assert_true(j.time > 0);
	assert_int_equal(txn_commit("test", jpath, &j, &st, 1, NULL, &out), EXIT_OK);
	assert_true(out.journaled);
	assert_false(out.undone);
	assert_int_equal(out.save_err, 0);
	get(knob, text, sizeof(text));
	assert_string_equal(text, "120\n");
	assert_int_equal(jr_load(jpath, &back, &err), 0);
	assert_int_equal(back.state, JR_APPLIED);
	assert_int_equal(back.n, 1);
	assert_string_equal(back.e[0].previous, "10\n");
	assert_string_equal(back.e[0].written, "120\n");
	/* written: the text from before the write is no longer the knob's */
	assert_string_equal(back.e[0].before, "");
	assert_string_equal(back.command, "wmark apply --wsf 120");
}

static void test_a_failed_write_is_undone_and_the_journal_put_back(void **state)
{
	char knob[PATH_MAX], dirknob[PATH_MAX], jpath[PATH_MAX], text[64];
	struct wm_diag err = { 0 };
	struct txn_outcome out;
	struct txn_step st[2];
	struct journal j, earlier, back;

	snprintf(jpath, sizeof(jpath), "%s/state.json", (char *)*state);
	one_write(*state, knob, &j, &st[0]);
	/* the second knob cannot be written: a directory in its place */
	snprintf(dirknob, sizeof(dirknob), "%s/watermark_boost_factor", (char *)*state);
	assert_int_equal(mkdir(dirknob, 0755), 0);
	j.e[j.n].key = WM_KNOB_BOOST;
	strcpy(j.e[j.n].previous, "15000\n");
	strcpy(j.e[j.n].written, "0\n");
	j.n++;
	st[1] = (struct txn_step){ .key = WM_KNOB_BOOST, .path = dirknob, .to = "0\n",
				   .back = "15000\n", .want = val(WM_KNOB_BOOST, "0") };

	/* with the journal of an earlier write: that one again */
	earlier = j;
	earlier.state = JR_APPLIED;
	strcpy(earlier.command, "wmark apply --wsf 40");
	assert_int_equal(txn_commit("test", jpath, &j, st, 2, &earlier, &out), EXIT_SYSTEM);
	assert_true(out.journaled);
	assert_true(out.undone);
	get(knob, text, sizeof(text));
	assert_string_equal(text, "10\n");
	assert_int_equal(jr_load(jpath, &back, &err), 0);
	assert_int_equal(back.state, JR_APPLIED);
	assert_string_equal(back.command, "wmark apply --wsf 40");

	/* without one: this journal, marked restored */
	assert_int_equal(txn_commit("test", jpath, &j, st, 2, NULL, &out), EXIT_SYSTEM);
	assert_true(out.undone);
	assert_int_equal(jr_load(jpath, &back, &err), 0);
	assert_int_equal(back.state, JR_RESTORED);
	assert_string_equal(back.command, "wmark apply --wsf 120");
	get(knob, text, sizeof(text));
	assert_string_equal(text, "10\n");
}

static void test_no_write_without_the_journal_on_disk(void **state)
{
	char knob[PATH_MAX], jpath[PATH_MAX], text[64];
	struct txn_outcome out;
	struct txn_step st;
	struct journal j;

	snprintf(jpath, sizeof(jpath), "%s/no such dir/state.json", (char *)*state);
	one_write(*state, knob, &j, &st);
	assert_int_equal(txn_commit("test", jpath, &j, &st, 1, NULL, &out), EXIT_SYSTEM);
	assert_false(out.journaled);
	get(knob, text, sizeof(text));
	assert_string_equal(text, "10\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_where_a_knob_stands),
		cmocka_unit_test_setup_teardown(test_a_commit_writes_and_saves_the_journal_applied,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_a_failed_write_is_undone_and_the_journal_put_back,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_no_write_without_the_journal_on_disk,
						setup_dir, teardown_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
