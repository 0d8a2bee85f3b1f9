// SPDX-License-Identifier: MIT
/*
 * util.c - integer primitives the kernel's arithmetic rests on, zone
 * names, and the parsers of numbers and sizes used by every command.
 *
 * int_sqrt() and mult_frac() are modelled on lib/math/int_sqrt.c and
 * include/linux/math.h: both are exact floors, so any exact integer
 * method gives the kernel's result (docs/model.md §1).
 * wm_mul_div() is the kernel's u64 mul-then-do_div done in 128 bits
 * without __int128, which 32-bit targets (armv7, i386) do not have.
 */
#include <inttypes.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wmark.h"

int wm_fail(struct wm_diag *diag, int code, int line, const char *key,
	    const char *fmt, ...)
{
	va_list ap;

	if (!diag)
		return code;
	diag->line = line;
	snprintf(diag->key, sizeof(diag->key), "%s", key ? key : "");
	va_start(ap, fmt);
	vsnprintf(diag->msg, sizeof(diag->msg), fmt, ap);
	va_end(ap);
	return code;
}

uint64_t wm_int_sqrt(uint64_t x)
{
	uint64_t r, bit, rem = x;

	/* Digit-by-digit, base 4: exact for the full 64-bit range. */
	r = 0;
	bit = (uint64_t)1 << 62;
	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (rem >= r + bit) {
			rem -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

uint64_t wm_mult_frac(uint64_t x, uint64_t n, uint64_t d)
{
	uint64_t q = x / d, r = x % d;

	return q * n + r * n / d;
}

/* (*hi, *lo) = a * b, schoolbook on 32-bit halves: no partial sum wraps. */
static void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
	uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);

	*lo = mid << 32 | (p00 & 0xffffffffu);
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

bool wm_ctr_delta(uint64_t before, uint64_t after, uint64_t *delta)
{
	*delta = after >= before ? after - before : 0;
	return after >= before;
}

uint64_t wm_mul_div(uint64_t a, uint64_t b, uint64_t d, uint64_t *rem)
{
	uint64_t hi, lo, q = 0, r;
	int i;

	mul_64x64(a, b, &hi, &lo);
	if (hi == 0) {
		q = lo / d;	/* the common case: the product fits */
		r = lo % d;
	} else {
		/*
		 * hi / d only feeds quotient bits 64 and up, which are dropped;
		 * its remainder r < d starts a bit-by-bit long division of lo.
		 */
		r = hi % d;
		for (i = 63; i >= 0; i--) {
			uint64_t carry = r >> 63;	/* 2r + bit needs 65 bits */

			r = r << 1 | (lo >> i & 1);
			q <<= 1;
			if (carry || r >= d) {
				r -= d;	/* exact modulo 2^64: the true value is < 2d */
				q |= 1;
			}
		}
	}
	if (rem)
		*rem = r;
	return q;
}

static const char *const zone_names[] = {
	[WM_ZONE_DMA] = "DMA",
	[WM_ZONE_DMA32] = "DMA32",
	[WM_ZONE_NORMAL] = "Normal",
	[WM_ZONE_HIGHMEM] = "HighMem",
	[WM_ZONE_MOVABLE] = "Movable",
	[WM_ZONE_DEVICE] = "Device",
	[WM_ZONE_OTHER] = "Other",
};

enum wm_zone_type wm_zone_type_of(const char *name)
{
	int t;

	for (t = WM_ZONE_DMA; t < WM_ZONE_OTHER; t++)
		if (strcasecmp(name, zone_names[t]) == 0)
			return t;
	return WM_ZONE_OTHER;
}

const char *wm_zone_type_name(enum wm_zone_type t)
{
	if ((unsigned)t > WM_ZONE_OTHER)
		return "?";
	return zone_names[t];
}

int wm_parse_long(const char *s, int64_t lo, int64_t hi, int64_t *out,
		  struct wm_diag *diag)
{
	char *end;
	int64_t v;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return wm_fail(diag, WM_EPARSE, 0, NULL, "empty number");
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s)
		return wm_fail(diag, WM_EPARSE, 0, NULL, "'%s' is not a number", s);
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return wm_fail(diag, WM_EPARSE, 0, NULL,
			       "'%s' is not a whole number", s);
	if (errno == ERANGE || v < lo || v > hi)
		return wm_fail(diag, WM_ERANGE, 0, NULL,
			       "%s is out of range (%" PRId64 "..%" PRId64 ")", s, lo, hi);
	*out = v;
	return WM_OK;
}

int wm_parse_size(const char *s, uint64_t *bytes, struct wm_diag *diag)
{
	const char *p = s;
	uint64_t whole = 0, frac = 0, fscale = 1, mult = 1, v;
	int shift = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p))
		return wm_fail(diag, WM_EPARSE, 0, NULL,
			       "'%s' is not a size (like 8G, 512M or 1073741824)", s);
	for (; isdigit((unsigned char)*p); p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return wm_fail(diag, WM_ERANGE, 0, NULL, "size '%s' is too large", s);
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return wm_fail(diag, WM_EPARSE, 0, NULL, "'%s' is not a size", s);
		for (; isdigit((unsigned char)*p); p++) {
			if (fscale < 1000000000) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				fscale *= 10;
			}
		}
	}
	switch (toupper((unsigned char)*p)) {
	case 'K': shift = 10; break;
	case 'M': shift = 20; break;
	case 'G': shift = 30; break;
	case 'T': shift = 40; break;
	case 'B': case '\0': shift = 0; break;
	default:
		if (!isspace((unsigned char)*p))
			return wm_fail(diag, WM_EPARSE, 0, NULL,
				       "'%s': unknown unit (K, M, G, T or none)", s);
		shift = 0;	/* blanks after the number, as before it */
	}
	if (shift) {
		p++;
		if (toupper((unsigned char)*p) == 'I' && toupper((unsigned char)p[1]) == 'B')
			p += 2;
		else if (toupper((unsigned char)*p) == 'B')
			p++;
	} else if (toupper((unsigned char)*p) == 'B') {
		p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		return wm_fail(diag, WM_EPARSE, 0, NULL, "'%s' is not a size", s);
	if (frac && !shift)
		return wm_fail(diag, WM_EPARSE, 0, NULL,
			       "'%s': a fraction of a byte", s);
	mult = (uint64_t)1 << shift;
	if (whole > UINT64_MAX / mult)
		return wm_fail(diag, WM_ERANGE, 0, NULL, "size '%s' is too large", s);
	v = whole * mult;
	if (frac) {
		/* frac/fscale of one unit, floored to a byte. */
		uint64_t add = wm_mult_frac(mult, frac, fscale);

		if (v > UINT64_MAX - add)
			return wm_fail(diag, WM_ERANGE, 0, NULL, "size '%s' is too large", s);
		v += add;
	}
	*bytes = v;
	return WM_OK;
}
