/* SPDX-License-Identifier: MIT */
/*
 * replay.h - the text of `wmark recommend --record`, parsed for --replay.
 *
 * A recording is a first line "# wmark recommend readings 1 zones=N", then
 * one reading a line:
 *   t=SECONDS COUNTER=VALUE... [psi=SOME_US,FULL_US] zone=FREE,MIN,LOW,HIGH,BOOST...
 * with the counters by their JSON names (wm_rec_ctrs[].json), one zone=
 * field per zone in zoneinfo's order, BOOST -1 where zoneinfo printed none.
 * Lines starting with '#' and blank lines are skipped; unknown KEY=VALUE
 * fields (a later wmark's) too.  No I/O: the CLI reads the file and hands
 * over its lines; a line's errors come back in a wm_diag whose key is the
 * field involved.
 */
#ifndef WMARK_REPLAY_H
#define WMARK_REPLAY_H

#include <stddef.h>

#include "boost.h"
#include "recommend.h"
#include "wmark.h"

#define WM_REPLAY_MAGIC "# wmark recommend readings 1"

/*
 * Parse the first line of a recording (with or without its newline): the
 * magic, then " zones=N" with N in 1..WM_MAX_ZONES * 1024.  Set *nzones.
 * Return WM_OK, or WM_EPARSE (not a recording, no or a bad zones=) with
 * diag->msg set.
 */
int wm_replay_header(const char *line, size_t *nzones, struct wm_diag *diag);

/*
 * Parse one reading line into *s (zeroed first) and obs[0..nzones): t=
 * must be there and be a finite number, counters whole decimals below
 * 2^64, psi= two of them, each zone= five (the first four below 2^64 and
 * fitting a page count here, BOOST -1 or such a count), exactly nzones
 * zone= fields.  line is modified (split into fields).  Return WM_OK, or
 * WM_EPARSE with diag->key the field and diag->msg what is wrong.
 */
int wm_replay_line(char *line, size_t nzones, struct wm_rec_sample *s,
		   struct wm_boost_obs *obs, struct wm_diag *diag);

#endif
