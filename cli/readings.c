// SPDX-License-Identifier: MIT
/*
 * readings.c - reading `wmark recommend --record` files (readings.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "../calc/procfs.h"
#include "../calc/replay.h"
#include "cli.h"
#include "readings.h"
#include "rootfs.h"

int readings_open(struct readings *rd, const char *cmd, const char *path, size_t nzones,
		  const char *root)
{
	struct wm_diag d = { 0 };
	size_t nz = 0;

	memset(rd, 0, sizeof(*rd));
	rd->cmd = cmd;
	rd->path = path;
	rd->nzones = nzones;
	rd->f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!rd->f)
		return cli_err(EXIT_USAGE, cmd, "%s: %s", path, strerror(errno));
	if (getline(&rd->line, &rd->cap, rd->f) < 0) {
		if (ferror(rd->f))
			return cli_err(EXIT_SYSTEM, cmd, "%s: %s", path, strerror(errno));
		return cli_err(EXIT_USAGE, cmd, "%s: empty: not a file of wmark recommend --record",
			       path);
	}
	rd->lineno = 1;
	if (wm_replay_header(rd->line, &nz, &d))
		return cli_err(EXIT_USAGE, cmd, "%s:1: %s", path, d.msg);
	if (nz != nzones)
		return cli_err(EXIT_USAGE, cmd, "%s:1: zones=%zu, but %s has %zu: replay against "
			       "the capture of the machine that recorded it", path, nz, root, nzones);
	return EXIT_OK;
}

/* The reading b against the one before it, a: EXIT_OK or the message. */
static int forward(const struct readings *rd, const struct wm_rec_sample *a,
		   const struct wm_rec_sample *b)
{
	int k;

	if (!(b->t > a->t))
		return cli_err(EXIT_USAGE, rd->cmd, "%s:%zu: t=%.3f is not later than the reading "
			       "before", rd->path, rd->lineno, b->t);
	k = wm_rec_backwards(a, b);
	if (k < 0)
		return EXIT_OK;
	if (k == WM_REC_NCTR)
		return cli_err(EXIT_USAGE, rd->cmd, "%s:%zu: the memory pressure totals (psi=) "
			       "went backwards since the line before: not one recording of one "
			       "boot", rd->path, rd->lineno);
	return cli_err(EXIT_USAGE, rd->cmd, "%s:%zu: %s went backwards since the line before "
		       "(%llu -> %llu): not one recording of one boot", rd->path, rd->lineno,
		       wm_rec_ctrs[k].json, (unsigned long long)a->c[k],
		       (unsigned long long)b->c[k]);
}

int readings_next(struct readings *rd, struct wm_rec_sample *s, struct wm_boost_obs *obs,
		  bool *done)
{
	struct wm_diag d = { 0 };
	int rc;

	*done = false;
	while (getline(&rd->line, &rd->cap, rd->f) >= 0) {
		rd->lineno++;
		if (rd->line[0] == '#' || rd->line[strspn(rd->line, " \t\n")] == '\0')
			continue;
		if (wm_replay_line(rd->line, rd->nzones, s, obs, &d))
			return cli_err(EXIT_USAGE, rd->cmd, "%s:%zu: %s", rd->path, rd->lineno,
				       d.msg);
		if (rd->have_prev && (rc = forward(rd, &rd->prev, s)))
			return rc;
		rd->prev = *s;
		rd->have_prev = true;
		return EXIT_OK;
	}
	if (ferror(rd->f))
		return cli_err(EXIT_SYSTEM, rd->cmd, "%s: %s", rd->path, strerror(errno));
	*done = true;
	return EXIT_OK;
}

void readings_close(struct readings *rd)
{
	if (rd->f && rd->f != stdin)
		fclose(rd->f);
	rd->f = NULL;
	free(rd->line);
	rd->line = NULL;
	rd->cap = 0;
}

/* ---- the live reading ------------------------------------------------- */

int readings_parse_vmstat(const char *cmd, const char *what, const char *buf, size_t len,
			  struct wm_rec_sample *smp)
{
	struct pf_kv kv;
	struct wm_diag d = { 0 };
	int rc = pf_parse_vmstat(buf, len, &kv, &d);

	if (rc == WM_OK)
		wm_rec_sample_vmstat(&kv, smp);
	pf_kv_free(&kv);
	if (rc == WM_ENOMEM)
		return cli_err(EXIT_SYSTEM, cmd, "out of memory");
	if (rc)
		return cli_diag(what, rc, &d);
	return EXIT_OK;
}

int readings_parse_psi(const char *what, const char *buf, size_t len, struct wm_rec_sample *smp)
{
	struct pf_psi psi;
	struct wm_diag d = { 0 };
	int rc = pf_parse_psi(buf, len, &psi, &d);

	if (rc)
		return cli_diag(what, rc, &d);
	smp->psi = true;
	smp->psi_some = psi.some.present ? psi.some.total : 0;
	smp->psi_full = psi.full.present ? psi.full.total : 0;
	return EXIT_OK;
}

int readings_live(const char *cmd, const char *root, struct wm_rec_sample *smp)
{
	char *buf = NULL, path[4096];
	size_t len;
	int rc, e;

	root_path(root, P_VMSTAT, path, sizeof(path));
	if ((e = read_rooted(root, P_VMSTAT, &buf, &len)))
		return read_error(cmd, path, READ_MAX, e);
	rc = readings_parse_vmstat(cmd, path, buf, len, smp);
	free(buf);
	if (rc)
		return rc;
	smp->psi = false;
	root_path(root, P_PSI, path, sizeof(path));
	e = read_rooted(root, P_PSI, &buf, &len);
	if (e == -ENOENT || e == -ENOTDIR || e == -EACCES || e == -EPERM || e == -EOPNOTSUPP)
		return EXIT_OK;		/* no PSI: before 4.20, or psi=0 */
	if (e)
		return read_error(cmd, path, READ_MAX, e);
	rc = readings_parse_psi(path, buf, len, smp);
	free(buf);
	return rc;
}
