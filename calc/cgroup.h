/* SPDX-License-Identifier: MIT */
/*
 * cgroup.h - the cgroup v2 memory files reclaim and scan read, parsed.
 *
 * memory.current, memory.min, memory.low, memory.high, memory.max and
 * memory.swap.max hold one value: a byte count, or "max" where a limit is
 * unset (mm/memcontrol.c prints them with seq_puts_memcg_tunable: the
 * digits of a u64, or "max", and a newline).  memory.stat is "key value"
 * lines (memory_stat_format()), like /proc/vmstat.  The parsers accept
 * exactly those forms: plain decimal digits below 2^64, no sign, no blank
 * before them, at most one newline after; anything else is no value,
 * never a wrapped one.  No I/O: the CLI reads the file.
 */
#ifndef WMARK_CGROUP_H
#define WMARK_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wmark.h"

/*
 * Parse a one-value cgroup file buf[0..len): set *v and *max (true for
 * "max", *v then UINT64_MAX).  Return WM_OK, or WM_EPARSE with diag->msg
 * (empty, not a number, past 2^64 - 1, text after it).
 */
int wm_cg_parse_value(const char *buf, size_t len, uint64_t *v, bool *max,
		      struct wm_diag *diag);

/*
 * The value of the first line "KEY VALUE" of memory.stat text buf[0..len)
 * whose key is key (exactly, followed by blanks): true and *v set when the
 * value is plain digits below 2^64 followed by the line's end (or by " kB",
 * as /proc/meminfo's "MemTotal:   N kB", which reclaim reads for the root
 * cgroup); false when there is no such line or its value is not such a
 * number.
 */
bool wm_cg_stat_get(const char *buf, size_t len, const char *key, uint64_t *v);

#endif
