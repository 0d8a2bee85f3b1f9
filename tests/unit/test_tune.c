// SPDX-License-Identifier: MIT
/*
 * test_tune.c - the closed-loop law of `wmark tune` (calc/tune.c) on steady,
 * burst, ramp, step-change and oscillating inputs.
 *
 * The machine is one 4 GiB Normal zone of 4 KiB pages on 6.12 with
 * min_free_kbytes 8192: min 2048 pages, and a wsf w gives the gap
 * max(2048 / 4, floor(1048576 * w / 10000)) and high = min + 2 * gap
 * (__setup_per_zone_wmarks(), 6.12).  Every expected wsf below is worked
 * from that formula by the test's own gap_of(), never by the model.
 *
 * The "plant" of the closed-loop tests is a load that stalls whenever the
 * gap is below a need: each such period, allocations stall and direct
 * reclaim finds the pages the gap lacked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../calc/tune.h"
#include "../../calc/wmark.h"

#define MANAGED 1048576UL
#define MIN_PAGES 2048UL

struct rig {
	struct wm_profile prof;
	struct wm_zone zone;
	struct wm_machine m;
	struct wm_tune_env env;
	struct wm_tune_params p;
	struct wm_tune_state st;
	struct wm_tune_zone tz;
	struct wm_tune_sample s;
	uint64_t stalls, steal, scan;	/* cumulative counters */
	uint64_t kswapd;		/* pgsteal_kswapd, when kswapd_known */
	bool kswapd_known;
	double t;
};

static uint64_t gap_of(long wsf)
{
	uint64_t g = (uint64_t)MANAGED * (uint64_t)wsf / 10000;

	return g > MIN_PAGES / 4 ? g : MIN_PAGES / 4;
}

/* The smallest wsf whose gap reaches need, from gap_of() alone. */
static long wsf_reaching(uint64_t need)
{
	long w;

	for (w = 1; w <= 3000; w++)
		if (gap_of(w) >= need)
			return w;
	return -1;
}

/* The largest wsf whose gap is at most target. */
static long wsf_at_most(uint64_t target)
{
	long w, best = 1;

	for (w = 1; w <= 3000; w++)
		if (gap_of(w) <= target)
			best = w;
	return best;
}

static void rig_init(struct rig *r, long wsf, long boost)
{
	struct wm_kver k;

	memset(r, 0, sizeof(*r));
	assert_int_equal(wm_kver_parse("6.12.57", &k, NULL), WM_OK);
	wm_profile_for(&k, &r->prof);
	r->zone.type = WM_ZONE_NORMAL;
	r->zone.managed = r->zone.present = MANAGED;
	r->m.zones = &r->zone;
	r->m.nzones = 1;
	r->m.page_size = 4096;
	r->m.pageblock_pages = 512;
	wm_sysctl_none(&r->env.sysctl);
	r->env.sysctl.min_free_kbytes = 8192;
	r->env.sysctl.wsf = wsf;
	r->env.sysctl.boost_factor = boost;
	r->env.sysctl.have = WM_HAVE_MFK | WM_HAVE_WSF | WM_HAVE_BOOST;
	r->env.prof = &r->prof;
	r->env.m = &r->m;
	wm_tune_defaults(&r->p);
	r->tz.free = 500000;
	r->tz.file = 300000;
	r->s.zones = &r->tz;
	r->s.have_file = true;
	assert_int_equal(wm_tune_start(&r->env, &r->st, NULL), WM_OK);
}

/* One period of dt seconds with these counter increments; the decision is applied. */
static struct wm_tune_decision period(struct rig *r, uint64_t stalls, uint64_t steal)
{
	struct wm_tune_decision d;

	r->t += 10;
	r->stalls += stalls;
	r->steal += steal;
	r->scan += steal + steal / 2;
	memset(&r->s.vm, 0, sizeof(r->s.vm));
	r->s.vm.t = r->t;
	r->s.vm.c[WM_REC_ALLOCSTALL] = r->stalls;
	r->s.vm.c[WM_REC_PGSTEAL_DIRECT] = r->steal;
	r->s.vm.c[WM_REC_PGSCAN_DIRECT] = r->scan;
	r->s.vm.have = 1u << WM_REC_ALLOCSTALL | 1u << WM_REC_PGSTEAL_DIRECT |
		       1u << WM_REC_PGSCAN_DIRECT;
	if (r->kswapd_known) {
		r->s.vm.c[WM_REC_PGSTEAL_KSWAPD] = r->kswapd;
		r->s.vm.have |= 1u << WM_REC_PGSTEAL_KSWAPD;
	}
	assert_int_equal(wm_tune_step(&r->p, &r->env, &r->st, &r->s, &d, NULL), WM_OK);
	return d;
}

/* A load that needs a gap of need pages: short of it, direct reclaim finds the rest. */
static struct wm_tune_decision plant(struct rig *r, uint64_t need)
{
	uint64_t gap = gap_of(r->st.wsf);

	return gap < need ? period(r, 40, need - gap) : period(r, 0, 0);
}

/* ---- single decisions ------------------------------------------------ */

static void test_first_sample_only_starts_the_run(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_init(&r, 100, 0);
	d = period(&r, 0, 0);
	assert_int_equal(d.action, WM_TUNE_HOLD);
	assert_int_equal(d.why, WM_TUNE_FIRST);
	assert_int_equal(d.gap_old, gap_of(100));
	/* high = min + 2 * gap on 6.12; the reserve is high with boost 0 */
	assert_int_equal(d.high_old, MIN_PAGES + 2 * gap_of(100));
	assert_int_equal(d.reserve_old, d.high_old);
}

static void test_a_stall_raises_the_gap_by_the_pages_direct_reclaim_found(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_init(&r, 100, 0);
	period(&r, 0, 0);
	/* gap 10485; 5 stalls in 10 s: rate term 10485 * 5 / 100 = 524 < 3000 */
	d = period(&r, 5, 3000);
	assert_int_equal(d.action, WM_TUNE_RAISE);
	assert_int_equal(d.why, WM_TUNE_STALLED);
	assert_int_equal(d.gap_target, gap_of(100) + 3000);
	assert_int_equal(d.wsf_new, wsf_reaching(gap_of(100) + 3000));
	assert_int_equal(d.gap_new, gap_of(d.wsf_new));
	assert_true(d.gap_new >= d.gap_target);
	assert_int_equal(r.st.wsf, d.wsf_new);
}

static void test_a_stall_storm_doubles_the_gap_at_most(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_init(&r, 10, 0);
	period(&r, 0, 0);
	/* 10000 stalls/10 s is 100 times stall_ref: capped at +100% */
	d = period(&r, 10000, 50);
	assert_int_equal(d.action, WM_TUNE_RAISE);
	assert_int_equal(d.gap_target, 2 * gap_of(10));
	assert_int_equal(d.wsf_new, wsf_reaching(2 * gap_of(10)));
}

static void test_the_measured_deficit_is_raised_in_one_step_past_doubling(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_init(&r, 10, 0);
	period(&r, 0, 0);
	/*
	 * gap 1048; a short burst: 30 stalls in 10 s (rate term 1048 * 30 /
	 * 100 = 314) while direct reclaim found 20000 pages.  A climb capped
	 * at doubling would need 5 periods; the burst is over by then.
	 */
	d = period(&r, 30, 20000);
	assert_int_equal(d.action, WM_TUNE_RAISE);
	assert_int_equal(d.gap_target, gap_of(10) + 20000);
	assert_int_equal(d.wsf_new, wsf_reaching(gap_of(10) + 20000));
	assert_int_equal(d.wsf_new, 201);	/* floor(1048576 * 201 / 10000) = 21076 */
}

static void test_a_small_stall_still_moves_one_probe_step(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_init(&r, 200, 0);
	period(&r, 0, 0);
	/* 1 stall, 3 pages found: at least 5% of the gap */
	d = period(&r, 1, 3);
	assert_int_equal(d.action, WM_TUNE_RAISE);
	assert_int_equal(d.gap_target, gap_of(200) + gap_of(200) * 5 / 100);
}

static void test_quiet_periods_probe_down_five_percent_rounding_down(void **state)
{
	struct rig r;
	struct wm_tune_decision d;
	int i;

	(void)state;
	rig_init(&r, 100, 0);
	period(&r, 0, 0);
	for (i = 1; i < 6; i++) {
		d = period(&r, 0, 0);
		assert_int_equal(d.action, WM_TUNE_HOLD);
		assert_int_equal(d.why, WM_TUNE_WAIT);
	}
	d = period(&r, 0, 0);
	assert_int_equal(d.action, WM_TUNE_PROBE);
	assert_int_equal(d.why, WM_TUNE_PROBED);
	/* 10485 - 524 = 9961: the largest wsf whose gap is at most that */
	assert_int_equal(d.gap_target, gap_of(100) - gap_of(100) * 5 / 100);
	assert_int_equal(d.wsf_new, wsf_at_most(d.gap_target));
	assert_int_equal(d.wsf_new, 95);	/* floor(104857.6 * 95 / 1000) = 9961 */
	/* the quiet count starts again after a probe */
	d = period(&r, 0, 0);
	assert_int_equal(d.why, WM_TUNE_WAIT);
}

static void test_a_raise_holds_probes_off_then_never_below_the_gap_that_stalled(void **state)
{
	struct rig r;
	struct wm_tune_decision d;
	uint64_t stalled = gap_of(100);
	int i, probes = 0;

	(void)state;
	rig_init(&r, 100, 0);
	period(&r, 0, 0);
	d = period(&r, 5, 5000);
	assert_int_equal(d.action, WM_TUNE_RAISE);
	for (i = 0; i < 11; i++) {
		d = period(&r, 0, 0);
		assert_int_equal(d.action, WM_TUNE_HOLD);
	}
	/* 12 periods after the raise and 6+ quiet: probes may start */
	for (i = 0; i < 40; i++) {
		d = period(&r, 0, 0);
		if (d.action == WM_TUNE_PROBE) {
			probes++;
			assert_true(d.gap_new >= stalled + stalled * 5 / 100);
		}
	}
	assert_true(probes >= 1);
	assert_int_equal(d.why, WM_TUNE_STALL_MEMORY);
	assert_true(gap_of(r.st.wsf) >= stalled + stalled * 5 / 100);
}

static void test_probes_stop_at_the_floor_edge_and_never_write_inside_it(void **state)
{
	struct rig r;
	struct wm_tune_decision d;
	int i, writes = 0;

	(void)state;
	rig_init(&r, 8, 0);
	period(&r, 0, 0);
	for (i = 0; i < 200; i++) {
		d = period(&r, 0, 0);
		if (d.action != WM_TUNE_HOLD)
			writes++;
	}
	/* floor(1048576 * 4 / 10000) = 419 < 512 <= 524 = floor(... * 5 ...):
	 * wsf 1..4 all give the floor's 512; the law stops at 4 */
	assert_int_equal(r.st.wsf, 4);
	assert_int_equal(d.why, WM_TUNE_FLOOR);
	assert_int_equal(gap_of(4), 512);
	assert_int_equal(gap_of(5), 524);
	/* 8 -> ... -> 4, one write a step, none after */
	assert_true(writes >= 1 && writes <= 4);
}

static void test_a_wsf_in_the_dead_range_is_not_rewritten(void **state)
{
	struct rig r;
	struct wm_tune_decision d;
	int i;

	(void)state;
	rig_init(&r, 3, 0);
	period(&r, 0, 0);
	for (i = 0; i < 30; i++) {
		d = period(&r, 0, 0);
		assert_int_equal(d.action, WM_TUNE_HOLD);
	}
	assert_int_equal(r.st.wsf, 3);
	assert_int_equal(d.why, WM_TUNE_FLOOR);
}

static void test_a_raise_from_the_dead_range_goes_past_the_floor(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_init(&r, 2, 0);
	period(&r, 0, 0);
	d = period(&r, 1, 1);
	assert_int_equal(d.action, WM_TUNE_RAISE);
	assert_true(d.gap_new > 512);
	assert_int_equal(d.wsf_new, wsf_reaching(512 + 25));
}

static void test_the_deadband_keeps_a_probe_too_small_to_matter(void **state)
{
	struct rig r;
	struct wm_tune_decision d;
	int i;

	(void)state;
	rig_init(&r, 100, 0);
	r.p.probe_pct = 1;	/* 104 pages: one wsf step of 104.86 pages is below it */
	r.p.deadband_pct = 2;
	period(&r, 0, 0);
	for (i = 0; i < 6; i++)
		d = period(&r, 0, 0);
	assert_int_equal(d.action, WM_TUNE_HOLD);
	assert_int_equal(d.why, WM_TUNE_DEADBAND);
}

static void test_at_the_kernels_maximum_a_stall_writes_nothing(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_init(&r, 3000, 0);
	period(&r, 0, 0);
	d = period(&r, 50, 9000);
	assert_int_equal(d.action, WM_TUNE_HOLD);
	assert_int_equal(d.why, WM_TUNE_AT_TOP);
	assert_int_equal(r.prof.wsf_max, 3000);
}

static void test_no_write_passes_the_reserve_bound(void **state)
{
	struct rig r;
	struct wm_tune_decision d;
	/* 64 MiB of reserve: high = 2048 + 2 * gap <= 16384 -> gap <= 7168 */
	uint64_t bound = 16384;
	int i;

	(void)state;
	rig_init(&r, 10, 0);
	r.p.max_reserve = bound;
	period(&r, 0, 0);
	for (i = 0; i < 20; i++) {
		d = period(&r, 500, 100000);
		assert_true(d.reserve_new <= bound);
		assert_true(MIN_PAGES + 2 * gap_of(r.st.wsf) <= bound);
	}
	assert_int_equal(d.action, WM_TUNE_HOLD);
	assert_int_equal(d.why, WM_TUNE_AT_BOUND);
	/* it got to the bound: the largest wsf with 2048 + 2 * gap <= 16384 */
	assert_int_equal(r.st.wsf, wsf_at_most(7168));
}

static void test_a_reserve_above_the_bound_comes_down_to_it(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_init(&r, 500, 0);
	r.p.max_reserve = 16384;
	period(&r, 0, 0);
	d = period(&r, 0, 0);
	assert_int_equal(d.action, WM_TUNE_PROBE);
	assert_int_equal(d.why, WM_TUNE_OVER_BOUND);
	assert_int_equal(d.wsf_new, wsf_at_most(7168));
	assert_true(d.reserve_new <= 16384);
}

static void test_boost_ceiling_is_the_peak_not_the_reserve(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_init(&r, 10, 15000);
	period(&r, 0, 0);
	d = period(&r, 0, 0);
	/* boost ceiling: mult_frac(high, 15000, 10000) = high * 3 / 2 */
	assert_int_equal(d.reserve_old, d.high_old);
	assert_int_equal(d.peak_old, d.high_old + d.high_old * 15000 / 10000);
}

/*
 * wsf 100 with free + file exactly the high watermarks of today (2048 +
 * 2 * 10485 = 23018 pages), anon ANON pages and SWAP_FREE pages of free
 * swap space: any raise has to be paid for by something beyond free + file.
 */
static void rig_at_the_cache_edge(struct rig *r, long anon, long swap_free)
{
	rig_init(r, 100, 0);
	r->tz.free = 20000;
	r->tz.file = 3018;
	r->tz.anon = anon;
	r->s.swap_free = swap_free;
	period(r, 0, 0);
}

static void test_no_raise_the_file_cache_cannot_pay_for(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_at_the_cache_edge(&r, 0, 0);
	d = period(&r, 10, 4000);
	assert_int_equal(d.action, WM_TUNE_HOLD);
	assert_int_equal(d.why, WM_TUNE_NO_CACHE);
	/* with room for some of it, the raise stops where the cache ends */
	r.tz.file = 3018 + 2000;
	d = period(&r, 10, 4000);
	assert_int_equal(d.action, WM_TUNE_RAISE);
	assert_true(MIN_PAGES + 2 * d.gap_new <= 20000 + 5018);
	assert_int_equal(d.wsf_new, wsf_at_most((20000 + 5018 - MIN_PAGES) / 2));
}

/*
 * zone_reclaimable_pages() (mm/vmscan.c, 6.12) counts anon while any swap
 * space is free: kswapd can swap it out to reach high.  tune counts it up
 * to the free swap space, and not at all without swap.
 */
static void test_swappable_anon_pays_for_a_raise_up_to_the_free_swap(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_at_the_cache_edge(&r, 200000, 0);
	/* no swap: anon cannot leave, so it pays for nothing */
	d = period(&r, 10, 4000);
	assert_int_equal(d.action, WM_TUNE_HOLD);
	assert_int_equal(d.why, WM_TUNE_NO_CACHE);
	/* 3000 pages of free swap: the raise stops where that space ends */
	r.s.swap_free = 3000;
	d = period(&r, 10, 4000);
	assert_int_equal(d.action, WM_TUNE_RAISE);
	assert_true(MIN_PAGES + 2 * d.gap_new <= 20000 + 3018 + 3000);
	assert_int_equal(d.wsf_new, wsf_at_most((20000 + 3018 + 3000 - MIN_PAGES) / 2));
	/* swap space larger than anon: the anon pages are the limit */
	rig_at_the_cache_edge(&r, 1000, 262144);
	d = period(&r, 10, 4000);
	assert_int_equal(d.action, WM_TUNE_RAISE);
	assert_int_equal(d.wsf_new, wsf_at_most((20000 + 3018 + 1000 - MIN_PAGES) / 2));
	/* and with enough of both, the measured shortfall is raised whole */
	rig_at_the_cache_edge(&r, 200000, 262144);
	d = period(&r, 10, 4000);
	assert_int_equal(d.action, WM_TUNE_RAISE);
	assert_int_equal(d.wsf_new, wsf_reaching(gap_of(100) + 4000));
}

static void test_a_stall_while_boosted_turns_boost_off_first(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_init(&r, 10, 15000);
	period(&r, 0, 0);
	r.tz.boosted = true;
	d = period(&r, 3, 600);
	assert_int_equal(d.action, WM_TUNE_BOOST_OFF);
	assert_int_equal(d.boost_old, 15000);
	assert_int_equal(d.boost_new, 0);
	assert_int_equal(d.wsf_new, 10);
	assert_int_equal(d.reserve_new, d.high_old);
	assert_int_equal(d.peak_new, d.high_old);
	assert_true(d.peak_old > d.peak_new);
	/* boost is off: the next stall raises wsf */
	d = period(&r, 3, 600);
	assert_int_equal(d.action, WM_TUNE_RAISE);
	assert_int_equal(d.boost_new, 0);
}

static void test_counters_that_go_backwards_skip_the_period(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_init(&r, 100, 0);
	period(&r, 5, 500);
	r.stalls = 0;
	r.steal = 0;
	r.scan = 0;
	d = period(&r, 0, 0);
	assert_int_equal(d.action, WM_TUNE_HOLD);
	assert_int_equal(d.why, WM_TUNE_RESET);
	assert_int_equal(r.st.wsf, 100);
}

static void test_samples_out_of_time_order_are_an_error(void **state)
{
	struct rig r;
	struct wm_tune_decision d;

	(void)state;
	rig_init(&r, 100, 0);
	period(&r, 0, 0);
	r.t -= 20;
	r.s.vm.t = r.t;
	assert_int_equal(wm_tune_step(&r.p, &r.env, &r.st, &r.s, &d, NULL), WM_EINVAL);
}

/* ---- closed loop ------------------------------------------------------ */

static void test_a_steady_load_converges_one_step_above_its_need_and_stays(void **state)
{
	struct rig r;
	struct wm_tune_decision d;
	uint64_t need = 6000, lo = UINT64_MAX, hi = 0;
	int i, n = 900, late_stalls = 0;

	(void)state;
	rig_init(&r, 10, 0);
	period(&r, 0, 0);
	for (i = 0; i < n; i++) {
		d = plant(&r, need);
		if (i >= 2 * n / 3) {
			uint64_t g = gap_of(r.st.wsf);

			late_stalls += d.stalls > 0;
			lo = g < lo ? g : lo;
			hi = g > hi ? g : hi;
		}
	}
	/* the last third: the setting within +-10%, at most one probe into a stall */
	assert_true(hi * 100 <= lo * 110);
	assert_true(late_stalls <= 1);
	assert_true(gap_of(r.st.wsf) >= need || late_stalls);
	assert_true(lo <= need + need / 5);
	/* the memory's lifetime grew: probes into the stall became rarer */
	assert_true(r.st.forget_after > r.p.forget_periods);
}

static void test_a_burst_raises_then_the_quiet_that_follows_probes_back(void **state)
{
	struct rig r;
	struct wm_tune_decision d;
	long peak;
	int i;

	(void)state;
	rig_init(&r, 10, 0);
	r.p.forget_periods = 30;
	period(&r, 0, 0);
	for (i = 0; i < 5; i++)
		plant(&r, 20000);
	peak = r.st.wsf;
	assert_true(gap_of(peak) >= 20000 || r.st.writes == 5);
	for (i = 0; i < 400; i++)
		d = plant(&r, 0);
	/* the burst's memory expired: back to the floor edge */
	assert_true(r.st.wsf < peak);
	assert_int_equal(r.st.wsf, 4);
	assert_int_equal(d.why, WM_TUNE_FLOOR);
}

static void test_a_ramp_is_followed_with_few_stalls(void **state)
{
	struct rig r;
	struct wm_tune_decision d;
	int i, stalls = 0;

	(void)state;
	rig_init(&r, 10, 0);
	period(&r, 0, 0);
	for (i = 0; i < 200; i++) {
		uint64_t need = 2000 + 150 * (uint64_t)i;

		d = plant(&r, need);
		assert_true(d.reserve_new == MIN_PAGES + 2 * d.gap_new);
		if (i >= 100) {
			stalls += d.stalls > 0;
			/* never far above what the ramp needs */
			assert_true(d.gap_new <= 2 * need);
		}
	}
	/* a need growing 2.5% a period: a stall in at most one period of 5 */
	assert_true(stalls <= 20);
}

static void test_a_step_down_in_load_is_followed_after_the_memory_expires(void **state)
{
	struct rig r;
	int i;
	long high_wsf;

	(void)state;
	rig_init(&r, 10, 0);
	period(&r, 0, 0);
	for (i = 0; i < 100; i++)
		plant(&r, 8000);
	high_wsf = r.st.wsf;
	assert_true(gap_of(high_wsf) >= 8000);
	for (i = 0; i < 300; i++)
		plant(&r, 3000);
	assert_true(r.st.wsf < high_wsf);
	assert_true(gap_of(r.st.wsf) >= 3000);
	assert_true(gap_of(r.st.wsf) <= 3000 + 3000 / 10);
}

/*
 * A periodic load: every 36 periods a burst of 3 periods that needs a gap
 * of need pages, kswapd reclaiming through it, then idle to the next one
 * (kswapd reclaims nothing).  The idle periods must not walk the gap down
 * between bursts: only the first burst stalls, and the setting holds.
 */
static void test_idle_periods_between_bursts_do_not_probe(void **state)
{
	struct rig r;
	struct wm_tune_decision d;
	uint64_t need = 15000;
	int cycle, i, first = 0, later = 0, idle = 0;
	long after_first = 0;

	(void)state;
	rig_init(&r, 10, 0);
	r.kswapd_known = true;
	period(&r, 0, 0);
	for (cycle = 0; cycle < 20; cycle++) {
		for (i = 0; i < 36; i++) {
			bool load = i < 3;

			if (load)
				r.kswapd += 50000;
			d = load ? plant(&r, need) : period(&r, 0, 0);
			if (d.stalls)
				*(cycle ? &later : &first) += 1;
			if (!load) {
				assert_int_equal(d.action, WM_TUNE_HOLD);
				assert_int_equal(d.why, WM_TUNE_IDLE);
				idle++;
			}
		}
		if (!cycle)
			after_first = r.st.wsf;
	}
	assert_int_equal(idle, 20 * 33);
	/* the first burst stalled once: the whole deficit in one raise */
	assert_int_equal(first, 1);
	assert_int_equal(after_first, wsf_reaching(need));
	/*
	 * 60 bursts of loaded periods: probes come after 12 loaded periods
	 * (hold_after_raise), each into at most one stall, then the memory
	 * of that gap holds them off.
	 */
	assert_true(later <= 3);
	assert_true(gap_of(r.st.wsf) >= need || later);
	assert_true(gap_of(r.st.wsf) <= need + need / 5);
}

/* Idle periods without pgsteal_kswapd in the samples: every period counts. */
static void test_without_kswapd_counters_every_quiet_period_counts(void **state)
{
	struct rig r;
	struct wm_tune_decision d;
	int i;

	(void)state;
	rig_init(&r, 100, 0);
	r.kswapd_known = true;
	period(&r, 0, 0);
	for (i = 0; i < 10; i++) {
		d = period(&r, 0, 0);
		assert_int_equal(d.why, WM_TUNE_IDLE);
	}
	/* kswapd at work, no stall: these count */
	for (i = 1; i < 6; i++) {
		r.kswapd += 100;
		d = period(&r, 0, 0);
		assert_int_equal(d.why, WM_TUNE_WAIT);
	}
	r.kswapd += 100;
	d = period(&r, 0, 0);
	assert_int_equal(d.action, WM_TUNE_PROBE);
	/* the counter gone from the samples: back to counting every period */
	r.kswapd_known = false;
	for (i = 1; i < 6; i++)
		assert_int_equal(period(&r, 0, 0).why, WM_TUNE_WAIT);
	assert_int_equal(period(&r, 0, 0).action, WM_TUNE_PROBE);
}

static void test_alternating_stall_and_quiet_never_probes(void **state)
{
	struct rig r;
	struct wm_tune_decision d;
	int i, probes = 0;

	(void)state;
	rig_init(&r, 50, 0);
	period(&r, 0, 0);
	for (i = 0; i < 100; i++) {
		d = period(&r, i % 2 ? 0 : 2, i % 2 ? 0 : 10);
		if (d.action == WM_TUNE_PROBE)
			probes++;
	}
	assert_int_equal(probes, 0);
}

static void test_random_inputs_never_write_past_the_bound_or_the_range(void **state)
{
	struct rig r;
	struct wm_tune_decision d;
	unsigned seed = 12345;
	int run, i;

	(void)state;
	for (run = 0; run < 20; run++) {
		rig_init(&r, 1 + run * 150, run % 2 ? 15000 : 0);
		r.p.max_reserve = 8192 + (uint64_t)run * 4096;
		period(&r, 0, 0);
		for (i = 0; i < 200; i++) {
			seed = seed * 1103515245u + 12345u;
			r.tz.boosted = (seed >> 8) % 7 == 0;
			d = period(&r, (seed >> 16) % 3 ? 0 : (seed >> 4) % 50, (seed >> 12) % 20000);
			assert_true(r.st.wsf >= 1 && r.st.wsf <= 3000);
			if (d.action != WM_TUNE_HOLD)
				assert_true(d.reserve_new <= r.p.max_reserve);
		}
	}
}

static void test_default_reserve_bound_is_safe_on_a_phone_and_a_server(void **state)
{
	(void)state;
	/* 2 GiB: 20% = 104857 pages (409.6 MiB), about what wsf 1000's high costs */
	assert_int_equal(wm_tune_default_max_reserve(524288, 4096), 104857);
	/* 1 TiB: 20% would be 205 GiB; 4 GiB = 1048576 pages */
	assert_int_equal(wm_tune_default_max_reserve(268435456, 4096), 1048576);
	/* 256 MiB: 64 MiB is more than 20% */
	assert_int_equal(wm_tune_default_max_reserve(65536, 4096), 16384);
	/* 64 MiB: never more than half */
	assert_int_equal(wm_tune_default_max_reserve(16384, 4096), 8192);
	/* 64 KiB pages: 4 GiB = 65536 pages */
	assert_int_equal(wm_tune_default_max_reserve(16777216, 65536), 65536);
	/* page size unknown: 20% alone, not a 64 MiB floor counted in 4 KiB pages */
	assert_int_equal(wm_tune_default_max_reserve(65536, 0), 13107);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_sample_only_starts_the_run),
		cmocka_unit_test(test_a_stall_raises_the_gap_by_the_pages_direct_reclaim_found),
		cmocka_unit_test(test_a_stall_storm_doubles_the_gap_at_most),
		cmocka_unit_test(test_the_measured_deficit_is_raised_in_one_step_past_doubling),
		cmocka_unit_test(test_a_small_stall_still_moves_one_probe_step),
		cmocka_unit_test(test_quiet_periods_probe_down_five_percent_rounding_down),
		cmocka_unit_test(test_a_raise_holds_probes_off_then_never_below_the_gap_that_stalled),
		cmocka_unit_test(test_probes_stop_at_the_floor_edge_and_never_write_inside_it),
		cmocka_unit_test(test_a_wsf_in_the_dead_range_is_not_rewritten),
		cmocka_unit_test(test_a_raise_from_the_dead_range_goes_past_the_floor),
		cmocka_unit_test(test_the_deadband_keeps_a_probe_too_small_to_matter),
		cmocka_unit_test(test_at_the_kernels_maximum_a_stall_writes_nothing),
		cmocka_unit_test(test_no_write_passes_the_reserve_bound),
		cmocka_unit_test(test_a_reserve_above_the_bound_comes_down_to_it),
		cmocka_unit_test(test_boost_ceiling_is_the_peak_not_the_reserve),
		cmocka_unit_test(test_no_raise_the_file_cache_cannot_pay_for),
		cmocka_unit_test(test_swappable_anon_pays_for_a_raise_up_to_the_free_swap),
		cmocka_unit_test(test_a_stall_while_boosted_turns_boost_off_first),
		cmocka_unit_test(test_counters_that_go_backwards_skip_the_period),
		cmocka_unit_test(test_samples_out_of_time_order_are_an_error),
		cmocka_unit_test(test_a_steady_load_converges_one_step_above_its_need_and_stays),
		cmocka_unit_test(test_a_burst_raises_then_the_quiet_that_follows_probes_back),
		cmocka_unit_test(test_a_ramp_is_followed_with_few_stalls),
		cmocka_unit_test(test_a_step_down_in_load_is_followed_after_the_memory_expires),
		cmocka_unit_test(test_idle_periods_between_bursts_do_not_probe),
		cmocka_unit_test(test_without_kswapd_counters_every_quiet_period_counts),
		cmocka_unit_test(test_alternating_stall_and_quiet_never_probes),
		cmocka_unit_test(test_random_inputs_never_write_past_the_bound_or_the_range),
		cmocka_unit_test(test_default_reserve_bound_is_safe_on_a_phone_and_a_server),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
