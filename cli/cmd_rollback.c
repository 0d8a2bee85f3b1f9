// SPDX-License-Identifier: MIT
/*
 * cmd_rollback.c - `wmark rollback`: write back the values the journal
 * holds from before the applies (or a tune run) since the last rollback,
 * and put back or remove the files --persist and --initrc wrote.
 *
 * A knob that holds neither the journal's previous nor its written value
 * was changed by someone else since: without --force nothing is written.
 * The journal and the write-with-undo are cli/txn.c's, as for apply.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../calc/change.h"
#include "commands.h"
#include "doc.h"
#include "journal.h"
#include "livecheck.h"
#include "persist.h"
#include "snapshot.h"
#include "sysctl.h"
#include "txn.h"

static void rollback_usage(FILE *f)
{
	fputs("Usage: wmark [--root DIR] [-j] rollback [OPTIONS]\n"
	      "\n"
	      "Restore the sysctls that apply changed to the values they had before\n"
	      "it, from the journal.  After several applies, the values from before\n"
	      "the first one since the last rollback, also after an apply that was\n"
	      "killed.  Files --persist and --initrc wrote are removed, or the file\n"
	      "they replaced is put back.  Running it again changes nothing.  Values\n"
	      "or files someone else changed since are left alone, and nothing is\n"
	      "written, unless --force.\n"
	      "\n"
	      "Options:\n"
	      "      --state FILE   journal (default ROOT/var/lib/wmark/state.json)\n"
	      "  -f, --force        restore values changed since the apply too\n"
	      "  -n, --dry-run      say what would be restored, write nothing\n"
	      "  -h, --help         show this help\n"
	      "\n"
	      "Exit status: 0 restored or nothing to do, 1 values changed since (and\n"
	      "no --force) or a read-back differed, 2 bad usage, a malformed journal,\n"
	      "one for another root or a value the kernel refuses, 3 no journal, no\n"
	      "permission or I/O.\n", f);
}

/* What rollback does with a file --persist or --initrc wrote. */
enum rb_file { RBF_NONE, RBF_REMOVE, RBF_RESTORE };

struct rb_files {
	enum rb_file act[JR_MAX_FILES];
	bool changed[JR_MAX_FILES];	/* not as apply left it: someone else's now */
	const char *why[JR_MAX_FILES];	/* how it changed */
	char text[JR_FILE_MAX];		/* scratch: a file's text now */
};

/*
 * Decide for every file of journal j what rollback does: remove one that
 * did not exist before, put back the text of one that did, nothing when
 * it holds that text already.  A file that lost wmark's header, or that
 * is gone, was changed by someone else since.  Return EXIT_OK, or
 * EXIT_SYSTEM after one line for a file that cannot be touched by the
 * rule of ps_inspect (a symlink, a directory, outside the root).
 */
static int rollback_files(const struct cli_ctx *ctx, const char *cmd,
			  const struct journal *j, struct rb_files *rf)
{
	enum ps_kind kind;
	int i, r;

	for (i = 0; i < j->nfiles; i++) {
		const struct jr_file *f = &j->f[i];

		rf->act[i] = RBF_NONE;
		rf->changed[i] = false;
		rf->why[i] = "";
		r = ps_inspect(ctx->root, f->path, &kind, rf->text, sizeof(rf->text));
		if (r == -EFBIG || r == -EILSEQ) {
			kind = PS_FOREIGN;	/* not what wmark writes */
		} else if (r < 0) {
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s; nothing was restored", f->path,
				       r == -EXDEV ? "resolves outside the root: refusing to follow a symlink" :
				       r == -ELOOP ? "is a symbolic link: refusing" :
				       r == -EISDIR ? "is a directory, not a file" :
				       r == -ENXIO ? "is not a regular file" : strerror(-r));
		}
		if (j->state == JR_ROLLED_BACK || j->state == JR_RESTORED)
			continue;
		if (kind == PS_ABSENT && !f->existed)
			continue;
		if (kind != PS_ABSENT && f->existed && r == 0 && strcmp(rf->text, f->previous) == 0)
			continue;
		rf->act[i] = f->existed ? RBF_RESTORE : RBF_REMOVE;
		if (kind == PS_ABSENT) {
			rf->changed[i] = true;
			rf->why[i] = "was removed";
		} else if (kind == PS_FOREIGN) {
			rf->changed[i] = true;
			rf->why[i] = "no longer starts with wmark's header";
		}
	}
	return EXIT_OK;
}

/* Carry out rf's decisions; EXIT_OK or EXIT_SYSTEM after one line. */
static int rollback_do_files(const char *cmd, const struct journal *j,
			     const struct rb_files *rf)
{
	const char *failed = NULL;
	int i, r = 0;

	for (i = 0; i < j->nfiles; i++) {
		const struct jr_file *f = &j->f[i];

		if (rf->act[i] == RBF_REMOVE) {
			r = jr_remove(f->path, &failed);
		} else if (rf->act[i] == RBF_RESTORE) {
			r = jr_prepare_dir(f->path, &failed);
			if (r == 0)
				r = jr_write_atomic(f->path, f->previous, strlen(f->previous), 0644,
						    NULL, &failed);
		}
		if (r < 0)
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s: %s (the sysctls are restored, this file not: run 'wmark rollback' again)",
				       f->path, failed, strerror(-r));
	}
	return EXIT_OK;
}

/*
 * The kernel rollback writes to, for the range check: the root's kernel
 * identity alone (snapshot_kernel: --kernel, else osrelease with the
 * Debian sublevel of its version line), else the newest rules.  Not
 * snapshot_read, which refuses a knob file that does not parse: rollback
 * -f exists to repair exactly those.
 */
static void rollback_profile(const struct cli_ctx *ctx, struct wm_profile *p)
{
	struct wm_kernel_id id;

	if (snapshot_kernel(ctx, &id) == EXIT_OK)
		*p = id.prof;
	else
		wm_profile_default(p);
}

/*
 * `wmark rollback`: argv[0] is "rollback", then its options
 * (rollback_usage).  Return the exit code: 0 restored or nothing to do,
 * 1 values changed since or a read-back differed, 2 bad usage or a
 * malformed journal, 3 the system refused or there is no journal.
 */
const struct option cmd_rollback_opts[] = {
	{ "state", required_argument, NULL, 'S' },
	{ "force", no_argument, NULL, 'f' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* One rollback: the journal, each knob's state, the report being built. */
struct rollback {
	const struct cli_ctx *ctx;
	const char *cmd;
	const char *state_opt;
	bool force, dry;
	char path[PATH_MAX];			/* the journal */
	struct journal j;
	int lock_fd;
	char knob[WM_NKNOBS][PATH_MAX];
	char shown[WM_NKNOBS][JR_TEXT_MAX + 8];	/* what a knob holds, for messages */
	char raw[WM_NKNOBS][JR_TEXT_MAX];	/* a knob's text, when it does not parse */
	struct sc_value cur[WM_NKNOBS], prev[WM_NKNOBS], wr[WM_NKNOBS];
	bool cur_ok[WM_NKNOBS];
	enum txn_where where[WM_NKNOBS];
	struct txn_step st[WM_NKNOBS];		/* the writes, n of them */
	int n, changed, todo;
	struct rb_files rf;
	struct doc *doc;			/* the report, from rollback_report() on */
};

static int rollback_args(struct rollback *rb)
{
	const struct cli_ctx *ctx = rb->ctx;
	int oi, c;

	for (oi = 0; oi < ctx->args.nopt; oi++) {
		c = ctx->args.opt[oi].code;
		switch (c) {
		case 'S':
			rb->state_opt = ctx->args.opt[oi].arg;
			break;
		case 'f':
			rb->force = true;
			break;
		case 'n':
			rb->dry = true;
			break;
		case 'h':
			rollback_usage(stdout);
			return -1;
		default:
			return cli_opt_unhandled(rb->cmd, c);
		}
	}
	if (ctx->args.noperand)
		return cli_usage(rb->cmd, "unexpected argument '%s'", ctx->args.operand[0]);
	if (txn_state_path(ctx, rb->state_opt, rb->path, sizeof(rb->path)) < 0)
		return cli_usage(rb->cmd, "--state: path too long");
	return EXIT_OK;
}

/* The journal, locked unless a dry run, and written for this root. */
static int rollback_journal(struct rollback *rb)
{
	struct wm_diag jd = { 0 };
	char rroot[PATH_MAX];
	int r = jr_load(rb->path, &rb->j, &jd);

	if (r == -ENOENT)
		return cli_err(EXIT_SYSTEM, rb->cmd, "%s: no journal: nothing was applied with this root and --state",
			       rb->path);
	if (r == 0 && !rb->dry) {
		r = txn_lock(rb->cmd, rb->path, &rb->lock_fd);
		if (r != EXIT_OK)
			return r;
		/* Read it again: it is ours now. */
		r = jr_load(rb->path, &rb->j, &jd);
	}
	if (r < 0)
		/* malformed input (wmark.1): exit 2, but no usage hint */
		return cli_err(r == -EINVAL ? EXIT_USAGE : EXIT_SYSTEM, rb->cmd,
			       "%s: %s; nothing was restored", rb->path, jd.msg);
	if (!realpath(rb->ctx->root, rroot))
		return cli_err(EXIT_SYSTEM, rb->cmd, "%s: %s", rb->ctx->root, strerror(errno));
	if (strcmp(rroot, rb->j.root) != 0)
		return cli_err(EXIT_USAGE, rb->cmd, "%s was written for root %s, not %s; nothing was restored",
			       rb->path, rb->j.root, rroot);
	return EXIT_OK;
}

/* What each knob holds now, against what the journal says; and the files. */
static int rollback_read(struct rollback *rb)
{
	const struct journal *j = &rb->j;
	int i, r, rc;

	for (i = 0; i < j->n; i++) {
		enum wm_knob k = j->e[i].key;
		char text[JR_TEXT_MAX], esc[JR_TEXT_MAX];

		r = sc_path(rb->ctx->root, k, rb->knob[i], sizeof(rb->knob[i]));
		if (r < 0)
			return cli_err(EXIT_SYSTEM, rb->cmd, "vm.%s under %s: %s", wm_knob_name(k),
				       rb->ctx->root, r == -EXDEV ? "resolves outside proc/sys/vm" : strerror(-r));
		r = sc_read(rb->knob[i], text, sizeof(text));
		if (r == -EFBIG)
			snprintf(text, sizeof(text), "(over %d bytes)", JR_TEXT_MAX - 1);
		else if (r < 0)
			return cli_err(EXIT_SYSTEM, rb->cmd, "%s: read: %s", rb->knob[i], strerror(-r));
		/* jr_load checked that the journal's texts parse */
		sc_value_parse(k, j->e[i].previous, &rb->prev[i], NULL);
		sc_value_parse(k, j->e[i].written, &rb->wr[i], NULL);
		/* Whatever a knob holds (empty, garbage: a file, not the kernel), --force restores it. */
		rb->cur_ok[i] = r >= 0 && sc_value_parse(k, text, &rb->cur[i], NULL) == 0;
		snprintf(rb->raw[i], sizeof(rb->raw[i]), "%s", text);
		if (rb->cur_ok[i])
			txn_value_str(&rb->cur[i], rb->shown[i], sizeof(rb->shown[i]));
		else
			snprintf(rb->shown[i], sizeof(rb->shown[i]), "\"%s\"",
				 sc_escape(text, esc, sizeof(esc)));
		rb->where[i] = txn_where(&j->e[i], rb->cur_ok[i] ? &rb->cur[i] : NULL);
		/* After a rollback or a restore, nothing of ours is left. */
		if (j->state == JR_ROLLED_BACK || j->state == JR_RESTORED)
			continue;
		rb->changed += rb->where[i] == TXN_CHANGED;
		rb->todo += rb->where[i] != TXN_AT_PREVIOUS;
	}
	/* What a kill in an earlier apply or rollback left beside the knobs. */
	for (i = 0; !rb->dry && i < j->n; i++)
		jr_remove_stale(rb->knob[i]);
	rc = rollback_files(rb->ctx, rb->cmd, j, &rb->rf);
	if (rc != EXIT_OK)
		return rc;
	for (i = 0; i < j->nfiles; i++) {
		rb->changed += rb->rf.changed[i];
		rb->todo += rb->rf.act[i] != RBF_NONE;
	}
	return EXIT_OK;
}

/*
 * Refuse what cannot be restored: a knob or file changed since the apply
 * (unless --force), a previous value this kernel would refuse.
 */
static int rollback_check(struct rollback *rb)
{
	const struct journal *j = &rb->j;
	struct wm_profile prof;
	char boot_id[64];
	int i;

	txn_boot_id(rb->ctx->root, boot_id, sizeof(boot_id));
	if (rb->changed && !rb->force) {
		for (i = 0; i < j->n; i++) {
			char b[128];

			if (rb->where[i] != TXN_CHANGED)
				continue;
			txn_value_str(&rb->wr[i], b, sizeof(b));
			cli_err(0, rb->cmd, "vm.%s is %s, not the %s apply wrote: changed since",
				wm_knob_name(j->e[i].key), rb->shown[i], b);
		}
		for (i = 0; i < j->nfiles; i++)
			if (rb->rf.changed[i])
				cli_err(0, rb->cmd, "%s %s since apply wrote it: changed since",
					j->f[i].path, rb->rf.why[i]);
		return cli_err(EXIT_CHECK, rb->cmd, "nothing restored%s; --force restores the journal's values anyway",
			       boot_id[0] && j->boot_id[0] && strcmp(boot_id, j->boot_id) ?
			       " (the machine has rebooted since the apply)" : "");
	}
	/* A value the kernel would refuse (a journal of another kernel, or edited). */
	rollback_profile(rb->ctx, &prof);
	for (i = 0; rb->todo && i < j->n; i++) {
		enum wm_knob k = j->e[i].key;
		struct wm_diag d = { 0 };
		char esc[200];

		if (rb->where[i] == TXN_AT_PREVIOUS)
			continue;
		if (sc_value_check(&prof, k, &rb->prev[i],
				   k == WM_KNOB_LRR && rb->cur_ok[i] ? rb->cur[i].n : 0, &d) < 0)
			return cli_err(EXIT_USAGE, rb->cmd, "journal %s: vm.%s: the previous value cannot be written back: %s; nothing was restored",
				       rb->path, wm_knob_name(k), sc_escape(d.msg, esc, sizeof(esc)));
	}
	return EXIT_OK;
}

/* What a knob held, as member name: its value, or its text if it had none. */
static void doc_held(const struct rollback *rb, struct doc *d, int i)
{
	const char *name = wm_knob_name(rb->j.e[i].key);

	if (rb->cur_ok[i])
		txn_doc_value(d, name, &rb->cur[i], rb->j.e[i].key);
	else
		doc_str(d, name, NULL, rb->raw[i]);
}

/* Whether knob i of the journal is written back: there is work, and it is not at its previous value. */
static bool restores(const struct rollback *rb, int i)
{
	return rb->todo && rb->where[i] != TXN_AT_PREVIOUS;
}

/* What is about to be restored, into rb->doc; the steps into rb->st. */
static void rollback_report(struct rollback *rb)
{
	static const char *const act[] = {
		[RBF_NONE] = "unchanged", [RBF_REMOVE] = "removed", [RBF_RESTORE] = "restored",
	};
	const struct journal *j = &rb->j;
	struct doc *d = rb->doc;
	bool dry = rb->dry;
	int i;

	doc_str(d, "journal", NULL, rb->path);
	doc_str(d, "journal_state", NULL, jr_state_name(j->state));
	doc_bool(d, "dry_run", NULL, dry);
	for (i = 0; i < j->n; i++) {
		enum wm_knob k = j->e[i].key;
		bool go = restores(rb, i);
		char b[128];

		txn_value_str(&rb->prev[i], b, sizeof(b));
		if (go)
			doc_text(d, "%s vm.%s = %s (was %s)\n", dry ? "would restore" : "restore",
				 wm_knob_name(k), b, rb->shown[i]);
		else
			doc_text(d, "vm.%s = %s: %s\n", wm_knob_name(k), rb->shown[i],
				 rb->where[i] == TXN_AT_PREVIOUS ? "already the previous value" :
				 "not ours to restore (the last apply did not leave it changed)");
		if (go)
			rb->st[rb->n++] = (struct txn_step){ .key = k, .path = rb->knob[i],
							     .to = j->e[i].previous,
							     .back = j->e[i].written, .want = rb->prev[i] };
	}
	/* JSON: what is restored, what the knobs held, and what stays */
	doc_obj(d, "restored");
	for (i = 0; i < rb->n; i++)
		txn_doc_value(d, wm_knob_name(rb->st[i].key), &rb->st[i].want, rb->st[i].key);
	doc_close(d);
	doc_obj(d, "previous");
	for (i = 0; i < j->n; i++)
		if (restores(rb, i))
			doc_held(rb, d, i);
	doc_close(d);
	doc_obj(d, "unchanged");
	for (i = 0; i < j->n; i++)
		if (!restores(rb, i))
			doc_held(rb, d, i);
	doc_close(d);
	/* The files --persist and --initrc wrote: at boot, too, as before. */
	doc_arr(d, "files");
	for (i = 0; i < j->nfiles; i++) {
		doc_obj(d, NULL);
		doc_str(d, "path", NULL, j->f[i].path);
		doc_str(d, "action", NULL, act[rb->rf.act[i]]);
		doc_close(d);
		if (rb->rf.act[i] == RBF_REMOVE)
			doc_text(d, "%s %s (apply wrote it)\n", dry ? "would remove" : "remove",
				 j->f[i].path);
		else if (rb->rf.act[i] == RBF_RESTORE)
			doc_text(d, "%s %s (as before the first apply)\n",
				 dry ? "would restore" : "restore", j->f[i].path);
		else
			doc_text(d, "%s: %s\n", j->f[i].path, j->f[i].existed ? "already as before" :
				 "not there (nothing to remove)");
	}
	doc_close(d);
}

/* Everything the writes need, checked before the first; EXIT_OK or an exit code. */
static int rollback_ready(struct rollback *rb)
{
	const char *failed = NULL;
	int i, r;

	for (i = 0; i < rb->n; i++) {
		r = sc_writable(rb->st[i].path);
		if (r < 0)
			return cli_err(EXIT_SYSTEM, rb->cmd, "%s: %s%s; nothing was restored",
				       rb->st[i].path, strerror(-r), txn_needs_root(r));
	}
	for (i = 0; i < rb->j.nfiles; i++) {
		if (rb->rf.act[i] == RBF_NONE)
			continue;
		r = jr_prepare_dir(rb->j.f[i].path, &failed);
		if (r < 0)
			return cli_err(EXIT_SYSTEM, rb->cmd, "%s: %s: %s; nothing was restored",
				       rb->j.f[i].path, failed, strerror(-r));
	}
	r = jr_prepare_dir(rb->path, &failed);
	if (r < 0)
		return cli_err(EXIT_SYSTEM, rb->cmd, "journal %s: %s: %s; nothing was written",
			       rb->path, failed, strerror(-r));
	return EXIT_OK;
}

/* Check the kernel recomputed what the restored values give. */
static int rollback_recheck(struct rollback *rb)
{
	struct snapshot s;
	unsigned set = 0;
	bool recomp;
	int i, rc = EXIT_OK;

	for (i = 0; i < rb->n; i++)
		set |= wm_knob_have(rb->st[i].key);
	recomp = (wm_change_recomputes(set) & WM_RECOMPUTE_WMARKS) != 0;
	memset(&s, 0, sizeof(s));
	if (snapshot_read(rb->ctx, &s) == EXIT_OK) {
		struct wm_predicted *w = calloc(s.st.m.nzones ? s.st.m.nzones : 1, sizeof(*w));

		if (w && (s.st.sysctl.have & WM_HAVE_MFK) && s.st.m.nzones &&
		    wm_predict(&s.st, &s.st.sysctl, WM_RECOMPUTE_WMARKS, w, NULL) == WM_OK)
			rc = live_check(rb->ctx, rb->cmd, &s, w, &s.st.sysctl, recomp, rb->doc);
		free(w);
		snapshot_free(&s);
	}
	return rc;
}

/*
 * Restore the knobs and files, mark the journal rolled back, check the
 * kernel; *restored once a value is back.  EXIT_OK or an exit code.
 */
static int rollback_write(struct rollback *rb, bool *restored)
{
	const char *failed = NULL;
	bool undone;
	int r, rc;

	if (doc_is_streamed(rb->doc)) {
		/* Nobody would see what is about to be written. */
		rc = txn_stdout_check(rb->cmd, EXIT_OK, "nothing was restored");
		if (rc != EXIT_OK)
			return rc;
	}
	if ((rc = rollback_ready(rb)))
		return rc;
	rc = txn_write_steps(rb->cmd, rb->st, rb->n, &undone);
	if (rc != EXIT_OK) {
		cli_err(0, rb->cmd, undone ? "the values the apply wrote are back: nothing changed" :
			"some values are restored, others not; run 'wmark rollback' again");
		return rc;
	}
	*restored = true;
	rc = rollback_do_files(rb->cmd, &rb->j, &rb->rf);
	if (rc != EXIT_OK)
		return rc;
	rb->j.state = JR_ROLLED_BACK;
	r = jr_save(rb->path, &rb->j, &failed);
	if (r < 0)
		cli_err(0, rb->cmd, "journal %s: %s: %s (the values are restored)", rb->path, failed,
			strerror(-r));
	doc_text(rb->doc, "restored; journal %s marked rolled-back\n", rb->path);
	return rollback_recheck(rb);
}

int cmd_rollback(struct cli_ctx *ctx, int argc, char **argv)
{
	static struct rollback rb;	/* large: journal and knob texts */
	static struct doc doc;		/* the JSON writer's buffer: not on the stack */
	bool restored = false;
	int rc;

	(void)argc;
	(void)argv;
	memset(&rb, 0, sizeof(rb));
	rb.ctx = ctx;
	rb.cmd = "rollback";
	rb.lock_fd = -1;
	if ((rc = rollback_args(&rb)))
		return rc < 0 ? EXIT_OK : rc;	/* -1: --help printed */
	rc = rollback_journal(&rb);
	/* the remaining returns before the report end the process, which drops the lock */
	if (rc == EXIT_OK)
		rc = rollback_read(&rb);
	if (rc == EXIT_OK)
		rc = rollback_check(&rb);
	if (rc != EXIT_OK)
		goto out;
	rb.doc = &doc;
	doc_begin(rb.doc, ctx->format, stdout);
	rollback_report(&rb);
	if (!rb.todo) {
		doc_text(rb.doc, "nothing to roll back: journal %s is %s\n", rb.path,
			 jr_state_name(rb.j.state));
	} else if (!rb.dry) {
		rc = rollback_write(&rb, &restored);
	}
out:
	if (rb.doc) {
		doc_bool(rb.doc, "ok", NULL, rc == EXIT_OK);
		doc_end(rb.doc);	/* a write error: txn_stdout_check() */
	}
	if (restored)
		rc = txn_stdout_check(rb.cmd, rc, "the values were restored");
	if (rb.lock_fd >= 0)
		close(rb.lock_fd);
	return rc;
}
