// SPDX-License-Identifier: MIT
/*
 * stalls_report.c - what `wmark stalls` shows of each task: for each
 * kind of delay the kernel accounts (stalls_kinds[]), its count, total,
 * average, largest and share of the task's time (fields[]), as a text
 * table or one JSON document.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "explain.h"
#include "fmt.h"
#include "jsonw.h"
#include "stalls.h"

#define kinds stalls_kinds

const struct kind_desc stalls_kinds[TS_NKINDS] = {
	[TS_CPU] = { "cpu", "cpu" },
	[TS_BLKIO] = { "blkio", "blkio" },
	[TS_SWAPIN] = { "swapin", "swapin" },
	[TS_FREEPAGES] = { "reclaim", "freepages" },
	[TS_THRASHING] = { "thrashing", "thrashing" },
	[TS_COMPACT] = { "compact", "compact" },
	[TS_WPCOPY] = { "wpcopy", "wpcopy" },
	[TS_IRQ] = { "irq", "irq" },
};

/* A row of fields[]: one kind of delay in one task's view. */
struct kview {
	const struct view *w;
	int k;			/* TS_* */
};

static const struct ts_delay *kd(const void *row)
{
	const struct kview *r = row;

	return &r->w->d[r->k];
}

static bool get_count(const void *row, double *v)
{
	*v = (double)kd(row)->count;
	return true;
}

static bool get_total(const void *row, double *v)
{
	*v = (double)kd(row)->total_ns;
	return true;
}

static bool get_avg(const void *row, double *v)
{
	const struct ts_delay *d = kd(row);

	if (!d->count)
		return false;
	*v = (double)d->total_ns / (double)d->count;
	return true;
}

static bool get_max(const void *row, double *v)
{
	const struct kview *r = row;

	if (!r->w->minmax)
		return false;
	*v = (double)kd(r)->max_ns;
	return true;
}

static bool get_share(const void *row, double *v)
{
	const struct kview *r = row;

	if (!r->w->wall_ns)
		return false;
	*v = (double)kd(r)->total_ns / (double)r->w->wall_ns;
	return true;
}

/* What is shown of each kind: text header, JSON key, unit, text width. */
#define SF(h, j, u, g, wd) { .header = h, .json = j, .unit = u, .get = g, .width = wd }

static const struct fmt_field fields[] = {
	SF("COUNT", "count", FMT_COUNT, get_count, 9),
	SF("TOTAL", "total_ns", FMT_NS, get_total, 10),
	SF("AVG", "avg_ns", FMT_NS, get_avg, 10),
	SF("MAX", "max_ns", FMT_NS, get_max, 10),	/* lifetime maximum */
	SF("WALL%", "wall_share", FMT_SHARE, get_share, 8),
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static uint64_t sub(uint64_t a, uint64_t b)
{
	/* The kernel resets an overflowing total to 0: then keep what is left. */
	return a >= b ? a - b : a;
}

void stalls_view(const struct task *e, struct view *w)
{
	const struct ts_stats *l = &e->last, *f = &e->first;
	int k;

	memset(w, 0, sizeof(*w));
	w->have = l->have;
	w->minmax = l->have_minmax;
	for (k = 0; k < TS_NKINDS; k++) {
		w->d[k] = l->d[k];
		if (e->have_first) {
			w->d[k].count = sub(l->d[k].count, f->d[k].count);
			w->d[k].total_ns = sub(l->d[k].total_ns, f->d[k].total_ns);
		}
	}
	w->wall_ns = (e->have_first ? sub(l->etime_us, f->etime_us)
				    : l->etime_us) * 1000;
	w->run_ns = e->have_first ? sub(l->run_virtual_ns, f->run_virtual_ns)
				  : l->run_virtual_ns;
}

static const char *state_of(const struct task *e)
{
	return e->exited ? "exited" : "live";
}

void stalls_print_text(const struct report *r)
{
	size_t i;
	int k;

	if (r->win.on) {
		printf("window %.2fs: %" PRIu64 " exit records, %" PRIu64 " overruns", r->win.seconds,
		       r->win.exits, r->win.overruns);
		if (r->win.lost >= 0)
			printf(", %" PRId64 " lost (estimate)", r->win.lost);
		printf(", %" PRIu64 " live queries in %u scans\n", r->win.queried,
		       r->win.scans);
	}
	printf("%-8s %-8s %-16s %-6s %-10s", "PID", "TGID", "COMM", "STATE",
	       "KIND");
	fmt_text_header(stdout, fields, NFIELDS, NULL, 0, 0);
	putchar('\n');

	for (i = 0; i < r->nrows; i++) {
		const struct task *e = r->rows[i];
		struct view w;
		bool any = false;
		char id[16], tgid[16];

		stalls_view(e, &w);
		snprintf(id, sizeof(id), "%s%u", e->group ? "*" : "", e->id);
		snprintf(tgid, sizeof(tgid), "%u", e->group ? e->id : e->last.tgid);
		for (k = 0; k < TS_NKINDS; k++) {
			if (!(w.have & (1u << k)) || !w.d[k].count)
				continue;
			printf("%-8s %-8s %-16s %-6s %-10s", any ? "" : id,
			       any ? "" : tgid, any ? "" : e->last.comm,
			       any ? "" : state_of(e), kinds[k].label);
			fmt_text_cells(stdout, fields, NFIELDS, NULL, 0, 0,
				       &(struct kview){ &w, k });
			putchar('\n');
			any = true;
		}
		if (!any)
			printf("%-8s %-8s %-16s %-6s %-10s\n", id, tgid,
			       e->last.comm, state_of(e), "-");
	}
}

static cJSON *json_task(const struct task *e)
{
	cJSON *o = cJSON_CreateObject(), *ds, *d;
	struct view w;
	int k;

	stalls_view(e, &w);
	cJSON_AddNumberToObject(o, e->group ? "tgid" : "pid", e->id);
	if (!e->group) {
		cJSON_AddNumberToObject(o, "tgid", e->last.tgid);
		cJSON_AddStringToObject(o, "comm", e->last.comm);
	}
	cJSON_AddStringToObject(o, "scope", e->group ? "group" : "task");
	cJSON_AddStringToObject(o, "state", state_of(e));
	cJSON_AddBoolToObject(o, "since_window_start", e->have_first);
	fmt_json_value(o, "wall_ns", FMT_NS,
		       (struct fmt_val){ .ok = w.wall_ns > 0, .x = (double)w.wall_ns });
	fmt_json_value(o, "cpu_run_ns", FMT_NS,
		       (struct fmt_val){ .ok = true, .x = (double)w.run_ns });
	ds = cJSON_AddObjectToObject(o, "delays");
	for (k = 0; k < TS_NKINDS; k++) {
		if (!(w.have & (1u << k))) {
			cJSON_AddNullToObject(ds, kinds[k].key);
			continue;
		}
		d = cJSON_AddObjectToObject(ds, kinds[k].key);
		fmt_json_fields(d, fields, NFIELDS, 0, &(struct kview){ &w, k });
	}
	return o;
}

int stalls_print_json(const struct report *r)
{
	cJSON *doc, *arr, *wo;
	size_t i;

	doc = explain_json_head(&(struct explain_head){ .source = "live" });
	if (r->version)
		cJSON_AddNumberToObject(doc, "taskstats_version", r->version);
	else
		cJSON_AddNullToObject(doc, "taskstats_version");
	if (r->delayacct < 0)
		cJSON_AddNullToObject(doc, "delayacct");
	else
		cJSON_AddBoolToObject(doc, "delayacct", r->delayacct > 0);
	cJSON_AddBoolToObject(doc, "delayacct_enabled_for_run", r->enabled_by_us);
	cJSON_AddStringToObject(doc, "mode", r->win.on ? "all" : "query");
	if (r->win.on) {
		wo = cJSON_AddObjectToObject(doc, "window");
		cJSON_AddNumberToObject(wo, "seconds", r->win.seconds);
		cJSON_AddNumberToObject(wo, "exits", (double)r->win.exits);
		cJSON_AddNumberToObject(wo, "overruns", (double)r->win.overruns);
		if (r->win.lost >= 0)
			cJSON_AddNumberToObject(wo, "lost_estimate", (double)r->win.lost);
		else
			cJSON_AddNullToObject(wo, "lost_estimate");
		cJSON_AddNumberToObject(wo, "live_queries", (double)r->win.queried);
		cJSON_AddNumberToObject(wo, "scans", r->win.scans);
	} else {
		cJSON_AddNullToObject(doc, "window");
	}
	arr = cJSON_AddArrayToObject(doc, "tasks");
	for (i = 0; i < r->nrows; i++)
		cJSON_AddItemToArray(arr, json_task(r->rows[i]));
	jw_print(stdout, doc);	/* a write error shows at close_stdout() */
	cJSON_Delete(doc);
	return EXIT_OK;
}

