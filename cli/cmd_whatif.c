// SPDX-License-Identifier: MIT
/*
 * cmd_whatif.c - `wmark whatif`: this machine's watermarks after a sysctl
 * change, beside today's, under the kernel's formula and the 2018 RFC's,
 * and what the change does to MemAvailable.
 *
 * What a write recomputes (kernel-notes.md section 5): min_free_kbytes,
 * watermark_scale_factor and (Android) extra_free_kbytes recompute every
 * zone's watermarks and reset boost; lowmem_reserve_ratio recomputes the
 * protection arrays, and so does merely reading it; watermark_boost_factor
 * recomputes nothing.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "explain.h"
#include "machine.h"
#include "show.h"
#include "whatif.h"

static void whatif_usage(void)
{
	fputs("Usage: wmark [--root DIR] [-j] whatif [OPTIONS]\n"
	      "\n"
	      "Show this machine's watermarks after a change of its vm sysctls, beside\n"
	      "today's, with the 2018 RFC's sqrt-clamped high watermark, and how much\n"
	      "memory the change takes from MemAvailable.  Nothing is written.\n"
	      "\n"
	      "  --wsf N                    watermark_scale_factor\n"
	      "  --min-free-kbytes K        min_free_kbytes\n"
	      "  --boost-factor N           watermark_boost_factor (recomputes nothing)\n"
	      "  --lowmem-reserve-ratio L   lowmem_reserve_ratio, e.g. \"256 256 32 0 0\"\n"
	      "  --extra-free-kbytes K      extra_free_kbytes (Android 4.x kernels)\n"
	      "  --formula default|sqrt|both   high watermark formulas shown (default both)\n"
	      "  -h, --help                 this help\n", stdout);
}

int whatif_parse_change(const char *cmd, int c, const char *arg, struct whatif_change *ch)
{
	struct wm_diag d = { 0 };

	switch (c) {
	case WHATIF_O_WSF:
		if (wm_parse_long(arg, -2147483647L - 1, 2147483647L, &ch->wsf, &d))
			return cli_usage(cmd, "--wsf: %s", d.msg);
		break;
	case WHATIF_O_MFK:
		if (wm_parse_long(arg, -2147483647L - 1, 2147483647L, &ch->mfk, &d))
			return cli_usage(cmd, "--min-free-kbytes: %s", d.msg);
		break;
	case WHATIF_O_BOOST:
		if (wm_parse_long(arg, -2147483647L - 1, 2147483647L, &ch->boost, &d))
			return cli_usage(cmd, "--boost-factor: %s", d.msg);
		break;
	case WHATIF_O_EXTRA:
		if (wm_parse_long(arg, -2147483647L - 1, 2147483647L, &ch->extra, &d))
			return cli_usage(cmd, "--extra-free-kbytes: %s", d.msg);
		break;
	case WHATIF_O_LRR: {
		int rc = parse_lrr_list(cmd, arg, &ch->lrr);

		if (rc)
			return rc;
		break;
	}
	}
	ch->any = true;
	return EXIT_OK;
}

int whatif_apply_change(const char *cmd, const struct snapshot *s,
			const struct whatif_change *ch, struct wm_sysctl *out,
			bool *recompute_wm)
{
	const struct wm_profile *p = &s->prof;

	*out = s->sysctl;
	*recompute_wm = false;
	if (ch->wsf != WHATIF_UNSET) {
		if (!p->wsf)
			return cli_usage(cmd, "--wsf: kernel %u.%u has no watermark_scale_factor (4.6+)",
					 p->kver.major, p->kver.minor);
		if (ch->wsf < 1 || ch->wsf > p->wsf_max)
			return cli_usage(cmd, "--wsf %ld: kernel %u.%u accepts 1..%ld", ch->wsf,
					 p->kver.major, p->kver.minor, p->wsf_max);
		out->wsf = ch->wsf;
		*recompute_wm = true;
	}
	if (ch->mfk != WHATIF_UNSET) {
		if (ch->mfk < 0)
			return cli_usage(cmd, "--min-free-kbytes %ld: the kernel accepts 0..2147483647",
					 ch->mfk);
		out->min_free_kbytes = ch->mfk;
		*recompute_wm = true;
	}
	if (ch->boost != WHATIF_UNSET) {
		if (!p->boost)
			return cli_usage(cmd, "--boost-factor: kernel %u.%u has no watermark boost (5.0+)",
					 p->kver.major, p->kver.minor);
		if (ch->boost < 0)
			return cli_usage(cmd, "--boost-factor %ld: the kernel accepts 0..2147483647",
					 ch->boost);
		out->boost_factor = ch->boost;
	}
	if (ch->extra != WHATIF_UNSET) {
		if (s->sysctl.extra_free_kbytes < 0 && !p->extra_free)
			return cli_err(EXIT_SYSTEM, cmd, "%s/%s: no such sysctl on this kernel "
				       "(extra_free_kbytes is in Android kernels up to 5.4)",
				       strcmp(s->root, "/") ? s->root : "", P_EXTRA);
		if (ch->extra < 0)
			return cli_usage(cmd, "--extra-free-kbytes %ld: the kernel accepts 0..2147483647",
					 ch->extra);
		out->extra_free_kbytes = ch->extra;
		*recompute_wm = true;
	}
	if (ch->lrr.nlrr) {
		if (s->sysctl.nlrr && ch->lrr.nlrr != s->sysctl.nlrr)
			return cli_usage(cmd, "--lowmem-reserve-ratio: this kernel has %d entries, not %d",
					 s->sysctl.nlrr, ch->lrr.nlrr);
		memcpy(out->lrr, ch->lrr.lrr, sizeof(out->lrr));
		out->nlrr = ch->lrr.nlrr;
	}
	if (out->min_free_kbytes < 0)
		return cli_err(EXIT_SYSTEM, cmd, "%s: min_free_kbytes unknown (not in the root)",
			       s->root);
	if (p->wsf && out->wsf < 0)
		return cli_err(EXIT_SYSTEM, cmd, "%s: watermark_scale_factor unknown (not in the root)",
			       s->root);
	if (!p->wsf)
		out->wsf = 10;
	return EXIT_OK;
}

int whatif_predict(const struct snapshot *s, const struct wm_sysctl *sc,
		   bool recompute_wm, struct whatif_zone *out)
{
	struct wm_zone_wm *w = calloc(s->m.nzones ? s->m.nzones : 1, sizeof(*w));
	size_t i;
	int j;

	if (!w)
		return cli_err(EXIT_SYSTEM, "whatif", "out of memory");
	if (wm_setup_wmarks(&s->prof, &s->m, sc, w, NULL) ||
	    (sc->nlrr && wm_protection(&s->prof, &s->m, sc, w, NULL))) {
		free(w);
		return cli_err(EXIT_USAGE, "whatif", "the model cannot compute these zones");
	}
	for (i = 0; i < s->m.nzones; i++) {
		long k = s->zone_map[i];
		const struct zi_zone *z = k >= 0 ? &s->zi.zones[k] : NULL;
		struct whatif_zone *o = &out[i];

		memset(o, 0, sizeof(*o));
		o->shown = z != NULL;
		o->wm = w[i];
		if (z && !recompute_wm) {
			/* nothing recomputes the watermarks: they stay as printed */
			o->wm.min = z->min;
			o->wm.low = z->low;
			o->wm.high = z->high;
			o->wm.promo = (z->flags & ZI_HAS_PROMO) ? z->promo : w[i].promo;
			o->boost = z->boost;
		}
		if (!sc->nlrr && z)
			for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
				o->wm.protection[j] = z->protection[j];
	}
	free(w);
	return EXIT_OK;
}

int cmd_whatif(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "wsf", required_argument, NULL, WHATIF_O_WSF },
		{ "min-free-kbytes", required_argument, NULL, WHATIF_O_MFK },
		{ "boost-factor", required_argument, NULL, WHATIF_O_BOOST },
		{ "lowmem-reserve-ratio", required_argument, NULL, WHATIF_O_LRR },
		{ "extra-free-kbytes", required_argument, NULL, WHATIF_O_EXTRA },
		{ "formula", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct whatif_change ch = WHATIF_CHANGE_INIT;
	struct snapshot s;
	struct wm_sysctl sc;
	struct whatif_zone *after = NULL;
	unsigned cols = COL_DEFAULT | COL_SQRT;
	bool recompute;
	size_t i, n;
	int c, rc;
	struct whatif_reserve rv;
	unsigned long res_now, res_after, low_now, low_after, pb;
	bool have_mi;
	long avail_now, avail_after;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if ((rc = parse_formula("whatif", optarg, &cols)))
				return rc;
			break;
		case 'h':
			whatif_usage();
			return EXIT_OK;
		case WHATIF_O_WSF: case WHATIF_O_MFK: case WHATIF_O_BOOST:
		case WHATIF_O_LRR: case WHATIF_O_EXTRA:
			if ((rc = whatif_parse_change("whatif", c, optarg, &ch)))
				return rc;
			break;
		default:
			return cli_usage("whatif", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage("whatif", "unexpected argument '%s'", argv[optind]);
	if (!ch.any)
		return cli_usage("whatif", "name a change: --wsf, --min-free-kbytes, --boost-factor, "
				 "--lowmem-reserve-ratio or --extra-free-kbytes");

	if ((rc = snapshot_read(ctx, &s)))
		return rc;
	if ((rc = whatif_apply_change("whatif", &s, &ch, &sc, &recompute)))
		goto out;
	n = s.m.nzones;
	after = calloc(n ? n : 1, sizeof(*after));
	if (!after) {
		rc = cli_err(EXIT_SYSTEM, "whatif", "out of memory");
		goto out;
	}
	if ((rc = whatif_predict(&s, &sc, recompute, after)))
		goto out;

	whatif_reserve(&s, after, &rv);
	res_now = rv.total_now;
	res_after = rv.total_after;
	low_now = rv.low_now;
	low_after = rv.low_after;
	have_mi = rv.have_meminfo;
	avail_now = rv.avail_now;
	avail_after = rv.avail_after;
	pb = s.m.page_size / 1024;	/* KiB per page */

	if (ctx->format == FMT_JSON) {
		cJSON *doc = cJSON_CreateObject(), *zones, *r;

		cJSON_AddStringToObject(doc, "source", s.live ? "live" : "capture");
		cJSON_AddStringToObject(doc, "kernel", s.osrelease[0] ? s.osrelease : "");
		cJSON_AddNumberToObject(doc, "page_size", s.m.page_size);
		cJSON_AddItemToObject(doc, "sysctl", report_json_sysctl(&sc));
		cJSON_AddItemToObject(doc, "sysctl_now", report_json_sysctl(&s.sysctl));
		cJSON_AddBoolToObject(doc, "watermarks_recomputed", recompute);
		zones = cJSON_AddArrayToObject(doc, "zones");
		for (i = 0; i < n; i++) {
			struct zrow row, now;
			cJSON *arr, *zo, *no;

			if (!after[i].shown)
				continue;
			zrow_from_model(&row, s.m.zones[i].node, s.zi.zones[s.zone_map[i]].name,
					&s.m.zones[i], &after[i].wm, &s.prof);
			/* a recompute resets boost; otherwise it stays */
			row.min = (long)(after[i].wm.min + after[i].boost);
			row.low = (long)(after[i].wm.low + after[i].boost);
			row.high = (long)(after[i].wm.high + after[i].boost);
			/* as zoneinfo will print it: promo only where it is printed */
			row.promo = (s.zi.zones[s.zone_map[i]].flags & ZI_HAS_PROMO)
					    ? (long)(after[i].wm.promo + after[i].boost) : RV_NONE;
			row.boost = (long)after[i].boost;
			row.nprot = s.zi.zones[s.zone_map[i]].nprotection;
			arr = report_json_zones(&row, 1, cols | COL_PROMO);
			zo = cJSON_DetachItemFromArray(arr, 0);
			cJSON_Delete(arr);
			show_row(&now, &s.zi.zones[s.zone_map[i]]);
			arr = report_json_zones(&now, 1, COL_DEFAULT | COL_PROMO);
			no = cJSON_DetachItemFromArray(arr, 0);
			cJSON_Delete(arr);
			cJSON_DeleteItemFromObject(no, "node");
			cJSON_DeleteItemFromObject(no, "zone");
			cJSON_AddItemToObject(zo, "now", no);
			cJSON_AddItemToArray(zones, zo);
		}
		r = cJSON_AddObjectToObject(doc, "reserve");
		cJSON_AddNumberToObject(r, "totalreserve_pages_now", (double)res_now);
		cJSON_AddNumberToObject(r, "totalreserve_pages_after", (double)res_after);
		cJSON_AddNumberToObject(r, "low_sum_pages_now", (double)low_now);
		cJSON_AddNumberToObject(r, "low_sum_pages_after", (double)low_after);
		if (have_mi) {
			cJSON_AddNumberToObject(r, "mem_available_kb_now", (double)avail_now * pb);
			cJSON_AddNumberToObject(r, "mem_available_kb_after", (double)avail_after * pb);
		} else {
			cJSON_AddNullToObject(r, "mem_available_kb_now");
			cJSON_AddNullToObject(r, "mem_available_kb_after");
		}
		rc = report_json_print(doc);
		goto out;
	}

	printf("Kernel %s rules.  Today: min_free_kbytes %ld, watermark_scale_factor %ld; "
	       "after: %ld, %ld\n", s.osrelease[0] ? s.osrelease : "(default)",
	       s.sysctl.min_free_kbytes, s.sysctl.wsf, sc.min_free_kbytes, sc.wsf);
	if (!recompute)
		puts("This change recomputes no watermark: they stay as they are.");
	printf("\n%-4s %-8s %9s %9s %9s   %9s %9s %9s %9s   %9s %9s\n", "node", "zone",
	       "min now", "low now", "high now", "min", "low", "high",
	       (cols & COL_SQRT) ? "high sqrt" : "", "gap now", "gap");
	for (i = 0; i < n; i++) {
		const struct zi_zone *z;
		const struct whatif_zone *a = &after[i];
		char g0[16], g1[16], hs[16] = "";

		if (!a->shown)
			continue;
		z = &s.zi.zones[s.zone_map[i]];
		fmt_mib(g0, sizeof(g0), (long)(z->low - z->min), s.m.page_size);
		fmt_mib(g1, sizeof(g1), (long)(a->wm.low - a->wm.min), s.m.page_size);
		if (cols & COL_SQRT)
			snprintf(hs, sizeof(hs), "%lu", a->wm.high_sqrt + a->boost);
		printf("%-4d %-8s %9lu %9lu %9lu   %9lu %9lu %9lu %9s   %8sM %8sM\n",
		       z->node, z->name, z->min, z->low, z->high, a->wm.min + a->boost,
		       a->wm.low + a->boost, a->wm.high + a->boost, hs, g0, g1);
	}
	printf("\nReserved (totalreserve_pages): %.1f MiB now, %.1f MiB after (%+.1f MiB)\n",
	       (double)res_now * s.m.page_size / 1048576.0,
	       (double)res_after * s.m.page_size / 1048576.0,
	       ((double)res_after - (double)res_now) * s.m.page_size / 1048576.0);
	if (have_mi)
		printf("MemAvailable: %ld MiB now, %ld MiB after (%+ld MiB)\n",
		       avail_now * (long)pb / 1024, avail_after * (long)pb / 1024,
		       (avail_after - avail_now) * (long)pb / 1024);
	else
		puts("MemAvailable: not computed (no proc/meminfo under the root)");
	if (ch.lrr.nlrr || sc.nlrr)
		puts("Protection is recomputed whenever lowmem_reserve_ratio is read or written.");
	rc = EXIT_OK;
out:
	free(after);
	snapshot_free(&s);
	return rc;
}
