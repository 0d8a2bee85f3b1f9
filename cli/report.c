// SPDX-License-Identifier: MIT
/*
 * report.c - the zone field table and its three printers (text, JSON,
 * Prometheus), through the shared readers of fmt.c.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../calc/knob.h"
#include "doc.h"
#include "jsonw.h"
#include "report.h"

/* A zone field: a long of struct zrow; need = COL_* bits; fl = FMT_F_*. */
#define F(h, j, pr, hlp, u, member, nd, fl) \
	{ .header = h, .json = j, .prom = pr, .help = hlp, .unit = u, \
	  .off = offsetof(struct zrow, member), .need = nd, .flags = fl }

static const struct fmt_field fields[] = {
	F("managed", "managed", "managed_pages", "Pages the buddy allocator manages in the zone",
	  FMT_PAGES, managed, 0, 0),
	F("present", "present", "present_pages", "Physical pages present in the zone",
	  FMT_PAGES, present, COL_SIZES, FMT_F_NO_MIB),
	F("spanned", "spanned", "spanned_pages", "Pages the zone spans, holes included",
	  FMT_PAGES, spanned, COL_SIZES, FMT_F_NO_MIB),
	F("free", "free", "free_pages", "Free pages in the zone",
	  FMT_PAGES, free, COL_LIVE, 0),
	F("boost", "boost", "boost_pages", "Current watermark boost",
	  FMT_PAGES, boost, COL_BOOST, 0),
	F("boost_max", "boost_max", "boost_max_pages",
	  "Largest watermark boost watermark_boost_factor allows: high x factor / 10000, at least one pageblock",
	  FMT_PAGES, boost_max, COL_BOOST_MAX, 0),
	F("min", "min", "min_pages", "Min watermark: below it only atomic and reclaim allocations succeed",
	  FMT_PAGES, min, 0, 0),
	F("low", "low", "low_pages", "Low watermark: kswapd wakes below it",
	  FMT_PAGES, low, 0, 0),
	F("high", "high", "high_pages", "High watermark: kswapd sleeps again above it",
	  FMT_PAGES, high, COL_DEFAULT, 0),
	F("promo", "promo", "promo_pages", "Promo watermark (NUMA tiering, 5.18+)",
	  FMT_PAGES, promo, COL_DEFAULT | COL_PROMO, FMT_F_NO_MIB),
	F("gap", "gap", "gap_pages", "Distance min->low (= low->high) from min_free_kbytes and watermark_scale_factor",
	  FMT_PAGES, gap, 0, 0),
	F("high_sqrt", "high_sqrt", "high_sqrt_pages", "High watermark under the 2018 RFC sqrt-clamped formula",
	  FMT_PAGES, high_sqrt, COL_SQRT, 0),
	F("gap_sqrt", "gap_sqrt", "gap_sqrt_pages", "Distance low->high under the 2018 RFC formula",
	  FMT_PAGES, gap_sqrt, COL_SQRT, 0),
	F("wsf_floor", "wsf_floor", "wsf_floor", "Smallest watermark_scale_factor that changes the gap",
	  FMT_WSF, wsf_floor, 0, FMT_F_NO_MIB),
	F("wsf_eff", "wsf_effective", "wsf_effective", "The largest watermark_scale_factor whose term fits in the gap: the scale factor the gap amounts to",
	  FMT_WSF, wsf_effective, 0, FMT_F_NO_MIB),
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

const char *zrow_state(const struct zi_zone *z)
{
	if (!(z->flags & ZI_HAS_FREE) || !(z->flags & ZI_HAS_MIN) || !z->managed)
		return NULL;
	if (z->free < z->min)
		return "below min: allocations stall in direct reclaim";
	if (z->free < z->low)
		return "below low: kswapd awake";
	if (z->free < z->high)
		return "between low and high";
	return "above high";
}

static int64_t opt(const struct zi_zone *z, unsigned flag, uint64_t v)
{
	return (z->flags & flag) ? (int64_t)v : RV_NONE;
}

void zrow_from_zoneinfo(struct zrow *r, const struct zi_zone *z)
{
	int j;

	memset(r, 0, sizeof(*r));
	r->node = z->node;
	r->zone = z->name;
	r->managed = opt(z, ZI_HAS_MANAGED, z->managed);
	r->present = opt(z, ZI_HAS_PRESENT, z->present);
	r->spanned = opt(z, ZI_HAS_SPANNED, z->spanned);
	r->free = opt(z, ZI_HAS_FREE, z->free);
	r->boost = opt(z, ZI_HAS_BOOST, z->boost);
	r->boost_max = RV_NONE;
	r->min = opt(z, ZI_HAS_MIN, z->min);
	r->low = opt(z, ZI_HAS_LOW, z->low);
	r->high = opt(z, ZI_HAS_HIGH, z->high);
	r->promo = opt(z, ZI_HAS_PROMO, z->promo);
	r->gap = (r->min != RV_NONE && r->low != RV_NONE) ? r->low - r->min : RV_NONE;
	r->high_sqrt = r->gap_sqrt = RV_NONE;
	r->wsf_floor = RV_NONE;
	r->wsf_effective = RV_NONE;
	r->nprot = z->nprotection;
	for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
		r->protection[j] = z->protection[j];
	r->state = zrow_state(z);
}

void zrow_from_model(struct zrow *r, int node, const char *zone,
		     const struct wm_zone *z, const struct wm_zone_wm *w,
		     const struct wm_profile *p)
{
	int64_t boost = p->boost ? (int64_t)z->boost : 0;
	int i;

	memset(r, 0, sizeof(*r));
	r->node = node;
	r->zone = zone;
	r->managed = (int64_t)z->managed;
	r->present = (int64_t)z->present;
	r->spanned = RV_NONE;
	r->free = RV_NONE;
	r->boost = boost;
	r->boost_max = RV_NONE;
	/* zoneinfo prints _watermark[] + watermark_boost (5.0+). */
	r->min = (int64_t)w->min + boost;
	r->low = (int64_t)w->low + boost;
	r->high = (int64_t)w->high + boost;
	r->promo = p->promo ? (int64_t)w->promo + boost : RV_NONE;
	r->gap = (int64_t)w->gap;
	r->high_sqrt = (int64_t)w->high_sqrt + boost;
	r->gap_sqrt = (int64_t)w->gap_sqrt;
	r->wsf_floor = w->wsf_floor;
	r->wsf_effective = w->wsf_effective;
	r->nprot = WM_MAX_ZONES;
	for (i = 0; i < WM_MAX_ZONES; i++)
		r->protection[i] = w->protection[i];
	r->state = NULL;
}

static void text_block(FILE *f, const struct zrow *rows, size_t n,
		       unsigned cols, unsigned page_size, bool in_mib)
{
	unsigned mib_ps = in_mib ? page_size : 0;
	int width[NFIELDS];
	size_t i;

	fmt_widths(fields, NFIELDS, rows, sizeof(*rows), n, mib_ps, width);
	fprintf(f, "%-4s %-8s", "node", "zone");
	fmt_text_header(f, fields, NFIELDS, width, cols, mib_ps);
	if (!in_mib && (cols & COL_LIVE))
		fputs("  free stands", f);
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		/* "%-4d %-8s" */
		char pre[40];
		size_t k = fmt_long(pre, rows[i].node), z = strlen(rows[i].zone), at;

		while (k < 4)
			pre[k++] = ' ';
		pre[k++] = ' ';
		at = k;
		if (z <= sizeof(pre) - k) {
			memcpy(pre + k, rows[i].zone, z);
			for (k += z; k < at + 8; k++)
				pre[k] = ' ';
			fwrite_unlocked(pre, 1, k, f);
		} else {
			fwrite_unlocked(pre, 1, k, f);
			fputs_unlocked(rows[i].zone, f);
		}
		fmt_text_cells(f, fields, NFIELDS, width, cols, mib_ps, &rows[i]);
		if (!in_mib && (cols & COL_LIVE) && rows[i].state) {
			fputs_unlocked("  ", f);
			fputs_unlocked(rows[i].state, f);
		}
		putc_unlocked('\n', f);
	}
}


/* A zone's fields, protection and state: its members but node and zone. */
static void jw_zone_fields(struct jw *w, const struct zrow *r, unsigned cols)
{
	int j;

	/* promo is null, not absent, on kernels without it */
	jw_fmt_fields(w, fields, NFIELDS, cols | COL_PROMO, r);
	jw_arr_open(w, "protection");
	for (j = 0; j < r->nprot; j++)
		jw_long(w, NULL, r->protection[j]);
	jw_close(w);
	if ((cols & COL_LIVE) && r->state)
		jw_str(w, "state", r->state);
}

/* A zone's members: node, zone, then the rest. */
static void jw_zone_members(struct jw *w, const struct zrow *r, unsigned cols)
{
	jw_long(w, "node", r->node);
	jw_str(w, "zone", r->zone);
	jw_zone_fields(w, r, cols);
}

void report_doc_zone_members(struct doc *d, const struct zrow *r, unsigned cols)
{
	if (doc_is_json(d))
		jw_zone_members(&d->w, r, cols);
}

void report_doc_zone(struct doc *d, const struct zrow *r, unsigned cols, bool names,
		     const struct zrow *now)
{
	if (!doc_is_json(d))
		return;
	jw_obj_open(&d->w, NULL);
	if (names)
		jw_zone_members(&d->w, r, cols);
	else
		jw_zone_fields(&d->w, r, cols);
	if (now) {
		jw_obj_open(&d->w, "now");
		jw_zone_fields(&d->w, now, COL_DEFAULT | COL_PROMO);
		jw_close(&d->w);
	}
	jw_close(&d->w);
}

void report_prom(FILE *f, const struct zrow *rows, size_t n, unsigned cols,
		 unsigned page_size)
{
	char line[256];
	size_t i, k;

	for (k = 0; k < NFIELDS; k++) {
		const struct fmt_field *fd = &fields[k];
		char help[256];
		size_t plen;

		if (!fd->prom || !fmt_shown(fd, cols, 0))
			continue;
		plen = strlen(fd->prom);
		snprintf(help, sizeof(help), "%s.", fd->help);
		fmt_prom_head(f, "wmark_zone_", fd->prom, help, "gauge");
		for (i = 0; i < n; i++) {
			/* every exported field is a long (FMT_PAGES, FMT_WSF) */
			struct fmt_val v = fmt_value(fd, &rows[i]);

			size_t zlen = strlen(rows[i].zone), m;

			if (!v.ok)
				continue;
			if (plen + zlen > sizeof(line) - 96) {	/* never for kernel names */
				fprintf(f, "wmark_zone_%s{node=\"%d\",zone=\"%s\"} %" PRId64 "\n",
					fd->prom, rows[i].node, rows[i].zone, v.n);
				continue;
			}
			/* wmark_zone_NAME{node="N",zone="Z"} V */
			memcpy(line, "wmark_zone_", 11);
			memcpy(line + 11, fd->prom, plen);
			m = 11 + plen;
			memcpy(line + m, "{node=\"", 7);
			m += 7;
			m += fmt_long(line + m, rows[i].node);
			memcpy(line + m, "\",zone=\"", 8);
			m += 8;
			memcpy(line + m, rows[i].zone, zlen);
			m += zlen;
			memcpy(line + m, "\"} ", 3);
			m += 3;
			m += fmt_long(line + m, v.n);
			line[m++] = '\n';
			fwrite_unlocked(line, 1, m, f);
		}
	}
	fmt_prom_head(f, "wmark_", "page_size_bytes", "Page size the page counts are in.", "gauge");
	fprintf(f, "wmark_page_size_bytes %u\n", page_size);
}

void report_prom_sysctl(FILE *f, const struct wm_sysctl *s)
{
	int k;

	for (k = 0; s && k < WM_NKNOBS; k++) {
		const struct wm_knob_def *d = wm_knob_def((enum wm_knob)k);
		char help[256];

		if (d->off == WM_KNOB_LIST || !(s->have & d->have))
			continue;
		snprintf(help, sizeof(help), "The sysctl %s the watermarks are computed from.", d->help);
		fmt_prom_head(f, "wmark_sysctl_", d->name, help, "gauge");
		fprintf(f, "wmark_sysctl_%s %" PRId64 "\n", d->name, *wm_knob_value(s, d->knob));
	}
}

void report_doc_sysctl(struct doc *d, const char *key, const struct wm_sysctl *s)
{
	int i;

	doc_obj(d, key);
	doc_long_or_null(d, "min_free_kbytes", s->have & WM_HAVE_MFK ? s->min_free_kbytes : RV_NONE);
	doc_long_or_null(d, "watermark_scale_factor", s->have & WM_HAVE_WSF ? s->wsf : RV_NONE);
	doc_long_or_null(d, "watermark_boost_factor",
			 s->have & WM_HAVE_BOOST ? s->boost_factor : RV_NONE);
	if ((s->have & WM_HAVE_LRR) && s->nlrr > 0) {
		doc_arr(d, "lowmem_reserve_ratio");
		for (i = 0; i < s->nlrr; i++)
			doc_item_double(d, (double)s->lrr[i]);
		doc_close(d);
	} else {
		doc_null(d, "lowmem_reserve_ratio");
	}
	doc_long_or_null(d, "extra_free_kbytes",
			 s->have & WM_HAVE_EXTRA ? s->extra_free_kbytes : RV_NONE);
	doc_close(d);
}

void report_doc_zones(struct doc *d, const char *key, const struct zrow *rows, size_t n,
		      unsigned cols, unsigned page_size)
{
	size_t i;

	if (doc_is_text(d)) {
		fputs("Watermarks in pages:\n", d->f);
		text_block(d->f, rows, n, cols, page_size, false);
		fputs("\nThe same in MiB:\n", d->f);
		text_block(d->f, rows, n, cols, page_size, true);
		return;
	}
	jw_arr_open(&d->w, key);
	for (i = 0; i < n; i++) {
		jw_obj_open(&d->w, NULL);
		jw_zone_members(&d->w, &rows[i], cols);
		jw_close(&d->w);
	}
	jw_close(&d->w);
}

