// SPDX-License-Identifier: MIT
/*
 * cmd_recommend.c - `wmark recommend`: a watermark_scale_factor with the
 * reasons behind it, from an Android extra_free_kbytes target, from an
 * allocation burst size, or from measured reclaim activity.
 *
 * The arithmetic is calc/recommend.c; this file reads the machine (and,
 * with --sample, /proc/vmstat and /proc/pressure/memory every interval),
 * predicts the zones at the answer with wm_predict(), and prints the
 * answer, the kernel's range, the floor, per-zone gaps and kswapd's wake
 * (low) and stop (high) points before and after, what the change takes
 * from MemAvailable, and the `wmark apply` line.  It never writes.
 */
#include <inttypes.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../calc/boost.h"
#include "../calc/procfs.h"
#include "../calc/recommend.h"
#include "../calc/replay.h"
#include "commands.h"
#include "explain.h"
#include "opts.h"
#include "readings.h"
#include "report.h"
#include "sig.h"
#include "snapshot.h"
#include "tracecount.h"

#define CMD "recommend"
#define MAX_SAMPLE_SECONDS 86400
#define MAX_SAMPLES 200000	/* readings kept in memory: 5.5 h at 100 ms */
#define MAX_REASONS 32

enum mode { M_NONE, M_EXTRA, M_BURST, M_SAMPLE, M_VMSTAT, M_REPLAY, M_TUNE };

static const char *const mode_names[] = {
	[M_NONE] = "none", [M_EXTRA] = "extra_free_kbytes", [M_BURST] = "burst",
	[M_SAMPLE] = "sample", [M_VMSTAT] = "vmstat", [M_REPLAY] = "replay",
	[M_TUNE] = "tune-log",
};

enum {
	O_EXTRA = 400, O_BURST, O_SAMPLE, O_INTERVAL, O_BEFORE, O_AFTER,
	O_PSI_BEFORE, O_PSI_AFTER, O_SECONDS, O_VM_TOTAL, O_BASE_WSF, O_RECORD, O_REPLAY,
	O_FROM_TUNE,
};

/* One zone of the report: page counts, RV_NONE where not applicable. */
struct rzone {
	int node;
	const char *zone;
	int64_t managed, usable, wsf_floor;
	int64_t gap_now, gap_after, low_now, low_after, high_now, high_after;
	int64_t extra, target_low, need_wsf;	/* extra_free_kbytes mode */
};

/* Which zone columns a mode shows: rcols(). */
enum {
	RC_USABLE = 1u << 0,	/* burst and measured modes: the zones used */
	RC_EXTRA = 1u << 1,	/* extra_free_kbytes mode: the targets */
};

/* One zone field, a long of struct rzone, in MiB in the text table. */
#define RF(h, j, u, member, nd) \
	{ .header = h, .json = j, .unit = u, .off = offsetof(struct rzone, member), .need = nd }

static const struct fmt_field rfields[] = {
	RF("managed", "managed", FMT_PAGES, managed, 0),
	RF("used", "usable", FMT_BOOL, usable, RC_USABLE),
	RF("floor", "wsf_floor", FMT_WSF, wsf_floor, 0),
	RF("gap now", "gap_now", FMT_PAGES, gap_now, 0),
	RF("gap after", "gap_after", FMT_PAGES, gap_after, 0),
	RF("wake now", "low_now", FMT_PAGES, low_now, 0),
	RF("wake after", "low_after", FMT_PAGES, low_after, 0),
	RF("stop now", "high_now", FMT_PAGES, high_now, 0),
	RF("stop after", "high_after", FMT_PAGES, high_after, 0),
	RF("extra", "extra", FMT_PAGES, extra, RC_EXTRA),
	RF("wake target", "target_low", FMT_PAGES, target_low, RC_EXTRA),
	RF("needs wsf", "need_wsf", FMT_WSF, need_wsf, RC_EXTRA),
};

#define NRFIELDS (sizeof(rfields) / sizeof(rfields[0]))

struct rec {
	const struct cli_ctx *ctx;
	enum mode mode;
	int64_t extra_kb;
	uint64_t burst_bytes;
	int64_t sample_s, interval_ms;
	const char *vm_before, *vm_after, *psi_before, *psi_after;
	const char *record, *replay;	/* --record FILE (with --sample), --replay FILE */
	const char *from_tune;		/* --from-tune FILE: the output of wmark -j tune */
	struct {			/* its summary */
		int64_t wsf, boost, periods, stalls, writes, max_reserve;
		bool settled, dry_run;
		char last_why[32];
	} tl;
	double seconds;			/* --seconds, 0 unknown */
	int64_t vm_total, base_wsf;	/* -1 unset */
	struct wm_change given;		/* --min-free-kbytes, --wsf: today's values */

	struct snapshot s;
	struct wm_sysctl now;		/* validated sysctls of today */
	struct wm_rec_input in;
	struct wm_predicted *model_now, *after;
	bool *usable;
	int class_idx;
	struct wm_rec_answer ans;
	struct wm_rec_efk_zone *efk;
	struct wm_rec_script script;
	bool script_ok, knob;		/* extra_free_kbytes exists on this kernel */
	bool script_crlf;		/* the script ran on zoneinfo without its CRs */
	char script_why[sizeof(((struct wm_diag *)0)->msg)];	/* why not, when !script_ok */
	struct wm_rec_measure ms;
	struct wm_rec_decision dec;
	bool measured;
	struct wm_boost_obs *bobs;	/* readings x zones, --sample; else the snapshot's */
	size_t nbobs;			/* readings in bobs */
	struct wm_boost_evidence bev;
	uint64_t *bpeak;		/* pages per zone: the largest boost seen */
	struct wm_rec_boost bdec;
	bool bmeasured;			/* bev and bdec hold a result */
	struct tp_counter fbc;		/* pageblock fallbacks, --sample on the live machine */
	bool fbc_on;
	char fbc_why[160];		/* why they are not counted, when !fbc_on */
	int64_t kept_from;			/* the answer before "keep" replaced it, -1 */
	struct wm_reserve rv;
	char *reasons[MAX_REASONS];
	int nreasons;
	char *warnings[4];
	int nwarnings;
};

static void rec_usage(void)
{
	fputs("Usage: wmark [--root DIR] [-j] recommend MODE [OPTIONS]\n"
	      "\n"
	      "Recommend a watermark_scale_factor for this machine and say why.  Nothing\n"
	      "is written; the answer ends with the `wmark apply` line to use.\n"
	      "\n"
	      "Modes (one):\n"
	      "  --extra-free-kbytes K      the smallest wsf giving every zone at least the low\n"
	      "                             watermark Android's extra_free_kbytes K would give,\n"
	      "                             beside what init/extra_free_kbytes.sh computes\n"
	      "  --burst SIZE               the smallest wsf whose min->low gaps, over the zones\n"
	      "                             a user-space allocation can use, hold SIZE\n"
	      "  --sample SECONDS           watch /proc/vmstat, /proc/pressure/memory and the\n"
	      "                             zones' boost in /proc/zoneinfo and decide from the\n"
	      "                             reclaim seen (progress on stderr), counting pageblock\n"
	      "                             fallbacks (root, tracefs); stalls during a boost or\n"
	      "                             a fallback add watermark_boost_factor 0 to the answer\n"
	      "  --replay FILE              decide again from the readings --record wrote, against\n"
	      "                             the machine or --root given (a capture of the same one);\n"
	      "                             counters that go backwards, a zones= header other than\n"
	      "                             the capture's: exit 2 naming the line\n"
	      "  --from-tune FILE           the setting a 'wmark -j tune' run ended at (its log),\n"
	      "                             as the wsf of the same gaps here, with how it got there\n"
	      "  --vmstat-before F --vmstat-after F\n"
	      "                             the same from two captured /proc/vmstat files\n"
	      "\n"
	      "Options:\n"
	      "  --interval MS              sampling interval for --sample (default 100)\n"
	      "  --record FILE              with --sample: write its readings to FILE (text)\n"
	      "  --psi-before F --psi-after F   captured /proc/pressure/memory files\n"
	      "  --seconds S                time between the captured files (for rates)\n"
	      "  --vm-total-pages N         the kernel's vm_total_pages (dmesg \"Total pages\");\n"
	      "                             default the sum of managed pages\n"
	      "  --base-wsf N               ro.kernel.watermark_scale_factor for the script\n"
	      "                             (default today's watermark_scale_factor)\n"
	      "  --min-free-kbytes K, --wsf N\n"
	      "                             today's min_free_kbytes and watermark_scale_factor,\n"
	      "                             in place of the root's (a capture of zoneinfo alone\n"
	      "                             has neither)\n"
	      "  -h, --help                 this help\n", stdout);
}

static void reason(struct rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void reason(struct rec *r, const char *fmt, ...)
{
	va_list ap;
	char *p;

	if (r->nreasons >= MAX_REASONS)
		return;
	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) >= 0)
		r->reasons[r->nreasons++] = p;
	va_end(ap);
}

static void warning(struct rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warning(struct rec *r, const char *fmt, ...)
{
	va_list ap;
	char *p;

	if (r->nwarnings >= 4)
		return;
	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) >= 0)
		r->warnings[r->nwarnings++] = p;
	va_end(ap);
}

static double mib(uint64_t pages, unsigned page_size)
{
	return (double)pages * page_size / 1048576.0;
}

/* ---- reading counters ------------------------------------------------- */

/* The boost readings of zoneinfo zi for every model zone (zeros where not printed). */
static void boost_obs_of(const struct rec *r, const struct zi_info *zi, struct wm_boost_obs *obs)
{
	size_t i;

	for (i = 0; i < r->s.m.nzones; i++) {
		int64_t k = r->s.zone_map[i];
		const struct zi_zone *z = k >= 0 ? &zi->zones[k] : NULL;

		memset(&obs[i], 0, sizeof(obs[i]));
		obs[i].boost = -1;
		if (!z)
			continue;
		obs[i].free = z->free;
		obs[i].min = z->min;
		obs[i].low = z->low;
		obs[i].high = z->high;
		if (z->flags & ZI_HAS_BOOST)
			obs[i].boost = (int64_t)z->boost;
	}
}

/* A user-given path: absolute, or relative to the working directory. */
static int read_user(const char *path, char **buf, size_t *len)
{
	if (path[0] == '/')
		return read_rooted("/", path + 1, buf, len);
	return read_rooted(".", path, buf, len);
}

static int parse_vmstat_into(const char *what, const char *buf, size_t len,
			     struct wm_rec_sample *smp)
{
	struct pf_kv kv;
	struct wm_diag d = { 0 };
	int rc = pf_parse_vmstat(buf, len, &kv, &d);

	if (rc == WM_OK)
		wm_rec_sample_vmstat(&kv, smp);
	pf_kv_free(&kv);
	if (rc == WM_ENOMEM)
		return cli_err(EXIT_SYSTEM, CMD, "out of memory");
	if (rc)
		return cli_diag(what, rc, &d);
	return EXIT_OK;
}

static int parse_psi_into(const char *what, const char *buf, size_t len,
			  struct wm_rec_sample *smp)
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

/* One live sample from the root; PSI is optional (4.20+, psi=1). */
static int read_sample(const struct rec *r, struct wm_rec_sample *smp)
{
	char *buf = NULL, path[4096];
	size_t len;
	int rc, e;

	if ((e = read_rooted(r->s.root, P_VMSTAT, &buf, &len))) {
		root_path(r->s.root, P_VMSTAT, path, sizeof(path));
		return read_error(CMD, path, READ_MAX, e);
	}
	root_path(r->s.root, P_VMSTAT, path, sizeof(path));
	rc = parse_vmstat_into(path, buf, len, smp);
	free(buf);
	if (rc)
		return rc;
	if (r->fbc_on && tp_counter_read(&r->fbc, &smp->c[WM_REC_FALLBACK]) == 0)
		smp->have |= 1u << WM_REC_FALLBACK;
	smp->psi = false;
	root_path(r->s.root, P_PSI, path, sizeof(path));
	e = read_rooted(r->s.root, P_PSI, &buf, &len);
	if (e == 0) {
		rc = parse_psi_into(path, buf, len, smp);
		free(buf);
	} else if (e == -EISDIR || e == -ENXIO || e == -ELOOP || e == -EFBIG) {
		/* there, but no input (a FIFO, a device): refused like any other */
		rc = read_error(CMD, path, READ_MAX, e);
	}
	return rc;
}

/*
 * Fill one reading of boost obs[m.nzones] from the root's zoneinfo, in
 * the snapshot's layout (zone_map: the same file order on one kernel).
 */
static int read_boost_obs(const struct rec *r, struct wm_boost_obs *obs)
{
	struct zi_info zi;
	int rc;

	if ((rc = snapshot_reread_zones(&r->s, CMD, &zi)))
		return rc;
	boost_obs_of(r, &zi, obs);
	zi_free(&zi);
	return EXIT_OK;
}

static int sample_live(struct rec *r, struct wm_rec_sample **out, size_t *n)
{
	double dt = (double)r->interval_ms / 1000.0, t0;
	size_t cap = (size_t)((double)r->sample_s / dt) + 2, i = 0;
	struct wm_rec_sample *s = calloc(cap, sizeof(*s));
	size_t nz = r->s.m.nzones ? r->s.m.nzones : 1;
	int64_t last_report = -1;
	int rc;

	free(r->bobs);
	r->bobs = calloc(cap * nz, sizeof(*r->bobs));
	if (!s || !r->bobs) {
		free(s);
		return cli_err(EXIT_SYSTEM, CMD, "out of memory");
	}
	/*
	 * Boosts are often gone before the next reading; the fallbacks that
	 * raise them are counted where the kernel lets us.
	 */
	if (!r->s.live)
		snprintf(r->fbc_why, sizeof(r->fbc_why), "they are counted on the live machine only");
	else if (tp_counter_open(&r->fbc, "kmem/mm_page_alloc_extfrag", r->fbc_why,
				 sizeof(r->fbc_why)) == 0)
		r->fbc_on = true;
	t0 = sig_now();
	for (;;) {
		double t = sig_now();

		if ((rc = read_sample(r, &s[i])) ||
		    (rc = read_boost_obs(r, &r->bobs[i * r->s.m.nzones]))) {
			free(s);
			return rc;
		}
		s[i].t = t - t0;
		i++;
		r->nbobs = i;
		if (s[i - 1].t >= (double)r->sample_s || i >= cap)
			break;
		if ((int64_t)s[i - 1].t != last_report) {
			const struct wm_rec_sample *a = &s[0], *b = &s[i - 1];

			last_report = (int64_t)s[i - 1].t;
			fprintf(stderr, "wmark: recommend: %" PRId64 "/%" PRId64 " s, allocstall +%llu, "
				"pgscan_direct +%llu, pgsteal_kswapd +%llu\n",
				last_report, r->sample_s,
				(unsigned long long)(b->c[WM_REC_ALLOCSTALL] - a->c[WM_REC_ALLOCSTALL]),
				(unsigned long long)(b->c[WM_REC_PGSCAN_DIRECT] - a->c[WM_REC_PGSCAN_DIRECT]),
				(unsigned long long)(b->c[WM_REC_PGSTEAL_KSWAPD] - a->c[WM_REC_PGSTEAL_KSWAPD]));
		}
		/*
		 * From the last reading, not from the start: a reading that came
		 * late must not be followed by catch-up readings microseconds
		 * apart, whose tiny intervals would make absurd peak rates.
		 */
		sig_sleep_until(t0 + s[i - 1].t + dt);
	}
	*out = s;
	*n = i;
	return EXIT_OK;
}

/*
 * An event counter never goes down while the kernel runs: one that is
 * lower in the after file than in the before file means the files are
 * swapped, or come from two boots.  Either way the difference means
 * nothing, and clamped to 0 it would read as "no reclaim".
 */
static int counters_forward(const struct rec *r, const struct wm_rec_sample *s)
{
	int k = wm_rec_backwards(&s[0], &s[1]);

	if (k >= 0 && k < WM_REC_NCTR)
		return cli_err(EXIT_USAGE, CMD, "%s: %s%s went backwards since %s (%llu -> %llu): "
			       "swapped --vmstat-before/--vmstat-after, or two boots",
			       r->vm_after, wm_rec_ctrs[k].key, wm_rec_ctrs[k].suffixes ? "_*" : "",
			       r->vm_before,
			       (unsigned long long)s[0].c[k], (unsigned long long)s[1].c[k]);
	if (k == WM_REC_NCTR)
		return cli_err(EXIT_USAGE, CMD, "%s: the memory pressure totals went backwards "
			       "since %s: swapped --psi-before/--psi-after, or two boots",
			       r->psi_after, r->psi_before);
	return EXIT_OK;
}

static int sample_files(struct rec *r, struct wm_rec_sample *s)
{
	const char *vf[2] = { r->vm_before, r->vm_after };
	const char *pfile[2] = { r->psi_before, r->psi_after };
	int k, rc, e;

	for (k = 0; k < 2; k++) {
		char *buf;
		size_t len;

		memset(&s[k], 0, sizeof(s[k]));
		if ((e = read_user(vf[k], &buf, &len)))
			return read_error(CMD, vf[k], READ_MAX, e);
		rc = parse_vmstat_into(vf[k], buf, len, &s[k]);
		free(buf);
		if (rc)
			return rc;
		if (pfile[k]) {
			if ((e = read_user(pfile[k], &buf, &len)))
				return read_error(CMD, pfile[k], READ_MAX, e);
			rc = parse_psi_into(pfile[k], buf, len, &s[k]);
			free(buf);
			if (rc)
				return rc;
		}
	}
	s[0].t = 0;
	s[1].t = r->seconds > 0 ? r->seconds : 1;
	return counters_forward(r, s);
}

/* ---- the modes -------------------------------------------------------- */

static const char *zname(const struct rec *r, size_t i)
{
	int64_t k = r->s.zone_map[i];

	return k >= 0 ? r->s.zi.zones[k].name : wm_zone_type_name(r->s.m.zones[i].type);
}

/* "DMA32 and Normal" style list of the zones flagged in sel. */
static void zone_list(const struct rec *r, const bool *sel, char *buf, size_t n)
{
	size_t i, cnt = 0, k = 0, total = 0;

	for (i = 0; i < r->s.m.nzones; i++)
		total += sel[i];
	buf[0] = '\0';
	for (i = 0; i < r->s.m.nzones; i++) {
		if (!sel[i])
			continue;
		cnt++;
		if (r->s.zi.nnodes > 1)
			k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%snode %d %s",
					      cnt == 1 ? "" : cnt == total ? " and " : ", ",
					      r->s.m.zones[i].node, zname(r, i));
		else
			k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%s%s",
					      cnt == 1 ? "" : cnt == total ? " and " : ", ",
					      zname(r, i));
		if (k >= n)
			break;
	}
	if (!total)
		snprintf(buf, n, "no zone");
}

static int run_extra(struct rec *r)
{
	struct wm_diag d = { 0 };
	size_t i, k, n = r->s.m.nzones, tlen;
	int64_t *true_min;
	size_t ntrue = 0;
	const char *text;
	char *lf = NULL;
	int rc;

	r->efk = calloc(n ? n : 1, sizeof(*r->efk));
	true_min = calloc(r->s.zi.nzones ? r->s.zi.nzones : 1, sizeof(*true_min));
	if (!r->efk || !true_min) {
		free(true_min);
		return cli_err(EXIT_SYSTEM, CMD, "out of memory");
	}
	if ((rc = wm_rec_extra_free(&r->in, r->extra_kb, r->efk, &r->ans, &d))) {
		free(true_min);
		return cli_diag(CMD, rc, &d);
	}
	/* the script's view: zones in file order that print a managed line */
	for (i = 0; i < r->s.zi.nzones; i++)
		if (r->s.zi.zones[i].flags & ZI_HAS_MANAGED)
			true_min[ntrue++] = (r->s.zi.zones[i].flags & ZI_HAS_MIN) ?
					    (int64_t)r->s.zi.zones[i].min : -1;
	text = r->s.zoneinfo;
	tlen = r->s.zoneinfo_len;
	if (memchr(text, '\r', tlen)) {
		/*
		 * The kernel never writes a CR: a capture with CRLF line ends
		 * went through a tool that added them.  The script reads the
		 * device's own /proc/zoneinfo, so it runs on the text without
		 * them (every other command reads past them as blanks).
		 */
		lf = malloc(tlen + 1);
		if (!lf) {
			free(true_min);
			return cli_err(EXIT_SYSTEM, CMD, "out of memory");
		}
		for (i = 0, k = 0; i < tlen; i++)
			if (text[i] != '\r' || (i + 1 < tlen && text[i + 1] != '\n'))
				lf[k++] = text[i];
		lf[k] = 0;
		text = lf;
		tlen = k;
		r->script_crlf = true;
	}
	d.msg[0] = 0;
	r->script_ok = wm_rec_script(text, tlen, true_min, ntrue,
				     r->base_wsf >= 0 ? r->base_wsf : r->now.wsf,
				     r->extra_kb, r->s.m.page_size, &r->script, &d) == WM_OK;
	if (!r->script_ok)
		snprintf(r->script_why, sizeof(r->script_why), "%s",
			 d.msg[0] ? d.msg : "the script would fail");
	free(lf);
	free(true_min);
	return EXIT_OK;
}

/*
 * --from-tune: the summary of a `wmark -j tune` log (its last line), and
 * the wsf of the same gaps on this machine.  The log must come from this
 * kernel's range; its other lines are read only to check they are tune's.
 */
static int run_from_tune(struct rec *r)
{
	struct wm_rec_answer cur;
	struct wm_diag d = { 0 };
	const cJSON *sum = NULL;
	cJSON *doc = NULL;
	char *buf = NULL, *line, *save = NULL;
	size_t len, lineno = 0;
	uint64_t need = 0;
	int rc, e;

	if ((e = read_user(r->from_tune, &buf, &len)))
		return read_error(CMD, r->from_tune, READ_MAX, e);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		cJSON *o = cJSON_Parse(line);

		lineno++;
		if (!o || !cJSON_IsObject(o) ||
		    (!cJSON_GetObjectItem(o, "action") && !cJSON_GetObjectItem(o, "summary"))) {
			cJSON_Delete(o);
			cJSON_Delete(doc);
			free(buf);
			return cli_err(EXIT_USAGE, CMD, "%s:%zu: not a line of 'wmark -j tune'",
				       r->from_tune, lineno);
		}
		if (cJSON_GetObjectItem(o, "summary")) {
			cJSON_Delete(doc);
			doc = o;
		} else {
			cJSON_Delete(o);
		}
	}
	free(buf);
	sum = doc ? cJSON_GetObjectItem(doc, "summary") : NULL;
	if (!sum) {
		cJSON_Delete(doc);
		return cli_err(EXIT_USAGE, CMD, "%s: no summary line: a tune that was killed, or "
			       "not the output of 'wmark -j tune'", r->from_tune);
	}
#define NUM(key, dflt) (cJSON_IsNumber(cJSON_GetObjectItem(sum, key)) ? \
	(int64_t)cJSON_GetObjectItem(sum, key)->valuedouble : (dflt))
	r->tl.wsf = NUM("wsf", -1);
	r->tl.boost = NUM("boost_factor", -1);
	r->tl.periods = NUM("periods", 0);
	r->tl.stalls = NUM("stalls", 0);
	r->tl.writes = NUM("writes", 0);
	r->tl.max_reserve = NUM("max_reserve_pages", 0);
#undef NUM
	r->tl.settled = cJSON_IsTrue(cJSON_GetObjectItem(sum, "settled"));
	r->tl.dry_run = cJSON_IsTrue(cJSON_GetObjectItem(sum, "dry_run"));
	snprintf(r->tl.last_why, sizeof(r->tl.last_why), "%s",
		 cJSON_IsString(cJSON_GetObjectItem(sum, "last_why")) ?
		 cJSON_GetObjectItem(sum, "last_why")->valuestring : "");
	cJSON_Delete(doc);
	if (r->tl.wsf < 1 || r->tl.wsf > r->s.prof.wsf_max)
		return cli_err(EXIT_USAGE, CMD, "%s: the log's wsf %" PRId64 " is outside 1..%" PRId64
			       " of this kernel: a log of another machine?", r->from_tune, r->tl.wsf,
			       r->s.prof.wsf_max);

	/* The summed usable gap at the log's wsf, then the smallest wsf giving it. */
	{
		struct wm_sysctl sc = r->now;
		struct wm_predicted *at = calloc(r->s.m.nzones ? r->s.m.nzones : 1, sizeof(*at));
		size_t i;

		if (!at)
			return cli_err(EXIT_SYSTEM, CMD, "out of memory");
		sc.wsf = r->tl.wsf;
		rc = snapshot_predict(&r->s, &sc, WM_RECOMPUTE_WMARKS, at);
		for (i = 0; rc == EXIT_OK && i < r->s.m.nzones; i++)
			if (r->usable[i])
				need += at[i].wm.gap;
		free(at);
		if (rc)
			return rc;
	}
	if ((rc = wm_rec_for_gap(&r->in, r->usable, 0, &cur, &d)) ||
	    (rc = wm_rec_for_gap(&r->in, r->usable, need, &r->ans, &d)))
		return cli_diag(CMD, rc, &d);
	if (r->ans.gap_after == cur.gap_now)
		wm_rec_keep(&r->ans, r->now.wsf);
	return EXIT_OK;
}

static int run_burst(struct rec *r)
{
	struct wm_diag d = { 0 };
	uint64_t pages = (r->burst_bytes + r->s.m.page_size - 1) / r->s.m.page_size;
	int rc;

	if ((rc = wm_rec_for_gap(&r->in, r->usable, (uint64_t)pages, &r->ans, &d)))
		return cli_diag(CMD, rc, &d);
	return EXIT_OK;
}

/*
 * --record and --replay: the readings of --sample as text, one line each,
 * after a first line "# wmark recommend readings 1 zones=N":
 *   t=SECONDS COUNTER=VALUE... [psi=SOME_US,FULL_US] zone=FREE,MIN,LOW,HIGH,BOOST...
 * with the counters by their JSON names (those the reading had), one
 * zone= field per zone in zoneinfo's order, BOOST -1 where not printed.
 * A replay decides from them as --sample would have, against the zones
 * of the machine or root given (the capture of the same machine).
 */
#define READINGS_MAGIC WM_REPLAY_MAGIC

static int record_write(const struct rec *r, const struct wm_rec_sample *s, size_t n)
{
	size_t nz = r->s.m.nzones, i, z;
	FILE *f = fopen(r->record, "w");
	int k, e;

	if (!f)
		return cli_err(EXIT_SYSTEM, CMD, "%s: %s", r->record, strerror(errno));
	fprintf(f, "%s zones=%zu\n", READINGS_MAGIC, nz);
	for (i = 0; i < n; i++) {
		fprintf(f, "t=%.6f", s[i].t);
		for (k = 0; k < WM_REC_NCTR; k++)
			if (s[i].have & (1u << k))
				fprintf(f, " %s=%llu", wm_rec_ctrs[k].json,
					(unsigned long long)s[i].c[k]);
		if (s[i].psi)
			fprintf(f, " psi=%llu,%llu", (unsigned long long)s[i].psi_some,
				(unsigned long long)s[i].psi_full);
		for (z = 0; z < nz; z++) {
			const struct wm_boost_obs *o = &r->bobs[i * nz + z];

			fprintf(f, " zone=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64 "", o->free, o->min, o->low, o->high,
				o->boost);
		}
		fputc('\n', f);
	}
	e = ferror(f) ? errno : 0;
	if (fclose(f) && !e)
		e = errno;
	if (e)
		return cli_err(EXIT_SYSTEM, CMD, "%s: %s", r->record, strerror(e ? e : EIO));
	return EXIT_OK;
}

static int replay_read(struct rec *r, struct wm_rec_sample **out, size_t *n)
{
	size_t nz = r->s.m.nzones, cap = 0, i = 0;
	struct wm_rec_sample *s = NULL;
	struct readings rd;
	bool done = false;
	int rc;

	free(r->bobs);
	r->bobs = NULL;
	rc = readings_open(&rd, CMD, r->replay, nz, r->s.root);
	while (rc == EXIT_OK) {
		if (i == cap) {
			size_t nc = cap ? cap * 2 : 256;
			void *ns = NULL, *nb = NULL;

			if (nc > MAX_SAMPLES) {
				rc = cli_err(EXIT_USAGE, CMD, "%s: more than %d readings", r->replay,
					     MAX_SAMPLES);
				break;
			}
			ns = realloc(s, nc * sizeof(*s));
			if (ns)
				s = ns;
			nb = ns ? realloc(r->bobs, nc * nz * sizeof(*r->bobs)) : NULL;
			if (!nb) {
				rc = cli_err(EXIT_SYSTEM, CMD, "out of memory");
				break;
			}
			r->bobs = nb;
			cap = nc;
		}
		rc = readings_next(&rd, &s[i], &r->bobs[i * nz], &done);
		if (rc || done)
			break;
		i++;
	}
	readings_close(&rd);
	if (rc == EXIT_OK && i < 2)
		rc = cli_err(EXIT_USAGE, CMD, "%s: %zu readings; two or more are needed", r->replay,
			     i);
	if (rc) {
		free(s);
		return rc;
	}
	r->nbobs = i;
	if (!(s[0].have & (1u << WM_REC_FALLBACK)))
		snprintf(r->fbc_why, sizeof(r->fbc_why), "%s has none", r->replay);
	*out = s;
	*n = i;
	return EXIT_OK;
}

/*
 * Boost evidence: the live readings of --sample with their vmstat
 * samples vm (NULL: files, where the snapshot's zoneinfo is the one
 * reading there is).
 */
static int measure_boost(struct rec *r, const struct wm_rec_sample *vm, struct wm_diag *d)
{
	size_t nz = r->s.m.nzones;

	r->bpeak = calloc(nz ? nz : 1, sizeof(*r->bpeak));
	if (!r->bpeak)
		return wm_fail(d, WM_ENOMEM, 0, NULL, "out of memory");
	if (!vm) {
		free(r->bobs);
		r->bobs = calloc(nz ? nz : 1, sizeof(*r->bobs));
		if (!r->bobs)
			return wm_fail(d, WM_ENOMEM, 0, NULL, "out of memory");
		boost_obs_of(r, &r->s.zi, r->bobs);
		r->nbobs = 1;
	}
	return wm_boost_evidence(&r->s.prof, &r->s.m, NULL, r->bobs, vm, r->nbobs,
				 (r->now.have & WM_HAVE_BOOST) ? r->now.boost_factor : -1,
				 r->bpeak, &r->bev, d);
}

static uint64_t boost_allowed(const struct rec *r);

/* Pages: what the raised min took in the usable zones (wm_boost_headroom). */
static uint64_t boost_headroom(const struct rec *r)
{
	return wm_boost_headroom(&r->s.m, r->usable, r->bpeak,
				 (r->now.have & WM_HAVE_BOOST) ? boost_allowed(r) : 0, &r->bev);
}

static int run_measure(struct rec *r)
{
	struct wm_rec_sample two[2], *s = two;
	struct wm_diag d = { 0 };
	struct wm_rec_answer cur;
	size_t n = 2;
	int rc;

	if (r->mode == M_SAMPLE) {
		rc = sample_live(r, &s, &n);
		if (rc == EXIT_OK && r->record && (rc = record_write(r, s, n)))
			free(s);
	} else if (r->mode == M_REPLAY) {
		rc = replay_read(r, &s, &n);
	} else {
		rc = sample_files(r, two);
	}
	if (rc)
		return rc;
	rc = wm_rec_analyze(s, n, &r->ms, &d);
	if (rc == WM_OK)
		rc = measure_boost(r, s == two ? NULL : s, &d);
	if (s != two)
		free(s);
	if (rc)
		return cli_diag(CMD, rc, &d);
	r->measured = true;

	/* today's summed gap over the zones used */
	if ((rc = wm_rec_for_gap(&r->in, r->usable, 0, &cur, &d)))
		return cli_diag(CMD, rc, &d);
	wm_rec_decide(&r->ms, cur.gap_now, &r->dec);
	wm_rec_boost_decide(&r->s.prof, (r->now.have & WM_HAVE_BOOST) ? r->now.boost_factor : -1,
			    &r->bev, boost_headroom(r), &r->dec, cur.gap_now, &r->bdec);
	r->bmeasured = true;
	if ((rc = wm_rec_for_gap(&r->in, r->usable, r->bdec.need, &r->ans, &d)))
		return cli_diag(CMD, rc, &d);
	if (r->dec.verdict == WM_REC_KEEP)
		wm_rec_keep(&r->ans, r->now.wsf);
	return EXIT_OK;
}

/* ---- reasons ---------------------------------------------------------- */

static void floor_reason(struct rec *r)
{
	unsigned ps = r->s.m.page_size;

	if (r->ans.floor_first > 1)
		reason(r, "below wsf %" PRId64 " no zone's gap moves: each is a quarter of its share of "
		       "min_free_kbytes %" PRId64 " (%.1f MiB in all at wsf 1)", r->ans.floor_first,
		       r->now.min_free_kbytes, mib(r->ans.gap_floor, ps));
	if (r->ans.floor_all > r->ans.floor_first)
		reason(r, "from wsf %" PRId64 " up every zone's gap follows wsf", r->ans.floor_all);
}

static void extra_reasons(struct rec *r)
{
	const struct wm_rec_script *sc = &r->script;
	unsigned ps = r->s.m.page_size;
	size_t i, n = r->s.m.nzones, worst = 0;
	uint64_t total = r->s.m.vm_total_pages;

	for (i = 0; i < n; i++)
		total += r->s.m.vm_total_pages ? 0 : r->s.m.zones[i].managed;
	reason(r, "extra_free_kbytes %" PRId64 " is %" PRId64 " pages; Android's patch adds "
	       "pages * managed / vm_total_pages to each zone's low and high, with "
	       "vm_total_pages %" PRIu64 " (%s)", r->extra_kb, r->extra_kb / (int64_t)(ps / 1024),
	       total, r->vm_total >= 0 ? "--vm-total-pages" :
	       "the sum of managed pages; the kernel's own is dmesg's \"Total pages\"");
	for (i = 0; i < n; i++)
		if (r->efk[i].need_wsf > r->efk[worst].need_wsf)
			worst = i;
	if (r->ans.wanted >= 0)
		reason(r, "every zone reaches its target low watermark from wsf %" PRId64 "; %s is the "
		       "one that needs it (target %" PRIu64 " pages, %" PRIu64 " at wsf %" PRId64 ")", r->ans.wanted,
		       zname(r, worst), r->efk[worst].target_low, r->efk[worst].low_at,
		       r->ans.wsf);
	reason(r, "the high watermark moves by a whole gap more than the patch would move it "
	       "(the patch adds its share once to low and high; wsf widens both steps)");
	if (r->knob)
		reason(r, "this kernel has extra_free_kbytes itself: writing %" PRId64 " there gives the "
		       "targets exactly, and is what init/extra_free_kbytes.sh does here; the "
		       "wsf above is the equivalent with extra_free_kbytes 0", r->extra_kb);
	if (!r->script_ok) {
		reason(r, "init/extra_free_kbytes.sh is not simulated: %s", r->script_why);
		return;
	}
	if (r->script_crlf)
		reason(r, "zoneinfo has CRLF line ends, which the kernel never writes: the script "
		       "is simulated on the text without the CRs, as it reads /proc/zoneinfo on "
		       "the device");
	if (r->knob)
		return;
	reason(r, "init/extra_free_kbytes.sh would write %" PRId64 ": delta round(%" PRId64 " * 10000 / %" PRId64 ") = %" PRId64 " "
	       "on top of base wsf %" PRId64 ", per zone by the script's two cases, the largest kept",
	       sc->result, sc->extra_pages, sc->vm_total, sc->delta, sc->base_wsf);
	if (sc->nmin > sc->nzones)
		reason(r, "its grep \"min\" found %zu numbers for %zu zones: the per-cpu "
		       "\"high_min:\" lines of zoneinfo (6.13+) match too, so from the second "
		       "zone on it reads a pageset's high_min as the zone's min",
		       sc->nmin, sc->nzones);
	for (i = 0; i < sc->nzones; i++) {
		const struct wm_rec_script_zone *z = &sc->z[i];

		if (z->branch == '-')
			continue;
		if (z->div_zero)
			reason(r, "zone %zu (managed %" PRId64 "): case B divides by managed/10000 = 0 in bc, "
			       "which fails, so the script leaves the zone out", i + 1, z->managed);
		else if (z->min_true >= 0 && z->min_read != z->min_true)
			reason(r, "zone %zu (managed %" PRId64 "): read min %" PRId64 " instead of %" PRId64 ", so case %c "
			       "gives %" PRId64 "", i + 1, z->managed, z->min_read, z->min_true,
			       z->branch, z->result);
	}
	if (sc->misread && sc->result_true != sc->result)
		reason(r, "with each zone's own min the script would have written %" PRId64 "",
		       sc->result_true);
	if (sc->result != r->ans.wanted && r->ans.wanted >= 0) {
		uint64_t short_pages = 0;
		struct wm_zone_wm *w = calloc(n, sizeof(*w));
		struct wm_sysctl s2 = r->now;

		s2.wsf = sc->result;
		s2.extra_free_kbytes = r->knob ? 0 : -1;
		if (w && sc->result >= 1 && sc->result <= r->s.prof.wsf_max &&
		    wm_setup_wmarks(&r->s.prof, &r->s.m, &s2, w, NULL) == WM_OK) {
			for (i = 0; i < n; i++)
				if (w[i].low < r->efk[i].target_low &&
				    r->efk[i].target_low - w[i].low > short_pages)
					short_pages = r->efk[i].target_low - w[i].low;
			if (short_pages)
				reason(r, "at the script's %" PRId64 " a zone's low watermark falls %" PRIu64 " pages "
				       "(%.1f MiB) short of its target", sc->result, short_pages,
				       mib(short_pages, ps));
			else
				reason(r, "the script's %" PRId64 " reaches every target but is larger than "
				       "needed", sc->result);
		}
		free(w);
	}
	if (sc->result > r->s.prof.wsf_max || sc->result < 1)
		reason(r, "the kernel refuses %" PRId64 " (EINVAL; it accepts 1..%" PRId64 ") and keeps the old "
		       "value: the script does not clamp", sc->result, r->s.prof.wsf_max);
}

static void burst_reasons(struct rec *r)
{
	unsigned ps = r->s.m.page_size;
	char zl[128];

	zone_list(r, r->usable, zl, sizeof(zl));
	reason(r, "a burst of %.1f MiB (%" PRIu64 " pages) must fit between kswapd's wake point (low) "
	       "and direct reclaim (min), summed over the zones a user-space allocation "
	       "can use: %s", (double)r->burst_bytes / 1048576.0, r->ans.gap_needed, zl);
	reason(r, "today those gaps hold %.1f MiB", mib(r->ans.gap_now, ps));
}

/* "over 60.0 s", or "between the two readings" when their times are unknown. */
static const char *period(const struct rec *r, char *buf, size_t n)
{
	if (r->mode == M_VMSTAT && r->seconds <= 0)
		snprintf(buf, n, "between the two readings");
	else
		snprintf(buf, n, "over %.1f s", r->ms.seconds);
	return buf;
}

static bool boost_zero(const struct rec *r);

static void tune_reasons(struct rec *r)
{
	reason(r, "from the tune log %s: %" PRId64 " periods, %" PRId64 " stalls, %" PRId64
	       " changes; it ended at wsf %" PRId64 "%s", r->from_tune, r->tl.periods, r->tl.stalls,
	       r->tl.writes, r->tl.wsf,
	       r->tl.settled ? ", settled (no change over the last third of the run)" :
	       ", still moving: a run too short to settle; take it as a place to start");
	if (!strcmp(r->tl.last_why, "at-bound"))
		reason(r, "the tune was held by its reserve bound (%.1f MiB): a larger gap might "
		       "have removed more stalls", mib((uint64_t)r->tl.max_reserve, r->s.m.page_size));
	if (r->tl.dry_run)
		reason(r, "the log is of a dry run or a replay: its decisions did not act on the "
		       "load, so the gap only grew; take it as an upper bound");
	if (r->ans.wsf != r->tl.wsf)
		reason(r, "wsf %" PRId64 " gives the same gaps here as the log's %" PRId64 "",
		       r->ans.wsf, r->tl.wsf);
	if (r->tl.boost == 0 && boost_zero(r))
		reason(r, "the tune set watermark_boost_factor to 0 (a stall while a zone was boosted)");
}

static void measure_reasons(struct rec *r)
{
	char per[64];

	const struct wm_rec_measure *ms = &r->ms;
	const struct wm_rec_decision *dc = &r->dec;
	unsigned ps = r->s.m.page_size;

	if (dc->direct) {
		reason(r, "direct reclaim was seen: allocstall +%llu, pgscan_direct +%llu, "
		       "pgsteal_direct +%llu %s",
		       (unsigned long long)ms->d[WM_REC_ALLOCSTALL],
		       (unsigned long long)ms->d[WM_REC_PGSCAN_DIRECT],
		       (unsigned long long)ms->d[WM_REC_PGSTEAL_DIRECT],
		       period(r, per, sizeof(per)));
		if (ms->time_resolved)
			reason(r, "the worst of %zu runs of direct reclaim lasted %.1f s from %.1f s: "
			       "allocation peaked at %.1f MiB/s while kswapd reclaimed %.1f MiB/s, and "
			       "direct reclaim had to find %.1f MiB (allocation beyond kswapd: "
			       "%.1f MiB, part of it served by pages freed meanwhile)",
			       ms->nbursts, ms->worst.seconds, ms->worst.start,
			       ms->worst.peak_alloc_rate * ps / 1048576.0,
			       ms->worst.kswapd_rate * ps / 1048576.0,
			       mib((uint64_t)dc->deficit, ps),
			       mib((uint64_t)ms->worst.drawdown, ps));
		else
			reason(r, "two readings cannot time a burst: the deficit is taken as what "
			       "direct reclaim had to find, pgsteal_direct = %.1f MiB (the sum over "
			       "every burst in between, so an upper bound)",
			       mib((uint64_t)dc->deficit, ps));
		if (dc->verdict == WM_REC_RAISE)
			reason(r, "the gaps must hold today's %.1f MiB (used up before the first "
			       "stall) plus that deficit: %.1f MiB", mib(r->ans.gap_now, ps),
			       mib(dc->need, ps));
		else
			reason(r, "direct reclaim scanned but stole nothing: the gap is not what ran "
			       "out (unreclaimable memory, or reclaim for a high-order allocation); "
			       "wsf stays");
	} else {
		reason(r, "no direct reclaim %s: allocstall and pgscan_direct did not move",
		       period(r, per, sizeof(per)));
	}
	if (ms->d[WM_REC_COMPACT_STALL])
		reason(r, "compact_stall +%llu: high-order allocations compacted memory; wsf does not "
		       "cure fragmentation (watermark_boost_factor acts on it)",
		       (unsigned long long)ms->d[WM_REC_COMPACT_STALL]);
	if (ms->d[WM_REC_PAGEOUTRUN] && ms->d[WM_REC_PGSTEAL_KSWAPD])
		reason(r, "kswapd ran %llu times and stole %.1f MiB a run on average; each run "
		       "reclaims from below the wake point (low) up to the stop point (high), "
		       "%.1f MiB above it today, plus whatever is allocated meanwhile",
		       (unsigned long long)ms->d[WM_REC_PAGEOUTRUN],
		       mib((uint64_t)(ms->d[WM_REC_PGSTEAL_KSWAPD] / ms->d[WM_REC_PAGEOUTRUN]), ps),
		       mib(r->ans.gap_now, ps));
	if (!dc->direct) {
		if (dc->refault_pct < 0)
			reason(r, "kswapd reclaimed nothing: the watermarks were not reached");
		else
			reason(r, "kswapd stole %llu pages; %s came to %.0f%% of that (over-reclaim "
			       "from %d%%; all refaults: %llu, a stream larger than memory refaults "
			       "whatever the watermarks)",
			       (unsigned long long)ms->d[WM_REC_PGSTEAL_KSWAPD],
			       (ms->have & (1u << WM_REC_ACTIVATE)) ?
			       "working-set refaults (workingset_activate)" : "refaults",
			       dc->refault_pct, WM_REC_REFAULT_PCT,
			       (unsigned long long)ms->d[WM_REC_REFAULT]);
		if (dc->verdict == WM_REC_LOWER && ms->time_resolved)
			reason(r, "kswapd over-reclaims: aim the gaps at %.1f MiB (today's less the "
			       "refault share, at least the %.1f MiB kswapd's wake point had to "
			       "absorb)", mib(dc->need, ps),
			       mib((uint64_t)ms->kswapd_deficit, ps));
		else if (dc->verdict == WM_REC_LOWER)
			reason(r, "kswapd over-reclaims: aim the gaps at %.1f MiB (today's less the "
			       "refault share; two readings cannot tell what kswapd's wake point "
			       "had to absorb: --sample can)", mib(dc->need, ps));
		else if (dc->refault_pct >= WM_REC_REFAULT_PCT)
			reason(r, "kswapd's wake point had to absorb %.1f MiB, no less than today's "
			       "gaps: keep watermark_scale_factor %" PRId64 "",
			       mib((uint64_t)ms->kswapd_deficit, ps), r->now.wsf);
		else
			reason(r, "nothing calls for a change: keep watermark_scale_factor %" PRId64 "",
			       r->now.wsf);
	}
	if (ms->psi)
		reason(r, "PSI memory: some %.2f s, full %.2f s stalled %s",
		       (double)ms->psi_some_us / 1e6, (double)ms->psi_full_us / 1e6,
		       period(r, per, sizeof(per)));
}

/* Pages: the most boost the factor lets the usable zones reach, summed. */
static uint64_t boost_allowed(const struct rec *r)
{
	uint64_t a = 0;
	size_t i;

	for (i = 0; i < r->s.m.nzones; i++)
		if (r->usable[i])
			a += wm_boost_max(&r->s.prof, r->s.m.zones[i].managed,
					  r->model_now[i].wm.high, r->now.boost_factor,
					  r->s.m.pageblock_pages);
	return a;
}

static bool boost_zero(const struct rec *r)
{
	if (r->mode == M_TUNE)
		return r->tl.boost == 0 && (r->now.have & WM_HAVE_BOOST) && r->now.boost_factor != 0;
	return r->bmeasured && r->bdec.action == WM_REC_BOOST_ZERO;
}

/* What kswapd's runs for a boost alone reclaimed, and what came back soon after. */
static void boost_reclaim_reason(struct rec *r, const struct wm_boost_evidence *ev,
				 unsigned ps)
{
	if (!ev->kswapd_boost_runs)
		return;
	if (ev->refaults_counted)
		reason(r, "those %zu boost-only runs reclaimed %.1f MiB; %llu pages refaulted in "
		       "their intervals and the one after each (at most what they evicted and "
		       "was wanted back: other reclaim refaults too)", ev->kswapd_boost_runs,
		       mib((uint64_t)ev->boost_reclaimed, ps),
		       (unsigned long long)ev->boost_refaults);
	else
		reason(r, "those %zu boost-only runs reclaimed %.1f MiB (the readings carry no "
		       "refault counter)", ev->kswapd_boost_runs,
		       mib((uint64_t)ev->boost_reclaimed, ps));
}

static void boost_reasons(struct rec *r)
{
	const struct wm_boost_evidence *ev = &r->bev;
	const struct wm_rec_boost *b = &r->bdec;
	unsigned ps = r->s.m.page_size;
	bool once = r->mode != M_SAMPLE && r->mode != M_REPLAY;
	uint64_t peak = b->headroom, allowed;

	if (!r->bmeasured)
		return;
	switch (b->action) {
	case WM_REC_BOOST_NONE:
		reason(r, "this kernel has no watermark boost (5.0+): watermark_scale_factor "
		       "is the only lever");
		return;
	case WM_REC_BOOST_OFF:
		reason(r, "watermark_boost_factor is 0: no boost raises the watermarks");
		return;
	default:
		break;
	}
	allowed = boost_allowed(r);
	if (ev->hidden)
		reason(r, "this kernel prints no boost line (5.0-5.15): a boost was read as min, "
		       "low and high risen together by whole pageblocks of %" PRIu64 " pages",
		       r->s.m.pageblock_pages);
	if (ev->odd_moves)
		reason(r, "%zu zone readings moved min, low or high otherwise than a boost does "
		       "(a recompute), and were not counted as boost", ev->odd_moves);
	if (!once && ev->fallbacks_counted)
		reason(r, "the kernel counted %llu pageblock fallbacks (kmem:mm_page_alloc_extfrag) "
		       "in %zu of %zu intervals, at most %llu in one; each that tries to claim a "
		       "pageblock raises the boost by one pageblock, and kswapd clears it often "
		       "before the next reading, so an interval with a fallback counts as boosted",
		       (unsigned long long)ev->fallbacks, ev->fallback_intervals,
		       ev->nsamples > 0 ? ev->nsamples - 1 : 0,
		       (unsigned long long)ev->fallback_peak);
	else if (!once && r->fbc_why[0])
		reason(r, "pageblock fallbacks were not counted: %s; boosts shorter than a "
		       "reading's interval go unseen", r->fbc_why);
	switch (b->action) {
	case WM_REC_BOOST_IDLE:
		if (once)
			reason(r, "zoneinfo, read once, shows no boost (--sample watches it over "
			       "time): watermark_boost_factor %" PRId64 " stays", r->now.boost_factor);
		else
			reason(r, "no zone was boosted in %zu readings of zoneinfo: "
			       "watermark_boost_factor %" PRId64 " stays (it would allow up to %.1f MiB "
			       "in the usable zones)", ev->nsamples, r->now.boost_factor,
			       mib(allowed, ps));
		break;
	case WM_REC_BOOST_HARMLESS:
		if (once)
			reason(r, "zoneinfo, read once, shows a boost of %.1f MiB in the usable "
			       "zones; two vmstat readings cannot tell whether allocations stalled "
			       "during it (--sample can): watermark_boost_factor %" PRId64 " stays",
			       mib(peak, ps), r->now.boost_factor);
		else if (!ev->boosted && !ev->kswapd_boost_runs)
			reason(r, "pageblocks fell back in %zu intervals, but no allocation stalled in "
			       "one of them (nor did zoneinfo show a boost): watermark_boost_factor "
			       "%" PRId64 " stays (it allows %.1f MiB in the usable zones)",
			       ev->fallback_intervals, r->now.boost_factor, mib(allowed, ps));
		else
			reason(r, "zones were boosted in %zu of %zu readings (at most %.1f MiB in "
			       "the usable zones; watermark_boost_factor %" PRId64 " allows %.1f MiB), "
			       "kswapd ran %zu times for a boost alone, and no allocation stalled "
			       "during a boost: the factor stays (boosted kswapd passes reclaim "
			       "clean page cache only, without swap or writeback)", ev->boosted,
			       ev->nsamples, mib(peak, ps), r->now.boost_factor, mib(allowed, ps),
			       ev->kswapd_boost_runs);
		boost_reclaim_reason(r, ev, ps);
		break;
	case WM_REC_BOOST_ZERO:
		reason(r, "allocations stalled during boosts: %llu of %llu stalls came while a "
		       "zone was boosted or pageblocks fell back (at most %.1f MiB in the usable zones; "
		       "watermark_boost_factor %" PRId64 " allows %.1f MiB); a boost raises min with "
		       "low and high, so allocations stall that much sooner: set "
		       "watermark_boost_factor 0",
		       (unsigned long long)ev->stalls_boosted, (unsigned long long)ev->stalls,
		       mib(peak, ps), r->now.boost_factor, mib(allowed, ps));
		if (r->dec.verdict == WM_REC_RAISE && ev->stalls_boosted == ev->stalls)
			reason(r, "every stall came during a boost: without it the gaps need hold "
			       "today's %.1f MiB plus what of the %.1f MiB deficit the boost does "
			       "not explain: %.1f MiB", mib(r->ans.gap_now, ps),
			       mib((uint64_t)r->dec.deficit, ps), mib(b->need, ps));
		if (ev->kswapd_boost_runs)
			reason(r, "kswapd also ran %zu times for a boost alone, reclaiming clean "
			       "page cache while free memory was above the unboosted low",
			       ev->kswapd_boost_runs);
		boost_reclaim_reason(r, ev, ps);
		break;
	default:
		break;
	}
}

/* The 2018 RFC's sqrt-clamped low->high step at today's wsf. */
static void sqrt_reason(struct rec *r)
{
	uint64_t g = 0, gs = 0;
	size_t i;

	for (i = 0; i < r->s.m.nzones; i++) {
		if (!r->usable[i])
			continue;
		g += r->model_now[i].wm.gap;
		gs += r->model_now[i].wm.gap_sqrt;
	}
	if (gs < g)
		reason(r, "the 2018 RFC's sqrt-clamped high watermark would keep today's wake "
		       "points and stop kswapd %.1f MiB above them instead of %.1f MiB, cutting "
		       "each kswapd run without narrowing the min->low gap",
		       mib(gs, r->s.m.page_size), mib(g, r->s.m.page_size));
	else
		reason(r, "the 2018 RFC's sqrt-clamped high watermark would change nothing here: "
		       "its lower clamp, a quarter of min, is today's gap");
}

/* ---- output ----------------------------------------------------------- */

static unsigned rcols(const struct rec *r)
{
	switch (r->mode) {
	case M_EXTRA:
		return RC_EXTRA;
	case M_BURST:
	case M_SAMPLE:
	case M_VMSTAT:
	case M_REPLAY:
	case M_TUNE:
		return RC_USABLE;
	default:
		return 0;
	}
}

static size_t build_rows(const struct rec *r, struct rzone *rows)
{
	size_t i, k = 0;

	for (i = 0; i < r->s.m.nzones; i++) {
		int64_t zi = r->s.zone_map[i];
		const struct zi_zone *z = zi >= 0 ? &r->s.zi.zones[zi] : NULL;
		const struct wm_predicted *a = &r->after[i];
		struct rzone *o = &rows[k];

		if (!z)
			continue;
		o->node = z->node;
		o->zone = z->name;
		o->managed = (int64_t)r->s.m.zones[i].managed;
		o->usable = r->usable[i];
		o->wsf_floor = r->s.m.zones[i].managed ? a->wm.wsf_floor : RV_NONE;
		o->gap_now = (int64_t)(z->low - z->min);
		o->gap_after = (int64_t)a->wm.gap;
		o->low_now = (int64_t)z->low;
		o->low_after = (int64_t)(a->wm.low + a->boost);
		o->high_now = (int64_t)z->high;
		o->high_after = (int64_t)(a->wm.high + a->boost);
		o->extra = r->efk ? (int64_t)r->efk[i].extra : RV_NONE;
		o->target_low = r->efk ? (int64_t)r->efk[i].target_low : RV_NONE;
		o->need_wsf = r->efk ? r->efk[i].need_wsf : RV_NONE;
		k++;
	}
	return k;
}

static const char *verdict(const struct rec *r)
{
	return wm_rec_verdict_name(wm_rec_final_verdict(r->measured, r->dec.verdict, &r->ans,
							r->now.wsf));
}

static void apply_line(const struct rec *r, char *buf, size_t n)
{
	if (r->mode == M_EXTRA && r->knob)
		snprintf(buf, n, "wmark apply --extra-free-kbytes %" PRId64 "", r->extra_kb);
	else
		snprintf(buf, n, "wmark apply --wsf %" PRId64 "%s", r->ans.wsf,
			 boost_zero(r) ? " --boost-factor 0" : "");
}

static cJSON *json_measure(const struct rec *r)
{
	const struct wm_rec_measure *ms = &r->ms;
	unsigned ps = r->s.m.page_size;
	cJSON *o = cJSON_CreateObject(), *b;
	int c;

	if (r->mode == M_VMSTAT && r->seconds <= 0)
		cJSON_AddNullToObject(o, "seconds");
	else
		cJSON_AddNumberToObject(o, "seconds", ms->seconds);
	cJSON_AddNumberToObject(o, "samples", (double)ms->nsamples);
	cJSON_AddBoolToObject(o, "time_resolved", ms->time_resolved);
	for (c = 0; c < WM_REC_NCTR; c++) {
		if (ms->have & (1u << c))
			cJSON_AddItemToObject(o, wm_rec_ctrs[c].json, json_counter(ms->d[c]));
		else
			cJSON_AddNullToObject(o, wm_rec_ctrs[c].json);
	}
	if (ms->psi) {
		cJSON_AddNumberToObject(o, "psi_some_us", (double)ms->psi_some_us);
		cJSON_AddNumberToObject(o, "psi_full_us", (double)ms->psi_full_us);
	} else {
		cJSON_AddNullToObject(o, "psi_some_us");
		cJSON_AddNullToObject(o, "psi_full_us");
	}
	if (ms->time_resolved)
		cJSON_AddNumberToObject(o, "peak_alloc_mib_s",
					round(ms->peak_alloc_rate * ps / 1048576.0 * 10) / 10);
	else
		cJSON_AddNullToObject(o, "peak_alloc_mib_s");
	cJSON_AddNumberToObject(o, "bursts", (double)ms->nbursts);
	if (ms->nbursts && ms->time_resolved) {
		b = cJSON_AddObjectToObject(o, "worst_burst");
		cJSON_AddNumberToObject(b, "start_s", ms->worst.start);
		cJSON_AddNumberToObject(b, "seconds", ms->worst.seconds);
		cJSON_AddItemToObject(b, "pgalloc", json_counter(ms->worst.alloc));
		cJSON_AddItemToObject(b, "pgsteal_kswapd", json_counter(ms->worst.kswapd_steal));
		cJSON_AddItemToObject(b, "pgsteal_direct", json_counter(ms->worst.direct_steal));
		cJSON_AddItemToObject(b, "allocstall", json_counter(ms->worst.stalls));
		cJSON_AddItemToObject(b, "drawdown_pages", json_counter(ms->worst.drawdown));
		cJSON_AddNumberToObject(b, "peak_alloc_mib_s",
					round(ms->worst.peak_alloc_rate * ps / 1048576.0 * 10) / 10);
		cJSON_AddNumberToObject(b, "kswapd_mib_s",
					round(ms->worst.kswapd_rate * ps / 1048576.0 * 10) / 10);
	} else {
		cJSON_AddNullToObject(o, "worst_burst");
	}
	cJSON_AddItemToObject(o, "deficit_pages", json_counter(r->dec.deficit));
	cJSON_AddItemToObject(o, "kswapd_deficit_pages", json_counter(ms->kswapd_deficit));
	if (r->dec.refault_pct >= 0)
		cJSON_AddNumberToObject(o, "refault_pct", round(r->dec.refault_pct * 10) / 10);
	else
		cJSON_AddNullToObject(o, "refault_pct");
	return o;
}

static cJSON *json_boost(const struct rec *r)
{
	const struct wm_boost_evidence *ev = &r->bev;
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "action", wm_rec_boost_action_name(r->bdec.action));
	json_add_long(o, "factor_now", (r->now.have & WM_HAVE_BOOST) ? r->now.boost_factor : RV_NONE);
	json_add_long(o, "factor_recommended", r->bdec.factor < 0 ? RV_NONE : r->bdec.factor);
	cJSON_AddNumberToObject(o, "readings", (double)ev->nsamples);
	cJSON_AddNumberToObject(o, "boosted_readings", (double)ev->boosted);
	cJSON_AddNumberToObject(o, "rises", (double)ev->rises);
	cJSON_AddBoolToObject(o, "hidden", ev->hidden);
	cJSON_AddNumberToObject(o, "odd_moves", (double)ev->odd_moves);
	cJSON_AddNumberToObject(o, "peak_pages", (double)r->bdec.headroom);
	cJSON_AddNumberToObject(o, "allowed_pages",
				(r->now.have & WM_HAVE_BOOST) ? (double)boost_allowed(r) : 0);
	cJSON_AddNumberToObject(o, "kswapd_boost_runs", (double)ev->kswapd_boost_runs);
	cJSON_AddItemToObject(o, "boost_reclaimed_pages", json_counter(ev->boost_reclaimed));
	if (ev->refaults_counted)
		cJSON_AddItemToObject(o, "refaults_after_boost", json_counter(ev->boost_refaults));
	else
		cJSON_AddNullToObject(o, "refaults_after_boost");
	cJSON_AddItemToObject(o, "stalls", json_counter(ev->stalls));
	cJSON_AddItemToObject(o, "stalls_during_boost", json_counter(ev->stalls_boosted));
	if (ev->fallbacks_counted) {
		cJSON_AddItemToObject(o, "fallbacks", json_counter(ev->fallbacks));
		cJSON_AddNumberToObject(o, "fallback_intervals", (double)ev->fallback_intervals);
		cJSON_AddItemToObject(o, "fallback_peak", json_counter(ev->fallback_peak));
		cJSON_AddNullToObject(o, "fallbacks_why_not");
	} else {
		cJSON_AddNullToObject(o, "fallbacks");
		cJSON_AddNullToObject(o, "fallback_intervals");
		cJSON_AddNullToObject(o, "fallback_peak");
		if (r->fbc_why[0])
			cJSON_AddStringToObject(o, "fallbacks_why_not", r->fbc_why);
		else
			cJSON_AddNullToObject(o, "fallbacks_why_not");
	}
	cJSON_AddItemToObject(o, "gap_needed_pages", json_counter(r->bdec.need));
	return o;
}

static cJSON *json_script(const struct rec *r)
{
	const struct wm_rec_script *sc = &r->script;
	cJSON *o = cJSON_CreateObject(), *zs;
	size_t i;

	cJSON_AddNumberToObject(o, "wsf", (double)sc->result);
	cJSON_AddNumberToObject(o, "wsf_with_true_min", (double)sc->result_true);
	cJSON_AddNumberToObject(o, "base_wsf", (double)sc->base_wsf);
	cJSON_AddNumberToObject(o, "extra_pages", (double)sc->extra_pages);
	cJSON_AddNumberToObject(o, "vm_total_pages", (double)sc->vm_total);
	cJSON_AddNumberToObject(o, "delta", (double)sc->delta);
	cJSON_AddNumberToObject(o, "managed_lines", (double)sc->nzones);
	cJSON_AddNumberToObject(o, "min_lines", (double)sc->nmin);
	cJSON_AddBoolToObject(o, "misread_min", sc->misread);
	cJSON_AddBoolToObject(o, "kernel_accepts", sc->result >= 1 && sc->result <= r->s.prof.wsf_max);
	zs = cJSON_AddArrayToObject(o, "zones");
	for (i = 0; i < sc->nzones; i++) {
		const struct wm_rec_script_zone *z = &sc->z[i];
		cJSON *zo = cJSON_CreateObject();
		char br[2] = { z->branch, 0 };

		cJSON_AddNumberToObject(zo, "managed", (double)z->managed);
		json_add_long(zo, "min_read", z->min_read < 0 ? RV_NONE : z->min_read);
		json_add_long(zo, "min_true", z->min_true < 0 ? RV_NONE : z->min_true);
		if (z->branch == '-') {
			cJSON_AddNullToObject(zo, "case");
		} else {
			cJSON_AddStringToObject(zo, "case", br);
			cJSON_AddNumberToObject(zo, "base_margin", (double)z->base_margin);
			cJSON_AddNumberToObject(zo, "calc_margin", (double)z->calc_margin);
		}
		cJSON_AddBoolToObject(zo, "bc_divide_by_zero", z->div_zero);
		json_add_long(zo, "wsf", z->result < 0 ? RV_NONE : z->result);
		cJSON_AddItemToArray(zs, zo);
	}
	return o;
}

static int print_json(struct rec *r, const struct rzone *rows, size_t nrows)
{
	cJSON *doc, *o, *a, *zs;
	unsigned ps = r->s.m.page_size;
	char line[128];
	size_t i;
	int j;

	doc = explain_json_head(&(struct explain_head){
		.source = r->s.live ? "live" : "capture",
		.kernel = r->s.osrelease[0] ? r->s.osrelease : "",
		.m = &r->s.m, .page_size_only = true });
	cJSON_AddStringToObject(doc, "mode", mode_names[r->mode]);
	o = cJSON_AddObjectToObject(doc, "recommended");
	if (r->mode == M_EXTRA && r->knob)
		cJSON_AddNumberToObject(o, "extra_free_kbytes", (double)r->extra_kb);
	else
		cJSON_AddNumberToObject(o, "watermark_scale_factor", (double)r->ans.wsf);
	if (boost_zero(r))
		cJSON_AddNumberToObject(o, "watermark_boost_factor", 0);
	a = cJSON_AddArrayToObject(doc, "reasons");
	for (j = 0; j < r->nreasons; j++)
		cJSON_AddItemToArray(a, cJSON_CreateString(r->reasons[j]));
	a = cJSON_AddArrayToObject(doc, "warnings");
	for (j = 0; j < r->nwarnings; j++)
		cJSON_AddItemToArray(a, cJSON_CreateString(r->warnings[j]));
	cJSON_AddStringToObject(doc, "verdict", verdict(r));
	o = cJSON_AddObjectToObject(doc, "wsf");
	cJSON_AddNumberToObject(o, "now", (double)r->now.wsf);
	cJSON_AddNumberToObject(o, "recommended", (double)r->ans.wsf);
	json_add_long(o, "wanted", r->ans.wanted < 0 ? RV_NONE : r->ans.wanted);
	cJSON_AddBoolToObject(o, "capped", r->ans.capped);
	cJSON_AddNumberToObject(o, "kernel_min", 1);
	cJSON_AddNumberToObject(o, "kernel_max", (double)r->s.prof.wsf_max);
	json_add_long(o, "floor_first", r->ans.floor_first < 0 ? RV_NONE : r->ans.floor_first);
	json_add_long(o, "floor_all", r->ans.floor_all < 0 ? RV_NONE : r->ans.floor_all);
	cJSON_AddItemToObject(doc, "sysctl", report_json_sysctl(&r->s.sysctl));
	o = cJSON_AddObjectToObject(doc, "gaps");
	cJSON_AddNumberToObject(o, "pages_now", (double)r->ans.gap_now);
	cJSON_AddNumberToObject(o, "pages_after", (double)r->ans.gap_after);
	cJSON_AddItemToObject(o, "pages_needed", json_counter(r->ans.gap_needed));
	cJSON_AddNumberToObject(o, "pages_at_wsf_1", (double)r->ans.gap_floor);
	cJSON_AddStringToObject(o, "zones", r->mode == M_EXTRA ? "all" : "usable");
	zs = cJSON_AddArrayToObject(doc, "zones");
	for (i = 0; i < nrows; i++) {
		cJSON *zo = cJSON_CreateObject();

		cJSON_AddNumberToObject(zo, "node", rows[i].node);
		cJSON_AddStringToObject(zo, "zone", rows[i].zone);
		fmt_json_fields(zo, rfields, NRFIELDS, rcols(r), &rows[i]);
		cJSON_AddItemToArray(zs, zo);
	}
	cJSON_AddItemToObject(doc, "reserve", explain_json_reserve(&r->rv, ps,
								 RESERVE_CHANGE | RESERVE_HUGETLB));
	if (r->mode == M_EXTRA) {
		o = cJSON_AddObjectToObject(doc, "extra_free_kbytes");
		cJSON_AddNumberToObject(o, "kbytes", (double)r->extra_kb);
		cJSON_AddBoolToObject(o, "kernel_has_knob", r->knob);
		json_add_long(o, "exact_wsf", r->ans.wanted < 0 ? RV_NONE : r->ans.wanted);
		if (r->script_ok)
			cJSON_AddItemToObject(o, "script", json_script(r));
		else
			cJSON_AddNullToObject(o, "script");
	}
	if (r->mode == M_BURST) {
		o = cJSON_AddObjectToObject(doc, "burst");
		cJSON_AddItemToObject(o, "bytes", json_counter(r->burst_bytes));
		cJSON_AddItemToObject(o, "pages", json_counter(r->ans.gap_needed));
	}
	if (r->measured)
		cJSON_AddItemToObject(doc, "measurements", json_measure(r));
	if (r->bmeasured)
		cJSON_AddItemToObject(doc, "boost", json_boost(r));
	apply_line(r, line, sizeof(line));
	cJSON_AddStringToObject(doc, "apply", line);
	return report_json_print(doc);
}

static void print_text(struct rec *r, const struct rzone *rows, size_t nrows)
{
	unsigned ps = r->s.m.page_size;
	char buf[32], line[128];
	int width[NRFIELDS];
	size_t i, k;
	int j;

	if (r->mode == M_EXTRA && r->knob)
		printf("Recommendation: extra_free_kbytes %" PRId64 " (this kernel has the knob); "
		       "watermark_scale_factor %" PRId64 " is the equivalent\n", r->extra_kb, r->ans.wsf);
	else
		printf("Recommendation: watermark_scale_factor %" PRId64 "%s (%s; today %" PRId64 "; the kernel "
		       "accepts 1..%" PRId64 ")\n", r->ans.wsf,
		       boost_zero(r) ? " and watermark_boost_factor 0" : "", verdict(r),
		       r->now.wsf, r->s.prof.wsf_max);
	for (j = 0; j < r->nwarnings; j++)
		printf("Warning: %s\n", r->warnings[j]);
	printf("Kernel %s rules, min_free_kbytes %" PRId64 ".\n",
	       r->s.osrelease[0] ? r->s.osrelease : "(default)", r->now.min_free_kbytes);
	fputs("\nWhy:\n", stdout);
	for (j = 0; j < r->nreasons; j++)
		printf("  - %s\n", r->reasons[j]);

	if (r->measured) {
		const struct wm_rec_measure *ms = &r->ms;

		char per[64];

		printf("\nMeasured %s (%zu readings%s):\n", period(r, per, sizeof(per)),
		       ms->nsamples, ms->time_resolved ? "" : ", no time resolution");
		for (k = 0; k < WM_REC_NCTR; k++) {
			if (!(ms->have & (1u << k)))
				snprintf(buf, sizeof(buf), "-");
			else
				snprintf(buf, sizeof(buf), "%s%llu", wm_rec_ctrs[k].level ? "" : "+",
					 (unsigned long long)ms->d[k]);
			printf("  %-30s %14s  %s\n", wm_rec_ctrs[k].json, buf, wm_rec_ctrs[k].what);
		}
		if (ms->psi)
			printf("  %-30s %14.3f  seconds some / %.3f full\n", "psi_memory",
			       (double)ms->psi_some_us / 1e6, (double)ms->psi_full_us / 1e6);
		if (ms->time_resolved)
			printf("  %-30s %14.1f  MiB/s (readings at most %.0f ms apart)\n", "peak_alloc",
			       ms->peak_alloc_rate * ps / 1048576.0, ms->interval * 1000);
	}

	printf("\nZones (MiB; wake = low, kswapd starts; stop = high, kswapd sleeps; floor = "
	       "smallest wsf that moves the gap):\n");
	fmt_widths(rfields, NRFIELDS, rows, sizeof(*rows), nrows, ps, width);
	printf("%-4s %-8s", "node", "zone");
	fmt_text_header(stdout, rfields, NRFIELDS, width, rcols(r), ps);
	putchar('\n');
	for (i = 0; i < nrows; i++) {
		printf("%-4d %-8s", rows[i].node, rows[i].zone);
		fmt_text_cells(stdout, rfields, NRFIELDS, width, rcols(r), ps, &rows[i]);
		putchar('\n');
	}

	printf("\nGaps summed over %s zones: %.1f MiB today, %.1f MiB after",
	       r->mode == M_EXTRA ? "all" : "the usable", mib(r->ans.gap_now, ps),
	       mib(r->ans.gap_after, ps));
	if (r->mode != M_EXTRA && r->ans.gap_needed)
		printf(", %.1f MiB needed", mib(r->ans.gap_needed, ps));
	printf(" (%.1f MiB at wsf 1).\n", mib(r->ans.gap_floor, ps));
	explain_text_reserve(stdout, &r->rv, ps, RESERVE_HUGETLB);
	apply_line(r, line, sizeof(line));
	printf("Apply with: %s\n", line);
}

/* ---- the command ------------------------------------------------------ */

const struct option cmd_recommend_opts[] = {
	{ "extra-free-kbytes", required_argument, NULL, O_EXTRA },
	{ "burst", required_argument, NULL, O_BURST },
	{ "sample", required_argument, NULL, O_SAMPLE },
	{ "interval", required_argument, NULL, O_INTERVAL },
	{ "vmstat-before", required_argument, NULL, O_BEFORE },
	{ "vmstat-after", required_argument, NULL, O_AFTER },
	{ "psi-before", required_argument, NULL, O_PSI_BEFORE },
	{ "psi-after", required_argument, NULL, O_PSI_AFTER },
	{ "seconds", required_argument, NULL, O_SECONDS },
	{ "record", required_argument, NULL, O_RECORD },
	{ "replay", required_argument, NULL, O_REPLAY },
	{ "from-tune", required_argument, NULL, O_FROM_TUNE },
	{ "vm-total-pages", required_argument, NULL, O_VM_TOTAL },
	{ "base-wsf", required_argument, NULL, O_BASE_WSF },
	{ "min-free-kbytes", required_argument, NULL, OPT_MFK },
	{ "wsf", required_argument, NULL, OPT_WSF },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_args(struct rec *r, int argc, char **argv)
{
	struct wm_diag d = { 0 };
	int c, oi, rc, modes = 0;
	int64_t secs;

	for (oi = 0; oi < r->ctx->args.nopt; oi++) {
		const char *arg = r->ctx->args.opt[oi].arg;

		c = r->ctx->args.opt[oi].code;
		switch (c) {
		case O_EXTRA:
			if (wm_parse_long(arg, 0, 2147483647L, &r->extra_kb, &d))
				return cli_usage(CMD, "--extra-free-kbytes: %s", d.msg);
			r->mode = M_EXTRA;
			modes++;
			break;
		case O_BURST:
			if (wm_parse_size(arg, &r->burst_bytes, &d))
				return cli_usage(CMD, "--burst: %s", d.msg);
			if (!r->burst_bytes)
				return cli_usage(CMD, "--burst: the size must be above 0");
			r->mode = M_BURST;
			modes++;
			break;
		case O_SAMPLE:
			if (wm_parse_long(arg, 1, MAX_SAMPLE_SECONDS, &r->sample_s, &d))
				return cli_usage(CMD, "--sample: %s", d.msg);
			r->mode = M_SAMPLE;
			modes++;
			break;
		case O_INTERVAL:
			if (wm_parse_long(arg, 10, 60000, &r->interval_ms, &d))
				return cli_usage(CMD, "--interval: %s", d.msg);
			break;
		case O_BEFORE:
			r->vm_before = arg;
			break;
		case O_AFTER:
			r->vm_after = arg;
			break;
		case O_PSI_BEFORE:
			r->psi_before = arg;
			break;
		case O_PSI_AFTER:
			r->psi_after = arg;
			break;
		case O_RECORD:
			r->record = arg;
			break;
		case O_REPLAY:
			r->replay = arg;
			r->mode = M_REPLAY;
			modes++;
			break;
		case O_FROM_TUNE:
			r->from_tune = arg;
			r->mode = M_TUNE;
			modes++;
			break;
		case O_SECONDS:
			if (wm_parse_long(arg, 1, 2147483647L, &secs, &d))
				return cli_usage(CMD, "--seconds: %s", d.msg);
			r->seconds = (double)secs;
			break;
		case O_VM_TOTAL:
			if (wm_parse_long(arg, 1, (int64_t)2147483647 * 1024, &r->vm_total, &d))
				return cli_usage(CMD, "--vm-total-pages: %s", d.msg);
			break;
		case O_BASE_WSF:
			if (wm_parse_long(arg, 1, 2147483647L, &r->base_wsf, &d))
				return cli_usage(CMD, "--base-wsf: %s", d.msg);
			break;
		case OPT_MFK:
		case OPT_WSF:
			if ((rc = opts_knob(CMD, c, arg, &r->given)))
				return rc;
			break;
		case 'h':
			rec_usage();
			return -1;
		default:
			return cli_opt_unhandled(CMD, c);
		}
	}
	if (r->ctx->args.noperand)
		return cli_usage(CMD, "unexpected argument '%s'", r->ctx->args.operand[0]);
	if (!!r->vm_before != !!r->vm_after)
		return cli_usage(CMD, "--vmstat-before and --vmstat-after go together");
	if (!!r->psi_before != !!r->psi_after)
		return cli_usage(CMD, "--psi-before and --psi-after go together");
	if (r->psi_before && !r->vm_before)
		return cli_usage(CMD, "--psi-before/--psi-after need --vmstat-before/--vmstat-after");
	if (r->vm_before) {
		r->mode = M_VMSTAT;
		modes++;
	}
	if (modes != 1)
		return cli_usage(CMD, modes ? "give one mode only" :
				 "give a mode: --extra-free-kbytes, --burst, --sample, --replay, --from-tune or "
				 "--vmstat-before/--vmstat-after");
	if (r->record && r->mode != M_SAMPLE)
		return cli_usage(CMD, "--record goes with --sample");
	if (r->vm_total >= 0 && r->mode != M_EXTRA)
		return cli_usage(CMD, "--vm-total-pages goes with --extra-free-kbytes");
	if (r->base_wsf >= 0 && r->mode != M_EXTRA)
		return cli_usage(CMD, "--base-wsf goes with --extra-free-kbytes");
	if (r->mode == M_SAMPLE && r->sample_s * 1000 / r->interval_ms >= MAX_SAMPLES)
		return cli_usage(CMD, "--sample %" PRId64 " at --interval %" PRId64 " takes %d readings or more: "
				 "sample less or less often", r->sample_s, r->interval_ms, MAX_SAMPLES);
	if (r->seconds > 0 && r->mode != M_VMSTAT)
		return cli_usage(CMD, "--seconds goes with --vmstat-before/--vmstat-after");
	return EXIT_OK;
}

static void rec_free(struct rec *r)
{
	int j;

	for (j = 0; j < r->nreasons; j++)
		free(r->reasons[j]);
	for (j = 0; j < r->nwarnings; j++)
		free(r->warnings[j]);
	free(r->model_now);
	free(r->after);
	free(r->usable);
	free(r->efk);
	free(r->bobs);
	free(r->bpeak);
	if (r->fbc_on)
		tp_counter_close(&r->fbc);
}

int cmd_recommend(struct cli_ctx *ctx, int argc, char **argv)
{
	struct rec r;
	struct wm_sysctl sc_after;
	struct rzone *rows = NULL;
	size_t n, nrows;
	unsigned recomputes;
	int rc, j;

	memset(&r, 0, sizeof(r));
	r.ctx = ctx;
	r.interval_ms = 100;
	r.vm_total = r.base_wsf = r.kept_from = -1;
	rc = parse_args(&r, argc, argv);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if ((rc = snapshot_read(ctx, &r.s)))
		return rc;
	if ((rc = snapshot_change(&r.s, CMD, &r.given, &r.now, &recomputes, "")))
		goto out;
	{
		/* the same rule, and so the same answer, as whatif --wsf and apply --wsf */
		struct wm_diag d = { 0 };

		if (wm_knob_exists(&r.s.prof, WM_KNOB_WSF, &d)) {
			rc = cli_err(EXIT_USAGE, CMD, "%s: nothing to recommend", d.msg);
			goto out;
		}
	}
	r.knob = (r.s.sysctl.have & WM_HAVE_EXTRA) != 0;
	if (r.vm_total >= 0)
		r.s.m.vm_total_pages = (uint64_t)r.vm_total;
	r.in.prof = &r.s.prof;
	r.in.m = &r.s.m;
	r.in.now = &r.now;
	n = r.s.m.nzones;
	r.model_now = calloc(n ? n : 1, sizeof(*r.model_now));
	r.after = calloc(n ? n : 1, sizeof(*r.after));
	r.usable = calloc(n ? n : 1, sizeof(*r.usable));
	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!r.model_now || !r.after || !r.usable || !rows) {
		rc = cli_err(EXIT_SYSTEM, CMD, "out of memory");
		goto out;
	}
	if ((rc = snapshot_predict(&r.s, &r.now, WM_RECOMPUTE_WMARKS, r.model_now)))
		goto out;
	{
		struct wm_zone_wm *w = calloc(n ? n : 1, sizeof(*w));
		size_t i;

		if (!w) {
			rc = cli_err(EXIT_SYSTEM, CMD, "out of memory");
			goto out;
		}
		for (i = 0; i < n; i++)
			w[i] = r.model_now[i].wm;
		r.class_idx = wm_rec_class_idx(&r.s.m);
		wm_rec_usable(&r.s.m, w, r.class_idx, r.usable);
		free(w);
	}

	switch (r.mode) {
	case M_EXTRA:
		rc = run_extra(&r);
		break;
	case M_BURST:
		rc = run_burst(&r);
		break;
	case M_TUNE:
		rc = run_from_tune(&r);
		break;
	default:
		rc = run_measure(&r);
		break;
	}
	if (rc)
		goto out;

	r.kept_from = wm_rec_keep_below_floor(&r.ans, r.now.wsf);

	sc_after = r.now;
	sc_after.wsf = r.ans.wsf;
	if (boost_zero(&r))
		sc_after.boost_factor = 0;
	if (r.mode == M_EXTRA && r.knob)
		sc_after.extra_free_kbytes = r.extra_kb;
	if ((rc = snapshot_predict(&r.s, &sc_after, WM_RECOMPUTE_WMARKS, r.after)))
		goto out;
	snapshot_reserve(&r.s, r.after, &r.rv);

	switch (r.mode) {
	case M_EXTRA:
		extra_reasons(&r);
		break;
	case M_BURST:
		burst_reasons(&r);
		break;
	case M_TUNE:
		tune_reasons(&r);
		break;
	default:
		measure_reasons(&r);
		boost_reasons(&r);
		if (r.dec.verdict == WM_REC_LOWER)
			sqrt_reason(&r);
		break;
	}
	if (r.kept_from >= 0)
		reason(&r, "wsf %" PRId64 " would do, but every wsf from %" PRId64 " to %" PRId64 " gives the same gaps: "
		       "keep %" PRId64 "", r.kept_from, r.kept_from, r.now.wsf, r.now.wsf);
	floor_reason(&r);
	if (r.ans.capped) {
		if (r.ans.wanted > 0)
			warning(&r, "the target needs wsf %" PRId64 ", beyond this kernel's maximum %" PRId64 ": "
				"capped at %" PRId64 ", which holds %.1f MiB of the %.1f MiB needed",
				r.ans.wanted, r.s.prof.wsf_max, r.ans.wsf,
				mib(r.ans.gap_after, r.s.m.page_size),
				mib(r.ans.gap_needed, r.s.m.page_size));
		else
			warning(&r, "no wsf up to %d reaches the target: capped at %" PRId64 "",
				WM_REC_WSF_CEILING, r.ans.wsf);
	}

	nrows = build_rows(&r, rows);
	if (ctx->format == FMT_JSON)
		rc = print_json(&r, rows, nrows);
	else
		print_text(&r, rows, nrows);
	for (j = 0; j < r.nwarnings; j++)
		cli_err(0, CMD, "warning: %s", r.warnings[j]);
	if (!rc && r.ans.capped)
		rc = EXIT_CHECK;
out:
	free(rows);
	rec_free(&r);
	snapshot_free(&r.s);
	return rc;
}
