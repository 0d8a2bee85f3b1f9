// SPDX-License-Identifier: MIT
/*
 * cmd_verify.c - `wmark verify`: recompute every zone from its managed
 * pages and the sysctls, and compare with every number the kernel printed.
 *
 * Verdicts: "exact" when all match; "stale" when the kernel computed them
 * from managed counts that have moved since, which infer.c proves by
 * finding those counts; "mismatch" otherwise.
 *
 * How far counts may have moved for "stale": 1% of a zone, or 64 MiB,
 * whichever is more.  The 64 MiB is what real machines showed: distro
 * kernels compute protection at boot before the initrd (30-70 MiB, in the
 * low zones) is freed, so a 2 GiB guest's DMA32 had grown by 1.8% since.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../calc/infer.h"
#include "commands.h"
#include "explain.h"
#include "machine.h"
#include "show.h"

#define STALE_PERMILLE 10
#define STALE_FLOOR_BYTES (64ul << 20)
#define MAX_NOTES 24

struct vopts {
	bool infer;
	long mfk, wsf, extra;
	struct wm_sysctl lrr;
};

/* One attempt: a kernel profile, the sysctls, and what came of them. */
struct attempt {
	struct wm_profile prof;
	struct wm_sysctl sc;
	bool prot_known;
	struct wm_inferred inf;
	bool mfk_inferred;
	const char *assumed;		/* kernel era assumed, or NULL */
	struct wm_zone *zones;		/* model input (boost_at_setup may be set) */
	struct wm_machine m;
	struct wm_printed *pr;		/* printed, boost taken off */
	long *boost;			/* pages taken off per zone */
	struct wm_zone_wm *w;
	bool *bad_wm, *bad_prot;
	unsigned long *then_wm, *then_prot;
	bool any_wm, any_prot;
	int verdict;			/* 0 exact, 1 stale, 2 mismatch */
	long moved;			/* pages, for stale */
	char notes[MAX_NOTES][320];
	int nnotes;
};

static const char *const verdict_name[] = { "exact", "stale", "mismatch" };

static void verify_usage(void)
{
	fputs("Usage: wmark [--root DIR] [--kernel VERSION] [-j] verify [OPTIONS]\n"
	      "\n"
	      "Recompute every zone's min/low/high/promo and protection from its managed\n"
	      "pages and the sysctls, and compare with what the kernel printed.\n"
	      "Exit 0 when every number matches (verdict exact); 1 with a per-zone diff\n"
	      "and a verdict: stale (computed from managed counts that moved since, as\n"
	      "after every boot; `wmark apply --refresh` makes the kernel recompute)\n"
	      "or mismatch.\n"
	      "\n"
	      "  --infer                    recover min_free_kbytes and\n"
	      "                             watermark_scale_factor from zoneinfo alone\n"
	      "  --min-free-kbytes K        use K instead of the root's sysctl\n"
	      "  --wsf N                    use N instead of the root's sysctl\n"
	      "  --lowmem-reserve-ratio L   use L instead of the root's sysctl\n"
	      "  --extra-free-kbytes K      use K (Android) instead of the root's sysctl\n"
	      "  -h, --help                 this help\n", stdout);
}

static void note(struct attempt *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct attempt *a, const char *fmt, ...)
{
	va_list ap;

	if (a->nnotes >= MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(a->notes[a->nnotes++], sizeof(a->notes[0]), fmt, ap);
	va_end(ap);
}

static const char *zname(const struct attempt *a, size_t i)
{
	return wm_zone_type_name(a->m.zones[i].type);
}

/*
 * Kernel eras to try when no release string is known, newest first, from
 * what the file's format says: lines that appeared in a given version.
 */
static int candidate_kernels(const struct snapshot *s, const char **out)
{
	unsigned any = 0;
	bool empty_printed = false;
	size_t i;
	int n = 0;

	for (i = 0; i < s->zi.nzones; i++) {
		any |= s->zi.zones[i].flags;
		if ((s->zi.zones[i].flags & ZI_HAS_PRESENT) && s->zi.zones[i].present == 0)
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

static int attempt_alloc(struct attempt *a, const struct snapshot *s)
{
	size_t n = s->m.nzones;

	memset(a, 0, sizeof(*a));
	a->zones = calloc(n, sizeof(*a->zones));
	a->pr = calloc(n, sizeof(*a->pr));
	a->boost = calloc(n, sizeof(*a->boost));
	a->w = calloc(n, sizeof(*a->w));
	a->bad_wm = calloc(n, sizeof(*a->bad_wm));
	a->bad_prot = calloc(n, sizeof(*a->bad_prot));
	a->then_wm = calloc(n, sizeof(*a->then_wm));
	a->then_prot = calloc(n, sizeof(*a->then_prot));
	if (!a->zones || !a->pr || !a->boost || !a->w || !a->bad_wm ||
	    !a->bad_prot || !a->then_wm || !a->then_prot)
		return -1;
	memcpy(a->zones, s->m.zones, n * sizeof(*a->zones));
	a->m = s->m;
	a->m.zones = a->zones;
	return 0;
}

static void attempt_free(struct attempt *a)
{
	free(a->zones);
	free(a->pr);
	free(a->boost);
	free(a->w);
	free(a->bad_wm);
	free(a->bad_prot);
	free(a->then_wm);
	free(a->then_prot);
}

/* What zoneinfo printed, per model zone, with a printed boost taken off. */
static void read_printed(const struct snapshot *s, struct attempt *a)
{
	size_t i;
	int j;

	for (i = 0; i < a->m.nzones; i++) {
		long k = s->zone_map[i];
		const struct zi_zone *z;
		unsigned long b;
		struct wm_printed *pr = &a->pr[i];

		memset(pr, 0, sizeof(*pr));
		a->boost[i] = 0;
		if (k < 0)
			continue;
		z = &s->zi.zones[k];
		b = (z->flags & ZI_HAS_BOOST) ? z->boost : 0;
		a->boost[i] = (long)b;
		pr->shown = true;
		pr->has_wm = (z->flags & (ZI_HAS_MIN | ZI_HAS_LOW | ZI_HAS_HIGH)) ==
			     (ZI_HAS_MIN | ZI_HAS_LOW | ZI_HAS_HIGH) && z->min >= b;
		pr->has_promo = (z->flags & ZI_HAS_PROMO) != 0;
		pr->min = z->min - b;
		pr->low = z->low - b;
		pr->high = z->high - b;
		pr->promo = pr->has_promo ? z->promo - b : 0;
		pr->has_prot = (z->flags & ZI_HAS_PROTECTION) != 0;
		pr->nprot = z->nprotection;
		for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
			pr->protection[j] = z->protection[j];
	}
}

/* Pick a min_free_kbytes in the inferred range, preferring a rule's value. */
static long pick_mfk(const struct snapshot *s, struct attempt *a)
{
	static const enum wm_thp modes[] = { WM_THP_MADVISE, WM_THP_NEVER, WM_THP_UNSUPPORTED };
	struct wm_mfk mfk;
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (wm_boot_min_free_kbytes(&a->prof, &a->m, &a->sc, modes[i], &mfk, NULL))
			continue;
		if (mfk.value >= a->inf.mfk_lo && mfk.value <= a->inf.mfk_hi) {
			note(a, "min_free_kbytes inferred: %ld..%ld KiB, explained by %s (%ld)",
			     a->inf.mfk_lo, a->inf.mfk_hi,
			     mfk.rule == WM_MFK_THP ? "THP's recommendation" :
			     mfk.rule == WM_MFK_SQRT_RERUN ? "the sqrt rule re-run with THP off" :
			     "the boot sqrt rule", mfk.value);
			return mfk.value;
		}
	}
	note(a, "min_free_kbytes inferred: %ld..%ld KiB, neither the sqrt rule nor THP's "
	     "recommendation for today's counts: set by the user, or computed from other counts",
	     a->inf.mfk_lo, a->inf.mfk_hi);
	return a->inf.mfk_lo;
}

static unsigned long stale_floor(const struct attempt *a)
{
	return STALE_FLOOR_BYTES / (a->m.page_size ? a->m.page_size : 4096);
}

/*
 * Compare the model for a->sc with what was printed; on a difference look
 * for the managed counts it was computed from.  Set a->verdict.
 */
static void judge(struct attempt *a)
{
	size_t i, n = a->m.nzones;
	int j;

	a->any_wm = a->any_prot = false;
	a->verdict = 2;
	if (wm_setup_wmarks(&a->prof, &a->m, &a->sc, a->w, NULL) ||
	    (a->prot_known && wm_protection(&a->prof, &a->m, &a->sc, a->w, NULL)))
		return;
	for (i = 0; i < n; i++) {
		const struct wm_printed *pr = &a->pr[i];
		const struct wm_zone_wm *w = &a->w[i];

		a->bad_wm[i] = a->bad_prot[i] = false;
		if (!pr->shown)
			continue;
		if (pr->has_wm && (w->min != pr->min || w->low != pr->low || w->high != pr->high ||
				   (pr->has_promo && w->promo != pr->promo)))
			a->bad_wm[i] = true;
		if (a->prot_known && pr->has_prot)
			for (j = 0; j < pr->nprot && j < WM_MAX_ZONES; j++)
				if (pr->protection[j] != w->protection[j])
					a->bad_prot[i] = true;
		a->any_wm |= a->bad_wm[i];
		a->any_prot |= a->bad_prot[i];
	}
	if (!a->any_wm && !a->any_prot) {
		a->verdict = 0;
		return;
	}
	if ((!a->any_wm || wm_stale_watermarks(&a->prof, &a->m, &a->sc, a->pr, STALE_PERMILLE,
					       stale_floor(a), a->then_wm)) &&
	    (!a->any_prot || wm_stale_protection(&a->prof, &a->m, &a->sc, a->pr, STALE_PERMILLE,
						 stale_floor(a), a->then_prot))) {
		unsigned long total = 0;

		a->moved = 0;
		for (i = 0; i < n; i++) {
			unsigned long then = a->any_wm ? a->then_wm[i] : a->then_prot[i];
			long d = (long)a->m.zones[i].managed - (long)then;

			a->moved += d < 0 ? -d : d;
			total += a->m.zones[i].managed;
		}
		/* All zones together moved no more than one zone may. */
		if ((unsigned long)a->moved <= (total / 100 > stale_floor(a) ? total / 100 : stale_floor(a)))
			a->verdict = 1;
	}
}

/* Say how far the counts would have had to move to explain a mismatch. */
static void explain_distance(struct attempt *a)
{
	static const unsigned wider[] = { 20, 50, 100, 200 };
	unsigned long *tmp = calloc(a->m.nzones, sizeof(*tmp));
	size_t k;
	int what;

	for (what = 0; tmp && what < 2; what++) {
		const char *name = what == 0 ? "watermarks" : "protection arrays";

		if (what == 0 ? !a->any_wm : !a->any_prot)
			continue;
		if (what == 0 ? wm_stale_watermarks(&a->prof, &a->m, &a->sc, a->pr, STALE_PERMILLE,
						    stale_floor(a), tmp)
			      : wm_stale_protection(&a->prof, &a->m, &a->sc, a->pr, STALE_PERMILLE,
						    stale_floor(a), tmp))
			continue;
		for (k = 0; k < sizeof(wider) / sizeof(wider[0]); k++) {
			if (what == 0 ? wm_stale_watermarks(&a->prof, &a->m, &a->sc, a->pr, wider[k], 0, tmp)
				      : wm_stale_protection(&a->prof, &a->m, &a->sc, a->pr, wider[k], 0, tmp)) {
				note(a, "the %s are reproduced by managed counts up to %u%% away from today's: "
				     "more than verify accepts as stale (memory hotplug, a balloon, "
				     "or other sysctls?)", name, wider[k] / 10);
				break;
			}
		}
		if (k == sizeof(wider) / sizeof(wider[0]))
			note(a, "the %s are not reproduced by any managed counts within %u%% of today's",
			     name, wider[k - 1] / 10);
	}
	free(tmp);
}

/* One full attempt with profile prof. */
static void run_attempt(const struct snapshot *s, const struct vopts *o,
			struct attempt *a)
{
	long *ub = calloc(a->m.nzones ? a->m.nzones : 1, sizeof(*ub));
	size_t i, n = a->m.nzones;

	read_printed(s, a);
	if (s->used_present)
		note(a, "zoneinfo has no managed lines (kernels before 3.8): present pages used, "
		     "as those kernels did");
	if (ub) {
		wm_unboost(&a->prof, &a->m, a->pr, ub);
		for (i = 0; i < n; i++) {
			if (ub[i]) {
				a->boost[i] += ub[i];
				note(a, "%d/%s: watermarks %ld pages above what its gap allows: a watermark "
				     "boost, included in what 5.0-5.15 print but not shown",
				     a->m.zones[i].node, zname(a, i), ub[i]);
			}
			if (a->m.zones[i].boost_at_setup)
				note(a, "%d/%s: low and high carry a %lu-page boost frozen in by a recompute "
				     "during a boost (5.0-5.7)", a->m.zones[i].node, zname(a, i),
				     a->m.zones[i].boost_at_setup);
		}
		free(ub);
	}

	a->sc = s->sysctl;
	if (o->mfk >= 0)
		a->sc.min_free_kbytes = o->mfk;
	if (o->wsf >= 0)
		a->sc.wsf = o->wsf;
	if (o->extra >= 0)
		a->sc.extra_free_kbytes = o->extra;
	if (o->lrr.nlrr) {
		memcpy(a->sc.lrr, o->lrr.lrr, sizeof(a->sc.lrr));
		a->sc.nlrr = o->lrr.nlrr;
	}
	if (!a->prof.wsf)
		a->sc.wsf = 10;	/* not used before 4.6 */

	a->inf.mfk_lo = a->inf.mfk_hi = -1;
	if (o->infer) {
		wm_infer_sysctls(&a->prof, &a->m, a->pr, &a->inf);
		if (a->sc.wsf < 0) {
			if (a->inf.wsf_lo < 0) {
				note(a, "watermark_scale_factor: no value explains every zone's gap; 10 used");
				a->sc.wsf = 10;
			} else if (a->inf.wsf_hidden) {
				a->sc.wsf = 10 <= a->inf.wsf_hi ? 10 : a->inf.wsf_hi;
				note(a, "watermark_scale_factor inferred: at most %ld (every gap is min/4, so "
				     "the floor hides it); %ld used", a->inf.wsf_hi, a->sc.wsf);
			} else {
				a->sc.wsf = a->inf.wsf_lo;
				if (a->inf.wsf_lo == a->inf.wsf_hi)
					note(a, "watermark_scale_factor inferred: %ld", a->sc.wsf);
				else
					note(a, "watermark_scale_factor inferred: %ld..%ld", a->inf.wsf_lo,
					     a->inf.wsf_hi);
			}
		}
		if (a->sc.min_free_kbytes < 0) {
			if (a->inf.mfk_lo < 0) {
				note(a, "min_free_kbytes: no value explains every zone's min");
			} else {
				a->sc.min_free_kbytes = pick_mfk(s, a);
				a->mfk_inferred = true;
			}
		}
		if (a->inf.pre_4_6)
			note(a, "the watermarks follow the pre-4.6 rule: low = min + share/4, "
			     "high = min + share/2");
		if (a->sc.nlrr == 0) {
			enum wm_zone_type types[WM_MAX_ZONES];
			struct wm_sysctl def;
			int per = 0;

			for (i = 0; i < n && a->m.zones[i].node == a->m.zones[0].node; i++)
				types[per++] = a->m.zones[i].type;
			wm_sysctl_defaults(&a->prof, per, types, &def);
			memcpy(a->sc.lrr, def.lrr, sizeof(a->sc.lrr));
			a->sc.nlrr = def.nlrr;
			note(a, "lowmem_reserve_ratio not captured: the kernel's defaults assumed");
		}
	}
	a->prot_known = a->sc.nlrr > 0;
	if (a->sc.min_free_kbytes < 0 || (a->prof.wsf && a->sc.wsf < 0)) {
		a->verdict = 3;		/* cannot verify */
		return;
	}
	if (!a->prot_known)
		note(a, "protection not checked: lowmem_reserve_ratio unknown");

	judge(a);
	if (a->verdict > 0 && a->mfk_inferred) {
		/* An inferred min_free_kbytes is a range: take the value that fits best. */
		long best = a->sc.min_free_kbytes, v;
		int bv = a->verdict;

		for (v = a->inf.mfk_lo; v <= a->inf.mfk_hi && v - a->inf.mfk_lo < 64 && bv > 0; v++) {
			a->sc.min_free_kbytes = v;
			judge(a);
			if (a->verdict < bv) {
				bv = a->verdict;
				best = v;
			}
		}
		a->sc.min_free_kbytes = best;
		judge(a);
		if (best != a->inf.mfk_lo || bv == 0)
			note(a, "min_free_kbytes %ld fits best within the inferred range", best);
	}
	if (a->verdict == 2)
		explain_distance(a);
}

static void print_list(const long *v, int n)
{
	int j;

	putchar('(');
	for (j = 0; j < n; j++)
		printf("%s%ld", j ? ", " : "", v[j]);
	putchar(')');
}

static void report_text(const struct snapshot *s, const struct attempt *a, const char *kernel)
{
	static const char *const fld[] = { "min", "low", "high", "promo" };
	size_t i, n = a->m.nzones;
	int j;

	printf("Kernel %s rules; min_free_kbytes %ld", kernel, a->sc.min_free_kbytes);
	if (a->prof.wsf)
		printf(", watermark_scale_factor %ld", a->sc.wsf);
	if (a->prot_known) {
		fputs(", lowmem_reserve_ratio", stdout);
		for (j = 0; j < a->sc.nlrr; j++)
			printf(" %ld", a->sc.lrr[j]);
	}
	putchar('\n');
	for (j = 0; j < a->nnotes; j++)
		printf("note: %s\n", a->notes[j]);
	for (i = 0; i < n; i++) {
		const struct wm_printed *pr = &a->pr[i];
		const struct wm_zone_wm *w = &a->w[i];
		unsigned long b = (unsigned long)a->boost[i];

		if (s->zone_map[i] < 0)
			continue;
		printf("%-4d %-8s ", a->m.zones[i].node, s->zi.zones[s->zone_map[i]].name);
		if (!a->bad_wm[i] && !a->bad_prot[i]) {
			puts("ok");
			continue;
		}
		puts("differs:");
		if (a->bad_wm[i]) {
			unsigned long e[4] = { w->min, w->low, w->high, w->promo };
			unsigned long g[4] = { pr->min, pr->low, pr->high, pr->promo };

			for (j = 0; j < (pr->has_promo ? 4 : 3); j++)
				if (e[j] != g[j])
					printf("    %-10s kernel %lu, model %lu (%+ld)\n", fld[j], g[j] + b,
					       e[j] + b, (long)g[j] - (long)e[j]);
		}
		if (a->bad_prot[i]) {
			printf("    %-10s kernel ", "protection");
			print_list(pr->protection, pr->nprot);
			fputs(", model ", stdout);
			print_list(w->protection, pr->nprot);
			putchar('\n');
		}
	}
	switch (a->verdict) {
	case 0:
		puts("verdict: exact: every printed number matches the model");
		break;
	case 1:
		printf("verdict: stale: the kernel computed these from managed counts %ld pages away\n"
		       "from today's:", a->moved);
		for (i = 0; i < n; i++) {
			unsigned long then = a->any_wm ? a->then_wm[i] : a->then_prot[i];

			if (then != a->m.zones[i].managed)
				printf(" %d/%s %lu then, %lu now;", a->m.zones[i].node, zname(a, i),
				       then, a->m.zones[i].managed);
		}
		puts("\n  with those, every printed number matches exactly.  Writing any watermark\n"
		     "  sysctl makes the kernel recompute: wmark apply --refresh.");
		break;
	default:
		puts("verdict: mismatch: no managed counts near today's explain these numbers");
	}
}

static int report_json(const struct snapshot *s, const struct attempt *a, const char *kernel)
{
	cJSON *doc = cJSON_CreateObject(), *zones, *arr;
	size_t i;
	int j;

	cJSON_AddStringToObject(doc, "source", s->live ? "live" : "capture");
	cJSON_AddStringToObject(doc, "kernel", kernel);
	cJSON_AddNumberToObject(doc, "page_size", a->m.page_size);
	cJSON_AddItemToObject(doc, "sysctl", report_json_sysctl(&a->sc));
	zones = cJSON_AddArrayToObject(doc, "zones");
	for (i = 0; i < a->m.nzones; i++) {
		const struct wm_zone_wm *w = &a->w[i];
		long b = a->boost[i], k = s->zone_map[i];
		struct zrow r;
		cJSON *zo, *ex, *pa;

		if (k < 0)
			continue;
		show_row(&r, &s->zi.zones[k]);
		arr = report_json_zones(&r, 1, COL_DEFAULT | COL_PROMO);
		zo = cJSON_DetachItemFromArray(arr, 0);
		cJSON_Delete(arr);
		ex = cJSON_AddObjectToObject(zo, "expected");
		json_add_long(ex, "min", (long)w->min + b);
		json_add_long(ex, "low", (long)w->low + b);
		json_add_long(ex, "high", (long)w->high + b);
		json_add_long(ex, "promo", a->pr[i].has_promo ? (long)w->promo + b : RV_NONE);
		if (a->prot_known) {
			pa = cJSON_AddArrayToObject(ex, "protection");
			for (j = 0; j < a->pr[i].nprot && j < WM_MAX_ZONES; j++)
				cJSON_AddItemToArray(pa, cJSON_CreateNumber((double)w->protection[j]));
		}
		cJSON_AddBoolToObject(zo, "match", !a->bad_wm[i] && !a->bad_prot[i]);
		if (a->verdict == 1)
			cJSON_AddNumberToObject(zo, "managed_then",
						(double)(a->any_wm ? a->then_wm[i] : a->then_prot[i]));
		cJSON_AddItemToArray(zones, zo);
	}
	cJSON_AddBoolToObject(doc, "match", a->verdict == 0);
	cJSON_AddStringToObject(doc, "verdict", verdict_name[a->verdict]);
	if (a->verdict == 1)
		cJSON_AddNumberToObject(doc, "managed_moved_pages", (double)a->moved);
	arr = cJSON_AddArrayToObject(doc, "notes");
	for (j = 0; j < a->nnotes; j++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(a->notes[j]));
	return report_json_print(doc);
}

static int cannot_verify(const struct cli_ctx *ctx, const struct snapshot *s, const char *why)
{
	int rc = cli_err(EXIT_CHECK, "verify", "cannot verify: %s", why);

	if (ctx->format == FMT_JSON) {
		cJSON *doc = cJSON_CreateObject();

		cJSON_AddStringToObject(doc, "source", s->live ? "live" : "capture");
		cJSON_AddBoolToObject(doc, "match", 0);
		cJSON_AddStringToObject(doc, "verdict", "cannot-verify");
		cJSON_AddStringToObject(doc, "reason", why);
		report_json_print(doc);
	}
	return rc;
}

int cmd_verify(struct cli_ctx *ctx, int argc, char **argv)
{
	enum { O_INFER = 256, O_MFK, O_WSF, O_LRR, O_EXTRA };
	static const struct option opts[] = {
		{ "infer", no_argument, NULL, O_INFER },
		{ "min-free-kbytes", required_argument, NULL, O_MFK },
		{ "wsf", required_argument, NULL, O_WSF },
		{ "lowmem-reserve-ratio", required_argument, NULL, O_LRR },
		{ "extra-free-kbytes", required_argument, NULL, O_EXTRA },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vopts o = { .mfk = -1, .wsf = -1, .extra = -1 };
	struct wm_diag d = { 0 };
	struct snapshot s;
	struct attempt *att = NULL;
	const char *eras[8];
	char kernel[160];
	int c, rc, ne = 0, k, best = -1;
	bool have_any = false;
	size_t i;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case O_INFER:
			o.infer = true;
			break;
		case O_MFK:
			if (wm_parse_long(optarg, 0, 2147483647L, &o.mfk, &d))
				return cli_usage("verify", "--min-free-kbytes: %s", d.msg);
			break;
		case O_WSF:
			if (wm_parse_long(optarg, 1, 3000, &o.wsf, &d))
				return cli_usage("verify", "--wsf: %s", d.msg);
			break;
		case O_EXTRA:
			if (wm_parse_long(optarg, 0, 2147483647L, &o.extra, &d))
				return cli_usage("verify", "--extra-free-kbytes: %s", d.msg);
			break;
		case O_LRR:
			if ((rc = parse_lrr_list("verify", optarg, &o.lrr)))
				return rc;
			break;
		case 'h':
			verify_usage();
			return EXIT_OK;
		default:
			return cli_usage("verify", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage("verify", "unexpected argument '%s'", argv[optind]);

	if ((rc = snapshot_read(ctx, &s)))
		return rc;
	for (i = 0; i < s.zi.nzones; i++)
		if (s.zi.zones[i].flags & (ZI_HAS_MANAGED | ZI_HAS_PRESENT))
			have_any = true;
	if (!have_any || !s.m.nzones) {
		rc = cannot_verify(ctx, &s, "no managed pages in zoneinfo");
		goto out;
	}

	if (s.kernel_known)
		ne = 1;
	else
		ne = candidate_kernels(&s, eras);
	att = calloc((size_t)ne, sizeof(*att));
	if (!att) {
		rc = cli_err(EXIT_SYSTEM, "verify", "out of memory");
		goto out;
	}
	for (k = 0; k < ne; k++) {
		struct attempt *a = &att[k];

		if (attempt_alloc(a, &s)) {
			rc = cli_err(EXIT_SYSTEM, "verify", "out of memory");
			goto out;
		}
		if (s.kernel_known) {
			a->prof = s.prof;
		} else {
			struct wm_kver kv;

			wm_kver_parse(eras[k], &kv, NULL);
			wm_profile_for(&kv, &a->prof);
			a->assumed = eras[k];
		}
		run_attempt(&s, &o, a);
		if (best < 0 || a->verdict < att[best].verdict)
			best = k;
		if (a->verdict == 0)
			break;
	}
	if (att[best].verdict == 3) {
		rc = cannot_verify(ctx, &s, att[best].sc.min_free_kbytes < 0
				   ? "min_free_kbytes unknown (give --min-free-kbytes, or --infer)"
				   : "watermark_scale_factor unknown (give --wsf, or --infer)");
		goto out;
	}
	if (att[best].assumed) {
		struct attempt *a = &att[best];

		snprintf(kernel, sizeof(kernel), "%s", a->assumed);
		memmove(a->notes[1], a->notes[0], sizeof(a->notes[0]) * (MAX_NOTES - 1));
		snprintf(a->notes[0], sizeof(a->notes[0]),
			 "kernel version unknown: %s-era rules assumed from the zoneinfo format%s (use --kernel)",
			 a->assumed, ne > 1 ? ", the era that fits best" : "");
		if (a->nnotes < MAX_NOTES)
			a->nnotes++;
	} else {
		snprintf(kernel, sizeof(kernel), "%s", ctx->kernel ? ctx->kernel : s.osrelease);
	}
	if (ctx->format == FMT_JSON)
		report_json(&s, &att[best], kernel);
	else
		report_text(&s, &att[best], kernel);
	rc = att[best].verdict == 0 ? EXIT_OK : EXIT_CHECK;
out:
	for (k = 0; att && k < ne; k++)
		attempt_free(&att[k]);
	free(att);
	snapshot_free(&s);
	return rc;
}
