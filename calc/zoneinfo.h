/* SPDX-License-Identifier: MIT */
/*
 * zoneinfo.h - parse /proc/zoneinfo from a buffer (no I/O).
 *
 * The parser goes by keyword, never by line position or kernel version,
 * and skips keys it does not know, so it reads every format from 2.6.16
 * to 6.19, vendor additions and mailing-list excerpts alike.
 */
#ifndef WMARK_ZONEINFO_H
#define WMARK_ZONEINFO_H

#include "wmark.h"

/*
 * The most pages a zone's count (free, boost, min, low, high, promo,
 * spanned, present, managed, cma, a protection entry) may say, and the
 * most any one of those counts may add up to over all zones: 2^64 bytes
 * in 4 KiB pages.  A 64-bit kernel cannot have more, and with this bound
 * every sum of them, and every product with a KiB-per-page factor, fits
 * a long with room to spare.
 */
#define ZI_MAX_PAGES ((uint64_t)1 << 52)

/* Which optional lines a zone had. */
enum zi_has {
	ZI_HAS_FREE = 1u << 0,
	ZI_HAS_BOOST = 1u << 1,
	ZI_HAS_MIN = 1u << 2,
	ZI_HAS_LOW = 1u << 3,
	ZI_HAS_HIGH = 1u << 4,
	ZI_HAS_PROMO = 1u << 5,
	ZI_HAS_SPANNED = 1u << 6,
	ZI_HAS_PRESENT = 1u << 7,
	ZI_HAS_MANAGED = 1u << 8,
	ZI_HAS_CMA = 1u << 9,
	ZI_HAS_PROTECTION = 1u << 10,
	ZI_HAS_HIGH_MIN = 1u << 11,	/* pcp high_min/high_max (6.13+) */
};

/* The LRU lists of zi_zone.lru[], in the kernel's order (enum lru_list). */
enum { ZI_INACTIVE_ANON, ZI_ACTIVE_ANON, ZI_INACTIVE_FILE, ZI_ACTIVE_FILE, ZI_NR_LRU };

struct zi_zone {
	int node;
	char name[16];			/* as printed: "DMA32", "Normal" */
	enum wm_zone_type type;
	int line;			/* line of the "Node N, zone X" header */
	unsigned flags;			/* enum zi_has bits */
	uint64_t free;		/* pages ("pages free") */
	uint64_t boost;		/* pages (5.16+) */
	uint64_t min, low, high, promo;	/* pages, as printed */
	uint64_t spanned, present, managed, cma;	/* pages */
	int64_t protection[WM_MAX_ZONES];
	int nprotection;		/* entries printed (= MAX_NR_ZONES) */
	int ncpus;			/* "cpu: N" pagesets seen */
	int64_t pcp_batch;			/* first pageset's batch, -1 if none */
	int64_t pcp_high_min, pcp_high_max;/* first pageset's, -1 if none */
	/*
	 * pages: nr_inactive_anon, nr_active_anon, nr_inactive_file,
	 * nr_active_file as printed under this zone's header: the node's
	 * counts in the per-node block of its first populated zone (4.8+),
	 * the zone's own before.  Their sum over a node's zones is the
	 * node's LRU either way.
	 */
	uint64_t lru[ZI_NR_LRU];
	bool has_lru;			/* one of those lines was there */
};

struct zi_info {
	struct zi_zone *zones;		/* in file order */
	size_t nzones;
	size_t cap;			/* allocated entries */
	int nnodes;			/* highest node number + 1 */
};

/*
 * Parse buf[0..len) into *out (which zi_parse initialises; free it with
 * zi_free, also after an error).  Return WM_OK, WM_ENOMEM, or WM_EPARSE
 * with diag->line and diag->msg saying what is wrong.  A file with no
 * zone header at all is WM_EPARSE, and so is a count above ZI_MAX_PAGES
 * ("too large") or one whose sum over all zones passes it (the line of
 * the value that does).
 */
int zi_parse(const char *buf, size_t len, struct zi_info *out,
	     struct wm_diag *diag);

void zi_free(struct zi_info *zi);

/*
 * Whether any zone of zi has a managed or present line: without one
 * (zone headers alone, an excerpt or a cut file) every size is 0 and
 * there is nothing to model.
 */
bool zi_sized(const struct zi_info *zi);

#endif /* WMARK_ZONEINFO_H */
