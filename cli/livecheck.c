// SPDX-License-Identifier: MIT
/*
 * livecheck.c - after apply or rollback wrote the knobs: the kernel's
 * watermarks, read again, against the model (livecheck.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "livecheck.h"
#include "report.h"

/* What differed: up to 64 zone fields kept (for JSON), all counted. */
struct diffs {
	struct {
		int node;
		const char *zone;	/* in the re-read snapshot */
		char field[24];
		int64_t predicted, kernel;
	} e[64];
	int ne;
	int n;
};

static void diff_add(struct diffs *d, struct doc *doc, const struct zi_zone *z,
		     const char *field, int64_t want, int64_t got)
{
	d->n++;
	if (doc)
		doc_text(doc, "  Node %d, zone %-8s %-12s predicted %" PRId64 ", kernel %" PRId64 "\n",
			 z->node, z->name, field, want, got);
	if (d->ne < 64) {
		d->e[d->ne].node = z->node;
		d->e[d->ne].zone = z->name;
		snprintf(d->e[d->ne].field, sizeof(d->e[d->ne].field), "%s", field);
		d->e[d->ne].predicted = want;
		d->e[d->ne++].kernel = got;
	}
}

/*
 * Compare the zoneinfo of s2 (re-read after the writes) with the
 * prediction (wm_compare): printed watermarks minus the printed boost
 * when wmarks says the writes recomputed them; protection always.  Each
 * difference is a line of doc's text (doc NULL: none).
 */
static void compare_zones(const struct snapshot *s2, const struct wm_predicted *pred,
			  size_t npred, bool wmarks, struct doc *doc, struct diffs *d)
{
	struct wm_diff diff[64];
	size_t n = wm_compare(&s2->st, pred, npred, wmarks, diff, 64), i;

	for (i = 0; i < n && i < 64; i++) {
		const struct zi_zone *z = wm_layout_zone(&s2->st.layout, &s2->st.zi, diff[i].zone);

		if (strcmp(diff[i].field, "zones") == 0) {
			d->n++;
			if (doc)
				doc_text(doc, "  the kernel now has %" PRId64 " zones, the prediction %" PRId64 "\n",
					diff[i].kernel, diff[i].predicted);
			continue;
		}
		diff_add(d, doc, z, diff[i].field, diff[i].predicted, diff[i].kernel);
	}
	if (n > 64)
		d->n += (int)(n - 64);
}

int live_check(const struct cli_ctx *ctx, const char *cmd,
		      const struct snapshot *before, const struct wm_predicted *pred,
		      const struct wm_sysctl *sc, bool wmarks, struct doc *doc)
{
	static const char not_live[] = "watermarks not re-checked: not a live kernel";
	static struct snapshot s2;
	static struct diffs d;
	bool keep = true;		/* the diffs stand: memory did not move under them */
	int i, rc;

	doc_obj(doc, "check");
	if (!before->live) {
		doc_bool(doc, "done", NULL, false);
		doc_str(doc, "note", "%s\n", not_live);
		doc_close(doc);
		return EXIT_OK;
	}
	memset(&s2, 0, sizeof(s2));
	memset(&d, 0, sizeof(d));
	rc = snapshot_read(ctx, &s2);
	if (rc != EXIT_OK) {
		doc_close(doc);
		return rc;
	}
	doc_text(doc, "kernel's watermarks after the write:\n");
	compare_zones(&s2, pred, before->st.m.nzones, wmarks, doc, &d);
	/* Memory came or went meanwhile: judge by the machine as it is now. */
	if (d.n && s2.st.m.nzones == before->st.m.nzones) {
		struct wm_predicted *p2 = calloc(s2.st.m.nzones, sizeof(*p2));
		size_t z;
		bool moved = false;

		for (z = 0; z < s2.st.m.nzones; z++)
			moved |= s2.st.layout.zones[z].managed != before->st.layout.zones[z].managed;
		if (p2 && moved && (sc->have & WM_HAVE_MFK) &&
		    wm_predict(&s2.st, sc, WM_RECOMPUTE_WMARKS, p2, NULL) == WM_OK) {
			static struct diffs d2;

			memset(&d2, 0, sizeof(d2));
			compare_zones(&s2, p2, s2.st.m.nzones, wmarks, NULL, &d2);
			if (d2.n == 0) {
				doc_text(doc, "  (managed pages changed while applying; the kernel matches the model of the memory it has now)\n");
				d.n = 0;
				keep = false;
			}
		}
		free(p2);
	}
	if (keep) {
		doc_arr(doc, "diff");
		for (i = 0; i < d.ne; i++) {
			doc_obj(doc, NULL);
			doc_long(doc, "node", NULL, d.e[i].node);
			doc_str(doc, "zone", NULL, d.e[i].zone);
			doc_str(doc, "field", NULL, d.e[i].field);
			doc_long(doc, "predicted", NULL, d.e[i].predicted);
			doc_long(doc, "kernel", NULL, d.e[i].kernel);
			doc_close(doc);
		}
		doc_close(doc);
	}
	doc_bool(doc, "done", NULL, true);
	doc_bool(doc, "match", NULL, d.n == 0);
	doc_close(doc);
	if (d.n == 0)
		doc_text(doc, "  every zone matches the prediction (%zu zones)\n", s2.st.zi.nzones);
	snapshot_free(&s2);
	if (d.n) {
		cli_err(0, cmd, "the kernel's watermarks differ from the prediction in %d field%s",
			d.n, d.n == 1 ? "" : "s");
		return EXIT_CHECK;
	}
	return EXIT_OK;
}
