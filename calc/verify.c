// SPDX-License-Identifier: MIT
/*
 * verify.c - the model against what a kernel printed (docs/model.md
 * §10).
 *
 * Verdicts: "exact" when every number matches; "stale" when the kernel
 * computed them from managed counts that have moved since, which infer.c
 * proves by finding those counts; "mismatch" otherwise.
 *
 * The subtle point is how far counts may have moved for "stale": 1% of a
 * zone, or 64 MiB, whichever is more, and no more than that in all.  The
 * 64 MiB is what real machines showed: distro kernels compute protection
 * at boot before the initrd (30-70 MiB, in the low zones) is freed, so a
 * 2 GiB guest's DMA32 had grown by 1.8% since.  A single watermark moved
 * by one page is never stale: the kernel's gaps min-low, low-high and
 * high-promo are equal and stay so.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "verify.h"

#define STALE_PERMILLE 10
#define STALE_FLOOR_BYTES (64ul << 20)
#define MAX_ERAS 8

static const char *const verdict_names[] = {
	[WM_VERDICT_EXACT] = "exact",
	[WM_VERDICT_STALE] = "stale",
	[WM_VERDICT_MISMATCH] = "mismatch",
	[WM_VERDICT_CANNOT] = "cannot-verify",
};

const char *wm_verdict_name(enum wm_verdict v)
{
	return (unsigned)v <= WM_VERDICT_CANNOT ? verdict_names[v] : "?";
}

static void note(struct wm_verify *a, enum wm_note_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void note(struct wm_verify *a, enum wm_note_kind kind, const char *fmt, ...)
{
	va_list ap;

	if (a->nnotes >= WM_VERIFY_MAX_NOTES)
		return;
	a->notes[a->nnotes].kind = kind;
	va_start(ap, fmt);
	vsnprintf(a->notes[a->nnotes++].text, sizeof(a->notes[0].text), fmt, ap);
	va_end(ap);
}

/* One attempt: a kernel profile, the sysctls, and what came of them. */
struct attempt {
	struct wm_verify v;		/* what is handed out for the best attempt */
	struct wm_inferred inf;
	bool mfk_inferred;
	struct wm_zone *zones;		/* model input (boost_at_setup may be set) */
	struct wm_machine m;
	uint64_t *then_wm, *then_prot;
	bool any_wm, any_prot;
};

static const char *zname(const struct attempt *a, size_t i)
{
	return wm_zone_type_name(a->m.zones[i].type);
}

/*
 * Kernel eras to try when no release string is known, newest first, from
 * what the file's format says: lines that appeared in a given version.
 */
static int candidate_kernels(const struct zi_info *zi, const char **out)
{
	unsigned any = 0;
	bool empty_printed = false;
	size_t i;
	int n = 0;

	for (i = 0; i < zi->nzones; i++) {
		any |= zi->zones[i].flags;
		if ((zi->zones[i].flags & ZI_HAS_PRESENT) && zi->zones[i].present == 0)
			empty_printed = true;
	}
	if (any & ZI_HAS_HIGH_MIN) {
		out[n++] = "6.18";
		out[n++] = "6.13";
	} else if (any & ZI_HAS_PROMO) {
		out[n++] = "6.12.19";
		out[n++] = "6.12";
	} else if (any & ZI_HAS_BOOST) {
		out[n++] = "6.6";
		out[n++] = "5.16";
		out[n++] = "6.10";
	} else if (!(any & ZI_HAS_MANAGED)) {
		out[n++] = "3.7";
	} else if (empty_printed) {
		out[n++] = "5.15";
		out[n++] = "5.8";
		out[n++] = "5.4";
		out[n++] = "4.19";
		out[n++] = "4.14";
	} else {
		out[n++] = "4.9";
		out[n++] = "4.5";
	}
	return n;
}

static int attempt_alloc(struct attempt *a, const struct wm_machine *m)
{
	size_t n = m->nzones ? m->nzones : 1;

	memset(a, 0, sizeof(*a));
	a->zones = calloc(n, sizeof(*a->zones));
	a->v.pr = calloc(n, sizeof(*a->v.pr));
	a->v.boost = calloc(n, sizeof(*a->v.boost));
	a->v.w = calloc(n, sizeof(*a->v.w));
	a->v.bad_wm = calloc(n, sizeof(*a->v.bad_wm));
	a->v.bad_prot = calloc(n, sizeof(*a->v.bad_prot));
	a->v.then = calloc(n, sizeof(*a->v.then));
	a->then_wm = calloc(n, sizeof(*a->then_wm));
	a->then_prot = calloc(n, sizeof(*a->then_prot));
	if (!a->zones || !a->v.pr || !a->v.boost || !a->v.w || !a->v.bad_wm ||
	    !a->v.bad_prot || !a->v.then || !a->then_wm || !a->then_prot)
		return WM_ENOMEM;
	memcpy(a->zones, m->zones, m->nzones * sizeof(*a->zones));
	a->m = *m;
	a->m.zones = a->zones;
	a->v.nzones = m->nzones;
	return WM_OK;
}

static void attempt_free(struct attempt *a)
{
	free(a->zones);
	free(a->then_wm);
	free(a->then_prot);
	wm_verify_free(&a->v);
}

/* Pick a min_free_kbytes in the inferred range, preferring a rule's value. */
static int64_t pick_mfk(struct attempt *a)
{
	static const enum wm_thp modes[] = { WM_THP_MADVISE, WM_THP_NEVER, WM_THP_UNSUPPORTED };
	struct wm_mfk mfk;
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (wm_boot_min_free_kbytes(&a->v.prof, &a->m, &a->v.sc, modes[i], &mfk, NULL))
			continue;
		if (mfk.value >= a->inf.mfk_lo && mfk.value <= a->inf.mfk_hi) {
			note(&a->v, WM_NOTE_INFERRED,
			     "min_free_kbytes inferred: %" PRId64 "..%" PRId64 " KiB, explained by %s (%" PRId64 ")",
			     a->inf.mfk_lo, a->inf.mfk_hi,
			     mfk.rule == WM_MFK_THP ? "THP's recommendation" :
			     mfk.rule == WM_MFK_SQRT_RERUN ? "the sqrt rule re-run with THP off" :
			     "the boot sqrt rule", mfk.value);
			return mfk.value;
		}
	}
	note(&a->v, WM_NOTE_INFERRED,
	     "min_free_kbytes inferred: %" PRId64 "..%" PRId64 " KiB, neither the sqrt rule nor THP's "
	     "recommendation for today's counts: set by the user, or computed from other counts",
	     a->inf.mfk_lo, a->inf.mfk_hi);
	return a->inf.mfk_lo;
}

static uint64_t stale_floor(const struct attempt *a)
{
	return STALE_FLOOR_BYTES / a->m.page_size;	/* known: wm_verify checked it */
}

/*
 * Compare the model for a->v.sc with what was printed; on a difference
 * look for the managed counts it was computed from.  Set the verdict.
 */
static void judge(struct attempt *a)
{
	struct wm_verify *v = &a->v;
	size_t i, n = a->m.nzones;
	int j;

	a->any_wm = a->any_prot = false;
	v->verdict = WM_VERDICT_MISMATCH;
	if (wm_setup_wmarks(&v->prof, &a->m, &v->sc, v->w, NULL) ||
	    (v->prot_known && wm_protection(&v->prof, &a->m, &v->sc, v->w, NULL)))
		return;
	for (i = 0; i < n; i++) {
		const struct wm_printed *pr = &v->pr[i];
		const struct wm_zone_wm *w = &v->w[i];

		v->bad_wm[i] = v->bad_prot[i] = false;
		if (!pr->shown)
			continue;
		if (pr->has_wm && (w->min != pr->min || w->low != pr->low || w->high != pr->high ||
				   (pr->has_promo && w->promo != pr->promo)))
			v->bad_wm[i] = true;
		if (v->prot_known && pr->has_prot)
			for (j = 0; j < pr->nprot && j < WM_MAX_ZONES; j++)
				if (pr->protection[j] != w->protection[j])
					v->bad_prot[i] = true;
		a->any_wm |= v->bad_wm[i];
		a->any_prot |= v->bad_prot[i];
	}
	if (!a->any_wm && !a->any_prot) {
		v->verdict = WM_VERDICT_EXACT;
		return;
	}
	if ((!a->any_wm || wm_stale_watermarks(&v->prof, &a->m, &v->sc, v->pr, STALE_PERMILLE,
					       stale_floor(a), a->then_wm)) &&
	    (!a->any_prot || wm_stale_protection(&v->prof, &a->m, &v->sc, v->pr, STALE_PERMILLE,
						 stale_floor(a), a->then_prot))) {
		uint64_t total = 0, limit;

		v->moved = 0;
		for (i = 0; i < n; i++) {
			uint64_t then = a->any_wm ? a->then_wm[i] : a->then_prot[i];
			int64_t d = (int64_t)a->m.zones[i].managed - (int64_t)then;

			v->then[i] = then;
			v->moved += d < 0 ? -d : d;
			total += a->m.zones[i].managed;
		}
		/* All zones together moved no more than one zone may. */
		limit = total / 100 > stale_floor(a) ? total / 100 : stale_floor(a);
		if ((uint64_t)v->moved <= limit)
			v->verdict = WM_VERDICT_STALE;
	}
}

/* Say how far the counts would have had to move to explain a mismatch. */
static void explain_distance(struct attempt *a)
{
	static const unsigned wider[] = { 20, 50, 100, 200 };
	struct wm_verify *v = &a->v;
	uint64_t *tmp = calloc(a->m.nzones ? a->m.nzones : 1, sizeof(*tmp));
	size_t k;
	int what;

	for (what = 0; tmp && what < 2; what++) {
		const char *name = what == 0 ? "watermarks" : "protection arrays";
		int (*stale)(const struct wm_profile *, const struct wm_machine *,
			     const struct wm_sysctl *, const struct wm_printed *, unsigned,
			     uint64_t, uint64_t *) =
			what == 0 ? wm_stale_watermarks : wm_stale_protection;

		if (what == 0 ? !a->any_wm : !a->any_prot)
			continue;
		if (stale(&v->prof, &a->m, &v->sc, v->pr, STALE_PERMILLE, stale_floor(a), tmp))
			continue;
		for (k = 0; k < sizeof(wider) / sizeof(wider[0]); k++) {
			if (stale(&v->prof, &a->m, &v->sc, v->pr, wider[k], 0, tmp)) {
				note(v, WM_NOTE_DISTANCE,
				     "the %s are reproduced by managed counts up to %u%% away from today's: "
				     "more than verify accepts as stale (memory hotplug, a balloon, "
				     "or other sysctls?)", name, wider[k] / 10);
				break;
			}
		}
		if (k == sizeof(wider) / sizeof(wider[0]))
			note(v, WM_NOTE_DISTANCE,
			     "the %s are not reproduced by any managed counts within %u%% of today's",
			     name, wider[k - 1] / 10);
	}
	free(tmp);
}

/* The sysctls to compare with: the machine's, with the given ones over them. */
static int settle_sysctls(struct attempt *a, const struct wm_sysctl *sysctl,
			  const struct wm_verify_opts *o, struct wm_diag *diag)
{
	unsigned recomputes;
	int rc;

	rc = wm_change_apply(&a->v.prof, sysctl, &o->given, &a->v.sc, &recomputes, diag);
	if (rc)
		return rc;
	if (!a->v.prof.wsf)
		a->v.sc.wsf = 10;	/* not used before 4.6 */
	return WM_OK;
}

static void infer(struct attempt *a, const struct wm_verify_opts *o)
{
	struct wm_verify *v = &a->v;
	struct wm_sysctl *sc = &v->sc;
	size_t i, n = a->m.nzones;

	wm_infer_sysctls(&v->prof, &a->m, v->pr, &a->inf);
	if (v->prof.wsf && !(sc->have & WM_HAVE_WSF)) {
		if (a->inf.wsf_lo < 0) {
			note(v, WM_NOTE_ASSUMED,
			     "watermark_scale_factor: no value explains every zone's gap; 10 used");
			sc->wsf = 10;
		} else if (a->inf.wsf_hidden) {
			sc->wsf = 10 <= a->inf.wsf_hi ? 10 : a->inf.wsf_hi;
			note(v, WM_NOTE_INFERRED,
			     "watermark_scale_factor inferred: at most %" PRId64 " (every gap is min/4, so "
			     "the floor hides it); %" PRId64 " used", a->inf.wsf_hi, sc->wsf);
		} else {
			sc->wsf = a->inf.wsf_lo;
			if (a->inf.wsf_lo == a->inf.wsf_hi)
				note(v, WM_NOTE_INFERRED, "watermark_scale_factor inferred: %" PRId64 "", sc->wsf);
			else
				note(v, WM_NOTE_INFERRED, "watermark_scale_factor inferred: %" PRId64 "..%" PRId64 "",
				     a->inf.wsf_lo, a->inf.wsf_hi);
		}
		sc->have |= WM_HAVE_WSF;
	}
	if (!(sc->have & WM_HAVE_MFK)) {
		if (a->inf.mfk_lo < 0) {
			note(v, WM_NOTE_INFERRED, "min_free_kbytes: no value explains every zone's min");
		} else {
			sc->min_free_kbytes = pick_mfk(a);
			sc->have |= WM_HAVE_MFK;
			a->mfk_inferred = true;
		}
	}
	if (a->inf.pre_4_6)
		note(v, WM_NOTE_PRE_4_6, "the watermarks follow the pre-4.6 rule: low = min + share/4, "
		     "high = min + share/2");
	if (!(sc->have & WM_HAVE_LRR) || sc->nlrr == 0) {
		enum wm_zone_type types[WM_MAX_ZONES];
		struct wm_sysctl def;
		int per = 0;

		for (i = 0; i < n && a->m.zones[i].node == a->m.zones[0].node && per < WM_MAX_ZONES; i++)
			types[per++] = a->m.zones[i].type;
		wm_sysctl_defaults(&v->prof, per, types, &def);
		memcpy(sc->lrr, def.lrr, sizeof(sc->lrr));
		sc->nlrr = def.nlrr;
		sc->have |= WM_HAVE_LRR;
		note(v, WM_NOTE_ASSUMED, "lowmem_reserve_ratio not captured: the kernel's defaults assumed");
	}
	(void)o;
}

/* One full attempt with profile a->v.prof. */
static int run_attempt(const struct wm_state *s, const struct wm_verify_opts *o,
		       struct attempt *a, struct wm_diag *diag)
{
	const struct zi_info *zi = &s->zi;
	const struct wm_layout *l = &s->layout;
	struct wm_verify *v = &a->v;
	size_t i, n = a->m.nzones;
	int64_t *ub = calloc(n ? n : 1, sizeof(*ub));
	uint64_t *pb = calloc(n ? n : 1, sizeof(*pb));
	int rc;

	if (!ub || !pb) {
		free(ub);
		free(pb);
		return wm_fail(diag, WM_ENOMEM, 0, NULL, "out of memory");
	}
	wm_printed_from_zoneinfo(zi, l, v->pr, pb);
	for (i = 0; i < n; i++)
		v->boost[i] = (int64_t)pb[i];
	free(pb);
	if (s->geo.page_size && s->geo.page_size_from == WM_GEO_ASSUMED)
		note(v, WM_NOTE_GEOMETRY, "page size %u bytes assumed: %s", a->m.page_size,
		     s->geo.memtotal_seen ? "MemTotal and the managed pages do not tell it"
					  : "no meminfo to tell it from");
	if (l->used_present)
		note(v, WM_NOTE_PRESENT,
		     "zoneinfo has no managed lines (kernels before 3.8): present pages used, "
		     "as those kernels did");
	wm_unboost(&v->prof, &a->m, v->pr, ub);
	for (i = 0; i < n; i++) {
		if (ub[i]) {
			v->boost[i] += ub[i];
			note(v, WM_NOTE_HIDDEN_BOOST,
			     "%d/%s: watermarks %" PRId64 " pages above what its gap allows: a watermark "
			     "boost, included in what 5.0-5.15 print but not shown",
			     a->m.zones[i].node, zname(a, i), ub[i]);
		}
		if (a->m.zones[i].boost_at_setup)
			note(v, WM_NOTE_FROZEN_BOOST,
			     "%d/%s: low and high carry a %" PRIu64 "-page boost frozen in by a recompute "
			     "during a boost (5.0-5.7)", a->m.zones[i].node, zname(a, i),
			     a->m.zones[i].boost_at_setup);
	}
	free(ub);

	if ((rc = settle_sysctls(a, &s->sysctl, o, diag)))
		return rc;
	a->inf.mfk_lo = a->inf.mfk_hi = -1;
	if (o->infer)
		infer(a, o);
	v->prot_known = (v->sc.have & WM_HAVE_LRR) && v->sc.nlrr > 0;
	if (!(v->sc.have & WM_HAVE_MFK)) {
		v->verdict = WM_VERDICT_CANNOT;
		v->cannot = WM_CANNOT_MFK;
		return WM_OK;
	}
	if (v->prof.wsf && !(v->sc.have & WM_HAVE_WSF)) {
		v->verdict = WM_VERDICT_CANNOT;
		v->cannot = WM_CANNOT_WSF;
		return WM_OK;
	}
	if (!v->prot_known)
		note(v, WM_NOTE_NO_PROTECTION, "protection not checked: lowmem_reserve_ratio unknown");

	judge(a);
	if (v->verdict != WM_VERDICT_EXACT && a->mfk_inferred) {
		/* An inferred min_free_kbytes is a range: take the value that fits best. */
		int64_t best = v->sc.min_free_kbytes, x;
		enum wm_verdict bv = v->verdict;

		for (x = a->inf.mfk_lo; x <= a->inf.mfk_hi && x - a->inf.mfk_lo < 64 &&
		     bv != WM_VERDICT_EXACT; x++) {
			v->sc.min_free_kbytes = x;
			judge(a);
			if (v->verdict < bv) {
				bv = v->verdict;
				best = x;
			}
		}
		v->sc.min_free_kbytes = best;
		judge(a);
		if (best != a->inf.mfk_lo || bv == WM_VERDICT_EXACT)
			note(v, WM_NOTE_INFERRED, "min_free_kbytes %" PRId64 " fits best within the inferred range",
			     best);
	}
	if (v->verdict == WM_VERDICT_MISMATCH)
		explain_distance(a);
	return WM_OK;
}

int wm_verify(const struct wm_state *s, const struct wm_verify_opts *o, struct wm_verify *out,
	      struct wm_diag *diag)
{
	const struct zi_info *zi = &s->zi;
	const struct wm_machine *m = &s->m;
	struct attempt att[MAX_ERAS];
	const char *eras[MAX_ERAS];
	bool known = s->kernel.known;
	int ne, k, best = -1, rc = WM_OK;

	memset(out, 0, sizeof(*out));
	if (!zi_sized(zi) || !m->nzones) {
		out->verdict = WM_VERDICT_CANNOT;
		out->cannot = WM_CANNOT_NO_MANAGED;
		out->prof = s->kernel.prof;
		out->prof.high_rule = o->high_rule;
		return WM_OK;
	}
	if ((rc = wm_need_geometry(m, true, diag)))
		return rc;
	ne = known ? 1 : candidate_kernels(zi, eras);
	for (k = 0; k < ne; k++) {
		struct attempt *a = &att[k];

		if ((rc = attempt_alloc(a, m))) {
			wm_fail(diag, rc, 0, NULL, "out of memory");
			ne = k + 1;
			goto done;
		}
		if (known) {
			a->v.prof = s->kernel.prof;
		} else {
			struct wm_kver kv;

			wm_kver_parse(eras[k], &kv, NULL);
			wm_profile_for(&kv, &a->v.prof);
			a->v.assumed = eras[k];
		}
		a->v.prof.high_rule = o->high_rule;
		if ((rc = run_attempt(s, o, a, diag))) {
			ne = k + 1;
			goto done;
		}
		if (best < 0 || a->v.verdict < att[best].v.verdict)
			best = k;
		if (a->v.verdict == WM_VERDICT_EXACT) {
			ne = k + 1;
			break;
		}
	}
	*out = att[best].v;
	memset(&att[best].v, 0, sizeof(att[best].v));
	if (out->assumed) {
		memmove(&out->notes[1], &out->notes[0],
			sizeof(out->notes[0]) * (WM_VERIFY_MAX_NOTES - 1));
		out->notes[0].kind = WM_NOTE_ERA;
		snprintf(out->notes[0].text, sizeof(out->notes[0].text),
			 "kernel version unknown: %s-era rules assumed from the zoneinfo format%s (use --kernel)",
			 out->assumed, ne > 1 ? ", the era that fits best" : "");
		if (out->nnotes < WM_VERIFY_MAX_NOTES)
			out->nnotes++;
	}
done:
	for (k = 0; k < ne; k++)
		attempt_free(&att[k]);
	return rc;
}

void wm_verify_free(struct wm_verify *v)
{
	if (!v)
		return;
	free(v->w);
	free(v->pr);
	free(v->boost);
	free(v->bad_wm);
	free(v->bad_prot);
	free(v->then);
	v->w = NULL;
	v->pr = NULL;
	v->boost = NULL;
	v->bad_wm = v->bad_prot = NULL;
	v->then = NULL;
}
