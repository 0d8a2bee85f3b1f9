// SPDX-License-Identifier: MIT
/*
 * cmd_tune.c - `wmark tune`: a closed loop over watermark_scale_factor
 * (and watermark_boost_factor) that measures direct reclaim instead of
 * predicting it.
 *
 * Each period it reads zoneinfo (free, file and anon pages per zone,
 * boost), vmstat, PSI and meminfo's SwapFree, asks calc/tune.c's law for
 * a decision, and writes what the law says through the journal of
 * cli/txn.c, as apply does: the journal first, each write read back.  On SIGINT, SIGTERM or SIGHUP it
 * puts the knobs back as they were before its first write (unless
 * --keep).  After a SIGKILL the journal still names them: the next tune,
 * or `wmark rollback`, puts them back.  A knob someone else writes
 * meanwhile is left alone from then on.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../calc/procfs.h"
#include "../calc/recommend.h"
#include "../calc/tune.h"
#include "commands.h"
#include "doc.h"
#include "journal.h"
#include "readings.h"
#include "sig.h"
#include "snapshot.h"
#include "txn.h"

#define CMD "tune"

enum {
	O_INTERVAL = 1000,
	O_DURATION,
	O_MAX_RESERVE,
	O_NO_BOOST,
	O_KEEP,
	O_STATE,
	O_PROM_FILE,
	O_REPLAY,
};

const struct option cmd_tune_opts[] = {
	{ "interval", required_argument, NULL, O_INTERVAL },
	{ "duration", required_argument, NULL, O_DURATION },
	{ "max-reserve", required_argument, NULL, O_MAX_RESERVE },
	{ "no-boost", no_argument, NULL, O_NO_BOOST },
	{ "keep", no_argument, NULL, O_KEEP },
	{ "state", required_argument, NULL, O_STATE },
	{ "prom-file", required_argument, NULL, O_PROM_FILE },
	{ "replay", required_argument, NULL, O_REPLAY },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct tune {
	const struct cli_ctx *ctx;
	double interval, duration;	/* seconds; duration 0: until a signal */
	const char *max_reserve_arg, *state_opt, *prom_file, *replay;
	bool dry_run, keep, no_boost;
	char command[512];
	struct snapshot s;
	bool have_snapshot;
	struct wm_tune_params p;
	struct wm_tune_env env;
	struct wm_tune_state st;
	struct wm_tune_zone *zones;
	struct txn txn;
	bool txn_open;
	bool wsf_foreign, boost_foreign;
	/* --replay */
	struct readings rd;
	bool rd_open, rstarted;
	struct wm_boost_obs *robs;
	double rt0, rnext;
	/* summary */
	size_t periods;
	size_t last_change;		/* the period of the last change, 0 none */
	enum wm_tune_why last_why;	/* the last period's reason */
	uint64_t stalls;
	double t0;
};

static void tune_usage(void)
{
	fputs("Usage: wmark [--root DIR] [-j] tune [OPTIONS]\n"
	      "\n"
	      "Tune vm.watermark_scale_factor (and vm.watermark_boost_factor) in a closed\n"
	      "loop: each period read zoneinfo, vmstat and PSI; raise the min->low gap at\n"
	      "once when allocations stall in direct reclaim, lower it a step at a time\n"
	      "after quiet periods; every wsf from the kernel's own watermark arithmetic.\n"
	      "Writes go through apply's journal; SIGINT, SIGTERM or SIGHUP put the\n"
	      "values back as they were before (unless --keep).\n"
	      "\n"
	      "Options:\n"
	      "  --interval SECONDS     the period (default 10)\n"
	      "  --duration SECONDS     stop after this long (default: until a signal)\n"
	      "  --max-reserve SIZE|N%  no write makes the summed high watermarks larger;\n"
	      "                         default 20% of memory, at most 4G, at least 64M\n"
	      "  --no-boost             leave watermark_boost_factor alone\n"
	      "  --keep                 leave the last values on exit instead of restoring\n"
	      "  --state FILE           the journal (default ROOT/var/lib/wmark/state.json)\n"
	      "  --prom-file FILE       rewrite FILE each period for node_exporter's\n"
	      "                         textfile collector\n"
	      "  --replay FILE          run the law over readings recorded by recommend\n"
	      "                         (with --root the capture of that machine), a\n"
	      "                         period each --interval of their time; writes\n"
	      "                         nothing\n"
	      "  -n, --dry-run          decide and print, write nothing\n"
	      "  -h, --help             this help\n"
	      "\n"
	      "Each change prints one line: the time, the period's evidence, old -> new,\n"
	      "the gap, the reserve and Android's lmkd line in MiB, and why.  With -j,\n"
	      "one JSON object per period, one per line, then a summary object.\n"
	      "Exit: 0 done, 2 bad usage, 3 the system refused a read or a write.\n",
	      stdout);
}

static int parse_seconds(const char *opt, const char *s, double lo, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < lo || v > 31536000.0)
		return cli_usage(CMD, "%s: expected seconds from %g to 31536000, not '%s'", opt, lo, s);
	*out = v;
	return EXIT_OK;
}

static void join_argv(char *out, size_t n, int argc, char **argv)
{
	size_t off = (size_t)snprintf(out, n, "wmark tune");
	int i;

	for (i = 1; i < argc && off < n; i++)
		off += (size_t)snprintf(out + off, n - off, " %s", argv[i]);
}

static int parse_args(struct tune *t)
{
	int c, oi, rc;

	for (oi = 0; oi < t->ctx->args.nopt; oi++) {
		const char *arg = t->ctx->args.opt[oi].arg;

		c = t->ctx->args.opt[oi].code;
		switch (c) {
		case O_INTERVAL:
			if ((rc = parse_seconds("--interval", arg, 0.05, &t->interval)))
				return rc;
			break;
		case O_DURATION:
			if ((rc = parse_seconds("--duration", arg, 0.0, &t->duration)))
				return rc;
			break;
		case O_MAX_RESERVE:
			t->max_reserve_arg = arg;
			break;
		case O_NO_BOOST:
			t->no_boost = true;
			break;
		case O_KEEP:
			t->keep = true;
			break;
		case O_STATE:
			t->state_opt = arg;
			break;
		case O_PROM_FILE:
			t->prom_file = arg;
			break;
		case O_REPLAY:
			t->replay = arg;
			break;
		case 'n':
			t->dry_run = true;
			break;
		case 'h':
			tune_usage();
			return -1;
		default:
			return cli_opt_unhandled(CMD, c);
		}
	}
	if (t->ctx->args.noperand)
		return cli_usage(CMD, "unexpected argument '%s'", t->ctx->args.operand[0]);
	if (t->replay && (t->keep || t->state_opt || t->prom_file || t->duration > 0))
		return cli_usage(CMD, "--replay writes nothing: --keep, --state, --prom-file and "
				 "--duration do not go with it");
	if (t->replay)
		t->dry_run = true;
	return EXIT_OK;
}

/* Managed pages of the machine, for the reserve bound. */
static uint64_t managed_total(const struct wm_machine *m)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < m->nzones; i++)
		sum += m->zones[i].managed;
	return sum;
}

/* --max-reserve: SIZE (bytes, K/M/G/T) or N% of managed memory, into pages. */
static int parse_max_reserve(struct tune *t)
{
	const struct wm_machine *m = &t->s.st.m;
	uint64_t managed = managed_total(m), bytes;
	struct wm_diag d = { 0 };
	const char *a = t->max_reserve_arg;
	size_t len;

	if (!a) {
		t->p.max_reserve = wm_tune_default_max_reserve(managed, m->page_size);
		return EXIT_OK;
	}
	len = strlen(a);
	if (len > 1 && a[len - 1] == '%') {
		char num[32];
		int64_t pct;

		if (len - 1 >= sizeof(num))
			return cli_usage(CMD, "--max-reserve: '%s' is not N%%", a);
		memcpy(num, a, len - 1);
		num[len - 1] = '\0';
		if (wm_parse_long(num, 1, 100, &pct, &d))
			return cli_usage(CMD, "--max-reserve: %s", d.msg);
		t->p.max_reserve = wm_mul_div(managed, (uint64_t)pct, 100, NULL);
		return EXIT_OK;
	}
	if (wm_parse_size(a, &bytes, &d))
		return cli_usage(CMD, "--max-reserve: %s", d.msg);
	if (bytes < m->page_size)
		return cli_usage(CMD, "--max-reserve: %s is less than a page", a);
	t->p.max_reserve = bytes / m->page_size;
	return EXIT_OK;
}

/* ---- one sample -------------------------------------------------------- */

static int read_vmstat_psi(struct tune *t, struct wm_rec_sample *smp)
{
	memset(smp, 0, sizeof(*smp));
	return readings_live(CMD, t->s.root, smp);
}

/* Free, file and anon pages and boost of every model zone, from zoneinfo now. */
static int read_zones(struct tune *t, bool *have_file)
{
	struct zi_info zi;
	size_t i;
	int rc;

	if ((rc = snapshot_reread_zones(&t->s, CMD, &zi)))
		return rc;
	*have_file = false;
	for (i = 0; i < t->s.st.m.nzones; i++) {
		int64_t k = t->s.st.layout.printed[i];
		const struct zi_zone *z = k >= 0 ? &zi.zones[k] : NULL;

		memset(&t->zones[i], 0, sizeof(t->zones[i]));
		if (!z)
			continue;
		t->zones[i].free = z->free;
		t->zones[i].boosted = (z->flags & ZI_HAS_BOOST) && z->boost > 0;
		if (z->has_lru) {
			t->zones[i].file = (uint64_t)z->lru[ZI_INACTIVE_FILE] + z->lru[ZI_ACTIVE_FILE];
			t->zones[i].anon = (uint64_t)z->lru[ZI_INACTIVE_ANON] + z->lru[ZI_ACTIVE_ANON];
			*have_file = true;
		}
	}
	zi_free(&zi);
	return EXIT_OK;
}

/*
 * Free swap space in pages, from meminfo's SwapFree: how much anon kswapd
 * could still swap out.  0 when meminfo or the line is missing or does not
 * parse: anon then pays for nothing, as on a machine without swap.
 */
static uint64_t read_swap_free(const struct tune *t)
{
	struct pf_kv kv = { 0 };
	uint64_t kb = 0;
	char *buf;
	size_t len;

	if (!t->s.st.m.page_size || read_rooted(t->s.root, P_MEMINFO, &buf, &len))
		return 0;
	if (pf_parse_meminfo(buf, len, &kv, NULL) != WM_OK || !pf_kv_get(&kv, "SwapFree", &kb))
		kb = 0;
	pf_kv_free(&kv);
	free(buf);
	return kb / (t->s.st.m.page_size / 1024);
}

/* ---- --replay: the readings of recommend --record ---------------------- */

static int replay_open(struct tune *t)
{
	t->robs = calloc(t->s.st.m.nzones ? t->s.st.m.nzones : 1, sizeof(*t->robs));
	if (!t->robs)
		return cli_err(EXIT_SYSTEM, CMD, "out of memory");
	t->rd_open = true;
	return readings_open(&t->rd, CMD, t->replay, t->s.st.m.nzones, t->s.root);
}

/*
 * The next period's sample: the first reading at or after the period's
 * end (counters are totals, so the reading there is the period's sum), a
 * zone boosted when any reading of the period showed a boost.  *done at
 * the end of the file.  Readings out of time order or counters that go
 * backwards are exit 2 naming the line, as recommend --replay says them.
 */
static int replay_next(struct tune *t, struct wm_tune_sample *smp, bool *done)
{
	size_t nz = t->s.st.m.nzones, z;
	struct wm_rec_sample cur;
	int rc;

	for (z = 0; z < nz; z++)
		t->zones[z].boosted = false;
	for (;;) {
		if ((rc = readings_next(&t->rd, &cur, t->robs, done)) || *done)
			return rc;
		for (z = 0; z < nz; z++)
			if (t->robs[z].boost > 0)
				t->zones[z].boosted = true;
		if (!t->rstarted) {
			t->rstarted = true;
			t->rt0 = cur.t;
		}
		if (t->periods == 0 && !t->st.started) {
			t->rnext = cur.t + t->interval;
			break;
		}
		if (cur.t + 1e-9 >= t->rnext) {
			while (t->rnext <= cur.t + 1e-9)
				t->rnext += t->interval;
			break;
		}
	}
	smp->vm = cur;
	smp->vm.t = cur.t - t->rt0;
	for (z = 0; z < nz; z++) {
		t->zones[z].free = t->robs[z].free;
		t->zones[z].file = 0;
		t->zones[z].anon = 0;
	}
	smp->have_file = false;
	smp->swap_free = 0;
	return EXIT_OK;
}

/* ---- output ------------------------------------------------------------ */

static double mib(const struct tune *t, uint64_t pages)
{
	return (double)pages * t->s.st.m.page_size / 1048576.0;
}

static void clock_str(char *buf, size_t n)
{
	time_t now = time(NULL);
	struct tm tm;

	if (localtime_r(&now, &tm))
		strftime(buf, n, "%H:%M:%S", &tm);
	else
		snprintf(buf, n, "-");
}

/* A knob's value before and after a period: JSON's object key {old, new}. */
static void old_new(struct doc *d, const char *key, long old, long new)
{
	doc_obj(d, key);
	doc_long(d, "old", NULL, old);
	doc_long(d, "new", NULL, new);
	doc_close(d);
}

/*
 * One period: in text a line when it changed something (a hold says
 * nothing), in JSON an object on one line for every period, through the
 * writer's number rule.
 */
static void print_period(const struct tune *t, const struct wm_tune_decision *dc, bool wrote)
{
	static struct doc doc;
	struct doc *d = &doc;
	char clk[24];

	doc_begin_line(d, t->ctx->format, stdout);
	doc_double(d, "t", NULL, dc->t);
	doc_str(d, "action", NULL, wm_tune_action_name(dc->action));
	doc_str(d, "why", NULL, wm_tune_why_name(dc->why));
	doc_bool(d, "written", NULL, wrote);
	if (dc->action != WM_TUNE_HOLD) {
		if (t->replay)
			snprintf(clk, sizeof(clk), "t+%.1fs", dc->t);
		else
			clock_str(clk, sizeof(clk));
		doc_text(d, "%s  stalls %llu (%.1f/s) direct %.1f MiB kswapd %.1f MiB", clk,
			 (unsigned long long)dc->stalls, dc->dt > 0 ? (double)dc->stalls / dc->dt : 0.0,
			 mib(t, dc->steal_direct), mib(t, dc->steal_kswapd));
		if (dc->psi)
			doc_text(d, " psi some %.1f%%",
				 dc->dt > 0 ? (double)dc->psi_some_us / (dc->dt * 1e4) : 0.0);
		doc_text(d, "  free %.1f MiB (min %.1f low %.1f high %.1f)", mib(t, dc->free),
			 mib(t, dc->min_sum), mib(t, dc->low_old), mib(t, dc->high_old));
		if (dc->wsf_new != dc->wsf_old)
			doc_text(d, "  wsf %ld -> %ld", dc->wsf_old, dc->wsf_new);
		if (dc->boost_new != dc->boost_old)
			doc_text(d, "  boost %ld -> %ld", dc->boost_old, dc->boost_new);
		doc_text(d, "  gap %.1f -> %.1f MiB  reserve %.1f -> %.1f MiB  lmkd line %.1f -> %.1f MiB  %s%s\n",
			 mib(t, dc->gap_old), mib(t, dc->gap_new), mib(t, dc->reserve_old),
			 mib(t, dc->reserve_new), mib(t, dc->lmk_old), mib(t, dc->lmk_new),
			 wm_tune_why_text(dc->why),
			 wrote ? "" : t->replay ? " (replay)" : t->dry_run ? " (dry run: not written)" :
			 " (not written)");
	}
	doc_obj(d, "evidence");
	doc_double(d, "seconds", NULL, dc->dt);
	doc_u64(d, "allocstall", NULL, dc->stalls);
	doc_u64(d, "pgscan_direct", NULL, dc->scan_direct);
	doc_u64(d, "pgsteal_direct", NULL, dc->steal_direct);
	doc_u64(d, "pgsteal_kswapd", NULL, dc->steal_kswapd);
	doc_u64(d, "refaults", NULL, dc->refaults);
	doc_u64(d, "compact_stall", NULL, dc->compact_stalls);
	doc_bool(d, "boosted", NULL, dc->boosted);
	doc_u64(d, "free_pages", NULL, dc->free);
	if (dc->psi) {
		doc_u64(d, "psi_some_us", NULL, dc->psi_some_us);
		doc_u64(d, "psi_full_us", NULL, dc->psi_full_us);
	}
	doc_close(d);
	old_new(d, "wsf", dc->wsf_old, dc->wsf_new);
	if (dc->boost_old >= 0)
		old_new(d, "boost_factor", dc->boost_old, dc->boost_new);
	doc_obj(d, "pages");
	doc_u64(d, "gap_old", NULL, dc->gap_old);
	doc_u64(d, "gap_new", NULL, dc->gap_new);
	doc_u64(d, "gap_target", NULL, dc->gap_target);
	doc_u64(d, "min", NULL, dc->min_sum);
	doc_u64(d, "low_old", NULL, dc->low_old);
	doc_u64(d, "low_new", NULL, dc->low_new);
	doc_u64(d, "high_old", NULL, dc->high_old);
	doc_u64(d, "high_new", NULL, dc->high_new);
	doc_u64(d, "reserve_old", NULL, dc->reserve_old);
	doc_u64(d, "reserve_new", NULL, dc->reserve_new);
	doc_u64(d, "peak_old", NULL, dc->peak_old);
	doc_u64(d, "peak_new", NULL, dc->peak_new);
	doc_u64(d, "lmk_old", NULL, dc->lmk_old);
	doc_u64(d, "lmk_new", NULL, dc->lmk_new);
	doc_close(d);
	doc_end(d);
	fflush(stdout);
}

/* node_exporter's textfile: written whole to FILE.tmp, renamed over FILE. */
static int write_prom(const struct tune *t, const struct wm_tune_decision *d)
{
	char tmp[4096];
	FILE *f;
	int e = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", t->prom_file) >= sizeof(tmp))
		return cli_err(EXIT_USAGE, CMD, "--prom-file: path too long");
	f = fopen(tmp, "w");
	if (!f)
		return cli_err(EXIT_SYSTEM, CMD, "%s: %s", tmp, strerror(errno));
	fmt_prom_head(f, "wmark_tune_", "wsf", "vm.watermark_scale_factor as wmark tune left it",
		      "gauge");
	fprintf(f, "wmark_tune_wsf %ld\n", t->st.wsf);
	if (t->st.boost >= 0) {
		fmt_prom_head(f, "wmark_tune_", "boost_factor",
			      "vm.watermark_boost_factor as wmark tune left it", "gauge");
		fprintf(f, "wmark_tune_boost_factor %ld\n", t->st.boost);
	}
	fmt_prom_head(f, "wmark_tune_", "gap_bytes",
		      "summed min->low gap of the zones user memory uses", "gauge");
	fprintf(f, "wmark_tune_gap_bytes %llu\n",
		(unsigned long long)(d->gap_new * t->s.st.m.page_size));
	fmt_prom_head(f, "wmark_tune_", "reserve_bytes",
		      "summed high watermarks with boost's ceiling", "gauge");
	fprintf(f, "wmark_tune_reserve_bytes %llu\n",
		(unsigned long long)(d->reserve_new * t->s.st.m.page_size));
	fmt_prom_head(f, "wmark_tune_", "stalls_total",
		      "allocation stalls in direct reclaim seen by wmark tune", "counter");
	fprintf(f, "wmark_tune_stalls_total %llu\n", (unsigned long long)t->stalls);
	fmt_prom_head(f, "wmark_tune_", "writes_total", "changes wmark tune wrote", "counter");
	fprintf(f, "wmark_tune_writes_total %u\n", t->st.writes);
	if (ferror(f))
		e = errno ? errno : EIO;
	if (fclose(f) && !e)
		e = errno;
	if (!e && rename(tmp, t->prom_file))
		e = errno;
	if (e) {
		unlink(tmp);
		return cli_err(EXIT_SYSTEM, CMD, "%s: %s", t->prom_file, strerror(e));
	}
	return EXIT_OK;
}

/* ---- the loop ---------------------------------------------------------- */

/* A knob someone else wrote: say so once, and leave it alone from then on. */
static void check_foreign(struct tune *t)
{
	struct sc_value v;
	char shown[64];

	if (t->dry_run || !t->txn_open)
		return;
	if (!t->wsf_foreign && txn_changed(&t->txn, WM_KNOB_WSF, &v)) {
		t->wsf_foreign = true;
		txn_value_str(&v, shown, sizeof(shown));
		cli_err(0, CMD, "vm.watermark_scale_factor was written by someone else (now %s): "
			"tune no longer changes it", shown);
	}
	if (t->st.boost >= 0 && !t->no_boost && !t->boost_foreign &&
	    txn_changed(&t->txn, WM_KNOB_BOOST, &v)) {
		t->boost_foreign = true;
		txn_value_str(&v, shown, sizeof(shown));
		cli_err(0, CMD, "vm.watermark_boost_factor was written by someone else (now %s): "
			"tune no longer changes it", shown);
	}
}

/* Write a decision's knobs; true when something was written. */
static int apply_decision(struct tune *t, struct wm_tune_decision *d, bool *wrote)
{
	enum wm_knob k[2];
	char text[2][32];
	const char *to[2];
	int n = 0, rc;

	*wrote = false;
	if (d->action == WM_TUNE_HOLD || t->dry_run)
		return EXIT_OK;
	if (d->wsf_new != d->wsf_old && !t->wsf_foreign) {
		k[n] = WM_KNOB_WSF;
		snprintf(text[n], sizeof(text[n]), "%ld\n", d->wsf_new);
		to[n] = text[n];
		n++;
	}
	if (d->boost_new != d->boost_old && !t->boost_foreign) {
		k[n] = WM_KNOB_BOOST;
		snprintf(text[n], sizeof(text[n]), "%ld\n", d->boost_new);
		to[n] = text[n];
		n++;
	}
	if (!n) {
		/* the knob is someone else's now: the law's state goes back */
		wm_tune_written(&t->st, d->wsf_old, d->boost_old);
		return EXIT_OK;
	}
	rc = txn_write(&t->txn, k, to, n);
	if (rc != EXIT_OK) {
		wm_tune_written(&t->st, d->wsf_old, d->boost_old);
		return rc;
	}
	*wrote = true;
	return EXIT_OK;
}

/* Settled: no change over the last third of the run (and some periods at all). */
static bool settled(const struct tune *t)
{
	return t->periods >= 3 && (t->periods - t->last_change) * 3 >= t->periods;
}

/* The run's end: a few lines of text, or the object "summary" on one line. */
static void summary(const struct tune *t, int rc, bool restored)
{
	static struct doc doc;
	struct doc *d = &doc;
	char line[256];
	int off;

	off = snprintf(line, sizeof(line), "wmark apply --wsf %ld", t->st.wsf);
	if (t->st.boost >= 0 && !t->no_boost)
		snprintf(line + off, sizeof(line) - (size_t)off, " --boost-factor %ld", t->st.boost);
	doc_begin_line(d, t->ctx->format, stdout);
	doc_obj(d, "summary");
	doc_u64(d, "periods", "tune: %" PRIu64 " periods", t->periods);
	doc_double(d, "seconds", NULL, t->replay ? t->rd.prev.t - t->rt0 : sig_now() - t->t0);
	doc_u64(d, "stalls", ", %" PRIu64 " stalls", t->stalls);
	doc_u64(d, "writes", ", %" PRIu64 " change", t->st.writes);
	doc_text(d, "%s", t->st.writes == 1 ? "" : "s");
	doc_long(d, "wsf", "; ended at wsf %" PRId64, t->st.wsf);
	if (t->st.boost >= 0)
		doc_long(d, "boost_factor", ", boost %" PRId64, t->st.boost);
	doc_u64(d, "max_reserve_pages", NULL, t->p.max_reserve);
	doc_u64(d, "last_change_period", NULL, t->last_change);
	doc_bool(d, "settled", NULL, settled(t));
	if (settled(t))
		doc_text(d, ", settled (no change in the last %zu periods)", t->periods - t->last_change);
	else
		doc_text(d, ", still moving (last change %zu of %zu periods)", t->last_change, t->periods);
	doc_str(d, "last_why", NULL, wm_tune_why_name(t->last_why));
	if (t->last_why == WM_TUNE_AT_BOUND)
		doc_text(d, ", held by --max-reserve (%.1f MiB)", mib(t, t->p.max_reserve));
	else if (t->last_why == WM_TUNE_AT_TOP)
		doc_text(d, ", held by the kernel's largest wsf");
	else if (t->last_why == WM_TUNE_NO_CACHE)
		doc_text(d, ", held by the file cache");
	doc_bool(d, "dry_run", NULL, t->dry_run);
	doc_bool(d, "restored", NULL, restored);
	doc_text(d, "\n%s\n", t->replay ? "replay: nothing was written" :
		 t->dry_run ? "dry run: nothing was written" :
		 restored ? "the values from before are back" :
		 t->st.writes ? "the last values stay (--keep)" : "nothing was written");
	strncat(line, " --persist /etc/sysctl.d/90-wmark.conf", sizeof(line) - strlen(line) - 1);
	doc_str(d, "apply", "to keep it: %s\n", line);
	doc_bool(d, "ok", NULL, rc == EXIT_OK);
	doc_close(d);
	doc_end(d);
}

static int run(struct tune *t)
{
	struct wm_diag d = { 0 };
	enum wm_knob use[2] = { WM_KNOB_WSF, WM_KNOB_BOOST };
	char boost[32] = "";
	double next;
	bool restored = false;
	int rc, nuse;

	if ((rc = snapshot_read(t->ctx, &t->s)))
		return rc;
	t->have_snapshot = true;
	if (!t->s.st.kernel.prof.wsf)
		return cli_err(EXIT_USAGE, CMD, "kernel %s has no watermark_scale_factor (4.6+)",
			       t->s.st.kernel.osrelease[0] ? t->s.st.kernel.osrelease : "?");
	if ((rc = snapshot_need(&t->s, CMD, &t->s.st.sysctl, WM_HAVE_MFK | WM_HAVE_WSF, NULL)))
		return rc;
	wm_tune_defaults(&t->p);
	t->p.boost = !t->no_boost;
	if ((rc = parse_max_reserve(t)))
		return rc;
	t->env.prof = &t->s.st.kernel.prof;
	t->env.m = &t->s.st.m;
	t->env.sysctl = t->s.st.sysctl;
	if (t->no_boost || !t->s.st.kernel.prof.boost || !(t->s.st.sysctl.have & WM_HAVE_BOOST))
		t->env.sysctl.have &= ~(unsigned)WM_HAVE_BOOST;
	if (wm_tune_start(&t->env, &t->st, &d))
		return cli_diag(CMD, WM_EINVAL, &d);
	t->zones = calloc(t->s.st.m.nzones ? t->s.st.m.nzones : 1, sizeof(*t->zones));
	if (!t->zones)
		return cli_err(EXIT_SYSTEM, CMD, "out of memory");

	nuse = t->st.boost >= 0 ? 2 : 1;
	if (t->replay) {
		if ((rc = replay_open(t)))
			return rc;
	} else {
		rc = txn_begin(&t->txn, t->ctx, CMD, t->state_opt, t->s.st.kernel.osrelease, t->command,
			       use, nuse, t->dry_run);
		if (rc != EXIT_OK)
			return rc;
		t->txn_open = true;
	}

	if ((rc = sig_catch_stop(true)) < 0)
		return cli_err(EXIT_SYSTEM, CMD, "signals: %s", strerror(-rc));

	if (t->st.boost >= 0)
		snprintf(boost, sizeof(boost), ", boost %ld", t->st.boost);
	doc_log(t->ctx->format, stdout, "tune: kernel %s, root %s, every %g s%s; wsf %ld%s; reserve bound %.1f MiB\n",
		t->s.st.kernel.osrelease[0] ? t->s.st.kernel.osrelease : "unknown", t->ctx->root,
		t->interval, t->replay ? " of the recording" : t->dry_run ? ", dry run" : "",
		t->st.wsf, boost, mib(t, t->p.max_reserve));
	t->t0 = sig_now();
	next = t->t0;
	while (!sig_stopped()) {
		struct wm_tune_sample smp;
		struct wm_tune_decision dec;
		bool wrote = false;

		if (t->replay) {
			bool done;

			if ((rc = replay_next(t, &smp, &done)) || done)
				break;
		} else {
			if ((rc = read_vmstat_psi(t, &smp.vm)) || (rc = read_zones(t, &smp.have_file)))
				break;
			smp.swap_free = read_swap_free(t);
			smp.vm.t = sig_now() - t->t0;
		}
		smp.zones = t->zones;
		check_foreign(t);
		if (wm_tune_step(&t->p, &t->env, &t->st, &smp, &dec, &d)) {
			rc = cli_diag(CMD, WM_EINVAL, &d);
			break;
		}
		if (dec.why != WM_TUNE_FIRST)
			t->periods++;
		t->stalls += dec.stalls;
		if ((rc = apply_decision(t, &dec, &wrote)))
			break;
		if (dec.action != WM_TUNE_HOLD)
			t->last_change = t->periods;
		t->last_why = dec.why;
		print_period(t, &dec, wrote);
		if (t->prom_file && (rc = write_prom(t, &dec)))
			break;
		if (t->replay)
			continue;
		if (t->duration > 0 && sig_now() - t->t0 + 1e-9 >= t->duration)
			break;
		next += t->interval;
		if (t->duration > 0 && next > t->t0 + t->duration)
			next = t->t0 + t->duration;
		sig_sleep_until(next);
	}
	if (sig_stopped())
		doc_log(t->ctx->format, stdout, "tune: %s: stopping\n", strsignal(sig_stopped()));
	if (!t->dry_run && !t->keep && t->txn.journaled) {
		int r = txn_restore(&t->txn);

		restored = r == EXIT_OK;
		if (r && !rc)
			rc = r;
	}
	summary(t, rc, restored);
	return rc;
}

int cmd_tune(struct cli_ctx *ctx, int argc, char **argv)
{
	struct tune t;
	int rc;

	memset(&t, 0, sizeof(t));
	t.ctx = ctx;
	t.interval = 10.0;
	join_argv(t.command, sizeof(t.command), argc, argv);
	rc = parse_args(&t);
	if (rc < 0)
		return EXIT_OK;
	if (rc == EXIT_OK)
		rc = run(&t);
	if (t.txn_open)
		txn_end(&t.txn);
	if (t.have_snapshot)
		snapshot_free(&t.s);
	free(t.zones);
	free(t.robs);
	if (t.rd_open)
		readings_close(&t.rd);
	return rc;
}
