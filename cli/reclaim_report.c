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

#include "doc.h"
#include "fmt.h"
#include "reclaim_run.h"

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

/* The kernel's loop for the request, and wmark's plan of writes: the object "model". */
static void model_doc(const struct rc_run *r, struct doc *d)
{
	static const char *const why[] = {
		[WM_RECLAIM_FULL] = " (5.19-6.5: one call for the whole remainder)",
		[WM_RECLAIM_CAP32] = " (6.6-6.8: calls of min(remainder, 32))",
		[WM_RECLAIM_QUARTER] = " (6.9+: calls of remainder/4, at least 32)",
		[WM_RECLAIM_NONE] = "",
	};
	const struct wm_reclaim_model *m = &r->model;
	char mib[32];
	size_t i;

	doc_obj(d, "model");
	doc_str(d, "rule", "model: %s rule", wm_reclaim_rule_name(r->rp.rule));
	doc_text(d, "%s", why[r->rp.rule]);
	doc_u64(d, "request_pages", "\n  one write of %" PRIu64 " pages", m->request);
	doc_text(d, " (%s MiB): ", fmt_mib(mib, sizeof(mib), (int64_t)m->request, r->ps));
	doc_u64(d, "calls", "%" PRIu64 " call", m->calls);
	doc_text(d, "%s, targets", m->calls == 1 ? "" : "s");
	/* the text shows the first 12 targets and the last */
	doc_arr(d, "targets");
	for (i = 0; i < m->nruns; i++) {
		bool shown = i < 12 || i == m->nruns - 1;

		if (i == 12)
			doc_text(d, " ... (%zu more)", m->nruns - 13);
		doc_obj(d, NULL);
		doc_u64(d, "pages", shown ? " %" PRIu64 : NULL, m->runs[i].target);
		doc_u64(d, "calls", shown && m->runs[i].count > 1 ? "x%" PRIu64 : NULL, m->runs[i].count);
		doc_close(d);
	}
	doc_close(d);
	if (!m->nruns)
		doc_text(d, " none");
	doc_u64(d, "overshoot_pages", "\n  idealised overshoot %" PRIu64 " pages", m->overshoot);
	doc_u64(d, "over_bound_pages", "; a leaf cgroup may end up to %" PRIu64 " pages over per node",
		m->over_bound);
	doc_u64(d, "largest_folio_pages", " (folios of up to %" PRIu64 " pages)", r->folio);
	doc_long(d, "retries", NULL, WM_RECLAIM_RETRIES);
	doc_text(d, "; %d calls that reclaim nothing, then EAGAIN\n", WM_RECLAIM_RETRIES + 1);
	doc_obj(d, "plan");
	doc_str(d, "batch", "  wmark's plan (--batch %s): ", reclaim_batch_name(r->o->batch));
	doc_u64(d, "writes", "%" PRIu64 " write", r->plan.writes);
	doc_text(d, "%s, ", r->plan.writes == 1 ? "" : "s");
	doc_u64(d, "calls", "%" PRIu64 " kernel calls", r->plan.calls);
	doc_u64(d, "first_write_pages", ", first write %" PRIu64 " pages\n", r->plan.first);
	doc_u64(d, "overshoot_pages", NULL, r->plan.overshoot);
	doc_close(d);
	doc_close(d);
}

int reclaim_print(const struct rc_run *r)
{
	static struct doc doc;		/* the JSON writer's buffer: not on the stack */
	struct doc *d = &doc;
	int width[NWF];
	size_t i;

	doc_begin(d, r->ctx->format, stdout);
	doc_str(d, "source", NULL, r->o->dry_run ? "model" : "live");
	doc_text(d, "reclaim %s: ", r->t.shown[0] ? r->t.shown : r->o->cgroup);
	doc_str(d, r->kernel_known ? "kernel" : NULL, "kernel %s", r->kernel);
	if (!r->kernel_known)
		doc_null(d, "kernel");
	doc_text(d, "%s", r->kernel_known ? "" : " (assumed)");
	doc_double(d, "page_size", ", %.0f-byte pages", r->ps);
	doc_text(d, "%s\n", r->ps_assumed ? " (assumed)" : "");
	if (r->t.shown[0])
		doc_str(d, r->o->node >= 0 ? "file" : "cgroup", NULL, r->t.shown);
	else
		doc_null(d, "cgroup");
	if (r->o->node >= 0)
		doc_double(d, "node", NULL, (double)r->o->node);
	doc_str(d, "batch", NULL, reclaim_batch_name(r->o->batch));
	if (r->o->swappiness == -1)
		doc_str(d, "swappiness", NULL, "max");
	else if (r->o->swappiness >= 0)
		doc_double(d, "swappiness", NULL, r->o->swappiness);
	else
		doc_null(d, "swappiness");
	doc_u64(d, "request_pages", NULL, r->request);
	model_doc(r, d);
	if (!r->o->dry_run) {
		doc_str(d, r->steal_key ? "counter" : NULL, "reclaimed: %s",
			r->steal_key ? r->steal_key : "no counter");
		if (!r->steal_key)
			doc_null(d, "counter");
		doc_text(d, " of %s (pages)\n", r->o->node >= 0 ? "/proc/vmstat" : "memory.stat");
		fmt_widths(write_fields, NWF, r->w, sizeof(*r->w), r->nw, 0, width);
		doc_table(d, width, 0);
		doc_header(d, write_fields, NWF, 0);
		doc_text(d, " RESULT\n");
		doc_arr(d, "writes");
		for (i = 0; i < r->nw; i++) {
			doc_obj(d, NULL);
			doc_fields(d, write_fields, NWF, 0, &r->w[i]);
			doc_str(d, "result", " %s\n", write_result(&r->w[i]));
			doc_close(d);
		}
		doc_close(d);
		doc_table(d, NULL, 0);
		doc_text(d, "total: %zu write%s, ", r->nw, r->nw == 1 ? "" : "s");
		doc_obj(d, "total");
		doc_record(d, write_fields + 1, NWF - 1, 0, &r->total);
		doc_double(d, "writes", NULL, (double)r->nw);
		doc_close(d);
		doc_str(d, "result", "; %s\n", r->result);
	}
	doc_end(d);	/* a write error shows at close_stdout() */
	return EXIT_OK;
}

/* ---- the run ------------------------------------------------------------ */

