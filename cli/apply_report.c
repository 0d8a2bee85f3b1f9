// SPDX-License-Identifier: MIT
/*
 * apply_report.c - what `wmark apply` is about to write and what the
 * model predicts the kernel will print after it, in text and JSON
 * (apply.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "apply.h"
#include "txn.h"

/*
 * The prediction, each zone as zoneinfo will print it after the write:
 * in text a table of "now -> after" and the protection that changes, in
 * JSON the array "predicted" (the same numbers as whatif -j).
 */
void apply_doc_prediction(const struct apply *a, struct doc *d)
{
	bool promo = a->s.st.kernel.prof.promo;
	size_t i;
	int j;

	if (a->plan.modelled) {
		doc_text(d, "predicted watermarks (pages; now -> after):\n");
		doc_text(d, "  %-14s %-19s %-19s %-19s%s\n", "zone", "min", "low", "high",
			 promo ? " promo" : "");
	}
	doc_arr(d, "predicted");
	for (i = 0; a->plan.modelled && i < a->s.st.m.nzones; i++) {
		const struct zi_zone *z = apply_zi_of(&a->s, i);
		const struct wm_zone_wm *p = &a->plan.pred[i].wm;
		uint64_t b = a->plan.pred[i].boost;
		char name[32], f[4][40];

		if (!z)
			continue;
		/* as zoneinfo prints them: a boost that stays included */
		snprintf(name, sizeof(name), "%d/%s", z->node, z->name);
		snprintf(f[0], sizeof(f[0]), "%" PRIu64 " -> %" PRIu64 "", z->min, p->min + b);
		snprintf(f[1], sizeof(f[1]), "%" PRIu64 " -> %" PRIu64 "", z->low, p->low + b);
		snprintf(f[2], sizeof(f[2]), "%" PRIu64 " -> %" PRIu64 "", z->high, p->high + b);
		snprintf(f[3], sizeof(f[3]), "%" PRIu64 " -> %" PRIu64 "",
			 z->flags & ZI_HAS_PROMO ? z->promo : a->plan.now[i].wm.promo, p->promo + b);
		doc_text(d, "  %-14s %-19s %-19s %-19s%s%s\n", name, f[0], f[1], f[2],
			 promo ? " " : "", promo ? f[3] : "");
		doc_obj(d, NULL);
		doc_long(d, "node", NULL, z->node);
		doc_str(d, "zone", NULL, z->name);
		doc_long(d, "managed", NULL, (int64_t)a->s.st.layout.zones[i].managed);
		doc_long(d, "min", NULL, (int64_t)(p->min + b));
		doc_long(d, "low", NULL, (int64_t)(p->low + b));
		doc_long(d, "high", NULL, (int64_t)(p->high + b));
		if (a->plan.pred[i].promo_printed)
			doc_long(d, "promo", NULL, (int64_t)(p->promo + b));
		else
			doc_null(d, "promo");
		doc_long(d, "boost", NULL, (int64_t)b);
		doc_arr(d, "protection");
		for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
			doc_item_long(d, p->protection[j]);
		doc_close(d);
		doc_close(d);
	}
	doc_close(d);
	/* text: the protection that changes, after the table */
	for (i = 0; a->plan.modelled && i < a->s.st.m.nzones; i++) {
		const struct zi_zone *z = apply_zi_of(&a->s, i);
		bool same = true;

		if (!z)
			continue;
		for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
			same &= z->protection[j] == a->plan.pred[i].wm.protection[j];
		if (same)
			continue;
		doc_text(d, "  %d/%s protection (", z->node, z->name);
		for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
			doc_text(d, "%s%" PRId64 "", j ? ", " : "", z->protection[j]);
		doc_text(d, ") -> (");
		for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
			doc_text(d, "%s%" PRId64 "", j ? ", " : "", a->plan.pred[i].wm.protection[j]);
		doc_text(d, ")\n");
	}
}

/*
 * --refresh: which zones the recompute moves, i.e. whose printed
 * watermarks or protection differ from the prediction.  Text: one line;
 * JSON: a "moved" array of "node/zone".
 */
void apply_report_moved(const struct apply *a, struct doc *d)
{
	int moved = 0, j;
	size_t i;

	doc_arr(d, "moved");
	for (i = 0; a->plan.modelled && i < a->s.st.m.nzones; i++) {
		const struct zi_zone *z = apply_zi_of(&a->s, i);
		const struct wm_printed *raw = &a->s.st.view[i].raw;	/* boost taken off */
		const struct wm_zone_wm *p = &a->plan.pred[i].wm;
		char name[32];
		bool m;

		if (!z)
			continue;
		m = raw->min != p->min || raw->low != p->low || raw->high != p->high ||
		    (raw->has_promo && raw->promo != p->promo);
		for (j = 0; j < z->nprotection && j < WM_MAX_ZONES; j++)
			m |= z->protection[j] != p->protection[j];
		if (!m)
			continue;
		snprintf(name, sizeof(name), "%d/%s", z->node, z->name);
		doc_item_str(d, moved ? ", %s" : "refresh moves %s", name);
		moved++;
	}
	doc_close(d);
	if (a->plan.modelled)
		doc_text(d, moved ? " (stale since the last recompute)\n" :
			 "refresh moves nothing: the watermarks and protection are current\n");
}


/* The knobs of a change as d's JSON object name: each one's new value (prev: its value now). */
static void doc_knobs(const struct apply *a, struct doc *d, const char *name, bool prev)
{
	int k;

	doc_obj(d, name);
	for (k = 0; k < WM_NKNOBS; k++) {
		const struct change *c = &a->ch[k];

		if (c->set && !c->dropped)
			txn_doc_value(d, wm_knob_name(k), prev ? &c->prev : &c->val, (enum wm_knob)k);
	}
	doc_close(d);
}

void apply_doc_changes(const struct apply *a, struct doc *d)
{
	char v[128], pv[128];
	int k;

	doc_knobs(a, d, "written", false);
	doc_knobs(a, d, "previous", true);
	for (k = 0; k < WM_NKNOBS; k++) {
		const struct change *c = &a->ch[k];

		if (!c->set || c->dropped)
			continue;
		txn_value_str(&c->val, v, sizeof(v));
		txn_value_str(&c->prev, pv, sizeof(pv));
		doc_text(d, "  vm.%-24s %s -> %s\n", wm_knob_name(k), pv, v);
	}
}
