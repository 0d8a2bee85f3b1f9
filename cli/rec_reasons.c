// SPDX-License-Identifier: MIT
/*
 * rec_reasons.c - the reasons `wmark recommend` gives: what was measured
 * and modelled, said in words, one line a reason (recommend.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recommend.h"

/* ---- reasons ---------------------------------------------------------- */

void rec_floor_reason(struct rec *r)
{
	unsigned ps = r->s.st.m.page_size;

	if (r->ans.floor_first > 1)
		rec_reason(r, "below wsf %" PRId64 " no zone's gap moves: each is a quarter of its share of "
		       "min_free_kbytes %" PRId64 " (%.1f MiB in all at wsf 1)", r->ans.floor_first,
		       r->now.min_free_kbytes, rec_mib(r->ans.gap_floor, ps));
	if (r->ans.floor_all > r->ans.floor_first)
		rec_reason(r, "from wsf %" PRId64 " up every zone's gap follows wsf", r->ans.floor_all);
}

void rec_extra_reasons(struct rec *r)
{
	const struct wm_rec_script *sc = &r->script;
	unsigned ps = r->s.st.m.page_size;
	size_t i, n = r->s.st.m.nzones, worst = 0;
	uint64_t total = r->s.st.m.vm_total_pages;

	for (i = 0; i < n; i++)
		total += r->s.st.m.vm_total_pages ? 0 : r->s.st.m.zones[i].managed;
	rec_reason(r, "extra_free_kbytes %" PRId64 " is %" PRId64 " pages; Android's patch adds "
	       "pages * managed / vm_total_pages to each zone's low and high, with "
	       "vm_total_pages %" PRIu64 " (%s)", r->extra_kb, r->extra_kb / (int64_t)(ps / 1024),
	       total, r->vm_total >= 0 ? "--vm-total-pages" :
	       "the sum of managed pages; the kernel's own is dmesg's \"Total pages\"");
	for (i = 0; i < n; i++)
		if (r->efk[i].need_wsf > r->efk[worst].need_wsf)
			worst = i;
	if (r->ans.wanted >= 0)
		rec_reason(r, "every zone reaches its target low watermark from wsf %" PRId64 "; %s is the "
		       "one that needs it (target %" PRIu64 " pages, %" PRIu64 " at wsf %" PRId64 ")", r->ans.wanted,
		       rec_zname(r, worst), r->efk[worst].target_low, r->efk[worst].low_at,
		       r->ans.wsf);
	rec_reason(r, "the high watermark moves by a whole gap more than the patch would move it "
	       "(the patch adds its share once to low and high; wsf widens both steps)");
	if (r->knob)
		rec_reason(r, "this kernel has extra_free_kbytes itself: writing %" PRId64 " there gives the "
		       "targets exactly, and is what init/extra_free_kbytes.sh does here; the "
		       "wsf above is the equivalent with extra_free_kbytes 0", r->extra_kb);
	if (!r->script_ok) {
		rec_reason(r, "init/extra_free_kbytes.sh is not simulated: %s", r->script_why);
		return;
	}
	if (r->script_crlf)
		rec_reason(r, "zoneinfo has CRLF line ends, which the kernel never writes: the script "
		       "is simulated on the text without the CRs, as it reads /proc/zoneinfo on "
		       "the device");
	if (r->knob)
		return;
	rec_reason(r, "init/extra_free_kbytes.sh would write %" PRId64 ": delta round(%" PRId64 " * 10000 / %" PRId64 ") = %" PRId64 " "
	       "on top of base wsf %" PRId64 ", per zone by the script's two cases, the largest kept",
	       sc->result, sc->extra_pages, sc->vm_total, sc->delta, sc->base_wsf);
	if (sc->nmin > sc->nzones)
		rec_reason(r, "its grep \"min\" found %zu numbers for %zu zones: the per-cpu "
		       "\"high_min:\" lines of zoneinfo (6.13+) match too, so from the second "
		       "zone on it reads a pageset's high_min as the zone's min",
		       sc->nmin, sc->nzones);
	for (i = 0; i < sc->nzones; i++) {
		const struct wm_rec_script_zone *z = &sc->z[i];

		if (z->branch == '-')
			continue;
		if (z->div_zero)
			rec_reason(r, "zone %zu (managed %" PRId64 "): case B divides by managed/10000 = 0 in bc, "
			       "which fails, so the script leaves the zone out", i + 1, z->managed);
		else if (z->min_true >= 0 && z->min_read != z->min_true)
			rec_reason(r, "zone %zu (managed %" PRId64 "): read min %" PRId64 " instead of %" PRId64 ", so case %c "
			       "gives %" PRId64 "", i + 1, z->managed, z->min_read, z->min_true,
			       z->branch, z->result);
	}
	if (sc->misread && sc->result_true != sc->result)
		rec_reason(r, "with each zone's own min the script would have written %" PRId64 "",
		       sc->result_true);
	if (sc->result != r->ans.wanted && r->ans.wanted >= 0) {
		uint64_t short_pages = 0;
		struct wm_zone_wm *w = calloc(n, sizeof(*w));
		struct wm_sysctl s2 = r->now;

		s2.wsf = sc->result;
		s2.extra_free_kbytes = r->knob ? 0 : -1;
		if (w && sc->result >= 1 && sc->result <= r->s.st.kernel.prof.wsf_max &&
		    wm_setup_wmarks(&r->s.st.kernel.prof, &r->s.st.m, &s2, w, NULL) == WM_OK) {
			for (i = 0; i < n; i++)
				if (w[i].low < r->efk[i].target_low &&
				    r->efk[i].target_low - w[i].low > short_pages)
					short_pages = r->efk[i].target_low - w[i].low;
			if (short_pages)
				rec_reason(r, "at the script's %" PRId64 " a zone's low watermark falls %" PRIu64 " pages "
				       "(%.1f MiB) short of its target", sc->result, short_pages,
				       rec_mib(short_pages, ps));
			else
				rec_reason(r, "the script's %" PRId64 " reaches every target but is larger than "
				       "needed", sc->result);
		}
		free(w);
	}
	if (sc->result > r->s.st.kernel.prof.wsf_max || sc->result < 1)
		rec_reason(r, "the kernel refuses %" PRId64 " (EINVAL; it accepts 1..%" PRId64 ") and keeps the old "
		       "value: the script does not clamp", sc->result, r->s.st.kernel.prof.wsf_max);
}

void rec_burst_reasons(struct rec *r)
{
	unsigned ps = r->s.st.m.page_size;
	char zl[128];

	rec_zone_list(r, r->usable, zl, sizeof(zl));
	rec_reason(r, "a burst of %.1f MiB (%" PRIu64 " pages) must fit between kswapd's wake point (low) "
	       "and direct reclaim (min), summed over the zones a user-space allocation "
	       "can use: %s", (double)r->burst_bytes / 1048576.0, r->ans.gap_needed, zl);
	rec_reason(r, "today those gaps hold %.1f MiB", rec_mib(r->ans.gap_now, ps));
}

/* "over 60.0 s", or "between the two readings" when their times are unknown. */
const char *rec_period(const struct rec *r, char *buf, size_t n)
{
	if (r->mode == M_VMSTAT && r->seconds <= 0)
		snprintf(buf, n, "between the two readings");
	else
		snprintf(buf, n, "over %.1f s", r->ms.seconds);
	return buf;
}

void rec_tune_reasons(struct rec *r)
{
	rec_reason(r, "from the tune log %s: %" PRId64 " periods, %" PRId64 " stalls, %" PRId64
	       " changes; it ended at wsf %" PRId64 "%s", r->from_tune, r->tl.periods, r->tl.stalls,
	       r->tl.writes, r->tl.wsf,
	       r->tl.settled ? ", settled (no change over the last third of the run)" :
	       ", still moving: a run too short to settle; take it as a place to start");
	if (!strcmp(r->tl.last_why, "at-bound"))
		rec_reason(r, "the tune was held by its reserve bound (%.1f MiB): a larger gap might "
		       "have removed more stalls", rec_mib((uint64_t)r->tl.max_reserve, r->s.st.m.page_size));
	if (r->tl.dry_run)
		rec_reason(r, "the log is of a dry run or a replay: its decisions did not act on the "
		       "load, so the gap only grew; take it as an upper bound");
	if (r->ans.wsf != r->tl.wsf)
		rec_reason(r, "wsf %" PRId64 " gives the same gaps here as the log's %" PRId64 "",
		       r->ans.wsf, r->tl.wsf);
	if (r->tl.boost == 0 && rec_boost_zero(r))
		rec_reason(r, "the tune set watermark_boost_factor to 0 (a stall while a zone was boosted)");
}

void rec_measure_reasons(struct rec *r)
{
	char per[64];

	const struct wm_rec_measure *ms = &r->ms;
	const struct wm_rec_decision *dc = &r->dec;
	unsigned ps = r->s.st.m.page_size;

	if (dc->direct) {
		rec_reason(r, "direct reclaim was seen: allocstall +%llu, pgscan_direct +%llu, "
		       "pgsteal_direct +%llu %s",
		       (unsigned long long)ms->d[WM_REC_ALLOCSTALL],
		       (unsigned long long)ms->d[WM_REC_PGSCAN_DIRECT],
		       (unsigned long long)ms->d[WM_REC_PGSTEAL_DIRECT],
		       rec_period(r, per, sizeof(per)));
		if (ms->time_resolved)
			rec_reason(r, "the worst of %zu runs of direct reclaim lasted %.1f s from %.1f s: "
			       "allocation peaked at %.1f MiB/s while kswapd reclaimed %.1f MiB/s, and "
			       "direct reclaim had to find %.1f MiB (allocation beyond kswapd: "
			       "%.1f MiB, part of it served by pages freed meanwhile)",
			       ms->nbursts, ms->worst.seconds, ms->worst.start,
			       ms->worst.peak_alloc_rate * ps / 1048576.0,
			       ms->worst.kswapd_rate * ps / 1048576.0,
			       rec_mib((uint64_t)dc->deficit, ps),
			       rec_mib((uint64_t)ms->worst.drawdown, ps));
		else
			rec_reason(r, "two readings cannot time a burst: the deficit is taken as what "
			       "direct reclaim had to find, pgsteal_direct = %.1f MiB (the sum over "
			       "every burst in between, so an upper bound)",
			       rec_mib((uint64_t)dc->deficit, ps));
		if (dc->verdict == WM_REC_RAISE)
			rec_reason(r, "the gaps must hold today's %.1f MiB (used up before the first "
			       "stall) plus that deficit: %.1f MiB", rec_mib(r->ans.gap_now, ps),
			       rec_mib(dc->need, ps));
		else
			rec_reason(r, "direct reclaim scanned but stole nothing: the gap is not what ran "
			       "out (unreclaimable memory, or reclaim for a high-order allocation); "
			       "wsf stays");
	} else {
		rec_reason(r, "no direct reclaim %s: allocstall and pgscan_direct did not move",
		       rec_period(r, per, sizeof(per)));
	}
	if (ms->d[WM_REC_COMPACT_STALL])
		rec_reason(r, "compact_stall +%llu: high-order allocations compacted memory; wsf does not "
		       "cure fragmentation (watermark_boost_factor acts on it)",
		       (unsigned long long)ms->d[WM_REC_COMPACT_STALL]);
	if (ms->d[WM_REC_PAGEOUTRUN] && ms->d[WM_REC_PGSTEAL_KSWAPD])
		rec_reason(r, "kswapd ran %llu times and stole %.1f MiB a run on average; each run "
		       "reclaims from below the wake point (low) up to the stop point (high), "
		       "%.1f MiB above it today, plus whatever is allocated meanwhile",
		       (unsigned long long)ms->d[WM_REC_PAGEOUTRUN],
		       rec_mib((uint64_t)(ms->d[WM_REC_PGSTEAL_KSWAPD] / ms->d[WM_REC_PAGEOUTRUN]), ps),
		       rec_mib(r->ans.gap_now, ps));
	if (!dc->direct) {
		if (dc->refault_pct < 0)
			rec_reason(r, "kswapd reclaimed nothing: the watermarks were not reached");
		else
			rec_reason(r, "kswapd stole %llu pages; %s came to %.0f%% of that (over-reclaim "
			       "from %d%%; all refaults: %llu, a stream larger than memory refaults "
			       "whatever the watermarks)",
			       (unsigned long long)ms->d[WM_REC_PGSTEAL_KSWAPD],
			       (ms->have & (1u << WM_REC_ACTIVATE)) ?
			       "working-set refaults (workingset_activate)" : "refaults",
			       dc->refault_pct, WM_REC_REFAULT_PCT,
			       (unsigned long long)ms->d[WM_REC_REFAULT]);
		if (dc->verdict == WM_REC_LOWER && ms->time_resolved)
			rec_reason(r, "kswapd over-reclaims: aim the gaps at %.1f MiB (today's less the "
			       "refault share, at least the %.1f MiB kswapd's wake point had to "
			       "absorb)", rec_mib(dc->need, ps),
			       rec_mib((uint64_t)ms->kswapd_deficit, ps));
		else if (dc->verdict == WM_REC_LOWER)
			rec_reason(r, "kswapd over-reclaims: aim the gaps at %.1f MiB (today's less the "
			       "refault share; two readings cannot tell what kswapd's wake point "
			       "had to absorb: --sample can)", rec_mib(dc->need, ps));
		else if (dc->refault_pct >= WM_REC_REFAULT_PCT)
			rec_reason(r, "kswapd's wake point had to absorb %.1f MiB, no less than today's "
			       "gaps: keep watermark_scale_factor %" PRId64 "",
			       rec_mib((uint64_t)ms->kswapd_deficit, ps), r->now.wsf);
		else
			rec_reason(r, "nothing calls for a change: keep watermark_scale_factor %" PRId64 "",
			       r->now.wsf);
	}
	if (ms->psi)
		rec_reason(r, "PSI memory: some %.2f s, full %.2f s stalled %s",
		       (double)ms->psi_some_us / 1e6, (double)ms->psi_full_us / 1e6,
		       rec_period(r, per, sizeof(per)));
}

/* Pages: the most boost the factor lets the usable zones reach, summed. */
uint64_t rec_boost_allowed(const struct rec *r)
{
	uint64_t a = 0;
	size_t i;

	for (i = 0; i < r->s.st.m.nzones; i++)
		if (r->usable[i])
			a += wm_boost_max(&r->s.st.kernel.prof, r->s.st.m.zones[i].managed,
					  r->model_now[i].wm.high, r->now.boost_factor,
					  r->s.st.m.pageblock_pages);
	return a;
}

bool rec_boost_zero(const struct rec *r)
{
	if (r->mode == M_TUNE)
		return r->tl.boost == 0 && (r->now.have & WM_HAVE_BOOST) && r->now.boost_factor != 0;
	return r->bmeasured && r->bdec.action == WM_REC_BOOST_ZERO;
}

/* What kswapd's runs for a boost alone reclaimed, and what came back soon after. */
static void boost_reclaim_reason(struct rec *r, const struct wm_boost_evidence *ev,
				 unsigned ps)
{
	if (!ev->kswapd_boost_runs)
		return;
	if (ev->refaults_counted)
		rec_reason(r, "those %zu boost-only runs reclaimed %.1f MiB; %llu pages refaulted in "
		       "their intervals and the one after each (at most what they evicted and "
		       "was wanted back: other reclaim refaults too)", ev->kswapd_boost_runs,
		       rec_mib((uint64_t)ev->boost_reclaimed, ps),
		       (unsigned long long)ev->boost_refaults);
	else
		rec_reason(r, "those %zu boost-only runs reclaimed %.1f MiB (the readings carry no "
		       "refault counter)", ev->kswapd_boost_runs,
		       rec_mib((uint64_t)ev->boost_reclaimed, ps));
}

void rec_boost_reasons(struct rec *r)
{
	const struct wm_boost_evidence *ev = &r->bev;
	const struct wm_rec_boost *b = &r->bdec;
	unsigned ps = r->s.st.m.page_size;
	bool once = r->mode != M_SAMPLE && r->mode != M_REPLAY;
	uint64_t peak = b->headroom, allowed;

	if (!r->bmeasured)
		return;
	switch (b->action) {
	case WM_REC_BOOST_NONE:
		rec_reason(r, "this kernel has no watermark boost (5.0+): watermark_scale_factor "
		       "is the only lever");
		return;
	case WM_REC_BOOST_OFF:
		rec_reason(r, "watermark_boost_factor is 0: no boost raises the watermarks");
		return;
	default:
		break;
	}
	allowed = rec_boost_allowed(r);
	if (ev->hidden)
		rec_reason(r, "this kernel prints no boost line (5.0-5.15): a boost was read as min, "
		       "low and high risen together by whole pageblocks of %" PRIu64 " pages",
		       r->s.st.m.pageblock_pages);
	if (ev->odd_moves)
		rec_reason(r, "%zu zone readings moved min, low or high otherwise than a boost does "
		       "(a recompute), and were not counted as boost", ev->odd_moves);
	if (!once && ev->fallbacks_counted)
		rec_reason(r, "the kernel counted %llu pageblock fallbacks (kmem:mm_page_alloc_extfrag) "
		       "in %zu of %zu intervals, at most %llu in one; each that tries to claim a "
		       "pageblock raises the boost by one pageblock, and kswapd clears it often "
		       "before the next reading, so an interval with a fallback counts as boosted",
		       (unsigned long long)ev->fallbacks, ev->fallback_intervals,
		       ev->nsamples > 0 ? ev->nsamples - 1 : 0,
		       (unsigned long long)ev->fallback_peak);
	else if (!once && r->fbc_why[0])
		rec_reason(r, "pageblock fallbacks were not counted: %s; boosts shorter than a "
		       "reading's interval go unseen", r->fbc_why);
	switch (b->action) {
	case WM_REC_BOOST_IDLE:
		if (once)
			rec_reason(r, "zoneinfo, read once, shows no boost (--sample watches it over "
			       "time): watermark_boost_factor %" PRId64 " stays", r->now.boost_factor);
		else
			rec_reason(r, "no zone was boosted in %zu readings of zoneinfo: "
			       "watermark_boost_factor %" PRId64 " stays (it would allow up to %.1f MiB "
			       "in the usable zones)", ev->nsamples, r->now.boost_factor,
			       rec_mib(allowed, ps));
		break;
	case WM_REC_BOOST_HARMLESS:
		if (once)
			rec_reason(r, "zoneinfo, read once, shows a boost of %.1f MiB in the usable "
			       "zones; two vmstat readings cannot tell whether allocations stalled "
			       "during it (--sample can): watermark_boost_factor %" PRId64 " stays",
			       rec_mib(peak, ps), r->now.boost_factor);
		else if (!ev->boosted && !ev->kswapd_boost_runs)
			rec_reason(r, "pageblocks fell back in %zu intervals, but no allocation stalled in "
			       "one of them (nor did zoneinfo show a boost): watermark_boost_factor "
			       "%" PRId64 " stays (it allows %.1f MiB in the usable zones)",
			       ev->fallback_intervals, r->now.boost_factor, rec_mib(allowed, ps));
		else
			rec_reason(r, "zones were boosted in %zu of %zu readings (at most %.1f MiB in "
			       "the usable zones; watermark_boost_factor %" PRId64 " allows %.1f MiB), "
			       "kswapd ran %zu times for a boost alone, and no allocation stalled "
			       "during a boost: the factor stays (boosted kswapd passes reclaim "
			       "clean page cache only, without swap or writeback)", ev->boosted,
			       ev->nsamples, rec_mib(peak, ps), r->now.boost_factor, rec_mib(allowed, ps),
			       ev->kswapd_boost_runs);
		boost_reclaim_reason(r, ev, ps);
		break;
	case WM_REC_BOOST_ZERO:
		rec_reason(r, "allocations stalled during boosts: %llu of %llu stalls came while a "
		       "zone was boosted or pageblocks fell back (at most %.1f MiB in the usable zones; "
		       "watermark_boost_factor %" PRId64 " allows %.1f MiB); a boost raises min with "
		       "low and high, so allocations stall that much sooner: set "
		       "watermark_boost_factor 0",
		       (unsigned long long)ev->stalls_boosted, (unsigned long long)ev->stalls,
		       rec_mib(peak, ps), r->now.boost_factor, rec_mib(allowed, ps));
		if (r->dec.verdict == WM_REC_RAISE && ev->stalls_boosted == ev->stalls)
			rec_reason(r, "every stall came during a boost: without it the gaps need hold "
			       "today's %.1f MiB plus what of the %.1f MiB deficit the boost does "
			       "not explain: %.1f MiB", rec_mib(r->ans.gap_now, ps),
			       rec_mib((uint64_t)r->dec.deficit, ps), rec_mib(b->need, ps));
		if (ev->kswapd_boost_runs)
			rec_reason(r, "kswapd also ran %zu times for a boost alone, reclaiming clean "
			       "page cache while free memory was above the unboosted low",
			       ev->kswapd_boost_runs);
		boost_reclaim_reason(r, ev, ps);
		break;
	default:
		break;
	}
}

/* The 2018 RFC's sqrt-clamped low->high step at today's wsf. */
void rec_sqrt_reason(struct rec *r)
{
	uint64_t g = 0, gs = 0;
	size_t i;

	for (i = 0; i < r->s.st.m.nzones; i++) {
		if (!r->usable[i])
			continue;
		g += r->model_now[i].wm.gap;
		gs += r->model_now[i].wm.gap_sqrt;
	}
	if (gs < g)
		rec_reason(r, "the 2018 RFC's sqrt-clamped high watermark would keep today's wake "
		       "points and stop kswapd %.1f MiB above them instead of %.1f MiB, cutting "
		       "each kswapd run without narrowing the min->low gap",
		       rec_mib(gs, r->s.st.m.page_size), rec_mib(g, r->s.st.m.page_size));
	else
		rec_reason(r, "the 2018 RFC's sqrt-clamped high watermark would change nothing here: "
		       "its lower clamp, a quarter of min, is today's gap");
}
