/* SPDX-License-Identifier: MIT */
/*
 * machine.h - a model machine from what a kernel printed: zoneinfo's
 * zones become the model's zone list, what it printed becomes the values
 * to compare with, and the page geometry comes from the machine itself.
 *
 * This is the glue every user of libwmark needs between zi_parse() and
 * wm_setup_wmarks(): no file is read here either; the caller hands in the
 * parsed zoneinfo, MemTotal and the pagetypeinfo text.
 */
#ifndef WMARK_MACHINE_H
#define WMARK_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "infer.h"
#include "wmark.h"
#include "zoneinfo.h"

/* ---- page geometry --------------------------------------------------- */

/* Where a geometry value came from. */
enum wm_geo_from {
	WM_GEO_ASSUMED,		/* nothing said: the caller's default (wm_geometry_assume) */
	WM_GEO_GIVEN,		/* the machine said (sysconf, pagetypeinfo, an option) */
	WM_GEO_MEMINFO,		/* page size: MemTotal / sum of managed pages */
	WM_GEO_DERIVED,		/* pageblock: HPAGE_PMD_ORDER of the page size */
	WM_GEO_SYSFS,		/* pageblock: THP's PMD size and buddyinfo's orders */
	WM_GEO_CAPTURE,		/* what `wmark capture` recorded (wmark/geometry) */
};

/*
 * The architecture a kernel was built for, as far as the page geometry
 * depends on it: the pageblock is HUGETLB_PAGE_ORDER, the order of the
 * architecture's huge page, capped at the largest buddy order
 * (include/linux/pageblock-flags.h, 5.10 to 7.2).
 */
enum wm_arch {
	WM_ARCH_UNKNOWN,	/* nothing said: the PMD rule of the page size */
	WM_ARCH_X86_64,		/* 2 MiB PMD */
	WM_ARCH_ARM64,		/* PMD of PAGE_SHIFT - 3 orders: 4K 512, 16K 2048, 64K 8192 */
	WM_ARCH_PPC64,		/* set at boot (radix 64K: 32): pagetypeinfo only */
	WM_ARCH_S390X,		/* 1 MiB segment: 256 pages */
	WM_ARCH_RISCV64,	/* 2 MiB PMD */
	WM_ARCH_I386_PAE,	/* 3-level tables: 2 MiB PMD */
	WM_ARCH_I386,		/* 2-level tables: 4 MiB, capped at order 10 (1024) */
};

/* "x86_64", "aarch64", "ppc64le", "s390x", "riscv64", "i686-pae", "i686", "unknown". */
const char *wm_arch_name(enum wm_arch a);

/*
 * Parse an architecture name into *out: a `uname -m` (x86_64, aarch64,
 * arm64, ppc64, ppc64le, s390x, riscv64, i386, i486, i586, i686) or a
 * Debian name (amd64, ppc64el, i386); "i686-pae" or "686-pae" for i386
 * with PAE (`uname -m` says i686 either way).  Return WM_OK, or WM_EINVAL
 * with diag naming the ones known.
 */
int wm_arch_parse(const char *name, enum wm_arch *out, struct wm_diag *diag);

/*
 * The architecture a Debian kernel release names at its end
 * ("6.12.57+deb13-s390x", "6.1.0-40-686-pae", "6.12.117+deb13-arm64-16k",
 * "-cloud-amd64", "-rt-arm64", "-powerpc64le-64k"): fill *out and return
 * true, or return false when the release names none.
 */
bool wm_arch_from_release(const char *release, enum wm_arch *out);

/*
 * Whether the architecture's huge page is its PMD, so that THP's
 * hpage_pmd_size and buddyinfo's orders give the pageblock
 * (wm_pageblock_from_pmd): x86-64, arm64, s390x, riscv64 and i386; not
 * ppc64 (set at boot) and not an unknown one.
 */
bool wm_arch_pmd_hugepage(enum wm_arch a);

/*
 * The pageblock of a kernel for arch a with page_size-byte pages where
 * nothing else says: 256 pages on s390x, 1024 on i386 without PAE, the
 * PMD rule (wm_pageblock_default) elsewhere.  Return WM_OK, or WM_EINVAL
 * for a page size outside 4096..65536 or one arch a does not have (s390x,
 * riscv64, i386 and x86-64 have 4 KiB pages only).
 */
int wm_pageblock_of_arch(enum wm_arch a, unsigned page_size, uint64_t *pages,
			 unsigned *order, struct wm_diag *diag);

struct wm_geometry {
	unsigned page_size;		/* bytes */
	uint64_t pageblock_pages;	/* pages per pageblock */
	unsigned pageblock_order;
	enum wm_geo_from page_size_from;
	enum wm_geo_from pageblock_from;
	bool memtotal_seen;		/* a MemTotal was given (it may not have fitted) */
	enum wm_arch arch;		/* what the derived pageblock assumed */
};

/* "assumed", "given", "meminfo", "derived", "sysfs", "capture". */
const char *wm_geo_from_name(enum wm_geo_from f);

/*
 * The pageblock of a kernel with page_size-byte pages where nothing else
 * says: order PAGE_SHIFT - 3 (HPAGE_PMD_ORDER: a PMD of 8-byte entries),
 * so 512 pages at 4 KiB, 2048 at 16 KiB, 8192 at 64 KiB (arm64).  ppc64
 * decides at run time (32 pages with 64 KiB pages on radix): only
 * /proc/pagetypeinfo tells.  Return WM_OK, or WM_EINVAL for a page size
 * that is not a power of two from 4096 to 65536 (diag says so).
 */
int wm_pageblock_default(unsigned page_size, uint64_t *pages,
			 unsigned *order, struct wm_diag *diag);

/*
 * The page size that makes memtotal_kb (meminfo's MemTotal, which is
 * totalram_pages) equal to managed_sum pages (every zone's managed
 * counts together, read at the same time): one of 4, 8, 16, 32 or 64 KiB
 * whose product lies within 1% of MemTotal (memory can move between the
 * two reads).  Fill *page_size and return WM_OK, or WM_ENOZONE when no
 * size fits (or managed_sum is 0).
 */
int wm_page_size_from_meminfo(uint64_t memtotal_kb, uint64_t managed_sum,
			      unsigned *page_size);

/*
 * /proc/pagetypeinfo's "Page block order: N" and "Pages per block: N"
 * lines (2.6.24+), from a buffer.  Fill *order and *pages.  WM_EPARSE
 * with the line when a value is malformed, disagrees with the other
 * (pages != 1 << order) or is out of range; WM_ENOZONE when the file has
 * neither line.
 */
int wm_parse_pagetypeinfo(const char *buf, size_t len, unsigned *order,
			  uint64_t *pages, struct wm_diag *diag);

/*
 * The number of orders /proc/buddyinfo counts free blocks in
 * (NR_PAGE_ORDERS, MAX_PAGE_ORDER + 1: 11 on x86-64), from its first
 * "Node N, zone NAME c0 c1 ..." line.  Fill *orders and return WM_OK;
 * WM_EPARSE with the line when that line has no count or a count that is
 * not a number, more than 64 of them; WM_ENOZONE when no line names a zone.
 */
int wm_parse_buddyinfo_orders(const char *buf, size_t len, unsigned *orders,
			      struct wm_diag *diag);

/*
 * The pageblock of a kernel built with hugetlb on an architecture whose
 * huge page is its PMD (x86-64 and arm64; not powerpc, which sets the
 * order at boot): pageblock_order = min(HUGETLB_PAGE_ORDER,
 * MAX_PAGE_ORDER) with HUGETLB_PAGE_ORDER the order of the PMD
 * (include/linux/pageblock-flags.h, 5.10 to 7.2), from the page size,
 * THP's hpage_pmd_size (bytes) and the orders buddyinfo counts.  7.x's
 * PAGE_BLOCK_MAX_ORDER, when a kernel is built with it below its
 * default (MAX_PAGE_ORDER), makes blocks smaller than this; only
 * pagetypeinfo shows that.  Fill *order and *pages and return WM_OK, or
 * WM_EINVAL (diag says why) when pmd_bytes is not the page size times a
 * power of two or orders is not 1 to 64.
 */
int wm_pageblock_from_pmd(unsigned page_size, uint64_t pmd_bytes, unsigned orders,
			  unsigned *order, uint64_t *pages, struct wm_diag *diag);

/*
 * The geometry `wmark capture` records in a capture's wmark/geometry:
 * lines "KEY VALUE", "page_size BYTES" (the capturing machine's
 * getpagesize(): a power of two from 4096 to 65536) and "pageblock_order
 * N" (0 to 30), either of them absent, other keys skipped.  Set
 * *page_size and *pb_order (0 and -1 where absent) and return WM_OK, or
 * WM_EPARSE with the line of a bad value.
 */
int wm_parse_geometry(const char *buf, size_t len, unsigned *page_size, int *pb_order,
		      struct wm_diag *diag);

/*
 * Settle a machine's geometry from what is known: page_size (0 when
 * unknown; then from memtotal_kb/managed_sum when memtotal_kb is nonzero)
 * and a pageblock from pagetypeinfo (pb_pages 0 when unknown: derived
 * from the page size).  A pageblock of pb_pages must be a power of two of
 * at least 1 page.  Return WM_OK, WM_EINVAL, or WM_ENODATA when the page
 * size is unknown (none given, and no MemTotal that fits the managed
 * pages): a caller that has a default then calls wm_geometry_assume().
 */
int wm_geometry_settle(unsigned page_size, uint64_t memtotal_kb,
		       uint64_t managed_sum, unsigned pb_order,
		       uint64_t pb_pages, struct wm_geometry *out,
		       struct wm_diag *diag);

/*
 * wm_geometry_settle() for a machine of architecture arch: a pageblock
 * not given comes from wm_pageblock_of_arch().  A page_size given that
 * arch lacks is WM_EINVAL; one MemTotal suggests that arch lacks gets the
 * PMD rule's pageblock (wm_pageblock_default).
 */
int wm_geometry_settle_arch(enum wm_arch arch, unsigned page_size, uint64_t memtotal_kb,
			    uint64_t managed_sum, unsigned pb_order,
			    uint64_t pb_pages, struct wm_geometry *out,
			    struct wm_diag *diag);

/*
 * The geometry of a machine whose page size nothing said, with the
 * page_size bytes the caller assumes (page_size_from WM_GEO_ASSUMED; a
 * size the architecture lacks gets the PMD rule's pageblock), the
 * pageblock as wm_geometry_settle_arch() takes it and memtotal_seen for
 * the record.  Return WM_OK, or WM_EINVAL for a page_size of 0 or a bad
 * pageblock.
 */
int wm_geometry_assume(enum wm_arch arch, unsigned page_size, bool memtotal_seen,
		       unsigned pb_order, uint64_t pb_pages, struct wm_geometry *out,
		       struct wm_diag *diag);

/* ---- zoneinfo -> model ----------------------------------------------- */

/* The model's view of a parsed zoneinfo. */
struct wm_layout {
	struct wm_zone *zones;	/* every configured zone, node-major, idx-ascending */
	int64_t *printed;		/* per model zone: its index in zi->zones, -1 if not printed */
	size_t nzones;
	bool used_present;	/* no managed lines (before 3.8): present pages used */
};

/*
 * Build the model's zones from zi.  Every node that zoneinfo lists gets
 * the same list of configured zones; kernels before 4.12 print populated
 * zones only, so zones missing from the file are put back, empty, where
 * the kernel's zone order has them (the protection arrays have one entry
 * per configured zone).  Before 3.8 there are no managed lines and
 * present pages stand in, as those kernels used them.  Fill *out (free
 * with wm_layout_free); return WM_OK or WM_ENOMEM.
 */
int wm_layout_from_zoneinfo(const struct zi_info *zi, struct wm_layout *out,
			    struct wm_diag *diag);

void wm_layout_free(struct wm_layout *l);

/* The printed zone of model zone i, or NULL. */
const struct zi_zone *wm_layout_zone(const struct wm_layout *l,
				     const struct zi_info *zi, size_t i);

/*
 * What zoneinfo printed for each model zone, raw: a printed boost (5.16+)
 * taken off min/low/high/promo, as the model computes them without it.
 * out[l->nzones]; boost_out[l->nzones] (may be NULL) gets the boost
 * taken off.  Zones not printed get shown = false.
 */
void wm_printed_from_zoneinfo(const struct zi_info *zi, const struct wm_layout *l,
			      struct wm_printed *out, uint64_t *boost_out);

#endif /* WMARK_MACHINE_H */
