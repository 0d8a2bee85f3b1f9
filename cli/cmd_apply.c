// SPDX-License-Identifier: MIT
/*
 * cmd_apply.c - `wmark apply`: change the watermark sysctls so that a
 * mistake can always be undone.
 *
 * apply, in order:
 *   1. read the machine, resolve every knob under <root>/proc/sys/vm,
 *      validate the values against the running kernel's ranges, run the
 *      model with the new values (what `whatif` shows) and refuse values
 *      whose summed min watermarks exceed a safe share of memory or what
 *      is free now (--force overrides);
 *   2. check permissions for every file it will touch: nothing has been
 *      written if that fails;
 *   3. commit the journal (previous and new text of every knob) to disk;
 *   4. write each knob and read it back; on the first failure write the
 *      previous text back to those already written, last first;
 *   5. on a live kernel, re-read zoneinfo and compare it with the model.
 * Successive applies share one journal entry per knob that keeps the text
 * from before the first of them, so one `wmark rollback` (cmd_rollback.c)
 * undoes them all: the question people ask after a tuning session is "how
 * was it before I started?".
 *
 * Between steps 3 and 4 a crash leaves each knob at its previous or its
 * new value (a proc sysctl write takes effect whole or not at all), and
 * the journal names both, so rollback can always finish the job.
 */
#include <inttypes.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "commands.h"
#include "livecheck.h"
#include "txn.h"

void apply_warn(struct apply *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (a->nwarn == MAX_WARN)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s)
		a->warn[a->nwarn++] = s;
}

/*
 * Warnings go to stderr as soon as they are known where the report is
 * out as it is written (text); a document gathers them as "warnings".
 */
static void flush_warnings(struct apply *a, const char *cmd)
{
	if (!doc_is_streamed(a->doc))
		return;
	for (; a->nwarn_shown < a->nwarn; a->nwarn_shown++)
		cli_err(0, cmd, "warning: %s", a->warn[a->nwarn_shown]);
}

static void join_argv(char *out, size_t n, int argc, char **argv)
{
	size_t off;
	int i;

	off = (size_t)snprintf(out, n, "wmark");
	for (i = 0; i < argc && off < n; i++) {
		const char *q = strpbrk(argv[i], " \t\"'") ? "\"" : "";

		off += (size_t)snprintf(out + off, n - off, " %s%s%s", q, argv[i], q);
	}
}

/*
 * The zoneinfo entry of model zone i, or NULL for a zone the kernel does
 * not print (before 4.12, unpopulated zones are left out).
 */
const struct zi_zone *apply_zi_of(const struct snapshot *s, size_t i)
{
	return wm_layout_zone(&s->st.layout, &s->st.zi, i);
}

/* ---- reading the knobs ------------------------------------------------ */

/*
 * Resolve and read knob k.  Return EXIT_OK, or an exit code after one
 * line on stderr.  A missing knob with ignore_failure is dropped.
 */
static int read_knob(struct apply *a, const char *cmd, enum wm_knob k,
		     struct change *c)
{
	char shown[PATH_MAX], esc[200];
	struct wm_diag d;
	int r;

	r = sc_path(a->ctx->root, k, c->path, sizeof(c->path));
	/* "ROOT/proc/sys/vm/": messages name the file as the user knows it. */
	if (root_path(a->ctx->root, P_VM, shown, sizeof(shown)) < 0)
		snprintf(shown, sizeof(shown), "%s", P_VM);
	if (r == -ENOENT && c->ignore_failure) {
		c->dropped = true;
		apply_warn(a, "%s%s does not exist: skipped (\"-\" in %s)", shown, wm_knob_name(k), c->origin);
		return EXIT_OK;
	}
	if (r == -ENOENT && k == WM_KNOB_EXTRA)
		return cli_err(EXIT_SYSTEM, cmd, "%s%s: no such file: this kernel has no extra_free_kbytes (only Android kernels before 5.10 carry it; use --wsf, see 'wmark recommend')",
			       shown, wm_knob_name(k));
	if (r == -ENOENT)
		return cli_err(EXIT_SYSTEM, cmd, "%s%s: no such file: this kernel has no %s",
			       shown, wm_knob_name(k), wm_knob_name(k));
	if (r == -EXDEV)
		return cli_err(EXIT_SYSTEM, cmd, "%s%s: resolves outside %s: refusing to follow a symlink",
			       shown, wm_knob_name(k), shown);
	if (r < 0)
		return cli_err(EXIT_SYSTEM, cmd, "%s%s: %s", shown, wm_knob_name(k), strerror(-r));
	r = sc_read(c->path, c->prev_text, sizeof(c->prev_text));
	if (r < 0)
		return cli_err(EXIT_SYSTEM, cmd, "%s: read: %s", c->path, strerror(-r));
	if (sc_value_parse(k, c->prev_text, &c->prev, &d) < 0)
		return cli_err(EXIT_SYSTEM, cmd, "%s: unexpected content: %s", c->path,
			       sc_escape(d.msg, esc, sizeof(esc)));
	return EXIT_OK;
}

/* The knobs apply writes, as WM_HAVE_* bits. */
static unsigned written_set(const struct apply *a)
{
	unsigned set = 0;
	int k;

	for (k = 0; k < WM_NKNOBS; k++)
		if (a->ch[k].set && !a->ch[k].dropped)
			set |= wm_knob_have((enum wm_knob)k);
	return set;
}

/* Does one of the writes make the kernel recompute the watermarks? */
static bool recomputes(const struct apply *a)
{
	return (wm_change_recomputes(written_set(a)) & WM_RECOMPUTE_WMARKS) != 0;
}

static bool file_exists(const char *root, const char *rel)
{
	char p[PATH_MAX];

	return root_path(root, rel, p, sizeof(p)) == 0 && access(p, F_OK) == 0;
}

/*
 * The change as calc sees it: the knobs written (a knob dropped as
 * missing is not), with their values.
 */
static void change_of(const struct apply *a, struct wm_change *ch)
{
	static const size_t off[WM_NKNOBS] = {
		[WM_KNOB_MFK] = offsetof(struct wm_sysctl, min_free_kbytes),
		[WM_KNOB_WSF] = offsetof(struct wm_sysctl, wsf),
		[WM_KNOB_BOOST] = offsetof(struct wm_sysctl, boost_factor),
		[WM_KNOB_EXTRA] = offsetof(struct wm_sysctl, extra_free_kbytes),
	};
	const struct change *c = a->ch;
	int i, k;

	memset(ch, 0, sizeof(*ch));
	ch->set = written_set(a);
	for (k = 0; k < WM_NKNOBS; k++) {
		if (!(ch->set & wm_knob_have((enum wm_knob)k)))
			continue;
		if (k == WM_KNOB_LRR) {
			for (i = 0; i < c[k].val.n; i++)
				ch->to.lrr[i] = c[k].val.v[i];
			ch->to.nlrr = c[k].val.n;
		} else {
			*(int64_t *)((char *)&ch->to + off[k]) = c[k].val.v[0];
		}
	}
}

/* A plan's warning in words, kept for the report. */
static void word_warning(struct apply *a, const struct wm_plan_warning *w)
{
	switch (w->code) {
	case WM_PLAN_WARN_THP_MFK:
		apply_warn(a, "THP is enabled: khugepaged raises min_free_kbytes back to %" PRId64 " KiB at the next write to transparent_hugepage/enabled%s",
			   w->a, w->b ? " or memory hotplug event" : "");
		break;
	case WM_PLAN_WARN_HOTPLUG_MFK:
		apply_warn(a, "memory hotplug%s recomputes min_free_kbytes (about %" PRId64 " KiB for this memory) and keeps a written value only when it is at least that",
			   w->b ? " and THP mode changes" : "", w->a);
		break;
	case WM_PLAN_WARN_ANDROID_WSF:
		apply_warn(a, "Android: when the property sys.sysctl.extra_free_kbytes is set, init runs extra_free_kbytes.sh, which rewrites watermark_scale_factor");
		break;
	case WM_PLAN_WARN_WSF_FLOORED:
		apply_warn(a, "watermark_scale_factor %" PRId64 " changes no gap: every zone's gap is floored at a quarter of its min share; the smallest wsf that changes one is %" PRId64 "",
			   w->a, w->b);
		break;
	case WM_PLAN_WARN_WSF_NO_GAP:
		apply_warn(a, "watermark_scale_factor %" PRId64 " changes no gap on this machine", w->a);
		break;
	case WM_PLAN_WARN_BOOST_FUTURE:
		apply_warn(a, "watermark_boost_factor only scales future boosts: no watermark moves now");
		break;
	}
}

/*
 * Plan the writes (wm_plan: the sysctls after them, the zones now and
 * after, as whatif shows them), refuse an unsafe one unless --force, and
 * keep the plan's warnings; EXIT_OK or an exit code after a message.
 */
static int plan(struct apply *a, const char *cmd)
{
	struct wm_plan_opts o = { .refresh = a->refresh };
	const struct wm_plan *p = &a->plan;
	struct wm_change ch;
	struct wm_diag d = { 0 };
	char path[4096];
	int i, rc;

	change_of(a, &ch);
	o.android_init = (ch.set & WM_HAVE_WSF) &&
			 (file_exists(a->ctx->root, "system/bin/extra_free_kbytes.sh") ||
			  file_exists(a->ctx->root, "vendor/bin/extra_free_kbytes.sh"));
	rc = wm_plan(&a->s.st, &ch, &o, &a->plan, &d);
	if (rc && a->plan.stage == WM_PLAN_AT_CHANGE)
		return cli_usage("apply", "%s", d.msg);
	if (rc == WM_ENODATA) {
		root_path(a->s.root, P_ZONEINFO, path, sizeof(path));
		return cli_err(EXIT_USAGE, NULL, "%s: %s", path, d.msg);
	}
	if (rc)
		return cli_diag("model", rc, &d);
	/* Refuse an instant direct-reclaim storm (see WM_PLAN_SAFE_MIN_PCT). */
	if (p->safety == WM_PLAN_MIN_SHARE && a->force)
		apply_warn(a, "the summed min watermarks (%" PRIu64 " pages) exceed %d%% of managed memory (%" PRIu64 " pages): written anyway (--force)",
			   p->min_after, WM_PLAN_SAFE_MIN_PCT, p->managed);
	else if (p->safety == WM_PLAN_MIN_SHARE)
		return cli_err(EXIT_USAGE, cmd, "refused: the summed min watermarks would be %" PRIu64 " pages, over %d%% of the %" PRIu64 " managed pages (the machine would reclaim or OOM constantly); --force writes it anyway",
			       p->min_after, WM_PLAN_SAFE_MIN_PCT, p->managed);
	else if (p->safety == WM_PLAN_MIN_FREE && a->force)
		apply_warn(a, "the summed min watermarks (%" PRIu64 " pages) exceed the %" PRIu64 " pages free now: written anyway (--force)",
			   p->min_after, p->free_pages);
	else if (p->safety == WM_PLAN_MIN_FREE)
		return cli_err(EXIT_USAGE, cmd, "refused: the summed min watermarks would be %" PRIu64 " pages, above the %" PRIu64 " pages free now (every allocation would enter direct reclaim); --force writes it anyway",
			       p->min_after, p->free_pages);
	for (i = 0; i < p->nwarn; i++)
		word_warning(a, &p->warn[i]);
	return EXIT_OK;
}

/* Check every file apply will create or write, before any is written. */
static int check_access(struct apply *a, const char *cmd)
{
	const char *failed = NULL;
	int k, r, pass;

	for (k = 0; k < WM_NKNOBS; k++) {
		const struct change *c = &a->ch[k];

		if (!c->set || c->dropped)
			continue;
		r = sc_writable(c->path);
		if (r < 0)
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s%s; nothing was written", c->path,
				       strerror(-r), txn_needs_root(r));
	}
	r = jr_prepare_dir(a->state_path, &failed);
	if (r < 0)
		return cli_err(EXIT_SYSTEM, cmd, "journal %s: %s: %s; nothing was written",
			       a->state_path, failed, strerror(-r));
	for (pass = 0; pass < 2; pass++) {
		const char *target = a->tgt[pass].path;

		if (!a->tgt[pass].file)
			continue;
		r = jr_prepare_dir(target, &failed);
		if (r < 0)
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s: %s; nothing was written",
				       target, failed, strerror(-r));
	}
	return EXIT_OK;
}

/*
 * Load the journal of earlier applies.  Values they changed that were not
 * rolled back stay in it, so one rollback returns to the state before
 * the first of them.  A journal we cannot read is never overwritten.
 */
static int load_journal(struct apply *a, const char *cmd)
{
	struct wm_diag jd = { 0 };
	char rroot[PATH_MAX];
	int r = jr_load(a->state_path, &a->old, &jd);

	if (r == -ENOENT)
		return EXIT_OK;
	/* malformed input (wmark.1): exit 2, but no usage hint */
	if (r == -EINVAL)
		return cli_err(EXIT_USAGE, cmd, "journal %s: %s: refusing to overwrite it (give another --state); nothing was written",
			       a->state_path, jd.msg);
	if (r < 0)
		return cli_err(EXIT_SYSTEM, cmd, "journal %s: %s; nothing was written", a->state_path, jd.msg);
	if (a->old.state != JR_PENDING && a->old.state != JR_APPLIED)
		return EXIT_OK;
	if (realpath(a->ctx->root, rroot) && strcmp(rroot, a->old.root) != 0)
		return cli_err(EXIT_USAGE, cmd, "journal %s holds values of root %s, not %s: give another --state; nothing was written",
			       a->state_path, a->old.root, rroot);
	if (a->old.state == JR_PENDING)
		apply_warn(a, "journal %s: an earlier apply did not finish; its values stay in the journal, so 'wmark rollback' restores them too",
		     a->state_path);
	a->have_old = true;
	return EXIT_OK;
}

/*
 * The journal entry for knob k: the text before the first apply since the
 * last rollback (when the knob still holds what an earlier apply left:
 * its written text, its previous one, or, after a crash, the one from
 * before that apply), else the text before this one.  Until this apply
 * has written the knob, the text it holds now is ours too ("before").
 */
static void journal_entry(const struct apply *a, enum wm_knob k,
			  const struct change *c, struct jr_entry *e)
{
	int i;

	memset(e, 0, sizeof(*e));
	e->key = k;
	snprintf(e->previous, JR_TEXT_MAX, "%s", c->prev_text);
	snprintf(e->written, JR_TEXT_MAX, "%s", c->text);
	for (i = 0; a->have_old && i < a->old.n; i++) {
		const struct jr_entry *o = &a->old.e[i];

		if (o->key != k)
			continue;
		if (txn_holds(k, o->written, &c->prev) || txn_holds(k, o->previous, &c->prev) ||
		    txn_holds(k, o->before, &c->prev))
			snprintf(e->previous, JR_TEXT_MAX, "%s", o->previous);
	}
	if (!txn_holds(k, e->previous, &c->prev))
		snprintf(e->before, JR_TEXT_MAX, "%s", c->prev_text);
}

/* The machine, and each knob to write with what it holds now, checked. */
static int apply_read(struct apply *a, const char *cmd)
{
	int k, rc;

	rc = snapshot_read(a->ctx, &a->s);
	if (rc != EXIT_OK)
		return rc;
	a->have_snapshot = true;
	if (a->refresh && !a->ch[WM_KNOB_MFK].set) {
		a->ch[WM_KNOB_MFK].set = true;
		a->ch[WM_KNOB_MFK].origin = "--refresh";
	}
	for (k = 0; k < WM_NKNOBS; k++) {
		struct change *c = &a->ch[k];
		struct wm_diag d;

		if (!c->set)
			continue;
		rc = read_knob(a, cmd, (enum wm_knob)k, c);
		if (rc != EXIT_OK)
			return rc;
		if (c->dropped)
			continue;
		if (a->refresh && k == WM_KNOB_MFK && strcmp(c->origin, "--refresh") == 0)
			c->val = c->prev;
		if (sc_value_check(&a->s.st.kernel.prof, (enum wm_knob)k, &c->val,
				   k == WM_KNOB_LRR ? c->prev.n : 0, &d) < 0)
			return cli_usage(cmd, "%s: %s", c->origin, d.msg);
		if (sc_value_format(&c->val, c->text, sizeof(c->text)) < 0)
			return cli_usage(cmd, "%s: value too long", c->origin);
	}
	/* no prediction, no safety check: the knobs it needs must be there */
	return snapshot_need(&a->s, cmd, &a->s.st.sysctl,
			     WM_HAVE_MFK | (a->s.st.kernel.prof.wsf ? WM_HAVE_WSF : 0), NULL);
}

/* Everything a write needs, found before the first: files, access, the lock, the journal. */
static int apply_ready(struct apply *a, const char *cmd)
{
	int rc;

	if (txn_state_path(a->ctx, a->state_opt, a->state_path, sizeof(a->state_path)) < 0)
		return cli_usage(cmd, "--state: path too long");
	rc = apply_check_targets(a, cmd);
	if (rc != EXIT_OK || a->dry_run)
		return rc;
	rc = check_access(a, cmd);
	if (rc == EXIT_OK)
		rc = txn_lock(cmd, a->state_path, &a->lock_fd);
	if (rc == EXIT_OK)
		rc = load_journal(a, cmd);
	return rc;
}

/* What is about to happen: as text, or the head of the JSON document. */
static int apply_announce(struct apply *a, const char *cmd)
{
	static struct doc doc;		/* the JSON writer's buffer: not on the stack */
	struct doc *d = &doc;
	int rc;

	a->doc = d;
	doc_begin(d, a->ctx->format, stdout);
	doc_str(d, "source", NULL, a->s.live ? "live" : "capture");
	doc_str(d, "kernel", NULL, a->s.st.kernel.osrelease);
	doc_text(d, "kernel %s, root %s\n",
		 a->s.st.kernel.osrelease[0] ? a->s.st.kernel.osrelease : "unknown", a->ctx->root);
	doc_bool(d, "dry_run", NULL, a->dry_run);
	doc_bool(d, "refresh", NULL, a->refresh);
	apply_doc_changes(a, d);
	apply_doc_prediction(a, d);
	if (a->refresh)
		apply_report_moved(a, d);
	if (!a->plan.modelled)
		doc_text(d, "no prediction: min_free_kbytes or zoneinfo is missing under %s\n",
			 a->ctx->root);
	if (!doc_is_streamed(d))
		return EXIT_OK;		/* one document, ended after the writes */
	if (!a->dry_run) {
		/* Nobody would see what is about to be written. */
		rc = txn_stdout_check(cmd, EXIT_OK, "nothing was written");
		if (rc != EXIT_OK)
			return rc;
	}
	fflush(stdout);
	flush_warnings(a, cmd);
	return EXIT_OK;
}

/*
 * The journal first (from there on, rollback can undo anything), then
 * the writes read back, the kernel's watermarks checked, the files.
 */
static int apply_commit(struct apply *a, const char *cmd)
{
	struct txn_step st[WM_NKNOBS];
	struct txn_outcome done;
	struct journal j;
	int k, n = 0, rc, i;

	txn_journal_head(&j, a->ctx->root, a->s.st.kernel.osrelease, a->command);
	for (k = 0; k < WM_NKNOBS; k++) {
		struct change *c = &a->ch[k];

		if (!c->set || c->dropped) {
			/* A knob an earlier apply changed stays journaled. */
			for (i = 0; a->have_old && i < a->old.n; i++)
				if (a->old.e[i].key == (enum wm_knob)k)
					j.e[j.n++] = a->old.e[i];
			continue;
		}
		journal_entry(a, (enum wm_knob)k, c, &j.e[j.n++]);
		st[n] = (struct txn_step){ .key = (enum wm_knob)k, .path = c->path, .to = c->text,
				       .back = c->prev_text, .want = c->val,
				       .ignore_failure = c->ignore_failure };
		n++;
	}
	/* The files of earlier applies, then this one's. */
	for (i = 0; a->have_old && i < a->old.nfiles; i++)
		j.f[j.nfiles++] = a->old.f[i];
	rc = apply_journal_files(a, cmd, &j);
	if (rc != EXIT_OK)
		return rc;
	/* Undone: back to the journal as it was before this apply. */
	rc = txn_commit(cmd, a->state_path, &j, st, n, a->have_old ? &a->old : NULL, &done);
	if (rc != EXIT_OK) {
		if (done.undone)
			cli_err(0, cmd, "every value is as before: nothing changed");
		else if (done.journaled)
			cli_err(0, cmd, "some values could not be put back; 'wmark rollback' retries from %s",
				a->state_path);
		return rc;
	}
	a->wrote = true;
	for (i = 0; i < n; i++) {
		if (!st[i].failed_ignored)
			continue;
		a->ch[st[i].key].write_failed = true;
		apply_warn(a, "%s: write failed, skipped (\"-\" in %s)", st[i].path,
		     a->ch[st[i].key].origin);
	}
	if (done.save_err)
		apply_warn(a, "journal %s: %s: %s: it still reads \"pending\", which rollback handles",
		     a->state_path, done.save_failed, strerror(-done.save_err));
	doc_str(a->doc, "journal",
		"written and read back; journal %s ('wmark rollback' restores the previous values)\n",
		a->state_path);
	if (a->plan.modelled)
		rc = live_check(a->ctx, cmd, &a->s, a->plan.pred, &a->plan.after, recomputes(a), a->doc);
	if (rc == EXIT_OK && (a->persist || a->initrc))
		rc = apply_do_persist(a, cmd, a->doc);
	return rc;
}

/* read, plan, say, write: apply's steps; the document and warnings at the end. */
static int run_apply(struct apply *a, const char *cmd)
{
	int i, rc;

	if ((rc = apply_read(a, cmd)) || (rc = plan(a, cmd)) || (rc = apply_ready(a, cmd)) ||
	    (rc = apply_announce(a, cmd)))
		return rc;
	if (a->dry_run) {
		rc = apply_do_persist(a, cmd, a->doc);
		doc_text(a->doc, "dry run: nothing written\n");
	} else {
		rc = apply_commit(a, cmd);
	}
	doc_arr(a->doc, "warnings");
	for (i = 0; i < a->nwarn; i++)
		doc_item_str(a->doc, NULL, a->warn[i]);	/* text said them on stderr */
	doc_close(a->doc);
	doc_bool(a->doc, "ok", NULL, rc == EXIT_OK);
	doc_end(a->doc);	/* a write error: txn_stdout_check() */
	flush_warnings(a, cmd);
	if (a->wrote)
		rc = txn_stdout_check(cmd, rc, "the sysctls were written and journaled ('wmark rollback' restores them)");
	return rc;
}

/*
 * `wmark apply`: argv[0] is "apply", then its options (apply_usage).
 * Return the exit code: 0 done, 1 a read-back or the kernel's watermarks
 * differed, 2 bad usage or a refused value, 3 the system refused.
 */
int cmd_apply(struct cli_ctx *ctx, int argc, char **argv)
{
	struct apply a;
	int rc, i;

	memset(&a, 0, sizeof(a));
	a.ctx = ctx;
	a.lock_fd = -1;
	join_argv(a.command, sizeof(a.command), argc, argv);
	rc = apply_parse(&a, "apply");
	if (rc < 0)
		return EXIT_OK;		/* --help */
	if (rc == EXIT_OK)
		rc = run_apply(&a, "apply");
	if (a.have_snapshot)
		snapshot_free(&a.s);
	wm_plan_free(&a.plan);
	for (i = 0; i < a.nwarn; i++)
		free(a.warn[i]);
	if (a.lock_fd >= 0)
		close(a.lock_fd);
	return rc;
}
