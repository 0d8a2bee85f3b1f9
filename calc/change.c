// SPDX-License-Identifier: MIT
/*
 * change.c - what a write to a watermark sysctl does (docs/model.md
 * §5, mm/page_alloc.c of 4.6 to 7.x).
 *
 * Every knob is a proc_dointvec_minmax() entry: a value outside
 * extra1..extra2 is EINVAL and the old value stays.  The handlers of
 * min_free_kbytes, watermark_scale_factor and (Android) extra_free_kbytes
 * call setup_per_zone_wmarks(), which recomputes every zone and resets
 * its boost; lowmem_reserve_ratio's calls setup_per_zone_lowmem_reserve()
 * (on reads too); watermark_boost_factor's is plain proc_dointvec_minmax:
 * it changes only how far future boosts go.
 *
 * The subtle point: when nothing recomputes, the kernel keeps the
 * watermarks it has, stale or boosted, so the prediction is what zoneinfo
 * printed, not the model.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "change.h"
#include "knob.h"

unsigned wm_knob_have(enum wm_knob k)
{
	const struct wm_knob_def *d = wm_knob_def(k);

	return d ? d->have : 0;
}

int wm_knob_exists(const struct wm_profile *p, enum wm_knob k, struct wm_diag *diag)
{
	const struct wm_knob_def *d = wm_knob_def(k);

	if (d && d->present && !d->present(p))
		return wm_fail(diag, WM_EINVAL, 0, d->name, "kernel %u.%u has no %s",
			       p->kver.major, p->kver.minor, d->absent);
	return WM_OK;
}

void wm_knob_range(const struct wm_profile *p, enum wm_knob k, int64_t *lo, int64_t *hi)
{
	*lo = k == WM_KNOB_LRR ? INT_MIN : 0;	/* lowmem_reserve_ratio: proc_dointvec, no min */
	*hi = INT_MAX;
	if (k == WM_KNOB_WSF) {
		*lo = 1;
		*hi = p->wsf_max > 0 ? p->wsf_max : 1000;
	}
}

void wm_knob_clean_range(const struct wm_profile *p, enum wm_knob k, int64_t *lo, int64_t *hi)
{
	wm_knob_range(p, k, lo, hi);
	/* a ratio below 1 is kept as 0 (before 4.17, rule A: as 1) and printed so */
	if (k == WM_KNOB_LRR)
		*lo = p->lrr_rule == WM_LRR_A ? 1 : 0;
}

static int out_of_range(const struct wm_profile *p, enum wm_knob k, int64_t v, int64_t lo,
			int64_t hi, struct wm_diag *diag)
{
	return wm_fail(diag, WM_EINVAL, 0, wm_knob_name(k),
		       "%s %" PRId64 " is out of range: kernel %u.%u accepts %" PRId64 "..%" PRId64 "",
		       wm_knob_name(k), v, p->kver.major, p->kver.minor, lo, hi);
}

/* v against the range (clean: the part that reads back as written) of knob k. */
static int check_in(const struct wm_profile *p, enum wm_knob k, int64_t v, bool clean,
		    struct wm_diag *diag)
{
	int64_t lo, hi;

	if ((unsigned)k >= WM_NKNOBS)
		return wm_fail(diag, WM_EINVAL, 0, NULL, "unknown knob");
	if (clean)
		wm_knob_clean_range(p, k, &lo, &hi);
	else
		wm_knob_range(p, k, &lo, &hi);
	return v >= lo && v <= hi ? WM_OK : out_of_range(p, k, v, lo, hi, diag);
}

int wm_knob_check_range(const struct wm_profile *p, enum wm_knob k, int64_t v,
			struct wm_diag *diag)
{
	return check_in(p, k, v, false, diag);
}

int wm_knob_check_clean(const struct wm_profile *p, enum wm_knob k, int64_t v,
			struct wm_diag *diag)
{
	return check_in(p, k, v, true, diag);
}

int wm_knob_check(const struct wm_profile *p, enum wm_knob k, int64_t v,
		  struct wm_diag *diag)
{
	int rc;

	if ((unsigned)k >= WM_NKNOBS)
		return wm_fail(diag, WM_EINVAL, 0, NULL, "unknown knob");
	if (k != WM_KNOB_EXTRA && (rc = wm_knob_exists(p, k, diag)))
		return rc;
	return wm_knob_check_range(p, k, v, diag);
}

unsigned wm_change_recomputes(unsigned set)
{
	unsigned r = 0;
	int k;

	for (k = 0; k < WM_NKNOBS; k++)
		if (set & wm_knob_def((enum wm_knob)k)->have)
			r |= wm_knob_def((enum wm_knob)k)->recomputes;
	return r;
}

int wm_change_apply(const struct wm_profile *p, const struct wm_sysctl *now,
		    const struct wm_change *ch, struct wm_sysctl *after,
		    unsigned *recomputes, struct wm_diag *diag)
{
	int k, rc, j;

	*after = *now;
	*recomputes = wm_change_recomputes(ch->set);
	/* the scalar knobs, in the table's order; lowmem_reserve_ratio below */
	for (k = 0; k < WM_NKNOBS; k++) {
		const struct wm_knob_def *d = wm_knob_def((enum wm_knob)k);
		unsigned bit = d->have;
		int64_t v;

		if (!(ch->set & bit) || d->off == WM_KNOB_LIST)
			continue;
		v = *wm_knob_value(&ch->to, d->knob);
		/*
		 * A machine whose file was read has the knob, whatever its
		 * version (Android's extra_free_kbytes, backports), except
		 * watermark_scale_factor: before 4.6 the model's watermarks do
		 * not use it, so no change of it can be predicted there.
		 */
		if ((!(now->have & bit) || d->knob == WM_KNOB_WSF) &&
		    (rc = wm_knob_exists(p, d->knob, diag)))
			return rc;
		if ((rc = wm_knob_check_range(p, d->knob, v, diag)))
			return rc;
		*(int64_t *)(void *)((char *)after + d->off) = v;
		after->have |= bit;
	}
	if (ch->set & WM_HAVE_LRR) {
		if ((now->have & WM_HAVE_LRR) && now->nlrr && ch->to.nlrr != now->nlrr)
			return wm_fail(diag, WM_EINVAL, 0, wm_knob_name(WM_KNOB_LRR),
				       "lowmem_reserve_ratio: this kernel has %d entries, not %d",
				       now->nlrr, ch->to.nlrr);
		if (ch->to.nlrr < 1 || ch->to.nlrr > WM_MAX_ZONES)
			return wm_fail(diag, WM_EINVAL, 0, wm_knob_name(WM_KNOB_LRR),
				       "lowmem_reserve_ratio: 1 to %d entries", WM_MAX_ZONES);
		for (j = 0; j < ch->to.nlrr; j++)
			if ((rc = wm_knob_check_range(p, WM_KNOB_LRR, ch->to.lrr[j], diag)))
				return rc;
		memcpy(after->lrr, ch->to.lrr, sizeof(after->lrr));
		after->nlrr = ch->to.nlrr;
		after->have |= WM_HAVE_LRR;
	}
	return WM_OK;
}

int wm_predict(const struct wm_state *s, const struct wm_sysctl *after, unsigned recomputes,
	       struct wm_predicted *out, struct wm_diag *diag)
{
	const struct wm_profile *p = &s->kernel.prof;
	const struct wm_machine *m = &s->m;
	const struct zi_info *zi = &s->zi;
	const struct wm_layout *l = &s->layout;
	struct wm_sysctl sc = *after;
	struct wm_zone_wm *w;
	bool prot = (sc.have & WM_HAVE_LRR) && sc.nlrr > 0;
	size_t i;
	int j, rc;

	if (!(sc.have & WM_HAVE_MFK))
		return wm_fail(diag, WM_EINVAL, 0, wm_knob_name(WM_KNOB_MFK),
			       "min_free_kbytes is not known");
	if (!p->wsf)
		sc.wsf = 10;	/* not used before 4.6 */
	w = calloc(m->nzones ? m->nzones : 1, sizeof(*w));
	if (!w)
		return wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory");
	rc = wm_setup_wmarks(p, m, &sc, w, diag);
	if (rc == WM_OK && prot)
		rc = wm_protection(p, m, &sc, w, diag);
	for (i = 0; rc == WM_OK && i < m->nzones; i++) {
		const struct zi_zone *z = wm_layout_zone(l, zi, i);
		struct wm_predicted *o = &out[i];

		memset(o, 0, sizeof(*o));
		o->wm = w[i];
		if (!z)
			continue;
		o->shown = true;
		o->promo_printed = (z->flags & ZI_HAS_PROMO) != 0;
		if (!(recomputes & WM_RECOMPUTE_WMARKS)) {
			/* nothing recomputes the watermarks: they stay as printed */
			uint64_t b = (z->flags & ZI_HAS_BOOST) && z->boost <= z->min ? z->boost : 0;

			o->wm.min = z->min - b;
			o->wm.low = z->low - b;
			o->wm.high = z->high - b;
			if (o->promo_printed)
				o->wm.promo = z->promo - b;
			o->wm.gap = o->wm.low - o->wm.min;
			o->boost = b;
		}
		if (!prot)
			for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
				o->wm.protection[j] = z->protection[j];
	}
	free(w);
	return rc;
}

size_t wm_compare(const struct wm_state *s2, const struct wm_predicted *pred, size_t npred,
		  bool wmarks, struct wm_diff *out, size_t max)
{
	const struct zi_info *zi2 = &s2->zi;
	const struct wm_layout *l2 = &s2->layout;
	size_t i, n = 0;
	int j;

#define DIFF(zi_, name, want, got) do { \
		if (n < max) { \
			out[n].zone = (zi_); \
			snprintf(out[n].field, sizeof(out[n].field), "%s", (name)); \
			out[n].predicted = (want); \
			out[n].kernel = (got); \
		} \
		n++; \
	} while (0)

	if (l2->nzones != npred) {
		DIFF(0, "zones", (int64_t)npred, (int64_t)l2->nzones);
		return n;
	}
	for (i = 0; i < npred; i++) {
		const struct zi_zone *z = wm_layout_zone(l2, zi2, i);
		const struct wm_zone_wm *p = &pred[i].wm;
		int64_t b;

		if (!z)
			continue;
		b = z->flags & ZI_HAS_BOOST ? (int64_t)z->boost : 0;
		if (wmarks) {
			if ((int64_t)z->min - b != (int64_t)p->min)
				DIFF(i, "min", (int64_t)p->min, (int64_t)z->min - b);
			if ((int64_t)z->low - b != (int64_t)p->low)
				DIFF(i, "low", (int64_t)p->low, (int64_t)z->low - b);
			if ((int64_t)z->high - b != (int64_t)p->high)
				DIFF(i, "high", (int64_t)p->high, (int64_t)z->high - b);
			if ((z->flags & ZI_HAS_PROMO) && (int64_t)z->promo - b != (int64_t)p->promo)
				DIFF(i, "promo", (int64_t)p->promo, (int64_t)z->promo - b);
		}
		for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++) {
			char name[24];

			if (z->protection[j] == p->protection[j])
				continue;
			snprintf(name, sizeof(name), "protection[%d]", j);
			DIFF(i, name, p->protection[j], z->protection[j]);
		}
	}
#undef DIFF
	return n;
}
