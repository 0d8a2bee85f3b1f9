// SPDX-License-Identifier: MIT
/*
 * knob.c - the table of watermark sysctls (knob.h).
 *
 * The recompute column is each knob's handler in mm/page_alloc.c (4.6 to
 * 7.x): min_free_kbytes_sysctl_handler(), watermark_scale_factor_sysctl_
 * handler() and Android's extra_free_kbytes handler call
 * setup_per_zone_wmarks(); lowmem_reserve_ratio_sysctl_handler() calls
 * setup_per_zone_lowmem_reserve(); watermark_boost_factor is a plain
 * proc_dointvec_minmax() entry that only scales future boosts.  The
 * kernels that have a knob are docs/model.md §5's.
 */
#include <stddef.h>

#include "knob.h"

static bool has_wsf(const struct wm_profile *p)
{
	return p->wsf;
}

static bool has_boost(const struct wm_profile *p)
{
	return p->boost;
}

static bool has_extra(const struct wm_profile *p)
{
	return p->extra_free;
}

#define FIELD(f) offsetof(struct wm_sysctl, f)

static const struct wm_knob_def defs[WM_NKNOBS] = {
	[WM_KNOB_MFK] = { WM_KNOB_MFK, "min_free_kbytes", WM_HAVE_MFK, FIELD(min_free_kbytes),
			  WM_RECOMPUTE_WMARKS, NULL, NULL, "vm.min_free_kbytes" },
	[WM_KNOB_WSF] = { WM_KNOB_WSF, "watermark_scale_factor", WM_HAVE_WSF, FIELD(wsf),
			  WM_RECOMPUTE_WMARKS, has_wsf, "watermark_scale_factor (4.6+)",
			  "vm.watermark_scale_factor" },
	[WM_KNOB_BOOST] = { WM_KNOB_BOOST, "watermark_boost_factor", WM_HAVE_BOOST,
			    FIELD(boost_factor), 0, has_boost, "watermark boost (5.0+)",
			    "vm.watermark_boost_factor" },
	[WM_KNOB_EXTRA] = { WM_KNOB_EXTRA, "extra_free_kbytes", WM_HAVE_EXTRA,
			    FIELD(extra_free_kbytes), WM_RECOMPUTE_WMARKS, has_extra,
			    "extra_free_kbytes (Android kernels before 5.10)",
			    "vm.extra_free_kbytes (Android)" },
	[WM_KNOB_LRR] = { WM_KNOB_LRR, "lowmem_reserve_ratio", WM_HAVE_LRR, WM_KNOB_LIST,
			  WM_RECOMPUTE_PROT, NULL, NULL, "vm.lowmem_reserve_ratio" },
};

const struct wm_knob_def *wm_knob_def(enum wm_knob k)
{
	return (unsigned)k < WM_NKNOBS ? &defs[k] : NULL;
}

const int64_t *wm_knob_value(const struct wm_sysctl *s, enum wm_knob k)
{
	const struct wm_knob_def *d = wm_knob_def(k);

	if (!d || d->off == WM_KNOB_LIST)
		return NULL;
	return (const int64_t *)(const void *)((const char *)s + d->off);
}
