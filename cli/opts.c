// SPDX-License-Identifier: MIT
/*
 * opts.c - the options several commands share.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "report.h"

static const char *const knob_option[WM_NKNOBS] = {
	[WM_KNOB_MFK] = "--min-free-kbytes",
	[WM_KNOB_WSF] = "--wsf",
	[WM_KNOB_BOOST] = "--boost-factor",
	[WM_KNOB_EXTRA] = "--extra-free-kbytes",
	[WM_KNOB_LRR] = "--lowmem-reserve-ratio",
};

enum wm_knob opts_knob_of(int c)
{
	static const enum wm_knob of[] = {
		[OPT_WSF - OPT_WSF] = WM_KNOB_WSF,
		[OPT_MFK - OPT_WSF] = WM_KNOB_MFK,
		[OPT_BOOST - OPT_WSF] = WM_KNOB_BOOST,
		[OPT_LRR - OPT_WSF] = WM_KNOB_LRR,
		[OPT_EXTRA - OPT_WSF] = WM_KNOB_EXTRA,
	};

	return of[c - OPT_WSF];
}

const char *opts_knob_option(enum wm_knob k)
{
	return knob_option[k];
}

int opts_lrr_list(const char *cmd, const char *arg, struct wm_sysctl *s)
{
	char buf[256], *tok, *save = NULL;
	struct wm_diag d = { 0 };
	int n = 0;

	if (strlen(arg) >= sizeof(buf))
		return cli_usage(cmd, "--lowmem-reserve-ratio: list too long");
	strcpy(buf, arg);
	for (tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		if (n >= WM_MAX_ZONES)
			return cli_usage(cmd, "--lowmem-reserve-ratio: at most %d values", WM_MAX_ZONES);
		if (wm_parse_long(tok, INT_MIN, INT_MAX, &s->lrr[n], &d))
			return cli_usage(cmd, "--lowmem-reserve-ratio: %s", d.msg);
		n++;
	}
	if (!n)
		return cli_usage(cmd, "--lowmem-reserve-ratio: no values");
	s->nlrr = n;
	s->have |= WM_HAVE_LRR;
	return EXIT_OK;
}

int opts_knob(const char *cmd, int c, const char *arg, struct wm_change *ch)
{
	static const struct { int code; enum wm_knob k; size_t off; } one[] = {
		{ OPT_MFK, WM_KNOB_MFK, offsetof(struct wm_sysctl, min_free_kbytes) },
		{ OPT_WSF, WM_KNOB_WSF, offsetof(struct wm_sysctl, wsf) },
		{ OPT_BOOST, WM_KNOB_BOOST, offsetof(struct wm_sysctl, boost_factor) },
		{ OPT_EXTRA, WM_KNOB_EXTRA, offsetof(struct wm_sysctl, extra_free_kbytes) },
	};
	struct wm_diag d = { 0 };
	size_t i;
	int rc;

	if (c == OPT_LRR) {
		if ((rc = opts_lrr_list(cmd, arg, &ch->to)))
			return rc;
		ch->set |= WM_HAVE_LRR;
		return EXIT_OK;
	}
	for (i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
		if (one[i].code != c)
			continue;
		if (wm_parse_long(arg, INT_MIN, INT_MAX,
				  (int64_t *)((char *)&ch->to + one[i].off), &d))
			return cli_usage(cmd, "%s: %s", knob_option[one[i].k], d.msg);
		ch->set |= wm_knob_have(one[i].k);
		ch->to.have |= wm_knob_have(one[i].k);
		return EXIT_OK;
	}
	return cli_usage(cmd, "unknown option");
}

int opts_thp(const char *cmd, const char *arg, enum wm_thp *thp)
{
	if (strcmp(arg, "always") == 0)
		*thp = WM_THP_ALWAYS;
	else if (strcmp(arg, "madvise") == 0)
		*thp = WM_THP_MADVISE;
	else if (strcmp(arg, "never") == 0)
		*thp = WM_THP_NEVER;
	else if (strcmp(arg, "none") == 0)
		*thp = WM_THP_UNSUPPORTED;
	else
		return cli_usage(cmd, "--thp '%s': always, madvise, never or none", arg);
	return EXIT_OK;
}

int opts_formula(const char *cmd, const char *arg, unsigned *cols, enum wm_high_rule *rule)
{
	unsigned c;

	if (strcmp(arg, "stock") == 0 || strcmp(arg, "default") == 0) {
		*rule = WM_HIGH_STOCK;
		c = COL_DEFAULT;
	} else if (strcmp(arg, "sqrt") == 0) {
		*rule = WM_HIGH_SQRT;
		c = COL_SQRT;
	} else if (strcmp(arg, "quarter") == 0) {
		*rule = WM_HIGH_QUARTER;
		c = COL_DEFAULT;
	} else if (cols && strcmp(arg, "both") == 0) {
		*rule = WM_HIGH_STOCK;
		c = COL_DEFAULT | COL_SQRT;
	} else {
		return cli_usage(cmd, "--formula '%s': %s", arg,
				 cols ? "stock, sqrt, quarter or both" : "stock, sqrt or quarter");
	}
	if (cols)
		*cols = c;
	return EXIT_OK;
}

const char *opts_formula_name(enum wm_high_rule rule)
{
	switch (rule) {
	case WM_HIGH_SQRT: return "sqrt";
	case WM_HIGH_QUARTER: return "quarter";
	case WM_HIGH_STOCK: break;
	}
	return "stock";
}

int opts_change_error(const char *cmd, const struct wm_diag *d)
{
	int k;

	for (k = 0; k < WM_NKNOBS; k++)
		if (strcmp(d->key, wm_knob_name((enum wm_knob)k)) == 0)
			return cli_usage(cmd, "%s: %s", knob_option[k], d->msg);
	return cli_usage(cmd, "%s", d->msg[0] ? d->msg : "invalid change");
}
