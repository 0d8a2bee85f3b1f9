// SPDX-License-Identifier: MIT
/*
 * rec_output.c - the report of `wmark recommend` in text and JSON: the
 * answer, its reasons, the zones before and after (recommend.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "explain.h"
#include "fmt.h"
#include "jsonw.h"
#include "recommend.h"
#include "report.h"

/* One zone field, a long of struct rzone, in MiB in the text table. */
#define RF(h, j, u, member, nd) \
	{ .header = h, .json = j, .unit = u, .off = offsetof(struct rzone, member), .need = nd }

static const struct fmt_field rfields[] = {
	RF("managed", "managed", FMT_PAGES, managed, 0),
	RF("used", "usable", FMT_BOOL, usable, RC_USABLE),
	RF("floor", "wsf_floor", FMT_WSF, wsf_floor, 0),
	RF("gap now", "gap_now", FMT_PAGES, gap_now, 0),
	RF("gap after", "gap_after", FMT_PAGES, gap_after, 0),
	RF("wake now", "low_now", FMT_PAGES, low_now, 0),
	RF("wake after", "low_after", FMT_PAGES, low_after, 0),
	RF("stop now", "high_now", FMT_PAGES, high_now, 0),
	RF("stop after", "high_after", FMT_PAGES, high_after, 0),
	RF("extra", "extra", FMT_PAGES, extra, RC_EXTRA),
	RF("wake target", "target_low", FMT_PAGES, target_low, RC_EXTRA),
	RF("needs wsf", "need_wsf", FMT_WSF, need_wsf, RC_EXTRA),
};

#define NRFIELDS (sizeof(rfields) / sizeof(rfields[0]))

const char *const rec_mode_names[] = {
	[M_NONE] = "none", [M_EXTRA] = "extra_free_kbytes", [M_BURST] = "burst",
	[M_SAMPLE] = "sample", [M_VMSTAT] = "vmstat", [M_REPLAY] = "replay",
	[M_TUNE] = "tune-log",
};

/* ---- output ----------------------------------------------------------- */

static unsigned rcols(const struct rec *r)
{
	switch (r->mode) {
	case M_EXTRA:
		return RC_EXTRA;
	case M_BURST:
	case M_SAMPLE:
	case M_VMSTAT:
	case M_REPLAY:
	case M_TUNE:
		return RC_USABLE;
	default:
		return 0;
	}
}

size_t rec_build_rows(const struct rec *r, struct rzone *rows)
{
	size_t i, k = 0;

	for (i = 0; i < r->s.st.m.nzones; i++) {
		int64_t zi = r->s.st.layout.printed[i];
		const struct zi_zone *z = zi >= 0 ? &r->s.st.zi.zones[zi] : NULL;
		const struct wm_predicted *a = &r->after[i];
		struct rzone *o = &rows[k];

		if (!z)
			continue;
		o->node = z->node;
		o->zone = z->name;
		o->managed = (int64_t)r->s.st.m.zones[i].managed;
		o->usable = r->usable[i];
		o->wsf_floor = r->s.st.m.zones[i].managed ? a->wm.wsf_floor : RV_NONE;
		o->gap_now = (int64_t)(z->low - z->min);
		o->gap_after = (int64_t)a->wm.gap;
		o->low_now = (int64_t)z->low;
		o->low_after = (int64_t)(a->wm.low + a->boost);
		o->high_now = (int64_t)z->high;
		o->high_after = (int64_t)(a->wm.high + a->boost);
		o->extra = r->efk ? (int64_t)r->efk[i].extra : RV_NONE;
		o->target_low = r->efk ? (int64_t)r->efk[i].target_low : RV_NONE;
		o->need_wsf = r->efk ? r->efk[i].need_wsf : RV_NONE;
		k++;
	}
	return k;
}

const char *rec_verdict(const struct rec *r)
{
	return wm_rec_verdict_name(wm_rec_final_verdict(r->measured, r->dec.verdict, &r->ans,
							r->now.wsf));
}

static void apply_line(const struct rec *r, char *buf, size_t n)
{
	if (r->mode == M_EXTRA && r->knob)
		snprintf(buf, n, "wmark apply --extra-free-kbytes %" PRId64 "", r->extra_kb);
	else
		snprintf(buf, n, "wmark apply --wsf %" PRId64 "%s", r->ans.wsf,
			 rec_boost_zero(r) ? " --boost-factor 0" : "");
}

static cJSON *json_measure(const struct rec *r)
{
	const struct wm_rec_measure *ms = &r->ms;
	unsigned ps = r->s.st.m.page_size;
	cJSON *o = cJSON_CreateObject(), *b;
	int c;

	if (r->mode == M_VMSTAT && r->seconds <= 0)
		cJSON_AddNullToObject(o, "seconds");
	else
		cJSON_AddNumberToObject(o, "seconds", ms->seconds);
	cJSON_AddNumberToObject(o, "samples", (double)ms->nsamples);
	cJSON_AddBoolToObject(o, "time_resolved", ms->time_resolved);
	for (c = 0; c < WM_REC_NCTR; c++) {
		if (ms->have & (1u << c))
			cJSON_AddItemToObject(o, wm_rec_ctrs[c].json, json_counter(ms->d[c]));
		else
			cJSON_AddNullToObject(o, wm_rec_ctrs[c].json);
	}
	if (ms->psi) {
		cJSON_AddNumberToObject(o, "psi_some_us", (double)ms->psi_some_us);
		cJSON_AddNumberToObject(o, "psi_full_us", (double)ms->psi_full_us);
	} else {
		cJSON_AddNullToObject(o, "psi_some_us");
		cJSON_AddNullToObject(o, "psi_full_us");
	}
	if (ms->time_resolved)
		cJSON_AddNumberToObject(o, "peak_alloc_mib_s",
					round(ms->peak_alloc_rate * ps / 1048576.0 * 10) / 10);
	else
		cJSON_AddNullToObject(o, "peak_alloc_mib_s");
	cJSON_AddNumberToObject(o, "bursts", (double)ms->nbursts);
	if (ms->nbursts && ms->time_resolved) {
		b = cJSON_AddObjectToObject(o, "worst_burst");
		cJSON_AddNumberToObject(b, "start_s", ms->worst.start);
		cJSON_AddNumberToObject(b, "seconds", ms->worst.seconds);
		cJSON_AddItemToObject(b, "pgalloc", json_counter(ms->worst.alloc));
		cJSON_AddItemToObject(b, "pgsteal_kswapd", json_counter(ms->worst.kswapd_steal));
		cJSON_AddItemToObject(b, "pgsteal_direct", json_counter(ms->worst.direct_steal));
		cJSON_AddItemToObject(b, "allocstall", json_counter(ms->worst.stalls));
		cJSON_AddItemToObject(b, "drawdown_pages", json_counter(ms->worst.drawdown));
		cJSON_AddNumberToObject(b, "peak_alloc_mib_s",
					round(ms->worst.peak_alloc_rate * ps / 1048576.0 * 10) / 10);
		cJSON_AddNumberToObject(b, "kswapd_mib_s",
					round(ms->worst.kswapd_rate * ps / 1048576.0 * 10) / 10);
	} else {
		cJSON_AddNullToObject(o, "worst_burst");
	}
	cJSON_AddItemToObject(o, "deficit_pages", json_counter(r->dec.deficit));
	cJSON_AddItemToObject(o, "kswapd_deficit_pages", json_counter(ms->kswapd_deficit));
	if (r->dec.refault_pct >= 0)
		cJSON_AddNumberToObject(o, "refault_pct", round(r->dec.refault_pct * 10) / 10);
	else
		cJSON_AddNullToObject(o, "refault_pct");
	return o;
}

static cJSON *json_boost(const struct rec *r)
{
	const struct wm_boost_evidence *ev = &r->bev;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "action", wm_rec_boost_action_name(r->bdec.action));
	json_add_long(o, "factor_now", (r->now.have & WM_HAVE_BOOST) ? r->now.boost_factor : RV_NONE);
	json_add_long(o, "factor_recommended", r->bdec.factor < 0 ? RV_NONE : r->bdec.factor);
	cJSON_AddNumberToObject(o, "readings", (double)ev->nsamples);
	cJSON_AddNumberToObject(o, "boosted_readings", (double)ev->boosted);
	cJSON_AddNumberToObject(o, "rises", (double)ev->rises);
	cJSON_AddBoolToObject(o, "hidden", ev->hidden);
	cJSON_AddNumberToObject(o, "odd_moves", (double)ev->odd_moves);
	cJSON_AddNumberToObject(o, "peak_pages", (double)r->bdec.headroom);
	cJSON_AddNumberToObject(o, "allowed_pages",
				(r->now.have & WM_HAVE_BOOST) ? (double)rec_boost_allowed(r) : 0);
	cJSON_AddNumberToObject(o, "kswapd_boost_runs", (double)ev->kswapd_boost_runs);
	cJSON_AddItemToObject(o, "boost_reclaimed_pages", json_counter(ev->boost_reclaimed));
	if (ev->refaults_counted)
		cJSON_AddItemToObject(o, "refaults_after_boost", json_counter(ev->boost_refaults));
	else
		cJSON_AddNullToObject(o, "refaults_after_boost");
	cJSON_AddItemToObject(o, "stalls", json_counter(ev->stalls));
	cJSON_AddItemToObject(o, "stalls_during_boost", json_counter(ev->stalls_boosted));
	if (ev->fallbacks_counted) {
		cJSON_AddItemToObject(o, "fallbacks", json_counter(ev->fallbacks));
		cJSON_AddNumberToObject(o, "fallback_intervals", (double)ev->fallback_intervals);
		cJSON_AddItemToObject(o, "fallback_peak", json_counter(ev->fallback_peak));
		cJSON_AddNullToObject(o, "fallbacks_why_not");
	} else {
		cJSON_AddNullToObject(o, "fallbacks");
		cJSON_AddNullToObject(o, "fallback_intervals");
		cJSON_AddNullToObject(o, "fallback_peak");
		if (r->fbc_why[0])
			cJSON_AddStringToObject(o, "fallbacks_why_not", r->fbc_why);
		else
			cJSON_AddNullToObject(o, "fallbacks_why_not");
	}
	cJSON_AddItemToObject(o, "gap_needed_pages", json_counter(r->bdec.need));
	return o;
}

static cJSON *json_script(const struct rec *r)
{
	const struct wm_rec_script *sc = &r->script;
	cJSON *o = cJSON_CreateObject(), *zs;
	size_t i;

	cJSON_AddNumberToObject(o, "wsf", (double)sc->result);
	cJSON_AddNumberToObject(o, "wsf_with_true_min", (double)sc->result_true);
	cJSON_AddNumberToObject(o, "base_wsf", (double)sc->base_wsf);
	cJSON_AddNumberToObject(o, "extra_pages", (double)sc->extra_pages);
	cJSON_AddNumberToObject(o, "vm_total_pages", (double)sc->vm_total);
	cJSON_AddNumberToObject(o, "delta", (double)sc->delta);
	cJSON_AddNumberToObject(o, "managed_lines", (double)sc->nzones);
	cJSON_AddNumberToObject(o, "min_lines", (double)sc->nmin);
	cJSON_AddBoolToObject(o, "misread_min", sc->misread);
	cJSON_AddBoolToObject(o, "kernel_accepts", sc->result >= 1 && sc->result <= r->s.st.kernel.prof.wsf_max);
	zs = cJSON_AddArrayToObject(o, "zones");
	for (i = 0; i < sc->nzones; i++) {
		const struct wm_rec_script_zone *z = &sc->z[i];
		cJSON *zo = cJSON_CreateObject();
		char br[2] = { z->branch, 0 };

		cJSON_AddNumberToObject(zo, "managed", (double)z->managed);
		json_add_long(zo, "min_read", z->min_read < 0 ? RV_NONE : z->min_read);
		json_add_long(zo, "min_true", z->min_true < 0 ? RV_NONE : z->min_true);
		if (z->branch == '-') {
			cJSON_AddNullToObject(zo, "case");
		} else {
			cJSON_AddStringToObject(zo, "case", br);
			cJSON_AddNumberToObject(zo, "base_margin", (double)z->base_margin);
			cJSON_AddNumberToObject(zo, "calc_margin", (double)z->calc_margin);
		}
		cJSON_AddBoolToObject(zo, "bc_divide_by_zero", z->div_zero);
		json_add_long(zo, "wsf", z->result < 0 ? RV_NONE : z->result);
		cJSON_AddItemToArray(zs, zo);
	}
	return o;
}

int rec_print_json(struct rec *r, const struct rzone *rows, size_t nrows)
{
	cJSON *doc, *o, *a, *zs;
	unsigned ps = r->s.st.m.page_size;
	char line[128];
	size_t i;
	int j;

	doc = explain_json_head(&(struct explain_head){
		.source = r->s.live ? "live" : "capture",
		.kernel = r->s.st.kernel.osrelease[0] ? r->s.st.kernel.osrelease : "",
		.m = &r->s.st.m, .page_size_only = true });
	cJSON_AddStringToObject(doc, "mode", rec_mode_names[r->mode]);
	o = cJSON_AddObjectToObject(doc, "recommended");
	if (r->mode == M_EXTRA && r->knob)
		cJSON_AddNumberToObject(o, "extra_free_kbytes", (double)r->extra_kb);
	else
		cJSON_AddNumberToObject(o, "watermark_scale_factor", (double)r->ans.wsf);
	if (rec_boost_zero(r))
		cJSON_AddNumberToObject(o, "watermark_boost_factor", 0);
	a = cJSON_AddArrayToObject(doc, "reasons");
	for (j = 0; j < r->nreasons; j++)
		cJSON_AddItemToArray(a, cJSON_CreateString(r->reasons[j]));
	a = cJSON_AddArrayToObject(doc, "warnings");
	for (j = 0; j < r->nwarnings; j++)
		cJSON_AddItemToArray(a, cJSON_CreateString(r->warnings[j]));
	cJSON_AddStringToObject(doc, "verdict", rec_verdict(r));
	o = cJSON_AddObjectToObject(doc, "wsf");
	cJSON_AddNumberToObject(o, "now", (double)r->now.wsf);
	cJSON_AddNumberToObject(o, "recommended", (double)r->ans.wsf);
	json_add_long(o, "wanted", r->ans.wanted < 0 ? RV_NONE : r->ans.wanted);
	cJSON_AddBoolToObject(o, "capped", r->ans.capped);
	cJSON_AddNumberToObject(o, "kernel_min", 1);
	cJSON_AddNumberToObject(o, "kernel_max", (double)r->s.st.kernel.prof.wsf_max);
	json_add_long(o, "floor_first", r->ans.floor_first < 0 ? RV_NONE : r->ans.floor_first);
	json_add_long(o, "floor_all", r->ans.floor_all < 0 ? RV_NONE : r->ans.floor_all);
	cJSON_AddItemToObject(doc, "sysctl", report_json_sysctl(&r->s.st.sysctl));
	o = cJSON_AddObjectToObject(doc, "gaps");
	cJSON_AddNumberToObject(o, "pages_now", (double)r->ans.gap_now);
	cJSON_AddNumberToObject(o, "pages_after", (double)r->ans.gap_after);
	cJSON_AddItemToObject(o, "pages_needed", json_counter(r->ans.gap_needed));
	cJSON_AddNumberToObject(o, "pages_at_wsf_1", (double)r->ans.gap_floor);
	cJSON_AddStringToObject(o, "zones", r->mode == M_EXTRA ? "all" : "usable");
	zs = cJSON_AddArrayToObject(doc, "zones");
	for (i = 0; i < nrows; i++) {
		cJSON *zo = cJSON_CreateObject();

		cJSON_AddNumberToObject(zo, "node", rows[i].node);
		cJSON_AddStringToObject(zo, "zone", rows[i].zone);
		fmt_json_fields(zo, rfields, NRFIELDS, rcols(r), &rows[i]);
		cJSON_AddItemToArray(zs, zo);
	}
	cJSON_AddItemToObject(doc, "reserve", explain_json_reserve(&r->rv, ps,
								 RESERVE_CHANGE | RESERVE_HUGETLB));
	if (r->mode == M_EXTRA) {
		o = cJSON_AddObjectToObject(doc, "extra_free_kbytes");
		cJSON_AddNumberToObject(o, "kbytes", (double)r->extra_kb);
		cJSON_AddBoolToObject(o, "kernel_has_knob", r->knob);
		json_add_long(o, "exact_wsf", r->ans.wanted < 0 ? RV_NONE : r->ans.wanted);
		if (r->script_ok)
			cJSON_AddItemToObject(o, "script", json_script(r));
		else
			cJSON_AddNullToObject(o, "script");
	}
	if (r->mode == M_BURST) {
		o = cJSON_AddObjectToObject(doc, "burst");
		cJSON_AddItemToObject(o, "bytes", json_counter(r->burst_bytes));
		cJSON_AddItemToObject(o, "pages", json_counter(r->ans.gap_needed));
	}
	if (r->measured)
		cJSON_AddItemToObject(doc, "measurements", json_measure(r));
	if (r->bmeasured)
		cJSON_AddItemToObject(doc, "boost", json_boost(r));
	apply_line(r, line, sizeof(line));
	cJSON_AddStringToObject(doc, "apply", line);
	return report_json_print(doc);
}

void rec_print_text(struct rec *r, const struct rzone *rows, size_t nrows)
{
	unsigned ps = r->s.st.m.page_size;
	char buf[32], line[128];
	int width[NRFIELDS];
	size_t i, k;
	int j;

	if (r->mode == M_EXTRA && r->knob)
		printf("Recommendation: extra_free_kbytes %" PRId64 " (this kernel has the knob); "
		       "watermark_scale_factor %" PRId64 " is the equivalent\n", r->extra_kb, r->ans.wsf);
	else
		printf("Recommendation: watermark_scale_factor %" PRId64 "%s (%s; today %" PRId64 "; the kernel "
		       "accepts 1..%" PRId64 ")\n", r->ans.wsf,
		       rec_boost_zero(r) ? " and watermark_boost_factor 0" : "", rec_verdict(r),
		       r->now.wsf, r->s.st.kernel.prof.wsf_max);
	for (j = 0; j < r->nwarnings; j++)
		printf("Warning: %s\n", r->warnings[j]);
	printf("Kernel %s rules, min_free_kbytes %" PRId64 ".\n",
	       r->s.st.kernel.osrelease[0] ? r->s.st.kernel.osrelease : "(default)", r->now.min_free_kbytes);
	fputs("\nWhy:\n", stdout);
	for (j = 0; j < r->nreasons; j++)
		printf("  - %s\n", r->reasons[j]);

	if (r->measured) {
		const struct wm_rec_measure *ms = &r->ms;

		char per[64];

		printf("\nMeasured %s (%zu readings%s):\n", rec_period(r, per, sizeof(per)),
		       ms->nsamples, ms->time_resolved ? "" : ", no time resolution");
		for (k = 0; k < WM_REC_NCTR; k++) {
			if (!(ms->have & (1u << k)))
				snprintf(buf, sizeof(buf), "-");
			else
				snprintf(buf, sizeof(buf), "%s%llu", wm_rec_ctrs[k].level ? "" : "+",
					 (unsigned long long)ms->d[k]);
			printf("  %-30s %14s  %s\n", wm_rec_ctrs[k].json, buf, wm_rec_ctrs[k].what);
		}
		if (ms->psi)
			printf("  %-30s %14.3f  seconds some / %.3f full\n", "psi_memory",
			       (double)ms->psi_some_us / 1e6, (double)ms->psi_full_us / 1e6);
		if (ms->time_resolved)
			printf("  %-30s %14.1f  MiB/s (readings at most %.0f ms apart)\n", "peak_alloc",
			       ms->peak_alloc_rate * ps / 1048576.0, ms->interval * 1000);
	}

	printf("\nZones (MiB; wake = low, kswapd starts; stop = high, kswapd sleeps; floor = "
	       "smallest wsf that moves the gap):\n");
	fmt_widths(rfields, NRFIELDS, rows, sizeof(*rows), nrows, ps, width);
	printf("%-4s %-8s", "node", "zone");
	fmt_text_header(stdout, rfields, NRFIELDS, width, rcols(r), ps);
	putchar('\n');
	for (i = 0; i < nrows; i++) {
		printf("%-4d %-8s", rows[i].node, rows[i].zone);
		fmt_text_cells(stdout, rfields, NRFIELDS, width, rcols(r), ps, &rows[i]);
		putchar('\n');
	}

	printf("\nGaps summed over %s zones: %.1f MiB today, %.1f MiB after",
	       r->mode == M_EXTRA ? "all" : "the usable", rec_mib(r->ans.gap_now, ps),
	       rec_mib(r->ans.gap_after, ps));
	if (r->mode != M_EXTRA && r->ans.gap_needed)
		printf(", %.1f MiB needed", rec_mib(r->ans.gap_needed, ps));
	printf(" (%.1f MiB at wsf 1).\n", rec_mib(r->ans.gap_floor, ps));
	explain_text_reserve(stdout, &r->rv, ps, RESERVE_HUGETLB);
	apply_line(r, line, sizeof(line));
	printf("Apply with: %s\n", line);
}
