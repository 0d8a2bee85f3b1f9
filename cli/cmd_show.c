// SPDX-License-Identifier: MIT
/*
 * cmd_show.c - `wmark show`: the kernel's current watermarks, as it
 * prints them, with gaps, where free memory stands, the wsf floor and
 * totals per node.
 */
#include <getopt.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../calc/boost.h"
#include "commands.h"
#include "doc.h"
#include "explain.h"
#include "jsonw.h"
#include "snapshot.h"

static void show_usage(void)
{
	fputs("Usage: wmark [--root DIR] [-j|-o text|json|prom] show\n"
	      "\n"
	      "Print every node and zone as the kernel reports it: managed and free\n"
	      "pages, min/low/high/promo, boost and the most boost watermark_boost_factor\n"
	      "allows (boost_max), the gaps between them, where free memory stands, and\n"
	      "the smallest watermark_scale_factor that would change each zone's gap.\n"
	      "Reads /proc/zoneinfo and the vm sysctls under --root.\n"
	      "\n"
	      "  -h, --help   this help\n",
	      stdout);
}

/* A node's sums of its zones' page counts. */
struct node_row {
	int64_t managed, free, min, low, high;
};

#define N(name) \
	{ .header = #name, .json = #name, .unit = FMT_PAGES, \
	  .off = offsetof(struct node_row, name) }

static const struct fmt_field node_fields[] = {
	N(managed), N(free), N(min), N(low), N(high),
};

#define NNODE_FIELDS (sizeof(node_fields) / sizeof(node_fields[0]))

/* Add a zone's count to a node's sum; a zone without the value adds 0. */
static void node_add(int64_t *sum, int64_t v)
{
	/* zi_parse() bounds every count and the machine's total, so no wrap */
	if (v > 0)
		*sum = (int64_t)((uint64_t)*sum + (uint64_t)v);
}

/*
 * Per node: sums of managed, free and the watermarks, as lines of text or
 * the document's "nodes" objects.  zi_parse() refuses node numbers that
 * go down, so each node's rows are together: one pass.
 */
static void node_totals(const struct zrow *rows, size_t n, struct doc *d)
{
	size_t i, k;

	doc_text(d, "\nPer node (pages):\n");
	doc_arr(d, "nodes");
	for (i = 0; i < n; i = k) {
		struct node_row t = { 0 };
		int node = rows[i].node;

		for (k = i; k < n && rows[k].node == node; k++) {
			node_add(&t.managed, rows[k].managed);
			node_add(&t.free, rows[k].free);
			node_add(&t.min, rows[k].min);
			node_add(&t.low, rows[k].low);
			node_add(&t.high, rows[k].high);
		}
		doc_obj(d, NULL);
		doc_long(d, "node", "node %" PRId64 ": ", node);
		doc_record(d, node_fields, NNODE_FIELDS, 0, &t);
		doc_text(d, "\n");
		doc_close(d);
	}
	doc_close(d);
}

/* The shown rows, for node_totals() as the document's "nodes". */
struct show_rows {
	const struct zrow *rows;
	size_t n;
};

static void show_nodes(struct doc *d, const void *arg)
{
	const struct show_rows *r = arg;

	node_totals(r->rows, r->n, d);
}

/*
 * The model over the machine's zones with its own sysctls, compacted to
 * the zones zoneinfo printed; NULL (and no error) when the sysctls are
 * not known.
 */
static struct wm_zone_wm *show_model(const struct snapshot *s)
{
	struct wm_zone_wm *all, *out;
	struct wm_sysctl sc = s->st.sysctl;
	size_t i;

	if (!(sc.have & WM_HAVE_MFK) || (s->st.kernel.prof.wsf && !(sc.have & WM_HAVE_WSF)) || !s->st.m.nzones)
		return NULL;
	all = calloc(s->st.m.nzones, sizeof(*all));
	if (!all || wm_setup_wmarks(&s->st.kernel.prof, &s->st.m, &sc, all, NULL)) {
		free(all);
		return NULL;
	}
	/* every zone printed, in the model's order (4.12+): no second array */
	for (i = 0; i < s->st.m.nzones && s->st.layout.printed[i] == (int64_t)i; i++)
		;
	if (i == s->st.m.nzones && s->st.zi.nzones == s->st.m.nzones)
		return all;
	out = calloc(s->st.zi.nzones ? s->st.zi.nzones : 1, sizeof(*out));
	if (!out) {
		free(all);
		return NULL;
	}
	for (i = 0; i < s->st.m.nzones; i++)
		if (s->st.layout.printed[i] >= 0)
			out[s->st.layout.printed[i]] = all[i];
	free(all);
	return out;
}

/*
 * The most boost zone z can reach with today's watermark_boost_factor.
 * The kernel scales its raw high, _watermark[WMARK_HIGH]: the printed
 * high less the printed boost (5.16+); 5.0-5.15 print no boost, and
 * their high is taken as printed (raw unless boosted at that moment).
 */
static int64_t boost_ceiling(const struct snapshot *s, const struct zi_zone *z)
{
	uint64_t high;

	if (!(z->flags & ZI_HAS_HIGH) || !(z->flags & ZI_HAS_MANAGED))
		return RV_NONE;
	high = z->high;
	if ((z->flags & ZI_HAS_BOOST) && z->boost <= high)
		high -= z->boost;
	return (int64_t)wm_boost_max(&s->st.kernel.prof, z->managed, high, s->st.sysctl.boost_factor,
				  s->st.m.pageblock_pages);
}

const struct option cmd_show_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_show(struct cli_ctx *ctx, int argc, char **argv)
{
	struct snapshot s;
	struct explain ex;
	struct zrow *rows;
	struct wm_zone_wm *w;
	struct show_rows sr;
	bool promo = false;
	size_t i;
	int rc;

	/* -h is its only option */
	if (ctx->args.nopt) {
		show_usage();
		return EXIT_OK;
	}
	if (ctx->args.noperand)
		return cli_usage("show", "unexpected argument '%s'", ctx->args.operand[0]);

	if ((rc = snapshot_read(ctx, &s)))
		return rc;
	rows = calloc(s.st.zi.nzones ? s.st.zi.nzones : 1, sizeof(*rows));
	if (!rows) {
		snapshot_free(&s);
		return cli_err(EXIT_SYSTEM, "show", "out of memory");
	}
	w = show_model(&s);
	for (i = 0; i < s.st.zi.nzones; i++) {
		zrow_from_zoneinfo(&rows[i], &s.st.zi.zones[i]);
		if (w && rows[i].managed > 0) {
			rows[i].wsf_floor = w[i].wsf_floor;
			/* from the gap the kernel printed */
			if (rows[i].gap != RV_NONE)
				rows[i].wsf_effective = (int64_t)((((uint64_t)rows[i].gap + 1) * 10000 - 1) /
							       (uint64_t)rows[i].managed);
		}
		promo |= (s.st.zi.zones[i].flags & ZI_HAS_PROMO) != 0;
	}

	if (s.st.kernel.prof.boost && (s.st.sysctl.have & WM_HAVE_BOOST))
		for (i = 0; i < s.st.zi.nzones; i++)
			rows[i].boost_max = boost_ceiling(&s, &s.st.zi.zones[i]);

	explain_init(&ex);
	ex.source = s.live ? "live" : "capture";
	ex.kernel_label = s.st.kernel.osrelease[0] ? s.st.kernel.osrelease : NULL;
	ex.profile = &s.st.kernel.prof;
	ex.machine = &s.st.m;
	ex.geo = &s.st.geo;
	ex.sysctl = &s.st.sysctl;
	ex.wm = w;
	ex.rows = rows;
	ex.nrows = s.st.zi.nzones;
	ex.cols = COL_DEFAULT | COL_LIVE | COL_BOOST | (promo ? COL_PROMO : 0) |
		  (s.st.kernel.prof.boost && (s.st.sysctl.have & WM_HAVE_BOOST) ? COL_BOOST_MAX : 0);
	sr = (struct show_rows){ rows, s.st.zi.nzones };
	ex.more = show_nodes;
	ex.more_arg = &sr;
	rc = explain_print(ctx, &ex);
	free(w);
	free(rows);
	snapshot_free(&s);
	return rc;
}
