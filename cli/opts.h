/* SPDX-License-Identifier: MIT */
/*
 * opts.h - the options several commands share: the watermark knobs
 * (parsed into a struct wm_change, checked later against the kernel by
 * wm_change_apply), --thp and --formula.  One parser each, so every
 * command words an option error the same way.
 */
#ifndef WMARK_OPTS_H
#define WMARK_OPTS_H

#include <getopt.h>

#include "../calc/change.h"
#include "cli.h"

/* getopt codes of the shared options. */
enum {
	OPT_WSF = 300,
	OPT_MFK,
	OPT_BOOST,
	OPT_LRR,
	OPT_EXTRA,
	OPT_THP,
	OPT_FORMULA,
};

/* The knob options, as struct option rows. */
#define OPTS_KNOBS \
	{ "wsf", required_argument, NULL, OPT_WSF }, \
	{ "min-free-kbytes", required_argument, NULL, OPT_MFK }, \
	{ "boost-factor", required_argument, NULL, OPT_BOOST }, \
	{ "lowmem-reserve-ratio", required_argument, NULL, OPT_LRR }, \
	{ "extra-free-kbytes", required_argument, NULL, OPT_EXTRA }

/* Is c one of the knob codes? */
static inline int opts_is_knob(int c)
{
	return c >= OPT_WSF && c <= OPT_EXTRA;
}

/* The knob of knob option code c (opts_is_knob(c)), and the option that sets knob k. */
enum wm_knob opts_knob_of(int c);
const char *opts_knob_option(enum wm_knob k);

/*
 * Parse the knob option of code c with value arg into ch (its `set` bit
 * and value): an integer of the range of int, or for
 * --lowmem-reserve-ratio a list of them separated by blanks or commas.
 * Whether the kernel accepts it is wm_change_apply()'s to say.  Return an
 * exit code (a usage error naming cmd and the option).
 */
int opts_knob(const char *cmd, int c, const char *arg, struct wm_change *ch);

/* --lowmem-reserve-ratio LIST into s->lrr/nlrr; an exit code. */
int opts_lrr_list(const char *cmd, const char *arg, struct wm_sysctl *s);

/* --thp always|madvise|never|none; an exit code. */
int opts_thp(const char *cmd, const char *arg, enum wm_thp *thp);

/*
 * --formula stock|sqrt|quarter (default: stock's old name), and "both"
 * where cols is not NULL: the high-watermark rule the model follows into
 * *rule, the COL_* bits (report.h) of the columns it shows into *cols.
 * "both" is the stock rule with the RFC's columns beside it.  An exit code.
 */
int opts_formula(const char *cmd, const char *arg, unsigned *cols, enum wm_high_rule *rule);

/* "stock", "sqrt" or "quarter": the --formula name of a rule. */
const char *opts_formula_name(enum wm_high_rule rule);

/*
 * Turn a calc/ error from checking a change into a usage error (exit 2):
 * "wmark: CMD: --wsf: watermark_scale_factor 2000 is out of range: ...".
 */
int opts_change_error(const char *cmd, const struct wm_diag *d);

#endif /* WMARK_OPTS_H */
