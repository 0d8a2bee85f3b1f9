/* SPDX-License-Identifier: MIT */
/*
 * scancount.h - the kernel's reclaim scan targets: what get_scan_count()
 * in mm/vmscan.c asks shrink_lruvec() to scan of each LRU list at one
 * reclaim priority, under the rule of each kernel era, and the node's
 * "anon only" line (file + free <= the sum of its zones' high watermarks).
 *
 * Pure: sizes, settings and the history the kernel keeps (and does not
 * export) come in as a struct; the four counts, the balance and the
 * reason come out.
 */
#ifndef WMARK_SCANCOUNT_H
#define WMARK_SCANCOUNT_H

#include <stdbool.h>

#include "wmark.h"
#include "zoneinfo.h"

/* The kernel's evictable LRU lists, in its order (enum lru_list). */
enum wm_lru {
	WM_LRU_INACTIVE_ANON,
	WM_LRU_ACTIVE_ANON,
	WM_LRU_INACTIVE_FILE,
	WM_LRU_ACTIVE_FILE,
	WM_NR_LRU,
};

/* The kernel's enum scan_balance. */
enum wm_scan_balance {
	WM_SCAN_EQUAL,
	WM_SCAN_FRACT,
	WM_SCAN_ANON,
	WM_SCAN_FILE,
};

/* The eras of get_scan_count(), oldest first. */
enum wm_scan_rule {
	WM_RULE_314,		/* <= 3.14: an LRU too small is forced to 32 on its own */
	WM_RULE_315,		/* 3.15-4.11: force only when nothing else scans */
	WM_RULE_412,		/* 4.12: no force scan */
	WM_RULE_413,		/* 4.13-5.7: the file-tiny rule asks for inactive anon */
	WM_RULE_58,		/* 5.8-5.9: cost-based balance (5.8.18's protection) */
	WM_RULE_CURRENT,	/* 5.10 on, as read in 6.1, 6.12 and 7.2.13: protection
				 * over usage + 1; swappiness=max (6.16+) */
	WM_NR_RULES,
};

/* Why the balance is what it is. */
enum wm_scan_reason {
	WM_WHY_NO_SWAP,		/* no swap (or may_swap off): file only */
	WM_WHY_MEMCG_SWAPPINESS0,	/* cgroup reclaim, swappiness 0: file only */
	WM_WHY_ANON_ONLY_ARG,	/* memory.reclaim swappiness=max (6.16+) */
	WM_WHY_PRIORITY0,	/* priority 0 with swappiness: every list by size */
	WM_WHY_FILE_TINY,	/* global: file + free <= sum of high: anon only */
	WM_WHY_INACTIVE_FILE_OK,/* enough inactive file: file only */
	WM_WHY_FRACTION,	/* anon and file by fraction */
	WM_WHY_BELOW_MIN,	/* 5.8+: usage <= memory.min: the cgroup is skipped */
	WM_WHY_BELOW_LOW,	/* 5.8+: usage <= memory.low, first pass: skipped */
};

struct wm_scan_in {
	uint64_t lru[WM_NR_LRU];	/* pages, of the lruvec reclaimed */
	unsigned page_size;		/* bytes: the inactive ratio counts GiB */
	int swappiness;			/* 0..200; 201 = memory.reclaim swappiness=max */
	bool memcg;			/* cgroup reclaim (memory.max, memory.reclaim) */
	bool swap;			/* swap pages are free (and may_swap) */
	bool offline;			/* the cgroup was deleted: its remains are scraped */
	/* global reclaim: the node's pages, for the file-tiny test */
	uint64_t node_file;	/* pages: node active + inactive file */
	uint64_t node_inactive_anon;	/* pages */
	uint64_t free;		/* pages: sum of the node's zones' free */
	uint64_t high_sum;		/* pages: sum of high_wmark_pages() (boost included) */
	/* history before 5.8 (zone/lruvec reclaim_stat): anon = 0, file = 1 */
	uint64_t recent_scanned[2], recent_rotated[2];
	/* history from 5.8 (lruvec anon_cost / file_cost) */
	uint64_t anon_cost, file_cost;
	/* workingset refaults since the last reclaim (5.8+: deactivate) */
	bool refault_anon, refault_file;
	/*
	 * memory.min/low (effective) of a cgroup below the reclaim target, and
	 * its usage, pages; 0, 0 where none applies (the target's own protection
	 * is ignored: mem_cgroup_protection()).  Modelled from 5.8: a cgroup at
	 * or below min is skipped, at or below low too unless memcg_low_reclaim
	 * (the retry pass), else its lists are scaled down (5.8+ rules only).
	 */
	uint64_t prot_min, prot_low, usage;
	bool memcg_low_reclaim;
	/*
	 * The reclaim target's lists when they are not lru[] (reclaim from an
	 * ancestor): they decide the balance and which active lists are shrunk
	 * (prepare_scan_control() reads the target lruvec); lru[] is still what
	 * each list's count is taken of.
	 */
	bool have_target;
	uint64_t target_lru[WM_NR_LRU];	/* pages */
};

struct wm_scan_out {
	uint64_t nr[WM_NR_LRU];	/* pages to scan of each list */
	enum wm_scan_balance balance;
	enum wm_scan_reason why;
	uint64_t fraction[2];	/* SCAN_FRACT: anon, file */
	uint64_t denominator;
	bool forced;			/* 3.14/3.15: some list was forced to min(size, 32) */
	bool tiny_guarded;		/* file + free <= high, but the 4.13+ guard kept
					 * reclaim off anon-only */
	/*
	 * Whether shrink_list() shrinks the active list at all (anon, file):
	 * only while its inactive list is low (5.8+: or refaults were seen).
	 * Otherwise the kernel skips it, whatever nr[] says.
	 */
	bool deactivate[2];
};

/*
 * Fill *out with what get_scan_count() of era rule asks at priority
 * (12 = DEF_PRIORITY .. 0) for the lruvec described by in.  Return WM_OK,
 * or WM_EINVAL (diag says which) for a rule, priority or swappiness out
 * of range: swappiness 201 exists only in WM_RULE_CURRENT.
 */
int wm_scan_count(enum wm_scan_rule rule, const struct wm_scan_in *in, int priority,
		  struct wm_scan_out *out, struct wm_diag *diag);

/* The rule's name as the CLI spells it ("3.14", ..., "current"), or NULL. */
const char *wm_scan_rule_name(enum wm_scan_rule rule);

/* Parse "3.14", "3.15", "4.12", "4.13", "5.8" or "current"; WM_OK or WM_EINVAL. */
int wm_scan_rule_parse(const char *s, enum wm_scan_rule *rule);

/*
 * The era rule a kernel release (major, minor) runs: 3.14 and older get
 * WM_RULE_314, 3.15-4.11 WM_RULE_315, 4.12 WM_RULE_412, 4.13-5.7
 * WM_RULE_413, 5.8-5.9 WM_RULE_58, 5.10 and newer WM_RULE_CURRENT.
 */
enum wm_scan_rule wm_scan_rule_for(int major, int minor);

/* "SCAN_EQUAL", "SCAN_FRACT", "SCAN_ANON", "SCAN_FILE". */
const char *wm_scan_balance_name(enum wm_scan_balance b);

/*
 * Pages that the node's file + free is above the sum of its zones' high
 * watermarks: > 0 above the line, <= 0 on or below it, where global reclaim
 * scans anon only (subject to the 4.13+ inactive-anon guard).
 */
int64_t wm_anon_only_margin(uint64_t node_file, uint64_t free, uint64_t high_sum);

/*
 * Fill the node fields of *in (lru[], node_file, node_inactive_anon, free,
 * high_sum) from the zones of node in zoneinfo: the LRU counts summed
 * over the node's zones (the per-node block 4.8+, per zone before), free
 * over its zones, and high over its managed zones (for_each_managed_zone_pgdat),
 * taken from high[j] for zone j of zi when high is not NULL (a prediction),
 * else as zoneinfo printed it (high_wmark_pages: boost included).  Return
 * false when the node has no zone or no LRU line.
 */
bool wm_scan_node(const struct zi_info *zi, int node, const uint64_t *high,
		  struct wm_scan_in *in);

#endif /* WMARK_SCANCOUNT_H */
