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

#include "cli.h"
#include "explain.h"
#include "fmt.h"
#include "doc.h"
#include "jsonw.h"
#include "stalls.h"

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

/* One task: its object in JSON; in text a row for each kind of delay that counted. */
static void task_doc(struct doc *d, const struct task *e)
{
	struct view w;
	bool any = false;
	char id[16], tgid[16];
	int k;

	stalls_view(e, &w);
	snprintf(id, sizeof(id), "%s%u", e->group ? "*" : "", e->id);
	snprintf(tgid, sizeof(tgid), "%u", e->group ? e->id : e->last.tgid);
	doc_obj(d, NULL);
	doc_u64(d, e->group ? "tgid" : "pid", NULL, e->id);
	if (!e->group) {
		doc_u64(d, "tgid", NULL, e->last.tgid);
		doc_str(d, "comm", NULL, e->last.comm);
	}
	doc_str(d, "scope", NULL, e->group ? "group" : "task");
	doc_str(d, "state", NULL, state_of(e));
	doc_bool(d, "since_window_start", NULL, e->have_first);
	doc_unit(d, "wall_ns", FMT_NS, (struct fmt_val){ .ok = w.wall_ns > 0, .x = (double)w.wall_ns });
	doc_unit(d, "cpu_run_ns", FMT_NS, (struct fmt_val){ .ok = true, .x = (double)w.run_ns });
	doc_obj(d, "delays");
	for (k = 0; k < TS_NKINDS; k++) {
		if (!(w.have & (1u << k))) {
			doc_null(d, stalls_kinds[k].key);
			continue;
		}
		doc_obj(d, stalls_kinds[k].key);
		doc_members(d, fields, NFIELDS, 0, &(struct kview){ &w, k });
		/* text: a row a kind that delayed the task, its own columns on the first only */
		if (w.d[k].count) {
			doc_text(d, "%-8s %-8s %-16s %-6s %-10s", any ? "" : id, any ? "" : tgid,
				 any ? "" : e->last.comm, any ? "" : state_of(e), stalls_kinds[k].label);
			doc_cells(d, fields, NFIELDS, 0, &(struct kview){ &w, k });
			doc_text(d, "\n");
			any = true;
		}
		doc_close(d);
	}
	doc_close(d);
	doc_close(d);
	if (!any)
		doc_text(d, "%-8s %-8s %-16s %-6s %-10s\n", id, tgid, e->last.comm, state_of(e), "-");
}

int stalls_print(const struct report *r, enum cli_format format)
{
	static struct doc doc;	/* the JSON writer's buffer: not on the stack */
	struct doc *d = &doc;
	size_t i;

	doc_begin(d, format, stdout);
	explain_doc_head(d, &(struct explain_head){ .source = "live" });
	if (r->version)
		doc_u64(d, "taskstats_version", NULL, r->version);
	else
		doc_null(d, "taskstats_version");
	if (r->delayacct < 0)
		doc_null(d, "delayacct");
	else
		doc_bool(d, "delayacct", NULL, r->delayacct > 0);
	doc_bool(d, "delayacct_enabled_for_run", NULL, r->enabled_by_us);
	doc_str(d, "mode", NULL, r->win.on ? "all" : "query");
	if (r->win.on) {
		doc_obj(d, "window");
		doc_double(d, "seconds", "window %.2fs: ", r->win.seconds);
		doc_u64(d, "exits", "%" PRIu64 " exit records, ", r->win.exits);
		doc_u64(d, "overruns", "%" PRIu64 " overruns", r->win.overruns);
		if (r->win.lost >= 0)
			doc_long(d, "lost_estimate", ", %" PRId64 " lost (estimate)", r->win.lost);
		else
			doc_null(d, "lost_estimate");
		doc_u64(d, "live_queries", ", %" PRIu64 " live queries in ", r->win.queried);
		doc_u64(d, "scans", "%" PRIu64 " scans\n", r->win.scans);
		doc_close(d);
	} else {
		doc_null(d, "window");
	}
	doc_text(d, "%-8s %-8s %-16s %-6s %-10s", "PID", "TGID", "COMM", "STATE", "KIND");
	doc_header(d, fields, NFIELDS, 0);
	doc_text(d, "\n");
	doc_arr(d, "tasks");
	for (i = 0; i < r->nrows; i++)
		task_doc(d, r->rows[i]);
	doc_close(d);
	doc_end(d);	/* a write error shows at close_stdout() */
	return EXIT_OK;
}
