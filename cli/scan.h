/* SPDX-License-Identifier: MIT */
/*
 * scan.h - the parts of `wmark scan`: cmd_scan.c (options, the targets
 * and what they hold: a node's lists, a cgroup's, the sizes given) and
 * scan_report.c (the lists reclaim asks of at each priority, as text and
 * JSON).  They share what a run knows of its targets.
 */
#ifndef WMARK_SCAN_H
#define WMARK_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../calc/scancount.h"

#define P_LRU_GEN "sys/kernel/mm/lru_gen/enabled"

/* Whose reclaim a cgroup's lists are scanned for. */
enum reclaim_from {
	FROM_SELF,		/* its own limit or memory.reclaim: its protection ignored */
	FROM_PARENT,		/* its parent's: its memory.min/low apply */
	FROM_GLOBAL,		/* the parent is the root cgroup: global reclaim */
};

/* One lruvec to model: a node, a cgroup, or the options. */
struct target {
	char name[64];			/* "node 0", "cgroup /x", "given" */
	int node;			/* -1 unless a node */
	const char *cgroup;
	struct wm_scan_in in;
	bool have_line;			/* free and high_sum are known */
	/* a cgroup's memory.min, memory.low (pages, ZI_MAX_PAGES for "max") and usage */
	bool have_prot;			/* memory.min or memory.low is there */
	uint64_t min, low, usage;
	enum reclaim_from from;
	bool target_assumed;		/* global: no zoneinfo node for the target's lists */
};

struct scan_opts {
	bool anon, file, free, high, swappiness, swap, memcg, scanned, rotated, cost;
	uint64_t lru[WM_NR_LRU], free_v, high_v;
	uint64_t hist_s[2], hist_r[2], cost_v[2];
	int64_t swappiness_v;
	uint64_t swap_bytes;
	bool offline;
	const char *cgroup;
	int64_t node;
	bool all;
	enum wm_scan_rule rule;
	bool rule_given;
	bool from_parent, low_reclaim;
};

/* What a run prints about, besides its targets. */
struct scan_run {
	const char *kernel;
	const char *source;		/* "options", "live", "capture" */
	enum wm_scan_rule def;
	int lo, hi;			/* the rules shown */
	unsigned page_size;
	bool mglru;
	bool swappiness_assumed;	/* vm.swappiness not readable: 60 */
	bool swap_assumed;		/* SwapFree not readable: swap there */
	uint64_t folio;			/* pages of the largest page-cache folio, 1 none */
};

/* The run on standard output, as text or one JSON document; an exit code. */
int scan_print(enum cli_format format, const struct scan_run *r, const struct scan_opts *o,
	       const struct target *t, size_t nt);

#endif /* WMARK_SCAN_H */
