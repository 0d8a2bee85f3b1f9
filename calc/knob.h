/* SPDX-License-Identifier: MIT */
/*
 * knob.h - the watermark sysctls, one row each: everything calc/ knows of
 * a knob in one place.  Its file under /proc/sys/vm, its WM_HAVE_* bit,
 * where struct wm_sysctl keeps it, what a write makes the kernel
 * recompute (the knob's proc handler in mm/page_alloc.c), which kernels
 * have it, and what the Prometheus form says of it.  The ranges a kernel
 * accepts depend on the profile as well: wm_knob_range() (change.h).
 *
 * The CLI keeps only what is its own: the option names and the paths.
 */
#ifndef WMARK_KNOB_H
#define WMARK_KNOB_H

#include <stdbool.h>
#include <stddef.h>

#include "machine.h"
#include "sysctl_text.h"
#include "wmark.h"

/* What a write to a knob makes the kernel recompute. */
enum wm_recompute {
	WM_RECOMPUTE_WMARKS = 1u << 0,	/* setup_per_zone_wmarks(): every zone, boost reset */
	WM_RECOMPUTE_PROT = 1u << 1,	/* setup_per_zone_lowmem_reserve() */
};

/* off of a knob that is no one int64_t of struct wm_sysctl (lowmem_reserve_ratio) */
#define WM_KNOB_LIST ((size_t)-1)

struct wm_knob_def {
	enum wm_knob knob;
	const char *name;	/* file under /proc/sys/vm; the sysctl key less "vm." */
	unsigned have;		/* its WM_HAVE_* bit */
	size_t off;		/* offset of its int64_t in struct wm_sysctl, or WM_KNOB_LIST */
	unsigned recomputes;	/* WM_RECOMPUTE_* bits a write sets off */
	/* the kernels that have it: profile's flag, NULL for every kernel */
	bool (*present)(const struct wm_profile *p);
	const char *absent;	/* "watermark boost (5.0+)": what a kernel without it lacks */
	const char *help;	/* the Prometheus HELP of its value */
};

/* The row of knob k, or NULL for a k outside the enum. */
const struct wm_knob_def *wm_knob_def(enum wm_knob k);

/*
 * The value of scalar knob k in s (its field, whether or not s->have has
 * its bit), or NULL for lowmem_reserve_ratio and for a k outside the enum.
 */
const int64_t *wm_knob_value(const struct wm_sysctl *s, enum wm_knob k);

#endif /* WMARK_KNOB_H */
