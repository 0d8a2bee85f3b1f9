/* SPDX-License-Identifier: MIT */
/*
 * replay.c - the readings `wmark recommend --record` writes, parsed back.
 *
 * The subtle point: every number here is a kernel counter or a page count
 * written by wmark itself, so the parser accepts exactly what the writer
 * prints (plain decimal digits, -1 for an absent boost) and nothing a
 * libc number parser would also take: no sign on a counter, no blanks, no
 * hex, no value that wraps.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

/* Digits at s (at least one, value below 2^64): set *v, return the end, or NULL. */
static const char *digits_u64(const char *s, uint64_t *v)
{
	const char *p = s;
	uint64_t x = 0;

	for (; *p >= '0' && *p <= '9'; p++) {
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

int wm_replay_header(const char *line, size_t *nzones, struct wm_diag *diag)
{
	size_t ml = strlen(WM_REPLAY_MAGIC);
	const char *p;
	uint64_t n;

	if (strncmp(line, WM_REPLAY_MAGIC, ml))
		return wm_fail(diag, WM_EPARSE, 1, NULL,
			       "not a file of wmark recommend --record (no \"%s\" line)",
			       WM_REPLAY_MAGIC);
	p = line + ml;
	if (strncmp(p, " zones=", 7))
		return wm_fail(diag, WM_EPARSE, 1, "zones",
			       "the first line has no zones=N after \"%s\"", WM_REPLAY_MAGIC);
	p = digits_u64(p + 7, &n);
	if (!p || (*p && strcmp(p, "\n") && strcmp(p, "\r\n")))
		return wm_fail(diag, WM_EPARSE, 1, "zones", "zones= is not a whole number");
	if (n < 1 || n > WM_MAX_ZONES * 1024)
		return wm_fail(diag, WM_EPARSE, 1, "zones", "zones=%llu: no machine has that many",
			       (unsigned long long)n);
	*nzones = (size_t)n;
	return WM_OK;
}

/* A page count of a zone= field: digits that fit an unsigned long. */
static const char *zone_count(const char *p, uint64_t *v)
{
	uint64_t x;

	p = digits_u64(p, &x);
	if (!p || x > UINT64_MAX)
		return NULL;
	*v = (uint64_t)x;
	return p;
}

static int zone_field(const char *p, struct wm_boost_obs *o)
{
	uint64_t b;

	if (!(p = zone_count(p, &o->free)) || *p++ != ',' ||
	    !(p = zone_count(p, &o->min)) || *p++ != ',' ||
	    !(p = zone_count(p, &o->low)) || *p++ != ',' ||
	    !(p = zone_count(p, &o->high)) || *p++ != ',')
		return -1;
	if (!strcmp(p, "-1")) {
		o->boost = -1;
		return 0;
	}
	if (!(p = zone_count(p, &b)) || *p || b > INT64_MAX)
		return -1;
	o->boost = (int64_t)b;
	return 0;
}

int wm_replay_line(char *line, size_t nzones, struct wm_rec_sample *s,
		   struct wm_boost_obs *obs, struct wm_diag *diag)
{
	bool have_t = false;
	char *f, *save = NULL;
	size_t z = 0;

	memset(s, 0, sizeof(*s));
	for (f = strtok_r(line, " \t\r\n", &save); f; f = strtok_r(NULL, " \t\r\n", &save)) {
		char *eq = strchr(f, '='), *end;
		const char *p;
		size_t k;

		if (!eq)
			return wm_fail(diag, WM_EPARSE, 0, f, "'%s' is not KEY=VALUE", f);
		*eq = '\0';
		if (!strcmp(f, "t")) {
			if (!eq[1] || !strchr("-0123456789.", eq[1]))
				goto bad;
			errno = 0;
			s->t = strtod(eq + 1, &end);
			if (errno || *end || !isfinite(s->t))
				goto bad;
			have_t = true;
		} else if (!strcmp(f, "psi")) {
			if (!(p = digits_u64(eq + 1, &s->psi_some)) || *p++ != ',' ||
			    !(p = digits_u64(p, &s->psi_full)) || *p)
				goto bad;
			s->psi = true;
		} else if (!strcmp(f, "zone")) {
			if (z >= nzones)
				return wm_fail(diag, WM_EPARSE, 0, "zone",
					       "more zone= fields than the %zu of the header",
					       nzones);
			if (zone_field(eq + 1, &obs[z]))
				goto bad;
			z++;
		} else {
			for (k = 0; k < WM_REC_NCTR; k++)
				if (!strcmp(wm_rec_ctrs[k].json, f))
					break;
			/* other keys: from a later wmark, skipped */
			if (k == WM_REC_NCTR)
				continue;
			if (!(p = digits_u64(eq + 1, &s->c[k])) || *p)
				goto bad;
			s->have |= 1u << k;
		}
		continue;
bad:
		*eq = '=';
		return wm_fail(diag, WM_EPARSE, 0, f, "bad value in '%s'", f);
	}
	if (!have_t)
		return wm_fail(diag, WM_EPARSE, 0, "t", "no t= field");
	if (z != nzones)
		return wm_fail(diag, WM_EPARSE, 0, "zone",
			       "%zu zones, but the recording has %zu (zones= in its header)", z,
			       nzones);
	return WM_OK;
}
