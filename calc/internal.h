/* SPDX-License-Identifier: MIT */
/*
 * internal.h - rules of the model that more than one calc/ file applies
 * but that are not part of libwmark's interface.  Defined in watermark.c,
 * next to __setup_per_zone_wmarks(), where the kernel applies them.
 */
#ifndef WMARK_INTERNAL_H
#define WMARK_INTERNAL_H

#include <stdbool.h>

#include "wmark.h"

/*
 * PAGE_SHIFT of machine m: the smallest s with 2^s >= m->page_size, 12
 * when m->page_size is 0 (unknown: 4096 assumed).  Never fails; callers
 * shift by (result - 10) to turn KiB into pages.
 */
unsigned wm_page_shift(const struct wm_machine *m);

/*
 * Whether profile p gives zones of type t the clamp(managed / 1024, 32,
 * 128) min instead of a share of pages_min, and leaves them out of
 * lowmem_pages: HighMem always, Movable from 6.6.  Never fails.
 */
bool wm_zone_capped(const struct wm_profile *p, enum wm_zone_type t);

#endif /* WMARK_INTERNAL_H */
