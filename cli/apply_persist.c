// SPDX-License-Identifier: MIT
/*
 * apply_persist.c - `wmark apply --persist` and `--initrc`: the files that
 * set the same values at boot, checked before anything is written,
 * journaled, and written (apply.h).
 */
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "txn.h"

/* The header of a persisted file: what wmark computed and why. */
static char *persist_header(const struct apply *a, bool rc_file)
{
	char *h = NULL, v[128], pv[128];
	size_t len = 0, i;
	FILE *f = open_memstream(&h, &len);
	int k;

	if (!f)
		return NULL;
	fprintf(f, "Written by wmark %s: %s\n", WMARK_VERSION, a->command);
	fprintf(f, "Kernel %s.%s\n", a->s.st.kernel.osrelease[0] ? a->s.st.kernel.osrelease : "unknown",
		rc_file ? " Runs once Android has finished booting." : "");
	for (k = 0; k < WM_NKNOBS; k++) {
		const struct change *c = &a->ch[k];

		if (!c->set || c->dropped)
			continue;
		txn_value_str(&c->val, v, sizeof(v));
		txn_value_str(&c->prev, pv, sizeof(pv));
		fprintf(f, "vm.%s = %s (was %s)\n", wm_knob_name(k), v, pv);
	}
	if (a->plan.modelled) {
		fprintf(f, "\nWatermarks these values gave when written (pages, min/low/high):\n");
		for (i = 0; i < a->s.st.m.nzones; i++)
			if (apply_zi_of(&a->s, i))
				fprintf(f, "  Node %d, zone %-8s %" PRIu64 " / %" PRIu64 " / %" PRIu64 "\n",
					apply_zi_of(&a->s, i)->node, apply_zi_of(&a->s, i)->name,
					a->plan.pred[i].wm.min + a->plan.pred[i].boost,
					a->plan.pred[i].wm.low + a->plan.pred[i].boost,
					a->plan.pred[i].wm.high + a->plan.pred[i].boost);
	}
	fprintf(f, "Undo with 'wmark rollback': it restores the runtime values and removes this file\n"
		"(or puts back the one it replaced).");
	if (fclose(f) != 0) {
		free(h);
		return NULL;
	}
	return h;
}

/* Write --persist and --initrc; report what overrides ours. */
int apply_do_persist(struct apply *a, const char *cmd, struct doc *doc)
{
	struct ps_item items[WM_NKNOBS];
	enum wm_knob keys[WM_NKNOBS];
	const char *failed = NULL;
	int n = 0, k, r, pass;

	for (k = 0; k < WM_NKNOBS; k++) {
		if (!a->ch[k].set || a->ch[k].dropped || a->ch[k].write_failed)
			continue;
		keys[n] = (enum wm_knob)k;
		items[n].key = (enum wm_knob)k;
		items[n++].val = a->ch[k].val;
	}
	for (pass = 0; pass < 2; pass++) {
		const char *file = a->tgt[pass].file, *target = a->tgt[pass].path;
		char *text, *header;

		if (!file)
			continue;
		header = persist_header(a, pass == 1);
		text = pass ? ps_initrc_text(header, items, n) : ps_sysctl_d_text(header, items, n);
		free(header);
		if (!text)
			return cli_err(EXIT_SYSTEM, cmd, "out of memory");
		if (a->dry_run) {
			r = 0;
		} else {
			r = jr_prepare_dir(target, &failed);
			if (r == 0)
				r = jr_write_atomic(target, text, strlen(text), 0644, NULL, &failed);
		}
		free(text);
		if (r < 0)
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s: %s (the sysctls were applied; only persisting failed)",
				       target, failed ? failed : "write", strerror(-r));
		doc_str(doc, pass ? "initrc" : "persisted", a->dry_run ? "would write %s\n" : "wrote %s\n",
			target);
		if (pass == 0) {
			struct ps_report rep;
			size_t i;

			if (ps_scan(a->ctx->root, target, keys, n, &rep) < 0)
				return cli_err(EXIT_SYSTEM, cmd, "out of memory");
			if (!rep.read_at_boot)
				apply_warn(a, "%s is not in a directory that sysctl --system or systemd-sysctl reads (/etc/sysctl.d, /run/sysctl.d, /usr/local/lib/sysctl.d, /usr/lib/sysctl.d, /lib/sysctl.d; names ending in .conf)",
				     file);
			if (rep.masked_by[0])
				apply_warn(a, "%s is masked by %s, which has the same name in a directory read first",
				     file, rep.masked_by);
			for (i = 0; i < rep.nov; i++)
				apply_warn(a, "at boot %s:%d sets vm.%s = %s after %s, overriding it",
				     rep.ov[i].file, rep.ov[i].line, wm_knob_name(rep.ov[i].key),
				     rep.ov[i].value, file);
			ps_report_free(&rep);
		}
	}
	return EXIT_OK;
}

/*
 * Find the --persist and --initrc files under the root and refuse, before
 * anything is written, one that is not a plain file inside the root or
 * that wmark did not write (unless --force: rollback then puts it back).
 * Return EXIT_OK or an exit code after one line.
 */
int apply_check_targets(struct apply *a, const char *cmd)
{
	static const char *const opt[2] = { "--persist", "--initrc" };
	int pass, r;

	for (pass = 0; pass < 2; pass++) {
		struct target *t = &a->tgt[pass];

		if (!t->file)
			continue;
		r = ps_target(a->ctx->root, t->file, t->path, sizeof(t->path));
		if (r == -EINVAL)
			return cli_usage(cmd, "%s %s: give an absolute path without '.' or '..' (it is taken inside --root)",
					 opt[pass], t->file);
		if (r == -EISDIR)
			return cli_usage(cmd, "%s %s: names a directory; give the file", opt[pass], t->file);
		if (r < 0)
			return cli_usage(cmd, "%s: path too long", opt[pass]);
		r = ps_inspect(a->ctx->root, t->path, &t->kind, t->text, sizeof(t->text));
		switch (r) {
		case 0:
			break;
		case -EXDEV:
			return cli_err(EXIT_SYSTEM, cmd, "%s: resolves outside %s: refusing to follow a symlink; nothing was written",
				       t->path, a->ctx->root);
		case -ELOOP:
			return cli_err(EXIT_SYSTEM, cmd, "%s: is a symbolic link: refusing; nothing was written",
				       t->path);
		case -EISDIR:
			return cli_err(EXIT_SYSTEM, cmd, "%s: is a directory, not a file; nothing was written",
				       t->path);
		case -ENXIO:
			return cli_err(EXIT_SYSTEM, cmd, "%s: is not a regular file; nothing was written",
				       t->path);
		case -EFBIG:
		case -EILSEQ:
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s, too much to keep for rollback: move it away first; nothing was written",
				       t->path, r == -EFBIG ? "over 16 KiB" : "holds a NUL byte");
		default:
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s; nothing was written", t->path,
				       strerror(-r));
		}
		if (t->kind == PS_FOREIGN && !a->force)
			return cli_err(EXIT_USAGE, cmd, "%s: exists and was not written by wmark (its first line is not \"%s\"): refusing to replace it; --force replaces it and 'wmark rollback' puts it back; nothing was written",
				       t->path, PS_MARK);
		if (t->kind == PS_FOREIGN)
			apply_warn(a, "%s was not written by wmark: replaced (--force); 'wmark rollback' puts it back",
			     t->path);
	}
	return EXIT_OK;
}

/*
 * Add to journal j the files this apply will write, with what they hold
 * now; a file an earlier apply of the session wrote keeps its record
 * from before the first.  Return EXIT_OK or EXIT_USAGE after one line.
 */
int apply_journal_files(const struct apply *a, const char *cmd, struct journal *j)
{
	int pass, i;

	for (pass = 0; pass < 2; pass++) {
		const struct target *t = &a->tgt[pass];
		struct jr_file *f;

		if (!t->file)
			continue;
		for (i = 0; i < j->nfiles; i++)
			if (strcmp(j->f[i].path, t->path) == 0)
				break;
		if (i < j->nfiles)
			continue;
		if (j->nfiles == JR_MAX_FILES)
			return cli_err(EXIT_USAGE, cmd, "%s: the journal already holds %d persisted files: 'wmark rollback' first; nothing was written",
				       t->path, JR_MAX_FILES);
		f = &j->f[j->nfiles++];
		snprintf(f->path, sizeof(f->path), "%s", t->path);
		f->existed = t->kind != PS_ABSENT;
		snprintf(f->previous, sizeof(f->previous), "%s", f->existed ? t->text : "");
	}
	return EXIT_OK;
}
