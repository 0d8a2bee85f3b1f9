// SPDX-License-Identifier: MIT
/*
 * cmd_verify.c - `wmark verify`: recompute every zone from its managed
 * pages and the sysctls, and compare with every number the kernel printed.
 *
 * Verdicts: "exact" when all match; "stale" when the kernel computed them
 * from managed counts that have moved since (within 1%), which infer.c
 * proves by finding those counts; "mismatch" otherwise.
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

struct vopts {
	bool infer;
	long mfk, wsf, extra;
	struct wm_sysctl lrr;
};

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

struct note {
	char text[320];
};

struct notes {
	struct note n[16];
	int count;
};

static void note(struct notes *ns, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct notes *ns, const char *fmt, ...)
{
	va_list ap;

	if (ns->count >= 16)
		return;
	va_start(ap, fmt);
	vsnprintf(ns->n[ns->count++].text, sizeof(ns->n[0].text), fmt, ap);
	va_end(ap);
}

/* A kernel version from the file's format, when no osrelease says it. */
static const char *guess_kernel(const struct snapshot *s, bool pre_4_6)
{
	unsigned any = 0;
	bool empty_printed = false;
	size_t i;

	for (i = 0; i < s->zi.nzones; i++) {
		const struct zi_zone *z = &s->zi.zones[i];

		any |= z->flags;
		if ((z->flags & ZI_HAS_PRESENT) && z->present == 0)
			empty_printed = true;
	}
	if (any & ZI_HAS_HIGH_MIN)
		return "6.13";
	if (any & ZI_HAS_PROMO)
		return "6.12";
	if (any & ZI_HAS_BOOST)
		return "5.16";
	if (!(any & ZI_HAS_MANAGED))
		return "3.7";
	if (pre_4_6)
		return "4.5";
	return empty_printed ? "5.15" : "4.9";
}

/* What zoneinfo printed, per model zone, with a known boost taken off. */
static void printed(const struct snapshot *s, struct wm_printed *pr, long *boost)
{
	size_t i;
	int j;

	for (i = 0; i < s->m.nzones; i++) {
		long k = s->zone_map[i];
		const struct zi_zone *z;
		unsigned long b;

		memset(&pr[i], 0, sizeof(pr[i]));
		boost[i] = 0;
		if (k < 0)
			continue;
		z = &s->zi.zones[k];
		b = (z->flags & ZI_HAS_BOOST) ? z->boost : 0;
		boost[i] = (long)b;
		pr[i].shown = true;
		pr[i].has_wm = (z->flags & (ZI_HAS_MIN | ZI_HAS_LOW | ZI_HAS_HIGH)) ==
			       (ZI_HAS_MIN | ZI_HAS_LOW | ZI_HAS_HIGH) && z->min >= b;
		pr[i].has_promo = (z->flags & ZI_HAS_PROMO) != 0;
		pr[i].min = z->min - b;
		pr[i].low = z->low - b;
		pr[i].high = z->high - b;
		pr[i].promo = pr[i].has_promo ? z->promo - b : 0;
		pr[i].has_prot = (z->flags & ZI_HAS_PROTECTION) != 0;
		pr[i].nprot = z->nprotection;
		for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
			pr[i].protection[j] = z->protection[j];
	}
}

/* Pick a min_free_kbytes in the inferred range, preferring a rule's value. */
static long pick_mfk(const struct snapshot *s, const struct wm_inferred *inf,
		     const struct wm_sysctl *sc, struct notes *ns)
{
	static const enum wm_thp modes[] = { WM_THP_MADVISE, WM_THP_NEVER, WM_THP_UNSUPPORTED };
	struct wm_mfk mfk;
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		struct wm_sysctl t = *sc;

		if (wm_boot_min_free_kbytes(&s->prof, &s->m, &t, modes[i], &mfk, NULL))
			continue;
		if (mfk.value >= inf->mfk_lo && mfk.value <= inf->mfk_hi) {
			note(ns, "min_free_kbytes inferred: %ld..%ld KiB, explained by %s (%ld)",
			     inf->mfk_lo, inf->mfk_hi,
			     mfk.rule == WM_MFK_THP ? "THP's recommendation" :
			     mfk.rule == WM_MFK_SQRT_RERUN ? "the sqrt rule re-run with THP off" :
			     "the boot sqrt rule", mfk.value);
			return mfk.value;
		}
	}
	note(ns, "min_free_kbytes inferred: %ld..%ld KiB, neither the sqrt rule nor THP's "
	     "recommendation: set by the user (or computed from other managed counts)",
	     inf->mfk_lo, inf->mfk_hi);
	return inf->mfk_lo;
}

static const char *const fld[] = { "min", "low", "high", "promo" };

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
	struct wm_sysctl sc;
	struct wm_printed *pr = NULL;
	struct wm_zone_wm *w = NULL;
	struct wm_inferred inf;
	struct notes ns = { .count = 0 };
	unsigned long *stale_wm = NULL, *stale_prot = NULL;
	long *boost = NULL, *offset = NULL;
	bool *bad_wm = NULL, *bad_prot = NULL, any_wm = false, any_prot = false;
	bool prot_known, have_any = false;
	const char *verdict;
	long moved = 0;
	size_t i, n;
	int c, rc, j;

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
	n = s.m.nzones;
	for (i = 0; i < s.zi.nzones; i++)
		if (s.zi.zones[i].flags & (ZI_HAS_MANAGED | ZI_HAS_PRESENT))
			have_any = true;
	if (!have_any || !n) {
		rc = cli_err(EXIT_CHECK, "verify", "cannot verify: no managed pages in %s/%s",
			     strcmp(s.root, "/") ? s.root : "", P_ZONEINFO);
		if (ctx->format == FMT_JSON) {
			cJSON *doc = cJSON_CreateObject();

			cJSON_AddStringToObject(doc, "source", s.live ? "live" : "capture");
			cJSON_AddBoolToObject(doc, "match", 0);
			cJSON_AddStringToObject(doc, "verdict", "cannot-verify");
			cJSON_AddStringToObject(doc, "reason", "no managed pages");
			report_json_print(doc);
		}
		snapshot_free(&s);
		return rc;
	}
	if (s.used_present)
		note(&ns, "zoneinfo has no managed lines (kernels before 3.8): present pages used, as those kernels did");

	pr = calloc(n, sizeof(*pr));
	w = calloc(n, sizeof(*w));
	boost = calloc(n, sizeof(*boost));
	offset = calloc(n, sizeof(*offset));
	bad_wm = calloc(n, sizeof(*bad_wm));
	bad_prot = calloc(n, sizeof(*bad_prot));
	stale_wm = calloc(n, sizeof(*stale_wm));
	stale_prot = calloc(n, sizeof(*stale_prot));
	if (!pr || !w || !boost || !offset || !bad_wm || !bad_prot || !stale_wm || !stale_prot) {
		rc = cli_err(EXIT_SYSTEM, "verify", "out of memory");
		goto out;
	}
	printed(&s, pr, boost);

	if (!s.kernel_known) {
		struct wm_kver k;
		const char *g;

		wm_profile_default(&s.prof);
		wm_infer_sysctls(&s.prof, &s.m, pr, &inf);
		g = guess_kernel(&s, inf.pre_4_6);
		wm_kver_parse(g, &k, NULL);
		wm_profile_for(&k, &s.prof);
		note(&ns, "kernel version unknown: %s rules assumed from the zoneinfo format (use --kernel)", g);
	}

	sc = s.sysctl;
	if (o.mfk >= 0)
		sc.min_free_kbytes = o.mfk;
	if (o.wsf >= 0)
		sc.wsf = o.wsf;
	if (o.extra >= 0)
		sc.extra_free_kbytes = o.extra;
	if (o.lrr.nlrr)
		memcpy(sc.lrr, o.lrr.lrr, sizeof(sc.lrr)), sc.nlrr = o.lrr.nlrr;
	if (!s.prof.wsf)
		sc.wsf = 10;	/* unused before 4.6 */
	if (o.infer) {
		wm_infer_sysctls(&s.prof, &s.m, pr, &inf);
		if (sc.wsf < 0 && s.prof.wsf) {
			if (inf.wsf_lo < 0) {
				note(&ns, "watermark_scale_factor: no value explains every zone's gap");
				sc.wsf = 10;
			} else if (inf.wsf_hidden) {
				sc.wsf = 10 <= inf.wsf_hi ? 10 : inf.wsf_hi;
				note(&ns, "watermark_scale_factor inferred: at most %ld (every gap is min/4, "
				     "so the floor hides it); %ld used", inf.wsf_hi, sc.wsf);
			} else {
				sc.wsf = inf.wsf_lo;
				if (inf.wsf_lo == inf.wsf_hi)
					note(&ns, "watermark_scale_factor inferred: %ld", sc.wsf);
				else
					note(&ns, "watermark_scale_factor inferred: %ld..%ld", inf.wsf_lo, inf.wsf_hi);
			}
		}
		if (sc.min_free_kbytes < 0) {
			if (inf.mfk_lo < 0)
				note(&ns, "min_free_kbytes: no value explains every zone's min");
			else
				sc.min_free_kbytes = pick_mfk(&s, &inf, &sc, &ns);
		}
		if (inf.pre_4_6)
			note(&ns, "the watermarks follow the pre-4.6 rule: low = min + share/4, high = min + share/2");
		if (sc.nlrr == 0) {
			enum wm_zone_type types[WM_MAX_ZONES];
			struct wm_sysctl def;
			int per = 0;

			for (i = 0; i < n && s.m.zones[i].node == s.m.zones[0].node; i++)
				types[per++] = s.m.zones[i].type;
			wm_sysctl_defaults(&s.prof, per, types, &def);
			memcpy(sc.lrr, def.lrr, sizeof(sc.lrr));
			sc.nlrr = def.nlrr;
			note(&ns, "lowmem_reserve_ratio not captured: the kernel's defaults assumed");
		}
	}
	if (sc.min_free_kbytes < 0 || (s.prof.wsf && sc.wsf < 0)) {
		rc = cli_err(EXIT_CHECK, "verify", "cannot verify: %s unknown (not under %s; give it as an option, or --infer)",
			     sc.min_free_kbytes < 0 ? "min_free_kbytes" : "watermark_scale_factor", s.root);
		goto out;
	}
	prot_known = sc.nlrr > 0;
	if (!prot_known)
		note(&ns, "protection not checked: lowmem_reserve_ratio unknown");

	if (wm_setup_wmarks(&s.prof, &s.m, &sc, w, &d) ||
	    (prot_known && wm_protection(&s.prof, &s.m, &sc, w, &d))) {
		rc = cli_diag("verify", -1, &d);
		goto out;
	}

	/* Compare. */
	for (i = 0; i < n; i++) {
		unsigned long e[4] = { w[i].min, w[i].low, w[i].high, w[i].promo };
		unsigned long g[4] = { pr[i].min, pr[i].low, pr[i].high, pr[i].promo };
		int nf = pr[i].has_promo ? 4 : 3;

		if (!pr[i].shown)
			continue;
		if (pr[i].has_wm) {
			for (j = 0; j < nf; j++)
				if (e[j] != g[j])
					bad_wm[i] = true;
			/* 5.0-5.15 print min+boost without a boost line: a uniform offset. */
			if (bad_wm[i] && s.prof.boost && !s.prof.boost_printed && g[0] > e[0]) {
				long off = (long)(g[0] - e[0]);
				bool uniform = true;

				for (j = 1; j < nf; j++)
					if ((long)(g[j] - e[j]) != off)
						uniform = false;
				if (uniform) {
					offset[i] = off;
					bad_wm[i] = false;
					note(&ns, "%d/%s: every watermark is %ld pages above the model: "
					     "a watermark boost (not printed before 5.16)",
					     s.m.zones[i].node, wm_zone_type_name(s.m.zones[i].type), off);
				}
			}
		}
		if (prot_known && pr[i].has_prot)
			for (j = 0; j < pr[i].nprot && j < WM_MAX_ZONES; j++)
				if (pr[i].protection[j] != w[i].protection[j])
					bad_prot[i] = true;
		any_wm |= bad_wm[i];
		any_prot |= bad_prot[i];
	}

	if (!any_wm && !any_prot) {
		verdict = "exact";
	} else {
		bool wm_ok = !any_wm || wm_stale_watermarks(&s.prof, &s.m, &sc, pr, stale_wm);
		bool prot_ok = !any_prot || wm_stale_protection(&s.prof, &s.m, &sc, pr, stale_prot);

		verdict = wm_ok && prot_ok ? "stale" : "mismatch";
		for (i = 0; i < n && wm_ok && prot_ok; i++) {
			unsigned long then = any_wm ? stale_wm[i] : stale_prot[i];
			long dlt = (long)s.m.zones[i].managed - (long)then;

			moved += dlt < 0 ? -dlt : dlt;
		}
	}

	/* Report. */
	if (ctx->format == FMT_JSON) {
		cJSON *doc = cJSON_CreateObject(), *zones, *arr;
		char kb[64];

		cJSON_AddStringToObject(doc, "source", s.live ? "live" : "capture");
		snprintf(kb, sizeof(kb), "%s", s.osrelease[0] ? s.osrelease : "");
		if (!kb[0])
			snprintf(kb, sizeof(kb), "%u.%u", s.prof.kver.major, s.prof.kver.minor);
		cJSON_AddStringToObject(doc, "kernel", kb);
		cJSON_AddNumberToObject(doc, "page_size", s.m.page_size);
		cJSON_AddItemToObject(doc, "sysctl", report_json_sysctl(&sc));
		zones = cJSON_AddArrayToObject(doc, "zones");
		for (i = 0; i < n; i++) {
			struct zrow r;
			cJSON *zo, *ex, *pa;
			long k = s.zone_map[i];

			if (k < 0)
				continue;
			show_row(&r, &s.zi.zones[k]);
			arr = report_json_zones(&r, 1, COL_DEFAULT | COL_PROMO);
			zo = cJSON_DetachItemFromArray(arr, 0);
			cJSON_Delete(arr);
			ex = cJSON_AddObjectToObject(zo, "expected");
			{
				long b = boost[i] + offset[i];

				cJSON_AddNumberToObject(ex, "min", (double)(w[i].min + (unsigned long)b));
				cJSON_AddNumberToObject(ex, "low", (double)(w[i].low + (unsigned long)b));
				cJSON_AddNumberToObject(ex, "high", (double)(w[i].high + (unsigned long)b));
				if (pr[i].has_promo)
					cJSON_AddNumberToObject(ex, "promo", (double)(w[i].promo + (unsigned long)b));
				else
					cJSON_AddNullToObject(ex, "promo");
			}
			if (prot_known) {
				pa = cJSON_AddArrayToObject(ex, "protection");
				for (j = 0; j < pr[i].nprot && j < WM_MAX_ZONES; j++)
					cJSON_AddItemToArray(pa, cJSON_CreateNumber((double)w[i].protection[j]));
			}
			cJSON_AddBoolToObject(zo, "match", !bad_wm[i] && !bad_prot[i]);
			if (strcmp(verdict, "stale") == 0)
				cJSON_AddNumberToObject(zo, "managed_then",
							(double)(any_wm ? stale_wm[i] : stale_prot[i]));
			cJSON_AddItemToArray(zones, zo);
		}
		cJSON_AddBoolToObject(doc, "match", strcmp(verdict, "exact") == 0);
		cJSON_AddStringToObject(doc, "verdict", verdict);
		if (strcmp(verdict, "stale") == 0)
			cJSON_AddNumberToObject(doc, "managed_moved_pages", (double)moved);
		arr = cJSON_AddArrayToObject(doc, "notes");
		for (j = 0; j < ns.count; j++)
			cJSON_AddItemToArray(arr, cJSON_CreateString(ns.n[j].text));
		report_json_print(doc);
	} else {
		printf("Kernel %s%s rules; min_free_kbytes %ld, watermark_scale_factor %ld",
		       s.osrelease[0] ? s.osrelease : "", s.osrelease[0] ? "" : "(unknown)",
		       sc.min_free_kbytes, sc.wsf);
		if (prot_known) {
			fputs(", lowmem_reserve_ratio", stdout);
			for (j = 0; j < sc.nlrr; j++)
				printf(" %ld", sc.lrr[j]);
		}
		putchar('\n');
		for (j = 0; j < ns.count; j++)
			printf("note: %s\n", ns.n[j].text);
		for (i = 0; i < n; i++) {
			const char *zn;
			long b = boost[i] + offset[i];

			if (s.zone_map[i] < 0)
				continue;
			zn = s.zi.zones[s.zone_map[i]].name;
			if (!bad_wm[i] && !bad_prot[i]) {
				printf("%d %-8s ok\n", s.m.zones[i].node, zn);
				continue;
			}
			printf("%d %-8s differs:\n", s.m.zones[i].node, zn);
			if (bad_wm[i]) {
				unsigned long e[4] = { w[i].min, w[i].low, w[i].high, w[i].promo };
				unsigned long g[4] = { pr[i].min, pr[i].low, pr[i].high, pr[i].promo };

				for (j = 0; j < (pr[i].has_promo ? 4 : 3); j++)
					if (e[j] != g[j])
						printf("    %-6s kernel %lu, model %lu (%+ld)\n", fld[j],
						       g[j] + (unsigned long)b, e[j] + (unsigned long)b,
						       (long)g[j] - (long)e[j]);
			}
			if (bad_prot[i]) {
				fputs("    protection kernel (", stdout);
				for (j = 0; j < pr[i].nprot; j++)
					printf("%s%ld", j ? ", " : "", pr[i].protection[j]);
				fputs("), model (", stdout);
				for (j = 0; j < pr[i].nprot; j++)
					printf("%s%ld", j ? ", " : "", w[i].protection[j]);
				fputs(")\n", stdout);
			}
		}
		if (strcmp(verdict, "exact") == 0) {
			puts("verdict: exact: every printed number matches the model");
		} else if (strcmp(verdict, "stale") == 0) {
			printf("verdict: stale: the kernel computed these from managed counts %ld pages away from\n"
			       "today's (", moved);
			for (i = 0, j = 0; i < n; i++) {
				unsigned long then = any_wm ? stale_wm[i] : stale_prot[i];

				if (then != s.m.zones[i].managed)
					printf("%s%s %lu then, %lu now", j++ ? "; " : "",
					       wm_zone_type_name(s.m.zones[i].type), then,
					       s.m.zones[i].managed);
			}
			puts(").\n  With those counts every printed number matches exactly.  Writing any watermark\n"
			     "  sysctl makes the kernel recompute: wmark apply --refresh.");
		} else {
			puts("verdict: mismatch: no managed counts within 1% of today's explain these numbers");
		}
	}
	rc = strcmp(verdict, "exact") == 0 ? EXIT_OK : EXIT_CHECK;
out:
	free(pr);
	free(w);
	free(boost);
	free(offset);
	free(bad_wm);
	free(bad_prot);
	free(stale_wm);
	free(stale_prot);
	snapshot_free(&s);
	return rc;
}
