/* SPDX-License-Identifier: MIT */
/*
 * verify.h - recompute every zone of a machine and judge what its kernel
 * printed: exact, stale (computed from managed counts that have moved
 * since) or a mismatch.
 */
#ifndef WMARK_VERIFY_H
#define WMARK_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "change.h"
#include "infer.h"
#include "machine.h"
#include "state.h"
#include "wmark.h"
#include "zoneinfo.h"

enum wm_verdict {
	WM_VERDICT_EXACT,	/* every printed number is the model's */
	WM_VERDICT_STALE,	/* they are, for managed counts near today's */
	WM_VERDICT_MISMATCH,	/* no counts near today's explain them */
	WM_VERDICT_CANNOT,	/* an input the model needs is unknown */
};

/* "exact", "stale", "mismatch", "cannot-verify". */
const char *wm_verdict_name(enum wm_verdict v);

/* Why a verify could not be done. */
enum wm_cannot {
	WM_CANNOT_NONE,
	WM_CANNOT_NO_MANAGED,	/* zoneinfo has neither managed nor present pages */
	WM_CANNOT_MFK,		/* min_free_kbytes unknown (not captured, not inferred) */
	WM_CANNOT_WSF,		/* watermark_scale_factor unknown */
};

/* What a note is about, for programs; the text is for people. */
enum wm_note_kind {
	WM_NOTE_ERA,		/* the kernel version was assumed from the file's format */
	WM_NOTE_PRESENT,	/* present pages stand in for managed (before 3.8) */
	WM_NOTE_HIDDEN_BOOST,	/* 5.0-5.15 boost taken off a zone */
	WM_NOTE_FROZEN_BOOST,	/* 5.0-5.7 boost frozen into low/high */
	WM_NOTE_INFERRED,	/* a sysctl was inferred from the watermarks */
	WM_NOTE_ASSUMED,	/* a value was assumed (defaults, 10) */
	WM_NOTE_PRE_4_6,	/* the watermarks follow the pre-4.6 rule */
	WM_NOTE_NO_PROTECTION,	/* protection not checked */
	WM_NOTE_DISTANCE,	/* how far counts would have to move for a mismatch */
	WM_NOTE_GEOMETRY,	/* the page size was assumed */
};

#define WM_VERIFY_MAX_NOTES 24

struct wm_note {
	enum wm_note_kind kind;
	char text[320];
};

/* How to verify. */
struct wm_verify_opts {
	bool infer;			/* recover min_free_kbytes and wsf from zoneinfo */
	enum wm_high_rule high_rule;	/* the kernel's high rule: stock, or a patched kernel's */
	struct wm_change given;		/* sysctls given instead of the machine's */
};

/* What verify found. */
struct wm_verify {
	enum wm_verdict verdict;
	enum wm_cannot cannot;
	struct wm_profile prof;		/* the rules used */
	const char *assumed;		/* the era assumed ("6.12"), or NULL */
	struct wm_sysctl sc;		/* the sysctls compared with */
	bool prot_known;		/* protection was compared */
	size_t nzones;			/* model zones (= the machine's) */
	struct wm_zone_wm *w;		/* the model, raw */
	struct wm_printed *pr;		/* what was printed, raw */
	int64_t *boost;			/* pages taken off each zone (printed or hidden boost) */
	bool *bad_wm, *bad_prot;	/* per zone: which printed values differ */
	uint64_t *then;		/* stale: the managed counts they were computed from */
	int64_t moved;			/* stale: pages moved since, all zones together */
	struct wm_note notes[WM_VERIFY_MAX_NOTES];
	int nnotes;
};

/*
 * Verify machine s: compare every min/low/high/promo zoneinfo printed
 * (boost taken off: printed from 5.16, recognised as whole pageblocks on
 * 5.0-5.15) and protection entry with the model at the machine's sysctls
 * (o->given over them), under s's kernel rules with o->high_rule.  On a
 * difference, look for managed counts within 1% of each zone or 64 MiB
 * (and no more than that in all) that reproduce every printed number:
 * found, the verdict is stale.  With o->infer, min_free_kbytes and
 * watermark_scale_factor the machine does not have are recovered from the
 * watermarks.  When s's kernel is not known (s->kernel.known false) the
 * kernel eras the zoneinfo's format allows are tried, newest first, and
 * the one that fits best is kept.  A page size s->geo says was assumed
 * gives a note.  Fill *out (free with wm_verify_free).  Return WM_OK (the
 * verdict says the rest), WM_EINVAL when a given sysctl is one the kernel
 * does not accept or s's page size or pageblock is unknown (diag says
 * which), or WM_ENOMEM.
 */
int wm_verify(const struct wm_state *s, const struct wm_verify_opts *o, struct wm_verify *out,
	      struct wm_diag *diag);

void wm_verify_free(struct wm_verify *v);

#endif /* WMARK_VERIFY_H */
