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
 * PAGE_SHIFT of machine m: the smallest s with 2^s >= m->page_size.
 * m->page_size must be known (wm_need_geometry); callers shift by
 * (result - 10) to turn KiB into pages.
 */
unsigned wm_page_shift(const struct wm_machine *m);

/*
 * Whether machine m has the geometry a model function needs: a page
 * size of at least 4096 bytes and, with pageblock, a pageblock.  Return
 * WM_OK, or WM_EINVAL with diag saying which is unknown (0): a machine's
 * geometry comes from wm_state_build(), wm_geometry_settle() or
 * wm_geometry_assume(), never from a default here.
 */
int wm_need_geometry(const struct wm_machine *m, bool pageblock, struct wm_diag *diag);

/*
 * Whether ZONE_MOVABLE counts as highmem for a kernel of profile p on
 * machine m, as is_highmem_idx() (include/linux/mmzone.h) decides where
 * a HighMem zone is configured:
 *  - 5.14 to 7.2: when movable_zone, the zone Movable takes its pages
 *    from, is ZONE_HIGHMEM.  find_usable_zone_for_movable()
 *    (mm/page_alloc.c; mm/mm_init.c from 6.4) picks the highest zone below
 *    Movable whose architecture range holds a page frame, over all nodes
 *    (ZONE_DEVICE's range is empty): HighMem exactly when some node's
 *    HighMem zone has pages, i.e. a 32-bit kernel with more RAM than its
 *    ~880 MiB of lowmem.  6.1 reads so.
 *  - before 5.14 (5.10 reads so): zone_movable_is_highmem() tested
 *    movable_zone only on kernels built for several nodes; on the others
 *    it compared zone indexes, ZONE_MOVABLE - 1 == ZONE_HIGHMEM, true
 *    wherever HighMem is configured.  A machine listing one node is taken
 *    as such a kernel ("mm/mmzone.h: simplify is_highmem_idx()" dropped
 *    the index test, 2021).
 * m->movable_highmem says yes for a machine whose HighMem zones are not
 * listed.  Never fails.
 */
bool wm_movable_highmem(const struct wm_profile *p, const struct wm_machine *m);

/*
 * Whether profile p gives zones of type t the clamp(managed / 1024, 32,
 * 128) min instead of a share of pages_min, and leaves them out of
 * lowmem_pages, on a machine where movable_highmem is
 * wm_movable_highmem(): HighMem always; Movable from 6.6
 * (__setup_per_zone_wmarks() tests ZONE_MOVABLE itself), and before 6.6
 * when Movable counts as highmem (it tests is_highmem() alone).  Never
 * fails.
 */
bool wm_zone_capped(const struct wm_profile *p, bool movable_highmem,
		    enum wm_zone_type t);

#endif /* WMARK_INTERNAL_H */
