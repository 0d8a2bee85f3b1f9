// SPDX-License-Identifier: MIT
/*
 * kver.c - kernel release strings and what each version does.
 *
 * Every version edge here is a row of docs/model.md §8, stable
 * backports included: a Debian "6.1.0-18-amd64" says sublevel 0, so edges
 * that matter inside a stable series (5.10.50, 5.10.186, 5.15.58, 6.12.19,
 * 6.13.7) need the real sublevel, which the CLI takes from the kernel's
 * version string when the release string hides it.
 */
#include <ctype.h>
#include <string.h>

#include "wmark.h"

static const char *read_uint(const char *p, unsigned *out)
{
	uint64_t v = 0;

	if (!isdigit((unsigned char)*p))
		return NULL;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (uint64_t)(*p++ - '0');
		if (v > 100000)
			return NULL;
	}
	*out = (unsigned)v;
	return p;
}

int wm_kver_parse(const char *s, struct wm_kver *out, struct wm_diag *diag)
{
	struct wm_kver k = { 0 };
	const char *p = s;

	while (isspace((unsigned char)*p))
		p++;
	p = read_uint(p, &k.major);
	if (!p || *p != '.')
		goto bad;
	p = read_uint(p + 1, &k.minor);
	if (!p)
		goto bad;
	if (*p == '.' && isdigit((unsigned char)p[1])) {
		p = read_uint(p + 1, &k.sub);
		if (!p)
			goto bad;
	}
	if (k.major < 2 || k.major > 99)
		goto bad;
	k.android = strstr(p, "android") != NULL;
	*out = k;
	return WM_OK;
bad:
	return wm_fail(diag, WM_EPARSE, 0, "kernel",
		       "'%s' is not a kernel release (like 6.1.0-18-amd64 or 5.10.186-android12)",
		       s);
}

bool wm_kver_debian_sublevel(const char *version, struct wm_kver *k)
{
	const char *p;
	unsigned ma, mi, sub;

	if (!version || k->sub != 0 || !(p = strstr(version, "Debian ")))
		return false;
	p = read_uint(p + 7, &ma);
	if (!p || *p != '.' || !(p = read_uint(p + 1, &mi)) || *p != '.' ||
	    !(p = read_uint(p + 1, &sub)))
		return false;
	if (ma != k->major || mi != k->minor)
		return false;
	k->sub = sub;
	return true;
}

int wm_kver_cmp(const struct wm_kver *a, unsigned major, unsigned minor,
		unsigned sub)
{
	if (a->major != major)
		return a->major < major ? -1 : 1;
	if (a->minor != minor)
		return a->minor < minor ? -1 : 1;
	if (a->sub != sub)
		return a->sub < sub ? -1 : 1;
	return 0;
}

/* a >= major.minor.0 */
static bool at_least(const struct wm_kver *a, unsigned major, unsigned minor)
{
	return wm_kver_cmp(a, major, minor, 0) >= 0;
}

/* a is in the stable series major.minor at sublevel >= sub */
static bool stable_from(const struct wm_kver *a, unsigned major,
			unsigned minor, unsigned sub)
{
	return a->major == major && a->minor == minor && a->sub >= sub;
}

static enum wm_lrr_rule lrr_rule(const struct wm_kver *k)
{
	if (!at_least(k, 4, 17))
		return WM_LRR_A;
	if (!at_least(k, 5, 8))
		return WM_LRR_B;
	if (!at_least(k, 5, 11))
		return stable_from(k, 5, 10, 50) ? WM_LRR_D : WM_LRR_C;
	if (!at_least(k, 6, 10))
		return WM_LRR_D;
	/* 6.10 rule E, reverted in 6.14 and by backport in 6.12.y / 6.13.y. */
	if (at_least(k, 6, 14) || stable_from(k, 6, 12, 19) ||
	    stable_from(k, 6, 13, 7))
		return WM_LRR_D;
	return WM_LRR_E;
}

void wm_profile_for(const struct wm_kver *k, struct wm_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->kver = *k;
	p->wsf = at_least(k, 4, 6);
	p->wsf_max = (at_least(k, 5, 17) || stable_from(k, 5, 15, 58) ||
		      stable_from(k, 5, 10, 186)) ? 3000 : 1000;
	p->mfk_clamp_max = at_least(k, 5, 7) ? 262144 : 65536;
	/* mainline THP came in 2.6.38 (RHEL 6's 2.6.32 backport is not mainline) */
	p->thp = wm_kver_cmp(k, 2, 6, 38) >= 0;
	p->thp_lowmem_zones = at_least(k, 4, 17);
	p->boost = at_least(k, 5, 0);
	p->boost_reset_late = p->boost && !at_least(k, 5, 8);
	p->boost_small_zone = at_least(k, 5, 7) || stable_from(k, 5, 4, 0);
	p->boost_printed = at_least(k, 5, 16);
	p->promo = at_least(k, 5, 18);
	p->promo_printed = at_least(k, 6, 12);
	p->movable_capped = at_least(k, 6, 6);
	p->movable_highmem_by_index = !at_least(k, 5, 14);
	p->thp_off_recompute = at_least(k, 5, 16);
	p->empty_zones_printed = at_least(k, 4, 12);
	/*
	 * Android common kernels carried extra_free_kbytes through
	 * android11-5.4; android12-5.10 dropped it for watermark_scale_factor
	 * (set by init's extra_free_kbytes.sh).
	 */
	p->extra_free = k->android && !at_least(k, 5, 10);
	p->lrr_rule = lrr_rule(k);
}

void wm_profile_default(struct wm_profile *p)
{
	static const struct wm_kver newest = { 6, 18, 0, false };

	wm_profile_for(&newest, p);
}

void wm_sysctl_none(struct wm_sysctl *s)
{
	memset(s, 0, sizeof(*s));
	s->min_free_kbytes = s->wsf = s->boost_factor = s->extra_free_kbytes = -1;
}

void wm_sysctl_defaults(const struct wm_profile *p, int nzones_per_node,
			const enum wm_zone_type *types, struct wm_sysctl *s)
{
	int i, hm = 0;

	memset(s, 0, sizeof(*s));
	s->min_free_kbytes = -1;
	s->wsf = 10;
	s->boost_factor = p->boost ? 15000 : -1;
	s->extra_free_kbytes = p->extra_free ? 0 : -1;
	s->have = WM_HAVE_LRR | (p->wsf ? WM_HAVE_WSF : 0) | (p->boost ? WM_HAVE_BOOST : 0) |
		  (p->extra_free ? WM_HAVE_EXTRA : 0);
	if (nzones_per_node > WM_MAX_ZONES)
		nzones_per_node = WM_MAX_ZONES;
	if (p->lrr_rule != WM_LRR_A) {
		/* 4.17+: by zone: DMA 256, DMA32 256, Normal 32, others 0. */
		s->nlrr = nzones_per_node;
		for (i = 0; i < nzones_per_node; i++) {
			switch (types[i]) {
			case WM_ZONE_DMA:
			case WM_ZONE_DMA32:
				s->lrr[i] = 256;
				break;
			case WM_ZONE_NORMAL:
			case WM_ZONE_OTHER:
				s->lrr[i] = 32;
				break;
			default:
				s->lrr[i] = 0;
			}
		}
		return;
	}
	/*
	 * <= 4.16: MAX_NR_ZONES - 1 positional entries {256 DMA, 256 DMA32,
	 * 32 HighMem if configured, 32}, missing ones 0.
	 */
	for (i = 0; i < nzones_per_node; i++)
		if (types[i] == WM_ZONE_HIGHMEM)
			hm = 1;
	s->nlrr = nzones_per_node > 1 ? nzones_per_node - 1 : 1;
	{
		int64_t init[WM_MAX_ZONES] = { 0 };
		int n = 0;

		for (i = 0; i < nzones_per_node; i++) {
			if (types[i] == WM_ZONE_DMA)
				init[n++] = 256;
			else if (types[i] == WM_ZONE_DMA32)
				init[n++] = 256;
		}
		if (hm)
			init[n++] = 32;
		init[n++] = 32;
		for (i = 0; i < s->nlrr; i++)
			s->lrr[i] = i < n ? init[i] : 0;
	}
}
