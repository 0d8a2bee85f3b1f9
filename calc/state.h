/* SPDX-License-Identifier: MIT */
/*
 * state.h - the machine as one value: what a root tree (the live machine
 * or a capture) contains, as texts, turned into the kernel identity, the
 * rules of that kernel, the page geometry, THP, the zones and the
 * sysctls.  Every command starts from one of these.
 *
 * No file is read here: the caller hands in each file's text (cli/
 * snapshot.c reads them from a root by a table of paths; a library user
 * can read them any way it likes), and gets back a struct wm_state or an
 * error naming the text that is missing or wrong.
 */
#ifndef WMARK_STATE_H
#define WMARK_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "infer.h"
#include "machine.h"
#include "wmark.h"
#include "zoneinfo.h"

/*
 * The texts of a root, by what they are.  The comment gives the file as
 * it is found in a root laid out like / (and in a `wmark capture`).
 */
enum wm_text {
	WM_TEXT_KERNEL,		/* a release given instead of osrelease (--kernel) */
	WM_TEXT_OSRELEASE,	/* proc/sys/kernel/osrelease */
	WM_TEXT_VERSION,	/* proc/sys/kernel/version: the Debian sublevel */
	WM_TEXT_ZONEINFO,	/* proc/zoneinfo */
	WM_TEXT_MFK,		/* proc/sys/vm/min_free_kbytes */
	WM_TEXT_WSF,		/* proc/sys/vm/watermark_scale_factor */
	WM_TEXT_BOOST,		/* proc/sys/vm/watermark_boost_factor */
	WM_TEXT_EXTRA,		/* proc/sys/vm/extra_free_kbytes */
	WM_TEXT_LRR,		/* proc/sys/vm/lowmem_reserve_ratio */
	WM_TEXT_THP,		/* sys/kernel/mm/transparent_hugepage/enabled */
	WM_TEXT_ARCH,		/* proc/sys/kernel/arch */
	WM_TEXT_MEMINFO,	/* proc/meminfo */
	WM_TEXT_GEOMETRY,	/* wmark/geometry (wm_parse_geometry) */
	WM_TEXT_PMD_SIZE,	/* sys/kernel/mm/transparent_hugepage/hpage_pmd_size */
	WM_TEXT_BUDDYINFO,	/* proc/buddyinfo */
	WM_TEXT_PAGETYPEINFO,	/* proc/pagetypeinfo */
	WM_TEXT_COUNT
};

/* "kernel", "osrelease", "version", "zoneinfo", ...: a text's short name. */
const char *wm_text_name(enum wm_text t);

/* One file's content: buf NULL when the root lacks the file. */
struct wm_text_buf {
	const char *buf;	/* len bytes (a NUL after them is not needed) */
	size_t len;
};

/* A per-size THP control (6.8+): hugepages-<kb>kB/enabled. */
struct wm_thp_size_text {
	uint64_t kb;
	struct wm_text_buf enabled;
};

/* What wm_state_build() must find: without it, an error naming the text. */
#define WM_NEED_ZONEINFO 0x1u

/* What a root contains. */
struct wm_texts {
	struct wm_text_buf text[WM_TEXT_COUNT];
	const struct wm_thp_size_text *thp_sizes;	/* any order */
	size_t nthp_sizes;
	/*
	 * The live machine: its page size (the process's own), its
	 * architecture (uname -m) and whether hugetlb is configured
	 * (sys/kernel/mm/hugepages exists).  A capture leaves them 0.
	 */
	bool live;
	unsigned live_page_size;	/* bytes */
	const char *live_arch;
	bool hugetlb;
	/*
	 * Bytes: the page size to take when nothing in the texts says it
	 * (no live page size, no recorded geometry, no MemTotal that fits
	 * the managed pages); the geometry then says "assumed".  0: that is
	 * an error naming the meminfo.
	 */
	unsigned assumed_page_size;
	unsigned need;			/* WM_NEED_* */
};

/* The kernel a root runs, as far as the model's rules go. */
struct wm_kernel_id {
	char osrelease[128];	/* the root's release line, "" if none */
	struct wm_kver kver;	/* with the Debian sublevel (wm_kver_debian_sublevel) */
	bool known;		/* from --kernel or osrelease, not the newest rules by default */
	struct wm_profile prof;
};

/*
 * One model zone as zoneinfo printed it, and as the kernel set it: the
 * printed min/low/high/promo carry the zone's boost (min_wmark_pages()
 * and the others add watermark_boost, 5.0+); raw is what is left without
 * it, as wm_printed_from_zoneinfo() takes it off (the one boost guard: a
 * boost above min is no boost of the kernel's and the zone's watermarks
 * are not compared).  The model's own values are layout.zones[i].
 */
struct wm_zone_view {
	int64_t printed;	/* index in zi.zones, -1 if the zone is not printed */
	uint64_t boost;		/* pages: the printed boost, 0 if none */
	struct wm_printed raw;	/* pages, boost removed */
};

/* The machine as one value. */
struct wm_state {
	struct wm_kernel_id kernel;
	struct wm_geometry geo;		/* page size and pageblock, and where they came from */
	enum wm_thp thp;		/* the THP mode min_free_kbytes follows */
	struct wm_sysctl sysctl;	/* fields -1 (have bit clear) where a text is absent */
	uint64_t memtotal_kb;		/* MemTotal, 0 if unknown */
	bool have_zones;		/* a zoneinfo was given */
	struct zi_info zi;		/* the parsed zoneinfo (empty without one) */
	struct wm_layout layout;	/* the model's zones (owns zones and printed) */
	struct wm_zone_view *view;	/* layout.nzones entries */
	struct wm_machine m;		/* layout.zones with the geometry */
};

/*
 * The kernel identity of texts t alone (WM_TEXT_KERNEL, _OSRELEASE,
 * _VERSION): a release given in WM_TEXT_KERNEL wins; else osrelease,
 * with the stable sublevel from version where a Debian release string
 * hides it (5.10.0-43-amd64 is 5.10.251); else the newest modelled
 * rules (wm_profile_default), known false.  Fill *out and return WM_OK,
 * or WM_EPARSE with *which the text and diag saying why.
 */
int wm_state_kernel(const struct wm_texts *t, struct wm_kernel_id *out, enum wm_text *which,
		    struct wm_diag *diag);

/*
 * Whether the per-size THP controls could change the THP mode of t
 * (wm_thp_sizes_matter): a reader need read them only then.
 */
bool wm_texts_want_thp_sizes(const struct wm_texts *t);

/*
 * Whether the live pageblock follows from THP's PMD size and buddyinfo
 * (wm_pageblock_from_pmd, on architectures whose huge page is the PMD
 * and with hugetlb configured): a reader of the live machine need not
 * read pagetypeinfo then, which costs the kernel a walk of every free
 * list.  Always false for a capture.
 */
bool wm_texts_pageblock_known(const struct wm_texts *t);

/*
 * Build *out from texts t: the kernel (wm_state_kernel), the zones
 * (zi_parse, wm_layout_from_zoneinfo), the sysctls (each within the range
 * the kernel accepts, wm_knob_check_range), THP (wm_thp_for_mfk), the
 * geometry (live: the page size given and the PMD's pageblock where it
 * decides; a capture: its recorded geometry, else MemTotal over the
 * managed pages; the pageblock from pagetypeinfo, else from the page size
 * and the architecture) and the zone view.  Return WM_OK (free *out with
 * wm_state_free), or an error with *out empty, *which the text at fault
 * and diag saying why: WM_EPARSE for a text that does not parse, WM_EINVAL
 * for a value the kernel refuses or a geometry that does not hold
 * (diag->line 1 for a one-line file), WM_ENODATA for a text needed but
 * absent (zoneinfo with WM_NEED_ZONEINFO; meminfo when the page size is
 * unknown and no assumed one was given), WM_ENOMEM.
 */
int wm_state_build(const struct wm_texts *t, struct wm_state *out, enum wm_text *which,
		   struct wm_diag *diag);

void wm_state_free(struct wm_state *s);

#endif /* WMARK_STATE_H */
