// SPDX-License-Identifier: MIT
/*
 * txn.c - writes that can be undone: the journal's lock, each write read
 * back and undone on failure (apply, rollback), and a run of writes
 * under one journal (tune).  See txn.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "snapshot.h"
#include "txn.h"

void txn_value_str(const struct sc_value *v, char *buf, size_t n)
{
	int l = sc_value_format(v, buf, n);

	if (l > 0)
		buf[l - 1] = '\0';
	else if (n)
		buf[0] = '\0';
}




/*
 * Write every step and read it back.  On the first failure that is not
 * ignorable, write the undo text to every step done so far (the failed
 * one included: a read-back that differs means it did change), last
 * first.  Return EXIT_OK, EXIT_SYSTEM (a write failed) or EXIT_CHECK (a
 * read-back differed), after lines on stderr saying what happened; set
 * *undone when everything was put back.
 */
int txn_write_steps(const char *cmd, struct txn_step *st, int n, bool *undone)
{
	char buf[JR_TEXT_MAX], err[160], esc[2 * JR_TEXT_MAX];
	struct sc_value got;
	int i, j, r, rc = EXIT_OK, bad = 0;

	*undone = false;
	for (i = 0; i < n; i++) {
		r = sc_write(st[i].path, st[i].to, strlen(st[i].to));
		if (r < 0 && st[i].ignore_failure) {
			st[i].failed_ignored = true;
			continue;
		}
		if (r < 0) {
			rc = cli_err(EXIT_SYSTEM, cmd, "%s: write: %s", st[i].path, strerror(-r));
			i--;	/* the kernel refused it whole: nothing to undo there */
			break;
		}
		st[i].done = true;
		r = sc_read_back(st[i].path, buf, sizeof(buf));
		if (r < 0) {
			rc = cli_err(EXIT_SYSTEM, cmd, "%s: read back: %s", st[i].path, strerror(-r));
			break;
		}
		if (sc_value_parse(st[i].key, buf, &got, NULL) < 0 ||
		    !sc_value_equal(&got, &st[i].want)) {
			if (r > 0 && buf[r - 1] == '\n')
				buf[r - 1] = '\0';
			txn_value_str(&st[i].want, err, sizeof(err));
			rc = cli_err(EXIT_CHECK, cmd, "%s: read back \"%s\" after writing \"%s\"",
				     st[i].path, sc_escape(buf, esc, sizeof(esc)), err);
			break;
		}
	}
	if (rc == EXIT_OK)
		return rc;
	for (j = i; j >= 0; j--) {
		struct sc_value back;

		if (!st[j].done)
			continue;
		sc_value_parse(st[j].key, st[j].back, &back, NULL);
		txn_value_str(&back, err, sizeof(err));
		r = sc_write(st[j].path, st[j].back, strlen(st[j].back));
		if (r == 0)
			r = sc_read(st[j].path, buf, sizeof(buf));
		if (r >= 0 && (sc_value_parse(st[j].key, buf, &got, NULL) < 0 ||
			       !sc_value_equal(&got, &back)))
			r = -EIO;
		if (r < 0) {
			cli_err(0, cmd, "%s: could not put back \"%s\": %s", st[j].path, err,
				strerror(-r));
			bad++;
			continue;
		}
		st[j].done = false;
		cli_err(0, cmd, "%s: put back \"%s\"", st[j].path, err);
	}
	*undone = bad == 0;
	return rc;
}


void txn_boot_id(const char *root, char *out, size_t n)
{
	char p[PATH_MAX];
	int r;

	out[0] = '\0';
	if (root_path(root, "proc/sys/kernel/random/boot_id", p, sizeof(p)) < 0)
		return;
	r = sc_read(p, out, n);
	if (r < 0)
		out[0] = '\0';
	else
		out[strcspn(out, "\n")] = '\0';
}

int txn_state_path(const struct cli_ctx *ctx, const char *opt, char *out, size_t n)
{
	if (opt) {
		if (strlen(opt) >= n)
			return -ENAMETOOLONG;
		strcpy(out, opt);
		return 0;
	}
	return jr_default_path(ctx->root, out, n);
}

/*
 * One apply or rollback at a time per journal: an exclusive flock on
 * "<journal>.lock", held until the process ends.  Return EXIT_OK or
 * EXIT_SYSTEM after one line.
 */
int txn_lock(const char *cmd, const char *state, int *fd)
{
	char p[PATH_MAX + 8];

	snprintf(p, sizeof(p), "%s.lock", state);
	*fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (*fd < 0)
		return cli_err(EXIT_SYSTEM, cmd, "%s: %s; nothing was written", p, strerror(errno));
	if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
		close(*fd);
		*fd = -1;
		return cli_err(EXIT_SYSTEM, cmd, "%s: another wmark apply or rollback is running; nothing was written",
			       p);
	}
	return EXIT_OK;
}


/* Does text (a journal's, "" for none) hold the value v of knob k? */
bool txn_holds(enum wm_knob k, const char *text, const struct sc_value *v)
{
	struct sc_value t;

	return text[0] && sc_value_parse(k, text, &t, NULL) == 0 && sc_value_equal(&t, v);
}

enum txn_where txn_where(const struct jr_entry *e, const struct sc_value *now)
{
	if (!now)
		return TXN_CHANGED;
	if (txn_holds(e->key, e->previous, now))
		return TXN_AT_PREVIOUS;
	/* "before": an interrupted write may not have come to this knob yet */
	if (txn_holds(e->key, e->written, now) || txn_holds(e->key, e->before, now))
		return TXN_AT_WRITTEN;
	return TXN_CHANGED;
}

void txn_doc_value(struct doc *d, const char *name, const struct sc_value *v, enum wm_knob k)
{
	int i;

	if (k != WM_KNOB_LRR) {
		doc_long(d, name, NULL, v->v[0]);
		return;
	}
	doc_arr(d, name);
	for (i = 0; i < v->n; i++)
		doc_item_long(d, v->v[i]);
	doc_close(d);
}

int txn_stdout_check(const char *cmd, int rc, const char *done)
{
	int e, fd;

	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	e = errno;
	cli_err(0, cmd, "standard output: %s: the report is lost; %s", strerror(e), done);
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	clearerr(stdout);
	return rc ? rc : EXIT_SYSTEM;
}

const char *txn_needs_root(int err)
{
	if ((err != -EACCES && err != -EPERM) || geteuid() == 0)
		return "";
	return " (writing sysctls needs root)";
}

void txn_journal_head(struct journal *j, const char *root, const char *kernel,
		      const char *command)
{
	memset(j, 0, sizeof(*j));
	if (!realpath(root, j->root))
		snprintf(j->root, sizeof(j->root), "%s", root);
	snprintf(j->kernel, sizeof(j->kernel), "%s", kernel ? kernel : "");
	txn_boot_id(root, j->boot_id, sizeof(j->boot_id));
	j->time = (long long)time(NULL);
	snprintf(j->command, sizeof(j->command), "%s", command);
}

int txn_commit(const char *cmd, const char *state, struct journal *j, struct txn_step *st,
	       int n, const struct journal *on_undo, struct txn_outcome *out)
{
	const char *failed = NULL;
	int i, e, r, rc;

	memset(out, 0, sizeof(*out));
	j->state = JR_PENDING;
	r = jr_save(state, j, &failed);
	if (r < 0)
		return cli_err(EXIT_SYSTEM, cmd, "journal %s: %s: %s; nothing was written",
			       state, failed, strerror(-r));
	out->journaled = true;
	rc = txn_write_steps(cmd, st, n, &out->undone);
	if (rc != EXIT_OK) {
		if (out->undone) {
			struct journal back;

			if (on_undo) {
				back = *on_undo;
			} else {
				back = *j;
				back.state = JR_RESTORED;
			}
			if (jr_save(state, &back, &failed) < 0)
				cli_err(0, cmd, "journal %s: could not record the restore", state);
		}
		return rc;
	}
	for (i = 0; i < n; i++)
		jr_remove_stale(st[i].path);
	/* Written: the text from before this write is no longer the knob's. */
	for (e = 0; e < j->n; e++)
		for (i = 0; i < n; i++)
			if (st[i].key == j->e[e].key && st[i].done && !st[i].failed_ignored)
				j->e[e].before[0] = '\0';
	j->state = JR_APPLIED;
	r = jr_save(state, j, &failed);
	if (r < 0) {
		out->save_err = r;
		out->save_failed = failed;
	}
	return EXIT_OK;
}

/* ---- a run of writes under one journal -------------------------------- */

/* Read knob k of the run into text (size JR_TEXT_MAX) and *v; 0 or -errno. */
static int knob_read(const struct txn_knob *kn, enum wm_knob k, char *text, struct sc_value *v)
{
	int r = sc_read(kn->path, text, JR_TEXT_MAX);

	if (r < 0)
		return r;
	return sc_value_parse(k, text, v, NULL) < 0 ? -EINVAL : 0;
}

/* The journal of the run as it stands; the knobs of to (NULL: none) about to be written. */
static void run_journal(const struct txn *t, const char *const *to, struct journal *j)
{
	int k;

	txn_journal_head(j, t->ctx->root, t->kernel, t->command);
	for (k = 0; k < WM_NKNOBS; k++) {
		const struct txn_knob *kn = &t->k[k];
		struct jr_entry *e;

		if (!kn->used || (!kn->last[0] && !(to && to[k])))
			continue;
		e = &j->e[j->n++];
		e->key = (enum wm_knob)k;
		snprintf(e->previous, JR_TEXT_MAX, "%s", kn->first);
		snprintf(e->written, JR_TEXT_MAX, "%s", to && to[k] ? to[k] : kn->last);
		/* until written, the knob may still hold the run's last text */
		if (to && to[k] && kn->last[0] && strcmp(kn->last, kn->first))
			snprintf(e->before, JR_TEXT_MAX, "%s", kn->last);
	}
}

/*
 * Put back what an earlier apply or run left in journal old: each knob
 * holding its written (or before) text gets its previous one.  Return
 * EXIT_OK, or an exit code after a line on stderr.
 */
static int restore_old(struct txn *t, struct journal *old)
{
	char text[JR_TEXT_MAX], shown[JR_TEXT_MAX];
	const char *failed = NULL;
	int i, r, bad = 0;

	if (old->nfiles)
		return cli_err(EXIT_SYSTEM, t->cmd, "journal %s: an earlier apply also wrote files "
			       "(--persist, --initrc): run 'wmark rollback' first; nothing was written",
			       t->state);
	for (i = 0; i < old->n; i++) {
		const struct jr_entry *e = &old->e[i];
		struct sc_value v, prev;
		struct txn_knob kn;
		struct txn_step st;
		enum txn_where where;
		bool undone;

		memset(&kn, 0, sizeof(kn));
		if (sc_path(t->ctx->root, e->key, kn.path, sizeof(kn.path)) < 0 ||
		    knob_read(&kn, e->key, text, &v) < 0) {
			cli_err(0, t->cmd, "vm.%s: cannot be read: left as it is", wm_knob_name(e->key));
			bad++;
			continue;
		}
		where = txn_where(e, &v);
		if (where == TXN_AT_PREVIOUS)
			continue;
		if (where == TXN_CHANGED) {
			txn_value_str(&v, shown, sizeof(shown));
			cli_err(0, t->cmd, "vm.%s: holds %s, which the journal did not write: left as it is",
				wm_knob_name(e->key), shown);
			continue;
		}
		sc_value_parse(e->key, e->previous, &prev, NULL);
		st = (struct txn_step){ .key = e->key, .path = kn.path, .to = e->previous,
					.back = text, .want = prev };
		if (txn_write_steps(t->cmd, &st, 1, &undone) != EXIT_OK) {
			bad++;
			continue;
		}
		txn_value_str(&prev, shown, sizeof(shown));
		cli_err(0, t->cmd, "vm.%s: put back %s from journal %s (an earlier run did not finish)",
			wm_knob_name(e->key), shown, t->state);
	}
	if (bad)
		return cli_err(EXIT_SYSTEM, t->cmd, "journal %s: not every value could be put back: "
			       "'wmark rollback' retries", t->state);
	old->state = JR_ROLLED_BACK;
	r = jr_save(t->state, old, &failed);
	if (r < 0)
		return cli_err(EXIT_SYSTEM, t->cmd, "journal %s: %s: %s", t->state, failed,
			       strerror(-r));
	return EXIT_OK;
}

int txn_begin(struct txn *t, const struct cli_ctx *ctx, const char *cmd,
	      const char *state_opt, const char *kernel, const char *command,
	      const enum wm_knob *use, int n, bool dry)
{
	struct journal old;
	struct wm_diag jd = { 0 };
	const char *failed = NULL;
	int i, r, rc;

	memset(t, 0, sizeof(*t));
	t->ctx = ctx;
	t->cmd = cmd;
	t->lock_fd = -1;
	snprintf(t->kernel, sizeof(t->kernel), "%s", kernel ? kernel : "");
	snprintf(t->command, sizeof(t->command), "%s", command);
	if (txn_state_path(ctx, state_opt, t->state, sizeof(t->state)) < 0)
		return cli_usage(cmd, "--state: path too long");
	if (!dry) {
		r = jr_prepare_dir(t->state, &failed);
		if (r < 0)
			return cli_err(EXIT_SYSTEM, cmd, "journal %s: %s: %s; nothing was written",
				       t->state, failed, strerror(-r));
		if ((rc = txn_lock(cmd, t->state, &t->lock_fd)))
			return rc;
		r = jr_load(t->state, &old, &jd);
		if (r == -EINVAL)
			return cli_err(EXIT_USAGE, cmd, "journal %s: %s: refusing to overwrite it "
				       "(give another --state); nothing was written", t->state, jd.msg);
		if (r < 0 && r != -ENOENT)
			return cli_err(EXIT_SYSTEM, cmd, "journal %s: %s; nothing was written",
				       t->state, jd.msg);
		if (r == 0 && (old.state == JR_PENDING || old.state == JR_APPLIED) &&
		    (rc = restore_old(t, &old)))
			return rc;
	}
	for (i = 0; i < n; i++) {
		struct txn_knob *kn = &t->k[use[i]];
		struct sc_value v;
		char shown[PATH_MAX];

		kn->used = true;
		r = sc_path(ctx->root, use[i], kn->path, sizeof(kn->path));
		if (root_path(ctx->root, P_VM, shown, sizeof(shown)) < 0)
			snprintf(shown, sizeof(shown), "%s", P_VM);
		if (r == -EXDEV)
			return cli_err(EXIT_SYSTEM, cmd, "%s%s: resolves outside %s: refusing to follow a symlink",
				       shown, wm_knob_name(use[i]), shown);
		if (r < 0)
			return cli_err(EXIT_SYSTEM, cmd, "%s%s: %s", shown, wm_knob_name(use[i]),
				       strerror(-r));
		r = knob_read(kn, use[i], kn->first, &v);
		if (r < 0)
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s", kn->path,
				       r == -EINVAL ? "unexpected content" : strerror(-r));
		if (!dry && (r = sc_writable(kn->path)) < 0)
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s%s; nothing was written", kn->path,
				       strerror(-r), geteuid() ? " (writing sysctls needs root)" : "");
	}
	return EXIT_OK;
}

bool txn_changed(struct txn *t, enum wm_knob k, struct sc_value *now)
{
	struct txn_knob *kn = &t->k[k];
	char text[JR_TEXT_MAX];
	struct sc_value v;

	if (kn->foreign)
		return true;
	if (knob_read(kn, k, text, &v) < 0) {
		kn->foreign = true;
		return true;
	}
	if (now)
		*now = v;
	if (!txn_holds(k, kn->last[0] ? kn->last : kn->first, &v))
		kn->foreign = true;
	return kn->foreign;
}

int txn_write(struct txn *t, const enum wm_knob *k, const char *const *to, int n)
{
	const char *want[WM_NKNOBS] = { 0 };
	struct txn_step st[WM_NKNOBS];
	struct txn_outcome done;
	struct journal j, before;
	int i, rc;

	for (i = 0; i < n && i < WM_NKNOBS; i++) {
		struct txn_knob *kn = &t->k[k[i]];

		want[k[i]] = to[i];
		st[i] = (struct txn_step){ .key = k[i], .path = kn->path, .to = to[i],
					   .back = kn->last[0] ? kn->last : kn->first };
		if (sc_value_parse(k[i], to[i], &st[i].want, NULL) < 0)
			return cli_err(EXIT_USAGE, t->cmd, "vm.%s: \"%s\" is not a value of it",
				       wm_knob_name(k[i]), to[i]);
	}
	/* Undone: the journal as it stood before this write. */
	run_journal(t, NULL, &before);
	before.state = before.n ? JR_APPLIED : JR_RESTORED;
	run_journal(t, want, &j);
	rc = txn_commit(t->cmd, t->state, &j, st, n, &before, &done);
	t->journaled |= done.journaled;
	if (rc != EXIT_OK)
		return rc;
	for (i = 0; i < n; i++)
		snprintf(t->k[k[i]].last, JR_TEXT_MAX, "%s", to[i]);
	t->writes++;
	if (done.save_err)
		cli_err(0, t->cmd, "journal %s: %s: %s: it still reads \"pending\", which rollback handles",
			t->state, done.save_failed, strerror(-done.save_err));
	return EXIT_OK;
}

int txn_restore(struct txn *t)
{
	struct txn_step st[WM_NKNOBS];
	struct journal j;
	const char *failed = NULL;
	bool undone;
	int k, n = 0, r, rc = EXIT_OK;

	if (!t->journaled)
		return EXIT_OK;
	for (k = 0; k < WM_NKNOBS; k++) {
		struct txn_knob *kn = &t->k[k];

		if (!kn->used || !kn->last[0])
			continue;
		if (txn_changed(t, (enum wm_knob)k, NULL)) {
			cli_err(0, t->cmd, "vm.%s: written by someone else meanwhile: left as it is",
				wm_knob_name((enum wm_knob)k));
			continue;
		}
		if (!strcmp(kn->last, kn->first))
			continue;
		st[n] = (struct txn_step){ .key = (enum wm_knob)k, .path = kn->path,
					   .to = kn->first, .back = kn->last };
		sc_value_parse((enum wm_knob)k, kn->first, &st[n].want, NULL);
		n++;
	}
	if (n)
		rc = txn_write_steps(t->cmd, st, n, &undone);
	if (rc != EXIT_OK)
		return cli_err(rc, t->cmd, "journal %s still names the values: 'wmark rollback' retries",
			       t->state);
	run_journal(t, NULL, &j);
	j.state = JR_ROLLED_BACK;
	r = jr_save(t->state, &j, &failed);
	if (r < 0)
		return cli_err(EXIT_SYSTEM, t->cmd, "journal %s: %s: %s", t->state, failed,
			       strerror(-r));
	for (k = 0; k < WM_NKNOBS; k++)
		if (t->k[k].last[0] && !t->k[k].foreign)
			memcpy(t->k[k].last, t->k[k].first, sizeof(t->k[k].last));
	return EXIT_OK;
}

void txn_end(struct txn *t)
{
	if (t->lock_fd >= 0)
		close(t->lock_fd);
	t->lock_fd = -1;
}
