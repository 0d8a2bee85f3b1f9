/* SPDX-License-Identifier: MIT */
/*
 * show.h - rows of what the kernel printed, shared by show, verify and
 * whatif.
 */
#ifndef WMARK_SHOW_H
#define WMARK_SHOW_H

#include "machine.h"
#include "report.h"

/* Where free memory stands against the zone's watermarks, or NULL. */
const char *show_state(const struct zi_zone *z);

/* Fill r with what zoneinfo printed for z (RV_NONE where it did not). */
void show_row(struct zrow *r, const struct zi_zone *z);

/*
 * The model with the snapshot's own sysctls, one result per zoneinfo
 * zone (malloc'd), or NULL when the sysctls needed are not known.
 */
struct wm_zone_wm *show_model(const struct snapshot *s);

#endif /* WMARK_SHOW_H */
