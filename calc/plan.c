// SPDX-License-Identifier: MIT
/*
 * plan.c - a change judged before it is written (see plan.h).
 *
 * The prediction is wm_predict()'s; the warnings follow the kernel: a
 * write to THP's mode (set_recommended_min_free_kbytes(), and memory
 * hotplug from 5.9) sets min_free_kbytes back to khugepaged's value when
 * that is larger, memory hotplug recomputes the sqrt rule
 * (init_per_zone_wmark_min()) and keeps a written value only when it is
 * at least that, and a wsf below every zone's floor moves no gap
 * (__setup_per_zone_wmarks(): the gap is at least a quarter of the
 * zone's min).  docs/model.md §2.2-2.3, §3.
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

static void warn(struct wm_plan *p, enum wm_plan_warn code, int64_t a, int64_t b)
{
	if (p->nwarn < WM_PLAN_MAX_WARN)
		p->warn[p->nwarn++] = (struct wm_plan_warning){ code, a, b };
}

/* The summed min watermarks, managed and free pages, and the verdict. */
static void judge(const struct wm_state *s, struct wm_plan *p)
{
	size_t i;
	bool have_free = false;

	for (i = 0; i < p->nzones; i++) {
		p->min_now += p->now[i].wm.min;
		p->min_after += p->pred[i].wm.min;
		p->managed += s->layout.zones[i].managed;
	}
	for (i = 0; i < s->zi.nzones; i++) {
		if (s->zi.zones[i].flags & ZI_HAS_FREE) {
			p->free_pages += s->zi.zones[i].free;
			have_free = true;
		}
	}
	if (p->min_after <= p->min_now)
		return;
	if (p->min_after * 100 > p->managed * WM_PLAN_SAFE_MIN_PCT)
		p->safety = WM_PLAN_MIN_SHARE;
	else if (have_free && p->min_after > p->free_pages)
		p->safety = WM_PLAN_MIN_FREE;
}

/* min_free_kbytes written: does something the kernel does set it back? */
static void warn_mfk(const struct wm_state *s, const struct wm_change *ch, struct wm_plan *p)
{
	const struct wm_profile *prof = &s->kernel.prof;
	int64_t v = ch->to.min_free_kbytes;
	struct wm_mfk boot;

	if (wm_boot_min_free_kbytes(prof, &s->m, &p->after, s->thp, &boot, NULL) != WM_OK)
		return;
	if ((s->thp == WM_THP_MADVISE || s->thp == WM_THP_ALWAYS) && boot.thp_kb > v)
		warn(p, WM_PLAN_WARN_THP_MFK, boot.thp_kb,
		     prof->kver.major > 5 || (prof->kver.major == 5 && prof->kver.minor >= 9));
	if (boot.sqrt_kb > v)
		warn(p, WM_PLAN_WARN_HOTPLUG_MFK, boot.sqrt_kb,
		     prof->thp_off_recompute && s->thp == WM_THP_NEVER);
}

/* wsf written with another value: does any gap move? */
static int warn_wsf(const struct wm_state *s, const struct wm_change *ch, struct wm_plan *p,
		    struct wm_diag *diag)
{
	struct wm_sysctl alt = p->after;
	struct wm_predicted *w;
	int64_t floor = -1;
	bool moved = false;
	size_t i;

	alt.wsf = s->sysctl.wsf;
	if (alt.wsf <= 0)
		return WM_OK;
	if (!(w = calloc(p->nzones, sizeof(*w))))
		return wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory");
	if (wm_predict(s, &alt, WM_RECOMPUTE_WMARKS, w, NULL) == WM_OK) {
		for (i = 0; i < p->nzones; i++) {
			if (s->layout.zones[i].managed == 0)
				continue;
			moved |= w[i].wm.gap != p->pred[i].wm.gap;
			if (p->pred[i].wm.wsf_floor > 0 &&
			    (floor < 0 || p->pred[i].wm.wsf_floor < floor))
				floor = p->pred[i].wm.wsf_floor;
		}
		/* below every zone's floor, or a step too small to move a page */
		if (!moved && floor > 0 && ch->to.wsf < floor)
			warn(p, WM_PLAN_WARN_WSF_FLOORED, ch->to.wsf, floor);
		else if (!moved)
			warn(p, WM_PLAN_WARN_WSF_NO_GAP, ch->to.wsf, 0);
	}
	free(w);
	return WM_OK;
}

int wm_plan(const struct wm_state *s, const struct wm_change *ch, const struct wm_plan_opts *o,
	    struct wm_plan *out, struct wm_diag *diag)
{
	static const struct wm_plan_opts none = { 0 };
	const unsigned set = ch->set;
	int rc;

	if (!o)
		o = &none;
	memset(out, 0, sizeof(*out));
	out->stage = WM_PLAN_AT_CHANGE;
	if ((rc = wm_change_apply(&s->kernel.prof, &s->sysctl, ch, &out->after, &out->recomputes,
				  diag)))
		return rc;
	out->stage = WM_PLAN_AT_MODEL;
	if (!(out->after.have & WM_HAVE_MFK) || !(s->sysctl.have & WM_HAVE_MFK) || !s->m.nzones)
		return WM_OK;	/* nothing to model from: no prediction, no warning */
	/* zone headers alone (an excerpt, a cut file): every answer would be 0 */
	if (!zi_sized(&s->zi))
		return wm_fail(diag, WM_ENODATA, 0, "zoneinfo",
			       "no managed pages in zoneinfo (no zone has a managed or present line): "
			       "nothing to predict from");
	out->nzones = s->m.nzones;
	out->now = calloc(out->nzones, sizeof(*out->now));
	out->pred = calloc(out->nzones, sizeof(*out->pred));
	if (!out->now || !out->pred) {
		wm_plan_free(out);
		return wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory");
	}
	if ((rc = wm_predict(s, &s->sysctl, WM_RECOMPUTE_WMARKS, out->now, diag)) ||
	    (rc = wm_predict(s, &out->after, out->recomputes, out->pred, diag))) {
		wm_plan_free(out);
		out->stage = WM_PLAN_AT_MODEL;
		return rc;
	}
	out->modelled = true;
	judge(s, out);

	if ((set & WM_HAVE_MFK) && !o->refresh)
		warn_mfk(s, ch, out);
	if ((set & WM_HAVE_WSF) && (s->kernel.prof.kver.android || o->android_init))
		warn(out, WM_PLAN_WARN_ANDROID_WSF, 0, 0);
	if ((set & WM_HAVE_WSF) && ch->to.wsf != s->sysctl.wsf &&
	    (rc = warn_wsf(s, ch, out, diag))) {
		wm_plan_free(out);
		out->stage = WM_PLAN_AT_MODEL;
		return rc;
	}
	if ((set & WM_HAVE_BOOST) && !(set & (WM_HAVE_MFK | WM_HAVE_WSF | WM_HAVE_EXTRA)))
		warn(out, WM_PLAN_WARN_BOOST_FUTURE, 0, 0);
	return WM_OK;
}

void wm_plan_free(struct wm_plan *p)
{
	if (!p)
		return;
	free(p->now);
	free(p->pred);
	p->now = p->pred = NULL;
	p->modelled = false;
}
