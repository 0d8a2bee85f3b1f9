/* SPDX-License-Identifier: MIT */
/*
 * report.h - per-zone tables in text, JSON and Prometheus form.
 *
 * Every field is one row of a descriptor table (report.c, struct
 * fmt_field of fmt.h): its text header, JSON key, Prometheus name, unit
 * and help.  The three printers read the same rows, so a new field is one
 * line, never three printers.
 */
#ifndef WMARK_REPORT_H
#define WMARK_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "../calc/wmark.h"
#include "../calc/zoneinfo.h"
#include "cli.h"
#include "fmt.h"

/* One zone as a command reports it.  Page counts; RV_NONE where unknown. */
struct zrow {
	int node;
	const char *zone;
	int64_t managed, present, spanned, free;
	int64_t min, low, high, promo, boost;
	int64_t boost_max;		/* the most boost watermark_boost_factor allows */
	int64_t gap;		/* min->low */
	int64_t high_sqrt, gap_sqrt;
	int64_t wsf_floor;		/* smallest wsf that changes the gap */
	int64_t wsf_effective;	/* the largest wsf whose term is <= the gap */
	int64_t protection[WM_MAX_ZONES];
	int nprot;
	const char *state;	/* where free stands against the watermarks */
};

/* Which optional columns a table has. */
enum {
	COL_SQRT = 1u << 0,	/* high_sqrt, gap_sqrt */
	COL_DEFAULT = 1u << 1,	/* high, promo (the kernel's own formula) */
	COL_PROMO = 1u << 2,	/* the kernel has a promo watermark */
	COL_LIVE = 1u << 3,	/* free, boost, state: read from a machine */
	COL_SIZES = 1u << 4,	/* present, spanned */
	COL_BOOST = 1u << 5,	/* boost: read, or what stays after a change */
	COL_BOOST_MAX = 1u << 6,	/* boost_max: the factor's ceiling */
};

/* Where free memory stands against the zone's watermarks, or NULL. */
const char *zrow_state(const struct zi_zone *z);

/* Fill r with what zoneinfo printed for z (RV_NONE where it did not). */
void zrow_from_zoneinfo(struct zrow *r, const struct zi_zone *z);

/* Fill r from a model result (raw + boost, as zoneinfo prints them). */
void zrow_from_model(struct zrow *r, int node, const char *zone,
		     const struct wm_zone *z, const struct wm_zone_wm *w,
		     const struct wm_profile *p);

struct doc;

/*
 * One zone as an object of the JSON array open in d (nothing in text):
 * the zone keys of wmark.1's JSON OUTPUT, node and zone first when names; then,
 * with now, the zone as zoneinfo printed it (COL_DEFAULT | COL_PROMO) as
 * its member "now", without node and zone.
 */
void report_doc_zone(struct doc *d, const struct zrow *r, unsigned cols, bool names,
		     const struct zrow *now);

/* One zone's keys of wmark.1's JSON OUTPUT into the JSON object open in d. */
void report_doc_zone_members(struct doc *d, const struct zrow *r, unsigned cols);

/* Prometheus text exposition, one gauge family per field. */
void report_prom(FILE *f, const struct zrow *rows, size_t n, unsigned cols,
		 unsigned page_size);

/* The sysctls s has, as wmark_sysctl_NAME gauges. */
void report_prom_sysctl(FILE *f, const struct wm_sysctl *s);

/* The "sysctl" object of wmark.1's JSON OUTPUT (fields < 0 become null). */
void report_doc_sysctl(struct doc *d, const char *key, const struct wm_sysctl *s);

/*
 * The zones: in text the table in pages, then the same columns in MiB of
 * page_size; in JSON the array key, one object a zone.
 */
void report_doc_zones(struct doc *d, const char *key, const struct zrow *rows, size_t n,
		      unsigned cols, unsigned page_size);

#endif /* WMARK_REPORT_H */
