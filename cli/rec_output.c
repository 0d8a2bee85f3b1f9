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

#include "doc.h"
#include "explain.h"
#include "fmt.h"
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

static void doc_measure(const struct rec *r, struct doc *d)
{
	const struct wm_rec_measure *ms = &r->ms;
	unsigned ps = r->s.st.m.page_size;
	int c;

	doc_obj(d, "measurements");

	if (r->mode == M_VMSTAT && r->seconds <= 0)
		doc_null(d, "seconds");
	else
		doc_double(d, "seconds", NULL, ms->seconds);
	doc_double(d, "samples", NULL, (double)ms->nsamples);
	doc_bool(d, "time_resolved", NULL, ms->time_resolved);
	for (c = 0; c < WM_REC_NCTR; c++) {
		if (ms->have & (1u << c))
			doc_u64(d, wm_rec_ctrs[c].json, NULL, ms->d[c]);
		else
			doc_null(d, wm_rec_ctrs[c].json);
	}
	if (ms->psi) {
		doc_double(d, "psi_some_us", NULL, (double)ms->psi_some_us);
		doc_double(d, "psi_full_us", NULL, (double)ms->psi_full_us);
	} else {
		doc_null(d, "psi_some_us");
		doc_null(d, "psi_full_us");
	}
	if (ms->time_resolved)
		doc_double(d, "peak_alloc_mib_s", NULL, round(ms->peak_alloc_rate * ps / 1048576.0 * 10) / 10);
	else
		doc_null(d, "peak_alloc_mib_s");
	doc_double(d, "bursts", NULL, (double)ms->nbursts);
	if (ms->nbursts && ms->time_resolved) {
		doc_obj(d, "worst_burst");
		doc_double(d, "start_s", NULL, ms->worst.start);
		doc_double(d, "seconds", NULL, ms->worst.seconds);
		doc_u64(d, "pgalloc", NULL, ms->worst.alloc);
		doc_u64(d, "pgsteal_kswapd", NULL, ms->worst.kswapd_steal);
		doc_u64(d, "pgsteal_direct", NULL, ms->worst.direct_steal);
		doc_u64(d, "allocstall", NULL, ms->worst.stalls);
		doc_u64(d, "drawdown_pages", NULL, ms->worst.drawdown);
		doc_double(d, "peak_alloc_mib_s", NULL, round(ms->worst.peak_alloc_rate * ps / 1048576.0 * 10) / 10);
		doc_double(d, "kswapd_mib_s", NULL, round(ms->worst.kswapd_rate * ps / 1048576.0 * 10) / 10);
		doc_close(d);
	} else {
		doc_null(d, "worst_burst");
	}
	doc_u64(d, "deficit_pages", NULL, r->dec.deficit);
	doc_u64(d, "kswapd_deficit_pages", NULL, ms->kswapd_deficit);
	if (r->dec.refault_pct >= 0)
		doc_double(d, "refault_pct", NULL, round(r->dec.refault_pct * 10) / 10);
	else
		doc_null(d, "refault_pct");
	doc_close(d);
}

static void doc_boost(const struct rec *r, struct doc *d)
{
	const struct wm_boost_evidence *ev = &r->bev;

	doc_obj(d, "boost");
	doc_str(d, "action", NULL, wm_rec_boost_action_name(r->bdec.action));
	doc_long_or_null(d, "factor_now", (r->now.have & WM_HAVE_BOOST) ? r->now.boost_factor : RV_NONE);
	doc_long_or_null(d, "factor_recommended", r->bdec.factor < 0 ? RV_NONE : r->bdec.factor);
	doc_double(d, "readings", NULL, (double)ev->nsamples);
	doc_double(d, "boosted_readings", NULL, (double)ev->boosted);
	doc_double(d, "rises", NULL, (double)ev->rises);
	doc_bool(d, "hidden", NULL, ev->hidden);
	doc_double(d, "odd_moves", NULL, (double)ev->odd_moves);
	doc_double(d, "peak_pages", NULL, (double)r->bdec.headroom);
	doc_double(d, "allowed_pages", NULL, (r->now.have & WM_HAVE_BOOST) ? (double)rec_boost_allowed(r) : 0);
	doc_double(d, "kswapd_boost_runs", NULL, (double)ev->kswapd_boost_runs);
	doc_u64(d, "boost_reclaimed_pages", NULL, ev->boost_reclaimed);
	if (ev->refaults_counted)
		doc_u64(d, "refaults_after_boost", NULL, ev->boost_refaults);
	else
		doc_null(d, "refaults_after_boost");
	doc_u64(d, "stalls", NULL, ev->stalls);
	doc_u64(d, "stalls_during_boost", NULL, ev->stalls_boosted);
	if (ev->fallbacks_counted) {
		doc_u64(d, "fallbacks", NULL, ev->fallbacks);
		doc_double(d, "fallback_intervals", NULL, (double)ev->fallback_intervals);
		doc_u64(d, "fallback_peak", NULL, ev->fallback_peak);
		doc_null(d, "fallbacks_why_not");
	} else {
		doc_null(d, "fallbacks");
		doc_null(d, "fallback_intervals");
		doc_null(d, "fallback_peak");
		if (r->fbc_why[0])
			doc_str(d, "fallbacks_why_not", NULL, r->fbc_why);
		else
			doc_null(d, "fallbacks_why_not");
	}
	doc_u64(d, "gap_needed_pages", NULL, r->bdec.need);
	doc_close(d);
}

static void doc_script(const struct rec *r, struct doc *d)
{
	const struct wm_rec_script *sc = &r->script;
	size_t i;

	doc_obj(d, "script");
	doc_double(d, "wsf", NULL, (double)sc->result);
	doc_double(d, "wsf_with_true_min", NULL, (double)sc->result_true);
	doc_double(d, "base_wsf", NULL, (double)sc->base_wsf);
	doc_double(d, "extra_pages", NULL, (double)sc->extra_pages);
	doc_double(d, "vm_total_pages", NULL, (double)sc->vm_total);
	doc_double(d, "delta", NULL, (double)sc->delta);
	doc_double(d, "managed_lines", NULL, (double)sc->nzones);
	doc_double(d, "min_lines", NULL, (double)sc->nmin);
	doc_bool(d, "misread_min", NULL, sc->misread);
	doc_bool(d, "kernel_accepts", NULL, sc->result >= 1 && sc->result <= r->s.st.kernel.prof.wsf_max);
	doc_arr(d, "zones");
	for (i = 0; i < sc->nzones; i++) {
		const struct wm_rec_script_zone *z = &sc->z[i];
		char br[2] = { z->branch, 0 };

		doc_obj(d, NULL);
		doc_double(d, "managed", NULL, (double)z->managed);
		doc_long_or_null(d, "min_read", z->min_read < 0 ? RV_NONE : z->min_read);
		doc_long_or_null(d, "min_true", z->min_true < 0 ? RV_NONE : z->min_true);
		if (z->branch == '-') {
			doc_null(d, "case");
		} else {
			doc_str(d, "case", NULL, br);
			doc_double(d, "base_margin", NULL, (double)z->base_margin);
			doc_double(d, "calc_margin", NULL, (double)z->calc_margin);
		}
		doc_bool(d, "bc_divide_by_zero", NULL, z->div_zero);
		doc_long_or_null(d, "wsf", z->result < 0 ? RV_NONE : z->result);
		doc_close(d);
	}
	doc_close(d);
	doc_close(d);
}

/* What recommend measured, as text lines (JSON has it as "measurements", doc_measure). */
static void text_measure(const struct rec *r, struct doc *d)
{
	const struct wm_rec_measure *ms = &r->ms;
	unsigned ps = r->s.st.m.page_size;
	char buf[32], per[64];
	size_t k;

	doc_text(d, "\nMeasured %s (%zu readings%s):\n", rec_period(r, per, sizeof(per)),
		 ms->nsamples, ms->time_resolved ? "" : ", no time resolution");
	for (k = 0; k < WM_REC_NCTR; k++) {
		if (!(ms->have & (1u << k)))
			snprintf(buf, sizeof(buf), "-");
		else
			snprintf(buf, sizeof(buf), "%s%llu", wm_rec_ctrs[k].level ? "" : "+",
				 (unsigned long long)ms->d[k]);
		doc_text(d, "  %-30s %14s  %s\n", wm_rec_ctrs[k].json, buf, wm_rec_ctrs[k].what);
	}
	if (ms->psi)
		doc_text(d, "  %-30s %14.3f  seconds some / %.3f full\n", "psi_memory",
			 (double)ms->psi_some_us / 1e6, (double)ms->psi_full_us / 1e6);
	if (ms->time_resolved)
		doc_text(d, "  %-30s %14.1f  MiB/s (readings at most %.0f ms apart)\n", "peak_alloc",
			 ms->peak_alloc_rate * ps / 1048576.0, ms->interval * 1000);
}

int rec_print(struct rec *r, const struct rzone *rows, size_t nrows)
{
	static struct doc doc;		/* the JSON writer's buffer: not on the stack */
	struct doc *d = &doc;
	unsigned ps = r->s.st.m.page_size;
	int width[NRFIELDS];
	char line[128];
	size_t i;
	int j;

	doc_begin(d, r->ctx->format, stdout);
	explain_doc_head(d, &(struct explain_head){
		.source = r->s.live ? "live" : "capture",
		.kernel = r->s.st.kernel.osrelease[0] ? r->s.st.kernel.osrelease : "",
		.m = &r->s.st.m, .page_size_only = true });
	doc_str(d, "mode", NULL, rec_mode_names[r->mode]);
	doc_obj(d, "recommended");
	if (r->mode == M_EXTRA && r->knob) {
		doc_double(d, "extra_free_kbytes", NULL, (double)r->extra_kb);
		doc_text(d, "Recommendation: extra_free_kbytes %" PRId64 " (this kernel has the knob); "
			 "watermark_scale_factor %" PRId64 " is the equivalent\n", r->extra_kb, r->ans.wsf);
	} else {
		doc_double(d, "watermark_scale_factor", NULL, (double)r->ans.wsf);
		doc_text(d, "Recommendation: watermark_scale_factor %" PRId64 "%s (%s; today %" PRId64
			 "; the kernel accepts 1..%" PRId64 ")\n", r->ans.wsf,
			 rec_boost_zero(r) ? " and watermark_boost_factor 0" : "", rec_verdict(r),
			 r->now.wsf, r->s.st.kernel.prof.wsf_max);
	}
	if (rec_boost_zero(r))
		doc_double(d, "watermark_boost_factor", NULL, 0);
	doc_close(d);
	for (j = 0; j < r->nwarnings; j++)
		doc_text(d, "Warning: %s\n", r->warnings[j]);
	doc_text(d, "Kernel %s rules, min_free_kbytes %" PRId64 ".\n\nWhy:\n",
		 r->s.st.kernel.osrelease[0] ? r->s.st.kernel.osrelease : "(default)",
		 r->now.min_free_kbytes);
	doc_arr(d, "reasons");
	for (j = 0; j < r->nreasons; j++)
		doc_item_str(d, "  - %s\n", r->reasons[j]);
	doc_close(d);
	if (r->measured)
		text_measure(r, d);
	doc_arr(d, "warnings");
	for (j = 0; j < r->nwarnings; j++)
		doc_item_str(d, NULL, r->warnings[j]);
	doc_close(d);
	doc_str(d, "verdict", NULL, rec_verdict(r));
	doc_obj(d, "wsf");
	doc_double(d, "now", NULL, (double)r->now.wsf);
	doc_double(d, "recommended", NULL, (double)r->ans.wsf);
	doc_long_or_null(d, "wanted", r->ans.wanted < 0 ? RV_NONE : r->ans.wanted);
	doc_bool(d, "capped", NULL, r->ans.capped);
	doc_double(d, "kernel_min", NULL, 1);
	doc_double(d, "kernel_max", NULL, (double)r->s.st.kernel.prof.wsf_max);
	doc_long_or_null(d, "floor_first", r->ans.floor_first < 0 ? RV_NONE : r->ans.floor_first);
	doc_long_or_null(d, "floor_all", r->ans.floor_all < 0 ? RV_NONE : r->ans.floor_all);
	doc_close(d);
	report_doc_sysctl(d, "sysctl", &r->s.st.sysctl);
	doc_obj(d, "gaps");
	doc_double(d, "pages_now", NULL, (double)r->ans.gap_now);
	doc_double(d, "pages_after", NULL, (double)r->ans.gap_after);
	doc_u64(d, "pages_needed", NULL, r->ans.gap_needed);
	doc_double(d, "pages_at_wsf_1", NULL, (double)r->ans.gap_floor);
	doc_str(d, "zones", NULL, r->mode == M_EXTRA ? "all" : "usable");
	doc_close(d);

	doc_text(d, "\nZones (MiB; wake = low, kswapd starts; stop = high, kswapd sleeps; floor = "
		 "smallest wsf that moves the gap):\n%-4s %-8s", "node", "zone");
	fmt_widths(rfields, NRFIELDS, rows, sizeof(*rows), nrows, ps, width);
	doc_table(d, width, ps);
	doc_header(d, rfields, NRFIELDS, rcols(r));
	doc_text(d, "\n");
	doc_arr(d, "zones");
	for (i = 0; i < nrows; i++) {
		doc_obj(d, NULL);
		doc_double(d, "node", NULL, rows[i].node);
		doc_str(d, "zone", NULL, rows[i].zone);
		doc_text(d, "%-4d %-8s", rows[i].node, rows[i].zone);
		doc_fields(d, rfields, NRFIELDS, rcols(r), &rows[i]);
		doc_text(d, "\n");
		doc_close(d);
	}
	doc_close(d);
	doc_table(d, NULL, 0);

	doc_text(d, "\nGaps summed over %s zones: %.1f MiB today, %.1f MiB after",
		 r->mode == M_EXTRA ? "all" : "the usable", rec_mib(r->ans.gap_now, ps),
		 rec_mib(r->ans.gap_after, ps));
	if (r->mode != M_EXTRA && r->ans.gap_needed)
		doc_text(d, ", %.1f MiB needed", rec_mib(r->ans.gap_needed, ps));
	doc_text(d, " (%.1f MiB at wsf 1).\n", rec_mib(r->ans.gap_floor, ps));
	explain_reserve(d, &r->rv, ps, RESERVE_CHANGE | RESERVE_HUGETLB);
	if (r->mode == M_EXTRA) {
		doc_obj(d, "extra_free_kbytes");
		doc_double(d, "kbytes", NULL, (double)r->extra_kb);
		doc_bool(d, "kernel_has_knob", NULL, r->knob);
		doc_long_or_null(d, "exact_wsf", r->ans.wanted < 0 ? RV_NONE : r->ans.wanted);
		if (r->script_ok)
			doc_script(r, d);
		else
			doc_null(d, "script");
		doc_close(d);
	}
	if (r->mode == M_BURST) {
		doc_obj(d, "burst");
		doc_u64(d, "bytes", NULL, r->burst_bytes);
		doc_u64(d, "pages", NULL, r->ans.gap_needed);
		doc_close(d);
	}
	if (r->measured)
		doc_measure(r, d);
	if (r->bmeasured)
		doc_boost(r, d);
	apply_line(r, line, sizeof(line));
	doc_str(d, "apply", "Apply with: %s\n", line);
	doc_end(d);	/* a write error shows at close_stdout() */
	return EXIT_OK;
}
