// SPDX-License-Identifier: MIT
/*
 * reclaim.c - memory_reclaim() of mm/memcontrol.c (5.19 - 6.16) and
 * user_proactive_reclaim() of mm/vmscan.c (6.17+), as read in the 6.12
 * and 7.2 trees, and docs/model.md §12 for the older edges.
 *
 * The subtle point: the loop's only stopping rules are "reclaimed >=
 * asked" and "a zero-progress call with no retries left".  A call that
 * reclaims a single page keeps the loop going, so a kernel whose calls
 * aim at 32 pages (6.6 - 6.8) makes thousands of calls for a large
 * request, and one whose calls each restart the whole reclaim walk pays
 * for that every time.  Every call aims at max(batch, 32) pages
 * (try_to_free_mem_cgroup_pages), which is what makes rem / 4 converge.
 */
#include <string.h>

#include "reclaim.h"

static bool at_least(const struct wm_kver *k, unsigned major, unsigned minor)
{
	return wm_kver_cmp(k, major, minor, 0) >= 0;
}

void wm_reclaim_profile_for(const struct wm_kver *k, struct wm_reclaim_profile *p)
{
	memset(p, 0, sizeof(*p));
	if (!at_least(k, 5, 19))
		p->rule = WM_RECLAIM_NONE;
	else if (!at_least(k, 6, 6))
		p->rule = WM_RECLAIM_FULL;
	else if (!at_least(k, 6, 9))
		p->rule = WM_RECLAIM_CAP32;
	else
		p->rule = WM_RECLAIM_QUARTER;
	p->swappiness = at_least(k, 6, 11);
	p->swappiness_max = at_least(k, 6, 16);
	p->node_file = at_least(k, 6, 17);
	p->pgsteal_proactive = at_least(k, 6, 19);
	p->restarts = at_least(k, 6, 17);
}

const char *wm_reclaim_rule_name(enum wm_reclaim_rule r)
{
	switch (r) {
	case WM_RECLAIM_FULL:
		return "full";
	case WM_RECLAIM_CAP32:
		return "min32";
	case WM_RECLAIM_QUARTER:
		return "quarter";
	case WM_RECLAIM_NONE:
		break;
	}
	return "none";
}

uint64_t wm_reclaim_batch(enum wm_reclaim_rule r, uint64_t rem)
{
	switch (r) {
	case WM_RECLAIM_CAP32:
		return rem < WM_RECLAIM_MIN_CALL ? rem : WM_RECLAIM_MIN_CALL;
	case WM_RECLAIM_QUARTER:
		/* "Will converge on zero, but reclaim enforces a minimum" */
		return rem / 4;
	case WM_RECLAIM_FULL:
	case WM_RECLAIM_NONE:
		break;
	}
	return rem;
}

uint64_t wm_reclaim_call_target(uint64_t batch)
{
	return batch > WM_RECLAIM_MIN_CALL ? batch : WM_RECLAIM_MIN_CALL;
}

void wm_reclaim_loop_init(struct wm_reclaim_loop *l, enum wm_reclaim_rule r,
			  uint64_t to_reclaim)
{
	memset(l, 0, sizeof(*l));
	l->rule = r;
	l->to_reclaim = to_reclaim;
	l->retries = WM_RECLAIM_RETRIES;
}

enum wm_reclaim_state wm_reclaim_loop_next(const struct wm_reclaim_loop *l,
					   uint64_t *target, bool *drain)
{
	if (l->reclaimed >= l->to_reclaim)
		return WM_RECLAIM_DONE;
	*target = wm_reclaim_call_target(wm_reclaim_batch(l->rule, l->to_reclaim - l->reclaimed));
	/* "This is the final attempt, drain percpu lru caches" */
	*drain = l->retries == 0;
	return WM_RECLAIM_MORE;
}

enum wm_reclaim_state wm_reclaim_loop_done(struct wm_reclaim_loop *l, uint64_t got)
{
	l->calls++;
	if (!got) {
		l->zero_calls++;
		/* the kernel's "if (!reclaimed && !nr_retries--) return -EAGAIN" */
		if (l->retries == 0)
			return WM_RECLAIM_EAGAIN;
		l->retries--;
	}
	l->reclaimed += got;
	return l->reclaimed >= l->to_reclaim ? WM_RECLAIM_DONE : WM_RECLAIM_MORE;
}

uint64_t wm_reclaim_over_bound(enum wm_reclaim_rule r, uint64_t request)
{
	switch (r) {
	case WM_RECLAIM_FULL:
		return request ? wm_reclaim_call_target(request) * 2 - 1 - request : 0;
	case WM_RECLAIM_CAP32:
	case WM_RECLAIM_QUARTER:
		return request ? 2 * WM_RECLAIM_MIN_CALL - 1 : 0;
	case WM_RECLAIM_NONE:
		break;
	}
	return 0;
}

uint64_t wm_reclaim_over_bound_folios(enum wm_reclaim_rule r, uint64_t request,
				      uint64_t folio_pages)
{
	uint64_t b = wm_reclaim_over_bound(r, request);

	return request && folio_pages > 1 ? b + folio_pages - 1 : b;
}

uint64_t wm_reclaim_largest_folio(uint64_t pmd_bytes, unsigned page_size)
{
	if (page_size && pmd_bytes / page_size > 1)
		return pmd_bytes / page_size;
	return 1u << 8;
}

int wm_reclaim_model(enum wm_reclaim_rule r, uint64_t request, struct wm_reclaim_model *m,
		     struct wm_diag *diag)
{
	struct wm_reclaim_loop l;
	uint64_t t, run;
	bool drain;

	memset(m, 0, sizeof(*m));
	m->rule = r;
	m->request = request;
	if (r == WM_RECLAIM_NONE)
		return wm_fail(diag, WM_EINVAL, 0, "kernel",
			       "no memory.reclaim before 5.19");
	if (request > WM_RECLAIM_MAX_REQUEST)
		return wm_fail(diag, WM_ERANGE, 0, "bytes", "request too large to model");
	wm_reclaim_loop_init(&l, r, request);
	while (wm_reclaim_loop_next(&l, &t, &drain) == WM_RECLAIM_MORE) {
		if (m->nruns && m->runs[m->nruns - 1].target == t) {
			/* A run of equal targets (the 32-page tail, all of
			 * min32): account it at once, not call by call. */
			run = (l.to_reclaim - l.reclaimed + t - 1) / t;
			if (wm_reclaim_batch(r, l.to_reclaim - l.reclaimed) <= t) {
				m->runs[m->nruns - 1].count += run;
				l.reclaimed += run * t;
				l.calls += run;
				break;
			}
			m->runs[m->nruns - 1].count++;
		} else {
			if (m->nruns == WM_RECLAIM_MAX_RUNS)
				return wm_fail(diag, WM_ERANGE, 0, "bytes",
					       "request too large to model");
			m->runs[m->nruns].target = t;
			m->runs[m->nruns].count = 1;
			m->nruns++;
		}
		wm_reclaim_loop_done(&l, t);
	}
	m->calls = l.calls;
	m->overshoot = l.reclaimed - request;
	m->over_bound = wm_reclaim_over_bound(r, request);
	return WM_OK;
}

uint64_t wm_batch_next(enum wm_batch_mode mode, uint64_t left, uint64_t fixed)
{
	uint64_t q;

	switch (mode) {
	case WM_BATCH_QUARTER:
		q = left / 4;
		return q > WM_RECLAIM_MIN_CALL ? q : WM_RECLAIM_MIN_CALL;
	case WM_BATCH_FIXED:
		return fixed && fixed < left ? fixed : left;
	case WM_BATCH_KERNEL:
		break;
	}
	return left;
}

/*
 * Fixed steps of f pages, in closed form: a write of f pages is credited
 * s = f + its idealised overshoot, so the writes of a full step are the
 * n with request - (n - 1) * s >= f, and one shorter write follows for
 * what they leave, if anything.  A loop over the writes would run
 * request / s times: 10^11 for 16000 TiB in 4 KiB steps.
 */
static int plan_fixed(enum wm_reclaim_rule r, uint64_t request, uint64_t f,
		      struct wm_batch_plan *p, struct wm_diag *diag)
{
	struct wm_reclaim_model m;
	uint64_t s, n, calls, left;
	int rc;

	if (request < f)
		f = request;
	rc = wm_reclaim_model(r, f, &m, diag);
	if (rc)
		return rc;
	s = f + m.overshoot;
	calls = m.calls;
	n = (request - f) / s + 1;
	/* what the last full write found left: at least f, no overflow */
	left = request - (n - 1) * s;
	p->first = f;
	p->writes = n;
	p->calls = n * calls;
	if (left <= s) {
		p->overshoot = s - left;
		return WM_OK;
	}
	rc = wm_reclaim_model(r, left - s, &m, diag);
	if (rc)
		return rc;
	p->writes++;
	p->calls += m.calls;
	p->overshoot = m.overshoot;
	return WM_OK;
}

int wm_batch_plan(enum wm_reclaim_rule r, enum wm_batch_mode mode, uint64_t request,
		  uint64_t fixed, struct wm_batch_plan *p, struct wm_diag *diag)
{
	struct wm_reclaim_model m;
	uint64_t done = 0, w;
	int rc;

	memset(p, 0, sizeof(*p));
	if (r == WM_RECLAIM_NONE || request > WM_RECLAIM_MAX_REQUEST)
		return wm_reclaim_model(r, request, &m, diag);
	if (!request)
		return WM_OK;
	if (mode == WM_BATCH_FIXED)
		return plan_fixed(r, request, fixed ? fixed : 1, p, diag);
	/*
	 * One write (kernel), or writes of a quarter of what is left, at
	 * least 32 pages: about 150 writes for any 64-bit request.
	 */
	while (done < request) {
		w = wm_batch_next(mode, request - done, fixed);
		rc = wm_reclaim_model(r, w, &m, diag);
		if (rc)
			return rc;
		if (!p->writes)
			p->first = w;
		p->writes++;
		p->calls += m.calls;
		/* at most request + 63: no wrap below WM_RECLAIM_MAX_REQUEST */
		done += w + m.overshoot;
	}
	p->overshoot = done - request;
	return WM_OK;
}

int wm_reclaim_check_swappiness(const struct wm_reclaim_profile *p, const struct wm_kver *k,
				int val, struct wm_diag *diag)
{
	if (!p->swappiness)
		return wm_fail(diag, WM_EINVAL, 0, "--swappiness",
			       "kernel %u.%u has no swappiness= key in memory.reclaim (6.11+)",
			       k->major, k->minor);
	if (val < 0 && !p->swappiness_max)
		return wm_fail(diag, WM_EINVAL, 0, "--swappiness",
			       "kernel %u.%u has no swappiness=max (6.16+); 0 to 200 only",
			       k->major, k->minor);
	if (val > 200)
		return wm_fail(diag, WM_EINVAL, 0, "--swappiness",
			       "%d is out of range (0 to 200, or max)", val);
	return WM_OK;
}
