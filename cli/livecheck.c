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

struct diffs {
	cJSON *arr;			/* JSON diff entries, or NULL */
	int n;
};

static void diff_add(struct diffs *d, FILE *f, const struct zi_zone *z,
		     const char *field, int64_t want, int64_t got)
{
	d->n++;
	if (f)
		fprintf(f, "  Node %d, zone %-8s %-12s predicted %" PRId64 ", kernel %" PRId64 "\n",
			z->node, z->name, field, want, got);
	if (d->arr) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "node", z->node);
		cJSON_AddStringToObject(o, "zone", z->name);
		cJSON_AddStringToObject(o, "field", field);
		cJSON_AddItemToObject(o, "predicted", json_long((int64_t)want));
		cJSON_AddItemToObject(o, "kernel", json_long((int64_t)got));
		cJSON_AddItemToArray(d->arr, o);
	}
}

/*
 * Compare the zoneinfo of s2 (re-read after the writes) with the
 * prediction (wm_compare): printed watermarks minus the printed boost
 * when wmarks says the writes recomputed them; protection always.
 */
static void compare_zones(const struct snapshot *s2, const struct wm_predicted *pred,
			  size_t npred, bool wmarks, FILE *f, struct diffs *d)
{
	struct wm_diff diff[64];
	size_t n = wm_compare(&s2->st, pred, npred, wmarks, diff, 64), i;

	for (i = 0; i < n && i < 64; i++) {
		const struct zi_zone *z = wm_layout_zone(&s2->st.layout, &s2->st.zi, diff[i].zone);

		if (strcmp(diff[i].field, "zones") == 0) {
			d->n++;
			if (f)
				fprintf(f, "  the kernel now has %" PRId64 " zones, the prediction %" PRId64 "\n",
					diff[i].kernel, diff[i].predicted);
			continue;
		}
		diff_add(d, f, z, diff[i].field, diff[i].predicted, diff[i].kernel);
	}
	if (n > 64)
		d->n += (int)(n - 64);
}

int live_check(const struct cli_ctx *ctx, const char *cmd,
		      const struct snapshot *before, const struct wm_predicted *pred,
		      const struct wm_sysctl *sc, bool wmarks, cJSON *doc)
{
	struct snapshot s2;
	struct diffs d = { 0 };
	cJSON *chk = NULL;
	FILE *f = doc ? NULL : stdout;
	int rc;

	if (doc)
		chk = cJSON_AddObjectToObject(doc, "check");
	if (!before->live) {
		if (f)
			printf("watermarks not re-checked: not a live kernel\n");
		if (chk) {
			cJSON_AddBoolToObject(chk, "done", false);
			cJSON_AddStringToObject(chk, "note", "watermarks not re-checked: not a live kernel");
		}
		return EXIT_OK;
	}
	memset(&s2, 0, sizeof(s2));
	rc = snapshot_read(ctx, &s2);
	if (rc != EXIT_OK)
		return rc;
	if (chk)
		d.arr = cJSON_AddArrayToObject(chk, "diff");
	if (f)
		printf("kernel's watermarks after the write:\n");
	compare_zones(&s2, pred, before->st.m.nzones, wmarks, f, &d);
	/* Memory came or went meanwhile: judge by the machine as it is now. */
	if (d.n && s2.st.m.nzones == before->st.m.nzones) {
		struct wm_predicted *p2 = calloc(s2.st.m.nzones, sizeof(*p2));
		size_t i;
		bool moved = false;

		for (i = 0; i < s2.st.m.nzones; i++)
			moved |= s2.st.layout.zones[i].managed != before->st.layout.zones[i].managed;
		if (p2 && moved && (sc->have & WM_HAVE_MFK) &&
		    wm_predict(&s2.st, sc, WM_RECOMPUTE_WMARKS, p2, NULL) == WM_OK) {
			struct diffs d2 = { 0 };

			compare_zones(&s2, p2, s2.st.m.nzones, wmarks, NULL, &d2);
			if (d2.n == 0) {
				if (f)
					printf("  (managed pages changed while applying; the kernel matches the model of the memory it has now)\n");
				d.n = 0;
				if (d.arr) {
					cJSON_DeleteItemFromObject(chk, "diff");
					d.arr = NULL;
				}
			}
		}
		free(p2);
	}
	if (chk) {
		cJSON_AddBoolToObject(chk, "done", true);
		cJSON_AddBoolToObject(chk, "match", d.n == 0);
	}
	if (f && d.n == 0)
		printf("  every zone matches the prediction (%zu zones)\n", s2.st.zi.nzones);
	snapshot_free(&s2);
	if (d.n) {
		cli_err(0, cmd, "the kernel's watermarks differ from the prediction in %d field%s",
			d.n, d.n == 1 ? "" : "s");
		return EXIT_CHECK;
	}
	return EXIT_OK;
}
