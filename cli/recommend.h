/* SPDX-License-Identifier: MIT */
/*
 * recommend.h - the parts of `wmark recommend`, one file a job:
 * cmd_recommend.c (options, the modes, the command), rec_sample.c (the
 * counters read live or from files, --record and --replay),
 * rec_reasons.c (the reasons: the evidence said in words) and
 * rec_output.c (the report in text and JSON).  They share struct rec,
 * one run of the command.
 */
#ifndef WMARK_RECOMMEND_CLI_H
#define WMARK_RECOMMEND_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../calc/boost.h"
#include "../calc/recommend.h"
#include "../calc/reserve.h"
#include "cli.h"
#include "snapshot.h"
#include "tracecount.h"

#define CMD "recommend"
#define MAX_SAMPLE_SECONDS 86400
#define MAX_SAMPLES 200000	/* readings kept in memory: 5.5 h at 100 ms */
#define MAX_REASONS 32

enum mode { M_NONE, M_EXTRA, M_BURST, M_SAMPLE, M_VMSTAT, M_REPLAY, M_TUNE };

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

extern const char *const rec_mode_names[];

/* ---- cmd_recommend.c: shared helpers */

/* Add a reason line (printf-style) to r, up to MAX_REASONS. */
void rec_reason(struct rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* pages of page_size bytes in MiB. */
double rec_mib(uint64_t pages, unsigned page_size);

/* The name of model zone i ("Normal"), "?" when unknown. */
const char *rec_zname(const struct rec *r, size_t i);

/* The zones sel marks, as "DMA32, Normal" into buf (n bytes). */
void rec_zone_list(const struct rec *r, const bool *sel, char *buf, size_t n);

/* ---- rec_sample.c: reading counters, --record and --replay */

/* The boost readings of zoneinfo zi for every model zone (zeros where not printed). */
void rec_boost_obs_of(const struct rec *r, const struct zi_info *zi, struct wm_boost_obs *obs);

/* Read a file the user named (not under the root) whole; 0 or -errno. */
int rec_read_user(const char *path, char **buf, size_t *len);

/* --sample: read the live counters every interval for the seconds asked; *out (malloc) and *n the readings.  EXIT_OK or an exit code after a message. */
int rec_sample_live(struct rec *r, struct wm_rec_sample **out, size_t *n);

/* --vmstat-before/--vmstat-after (and the PSI files): the two readings into s[0..2).  EXIT_OK or an exit code after a message. */
int rec_sample_files(struct rec *r, struct wm_rec_sample *s);

/* --record: write readings s[0..n) in the text replay.h describes.  EXIT_OK or EXIT_SYSTEM after a message. */
int rec_record_write(const struct rec *r, const struct wm_rec_sample *s, size_t n);

/* --replay: the readings of a --record file (readings.h) into *out (malloc), *n, and r->bobs.  EXIT_OK or an exit code after a message. */
int rec_replay_read(struct rec *r, struct wm_rec_sample **out, size_t *n);

/* ---- rec_reasons.c: the reasons (evidence in prose) */

/* The reason line for the floor: the smallest wsf that changes a gap. */
void rec_floor_reason(struct rec *r);

/* The reasons of the extra_free_kbytes mode. */
void rec_extra_reasons(struct rec *r);

/* The reasons of the --burst mode. */
void rec_burst_reasons(struct rec *r);

/* The measured period as text ("45.0 s") into buf. */
const char *rec_period(const struct rec *r, char *buf, size_t n);

/* The reasons of --from-tune. */
void rec_tune_reasons(struct rec *r);

/* The reasons of the measured modes (--sample, --vmstat-*, --replay). */
void rec_measure_reasons(struct rec *r);

/* The boost (pages) watermark_boost_factor allows over the zones used. */
uint64_t rec_boost_allowed(const struct rec *r);

/* Does the answer turn watermark_boost_factor to 0? */
bool rec_boost_zero(const struct rec *r);

/* The reasons about watermark_boost_factor, from the boost evidence. */
void rec_boost_reasons(struct rec *r);

/* What the 2018 RFC's sqrt-clamped high watermark would make of the answer. */
void rec_sqrt_reason(struct rec *r);

/* ---- rec_output.c: the report in text and JSON */

/* The per-zone rows of the report into rows; their number. */
size_t rec_build_rows(const struct rec *r, struct rzone *rows);

/* The verdict word of the answer ("raise", "keep", ...). */
const char *rec_verdict(const struct rec *r);

/* The report on stdout, as text or one JSON document (r->ctx->format).  EXIT_OK. */
int rec_print(struct rec *r, const struct rzone *rows, size_t nrows);

#endif /* WMARK_RECOMMEND_CLI_H */
