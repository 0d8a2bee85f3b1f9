// SPDX-License-Identifier: MIT
/*
 * test_taskstats.c - struct taskstats decoding from bytes laid out by hand
 * (offsets counted from include/uapi/linux/taskstats.h of each version,
 * not taken from the decoder), the attribute walker, and the live
 * TASKSTATS family: children that sleep or burn CPU, a missing pid,
 * queries in a row, an exit record, and a process without CAP_NET_ADMIN.
 *
 * The live tests only read taskstats; they skip where the family cannot
 * be reached (no CAP_NET_ADMIN, no CONFIG_TASKSTATS, built without libnl).
 */
#include <errno.h>
#include <linux/capability.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../cli/taskstats.h"

/* ---- building records by hand ------------------------------------------- */

static unsigned char rec[1024];

static void put64(size_t off, uint64_t v)
{
	memcpy(rec + off, &v, 8);
}

static void put32(size_t off, uint32_t v)
{
	memcpy(rec + off, &v, 4);
}

static void put16(size_t off, uint16_t v)
{
	memcpy(rec + off, &v, 2);
}

/*
 * Offsets shared by every layout but v15 (hand-counted): version 0,
 * cpu pair 16/24, blkio 32/40, swapin 48/56, run_real 64, comm 80,
 * run_virtual 72, pid 128, ppid 132, etime 144, nvcsw 272, freepages 312/320,
 * thrashing 328/336, btime64 344, compact 352/360, tgid 368,
 * wpcopy 400/408, irq 416/424, then v16's max/min pairs from 432.
 */
static void fill_common(unsigned version)
{
	memset(rec, 0, sizeof(rec));
	put16(0, (uint16_t)version);
	put64(16, 101);			/* cpu count */
	put64(24, 1010);		/* cpu total */
	put64(32, 102);			/* blkio */
	put64(40, 1020);
	put64(48, 103);			/* swapin */
	put64(56, 1030);
	put64(64, 5000000);		/* run_real */
	put64(72, 6000000);		/* run_virtual */
	memcpy(rec + 80, "worker", 6);
	put32(128, 4242);		/* pid */
	put32(132, 1);			/* ppid */
	put32(136, 1700000000);		/* 32-bit btime */
	put64(144, 2000000);		/* etime: 2 s in us */
	put64(272, 17);			/* nvcsw */
	put64(312, 104);		/* freepages */
	put64(320, 1040);
	if (version >= 9) {
		put64(328, 105);	/* thrashing */
		put64(336, 1050);
	}
	if (version >= 10)
		put64(344, 1700000001);	/* btime64 */
	if (version >= 11) {
		put64(352, 106);	/* compact */
		put64(360, 1060);
	}
	if (version >= 12)
		put32(368, 4240);	/* tgid */
	if (version >= 13) {
		put64(400, 107);	/* wpcopy */
		put64(408, 1070);
	}
	if (version >= 14) {
		put64(416, 108);	/* irq */
		put64(424, 1080);
	}
}

static void assert_pair(const struct ts_stats *s, int k, uint64_t count,
			uint64_t total)
{
	assert_true(s->have & (1u << k));
	assert_int_equal(s->d[k].count, count);
	assert_int_equal(s->d[k].total_ns, total);
}

static void test_v8_record_carries_reclaim_but_not_thrashing(void **state)
{
	struct ts_stats s;

	fill_common(8);
	assert_int_equal(ts_decode_stats(rec, 328, &s, NULL), WM_OK);
	assert_int_equal(s.version, 8);
	assert_false(s.truncated);
	assert_false(s.oversized);
	assert_pair(&s, TS_CPU, 101, 1010);
	assert_pair(&s, TS_BLKIO, 102, 1020);
	assert_pair(&s, TS_SWAPIN, 103, 1030);
	assert_pair(&s, TS_FREEPAGES, 104, 1040);
	assert_false(s.have & (1u << TS_THRASHING));
	assert_false(s.have & (1u << TS_COMPACT));
	assert_false(s.have & (1u << TS_IRQ));
	assert_false(s.have_minmax);
	assert_string_equal(s.comm, "worker");
	assert_int_equal(s.pid, 4242);
	assert_int_equal(s.ppid, 1);
	assert_int_equal(s.tgid, 0);		/* no ac_tgid before v12 */
	assert_int_equal(s.btime_s, 1700000000);	/* 32-bit btime before v10 */
	assert_int_equal(s.etime_us, 2000000);
	assert_int_equal(s.run_real_ns, 5000000);
	assert_int_equal(s.run_virtual_ns, 6000000);
	assert_int_equal(s.nvcsw, 17);
}

static void test_v9_record_adds_thrashing(void **state)
{
	struct ts_stats s;

	fill_common(9);
	assert_int_equal(ts_decode_stats(rec, 344, &s, NULL), WM_OK);
	assert_pair(&s, TS_FREEPAGES, 104, 1040);
	assert_pair(&s, TS_THRASHING, 105, 1050);
	assert_false(s.have & (1u << TS_COMPACT));
	assert_false(s.truncated);
}

static void test_v13_record_adds_compact_tgid_and_wpcopy(void **state)
{
	struct ts_stats s;

	fill_common(13);
	assert_int_equal(ts_decode_stats(rec, 416, &s, NULL), WM_OK);
	assert_pair(&s, TS_COMPACT, 106, 1060);
	assert_pair(&s, TS_WPCOPY, 107, 1070);
	assert_false(s.have & (1u << TS_IRQ));
	assert_int_equal(s.tgid, 4240);
	assert_int_equal(s.btime_s, 1700000001);	/* btime64 from v10 */
}

static void test_v14_record_adds_irq(void **state)
{
	struct ts_stats s;

	fill_common(14);
	assert_int_equal(ts_decode_stats(rec, 432, &s, NULL), WM_OK);
	assert_int_equal(s.have, 0xffu);
	assert_pair(&s, TS_IRQ, 108, 1080);
	assert_false(s.have_minmax);
}

static void test_v15_record_is_read_at_its_moved_offsets_without_minmax(void **state)
{
	struct ts_stats s;
	/* v15: {count, total, max, min} in place for each of the 8 kinds. */
	static const size_t at[TS_NKINDS] = { 16, 48, 80, 360, 392, 432, 496, 528 };
	int k;

	memset(rec, 0, sizeof(rec));
	put16(0, 15);
	for (k = 0; k < TS_NKINDS; k++) {
		put64(at[k], 200 + k);
		put64(at[k] + 8, 2000 + k);
		put64(at[k] + 16, 900 + k);	/* max: not to be trusted */
		put64(at[k] + 24, 1);		/* min */
	}
	put64(112, 7000000);			/* run_real */
	put64(120, 8000000);			/* run_virtual */
	memcpy(rec + 128, "moved", 5);		/* comm */
	put32(176, 77);				/* pid */
	put64(192, 3000000);			/* etime */
	put64(320, 9);				/* nvcsw */
	put64(424, 1700000002);			/* btime64 */
	put32(464, 70);				/* tgid */
	assert_int_equal(ts_decode_stats(rec, 560, &s, NULL), WM_OK);
	assert_int_equal(s.version, 15);
	for (k = 0; k < TS_NKINDS; k++)
		assert_pair(&s, k, 200 + k, 2000 + k);
	assert_false(s.have_minmax);
	assert_int_equal(s.d[TS_CPU].max_ns, 0);
	assert_string_equal(s.comm, "moved");
	assert_int_equal(s.pid, 77);
	assert_int_equal(s.tgid, 70);
	assert_int_equal(s.etime_us, 3000000);
	assert_int_equal(s.run_real_ns, 7000000);
	assert_int_equal(s.run_virtual_ns, 8000000);
	assert_int_equal(s.nvcsw, 9);
	assert_int_equal(s.btime_s, 1700000002);
	assert_false(s.truncated);
}

static void test_v16_record_has_minmax_after_irq(void **state)
{
	struct ts_stats s;
	int k;

	fill_common(16);
	for (k = 0; k < TS_NKINDS; k++) {
		put64(432 + 16 * (size_t)k, 300 + k);	/* max */
		put64(440 + 16 * (size_t)k, 30 + k);	/* min */
	}
	assert_int_equal(ts_decode_stats(rec, 560, &s, NULL), WM_OK);
	assert_int_equal(s.have, 0xffu);
	assert_true(s.have_minmax);
	assert_pair(&s, TS_CPU, 101, 1010);	/* not moved, unlike v15 */
	assert_pair(&s, TS_IRQ, 108, 1080);
	for (k = 0; k < TS_NKINDS; k++) {
		assert_int_equal(s.d[k].max_ns, 300 + k);
		assert_int_equal(s.d[k].min_ns, 30 + k);
	}
	assert_int_equal(s.pid, 4242);
	assert_false(s.truncated);
	assert_false(s.oversized);
}

static void test_v15_and_v16_are_told_apart_by_version_not_size(void **state)
{
	assert_int_equal(ts_wire_size(15), 560);
	assert_int_equal(ts_wire_size(16), 560);
	assert_int_equal(ts_wire_size(8), 328);
	assert_int_equal(ts_wire_size(14), 432);
	assert_int_equal(ts_wire_size(17), 688);
	assert_int_equal(ts_wire_max(), 688);
	assert_int_equal(ts_kind_since(TS_FREEPAGES), 8);
	assert_int_equal(ts_kind_since(TS_THRASHING), 9);
	assert_int_equal(ts_kind_since(TS_COMPACT), 11);
	assert_int_equal(ts_kind_since(TS_WPCOPY), 13);
	assert_int_equal(ts_kind_since(TS_IRQ), 14);
}

static void test_truncated_record_keeps_only_fully_covered_pairs(void **state)
{
	struct ts_stats s;

	fill_common(14);
	/* 420 bytes: irq count (416..424) is there, its total is not. */
	assert_int_equal(ts_decode_stats(rec, 420, &s, NULL), WM_OK);
	assert_true(s.truncated);
	assert_pair(&s, TS_WPCOPY, 107, 1070);
	assert_false(s.have & (1u << TS_IRQ));
	assert_int_equal(s.d[TS_IRQ].count, 0);

	/* v16 cut before its last min: no max/min at all. */
	fill_common(16);
	put64(432, 5);
	assert_int_equal(ts_decode_stats(rec, 552, &s, NULL), WM_OK);
	assert_true(s.truncated);
	assert_false(s.have_minmax);
	assert_int_equal(s.d[TS_CPU].max_ns, 0);

	/* Only the header: a record with nothing in it, but no crash. */
	assert_int_equal(ts_decode_stats(rec, 8, &s, NULL), WM_OK);
	assert_true(s.truncated);
	assert_int_equal(s.have, 0);
	assert_string_equal(s.comm, "");
}

static void test_oversized_record_from_a_newer_kernel_is_read_by_prefix(void **state)
{
	struct ts_stats s;

	fill_common(18);
	put64(432, 55);			/* cpu max, where v16 put it */
	memset(rec + 688, 0xee, 100);	/* fields we do not know */
	assert_int_equal(ts_decode_stats(rec, 788, &s, NULL), WM_OK);
	assert_true(s.oversized);
	assert_false(s.truncated);
	assert_int_equal(s.have, 0xffu);
	assert_true(s.have_minmax);
	assert_int_equal(s.d[TS_CPU].max_ns, 55);
	assert_int_equal(s.wire_len, 788);
}

static void test_records_without_a_version_are_rejected(void **state)
{
	struct ts_stats s;
	struct wm_diag d = { 0 };

	fill_common(16);
	assert_int_equal(ts_decode_stats(rec, 1, &s, &d), WM_EPARSE);
	assert_string_equal(d.key, "version");
	assert_int_equal(ts_decode_stats(rec, 0, &s, &d), WM_EPARSE);
	assert_string_equal(d.key, "version");
	put16(0, 0);
	assert_int_equal(ts_decode_stats(rec, 560, &s, &d), WM_EPARSE);
	assert_string_equal(d.msg, "version 0: not a taskstats record");
}

static void test_command_names_are_made_printable(void **state)
{
	struct ts_stats s;

	fill_common(16);
	memcpy(rec + 80, "a\033[2Jb\xc3\xa9", 8);
	assert_int_equal(ts_decode_stats(rec, 560, &s, NULL), WM_OK);
	assert_string_equal(s.comm, "a?[2Jb??");
	/* All 32 bytes used, no NUL: still terminated. */
	memset(rec + 80, 'x', 32);
	assert_int_equal(ts_decode_stats(rec, 560, &s, NULL), WM_OK);
	assert_int_equal(strlen(s.comm), 32);
}

/* ---- attribute streams ----------------------------------------------- */

static unsigned char msg[4096];
static size_t mlen;

/* Append an attribute; return its offset so a nest can be closed. */
static size_t attr(unsigned type, const void *data, size_t len)
{
	size_t at = mlen;
	uint16_t l = (uint16_t)(4 + len), t = (uint16_t)type;

	memcpy(msg + mlen, &l, 2);
	memcpy(msg + mlen + 2, &t, 2);
	if (len)
		memcpy(msg + mlen + 4, data, len);
	mlen += (4 + len + 3) & ~(size_t)3;
	return at;
}

static void close_nest(size_t at)
{
	uint16_t l = (uint16_t)(mlen - at);

	memcpy(msg + at, &l, 2);
}

/* The kernel's exit message: PID nest, then TGID nest, with pads. */
static void build_exit_message(void)
{
	uint32_t pid = 4242, tgid = 4240;
	size_t n;

	mlen = 0;
	attr(TS_TYPE_NULL, NULL, 0);		/* padding can come first */
	n = attr(TS_TYPE_AGGR_PID | 0x8000, NULL, 0);	/* NLA_F_NESTED */
	attr(TS_TYPE_PID, &pid, 4);
	attr(TS_TYPE_NULL, NULL, 0);		/* aligns the stats */
	fill_common(16);
	attr(TS_TYPE_STATS, rec, 560);
	close_nest(n);
	n = attr(TS_TYPE_AGGR_TGID, NULL, 0);
	attr(TS_TYPE_TGID, &tgid, 4);
	attr(99, "future", 6);			/* unknown: skipped */
	fill_common(16);
	put64(16, 999);
	attr(TS_TYPE_STATS, rec, 560);
	close_nest(n);
}

static void test_exit_message_yields_pid_and_tgid_records(void **state)
{
	struct ts_record r;

	build_exit_message();
	assert_int_equal(ts_decode_attrs(msg, mlen, &r, NULL), WM_OK);
	assert_true(r.has_pid);
	assert_true(r.has_tgid);
	assert_int_equal(r.pid, 4242);
	assert_int_equal(r.tgid, 4240);
	assert_int_equal(r.pid_stats.version, 16);
	assert_int_equal(r.pid_stats.d[TS_CPU].count, 101);
	assert_int_equal(r.tgid_stats.d[TS_CPU].count, 999);
}

static void test_attribute_longer_than_the_message_is_malformed(void **state)
{
	struct ts_record r;
	struct wm_diag d = { 0 };
	uint16_t big = 2000, tiny = 3;

	build_exit_message();
	/* The stream cut in the middle of the TGID nest. */
	assert_int_equal(ts_decode_attrs(msg, mlen - 100, &r, &d), WM_EPARSE);
	assert_string_equal(d.key, "attribute");
	memcpy(msg, &big, 2);
	assert_int_equal(ts_decode_attrs(msg, mlen, &r, &d), WM_EPARSE);
	assert_string_equal(d.key, "attribute");
	memcpy(msg, &tiny, 2);
	assert_int_equal(ts_decode_attrs(msg, mlen, &r, &d), WM_EPARSE);
	assert_string_equal(d.key, "attribute");
}

static void test_short_pid_attribute_is_malformed(void **state)
{
	struct ts_record r;
	struct wm_diag d = { 0 };
	size_t n;

	mlen = 0;
	n = attr(TS_TYPE_AGGR_PID, NULL, 0);
	attr(TS_TYPE_PID, "ab", 2);
	close_nest(n);
	assert_int_equal(ts_decode_attrs(msg, mlen, &r, &d), WM_EPARSE);
	assert_string_equal(d.key, "attribute");
}

static void test_message_without_stats_is_empty(void **state)
{
	struct ts_record r;
	uint32_t pid = 7;
	size_t n;

	mlen = 0;
	attr(TS_TYPE_NULL, NULL, 0);
	n = attr(TS_TYPE_AGGR_PID, NULL, 0);
	attr(TS_TYPE_PID, &pid, 4);
	close_nest(n);
	assert_int_equal(ts_decode_attrs(msg, mlen, &r, NULL), WM_ENODATA);
	assert_int_equal(ts_decode_attrs(msg, 0, &r, NULL), WM_ENODATA);
	/* Stats outside a nest are not the kernel's shape: ignored. */
	mlen = 0;
	fill_common(16);
	attr(TS_TYPE_STATS, rec, 560);
	assert_int_equal(ts_decode_attrs(msg, mlen, &r, NULL), WM_ENODATA);
}

static void test_truncated_stats_inside_a_message_still_decode(void **state)
{
	struct ts_record r;
	uint32_t pid = 8;
	size_t n;

	mlen = 0;
	n = attr(TS_TYPE_AGGR_PID, NULL, 0);
	attr(TS_TYPE_PID, &pid, 4);
	fill_common(14);
	attr(TS_TYPE_STATS, rec, 300);		/* cut before freepages */
	close_nest(n);
	/* Trailing bytes shorter than an attribute header are ignored. */
	msg[mlen] = 1;
	msg[mlen + 1] = 2;
	assert_int_equal(ts_decode_attrs(msg, mlen + 2, &r, NULL), WM_OK);
	assert_true(r.pid_stats.truncated);
	assert_true(r.pid_stats.have & (1u << TS_CPU));
	assert_false(r.pid_stats.have & (1u << TS_FREEPAGES));
}

/* ---- the live family ----------------------------------------------------- */

static struct ts_sock *live;
static bool delayacct_on;

static int setup_live(void **state)
{
	struct ts_error e = { 0 };
	FILE *f = fopen("/proc/sys/kernel/task_delayacct", "r");	/* read only */
	int v = 1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 1;
		fclose(f);
	}
	delayacct_on = v != 0;
	if (ts_open(&live, 3000, &e) != TS_OK)
		live = NULL;
	return 0;
}

static int teardown_live(void **state)
{
	ts_close(live);
	live = NULL;
	return 0;
}

/* Skip unless queries work here (root with CAP_NET_ADMIN, libnl). */
static void need_live(void)
{
	struct ts_stats s;
	struct ts_error e = { 0 };
	int rc;

	if (!live) {
		print_message("# SKIP: no TASKSTATS family reachable (built without libnl, or no CONFIG_TASKSTATS)\n");
		skip();
	}
	rc = ts_query_pid(live, (uint32_t)getpid(), &s, &e);
	if (rc == TS_EPERM) {
		print_message("# SKIP: taskstats needs CAP_NET_ADMIN\n");
		skip();
	}
	assert_int_equal(rc, TS_OK);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/*
 * Fork a child that runs body, then reports on the pipe and waits for
 * the parent to close it.  Return its pid once it has reported.
 */
static pid_t child_after(void (*body)(void), int *keep)
{
	int done[2], hold[2];
	pid_t pid;
	char c;

	assert_int_equal(pipe(done), 0);
	assert_int_equal(pipe(hold), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(done[0]);
		close(hold[1]);
		body();
		if (write(done[1], "x", 1) != 1)
			_exit(1);
		while (read(hold[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(done[1]);
	close(hold[0]);
	assert_int_equal(read(done[0], &c, 1), 1);
	close(done[0]);
	*keep = hold[1];
	return pid;
}

static void release(pid_t pid, int keep)
{
	int st;

	close(keep);
	assert_int_equal(waitpid(pid, &st, 0), pid);
}

static void sleep_20_times(void)
{
	struct timespec t = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 20; i++)
		nanosleep(&t, NULL);
}

static void burn_300ms(void)
{
	uint64_t end = thread_cpu_ns() + 300u * 1000 * 1000;
	volatile unsigned long x = 0;

	while (thread_cpu_ns() < end)
		x++;
}

static void test_sleeping_child_counts_a_cpu_wait_per_wakeup(void **state)
{
	struct ts_stats s;
	struct ts_error e = { 0 };
	int keep, k;
	pid_t pid;

	need_live();
	pid = child_after(sleep_20_times, &keep);
	assert_int_equal(ts_query_pid(live, (uint32_t)pid, &s, &e), TS_OK);
	release(pid, keep);

	assert_true(s.version >= 8);
	assert_int_equal(s.pid, (uint32_t)pid);
	assert_int_equal(s.ppid, (uint32_t)getpid());
	/* Each of the 20 wakeups is one more arrival on a CPU. */
	assert_true(s.have & (1u << TS_CPU));
	assert_true(s.d[TS_CPU].count >= 20);
	/* 200 ms asleep: elapsed covers it, CPU time is a small part. */
	assert_true(s.etime_us >= 200000);
	assert_true(s.run_virtual_ns < 150u * 1000 * 1000);
	assert_true(s.d[TS_CPU].total_ns < s.etime_us * 1000);
	assert_true(s.nvcsw >= 20);
	if (!delayacct_on)	/* off: nothing but the scheduler's CPU delay */
		for (k = TS_BLKIO; k < TS_NKINDS; k++)
			assert_int_equal(s.d[k].count, 0);
}

static void test_busy_child_runs_longer_than_the_sleeper(void **state)
{
	struct ts_stats busy, idle;
	struct ts_error e = { 0 };
	int keep;
	pid_t pid;

	need_live();
	pid = child_after(burn_300ms, &keep);
	assert_int_equal(ts_query_pid(live, (uint32_t)pid, &busy, &e), TS_OK);
	release(pid, keep);
	pid = child_after(sleep_20_times, &keep);
	assert_int_equal(ts_query_pid(live, (uint32_t)pid, &idle, &e), TS_OK);
	release(pid, keep);

	assert_true(busy.run_virtual_ns >= 280u * 1000 * 1000);
	assert_true(busy.run_virtual_ns > idle.run_virtual_ns);
	assert_true(busy.utime_us + busy.stime_us >= 200000);
	assert_true(busy.d[TS_CPU].count >= 1);
	/* Waiting for a CPU is never longer than being alive. */
	assert_true(busy.d[TS_CPU].total_ns <= busy.etime_us * 1000);
	if (busy.have_minmax)
		assert_true(busy.d[TS_CPU].max_ns <= busy.d[TS_CPU].total_ns);
}

static void test_missing_pid_is_no_such_task(void **state)
{
	struct ts_stats s;
	struct ts_error e = { 0 };
	pid_t pid;
	int st;

	need_live();
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, &st, 0), pid);	/* reaped: gone */
	assert_int_equal(ts_query_pid(live, (uint32_t)pid, &s, &e), TS_ESRCH);
	assert_int_equal(e.code, TS_ESRCH);
	assert_non_null(strstr(e.call, "pid"));
	/* The socket is still good after an error reply. */
	assert_int_equal(ts_query_pid(live, (uint32_t)getpid(), &s, &e), TS_OK);
}

static void test_queries_in_a_row_each_get_their_own_reply(void **state)
{
	struct ts_stats s;
	struct ts_error e = { 0 };
	uint32_t me = (uint32_t)getpid(), parent = (uint32_t)getppid();
	int i;

	need_live();
	/* A stale ACK read as the next answer would end a query without
	 * its reply (TS_EPROTO) or hand back the previous task. */
	for (i = 0; i < 50; i++) {
		assert_int_equal(ts_query_pid(live, i % 2 ? parent : me, &s, &e), TS_OK);
		assert_int_equal(s.pid, i % 2 ? parent : me);
	}
	assert_int_equal(ts_query_tgid(live, me, &s, &e), TS_OK);
	assert_true(s.d[TS_CPU].count >= 1);
	assert_int_equal(ts_query_pid(live, me, &s, &e), TS_OK);
	assert_int_equal(s.pid, me);
}

static void test_listener_gets_the_exit_record_of_a_child(void **state)
{
	struct ts_sock *l = NULL;
	struct ts_error e = { 0 };
	struct ts_record r;
	char mask[64];
	pid_t pid;
	int st, rc, tries;

	need_live();
	snprintf(mask, sizeof(mask), "0-%ld", sysconf(_SC_NPROCESSORS_CONF) - 1);
	assert_int_equal(ts_open(&l, 3000, &e), TS_OK);
	assert_int_equal(ts_listen(l, mask, 1 << 20, &e), TS_OK);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(3);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	for (tries = 0; tries < 10000; tries++) {
		rc = ts_next_exit(l, 3000, &r, &e);
		if (rc == TS_ENOBUFS)
			continue;
		assert_int_equal(rc, TS_OK);
		if (r.has_pid && r.pid == (uint32_t)pid)
			break;
	}
	ts_close(l);
	assert_int_equal(r.pid, (uint32_t)pid);
	assert_int_equal(r.pid_stats.pid, (uint32_t)pid);
	assert_int_equal(r.pid_stats.exitcode, 3 << 8);	/* as wait() sees it */
	assert_true(r.pid_stats.version >= 8);
	assert_string_equal(r.pid_stats.comm, "test_taskstats");
}

/* Drop CAP_NET_ADMIN from every set of this process. */
static int drop_net_admin(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return -1;
	d[CAP_NET_ADMIN / 32].effective &= ~(1u << (CAP_NET_ADMIN % 32));
	d[CAP_NET_ADMIN / 32].permitted &= ~(1u << (CAP_NET_ADMIN % 32));
	d[CAP_NET_ADMIN / 32].inheritable &= ~(1u << (CAP_NET_ADMIN % 32));
	return (int)syscall(SYS_capset, &h, d);
}

static void test_without_cap_net_admin_queries_are_refused(void **state)
{
	pid_t pid;
	int st;

	need_live();
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct ts_sock *ts = NULL;
		struct ts_error e = { 0 };
		struct ts_stats s;

		if (drop_net_admin() < 0)
			_exit(10);
		/* Resolving the family needs no privilege; the query does. */
		if (ts_open(&ts, 3000, &e) != TS_OK)
			_exit(11);
		_exit(ts_query_pid(ts, (uint32_t)getpid(), &s, &e) == TS_EPERM ? 0 : 12);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
	const struct CMUnitTest decode[] = {
		cmocka_unit_test(test_v8_record_carries_reclaim_but_not_thrashing),
		cmocka_unit_test(test_v9_record_adds_thrashing),
		cmocka_unit_test(test_v13_record_adds_compact_tgid_and_wpcopy),
		cmocka_unit_test(test_v14_record_adds_irq),
		cmocka_unit_test(test_v15_record_is_read_at_its_moved_offsets_without_minmax),
		cmocka_unit_test(test_v16_record_has_minmax_after_irq),
		cmocka_unit_test(test_v15_and_v16_are_told_apart_by_version_not_size),
		cmocka_unit_test(test_truncated_record_keeps_only_fully_covered_pairs),
		cmocka_unit_test(test_oversized_record_from_a_newer_kernel_is_read_by_prefix),
		cmocka_unit_test(test_records_without_a_version_are_rejected),
		cmocka_unit_test(test_command_names_are_made_printable),
		cmocka_unit_test(test_exit_message_yields_pid_and_tgid_records),
		cmocka_unit_test(test_attribute_longer_than_the_message_is_malformed),
		cmocka_unit_test(test_short_pid_attribute_is_malformed),
		cmocka_unit_test(test_message_without_stats_is_empty),
		cmocka_unit_test(test_truncated_stats_inside_a_message_still_decode),
	};
	const struct CMUnitTest live_tests[] = {
		cmocka_unit_test(test_sleeping_child_counts_a_cpu_wait_per_wakeup),
		cmocka_unit_test(test_busy_child_runs_longer_than_the_sleeper),
		cmocka_unit_test(test_missing_pid_is_no_such_task),
		cmocka_unit_test(test_queries_in_a_row_each_get_their_own_reply),
		cmocka_unit_test(test_listener_gets_the_exit_record_of_a_child),
		cmocka_unit_test(test_without_cap_net_admin_queries_are_refused),
	};
	const char *why = NULL;
	struct ts_error e = { 0 };
	struct ts_stats s;
	size_t i;
	int rc;

	rc = cmocka_run_group_tests_name("taskstats_decode", decode, NULL, NULL);

	/* cmocka's skip() prints "not ok ... # SKIP", which reads as a
	 * failure: where the family cannot be reached, say so in TAP here. */
	setup_live(NULL);
	if (!live)
		why = "no TASKSTATS family reachable (built without libnl, or no CONFIG_TASKSTATS)";
	else if (ts_query_pid(live, (uint32_t)getpid(), &s, &e) == TS_EPERM)
		why = "taskstats needs CAP_NET_ADMIN";
	teardown_live(NULL);
	if (why) {
		printf("1..%zu\n", sizeof(live_tests) / sizeof(live_tests[0]));
		for (i = 0; i < sizeof(live_tests) / sizeof(live_tests[0]); i++)
			printf("ok %zu - %s # SKIP %s\n", i + 1, live_tests[i].name, why);
		return rc;
	}
	rc |= cmocka_run_group_tests_name("taskstats_live", live_tests,
					  setup_live, teardown_live);
	return rc;
}
