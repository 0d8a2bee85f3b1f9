/* SPDX-License-Identifier: MIT */
/*
 * reclaim.h - the kernel's proactive reclaim loop behind a write to a
 * cgroup v2 memory.reclaim file (or, 6.17+, a node's reclaim file), per
 * kernel version, and what wmark's own batching writes.
 *
 * All counts are in pages of the machine's page size; the CLI converts
 * bytes with the page size it read.  Nothing here reads or writes a file.
 */
#ifndef WMARK_RECLAIM_H
#define WMARK_RECLAIM_H

#include <stdbool.h>
#include <stdint.h>

#include "wmark.h"

#define WM_RECLAIM_MIN_CALL 32	/* SWAP_CLUSTER_MAX: the least one call aims at */
#define WM_RECLAIM_RETRIES 16	/* MAX_RECLAIM_RETRIES: zero-progress calls allowed */
#define WM_RECLAIM_MAX_RUNS 160	/* runs of equal targets a model can hold */
/* pages: the largest request modelled, so that no sum wraps (2^64 bytes
 * are 2^52 pages of 4 KiB) */
#define WM_RECLAIM_MAX_REQUEST (UINT64_MAX >> 1)

/* How memory_reclaim() sizes each internal call. */
enum wm_reclaim_rule {
	WM_RECLAIM_NONE,	/* < 5.19: no memory.reclaim file */
	WM_RECLAIM_FULL,	/* 5.19 - 6.5: the whole remainder */
	WM_RECLAIM_CAP32,	/* 6.6 - 6.8: min(remainder, 32) (0388536ac291) */
	WM_RECLAIM_QUARTER,	/* 6.9+: remainder / 4 (287d5fedb377) */
};

/* What a kernel version's memory.reclaim offers. */
struct wm_reclaim_profile {
	enum wm_reclaim_rule rule;
	bool swappiness;	/* 6.11+: the "swappiness=N" key, N in 0..200 */
	bool swappiness_max;	/* 6.16+: "swappiness=max" (anon only) */
	bool node_file;		/* 6.17+: /sys/devices/system/node/nodeN/reclaim */
	bool pgsteal_proactive;	/* 6.19+: memory.stat counts it as pgsteal_proactive,
				 * before as pgsteal_direct */
	bool restarts;		/* 6.17+: a signal gives -ERESTARTSYS, so a handler
				 * with SA_RESTART restarts the whole write */
};

/* Fill *p with what kernel k's memory.reclaim does.  Never fails. */
void wm_reclaim_profile_for(const struct wm_kver *k, struct wm_reclaim_profile *p);

/* The rule's name for output: "none", "full", "min32", "quarter". */
const char *wm_reclaim_rule_name(enum wm_reclaim_rule r);

/*
 * The batch memory_reclaim() passes to try_to_free_mem_cgroup_pages()
 * under rule r when rem pages are still to be reclaimed (rem > 0), before
 * the 32-page floor: the remainder, min(rem, 32) or rem / 4.
 */
uint64_t wm_reclaim_batch(enum wm_reclaim_rule r, uint64_t rem);

/* The target that call really aims at: max(batch, 32) (every 5.19+ tree). */
uint64_t wm_reclaim_call_target(uint64_t batch);

/*
 * One write's loop, call by call: start with wm_reclaim_loop_init(), then
 * for each call take its target from wm_reclaim_loop_next() and feed what
 * the call reclaimed to wm_reclaim_loop_done().  This is the kernel's own
 * bookkeeping (5.19 - 7.2, identical in every tree): only a call that
 * reclaims nothing uses up a retry, the budget of 16 never refills, the
 * call after the budget is gone is preceded by lru_add_drain_all(), and a
 * zero-progress call with no retries left ends the write with EAGAIN.
 */
struct wm_reclaim_loop {
	enum wm_reclaim_rule rule;
	uint64_t to_reclaim;	/* pages asked for */
	uint64_t reclaimed;	/* pages the calls returned so far */
	unsigned retries;	/* zero-progress calls still allowed */
	uint64_t calls;		/* calls made */
	uint64_t zero_calls;	/* of which reclaimed nothing */
};

enum wm_reclaim_state {
	WM_RECLAIM_MORE,	/* another call follows */
	WM_RECLAIM_DONE,	/* reclaimed >= to_reclaim: the write succeeds */
	WM_RECLAIM_EAGAIN,	/* the write fails with EAGAIN */
};

/* Start a write of to_reclaim pages under rule r (r != WM_RECLAIM_NONE). */
void wm_reclaim_loop_init(struct wm_reclaim_loop *l, enum wm_reclaim_rule r,
			  uint64_t to_reclaim);

/*
 * The state before the next call: WM_RECLAIM_DONE when nothing is left
 * (a request of 0 pages makes no call at all), else WM_RECLAIM_MORE with
 * *target the call's target (floor included) and *drain whether
 * lru_add_drain_all() runs first.
 */
enum wm_reclaim_state wm_reclaim_loop_next(const struct wm_reclaim_loop *l,
					   uint64_t *target, bool *drain);

/* Account a call that returned got pages; return the state after it. */
enum wm_reclaim_state wm_reclaim_loop_done(struct wm_reclaim_loop *l, uint64_t got);

/* Calls of the same target in a row. */
struct wm_reclaim_run {
	uint64_t target;	/* pages, floor included */
	uint64_t count;		/* calls */
};

/*
 * The idealised loop: every call reclaims exactly its target (no
 * overshoot inside a call, nothing unreclaimable).  When the cgroup can
 * meet the request, a real kernel, whose calls reclaim their targets or
 * more, makes at most `calls` calls; one short of reclaimable pages makes
 * more.  `overshoot` bounds nothing: calls that overshoot their own
 * targets change the remainders the later calls aim at, so a real write
 * may end above it or below it, down to 0; over_bound is the bound
 * (docs/model.md §12.2.1, §12.0).
 */
struct wm_reclaim_model {
	enum wm_reclaim_rule rule;
	uint64_t request;	/* pages */
	uint64_t calls;
	uint64_t overshoot;	/* pages reclaimed past the request */
	uint64_t over_bound;	/* pages: what a leaf cgroup on one node may
				 * overshoot at most (wm_reclaim_over_bound) */
	size_t nruns;
	struct wm_reclaim_run runs[WM_RECLAIM_MAX_RUNS];
};

/*
 * Fill *m with the idealised call sequence of a write of request pages
 * under rule r.  Return WM_OK, WM_EINVAL for WM_RECLAIM_NONE, or
 * WM_ERANGE past WM_RECLAIM_MAX_REQUEST (diag set).  Any such request
 * fits in the runs: the quarter rule shrinks the remainder by a quarter a
 * call, so it has at most about 150 targets.
 */
int wm_reclaim_model(enum wm_reclaim_rule r, uint64_t request, struct wm_reclaim_model *m,
		     struct wm_diag *diag);

/*
 * The most a write of request pages may reclaim past its request in a
 * leaf cgroup on one node, under rule r.  The bound of a single call is
 * the one 0388536ac291's message gives, [target, 2 * target): so one call
 * for the whole request (5.19 - 6.5) may reclaim almost twice it
 * (request - 1 pages over), while under min32 and quarter the finishing
 * call aims at 32 pages and the write ends less than 64 - remainder, at
 * most 63 pages, over.  A subtree of several cgroups multiplies the
 * first (every lruvec is given the whole target before 6.11), and so do
 * several nodes: each node's lruvec is shrunk against the target within
 * one pass (6.12 on 2 nodes: 64 pages over for 8192).
 */
uint64_t wm_reclaim_over_bound(enum wm_reclaim_rule r, uint64_t request);

/*
 * The same with folios of up to folio_pages pages on the LRU (1: order-0
 * pages only).  Isolation takes whole folios until the pages it took
 * reach the batch's target (7.2 mm/vmscan.c isolate_lru_folios(): "scan
 * += nr_pages" under "while (scan < nr_to_scan ...)"), so the batch that
 * finishes a call may pass it by a folio less one page: 230 pages over
 * for 8192 on 7.2 with file pages in large folios.
 */
uint64_t wm_reclaim_over_bound_folios(enum wm_reclaim_rule r, uint64_t request,
				      uint64_t folio_pages);

/*
 * The largest folio the LRU may hold, in pages of page_size bytes: the
 * PMD size when THP is built in (pmd_bytes, hpage_pmd_size; anon THP and
 * the page cache's MAX_PAGECACHE_ORDER, min(11, HPAGE_PMD_ORDER), the
 * larger), else the page cache's order 8 (7.2 include/linux/pagemap.h).
 * Every kernel with memory.reclaim (5.19+) keeps large folios on the LRU.
 */
uint64_t wm_reclaim_largest_folio(uint64_t pmd_bytes, unsigned page_size);

/* How wmark splits a request into writes (--batch). */
enum wm_batch_mode {
	WM_BATCH_KERNEL,	/* one write of all that is left: the kernel's loop */
	WM_BATCH_QUARTER,	/* max(left / 4, 32 pages), the 6.9+ rule from outside */
	WM_BATCH_FIXED,		/* fixed-size writes, the last one what is left */
};

/*
 * The size of wmark's next write, in pages, when left pages remain
 * (left > 0) under mode; fixed is the step for WM_BATCH_FIXED (> 0).
 * Never more than left, except that quarter writes no fewer than 32
 * pages, as the kernel's floor would make it reclaim anyway.
 */
uint64_t wm_batch_next(enum wm_batch_mode mode, uint64_t left, uint64_t fixed);

/* wmark's writes for a whole request, in the idealised kernel. */
struct wm_batch_plan {
	uint64_t writes;	/* writes wmark makes */
	uint64_t calls;		/* the kernel's internal calls over all writes */
	uint64_t overshoot;	/* pages reclaimed past the request */
	uint64_t first;		/* pages of the first write */
};

/*
 * Fill *p with the writes of a request of request pages under mode (fixed
 * the WM_BATCH_FIXED step) on a kernel of rule r, each write reclaiming
 * what wm_reclaim_model() says (its request and the idealised overshoot).
 * Return WM_OK, or what wm_reclaim_model() returns.  The work does not
 * grow with the request: fixed steps are counted in closed form, quarter
 * writes are about 150 at most.
 */
int wm_batch_plan(enum wm_reclaim_rule r, enum wm_batch_mode mode, uint64_t request,
		  uint64_t fixed, struct wm_batch_plan *p, struct wm_diag *diag);

/*
 * Check a "swappiness=" value for kernel p: val is 0..200, or -1 for
 * "max".  Return WM_OK, or WM_EINVAL with diag naming the kernel edge.
 */
int wm_reclaim_check_swappiness(const struct wm_reclaim_profile *p, const struct wm_kver *k,
				int val, struct wm_diag *diag);

#endif /* WMARK_RECLAIM_H */
