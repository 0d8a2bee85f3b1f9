// SPDX-License-Identifier: MIT
/*
 * report.c - the zone field table and its three printers.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

enum unit { U_PAGES, U_COUNT, U_WSF };

struct field {
	const char *header;	/* text column header */
	const char *json;	/* JSON key */
	const char *prom;	/* Prometheus family, NULL if not exported */
	const char *help;
	enum unit unit;
	size_t off;		/* offset of a long in struct zrow */
	unsigned need;		/* COL_* bits all required, 0 = always */
	bool mib;		/* also shown in the MiB table */
};

#define F(h, j, pr, help, u, member, need, mib) \
	{ h, j, pr, help, u, offsetof(struct zrow, member), need, mib }

static const struct field fields[] = {
	F("managed", "managed", "managed_pages", "Pages the buddy allocator manages in the zone",
	  U_PAGES, managed, 0, true),
	F("present", "present", "present_pages", "Physical pages present in the zone",
	  U_PAGES, present, COL_SIZES, false),
	F("spanned", "spanned", "spanned_pages", "Pages the zone spans, holes included",
	  U_PAGES, spanned, COL_SIZES, false),
	F("free", "free", "free_pages", "Free pages in the zone",
	  U_PAGES, free, COL_LIVE, true),
	F("boost", "boost", "boost_pages", "Current watermark boost",
	  U_PAGES, boost, COL_BOOST, false),
	F("min", "min", "min_pages", "Min watermark: below it only atomic and reclaim allocations succeed",
	  U_PAGES, min, 0, true),
	F("low", "low", "low_pages", "Low watermark: kswapd wakes below it",
	  U_PAGES, low, 0, true),
	F("high", "high", "high_pages", "High watermark: kswapd sleeps again above it",
	  U_PAGES, high, COL_DEFAULT, true),
	F("promo", "promo", "promo_pages", "Promo watermark (NUMA tiering, 5.18+)",
	  U_PAGES, promo, COL_DEFAULT | COL_PROMO, false),
	F("gap", "gap", "gap_pages", "Distance min->low (= low->high) from min_free_kbytes and watermark_scale_factor",
	  U_PAGES, gap, 0, true),
	F("high_sqrt", "high_sqrt", "high_sqrt_pages", "High watermark under the 2018 RFC sqrt-clamped formula",
	  U_PAGES, high_sqrt, COL_SQRT, true),
	F("gap_sqrt", "gap_sqrt", "gap_sqrt_pages", "Distance low->high under the 2018 RFC formula",
	  U_PAGES, gap_sqrt, COL_SQRT, true),
	F("wsf_floor", "wsf_floor", "wsf_floor", "Smallest watermark_scale_factor that changes the gap",
	  U_WSF, wsf_floor, 0, false),
	F("wsf_eff", "wsf_effective", "wsf_effective", "The largest watermark_scale_factor whose term fits in the gap: the scale factor the gap amounts to",
	  U_WSF, wsf_effective, 0, false),
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static long fval(const struct zrow *r, const struct field *f)
{
	return *(const long *)((const char *)r + f->off);
}

static bool wanted(const struct field *f, unsigned cols)
{
	return (f->need & cols) == f->need;
}

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

static long opt(const struct zi_zone *z, unsigned flag, unsigned long v)
{
	return (z->flags & flag) ? (long)v : RV_NONE;
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
	long boost = p->boost ? (long)z->boost : 0;
	int i;

	memset(r, 0, sizeof(*r));
	r->node = node;
	r->zone = zone;
	r->managed = (long)z->managed;
	r->present = (long)z->present;
	r->spanned = RV_NONE;
	r->free = RV_NONE;
	r->boost = boost;
	/* zoneinfo prints _watermark[] + watermark_boost (5.0+). */
	r->min = (long)w->min + boost;
	r->low = (long)w->low + boost;
	r->high = (long)w->high + boost;
	r->promo = p->promo ? (long)w->promo + boost : RV_NONE;
	r->gap = (long)w->gap;
	r->high_sqrt = (long)w->high_sqrt + boost;
	r->gap_sqrt = (long)w->gap_sqrt;
	r->wsf_floor = w->wsf_floor;
	r->wsf_effective = w->wsf_effective;
	r->nprot = WM_MAX_ZONES;
	for (i = 0; i < WM_MAX_ZONES; i++)
		r->protection[i] = w->protection[i];
	r->state = NULL;
}

const char *fmt_mib(char *buf, size_t n, long pages, unsigned page_size)
{
	if (pages == RV_NONE)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.1f", (double)pages * page_size / (1024.0 * 1024.0));
	return buf;
}

static void cell(char *buf, size_t n, const struct field *f, long v,
		 bool in_mib, unsigned page_size)
{
	if (v == RV_NONE || (f->unit == U_WSF && v < 0))
		snprintf(buf, n, "-");
	else if (in_mib && f->unit == U_PAGES)
		fmt_mib(buf, n, v, page_size);
	else
		snprintf(buf, n, "%ld", v);
}

static void text_block(FILE *f, const struct zrow *rows, size_t n,
		       unsigned cols, unsigned page_size, bool in_mib)
{
	int width[NFIELDS];
	char buf[32];
	size_t i, k;

	for (k = 0; k < NFIELDS; k++) {
		width[k] = (int)strlen(fields[k].header);
		for (i = 0; i < n; i++) {
			cell(buf, sizeof(buf), &fields[k], fval(&rows[i], &fields[k]),
			     in_mib, page_size);
			if ((int)strlen(buf) > width[k])
				width[k] = (int)strlen(buf);
		}
	}
	fprintf(f, "%-4s %-8s", "node", "zone");
	for (k = 0; k < NFIELDS; k++)
		if (wanted(&fields[k], cols) && (!in_mib || fields[k].mib))
			fprintf(f, " %*s", width[k], fields[k].header);
	if (!in_mib && (cols & COL_LIVE))
		fputs("  free stands", f);
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		fprintf(f, "%-4d %-8s", rows[i].node, rows[i].zone);
		for (k = 0; k < NFIELDS; k++) {
			if (!wanted(&fields[k], cols) || (in_mib && !fields[k].mib))
				continue;
			cell(buf, sizeof(buf), &fields[k], fval(&rows[i], &fields[k]),
			     in_mib, page_size);
			fprintf(f, " %*s", width[k], buf);
		}
		if (!in_mib && (cols & COL_LIVE) && rows[i].state)
			fprintf(f, "  %s", rows[i].state);
		fputc('\n', f);
	}
}

void report_text_table(FILE *f, const struct zrow *rows, size_t n,
		       unsigned cols, unsigned page_size)
{
	fputs("Watermarks in pages:\n", f);
	text_block(f, rows, n, cols, page_size, false);
	fputs("\nThe same in MiB:\n", f);
	text_block(f, rows, n, cols, page_size, true);
}

cJSON *json_long(long v)
{
	char b[24];

	/* a double holds every integer below 2^53; past that, the digits */
	if (v > -(1L << 53) && v < (1L << 53))
		return cJSON_CreateNumber((double)v);
	snprintf(b, sizeof(b), "%ld", v);
	return cJSON_CreateRaw(b);
}

cJSON *json_counter(uint64_t v)
{
	char b[24];

	if (v < (1ull << 53))
		return cJSON_CreateNumber((double)v);
	snprintf(b, sizeof(b), "%llu", (unsigned long long)v);
	return cJSON_CreateString(b);
}

void json_add_long(cJSON *o, const char *key, long v)
{
	if (v == RV_NONE)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddItemToObject(o, key, json_long(v));
}

cJSON *report_json_zones(const struct zrow *rows, size_t n, unsigned cols)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i, k;

	for (i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject(), *prot;
		int j;

		cJSON_AddNumberToObject(o, "node", rows[i].node);
		cJSON_AddStringToObject(o, "zone", rows[i].zone);
		for (k = 0; k < NFIELDS; k++) {
			const struct field *fd = &fields[k];
			long v = fval(&rows[i], fd);

			/* promo is null, not absent, on kernels without it */
			if (!wanted(fd, cols | COL_PROMO))
				continue;
			if (fd->unit == U_WSF && v < 0)
				v = RV_NONE;
			json_add_long(o, fd->json, v);
		}
		prot = cJSON_AddArrayToObject(o, "protection");
		for (j = 0; j < rows[i].nprot; j++)
			cJSON_AddItemToArray(prot, json_long(rows[i].protection[j]));
		if ((cols & COL_LIVE) && rows[i].state)
			cJSON_AddStringToObject(o, "state", rows[i].state);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

void report_prom(FILE *f, const struct zrow *rows, size_t n, unsigned cols,
		 unsigned page_size)
{
	size_t i, k;

	for (k = 0; k < NFIELDS; k++) {
		const struct field *fd = &fields[k];

		if (!fd->prom || !wanted(fd, cols))
			continue;
		fprintf(f, "# HELP wmark_zone_%s %s.\n", fd->prom, fd->help);
		fprintf(f, "# TYPE wmark_zone_%s gauge\n", fd->prom);
		for (i = 0; i < n; i++) {
			long v = fval(&rows[i], fd);

			if (v == RV_NONE || (fd->unit == U_WSF && v < 0))
				continue;
			fprintf(f, "wmark_zone_%s{node=\"%d\",zone=\"%s\"} %ld\n",
				fd->prom, rows[i].node, rows[i].zone, v);
		}
	}
	fputs("# HELP wmark_page_size_bytes Page size the page counts are in.\n"
	      "# TYPE wmark_page_size_bytes gauge\n", f);
	fprintf(f, "wmark_page_size_bytes %u\n", page_size);
}

cJSON *report_json_sysctl(const struct wm_sysctl *s)
{
	cJSON *o = cJSON_CreateObject(), *a;
	int i;

	json_add_long(o, "min_free_kbytes", s->have & WM_HAVE_MFK ? s->min_free_kbytes : RV_NONE);
	json_add_long(o, "watermark_scale_factor", s->have & WM_HAVE_WSF ? s->wsf : RV_NONE);
	json_add_long(o, "watermark_boost_factor",
		      s->have & WM_HAVE_BOOST ? s->boost_factor : RV_NONE);
	if ((s->have & WM_HAVE_LRR) && s->nlrr > 0) {
		a = cJSON_AddArrayToObject(o, "lowmem_reserve_ratio");
		for (i = 0; i < s->nlrr; i++)
			cJSON_AddItemToArray(a, cJSON_CreateNumber((double)s->lrr[i]));
	} else {
		cJSON_AddNullToObject(o, "lowmem_reserve_ratio");
	}
	json_add_long(o, "extra_free_kbytes",
		      s->have & WM_HAVE_EXTRA ? s->extra_free_kbytes : RV_NONE);
	return o;
}

int report_json_print(cJSON *doc)
{
	char *text = cJSON_Print(doc);

	cJSON_Delete(doc);
	if (!text)
		return cli_err(EXIT_SYSTEM, "json", "out of memory");
	puts(text);
	free(text);
	return EXIT_OK;
}
