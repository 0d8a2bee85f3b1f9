/* SPDX-License-Identifier: MIT */
/*
 * reclaim_run.h - the parts of `wmark reclaim`: cmd_reclaim.c (options,
 * the target, the writes and what each took) and reclaim_report.c (the
 * writes, their total and the kernel's loop beside them, as text and
 * JSON).  They share one run.
 */
#ifndef WMARK_RECLAIM_RUN_H
#define WMARK_RECLAIM_RUN_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../calc/reclaim.h"
#include "cli.h"

struct rc_opts {
	const char *cgroup;
	uint64_t bytes;		/* --bytes */
	bool have_bytes;
	uint64_t to;		/* --to, bytes */
	bool have_to;
	enum wm_batch_mode batch;
	uint64_t fixed;		/* fixed:SIZE, bytes */
	int swappiness;		/* -2 none, -1 max, else 0..200 */
	int64_t node;		/* -1: a cgroup */
	double timeout;		/* seconds, 0 none */
	bool dry_run;
};

struct rc_target {
	char dir[4096];		/* the cgroup's directory (root-prefixed), or the node's */
	char file[4200];	/* memory.reclaim or nodeN/reclaim */
	char rel[4200];		/* the same without the root and its "/": what bn_open() walks */
	char shown[4096];	/* what the user is told: the path without --root */
	bool is_root_cgroup;
};

/* One write as reported.  NAN: not known. */
struct rc_write {
	double n;		/* 1-based; the total row has NAN */
	double asked;		/* pages */
	double got;		/* pages reclaimed (memory.stat) */
	double dcur;		/* pages memory.current went down by */
	double over;		/* got - asked */
	double ns;		/* wall time of the write */
	double rate;		/* got per second */
	double anon, file;	/* pages the cgroup's anon and file went down by */
	double refault;		/* working-set refaults meanwhile */
	int err;		/* 0 or the write's errno */
	bool timed_out;
};

struct rc_run {
	const struct cli_ctx *ctx;
	const struct rc_opts *o;
	const char *kernel;		/* release or --kernel */
	bool kernel_known;
	struct wm_reclaim_profile rp;
	unsigned ps;			/* page size */
	uint64_t folio;			/* pages: the largest folio the LRU may hold */
	bool ps_assumed;
	struct rc_target t;
	uint64_t request;		/* pages; --to: what was above the target at the start */
	struct wm_reclaim_model model;	/* one write of the whole request */
	struct wm_batch_plan plan;	/* wmark's writes */
	struct rc_write *w;
	size_t nw, cap;
	struct rc_write total;
	const char *steal_key;
	const char *result;		/* ok, EAGAIN, timeout, interrupted, stalled, error */
	char fail[4500];		/* result "error": the message, printed after the report */
};

/* The floor of a double that may be NAN, as pages. */
static inline double or0(double v)
{
	return isnan(v) ? 0 : v;
}

/* "quarter", "fixed" or "kernel". */
const char *reclaim_batch_name(enum wm_batch_mode b);

/* r->total from r's writes: their sums, and the request asked. */
void reclaim_total(struct rc_run *r);

/* The run on standard output, as text or one JSON document (r->ctx->format); an exit code. */
int reclaim_print(const struct rc_run *r);

#endif /* WMARK_RECLAIM_RUN_H */
