// SPDX-License-Identifier: MIT
/*
 * explain.c - the report every watermark command prints: header lines
 * saying where the numbers come from, then the zone table; and the JSON
 * header and reserve block that other commands share.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "explain.h"
#include "jsonw.h"

void explain_init(struct explain *ex)
{
	memset(ex, 0, sizeof(*ex));
	ex->mfk.rerun_kb = ex->mfk.thp_kb = ex->mfk.thp_uncapped_kb = -1;
}

const char *explain_kernel(const struct explain *ex, char *buf, size_t n)
{
	if (ex->kernel_label && *ex->kernel_label)
		snprintf(buf, n, "%s", ex->kernel_label);
	else
		snprintf(buf, n, "%u.%u", ex->profile->kver.major, ex->profile->kver.minor);
	return buf;
}

const char *explain_mfk(const struct wm_mfk *mfk, const struct wm_machine *m,
			char *buf, size_t n)
{
	uint64_t kbpp = (m->page_size ? m->page_size : 4096) / 1024;

	switch (mfk->rule) {
	case WM_MFK_USER:
		snprintf(buf, n, "%" PRId64 " KiB, as set", mfk->value);
		break;
	case WM_MFK_THP:
		snprintf(buf, n, "%" PRId64 " KiB: THP's recommendation, %" PRIu64 "-page pageblocks x %d zones x 11"
			 "%s (the boot sqrt rule gives %" PRId64 ")",
			 mfk->value, m->pageblock_pages, mfk->thp_zones,
			 mfk->thp_kb < mfk->thp_uncapped_kb ? ", capped at 5% of lowmem" : "",
			 mfk->sqrt_kb);
		break;
	case WM_MFK_SQRT_RERUN:
		snprintf(buf, n, "%" PRId64 " KiB: the sqrt rule re-run when THP is off (5.16+), "
			 "after the first pass gave %" PRId64 "", mfk->value, mfk->sqrt_kb);
		break;
	case WM_MFK_SQRT:
		snprintf(buf, n, "%" PRId64 " KiB: the boot sqrt rule, isqrt(%" PRIu64 " KiB x 16) = %" PRId64 "%s%s",
			 mfk->value, mfk->lowmem_pages * kbpp, mfk->sqrt_raw_kb,
			 mfk->sqrt_raw_kb != mfk->value ? ", clamped" : "",
			 mfk->thp_kb >= 0 ? " (THP's recommendation is not larger)" : "");
		break;
	}
	return buf;
}

struct zrow *explain_rows(const struct explain *ex)
{
	const struct wm_machine *m = ex->machine;
	struct zrow *rows = calloc(m->nzones ? m->nzones : 1, sizeof(*rows));
	size_t i;

	if (!rows)
		return NULL;
	for (i = 0; i < m->nzones; i++) {
		const struct wm_zone *z = &m->zones[i];

		zrow_from_model(&rows[i], z->node,
				ex->zone_names ? ex->zone_names[i] : wm_zone_type_name(z->type),
				z, &ex->wm[i], ex->profile);
		rows[i].nprot = 0;
		/* protection has one entry per zone of the node */
		for (size_t j = 0; j < m->nzones; j++)
			if (m->zones[j].node == z->node)
				rows[i].nprot++;
	}
	return rows;
}

const char *explain_geometry(const struct wm_geometry *g)
{
	if (!g)
		return "";
	if (g->page_size_from == WM_GEO_ASSUMED)
		return g->memtotal_seen ? " (assumed: MemTotal and the managed pages do not tell it)"
					: " (assumed: no meminfo to tell it from)";
	if (g->page_size_from == WM_GEO_MEMINFO)
		return " (MemTotal / managed pages)";
	return "";
}

void explain_doc_head(struct doc *d, const struct explain_head *h)
{
	const struct wm_machine *m = h->m;

	doc_str(d, "source", NULL, h->source);
	if (h->kernel)
		doc_str(d, "kernel", NULL, h->kernel);
	if (m) {
		doc_double(d, "page_size", NULL, m->page_size);
		if (h->geo && !h->page_size_only)
			doc_str(d, "page_size_source", NULL, wm_geo_from_name(h->geo->page_size_from));
		if (!h->page_size_only)
			doc_double(d, "pageblock_pages", NULL, (double)m->pageblock_pages);
		if (h->geo && !h->page_size_only)
			doc_str(d, "pageblock_source", NULL, wm_geo_from_name(h->geo->pageblock_from));
	}
	if (h->sysctl)
		report_doc_sysctl(d, "sysctl", h->sysctl);
}

static double reserve_mib(uint64_t pages, unsigned page_size)
{
	return (double)pages * page_size / 1048576.0;
}

void explain_reserve(struct doc *d, const struct wm_reserve *rv, unsigned page_size,
		     unsigned parts)
{
	int64_t kbpp = (int64_t)(page_size / 1024);

	doc_obj(d, "reserve");
	doc_double(d, "totalreserve_pages_now", NULL, (double)rv->total_now);
	doc_double(d, "totalreserve_pages_after", NULL, (double)rv->total_after);
	doc_text(d, "Reserved (totalreserve_pages): %.1f MiB now, %.1f MiB after (%+.1f MiB)\n",
		 reserve_mib(rv->total_now, page_size), reserve_mib(rv->total_after, page_size),
		 ((double)rv->total_after - (double)rv->total_now) * page_size / 1048576.0);
	if (parts & RESERVE_LOW_SUM) {
		doc_double(d, "low_sum_pages_now", NULL, (double)rv->low_now);
		doc_double(d, "low_sum_pages_after", NULL, (double)rv->low_after);
	}
	if (rv->have_meminfo) {
		doc_double(d, "mem_available_kb_now", NULL, (double)(rv->avail_now * kbpp));
		doc_double(d, "mem_available_kb_after", NULL, (double)(rv->avail_after * kbpp));
		if (parts & RESERVE_CHANGE)
			doc_double(d, "mem_available_change_kb", NULL,
				   (double)((rv->avail_after - rv->avail_now) * kbpp));
		doc_text(d, "MemAvailable: %" PRId64 " MiB now, %" PRId64 " MiB after (%+" PRId64 " MiB)\n",
			 rv->avail_now * kbpp / 1024, rv->avail_after * kbpp / 1024,
			 (rv->avail_after - rv->avail_now) * kbpp / 1024);
	} else {
		doc_null(d, "mem_available_kb_now");
		doc_null(d, "mem_available_kb_after");
		if (parts & RESERVE_CHANGE)
			doc_null(d, "mem_available_change_kb");
		doc_text(d, "MemAvailable: not computed (no proc/meminfo under the root)\n");
	}
	if (parts & RESERVE_HUGETLB) {
		doc_long_or_null(d, "hugetlb_kb", rv->hugetlb_kb < 0 ? RV_NONE : rv->hugetlb_kb);
		if (rv->hugetlb_kb >= 0)
			doc_text(d, "HugeTLB: %.1f MiB in the pool, counted in managed pages (so in wsf's "
				 "share) but never reclaimable\n", (double)rv->hugetlb_kb / 1024.0);
		else
			doc_text(d, "HugeTLB: unknown (no proc/meminfo under the root)\n");
	}
	doc_close(d);
}

/* The kernel, its page size and the sysctls the watermarks come from: text only. */
static void text_header(struct doc *d, const struct explain *ex)
{
	const struct wm_sysctl *s = ex->sysctl;
	const struct wm_profile *p = ex->profile;
	char kb[64], buf[256];
	int i;

	if (!doc_is_text(d))
		return;
	if (ex->text_note)
		doc_text(d, "%s\n", ex->text_note);
	doc_text(d, "Kernel %s rules, page size %u bytes%s\n", explain_kernel(ex, kb, sizeof(kb)),
		 ex->machine->page_size, explain_geometry(ex->geo));
	if (ex->mfk_known)
		doc_text(d, "min_free_kbytes %s\n", explain_mfk(&ex->mfk, ex->machine, buf, sizeof(buf)));
	else
		doc_text(d, "min_free_kbytes %" PRId64 " KiB\n", s->min_free_kbytes);
	if (p->wsf)
		doc_text(d, "watermark_scale_factor %" PRId64 " (the kernel accepts 1..%" PRId64 ")",
			 s->wsf, p->wsf_max);
	else
		doc_text(d, "no watermark_scale_factor before 4.6: low = min + share/4, high = min + share/2");
	if (s->have & WM_HAVE_BOOST)
		doc_text(d, ", watermark_boost_factor %" PRId64 "", s->boost_factor);
	if (s->have & WM_HAVE_EXTRA)
		doc_text(d, ", extra_free_kbytes %" PRId64 "", s->extra_free_kbytes);
	doc_text(d, "\nlowmem_reserve_ratio");
	for (i = 0; i < s->nlrr; i++)
		doc_text(d, " %" PRId64 "", s->lrr[i]);
	doc_text(d, "\n\n");
}

/*
 * "%-4d %-8s " of a row's node and zone (at most 32 bytes) into line;
 * return its length (under 64).
 */
/* Append the string literal s at line + k; return the new length. */
#define lit(line, k, s) (memcpy((line) + (k), s, sizeof(s) - 1), (k) + sizeof(s) - 1)

static size_t zone_lead(char *line, const struct zrow *r)
{
	size_t m = fmt_long(line, r->node), z = strlen(r->zone);

	while (m < 4)
		line[m++] = ' ';
	line[m++] = ' ';
	memcpy(line + m, r->zone, z);
	m += z;
	while (z++ < 8)
		line[m++] = ' ';
	line[m++] = ' ';
	return m;
}

/*
 * Protection, then what wsf does zone by zone: text only, written
 * straight to the stream (a large machine has thousands of zones).
 */
static void text_footer(struct doc *d, const struct explain *ex, const struct zrow *rows,
			size_t n)
{
	const struct wm_machine *m = ex->machine;
	const struct wm_profile *p = ex->profile;
	FILE *f = d->f;
	size_t i;
	int j;

	if (!doc_is_text(d))
		return;
	fputs("\nProtection, pages each zone keeps back from allocations that may use\n"
	      "the zone of each column (lowmem_reserve):\n", f);
	for (i = 0; i < n; i++) {
		/* "%-4d %-8s (%ld, %ld...)\n", without a format per line: large machines */
		char line[64 + 26 * WM_MAX_ZONES];
		size_t len;

		if (strlen(rows[i].zone) > 32) {	/* not a kernel name: printf */
			fprintf(f, "%-4d %-8s (", rows[i].node, rows[i].zone);
			for (j = 0; j < rows[i].nprot; j++)
				fprintf(f, "%s%" PRId64 "", j ? ", " : "", rows[i].protection[j]);
			fputs(")\n", f);
			continue;
		}
		len = zone_lead(line, &rows[i]);
		line[len++] = '(';
		for (j = 0; j < rows[i].nprot; j++) {
			if (j) {
				line[len++] = ',';
				line[len++] = ' ';
			}
			len += fmt_long(line + len, rows[i].protection[j]);
		}
		line[len++] = ')';
		line[len++] = '\n';
		fwrite_unlocked(line, 1, len, f);
	}
	if (!p->wsf || !ex->wm || !(ex->sysctl->have & WM_HAVE_WSF))
		return;
	fprintf(f, "\nwatermark_scale_factor %" PRId64 ", zone by zone:\n", ex->sysctl->wsf);
	for (i = 0; i < n; i++) {
		const struct wm_zone_wm *w = &ex->wm[i];

		if (rows[i].managed <= 0 && strlen(rows[i].zone) <= 32) {
			/* "%-4d %-8s empty\n": most zones of a large machine */
			char line[64 + 8];
			size_t k = zone_lead(line, &rows[i]);

			k = lit(line, k, "empty\n");
			fwrite_unlocked(line, 1, k, f);
		} else if (rows[i].managed <= 0) {
			fprintf(f, "%-4d %-8s empty\n", rows[i].node, rows[i].zone);
		} else if (ex->sysctl->wsf < w->wsf_floor) {
			fprintf(f, "%-4d %-8s no effect: the gap stays a quarter of the zone's share of "
				"min_free_kbytes; wsf starts to matter at %" PRId64 "%s\n",
				rows[i].node, rows[i].zone, w->wsf_floor,
				w->wsf_floor > p->wsf_max ? ", above the kernel's maximum" : "");
		} else if (w->gap < ((uint64_t)1 << 36) && strlen(rows[i].zone) <= 32) {
			/* "%-4d %-8s sets the gap: %lu pages (%.1f MiB); below %ld ..." */
			char line[160 + 24 * 3];
			size_t k = zone_lead(line, &rows[i]);

			k = lit(line, k, "sets the gap: ");
			k += fmt_long(line + k, (int64_t)w->gap);
			k = lit(line, k, " pages (");
			fmt_mib(line + k, 32, (int64_t)w->gap, m->page_size);
			k += strlen(line + k);
			k = lit(line, k, " MiB); below ");
			k += fmt_long(line + k, w->wsf_floor);
			k = lit(line, k, " it would have no effect\n");
			fwrite_unlocked(line, 1, k, f);
		} else {
			fprintf(f, "%-4d %-8s sets the gap: %" PRIu64 " pages (%.1f MiB); below %" PRId64 " it would have no effect\n",
				rows[i].node, rows[i].zone, w->gap,
				(double)w->gap * m->page_size / 1048576.0, w->wsf_floor);
		}
	}
}

int explain_print(const struct cli_ctx *ctx, const struct explain *ex)
{
	static struct doc doc;	/* the JSON writer's buffer: not on the stack */
	struct doc *d = &doc;
	struct zrow *own = NULL;
	const struct zrow *rows = ex->rows;
	size_t n = ex->rows ? ex->nrows : ex->machine->nzones;
	char kb[64];
	int rc = EXIT_OK;

	if (!rows) {
		own = explain_rows(ex);
		if (!own)
			return cli_err(EXIT_SYSTEM, ex->source, "out of memory");
		rows = own;
	}
	if (ctx->format == FMT_PROM) {
		report_prom(stdout, rows, n, ex->cols, ex->machine->page_size);
		report_prom_sysctl(stdout, ex->sysctl);
		free(own);
		return rc;
	}
	/* JSON is streamed: thousands of zones on large machines (jsonw.h) */
	doc_begin(d, ctx->format, stdout);
	explain_doc_head(d, &(struct explain_head){
		.source = ex->source, .kernel = explain_kernel(ex, kb, sizeof(kb)),
		.m = ex->machine, .geo = ex->geo, .sysctl = ex->sysctl });
	text_header(d, ex);
	if (ex->mfk_known) {
		doc_obj(d, "min_free_kbytes");
		doc_double(d, "value", NULL, (double)ex->mfk.value);
		doc_str(d, "rule", NULL, wm_mfk_rule_name(ex->mfk.rule));
		if (ex->mfk.rule != WM_MFK_USER) {
			doc_long_or_null(d, "sqrt", ex->mfk.sqrt_kb);
			doc_long_or_null(d, "sqrt_rerun", ex->mfk.rerun_kb);
			doc_long_or_null(d, "thp", ex->mfk.thp_kb);
		}
		doc_close(d);
	}
	if (ex->high_formula)
		doc_str(d, "high_formula", NULL, ex->high_formula);
	/* what the command adds: JSON has it before the zones, text after them */
	if (ex->more && !doc_is_text(d))
		ex->more(d, ex->more_arg);
	report_doc_zones(d, "zones", rows, n, ex->cols, ex->machine->page_size);
	text_footer(d, ex, rows, n);
	if (ex->more && doc_is_text(d))
		ex->more(d, ex->more_arg);
	/* a failed write is close_stdout()'s to report, as for printf */
	if (doc_end(d) && !ferror(stdout))
		rc = cli_err(EXIT_SYSTEM, "json", "nesting too deep");
	free(own);
	return rc;
}
