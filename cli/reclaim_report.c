// SPDX-License-Identifier: MIT
/*
 * reclaim_report.c - what `wmark reclaim` prints: each write to
 * memory.reclaim (pages asked, reclaimed, the drop of memory.current,
 * time, rate, the anon/file split, refaults and the kernel's answer),
 * their total, and beside them the loop this kernel runs for the same
 * request and wmark's own plan of writes; text or one JSON document.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fmt.h"
#include "reclaim_run.h"
#include "report.h"

const char *reclaim_batch_name(enum wm_batch_mode b)
{
	return b == WM_BATCH_QUARTER ? "quarter" : b == WM_BATCH_FIXED ? "fixed" : "kernel";
}

#define GETTER(name) \
	static bool get_##name(const void *row, double *v) \
	{ \
		*v = ((const struct rc_write *)row)->name; \
		return !isnan(*v); \
	}
GETTER(n)
GETTER(asked)
GETTER(got)
GETTER(dcur)
GETTER(over)
GETTER(ns)
GETTER(rate)
GETTER(anon)
GETTER(file)
GETTER(refault)

#define RF(h, j, u, g) { .header = h, .json = j, .unit = u, .get = g }

static const struct fmt_field write_fields[] = {
	RF("WRITE", "write", FMT_PAGES, get_n),
	RF("ASKED", "requested_pages", FMT_PAGES, get_asked),
	RF("RECLAIMED", "reclaimed_pages", FMT_PAGES, get_got),
	RF("dCURRENT", "current_drop_pages", FMT_PAGES, get_dcur),
	RF("OVER", "over_pages", FMT_PAGES, get_over),
	RF("TIME", "time_ns", FMT_NS, get_ns),
	RF("PAGES/S", "pages_per_second", FMT_COUNT, get_rate),
	RF("ANON", "anon_pages", FMT_PAGES, get_anon),
	RF("FILE", "file_pages", FMT_PAGES, get_file),
	RF("REFAULTS", "refaults", FMT_PAGES, get_refault),
};

#define NWF (sizeof(write_fields) / sizeof(write_fields[0]))

static const char *write_result(const struct rc_write *w)
{
	if (w->timed_out)
		return "inf";
	switch (w->err) {
	case 0:
		return "ok";
	case EAGAIN:
		return "EAGAIN";
	case EINTR:
		return "EINTR";
	case EINVAL:
		return "EINVAL";
	case EBUSY:
		return "EBUSY";
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	default:
		return strerror(w->err);
	}
}

void reclaim_total(struct rc_run *r)
{
	struct rc_write *t = &r->total;
	size_t i;
	bool got = r->nw > 0, dcur = r->nw > 0, anon = r->nw > 0, file = r->nw > 0, ref = r->nw > 0;

	memset(t, 0, sizeof(*t));
	t->n = NAN;
	for (i = 0; i < r->nw; i++) {
		const struct rc_write *w = &r->w[i];

		t->asked += w->asked;
		t->ns += w->ns;
		got &= !isnan(w->got);
		dcur &= !isnan(w->dcur);
		anon &= !isnan(w->anon);
		file &= !isnan(w->file);
		ref &= !isnan(w->refault);
		t->got += or0(w->got);
		t->dcur += or0(w->dcur);
		t->anon += or0(w->anon);
		t->file += or0(w->file);
		t->refault += or0(w->refault);
	}
	/* the request, not the sum of the writes: a quarter write of 32
	 * pages for the last 5 asks for more than the request */
	t->asked = (double)r->request;
	if (!got)
		t->got = NAN;
	if (!dcur)
		t->dcur = NAN;
	if (!anon)
		t->anon = NAN;
	if (!file)
		t->file = NAN;
	if (!ref)
		t->refault = NAN;
	t->over = !isnan(t->got) && r->nw ? t->got - t->asked : NAN;
	t->rate = !isnan(t->got) && t->ns > 0 ? t->got / (t->ns / 1e9) : NAN;
	if (!r->nw)
		t->ns = NAN;
}

static cJSON *model_json(const struct rc_run *r)
{
	cJSON *m = cJSON_CreateObject(), *ts = cJSON_CreateArray(), *run, *p;
	size_t i;

	cJSON_AddStringToObject(m, "rule", wm_reclaim_rule_name(r->rp.rule));
	cJSON_AddItemToObject(m, "request_pages", json_counter(r->model.request));
	cJSON_AddItemToObject(m, "calls", json_counter(r->model.calls));
	for (i = 0; i < r->model.nruns; i++) {
		run = cJSON_CreateObject();
		cJSON_AddItemToObject(run, "pages", json_counter(r->model.runs[i].target));
		cJSON_AddItemToObject(run, "calls", json_counter(r->model.runs[i].count));
		cJSON_AddItemToArray(ts, run);
	}
	cJSON_AddItemToObject(m, "targets", ts);
	cJSON_AddItemToObject(m, "overshoot_pages", json_counter(r->model.overshoot));
	cJSON_AddItemToObject(m, "over_bound_pages", json_counter(r->model.over_bound));
	cJSON_AddItemToObject(m, "largest_folio_pages", json_counter(r->folio));
	cJSON_AddNumberToObject(m, "retries", WM_RECLAIM_RETRIES);
	p = cJSON_AddObjectToObject(m, "plan");
	cJSON_AddStringToObject(p, "batch", reclaim_batch_name(r->o->batch));
	cJSON_AddItemToObject(p, "writes", json_counter(r->plan.writes));
	cJSON_AddItemToObject(p, "calls", json_counter(r->plan.calls));
	cJSON_AddItemToObject(p, "first_write_pages", json_counter(r->plan.first));
	cJSON_AddItemToObject(p, "overshoot_pages", json_counter(r->plan.overshoot));
	return m;
}

int reclaim_print_json(const struct rc_run *r)
{
	cJSON *doc = cJSON_CreateObject(), *ws, *o;
	size_t i;

	cJSON_AddStringToObject(doc, "source", r->o->dry_run ? "model" : "live");
	if (r->kernel_known)
		cJSON_AddStringToObject(doc, "kernel", r->kernel);
	else
		cJSON_AddNullToObject(doc, "kernel");
	cJSON_AddNumberToObject(doc, "page_size", r->ps);
	if (r->t.shown[0])
		cJSON_AddStringToObject(doc, r->o->node >= 0 ? "file" : "cgroup", r->t.shown);
	else
		cJSON_AddNullToObject(doc, "cgroup");
	if (r->o->node >= 0)
		cJSON_AddNumberToObject(doc, "node", (double)r->o->node);
	cJSON_AddStringToObject(doc, "batch", reclaim_batch_name(r->o->batch));
	if (r->o->swappiness == -1)
		cJSON_AddStringToObject(doc, "swappiness", "max");
	else if (r->o->swappiness >= 0)
		cJSON_AddNumberToObject(doc, "swappiness", r->o->swappiness);
	else
		cJSON_AddNullToObject(doc, "swappiness");
	cJSON_AddItemToObject(doc, "request_pages", json_counter(r->request));
	cJSON_AddItemToObject(doc, "model", model_json(r));
	if (!r->o->dry_run) {
		if (r->steal_key)
			cJSON_AddStringToObject(doc, "counter", r->steal_key);
		else
			cJSON_AddNullToObject(doc, "counter");
		ws = cJSON_AddArrayToObject(doc, "writes");
		for (i = 0; i < r->nw; i++) {
			o = cJSON_CreateObject();
			fmt_json_fields(o, write_fields, NWF, 0, &r->w[i]);
			cJSON_AddStringToObject(o, "result", write_result(&r->w[i]));
			cJSON_AddItemToArray(ws, o);
		}
		o = cJSON_AddObjectToObject(doc, "total");
		fmt_json_fields(o, write_fields + 1, NWF - 1, 0, &r->total);
		cJSON_AddNumberToObject(o, "writes", (double)r->nw);
		cJSON_AddStringToObject(doc, "result", r->result);
	}
	return report_json_print(doc);
}

static void print_model_text(const struct rc_run *r)
{
	size_t i;
	char mib[32];

	printf("model: %s rule", wm_reclaim_rule_name(r->rp.rule));
	switch (r->rp.rule) {
	case WM_RECLAIM_FULL:
		fputs(" (5.19-6.5: one call for the whole remainder)", stdout);
		break;
	case WM_RECLAIM_CAP32:
		fputs(" (6.6-6.8: calls of min(remainder, 32))", stdout);
		break;
	case WM_RECLAIM_QUARTER:
		fputs(" (6.9+: calls of remainder/4, at least 32)", stdout);
		break;
	case WM_RECLAIM_NONE:
		break;
	}
	printf("\n  one write of %" PRIu64 " pages (%s MiB): %" PRIu64 " call%s, targets",
	       r->model.request, fmt_mib(mib, sizeof(mib), (int64_t)r->model.request, r->ps),
	       r->model.calls, r->model.calls == 1 ? "" : "s");
	for (i = 0; i < r->model.nruns && i < 12; i++) {
		if (r->model.runs[i].count > 1)
			printf(" %" PRIu64 "x%" PRIu64, r->model.runs[i].target, r->model.runs[i].count);
		else
			printf(" %" PRIu64, r->model.runs[i].target);
	}
	if (r->model.nruns > 12) {
		printf(" ... (%zu more)", r->model.nruns - 13);
		i = r->model.nruns - 1;
		if (r->model.runs[i].count > 1)
			printf(" %" PRIu64 "x%" PRIu64, r->model.runs[i].target, r->model.runs[i].count);
		else
			printf(" %" PRIu64, r->model.runs[i].target);
	}
	if (!r->model.nruns)
		fputs(" none", stdout);
	printf("\n  idealised overshoot %" PRIu64 " pages; a leaf cgroup may end up to %" PRIu64
	       " pages over per node (folios of up to %" PRIu64 " pages); 17 calls that reclaim "
	       "nothing, then EAGAIN\n", r->model.overshoot, r->model.over_bound, r->folio);
	printf("  wmark's plan (--batch %s): %" PRIu64 " write%s, %" PRIu64 " kernel calls, first write %" PRIu64
	       " pages\n", reclaim_batch_name(r->o->batch), r->plan.writes, r->plan.writes == 1 ? "" : "s",
	       r->plan.calls, r->plan.first);
}

void reclaim_print_text(const struct rc_run *r)
{
	int width[NWF];
	size_t i;

	printf("reclaim %s: kernel %s%s, %u-byte pages%s\n",
	       r->t.shown[0] ? r->t.shown : r->o->cgroup,
	       r->kernel, r->kernel_known ? "" : " (assumed)", r->ps,
	       r->ps_assumed ? " (assumed)" : "");
	print_model_text(r);
	if (r->o->dry_run)
		return;
	printf("reclaimed: %s of %s (pages)\n", r->steal_key ? r->steal_key : "no counter",
	       r->o->node >= 0 ? "/proc/vmstat" : "memory.stat");
	fmt_widths(write_fields, NWF, r->w, sizeof(*r->w), r->nw, 0, width);
	fmt_text_header(stdout, write_fields, NWF, width, 0, 0);
	fputs(" RESULT\n", stdout);
	for (i = 0; i < r->nw; i++) {
		fmt_text_cells(stdout, write_fields, NWF, width, 0, 0, &r->w[i]);
		printf(" %s\n", write_result(&r->w[i]));
	}
	printf("total: %zu write%s, ", r->nw, r->nw == 1 ? "" : "s");
	fmt_text_record(stdout, write_fields + 1, NWF - 1, 0, &r->total);
	printf("; %s\n", r->result);
}

/* ---- the run ------------------------------------------------------------ */

