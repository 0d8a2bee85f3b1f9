/* SPDX-License-Identifier: MIT */
/*
 * txn.h - writing watermark sysctls so that every write can be undone:
 * the journal's lock and path, writes read back with undo, and a run of
 * writes under one journal (what `wmark tune` does).
 *
 * The journal (journal.h) records each knob's text from before the first
 * write and the text last written, and is committed before any write; so
 * a crash at any point leaves each knob at one of the two, and `wmark
 * rollback` can finish the job.
 */
#ifndef WMARK_TXN_H
#define WMARK_TXN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "doc.h"
#include "journal.h"
#include "sysctl.h"

/* One knob to write, and how to undo it. */
struct txn_step {
	enum wm_knob key;
	const char *path;
	const char *to;			/* text to write */
	const char *back;		/* text that undoes it */
	struct sc_value want;		/* what the read-back must show */
	bool ignore_failure;
	bool done;
	bool failed_ignored;
};

/*
 * Write every step and read it back.  On the first failure that is not
 * ignorable, write the undo text to every step done so far (the failed
 * one included: a read-back that differs means it did change), last
 * first.  Return EXIT_OK, EXIT_SYSTEM (a write failed) or EXIT_CHECK (a
 * read-back differed), after lines on stderr saying what happened; set
 * *undone when everything was put back.
 */
int txn_write_steps(const char *cmd, struct txn_step *st, int n, bool *undone);

/* A knob's value as text without the newline ("" if it does not fit). */
void txn_value_str(const struct sc_value *v, char *buf, size_t n);

/* Does text (a journal's, "" for none) hold the value v of knob k? */
bool txn_holds(enum wm_knob k, const char *text, const struct sc_value *v);

/* Where a journaled knob stands against its entry. */
enum txn_where {
	TXN_AT_PREVIOUS,	/* the value from before: nothing to restore */
	TXN_AT_WRITTEN,		/* what was written (or, after a kill, from before that write) */
	TXN_CHANGED,		/* anything else: someone else's value now */
};

/* Where knob e->key stands with value now (NULL: unreadable, or no value). */
enum txn_where txn_where(const struct jr_entry *e, const struct sc_value *now);

/* The journal's path: --state's opt, else under the root.  0 or -ENAMETOOLONG. */
int txn_state_path(const struct cli_ctx *ctx, const char *opt, char *out, size_t n);

/*
 * One apply, rollback or tune at a time per journal: an exclusive flock
 * on "<journal>.lock", held until *fd is closed.  Return EXIT_OK or
 * EXIT_SYSTEM after one line.
 */
int txn_lock(const char *cmd, const char *state, int *fd);

/* The root's boot id (proc/sys/kernel/random/boot_id), "" if unknown. */
void txn_boot_id(const char *root, char *out, size_t n);

/* A knob's value as member name of the open JSON object: a number, or an array for lowmem_reserve_ratio. */
void txn_doc_value(struct doc *d, const char *name, const struct sc_value *v, enum wm_knob k);

/*
 * Did stdout take everything printed so far?  If not, say so on stderr
 * with what was done anyway (done), point stdout at /dev/null so that
 * main's check at exit does not say it again, and return EXIT_SYSTEM
 * unless rc is already an error; else return rc.
 */
int txn_stdout_check(const char *cmd, int rc, const char *done);

/* The hint after a write refused with err (-errno): "" for root, whom it would not help. */
const char *txn_needs_root(int err);

/*
 * Start journal j for a write under root: everything cleared, then the
 * root (resolved), kernel, boot id, time and command filled in.
 */
void txn_journal_head(struct journal *j, const char *root, const char *kernel,
		      const char *command);

/* What txn_commit() did besides its return code. */
struct txn_outcome {
	bool journaled;			/* j was saved as pending: writes were tried */
	bool undone;			/* failed: every write done was put back */
	int save_err;			/* succeeded, but the last save failed (-errno) */
	const char *save_failed;	/* then: what failed */
};

/*
 * Write steps st[0..n) under journal j (at path state), the one sequence
 * of apply and tune: j, which must name every knob of st, goes to disk
 * as pending before any write; then each step is written and read back,
 * and on the first failure that is not ignorable every write done is
 * undone (txn_write_steps).  Then:
 *   - on success each knob written loses its "before" text in j, stale
 *     temporary files beside the knobs are removed, and j is saved as
 *     applied; a failure of that last save is only reported in *out
 *     (the journal then reads pending, which rollback handles);
 *   - on a failure whose writes were all undone, on_undo (the journal as
 *     it was before; NULL: j itself, marked restored) is saved again.
 * Return EXIT_OK, or an exit code after lines on stderr (a journal that
 * cannot be saved first: "nothing was written").
 */
int txn_commit(const char *cmd, const char *state, struct journal *j, struct txn_step *st,
	       int n, const struct journal *on_undo, struct txn_outcome *out);

/* ---- a run of writes under one journal -------------------------------- */

/* A knob a run may write, as it stands. */
struct txn_knob {
	bool used;			/* the run may write it */
	char path[PATH_MAX];
	char first[JR_TEXT_MAX];	/* the text before the run's first write */
	char last[JR_TEXT_MAX];		/* the text the run last wrote, "" none */
	bool foreign;			/* someone else wrote it: hands off */
};

struct txn {
	const struct cli_ctx *ctx;
	const char *cmd;
	char state[PATH_MAX];
	int lock_fd;
	char kernel[128], command[512];
	struct txn_knob k[WM_NKNOBS];
	bool journaled;			/* the journal holds this run's values */
	int writes;
};

/*
 * Start a run for knobs use[0..n) under ctx->root: resolve and read them,
 * take the journal's lock, and if the journal holds values that an
 * earlier apply or run left (a run killed with SIGKILL), put those back
 * first (each knob that still holds what was written; a knob changed
 * since is left and said so), with one line each on stderr.  dry: read
 * only, no lock, nothing put back.  Return EXIT_OK or an exit code after
 * one line on stderr; nothing was written unless a restore line says so.
 */
int txn_begin(struct txn *t, const struct cli_ctx *ctx, const char *cmd,
	      const char *state_opt, const char *kernel, const char *command,
	      const enum wm_knob *use, int n, bool dry);

/*
 * Has someone else written knob k since the run read or wrote it?  Read
 * it: true (and k marked foreign for good) when it holds neither the
 * run's last text nor, before the first write, its first one.  A knob
 * that cannot be read counts as changed.  *now gets its value when read.
 */
bool txn_changed(struct txn *t, enum wm_knob k, struct sc_value *now);

/*
 * Write texts to[0..n) to knobs k[0..n) of the run: the journal first
 * (each knob's first text as previous), then each write read back, undone
 * on failure.  Return EXIT_OK or an exit code after lines on stderr.
 */
int txn_write(struct txn *t, const enum wm_knob *k, const char *const *to, int n);

/*
 * Put back every knob the run wrote that is not foreign, and mark the
 * journal rolled back.  Return EXIT_OK, or an exit code after lines on
 * stderr (the journal then still names what to restore).
 */
int txn_restore(struct txn *t);

/* Let the journal go (it stays on disk as last committed). */
void txn_end(struct txn *t);

#endif /* WMARK_TXN_H */
