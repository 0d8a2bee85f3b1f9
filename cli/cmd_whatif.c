// SPDX-License-Identifier: MIT
/*
 * cmd_whatif.c - `wmark whatif`: this machine's watermarks after a sysctl
 * change, beside today's, under the kernel's formula and the 2018 RFC's,
 * and what the change does to MemAvailable.
 *
 * What a write recomputes (docs/model.md §5): min_free_kbytes,
 * watermark_scale_factor and (Android) extra_free_kbytes recompute every
 * zone's watermarks and reset boost; lowmem_reserve_ratio recomputes the
 * protection arrays, and so does merely reading it; watermark_boost_factor
 * recomputes nothing.
 */
#include <inttypes.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../calc/boost.h"
#include "../calc/scancount.h"
#include "commands.h"
#include "doc.h"
#include "explain.h"
#include "snapshot.h"
#include "opts.h"

/* A zone of the table: now as zoneinfo printed it, after as the model predicts. */
struct wrow {
	int64_t min_now, low_now, high_now;
	int64_t min, low, high, high_sqrt;
	double gap_now_mib, gap_mib;
};

static bool get_gap_now(const void *row, double *v)
{
	*v = ((const struct wrow *)row)->gap_now_mib;
	return true;
}

static bool get_gap(const void *row, double *v)
{
	*v = ((const struct wrow *)row)->gap_mib;
	return true;
}

#define W(h, member, fl, nd) \
	{ .header = h, .json = #member, .unit = FMT_PAGES, \
	  .off = offsetof(struct wrow, member), .need = nd, .flags = fl, .width = 9 }

static const struct fmt_field wfields[] = {
	W("min now", min_now, 0, 0),
	W("low now", low_now, 0, 0),
	W("high now", high_now, 0, 0),
	W("min", min, FMT_F_GROUP, 0),
	W("low", low, 0, 0),
	W("high", high, 0, 0),
	W("high sqrt", high_sqrt, 0, COL_SQRT),
	{ .header = "gap now", .json = "gap_now_mib", .unit = FMT_MIB, .get = get_gap_now,
	  .flags = FMT_F_GROUP, .width = 9 },
	{ .header = "gap", .json = "gap_mib", .unit = FMT_MIB, .get = get_gap, .width = 9 },
};

#define NWFIELDS (sizeof(wfields) / sizeof(wfields[0]))

static double mib(int64_t pages, unsigned page_size)
{
	return (double)pages * page_size / (1024.0 * 1024.0);
}

/*
 * Per node: file + free against the sum of its zones' high watermarks
 * now and after (calc/scancount.c), where global reclaim turns anon-only.
 * Text lines, or an "anon_only" array in JSON.
 */
static void anon_only_lines(const struct snapshot *s, const struct wm_predicted *after, struct doc *d)
{
	uint64_t *high = calloc(s->st.zi.nzones ? s->st.zi.nzones : 1, sizeof(*high));
	struct wm_scan_in now, then;
	size_t i;
	int node;

	doc_arr(d, "anon_only");
	for (i = 0; high && i < s->st.zi.nzones; i++)
		high[i] = s->st.zi.zones[i].high;
	for (i = 0; high && i < s->st.m.nzones; i++)
		if (after[i].shown && s->st.layout.printed[i] >= 0)
			high[s->st.layout.printed[i]] = after[i].wm.high + after[i].boost;
	for (node = 0; high && node < s->st.zi.nnodes; node++) {
		int64_t mn, ma;

		if (!wm_scan_node(&s->st.zi, node, NULL, &now) || !wm_scan_node(&s->st.zi, node, high, &then))
			continue;
		mn = wm_anon_only_margin(now.node_file, now.free, now.high_sum);
		ma = wm_anon_only_margin(then.node_file, then.free, then.high_sum);
		doc_obj(d, NULL);
		doc_long(d, "node", NULL, node);
		doc_double(d, "margin_now_mib", NULL, mib(mn, s->st.m.page_size));
		doc_double(d, "margin_mib", NULL, mib(ma, s->st.m.page_size));
		doc_bool(d, "anon_only_now", NULL, mn <= 0);
		doc_bool(d, "anon_only", NULL, ma <= 0);
		doc_close(d);
		doc_text(d, "Node %d: file + free %s the anon-only line (Σ high): margin %.1f MiB now, "
			 "%.1f MiB after%s\n", node,
			 (mn > 0) == (ma > 0) ? (ma > 0 ? "stays above" : "stays at or below")
					      : (ma > 0 ? "moves above" : "moves to or below"),
			 mib(mn, s->st.m.page_size), mib(ma, s->st.m.page_size),
			 (mn > 0) != (ma > 0) ? (ma > 0 ? ": global reclaim scans file again"
							: ": global reclaim scans anon only")
					      : "");
	}
	doc_close(d);
	free(high);
}

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
	      "  --formula stock|sqrt|quarter|both\n"
	      "                             the kernel's high watermark rule: stock (also\n"
	      "                             \"default\"), the 2018 RFC's sqrt clamp, low +\n"
	      "                             gap/4 (quarter: kernels patched to run them), or\n"
	      "                             stock with the RFC's column beside it (both, the\n"
	      "                             default)\n"
	      "  -h, --help                 this help\n", stdout);
}

/* The most boost sysctls sc let a zone reach from raw high, or RV_NONE. */
static int64_t boost_ceiling(const struct snapshot *s, const struct wm_sysctl *sc,
			  uint64_t managed, uint64_t high)
{
	if (!s->st.kernel.prof.boost || !(sc->have & WM_HAVE_BOOST))
		return RV_NONE;
	return (int64_t)wm_boost_max(&s->st.kernel.prof, managed, high, sc->boost_factor,
				  s->st.m.pageblock_pages);
}

/*
 * The boost ceiling summed over the zones, today (from the printed high
 * less the printed boost) and after the change (the predicted raw high,
 * the new factor): what a burst of fragmentation events can add to every
 * watermark for a while.
 */
static void boost_line(const struct snapshot *s, const struct wm_sysctl *sc,
		       const struct wm_predicted *after, struct doc *d)
{
	uint64_t now = 0, then = 0, boosted = 0;
	size_t i;

	if (!s->st.kernel.prof.boost || !(s->st.sysctl.have & WM_HAVE_BOOST) || !(sc->have & WM_HAVE_BOOST))
		return;
	for (i = 0; i < s->st.m.nzones; i++) {
		const struct wm_zone_view *v = &s->st.view[i];

		if (!after[i].shown)
			continue;
		/* the kernel scales the raw high: the printed one less the boost */
		boosted += v->boost;
		now += (uint64_t)boost_ceiling(s, &s->st.sysctl, s->st.m.zones[i].managed, v->raw.high);
		then += (uint64_t)boost_ceiling(s, sc, s->st.m.zones[i].managed, after[i].wm.high);
	}
	doc_text(d, "Watermark boost: at most %.1f MiB over the zones now (watermark_boost_factor %" PRId64
		 "), %.1f MiB after (%" PRId64 "); boosted now: %.1f MiB\n",
		 mib((int64_t)now, s->st.m.page_size), s->st.sysctl.boost_factor,
		 mib((int64_t)then, s->st.m.page_size), sc->boost_factor,
		 mib((int64_t)boosted, s->st.m.page_size));
}

const struct option cmd_whatif_opts[] = {
	OPTS_KNOBS,
	{ "formula", required_argument, NULL, OPT_FORMULA },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* One whatif: the machine, the change, the zones after it. */
struct whatif {
	struct snapshot s;
	struct wm_change ch;		/* the knobs given */
	struct wm_sysctl sc;		/* the sysctls after */
	unsigned cols;
	enum wm_high_rule rule;
	bool recompute;			/* the change recomputes the watermarks */
	struct wm_predicted *after;	/* s.st.m.nzones */
	struct wm_reserve rv;
};

/* The options into *w; EXIT_OK, an exit code, or -1 after --help. */
static int whatif_args(const struct cli_ctx *ctx, struct whatif *w)
{
	int c, oi, rc;

	for (oi = 0; oi < ctx->args.nopt; oi++) {
		const char *arg = ctx->args.opt[oi].arg;

		c = ctx->args.opt[oi].code;
		switch (c) {
		case OPT_FORMULA:
			if ((rc = opts_formula("whatif", arg, &w->cols, &w->rule)))
				return rc;
			break;
		case 'h':
			whatif_usage();
			return -1;
		default:
			if (opts_is_knob(c)) {
				if ((rc = opts_knob("whatif", c, arg, &w->ch)))
					return rc;
				break;
			}
			return cli_opt_unhandled("whatif", c);
		}
	}
	if (ctx->args.noperand)
		return cli_usage("whatif", "unexpected argument '%s'", ctx->args.operand[0]);
	/* the model's high and promo follow the rule: show them */
	if (w->rule == WM_HIGH_SQRT)
		w->cols |= COL_DEFAULT;
	if (!w->ch.set)
		return cli_usage("whatif", "name a change: --wsf, --min-free-kbytes, --boost-factor, "
				 "--lowmem-reserve-ratio or --extra-free-kbytes");
	return EXIT_OK;
}

/* The zones after the change beside today's, in text or JSON. */
static void whatif_print(const struct whatif *w, struct doc *d)
{
	const struct snapshot *s = &w->s;
	const struct wm_sysctl *sc = &w->sc;
	size_t i;

	explain_doc_head(d, &(struct explain_head){
		.source = s->live ? "live" : "capture",
		.kernel = s->st.kernel.osrelease[0] ? s->st.kernel.osrelease : "",
		.m = &s->st.m, .geo = &s->st.geo, .sysctl = sc });
	report_doc_sysctl(d, "sysctl_now", &s->st.sysctl);
	doc_text(d, "Kernel %s rules.  Today: min_free_kbytes %" PRId64 ", watermark_scale_factor %" PRId64
		 "; after: %" PRId64 ", %" PRId64 "\n",
		 s->st.kernel.osrelease[0] ? s->st.kernel.osrelease : "(default)",
		 s->st.sysctl.min_free_kbytes, s->st.sysctl.wsf, sc->min_free_kbytes, sc->wsf);
	doc_bool(d, "watermarks_recomputed", NULL, w->recompute);
	if (w->rule != WM_HIGH_STOCK) {
		doc_text(d, "High watermark by the %s rule (--formula %s), not the stock kernel's.\n",
			 w->rule == WM_HIGH_SQRT ? "2018 RFC's sqrt-clamped" : "low + gap/4",
			 opts_formula_name(w->rule));
		doc_str(d, "high_formula", NULL, opts_formula_name(w->rule));
	}
	if (!w->recompute)
		doc_text(d, "This change recomputes no watermark: they stay as they are.\n");
	doc_text(d, "\n%-4s %-8s", "node", "zone");
	doc_header(d, wfields, NWFIELDS, w->cols);
	doc_text(d, "\n");
	doc_arr(d, "zones");
	for (i = 0; i < s->st.m.nzones; i++) {
		const struct wm_predicted *a = &w->after[i];
		const struct zi_zone *z;
		struct zrow row, now;
		struct wrow t;
		int64_t b = (int64_t)a->boost;	/* a recompute resets boost; otherwise it stays */

		if (!a->shown)
			continue;
		z = &s->st.zi.zones[s->st.layout.printed[i]];
		/* text: today's and the model's, as zoneinfo prints them */
		t = (struct wrow){
			.min_now = (int64_t)z->min, .low_now = (int64_t)z->low, .high_now = (int64_t)z->high,
			.min = (int64_t)a->wm.min + b, .low = (int64_t)a->wm.low + b,
			.high = (int64_t)a->wm.high + b, .high_sqrt = (int64_t)a->wm.high_sqrt + b,
			.gap_now_mib = mib((int64_t)(z->low - z->min), s->st.m.page_size),
			.gap_mib = mib((int64_t)(a->wm.low - a->wm.min), s->st.m.page_size),
		};
		doc_text(d, "%-4d %-8s", z->node, z->name);
		doc_cells(d, wfields, NWFIELDS, w->cols, &t);
		doc_text(d, "\n");
		/* JSON: the zone after, with today's under "now" */
		zrow_from_model(&row, s->st.m.zones[i].node, z->name, &s->st.m.zones[i], &a->wm,
				&s->st.kernel.prof);
		row.min = t.min;
		row.low = t.low;
		row.high = t.high;
		/* as zoneinfo will print it: promo only where it is printed */
		row.promo = a->promo_printed ? (int64_t)a->wm.promo + b : RV_NONE;
		row.boost = b;
		row.boost_max = boost_ceiling(s, sc, s->st.m.zones[i].managed, a->wm.high);
		row.nprot = z->nprotection;
		zrow_from_zoneinfo(&now, z);
		report_doc_zone(d, &row, w->cols | COL_PROMO | COL_BOOST |
				(row.boost_max != RV_NONE ? COL_BOOST_MAX : 0), true, &now);
	}
	doc_close(d);
	doc_text(d, "\n");
	boost_line(s, sc, w->after, d);
	explain_reserve(d, &w->rv, s->st.m.page_size, RESERVE_LOW_SUM);
	anon_only_lines(s, w->after, d);
	if ((w->ch.set & WM_HAVE_LRR) || sc->nlrr)
		doc_text(d, "Protection is recomputed whenever lowmem_reserve_ratio is read or written.\n");
	doc_end(d);	/* a write error shows at close_stdout() */
}

int cmd_whatif(struct cli_ctx *ctx, int argc, char **argv)
{
	static struct whatif w;
	static struct doc doc;		/* the JSON writer's buffer: not on the stack */
	unsigned recomputes = 0;
	size_t n;
	int rc;

	(void)argc;
	(void)argv;
	memset(&w, 0, sizeof(w));
	w.cols = COL_DEFAULT | COL_SQRT;
	w.rule = WM_HIGH_STOCK;
	if ((rc = whatif_args(ctx, &w)))
		return rc < 0 ? EXIT_OK : rc;
	if ((rc = snapshot_read(ctx, &w.s)))
		return rc;
	w.s.st.kernel.prof.high_rule = w.rule;	/* a kernel built with another rule */
	if ((rc = snapshot_change(&w.s, "whatif", &w.ch, &w.sc, &recomputes, "")))
		goto out;
	w.recompute = (recomputes & WM_RECOMPUTE_WMARKS) != 0;
	n = w.s.st.m.nzones;
	w.after = calloc(n ? n : 1, sizeof(*w.after));
	if (!w.after) {
		rc = cli_err(EXIT_SYSTEM, "whatif", "out of memory");
		goto out;
	}
	if ((rc = snapshot_predict(&w.s, &w.sc, recomputes, w.after)))
		goto out;
	snapshot_reserve(&w.s, w.after, &w.rv);
	doc_begin(&doc, ctx->format, stdout);
	whatif_print(&w, &doc);
out:
	free(w.after);
	snapshot_free(&w.s);
	return rc;
}
