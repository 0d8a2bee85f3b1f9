/* SPDX-License-Identifier: MIT */
/*
 * apply.h - the parts of `wmark apply`, one file a job: apply_args.c
 * (options and --from files), cmd_apply.c (reading the knobs, the plan
 * and its safety rule, the write through cli/txn.c), apply_report.c (what is about to be
 * written and what the model predicts, in text and JSON) and
 * apply_persist.c (--persist and --initrc).  They share struct apply,
 * one run of the command.
 */
#ifndef WMARK_APPLY_H
#define WMARK_APPLY_H

#include <limits.h>
#include <stdbool.h>

#include "../calc/plan.h"
#include "doc.h"
#include "journal.h"
#include "persist.h"
#include "snapshot.h"
#include "sysctl.h"

#define MAX_WARN 16

struct change {
	bool set;
	bool ignore_failure;		/* "-vm.x = v" in a --from file */
	const char *origin;		/* "--wsf", "FILE:LINE" */
	char origin_buf[64];
	struct sc_value val;		/* new */
	char text[JR_TEXT_MAX];		/* new, as written */
	char path[PATH_MAX];
	struct sc_value prev;
	char prev_text[JR_TEXT_MAX];	/* as the kernel printed it */
	bool dropped;			/* ignore_failure and the knob is missing */
	bool write_failed;		/* ignore_failure and the write failed */
};

/* A --persist or --initrc file, as found before anything is written. */
struct target {
	const char *file;		/* as given: "/etc/sysctl.d/90-wmark.conf" */
	char path[PATH_MAX];		/* inside the root */
	enum ps_kind kind;
	char text[JR_FILE_MAX];		/* what it holds now, if it exists */
};

struct apply {
	const struct cli_ctx *ctx;
	struct change ch[WM_NKNOBS];
	bool dry_run, force, refresh;
	const char *state_opt, *persist, *initrc;
	char state_path[PATH_MAX];
	char command[512];
	struct journal old;		/* the journal of earlier applies */
	bool have_old;			/* old holds values not rolled back */
	struct snapshot s;
	bool have_snapshot;
	struct wm_plan plan;		/* the writes judged: sysctls after, zones now and after */
	bool wrote;			/* the knobs hold the new values */
	char *warn[MAX_WARN];
	int nwarn;
	int nwarn_shown;		/* text mode: printed so far */
	int lock_fd;			/* the journal lock, -1 if not held */
	struct target tgt[2];		/* --persist, --initrc (file NULL if not given) */
	struct doc *doc;		/* the report, from apply_announce() on */
};

/* ---- apply_args.c */

/*
 * The options (a->ctx->args) and --from files into a->ch and the flags;
 * EXIT_OK, an exit code after a message, or -1 after --help.
 */
int apply_parse(struct apply *a, const char *cmd);

/* ---- cmd_apply.c */

/* Keep a warning (printf-style) for the report, up to MAX_WARN. */
void apply_warn(struct apply *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The zoneinfo entry of model zone i, or NULL for a zone the kernel does not print (before 4.12, unpopulated zones are left out). */
const struct zi_zone *apply_zi_of(const struct snapshot *s, size_t i);

/* ---- apply_report.c: what apply is about to do and what the model predicts */

/* --refresh: the zones whose watermarks move, into d (a line of text, or a "moved" array). */
void apply_report_moved(const struct apply *a, struct doc *d);

/*
 * The prediction: a table of each zone printed now -> predicted after the
 * write in text, the array "predicted" (one object a zone) in JSON.
 */
void apply_doc_prediction(const struct apply *a, struct doc *d);

/* The knobs to write: a "vm.x old -> new" line each, or the objects "written" and "previous". */
void apply_doc_changes(const struct apply *a, struct doc *d);

/* ---- apply_persist.c: --persist and --initrc */

/* --persist and --initrc: write the files (or, in a dry run, say what they would hold).  EXIT_OK or an exit code after a message. */
int apply_do_persist(struct apply *a, const char *cmd, struct doc *doc);

/* Find the --persist and --initrc files and what they hold now, before anything is written: a file wmark did not write is refused unless --force.  EXIT_OK or an exit code after a message. */
int apply_check_targets(struct apply *a, const char *cmd);

/* Add the files this apply will write to journal j, with the text each held before.  EXIT_OK or an exit code after a message. */
int apply_journal_files(const struct apply *a, const char *cmd, struct journal *j);

#endif /* WMARK_APPLY_H */
