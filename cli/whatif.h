/* SPDX-License-Identifier: MIT */
/*
 * whatif.h - predict what a sysctl change does to this machine's zones;
 * used by whatif, apply and recommend.
 */
#ifndef WMARK_WHATIF_H
#define WMARK_WHATIF_H

#include <limits.h>

#include "machine.h"

#define WHATIF_UNSET LONG_MIN

/* A requested change; fields WHATIF_UNSET (lrr.nlrr 0) when not given. */
struct whatif_change {
	long wsf, mfk, boost, extra;
	struct wm_sysctl lrr;
	bool any;
};

#define WHATIF_CHANGE_INIT { WHATIF_UNSET, WHATIF_UNSET, WHATIF_UNSET, WHATIF_UNSET, \
			     { 0 }, false }

/* getopt codes shared by commands that take a change. */
enum { WHATIF_O_WSF = 300, WHATIF_O_MFK, WHATIF_O_BOOST, WHATIF_O_LRR, WHATIF_O_EXTRA };

/* Parse one change option (code c) into ch; return an exit code. */
int whatif_parse_change(const char *cmd, int c, const char *arg, struct whatif_change *ch);

/*
 * The sysctls after ch, validated against s's kernel (ranges, knobs that
 * exist); *recompute_wm says whether the write recomputes watermarks.
 * Return an exit code, printing the reason.
 */
int whatif_apply_change(const char *cmd, const struct snapshot *s,
			const struct whatif_change *ch, struct wm_sysctl *out,
			bool *recompute_wm);

/* One zone after the change: raw watermarks plus the boost that stays. */
struct whatif_zone {
	bool shown;			/* zoneinfo prints the zone */
	struct wm_zone_wm wm;
	unsigned long boost;		/* 0 after a recompute */
};

/* Predict every zone of s (out[s->m.nzones]); return an exit code. */
int whatif_predict(const struct snapshot *s, const struct wm_sysctl *sc,
		   bool recompute_wm, struct whatif_zone *out);

/* What a change does to the memory the kernel holds back. */
struct whatif_reserve {
	unsigned long total_now, total_after;	/* pages: totalreserve_pages */
	unsigned long low_now, low_after;	/* pages: sums of the low watermarks */
	bool have_meminfo;			/* the avail fields are known */
	long avail_now, avail_after;		/* pages: MemAvailable (si_mem_available) */
	long hugetlb_kb;			/* KiB in the HugeTLB pool, -1 unknown */
};

/*
 * totalreserve_pages, the low sums and MemAvailable of s today (zoneinfo
 * as printed) and after the predicted zones after[s->m.nzones]; meminfo
 * is read from s's root when there (have_meminfo false otherwise).
 */
void whatif_reserve(const struct snapshot *s, const struct whatif_zone *after,
		    struct whatif_reserve *r);

#endif /* WMARK_WHATIF_H */
