/* SPDX-License-Identifier: MIT */
/*
 * cgroup.c - cgroup v2 memory files: one-value files and memory.stat.
 *
 * The subtle point: sscanf("%lu") would take "-5" as 2^64 - 5 and a
 * 30-digit count as undefined behaviour; a counter that wraps here would
 * come out of reclaim's measurements as an absurd number.  Digits only,
 * with an overflow check.
 */
#include <string.h>

#include "cgroup.h"

/* Digits at p (before end): at least one, below 2^64; the end, or NULL. */
static const char *digits(const char *p, const char *end, uint64_t *v)
{
	const char *s = p;
	uint64_t x = 0;

	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (x > (UINT64_MAX - d) / 10)
			return NULL;
		x = x * 10 + d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

int wm_cg_parse_value(const char *buf, size_t len, uint64_t *v, bool *max,
		      struct wm_diag *diag)
{
	const char *end = buf + len, *p;

	if (len && buf[len - 1] == '\n')
		end--;
	*max = false;
	if (end - buf == 3 && !memcmp(buf, "max", 3)) {
		*max = true;
		*v = UINT64_MAX;
		return WM_OK;
	}
	if (end == buf)
		return wm_fail(diag, WM_EPARSE, 1, NULL, "empty: expected a number or max");
	p = digits(buf, end, v);
	if (!p) {
		if (*buf >= '0' && *buf <= '9')
			return wm_fail(diag, WM_EPARSE, 1, NULL, "a number past 2^64 - 1");
		return wm_fail(diag, WM_EPARSE, 1, NULL, "expected a number or max");
	}
	if (p != end)
		return wm_fail(diag, WM_EPARSE, 1, NULL, "text after the number");
	return WM_OK;
}

bool wm_cg_stat_get(const char *buf, size_t len, const char *key, uint64_t *v)
{
	const char *p = buf, *end = buf + len;
	size_t kl = strlen(key);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end, *q;

		if ((size_t)(e - p) > kl && !memcmp(p, key, kl) && (p[kl] == ' ' || p[kl] == '\t')) {
			for (q = p + kl; q < e && (*q == ' ' || *q == '\t'); q++)
				;
			q = digits(q, e, v);
			if (q && e - q == 3 && !memcmp(q, " kB", 3))
				q = e;	/* meminfo's unit */
			return q && q == e;
		}
		p = nl ? nl + 1 : end;
	}
	return false;
}
