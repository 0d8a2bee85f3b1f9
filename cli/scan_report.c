// SPDX-License-Identifier: MIT
/*
 * scan_report.c - what `wmark scan` prints: for each target, its lists
 * and what the run assumed, then the pages reclaim asks of each list at
 * each priority under one era's rule (or all of them side by side), and
 * the reason, as text or one JSON document.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../calc/zoneinfo.h"
#include "doc.h"
#include "fmt.h"
#include "scan.h"

static const char *why_base(enum wm_scan_rule rule, const struct wm_scan_out *o, char *b,
			    size_t n);

/* The reason, and which active lists the kernel skips although nr[] counts them. */
static const char *why_text(enum wm_scan_rule rule, const struct wm_scan_out *o, char *b,
			    size_t n)
{
	char base[200];
	bool sa = o->nr[WM_LRU_ACTIVE_ANON] && !o->deactivate[0];
	bool sf = o->nr[WM_LRU_ACTIVE_FILE] && !o->deactivate[1];

	snprintf(b, n, "%s%s%s%s", why_base(rule, o, base, sizeof(base)),
		 sa || sf ? "; not shrunk (inactive not low): " : "",
		 sa ? (sf ? "active anon, active file" : "active anon") : "",
		 sf && !sa ? "active file" : "");
	return b;
}

static const char *why_base(enum wm_scan_rule rule, const struct wm_scan_out *o, char *b,
			    size_t n)
{
	switch (o->why) {
	case WM_WHY_NO_SWAP:
		return "no swap: file only";
	case WM_WHY_MEMCG_SWAPPINESS0:
		return "cgroup reclaim, swappiness 0: file only";
	case WM_WHY_ANON_ONLY_ARG:
		return "swappiness=max: anon only";
	case WM_WHY_PRIORITY0:
		return "priority 0: every list by its size";
	case WM_WHY_FILE_TINY:
		return "file + free <= Σ high: anon only";
	case WM_WHY_INACTIVE_FILE_OK:
		if (rule <= WM_RULE_315)
			return "active file <= inactive file: file only";
		return rule >= WM_RULE_58 ? "cache trim mode (enough inactive file): file only"
					  : "enough inactive file: file only";
	case WM_WHY_BELOW_MIN:
		return "usage <= memory.min: the cgroup is skipped";
	case WM_WHY_BELOW_LOW:
		return "usage <= memory.low: skipped until the pass that disregards it "
		       "(--low-reclaim)";
	case WM_WHY_FRACTION:
		snprintf(b, n, "anon:file %" PRIu64 ":%" PRIu64 " of %" PRIu64 "%s%s", o->fraction[0], o->fraction[1],
			 o->denominator, o->forced ? "; small lists forced to 32" : "",
			 o->tiny_guarded ? "; file + free <= Σ high, but inactive anon is "
					   "low or too small" : "");
		return b;
	}
	return "?";
}

static const char *bal_short(enum wm_scan_balance b)
{
	return wm_scan_balance_name(b) + 5;	/* "SCAN_" */
}

static double mib(int64_t pages, unsigned ps)
{
	return (double)pages * ps / (1024.0 * 1024.0);
}

static void pages_or_max(uint64_t v, char *b, size_t n)
{
	if (v >= ZI_MAX_PAGES)
		snprintf(b, n, "max");
	else
		snprintf(b, n, "%" PRIu64, v);
}

/* A target's lists, its anon-only line, swappiness and protection, in text. */
static void text_head(struct doc *d, const struct target *t, const char *kernel,
		      enum wm_scan_rule def)
{
	const struct wm_scan_in *in = &t->in;

	doc_text(d, "%s: inactive_anon %" PRIu64 ", active_anon %" PRIu64 ", inactive_file %" PRIu64 ", active_file %" PRIu64 " pages\n",
	       t->name, in->lru[0], in->lru[1], in->lru[2], in->lru[3]);
	if (!in->memcg && t->have_line) {
		int64_t m = wm_anon_only_margin(in->node_file, in->free, in->high_sum);

		doc_text(d, "  free %" PRIu64 ", Σ high %" PRIu64 ": file + free is %.1f MiB %s the anon-only line%s\n",
		       in->free, in->high_sum, mib(m < 0 ? -m : m, in->page_size),
		       m > 0 ? "above" : "at or below",
		       m > 0 ? "" : " (global reclaim scans anon only)");
	}
	doc_text(d, "  swappiness %d, swap %s, %s reclaim; kernel %s (its rule: %s)\n", in->swappiness,
	       in->swap ? "available" : "none", in->memcg ? "cgroup" : "global",
	       kernel[0] ? kernel : "unknown", wm_scan_rule_name(def));
	if (t->have_prot) {
		char mn[32], lw[32];

		pages_or_max(t->min, mn, sizeof(mn));
		pages_or_max(t->low, lw, sizeof(lw));
		doc_text(d, "  memory.min %s, memory.low %s, usage %" PRIu64 " pages: %s\n", mn, lw, t->usage,
		       t->from == FROM_SELF ? "not applied: the cgroup is the reclaim target, "
					      "whose own protection the kernel ignores "
					      "(mem_cgroup_protection()); --from-parent for "
					      "reclaim from above"
		       : t->from == FROM_PARENT ? (in->memcg_low_reclaim
						   ? "applied (reclaim from the parent), "
						     "memory.low disregarded"
						   : "applied (reclaim from the parent)")
		       : in->memcg_low_reclaim ? "applied (global reclaim: the parent is the "
						 "root cgroup), memory.low disregarded"
		       : "applied (global reclaim: the parent is the root cgroup)");
	}
}

/*
 * 7.x: the page cache fills large folios, and isolate_lru_folios() takes
 * whole folios until a batch's pages reach its target (SWAP_CLUSTER_MAX
 * a batch, shrink_lruvec()): a list asked N scans up to N + ceil(N / 32)
 * x (F - 1) for folios of up to F pages.
 */
static uint64_t folio_bound(uint64_t n, uint64_t folio)
{
	return n ? n + (n + 31) / 32 * (folio - 1) : 0;
}

static void text_folio_note(struct doc *d, uint64_t folio, bool rows)
{
	doc_text(d, "  counts are of order-0 pages: this kernel's LRU holds large folios, taken\n"
	       "  whole, so a list asked N pages scans up to N + ceil(N / 32) x %" PRIu64 "\n"
	       "  (folios of up to %" PRIu64 " pages%s)\n",
	       folio - 1, folio, rows ? "; each row's 'up to'" : "");
}

static void text_assumed(struct doc *d, const struct target *t, const struct scan_opts *o,
			  enum wm_scan_rule lo, enum wm_scan_rule hi)
{
	if (lo < WM_RULE_58 && !o->scanned && !o->rotated)
		doc_text(d, "  assumed: recent_scanned = recent_rotated = 0 before 5.8 (not exported; "
			   "give --recent-scanned, --recent-rotated)\n");
	if (hi >= WM_RULE_58 && !o->cost)
		doc_text(d, "  assumed: anon_cost = file_cost = 0 from 5.8 (not exported; give --cost)\n");
	if (hi >= WM_RULE_413)
		doc_text(d, "  assumed: no workingset refaults since the last reclaim\n");
	if (!t->in.memcg && !t->have_line)
		doc_text(d, "  assumed: file + free above Σ high (give --free and --high)\n");
	if (t->target_assumed)
		doc_text(d, "  assumed: the node's lists decide the balance as the cgroup's own "
			   "would (no zoneinfo)\n");
	if (t->from != FROM_SELF && t->have_prot && lo < WM_RULE_58)
		doc_text(d, "  not modelled: memory.min and memory.low under the rules before 5.8 "
			   "(their counts are unprotected)\n");
}

/* The header of one rule's table, in text. */
static void text_rule_head(struct doc *d, enum wm_scan_rule rule, uint64_t folio)
{
	doc_text(d, "\nrule %s\n%4s %13s %13s %13s %13s  %-10s %s%s\n", wm_scan_rule_name(rule), "prio",
		 "inactive_anon", "active_anon", "inactive_file", "active_file", "balance", "why",
		 folio > 1 ? " (up to: the large-folio bound of each list)" : "");
}

/* One priority's row of that table. */
static void text_rule_row(struct doc *d, enum wm_scan_rule rule, int p, const struct wm_scan_out *o,
			  uint64_t folio)
{
	char b[512], up[4 * 21 + 4] = "";

	if (folio > 1)
		snprintf(up, sizeof(up), " (up to %" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")",
			 (uint64_t)folio_bound(o->nr[0], folio), (uint64_t)folio_bound(o->nr[1], folio),
			 (uint64_t)folio_bound(o->nr[2], folio), (uint64_t)folio_bound(o->nr[3], folio));
	doc_text(d, "%4d %13" PRIu64 " %13" PRIu64 " %13" PRIu64 " %13" PRIu64 "  %-10s %s%s\n", p,
		 o->nr[0], o->nr[1], o->nr[2], o->nr[3], wm_scan_balance_name(o->balance),
		 why_text(rule, o, b, sizeof(b)), up);
}

/* Every rule side by side (--all), in text: a cell a rule and priority. */
static void text_all(struct doc *d, const struct target *t)
{
	char cell[13][WM_NR_RULES][64];
	int p, r, w = 0;

	if (!doc_is_text(d))
		return;
	for (p = 12; p >= 0; p--)
		for (r = 0; r < WM_NR_RULES; r++) {
			struct wm_scan_out o;
			struct wm_diag diag = { 0 };
			int len;

			wm_scan_count((enum wm_scan_rule)r, &t->in, p, &o, &diag);
			len = snprintf(cell[p][r], sizeof(cell[p][r]), "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 " %s", o.nr[0],
				       o.nr[1], o.nr[2], o.nr[3], bal_short(o.balance));
			if (len > w)
				w = len;
		}
	doc_text(d, "\nEach cell: inactive_anon,active_anon,inactive_file,active_file balance\n%4s",
		 "prio");
	for (r = 0; r < WM_NR_RULES; r++)
		doc_text(d, "  %-*s", r < WM_NR_RULES - 1 ? w : 0, wm_scan_rule_name((enum wm_scan_rule)r));
	doc_text(d, "\n");
	for (p = 12; p >= 0; p--) {
		doc_text(d, "%4d", p);
		for (r = 0; r < WM_NR_RULES; r++)
			doc_text(d, "  %-*s", r < WM_NR_RULES - 1 ? w : 0, cell[p][r]);
		doc_text(d, "\n");
	}
}

/*
 * One target: in text its head, what was assumed and a table a rule (or
 * the rules side by side); in JSON an object with its inputs and, a rule
 * each, the counts at every priority.
 */
static void target_doc(struct doc *d, const struct scan_run *run, const struct target *t,
		       const struct scan_opts *o)
{
	const struct wm_scan_in *in = &t->in;
	int r, p, lo = run->lo, hi = run->hi;
	uint64_t folio = run->folio;
	char b[512];

	text_head(d, t, run->kernel, run->def);
	if (folio > 1)
		text_folio_note(d, folio, !o->all);
	text_assumed(d, t, o, (enum wm_scan_rule)lo, (enum wm_scan_rule)hi);
	doc_obj(d, NULL);

	if (t->node >= 0)
		doc_double(d, "node", NULL, t->node);
	if (t->cgroup) {
		doc_str(d, "cgroup", NULL, t->cgroup);
		doc_str(d, "reclaim_from", NULL, t->from == FROM_SELF ? "self"
							      : t->from == FROM_PARENT ? "parent"
							      : "global");
	}
	if (t->have_prot) {
		doc_obj(d, "protection");

		doc_double(d, "min", NULL, (double)t->min);
		doc_double(d, "low", NULL, (double)t->low);
		doc_double(d, "usage", NULL, (double)t->usage);
		doc_bool(d, "applied", NULL, t->from != FROM_SELF);
		doc_bool(d, "low_reclaim", NULL, t->in.memcg_low_reclaim);
		doc_close(d);
	}
	doc_double(d, "inactive_anon", NULL, (double)in->lru[0]);
	doc_double(d, "active_anon", NULL, (double)in->lru[1]);
	doc_double(d, "inactive_file", NULL, (double)in->lru[2]);
	doc_double(d, "active_file", NULL, (double)in->lru[3]);
	if (!in->memcg && t->have_line) {
		int64_t m = wm_anon_only_margin(in->node_file, in->free, in->high_sum);

		doc_double(d, "free", NULL, (double)in->free);
		doc_double(d, "high_sum", NULL, (double)in->high_sum);
		doc_double(d, "anon_only_margin", NULL, (double)m);
		doc_bool(d, "anon_only_line", NULL, m <= 0);
	}
	doc_double(d, "swappiness", NULL, in->swappiness);
	doc_bool(d, "swap", NULL, in->swap);
	doc_bool(d, "memcg", NULL, in->memcg);
	doc_obj(d, "history");
	doc_double(d, "recent_scanned_anon", NULL, (double)in->recent_scanned[0]);
	doc_double(d, "recent_scanned_file", NULL, (double)in->recent_scanned[1]);
	doc_double(d, "recent_rotated_anon", NULL, (double)in->recent_rotated[0]);
	doc_double(d, "recent_rotated_file", NULL, (double)in->recent_rotated[1]);
	doc_double(d, "anon_cost", NULL, (double)in->anon_cost);
	doc_double(d, "file_cost", NULL, (double)in->file_cost);
	doc_bool(d, "assumed", NULL, !(o->scanned || o->rotated || o->cost));
	doc_close(d);
	doc_arr(d, "rules");
	for (r = lo; r <= hi; r++) {
		doc_obj(d, NULL);

		doc_str(d, "rule", NULL, wm_scan_rule_name((enum wm_scan_rule)r));
		if (!o->all)
			text_rule_head(d, (enum wm_scan_rule)r, folio);
		doc_arr(d, "priorities");
		for (p = 12; p >= 0; p--) {
			struct wm_scan_out so;
			struct wm_diag diag = { 0 };

			doc_obj(d, NULL);
			wm_scan_count((enum wm_scan_rule)r, in, p, &so, &diag);
			doc_double(d, "priority", NULL, p);
			doc_double(d, "inactive_anon", NULL, (double)so.nr[0]);
			doc_double(d, "active_anon", NULL, (double)so.nr[1]);
			doc_double(d, "inactive_file", NULL, (double)so.nr[2]);
			doc_double(d, "active_file", NULL, (double)so.nr[3]);
			doc_bool(d, "deactivate_anon", NULL, so.deactivate[0]);
			doc_bool(d, "deactivate_file", NULL, so.deactivate[1]);
			if (folio > 1) {
				int l;

				doc_arr(d, "folio_bound");
				for (l = 0; l < WM_NR_LRU; l++)
					doc_item_double(d, (double)folio_bound(so.nr[l], folio));
				doc_close(d);
			}
			doc_str(d, "balance", NULL, wm_scan_balance_name(so.balance));
			doc_str(d, "why", NULL, why_text((enum wm_scan_rule)r, &so, b,
								    sizeof(b)));
			doc_close(d);
			if (!o->all)
				text_rule_row(d, (enum wm_scan_rule)r, p, &so, folio);
		}
		doc_close(d);
		doc_close(d);
	}
	doc_close(d);
	if (o->all)
		text_all(d, t);
	doc_close(d);
}

int scan_print(enum cli_format format, const struct scan_run *r, const struct scan_opts *o,
	       const struct target *t, size_t nt)
{
	static struct doc doc;		/* the JSON writer's buffer: not on the stack */
	struct doc *d = &doc;
	size_t i;

	doc_begin(d, format, stdout);
	doc_str(d, "source", NULL, r->source);
	doc_str(d, "kernel", NULL, r->kernel);
	doc_str(d, "default_rule", NULL, wm_scan_rule_name(r->def));
	doc_double(d, "page_size", NULL, r->page_size);
	doc_bool(d, "mglru", NULL, r->mglru);
	if (r->swappiness_assumed)
		doc_text(d, "vm.swappiness not readable: 60 assumed (give --swappiness)\n");
	if (r->swap_assumed)
		doc_text(d, "SwapFree not readable: swap assumed available (give --swap)\n");
	if (r->mglru)
		doc_text(d, "MGLRU is on (%s): this kernel's reclaim does not use get_scan_count();\n"
			 "what follows is what it would scan with MGLRU off (echo 0 > "
			 "/sys/kernel/mm/lru_gen/enabled).\n\n", P_LRU_GEN);
	doc_arr(d, "targets");
	for (i = 0; i < nt; i++) {
		if (i)
			doc_text(d, "\n");
		target_doc(d, r, &t[i], o);
	}
	doc_close(d);
	if (r->folio > 1)
		doc_double(d, "largest_folio_pages", NULL, (double)r->folio);
	doc_end(d);	/* a write error shows at close_stdout() */
	return EXIT_OK;
}
