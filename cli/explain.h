/* SPDX-License-Identifier: MIT */
/*
 * explain.h - print a computed or read machine: where min_free_kbytes
 * came from, the sysctls, the zone table, protection and what the
 * watermark_scale_factor does per zone.  Shared by calc, show and whatif.
 * Also the pieces other commands print the same way: the JSON document
 * header (every command) and the reserve block (whatif, recommend).
 */
#ifndef WMARK_EXPLAIN_H
#define WMARK_EXPLAIN_H

#include "../calc/machine.h"
#include "../calc/reserve.h"
#include "cli.h"
#include "report.h"

struct doc;

struct explain {
	const char *source;		/* "calc", "live" or "capture" */
	const char *kernel_label;	/* release string, NULL: the profile's */
	const struct wm_profile *profile;
	const struct wm_machine *machine;
	const struct wm_geometry *geo;	/* where page size and pageblock came from, or NULL */
	const struct wm_sysctl *sysctl;
	const struct wm_zone_wm *wm;	/* model results, one per row (or NULL) */
	const struct zrow *rows;	/* rows to print; NULL: from machine + wm */
	size_t nrows;			/* with rows */
	const char *const *zone_names;	/* names per zone; NULL: type names */
	struct wm_mfk mfk;
	bool mfk_known;
	unsigned cols;			/* COL_* */
	const char *high_formula;	/* JSON "high_formula" when not the stock rule, or NULL */
	const char *text_note;		/* a line the text starts with, or NULL */
	/* What the command adds: in JSON after high_formula, before "zones"; in text at the end. */
	void (*more)(struct doc *d, const void *arg);
	const void *more_arg;
};

void explain_init(struct explain *ex);

/* Print ex in ctx->format on stdout; return an exit code. */
int explain_print(const struct cli_ctx *ctx, const struct explain *ex);

/* "6.18" or the release string, for headers. */
const char *explain_kernel(const struct explain *ex, char *buf, size_t n);

/* One line on min_free_kbytes' origin (no newline), into buf. */
const char *explain_mfk(const struct wm_mfk *mfk, const struct wm_machine *m,
			char *buf, size_t n);

/* " (assumed: ...)" after the page size in a text header, or "". */
const char *explain_geometry(const struct wm_geometry *g);

/* page_size, pageblock_pages and, with g, where they came from, into doc. */

/* What a command's JSON document starts with; NULL members are left out. */
struct explain_head {
	const char *source;		/* "calc", "live" or "capture" */
	const char *kernel;		/* the "kernel" string, or NULL */
	const struct wm_machine *m;	/* page_size and pageblock_pages, or NULL */
	const struct wm_geometry *geo;	/* with m: where they came from, or NULL */
	bool page_size_only;		/* with m: page_size alone (recommend) */
	const struct wm_sysctl *sysctl;	/* the "sysctl" object, or NULL */
};

/*
 * The header of h as members of d's JSON object (nothing in text), in
 * this order: source, kernel, page_size, page_size_source,
 * pageblock_pages, pageblock_source, sysctl (report_doc_sysctl).  The
 * command adds its own members after them.
 */
void explain_doc_head(struct doc *d, const struct explain_head *h);

/* The optional lines and keys of the reserve block. */
enum {
	RESERVE_LOW_SUM = 1u << 0,	/* JSON: the sums of the low watermarks (whatif) */
	RESERVE_CHANGE = 1u << 1,	/* JSON: mem_available_change_kb (recommend) */
	RESERVE_HUGETLB = 1u << 2,	/* the HugeTLB pool (recommend) */
};

/*
 * What a change takes from memory: totalreserve_pages, then MemAvailable,
 * now and after, and the parts of RESERVE_* asked for; text lines, or the
 * JSON member "reserve" (null where meminfo is missing).
 */
void explain_reserve(struct doc *d, const struct wm_reserve *rv, unsigned page_size,
		     unsigned parts);

/* Build rows from the model results of ex (caller frees). */
struct zrow *explain_rows(const struct explain *ex);


#endif /* WMARK_EXPLAIN_H */
