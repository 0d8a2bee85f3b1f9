/* SPDX-License-Identifier: MIT */
/*
 * recommend.h - the arithmetic behind `wmark recommend` (libwmark).
 *
 * Three ways to a watermark_scale_factor, all searched with the kernel's
 * own integer watermark code (wm_setup_wmarks), never with a closed-form
 * approximation:
 *  - an Android extra_free_kbytes target: the smallest wsf that gives
 *    every zone at least the low watermark the extra_free_kbytes patch
 *    would give it (wm_rec_extra_free), beside what AOSP's
 *    init/extra_free_kbytes.sh computes from the same zoneinfo text
 *    (wm_rec_script);
 *  - an allocation burst: the smallest wsf whose min->low gaps, summed
 *    over the zones the allocation can use, hold the burst (wm_rec_for_gap);
 *  - measured reclaim activity: vmstat counters sampled over time, turned
 *    into a verdict (raise, lower, keep) and a gap (wm_rec_analyze,
 *    wm_rec_decide).
 *
 * No I/O: the CLI reads the files and hands over buffers and structs.
 */
#ifndef WMARK_RECOMMEND_H
#define WMARK_RECOMMEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "procfs.h"
#include "wmark.h"

/* The largest wsf searched when telling how far past the kernel's cap a target lies. */
#define WM_REC_WSF_CEILING 10000

/* What the recommendation is computed from. */
struct wm_rec_input {
	const struct wm_profile *prof;
	const struct wm_machine *m;
	const struct wm_sysctl *now;	/* today's sysctls; min_free_kbytes >= 0 */
};

/* ---- zones an allocation can use -------------------------------------- */

/*
 * The zone index a user-space (GFP_HIGHUSER_MOVABLE) allocation may reach:
 * Movable when the kernel has that zone, else the highest zone below
 * Device.  Return -1 when m has no zones.
 */
int wm_rec_class_idx(const struct wm_machine *m);

/*
 * Fill usable[m->nzones]: true for each zone with managed pages whose
 * protection against an allocation reaching zone index class_idx (from
 * wm[i].protection, as wm_protection or zoneinfo gives it) leaves it
 * pages to serve, i.e. protection < managed, and whose index is at most
 * class_idx.  Return the number of usable zones.
 */
size_t wm_rec_usable(const struct wm_machine *m, const struct wm_zone_wm *wm,
		     int class_idx, bool *usable);

/* ---- a wsf for a gap -------------------------------------------------- */

/* A recommended wsf and how it relates to the kernel's range and floor. */
struct wm_rec_answer {
	int64_t wsf;		/* what to write: within 1..wsf_max */
	int64_t wanted;		/* what the target needs; > wsf_max when capped,
				 * -1 when no wsf up to WM_REC_WSF_CEILING reaches it */
	bool capped;		/* wanted is beyond the kernel's range */
	int64_t floor_first;	/* smallest wsf that moves any usable zone's gap */
	int64_t floor_all;		/* smallest wsf that moves every usable zone's gap */
	uint64_t gap_now;	/* pages: sum of usable zones' gaps today */
	uint64_t gap_after;/* pages: the same at wsf */
	uint64_t gap_floor;/* pages: the same at wsf 1 (min_free_kbytes alone) */
	uint64_t gap_needed;	/* pages: the target */
};

/*
 * The smallest wsf whose min->low gaps, summed over the zones flagged in
 * usable, reach need pages, with every other sysctl as in in->now.
 * Beyond the kernel's maximum the answer is capped at in->prof->wsf_max
 * (ans->capped, ans->wanted says how far it would have to go).  Return
 * WM_OK, WM_EINVAL (no wsf on this kernel, bad sysctls) or WM_ENOZONE.
 */
int wm_rec_for_gap(const struct wm_rec_input *in, const bool *usable,
		   uint64_t need, struct wm_rec_answer *ans,
		   struct wm_diag *diag);

/* ---- Android extra_free_kbytes ---------------------------------------- */

/* One zone of the extra_free_kbytes answer. */
struct wm_rec_efk_zone {
	uint64_t extra;		/* pages: the patch's share of K */
	uint64_t target_low;	/* pages: low with extra_free_kbytes K */
	uint64_t low_at;		/* pages: low at the recommended wsf */
	int64_t need_wsf;			/* smallest wsf reaching target_low, -1 never */
};

/*
 * The smallest wsf that gives every zone a low watermark at least what
 * Android's extra_free_kbytes patch gives it with extra_free_kbytes
 * extra_kb on top of today's wsf: extra = (K >> (PAGE_SHIFT-10)) * managed
 * / vm_total_pages (u64, floor) added to LOW and HIGH.  vm_total_pages is
 * in->m->vm_total_pages, or the sum of managed pages when that is 0.  The
 * candidates carry no extra_free share (extra_free_kbytes 0).  Fill
 * zones[in->m->nzones] and *ans (gap fields: sums over every zone).
 */
int wm_rec_extra_free(const struct wm_rec_input *in, int64_t extra_kb,
		      struct wm_rec_efk_zone *zones, struct wm_rec_answer *ans,
		      struct wm_diag *diag);

/* The most zones wm_rec_script follows (grep output lines). */
#define WM_REC_SCRIPT_MAX 64

/* One zone as the AOSP script sees it: the i-th "managed" and "min" words. */
struct wm_rec_script_zone {
	int64_t managed;		/* i-th word of `grep managed | awk '{print $2}'` */
	int64_t min_read;		/* i-th word of `grep "min" | awk '{print $2}'`, -1 if none */
	int64_t min_true;		/* the zone's real min line, -1 if not known */
	int64_t base_margin;	/* min_read / 4 */
	int64_t calc_margin;	/* managed * wsf / 10000 */
	char branch;		/* 'A': calc > base, 'B': otherwise, '-': skipped */
	bool div_zero;		/* branch B with managed < 10000: bc fails */
	int64_t result;		/* the zone's new wsf, -1 if none */
	int64_t result_true;	/* the same with min_true, -1 if none */
};

/* What init/extra_free_kbytes.sh would write, and why. */
struct wm_rec_script {
	int64_t base_wsf;		/* ro.kernel.watermark_scale_factor (first run: the sysctl) */
	int64_t extra_pages;	/* K / page_size_kb (shell division) */
	int64_t vm_total;		/* sum of the managed words */
	int64_t delta;		/* round-half-up(extra_pages * 10000 / vm_total) */
	int64_t result;		/* max over zones, 0 if none: what it writes */
	int64_t result_true;	/* the same had it read each zone's own min */
	size_t nzones;		/* managed words */
	size_t nmin;		/* min words (more than nzones: high_min lines, 6.13+) */
	bool misread;		/* some zone's min_read is not its min */
	struct wm_rec_script_zone z[WM_REC_SCRIPT_MAX];
};

/*
 * Run AOSP's init/extra_free_kbytes.sh (Android 12+, the path taken when
 * /proc/sys/vm/extra_free_kbytes is missing) over zoneinfo text: the
 * literal `grep managed` and `grep "min"` word lists (so on 6.13+ the
 * pageset "high_min:" lines shift min[] out of step with the zones), the
 * shell's and bc's truncating integer arithmetic, zones with managed 0
 * skipped, a bc division by zero (branch B with managed < 10000) leaving
 * that zone out, the maximum written unclamped.  true_min[0..ntrue)
 * (optional) are the zones' real min lines in file order, for
 * result_true and misread.  Return WM_OK, WM_EINVAL (no managed line,
 * vm_total 0, page size under 1 KiB) or WM_ERANGE (a managed word above
 * 2^52 pages, ZI_MAX_PAGES, in magnitude: no machine's, and the sum of
 * such words could overflow).
 */
int wm_rec_script(const char *zoneinfo, size_t len, const int64_t *true_min,
		  size_t ntrue, int64_t base_wsf, int64_t extra_kb, unsigned page_size,
		  struct wm_rec_script *out, struct wm_diag *diag);

/* ---- measured reclaim activity ---------------------------------------- */

/*
 * Counters recommend reads from /proc/vmstat (sums over zones and kinds),
 * and one it counts with a tracepoint.
 */
enum wm_rec_ctr {
	WM_REC_PGALLOC,		/* pgalloc_* */
	WM_REC_PGFREE,
	WM_REC_ALLOCSTALL,	/* allocstall_* (or allocstall) */
	WM_REC_PGSCAN_DIRECT,
	WM_REC_PGSTEAL_DIRECT,
	WM_REC_PGSCAN_KSWAPD,
	WM_REC_PGSTEAL_KSWAPD,
	WM_REC_KSWAPD_LOW_HQ,	/* kswapd_low_wmark_hit_quickly */
	WM_REC_KSWAPD_HIGH_HQ,	/* kswapd_high_wmark_hit_quickly */
	WM_REC_PAGEOUTRUN,	/* kswapd balancing passes */
	WM_REC_REFAULT,		/* workingset_refault_{anon,file} (or workingset_refault) */
	WM_REC_ACTIVATE,	/* workingset_activate_{anon,file}: refaults of working-set pages */
	WM_REC_COMPACT_STALL,
	WM_REC_FALLBACK,	/* pageblock fallbacks: the kmem:mm_page_alloc_extfrag
				 * tracepoint's count (not in vmstat; the caller
				 * fills it where it can count them) */
	WM_REC_NR_FREE,		/* nr_free_pages: a level, not a counter */
	WM_REC_NCTR
};

/* vmstat key (or key prefix) and a short description, per counter. */
struct wm_rec_ctr_desc {
	const char *key;	/* the vmstat name, or the stem of per-zone names;
				 * NULL: not read from vmstat */
	const char *suffixes;	/* "_x" endings summed with key, blank-separated;
				 * "*" any ending; NULL: the key alone */
	const char *json;	/* JSON key */
	const char *what;	/* text label */
	bool level;		/* a level (nr_free_pages), not an event counter */
};

extern const struct wm_rec_ctr_desc wm_rec_ctrs[WM_REC_NCTR];

/* One reading of the counters and of PSI memory. */
struct wm_rec_sample {
	double t;			/* seconds, any origin */
	uint64_t c[WM_REC_NCTR];
	unsigned have;			/* bit per counter found */
	bool psi;			/* psi_some/psi_full valid */
	uint64_t psi_some, psi_full;	/* microseconds stalled (totals) */
};

/*
 * Fill s->c and s->have from a parsed /proc/vmstat (t and PSI untouched).
 * Per-zone counters are summed: "allocstall_normal", "pgalloc_dma32" ...;
 * older single counters ("allocstall", "workingset_refault") count too.
 */
void wm_rec_sample_vmstat(const struct pf_kv *vmstat, struct wm_rec_sample *s);

/* One run of intervals with direct reclaim. */
struct wm_rec_burst {
	double start, seconds;		/* from the first interval's start */
	uint64_t alloc, kswapd_steal, direct_steal, direct_scan, stalls;
	uint64_t deficit;		/* pages: what direct reclaim had to find */
	uint64_t drawdown;		/* pages: largest pgalloc - pgsteal_kswapd sum */
	double peak_alloc_rate;		/* pages/s, best interval of the run */
	double kswapd_rate;		/* pages/s over the run */
};

/* What a series of samples shows. */
struct wm_rec_measure {
	double seconds;
	size_t nsamples;
	uint64_t d[WM_REC_NCTR];	/* last minus first (levels: the lowest seen) */
	unsigned have;			/* counters present in first and last */
	bool psi;
	uint64_t psi_some_us, psi_full_us;
	double peak_alloc_rate;		/* pages/s: best interval */
	double interval;		/* seconds: longest interval */
	size_t nbursts;			/* runs with direct reclaim */
	struct wm_rec_burst worst;	/* the run with the largest deficit */
	uint64_t kswapd_deficit;	/* pages: largest pgalloc - pgsteal_kswapd
					 * sum over consecutive intervals in which
					 * kswapd reclaimed and nothing stalled */
	bool time_resolved;		/* more than one interval */
};

/*
 * Whether an event counter (or the PSI totals) went backwards from sample
 * a to the later sample b, by wm_ctr_delta()'s rule: the index in
 * wm_rec_ctrs of the first counter present in both that is lower in b,
 * WM_REC_NCTR when the PSI totals are, or -1 when nothing went backwards.
 * Level counters (the lowest free pages seen) may go down and are skipped.
 */
int wm_rec_backwards(const struct wm_rec_sample *a, const struct wm_rec_sample *b);

/*
 * Reduce samples s[0..n) (n >= 2, t ascending) to totals, PSI deltas,
 * the peak allocation rate, and the bursts: runs of consecutive
 * intervals with direct reclaim (allocstall or pgscan_direct moved),
 * where a run bridges one quiet interval.  A burst's deficit is the
 * pgsteal_direct of its intervals: the pages allocations had to reclaim
 * themselves because the free pages between min and low, and kswapd,
 * did not cover them.  (Its drawdown, the largest sum of pgalloc -
 * pgsteal_kswapd over consecutive intervals, is larger: it also counts
 * allocations served by pages freed meanwhile, by munmap or exit.)  The
 * worst burst is the one with the largest deficit.  With two samples
 * only, the one interval is one burst.
 * Return WM_OK, WM_EINVAL (n < 2, time not ascending) or WM_ERANGE (an
 * event counter went backwards between two samples: wm_rec_backwards()).
 */
int wm_rec_analyze(const struct wm_rec_sample *s, size_t n,
		   struct wm_rec_measure *out, struct wm_diag *diag);

enum wm_rec_verdict {
	WM_REC_KEEP,	/* nothing calls for a change */
	WM_REC_RAISE,	/* direct reclaim: the gap was too small */
	WM_REC_LOWER,	/* kswapd reclaimed what came back as refaults */
};

const char *wm_rec_verdict_name(enum wm_rec_verdict v);

/*
 * Working-set refaults (workingset_activate: refaults whose refault
 * distance says they would have stayed resident with less reclaim) at
 * least this percentage of kswapd's steal count as over-reclaim.  Plain
 * refaults are not used: a stream larger than memory refaults every page
 * it reads again, whatever the watermarks.
 */
#define WM_REC_REFAULT_PCT 25

/* A verdict and the gap it asks for. */
struct wm_rec_decision {
	enum wm_rec_verdict verdict;
	bool direct;			/* direct reclaim was seen */
	uint64_t deficit;		/* pages the gap lacked (RAISE) */
	uint64_t need;		/* pages: summed gap to aim for (0: keep) */
	double refault_pct;		/* working-set refaults per 100 pages kswapd
					 * stole (plain refaults where the kernel
					 * has no workingset_activate), -1 n/a */
};

/*
 * Decide from a measurement and today's summed gap (pages, usable zones):
 *  - direct reclaim (allocstall or pgscan_direct) -> RAISE, need =
 *    gap_now + the worst burst's deficit (KEEP, direct still set, when
 *    that deficit is 0: reclaim scanned but the gap was not what ran out);
 *  - else kswapd stole pages and working-set refaults reached
 *    WM_REC_REFAULT_PCT percent of them -> LOWER, need = the larger of
 *    gap_now scaled down by that share and the largest deficit kswapd
 *    absorbed without a stall (KEEP when that is not below gap_now);
 *  - else KEEP.
 */
void wm_rec_decide(const struct wm_rec_measure *ms, uint64_t gap_now,
		   struct wm_rec_decision *out);

/* ---- policy: what the answer finally is ------------------------------ */

/*
 * A measured "keep" means today's value, whatever other wsf gives the
 * same gaps: set ans to now_wsf with today's gaps (not capped).
 */
void wm_rec_keep(struct wm_rec_answer *ans, int64_t now_wsf);

/*
 * Below the floor a smaller wsf changes nothing: when ans lowers wsf but
 * its gaps are today's, keep now_wsf.  Return the wsf that would have
 * done (for the reason given), or -1 when ans is left alone.
 */
int64_t wm_rec_keep_below_floor(struct wm_rec_answer *ans, int64_t now_wsf);

/*
 * The verdict to print: a measured keep or raise as decided (measured,
 * verdict), otherwise from the answer against today's wsf.
 */
enum wm_rec_verdict wm_rec_final_verdict(bool measured, enum wm_rec_verdict decided,
					 const struct wm_rec_answer *ans, int64_t now_wsf);

#endif /* WMARK_RECOMMEND_H */
