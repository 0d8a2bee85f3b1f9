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
#include "recommend.h"
#include "report.h"
#include "sig.h"
#include "snapshot.h"
#include "tracecount.h"

enum {
	O_EXTRA = 400, O_BURST, O_SAMPLE, O_INTERVAL, O_BEFORE, O_AFTER,
	O_PSI_BEFORE, O_PSI_AFTER, O_SECONDS, O_VM_TOTAL, O_BASE_WSF, O_RECORD, O_REPLAY,
	O_FROM_TUNE,
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

void rec_reason(struct rec *r, const char *fmt, ...)
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

double rec_mib(uint64_t pages, unsigned page_size)
{
	return (double)pages * page_size / 1048576.0;
}

/* ---- the modes -------------------------------------------------------- */

const char *rec_zname(const struct rec *r, size_t i)
{
	int64_t k = r->s.st.layout.printed[i];

	return k >= 0 ? r->s.st.zi.zones[k].name : wm_zone_type_name(r->s.st.m.zones[i].type);
}

/* "DMA32 and Normal" style list of the zones flagged in sel. */
void rec_zone_list(const struct rec *r, const bool *sel, char *buf, size_t n)
{
	size_t i, cnt = 0, k = 0, total = 0;

	for (i = 0; i < r->s.st.m.nzones; i++)
		total += sel[i];
	buf[0] = '\0';
	for (i = 0; i < r->s.st.m.nzones; i++) {
		if (!sel[i])
			continue;
		cnt++;
		if (r->s.st.zi.nnodes > 1)
			k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%snode %d %s",
					      cnt == 1 ? "" : cnt == total ? " and " : ", ",
					      r->s.st.m.zones[i].node, rec_zname(r, i));
		else
			k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%s%s",
					      cnt == 1 ? "" : cnt == total ? " and " : ", ",
					      rec_zname(r, i));
		if (k >= n)
			break;
	}
	if (!total)
		snprintf(buf, n, "no zone");
}

static int run_extra(struct rec *r)
{
	struct wm_diag d = { 0 };
	size_t i, k, n = r->s.st.m.nzones, tlen;
	int64_t *true_min;
	size_t ntrue = 0;
	const char *text;
	char *lf = NULL;
	int rc;

	r->efk = calloc(n ? n : 1, sizeof(*r->efk));
	true_min = calloc(r->s.st.zi.nzones ? r->s.st.zi.nzones : 1, sizeof(*true_min));
	if (!r->efk || !true_min) {
		free(true_min);
		return cli_err(EXIT_SYSTEM, CMD, "out of memory");
	}
	if ((rc = wm_rec_extra_free(&r->in, r->extra_kb, r->efk, &r->ans, &d))) {
		free(true_min);
		return cli_diag(CMD, rc, &d);
	}
	/* the script's view: zones in file order that print a managed line */
	for (i = 0; i < r->s.st.zi.nzones; i++)
		if (r->s.st.zi.zones[i].flags & ZI_HAS_MANAGED)
			true_min[ntrue++] = (r->s.st.zi.zones[i].flags & ZI_HAS_MIN) ?
					    (int64_t)r->s.st.zi.zones[i].min : -1;
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
				     r->extra_kb, r->s.st.m.page_size, &r->script, &d) == WM_OK;
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

	if ((e = rec_read_user(r->from_tune, &buf, &len)))
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
	if (r->tl.wsf < 1 || r->tl.wsf > r->s.st.kernel.prof.wsf_max)
		return cli_err(EXIT_USAGE, CMD, "%s: the log's wsf %" PRId64 " is outside 1..%" PRId64
			       " of this kernel: a log of another machine?", r->from_tune, r->tl.wsf,
			       r->s.st.kernel.prof.wsf_max);

	/* The summed usable gap at the log's wsf, then the smallest wsf giving it. */
	{
		struct wm_sysctl sc = r->now;
		struct wm_predicted *at = calloc(r->s.st.m.nzones ? r->s.st.m.nzones : 1, sizeof(*at));
		size_t i;

		if (!at)
			return cli_err(EXIT_SYSTEM, CMD, "out of memory");
		sc.wsf = r->tl.wsf;
		rc = snapshot_predict(&r->s, &sc, WM_RECOMPUTE_WMARKS, at);
		for (i = 0; rc == EXIT_OK && i < r->s.st.m.nzones; i++)
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
	uint64_t pages = (r->burst_bytes + r->s.st.m.page_size - 1) / r->s.st.m.page_size;
	int rc;

	if ((rc = wm_rec_for_gap(&r->in, r->usable, (uint64_t)pages, &r->ans, &d)))
		return cli_diag(CMD, rc, &d);
	return EXIT_OK;
}

/*
 * Boost evidence: the live readings of --sample with their vmstat
 * samples vm (NULL: files, where the snapshot's zoneinfo is the one
 * reading there is).
 */
static int measure_boost(struct rec *r, const struct wm_rec_sample *vm, struct wm_diag *d)
{
	size_t nz = r->s.st.m.nzones;

	r->bpeak = calloc(nz ? nz : 1, sizeof(*r->bpeak));
	if (!r->bpeak)
		return wm_fail(d, WM_ENOMEM, 0, NULL, "out of memory");
	if (!vm) {
		free(r->bobs);
		r->bobs = calloc(nz ? nz : 1, sizeof(*r->bobs));
		if (!r->bobs)
			return wm_fail(d, WM_ENOMEM, 0, NULL, "out of memory");
		rec_boost_obs_of(r, &r->s.st.zi, r->bobs);
		r->nbobs = 1;
	}
	return wm_boost_evidence(&r->s.st.kernel.prof, &r->s.st.m, NULL, r->bobs, vm, r->nbobs,
				 (r->now.have & WM_HAVE_BOOST) ? r->now.boost_factor : -1,
				 r->bpeak, &r->bev, d);
}

/* Pages: what the raised min took in the usable zones (wm_boost_headroom). */
static uint64_t boost_headroom(const struct rec *r)
{
	return wm_boost_headroom(&r->s.st.m, r->usable, r->bpeak,
				 (r->now.have & WM_HAVE_BOOST) ? rec_boost_allowed(r) : 0, &r->bev);
}

static int run_measure(struct rec *r)
{
	struct wm_rec_sample two[2], *s = two;
	struct wm_diag d = { 0 };
	struct wm_rec_answer cur;
	size_t n = 2;
	int rc;

	if (r->mode == M_SAMPLE) {
		rc = rec_sample_live(r, &s, &n);
		if (rc == EXIT_OK && r->record && (rc = rec_record_write(r, s, n)))
			free(s);
	} else if (r->mode == M_REPLAY) {
		rc = rec_replay_read(r, &s, &n);
	} else {
		rc = rec_sample_files(r, two);
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
	wm_rec_boost_decide(&r->s.st.kernel.prof, (r->now.have & WM_HAVE_BOOST) ? r->now.boost_factor : -1,
			    &r->bev, boost_headroom(r), &r->dec, cur.gap_now, &r->bdec);
	r->bmeasured = true;
	if ((rc = wm_rec_for_gap(&r->in, r->usable, r->bdec.need, &r->ans, &d)))
		return cli_diag(CMD, rc, &d);
	if (r->dec.verdict == WM_REC_KEEP)
		wm_rec_keep(&r->ans, r->now.wsf);
	return EXIT_OK;
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

static int parse_args(struct rec *r)
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
	rc = parse_args(&r);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if ((rc = snapshot_read(ctx, &r.s)))
		return rc;
	if ((rc = snapshot_change(&r.s, CMD, &r.given, &r.now, &recomputes, "")))
		goto out;
	{
		/* the same rule, and so the same answer, as whatif --wsf and apply --wsf */
		struct wm_diag d = { 0 };

		if (wm_knob_exists(&r.s.st.kernel.prof, WM_KNOB_WSF, &d)) {
			rc = cli_err(EXIT_USAGE, CMD, "%s: nothing to recommend", d.msg);
			goto out;
		}
	}
	r.knob = (r.s.st.sysctl.have & WM_HAVE_EXTRA) != 0;
	if (r.vm_total >= 0)
		r.s.st.m.vm_total_pages = (uint64_t)r.vm_total;
	r.in.prof = &r.s.st.kernel.prof;
	r.in.m = &r.s.st.m;
	r.in.now = &r.now;
	n = r.s.st.m.nzones;
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
		r.class_idx = wm_rec_class_idx(&r.s.st.m);
		wm_rec_usable(&r.s.st.m, w, r.class_idx, r.usable);
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
	if (rec_boost_zero(&r))
		sc_after.boost_factor = 0;
	if (r.mode == M_EXTRA && r.knob)
		sc_after.extra_free_kbytes = r.extra_kb;
	if ((rc = snapshot_predict(&r.s, &sc_after, WM_RECOMPUTE_WMARKS, r.after)))
		goto out;
	snapshot_reserve(&r.s, r.after, &r.rv);

	switch (r.mode) {
	case M_EXTRA:
		rec_extra_reasons(&r);
		break;
	case M_BURST:
		rec_burst_reasons(&r);
		break;
	case M_TUNE:
		rec_tune_reasons(&r);
		break;
	default:
		rec_measure_reasons(&r);
		rec_boost_reasons(&r);
		if (r.dec.verdict == WM_REC_LOWER)
			rec_sqrt_reason(&r);
		break;
	}
	if (r.kept_from >= 0)
		rec_reason(&r, "wsf %" PRId64 " would do, but every wsf from %" PRId64 " to %" PRId64 " gives the same gaps: "
		       "keep %" PRId64 "", r.kept_from, r.kept_from, r.now.wsf, r.now.wsf);
	rec_floor_reason(&r);
	if (r.ans.capped) {
		if (r.ans.wanted > 0)
			warning(&r, "the target needs wsf %" PRId64 ", beyond this kernel's maximum %" PRId64 ": "
				"capped at %" PRId64 ", which holds %.1f MiB of the %.1f MiB needed",
				r.ans.wanted, r.s.st.kernel.prof.wsf_max, r.ans.wsf,
				rec_mib(r.ans.gap_after, r.s.st.m.page_size),
				rec_mib(r.ans.gap_needed, r.s.st.m.page_size));
		else
			warning(&r, "no wsf up to %d reaches the target: capped at %" PRId64 "",
				WM_REC_WSF_CEILING, r.ans.wsf);
	}

	nrows = rec_build_rows(&r, rows);
	rc = rec_print(&r, rows, nrows);
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
