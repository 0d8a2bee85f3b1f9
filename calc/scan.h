/* SPDX-License-Identifier: MIT */
/*
 * scan.h - decimal numbers in kernel text, shared by the parsers of
 * zoneinfo and the small /proc files.  Inline: zoneinfo's hot path.
 */
#ifndef WMARK_SCAN_H
#define WMARK_SCAN_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * Convert the decimal digits at *pp (before end) into *out, at most max,
 * advancing *pp past them.  Return 0, -1 when there is no digit, -2 when
 * the number exceeds max.
 */
static inline int wm_scan_u64(const char **pp, const char *end, uint64_t max,
			      uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	unsigned d;

	if (p >= end || (unsigned)(*p - '0') > 9)
		return -1;
	do {
		d = (unsigned)(*p - '0');
		if (v > (max - d) / 10)
			return -2;
		v = v * 10 + d;
		p++;
	} while (p < end && (unsigned)(*p - '0') <= 9);
	*pp = p;
	*out = v;
	return 0;
}

/* The same for a long with an optional '-' (and '+' when plus is set). */
static inline int wm_scan_long(const char **pp, const char *end, bool plus,
			       int64_t *out)
{
	const char *p = *pp;
	uint64_t mag;
	int neg = 0, rc;

	if (p < end && (*p == '-' || (plus && *p == '+'))) {
		neg = *p == '-';
		p++;
	}
	rc = wm_scan_u64(&p, end, neg ? (uint64_t)INT64_MAX + 1 : INT64_MAX, &mag);
	if (rc)
		return rc;
	*out = neg ? (int64_t)(0 - (uint64_t)mag) : (int64_t)mag;
	*pp = p;
	return 0;
}

#endif /* WMARK_SCAN_H */
